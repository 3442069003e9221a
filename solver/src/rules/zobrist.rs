//! Zobrist keys, generated at compile time.
//!
//! The position keeps a *board key* (pieces on squares and the side to move) apart from the
//! hands, because the solver's table is keyed by (board key, hand) and compares hands by
//! superiority. [`full_key`] mixes both hands in for repetition detection.

use crate::hand::Hand;
use crate::piece::Piece;
use crate::square::Square;

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn build_piece_keys() -> [[u64; 81]; 28] {
    let mut keys = [[0u64; 81]; 28];
    let mut state = 0x7473_756d_6500_0001u64; // "tsume"
    let mut p = 0;
    while p < 28 {
        let mut sq = 0;
        while sq < 81 {
            let (s, k) = splitmix64(state);
            state = s;
            // Bit 0 is reserved for the side to move.
            keys[p][sq] = k & !1;
            sq += 1;
        }
        p += 1;
    }
    keys
}

static PIECE_KEYS: [[u64; 81]; 28] = build_piece_keys();

/// XORed in when White is to move. Bit 0 only, so the side is readable from any board key.
pub const SIDE_KEY: u64 = 1;

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.index()][sq.index()]
}

/// Mixes two hands into a 64-bit value (a bijective mixer: distinct hands never collide).
#[inline]
pub fn hands_key(black: Hand, white: Hand) -> u64 {
    let mut z = (black.raw() as u64) | (white.raw() as u64) << 32;
    z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    z = (z ^ (z >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    (z ^ (z >> 33)) & !1
}

/// A key for the whole position (board, side to move, both hands).
#[inline]
pub fn full_key(board_key: u64, black: Hand, white: Hand) -> u64 {
    board_key ^ hands_key(black, white)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 28 * 81);
        assert!(all.iter().all(|k| k & 1 == 0));
    }
}
