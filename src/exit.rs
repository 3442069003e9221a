//! The exit codes of `tsume`, in one place.
//!
//! | code | `solve` | `verify` | other commands |
//! |---|---|---|---|
//! | 0 | a mate (proven shortest or not) | every problem sound | done |
//! | 1 | no mate | a problem flawed or unproven | — |
//! | 2 | bad input | bad input (a line, a file, tables that do not fit) | bad input |
//! | 3 | unknown (a limit reached before any mate) | — | — |
//!
//! A solve interrupted by Ctrl-C prints its answer and then dies by the signal (see
//! `interrupt`), as a shell expects of an interrupted command.

use std::process::ExitCode;

/// A mate found; every problem sound; a command done.
pub const SUCCESS: u8 = 0;
/// No mate (`solve`); a problem flawed or unproven (`verify`).
pub const NEGATIVE: u8 = 1;
/// Bad input: a malformed or illegal SFEN, an unreadable file or line, an impossible
/// option.
pub const BAD_INPUT: u8 = 2;
/// A solve stopped by its node or time limit before it found any mate.
pub const UNKNOWN: u8 = 3;

/// Reports bad input on stderr (`tsume: <message>`) and returns its exit code.
pub fn bad_input(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("tsume: {message}");
    ExitCode::from(BAD_INPUT)
}
