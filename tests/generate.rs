//! `tsume generate`: deterministic, resumable packs whose every problem `tsume verify`
//! accepts with a larger budget than the generator used.

mod common;

use std::path::{Path, PathBuf};

use common::{stderr, stdout, tsume};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tsume-generate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn generate(out: &Path, threads: &str, max_candidates: &str) -> std::process::Output {
    generate_lengths(out, "6", "3-5", threads, max_candidates)
}

/// `tsume generate` with seed 11 and a 100,000-node budget; must exit with 0.
fn generate_lengths(
    out: &Path,
    count: &str,
    lengths: &str,
    threads: &str,
    max_candidates: &str,
) -> std::process::Output {
    let o = tsume(&[
        "generate",
        "--count",
        count,
        "--length",
        lengths,
        "--seed",
        "11",
        "--threads",
        threads,
        "--max-candidates",
        max_candidates,
        "--budget",
        "100000",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    o
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn same_pack_whatever_the_threads_and_resumable() {
    let one = scratch("one");
    let two = scratch("two");
    let resumed = scratch("resumed");
    generate(&one, "1", "512");
    generate(&two, "2", "512");
    // Stopped after 256 candidates, then the same command again: it resumes.
    generate(&resumed, "2", "256");
    generate(&resumed, "1", "256");
    let pack = read(&one.join("pack.jsonl"));
    assert!(
        pack.lines().count() >= 2,
        "too few problems to compare:\n{pack}"
    );
    assert_eq!(
        pack,
        read(&two.join("pack.jsonl")),
        "thread count changed the pack"
    );
    assert_eq!(
        pack,
        read(&resumed.join("pack.jsonl")),
        "resuming changed the pack"
    );

    // The derived files agree with the pack, and the manifest's checksums hold.
    let sfen = read(&one.join("pack.sfen"));
    assert_eq!(sfen.lines().count(), pack.lines().count());
    assert!(sfen.lines().all(|l| l.contains(" moves ")));
    let kif = read(&one.join("problems.kif"));
    assert!(kif.matches("詰み").count() >= pack.lines().count());
    let manifest: serde_json::Value =
        serde_json::from_str(&read(&one.join("manifest.json"))).unwrap();
    assert_eq!(manifest["count"], pack.lines().count());
    assert_eq!(manifest["rules"], "tsume");
    for name in ["pack.jsonl", "pack.sfen", "problems.kif"] {
        let want = manifest["files"][name]["sha256"]
            .as_str()
            .unwrap()
            .to_string();
        let got = sha256_hex(&std::fs::read(one.join(name)).unwrap());
        assert_eq!(want, got, "{name}");
    }

    // Every problem is sound for `tsume verify` with four times the generator's budget.
    let o = tsume(&[
        "verify",
        "--budget",
        "400000",
        one.join("pack.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    for line in pack.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let len = v["length"].as_u64().unwrap();
        assert!((3..=5).contains(&len), "{line}");
        assert_eq!(v["solution"].as_array().unwrap().len() as u64, len);
        let grade = v["difficulty"]["grade"].as_u64().unwrap();
        assert!((1..=8).contains(&grade));
        assert_eq!(v["id"].as_str().unwrap().len(), 16);
    }
    for d in [one, two, resumed] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn long_lengths_grow_from_stepping_stones() {
    // Only 7-ply problems wanted: the 3- and 5-ply problems found on the way are kept in
    // stones.jsonl and extended backwards (a check and a reply put before them).
    let run =
        |out: &Path, max_candidates: &str| generate_lengths(out, "2", "7", "2", max_candidates);
    let whole = scratch("stones");
    let resumed = scratch("stones-resumed");
    run(&whole, "960");
    run(&resumed, "480");
    run(&resumed, "480");
    let pack = read(&whole.join("pack.jsonl"));
    let stones = read(&whole.join("stones.jsonl"));
    assert_eq!(
        pack,
        read(&resumed.join("pack.jsonl")),
        "resuming changed the pack"
    );
    assert_eq!(stones, read(&resumed.join("stones.jsonl")));
    let solutions = |text: &str| -> Vec<(u64, Vec<String>)> {
        text.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let moves = v["solution"].as_array().unwrap();
                let moves = moves.iter().map(|m| m.as_str().unwrap().to_string());
                (v["length"].as_u64().unwrap(), moves.collect())
            })
            .collect()
    };
    let (pack, stones) = (solutions(&pack), solutions(&stones));
    assert!(!pack.is_empty() && pack.iter().all(|(len, _)| *len == 7));
    assert!(stones.iter().all(|(len, _)| *len < 7));
    // Some problem is an extension of a shorter one: its solution without its first two
    // plies is that problem's solution.
    let all: Vec<&Vec<String>> = pack.iter().chain(&stones).map(|(_, m)| m).collect();
    assert!(
        all.iter().any(|m| all.contains(&&m[2..].to_vec())),
        "no extension among {all:?}"
    );
    let o = tsume(&[
        "verify",
        "--budget",
        "400000",
        whole.join("pack.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    for d in [whole, resumed] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// sha256 by `sha256sum` (coreutils): an implementation apart from the generator's.
fn sha256_hex(bytes: &[u8]) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("sha256sum");
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn bad_options_are_clear_errors() {
    for (args, needle) in [
        (vec!["--length", "4"], "odd"),
        (vec!["--length", "7-3"], "MIN <= MAX"),
        (vec!["--length", "x"], "not a number"),
        (vec!["--time-limit=0"], "positive"),
    ] {
        let out = scratch("bad");
        let mut full = vec!["generate", "--out", out.to_str().unwrap()];
        full.extend(args.iter());
        let o = tsume(&full);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
    // A directory that cannot be created.
    let o = tsume(&[
        "generate",
        "--out",
        "/proc/tsume-cannot-write-here",
        "--count",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("/proc/tsume-cannot-write-here"),
        "{}",
        stderr(&o)
    );
    // Another run's directory.
    let out = scratch("other");
    generate(&out, "1", "32");
    let o = tsume(&[
        "generate",
        "--out",
        out.to_str().unwrap(),
        "--seed",
        "12",
        "--length",
        "3-5",
        "--max-candidates",
        "32",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("other parameters"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(out);
}
