//! Helpers shared by the integration tests.
#![allow(dead_code)]

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
