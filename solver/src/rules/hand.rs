//! Pieces in hand, packed into one `u32`.
//!
//! Each hand kind has its own bit field with one spare "guard" bit above it:
//!
//! | kind | bits | guard |
//! |---|---|---|
//! | pawn | 0–4 | 5 |
//! | lance | 6–8 | 9 |
//! | knight | 10–12 | 13 |
//! | silver | 14–16 | 17 |
//! | bishop | 18–19 | 20 |
//! | rook | 21–22 | 23 |
//! | gold | 24–26 | 27 |
//!
//! Because the guard bits are always zero in a valid hand, `a ⊇ b` (a has at least as many of
//! every kind as b) is one subtraction: no field borrows iff `(a - b) & GUARDS == 0`.

use std::fmt;

use crate::piece::PieceKind;

/// The pieces one player holds in hand: a count for each of the seven hand kinds (pawn …
/// gold, never king or a promoted kind), packed as the module doc shows. A value type:
/// every change returns a new hand.
///
/// ```
/// use tsume_solver::{Hand, PieceKind};
///
/// let hand = Hand::EMPTY.add(PieceKind::Gold).add(PieceKind::Gold).add(PieceKind::Pawn);
/// assert_eq!(hand.count(PieceKind::Gold), 2);
/// assert_eq!(hand.to_sfen(true), "2GP");
/// // Hand superiority: at least as many of every kind.
/// assert!(hand.is_superset_of(Hand::EMPTY.add(PieceKind::Gold)));
/// assert!(!hand.is_superset_of(Hand::EMPTY.add(PieceKind::Rook)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Hand(u32);

const SHIFT: [u32; 7] = [0, 6, 10, 14, 18, 21, 24];
const WIDTH: [u32; 7] = [5, 3, 3, 3, 2, 2, 3];
const GUARDS: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 20) | (1 << 23) | (1 << 27);

#[inline]
const fn hand_slot(kind: PieceKind) -> usize {
    debug_assert!((kind as usize) < 7);
    kind as usize
}

impl Hand {
    /// No pieces.
    pub const EMPTY: Hand = Hand(0);

    /// The hand of a packed value from [`Hand::raw`]; the guard bits must be zero.
    #[inline]
    pub const fn from_raw(raw: u32) -> Hand {
        Hand(raw)
    }

    /// The packed value (for keys and tables; layout in the module doc).
    #[inline]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// How many pieces of `kind` (an unpromoted, non-king kind).
    #[inline]
    pub const fn count(self, kind: PieceKind) -> u32 {
        let i = hand_slot(kind);
        (self.0 >> SHIFT[i]) & ((1 << WIDTH[i]) - 1)
    }

    /// Whether the hand holds at least one piece of `kind`.
    #[inline]
    pub const fn has(self, kind: PieceKind) -> bool {
        self.count(kind) != 0
    }

    /// The hand with one more piece of `kind` (a hand kind); the count must stay within
    /// [`Hand::capacity`], or the field overflows into the guard bit.
    #[inline]
    pub const fn add(self, kind: PieceKind) -> Hand {
        Hand(self.0 + (1 << SHIFT[hand_slot(kind)]))
    }

    /// The hand with one piece of `kind` fewer; the hand must hold one.
    #[inline]
    pub const fn remove(self, kind: PieceKind) -> Hand {
        debug_assert!(self.has(kind));
        Hand(self.0 - (1 << SHIFT[hand_slot(kind)]))
    }

    /// A hand with `n` of `kind` replaced; `n` must fit the field (≤ the full-set count).
    #[inline]
    pub const fn with_count(self, kind: PieceKind, n: u32) -> Hand {
        let i = hand_slot(kind);
        let mask = ((1 << WIDTH[i]) - 1) << SHIFT[i];
        Hand((self.0 & !mask) | (n << SHIFT[i]))
    }

    /// The most pieces of `kind` one hand can hold (the field width allows more than a
    /// full set for some kinds).
    pub const fn capacity(kind: PieceKind) -> u8 {
        ((1u32 << WIDTH[hand_slot(kind)]) - 1) as u8
    }

    /// Whether the hand holds nothing.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `self` holds at least as many pieces of every kind as `other` (hand superiority).
    #[inline]
    pub const fn is_superset_of(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & GUARDS == 0
    }

    /// Kind-wise minimum.
    pub fn min(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h = h.with_count(k, self.count(k).min(other.count(k)));
        }
        h
    }

    /// Kind-wise maximum.
    pub fn max(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h = h.with_count(k, self.count(k).max(other.count(k)));
        }
        h
    }

    /// Kind-wise sum `self + other` (both hands of one game, so every count fits).
    #[inline]
    pub const fn plus(self, other: Hand) -> Hand {
        debug_assert!((self.0 + other.0) & GUARDS == 0);
        Hand(self.0 + other.0)
    }

    /// Kind-wise difference `self − other`, saturating at zero.
    pub fn saturating_sub(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h = h.with_count(k, self.count(k).saturating_sub(other.count(k)));
        }
        h
    }

    /// Total number of pieces.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }

    /// The kinds present, in P L N S B R G order.
    pub fn kinds(self) -> impl Iterator<Item = PieceKind> {
        PieceKind::HAND.into_iter().filter(move |&k| self.has(k))
    }

    /// SFEN spelling of this hand for one colour (`2P`, `RBg`…); empty string if empty.
    pub fn to_sfen(self, uppercase: bool) -> String {
        let mut s = String::new();
        for k in PieceKind::HAND_SFEN_ORDER {
            let n = self.count(k);
            if n == 0 {
                continue;
            }
            if n > 1 {
                s += &n.to_string();
            }
            let c = k.sfen_letter();
            s.push(if uppercase { c } else { c.to_ascii_lowercase() });
        }
        s
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand({})", self.to_sfen(true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PieceKind::*;

    fn full() -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h = h.with_count(k, k.full_set_count() as u32);
        }
        h
    }

    #[test]
    fn counts_fit_their_fields() {
        let h = full();
        for k in PieceKind::HAND {
            assert_eq!(h.count(k), k.full_set_count() as u32);
        }
        assert_eq!(h.raw() & GUARDS, 0);
        assert_eq!(h.to_sfen(true), "2R2B4G4S4N4L18P");
        assert_eq!(h.total(), 38);
    }

    #[test]
    fn superiority_matches_kindwise_comparison() {
        // Exhaustive over small hands of three kinds, plus the full set.
        let mut hands = vec![full()];
        for p in 0..3 {
            for s in 0..3 {
                for r in 0..3 {
                    hands.push(
                        Hand::EMPTY
                            .with_count(Pawn, p)
                            .with_count(Silver, s)
                            .with_count(Rook, r),
                    );
                }
            }
        }
        for &a in &hands {
            for &b in &hands {
                let expected = PieceKind::HAND.iter().all(|&k| a.count(k) >= b.count(k));
                assert_eq!(a.is_superset_of(b), expected, "{a:?} ⊇ {b:?}");
            }
        }
    }

    #[test]
    fn add_remove() {
        let h = Hand::EMPTY.add(Gold).add(Gold).add(Pawn);
        assert_eq!(h.count(Gold), 2);
        assert_eq!(h.remove(Gold).count(Gold), 1);
        assert_eq!(h.to_sfen(false), "2gp");
        assert_eq!(h.min(Hand::EMPTY.add(Gold)), Hand::EMPTY.add(Gold));
        assert_eq!(h.saturating_sub(Hand::EMPTY.add(Gold)).count(Gold), 1);
    }
}
