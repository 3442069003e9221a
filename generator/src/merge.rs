//! `tsume merge OUT DIR…`: shard packs (or any packs of this tool) joined into one pack,
//! deduplicated by id and by solution skeleton as inside one run, optionally capped per
//! length, with fresh `pack.sfen`, `problems.kif` and a `manifest.json` that lists the
//! sources and their checksums.
//!
//! The output depends only on the set of inputs: the problems are taken in the order of
//! their candidate numbers (then seed, then id), which for the shards of one seed is the
//! order of the seed's candidate numbering, so the first of two duplicates (and the ones
//! kept under a cap) is the one of the lowest candidate; the sources are listed by the
//! checksum of their `pack.jsonl`. Everything is read and checked before anything is
//! written.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::pack::{self, PackError, Record};

/// One input pack, read and checked.
pub struct Source {
    /// The directory as given.
    pub dir: PathBuf,
    pub records: Vec<Record>,
    /// The sha256 of its `pack.jsonl` and `manifest.json`.
    pub pack_sha256: String,
    pub manifest_sha256: String,
    /// The manifest's `version` (the tool version that made the pack).
    pub version: String,
    /// The shards its problems come from, and the one its manifest names: (seed, K/N), with
    /// 1/1 for a run without shard.
    pub shards: Vec<(u64, String)>,
}

/// What to keep: the lengths (`--length`) and the total (`--count`, at most `count ÷
/// lengths` rounded up of each length, as `tsume generate` does).
#[derive(Clone, Debug, Default)]
pub struct Target {
    pub count: Option<usize>,
    pub lengths: Option<(usize, usize)>,
}

/// The merged pack before it is written (its records borrowed from the sources).
pub struct Merged<'a> {
    pub records: Vec<&'a Record>,
    /// Problems dropped as duplicates (id or skeleton) of a problem kept.
    pub duplicates: usize,
    /// Problems dropped by the target: outside `--length`, or over the count of their
    /// length.
    pub out_of_target: usize,
}

fn bad(msg: String) -> PackError {
    PackError::Refused(msg)
}

/// Reads and checks the pack in `dir`: `pack.jsonl` (every line a well-formed record
/// whose id, solution and derived fields agree, as a resumed run checks them) and
/// `manifest.json` (of rules [`pack::RULES`], with the checksum of this `pack.jsonl`).
pub fn read_source(dir: &Path) -> Result<Source, PackError> {
    let name = dir.display();
    if !dir.is_dir() {
        return Err(bad(format!("{name}: not a pack directory")));
    }
    let pack_path = dir.join("pack.jsonl");
    let manifest_path = dir.join("manifest.json");
    let bytes = fs::read(&pack_path).map_err(|e| bad(format!("{}: {e}", pack_path.display())))?;
    let manifest_bytes = fs::read(&manifest_path).map_err(|e| {
        bad(format!(
            "{}: {e} (a pack is merged once its run has finished and written its manifest)",
            manifest_path.display()
        ))
    })?;
    let manifest: serde_json::Value = serde_json::from_slice(&manifest_bytes)
        .map_err(|e| bad(format!("{}: {e}", manifest_path.display())))?;
    let rules = manifest["rules"].as_str().unwrap_or("(none)");
    if rules != pack::RULES {
        return Err(bad(format!(
            "{}: a pack of rules {rules:?}, not {:?}: its problems are not comparable",
            manifest_path.display(),
            pack::RULES
        )));
    }
    let version = manifest["version"]
        .as_str()
        .ok_or_else(|| bad(format!("{}: no version", manifest_path.display())))?
        .to_string();
    let pack_sha256 = pack::sha256_hex(&bytes);
    let listed = manifest["files"]["pack.jsonl"]["sha256"].as_str();
    if listed != Some(pack_sha256.as_str()) {
        return Err(bad(format!(
            "{}: its sha256 {pack_sha256} is not the manifest's ({}): the pack changed after \
             its run, or the run did not finish",
            pack_path.display(),
            listed.unwrap_or("none")
        )));
    }
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| bad(format!("{}: not UTF-8 text", pack_path.display())))?;
    let mut records = Vec::new();
    let mut shards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |msg: String| bad(format!("{}: line {}: {msg}", pack_path.display(), i + 1));
        let r: Record =
            serde_json::from_str(line).map_err(|e| at(format!("not a pack record: {e}")))?;
        pack::check_fields(&r).map_err(at)?;
        let run_version = r.generator["version"].as_str();
        if run_version.is_some_and(|v| v != version) {
            return Err(at(format!(
                "problem {} was made by version {}, the manifest says {version}",
                r.id,
                run_version.unwrap_or_default()
            )));
        }
        if let Some(seed) = r.generator["seed"].as_u64() {
            let shard = r.generator["shard"].as_str().unwrap_or("1/1").to_string();
            shards.push((seed, shard));
        }
        records.push(r);
    }
    // A shard's manifest names it even when the shard found no problem.
    if let (Some(seed), Some(shard)) = (manifest["seed"].as_u64(), manifest["shard"].as_str()) {
        shards.push((seed, shard.to_string()));
    }
    shards.sort();
    shards.dedup();
    Ok(Source {
        dir: dir.to_path_buf(),
        records,
        pack_sha256,
        manifest_sha256: pack::sha256_hex(&manifest_bytes),
        version,
        shards,
    })
}

/// Checks that `sources` can be merged: one tool version (problems of other versions are
/// not comparable: ids, skeletons and grades may differ), and no candidate space twice: the
/// packs of one seed must be shards of one count N, and no shard K/N of a seed in two
/// packs (the same pack given twice is that too).
pub fn check_sources(sources: &[Source]) -> Result<(), PackError> {
    let Some(first) = sources.first() else {
        return Err(bad("no packs to merge".into()));
    };
    for s in sources {
        if s.version != first.version {
            return Err(bad(format!(
                "{} was made by tsume {} and {} by tsume {}: packs of different versions are \
                 not comparable",
                first.dir.display(),
                first.version,
                s.dir.display(),
                s.version
            )));
        }
    }
    let mut counts: BTreeMap<u64, (String, &Path)> = BTreeMap::new();
    let mut owners: HashMap<(u64, &str), &Path> = HashMap::new();
    for s in sources {
        for (seed, shard) in &s.shards {
            let n = shard.split_once('/').map_or("1", |(_, n)| n).to_string();
            if let Some((other, dir)) = counts.get(seed).filter(|(m, _)| *m != n) {
                return Err(bad(format!(
                    "{} has shard {shard} of seed {seed} and {} a shard of {other} of the same \
                     seed: shards of different counts overlap (their candidates are the same \
                     numbers); merge the shards of one count, or use another seed",
                    s.dir.display(),
                    dir.display()
                )));
            }
            counts.insert(*seed, (n, &s.dir));
            if let Some(dir) = owners.insert((*seed, shard.as_str()), &s.dir) {
                return Err(bad(format!(
                    "{} and {} both hold shard {shard} of seed {seed}: overlapping shards (the \
                     same candidates twice)",
                    dir.display(),
                    s.dir.display()
                )));
            }
        }
    }
    Ok(())
}

/// The shards missing from `sources` for each seed cut into shards (checked by
/// [`check_sources`]): one line per seed, e.g. `seed 12: shards 2/4, 4/4 missing`. A merge
/// of part of a shard set is allowed (a shard may have failed); the caller tells the user.
pub fn missing_shards(sources: &[Source]) -> Vec<String> {
    let mut have: BTreeMap<u64, (u64, Vec<u64>)> = BTreeMap::new();
    for (seed, shard) in sources.iter().flat_map(|s| &s.shards) {
        let Some((k, n)) = shard.split_once('/') else {
            continue;
        };
        let (Ok(k), Ok(n)) = (k.parse::<u64>(), n.parse::<u64>()) else {
            continue;
        };
        let entry = have.entry(*seed).or_insert((n, Vec::new()));
        entry.1.push(k);
    }
    have.into_iter()
        .filter_map(|(seed, (n, ks))| {
            let ks: HashSet<u64> = ks.into_iter().collect();
            let missing: Vec<String> = (1..=n)
                .filter(|k| !ks.contains(k))
                .take(10)
                .map(|k| format!("{k}/{n}"))
                .collect();
            let more = n as usize - ks.len() - missing.len();
            (!missing.is_empty()).then(|| {
                format!(
                    "seed {seed}: shard{} {}{} missing ({} of {n} merged)",
                    if missing.len() + more > 1 { "s" } else { "" },
                    missing.join(", "),
                    if more > 0 {
                        format!(" and {more} more")
                    } else {
                        String::new()
                    },
                    ks.len()
                )
            })
        })
        .collect()
}

/// The order problems are taken in: candidate number (none last), seed, id, then (only
/// for records that tie on those, which the checks of [`check_sources`] leave to records
/// without a candidate number) the record's JSON line.
fn order(a: &Record, b: &Record) -> std::cmp::Ordering {
    let key = |r: &Record| {
        (
            pack::candidate(r).unwrap_or(u64::MAX),
            r.generator["seed"].as_u64().unwrap_or(u64::MAX),
        )
    };
    key(a)
        .cmp(&key(b))
        .then_with(|| a.id.cmp(&b.id))
        .then_with(|| {
            let line = |r: &Record| serde_json::to_string(r).expect("records serialise");
            line(a).cmp(&line(b))
        })
}

/// The problems of `sources` in their order, without duplicates (id, then skeleton: the
/// first kept), within `target`.
pub fn select<'a>(sources: &'a [Source], target: &Target) -> Merged<'a> {
    let mut all: Vec<&Record> = sources.iter().flat_map(|s| &s.records).collect();
    all.sort_by(|a, b| order(a, b));
    let mut ids = HashSet::new();
    let mut skeletons = HashSet::new();
    let mut unique = Vec::new();
    let mut duplicates = 0;
    for r in all {
        let skeleton = pack::record_skeleton(r).unwrap_or_default();
        if ids.contains(&r.id) || skeletons.contains(&skeleton) {
            duplicates += 1;
            continue;
        }
        ids.insert(r.id.clone());
        skeletons.insert(skeleton);
        unique.push(r);
    }
    let in_lengths = |r: &Record| {
        target
            .lengths
            .is_none_or(|(min, max)| (min..=max).contains(&r.length))
    };
    let wanted: Vec<&Record> = unique.iter().copied().filter(|r| in_lengths(r)).collect();
    let mut out_of_target = unique.len() - wanted.len();
    let (total, quota) = match target.count {
        None => (usize::MAX, usize::MAX),
        Some(count) => {
            let lengths = match target.lengths {
                Some((min, max)) => (min..=max).step_by(2).count(),
                None => wanted
                    .iter()
                    .map(|r| r.length)
                    .collect::<HashSet<_>>()
                    .len(),
            };
            (count, count.div_ceil(lengths.max(1)))
        }
    };
    let mut per_length: BTreeMap<usize, usize> = BTreeMap::new();
    let mut records = Vec::new();
    for r in wanted {
        let n = per_length.entry(r.length).or_default();
        if *n >= quota || records.len() >= total {
            out_of_target += 1;
            continue;
        }
        *n += 1;
        records.push(r);
    }
    Merged {
        records,
        duplicates,
        out_of_target,
    }
}

/// Checks that `out` may receive the merged pack: not one of the inputs, and not a
/// `tsume generate` run's directory (whose pack would no longer match its progress).
pub fn check_out(out: &Path, sources: &[Source]) -> Result<(), PackError> {
    if out.exists() && !out.is_dir() {
        return Err(bad(format!("{}: not a directory", out.display())));
    }
    if let Ok(o) = out.canonicalize() {
        for s in sources {
            if s.dir.canonicalize().is_ok_and(|d| d == o) {
                return Err(bad(format!(
                    "{}: the output is one of the packs merged; write the merge elsewhere",
                    out.display()
                )));
            }
        }
    }
    for name in ["progress.json", "stones.jsonl"] {
        if out.join(name).exists() {
            return Err(bad(format!(
                "{}: the directory of a tsume generate run ({name}); write the merge elsewhere",
                out.display()
            )));
        }
    }
    Ok(())
}

/// Writes the merged pack in `out`: `pack.jsonl`, `pack.sfen`, `problems.kif` and
/// `manifest.json` (each through a temporary file and a rename), the manifest listing the
/// sources (by the sha256 of their `pack.jsonl`) with their checksums and shards, and the
/// target.
pub fn write(
    out: &Path,
    sources: &[Source],
    merged: &Merged<'_>,
    target: &Target,
) -> Result<(), PackError> {
    fs::create_dir_all(out).map_err(|e| bad(format!("{}: {e}", out.display())))?;
    let mut jsonl = String::new();
    for r in &merged.records {
        jsonl += &serde_json::to_string(r).expect("records serialise");
        jsonl.push('\n');
    }
    pack::write_file(out, "pack.jsonl", &jsonl)?;
    let mut listed: Vec<&Source> = sources.iter().collect();
    listed.sort_by(|a, b| {
        (&a.pack_sha256, &a.manifest_sha256, &a.dir).cmp(&(
            &b.pack_sha256,
            &b.manifest_sha256,
            &b.dir,
        ))
    });
    let listed: Vec<serde_json::Value> = listed
        .iter()
        .map(|s| {
            serde_json::json!({
                "dir": s.dir.display().to_string(),
                "count": s.records.len(),
                "shards": s.shards.iter().map(|(seed, shard)| serde_json::json!({"seed": seed, "shard": shard})).collect::<Vec<_>>(),
                "files": {
                    "pack.jsonl": {"sha256": s.pack_sha256},
                    "manifest.json": {"sha256": s.manifest_sha256},
                },
            })
        })
        .collect();
    let mut extra = serde_json::Map::new();
    extra.insert("sources".into(), listed.into());
    extra.insert(
        "merge".into(),
        serde_json::json!({
            "count": target.count,
            "lengths": target.lengths.map(|(a, b)| format!("{a}-{b}")),
            "duplicates_dropped": merged.duplicates,
            "out_of_target_dropped": merged.out_of_target,
        }),
    );
    let version = sources.first().map_or("", |s| s.version.as_str());
    pack::export(out, &merged.records, version, extra)
}
