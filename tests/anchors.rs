//! Node-count anchors: the exact number of nodes the solver spends on fixed problems.
//!
//! These numbers come from the solver itself; they are not correctness checks (the lengths
//! are, and come from outside: the rules doc and 将棋図巧). They exist so that any change
//! in search behaviour shows up: when a change is meant to alter the search, update the
//! numbers in the same commit and say why.

use tsume_solver::dfpn::Outcome;
use tsume_solver::{Limits, Position, Rules, Solver};

/// (SFEN, raw mate length from outside the code, nodes with a 64 MiB table).
const ANCHORS: &[(&str, usize, u64)] = &[
    // rules doc §4: promotion, drop finish
    ("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1", 3, 34),
    // rules doc §4: uchifuzume shapes the solution
    ("5B1n1/8k/6Rpp/9/9/9/9/9/9 b rb4g4s3n4l16p 1", 5, 185),
    // rules doc §4: 無駄合 example, raw length 9
    (
        "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
        9,
        2118,
    ),
    // 将棋図巧 No. 2 (kh=21)
    (
        "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1",
        21,
        52_651,
    ),
];

/// Solves each anchor under `rules` (a 64 MiB solver, reused from one anchor to the next),
/// checks its length and returns the anchors whose node count changed.
fn changed_node_counts(anchors: &[(&str, usize, u64)], rules: Rules) -> Vec<String> {
    let mut solver = Solver::new(64);
    let mut changed = Vec::new();
    for &(sfen, length, nodes) in anchors {
        let pos = Position::from_sfen(sfen).unwrap();
        let report = solver.solve(&pos, &Limits::default(), rules);
        let Outcome::Mate { moves } = &report.outcome else {
            panic!("{sfen}: {:?}", report.outcome)
        };
        assert_eq!(moves.len(), length, "{sfen}");
        if report.nodes != nodes {
            changed.push(format!("{sfen}: {} nodes (anchor {nodes})", report.nodes));
        }
    }
    changed
}

#[test]
fn node_counts_of_fixed_problems() {
    let changed = changed_node_counts(ANCHORS, Rules::Raw);
    assert!(
        changed.is_empty(),
        "search behaviour changed:\n{}",
        changed.join("\n")
    );
}

/// (SFEN, tsume length from outside the code, nodes of a tsume-rules solve with a 64 MiB
/// solver):
/// the raw first mate, the lower-bound game and the evaluator's expansions together.
const TSUME_ANCHORS: &[(&str, usize, u64)] = &[
    // rules doc §4: 無駄合 example (raw 9)
    (
        "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
        3,
        2600,
    ),
    // rules doc §4: 無駄合; a solver counting it says 11
    ("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1", 3, 2679),
    // 将棋図巧 No. 92 (published 13)
    (
        "6kp1/8n/5R1L1/4+b2sB/6N2/9/6L2/9/9 b r4g3s2n2l17p 1",
        13,
        60_027,
    ),
];

#[test]
fn node_counts_of_fixed_problems_under_tsume_rules() {
    let changed = changed_node_counts(TSUME_ANCHORS, Rules::Tsume);
    assert!(
        changed.is_empty(),
        "search behaviour changed:\n{}",
        changed.join("\n")
    );
}

/// The search recurses once per ply; the solver runs it on a thread with a big stack of
/// its own, so callers on small-stack threads are safe.
#[test]
fn solve_works_from_a_small_stack_thread() {
    let (sfen, length, _) = ANCHORS[3];
    let report = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || {
            let pos = Position::from_sfen(sfen).unwrap();
            Solver::new(16).solve(&pos, &Limits::default(), Rules::Raw)
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert!(matches!(&report.outcome, Outcome::Mate { moves } if moves.len() == length));
}
