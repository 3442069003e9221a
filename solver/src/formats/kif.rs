//! KIF records (柿木形式): a board diagram (or `手合割`), the hands (`先手の持駒：…`), the side
//! to move (`後手番`) and a main line of moves (`   1 ２三銀成(32)`).
//!
//! [`parse`] returns the starting position as a validated [`Setup`] with the moves of the
//! main line (variations after `変化：` are not read); every error carries the 1-based line
//! number. [`write()`] produces a record that ShogiHome, Kifu for Windows and similar tools
//! open ([`write_with_headers`] with header lines such as `表題：` and `作者：`). [`decode`]
//! turns file bytes into text: `.kifu` files are UTF-8, `.kif` files are Shift-JIS (CP932)
//! unless they say otherwise.
//!
//! Reading accepts what the common writers produce: `王`/`玉`, `竜`/`龍`, one-character
//! promoted names on the board and in moves (`杏 圭 全`) as well as `成香 成桂 成銀`,
//! `同　` with or without the full-width space (and after the square, `１五同歩(14)`, when
//! that is the previous move's destination), optional `不成` (or `生`, as old 柿木将棋
//! writes it; either is refused where the move cannot promote), hand counts in kanji
//! (`歩十七`) or digits, `残り全部` (the side holds every piece not on the board or in the
//! other hand, as in tsume diagrams), hand lines spelled `…の持ち駒`, `…持駒` or with `:`,
//! `手合割：平手` and the standard handicaps, a BOD diagram's `手数＝N` line (skipped), and
//! comment lines starting with `#`, `*` or `&`.

use std::fmt;

use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::{Position, PositionError};
use crate::setup::Setup;
use crate::square::Square;

/// Text encodings of record files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 only (a leading BOM is allowed): `.kifu` files. A first line that declares
    /// Shift-JIS (`#KIF version=2.0 encoding=Shift_JIS`) is believed.
    Utf8,
    /// Shift-JIS (the CP932 / WHATWG variant) only.
    ShiftJis,
    /// UTF-8 if the bytes start with a BOM or are valid UTF-8, Shift-JIS otherwise: `.kif`
    /// and `.csa` files, which exist in both.
    Auto,
}

/// File bytes that are not valid text in the expected encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// 1-based line of the first invalid byte.
    pub line: usize,
    /// The encoding the bytes were read as.
    pub encoding: &'static str,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: not valid {} text", self.line, self.encoding)?;
        if self.encoding == "UTF-8" {
            write!(
                f,
                " (a .kifu file is UTF-8; a Shift-JIS record should be named .kif)"
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for DecodeError {}

/// Decodes the bytes of a record file. A UTF-8 byte-order mark is removed.
pub fn decode(bytes: &[u8], encoding: Encoding) -> Result<String, DecodeError> {
    let line_of = |offset: usize| bytes[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
    let utf8 = |bytes: &[u8]| -> Result<String, DecodeError> {
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let skipped = bytes.len() - body.len();
        match std::str::from_utf8(body) {
            Ok(s) => Ok(s.to_string()),
            Err(e) => Err(DecodeError {
                line: line_of(skipped + e.valid_up_to()),
                encoding: "UTF-8",
            }),
        }
    };
    match encoding {
        Encoding::Utf8 if !declares_shift_jis(bytes) => utf8(bytes),
        Encoding::Auto if bytes.starts_with(b"\xEF\xBB\xBF") => utf8(bytes),
        Encoding::Auto if std::str::from_utf8(bytes).is_ok() => utf8(bytes),
        Encoding::Utf8 | Encoding::Auto | Encoding::ShiftJis => {
            // 0x0A is never part of a two-byte Shift-JIS character, so lines decode alone.
            let mut out = String::with_capacity(bytes.len() * 3 / 2);
            for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                let text = encoding_rs::SHIFT_JIS
                    .decode_without_bom_handling_and_without_replacement(line)
                    .ok_or(DecodeError {
                        line: i + 1,
                        encoding: "Shift-JIS",
                    })?;
                out += &text;
            }
            Ok(out)
        }
    }
}

/// Whether the first line declares the text Shift-JIS, as a KIF header may
/// (`#KIF version=2.0 encoding=Shift_JIS`; `SJIS`, `CP932` and `Windows-31J` too).
fn declares_shift_jis(bytes: &[u8]) -> bool {
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let first = String::from_utf8_lossy(first).to_ascii_lowercase();
    first.starts_with("#kif")
        && first.split_whitespace().any(|field| {
            matches!(
                field.strip_prefix("encoding="),
                Some("shift_jis" | "shift-jis" | "sjis" | "cp932" | "windows-31j")
            )
        })
}

/// A KIF record: the starting position and the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifRecord {
    /// The starting position (validated: [`Position::from_setup`] accepts it).
    pub setup: Setup,
    /// The main line, legal moves from `setup`; a terminal word (`投了`, `詰み` …) ends it.
    pub moves: Vec<Move>,
    /// `key：value` header lines other than the hands and `手合割`, in file order.
    pub headers: Vec<(String, String)>,
}

/// Why a KIF text could not be read; `line` is 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifError {
    /// The line at fault (for a missing part, the line where that was noticed).
    pub line: usize,
    /// What is wrong.
    pub kind: KifErrorKind,
}

/// What is wrong with a KIF text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KifErrorKind {
    /// Nothing but blank and comment lines.
    Empty,
    /// The file ends (or another line starts) before the diagram's closing border.
    TruncatedBoard {
        /// The diagram rows read before it ended.
        ranks: usize,
    },
    /// A board diagram row that cannot be read.
    BadBoardRow(String),
    /// A second board diagram.
    DuplicateBoard,
    /// A `手合割` this reader does not know (`その他` needs a board diagram).
    UnknownHandicap(String),
    /// A `…の持駒` line that cannot be read.
    BadHand(String),
    /// A header line about a hand (its key has `持駒` or `持ち駒`) that names no side this
    /// reader knows (`先手 後手 上手 下手`).
    UnknownHandLine(String),
    /// A line that is not part of the KIF format.
    UnknownLine(String),
    /// A move line that cannot be read.
    BadMove(String),
    /// A move that is not legal in the position reached.
    IllegalMove {
        /// The move as written.
        text: String,
        /// Why it is not legal there.
        reason: String,
    },
    /// A move that writes its square before `同` (`１五同歩(14)`), where that square is not
    /// the previous move's destination, which `同` names.
    SameSquare {
        /// The move as written.
        text: String,
        /// The square written before `同`.
        written: Square,
        /// The previous move's destination.
        previous: Square,
    },
    /// Move numbers that do not follow each other.
    MoveNumber {
        /// The number the move should have had.
        expected: usize,
        /// The number it has.
        found: usize,
    },
    /// The diagram is not a legal position.
    IllegalPosition(PositionError),
    /// Header lines but no board diagram, `手合割` or move: a file cut off before its
    /// diagram, not the start position.
    NoPosition,
    /// A line after the end of the main line (`まで…`, a terminal word) that is not a
    /// comment or a `変化：` variation: it would be dropped unread.
    AfterEnd {
        /// The line of the end.
        end: usize,
        /// The line at fault, as written.
        text: String,
        /// Whether it starts another record (a header, a hand line or a diagram): the text
        /// holds several records, and this reader takes one.
        next_record: bool,
    },
    /// A carriage return not followed by a line feed (classic Mac OS line endings): the
    /// lines cannot be told apart.
    BareCarriageReturn,
}

impl fmt::Display for KifError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use KifErrorKind::*;
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            Empty => write!(f, "no board diagram, 手合割 or move found (empty KIF)"),
            TruncatedBoard { ranks } => write!(
                f,
                "the board diagram is truncated: it ends after {ranks} of 9 ranks \
                 without its closing +---------------------------+ border"
            ),
            BadBoardRow(s) => write!(f, "bad board diagram row: {s}"),
            DuplicateBoard => write!(f, "a second board diagram"),
            UnknownHandicap(h) => write!(f, "unknown 手合割 「{h}」"),
            BadHand(s) => write!(f, "bad pieces in hand: {s}"),
            UnknownHandLine(s) => write!(
                f,
                "not a hand line this reader knows: 「{s}」 (write 先手の持駒：… or 後手の持駒：…; \
                 上手/下手 and 持ち駒 are read too)"
            ),
            UnknownLine(s) => write!(f, "not a KIF line: 「{s}」"),
            BadMove(s) => write!(f, "unreadable move: 「{s}」"),
            IllegalMove { text, reason } => write!(f, "illegal move 「{text}」: {reason}"),
            SameSquare {
                text,
                written,
                previous,
            } => write!(
                f,
                "「{text}」 writes {} and 同 (the previous move's square), but the previous move \
                 went to {}",
                crate::notation::japanese_square(*written),
                crate::notation::japanese_square(*previous)
            ),
            MoveNumber { expected, found } => {
                write!(f, "move number {found} where {expected} was expected")
            }
            IllegalPosition(e) => write!(f, "illegal position: {e}"),
            NoPosition => write!(
                f,
                "no board diagram, 手合割 or move: the file ends before the position (cut off?)"
            ),
            AfterEnd {
                end,
                text,
                next_record: true,
            } => write!(
                f,
                "「{text}」 starts another record after the end of this one (line {end}): \
                 one record was expected here"
            ),
            AfterEnd { end, text, .. } => write!(
                f,
                "「{text}」 after the end of the main line (line {end}) is not a comment, a \
                 変化： variation or the start of another record (a header such as 作品名：, a \
                 hand line or a board diagram)"
            ),
            BareCarriageReturn => f.write_str(super::BARE_CARRIAGE_RETURN),
        }
    }
}

impl std::error::Error for KifError {}

const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const MOVES_HEADER: &str = "手数----指手---------消費時間--";

/// The one-character piece names of board diagrams (and of some writers' moves).
fn piece_from_char(c: char) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match c {
        '歩' => Pawn,
        '香' => Lance,
        '桂' => Knight,
        '銀' => Silver,
        '金' => Gold,
        '角' => Bishop,
        '飛' => Rook,
        '玉' | '王' => King,
        'と' => ProPawn,
        '杏' => ProLance,
        '圭' => ProKnight,
        '全' => ProSilver,
        '馬' => Horse,
        '龍' | '竜' => Dragon,
        _ => return None,
    })
}

/// The one-character name written in board diagrams.
fn diagram_char(kind: PieceKind) -> char {
    use PieceKind::*;
    match kind {
        ProLance => '杏',
        ProKnight => '圭',
        ProSilver => '全',
        _ => kind.japanese().chars().next().expect("non-empty name"),
    }
}

/// A number written in kanji (`十七`) or digits (ASCII or full-width), 1..=99.
fn parse_count(s: &str) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    if s.chars()
        .all(|c| c.is_ascii_digit() || WIDE_DIGITS.contains(&c) || c == '０')
    {
        let digits: String = s
            .chars()
            .map(|c| match c {
                '０' => '0',
                c if c.is_ascii_digit() => c,
                c => char::from(b'1' + WIDE_DIGITS.iter().position(|&d| d == c).unwrap() as u8),
            })
            .collect();
        return digits.parse().ok().filter(|n| (1..=99).contains(n));
    }
    let kanji = |c: char| {
        KANJI_DIGITS
            .iter()
            .position(|&d| d == c)
            .map(|i| i as u32 + 1)
    };
    let chars: Vec<char> = s.chars().collect();
    match chars.as_slice() {
        ['十'] => Some(10),
        [d] => kanji(*d),
        ['十', u] => kanji(*u).map(|u| 10 + u),
        [t, '十'] => kanji(*t).map(|t| 10 * t),
        [t, '十', u] => Some(10 * kanji(*t)? + kanji(*u)?),
        _ => None,
    }
    .filter(|n| (1..=99).contains(n))
}

/// A count in kanji, as KIF hands write it (`十七`).
fn kanji_count(n: u32) -> String {
    let digit = |d: u32| KANJI_DIGITS[d as usize - 1].to_string();
    match n {
        1..=9 => digit(n),
        10 => "十".to_string(),
        11..=19 => format!("十{}", digit(n - 10)),
        _ if n.is_multiple_of(10) => format!("{}十", digit(n / 10)),
        _ => format!("{}十{}", digit(n / 10), digit(n % 10)),
    }
}

mod read;
mod write;

pub use read::{parse, parse_records, parse_setup, split_records, RecordText};
pub use write::{write, write_position, write_with_headers, Ending};

#[cfg(test)]
mod tests;
