//! `tsume perft`: count the leaves of the move tree (a move generator check).

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use clap::ValueEnum;
use tsume_solver::perft::{divide, perft, PerftMode};
use tsume_solver::Position;

use crate::exit::bad_input;

/// The options of `tsume perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// Position as SFEN (quote it), or `startpos`.
    sfen: String,
    /// Depth in plies.
    #[arg(value_parser = crate::whole_number(0, u32::MAX.into()), allow_negative_numbers = true)]
    depth: u64,
    /// `legal`: every legal move; `mate`: checks at the root side's plies, all replies
    /// at the other side's.
    #[arg(long, value_enum, default_value_t = Mode::Legal)]
    mode: Mode,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Mode {
    Legal,
    Mate,
}

/// `tsume perft`: the count on stdout (after the per-move counts with `--divide`), the
/// time on stderr.
pub fn run(args: PerftArgs) -> ExitCode {
    let mut pos = match Position::from_sfen(&args.sfen) {
        Ok(p) => p,
        Err(e) => return bad_input(e),
    };
    // At most u32::MAX: the value parser's bound.
    let depth = u32::try_from(args.depth).unwrap_or(u32::MAX);
    let mode = match args.mode {
        Mode::Legal => PerftMode::Legal,
        Mode::Mate => PerftMode::Mate,
    };
    let start = Instant::now();
    let mut text = String::new();
    let nodes = if args.divide && depth > 0 {
        let rows = divide(&mut pos, depth, mode);
        for (m, n) in &rows {
            let _ = writeln!(text, "{m}: {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft(&mut pos, depth, mode)
    };
    eprintln!("time: {:.3} s", start.elapsed().as_secs_f64());
    let _ = writeln!(text, "{nodes}");
    match crate::output::write_stdout(&text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => bad_input(format!("writing the count: {e}")),
    }
}
