//! The exit codes of `tsume`, in one place.
//!
//! | code | `solve` | `verify` | other commands |
//! |---|---|---|---|
//! | 0 | mate | every problem sound | done |
//! | 1 | no mate | a problem flawed or unproven | — |
//! | 2 | bad input | bad input (a line, a file, tables that do not fit) | bad input |
//! | 3 | unknown (a limit reached) | — | — |

use std::process::ExitCode;

use tsume_solver::dfpn::Outcome;

/// Mate; every problem sound; a command done.
pub const SUCCESS: u8 = 0;
/// No mate (`solve`); a problem flawed or unproven (`verify`).
pub const NEGATIVE: u8 = 1;
/// Bad input: a malformed or illegal SFEN, an unreadable file or line, an impossible
/// option.
pub const BAD_INPUT: u8 = 2;
/// A solve stopped by its node or time limit before an answer.
pub const UNKNOWN: u8 = 3;

/// The exit code of a solve's outcome.
pub fn of_outcome(outcome: &Outcome) -> u8 {
    match outcome {
        Outcome::Mate { .. } => SUCCESS,
        Outcome::NoMate => NEGATIVE,
        Outcome::Unknown(_) => UNKNOWN,
    }
}

/// Reports bad input on stderr (`tsume: <message>`) and returns its exit code.
pub fn bad_input(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("tsume: {message}");
    ExitCode::from(BAD_INPUT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsume_solver::dfpn::search::Stop;

    #[test]
    fn outcomes_have_the_documented_codes() {
        assert_eq!(of_outcome(&Outcome::Mate { moves: Vec::new() }), 0);
        assert_eq!(of_outcome(&Outcome::NoMate), 1);
        assert_eq!(of_outcome(&Outcome::Unknown(Stop::Time)), 3);
    }
}
