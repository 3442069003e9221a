//! Loading a position given on the command line: an SFEN, or a KIF or CSA file.

use std::path::Path;

use clap::ValueEnum;
use tsume_solver::kif::{self, Encoding};
use tsume_solver::{csa, Setup};

/// How to read the position argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A file ending in `.kif`/`.kifu` is KIF, `.csa` is CSA; anything else is an SFEN.
    Auto,
    /// The argument is an SFEN (`startpos` allowed).
    Sfen,
    /// The argument is a KIF file: UTF-8 if it ends in `.kifu`, otherwise Shift-JIS unless
    /// it is valid UTF-8.
    Kif,
    /// The argument is a CSA file (UTF-8 or Shift-JIS).
    Csa,
}

/// The format `auto` picks for `arg`.
pub fn detect(arg: &str) -> Format {
    let ext = Path::new(arg)
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("kif" | "kifu") => Format::Kif,
        Some("csa") => Format::Csa,
        _ => Format::Sfen,
    }
}

/// Reads the starting position from `arg`, an SFEN or the path of a KIF or CSA file. The
/// error says what is wrong and, for files, where (`path: line N: …`).
pub fn load_setup(arg: &str, format: Format) -> Result<Setup, String> {
    let auto = format == Format::Auto;
    let format = match format {
        Format::Auto => detect(arg),
        f => f,
    };
    match format {
        Format::Auto | Format::Sfen => arg.parse::<Setup>().map_err(|e| {
            // A path that exists is a file of a kind this command does not read (a pack,
            // an SFEN list): say so instead of reporting its name as a malformed SFEN.
            if auto && Path::new(arg).is_file() {
                format!(
                    "{arg}: a file of unknown kind (solve reads one problem: an SFEN, or a \
                     .kif/.kifu/.csa file, or any file with --format kif|csa); \
                     for packs and SFEN lists use tsume verify"
                )
            } else {
                format!("malformed SFEN: {e}")
            }
        }),
        Format::Kif => {
            let utf8_only = Path::new(arg)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("kifu"));
            let text = read_text(
                arg,
                if utf8_only {
                    Encoding::Utf8
                } else {
                    Encoding::Auto
                },
            )?;
            kif::parse_setup(&text).map_err(|e| format!("{arg}: {e}"))
        }
        Format::Csa => {
            let text = read_text(arg, Encoding::Auto)?;
            csa::parse_setup(&text).map_err(|e| format!("{arg}: {e}"))
        }
    }
}

fn read_text(path: &str, encoding: Encoding) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    kif::decode(&bytes, encoding).map_err(|e| format!("{path}: {e}"))
}

/// What `tsume solve` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Output {
    /// The result, the USI line and the Japanese line (or JSON with --json).
    Text,
    /// A KIF record (UTF-8) of the position and the solution, ending in 詰み (mate), 不詰
    /// (no mate) or 中断 (limit reached).
    Kif,
    /// A CSA V2.2 record of the position and the solution, ending in %TSUMI, %FUZUMI or
    /// %CHUDAN.
    Csa,
}

/// Prints the record of a solve on stdout (statistics on stderr) and returns the exit code
/// of `tsume solve`: 0 mate, 1 no mate, 3 unknown.
pub fn print_record(
    setup: &Setup,
    moves: &[tsume_solver::Move],
    ending: tsume_solver::kif::Ending,
    report: &tsume_solver::dfpn::SolveReport,
    output: Output,
) {
    let pos = tsume_solver::Position::from_setup(setup).expect("validated before");
    let text = match output {
        Output::Kif => kif::write(&pos, moves, ending),
        Output::Csa | Output::Text => csa::write(&pos, moves, ending),
    };
    print!("{text}");
    eprintln!(
        "nodes {} time {:.3}s",
        report.nodes,
        report.elapsed.as_secs_f64()
    );
}
