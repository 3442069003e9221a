//! The Python bench scripts (`benches/solve_sets.py`, `benches/generate_throughput.py`) run
//! before the release binary is built, as a newcomer following `benches/README.md` in a
//! fresh clone would: a clear message naming the build command and exit code 2, not a
//! Python traceback (the fresh-clone walk-through of issue 20).

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
