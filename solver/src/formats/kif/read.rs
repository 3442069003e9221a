//! Reading KIF records: [`parse`] and the files of several records.

use super::*;
use crate::color::Color;
use crate::notation;
use crate::piece::Piece;
use crate::setup::STARTPOS_SFEN;
use crate::square::Square;

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

/// The hand of a `…の持駒` line: counts by hand kind index, or `None` for `残り全部` (also
/// written `残りすべて` and `残り全て`).
fn parse_hand(value: &str) -> Result<Option<[u8; 7]>, String> {
    let value = value.trim_matches([' ', '　']);
    let mut hand = [0u8; 7];
    if value == "なし" || value.is_empty() {
        return Ok(Some(hand));
    }
    if matches!(value, "残り全部" | "残りすべて" | "残り全て") {
        return Ok(None);
    }
    for item in value.split([' ', '　']).filter(|s| !s.is_empty()) {
        let mut chars = item.chars();
        let c = chars.next().expect("non-empty item");
        let kind = piece_from_char(c)
            .filter(|k| PieceKind::HAND.contains(k))
            .ok_or_else(|| format!("「{c}」 is not a piece that can be held (「{item}」)"))?;
        let rest = chars.as_str();
        let n = if rest.is_empty() {
            1
        } else {
            parse_count(rest).ok_or_else(|| format!("bad count 「{rest}」 in 「{item}」"))?
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
                    "row labelled 「{label}」 where rank {rank} was expected"
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
            return Err(format!("more than 9 squares in 「{cells}」"));
        }
        if name != '・' {
            let kind = piece_from_char(name)
                .ok_or_else(|| format!("unknown piece 「{name}」 in square {}", n + 1))?;
            row[n] = Some(Piece::new(color, kind));
        } else if color == Color::White {
            return Err(format!("'v' before an empty square in square {}", n + 1));
        }
        n += 1;
    }
    if n != 9 {
        return Err(format!("{n} squares instead of 9 in 「{cells}」"));
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
    let MoveText {
        to,
        kind,
        promote,
        declined,
        drop,
        from,
        same,
    } = read_move_text(body, previous_to)?;
    let illegal = |reason: String| KifErrorKind::IllegalMove {
        text: body.trim_end().to_string(),
        reason,
    };
    let us = pos.side_to_move();
    let m = match (from, declined) {
        (Some(from), _) if !drop => {
            let piece = pos.piece_at(from);
            if piece != Some(Piece::new(us, kind)) {
                return Err(illegal(format!(
                    "the side to move has no {} on {}",
                    kind.japanese(),
                    notation::japanese_square(from)
                )));
            }
            // What the words 成, 不成 and 生 say about promotion must fit the move.
            let word = match declined {
                Some(declined) => Some(format!("{declined} (not promoted)")),
                None => promote.then(|| "成 (promoted)".to_string()),
            };
            if let Some(word) = word {
                if !kind.can_promote() {
                    return Err(illegal(format!(
                        "{word}, but a {} never promotes",
                        kind.japanese()
                    )));
                }
                if !from.in_promotion_zone(us) && !to.in_promotion_zone(us) {
                    return Err(illegal(format!(
                        "{word}, but a move from {} to {} cannot promote: \
                         neither square is in the promotion zone",
                        notation::japanese_square(from),
                        notation::japanese_square(to)
                    )));
                }
            }
            if !promote && kind.is_dead_on(to.relative_rank(us)) {
                return Err(illegal(format!(
                    "a {} on {} could never move again: it must promote (成)",
                    kind.japanese(),
                    notation::japanese_square(to)
                )));
            }
            Move::normal(from, to, promote)
        }
        _ if same => {
            return Err(illegal(
                "同 (same square) without the origin square: 同 names the square the last \
                 move went to, where nothing can be dropped; a board move is written with its \
                 origin, as 同　歩(14)"
                    .to_string(),
            ))
        }
        (_, Some(word)) => {
            return Err(illegal(format!(
                "{word} (not promoted) on a move without its origin square: a drop never \
                 promotes, and a board move is written with its origin, as ２二歩不成(23)"
            )))
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

/// What a move's text says, before the position is asked whether it makes sense.
struct MoveText {
    to: Square,
    kind: PieceKind,
    promote: bool,
    /// How a declined promotion is written (`不成`, or `生` as old 柿木将棋 writes it).
    declined: Option<&'static str>,
    drop: bool,
    from: Option<Square>,
    /// Whether the destination was written as 同 (with or without its square).
    same: bool,
}

/// Splits `２三銀成(32)` (or `同　銀`, `５五角打`, `３三桂不成(45)`, `３三桂生(45)`, `１五同歩(14)`
/// …) into its parts.
fn read_move_text<'a>(
    body: &'a str,
    previous_to: Option<Square>,
) -> Result<MoveText, KifErrorKind> {
    let bad = || KifErrorKind::BadMove(body.to_string());
    // 同 names the previous move's destination.
    let same = |rest: &'a str| -> Result<(Square, &'a str), KifErrorKind> {
        let to = previous_to.ok_or_else(|| KifErrorKind::IllegalMove {
            text: body.trim_end().to_string(),
            reason: "同 (same square) on the first move".to_string(),
        })?;
        Ok((to, rest.trim_start_matches([' ', '　'])))
    };
    let ((to, rest), same_written) = match body.strip_prefix('同') {
        Some(r) => (same(r)?, true),
        None => {
            let mut chars = body.chars();
            let (f, r) = (chars.next().ok_or_else(bad)?, chars.next().ok_or_else(bad)?);
            let written = parse_square(f, r).ok_or_else(bad)?;
            match chars.as_str().strip_prefix('同') {
                // `１五同歩(14)`: the square, then 同, which must agree.
                Some(r) => {
                    let (previous, rest) = same(r)?;
                    if written != previous {
                        return Err(KifErrorKind::SameSquare {
                            text: body.trim_end().to_string(),
                            written,
                            previous,
                        });
                    }
                    ((written, rest), true)
                }
                None => ((written, chars.as_str()), false),
            }
        }
    };
    let (kind, rest) = read_piece(rest).ok_or_else(bad)?;
    let (promote, declined, drop, rest) = if let Some(r) = rest.strip_prefix("不成") {
        (false, Some("不成"), false, r)
    } else if let Some(r) = rest.strip_prefix('生') {
        (false, Some("生"), false, r)
    } else if let Some(r) = rest.strip_prefix('成') {
        (true, None, false, r)
    } else if let Some(r) = rest.strip_prefix('打') {
        (false, None, true, r)
    } else {
        (false, None, false, rest)
    };
    let (from, rest) = match rest.strip_prefix('(') {
        Some(r) => {
            let mut chars = r.chars();
            let (f, rk) = (chars.next().ok_or_else(bad)?, chars.next().ok_or_else(bad)?);
            if chars.next() != Some(')') {
                return Err(bad());
            }
            (Some(parse_square(f, rk).ok_or_else(bad)?), chars.as_str())
        }
        None => (None, rest),
    };
    // After the move: nothing, or the time `( 0:01/00:00:01)`, or `+` (a variation
    // follows). `５七角打成成成` is not a move.
    let tail = rest.trim_start_matches([' ', '　', '\t']);
    if !(tail.is_empty() || tail.starts_with(['(', '+'])) {
        return Err(bad());
    }
    Ok(MoveText {
        to,
        kind,
        promote,
        declined,
        drop,
        from,
        same: same_written,
    })
}

/// The piece name of a move: `成銀 成桂 成香` or one character.
fn read_piece(text: &str) -> Option<(PieceKind, &str)> {
    for (name, kind) in [
        ("成銀", PieceKind::ProSilver),
        ("成桂", PieceKind::ProKnight),
        ("成香", PieceKind::ProLance),
    ] {
        if let Some(rest) = text.strip_prefix(name) {
            return Some((kind, rest));
        }
    }
    let mut chars = text.chars();
    let kind = chars.next().and_then(piece_from_char)?;
    Some((kind, chars.as_str()))
}

fn err(line: usize, kind: KifErrorKind) -> KifError {
    KifError { line, kind }
}

/// A BOD diagram's `手数＝N` line, with the last move after it or not (`手数＝3  ▲２三飛打
/// まで`): it says how the position was reached, and is not read.
fn is_bod_move_count(trimmed: &str) -> bool {
    let Some(rest) = trimmed.strip_prefix("手数＝") else {
        return false;
    };
    let number = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c.is_numeric());
    number.len() < rest.len() && (number.is_empty() || number.starts_with([' ', '　', '\t']))
}

/// A line that ends a record's main line: `まで…`, the first `変化：`, or a move that is a
/// terminal word (`詰み`, `投了` …). What follows is read by [`after_end`].
fn ends_main_line(trimmed: &str) -> bool {
    trimmed.starts_with("まで")
        || trimmed.starts_with("変化")
        || split_move_number(trimmed).is_some_and(|(_, body)| is_terminal(body))
}

/// A move line's body that is a terminal word, not a move.
fn is_terminal(body: &str) -> bool {
    TERMINALS.iter().any(|t| body.starts_with(t))
}

/// Whether a header key speaks of a hand (`…持駒`, `…持ち駒`).
fn is_hand_key(key: &str) -> bool {
    key.contains("持駒") || key.contains("持ち駒")
}

/// The side whose hand a header key names: `先手の持駒` and `下手の持駒` (Black), `後手の持駒`
/// and `上手の持駒` (White), also spelled `…の持ち駒`, `…持駒` and `…持ち駒`.
fn hand_color(key: &str) -> Option<Color> {
    let side = ["の持駒", "の持ち駒", "持駒", "持ち駒"]
        .iter()
        .find_map(|suffix| key.strip_suffix(suffix))?;
    match side {
        "先手" | "下手" => Some(Color::Black),
        "後手" | "上手" => Some(Color::White),
        _ => None,
    }
}

/// A `+----…----+` diagram border.
fn is_border(line: &str) -> bool {
    line.starts_with('+') && line.trim_matches(['+', '-']).is_empty()
}

/// Parses a KIF record (decoded text; see [`decode`](super::decode)).
pub fn parse(text: &str) -> Result<KifRecord, KifError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some(line) = crate::formats::bare_carriage_return(text) {
        return Err(err(line, KifErrorKind::BareCarriageReturn));
    }
    let mut reader = Reader::default();
    let mut last_line = 0;
    // The main line's end (`まで…`, a terminal word or the first `変化：`): its line, and
    // whether a variation block has started.
    let mut ended: Option<(usize, bool)> = None;
    for (i, raw) in text.lines().enumerate() {
        last_line = i + 1;
        let line = raw.trim_end_matches(['\r', ' ', '　', '\t']);
        let trimmed = line.trim_start();
        match &mut ended {
            Some((end, variations)) => after_end(i + 1, trimmed, *end, variations)?,
            None => {
                if reader.line(i + 1, trimmed)? == Flow::Stop {
                    ended = Some((i + 1, trimmed.starts_with("変化")));
                }
            }
        }
    }
    reader.finish(last_line.max(1))
}

/// A line after the main line's end (at line `end`): blank, a comment, `まで…`, or a
/// variation block (`変化：…` and its moves, not read). Anything else would be dropped
/// unread, so it is an error; a record that starts there belongs to a file of several
/// (see [`split_records`]).
fn after_end(n: usize, trimmed: &str, end: usize, variations: &mut bool) -> Result<(), KifError> {
    if trimmed.starts_with("変化") {
        *variations = true;
    }
    let ok = trimmed.is_empty()
        || trimmed.starts_with(['#', '*', '&'])
        || trimmed.starts_with("変化")
        || trimmed.starts_with("まで")
        || (*variations && split_move_number(trimmed).is_some());
    if ok {
        return Ok(());
    }
    Err(err(
        n,
        KifErrorKind::AfterEnd {
            end,
            text: trimmed.to_string(),
            next_record: starts_record(trimmed),
        },
    ))
}

/// A line that starts a record when it follows another record's end: `#KIF`, a `key：value`
/// header (`手合割：`, `作品名：`, a hand …), a diagram border or its column numbers.
fn starts_record(trimmed: &str) -> bool {
    is_header(trimmed)
        || is_border(trimmed)
        || trimmed.starts_with('９')
        || (trimmed.contains('：') && !trimmed.starts_with("変化") && !trimmed.starts_with("まで"))
        || trimmed
            .split_once(':')
            .is_some_and(|(key, _)| is_hand_key(key))
}

/// Whether the record goes on after a line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Next,
    /// The main line ended (a terminal word, `まで…`, or a variation).
    Stop,
}

/// A board diagram between its borders.
struct Diagram {
    /// The line of the top border.
    start: usize,
    /// Ranks read so far.
    ranks: usize,
    squares: [Option<Piece>; 81],
}

/// What a record has said so far, line by line; [`Reader::finish`] turns it into the
/// record.
#[derive(Default)]
struct Reader {
    /// The board diagram, once closed.
    board: Option<[Option<Piece>; 81]>,
    /// The diagram being read.
    diagram: Option<Diagram>,
    /// The lines of the diagram's top border and of each rank, for position errors.
    board_line: usize,
    row_lines: [usize; 9],
    hands: [[u8; 7]; 2],
    /// The side that holds `残り全部` (every piece not elsewhere).
    rest_to: Option<Color>,
    handicap: Option<Setup>,
    side: Option<Color>,
    headers: Vec<(String, String)>,
    /// The position reached, from the first move (or the moves header) on.
    pos: Option<Position>,
    first_move_number: Option<usize>,
    moves: Vec<Move>,
    /// Whether any line other than blanks and comments was read.
    seen_content: bool,
}

impl Reader {
    /// Reads line `n` (trimmed).
    fn line(&mut self, n: usize, trimmed: &str) -> Result<Flow, KifError> {
        if let Some(diagram) = self.diagram.take() {
            self.diagram_line(n, trimmed, diagram)?;
            return Ok(Flow::Next);
        }
        if trimmed.is_empty() || trimmed.starts_with(['#', '*', '&']) {
            return Ok(Flow::Next);
        }
        self.seen_content = true;
        if let Some((number, body)) = split_move_number(trimmed) {
            return self.move_line(n, number, body);
        }
        if ends_main_line(trimmed) {
            return Ok(Flow::Stop);
        }
        if self.pos.is_some() {
            return Err(err(n, KifErrorKind::BadMove(trimmed.to_string())));
        }
        self.position_line(n, trimmed)?;
        Ok(Flow::Next)
    }

    /// Inside a board diagram: rows, then the closing border.
    fn diagram_line(&mut self, n: usize, trimmed: &str, mut d: Diagram) -> Result<(), KifError> {
        if is_border(trimmed) {
            if d.ranks != 9 {
                return Err(err(n, KifErrorKind::TruncatedBoard { ranks: d.ranks }));
            }
            self.board = Some(d.squares);
            self.board_line = d.start;
            return Ok(());
        }
        if !trimmed.starts_with('|') {
            return Err(err(n, KifErrorKind::TruncatedBoard { ranks: d.ranks }));
        }
        if d.ranks == 9 {
            return Err(err(
                n,
                KifErrorKind::BadBoardRow("more than 9 ranks".to_string()),
            ));
        }
        let row =
            parse_row(trimmed, d.ranks + 1).map_err(|e| err(n, KifErrorKind::BadBoardRow(e)))?;
        for (col, piece) in row.into_iter().enumerate() {
            // Columns run from file 9 (left) to file 1.
            d.squares[Square::new(8 - col as u8, d.ranks as u8).index()] = piece;
        }
        self.row_lines[d.ranks] = n;
        d.ranks += 1;
        self.diagram = Some(d);
        Ok(())
    }

    /// A numbered line: a move or a terminal word.
    fn move_line(&mut self, n: usize, number: usize, body: &str) -> Result<Flow, KifError> {
        if self.pos.is_none() {
            self.pos = Some(self.start_position()?);
        }
        let expected = self
            .first_move_number
            .map_or(number, |f| f + self.moves.len());
        if number != expected {
            return Err(err(
                n,
                KifErrorKind::MoveNumber {
                    expected,
                    found: number,
                },
            ));
        }
        self.first_move_number.get_or_insert(number);
        if is_terminal(body) {
            return Ok(Flow::Stop);
        }
        let p = self.pos.as_mut().expect("set above");
        let m = parse_move(body, p, p.last_move().map(|m| m.to())).map_err(|k| err(n, k))?;
        self.moves.push(m);
        p.do_move(m);
        Ok(Flow::Next)
    }

    /// A line before the moves: the moves header, a diagram border, the column numbers,
    /// the side to move or a `key：value` header.
    fn position_line(&mut self, n: usize, trimmed: &str) -> Result<(), KifError> {
        if trimmed.starts_with(MOVES_HEADER.split('-').next().unwrap_or("手数"))
            && trimmed.contains("--")
        {
            self.pos = Some(self.start_position()?);
            return Ok(());
        }
        if is_border(trimmed) {
            if self.board.is_some() {
                return Err(err(n, KifErrorKind::DuplicateBoard));
            }
            self.diagram = Some(Diagram {
                start: n,
                ranks: 0,
                squares: [None; 81],
            });
            return Ok(());
        }
        if trimmed.starts_with('|') {
            return Err(err(
                n,
                KifErrorKind::BadBoardRow(
                    "a diagram row outside a diagram (missing +----+ border)".to_string(),
                ),
            ));
        }
        if is_bod_move_count(trimmed) {
            return Ok(());
        }
        match trimmed {
            _ if trimmed.starts_with('９') => Ok(()), // the column numbers above the diagram
            "先手番" | "下手番" => {
                self.side = Some(Color::Black);
                Ok(())
            }
            "後手番" | "上手番" => {
                self.side = Some(Color::White);
                Ok(())
            }
            _ => match trimmed.split_once('：') {
                Some((key, value)) => self.header(n, trimmed, key, value),
                // A hand line may have a half-width colon (`先手の持駒:飛`).
                None => match trimmed.split_once(':') {
                    Some((key, value)) if is_hand_key(key) => self.header(n, trimmed, key, value),
                    _ => Err(err(n, KifErrorKind::UnknownLine(trimmed.to_string()))),
                },
            },
        }
    }

    /// A `key：value` line: a hand, `手合割`, or another header kept in the record.
    fn header(&mut self, n: usize, line: &str, key: &str, value: &str) -> Result<(), KifError> {
        let key = key.trim_matches([' ', '　', '\t']);
        if is_hand_key(key) {
            let color = hand_color(key)
                .ok_or_else(|| err(n, KifErrorKind::UnknownHandLine(line.to_string())))?;
            match parse_hand(value).map_err(|e| err(n, KifErrorKind::BadHand(e)))? {
                Some(h) => self.hands[color.index()] = h,
                None => self.rest_to = Some(color),
            }
        } else if key == "手合割" {
            let value = value.trim();
            match HANDICAPS.iter().find(|(name, _)| *name == value) {
                Some((_, sfen)) => {
                    self.handicap = Some(Setup::from_sfen(sfen).expect("handicap SFEN"))
                }
                // With a diagram, the diagram says it all.
                None if value == "その他" || self.board.is_some() => {}
                None => return Err(err(n, KifErrorKind::UnknownHandicap(value.to_string()))),
            }
        } else {
            self.headers
                .push((key.to_string(), value.trim().to_string()));
        }
        Ok(())
    }

    /// Builds and validates the starting position (once, when the moves start or at the
    /// end).
    fn start_position(&self) -> Result<Position, KifError> {
        let mut setup = match (&self.board, &self.handicap) {
            (Some(b), _) => {
                let mut s = Setup::empty();
                s.board = *b;
                s.hands = self.hands;
                s
            }
            (None, Some(h)) => h.clone(),
            (None, None) => Setup::from_sfen(STARTPOS_SFEN).expect("start position"),
        };
        if let Some(side) = self.side {
            setup.side_to_move = side;
        }
        if let Some(color) = self.rest_to {
            setup.fill_hand(color);
        }
        Position::from_setup(&setup).map_err(|e| {
            let line = match &e {
                PositionError::DeadPiece { square, .. } if self.board.is_some() => {
                    self.row_lines[square.rank() as usize]
                }
                _ => self.board_line.max(1),
            };
            err(line, KifErrorKind::IllegalPosition(e))
        })
    }

    /// The record, once the text has been read up to `last_line`.
    fn finish(mut self, last_line: usize) -> Result<KifRecord, KifError> {
        if let Some(d) = &self.diagram {
            return Err(err(
                last_line,
                KifErrorKind::TruncatedBoard { ranks: d.ranks },
            ));
        }
        if !self.seen_content {
            return Err(err(last_line, KifErrorKind::Empty));
        }
        if self.board.is_none() && self.handicap.is_none() && self.pos.is_none() {
            // Only header lines: a record is a diagram, a 手合割 or a game's moves.
            return Err(err(last_line, KifErrorKind::NoPosition));
        }
        let mut start = match self.pos.take() {
            Some(p) => p,
            None => self.start_position()?,
        };
        for _ in 0..self.moves.len() {
            start.undo_move();
        }
        Ok(KifRecord {
            setup: start.to_setup(),
            moves: self.moves,
            headers: self.headers,
        })
    }
}

/// Whether the line `key：value` is read back as that header, not as something else (a
/// hand, a 手合割, a comment, the end of the main line …) or as two lines: what
/// [`write_with_headers`](super::write_with_headers) may write.
pub(super) fn reads_back_as_header(key: &str, value: &str) -> bool {
    if key.is_empty() || [key, value].iter().any(|s| s.contains(['\n', '\r'])) {
        return false;
    }
    let line = format!("{key}：{value}");
    let mut reader = Reader::default();
    matches!(reader.line(1, &line), Ok(Flow::Next))
        && reader.headers == [(key.to_string(), value.to_string())]
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

/// Splits a file of several KIF records, as `tsume generate` writes `problems.kif` or as
/// record files put one after the other: each `#KIF` header line starts a record, and so
/// does, after a record's end (its `まで…` line or a terminal word such as `詰み`), a line
/// that starts a record: a `key：value` header (`手合割：`, `作品名：`, `後手の持駒：` …), a
/// board diagram's border or column numbers. A record starts together with the comment
/// lines right before it (a writer's note about the record, such as the generator's
/// `# problem <id> …`); anything before the first record belongs to it. A text with at
/// most one `#KIF` line and no record after an end is one record. A UTF-8 byte-order mark
/// is removed.
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
    // Whether the current record's main line has ended.
    let mut ended = false;
    for (k, &(_, _, line)) in starts.iter().enumerate() {
        let trimmed = line.trim_matches(['\r', '\n', ' ', '　', '\t']);
        if trimmed.is_empty() || is_comment(trimmed) || trimmed.starts_with(['*', '&']) {
            continue;
        }
        if !(is_header(trimmed) || ended && starts_record(trimmed)) {
            ended = ended || ends_main_line(trimmed);
            continue;
        }
        ended = false;
        // Back over the comment lines just before the record.
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
