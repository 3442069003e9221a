//! The two players.

use std::ops::Not;

/// A player. Sente (Black, `b`) moves first and sits at the bottom of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Sente (先手), `b` in SFEN.
    Black = 0,
    /// Gote (後手), `w` in SFEN.
    White = 1,
}

impl Color {
    /// Both players, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// 0 for Black, 1 for White (an index into per-player arrays).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN side-to-move letter.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}
