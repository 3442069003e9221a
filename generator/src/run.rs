//! The generation run: candidates in fixed-size batches, evaluated in parallel (rayon),
//! accepted in candidate order, so the same seed and parameters give the same pack whatever
//! the thread count. Each accepted problem is flushed to `pack.jsonl` at once, and
//! `progress.json` records the next candidate after each batch: a rerun of the same command
//! resumes where the last one stopped.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use tsume_solver::Setup;

use crate::candidate::{self, Shape};
use crate::extend;
use crate::pack::{self, Expect, Pack, PackError, Record};
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
    /// Stop once this run has tried this many candidates (for benchmarks): checked between
    /// batches, so rounded up to whole batches of 32 (`BATCH`), and counted from the run's
    /// first candidate (a resumed run tries that many more).
    pub max_candidates: Option<u64>,
    pub shape: Shape,
    pub hash_mb: usize,
    /// Drop a last line of `pack.jsonl` or `stones.jsonl` cut off by an interrupted write
    /// (otherwise such a pack is refused).
    pub drop_truncated: bool,
    /// This run's share of the candidates (`--shard K/N`); `None` is the whole space.
    pub shard: Option<Shard>,
    /// Test hook: fail the run at a chosen write (see [`Fault`]).
    #[doc(hidden)]
    pub fault: Option<Fault>,
}

/// A simulated crash for the resume tests: the run fails just before its write number
/// `after_writes + 1` (appends to `pack.jsonl` or `stones.jsonl` and `progress.json`
/// writes are counted), after writing half of it when `torn`.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Fault {
    pub after_writes: u64,
    pub torn: bool,
}

/// Shard `index + 1` of `count` (`tsume generate --shard K/N`): the run takes the
/// candidates numbered `index`, `index + count`, `index + 2 * count`, … of its seed, so the
/// `count` shards of one seed never make the same candidate, and all of them together make
/// every candidate a single run would (in another order, with other bases).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based: shard K is index K - 1.
    pub index: u64,
    pub count: u64,
}

/// The most shards a run may be cut into.
pub const MAX_SHARDS: u64 = 1 << 20;

impl Shard {
    /// The global candidate number of the shard's own candidate `local`.
    pub fn global(self, local: u64) -> u64 {
        local * self.count + self.index
    }

    /// The shard's own number of global candidate `global`, if it is one of the shard's.
    pub fn local(self, global: u64) -> Option<u64> {
        (global % self.count == self.index).then(|| global / self.count)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// Parses `K/N` (`tsume generate --shard`): 1 <= K <= N <= [`MAX_SHARDS`]. `1/1` is the
/// whole candidate space, the same as no shard (and gives the same pack).
pub fn parse_shard(text: &str) -> Result<Shard, ArgumentError> {
    let bad = || ArgumentError::Shard(text.to_string());
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n || n > MAX_SHARDS {
        return Err(bad());
    }
    Ok(Shard {
        index: k - 1,
        count: n,
    })
}

/// A `--shard` or `--length` argument that cannot be read (the text as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgumentError {
    /// `--shard` not `K/N` with 1 <= K <= N <= [`MAX_SHARDS`].
    Shard(String),
    /// A `--length` bound that is not a number.
    LengthNotANumber(String),
    /// `--length` not odd lengths `L` or `MIN-MAX` with MIN <= MAX <= [`MAX_LENGTH`].
    Lengths(String),
}

impl std::fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgumentError::Shard(text) => write!(
                f,
                "--shard must be K/N with 1 <= K <= N <= {MAX_SHARDS} (shard K of N), got {text:?}"
            ),
            ArgumentError::LengthNotANumber(s) => write!(f, "--length: {s:?} is not a number"),
            ArgumentError::Lengths(text) => write!(
                f,
                "--length must be odd lengths L or MIN-MAX with MIN <= MAX <= {MAX_LENGTH}, got {text:?}"
            ),
        }
    }
}

impl std::error::Error for ArgumentError {}

/// The highest `next_candidate` a run accepts: far beyond any real run, and far enough
/// from `u64::MAX` that candidate numbers never overflow.
const MAX_NEXT: u64 = 1 << 62;

/// What identifies a run in `progress.json`: a rerun must match to resume.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct RunKey {
    seed: u64,
    min_length: usize,
    max_length: usize,
    budget: u64,
    shape: Shape,
    version: String,
    /// `K/N` for a shard (absent otherwise, as before shards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shard: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct ProgressFile {
    run: RunKey,
    /// The run's next own candidate (a shard counts its own candidates: its candidate
    /// `n` is the seed's candidate `n * N + K - 1`).
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
    /// Shorter problems kept as extension bases (`stones.jsonl`).
    pub stepping_stones: usize,
    pub elapsed: Duration,
    /// What resuming repaired in the pack's files (a newline added, a cut-off line
    /// dropped), for the user.
    pub notes: Vec<String>,
    /// Problems in the pack when the run ended (those of earlier runs included).
    pub in_pack: usize,
    /// Why the run ended.
    pub ended: Ended,
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ended {
    /// The pack has the problems asked for (perhaps already when the run started).
    #[default]
    Complete,
    /// `time_limit` passed.
    TimeLimit,
    /// `max_candidates` were tried.
    MaxCandidates,
}

/// A snapshot for the progress display.
pub struct Progress<'a> {
    pub accepted: usize,
    pub target: usize,
    pub stats: &'a Stats,
    pub per_length: BTreeMap<usize, usize>,
}

/// The longest problem the generator makes, in plies.
pub const MAX_LENGTH: usize = 99;

/// The one rule for the wanted lengths: odd (the attacker mates), MIN <= MAX <= [`MAX_LENGTH`].
pub fn lengths_allowed(min: usize, max: usize) -> bool {
    !min.is_multiple_of(2) && !max.is_multiple_of(2) && min <= max && max <= MAX_LENGTH
}

/// Parses the wanted lengths, `L` or `MIN-MAX` (`tsume generate --length`).
pub fn parse_lengths(text: &str) -> Result<(usize, usize), ArgumentError> {
    let parse = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| ArgumentError::LengthNotANumber(s.to_string()))
    };
    let (min, max) = match text.split_once('-') {
        Some((a, b)) => (parse(a)?, parse(b)?),
        None => (parse(text)?, parse(text)?),
    };
    if !lengths_allowed(min, max) {
        return Err(ArgumentError::Lengths(text.to_string()));
    }
    Ok((min, max))
}

/// Runs the generator until the pack has `count` problems, or a limit.
pub fn run(options: &Options, mut on_progress: impl FnMut(&Progress)) -> Result<Stats, PackError> {
    if !lengths_allowed(options.min_length, options.max_length) {
        return Err(PackError::Refused(format!(
            "lengths must be odd with MIN <= MAX <= {MAX_LENGTH}, got {}-{}",
            options.min_length, options.max_length
        )));
    }
    let version = env!("CARGO_PKG_VERSION").to_string();
    if options.out.exists() && !options.out.is_dir() {
        // `--out pack/pack.jsonl`: the pack is a directory of files.
        return Err(PackError::Refused(format!(
            "--out names the pack's directory, and {} is a file",
            options.out.display()
        )));
    }
    std::fs::create_dir_all(&options.out).map_err(|e| PackError::io(&options.out, e))?;
    // Held until the run returns: two runs appending to one pack would interleave.
    let _lock = lock_dir(&options.out)?;
    let mut run = Run::open(options, &version)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()
        .map_err(|e| PackError::Refused(format!("starting {} threads: {e}", options.threads)))?;
    let start = Instant::now();
    let deadline = options.time_limit.and_then(|t| start.checked_add(t));
    let past_deadline = || deadline.is_some_and(|d| Instant::now() >= d);
    let first = run.next;
    let mut ended = Ended::Complete;
    while run.pack.records.len() < options.count {
        if past_deadline() {
            ended = Ended::TimeLimit;
            break;
        }
        if options
            .max_candidates
            .is_some_and(|m| run.next - first >= m)
        {
            ended = Ended::MaxCandidates;
            break;
        }
        let end = run.batch_end()?;
        // A candidate not started by the time limit leaves the batch unfinished: it is
        // dropped whole (nothing appended, no progress), so the limit is kept to about one
        // candidate's time and the pack stays what an uninterrupted run makes.
        let Some(results) = run.evaluate(&pool, end, &past_deadline) else {
            ended = Ended::TimeLimit;
            break;
        };
        run.take(end, results)?;
        run.stats.elapsed = start.elapsed();
        on_progress(&run.progress());
    }
    let in_pack = run.pack.records.len();
    let mut stats = run.finish(&version)?;
    stats.elapsed = start.elapsed();
    stats.in_pack = in_pack;
    stats.ended = ended;
    Ok(stats)
}

/// What identifies a run: the key `progress.json` must match, and the records'
/// `generator` object (without `candidate`).
fn identity(options: &Options, shard: Option<Shard>, version: &str) -> (RunKey, serde_json::Value) {
    let key = RunKey {
        seed: options.seed,
        min_length: options.min_length,
        max_length: options.max_length,
        budget: options.budget,
        shape: options.shape.clone(),
        version: version.to_string(),
        shard: shard.map(|s| s.to_string()),
    };
    let mut generator_info = serde_json::json!({
        "seed": options.seed,
        "lengths": format!("{}-{}", options.min_length, options.max_length),
        "budget": options.budget,
        "shape": options.shape,
        "version": version,
    });
    if let Some(s) = shard {
        generator_info["shard"] = s.to_string().into();
    }
    (key, generator_info)
}

/// The run's first candidate: after the last one `progress.json` saved, unless the files
/// say otherwise. The files are the truth: a batch whose records are there but whose
/// progress was not written is done again, its records checked rather than appended twice.
fn first_candidate(
    saved: Option<u64>,
    packs: [Option<&Pack>; 2],
    numbering: Shard,
    out: &Path,
    progress_path: &Path,
) -> Result<u64, PackError> {
    let last = packs
        .into_iter()
        .flatten()
        .filter_map(Pack::last_candidate)
        .max()
        .map(|c| {
            numbering.local(c).ok_or_else(|| {
                PackError::Refused(format!(
                    "{}: candidate {c} is not one of shard {numbering}'s",
                    out.display()
                ))
            })
        })
        .transpose()?;
    let next = match (saved, last) {
        (Some(n), Some(c)) if n > c => n,
        (_, Some(c)) => c - c % BATCH,
        (Some(n), None) => n,
        (None, None) => 0,
    };
    if next > MAX_NEXT / numbering.count {
        return Err(PackError::Refused(format!(
            "{}: no candidates left after {next}",
            progress_path.display()
        )));
    }
    Ok(next)
}

/// The results of one batch's candidates, in candidate order.
type BatchResults = Vec<(Result<Found, Stage>, StageTimes)>;

/// A run between batches: its packs, where it stands and what it counted.
struct Run<'a> {
    options: &'a Options,
    /// The shard as given (`None` for the whole space, 1/1 included).
    shard: Option<Shard>,
    /// The run's candidates among the seed's (0 of 1 without a shard).
    numbering: Shard,
    key: RunKey,
    /// The records' `generator` object, without `candidate`.
    generator_info: serde_json::Value,
    progress_path: PathBuf,
    pack: Pack,
    /// Shorter sound problems that extension starts from when the wanted lengths begin
    /// above 3 plies: kept in their own file (not part of the pack), so that a resumed run
    /// has them too.
    stones: Option<Pack>,
    /// The run's next own candidate.
    next: u64,
    stats: Stats,
    writes: Writes,
    settings: Settings,
    /// Problems wanted per length.
    quota: usize,
}

impl<'a> Run<'a> {
    /// Opens (or resumes) the pack and the stepping stones in `options.out`.
    fn open(options: &'a Options, version: &str) -> Result<Run<'a>, PackError> {
        // Shard 1/1 is the whole space: the same run, records and files as no shard.
        let shard = options.shard.filter(|s| s.count > 1);
        let numbering = shard.unwrap_or(Shard { index: 0, count: 1 });
        let (key, generator_info) = identity(options, shard, version);
        let expect = Expect {
            generator: &generator_info,
            drop_truncated: options.drop_truncated,
        };
        let progress_path = options.out.join("progress.json");
        let saved = resume_point(&progress_path, &key, MAX_NEXT / numbering.count)?;
        let mut pack = Pack::resume(&options.out, "pack.jsonl", &expect)?;
        let mut stones = if options.min_length > 3 {
            Some(Pack::resume(&options.out, "stones.jsonl", &expect)?)
        } else {
            None
        };
        let next = first_candidate(
            saved,
            [Some(&pack), stones.as_ref()],
            numbering,
            &options.out,
            &progress_path,
        )?;
        let mut stats = Stats::default();
        for p in [Some(&mut pack), stones.as_mut()].into_iter().flatten() {
            p.hold_back_from(Some(numbering.global(next)));
            stats.notes.append(&mut p.notes);
        }
        let settings = Settings {
            // With stepping stones the pipeline takes every length from 3 up.
            min_length: options.min_length.min(3),
            max_length: options.max_length,
            budget: options.budget,
            screen_budget: (options.budget / 4).max(20_000),
            hash_mb: options.hash_mb,
            full_lengths: Default::default(),
        };
        let lengths = (options.min_length..=options.max_length).step_by(2).count();
        Ok(Run {
            options,
            shard,
            numbering,
            key,
            generator_info,
            progress_path,
            pack,
            stones,
            next,
            stats,
            writes: Writes {
                done: 0,
                fault: options.fault,
            },
            settings,
            quota: options.count.div_ceil(lengths),
        })
    }

    /// The end of the next batch (exclusive).
    fn batch_end(&self) -> Result<u64, PackError> {
        self.next
            .checked_add(BATCH)
            .filter(|&e| e <= MAX_NEXT / self.numbering.count)
            .ok_or_else(|| {
                PackError::Refused(format!(
                    "{}: no candidates left after {}",
                    self.progress_path.display(),
                    self.next
                ))
            })
    }

    /// Evaluates the candidates `next..end` in parallel; `None` when the time limit came
    /// before one of them started.
    fn evaluate(
        &mut self,
        pool: &rayon::ThreadPool,
        end: u64,
        past_deadline: &(impl Fn() -> bool + Sync),
    ) -> Option<BatchResults> {
        // Mutation and extension bases: the pack as it stands before the batch
        // (deterministic).
        let bases = bases(self.stones.iter().chain([&self.pack]));
        let mut known = self.pack.skeletons();
        let mut full = count_lengths(&self.pack);
        full.retain(|_, n| *n >= self.quota);
        if let Some(stones) = &self.stones {
            known.extend(stones.skeletons());
            let mut stone_counts = count_lengths(stones);
            stone_counts.retain(|_, n| *n >= STONE_QUOTA);
            full.extend(stone_counts);
        }
        self.settings.full_lengths = full.into_keys().collect();
        let all: Vec<&Base> = bases.iter().collect();
        let extendable = extendable(&bases, &self.settings);
        let (options, numbering, settings) = (self.options, self.numbering, &self.settings);
        let results: Vec<Option<(Result<Found, Stage>, StageTimes)>> = pool.install(|| {
            (self.next..end)
                .into_par_iter()
                .map(|i| {
                    if past_deadline() {
                        return None;
                    }
                    let c = make_candidate(
                        options.seed,
                        numbering.global(i),
                        &options.shape,
                        &all,
                        &extendable,
                    );
                    Some(pipeline::evaluate(&c, settings, &known))
                })
                .collect()
        });
        results.into_iter().collect()
    }

    /// Counts a finished batch and keeps its problems, in candidate order; then records
    /// the progress.
    fn take(&mut self, end: u64, results: BatchResults) -> Result<(), PackError> {
        for (i, (result, times)) in (self.next..end).zip(results) {
            self.stats.candidates += 1;
            self.stats.screen_time += times.screen;
            self.stats.verify_time += times.verify;
            let stage = match &result {
                Ok(_) => Stage::Accepted,
                Err(s) => *s,
            };
            *self.stats.stages.entry(stage.name()).or_default() += 1;
            if let Ok(found) = result {
                self.keep(i, &found)?;
            }
        }
        self.pack.check_replayed()?;
        if let Some(stones) = &self.stones {
            stones.check_replayed()?;
        }
        self.next = end;
        self.writes
            .next(|| save_progress(&self.progress_path, &self.key, end, true))?;
        save_progress(&self.progress_path, &self.key, end, false)
    }

    /// A sound problem from candidate `i`: into the pack (unless a duplicate or over its
    /// length's quota), or, shorter than wanted, into the stepping stones.
    fn keep(&mut self, i: u64, found: &Found) -> Result<(), PackError> {
        let mut generator = self.generator_info.clone();
        generator["candidate"] = self.numbering.global(i).into();
        let record = pack::record(found, generator);
        if record.length < self.options.min_length {
            if let Some(stones) = self.stones.as_mut() {
                let count = count_lengths(stones).get(&record.length).copied();
                if !stones.is_duplicate(&record) && count.unwrap_or(0) < STONE_QUOTA {
                    self.stats.stepping_stones += 1;
                    append(stones, record, &mut self.writes)?;
                }
            }
            return Ok(());
        }
        let per_length = count_lengths(&self.pack);
        if self.pack.is_duplicate(&record) {
            self.stats.duplicates += 1;
        } else if per_length.get(&record.length).copied().unwrap_or(0) >= self.quota
            || self.pack.records.len() >= self.options.count
        {
            self.stats.over_quota += 1;
        } else {
            *self
                .stats
                .accepted_per_length
                .entry(record.length)
                .or_default() += 1;
            append(&mut self.pack, record, &mut self.writes)?;
        }
        Ok(())
    }

    fn progress(&self) -> Progress<'_> {
        Progress {
            accepted: self.pack.records.len(),
            target: self.options.count,
            stats: &self.stats,
            per_length: count_lengths(&self.pack),
        }
    }

    /// Writes the pack's other files (pack.sfen, problems.kif, manifest.json).
    fn finish(self, version: &str) -> Result<Stats, PackError> {
        let mut extra = serde_json::Map::new();
        if let Some(s) = self.shard {
            extra.insert("seed".into(), self.options.seed.into());
            extra.insert("shard".into(), s.to_string().into());
        }
        self.pack.export(version, extra)?;
        Ok(self.stats)
    }
}

fn count_lengths(pack: &Pack) -> BTreeMap<usize, usize> {
    let mut m = BTreeMap::new();
    for r in &pack.records {
        *m.entry(r.length).or_default() += 1;
    }
    m
}

/// Stepping stones kept per length below the wanted lengths.
const STONE_QUOTA: usize = 12;

/// Problems of one length in one family (extensions of one problem) that extension aims
/// for.
const FAMILY_SHARE: usize = 2;

/// An accepted problem that candidates may start from.
struct Base {
    setup: Setup,
    length: usize,
    /// The first problem of its family: a problem whose solution without its first two
    /// plies is another one's solution extends that one and joins its family.
    family: usize,
}

/// The problems of `packs`, in order (a problem's tail must come before it to be found).
fn bases<'a>(packs: impl Iterator<Item = &'a Pack>) -> Vec<Base> {
    let mut by_solution: HashMap<&[String], usize> = HashMap::new();
    let mut bases: Vec<Base> = Vec::new();
    for r in packs.flat_map(|p| &p.records) {
        let Ok(setup) = r.sfen.parse() else { continue };
        let tail = r.solution.get(2..).unwrap_or_default();
        let family = by_solution
            .get(tail)
            .map_or(bases.len(), |&i| bases[i].family);
        by_solution.insert(&r.solution, bases.len());
        bases.push(Base {
            setup,
            length: r.length,
            family,
        });
    }
    bases
}

/// Of two random bases, the longer one.
fn pick_longer(rng: &mut Rng, bases: &[&Base]) -> Option<Setup> {
    if bases.is_empty() {
        return None;
    }
    let a = bases[rng.below(bases.len() as u64) as usize];
    let b = bases[rng.below(bases.len() as u64) as usize];
    Some(if b.length > a.length { b } else { a }.setup.clone())
}

/// The bases an extension may start from: those whose length + 2 is still wanted and
/// whose family does not have its share of that length yet, so that one fertile family
/// does not take over the pack.
fn extendable<'a>(bases: &'a [Base], settings: &Settings) -> Vec<&'a Base> {
    let mut per_family: HashMap<(usize, usize), usize> = HashMap::new();
    for b in bases {
        *per_family.entry((b.family, b.length)).or_default() += 1;
    }
    bases
        .iter()
        .filter(|b| {
            let longer = b.length + 2;
            longer <= settings.max_length
                && !settings.full_lengths.contains(&longer)
                && per_family.get(&(b.family, longer)).copied().unwrap_or(0) < FAMILY_SHARE
        })
        .collect()
}

/// Candidate `i`: a backward extension of one of `extendable` or a mutation of one of
/// `all` (once there are some), or a random placement. Longer problems are picked as bases
/// more often.
fn make_candidate(seed: u64, i: u64, shape: &Shape, all: &[&Base], extendable: &[&Base]) -> Setup {
    let mut rng = Rng::for_candidate(seed, i);
    if rng.chance(shape.extend_percent) {
        if let Some(base) = pick_longer(&mut rng, extendable) {
            if let Some(start) = extend::extend(&base, &mut rng) {
                return start;
            }
        }
    }
    if rng.chance(shape.mutate_percent) {
        if let Some(base) = pick_longer(&mut rng, all) {
            return candidate::mutate(&base, &mut rng, shape);
        }
    }
    candidate::random_placement(&mut rng, shape)
}

/// The parameters in which the run `saved` differs from `key`, each as `name: <saved's>
/// there, <key's> here` (`shape.radius` for a field of the candidates' shape).
fn run_key_differences(saved: &RunKey, key: &RunKey) -> Vec<String> {
    fn flatten(prefix: &str, v: serde_json::Value, out: &mut BTreeMap<String, String>) {
        match v {
            serde_json::Value::Object(fields) => {
                for (name, v) in fields {
                    let name = if prefix.is_empty() {
                        name
                    } else {
                        format!("{prefix}.{name}")
                    };
                    flatten(&name, v, out);
                }
            }
            v => {
                out.insert(prefix.to_string(), v.to_string());
            }
        }
    }
    let fields = |k: &RunKey| {
        let mut out = BTreeMap::new();
        flatten("", serde_json::to_value(k).unwrap_or_default(), &mut out);
        out
    };
    let (there, here) = (fields(saved), fields(key));
    let none = "none".to_string();
    let names: std::collections::BTreeSet<&String> = there.keys().chain(here.keys()).collect();
    names
        .into_iter()
        .filter(|n| there.get(*n) != here.get(*n))
        .map(|n| {
            let (a, b) = (there.get(n).unwrap_or(&none), here.get(n).unwrap_or(&none));
            format!("{n}: {a} there, {b} here")
        })
        .collect()
}

/// The `next_candidate` of `progress.json`, if there is one, for a run with `key`.
fn resume_point(path: &Path, key: &RunKey, max: u64) -> Result<Option<u64>, PackError> {
    if !path.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(path).map_err(|e| PackError::io(path, e))?;
    let saved: ProgressFile = serde_json::from_str(&text).map_err(|e| PackError::json(path, e))?;
    if &saved.run != key {
        return Err(PackError::Refused(format!(
            "{} belongs to a run with other parameters ({}); use another --out directory, \
             or that run's parameters to resume it",
            path.display(),
            run_key_differences(&saved.run, key).join("; ")
        )));
    }
    let n = saved.next_candidate;
    if !n.is_multiple_of(BATCH) || n > max {
        return Err(PackError::Refused(format!(
            "{}: next_candidate {n} is not one a run writes (a multiple of {BATCH} up to {max})",
            path.display()
        )));
    }
    Ok(Some(n))
}

/// Writes `progress.json` (through a temporary file and a rename, so it is whole or
/// absent); `torn` writes only half of the temporary file (the fault-injection hook).
fn save_progress(path: &Path, key: &RunKey, next: u64, torn: bool) -> Result<(), PackError> {
    let text = serde_json::to_string_pretty(&ProgressFile {
        run: key.clone(),
        next_candidate: next,
    })
    .expect("json");
    let tmp = path.with_extension("json.tmp");
    let text = if torn { &text[..text.len() / 2] } else { &text };
    std::fs::write(&tmp, text).map_err(|e| PackError::io(&tmp, e))?;
    if torn {
        return Ok(());
    }
    std::fs::rename(&tmp, path).map_err(|e| PackError::io(path, e))
}

/// Locks the pack directory `dir` (the file `dir/.lock`) for this process: a second run on
/// the same directory fails at once instead of interleaving its records with ours. The
/// lock goes with the returned file (or the process). The file is left in place: removing
/// it on the way out would let a run that had opened it just before lock the removed file
/// while a third locks a new one.
fn lock_dir(dir: &Path) -> Result<File, PackError> {
    let path = dir.join(".lock");
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| PackError::io(&path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(PackError::Locked {
            dir: dir.to_path_buf(),
        }),
        Err(TryLockError::Error(e)) => Err(PackError::Refused(format!(
            "locking {}: {e}",
            path.display()
        ))),
    }
}

/// Counts the writes of a run for the fault-injection hook ([`Fault`]).
struct Writes {
    done: u64,
    fault: Option<Fault>,
}

impl Writes {
    /// A write is about to happen: at the injected fault, does `torn` if the fault asks for
    /// a torn write, and fails.
    fn next(&mut self, torn: impl FnOnce() -> Result<(), PackError>) -> Result<(), PackError> {
        if let Some(f) = self.fault.filter(|f| f.after_writes == self.done) {
            if f.torn {
                torn()?;
            }
            return Err(PackError::Refused(format!(
                "injected fault before write {}",
                self.done + 1
            )));
        }
        self.done += 1;
        Ok(())
    }
}

/// Appends `r` to `pack`, counting the write (a record the file already has is no write).
fn append(pack: &mut Pack, r: Record, writes: &mut Writes) -> Result<(), PackError> {
    if !pack.replays_next() {
        writes.next(|| pack.append_torn(&r))?;
    }
    pack.append(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths() {
        assert_eq!(parse_lengths("7"), Ok((7, 7)));
        assert_eq!(parse_lengths(" 3 - 19"), Ok((3, 19)));
        assert_eq!(parse_lengths("99"), Ok((99, 99)));
        for bad in ["4", "3-4", "9-3", "101", "1-101"] {
            let e = parse_lengths(bad).unwrap_err().to_string();
            assert!(e.contains("MIN <= MAX <= 99"), "{bad}: {e}");
        }
        assert!(parse_lengths("x-5")
            .unwrap_err()
            .to_string()
            .contains("\"x\" is not a number"));
        assert!(lengths_allowed(1, 99) && !lengths_allowed(1, 101));
    }

    #[test]
    fn shards_number_disjoint_candidates_that_cover_the_seed() {
        let mut seen = std::collections::BTreeSet::new();
        for k in 1..=8 {
            let s = parse_shard(&format!("{k}/8")).unwrap();
            assert_eq!(s.to_string(), format!("{k}/8"));
            for local in 0..100 {
                let g = s.global(local);
                assert!(seen.insert(g), "candidate {g} in two shards");
                assert_eq!(s.local(g), Some(local));
            }
            let other = parse_shard(&format!("{}/8", k % 8 + 1)).unwrap();
            assert_eq!(other.local(s.global(5)), None);
        }
        assert_eq!(seen, (0..800).collect());
        for bad in ["0/8", "9/8", "8", "a/b", "1/0", "1/2000000", "-1/3"] {
            assert!(
                parse_shard(bad).unwrap_err().to_string().contains("K/N"),
                "{bad}"
            );
        }
        assert_eq!(parse_shard(" 2 / 3 "), Ok(Shard { index: 1, count: 3 }));
    }

    fn line(sfen: &str, solution: &[&str]) -> String {
        serde_json::json!({
            "id": sfen, "sfen": sfen, "length": solution.len(), "solution": solution,
            "solution_ja": "", "final_alternatives": [],
            "difficulty": {"nodes": 1, "grade": 1, "tempting_checks": 0},
            "themes": [], "generator": {},
        })
        .to_string()
    }

    #[test]
    fn an_extension_joins_the_family_of_the_problem_it_extends() {
        let dir = std::env::temp_dir().join(format!("tsume-run-families-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        let stones = [line(sfen, &["a", "b", "c"]), line(sfen, &["p", "q", "r"])];
        let pack = [
            line(sfen, &["x", "y", "a", "b", "c"]),
            line(sfen, &["u", "v", "x", "y", "a", "b", "c"]),
            line(sfen, &["u", "v", "p", "q", "z"]),
        ];
        std::fs::write(dir.join("stones.jsonl"), stones.join("\n") + "\n").unwrap();
        std::fs::write(dir.join("pack.jsonl"), pack.join("\n") + "\n").unwrap();
        let stones = Pack::open_records(&dir, "stones.jsonl").unwrap();
        let pack = Pack::open(&dir).unwrap();
        let families: Vec<usize> = bases([&stones, &pack].into_iter())
            .iter()
            .map(|b| b.family)
            .collect();
        assert_eq!(families, [0, 1, 0, 0, 4]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
