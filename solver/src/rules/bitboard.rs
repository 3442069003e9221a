//! Sets of squares.
//!
//! A `Bitboard` is a `u128` whose bit `i` is the square with index `i` (see [`crate::square`]
//! for the file-major layout); bits 81–127 are always zero. Within one file the nine ranks are
//! consecutive bits, top (rank a) lowest.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::color::Color;
use crate::square::Square;

/// A set of squares: bit `i` of the `u128` is the square of index `i`. The raw bits are
/// open; whoever builds a bitboard from them must keep bits 81–127 zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const ALL_BITS: u128 = (1u128 << 81) - 1;

/// `SQUARE_BITS[i]`: the bit of square `i` (a load is cheaper than a variable 128-bit shift).
const SQUARE_BITS: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    /// The set of `sq` alone.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BITS[sq.index()])
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Whether the set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has a square.
    #[inline]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// The number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square.
    #[inline]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// The only square of a one-square set.
    #[inline]
    pub const fn single(self) -> Square {
        debug_assert!(self.0.count_ones() == 1);
        Square::from_index(self.0.trailing_zeros() as usize)
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | SQUARE_BITS[sq.index()])
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !SQUARE_BITS[sq.index()])
    }

    /// The intersection (a `const` spelling of `&`).
    #[inline]
    pub const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// The union (a `const` spelling of `|`).
    #[inline]
    pub const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// The squares of `self` not in `other`.
    #[inline]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// The squares not in `self` (a `const` spelling of `!`).
    #[inline]
    pub const fn complement(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }

    /// All squares of file index `file` (0 = file 1).
    #[inline]
    pub const fn file_mask(file: u8) -> Bitboard {
        Bitboard(0x1ff << (file as u32 * 9))
    }

    /// All squares of rank index `rank` (0 = rank a).
    pub const fn rank_mask(rank: u8) -> Bitboard {
        let mut b = 0u128;
        let mut f = 0;
        while f < 9 {
            b |= 1 << (f * 9 + rank as u32);
            f += 1;
        }
        Bitboard(b)
    }

    /// Ranks whose relative rank (0 = far rank for `color`) is below `n`.
    pub const fn far_ranks(color: Color, n: u8) -> Bitboard {
        let mut b = 0u128;
        let mut r = 0;
        while r < n {
            let rank = match color {
                Color::Black => r,
                Color::White => 8 - r,
            };
            b |= Bitboard::rank_mask(rank).0;
            r += 1;
        }
        Bitboard(b)
    }

    /// The set of files (as a 9-bit mask per file, spread back over the board) that contain
    /// at least one square of `self`: every square of each such file.
    ///
    /// Branchless: adding `0xff` to the low eight bits of each 9-bit file sets the file's top
    /// bit when any of them is set (at most `0x1fe`, so no carry leaves the file); or-ing the
    /// top bits gives one flag per non-empty file, which `f | (f - (f >> 8))` spreads over the
    /// file (each file's `2^8 - 2^0` borrows only within the file).
    #[inline]
    pub const fn fill_files(self) -> Bitboard {
        const LOW8: u128 = Bitboard::repeat_per_file(0xff);
        const TOP: u128 = Bitboard::repeat_per_file(0x100);
        let b = self.0;
        let f = (((b & LOW8) + LOW8) | b) & TOP;
        Bitboard(f | (f - (f >> 8)))
    }

    /// `pattern` (9 bits) repeated in each of the nine files.
    const fn repeat_per_file(pattern: u128) -> u128 {
        let mut b = 0u128;
        let mut f = 0;
        while f < 9 {
            b |= pattern << (f * 9);
            f += 1;
        }
        b
    }

    /// The squares of the set, lowest index first.
    pub fn squares(self) -> SquareIter {
        SquareIter {
            low: self.0 as u64,
            high: (self.0 >> 64) as u64,
        }
    }
}

/// Iterates the squares of a bitboard, lowest first: the squares 0–63 from one 64-bit
/// half, then 64–80 from the other (64-bit steps are cheaper than 128-bit ones).
pub struct SquareIter {
    low: u64,
    high: u64,
}

impl Iterator for SquareIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.low != 0 {
            let i = self.low.trailing_zeros();
            self.low &= self.low - 1;
            Some(Square::from_index(i as usize))
        } else if self.high != 0 {
            let i = self.high.trailing_zeros();
            self.high &= self.high - 1;
            Some(Square::from_index(64 + i as usize))
        } else {
            None
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.low.count_ones() + self.high.count_ones()) as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = SquareIter;
    fn into_iter(self) -> SquareIter {
        self.squares()
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl fmt::Debug for Bitboard {
    /// A 9×9 picture as sente sees the board: file 9 on the left, rank a on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in 0..9 {
            for file in (0..9).rev() {
                let c = if self.contains(Square::new(file, rank)) {
                    '*'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(Bitboard::file_mask(0).count(), 9);
        assert_eq!(Bitboard::rank_mask(4).count(), 9);
        assert_eq!(Bitboard::far_ranks(Color::Black, 3).count(), 27);
        assert!(Bitboard::far_ranks(Color::White, 1).contains("5i".parse().unwrap()));
        let b = Bitboard::from_square("3c".parse().unwrap()).with("3g".parse().unwrap());
        assert_eq!(b.fill_files(), Bitboard::file_mask(2));
        assert_eq!(b.squares().count(), 2);
        assert!(b.has_more_than_one());
        assert_eq!((!Bitboard::EMPTY).count(), 81);
    }

    #[test]
    fn fill_files_matches_per_file_test() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..5000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut raw = (seed as u128) << 64 | seed.rotate_left(17) as u128;
            // Sparse sets too: keep a few bits only.
            for _ in 0..(i % 4) {
                raw &= raw.rotate_left(37);
            }
            let b = Bitboard(raw & Bitboard::ALL.0);
            let mut expect = Bitboard::EMPTY;
            for f in 0..9 {
                if (b & Bitboard::file_mask(f)).is_nonempty() {
                    expect |= Bitboard::file_mask(f);
                }
            }
            assert_eq!(b.fill_files(), expect);
        }
        assert_eq!(Bitboard::EMPTY.fill_files(), Bitboard::EMPTY);
        assert_eq!(Bitboard::ALL.fill_files(), Bitboard::ALL);
    }
}
