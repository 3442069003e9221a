//! `tsume generate`: the options, the progress line and the summary around
//! [`tsume_generator::run::run`].

use std::process::ExitCode;

use tsume_generator::run::{self, Ended, Options, Progress, Stats};

use crate::exit::bad_input;
use crate::{parse_time_limit, whole_number, workers_fit, BadTimeLimit};

/// The options of `tsume generate`.
#[derive(clap::Args)]
pub struct GenerateArgs {
    /// Problems wanted in the pack: at most COUNT ÷ (number of lengths), rounded up, of
    /// each length, taken in candidate order until COUNT, so the lengths found first fill
    /// their share first (10 over 3-7: at most 4 of each, e.g. 4/4/2).
    #[arg(long, default_value_t = 10, value_parser = whole_number(1, 1_000_000), allow_negative_numbers = true)]
    count: u64,
    /// Tsume length L, or a range MIN-MAX (odd numbers).
    #[arg(long, default_value = "3-7")]
    length: String,
    /// Random seed: each candidate's random choices come from the seed and the candidate's
    /// number, so the same seed and options give the same pack whatever --threads, and
    /// another seed other problems. Resuming a pack needs the seed it was made with.
    #[arg(long, default_value_t = 1, value_parser = whole_number(0, u64::MAX), allow_negative_numbers = true)]
    seed: u64,
    /// Threads, 1–256, evaluating the candidates of each batch of 32 in parallel (the pack
    /// is the same whatever the count; each thread has its own 16 MiB of tables).
    #[arg(long, default_value_t = 1, value_parser = whole_number(1, 256), allow_negative_numbers = true)]
    threads: u64,
    /// The pack directory.
    #[arg(long, default_value = "pack")]
    out: std::path::PathBuf,
    /// Nodes per verification sub-search (an exhausted budget rejects the candidate).
    #[arg(long, default_value_t = 200_000, value_parser = whole_number(1000, u64::MAX), allow_negative_numbers = true)]
    budget: u64,
    /// Stop after this many seconds (the pack keeps what was accepted).
    #[arg(long, value_parser = crate::seconds, allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Stop once this run has tried this many candidates, rounded up to whole batches of
    /// 32 (the unit of progress.json: 40 tries 64); counted from where the run starts, so
    /// the same command run again on the pack tries up to that many more.
    #[arg(long, value_parser = whole_number(0, u64::MAX), allow_negative_numbers = true)]
    max_candidates: Option<u64>,
    /// Most pieces placed on the board besides the king in a random candidate.
    #[arg(long, default_value_t = 7, value_parser = whole_number(1, 30), allow_negative_numbers = true)]
    pieces: u64,
    /// Print the per-stage statistics as JSON on stdout at the end.
    #[arg(long)]
    stats: bool,
    /// Resume from a pack whose last line was cut off by an interrupted write by dropping
    /// that line (without it such a pack is refused).
    #[arg(long)]
    drop_truncated: bool,
    /// Shard K of N (e.g. `--shard 3/8`, for an array job): the run takes only the seed's
    /// candidates K-1, K-1+N, K-1+2N, …, so the N shards of one seed never make the same
    /// candidate; each is deterministic and resumable on its own, and `tsume merge` joins
    /// their packs. `1/1` is the same as no shard.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Test hook: fail just before write N + 1 (appends and progress writes).
    #[arg(long, hide = true, value_parser = whole_number(0, u64::MAX), allow_negative_numbers = true)]
    fault_after_writes: Option<u64>,
    /// Test hook: with --fault-after-writes, write half of the failing write first.
    #[arg(long, hide = true, requires = "fault_after_writes")]
    fault_torn: bool,
}

/// `tsume generate`: exit code 0 when the run ends (the count reached or a limit), 2 for
/// bad options or a pack that cannot be written.
pub fn run(args: GenerateArgs) -> ExitCode {
    use std::io::IsTerminal;
    let threads = args.threads;
    let print_stats = args.stats;
    let options = match options(args) {
        Ok(o) => o,
        Err(e) => return bad_input(e),
    };
    // Each worker keeps tables and starts search threads for the whole run: see now that
    // they can be had, rather than abort in the middle of a batch.
    if let Err(e) = workers_fit(options.threads, options.hash_mb) {
        return bad_input(e);
    }
    let tty = std::io::stderr().is_terminal();
    // Ctrl-C kills the run where it stands, as any interruption may (the pack is written to
    // survive it); it only says first what the pack has and how to go on.
    let (out, count) = (options.out.clone(), options.count);
    crate::interrupt::tell_then_die(move || interrupted_summary(&out, count, tty));
    let result = run::run(&options, |p| {
        if tty {
            print_progress(p);
        }
    });
    if tty {
        eprintln!();
    }
    match result {
        Ok(stats) => {
            print_summary(&stats, &options);
            if print_stats {
                let line = format!("{}\n", stats_json(&stats, threads));
                if let Err(e) = crate::output::write_stdout(line) {
                    return bad_input(format!("writing the statistics (the pack is written): {e}"));
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => bad_input(e),
    }
}

/// Which option of `tsume generate` is bad, and why.
#[derive(Debug)]
enum OptionError {
    /// `--shard` (why, from [`run::parse_shard`]).
    Shard(run::ArgumentError),
    /// `--length` (why, from [`run::parse_lengths`]).
    Length(run::ArgumentError),
    /// `--time-limit`.
    TimeLimit(BadTimeLimit),
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Shard(why) | OptionError::Length(why) => write!(f, "{why}"),
            OptionError::TimeLimit(e) => write!(f, "{e}"),
        }
    }
}

/// The run's options from the command line's.
fn options(args: GenerateArgs) -> Result<Options, OptionError> {
    let GenerateArgs {
        count,
        length,
        seed,
        threads,
        out,
        budget,
        time_limit,
        max_candidates,
        pieces,
        stats: _,
        drop_truncated,
        shard,
        fault_after_writes,
        fault_torn,
    } = args;
    let shard = shard
        .as_deref()
        .map(run::parse_shard)
        .transpose()
        .map_err(OptionError::Shard)?;
    let (min_length, max_length) = run::parse_lengths(&length).map_err(OptionError::Length)?;
    let time_limit = parse_time_limit(time_limit).map_err(OptionError::TimeLimit)?;
    let shape = tsume_generator::candidate::Shape {
        max_board: pieces as u32,
        min_board: (pieces as u32).min(2),
        ..Default::default()
    };
    Ok(Options {
        count: count as usize,
        min_length,
        max_length,
        seed,
        threads: threads as usize,
        out,
        budget,
        time_limit,
        max_candidates,
        shape,
        hash_mb: 16,
        drop_truncated,
        shard,
        fault: fault_after_writes.map(|after_writes| run::Fault {
            after_writes,
            torn: fault_torn,
        }),
    })
}

/// The progress line on a terminal, rewritten in place.
fn print_progress(p: &Progress) {
    let secs = p.stats.elapsed.as_secs_f64().max(1e-3);
    let rate = p.stats.candidates as f64 / secs;
    let new = p.stats.accepted_per_length.values().sum::<usize>();
    let eta = if new > 0 {
        let left = p.target.saturating_sub(p.accepted) as f64;
        format!("{:.0}s", left * secs / new as f64)
    } else {
        "?".into()
    };
    let lengths: Vec<String> = p
        .per_length
        .iter()
        .map(|(l, n)| format!("{l}:{n}"))
        .collect();
    eprint!(
        "\r\x1b[K{}/{} accepted | {} candidates ({rate:.1}/s) | ETA {eta} | {}",
        p.accepted,
        p.target,
        p.stats.candidates,
        lengths.join(" ")
    );
}

/// The notes and the one-line summary on stderr.
fn print_summary(stats: &Stats, options: &Options) {
    for note in &stats.notes {
        eprintln!("tsume: {note}");
    }
    let accepted: usize = stats.accepted_per_length.values().sum();
    let ended = match stats.ended {
        Ended::Complete if stats.in_pack > options.count => {
            "already more than --count (a pack is never cut down; `tsume merge --count` \
             makes a smaller copy)"
        }
        Ended::Complete if accepted == 0 && stats.candidates == 0 => "already complete",
        Ended::Complete => "complete",
        Ended::TimeLimit => "stopped by --time-limit; the same command resumes it",
        Ended::MaxCandidates => "stopped by --max-candidates; the same command resumes it",
    };
    eprintln!(
        "{accepted} problem{} accepted from {} candidate{} in {:.1}s; pack in {}: {} of {} \
         problems, {ended}",
        if accepted == 1 { "" } else { "s" },
        stats.candidates,
        if stats.candidates == 1 { "" } else { "s" },
        stats.elapsed.as_secs_f64(),
        options.out.display(),
        stats.in_pack,
        options.count,
    );
}

/// The line printed when Ctrl-C interrupts a run: the problems `pack.jsonl` holds at that
/// moment (its whole lines: what a rerun keeps) and how to go on.
fn interrupted_summary(out: &std::path::Path, count: usize, tty: bool) -> String {
    let pack = out.join(crate::html::PACK_FILE);
    let held = match std::fs::read(&pack) {
        Ok(bytes) => bytes
            .split_inclusive(|&b| b == b'\n')
            .filter(|line| line.ends_with(b"\n") && !line.trim_ascii().is_empty())
            .count(),
        Err(_) => 0,
    };
    format!(
        "{}tsume: interrupted; pack in {}: {held} of {count} problem{} (in {}); the same \
         command resumes it, and writes pack.sfen, problems.kif and manifest.json when it ends",
        // After the progress line, which has no newline.
        if tty { "\n" } else { "" },
        out.display(),
        if count == 1 { "" } else { "s" },
        crate::html::PACK_FILE,
    )
}

/// `--stats`: the per-stage statistics as one JSON object.
fn stats_json(stats: &Stats, threads: u64) -> serde_json::Value {
    let per_length: std::collections::BTreeMap<String, usize> = stats
        .accepted_per_length
        .iter()
        .map(|(l, n)| (l.to_string(), *n))
        .collect();
    serde_json::json!({
        "candidates": stats.candidates,
        "stages": stats.stages,
        "duplicates": stats.duplicates,
        "over_quota": stats.over_quota,
        "stepping_stones": stats.stepping_stones,
        "accepted_per_length": per_length,
        "screen_seconds": stats.screen_time.as_secs_f64(),
        "verify_seconds": stats.verify_time.as_secs_f64(),
        "elapsed_seconds": stats.elapsed.as_secs_f64(),
        "threads": threads,
    })
}
