//! An unvalidated position as written in SFEN, and its parser.
//!
//! [`Setup`] is whatever an SFEN string says, syntax-checked only. Turning it into a
//! [`crate::position::Position`] checks the shogi rules ([`crate::position::PositionError`]).

use std::fmt;
use std::str::FromStr;

use crate::color::Color;
use crate::piece::{Piece, PieceKind};
use crate::square::Square;

/// The largest move number accepted in an SFEN (2^30).
pub const MAX_MOVE_NUMBER: u32 = 1 << 30;

/// The SFEN of the initial position.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// What an SFEN string says (board, hands, side to move, move number), syntax-checked only:
/// it may break any rule of shogi (two kings, two pawns on a file, more pieces than a set
/// holds). [`Position::from_setup`](crate::Position::from_setup) checks it; to build a
/// position piece by piece, edit a `Setup` and convert it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// Pieces by square index.
    pub board: [Option<Piece>; 81],
    /// Hand counts by colour and hand kind index (P L N S B R G); may exceed the full set.
    pub hands: [[u8; 7]; 2],
    /// The player to move (the second SFEN field).
    pub side_to_move: Color,
    /// Move number (the fourth SFEN field), 1 if absent.
    pub move_number: u32,
}

/// Why an SFEN string could not be read. Ranks and columns are 1-based, ranks counted from
/// the top (rank 1 = `a`), columns from the left of the rank string as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// No field at all (an empty or blank string).
    Empty,
    /// Not 3 or 4 whitespace-separated fields (`moves …` after them is not part of an SFEN).
    FieldCount {
        /// The number of fields found.
        found: usize,
        /// The fields after the fourth, as written (empty with fewer than five): most often
        /// a problem file's length label or comment, copied with the SFEN.
        after: String,
    },
    /// The board has a number of `/`-separated ranks other than 9.
    RankCount {
        /// The number of ranks found.
        found: usize,
    },
    /// A rank describes more or fewer than 9 squares.
    RankLength {
        /// The rank (1 = `a`, the top).
        rank: usize,
        /// The number of squares it describes.
        squares: usize,
    },
    /// A run of digits in a rank that is not a count of 1 to 9 empty squares (`10`, `0`):
    /// a count is one digit, so `10` is read as too large a count rather than as `1`
    /// followed by an unknown letter `0`.
    BadEmptyCount {
        /// The rank (1 = `a`).
        rank: usize,
        /// The column of the run's first digit.
        column: usize,
        /// The run of digits.
        found: String,
    },
    /// A character in the board field that is neither a piece letter, `+` nor a digit 1–9.
    UnknownPiece {
        /// The rank (1 = `a`).
        rank: usize,
        /// The column.
        column: usize,
        /// The character.
        found: char,
    },
    /// `+` not followed by a promotable piece letter.
    BadPromotion {
        /// The rank (1 = `a`).
        rank: usize,
        /// The column of the `+`.
        column: usize,
    },
    /// Side to move other than `b` or `w`.
    BadSide {
        /// The field found.
        found: String,
    },
    /// A malformed hand field.
    BadHand {
        /// The column in the hand field.
        column: usize,
        /// What is wrong there.
        problem: &'static str,
    },
    /// A move number that is not a positive integer.
    BadMoveNumber {
        /// The field found.
        found: String,
    },
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SfenError::*;
        match self {
            Empty => write!(f, "empty SFEN"),
            FieldCount { found, after } => {
                write!(
                    f,
                    "an SFEN has 3 or 4 fields (board, side, hand[, move number]), found {found}"
                )?;
                if !after.is_empty() {
                    write!(f, ": \"{after}\" follows the move number")?;
                }
                Ok(())
            }
            RankCount { found } => write!(
                f,
                "the board must have 9 ranks separated by '/', found {found}"
            ),
            RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares instead of 9")
            }
            BadEmptyCount {
                rank,
                column,
                found,
            } => {
                // `10`, `103`, or a run too long for a number; `0` and `04` are not counts.
                if found.parse::<u64>().map_or(true, |n| n > 9) {
                    write!(
                        f,
                        "rank {rank}, column {column}: the count {found} is too large \
                         (empty squares are counted 1 to 9, one digit; a rank has 9 squares)"
                    )
                } else {
                    write!(
                        f,
                        "rank {rank}, column {column}: the count {found} is not a count \
                         of empty squares (1 to 9)"
                    )
                }
            }
            UnknownPiece {
                rank,
                column,
                found,
            } => {
                write!(
                    f,
                    "rank {rank}, column {column}: unknown piece letter '{found}'"
                )
            }
            BadPromotion { rank, column } => write!(
                f,
                "rank {rank}, column {column}: '+' must be followed by P, L, N, S, B or R"
            ),
            BadSide { found } => write!(f, "side to move must be 'b' or 'w', found \"{found}\""),
            BadHand { column, problem } => write!(f, "hand, column {column}: {problem}"),
            BadMoveNumber { found } => {
                write!(
                    f,
                    "move number must be an integer from 1 to {MAX_MOVE_NUMBER}, found \"{found}\""
                )
            }
        }
    }
}

impl std::error::Error for SfenError {}

impl Setup {
    /// A setup with nothing on the board or in hand, Black to move, move number 1.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 81],
            hands: [[0; 7]; 2],
            side_to_move: Color::Black,
            move_number: 1,
        }
    }

    /// Parses the SFEN fields; accepts an optional leading `sfen ` keyword.
    pub fn from_sfen(sfen: &str) -> Result<Setup, SfenError> {
        let sfen = sfen.trim();
        let sfen = sfen.strip_prefix("sfen ").unwrap_or(sfen);
        if sfen == "startpos" {
            return Setup::from_sfen(STARTPOS_SFEN);
        }
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(SfenError::Empty);
        }
        if !(3..=4).contains(&fields.len()) {
            return Err(SfenError::FieldCount {
                found: fields.len(),
                after: fields.get(4..).map(|f| f.join(" ")).unwrap_or_default(),
            });
        }
        let mut setup = Setup::empty();
        parse_board(fields[0], &mut setup.board)?;
        setup.side_to_move = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            other => {
                return Err(SfenError::BadSide {
                    found: other.to_string(),
                })
            }
        };
        setup.hands = parse_hands(fields[2])?;
        if let Some(n) = fields.get(3) {
            // Digits only (no sign), at most MAX_MOVE_NUMBER so that playing moves can never
            // overflow it.
            let digits = !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
            let parsed = n
                .parse::<u32>()
                .ok()
                .filter(|&v| digits && v > 0 && v <= MAX_MOVE_NUMBER);
            setup.move_number = parsed.ok_or_else(|| SfenError::BadMoveNumber {
                found: n.to_string(),
            })?;
        }
        Ok(setup)
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// How many pieces of `kind`'s base kind stand on the board, promoted ones included.
    pub fn on_board(&self, kind: PieceKind) -> u32 {
        let base = kind.unpromote();
        self.board
            .iter()
            .flatten()
            .filter(|p| p.kind.unpromote() == base)
            .count() as u32
    }

    /// How many pieces of `kind`'s base kind the setup uses: on the board (promoted ones
    /// included) and in both hands.
    pub fn count(&self, kind: PieceKind) -> u32 {
        let base = kind.unpromote();
        let in_hands: u32 = if base == PieceKind::King {
            0
        } else {
            self.hands.iter().map(|h| h[base.index()] as u32).sum()
        };
        self.on_board(base) + in_hands
    }

    /// Gives `color` every piece that is neither on the board nor in the other hand
    /// (the tsume convention 玉方持駒 = 残り全部). Counts already over the full set are kept.
    pub fn fill_hand(&mut self, color: Color) {
        for (i, kind) in PieceKind::HAND.into_iter().enumerate() {
            let used = self.on_board(kind) as usize + self.hands[(!color).index()][i] as usize;
            self.hands[color.index()][i] =
                (kind.full_set_count() as usize).saturating_sub(used) as u8;
        }
    }
}

fn parse_board(field: &str, board: &mut [Option<Piece>; 81]) -> Result<(), SfenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount { found: ranks.len() });
    }
    for (r, rank_str) in ranks.iter().enumerate() {
        parse_rank(rank_str, r, board)?;
    }
    Ok(())
}

/// Rank `r` (0-based) of the board field. Squares are written from file 9 (left) to file
/// 1.
fn parse_rank(rank_str: &str, r: usize, board: &mut [Option<Piece>; 81]) -> Result<(), SfenError> {
    let rank = r + 1;
    let mut squares = 0usize;
    let mut promoted = false;
    let chars: Vec<char> = rank_str.chars().collect();
    for (c, &ch) in chars.iter().enumerate() {
        let column = c + 1;
        if promoted && !ch.is_ascii_alphabetic() {
            return Err(SfenError::BadPromotion {
                rank,
                column: column - 1,
            });
        }
        check_empty_count(&chars, c, rank)?;
        match ch {
            '1'..='9' => squares += ch as usize - '0' as usize,
            '+' => {
                promoted = true;
                continue;
            }
            _ => {
                let piece = board_piece(ch, promoted, rank, column)?;
                if squares < 9 {
                    let sq = Square::new((8 - squares) as u8, r as u8);
                    board[sq.index()] = Some(piece);
                }
                squares += 1;
            }
        }
        promoted = false;
    }
    if promoted {
        return Err(SfenError::BadPromotion {
            rank,
            column: rank_str.chars().count(),
        });
    }
    if squares != 9 {
        return Err(SfenError::RankLength { rank, squares });
    }
    Ok(())
}

/// A run of digits with a 0 in it (`10`, `0`) is one count that is not 1 to 9: name the
/// run (starting at `chars[c]`), not its `0` as an unknown letter.
fn check_empty_count(chars: &[char], c: usize, rank: usize) -> Result<(), SfenError> {
    if chars[c].is_ascii_digit() && (c == 0 || !chars[c - 1].is_ascii_digit()) {
        let run: String = chars[c..]
            .iter()
            .take_while(|d| d.is_ascii_digit())
            .collect();
        if run.contains('0') {
            return Err(SfenError::BadEmptyCount {
                rank,
                column: c + 1,
                found: run,
            });
        }
    }
    Ok(())
}

/// The piece of letter `ch` (after a `+` when `promoted`) in `column` of `rank`.
fn board_piece(ch: char, promoted: bool, rank: usize, column: usize) -> Result<Piece, SfenError> {
    let kind = PieceKind::from_sfen_letter(ch)
        .filter(|_| ch.is_ascii_alphabetic())
        .ok_or(SfenError::UnknownPiece {
            rank,
            column,
            found: ch,
        })?;
    let kind = if promoted {
        if !kind.can_promote() {
            return Err(SfenError::BadPromotion {
                rank,
                column: column - 1,
            });
        }
        kind.promote()
    } else {
        kind
    };
    let color = if ch.is_ascii_uppercase() {
        Color::Black
    } else {
        Color::White
    };
    Ok(Piece::new(color, kind))
}

fn parse_hands(field: &str) -> Result<[[u8; 7]; 2], SfenError> {
    let mut hands = [[0u8; 7]; 2];
    if field == "-" {
        return Ok(hands);
    }
    let mut count: Option<u32> = None;
    for (c, ch) in field.chars().enumerate() {
        let column = c + 1;
        if let Some(d) = ch.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if count.is_none() && d == 0 {
                return Err(SfenError::BadHand {
                    column,
                    problem: "a count cannot start with 0",
                });
            }
            if n > 99 {
                return Err(SfenError::BadHand {
                    column,
                    problem: "count too large",
                });
            }
            count = Some(n);
            continue;
        }
        let kind = PieceKind::from_sfen_letter(ch)
            .filter(|k| *k != PieceKind::King && ch.is_ascii_alphabetic())
            .ok_or(SfenError::BadHand {
                column,
                problem: "expected a count or one of R B G S N L P (r b g s n l p)",
            })?;
        let color = if ch.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let slot = &mut hands[color.index()][kind.index()];
        let n = count.take().unwrap_or(1);
        *slot = (*slot as u32 + n).min(255) as u8;
    }
    if count.is_some() {
        return Err(SfenError::BadHand {
            column: field.chars().count(),
            problem: "count without a piece letter",
        });
    }
    Ok(hands)
}

impl FromStr for Setup {
    type Err = SfenError;
    fn from_str(s: &str) -> Result<Setup, SfenError> {
        Setup::from_sfen(s)
    }
}

impl fmt::Display for Setup {
    /// Canonical SFEN (hands in R B G S N L P order, Black's first).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in 0..9u8 {
            if rank > 0 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for file in (0..9u8).rev() {
                match self.board[Square::new(file, rank).index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        f.write_str(&p.to_sfen())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        write!(f, " {} ", self.side_to_move.sfen_char())?;
        let mut hand = String::new();
        for color in Color::ALL {
            for kind in PieceKind::HAND_SFEN_ORDER {
                let c = kind.sfen_letter();
                let c = if color == Color::Black {
                    c
                } else {
                    c.to_ascii_lowercase()
                };
                // A count is at most 99 in an SFEN; more (never legal, but a setup holds up
                // to 255, as `99P99P` reads) is written as repeats, so that it reads back.
                let mut n = self.hands[color.index()][kind.index()];
                while n > 0 {
                    let k = n.min(99);
                    if k > 1 {
                        hand += &k.to_string();
                    }
                    hand.push(c);
                    n -= k;
                }
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        write!(f, "{hand} {}", self.move_number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_quote_the_text_as_written() {
        let e = Setup::from_sfen("4k\u{200b}4/9/9/9/9/9/9/9/9 b - 1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "rank 1, column 3: unknown piece letter '\u{200b}'"
        );
        assert!(!e.to_string().contains("\\u"), "{e}");
        let e = Setup::from_sfen("4k4/9/9/9/9/9/9/9/9 b - 1 詰\u{200b}").unwrap_err();
        assert!(
            e.to_string()
                .ends_with(": \"詰\u{200b}\" follows the move number"),
            "{e}"
        );
    }

    #[test]
    fn round_trip() {
        for s in [
            STARTPOS_SFEN,
            "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
            "kn7/ps7/9/9/N8/9/9/9/8B b 2RB4G2S2N4L17P 1",
            "4k4/9/9/9/9/9/9/9/9 w - 12",
        ] {
            let setup: Setup = s.parse().unwrap();
            assert_eq!(setup.to_string(), s);
        }
    }

    #[test]
    fn hand_counts_over_99_read_back() {
        // Found by the pack_line fuzz target: 101 bishops, one letter at a time, printed as
        // `101b`, which the reader refuses (a count is at most 99).
        let sfen = format!(
            "3sks3/9/4S4/9/9/B8/9/9/9 b S2r{}4g4nl18p 1",
            "b".repeat(101)
        );
        let setup: Setup = sfen.parse().unwrap();
        assert_eq!(
            setup.hands[Color::White.index()][PieceKind::Bishop.index()],
            101
        );
        let printed = setup.to_string();
        assert!(printed.contains(" S2r99b2b4g4nl18p "), "{printed}");
        assert_eq!(printed.parse::<Setup>().unwrap(), setup);
        let full: Setup = "4k4/9/9/9/9/9/9/9/4K4 b 99P99P99P 1".parse().unwrap();
        assert_eq!(full.to_string(), "4k4/9/9/9/9/9/9/9/4K4 b 99P99P57P 1");
        assert_eq!(full.to_string().parse::<Setup>().unwrap(), full);
    }

    #[test]
    fn non_canonical_hand_is_normalised() {
        let setup: Setup = "kn7/ps7/9/9/N8/9/9/9/8B b 2r1b4g2s2n4l17p 1"
            .parse()
            .unwrap();
        assert_eq!(
            setup.to_string(),
            "kn7/ps7/9/9/N8/9/9/9/8B b 2rb4g2s2n4l17p 1"
        );
    }

    #[test]
    fn errors_name_the_place() {
        let e = Setup::from_sfen("lnsgkgsnl/1r5b1/ppppXpppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
            .unwrap_err();
        assert_eq!(
            e,
            SfenError::UnknownPiece {
                rank: 3,
                column: 5,
                found: 'X'
            }
        );
        let e = Setup::from_sfen("lnsgkgsnl/1r5b1/pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
            .unwrap_err();
        assert_eq!(
            e,
            SfenError::RankLength {
                rank: 3,
                squares: 8
            }
        );
        let e = Setup::from_sfen("9/9/9/9/9/9/9/9 b - 1").unwrap_err();
        assert_eq!(e, SfenError::RankCount { found: 8 });
        assert!(matches!(
            Setup::from_sfen("9/9/9/9/9/9/9/9/+G8 b - 1"),
            Err(SfenError::BadPromotion { rank: 9, .. })
        ));
        assert!(matches!(
            Setup::from_sfen("9/9/9/9/9/9/9/9/9 x - 1"),
            Err(SfenError::BadSide { .. })
        ));
        assert!(matches!(
            Setup::from_sfen("9/9/9/9/9/9/9/9/9 b 2K 1"),
            Err(SfenError::BadHand { column: 2, .. })
        ));
        assert!(matches!(
            Setup::from_sfen("9/9/9/9/9/9/9/9/9 b P2 1"),
            Err(SfenError::BadHand { .. })
        ));
        assert!(matches!(
            Setup::from_sfen("9/9/9/9/9/9/9/9/9 b - 0"),
            Err(SfenError::BadMoveNumber { .. })
        ));
        assert!(matches!(
            Setup::from_sfen("9/9/9/9/9/9/9/9/9"),
            Err(SfenError::FieldCount { found: 1, .. })
        ));
        let extra = Setup::from_sfen("9/9/9/9/9/9/9/9/9 b - 1 75 # No. 90").unwrap_err();
        assert_eq!(
            extra,
            SfenError::FieldCount {
                found: 8,
                after: "75 # No. 90".to_string()
            }
        );
        assert!(extra
            .to_string()
            .ends_with("found 8: \"75 # No. 90\" follows the move number"));
        assert_eq!(Setup::from_sfen("   "), Err(SfenError::Empty));
    }

    #[test]
    fn fill_hand_gives_the_rest() {
        let mut s: Setup = "4k4/9/4P4/9/9/9/9/9/9 b G 1".parse().unwrap();
        s.fill_hand(Color::White);
        assert_eq!(s.to_string(), "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    }
}
