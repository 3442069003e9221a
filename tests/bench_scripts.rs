//! The Python bench scripts (`benches/solve_sets.py`, `benches/generate_throughput.py`) run
//! before the release binary is built, as a newcomer following `benches/README.md` in a
//! fresh clone would: a clear message naming the build command and exit code 2, not a
//! Python traceback (the fresh-clone walk-through of issue 20). And `benches/trace_tree.py`'s
//! arithmetic on a trace small enough to check by hand.

use std::process::Command;

#[test]
#[ignore = "needs python3: cargo test --test bench_scripts -- --ignored"]
fn bench_scripts_without_the_binary_say_how_to_build_it() {
    let root = env!("CARGO_MANIFEST_DIR");
    let target = std::env::temp_dir().join("tsume-bench-scripts-no-such-dir");
    let default = target.join("release").join("tsume");
    let given = target.join("tsume");
    for (script, files) in [
        ("benches/solve_sets.py", &["benches/data/zuko.txt"][..]),
        ("benches/generate_throughput.py", &[][..]),
    ] {
        // The default path, under a target directory that has no binary; then --tsume.
        for (path, option) in [(&default, false), (&given, true)] {
            let mut cmd = Command::new("python3");
            cmd.current_dir(root)
                .env("CARGO_TARGET_DIR", &target)
                .arg(script);
            if option {
                cmd.arg("--tsume").arg(path);
            }
            let o = cmd.args(files).output().expect("running python3");
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{script}: {err}");
            assert!(
                err.contains(&*path.to_string_lossy()) && err.contains("cargo build --release"),
                "{script}: {err}"
            );
            assert!(!err.contains("Traceback"), "{script}: {err}");
        }
    }
}

/// `benches/trace_tree.py floor` (RESULTS §59a) on a trace of four nodes: an attacker node
/// refuted (5 nodes counted, two checks), one check's defender node refuted by its first
/// evasion (4 nodes, three evasions; the refuting attacker node 2 nodes, one check), the
/// other left open (6 nodes). The yardsticks: the settled nodes' 11 of 17; each expanded
/// once, 3 + 4 + 2 = 9; only the refutations evaluated, 3 + 2 + 2 = 7.
#[test]
#[ignore = "needs python3: cargo test --test bench_scripts -- --ignored"]
fn trace_tree_floor_leaves_out_what_a_known_refutation_saves() {
    let root = env!("CARGO_MANIFEST_DIR");
    let trace = std::env::temp_dir().join(format!("tsume-trace-floor-{}.tsv", std::process::id()));
    let rows = [
        "id\tparent\tside\tbudget\tvisits\tnodes\tfate\tmove\tvia\tfirst_entry\tmoves",
        "1\t0\tor\t9\t2\t5\tNoMate\t-\t-\t1\t2",
        "2\t1\tand\t8\t1\t4\tNoMate\tG*5b\tnormal\t2\t3",
        "3\t1\tand\t8\t1\t6\tOpen\tG*4b\tnormal\t4\t2",
        "4\t2\tor\t7\t1\t2\tNoMate\t5a4a\tnormal\t3\t1",
    ];
    std::fs::write(&trace, rows.join("\n") + "\n").expect("writing the trace");
    let o = Command::new("python3")
        .current_dir(root)
        .arg("benches/trace_tree.py")
        .arg("floor")
        .arg(&trace)
        .output()
        .expect("running python3");
    let _ = std::fs::remove_file(&trace);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for ratio in ["(0.647)", "(0.529)", "(0.412)"] {
        assert!(out.contains(ratio), "{ratio} missing from: {out}");
    }
}
