//! CSA records (CSA standard file format, V2.2): `P1`…`P9` board rows or `PI`, piece
//! placements `P+00KI` (a hand) and `P+55KA` (a square), `P-00AL` (that side holds every
//! remaining piece, as tsume files write the defender's hand), the side to move (`+`/`-`)
//! and the moves (`+7776FU`, `-0055KA`). The side-to-move line is required, as the standard
//! says (V2.2 and V3.0: the starting position includes the side to move, and only the
//! record information, the moves and the comments may be left out): a file without it is
//! refused ([`CsaErrorKind::MissingSide`]), not read with a side guessed.
//!
//! [`parse`] returns the starting position as a validated [`Setup`] with the moves of the
//! first game in the file (up to a `%` special move or `/`); every error carries the 1-based
//! line number. [`write()`] produces V2.2 text with the board as `P1`…`P9` rows,
//! [`write_with_headers`] with record information (`N+`, `$TITLE:` …) too, which
//! [`headers_from_kif`] and [`headers_to_kif`] translate from and to KIF headers.

use std::fmt;

use crate::color::Color;
use crate::kif::Ending;
use crate::moves::Move;
use crate::piece::{Piece, PieceKind};
use crate::position::{Position, PositionError};
use crate::setup::{Setup, STARTPOS_SFEN};
use crate::square::Square;

/// A CSA record: the starting position and the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsaRecord {
    /// The starting position (validated: [`Position::from_setup`] accepts it).
    pub setup: Setup,
    /// Legal moves from `setup`, up to the first special move (`%TORYO`, `%TSUMI` …).
    pub moves: Vec<Move>,
    /// `V`, `N+`, `N-` and `$` lines, in file order, as (key, value): `("V", "2.2")`,
    /// `("N+", name)`, `("EVENT", …)`.
    pub headers: Vec<(String, String)>,
}

/// Why a CSA text could not be read; `line` is 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsaError {
    /// The line at fault (for a missing part, the line where that was noticed: the
    /// side-to-move line, or the last line).
    pub line: usize,
    /// What is wrong.
    pub kind: CsaErrorKind,
}

/// What is wrong with a CSA text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CsaErrorKind {
    /// No position statement: nothing but blank lines, comments and record information.
    Empty,
    /// Some of the `P1`…`P9` rows are missing.
    TruncatedBoard {
        /// The numbers of the missing rows (1 to 9).
        missing: Vec<usize>,
    },
    /// The position is not closed by a side-to-move line (`+` or `-` alone), which the CSA
    /// standard requires (V2.2 and V3.0: the starting position includes the side to move
    /// and cannot be left out).
    MissingSide {
        /// What comes where the line should be (a move, `%…`, `T…`, `/`), or `None` when
        /// the text ends first.
        found: Option<String>,
    },
    /// A `Pn` row that cannot be read.
    BadBoardRow(String),
    /// A `P+`/`P-`/`PI` placement that cannot be read or applied.
    BadPlacement(String),
    /// A line that is not part of the CSA format.
    UnknownLine(String),
    /// A move, `%…` or `/` before any position statement (`P1`…`P9`, `PI`, `P+`, `P-`).
    BeforePosition(String),
    /// A carriage return not followed by a line feed (classic Mac OS line endings): the
    /// lines cannot be told apart.
    BareCarriageReturn,
    /// A move that cannot be read.
    BadMove(String),
    /// A move that is not legal in the position reached.
    IllegalMove {
        /// The move as written.
        text: String,
        /// Why it is not legal there.
        reason: String,
    },
    /// The position is not legal.
    IllegalPosition(PositionError),
}

impl fmt::Display for CsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CsaErrorKind::*;
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            Empty => write!(f, "no position found (no P1…P9 or PI lines)"),
            TruncatedBoard { missing } => write!(
                f,
                "the board is truncated: rows {} are missing",
                missing
                    .iter()
                    .map(|r| format!("P{r}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            MissingSide { found } => {
                write!(
                    f,
                    "no side-to-move line: the CSA standard requires a line of only '+' \
                     (Black to move) or '-' (White to move) after the position, and "
                )?;
                match found {
                    Some(found) => write!(f, "\"{found}\" comes first"),
                    None => write!(f, "the file ends first (is it truncated?)"),
                }
            }
            BadBoardRow(s) => write!(f, "bad board row: {s}"),
            BadPlacement(s) => write!(f, "bad piece placement: {s}"),
            UnknownLine(s) => write!(f, "not a CSA line: \"{s}\""),
            BeforePosition(s) => write!(
                f,
                "\"{s}\" comes before the position: a CSA record gives its position (P1…P9 or \
                 PI, the hands, then '+' or '-') before its moves"
            ),
            BareCarriageReturn => f.write_str(super::BARE_CARRIAGE_RETURN),
            BadMove(s) => write!(f, "unreadable move: \"{s}\""),
            IllegalMove { text, reason } => write!(f, "illegal move \"{text}\": {reason}"),
            IllegalPosition(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for CsaError {}

/// The CSA code of a piece kind (`FU`, `RY` …).
pub fn piece_code(kind: PieceKind) -> &'static str {
    use PieceKind::*;
    match kind {
        Pawn => "FU",
        Lance => "KY",
        Knight => "KE",
        Silver => "GI",
        Gold => "KI",
        Bishop => "KA",
        Rook => "HI",
        King => "OU",
        ProPawn => "TO",
        ProLance => "NY",
        ProKnight => "NK",
        ProSilver => "NG",
        Horse => "UM",
        Dragon => "RY",
    }
}

fn kind_from_code(code: &str) -> Option<PieceKind> {
    PieceKind::ALL.into_iter().find(|&k| piece_code(k) == code)
}

/// A CSA square: two digits, file then rank (`77`); `00` is a hand.
fn parse_square(s: &str) -> Option<Option<Square>> {
    let b = s.as_bytes();
    if b.len() != 2 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let (f, r) = (b[0] - b'0', b[1] - b'0');
    match (f, r) {
        (0, 0) => Some(None),
        (1..=9, 1..=9) => Some(Some(Square::new(f - 1, r - 1))),
        _ => None,
    }
}

fn square_code(sq: Square) -> String {
    format!("{}{}", sq.file() + 1, sq.rank() + 1)
}

/// What the position statements have built so far.
struct Builder {
    setup: Setup,
    rows: [usize; 9],
    rest_to: Option<Color>,
}

impl Builder {
    fn row(&mut self, rank: usize, cells: &str, line: usize) -> Result<(), CsaErrorKind> {
        let bad = |s: String| CsaErrorKind::BadBoardRow(s);
        if !cells.is_ascii() {
            return Err(bad(format!("P{rank} has non-ASCII characters")));
        }
        match self.rows[rank - 1] {
            0 => {}
            usize::MAX => return Err(bad(format!("P{rank} after PI"))),
            first => return Err(bad(format!("P{rank} given twice (first on line {first})"))),
        }
        // Trailing blanks of the last square are often trimmed.
        let cells = format!("{cells:<27}");
        if cells.len() != 27 {
            return Err(bad(format!(
                "P{rank} has {} characters instead of 9 squares of 3",
                cells.len()
            )));
        }
        for col in 0..9 {
            let cell = &cells[col * 3..col * 3 + 3];
            let sq = Square::new(8 - col as u8, rank as u8 - 1);
            if cell.trim() == "*" || cell.trim().is_empty() {
                self.setup.board[sq.index()] = None;
                continue;
            }
            let color = match &cell[..1] {
                "+" => Color::Black,
                "-" => Color::White,
                _ => {
                    return Err(bad(format!(
                        "P{rank}, square {}: \"{cell}\" is neither ' * ' nor +XX/-XX",
                        col + 1
                    )))
                }
            };
            let kind = kind_from_code(&cell[1..]).ok_or_else(|| {
                bad(format!(
                    "P{rank}, square {}: unknown piece \"{}\"",
                    col + 1,
                    &cell[1..]
                ))
            })?;
            self.setup.board[sq.index()] = Some(Piece::new(color, kind));
        }
        self.rows[rank - 1] = line;
        Ok(())
    }

    fn place(&mut self, color: Color, body: &str) -> Result<(), CsaErrorKind> {
        let bad = |s: String| CsaErrorKind::BadPlacement(s);
        if !body.is_ascii() || body.is_empty() || !body.len().is_multiple_of(4) {
            return Err(bad(format!(
                "\"{body}\" is not a list of 4-character placements (00FU, 55KA, 00AL)"
            )));
        }
        for i in (0..body.len()).step_by(4) {
            let item = &body[i..i + 4];
            let sq =
                parse_square(&item[..2]).ok_or_else(|| bad(format!("bad square in \"{item}\"")))?;
            if sq.is_none() && &item[2..] == "AL" {
                self.rest_to = Some(color);
                continue;
            }
            let kind = kind_from_code(&item[2..])
                .ok_or_else(|| bad(format!("unknown piece in \"{item}\"")))?;
            match sq {
                None => {
                    if !PieceKind::HAND.contains(&kind) {
                        return Err(bad(format!(
                            "\"{item}\": only unpromoted pieces other than the king go in hand"
                        )));
                    }
                    let slot = &mut self.setup.hands[color.index()][kind.index()];
                    *slot = slot.saturating_add(1);
                }
                Some(sq) => {
                    if self.setup.board[sq.index()].is_some() {
                        return Err(bad(format!(
                            "\"{item}\": square {} is already taken",
                            &item[..2]
                        )));
                    }
                    self.setup.board[sq.index()] = Some(Piece::new(color, kind));
                }
            }
        }
        Ok(())
    }

    /// A `P` statement: `PI…`, `P+…`/`P-…` placements, or a `P1`…`P9` row (on line `line`).
    fn statement(&mut self, stmt: &str, line: usize) -> Result<(), CsaErrorKind> {
        let rest = &stmt[1..];
        if let Some(body) = rest.strip_prefix('I') {
            self.initial(body)
        } else if let Some(body) = rest.strip_prefix('+') {
            self.place(Color::Black, body)
        } else if let Some(body) = rest.strip_prefix('-') {
            self.place(Color::White, body)
        } else if let Some(d) = rest.chars().next().and_then(|c| c.to_digit(10)) {
            if (1..=9).contains(&d) {
                self.row(d as usize, &rest[1..], line)
            } else {
                Err(CsaErrorKind::BadBoardRow(format!("no rank P{d}")))
            }
        } else {
            Err(CsaErrorKind::UnknownLine(stmt.to_string()))
        }
    }

    /// The side-to-move line (`+` or `-`, on line `n`) closes the position: the validated
    /// starting position.
    fn finish(&mut self, n: usize, side: char) -> Result<Position, CsaError> {
        let missing: Vec<usize> = (1..=9).filter(|&r| self.rows[r - 1] == 0).collect();
        if !missing.is_empty() && missing.len() < 9 {
            return Err(err(n, CsaErrorKind::TruncatedBoard { missing }));
        }
        self.setup.side_to_move = if side == '+' {
            Color::Black
        } else {
            Color::White
        };
        if let Some(color) = self.rest_to {
            self.setup.fill_hand(color);
        }
        Position::from_setup(&self.setup).map_err(|e| {
            let line = match &e {
                PositionError::DeadPiece { square, .. }
                    if self.rows[square.rank() as usize] != usize::MAX
                        && self.rows[square.rank() as usize] != 0 =>
                {
                    self.rows[square.rank() as usize]
                }
                _ => n,
            };
            err(line, CsaErrorKind::IllegalPosition(e))
        })
    }

    /// `PI` and its optional removals (`PI82HI22KA`: the handicap pieces taken off).
    fn initial(&mut self, body: &str) -> Result<(), CsaErrorKind> {
        let bad = |s: String| CsaErrorKind::BadPlacement(s);
        self.setup = Setup::from_sfen(STARTPOS_SFEN).expect("start position");
        self.rows = [usize::MAX; 9];
        if !body.is_ascii() || !body.len().is_multiple_of(4) {
            return Err(bad(format!(
                "PI{body}: removals are 4 characters each (82HI)"
            )));
        }
        for i in (0..body.len()).step_by(4) {
            let item = &body[i..i + 4];
            let sq = parse_square(&item[..2]).flatten();
            let kind = kind_from_code(&item[2..]);
            match (sq, kind) {
                (Some(sq), Some(kind))
                    if self.setup.board[sq.index()].map(|p| p.kind) == Some(kind) =>
                {
                    self.setup.board[sq.index()] = None;
                }
                _ => return Err(bad(format!("PI: no \"{item}\" to remove"))),
            }
        }
        Ok(())
    }
}

fn parse_move(s: &str, pos: &Position) -> Result<Move, CsaErrorKind> {
    let bad = || CsaErrorKind::BadMove(s.to_string());
    if s.len() != 7 || !s.is_ascii() {
        return Err(bad());
    }
    let color = if s.starts_with('+') {
        Color::Black
    } else {
        Color::White
    };
    let from = parse_square(&s[1..3]).ok_or_else(bad)?;
    let to = parse_square(&s[3..5]).ok_or_else(bad)?.ok_or_else(bad)?;
    let kind = kind_from_code(&s[5..7]).ok_or_else(bad)?;
    let illegal = |reason: String| CsaErrorKind::IllegalMove {
        text: s.to_string(),
        reason,
    };
    if color != pos.side_to_move() {
        return Err(illegal(format!(
            "it is {}'s turn",
            if pos.side_to_move() == Color::Black {
                "Black (+)"
            } else {
                "White (-)"
            }
        )));
    }
    let m = match from {
        None => {
            if !PieceKind::HAND.contains(&kind) {
                return Err(illegal(format!("{} cannot be dropped", &s[5..7])));
            }
            Move::drop(kind, to)
        }
        Some(from) => {
            let Some(piece) = pos.piece_at(from).filter(|p| p.color == color) else {
                return Err(illegal(format!("no piece of the mover on {}", &s[1..3])));
            };
            let promote = if piece.kind == kind {
                false
            } else if piece.kind.can_promote() && piece.kind.promote() == kind {
                true
            } else {
                return Err(illegal(format!(
                    "the piece on {} is {}, not {}",
                    &s[1..3],
                    piece_code(piece.kind),
                    &s[5..7]
                )));
            };
            Move::normal(from, to, promote)
        }
    };
    if !pos.legal_moves().contains(m) {
        return Err(illegal(format!("{m} is not legal in {}", pos.to_sfen())));
    }
    Ok(m)
}

/// Parses a CSA record (decoded text; see [`crate::kif::decode`]). Only the first game of a
/// multi-game file (games separated by `/`) is read.
pub fn parse(text: &str) -> Result<CsaRecord, CsaError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some(line) = super::bare_carriage_return(text) {
        return Err(err(line, CsaErrorKind::BareCarriageReturn));
    }
    let mut reader = Reader {
        b: Builder {
            setup: Setup::empty(),
            rows: [0; 9],
            rest_to: None,
        },
        headers: Vec::new(),
        pos: None,
        moves: Vec::new(),
        position_begun: false,
    };
    let mut last_line = 0;
    'lines: for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        last_line = n;
        let line = raw.trim_end_matches('\r');
        if line.starts_with('\'') {
            continue; // a comment: commas in it are not separators
        }
        // Nor in a name or a `$` line (`$EVENT:第1回, 予選`): text, not statements.
        let is_text = line.starts_with('$') || line.starts_with("N+") || line.starts_with("N-");
        let statements = if is_text {
            vec![line]
        } else {
            line.split(',').collect()
        };
        for stmt in statements {
            if reader.statement(n, stmt)? == Flow::Stop {
                break 'lines;
            }
        }
    }
    reader.finish(last_line)
}

fn err(line: usize, kind: CsaErrorKind) -> CsaError {
    CsaError { line, kind }
}

/// Whether the game goes on after a statement.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Next,
    /// The first game ended (`%…` after the position, or `/`).
    Stop,
}

/// What a record has said so far, statement by statement.
struct Reader {
    /// The position statements, until the side-to-move line closes them.
    b: Builder,
    headers: Vec<(String, String)>,
    /// The position reached, from the side-to-move line on.
    pos: Option<Position>,
    moves: Vec<Move>,
    /// Whether a position statement (`P…`) was read.
    position_begun: bool,
}

impl Reader {
    /// One statement of line `n` (a line may hold several, separated by commas).
    fn statement(&mut self, n: usize, stmt: &str) -> Result<Flow, CsaError> {
        // Board rows keep their blanks; other statements are trimmed.
        let is_row =
            stmt.len() >= 2 && stmt.starts_with('P') && stmt.as_bytes()[1].is_ascii_digit();
        let stmt = if is_row { stmt.trim_end() } else { stmt.trim() };
        if stmt.is_empty() {
            return Ok(Flow::Next);
        }
        let first = stmt.chars().next().expect("non-empty");
        match first {
            'V' => self.headers.push(("V".to_string(), stmt[1..].to_string())),
            'N' if stmt.starts_with("N+") || stmt.starts_with("N-") => self
                .headers
                .push((stmt[..2].to_string(), stmt[2..].to_string())),
            '$' => {
                let (k, v) = stmt[1..].split_once(':').unwrap_or((&stmt[1..], ""));
                self.headers.push((k.to_string(), v.to_string()));
            }
            'P' if self.pos.is_none() => {
                self.position_begun = true;
                self.b.statement(stmt, n).map_err(|k| err(n, k))?
            }
            // Time lines follow moves only: before the position, `T…` is no CSA line.
            'T' if !self.position_begun => {
                return Err(err(n, CsaErrorKind::UnknownLine(stmt.to_string())))
            }
            '+' | '-' | '%' | '/' if !self.position_begun => {
                return Err(err(n, CsaErrorKind::BeforePosition(stmt.to_string())))
            }
            '+' | '-' if stmt.len() == 1 && self.pos.is_none() => {
                self.pos = Some(self.b.finish(n, first)?);
            }
            // What follows the position, before the line that closes it.
            '+' | '-' | 'T' | '%' | '/' if self.pos.is_none() => {
                return Err(err(
                    n,
                    CsaErrorKind::MissingSide {
                        found: Some(stmt.to_string()),
                    },
                ))
            }
            'T' => {}
            '%' | '/' => return Ok(Flow::Stop),
            '+' | '-' => {
                let p = self.pos.as_mut().expect("checked above");
                let m = parse_move(stmt, p).map_err(|k| err(n, k))?;
                self.moves.push(m);
                p.do_move(m);
            }
            _ => return Err(err(n, CsaErrorKind::UnknownLine(stmt.to_string()))),
        }
        Ok(Flow::Next)
    }

    /// The record, once the text has been read up to `last_line`.
    fn finish(self, last_line: usize) -> Result<CsaRecord, CsaError> {
        let Some(mut start) = self.pos else {
            let kind = if self.position_begun {
                CsaErrorKind::MissingSide { found: None }
            } else {
                CsaErrorKind::Empty
            };
            return Err(err(last_line.max(1), kind));
        };
        for _ in 0..self.moves.len() {
            start.undo_move();
        }
        Ok(CsaRecord {
            setup: start.to_setup(),
            moves: self.moves,
            headers: self.headers,
        })
    }
}

/// KIF header keys with a CSA counterpart: the players (`N+`, `N-`), the V2.2 standard's
/// `$EVENT`, `$SITE` and `$OPENING`, V3.0's `$NOTE`, and `$TITLE` for the title (a
/// keyword of the standard's "`$(keyword):(data)`" kind, not one it defines), and the
/// standard's `$START_TIME` and `$END_TIME` for 開始日時 and 終了日時 (both
/// `YYYY/MM/DD HH:MM:SS`). For the players, the first key of a side is the one read from
/// CSA.
const KIF_CSA_KEYS: [(&str, &str); 11] = [
    ("先手", "N+"),
    ("後手", "N-"),
    ("下手", "N+"),
    ("上手", "N-"),
    ("棋戦", "EVENT"),
    ("場所", "SITE"),
    ("戦型", "OPENING"),
    ("備考", "NOTE"),
    ("表題", "TITLE"),
    ("開始日時", "START_TIME"),
    ("終了日時", "END_TIME"),
];

/// A KIF record's headers ([`crate::kif::KifRecord::headers`]) as CSA record information
/// (as [`CsaRecord::headers`] holds it, for [`write_with_headers`]): the keys with a CSA
/// counterpart are renamed (`先手` → `N+`, `表題` → `TITLE`, `棋戦` → `EVENT` …), any other
/// is kept as it is (`作者` → `$作者:…`, a keyword of the standard's `$(keyword):(data)`
/// kind).
pub fn headers_from_kif(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(key, value)| {
            let csa = KIF_CSA_KEYS
                .iter()
                .find(|(kif, _)| kif == key)
                .map_or(key.as_str(), |(_, csa)| csa);
            (csa.to_string(), value.clone())
        })
        .collect()
}

/// CSA record information ([`CsaRecord::headers`]) as KIF headers, the other way round from
/// [`headers_from_kif`]; the version (`V`) is left out.
pub fn headers_to_kif(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .filter(|(key, _)| key != "V")
        .map(|(key, value)| {
            let kif = KIF_CSA_KEYS
                .iter()
                .find(|(_, csa)| csa == key)
                .map_or(key.as_str(), |(kif, _)| kif);
            (kif.to_string(), value.clone())
        })
        .collect()
}

/// Reads only the starting position of a CSA record.
pub fn parse_setup(text: &str) -> Result<Setup, CsaError> {
    parse(text).map(|r| r.setup)
}

/// The position part of a record: `P1`…`P9`, `P+`/`P-` hand lines, and the side to move.
pub fn write_position(setup: &Setup) -> String {
    let mut out = String::new();
    for rank in 0..9u8 {
        out += &format!("P{}", rank + 1);
        for file in (0..9u8).rev() {
            match setup.piece_at(Square::new(file, rank)) {
                None => out += " * ",
                Some(p) => {
                    out.push(if p.color == Color::Black { '+' } else { '-' });
                    out += piece_code(p.kind);
                }
            }
        }
        out.push('\n');
    }
    for color in Color::ALL {
        let mut line = String::new();
        for kind in PieceKind::HAND_SFEN_ORDER {
            for _ in 0..setup.hands[color.index()][kind.index()] {
                line += "00";
                line += piece_code(kind);
            }
        }
        if !line.is_empty() {
            out += if color == Color::Black { "P+" } else { "P-" };
            out += &line;
            out.push('\n');
        }
    }
    out += if setup.side_to_move == Color::Black {
        "+\n"
    } else {
        "-\n"
    };
    out
}

/// The CSA text of one move in `pos` (`+2322TO`, `-0055KA`).
pub fn move_text(pos: &Position, m: Move) -> String {
    let sign = if pos.side_to_move() == Color::Black {
        '+'
    } else {
        '-'
    };
    match m.from() {
        None => format!(
            "{sign}00{}{}",
            square_code(m.to()),
            piece_code(m.drop_kind().expect("a drop"))
        ),
        Some(from) => format!(
            "{sign}{}{}{}",
            square_code(from),
            square_code(m.to()),
            piece_code(pos.moved_kind_after(m))
        ),
    }
}

/// A complete V2.2 record of `moves` played from `pos`. The moves must be legal in turn.
pub fn write(pos: &Position, moves: &[Move], ending: Ending) -> String {
    write_with_headers(pos, moves, ending, &[])
}

/// [`write()`] with `headers`, record information as [`CsaRecord::headers`] holds it
/// (`("N+", name)`, `("TITLE", title)` for `$TITLE:title` …), after the version: the names
/// first, then the `$` lines in their order, values trimmed. What would not be read back
/// as itself is left out: a version (the record is written as V2.2), a key that is empty
/// or holds `:` or `,`, a key or value of more than one line. A record with text that is
/// not ASCII starts with `'CSA encoding=UTF-8` (V3.0's encoding line; a comment to V2.2
/// readers), since V3.0 takes a file without it for Shift-JIS.
pub fn write_with_headers(
    pos: &Position,
    moves: &[Move],
    ending: Ending,
    headers: &[(String, String)],
) -> String {
    let readable = |(key, value): &&(String, String)| {
        let one_line = |s: &str| !s.contains(['\n', '\r']);
        key != "V"
            && !key.is_empty()
            && !key.contains([':', ','])
            && one_line(key)
            && one_line(value)
    };
    let mut info = String::new();
    for name in ["N+", "N-"] {
        for (_, value) in headers.iter().filter(readable).filter(|(k, _)| k == name) {
            info += &format!("{name}{}\n", value.trim());
        }
    }
    for (key, value) in headers
        .iter()
        .filter(readable)
        .filter(|(k, _)| k != "N+" && k != "N-")
    {
        info += &format!("${key}:{}\n", value.trim());
    }
    let mut out = String::new();
    if !info.is_ascii() {
        out += "'CSA encoding=UTF-8\n";
    }
    out += "V2.2\n";
    out += &format!(
        "'tsume {}\n",
        option_env!("CARGO_PKG_VERSION").unwrap_or("")
    );
    out += &info;
    out += &write_position(&pos.to_setup());
    let mut p = pos.clone();
    for &m in moves {
        out += &move_text(&p, m);
        out.push('\n');
        p.do_move(m);
    }
    match ending {
        Ending::None => {}
        Ending::Mate => out += "%TSUMI\n",
        Ending::NoMate => out += "%FUZUMI\n",
        Ending::Interrupt => out += "%CHUDAN\n",
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSUME: &str = "\
V2.2
'three-move problem, commas, in a comment
P1 *  *  *  *  *  * +GI *  * 
P2 *  *  *  *  *  *  *  * -OU
P3 *  *  *  *  *  *  * +FU * 
P4 *  *  *  *  *  *  *  * -KE
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  *  *  *  *  *  *  * 
P9 *  *  *  *  *  *  *  *  *
P+00HI
P-00AL
+
+2322TO,T3
-1213OU
+0023HI
%TSUMI
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
        let pos = Position::from_setup(&r.setup).unwrap();
        let text = write(&pos, &r.moves, Ending::Mate);
        let again = parse(&text).unwrap();
        assert_eq!((again.setup, again.moves), (r.setup, r.moves));
    }

    #[test]
    fn initial_position_with_removals() {
        let r = parse("PI82HI22KA\n-\n").unwrap();
        assert_eq!(
            r.setup.to_string(),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        let r = parse("P-51OU\nP+00KI\n+\n").unwrap();
        assert_eq!(r.setup.to_string(), "4k4/9/9/9/9/9/9/9/9 b G 1");
    }

    #[test]
    fn errors_carry_line_numbers() {
        let lines: Vec<&str> = TSUME.lines().collect();
        let cut = lines[..7].join("\n");
        let e = parse(&cut).unwrap_err();
        assert_eq!(
            (e.line, e.kind),
            (7, CsaErrorKind::MissingSide { found: None })
        );
        let cut = format!("{}\n+\n", lines[..7].join("\n"));
        let e = parse(&cut).unwrap_err();
        assert_eq!(e.line, 8);
        assert_eq!(
            e.kind,
            CsaErrorKind::TruncatedBoard {
                missing: vec![6, 7, 8, 9]
            }
        );
        let bad = TSUME.replace(
            "P4 *  *  *  *  *  *  *  * -KE",
            "P4 *  *  *  *  *  *  *  * -XX",
        );
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, 6);
        assert!(matches!(e.kind, CsaErrorKind::BadBoardRow(_)), "{e}");
        let bad = TSUME.replace(
            "P1 *  *  *  *  *  * +GI *  * ",
            "P1 *  *  *  *  *  * +KE *  * ",
        );
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(matches!(e.kind, CsaErrorKind::IllegalPosition(_)));
        let bad = TSUME.replace("+0023HI", "+0023KA");
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, 17);
        assert!(matches!(e.kind, CsaErrorKind::IllegalMove { .. }), "{e}");
        assert_eq!(parse("'x\n").unwrap_err().kind, CsaErrorKind::Empty);
    }

    /// Before any position statement, a time line is no CSA line and a move, `%…` or `/`
    /// comes before the position; headers alone are no position; they are not called a
    /// missing side-to-move line.
    #[test]
    fn lines_before_the_position_are_named_as_such() {
        let body = TSUME.strip_prefix("V2.2\n").unwrap();
        for (first, kind) in [
            (
                "TITLE:a forgotten dollar",
                CsaErrorKind::UnknownLine("TITLE:a forgotten dollar".to_string()),
            ),
            ("%TSUMI", CsaErrorKind::BeforePosition("%TSUMI".to_string())),
            (
                "+7776FU",
                CsaErrorKind::BeforePosition("+7776FU".to_string()),
            ),
            ("/", CsaErrorKind::BeforePosition("/".to_string())),
        ] {
            let e = parse(&format!("V2.2\n{first}\n{body}")).unwrap_err();
            assert_eq!((e.line, &e.kind), (2, &kind), "{e}");
        }
        let e = parse("V2.2\nN+someone\n$TITLE:only headers\n").unwrap_err();
        assert_eq!((e.line, e.kind), (3, CsaErrorKind::Empty));
        assert!(CsaError {
            line: 2,
            kind: CsaErrorKind::BeforePosition("%TSUMI".into())
        }
        .to_string()
        .contains("comes before the position"),);
    }

    /// With CR-only line endings the file would be one line: refused, naming the first.
    #[test]
    fn cr_only_line_endings_are_refused() {
        let e = parse(&TSUME.replace('\n', "\r")).unwrap_err();
        assert_eq!((e.line, e.kind), (1, CsaErrorKind::BareCarriageReturn));
        let crlf = TSUME.replace('\n', "\r\n");
        assert_eq!(parse(&crlf).unwrap().moves.len(), 3, "CRLF is read");
    }

    /// The CSA standard requires the side-to-move line (`+` or `-` alone) after the
    /// position: a file without it is refused, naming the line and what came instead.
    #[test]
    fn a_missing_side_to_move_line_is_named() {
        let without = TSUME.replace("P-00AL\n+\n", "P-00AL\n");
        let head = TSUME.split("+\n+2322TO").next().unwrap();
        for (text, line, found) in [
            // The moves follow the position directly.
            (without.clone(), 14, Some("+2322TO")),
            // The position alone, or with its end.
            (head.to_string(), 13, None),
            (format!("{head}%TSUMI\n"), 14, Some("%TSUMI")),
            (format!("{head}T0\n"), 14, Some("T0")),
            // Another game after a separator.
            (format!("{head}/\n{TSUME}"), 14, Some("/")),
        ] {
            let e = parse(&text).unwrap_err();
            assert_eq!(
                (e.line, &e.kind),
                (
                    line,
                    &CsaErrorKind::MissingSide {
                        found: found.map(str::to_string)
                    }
                ),
                "{e}\n{text}"
            );
            let message = e.to_string();
            assert!(
                message.contains("no side-to-move line")
                    && message.contains("the CSA standard requires")
                    && message.contains("'+' (Black to move) or '-' (White to move)"),
                "{message}"
            );
            match found {
                Some(found) => assert!(message.contains(&format!("\"{found}\"")), "{message}"),
                None => assert!(message.contains("the file ends"), "{message}"),
            }
        }
        // A comma-separated statement on the position's last line counts too.
        let e = parse(&without.replace("P-00AL\n+2322TO,T3", "P-00AL,+2322TO,T3")).unwrap_err();
        assert_eq!(e.line, 13, "{e}");
    }

    fn header(key: &str, value: &str) -> (String, String) {
        (key.to_string(), value.to_string())
    }

    /// The record information given to [`write_with_headers`] is written after the version
    /// (the names first) and read back as it was; a text with Japanese in it says it is
    /// UTF-8, as V3.0 asks (`'CSA encoding=UTF-8`, a comment to V2.2).
    #[test]
    fn headers_are_written_and_read_back() {
        let r = parse(TSUME).unwrap();
        let pos = Position::from_setup(&r.setup).unwrap();
        let headers = vec![
            header("TITLE", "詰将棋, 第２番"),
            header("N-", "玉方"),
            header("作者", "伊藤看寿"),
            header("N+", "攻方"),
            header("START_TIME", "1755/01/01 10:30:00"),
        ];
        let text = write_with_headers(&pos, &r.moves, Ending::Mate, &headers);
        assert!(
            text.starts_with("'CSA encoding=UTF-8\nV2.2\n'tsume "),
            "{text}"
        );
        assert!(
            text.contains(
                "\nN+攻方\nN-玉方\n$TITLE:詰将棋, 第２番\n$作者:伊藤看寿\n$START_TIME:1755/01/01 10:30:00\nP1"
            ),
            "{text}"
        );
        let back = parse(&text).unwrap();
        assert_eq!((back.setup, back.moves), (r.setup.clone(), r.moves.clone()));
        let mut want = vec![header("V", "2.2")];
        want.extend([3, 1, 0, 2, 4].map(|i| headers[i].clone()));
        assert_eq!(back.headers, want);
        // What cannot be read back is left out: a version (the writer writes its own), a
        // key with ':' or nothing, a value of two lines.
        let mut bad = headers.clone();
        bad.extend([
            header("V", "3.0"),
            header("A:B", "x"),
            header("", "x"),
            header("NOTE", "two\nlines"),
        ]);
        let text = write_with_headers(&pos, &r.moves, Ending::Mate, &bad);
        assert_eq!(parse(&text).unwrap().headers, want, "{text}");
        // ASCII only: no encoding line; no headers: what `write` writes.
        let ascii = write_with_headers(&pos, &r.moves, Ending::Mate, &[header("N+", "a")]);
        assert!(ascii.starts_with("V2.2\n"), "{ascii}");
        assert_eq!(
            write_with_headers(&pos, &r.moves, Ending::Mate, &[]),
            write(&pos, &r.moves, Ending::Mate)
        );
    }

    /// Names and `$` lines are not split at commas (a title may have one), as comments are
    /// not; other lines still are.
    #[test]
    fn names_and_record_information_keep_their_commas() {
        let text = TSUME.replace("P1 *", "N+Smith, John\n$EVENT:第1回, 予選\nP1 *");
        let r = parse(&text).unwrap();
        assert_eq!(
            r.headers,
            [
                header("V", "2.2"),
                header("N+", "Smith, John"),
                header("EVENT", "第1回, 予選")
            ]
        );
        assert_eq!(r.moves, parse(TSUME).unwrap().moves);
    }

    /// The dates: a CSA record's `$START_TIME`/`$END_TIME` are KIF's 開始日時/終了日時 (the
    /// same `YYYY/MM/DD HH:MM:SS` text), so a CSA file converted to KIF keeps a KIF key, not
    /// `START_TIME：…`.
    #[test]
    fn start_and_end_times_are_kif_dates() {
        let csa = vec![
            header("START_TIME", "2024/01/01 10:00:00"),
            header("END_TIME", "2024/01/01 10:05:00"),
        ];
        let kif = vec![
            header("開始日時", "2024/01/01 10:00:00"),
            header("終了日時", "2024/01/01 10:05:00"),
        ];
        assert_eq!(headers_to_kif(&csa), kif);
        assert_eq!(headers_from_kif(&kif), csa);
    }

    /// KIF headers and CSA record information: the players, 棋戦, 場所, 戦型 and 備考 are
    /// the CSA standard's `N+`, `N-`, `$EVENT`, `$SITE`, `$OPENING` and `$NOTE`, 表題 is
    /// `$TITLE`, any other key is kept as it is (`$作者`), the version is not a header.
    #[test]
    fn headers_between_kif_and_csa() {
        let kif = vec![
            header("表題", "図巧"),
            header("先手", "攻方"),
            header("後手", "玉方"),
            header("作者", "伊藤看寿"),
            header("棋戦", "献上"),
            header("場所", "江戸"),
            header("戦型", "詰将棋"),
            header("備考", "第2番"),
        ];
        let csa = headers_from_kif(&kif);
        assert_eq!(
            csa,
            [
                header("TITLE", "図巧"),
                header("N+", "攻方"),
                header("N-", "玉方"),
                header("作者", "伊藤看寿"),
                header("EVENT", "献上"),
                header("SITE", "江戸"),
                header("OPENING", "詰将棋"),
                header("NOTE", "第2番"),
            ]
        );
        assert_eq!(headers_to_kif(&csa), kif);
        let mut with_version = vec![header("V", "2.2")];
        with_version.extend(csa);
        assert_eq!(headers_to_kif(&with_version), kif);
        // 上手 and 下手 are the CSA players too.
        assert_eq!(
            headers_from_kif(&[header("下手", "a"), header("上手", "b")]),
            [header("N+", "a"), header("N-", "b")]
        );
    }

    #[test]
    fn errors_quote_the_text_as_written() {
        let e = parse(&format!("詰将棋　第２番\n{TSUME}")).unwrap_err();
        assert_eq!(e.to_string(), "line 1: not a CSA line: \"詰将棋　第２番\"");
    }
}
