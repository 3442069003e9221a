//! Parallel search (`threads` above one): the same answers as one thread.
//!
//! The expected lengths come from outside the code: KomoringHeights' raw lengths for the
//! YaneuraOu mate samples, the rules doc's worked checks, the published lengths of 将棋図巧
//! problems. The searches here set `warm_up_nodes: Some(0)`, so that every search, however
//! small, runs with all its threads from the first node (by default a search spends
//! [`dfpn::WARM_UP_NODES`] alone first, which most of these would never leave).

mod common;

use tsume_solver::dfpn::{self, Outcome};
use tsume_solver::{Limits, Position, Rules, Solver};

/// `(sfen, length)` of the `<sfen> <length>` lines of a mate set.
fn mate_set(text: &str) -> Vec<(String, usize)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t[..4].join(" "), t[4].parse().expect("a length"))
        })
        .collect()
}

fn parallel(threads: usize) -> Limits {
    Limits {
        threads,
        warm_up_nodes: Some(0),
        ..Limits::default()
    }
}

/// The raw length `threads` threads find for each problem in one `hash_mb` table,
/// reused (cleared) from problem to problem as `tsume verify` does; the line is checked.
fn raw_lengths(problems: &[(String, usize)], threads: usize, hash_mb: usize) -> Vec<String> {
    let options = parallel(threads);
    let mut solver = Solver::new(hash_mb);
    let mut wrong = Vec::new();
    for (sfen, expected) in problems {
        let pos = Position::from_sfen(sfen).unwrap();
        let report = solver.solve(&pos, &options, Rules::Raw);
        match &report.outcome {
            Outcome::Mate { moves } => {
                let end = common::replay_checking_line(&pos, moves, sfen);
                assert!(end.is_checkmate(), "{sfen}: the line does not end in mate");
                if moves.len() != *expected {
                    wrong.push(format!(
                        "{sfen}: mate in {} (expected {expected})",
                        moves.len()
                    ));
                }
            }
            other => wrong.push(format!("{sfen}: {other:?} (expected mate in {expected})")),
        }
    }
    wrong
}

/// The stress test of the issue: 1,000 solves of small problems (YaneuraOu's mate-in-3…11
/// samples and 200 mate-in-5 positions, two and a half times over) at 2 and at 8 threads
/// in a 1 MiB table, where entries are replaced all the time, give the lengths one thread
/// gives (the published raw lengths). About ten seconds.
#[test]
fn a_thousand_small_problems_in_a_tiny_table_at_2_and_8_threads() {
    let mut problems = mate_set(include_str!("data/mate_sample_raw.txt"));
    problems.extend(mate_set(include_str!("data/mate5_200.sfen")));
    assert_eq!(problems.len(), 400);
    let thousand: Vec<_> = problems.iter().cycle().take(1000).cloned().collect();
    for threads in [2, 8] {
        let wrong = raw_lengths(&thousand, threads, 1);
        assert!(wrong.is_empty(), "{threads} threads:\n{}", wrong.join("\n"));
    }
}

/// Tsume-rules lengths (the evaluator's searches in parallel too): the rules doc's worked
/// checks with a tsume length, and 将棋図巧 problems with their published lengths.
#[test]
fn tsume_lengths_at_1_2_and_4_threads() {
    let mut problems: Vec<(String, usize)> = include_str!("data/rules_doc_examples.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut parts = l.split('|');
            let sfen = parts.next()?.trim().to_string();
            let expect = parts.next()?.trim();
            let n = expect.strip_prefix("tsume ")?.split(';').next()?.trim();
            Some((sfen, n.parse().ok()?))
        })
        .collect();
    assert!(problems.len() >= 8, "{problems:?}");
    for line in include_str!("data/zuko.txt").lines() {
        let Some(published) = line.split("published=").nth(1) else {
            continue;
        };
        let n: usize = published
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        if n <= 23 {
            let sfen: Vec<&str> = line.split_whitespace().take(4).collect();
            problems.push((sfen.join(" "), n));
        }
    }
    assert!(problems.len() >= 10, "{problems:?}");
    for threads in [1, 2, 4] {
        for (sfen, expected) in &problems {
            let pos = Position::from_sfen(sfen).unwrap();
            let report = Solver::new(16).solve(&pos, &parallel(threads), Rules::Tsume);
            let Outcome::Mate { moves } = &report.outcome else {
                panic!("{threads} threads, {sfen}: {:?}", report.outcome)
            };
            assert_eq!(moves.len(), *expected, "{threads} threads, {sfen}");
        }
    }
}

/// With the default warm-up a search big enough to bring its helpers in (将棋図巧 No. 2,
/// raw 21, some 75 k nodes alone) gives the same length, and the nodes of every thread are
/// counted.
#[test]
fn helpers_join_after_the_warm_up_and_their_nodes_count() {
    let pos =
        Position::from_sfen("9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1").unwrap();
    let alone = Solver::new(256).solve(&pos, &Limits::default(), Rules::Raw);
    assert!(alone.nodes > dfpn::WARM_UP_NODES, "{}", alone.nodes);
    let options = Limits {
        threads: 2,
        ..Limits::default()
    };
    let together = Solver::new(256).solve(&pos, &options, Rules::Raw);
    match (&alone.outcome, &together.outcome) {
        (Outcome::Mate { moves: a }, Outcome::Mate { moves: b }) => {
            assert_eq!((a.len(), b.len()), (21, 21));
        }
        other => panic!("{other:?}"),
    }
    assert!(together.nodes > dfpn::WARM_UP_NODES, "{}", together.nodes);
}

/// A node limit holds for each thread: four threads stop within four times the limit.
#[test]
fn a_node_limit_holds_for_each_thread() {
    let pos =
        Position::from_sfen("9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1").unwrap();
    let options = Limits {
        threads: 4,
        node_limit: Some(30_000),
        warm_up_nodes: Some(0),
        ..Limits::default()
    };
    let report = Solver::new(256).solve(&pos, &options, Rules::Raw);
    assert!(
        report.nodes > 30_000 && report.nodes <= 4 * (30_000 + 256),
        "{} nodes for a limit of 30,000 per thread",
        report.nodes
    );
    assert!(
        !matches!(report.outcome, Outcome::NoMate),
        "{:?}",
        report.outcome
    );
}

/// `tsume verify` with 4 threads inside each problem (every sub-search in parallel) gives the
/// verdicts the rules doc expects (`tests/data/verify_cases.txt`), flaws included.
#[test]
fn verify_inside_a_problem_at_4_threads() {
    let mut options = tsume_solver::tsume::verify::VerifyOptions::default();
    options.limits.threads = 4;
    options.limits.warm_up_nodes = Some(0);
    assert_eq!(common::check_verify_cases(&options, 16), 13);
}

/// The verdict of every problem of the verify test sets (the rules doc's cases, the mined
/// 余詰 and 成生 positions, with and without their claimed solutions' promotion twins
/// tolerated) as text: flaws, length, line, final alternatives and tolerated twins.
fn verdicts(threads: usize) -> Vec<String> {
    use tsume_solver::tsume::verify::VerifyOptions;
    let mut out = Vec::new();
    let mut solver = tsume_solver::Solver::new(16);
    for (file, allow) in [
        ("verify_cases.txt", false),
        ("verify_yozume.txt", false),
        ("verify_promotion_choice.txt", false),
        ("verify_promotion_choice.txt", true),
    ] {
        let mut options = VerifyOptions {
            allow_promotion_choice: allow,
            ..VerifyOptions::default()
        };
        options.limits.threads = threads;
        let text = common::read_data(file);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let problem = line.split(['|', '#']).next().unwrap().trim();
            let (sfen, claimed) = match problem.split_once(" moves ") {
                Some((s, m)) => (s, Some(m.split_whitespace().map(String::from).collect())),
                None => (problem, None::<Vec<String>>),
            };
            let setup: tsume_solver::Setup = sfen.parse().expect("valid SFEN");
            let v = solver.verify(&setup, claimed.as_deref(), &options);
            let show = |moves: &[tsume_solver::moves::Move]| {
                moves.iter().map(|m| m.to_string()).collect::<Vec<_>>()
            };
            out.push(format!(
                "{problem}: {:?} length {:?} final {:?} twins {:?}",
                v.flaws.iter().map(|f| f.to_string()).collect::<Vec<_>>(),
                v.length,
                show(&v.final_alternatives),
                v.promotion_choices
                    .iter()
                    .map(|(p, m)| format!("{p} {m}"))
                    .collect::<Vec<_>>(),
            ));
        }
    }
    out
}

/// `tsume verify` with threads inside a problem (the 余詰 checks and the 不要駒 questions
/// side by side, with the default warm-up) gives verdicts identical to one thread's.
#[test]
fn verify_verdicts_at_2_and_3_threads_are_those_of_1() {
    let one = verdicts(1);
    assert_eq!(one.len(), 59);
    for threads in [2, 3] {
        let many = verdicts(threads);
        for (a, b) in one.iter().zip(&many) {
            assert_eq!(a, b, "{threads} threads");
        }
    }
}
