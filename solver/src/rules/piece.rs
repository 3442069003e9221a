//! Piece kinds and coloured pieces.

use crate::color::Color;

/// A kind of piece. The promoted kinds are the base kind plus 8 (`kind | 8`), so promotion and
/// demotion are single bit operations; Gold and King never promote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// 歩, `P`.
    Pawn = 0,
    /// 香, `L`.
    Lance = 1,
    /// 桂, `N`.
    Knight = 2,
    /// 銀, `S`.
    Silver = 3,
    /// 角, `B`.
    Bishop = 4,
    /// 飛, `R`.
    Rook = 5,
    /// 金, `G`.
    Gold = 6,
    /// 玉/王, `K`.
    King = 7,
    /// と (promoted pawn), `+P`.
    ProPawn = 8,
    /// 成香 (promoted lance), `+L`.
    ProLance = 9,
    /// 成桂 (promoted knight), `+N`.
    ProKnight = 10,
    /// 成銀 (promoted silver), `+S`.
    ProSilver = 11,
    /// 馬 (promoted bishop), `+B`.
    Horse = 12,
    /// 龍 (promoted rook), `+R`.
    Dragon = 13,
}

use PieceKind::*;

impl PieceKind {
    /// The number of kinds.
    pub const NUM: usize = 14;
    /// Every kind, by index (the unpromoted ones first).
    pub const ALL: [PieceKind; 14] = [
        Pawn, Lance, Knight, Silver, Bishop, Rook, Gold, King, ProPawn, ProLance, ProKnight,
        ProSilver, Horse, Dragon,
    ];
    /// The kinds a player can hold in hand, in the order SFEN writes them (R B G S N L P).
    pub const HAND_SFEN_ORDER: [PieceKind; 7] = [Rook, Bishop, Gold, Silver, Knight, Lance, Pawn];
    /// The kinds a player can hold in hand, by index (P L N S B R G).
    pub const HAND: [PieceKind; 7] = [Pawn, Lance, Knight, Silver, Bishop, Rook, Gold];

    /// The kind's index, 0..14 (an index into per-kind arrays).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind of an index below 14 (panics otherwise).
    #[inline]
    pub const fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// Whether the kind promotes: pawn, lance, knight, silver, bishop and rook, unpromoted.
    #[inline]
    pub const fn can_promote(self) -> bool {
        (self as u8) < 6
    }

    /// Whether the kind is a promoted one (と … 龍).
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// The promoted kind (only meaningful when `can_promote`).
    #[inline]
    pub const fn promote(self) -> PieceKind {
        debug_assert!(self.can_promote());
        PieceKind::from_index(self as usize | 8)
    }

    /// The kind this piece becomes when captured (promoted pieces revert).
    #[inline]
    pub const fn unpromote(self) -> PieceKind {
        if self.is_promoted() {
            PieceKind::from_index(self as usize & 7)
        } else {
            self
        }
    }

    /// Moves like a gold general (gold and the four small promoted pieces).
    #[inline]
    pub const fn is_gold_like(self) -> bool {
        matches!(self, Gold | ProPawn | ProLance | ProKnight | ProSilver)
    }

    /// Uppercase SFEN letter of the unpromoted kind.
    pub const fn sfen_letter(self) -> char {
        match self.unpromote() {
            Pawn => 'P',
            Lance => 'L',
            Knight => 'N',
            Silver => 'S',
            Bishop => 'B',
            Rook => 'R',
            Gold => 'G',
            _ => 'K',
        }
    }

    /// Kind from an SFEN letter (either case), unpromoted.
    pub const fn from_sfen_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Pawn,
            'L' => Lance,
            'N' => Knight,
            'S' => Silver,
            'B' => Bishop,
            'R' => Rook,
            'G' => Gold,
            'K' => King,
            _ => return None,
        })
    }

    /// Japanese name as written in move notation (成銀, 龍, …).
    pub const fn japanese(self) -> &'static str {
        match self {
            Pawn => "歩",
            Lance => "香",
            Knight => "桂",
            Silver => "銀",
            Bishop => "角",
            Rook => "飛",
            Gold => "金",
            King => "玉",
            ProPawn => "と",
            ProLance => "成香",
            ProKnight => "成桂",
            ProSilver => "成銀",
            Horse => "馬",
            Dragon => "龍",
        }
    }

    /// How many of the unpromoted kind exist in a full set.
    pub const fn full_set_count(self) -> u8 {
        match self.unpromote() {
            Pawn => 18,
            Lance | Knight | Silver | Gold => 4,
            Bishop | Rook | King => 2,
            _ => 0,
        }
    }

    /// Whether a piece of this kind on `relative_rank` (0 = far rank) could never move again
    /// (行き所のない駒): pawn or lance on the last rank, knight on the last two.
    #[inline]
    pub const fn is_dead_on(self, relative_rank: u8) -> bool {
        match self {
            Pawn | Lance => relative_rank == 0,
            Knight => relative_rank <= 1,
            _ => false,
        }
    }
}

/// A piece of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// The kind, promoted or not.
    pub kind: PieceKind,
}

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Dense index 0..28 (colour-major), for tables such as Zobrist keys.
    #[inline]
    pub const fn index(self) -> usize {
        self.color as usize * PieceKind::NUM + self.kind as usize
    }

    /// SFEN spelling: `+` for promoted pieces, uppercase for Black.
    pub fn to_sfen(self) -> String {
        let letter = self.kind.sfen_letter();
        let letter = match self.color {
            Color::Black => letter,
            Color::White => letter.to_ascii_lowercase(),
        };
        if self.kind.is_promoted() {
            format!("+{letter}")
        } else {
            letter.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_is_a_bit() {
        for k in PieceKind::ALL {
            if k.can_promote() {
                assert_eq!(k.promote().unpromote(), k);
                assert!(k.promote().is_promoted());
            }
        }
        assert_eq!(Rook.promote(), Dragon);
        assert_eq!(Bishop.promote(), Horse);
        assert!(!Gold.can_promote() && !King.can_promote());
    }

    #[test]
    fn letters_round_trip() {
        for k in PieceKind::ALL.iter().filter(|k| !k.is_promoted()) {
            assert_eq!(PieceKind::from_sfen_letter(k.sfen_letter()), Some(*k));
        }
        assert_eq!(Piece::new(Color::White, Dragon).to_sfen(), "+r");
    }
}
