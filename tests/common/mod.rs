//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod engine;

use std::path::PathBuf;

/// Path of a file under `tests/data/`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

pub fn read_data(name: &str) -> String {
    std::fs::read_to_string(data_path(name))
        .unwrap_or_else(|e| panic!("reading tests/data/{name}: {e}"))
}

/// The line of `tests/data/<name>` whose comment starts with `tag` (`# zuko025 …`).
pub fn tagged_line(name: &str, tag: &str) -> String {
    read_data(name)
        .lines()
        .find(|l| l.contains(&format!("# {tag} ")))
        .unwrap_or_else(|| panic!("no `# {tag}` in tests/data/{name}"))
        .to_string()
}

/// Path of a file under `benches/data/` (only for ignored, full-size tests).
pub fn shared_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("benches/data")
        .join(name)
}

/// The content lines of a problem file: comments and blank lines removed, `# …` stripped.
pub fn content_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
}

/// Runs the `tsume` binary with `args` from the repository root.
pub fn tsume(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("running the tsume binary")
}

/// Runs the `tsume` binary with `args` from the repository root, `input` on its standard
/// input.
pub fn tsume_with_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running the tsume binary");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// Sends SIGINT (a Ctrl-C) to the process `pid`, by `kill` (coreutils).
pub fn interrupt(pid: u32) {
    let kill = std::process::Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
}

pub fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Replays `moves` from `pos`, asserting that each is legal and that every attacker move
/// (the side to move at `pos` attacks) gives check; returns the position at the end.
pub fn replay_checking_line(
    pos: &tsume_solver::Position,
    moves: &[tsume_solver::Move],
    what: &str,
) -> tsume_solver::Position {
    let mut p = pos.clone();
    let attacker = p.side_to_move();
    for (i, &m) in moves.iter().enumerate() {
        assert!(
            p.legal_moves().contains(m),
            "{what}: ply {} {m} is illegal",
            i + 1
        );
        if p.side_to_move() == attacker {
            assert!(
                tsume_solver::movegen::CheckInfo::new(&p).gives_check(&p, m),
                "{what}: ply {} {m} is not a check",
                i + 1
            );
        }
        p.do_move(m);
    }
    p
}

/// Verifies every case of `tests/data/verify_cases.txt` (`<problem> | sound|flawed [|
/// <flaw messages, ; separated>]`) with `options`, asserting each verdict and that each
/// expected flaw message begins one of the reported ones, with one solver of `hash_mb` MiB
/// for all. Returns the cases checked.
pub fn check_verify_cases(
    options: &tsume_solver::tsume::verify::VerifyOptions,
    hash_mb: usize,
) -> usize {
    let text = read_data("verify_cases.txt");
    let mut solver = tsume_solver::Solver::new(hash_mb);
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let (sfen, claimed) = match fields[0].split_once(" moves ") {
            Some((s, m)) => (s, Some(m.split_whitespace().map(String::from).collect())),
            None => (fields[0], None::<Vec<String>>),
        };
        let setup: tsume_solver::Setup = sfen.parse().expect("valid SFEN");
        let v = solver.verify(&setup, claimed.as_deref(), options);
        let messages: Vec<String> = v.flaws.iter().map(|f| f.to_string()).collect();
        match fields[1] {
            "sound" => assert!(v.is_sound(), "{}: {messages:?}", fields[0]),
            "flawed" => {
                assert!(
                    !v.is_sound() && !v.is_unproven(),
                    "{}: {messages:?}",
                    fields[0]
                );
                for expected in fields[2].split(';').map(str::trim) {
                    assert!(
                        messages.iter().any(|m| m.starts_with(expected)),
                        "{}: expected {expected:?} among {messages:?}",
                        fields[0]
                    );
                }
            }
            other => panic!("unknown verdict {other}"),
        }
        checked += 1;
    }
    checked
}
