//! `tsume generate --shard K/N` and `tsume merge`: disjoint, reproducible shards of one
//! seed's candidates, and a merge whose output depends only on the set of its inputs.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use common::{stderr, stdout, tsume};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tsume-shard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The records of `dir/pack.jsonl`.
fn records(dir: &Path) -> Vec<serde_json::Value> {
    read(&dir.join("pack.jsonl"))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn candidate(r: &serde_json::Value) -> u64 {
    r["generator"]["candidate"].as_u64().unwrap()
}

/// `tsume generate` of at most 6 problems of 3–5 plies, seed 12, 64 candidates (of the
/// shard) unless `extra` says otherwise; must exit with 0.
fn generate(out: &Path, extra: &[&str]) {
    let mut args = vec![
        "generate",
        "--count",
        "6",
        "--length",
        "3-5",
        "--seed",
        "12",
        "--threads",
        "1",
        "--budget",
        "100000",
        "--out",
        out.to_str().unwrap(),
    ];
    if !extra.contains(&"--max-candidates") {
        args.extend(["--max-candidates", "64"]);
    }
    args.extend(extra);
    let o = tsume(&args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
}

fn merge(args: &[&str]) -> std::process::Output {
    let mut full = vec!["merge"];
    full.extend(args);
    tsume(&full)
}

/// sha256 by `sha256sum` (coreutils): an implementation apart from the tool's.
fn sha256_hex(path: &Path) -> String {
    let o = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .expect("sha256sum");
    String::from_utf8(o.stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

const FILES: [&str; 4] = ["pack.jsonl", "pack.sfen", "problems.kif", "manifest.json"];

#[test]
fn eight_shards_are_disjoint_reproducible_and_cut_one_candidate_space() {
    let shards: Vec<PathBuf> = (1..=8).map(|k| scratch(&format!("eight-{k}"))).collect();
    for (k, dir) in (1..=8).zip(&shards) {
        generate(
            dir,
            &["--shard", &format!("{k}/8"), "--max-candidates", "128"],
        );
    }
    // Every shard evaluated its own 128 candidates: K-1, K-1+8, … (progress.json counts the
    // shard's own), and its problems come from those only, with the shard recorded.
    let mut evaluated = BTreeSet::new();
    let mut accepted = BTreeSet::new();
    let mut problems = 0;
    for (k, dir) in (1..=8u64).zip(&shards) {
        let progress = json(&dir.join("progress.json"));
        assert_eq!(progress["next_candidate"], 128, "shard {k}");
        assert_eq!(progress["run"]["shard"], format!("{k}/8"));
        for local in 0..128u64 {
            assert!(
                evaluated.insert(local * 8 + k - 1),
                "candidate {} twice",
                local * 8 + k - 1
            );
        }
        let manifest = json(&dir.join("manifest.json"));
        assert_eq!(manifest["shard"], format!("{k}/8"));
        assert_eq!(manifest["seed"], 12);
        for r in records(dir) {
            let c = candidate(&r);
            assert_eq!(c % 8, k - 1, "shard {k} made candidate {c}");
            assert_eq!(r["generator"]["shard"], format!("{k}/8"));
            assert!(accepted.insert(c), "candidate {c} accepted by two shards");
            problems += 1;
        }
    }
    assert_eq!(evaluated, (0..1024).collect::<BTreeSet<u64>>());
    assert!(problems >= 8, "too few problems to compare: {problems}");

    // The shards cut the single run's candidate space: the single run's first problem
    // (found before any base exists) is its shard's first problem too.
    let single = scratch("eight-single");
    generate(&single, &["--max-candidates", "512"]);
    let first = records(&single).into_iter().next().expect("a problem");
    let c = candidate(&first);
    let shard_first = records(&shards[(c % 8) as usize])
        .into_iter()
        .next()
        .unwrap();
    assert_eq!(candidate(&shard_first), c);
    assert_eq!(shard_first["sfen"], first["sfen"]);
    assert_eq!(shard_first["solution"], first["solution"]);

    // A shard is reproducible and resumable on its own: 3/8 in two halves.
    let resumed = scratch("eight-resumed");
    generate(&resumed, &["--shard", "3/8", "--max-candidates", "64"]);
    generate(&resumed, &["--shard", "3/8", "--max-candidates", "64"]);
    for name in FILES.iter().chain(&["progress.json"]) {
        assert_eq!(
            read(&shards[2].join(name)),
            read(&resumed.join(name)),
            "{name}"
        );
    }
    // Another shard's directory is another run.
    let o = tsume(&[
        "generate",
        "--count",
        "6",
        "--length",
        "3-5",
        "--seed",
        "12",
        "--budget",
        "100000",
        "--max-candidates",
        "32",
        "--shard",
        "4/8",
        "--out",
        resumed.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("other parameters"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(r#"(shard: "3/8" there, "4/8" here)"#),
        "{}",
        stderr(&o)
    );

    // Merged: sound, no duplicates, every problem from a shard, checksums listed.
    let out = scratch("eight-merged");
    let args: Vec<&str> = std::iter::once(out.to_str().unwrap())
        .chain(shards.iter().map(|d| d.to_str().unwrap()))
        .collect();
    let o = merge(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let merged = records(&out);
    let manifest = json(&out.join("manifest.json"));
    let dropped = manifest["merge"]["duplicates_dropped"].as_u64().unwrap() as usize;
    assert_eq!(merged.len() + dropped, problems);
    let ids: BTreeSet<&str> = merged.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), merged.len(), "duplicate ids");
    let candidates: Vec<u64> = merged.iter().map(candidate).collect();
    assert!(candidates.windows(2).all(|w| w[0] < w[1]), "{candidates:?}");
    assert_eq!(manifest["sources"].as_array().unwrap().len(), 8);
    for s in manifest["sources"].as_array().unwrap() {
        let dir = Path::new(s["dir"].as_str().unwrap());
        assert_eq!(
            s["files"]["pack.jsonl"]["sha256"].as_str().unwrap(),
            sha256_hex(&dir.join("pack.jsonl"))
        );
        assert_eq!(
            s["files"]["manifest.json"]["sha256"].as_str().unwrap(),
            sha256_hex(&dir.join("manifest.json"))
        );
    }
    for name in ["pack.jsonl", "pack.sfen", "problems.kif"] {
        assert_eq!(
            manifest["files"][name]["sha256"].as_str().unwrap(),
            sha256_hex(&out.join(name)),
            "{name}"
        );
    }
    assert_eq!(read(&out.join("pack.sfen")).lines().count(), merged.len());
    let o = tsume(&[
        "verify",
        "--budget",
        "400000",
        out.join("pack.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    for d in shards.iter().chain([&single, &resumed, &out]) {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn shard_one_of_one_is_the_run_without_shard() {
    let plain = scratch("one-plain");
    let one = scratch("one-one");
    generate(&plain, &[]);
    generate(&one, &["--shard", "1/1"]);
    for name in FILES.iter().chain(&["progress.json"]) {
        assert_eq!(read(&plain.join(name)), read(&one.join(name)), "{name}");
    }
    assert!(!read(&plain.join("pack.jsonl")).contains("shard"));
    for d in [plain, one] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn bad_shards_are_clear_errors() {
    for bad in ["0/4", "5/4", "4", "x/4", "1/0", "1/2000000"] {
        let out = scratch("bad-shard");
        let o = tsume(&["generate", "--out", out.to_str().unwrap(), "--shard", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&o).contains("--shard must be K/N"),
            "{bad}: {}",
            stderr(&o)
        );
        assert!(!out.exists(), "{bad}: wrote {}", out.display());
    }
}

/// Four shard packs of seed 12 (1/4 … 4/4), made once per test.
fn four_shards(name: &str) -> Vec<PathBuf> {
    (1..=4)
        .map(|k| {
            let dir = scratch(&format!("{name}-{k}"));
            generate(
                &dir,
                &["--shard", &format!("{k}/4"), "--max-candidates", "256"],
            );
            dir
        })
        .collect()
}

fn paths<'a>(out: &'a Path, dirs: &'a [PathBuf]) -> Vec<&'a str> {
    std::iter::once(out.to_str().unwrap())
        .chain(dirs.iter().map(|d| d.to_str().unwrap()))
        .collect()
}

#[test]
fn merge_is_deterministic_idempotent_and_capped_by_candidate_order() {
    let shards = four_shards("det");
    let a = scratch("det-a");
    let b = scratch("det-b");
    let o = merge(&paths(&a, &shards));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut reversed = shards.clone();
    reversed.reverse();
    reversed.swap(0, 2);
    let o = merge(&paths(&b, &reversed));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let before: Vec<String> = FILES.iter().map(|n| read(&a.join(n))).collect();
    for (name, text) in FILES.iter().zip(&before) {
        assert_eq!(
            text,
            &read(&b.join(name)),
            "{name}: order changed the merge"
        );
    }
    // Again into the same directory: the same bytes.
    let o = merge(&paths(&a, &reversed));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for (name, text) in FILES.iter().zip(&before) {
        assert_eq!(
            text,
            &read(&a.join(name)),
            "{name}: a second merge changed it"
        );
    }
    // The merged pack merged alone: the same problems, in the same order.
    let again = scratch("det-again");
    let o = merge(&[again.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(read(&again.join("pack.jsonl")), before[0]);
    assert_eq!(read(&again.join("problems.kif")), before[2]);
    let all = records(&a);
    let per_length = |rs: &[serde_json::Value]| -> BTreeMap<u64, usize> {
        let mut m = BTreeMap::new();
        for r in rs {
            *m.entry(r["length"].as_u64().unwrap()).or_default() += 1;
        }
        m
    };
    let counts = per_length(&all);
    assert!(
        counts.len() == 2 && counts.values().all(|&n| n >= 3),
        "too few problems to cap: {counts:?}"
    );
    let manifest = json(&a.join("manifest.json"));
    assert_eq!(manifest["count"], all.len());
    for (l, n) in &counts {
        assert_eq!(manifest["counts_per_length"][l.to_string()], *n);
    }

    // Capped to 4 of 3–5 plies: 2 per length, the first (lowest candidates) of each.
    let capped = scratch("det-capped");
    let mut args = paths(&capped, &shards);
    args.extend(["--count", "4", "--length", "3-5"]);
    let o = merge(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let kept = records(&capped);
    let mut want = Vec::new();
    let mut taken: BTreeMap<u64, usize> = BTreeMap::new();
    for r in &all {
        let n = taken.entry(r["length"].as_u64().unwrap()).or_default();
        if *n < 2 {
            *n += 1;
            want.push(r.clone());
        }
    }
    assert_eq!(kept, want);
    // Only 5 plies wanted.
    let fives = scratch("det-fives");
    let mut args = paths(&fives, &shards);
    args.extend(["--length", "5"]);
    let o = merge(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let kept = records(&fives);
    assert_eq!(kept.len(), counts[&5]);
    assert!(kept.iter().all(|r| r["length"] == 5));
    for d in shards.iter().chain([&a, &b, &again, &capped, &fives]) {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Rewrites the records of `dir/pack.jsonl` with `edit` and its manifest's checksum (a
/// consistent pack of other contents).
fn rewrite(
    dir: &Path,
    edit: &dyn Fn(&mut serde_json::Value),
    manifest_edit: &dyn Fn(&mut serde_json::Value),
) {
    let text: String = records(dir)
        .into_iter()
        .map(|mut r| {
            edit(&mut r);
            r.to_string() + "\n"
        })
        .collect();
    std::fs::write(dir.join("pack.jsonl"), text).unwrap();
    let mut m = json(&dir.join("manifest.json"));
    m["files"]["pack.jsonl"]["sha256"] = sha256_hex(&dir.join("pack.jsonl")).into();
    manifest_edit(&mut m);
    std::fs::write(dir.join("manifest.json"), m.to_string()).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn merge_drops_duplicates_keeping_the_lowest_candidate() {
    let shards = four_shards("dup");
    // The same problems under another seed: every one a duplicate of shard 1's.
    let other = scratch("dup-other");
    copy_dir(&shards[0], &other);
    rewrite(&other, &|r| r["generator"]["seed"] = 99.into(), &|m| {
        m["seed"] = 99.into()
    });
    let out = scratch("dup-out");
    let o = merge(&[
        out.to_str().unwrap(),
        other.to_str().unwrap(),
        shards[0].to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!records(&shards[0]).is_empty());
    assert_eq!(
        read(&out.join("pack.jsonl")),
        read(&shards[0].join("pack.jsonl"))
    );
    let manifest = json(&out.join("manifest.json"));
    assert_eq!(
        manifest["merge"]["duplicates_dropped"],
        records(&shards[0]).len()
    );
    for d in shards.iter().chain([&other, &out]) {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// The summary counts in the singular where there is one: `from 1 pack`.
#[test]
fn merge_summary_says_one_pack() {
    let pack = scratch("one-pack");
    generate(&pack, &["--max-candidates", "512"]);
    let out = scratch("one-pack-out");
    let n = records(&pack).len();
    assert!(n > 1, "{n} problems");
    let o = merge(&[out.to_str().unwrap(), pack.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "{n} problems from 1 pack ({n} problems; 0 duplicates and 0 outside"
        )),
        "{}",
        stderr(&o)
    );
    // One problem, and one outside the target.
    let o = merge(&[
        out.to_str().unwrap(),
        pack.to_str().unwrap(),
        "--count",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "1 problem from 1 pack ({n} problems; 0 duplicates"
        )),
        "{}",
        stderr(&o)
    );
    for d in [pack, out] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn merge_refuses_overlaps_and_incomparable_packs_writing_nothing() {
    let shards = four_shards("bad");
    let s = |i: usize| shards[i].to_str().unwrap().to_string();
    let copy = scratch("bad-copy");
    copy_dir(&shards[0], &copy);
    let half = scratch("bad-half");
    generate(&half, &["--shard", "1/2"]);
    let other_rules = scratch("bad-rules");
    copy_dir(&shards[1], &other_rules);
    rewrite(&other_rules, &|_| {}, &|m| m["rules"] = "raw".into());
    let other_version = scratch("bad-version");
    copy_dir(&shards[1], &other_version);
    rewrite(
        &other_version,
        &|r| r["generator"]["version"] = "9.9.9".into(),
        &|m| m["version"] = "9.9.9".into(),
    );
    let edited = scratch("bad-edited");
    copy_dir(&shards[1], &edited);
    let mut text = read(&edited.join("pack.jsonl"));
    text.push('\n');
    std::fs::write(edited.join("pack.jsonl"), text).unwrap();
    let unfinished = scratch("bad-unfinished");
    copy_dir(&shards[1], &unfinished);
    std::fs::remove_file(unfinished.join("manifest.json")).unwrap();
    let p = |d: &PathBuf| d.to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![s(0), s(1), s(0)], "both hold shard 1/4 of seed 12"),
        (vec![s(0), p(&copy)], "both hold shard 1/4 of seed 12"),
        (vec![s(1), p(&half)], "shards of different counts overlap"),
        (vec![s(0), p(&other_rules)], "not comparable"),
        (vec![s(0), p(&other_version)], "not comparable"),
        (vec![s(0), p(&edited)], "is not the manifest's"),
        (vec![s(0), p(&unfinished)], "manifest.json"),
        (
            vec![s(0), "/nonexistent-tsume-pack".into()],
            "/nonexistent-tsume-pack",
        ),
    ];
    for (dirs, needle) in cases {
        let out = scratch("bad-out");
        let mut args = vec![out.to_str().unwrap()];
        args.extend(dirs.iter().map(String::as_str));
        let o = merge(&args);
        assert_eq!(o.status.code(), Some(2), "{dirs:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{dirs:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
        assert!(!out.exists(), "{dirs:?}: wrote {}", out.display());
    }
    // The output may not be an input, nor a generate run's directory.
    for out in [&shards[0], &half] {
        let before = read(&out.join("pack.jsonl"));
        let o = merge(&[out.to_str().unwrap(), &s(1), &s(2)]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_eq!(before, read(&out.join("pack.jsonl")));
    }
    // Part of a shard set merges, with a note naming the missing shards.
    let part = scratch("bad-part");
    let o = merge(&[part.to_str().unwrap(), &s(0), &s(2)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("seed 12: shards 2/4, 4/4 missing (2 of 4 merged)"),
        "{}",
        stderr(&o)
    );
    let o = merge(&[part.to_str().unwrap(), &s(0), &s(1), &s(2), &s(3)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("missing"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&part);
    // --verify with a budget too small to prove anything: unproven, exit 1, nothing written.
    let out = scratch("bad-verify");
    let o = merge(&[
        out.to_str().unwrap(),
        &s(0),
        &s(1),
        "--verify",
        "--budget",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("unproven"), "{}", stderr(&o));
    assert!(!out.exists());
    // And with a real budget it merges.
    let o = merge(&[
        out.to_str().unwrap(),
        &s(0),
        &s(1),
        "--verify",
        "--budget",
        "400000",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.join("manifest.json").exists());
    for d in shards.iter().chain([
        &copy,
        &half,
        &other_rules,
        &other_version,
        &edited,
        &unfinished,
        &out,
    ]) {
        let _ = std::fs::remove_dir_all(d);
    }
}
