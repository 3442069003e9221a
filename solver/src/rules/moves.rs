//! Moves and move lists.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;

use crate::piece::PieceKind;
use crate::square::Square;

/// A move packed into 16 bits: destination (bits 0–6), origin square or dropped kind (bits
/// 7–13), promotion flag (bit 14), drop flag (bit 15). It does not record the moving or
/// captured piece: the position knows them.
///
/// Written and read in USI notation; the Japanese notation of a move needs its position
/// (see [`crate::notation`]).
///
/// ```
/// use tsume_solver::{Move, PieceKind, Square};
///
/// let m: Move = "8h2b+".parse().unwrap();
/// assert_eq!(m.from(), Some("8h".parse::<Square>().unwrap()));
/// assert!(m.is_promotion());
/// assert_eq!(m.to_string(), "8h2b+");
///
/// let drop: Move = "G*5b".parse().unwrap();
/// assert_eq!(drop.drop_kind(), Some(PieceKind::Gold));
/// assert_eq!(drop.from(), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

const PROMOTE: u16 = 1 << 14;
const DROP: u16 = 1 << 15;

impl Move {
    /// A board move from `from` to `to`, promoting if `promote`. Nothing is checked: legality
    /// is the position's business.
    #[inline]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(to.index() as u16 | (from.index() as u16) << 7 | if promote { PROMOTE } else { 0 })
    }

    /// A drop of `kind` (a hand kind) on `to`.
    #[inline]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        Move(to.index() as u16 | (kind as u16) << 7 | DROP)
    }

    /// The destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 & 0x7f) as usize)
    }

    /// Origin square of a board move (`None` for a drop).
    #[inline]
    pub const fn from(self) -> Option<Square> {
        if self.is_drop() {
            None
        } else {
            Some(Square::from_index((self.0 >> 7 & 0x7f) as usize))
        }
    }

    /// Origin square of a move known to be a board move.
    #[inline]
    pub const fn from_sq(self) -> Square {
        debug_assert!(!self.is_drop());
        Square::from_index((self.0 >> 7 & 0x7f) as usize)
    }

    /// Whether the move is a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }

    /// Whether the move promotes the moving piece.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// The dropped kind, for a drop.
    #[inline]
    pub const fn drop_kind(self) -> Option<PieceKind> {
        if self.is_drop() {
            Some(PieceKind::from_index((self.0 >> 7 & 0x7f) as usize))
        } else {
            None
        }
    }

    /// The packed 16 bits (layout above); also a deterministic order for tie-breaks.
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The move of packed bits from [`Move::raw`].
    #[inline]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// The same move with the promotion flag cleared (for look-alike pairs).
    #[inline]
    pub const fn without_promotion(self) -> Move {
        Move(self.0 & !PROMOTE)
    }

    /// The same move with the promotion flag set.
    #[inline]
    pub const fn with_promotion(self) -> Move {
        Move(self.0 | PROMOTE)
    }

    /// Left–right mirror image.
    pub const fn mirror(self) -> Move {
        let to = self.to().mirror();
        if self.is_drop() {
            Move::drop(PieceKind::from_index((self.0 >> 7 & 0x7f) as usize), to)
        } else {
            Move::normal(self.from_sq().mirror(), to, self.is_promotion())
        }
    }
}

impl fmt::Display for Move {
    /// USI notation: `7g7f`, `8h2b+`, `P*5e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.drop_kind() {
            Some(kind) => write!(f, "{}*{}", kind.sfen_letter(), self.to()),
            None => write!(
                f,
                "{}{}{}",
                self.from_sq(),
                self.to(),
                if self.is_promotion() { "+" } else { "" }
            ),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that is not a USI move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a USI move: {:?} (expected e.g. 7g7f, 8h2b+ or P*5e)",
            self.0
        )
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;
    /// Parses USI syntax only; whether the move is legal is the position's business.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError(s.to_string());
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let kind = PieceKind::from_sfen_letter(b[0] as char)
                .filter(|k| *k != PieceKind::King && b[0].is_ascii_uppercase())
                .ok_or_else(err)?;
            let to: Square = s[2..4].parse().map_err(|_| err())?;
            return Ok(Move::drop(kind, to));
        }
        if (b.len() == 4 || (b.len() == 5 && b[4] == b'+'))
            && s.is_char_boundary(2)
            && s.is_char_boundary(4)
        {
            let from: Square = s[0..2].parse().map_err(|_| err())?;
            let to: Square = s[2..4].parse().map_err(|_| err())?;
            if from == to {
                return Err(err());
            }
            return Ok(Move::normal(from, to, b.len() == 5));
        }
        Err(err())
    }
}

/// Room for every legal move. The record with both kings is 593; a side without a king
/// (usual for a tsume attacker) can have more (599 found by fuzzing), and positions with
/// extra pieces (accepted only for published perft data) more still.
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves living on the stack (no allocation on the hot path).
/// Its storage is not initialised on creation (`arrayvec`): every search node makes a
/// list, and zeroing its 2 KiB was 4–6 % of the search time.
#[derive(Clone, Default)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: ArrayVec::new(),
        }
    }

    /// Panics when full (more than [`MAX_MOVES`] moves cannot be legal).
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves.push(m);
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the list has no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves, in the order pushed.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        self.moves.as_slice()
    }

    /// The moves, mutable (to reorder them in place).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        self.moves.as_mut_slice()
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// The moves, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Keeps the moves for which `f` is true, preserving order.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        self.moves.retain(|m| f(*m));
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_round_trip() {
        for s in ["7g7f", "8h2b+", "P*5e", "G*1a", "1a9i", "9i1a+"] {
            let m: Move = s.parse().unwrap();
            assert_eq!(m.to_string(), s);
        }
        let m: Move = "8h2b+".parse().unwrap();
        assert!(m.is_promotion() && !m.is_drop());
        assert_eq!(m.from_sq().to_string(), "8h");
        let d: Move = "R*5e".parse().unwrap();
        assert_eq!(d.drop_kind(), Some(PieceKind::Rook));
        assert_eq!(d.from(), None);
    }

    #[test]
    fn rejects_garbage() {
        for s in [
            "", "7g", "7g7g", "7g7j", "K*5e", "p*5e", "X*5e", "7g7f=", "7g7f++", "P*5", "０g7f",
            "7g7f+x",
        ] {
            assert!(s.parse::<Move>().is_err(), "{s}");
        }
    }

    #[test]
    fn mirror() {
        let m: Move = "7g7f".parse().unwrap();
        assert_eq!(m.mirror().to_string(), "3g3f");
        let d: Move = "P*1e".parse().unwrap();
        assert_eq!(d.mirror().to_string(), "P*9e");
    }
}
