//! Squares of the 9×9 board.
//!
//! Layout (file-major, as YaneuraOu): `index = (file - 1) * 9 + (rank - 1)`, where files run
//! 1–9 from sente's right to left and ranks 1–9 (`a`–`i`) from top to bottom. So `1a` is 0,
//! `1i` is 8, `2a` is 9 and `9i` is 80. Moving "up" the board (towards rank a, sente's
//! forward direction) is −1; moving towards file 9 is +9.

use std::fmt;
use std::str::FromStr;

use crate::color::Color;

/// One of the 81 squares, numbered file by file (index = file × 9 + rank, from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The number of squares.
    pub const NUM: usize = 81;

    /// Square from 0-based file and rank indices (file 0 = file 1, rank 0 = rank a).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 9 && rank < 9);
        Square(file * 9 + rank)
    }

    /// The square of an index below 81.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < 81);
        Square(index as u8)
    }

    /// The square of an index, `None` at 81 or above.
    #[inline]
    pub const fn try_from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square's index (file × 9 + rank, from 0).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file index (0 = file 1).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / 9
    }

    /// 0-based rank index (0 = rank a, the top).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 9
    }

    /// Rank counted from `color`'s side: 0 is the far rank (the last rank for its pawns).
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 8 - self.rank(),
        }
    }

    /// Whether the square lies in `color`'s promotion zone (the far three ranks).
    #[inline]
    pub const fn in_promotion_zone(self, color: Color) -> bool {
        self.relative_rank(color) < 3
    }

    /// The square seen from the other side of the board (180° rotation).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// Left–right mirror (file f ↔ file 10 − f).
    #[inline]
    pub const fn mirror(self) -> Square {
        Square::new(8 - self.file(), self.rank())
    }

    /// Offset by (dfile, drank), if the result is on the board.
    #[inline]
    pub const fn offset(self, dfile: i8, drank: i8) -> Option<Square> {
        let f = self.file() as i8 + dfile;
        let r = self.rank() as i8 + drank;
        if f >= 0 && f < 9 && r >= 0 && r < 9 {
            Some(Square::new(f as u8, r as u8))
        } else {
            None
        }
    }

    /// King-step (Chebyshev) distance: along a rank, file or diagonal, the number of steps.
    #[inline]
    pub const fn distance(self, other: Square) -> u8 {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// Every square, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// File digit 1–9 as a char.
    pub const fn file_char(self) -> char {
        (b'1' + self.file()) as char
    }

    /// Rank letter a–i as a char.
    pub const fn rank_char(self) -> char {
        (b'a' + self.rank()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

/// A square written as in USI (`7g`) could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a square such as 7g (file 1-9, rank a-i)")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f @ b'1'..=b'9', r @ b'a'..=b'i'] => Ok(Square::new(f - b'1', r - b'a')),
            _ => Err(ParseSquareError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_file_major() {
        assert_eq!("1a".parse::<Square>().unwrap().index(), 0);
        assert_eq!("1i".parse::<Square>().unwrap().index(), 8);
        assert_eq!("2a".parse::<Square>().unwrap().index(), 9);
        assert_eq!("9i".parse::<Square>().unwrap().index(), 80);
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
            assert_eq!(sq.flip().flip(), sq);
            assert_eq!(sq.mirror().mirror(), sq);
        }
        assert!("0a".parse::<Square>().is_err());
        assert!("1j".parse::<Square>().is_err());
        assert!("1".parse::<Square>().is_err());
    }

    #[test]
    fn zones() {
        let sq: Square = "5c".parse().unwrap();
        assert!(sq.in_promotion_zone(Color::Black));
        assert!(!sq.in_promotion_zone(Color::White));
        let sq: Square = "5g".parse().unwrap();
        assert!(sq.in_promotion_zone(Color::White));
        assert_eq!(sq.relative_rank(Color::White), 2);
    }
}
