//! Node-count anchors: the exact number of nodes the solver spends on fixed problems.
//!
//! These numbers come from the solver itself; they are not correctness checks (the lengths
//! are, and come from outside: the rules doc and 将棋図巧). They exist so that any change
//! in search behaviour shows up: when a change is meant to alter the search, update the
//! numbers in the same commit and say why.

use tsume_solver::dfpn::{self, Outcome, SolveOptions, SolveReport};
use tsume_solver::tsume;
use tsume_solver::Position;

/// (SFEN, raw mate length from outside the code, nodes with a 64 MiB table).
const ANCHORS: &[(&str, usize, u64)] = &[
    // rules doc §4: promotion, drop finish
    ("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1", 3, 34),
    // rules doc §4: uchifuzume shapes the solution
    ("5B1n1/8k/6Rpp/9/9/9/9/9/9 b rb4g4s3n4l16p 1", 5, 179),
    // rules doc §4: 無駄合 example, raw length 9
    (
        "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
        9,
        3562,
    ),
    // 将棋図巧 No. 2 (kh=21)
    (
        "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1",
        21,
        74_907,
    ),
];

/// Solves each anchor with `solve` (a 64 MiB table), checks its length and returns the
/// anchors whose node count changed.
fn changed_node_counts(
    anchors: &[(&str, usize, u64)],
    solve: impl Fn(&Position, &SolveOptions) -> SolveReport,
) -> Vec<String> {
    let options = SolveOptions {
        hash_mb: 64,
        ..SolveOptions::default()
    };
    let mut changed = Vec::new();
    for &(sfen, length, nodes) in anchors {
        let pos = Position::from_sfen(sfen).unwrap();
        let report = solve(&pos, &options);
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
    let changed = changed_node_counts(ANCHORS, dfpn::solve);
    assert!(
        changed.is_empty(),
        "search behaviour changed:\n{}",
        changed.join("\n")
    );
}

/// (SFEN, tsume length from outside the code, nodes of `tsume::solve` with a 64 MiB table):
/// the raw first mate, the lower-bound game and the evaluator's expansions together.
const TSUME_ANCHORS: &[(&str, usize, u64)] = &[
    // rules doc §4: 無駄合 example (raw 9)
    (
        "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
        3,
        2823,
    ),
    // rules doc §4: 無駄合; a solver counting it says 11
    ("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1", 3, 3354),
    // 将棋図巧 No. 92 (published 13)
    (
        "6kp1/8n/5R1L1/4+b2sB/6N2/9/6L2/9/9 b r4g3s2n2l17p 1",
        13,
        88_814,
    ),
];

#[test]
fn node_counts_of_fixed_problems_under_tsume_rules() {
    let changed = changed_node_counts(TSUME_ANCHORS, |pos, options| {
        tsume::solve(pos, options).report
    });
    assert!(
        changed.is_empty(),
        "search behaviour changed:\n{}",
        changed.join("\n")
    );
}

/// The search recurses once per ply; `dfpn::solve` runs it on a thread with a big stack of
/// its own, so callers on small-stack threads are safe.
#[test]
fn solve_works_from_a_small_stack_thread() {
    let (sfen, length, _) = ANCHORS[3];
    let report = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || {
            let pos = Position::from_sfen(sfen).unwrap();
            dfpn::solve(
                &pos,
                &SolveOptions {
                    hash_mb: 16,
                    ..SolveOptions::default()
                },
            )
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert!(matches!(&report.outcome, Outcome::Mate { moves } if moves.len() == length));
}
