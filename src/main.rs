//! The `tsume` command-line tool.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use tsume_solver::perft::{perft, PerftMode};
use tsume_solver::Position;

#[derive(Parser)]
#[command(
    name = "tsume",
    version,
    about = "Tsume shogi (詰将棋) solver, verifier and generator"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the move tree (move generator check).
    Perft {
        /// Position as SFEN (quote it), or `startpos`.
        sfen: String,
        /// Depth in plies.
        depth: u32,
        /// `legal`: every legal move; `mate`: checks at the root side's plies, all replies
        /// at the other side's.
        #[arg(long, value_enum, default_value_t = Mode::Legal)]
        mode: Mode,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Mode {
    Legal,
    Mate,
}

/// Exit code for bad input (malformed SFEN, illegal position, impossible option).
const EXIT_BAD_INPUT: u8 = 2;

fn parse_position(sfen: &str) -> Result<Position, ExitCode> {
    Position::from_sfen(sfen).map_err(|e| {
        eprintln!("tsume: {e}");
        ExitCode::from(EXIT_BAD_INPUT)
    })
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_BAD_INPUT } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Perft {
            sfen,
            depth,
            mode,
            divide,
        } => {
            let mut pos = match parse_position(&sfen) {
                Ok(p) => p,
                Err(code) => return code,
            };
            let mode = match mode {
                Mode::Legal => PerftMode::Legal,
                Mode::Mate => PerftMode::Mate,
            };
            let start = Instant::now();
            let nodes = if divide && depth > 0 {
                let rows = tsume_solver::perft::divide(&mut pos, depth, mode);
                for (m, n) in &rows {
                    println!("{m}: {n}");
                }
                rows.iter().map(|(_, n)| n).sum()
            } else {
                perft(&mut pos, depth, mode)
            };
            eprintln!("time: {:.3} s", start.elapsed().as_secs_f64());
            println!("{nodes}");
            ExitCode::SUCCESS
        }
    }
}
