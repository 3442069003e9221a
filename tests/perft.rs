//! Perft counts from `tests/data/perft.txt` (an outside source) and the mate-tree perft.

mod common;

use tsume_solver::perft::{perft, PerftMode};
use tsume_solver::{Position, Setup, Validation};

/// Rows up to this many leaves run in `cargo test`; deeper ones in the ignored test.
const CI_LIMIT: u64 = 100_000_000;

fn rows() -> Vec<(String, u32, u64)> {
    common::content_lines(&common::read_data("perft.txt"))
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(t.len(), 6, "bad perft row {l}");
            (
                t[..4].join(" "),
                t[4].parse().unwrap(),
                t[5].parse().unwrap(),
            )
        })
        .collect()
}

fn check_rows(filter: impl Fn(u64) -> bool) -> usize {
    let mut checked = 0;
    for (sfen, depth, expected) in rows().into_iter().filter(|r| filter(r.2)) {
        // Some published perft positions have three bishops or rooks.
        let setup: Setup = sfen.parse().unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let mut pos = Position::from_setup_with(&setup, Validation::AllowExtraPieces)
            .unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(
            perft(&mut pos, depth, PerftMode::Legal),
            expected,
            "{sfen} depth {depth}"
        );
        checked += 1;
    }
    checked
}

#[test]
fn perft_rows_up_to_1e8() {
    let n = check_rows(|nodes| nodes <= CI_LIMIT);
    assert!(n > 350, "only {n} rows checked");
}

#[test]
#[ignore = "billions of nodes: run with --ignored in release mode"]
fn perft_deep_rows() {
    check_rows(|nodes| nodes > CI_LIMIT);
}

#[test]
fn mate_tree_perft_over_mate5_200() {
    let text = common::read_data("mate5_200.sfen");
    let mut total = 0;
    let mut count = 0;
    for line in common::content_lines(&text) {
        let sfen: Vec<&str> = line.split_whitespace().take(4).collect();
        let mut pos = Position::from_sfen(&sfen.join(" ")).unwrap();
        total += perft(&mut pos, 5, PerftMode::Mate);
        count += 1;
    }
    assert_eq!(count, 200);
    assert_eq!(total, 3_502_982);
}

/// More legal moves than the 593 record (which has both kings): the attacker has no king.
/// The count comes from the independent pure-Python generator in
/// `scripts/oracle/make_movegen_oracle.py` (cshogi itself crashes on this position).
#[test]
fn kingless_side_with_599_moves() {
    let mut pos =
        Position::from_sfen("R8/2K1S1SS1/4B4/9/9/9/9/9/3L1L2L b RBGSNLP2g3n16p 1").unwrap();
    assert_eq!(perft(&mut pos, 1, PerftMode::Legal), 599);
}
