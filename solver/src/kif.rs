//! KIF records (柿木形式): a board diagram (or `手合割`), the hands (`先手の持駒：…`), the side
//! to move (`後手番`) and a main line of moves (`   1 ２三銀成(32)`).
//!
//! [`parse`] returns the starting position as a validated [`Setup`] with the moves of the
//! main line (variations after `変化：` are not read); every error carries the 1-based line
//! number. [`write()`] produces a record that ShogiHome, Kifu for Windows and similar tools
//! open. [`decode`] turns file bytes into text: `.kifu` files are UTF-8, `.kif` files are
//! Shift-JIS (CP932) unless they say otherwise.
//!
//! Reading accepts what the common writers produce: `王`/`玉`, `竜`/`龍`, one-character
//! promoted names on the board and in moves (`杏 圭 全`) as well as `成香 成桂 成銀`,
//! `同　` with or without the full-width space, optional `不成`, hand counts in kanji
//! (`歩十七`) or digits, `残り全部` (the side holds every piece not on the board or in the
//! other hand, as in tsume diagrams), `手合割：平手` and the standard handicaps, and comment
//! lines starting with `#`, `*` or `&`.

use std::fmt;

use crate::color::Color;
use crate::moves::Move;
use crate::notation;
use crate::piece::{Piece, PieceKind};
use crate::position::{Position, PositionError};
use crate::setup::{Setup, STARTPOS_SFEN};
use crate::square::Square;

/// Text encodings of record files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 only (a leading BOM is allowed): `.kifu` files.
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
        Encoding::Utf8 => utf8(bytes),
        Encoding::Auto if bytes.starts_with(b"\xEF\xBB\xBF") => utf8(bytes),
        Encoding::Auto if std::str::from_utf8(bytes).is_ok() => utf8(bytes),
        Encoding::Auto | Encoding::ShiftJis => {
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
    pub line: usize,
    pub kind: KifErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KifErrorKind {
    /// Nothing but blank and comment lines.
    Empty,
    /// The file ends (or another line starts) before the diagram's closing border.
    TruncatedBoard { ranks: usize },
    /// A board diagram row that cannot be read.
    BadBoardRow(String),
    /// A second board diagram.
    DuplicateBoard,
    /// A `手合割` this reader does not know (`その他` needs a board diagram).
    UnknownHandicap(String),
    /// A `…の持駒` line that cannot be read.
    BadHand(String),
    /// A line that is not part of the KIF format.
    UnknownLine(String),
    /// A move line that cannot be read.
    BadMove(String),
    /// A move that is not legal in the position reached.
    IllegalMove { text: String, reason: String },
    /// Move numbers that do not follow each other.
    MoveNumber { expected: usize, found: usize },
    /// The diagram is not a legal position.
    IllegalPosition(PositionError),
    /// Header lines but no board diagram, `手合割` or move: a file cut off before its
    /// diagram, not the start position.
    NoPosition,
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
            UnknownHandicap(h) => write!(f, "unknown 手合割 {h:?}"),
            BadHand(s) => write!(f, "bad pieces in hand: {s}"),
            UnknownLine(s) => write!(f, "not a KIF line: {s:?}"),
            BadMove(s) => write!(f, "unreadable move: {s:?}"),
            IllegalMove { text, reason } => write!(f, "illegal move {text:?}: {reason}"),
            MoveNumber { expected, found } => {
                write!(f, "move number {found} where {expected} was expected")
            }
            IllegalPosition(e) => write!(f, "illegal position: {e}"),
            NoPosition => write!(
                f,
                "no board diagram, 手合割 or move: the file ends before the position (cut off?)"
            ),
            BareCarriageReturn => write!(
                f,
                "a carriage return without a line feed (CR-only line endings): save the file \
                 with LF or CRLF line endings"
            ),
        }
    }
}

impl std::error::Error for KifError {}

const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const WRITE_HEADER: &str = "#KIF version=2.0 encoding=UTF-8";
const COLUMNS: &str = "  ９ ８ ７ ６ ５ ４ ３ ２ １";
const BORDER: &str = "+---------------------------+";
const MOVES_HEADER: &str = "手数----指手---------消費時間--";

/// Terminal words of a KIF main line (special moves).
const TERMINALS: [&str; 14] = [
    "投了",
    "中断",
    "持将棋",
    "千日手",
    "詰み",
    "不詰",
    "切れ負け",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "封じ手",
    "不戦勝",
    "不戦敗",
    "トライ",
];

/// The standard handicaps (`手合割`), as SFEN; the handicap giver (上手 = White) moves first.
const HANDICAPS: [(&str, &str); 15] = [
    ("平手", STARTPOS_SFEN),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

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

/// The hand of a `…の持駒` line: counts by hand kind index, or `None` for `残り全部`.
fn parse_hand(value: &str) -> Result<Option<[u8; 7]>, String> {
    let value = value.trim_matches([' ', '　']);
    let mut hand = [0u8; 7];
    if value == "なし" || value.is_empty() {
        return Ok(Some(hand));
    }
    if value == "残り全部" || value == "残りすべて" {
        return Ok(None);
    }
    for item in value.split([' ', '　']).filter(|s| !s.is_empty()) {
        let mut chars = item.chars();
        let c = chars.next().expect("non-empty item");
        let kind = piece_from_char(c)
            .filter(|k| PieceKind::HAND.contains(k))
            .ok_or_else(|| format!("{c:?} is not a piece that can be held ({item:?})"))?;
        let rest = chars.as_str();
        let n = if rest.is_empty() {
            1
        } else {
            parse_count(rest).ok_or_else(|| format!("bad count {rest:?} in {item:?}"))?
        };
        let slot = &mut hand[kind.index()];
        *slot = (*slot as u32 + n).min(255) as u8;
    }
    Ok(Some(hand))
}

/// One diagram row between the `|` borders: 9 cells of an optional side mark (` ` Black,
/// `v` White) and a piece name or `・`.
fn parse_row(line: &str, rank: usize) -> Result<[Option<Piece>; 9], String> {
    let inner = line
        .strip_prefix('|')
        .ok_or_else(|| "a row starts with '|'".to_string())?;
    let (cells, label) = inner
        .split_once('|')
        .ok_or_else(|| "no closing '|' (is the row cut short?)".to_string())?;
    let label = label.trim();
    if !label.is_empty() {
        match parse_count(label) {
            Some(r) if r as usize == rank => {}
            _ => {
                return Err(format!(
                    "row labelled {label:?} where rank {rank} was expected"
                ))
            }
        }
    }
    let mut row = [None; 9];
    let mut n = 0;
    let mut chars = cells.chars().peekable();
    while let Some(c) = chars.next() {
        let (color, name) = match c {
            ' ' | '^' | '　' => match chars.next() {
                Some(name) => (Color::Black, name),
                None => break,
            },
            'v' | 'V' => (
                Color::White,
                chars
                    .next()
                    .ok_or_else(|| "'v' at the end of the row".to_string())?,
            ),
            other => (Color::Black, other),
        };
        if n == 9 {
            return Err(format!("more than 9 squares in {cells:?}"));
        }
        if name != '・' {
            let kind = piece_from_char(name)
                .ok_or_else(|| format!("unknown piece {name:?} in square {}", n + 1))?;
            row[n] = Some(Piece::new(color, kind));
        } else if color == Color::White {
            return Err(format!("'v' before an empty square in square {}", n + 1));
        }
        n += 1;
    }
    if n != 9 {
        return Err(format!("{n} squares instead of 9 in {cells:?}"));
    }
    Ok(row)
}

/// Splits `   12 ７六歩(77)  ( 0:01/00:00:02)` into its number and the rest.
fn split_move_number(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let rest = &t[digits..];
    if !rest.is_empty() && !rest.starts_with([' ', '　', '\t']) {
        return None;
    }
    Some((
        t[..digits].parse().ok()?,
        rest.trim_start_matches([' ', '　', '\t']),
    ))
}

fn parse_square(file: char, rank: char) -> Option<Square> {
    let f = WIDE_DIGITS.iter().position(|&d| d == file).or_else(|| {
        file.to_digit(10)
            .filter(|&d| d >= 1)
            .map(|d| d as usize - 1)
    })?;
    let r = KANJI_DIGITS
        .iter()
        .position(|&d| d == rank)
        .or_else(|| WIDE_DIGITS.iter().position(|&d| d == rank))
        .or_else(|| {
            rank.to_digit(10)
                .filter(|&d| d >= 1)
                .map(|d| d as usize - 1)
        })?;
    (f < 9 && r < 9).then(|| Square::new(f as u8, r as u8))
}

/// Reads one move (the text after the move number) in `pos`.
fn parse_move(
    body: &str,
    pos: &Position,
    previous_to: Option<Square>,
) -> Result<Move, KifErrorKind> {
    let bad = || KifErrorKind::BadMove(body.to_string());
    let mut rest = body;
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches([' ', '　']);
        previous_to.ok_or_else(|| KifErrorKind::IllegalMove {
            text: body.to_string(),
            reason: "同 (same square) on the first move".to_string(),
        })?
    } else {
        let mut chars = rest.chars();
        let (f, r) = (chars.next().ok_or_else(bad)?, chars.next().ok_or_else(bad)?);
        rest = chars.as_str();
        parse_square(f, r).ok_or_else(bad)?
    };
    let (kind, r) = if let Some(r) = rest.strip_prefix("成銀") {
        (PieceKind::ProSilver, r)
    } else if let Some(r) = rest.strip_prefix("成桂") {
        (PieceKind::ProKnight, r)
    } else if let Some(r) = rest.strip_prefix("成香") {
        (PieceKind::ProLance, r)
    } else {
        let mut chars = rest.chars();
        let kind = chars.next().and_then(piece_from_char).ok_or_else(bad)?;
        (kind, chars.as_str())
    };
    rest = r;
    let (promote, drop) = if let Some(r) = rest.strip_prefix("不成") {
        rest = r;
        (false, false)
    } else if let Some(r) = rest.strip_prefix('成') {
        rest = r;
        (true, false)
    } else if let Some(r) = rest.strip_prefix('打') {
        rest = r;
        (false, true)
    } else {
        (false, false)
    };
    let from = match rest.strip_prefix('(') {
        Some(r) => {
            let mut chars = r.chars();
            let (f, rk) = (chars.next().ok_or_else(bad)?, chars.next().ok_or_else(bad)?);
            if chars.next() != Some(')') {
                return Err(bad());
            }
            rest = chars.as_str();
            Some(parse_square(f, rk).ok_or_else(bad)?)
        }
        None => None,
    };
    // After the move: nothing, or the time `( 0:01/00:00:01)`, or `+` (a variation
    // follows). `５七角打成成成` is not a move.
    let tail = rest.trim_start_matches([' ', '　', '\t']);
    if !(tail.is_empty() || tail.starts_with(['(', '+'])) {
        return Err(bad());
    }
    let illegal = |reason: String| KifErrorKind::IllegalMove {
        text: body.trim_end().to_string(),
        reason,
    };
    let us = pos.side_to_move();
    let m = match from {
        Some(from) if !drop => {
            let piece = pos.piece_at(from);
            if piece != Some(Piece::new(us, kind)) {
                return Err(illegal(format!(
                    "the side to move has no {} on {}",
                    kind.japanese(),
                    notation::japanese_square(from)
                )));
            }
            Move::normal(from, to, promote)
        }
        _ => {
            if !PieceKind::HAND.contains(&kind) || promote {
                return Err(illegal(format!("{} cannot be dropped", kind.japanese())));
            }
            Move::drop(kind, to)
        }
    };
    if !pos.legal_moves().contains(m) {
        return Err(illegal(format!("{m} is not legal in {}", pos.to_sfen())));
    }
    Ok(m)
}

/// Parses a KIF record (decoded text; see [`decode`]).
pub fn parse(text: &str) -> Result<KifRecord, KifError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let err = |line: usize, kind: KifErrorKind| KifError { line, kind };
    // `lines` splits at LF only: with CR-only endings the whole file would be one line,
    // read as headers, and the start position solved instead of the problem.
    if let Some(at) = text
        .match_indices('\r')
        .map(|(i, _)| i)
        .find(|&i| !text[i + 1..].starts_with('\n'))
    {
        let line = text[..at].matches('\n').count() + 1;
        return Err(err(line, KifErrorKind::BareCarriageReturn));
    }

    let mut board: Option<[Option<Piece>; 81]> = None;
    let mut diagram: Option<(usize, usize, [Option<Piece>; 81])> = None; // (start line, ranks, squares)
    let mut board_line = 0;
    let mut row_lines = [0usize; 9];
    let mut hands = [[0u8; 7]; 2];
    let mut rest_to: Option<Color> = None;
    let mut handicap: Option<Setup> = None;
    let mut side: Option<Color> = None;
    let mut headers = Vec::new();
    let mut pos: Option<Position> = None;
    let mut first_move_number: Option<usize> = None;
    let mut moves = Vec::new();
    let mut last_line = 0;
    let mut seen_content = false;

    // Builds and validates the starting position (once, when the moves start or at the end).
    let start_position = |board: &Option<[Option<Piece>; 81]>,
                          handicap: &Option<Setup>,
                          hands: &[[u8; 7]; 2],
                          rest_to: Option<Color>,
                          side: Option<Color>,
                          board_line: usize,
                          row_lines: &[usize; 9]|
     -> Result<Position, KifError> {
        let mut setup = match (board, handicap) {
            (Some(b), _) => {
                let mut s = Setup::empty();
                s.board = *b;
                s.hands = *hands;
                s
            }
            (None, Some(h)) => h.clone(),
            (None, None) => Setup::from_sfen(STARTPOS_SFEN).expect("start position"),
        };
        if let Some(side) = side {
            setup.side_to_move = side;
        }
        if let Some(color) = rest_to {
            setup.fill_hand(color);
        }
        Position::from_setup(&setup).map_err(|e| {
            let line = match &e {
                PositionError::DeadPiece { square, .. } if board.is_some() => {
                    row_lines[square.rank() as usize]
                }
                _ => board_line.max(1),
            };
            KifError {
                line,
                kind: KifErrorKind::IllegalPosition(e),
            }
        })
    };

    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        last_line = n;
        let line = raw.trim_end_matches(['\r', ' ', '　', '\t']);
        let trimmed = line.trim_start();

        // Inside a board diagram: rows, then the closing border.
        if let Some((start, ranks, mut squares)) = diagram.take() {
            if trimmed.starts_with('+') && trimmed.trim_matches(['+', '-']).is_empty() {
                if ranks != 9 {
                    return Err(err(n, KifErrorKind::TruncatedBoard { ranks }));
                }
                board = Some(squares);
                board_line = start;
                continue;
            }
            if !trimmed.starts_with('|') {
                return Err(err(n, KifErrorKind::TruncatedBoard { ranks }));
            }
            if ranks == 9 {
                return Err(err(
                    n,
                    KifErrorKind::BadBoardRow("more than 9 ranks".to_string()),
                ));
            }
            let row =
                parse_row(trimmed, ranks + 1).map_err(|e| err(n, KifErrorKind::BadBoardRow(e)))?;
            for (col, piece) in row.into_iter().enumerate() {
                // Columns run from file 9 (left) to file 1.
                squares[Square::new(8 - col as u8, ranks as u8).index()] = piece;
            }
            row_lines[ranks] = n;
            diagram = Some((start, ranks + 1, squares));
            continue;
        }

        if trimmed.is_empty() || trimmed.starts_with(['#', '*', '&']) {
            continue;
        }
        seen_content = true;

        // The moves.
        if let Some((number, body)) = split_move_number(trimmed) {
            if pos.is_none() {
                pos = Some(start_position(
                    &board, &handicap, &hands, rest_to, side, board_line, &row_lines,
                )?);
            }
            let p = pos.as_mut().expect("just set");
            let expected = first_move_number.map_or(number, |f| f + moves.len());
            if number != expected {
                return Err(err(
                    n,
                    KifErrorKind::MoveNumber {
                        expected,
                        found: number,
                    },
                ));
            }
            first_move_number.get_or_insert(number);
            if TERMINALS.iter().any(|t| body.starts_with(t)) {
                break;
            }
            let m = parse_move(body, p, p.last_move().map(|m| m.to())).map_err(|k| err(n, k))?;
            moves.push(m);
            p.do_move(m);
            continue;
        }
        if trimmed.starts_with("まで") || trimmed.starts_with("変化") {
            break;
        }
        if pos.is_some() {
            return Err(err(n, KifErrorKind::BadMove(trimmed.to_string())));
        }
        if trimmed.starts_with(MOVES_HEADER.split('-').next().unwrap_or("手数"))
            && trimmed.contains("--")
        {
            pos = Some(start_position(
                &board, &handicap, &hands, rest_to, side, board_line, &row_lines,
            )?);
            continue;
        }
        if trimmed.starts_with('+') && trimmed.trim_matches(['+', '-']).is_empty() {
            if board.is_some() {
                return Err(err(n, KifErrorKind::DuplicateBoard));
            }
            diagram = Some((n, 0, [None; 81]));
            continue;
        }
        if trimmed.starts_with('|') {
            return Err(err(
                n,
                KifErrorKind::BadBoardRow(
                    "a diagram row outside a diagram (missing +----+ border)".to_string(),
                ),
            ));
        }
        if trimmed.starts_with('９') {
            continue; // the column numbers above the diagram
        }
        match trimmed {
            "先手番" | "下手番" => {
                side = Some(Color::Black);
                continue;
            }
            "後手番" | "上手番" => {
                side = Some(Color::White);
                continue;
            }
            _ => {}
        }
        let Some((key, value)) = trimmed.split_once('：') else {
            return Err(err(n, KifErrorKind::UnknownLine(trimmed.to_string())));
        };
        let color = match key {
            "先手の持駒" | "下手の持駒" => Some(Color::Black),
            "後手の持駒" | "上手の持駒" => Some(Color::White),
            _ => None,
        };
        if let Some(color) = color {
            match parse_hand(value).map_err(|e| err(n, KifErrorKind::BadHand(e)))? {
                Some(h) => hands[color.index()] = h,
                None => rest_to = Some(color),
            }
        } else if key == "手合割" {
            let value = value.trim();
            match HANDICAPS.iter().find(|(name, _)| *name == value) {
                Some((_, sfen)) => handicap = Some(Setup::from_sfen(sfen).expect("handicap SFEN")),
                // With a diagram, the diagram says it all.
                None if value == "その他" || board.is_some() => {}
                None => return Err(err(n, KifErrorKind::UnknownHandicap(value.to_string()))),
            }
        } else {
            headers.push((key.to_string(), value.trim().to_string()));
        }
    }

    if let Some((_, ranks, _)) = diagram {
        return Err(err(
            last_line.max(1),
            KifErrorKind::TruncatedBoard { ranks },
        ));
    }
    if !seen_content {
        return Err(err(last_line.max(1), KifErrorKind::Empty));
    }
    if board.is_none() && handicap.is_none() && pos.is_none() {
        // Only header lines: a record is a diagram, a 手合割 or a game's moves.
        return Err(err(last_line.max(1), KifErrorKind::NoPosition));
    }
    let pos = match pos {
        Some(p) => p,
        None => start_position(
            &board, &handicap, &hands, rest_to, side, board_line, &row_lines,
        )?,
    };
    let mut start = pos;
    for _ in 0..moves.len() {
        start.undo_move();
    }
    Ok(KifRecord {
        setup: start.to_setup(),
        moves,
        headers,
    })
}

/// Reads only the starting position of a KIF record.
pub fn parse_setup(text: &str) -> Result<Setup, KifError> {
    parse(text).map(|r| r.setup)
}

/// One record of a file holding several (see [`split_records`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordText<'a> {
    /// The 1-based line of the file where the record starts.
    pub first_line: usize,
    /// The record's lines, with the comment lines written just before its header.
    pub text: &'a str,
}

/// Splits a file of several KIF records, as `tsume generate` writes `problems.kif`: each
/// `#KIF` header line starts a record, together with the comment lines right before it (a
/// writer's note about the record, such as the generator's `# problem <id> …`); anything
/// before the first header belongs to the first record. A text with at most one `#KIF`
/// line is one record. A UTF-8 byte-order mark is removed.
pub fn split_records(text: &str) -> Vec<RecordText<'_>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // (byte offset, 1-based number) of each line.
    let mut starts = Vec::new();
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        starts.push((offset, i + 1, line));
        offset += line.len();
    }
    let is_comment = |line: &str| line.trim_start().starts_with('#') && !is_header(line);
    let mut cuts = vec![(0, 1)];
    for (k, &(_, _, line)) in starts.iter().enumerate() {
        if !is_header(line) {
            continue;
        }
        // Back over the comment lines just before the header.
        let mut first = k;
        while first > 0 && is_comment(starts[first - 1].2) {
            first -= 1;
        }
        let (at, number, _) = starts[first];
        if at > cuts.last().expect("not empty").0 {
            cuts.push((at, number));
        }
    }
    cuts.iter()
        .enumerate()
        .map(|(i, &(at, first_line))| RecordText {
            first_line,
            text: &text[at..cuts.get(i + 1).map_or(text.len(), |c| c.0)],
        })
        .collect()
}

/// A `#KIF version=… encoding=…` header line.
fn is_header(line: &str) -> bool {
    line.trim_start().starts_with("#KIF")
}

/// Parses every record of a file of several (see [`split_records`]); the line numbers of
/// the errors are the file's.
pub fn parse_records(text: &str) -> Vec<(RecordText<'_>, Result<KifRecord, KifError>)> {
    split_records(text)
        .into_iter()
        .map(|r| {
            let parsed = parse(r.text).map_err(|e| KifError {
                line: e.line + r.first_line - 1,
                kind: e.kind,
            });
            (r, parsed)
        })
        .collect()
}

/// How a written record ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// No terminal line.
    None,
    /// The last move mates: a `詰み` line and `まで N 手で詰み`.
    Mate,
    /// No mate exists: a `不詰` line.
    NoMate,
    /// The search was given up: a `中断` line.
    Interrupt,
}

fn hand_line(counts: &[u8; 7]) -> String {
    let items: Vec<String> = PieceKind::HAND_SFEN_ORDER
        .iter()
        .filter(|k| counts[k.index()] > 0)
        .map(|k| {
            let n = counts[k.index()] as u32;
            if n == 1 {
                k.japanese().to_string()
            } else {
                format!("{}{}", k.japanese(), kanji_count(n))
            }
        })
        .collect();
    if items.is_empty() {
        "なし".to_string()
    } else {
        items.join("　")
    }
}

/// The header of a record: `手合割：平手` for the start position, otherwise the hands, the
/// board diagram and `後手番` when White moves first. The move number is not written.
pub fn write_position(setup: &Setup) -> String {
    let mut out = String::new();
    let start = Setup::from_sfen(STARTPOS_SFEN).expect("start position");
    if setup.board == start.board
        && setup.hands == start.hands
        && setup.side_to_move == start.side_to_move
    {
        out += "手合割：平手\n";
        return out;
    }
    out += &format!("後手の持駒：{}\n", hand_line(&setup.hands[1]));
    out += COLUMNS;
    out += "\n";
    out += BORDER;
    out += "\n";
    for rank in 0..9u8 {
        out.push('|');
        for file in (0..9u8).rev() {
            match setup.piece_at(Square::new(file, rank)) {
                None => out += " ・",
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(diagram_char(p.kind));
                }
            }
        }
        out.push('|');
        out.push(KANJI_DIGITS[rank as usize]);
        out.push('\n');
    }
    out += BORDER;
    out += "\n";
    out += &format!("先手の持駒：{}\n", hand_line(&setup.hands[0]));
    if setup.side_to_move == Color::White {
        out += "後手番\n";
    }
    out
}

/// A complete KIF record (UTF-8 text) of `moves` played from `pos`. The moves must be legal
/// in turn (as a solver's line is).
pub fn write(pos: &Position, moves: &[Move], ending: Ending) -> String {
    let mut out = String::new();
    out += WRITE_HEADER;
    out += "\n";
    out += &format!(
        "# ---- tsume {} ----\n",
        option_env!("CARGO_PKG_VERSION").unwrap_or("")
    );
    out += &write_position(&pos.to_setup());
    out += MOVES_HEADER;
    out += "\n";
    let mut p = pos.clone();
    let mut prev = None;
    for (i, &m) in moves.iter().enumerate() {
        out += &format!("{:>4} {}\n", i + 1, notation::kif_move(&p, m, prev));
        prev = Some(m.to());
        p.do_move(m);
    }
    match ending {
        Ending::None => {}
        Ending::Mate => {
            out += &format!("{:>4} 詰み\n", moves.len() + 1);
            out += &format!("まで{}手で詰み\n", moves.len());
        }
        Ending::NoMate => out += &format!("{:>4} 不詰\n", moves.len() + 1),
        Ending::Interrupt => {
            out += &format!("{:>4} 中断\n", moves.len() + 1);
            out += &format!("まで{}手で中断\n", moves.len());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSUME: &str = "\
# a three-move problem
後手の持駒：飛　角二　金四　銀三　桂三　香四　歩十七
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ 銀 ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・v玉|二
| ・ ・ ・ ・ ・ ・ ・ 歩 ・|三
| ・ ・ ・ ・ ・ ・ ・ ・v桂|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：飛
手数----指手---------消費時間--
   1 ２二歩成(23)   ( 0:00/00:00:00)
   2 １三玉(12)   ( 0:00/00:00:00)
   3 ２三飛打
   4 詰み
まで3手で詰み
";

    #[test]
    fn reads_a_tsume_record() {
        let r = parse(TSUME).unwrap();
        assert_eq!(
            r.setup.to_string(),
            "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1"
        );
        let usi: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(usi, ["2c2b+", "1b1c", "R*2c"]);
    }

    #[test]
    fn write_then_read() {
        let pos = Position::from_sfen("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1").unwrap();
        let r = parse(TSUME).unwrap();
        let text = write(&pos, &r.moves, Ending::Mate);
        assert!(text.contains("   1 ２二歩成(23)\n"), "{text}");
        assert!(text.contains("   4 詰み\nまで3手で詰み\n"), "{text}");
        assert_eq!(
            parse(&text).unwrap(),
            KifRecord {
                headers: vec![],
                ..r
            }
        );
        let start = Position::startpos();
        let text = write(&start, &[], Ending::None);
        assert!(text.contains("手合割：平手"));
        assert_eq!(parse(&text).unwrap().setup, start.to_setup());
    }

    #[test]
    fn several_records_in_one_file() {
        let pos = Position::from_sfen("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1").unwrap();
        let moves = parse(TSUME).unwrap().moves;
        let record = write(&pos, &moves, Ending::Mate);
        let header_lines = record.lines().count();
        // As the generator writes a pack's problems.kif: a comment, the record, a blank line.
        let mut text = "\u{feff}".to_string();
        for (i, body) in [
            record.as_str(),
            &record.replace("２三飛打", "２三角打"),
            &record,
        ]
        .iter()
        .enumerate()
        {
            text += &format!("# problem p{i} (3 plies)\n{body}\n");
        }
        let records = parse_records(&text);
        assert_eq!(records.len(), 3);
        let step = header_lines + 2;
        for (i, (r, _)) in records.iter().enumerate() {
            assert_eq!(r.first_line, 1 + i * step);
            assert!(
                r.text.starts_with(&format!("# problem p{i} ")),
                "{}",
                r.text
            );
        }
        assert_eq!(records[0].1.as_ref().unwrap().moves, moves);
        assert_eq!(records[2].1.as_ref().unwrap().moves, moves);
        // The second record's bad third move is reported at its line in the file.
        let e = records[1].1.as_ref().unwrap_err();
        let third = text
            .lines()
            .position(|l| l.contains("２三角打"))
            .expect("the bad move")
            + 1;
        assert_eq!(e.line, third, "{e}");
        // One record (no `#KIF` line, or one) is the whole text.
        assert_eq!(split_records(TSUME).len(), 1);
        assert_eq!(split_records(&record).len(), 1);
        assert_eq!(split_records(&record)[0].text, record);
    }

    #[test]
    fn counts_and_rest_of_pieces() {
        for n in 1..=99 {
            assert_eq!(parse_count(&kanji_count(n)), Some(n), "{n}");
        }
        assert_eq!(parse_count("17"), Some(17));
        assert_eq!(parse_count("１８"), Some(18));
        assert_eq!(parse_count("十十"), None);
        let text = TSUME.replace(
            "後手の持駒：飛　角二　金四　銀三　桂三　香四　歩十七",
            "後手の持駒：残り全部",
        );
        assert_eq!(parse(&text).unwrap().setup, parse(TSUME).unwrap().setup);
    }

    #[test]
    fn errors_carry_line_numbers() {
        let lines: Vec<&str> = TSUME.lines().collect();
        // Truncated inside the diagram.
        let cut = lines[..8].join("\n");
        let e = parse(&cut).unwrap_err();
        assert_eq!(e.line, 8);
        assert_eq!(e.kind, KifErrorKind::TruncatedBoard { ranks: 4 });
        // An unknown piece.
        let bad = TSUME.replace("|二", "|X").replace("v玉", "v猫");
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, 6);
        assert!(matches!(e.kind, KifErrorKind::BadBoardRow(_)), "{e}");
        // Two kings of one side.
        let bad = TSUME.replace(
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五",
            "| ・ ・ ・ ・v玉 ・ ・ ・ ・|五",
        );
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(matches!(
            e.kind,
            KifErrorKind::IllegalPosition(PositionError::TwoKings { .. })
        ));
        // A dead piece names its rank's line.
        let bad = TSUME
            .replace(
                "| ・ ・ ・ ・ ・ ・ 銀 ・ ・|一",
                "| ・ ・ ・ ・ ・ ・ 香 ・ ・|一",
            )
            .replace("香四", "香三");
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, 5, "{e}");
        // An illegal move.
        let bad = TSUME.replace("   3 ２三飛打", "   3 ２三角打");
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, 19);
        assert!(matches!(e.kind, KifErrorKind::IllegalMove { .. }), "{e}");
        // A hole in the move numbers.
        let bad = TSUME.replace("   3 ２三飛打", "   5 ２三飛打");
        assert_eq!(
            parse(&bad).unwrap_err().kind,
            KifErrorKind::MoveNumber {
                expected: 3,
                found: 5
            }
        );
        assert_eq!(
            parse("# only a comment\n").unwrap_err().kind,
            KifErrorKind::Empty
        );
    }

    #[test]
    fn a_record_cut_off_before_its_diagram_is_not_the_start_position() {
        let lines: Vec<&str> = TSUME.lines().collect();
        let e = parse(&(lines[..3].join("\n") + "\n")).unwrap_err();
        assert_eq!((e.line, e.kind), (3, KifErrorKind::NoPosition));
        // A game's moves or a 手合割 without a diagram are still the start position.
        let game = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
        assert_eq!(parse(game).unwrap().moves.len(), 1);
        let game = "手数----指手---------消費時間--\n   1 ７六歩(77)\n";
        assert_eq!(parse(game).unwrap().moves.len(), 1);
    }

    #[test]
    fn cr_only_line_endings_are_refused() {
        let e = parse(&TSUME.replace('\n', "\r")).unwrap_err();
        assert_eq!((e.line, e.kind), (1, KifErrorKind::BareCarriageReturn));
        // CRLF is fine.
        assert_eq!(
            parse(&TSUME.replace('\n', "\r\n")).unwrap(),
            parse(TSUME).unwrap()
        );
    }

    #[test]
    fn text_after_a_move_is_refused() {
        for bad in [
            "２三飛打成成成",
            "２三飛打成",
            "２三飛打x",
            "２二歩成(23)成",
        ] {
            let text = TSUME
                .replace("   3 ２三飛打", &format!("   3 {bad}"))
                .replace(
                    "   1 ２二歩成(23)   ( 0:00/00:00:00)",
                    &format!(
                        "   1 {}",
                        if bad.contains("(23)") {
                            bad
                        } else {
                            "２二歩成(23)"
                        }
                    ),
                );
            let e = parse(&text).unwrap_err();
            assert!(matches!(e.kind, KifErrorKind::BadMove(_)), "{bad}: {e}");
        }
        // A time or a variation mark after the move is fine.
        let text = TSUME.replace("   3 ２三飛打", "   3 ２三飛打   ( 0:01/00:00:01)+");
        assert_eq!(parse(&text).unwrap().moves.len(), 3);
    }

    #[test]
    fn decoding() {
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("先手の持駒：飛\n");
        assert_eq!(decode(&sjis, Encoding::Auto).unwrap(), "先手の持駒：飛\n");
        assert_eq!(
            decode(&sjis, Encoding::ShiftJis).unwrap(),
            "先手の持駒：飛\n"
        );
        let mut bytes = b"# ok\n# ok\n".to_vec();
        bytes.extend_from_slice(&sjis);
        let e = decode(&bytes, Encoding::Utf8).unwrap_err();
        assert_eq!(e.line, 3);
        let e = decode(b"ok\n\x81\n", Encoding::ShiftJis).unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(
            decode("\u{feff}後手番".as_bytes(), Encoding::Auto).unwrap(),
            "後手番"
        );
    }
}
