//! `--rules raw` answers against the labelled sets: YaneuraOu's mate-N samples (raw lengths
//! computed by KomoringHeights) and the raw expectations of the tricky-rules set.
//!
//! A CI-sized sample lives in `tests/data/`; the full files of `benches/data/` run in the
//! ignored tests (`cargo test --release --test solve_raw -- --ignored`).

mod common;

use std::time::Duration;

use tsume_solver::dfpn::Outcome;
use tsume_solver::{Limits, Rules, Solver};
use tsume_solver::{Move, Position};

/// Expected answer of a labelled line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    Mate(usize),
    NoMate,
    /// No mate within this many plies (a longer mate or none at all).
    NoMateWithin(usize),
}

/// Checks that `moves` replays legally from `pos`, every attacker move checks, and the last
/// position is checkmate.
fn assert_mating_line(pos: &Position, moves: &[Move], what: &str) {
    let p = common::replay_checking_line(pos, moves, what);
    assert!(p.is_checkmate(), "{what}: the line does not end in mate");
}

fn solve_and_check(sfen: &str, expected: Expected, solver: &mut Solver) -> Result<(), String> {
    let pos = Position::from_sfen(sfen).map_err(|e| format!("{sfen}: {e}"))?;
    let report = solver.solve(&pos, &limits(), Rules::Raw);
    match (&report.outcome, expected) {
        (Outcome::Mate { moves }, Expected::Mate(n)) => {
            assert_mating_line(&pos, moves, sfen);
            if moves.len() != n {
                return Err(format!("{sfen}: mate in {} instead of {n}", moves.len()));
            }
        }
        (Outcome::NoMate, Expected::NoMate | Expected::NoMateWithin(_)) => {}
        (Outcome::Mate { moves }, Expected::NoMateWithin(n)) => {
            assert_mating_line(&pos, moves, sfen);
            if moves.len() <= n {
                return Err(format!(
                    "{sfen}: mate in {}, expected none within {n}",
                    moves.len()
                ));
            }
        }
        (got, _) => return Err(format!("{sfen}: got {got:?}, expected {expected:?}")),
    }
    Ok(())
}

/// `(sfen, expected)` from a `<sfen> <len> …` problem line (mate sets).
fn labelled(line: &str) -> Option<(String, Expected)> {
    let t: Vec<&str> = line.split('#').next()?.split_whitespace().collect();
    let sfen = t.get(..4)?.join(" ");
    let e = match *t.get(4)? {
        "nomate" => Expected::NoMate,
        n => Expected::Mate(n.parse().ok()?),
    };
    Some((sfen, e))
}

/// The raw expectation of a tricky-rules line: its `kh=` value. Where KomoringHeights says
/// no mate but the source only claims "no mate within N" (`source-expects=nomateN`), only
/// that weaker claim is checked: KH answers no mate for some roots where the attacker starts
/// in check (`antma_t1_notfutile` is mate in 7 by cshogi's DfPn as well).
fn tricky_raw(line: &str) -> Option<(String, Expected)> {
    let sfen = line
        .split('#')
        .next()?
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ");
    let field = |name: &str| {
        line.split('|')
            .map(str::trim)
            .find_map(|f| f.strip_prefix(name))
    };
    let kh = field("kh=")?;
    let source = field("source-expects=").unwrap_or("?");
    let e = if kh.starts_with("nomate") {
        match source.strip_prefix("nomate").and_then(|n| n.parse().ok()) {
            Some(n) => Expected::NoMateWithin(n),
            None => Expected::NoMate,
        }
    } else {
        Expected::Mate(
            kh.split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()?,
        )
    };
    Some((sfen, e))
}

/// Solves and checks each line with one solver of `hash_mb` MiB.
fn run_lines(lines: Vec<(String, Expected)>, hash_mb: usize) {
    let total = lines.len();
    let mut solver = Solver::new(hash_mb);
    let failures: Vec<String> = lines
        .into_iter()
        .filter_map(|(s, e)| solve_and_check(&s, e, &mut solver).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {total} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(total > 0);
}

/// The limits of one solve (the minute starts now).
fn limits() -> Limits {
    Limits {
        node_limit: Some(20_000_000),
        ..Limits::default()
    }
    .with_time_limit(Duration::from_secs(60))
}

#[test]
fn mate_sample_raw_lengths() {
    let text = common::read_data("mate_sample_raw.txt");
    let lines: Vec<_> = common::content_lines(&text).filter_map(labelled).collect();
    assert!(lines.len() >= 100);
    run_lines(lines, 64);
}

#[test]
fn tricky_rules_raw() {
    let text = common::read_data("tricky_rules.txt");
    let lines: Vec<_> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(tricky_raw)
        .collect();
    assert!(lines.len() >= 80);
    run_lines(lines, 64);
}

#[test]
fn answers_do_not_depend_on_table_size() {
    let text = common::read_data("mate_sample_raw.txt");
    let lines: Vec<_> = common::content_lines(&text)
        .filter_map(labelled)
        .step_by(5)
        .collect();
    run_lines(lines.clone(), 1);
    run_lines(lines.clone(), 16);
    run_lines(lines.into_iter().step_by(2).collect(), 1024);
}

#[test]
#[ignore = "full 10,000-position run: cargo test --release --test solve_raw -- --ignored"]
fn full_mate_sets_raw() {
    for n in [3, 5, 7, 9, 11] {
        let path = common::shared_path(&format!("mate{n}_sample.txt"));
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<_> = common::content_lines(&text).filter_map(labelled).collect();
        run_lines(lines, 256);
    }
}

/// 将棋図巧 No. 25, raw 39 (KomoringHeights' `kh=` label in `tests/data/zuko.txt`): a
/// chase with drops on one square, where the chained drops of the bounded searches once
/// came back marked as excused interpositions in the raw game and "proved" a mate in 37.
#[test]
fn chained_drops_keep_the_raw_length() {
    let line = common::tagged_line("zuko.txt", "zuko025");
    let (sfen, expected) = labelled(&line).expect("a labelled line");
    assert_eq!(expected, Expected::Mate(39));
    run_lines(vec![(sfen, expected)], 64);
}

/// A search stopped while shortening a proven mate still offers the mate it found (for USI
/// `stop`), and that line is a real mate, no shorter than the known shortest (21 plies,
/// 将棋図巧 No. 5 in `tests/data/zuko.txt`).
#[test]
fn stopped_search_keeps_the_mate_found_so_far() {
    let text = common::read_data("zuko.txt");
    let line = text
        .lines()
        .find(|l| l.contains("zuko005"))
        .expect("zuko005 in zuko.txt");
    let (sfen, expected) = labelled(line).unwrap();
    let Expected::Mate(shortest) = expected else {
        panic!("zuko005 is a mate")
    };
    let pos = Position::from_sfen(&sfen).unwrap();
    // Stop halfway between the first proof and the end of the full solve.
    let full = Solver::new(64).solve(&pos, &Limits::default(), Rules::Raw);
    let first_proof = full.proofs.first().expect("zuko005 is proven").1;
    assert!(
        full.nodes > first_proof + 2,
        "the first mate found was already the shortest"
    );
    let limit = (first_proof + full.nodes) / 2;
    let opts = Limits {
        node_limit: Some(limit),
        ..Limits::default()
    };
    let report = Solver::new(64).solve(&pos, &opts, Rules::Raw);
    assert!(
        matches!(report.outcome, Outcome::Unknown(_)),
        "{:?}",
        report.outcome
    );
    let moves = report
        .mate_so_far
        .expect("a mate was proven before the limit");
    assert_mating_line(&pos, &moves, &sfen);
    assert!(
        moves.len() >= shortest && moves.len() % 2 == 1,
        "{} plies",
        moves.len()
    );

    // The CLI says so too: a mate (exit 0), not proven shortest, with the length proven
    // so far and its line.
    let limit = limit.to_string();
    let o = common::tsume(&[
        "solve", &sfen, "--rules", "raw", "--hash", "64", "--nodes", &limit, "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["status"], "mate", "{v}");
    assert_eq!(v["shortest"], "unproven", "{v}");
    assert_eq!(v["stopped"], "node_limit", "{v}");
    let length = v["length"].as_u64().expect("length") as usize;
    assert!(length >= shortest && length % 2 == 1, "{v}");
    assert_eq!(
        report.improvements.last().map(|i| usize::from(i.length)),
        Some(length),
        "{v}"
    );
}

/// The defender's node (issue 20): after the first move of each labelled problem's
/// best-play line, [`Solver::solve_defence`] answers the defender's longest
/// defence and best play, exactly one ply shorter than the label (raw lengths computed by
/// KomoringHeights), and the line replays: a legal evasion first, then a mating line.
#[test]
fn the_defender_to_move_is_mated_one_ply_sooner() {
    let text = common::read_data("mate_sample_raw.txt");
    let mut solver = Solver::new(16);
    let mut checked = 0;
    for line in common::content_lines(&text).step_by(10) {
        let (sfen, expected) = labelled(line).unwrap();
        let Expected::Mate(length) = expected else {
            continue;
        };
        let pos = Position::from_sfen(&sfen).unwrap();
        let Outcome::Mate { moves } = solver.solve(&pos, &limits(), Rules::Raw).outcome else {
            panic!("{sfen}: no mate");
        };
        let mut after = pos.clone();
        after.do_move(moves[0]);
        let report = solver.solve_defence(&after, &limits(), Rules::Raw);
        let Outcome::Mate { moves: defence } = report.outcome else {
            panic!("{sfen} {}: {:?}", moves[0], report.outcome);
        };
        assert_eq!(
            defence.len(),
            length - 1,
            "{sfen} {}: {defence:?}",
            moves[0]
        );
        assert!(after.legal_moves().contains(defence[0]), "{sfen}");
        let mut next = after.clone();
        next.do_move(defence[0]);
        assert_mating_line(&next, &defence[1..], &sfen);
        checked += 1;
    }
    assert_eq!(checked, 20);
}

/// 将棋図巧 No. 12 (27 plies) needs its rook's non-promotion at plies 3 and 5 (`2c1c`,
/// `1c2c`: KomoringHeights' line in `tests/data/zuko_solutions.txt`). In bounded searches a
/// non-promotion waits behind its promotion until every other check is refuted: from the
/// position before ply 3, "mate within 25" must still be proven, through `2c1c`.
#[test]
fn non_promotions_chained_behind_promotions_still_mate() {
    use tsume_solver::dfpn::search::Search;
    use tsume_solver::dfpn::table::{Kind, Table};
    let text = common::read_data("zuko_solutions.txt");
    let line = text
        .lines()
        .find(|l| l.contains("# zuko012 "))
        .expect("zuko012 in zuko_solutions.txt");
    let (head, moves) = line.split_once(" moves ").expect("a line with moves");
    let sfen: Vec<&str> = head.split_whitespace().take(4).collect();
    let moves: Vec<&str> = moves.split_whitespace().collect();
    assert_eq!((moves[2], moves[4]), ("2c1c", "1c2c"));
    let command = format!("sfen {} moves {}", sfen.join(" "), moves[..2].join(" "));
    let mut pos = tsume_solver::usi::position(&command, false).unwrap();
    pos.clear_history();
    let table = Table::new(16);
    let mut search = Search::new(&table, pos.clone(), Limits::default());
    let r = search.solve_current(tsume_solver::Plies::new(25));
    assert_eq!(r.kind(), Kind::Proven);
    assert_eq!(r.best, Some(pos.parse_move("2c1c").unwrap()));
}
