//! `tsume merge OUT DIR…`: joins packs (the shards of an array job, or any packs of this
//! tool) into one (see [`tsume_generator::merge`]); `--verify` re-verifies every problem
//! first. Exit code: 0 merged, 1 a problem flawed or unproven under `--verify`, 2 bad
//! input; nothing is written unless the merge succeeds.

use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

use rayon::prelude::*;
use tsume_generator::merge::{self, Target};
use tsume_solver::tsume::verify::VerifyOptions;
use tsume_solver::{Setup, SfenError, SolverError};

use crate::exit::{self, bad_input};

/// The options of `tsume merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The merged pack's directory (created if needed; its pack files are replaced).
    out: PathBuf,
    /// The pack directories to merge (each with pack.jsonl and manifest.json).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Keep at most this many problems, at most COUNT ÷ (number of lengths), rounded up,
    /// of each length (as `tsume generate --count`); the lowest candidate numbers are kept.
    #[arg(long, value_parser = crate::whole_number(1, 100_000_000), allow_negative_numbers = true)]
    count: Option<u64>,
    /// Keep only these lengths: L or MIN-MAX (odd numbers).
    #[arg(long)]
    length: Option<String>,
    /// Re-verify every problem of the packs first (as `tsume verify --budget B`); a
    /// flawed or unproven problem stops the merge (exit code 1, nothing written).
    #[arg(long)]
    verify: bool,
    /// Nodes per verification sub-search for --verify.
    #[arg(long, default_value_t = 2_000_000, value_parser = crate::whole_number(1, u64::MAX), allow_negative_numbers = true)]
    budget: u64,
    /// Problems verified in parallel for --verify.
    #[arg(long, default_value_t = 1, value_parser = crate::whole_number(1, 256), allow_negative_numbers = true)]
    threads: u64,
}

pub fn run(args: MergeArgs) -> ExitCode {
    let lengths = match args
        .length
        .as_deref()
        .map(tsume_generator::run::parse_lengths)
    {
        None => None,
        Some(Ok(l)) => Some(l),
        Some(Err(e)) => return bad_input(e),
    };
    let target = Target {
        count: args.count.map(|c| c as usize),
        lengths,
    };
    let mut sources = Vec::new();
    for dir in &args.dirs {
        match merge::read_source(dir) {
            Ok(s) => sources.push(s),
            Err(e) => return bad_input(e),
        }
    }
    if let Err(e) =
        merge::check_sources(&sources).and_then(|()| merge::check_out(&args.out, &sources))
    {
        return bad_input(e);
    }
    if args.verify {
        match verify_all(&sources, args.budget, args.threads as usize) {
            Ok(0) => {}
            Ok(bad) => {
                eprintln!("tsume: {bad} problems not sound under tsume verify; nothing merged");
                return ExitCode::from(exit::NEGATIVE);
            }
            Err(e) => return bad_input(e),
        }
    }
    for note in merge::missing_shards(&sources) {
        eprintln!("tsume: note: {note}");
    }
    let merged = merge::select(&sources, &target);
    if let Err(e) = merge::write(&args.out, &sources, &merged, &target) {
        return bad_input(e);
    }
    let total: usize = sources.iter().map(|s| s.records.len()).sum();
    eprintln!(
        "{} from {} ({}; {} and {} outside the target dropped); pack in {}",
        counted(merged.records.len(), "problem"),
        counted(sources.len(), "pack"),
        counted(total, "problem"),
        counted(merged.duplicates, "duplicate"),
        merged.out_of_target,
        args.out.display()
    );
    ExitCode::SUCCESS
}

/// `n` and the noun, plural unless `n` is 1: `1 pack`, `2 packs`.
fn counted(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// The tables of each verifying thread in MiB (as `tsume verify`'s default --hash).
const VERIFY_HASH_MB: usize = 64;

/// Why `--verify` could not verify the packs (bad input; a problem that is not sound is
/// not an error but a count).
#[derive(Debug)]
enum VerifyError {
    /// The SFEN of problem `id` of the pack in `dir` cannot be read.
    Sfen {
        dir: PathBuf,
        id: String,
        error: SfenError,
    },
    /// The verifying solvers cannot be had (tables, a search thread).
    Solvers(SolverError),
    /// A pool of `threads` threads cannot be started.
    Threads {
        threads: usize,
        error: rayon::ThreadPoolBuildError,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Sfen { dir, id, error } => {
                write!(f, "{}: problem {id}: {error}", dir.display())
            }
            VerifyError::Solvers(e) => write!(f, "{e}"),
            VerifyError::Threads { threads, error } => {
                write!(f, "starting {threads} threads: {error}")
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Verifies every problem of `sources` (its claimed solution too); reports each one that
/// is not sound on stderr and returns how many.
fn verify_all(
    sources: &[merge::Source],
    budget: u64,
    threads: usize,
) -> Result<usize, VerifyError> {
    let options = VerifyOptions::with_budget(budget);
    let problems: Vec<(String, Setup, &[String])> = sources
        .iter()
        .flat_map(|s| {
            s.records.iter().map(move |r| {
                let setup = r.sfen.parse().map_err(|error| VerifyError::Sfen {
                    dir: s.dir.clone(),
                    id: r.id.clone(),
                    error,
                })?;
                Ok((
                    format!("{}: problem {}", s.dir.display(), r.id),
                    setup,
                    r.solution.as_slice(),
                ))
            })
        })
        .collect::<Result<_, VerifyError>>()?;
    let workers = if problems.is_empty() {
        0
    } else {
        threads.min(problems.len())
    };
    let solvers =
        crate::verify::Solvers::new(workers, VERIFY_HASH_MB).map_err(VerifyError::Solvers)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| VerifyError::Threads { threads, error })?;
    let verdicts: Vec<Option<String>> = pool.install(|| {
        problems
            .par_iter()
            .map(|(place, setup, claimed)| {
                let v = solvers.with(|solver| solver.verify(setup, Some(claimed), &options));
                (!v.is_sound()).then(|| {
                    let flaws: Vec<String> = v.flaws.iter().map(|f| f.to_string()).collect();
                    format!(
                        "{place}: {}: {}",
                        crate::verify::verdict_word(&v),
                        flaws.join("; ")
                    )
                })
            })
            .collect()
    });
    let bad: Vec<String> = verdicts.into_iter().flatten().collect();
    for b in &bad {
        eprintln!("tsume: {b}");
    }
    Ok(bad.len())
}
