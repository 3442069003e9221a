//! The `tsume` command-line tool.

mod exit;
mod generate;
mod html;
mod input;
mod interrupt;
mod live;
mod merge;
mod output;
mod perft;
mod render;
mod solve;
mod usi;
mod verify;

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use tsume_solver::tsume;

use exit::bad_input;

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
    Perft(perft::PerftArgs),
    /// Prove mate or no mate for a position (the side to move attacks) and print the
    /// shortest mate, or the best mate found when a limit stops the search first. Exit
    /// code: 0 mate (proven shortest or not), 1 no mate, 3 unknown (a limit was reached
    /// before any mate was found), 2 bad input.
    Solve(solve::SolveArgs),
    /// Check problems for soundness (docs/rules.md §3): exact length, best play (変長), no
    /// leftover (駒余り), unique (余詰), no unnecessary piece (不要駒). Exit code: 0 when
    /// every problem is sound, 1 when any is flawed or unproven, 2 for bad input.
    Verify {
        /// A file with one problem per line (`<sfen> [moves <usi>…]`, or a pack's JSON
        /// lines with `sfen` and `solution`), a KIF file (one record, or several as in a
        /// pack's problems.kif) or a CSA file, whose main lines are the claimed solutions;
        /// a pack's directory (its pack.jsonl, as `tsume generate --out` writes it); or `-`
        /// for stdin.
        input: String,
        /// Nodes per sub-search; a search that runs out makes the verdict "unproven".
        #[arg(long, default_value_t = 2_000_000, value_parser = whole_number(1, u64::MAX), allow_negative_numbers = true)]
        budget: u64,
        /// Transposition tables per problem in MiB, 1–65536.
        #[arg(long, default_value_t = 64, value_parser = whole_number(1, 65536), allow_negative_numbers = true)]
        hash: u64,
        /// Threads, 1–256: problems are verified in parallel (each with its own tables),
        /// and when there are fewer problems than threads, the rest search inside each
        /// problem (sharing its tables; --budget then holds for each of the threads of a
        /// search, so a verdict left unproven by one thread may be reached with more).
        #[arg(long, default_value_t = 1, value_parser = whole_number(1, 256), allow_negative_numbers = true)]
        threads: u64,
        /// Skip the unnecessary-piece (不要駒) check (the most expensive one).
        #[arg(long)]
        skip_unnecessary: bool,
        /// Tolerate a non-final attacker move whose other promotion choice also mates
        /// (成生非限定: a blemish, not a cook, by the usual convention of problem books; the
        /// rules (docs/rules.md), and so the default, count it as 余詰). Listed as `promotion_choices`.
        #[arg(long)]
        allow_promotion_choice: bool,
        /// Give the defender every piece not on the board or in the attacker's hand.
        #[arg(long)]
        fill_defender_hand: bool,
        /// One JSON object per problem instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Generate sound tsume problems into a puzzle pack (DIR/pack.jsonl, pack.sfen,
    /// problems.kif, manifest.json). Deterministic for a seed whatever the thread count;
    /// every accepted problem is flushed at once, and rerunning the same command resumes.
    Generate(generate::GenerateArgs),
    /// Merge packs (the shards of `tsume generate --shard K/N`, or any packs of this tool)
    /// into one: duplicates (id or solution skeleton) dropped, the lowest candidate kept,
    /// optionally capped to --count/--length; fresh pack.sfen, problems.kif and a
    /// manifest.json listing the sources and their sha256. The same set of packs gives the
    /// same bytes. Overlapping shards, packs of other rules or versions are refused (exit
    /// code 2, nothing written); with --verify a problem not sound stops it (exit code 1).
    Merge(merge::MergeArgs),
    /// Run as a USI engine on stdin/stdout (`go mate` answers `checkmate …`). A GUI can
    /// also start `tsume` with no arguments: when the first line of its input is `usi`, it
    /// is this engine.
    ///
    /// Commands that arrive during a search wait for it, except `stop`, `quit`, `isready`
    /// and `usi`. `quit` stops the running search and exits at once, discarding the
    /// commands still waiting: a script that pipes several `position …` / `go mate …`
    /// pairs and wants every answer ends its input instead of sending `quit` (the engine
    /// answers what is queued, then exits).
    Usi,
    /// Draw a tsume diagram as SVG: one position, or every problem of a pack.
    Render {
        /// Position as SFEN (quote it), optionally followed by `moves m1 m2 …` (USI); a KIF
        /// or CSA problem file (its starting position; its main line is the moves); or a
        /// pack file (`.jsonl`: one JSON object per line with `id`, `sfen`, `solution`), or
        /// a pack's directory (its pack.jsonl).
        input: String,
        /// Output: the SVG file for an SFEN (`-` for stdout), a directory for a pack
        /// (written as DIR/{id}.svg).
        #[arg(long)]
        out: std::path::PathBuf,
        /// Draw the position after N plies of the moves (the pack's `solution`, the
        /// record's main line), with the Nth move's destination highlighted.
        #[arg(long = "move", value_name = "N", value_parser = whole_number(0, u64::MAX), allow_negative_numbers = true)]
        move_number: Option<u64>,
    },
    /// Print a shell completion script for tsume on stdout, e.g.
    /// `tsume completions bash > ~/.local/share/bash-completion/completions/tsume` (make
    /// the directory first if it is not there), or
    /// for fish into `~/.config/fish/completions/tsume.fish`, for zsh as `_tsume` in a
    /// directory of your `fpath`.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Write a pack as one self-contained, offline HTML page: the problems with thumbnails,
    /// filters by length and grade, and a board to play each solution by clicking.
    Html {
        /// The pack directory (it holds pack.jsonl).
        pack: std::path::PathBuf,
        /// The page to write (`-` for stdout); default: index.html in the pack directory.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
}

/// A shogi GUI starts an engine as a bare executable path, without arguments, and sends
/// `usi` first (ShogiHome: `spawn(path)` in `src/background/usi/process.ts`, then `usi`
/// from `EngineProcess.launch`). So `tsume` with no arguments and a standard input that is
/// not a terminal reads its first line: `usi` starts the USI engine on it, exactly as `tsume
/// usi` (the line is its first command); anything else is the usage error it always was.
/// `None`: not started that way; `Some(Err(why))`: started that way, but not by a GUI.
fn started_by_a_gui() -> Option<Result<(), NotAGui>> {
    use std::io::{BufRead, IsTerminal, Read};
    if std::env::args_os().len() != 1 || std::io::stdin().is_terminal() {
        return None;
    }
    let mut input = std::io::BufReader::new(std::io::stdin());
    let mut first = Vec::new();
    // Blank lines before the first command are skipped, as the engine skips them.
    loop {
        first.clear();
        match input.read_until(b'\n', &mut first) {
            Ok(0) => return Some(Err(NotAGui::InputEnded)),
            Ok(_) if first.trim_ascii().is_empty() => continue,
            Ok(_) => break,
            Err(e) => return Some(Err(NotAGui::Unreadable(e))),
        }
    }
    if first.trim_ascii() != b"usi" {
        return Some(Err(NotAGui::FirstLine(
            String::from_utf8_lossy(first.trim_ascii()).into_owned(),
        )));
    }
    usi::run_with(
        Box::new(std::io::Cursor::new(first).chain(input)),
        Box::new(std::io::stdout()),
    );
    Some(Ok(()))
}

/// Why `tsume` without arguments, its input not a terminal, is not a GUI's USI engine: the
/// end of the usage message.
#[derive(Debug)]
enum NotAGui {
    InputEnded,
    Unreadable(std::io::Error),
    /// The first line that is not blank, when it is not `usi`.
    FirstLine(String),
}

impl std::fmt::Display for NotAGui {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotAGui::InputEnded => write!(f, "the standard input ended"),
            NotAGui::Unreadable(e) => write!(f, "the standard input cannot be read: {e}"),
            NotAGui::FirstLine(line) => write!(f, "the first line was {line:?}"),
        }
    }
}

/// A hint for the commonest command-line slip: an SFEN given unquoted, its side to move
/// (`b` or `w`) then read as an argument of its own.
fn unquoted_sfen_hint(e: &clap::Error) -> Option<&'static str> {
    use clap::error::{ContextKind, ContextValue};
    if e.kind() != clap::error::ErrorKind::UnknownArgument {
        return None;
    }
    match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) if arg == "b" || arg == "w" => {
            Some("hint: an SFEN has spaces: quote it (\"<board> b <hands> 1\")")
        }
        _ => None,
    }
}

fn main() -> ExitCode {
    match started_by_a_gui() {
        None => {}
        Some(Ok(())) => return ExitCode::SUCCESS,
        Some(Err(why)) => {
            use clap::CommandFactory;
            eprintln!(
                "tsume: a subcommand is needed (tsume --help); without one, tsume is a USI \
                 engine only when the first line of its input is `usi`, as a shogi GUI sends \
                 it, and {why}\n\n{}",
                Cli::command().render_usage()
            );
            return ExitCode::from(exit::BAD_INPUT);
        }
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(mut e) => {
            // Two options that exclude each other (`solve --json --output kif`): the message
            // names both; clap's usage line after it would show only the one kept, as if
            // that were the command to type.
            if e.kind() == clap::error::ErrorKind::ArgumentConflict {
                e.remove(clap::error::ContextKind::Usage);
            }
            let code = if e.use_stderr() {
                exit::BAD_INPUT
            } else {
                exit::SUCCESS
            };
            let _ = e.print();
            if let Some(hint) = unquoted_sfen_hint(&e) {
                eprintln!("{hint}");
            }
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Usi => {
            usi::run();
            ExitCode::SUCCESS
        }
        Command::Generate(args) => generate::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Verify {
            input,
            budget,
            hash,
            threads,
            skip_unnecessary,
            allow_promotion_choice,
            fill_defender_hand,
            json,
        } => run_verify(
            &input,
            tsume::verify::VerifyOptions {
                check_unnecessary: !skip_unnecessary,
                allow_promotion_choice,
                ..tsume::verify::VerifyOptions::with_budget(budget)
            },
            hash as usize,
            threads as usize,
            fill_defender_hand,
            json,
        ),
        Command::Render {
            input,
            out,
            move_number,
        } => match render::run(
            &input,
            &out,
            move_number.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        ) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => bad_input(e),
        },
        Command::Html { pack, out } => match html::run(&pack, out.as_deref()) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => bad_input(e),
        },
        Command::Perft(args) => perft::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Completions { shell } => print_completions(shell),
    }
}

/// `tsume completions SHELL`: the script is made in memory and then written, so that a
/// closed pipe (`| head`) ends quietly instead of failing inside the generator.
fn print_completions(shell: clap_complete::Shell) -> ExitCode {
    use clap::CommandFactory;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "tsume", &mut script);
    match output::write_stdout(&script) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => bad_input(format!("writing the completion script: {e}")),
    }
}

/// The largest `--time-limit`, in seconds (about 31 years): larger values would overflow
/// the clock's deadline arithmetic.
const MAX_TIME_LIMIT: f64 = 1e9;

/// A `--time-limit` that is not a positive number of seconds up to [`MAX_TIME_LIMIT`]
/// (the value given).
#[derive(Debug)]
pub(crate) struct BadTimeLimit(f64);

impl std::fmt::Display for BadTimeLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--time-limit must be a positive number of seconds up to {MAX_TIME_LIMIT:e}, got {}",
            self.0
        )
    }
}

/// The value parser of a whole-number option in `min..=max`, whose message for every bad
/// value (negative, not a number, out of range) tells the values allowed: `must be a whole
/// number from 1 to 65536`. A `max` of `u64::MAX` is no real bound, and the message says
/// `at least MIN` (`0 or more`) rather than print it (clap's own range parser says `invalid
/// digit found in string` for `-5` and `0 is not in 1000..18446744073709551615` for `0`).
pub(crate) fn whole_number(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        let wanted = match (min, max) {
            (0, u64::MAX) => "a whole number, 0 or more".to_string(),
            (min, u64::MAX) => format!("a whole number, at least {min}"),
            (min, max) => format!("a whole number from {min} to {max}"),
        };
        let too_large = match text.parse::<i128>() {
            Ok(n) => match u64::try_from(n) {
                Ok(n) if (min..=max).contains(&n) => return Ok(n),
                _ => n > i128::from(u64::MAX),
            },
            Err(e) => *e.kind() == std::num::IntErrorKind::PosOverflow,
        };
        Err(if too_large && max == u64::MAX {
            format!("must be at most {max}")
        } else {
            format!("must be {wanted}")
        })
    }
}

/// The value parser of `--time-limit`: a number of seconds, whose range
/// ([`parse_time_limit`]) is also told when the value is no number at all.
pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .map_err(|_| format!("must be a positive number of seconds up to {MAX_TIME_LIMIT:e}"))
}

/// Checks `--time-limit`: a positive number of seconds, at most [`MAX_TIME_LIMIT`].
pub(crate) fn parse_time_limit(seconds: Option<f64>) -> Result<Option<Duration>, BadTimeLimit> {
    match seconds {
        Some(t) if !(t.is_finite() && t > 0.0 && t <= MAX_TIME_LIMIT) => Err(BadTimeLimit(t)),
        t => Ok(t.map(Duration::from_secs_f64)),
    }
}

/// Whether `workers` threads can each hold a solver of `hash_mb` MiB at once, and a search
/// thread can be started while they are held.
pub(crate) fn workers_fit(workers: usize, hash_mb: usize) -> Result<(), tsume_solver::SolverError> {
    verify::Solvers::new(workers, hash_mb).map(drop)
}

fn run_verify(
    input: &str,
    options: tsume::verify::VerifyOptions,
    hash_mb: usize,
    threads: usize,
    fill_defender_hand: bool,
    json: bool,
) -> ExitCode {
    // A pack's directory (as `tsume generate --out` writes it) stands for its problems;
    // `name` is what the input's kind is told by.
    let (bytes, name) = if input == "-" {
        let mut bytes = Vec::new();
        match std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes) {
            Ok(_) => (bytes, input.to_string()),
            Err(e) => return bad_input(format!("reading stdin: {e}")),
        }
    } else {
        let path = std::path::Path::new(input);
        let file = if path.is_dir() {
            match html::pack_file_in(path) {
                Ok(pack) => pack,
                Err(e) => {
                    return bad_input(format!("{e}: give a problem file or a pack's directory"))
                }
            }
        } else {
            path.to_path_buf()
        };
        match std::fs::read(&file) {
            Ok(b) => (b, file.display().to_string()),
            Err(e) => return bad_input(format!("{input}: {e}")),
        }
    };
    let kind = verify::detect(&name, &bytes);
    let (problems, errors) = match verify::read_problems(&bytes, kind, input, fill_defender_hand) {
        Ok(r) => r,
        Err(e) => return bad_input(format!("{input}: {e}")),
    };
    for e in &errors {
        eprintln!("tsume: {input}: {}", e.message);
    }
    // Nothing to verify is no success: a CI step fed an empty file must not pass.
    if problems.is_empty() && errors.is_empty() {
        return bad_input(format!("{input}: no problem to verify in it"));
    }
    // The threads go to problems first, one each; what is left over (fewer problems than
    // threads) searches inside each problem.
    let workers = threads.min(problems.len()).max(1);
    let mut options = options;
    options.limits.threads = (threads / workers).max(1);
    // Each worker keeps its solver for the whole run: see that they all fit now, rather
    // than abort when the first problem makes them.
    let solvers = match verify::Solvers::new(if problems.is_empty() { 0 } else { workers }, hash_mb)
    {
        Ok(s) => s,
        Err(e) => return bad_input(e),
    };
    let (sound, flawed, unproven) =
        match verify::run(&problems, &errors, &options, &solvers, json, workers) {
            Ok(c) => c,
            Err(verify::RunError::OutputClosed) => return ExitCode::SUCCESS,
            Err(e) => return bad_input(e),
        };
    eprintln!(
        "{} problem{}: {sound} sound, {flawed} flawed, {unproven} unproven{}",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" },
        if errors.is_empty() {
            String::new()
        } else {
            format!(
                ", {} unreadable {}",
                errors.len(),
                kind.unit_of(errors.len())
            )
        }
    );
    ExitCode::from(if !errors.is_empty() {
        exit::BAD_INPUT
    } else if flawed + unproven > 0 {
        exit::NEGATIVE
    } else {
        exit::SUCCESS
    })
}
