//! The generation run: candidates in fixed-size batches, evaluated in parallel (rayon),
//! accepted in candidate order, so the same seed and parameters give the same pack whatever
//! the thread count. Each accepted problem is flushed to `pack.jsonl` at once, and
//! `progress.json` records the next candidate after each batch: a rerun of the same command
//! resumes where the last one stopped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use tsume_solver::Setup;

use crate::candidate::{self, Shape};
use crate::pack::{self, Pack, PackError};
use crate::pipeline::{self, Found, Settings, Stage, StageTimes};
use crate::rng::Rng;

/// Candidates per batch: fixed, so that results do not depend on the thread count.
const BATCH: u64 = 32;

#[derive(Clone, Debug)]
pub struct Options {
    pub count: usize,
    pub min_length: usize,
    pub max_length: usize,
    pub seed: u64,
    pub threads: usize,
    pub out: PathBuf,
    /// Nodes per verification sub-search.
    pub budget: u64,
    pub time_limit: Option<Duration>,
    /// Stop after this many candidates (for benchmarks).
    pub max_candidates: Option<u64>,
    pub shape: Shape,
    pub hash_mb: usize,
}

/// What identifies a run in `progress.json`: a rerun must match to resume.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct RunKey {
    seed: u64,
    min_length: usize,
    max_length: usize,
    budget: u64,
    shape: Shape,
    version: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct ProgressFile {
    run: RunKey,
    next_candidate: u64,
}

/// Counters of a run (this process only), for the progress line and the benchmark.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub candidates: u64,
    pub stages: BTreeMap<String, u64>,
    pub duplicates: u64,
    pub over_quota: u64,
    pub screen_time: Duration,
    pub verify_time: Duration,
    pub accepted_per_length: BTreeMap<usize, usize>,
    pub elapsed: Duration,
}

/// A snapshot for the progress display.
pub struct Progress<'a> {
    pub accepted: usize,
    pub target: usize,
    pub stats: &'a Stats,
    pub per_length: BTreeMap<usize, usize>,
}

/// Runs the generator until the pack has `count` problems, or a limit.
pub fn run(options: &Options, mut on_progress: impl FnMut(&Progress)) -> Result<Stats, PackError> {
    if options.min_length.is_multiple_of(2)
        || options.max_length.is_multiple_of(2)
        || options.min_length > options.max_length
    {
        return Err(PackError(format!(
            "lengths must be odd with MIN <= MAX, got {}-{}",
            options.min_length, options.max_length
        )));
    }
    let version = env!("CARGO_PKG_VERSION").to_string();
    let key = RunKey {
        seed: options.seed,
        min_length: options.min_length,
        max_length: options.max_length,
        budget: options.budget,
        shape: options.shape.clone(),
        version: version.clone(),
    };
    let mut pack = Pack::open(&options.out)?;
    let progress_path = options.out.join("progress.json");
    let mut next = resume_point(&progress_path, &key)?;
    let mut settings = Settings {
        min_length: options.min_length,
        max_length: options.max_length,
        budget: options.budget,
        screen_budget: (options.budget / 4).max(20_000),
        hash_mb: options.hash_mb,
        full_lengths: Default::default(),
    };
    let lengths: Vec<usize> = (options.min_length..=options.max_length)
        .step_by(2)
        .collect();
    let quota = options.count.div_ceil(lengths.len());
    let generator_info = serde_json::json!({
        "seed": options.seed,
        "lengths": format!("{}-{}", options.min_length, options.max_length),
        "budget": options.budget,
        "shape": options.shape,
        "version": version,
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()
        .map_err(|e| PackError(format!("starting {} threads: {e}", options.threads)))?;
    let start = Instant::now();
    let mut stats = Stats::default();
    let first = next;
    while pack.records.len() < options.count {
        if options.time_limit.is_some_and(|t| start.elapsed() >= t)
            || options.max_candidates.is_some_and(|m| next - first >= m)
        {
            break;
        }
        // Mutation bases: the pack as it stands before the batch (deterministic).
        let bases: Vec<Setup> = pack
            .records
            .iter()
            .filter_map(|r| r.sfen.parse().ok())
            .collect();
        let known = pack.skeletons();
        settings.full_lengths = count_lengths(&pack)
            .into_iter()
            .filter(|&(_, n)| n >= quota)
            .map(|(l, _)| l)
            .collect();
        let results: Vec<(Result<Found, Stage>, StageTimes)> = pool.install(|| {
            (next..next + BATCH)
                .into_par_iter()
                .map(|i| {
                    let c = make_candidate(options.seed, i, &options.shape, &bases);
                    pipeline::evaluate(&c, &settings, &known)
                })
                .collect()
        });
        for (result, times) in results {
            stats.candidates += 1;
            stats.screen_time += times.screen;
            stats.verify_time += times.verify;
            let stage = match &result {
                Ok(_) => Stage::Accepted,
                Err(s) => *s,
            };
            *stats.stages.entry(stage.name()).or_default() += 1;
            let Ok(found) = result else { continue };
            let record = pack::record(&found, generator_info.clone());
            let per_length = count_lengths(&pack);
            if pack.is_duplicate(&record) {
                stats.duplicates += 1;
            } else if per_length.get(&record.length).copied().unwrap_or(0) >= quota
                || pack.records.len() >= options.count
            {
                stats.over_quota += 1;
            } else {
                *stats.accepted_per_length.entry(record.length).or_default() += 1;
                pack.append(record)?;
            }
        }
        next += BATCH;
        save_progress(&progress_path, &key, next)?;
        stats.elapsed = start.elapsed();
        on_progress(&Progress {
            accepted: pack.records.len(),
            target: options.count,
            stats: &stats,
            per_length: count_lengths(&pack),
        });
    }
    pack.export(&version)?;
    stats.elapsed = start.elapsed();
    Ok(stats)
}

fn count_lengths(pack: &Pack) -> BTreeMap<usize, usize> {
    let mut m = BTreeMap::new();
    for r in &pack.records {
        *m.entry(r.length).or_default() += 1;
    }
    m
}

/// Candidate `i`: a mutation of an accepted problem (once there are some) or a random
/// placement. Longer problems are picked as bases more often.
fn make_candidate(seed: u64, i: u64, shape: &Shape, bases: &[Setup]) -> Setup {
    let mut rng = Rng::for_candidate(seed, i);
    if !bases.is_empty() && rng.chance(shape.mutate_percent) {
        // Of two random bases, the later one (bases are in acceptance order; the longer
        // lengths come later as the short quotas fill).
        let a = rng.below(bases.len() as u64) as usize;
        let b = rng.below(bases.len() as u64) as usize;
        candidate::mutate(&bases[a.max(b)], &mut rng, shape)
    } else {
        candidate::random_placement(&mut rng, shape)
    }
}

fn resume_point(path: &Path, key: &RunKey) -> Result<u64, PackError> {
    if !path.exists() {
        return Ok(0);
    }
    let text =
        std::fs::read_to_string(path).map_err(|e| PackError(format!("{}: {e}", path.display())))?;
    let saved: ProgressFile =
        serde_json::from_str(&text).map_err(|e| PackError(format!("{}: {e}", path.display())))?;
    if &saved.run != key {
        return Err(PackError(format!(
            "{} belongs to a run with other parameters ({}); use another --out directory",
            path.display(),
            serde_json::to_string(&saved.run).unwrap_or_default()
        )));
    }
    Ok(saved.next_candidate)
}

fn save_progress(path: &Path, key: &RunKey, next: u64) -> Result<(), PackError> {
    let text = serde_json::to_string_pretty(&ProgressFile {
        run: key.clone(),
        next_candidate: next,
    })
    .expect("json");
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text).map_err(|e| PackError(format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(|e| PackError(format!("{}: {e}", path.display())))
}
