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

/// `tsume generate` with seed 12 and a 100,000-node budget; must exit with 0. (Seed 11
/// found only one problem in 512 candidates once the two-ply rule came in.)
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
        "12",
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
    // The message names what differs (the budget: 100,000 there, the default here), and only
    // that.
    assert!(
        stderr(&o).contains("(budget: 100000 there, 200000 here)"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(out);
}

/// `tsume generate ARGS --out OUT` (the caller checks the exit code).
fn generate_raw(out: &Path, args: &[&str]) -> std::process::Output {
    let mut full = vec!["generate", "--out", out.to_str().unwrap()];
    full.extend(args);
    tsume(&full)
}

/// Small runs of 4 three-ply problems (about 24 writes: 4 appends, 20 progress writes)
/// and of 2 five-ply problems with 4 stepping stones (about 11 writes).
const SMALL: [&str; 10] = [
    "--count",
    "4",
    "--length",
    "3",
    "--seed",
    "11",
    "--threads",
    "1",
    "--budget",
    "100000",
];
const SMALL_STONES: [&str; 10] = [
    "--count",
    "2",
    "--length",
    "5",
    "--seed",
    "7",
    "--threads",
    "1",
    "--budget",
    "100000",
];

/// The files of a finished pack directory that must not depend on interruptions.
const PACK_FILES: [&str; 6] = [
    "pack.jsonl",
    "stones.jsonl",
    "progress.json",
    "manifest.json",
    "pack.sfen",
    "problems.kif",
];

fn assert_same_pack(want: &Path, got: &Path, what: &str) {
    for name in PACK_FILES {
        let (a, b) = (
            std::fs::read(want.join(name)),
            std::fs::read(got.join(name)),
        );
        assert!(
            a.as_ref().ok() == b.as_ref().ok(),
            "{what}: {name} differs from an uninterrupted run"
        );
    }
}

#[test]
fn resume_is_exact_after_a_fault_at_any_write() {
    // A simulated crash (the hidden test hook) just before each append and each
    // progress.json write in turn, whole or torn (half of the write done), then the same
    // command again: the pack is byte-identical to an uninterrupted run's.
    for (name, args) in [("plain", SMALL), ("stones", SMALL_STONES)] {
        let whole = scratch(&format!("fault-{name}-whole"));
        let o = generate_raw(&whole, &args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        for torn in [false, true] {
            let mut faults = 0;
            for k in 0.. {
                let dir = scratch(&format!("fault-{name}-{k}-{torn}"));
                let k_text = k.to_string();
                let mut faulty = args.to_vec();
                faulty.extend(["--fault-after-writes", &k_text]);
                if torn {
                    faulty.push("--fault-torn");
                }
                let o = generate_raw(&dir, &faulty);
                if o.status.code() == Some(0) {
                    // The run needed at most k writes: every write has been tried.
                    let _ = std::fs::remove_dir_all(&dir);
                    break;
                }
                faults += 1;
                assert!(stderr(&o).contains("injected fault"), "{}", stderr(&o));
                let o = generate_raw(&dir, &args);
                let o = if o.status.code() == Some(2) && torn {
                    // A torn append: refused, naming the line, then dropped on request.
                    let e = stderr(&o);
                    assert!(
                        e.contains("is cut off") && e.contains("--drop-truncated"),
                        "{e}"
                    );
                    let mut drop = args.to_vec();
                    drop.push("--drop-truncated");
                    generate_raw(&dir, &drop)
                } else {
                    o
                };
                assert_eq!(o.status.code(), Some(0), "{name} k={k}: {}", stderr(&o));
                assert_same_pack(
                    &whole,
                    &dir,
                    &format!("{name}, fault at write {k} torn {torn}"),
                );
                let _ = std::fs::remove_dir_all(&dir);
            }
            assert!(faults >= 8, "{name}: only {faults} writes");
        }
        let _ = std::fs::remove_dir_all(&whole);
    }
}

/// Rewrites `dir/progress.json` with another `next_candidate`.
fn set_next_candidate(dir: &Path, next: u64) {
    let path = dir.join("progress.json");
    let mut p: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
    p["next_candidate"] = next.into();
    std::fs::write(&path, serde_json::to_string_pretty(&p).unwrap()).unwrap();
}

/// Keeps the first `n` lines of `dir/pack.jsonl`.
fn keep_lines(dir: &Path, n: usize) -> Vec<String> {
    let lines: Vec<String> = read(&dir.join("pack.jsonl"))
        .lines()
        .map(String::from)
        .collect();
    let kept = lines[..n]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect::<String>();
    std::fs::write(dir.join("pack.jsonl"), kept).unwrap();
    lines
}

fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn the_pack_is_the_truth_when_progress_lags() {
    // The state of a crash after a problem's append and before its batch's progress.json
    // (a full disk did it): the pack has problems from candidates past `next_candidate`.
    let whole = scratch("lag-whole");
    let o = generate_raw(&whole, &SMALL);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines = read(&whole.join("pack.jsonl"));
    let candidate = |line: &str| -> u64 {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        v["generator"]["candidate"].as_u64().unwrap()
    };
    let third = candidate(lines.lines().nth(2).unwrap());
    for (what, next) in [("stale progress", third - third % 32), ("no progress", 0)] {
        let dir = scratch("lag");
        copy_dir(&whole, &dir);
        keep_lines(&dir, 3);
        if next == 0 {
            std::fs::remove_file(dir.join("progress.json")).unwrap();
        } else {
            set_next_candidate(&dir, next);
        }
        let o = generate_raw(&dir, &SMALL);
        assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(&o));
        assert_same_pack(&whole, &dir, what);
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(&whole);
}

#[test]
fn a_last_line_without_its_newline_is_repaired_or_refused_never_glued() {
    let whole = scratch("cut-whole");
    let o = generate_raw(&whole, &SMALL);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let pack = read(&whole.join("pack.jsonl"));
    let third_end = pack.match_indices('\n').nth(2).unwrap().0;
    let progress_before_fourth = {
        let v: serde_json::Value = serde_json::from_str(pack.lines().nth(3).unwrap()).unwrap();
        let c = v["generator"]["candidate"].as_u64().unwrap();
        c - c % 32
    };
    // Only the newline lost (a hand edit): the record is whole, the newline is put back.
    let dir = scratch("cut-newline");
    copy_dir(&whole, &dir);
    std::fs::write(dir.join("pack.jsonl"), &pack[..third_end]).unwrap();
    set_next_candidate(&dir, progress_before_fourth);
    let o = generate_raw(&dir, &SMALL);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line 3 had lost its newline"),
        "{}",
        stderr(&o)
    );
    assert_same_pack(&whole, &dir, "newline put back");
    // A line cut in the middle (a crash): refused with its line number, the file
    // untouched; dropped with --drop-truncated, and the run makes it again.
    let cut = &pack[..third_end - 10];
    std::fs::write(dir.join("pack.jsonl"), cut).unwrap();
    set_next_candidate(&dir, 0);
    let o = generate_raw(&dir, &SMALL);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("pack.jsonl: line 3 is cut off") && e.contains("--drop-truncated"),
        "{e}"
    );
    assert_eq!(
        read(&dir.join("pack.jsonl")),
        cut,
        "a refused pack was changed"
    );
    let mut drop = SMALL.to_vec();
    drop.push("--drop-truncated");
    let o = generate_raw(&dir, &drop);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("dropped line 3"), "{}", stderr(&o));
    assert_same_pack(&whole, &dir, "cut line dropped");
    for d in [whole, dir] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn resume_checks_the_pack_before_generating() {
    let whole = scratch("check-whole");
    let o = generate_raw(&whole, &SMALL);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<String> = read(&whole.join("pack.jsonl"))
        .lines()
        .map(String::from)
        .collect();
    let edit = |i: usize, f: &dyn Fn(&mut serde_json::Value)| -> String {
        let mut v: serde_json::Value = serde_json::from_str(&lines[i]).unwrap();
        f(&mut v);
        v.to_string()
    };
    let cases: Vec<(&str, Vec<String>, &str)> = vec![
        (
            "duplicated line",
            vec![lines[0].clone(), lines[1].clone(), lines[1].clone()],
            "line 3: problem",
        ),
        (
            "another run",
            vec![
                lines[0].clone(),
                edit(1, &|v| v["generator"]["seed"] = 12.into()),
            ],
            "line 2: problem",
        ),
        (
            "tampered solution",
            vec![
                lines[0].clone(),
                lines[1].clone(),
                edit(2, &|v| {
                    let s = v["solution"].as_array_mut().unwrap();
                    s.truncate(1);
                    v["length"] = 1.into();
                }),
            ],
            "line 3: problem",
        ),
        (
            "tampered solution_ja",
            vec![edit(0, &|v| v["solution_ja"] = "▲１一飛打".into())],
            "line 1: problem",
        ),
        (
            "out of order",
            vec![lines[1].clone(), lines[0].clone()],
            "line 2: problem",
        ),
    ];
    for (what, pack, needle) in cases {
        let dir = scratch("check");
        copy_dir(&whole, &dir);
        let text = pack.join("\n") + "\n";
        std::fs::write(dir.join("pack.jsonl"), &text).unwrap();
        std::fs::remove_file(dir.join("progress.json")).unwrap();
        let o = generate_raw(&dir, &SMALL);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{what}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{what}");
        assert_eq!(
            read(&dir.join("pack.jsonl")),
            text,
            "{what}: the pack changed"
        );
        assert!(
            !dir.join("progress.json").exists(),
            "{what}: generated anyway"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    // --drop-truncated drops nothing from a pack refused for another reason.
    let dir = scratch("check-drop");
    copy_dir(&whole, &dir);
    let text = format!(
        "{}\n{}",
        edit(0, &|v| v["solution_ja"] = "▲１一飛打".into()),
        &lines[1][..lines[1].len() / 2]
    );
    std::fs::write(dir.join("pack.jsonl"), &text).unwrap();
    let mut drop = SMALL.to_vec();
    drop.push("--drop-truncated");
    let o = generate_raw(&dir, &drop);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 1: problem"), "{}", stderr(&o));
    assert_eq!(
        read(&dir.join("pack.jsonl")),
        text,
        "a refused pack was changed"
    );
    let _ = std::fs::remove_dir_all(&dir);
    // A progress.json no run writes.
    let dir = scratch("check-progress");
    copy_dir(&whole, &dir);
    for bad in [u64::MAX, 33] {
        set_next_candidate(&dir, bad);
        let o = generate_raw(&dir, &SMALL);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("next_candidate"), "{}", stderr(&o));
    }
    for d in [whole, dir] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_locked_pack_directory_is_refused() {
    // Another run holds the directory's lock (here the test does): a second run would
    // interleave its problems with the first's, so it exits 2 naming the directory.
    let dir = scratch("locked");
    std::fs::create_dir_all(&dir).unwrap();
    let lock = std::fs::File::create(dir.join(".lock")).unwrap();
    lock.try_lock().unwrap();
    let o = generate_raw(&dir, &SMALL);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(dir.to_str().unwrap()) && stderr(&o).contains("another tsume generate"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("pack.jsonl").exists());
    drop(lock);
    let o = generate_raw(&dir, &SMALL);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_time_limit_is_kept_to_a_candidate() {
    // Batches of this run take about a second: the limit used to be checked only between
    // batches.
    let dir = scratch("time-limit");
    let start = std::time::Instant::now();
    let o = generate_raw(
        &dir,
        &[
            "--count",
            "100",
            "--length",
            "9-19",
            "--budget",
            "5000000",
            "--pieces",
            "14",
            "--seed",
            "2",
            "--threads",
            "1",
            "--time-limit",
            "0.3",
        ],
    );
    let elapsed = start.elapsed().as_secs_f64();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(elapsed < 0.9, "--time-limit 0.3 took {elapsed:.2} s");
    // The summary says the limit stopped it, short of the count, and how to go on.
    let err = stderr(&o);
    assert!(
        err.contains("of 100 problems, stopped by --time-limit; the same command resumes it"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    // Out of range: a clear error, not a panic.
    for t in ["1e20", "inf", "-1"] {
        let o = generate_raw(&dir, &[&format!("--time-limit={t}")]);
        assert_eq!(o.status.code(), Some(2), "{t}: {}", stderr(&o));
        assert!(stderr(&o).contains("--time-limit"), "{t}: {}", stderr(&o));
    }
}

/// Ctrl-C kills a run where it stands, as before, after one line saying what the pack
/// holds and that the same command resumes it; and it does.
#[cfg(unix)]
#[test]
fn ctrl_c_tells_what_the_pack_holds_then_dies_by_the_signal() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let dir = scratch("ctrl-c");
    let run: Vec<String> = [
        "generate",
        "--count",
        "1000",
        "--length",
        "3-9",
        "--seed",
        "5",
        "--threads",
        "1",
        "--budget",
        "100000",
        "--out",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain([dir.to_str().unwrap().to_string()])
    .collect();
    let child = Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(&run)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Problems kept: the handler is in place (it is before the run starts).
    let lines = || std::fs::read_to_string(dir.join("pack.jsonl")).map_or(0, |t| t.lines().count());
    let start = std::time::Instant::now();
    while lines() < 2 {
        assert!(start.elapsed().as_secs() < 120, "no problem in 120 s");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    common::interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.signal(), Some(2), "{:?}: {err}", out.status);
    let told: usize = err
        .split_once(&format!("tsume: interrupted; pack in {}: ", dir.display()))
        .and_then(|(_, rest)| rest.split_once(" of 1000 problems (in pack.jsonl)"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no interruption line in: {err}"));
    assert!(err.contains("the same command resumes it"), "{err}");
    // The count read at the signal; the run may have kept one more before it died.
    let kept = lines();
    assert!(
        told >= 2 && (told..=told + 1).contains(&kept),
        "told {told}, kept {kept}"
    );
    // The same command resumes the pack as it was left.
    let mut again: Vec<&str> = run.iter().map(String::as_str).collect();
    again.extend(["--max-candidates", "32"]);
    let o = tsume(&again);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(lines() >= kept);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--max-candidates N` is checked between batches of 32, so it is rounded up to a whole
/// batch, and counts the candidates of this run: the same command again tries N more.
#[test]
fn max_candidates_counts_whole_batches_of_this_run() {
    let dir = scratch("max-candidates");
    let next = || {
        let p: serde_json::Value = serde_json::from_str(&read(&dir.join("progress.json"))).unwrap();
        p["next_candidate"].as_u64().unwrap()
    };
    for total in [64, 128] {
        let o = generate_lengths(&dir, "100", "3-5", "1", "40");
        assert!(
            stderr(&o).contains(" from 64 candidates ")
                && stderr(&o).contains("stopped by --max-candidates"),
            "{}",
            stderr(&o)
        );
        assert_eq!(next(), total);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The summary says why a run ended: the count reached, a limit (and that the same command
/// resumes), or nothing left to do when a complete pack is run again, or with a smaller
/// count.
#[test]
fn the_summary_says_why_the_run_ended() {
    let dir = scratch("ended");
    let o = generate(&dir, "1", "1");
    assert!(
        stderr(&o).contains("stopped by --max-candidates; the same command resumes it"),
        "{}",
        stderr(&o)
    );
    let o = generate(&dir, "1", "100000");
    assert!(
        stderr(&o).contains(": 6 of 6 problems, complete"),
        "{}",
        stderr(&o)
    );
    let o = generate(&dir, "1", "100000");
    assert!(
        stderr(&o).contains("0 problems accepted from 0 candidates")
            && stderr(&o).contains(": 6 of 6 problems, already complete"),
        "{}",
        stderr(&o)
    );
    // A smaller --count than the pack has: nothing to do, and the pack is not cut down.
    let o = generate_lengths(&dir, "4", "3-5", "1", "100000");
    assert!(
        stderr(&o).contains(": 6 of 4 problems, already more than --count")
            && stderr(&o).contains("tsume merge --count"),
        "{}",
        stderr(&o)
    );
    assert_eq!(read(&dir.join("pack.jsonl")).lines().count(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_starter_pack_passes_the_resume_checks() {
    // Made by an earlier version (no candidate numbers), with mates that leave only
    // useless interpositions: rerunning its command finds it complete and changes nothing.
    let dir = scratch("starter");
    copy_dir(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems/starter"),
        &dir,
    );
    let o = generate_raw(
        &dir,
        &[
            "--count",
            "135",
            "--length",
            "3-19",
            "--seed",
            "1",
            "--threads",
            "2",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let starter = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems/starter");
    for name in ["pack.jsonl", "pack.sfen", "problems.kif", "manifest.json"] {
        assert_eq!(read(&dir.join(name)), read(&starter.join(name)), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_run_on_a_busy_directory_exits_2() {
    const RUN: [&str; 8] = [
        "--count",
        "1000",
        "--length",
        "3-5",
        "--seed",
        "7",
        "--threads",
        "1",
    ];
    // The reproduction: two runs of one command on one directory. The first holds
    // the directory for its whole run; the second is refused and the pack stays whole.
    let dir = scratch("busy");
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(["generate", "--out", dir.to_str().unwrap()])
        .args(RUN)
        .args(["--time-limit", "20"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !dir.join("progress.json").exists() {
        assert!(
            start.elapsed().as_secs() < 20,
            "the first run wrote no progress"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = generate_raw(&dir, &RUN);
    let _ = first.kill();
    let _ = first.wait();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(dir.to_str().unwrap()), "{}", stderr(&o));
    // The first run's pack resumes cleanly: nothing was interleaved (the kill may have
    // cut its last append, which is dropped on request).
    let resume = [&RUN[..], &["--drop-truncated", "--max-candidates", "32"]].concat();
    let o = generate_raw(&dir, &resume);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--out` naming a file (the pack's `pack.jsonl`, say) is refused with a message that
/// says `--out` is the pack's directory, and the file is left as it was.
#[test]
fn out_naming_a_file_is_refused() {
    let dir = scratch("out-file");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pack.jsonl");
    std::fs::write(&file, "kept\n").unwrap();
    let o = tsume(&["generate", "--count", "1", "--out", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--out names the pack's directory"),
        "{}",
        stderr(&o)
    );
    assert_eq!(read(&file), "kept\n");
    std::fs::remove_dir_all(&dir).unwrap();
}
