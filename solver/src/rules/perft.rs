//! Perft: counting the leaves of the move tree, the standard check of a move generator.

use crate::movegen::{self, MoveCounter};
use crate::moves::MoveList;
use crate::position::Position;

/// Which moves the tree contains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftMode {
    /// Every legal move at every ply.
    Legal,
    /// The mate tree: the root side plays only checking moves (plies 1, 3, 5…), the other
    /// side every legal reply (plies 2, 4…).
    Mate,
}

/// Number of leaves at `depth` plies below `pos` (bulk-counted at the last ply).
pub fn perft(pos: &mut Position, depth: u32, mode: PerftMode) -> u64 {
    perft_inner(pos, depth, mode, true)
}

fn perft_inner(pos: &mut Position, depth: u32, mode: PerftMode, attacker: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let checks_only = mode == PerftMode::Mate && attacker;
    if depth == 1 {
        let mut count = MoveCounter::default();
        if checks_only {
            movegen::generate_checks(pos, &mut count);
        } else {
            movegen::generate_legal(pos, &mut count);
        }
        return count.0;
    }
    let mut list = MoveList::new();
    if checks_only {
        movegen::generate_checks(pos, &mut list);
    } else {
        movegen::generate_legal(pos, &mut list);
    }
    let mut total = 0;
    for &m in list.iter() {
        pos.do_move(m);
        total += perft_inner(pos, depth - 1, mode, !attacker);
        pos.undo_move();
    }
    total
}

/// Perft with the count below each root move, as engines print it for debugging.
pub fn divide(pos: &mut Position, depth: u32, mode: PerftMode) -> Vec<(crate::moves::Move, u64)> {
    assert!(depth >= 1);
    let mut list = MoveList::new();
    if mode == PerftMode::Mate {
        movegen::generate_checks(pos, &mut list);
    } else {
        movegen::generate_legal(pos, &mut list);
    }
    list.iter()
        .map(|&m| {
            pos.do_move(m);
            let n = perft_inner(pos, depth - 1, mode, false);
            pos.undo_move();
            (m, n)
        })
        .collect()
}
