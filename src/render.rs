//! `tsume render`: a tsume diagram (詰将棋図) as a self-contained SVG.
//!
//! The drawing is a pure function of the position ([`render_svg`]); the rest of this module
//! reads the command's input (an SFEN with an optional `moves …` suffix, a KIF or CSA
//! problem file, or a pack in JSON Lines) and writes the files.
//!
//! Conventions of the diagram:
//! - The attacker (the side to move in the problem) sits at the bottom and its pieces are
//!   upright; the defender's pieces are drawn upside down. When White (gote) attacks, the
//!   board is seen from White's side, so the file numbers run 1…9 across the top and the
//!   ranks 九…一 down the right.
//! - Kings: the defender's king is 玉 and the attacker's (in 双玉 problems) is 王.
//! - Promoted pieces use the one-character forms of problem books: と 杏 圭 全 馬 龍.
//! - The attacker's hand is written vertically to the right of the board, the defender's
//!   to its left (`持駒 なし` when empty); counts are kanji numerals (`歩十八`).
//! - Text uses a font stack of common CJK fonts ending in the generic `serif`: no external
//!   font or network is needed to view the file, and a `viewBox` lets it scale to any size.

use std::fmt::{self, Write as _};
use std::io;
use std::path::{Path, PathBuf};

use tsume_generator::line::{self, LineError};
use tsume_solver::{notation, Color, Hand, Move, ParsePositionError, PieceKind, Position, Square};

use crate::input::{self, Format, InputError};
use crate::verify::InputKind;

/// The font stack for all text.
const FONT_FAMILY: &str = "'Noto Sans CJK JP','Hiragino Mincho ProN','Yu Mincho',serif";

// Geometry, in viewBox units.
const CELL_W: f64 = 40.0;
const CELL_H: f64 = 44.0;
const MARGIN: f64 = 8.0;
const HAND_W: f64 = 36.0;
const HAND_GAP: f64 = 12.0;
const TOP_LABELS: f64 = 26.0;
const RANK_LABELS: f64 = 28.0;
const BOARD_X: f64 = MARGIN + HAND_W + HAND_GAP;
const BOARD_Y: f64 = MARGIN + TOP_LABELS;
const BOARD_W: f64 = 9.0 * CELL_W;
const BOARD_H: f64 = 9.0 * CELL_H;
/// Width of the whole drawing.
pub const WIDTH: f64 = BOARD_X + BOARD_W + RANK_LABELS + HAND_W + MARGIN;
/// Height of the whole drawing.
pub const HEIGHT: f64 = BOARD_Y + BOARD_H + MARGIN + 4.0;

const PIECE_FONT: f64 = 30.0;
const LABEL_FONT: f64 = 16.0;
const HAND_STEP: f64 = 26.0;

/// What to draw besides the position itself.
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// The move that led to the position: its destination square is highlighted.
    pub last_move: Option<Move>,
    /// The attacking side (upright, at the bottom). `None`: the side to move. Set it when
    /// drawing a position in the middle of a solution, where the defender is to move.
    pub attacker: Option<Color>,
    /// Text of the SVG `<title>` (not drawn), e.g. the problem's id.
    pub title: Option<String>,
    /// Draw the board and its coordinates only, without the hands (whose text, written
    /// vertically, is too small to read in a thumbnail: `tsume html` writes it as text
    /// beside the drawing instead).
    pub board_only: bool,
}

/// The character drawn for a piece. `attacker` tells which side's king is 王.
pub fn piece_char(kind: PieceKind, is_attacker: bool) -> &'static str {
    match kind {
        PieceKind::King if is_attacker => "王",
        PieceKind::King => "玉",
        PieceKind::ProPawn => "と",
        PieceKind::ProLance => "杏",
        PieceKind::ProKnight => "圭",
        PieceKind::ProSilver => "全",
        PieceKind::Horse => "馬",
        PieceKind::Dragon => "龍",
        k => k.japanese(),
    }
}

/// A count in kanji numerals (1 → "", 2 → 二, 10 → 十, 18 → 十八).
fn kanji_count(n: u32) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0 | 1 => String::new(),
        2..=9 => DIGITS[n as usize].to_string(),
        10..=99 => {
            let tens = if n >= 20 {
                DIGITS[(n / 10) as usize]
            } else {
                ""
            };
            format!("{tens}十{}", DIGITS[(n % 10) as usize])
        }
        _ => n.to_string(),
    }
}

/// The hand as written in the diagram: `持駒 飛 金二 歩十八` or `持駒 なし`, preceded by the
/// side's mark (▲ Black, △ White).
pub fn hand_text(color: Color, hand: Hand) -> String {
    let mut parts = Vec::new();
    for kind in PieceKind::HAND_SFEN_ORDER {
        let n = hand.count(kind);
        if n > 0 {
            parts.push(format!("{}{}", kind.japanese(), kanji_count(n)));
        }
    }
    let pieces = if parts.is_empty() {
        "なし".to_string()
    } else {
        parts.concat()
    };
    format!("{}持駒 {pieces}", notation::side_mark(color))
}

/// Escapes text for HTML and XML (SVG) content and attribute values (`'` as `&#39;`,
/// which both read).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Board column (0 = left) and row (0 = top) of a square, for the given bottom side.
fn cell_of(sq: Square, bottom: Color) -> (u8, u8) {
    match bottom {
        Color::Black => (8 - sq.file(), sq.rank()),
        Color::White => (sq.file(), 8 - sq.rank()),
    }
}

/// The square shown at a column and row.
fn square_at(col: u8, row: u8, bottom: Color) -> Square {
    match bottom {
        Color::Black => Square::new(8 - col, row),
        Color::White => Square::new(col, 8 - row),
    }
}

fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// One hand, written vertically from the top of the board, one `<text>` per character so
/// that every viewer lays it out the same way.
fn write_hand(svg: &mut String, class: &str, text: &str, centre_x: f64) {
    let chars: Vec<char> = text.chars().collect();
    // A space is half a step.
    let units: f64 = chars
        .iter()
        .map(|&c| if c == ' ' { 0.5 } else { 1.0 })
        .sum();
    let step = HAND_STEP.min(BOARD_H / units.max(1.0));
    let font = (step * 0.85).min(22.0);
    let _ = write!(
        svg,
        r#"<g class="hand {class}" aria-label="{}" font-size="{}" text-anchor="middle" dominant-baseline="central">"#,
        escape(text),
        num(font)
    );
    let mut y = BOARD_Y;
    for c in chars {
        if c == ' ' {
            y += step * 0.5;
            continue;
        }
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}">{}</text>"#,
            num(centre_x),
            num(y + step / 2.0),
            escape(&c.to_string())
        );
        y += step;
    }
    svg.push_str("</g>\n");
}

/// The diagram of `pos` as a standalone SVG document.
pub fn render_svg(pos: &Position, opts: &RenderOptions) -> String {
    let attacker = opts.attacker.unwrap_or(pos.side_to_move());
    let defender = !attacker;
    let mut svg = String::with_capacity(16 * 1024);
    write_header(&mut svg, pos, opts);
    // Under the grid and the pieces.
    if let Some(m) = opts.last_move {
        write_last_move(&mut svg, m, attacker);
    }
    write_grid(&mut svg);
    write_coordinates(&mut svg, attacker);
    write_pieces(&mut svg, pos, attacker);
    // Hands: the attacker's to the right, the defender's to the left.
    if opts.board_only {
        svg.push_str("</svg>\n");
        return svg;
    }
    write_hand(
        &mut svg,
        "attacker",
        &hand_text(attacker, pos.hand(attacker)),
        BOARD_X + BOARD_W + RANK_LABELS + HAND_W / 2.0,
    );
    write_hand(
        &mut svg,
        "defender",
        &hand_text(defender, pos.hand(defender)),
        MARGIN + HAND_W / 2.0,
    );
    svg.push_str("</svg>\n");
    svg
}

/// The `<svg>` element, the title and the white background.
fn write_header(svg: &mut String, pos: &Position, opts: &RenderOptions) {
    // Without the hands, the drawing is cut down to the board and its coordinates.
    let (x, w) = if opts.board_only {
        (BOARD_X - MARGIN, BOARD_W + RANK_LABELS + 2.0 * MARGIN)
    } else {
        (0.0, WIDTH)
    };
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x} 0 {w} {h}" width="{w}" height="{h}" font-family="{FONT_FAMILY}">"#,
        x = num(x),
        w = num(w),
        h = num(HEIGHT),
    );
    let title = match &opts.title {
        Some(t) => format!("{t}: {}", pos.to_sfen()),
        None => pos.to_sfen(),
    };
    let _ = writeln!(svg, "<title>{}</title>", escape(&title));
    let _ = writeln!(
        svg,
        r##"<rect class="background" x="0" y="0" width="{}" height="{}" fill="#ffffff"/>"##,
        num(WIDTH),
        num(HEIGHT)
    );
}

/// The highlight of the last move's destination.
fn write_last_move(svg: &mut String, m: Move, attacker: Color) {
    let (col, row) = cell_of(m.to(), attacker);
    let _ = writeln!(
        svg,
        r##"<rect class="last-move" data-square="{}" x="{}" y="{}" width="{}" height="{}" fill="#ffd978"/>"##,
        m.to(),
        num(BOARD_X + col as f64 * CELL_W),
        num(BOARD_Y + row as f64 * CELL_H),
        num(CELL_W),
        num(CELL_H)
    );
}

/// The grid (10 lines each way, the outer frame thicker) and the four star points
/// (hoshi).
fn write_grid(svg: &mut String) {
    svg.push_str(r##"<g class="grid" stroke="#000000" stroke-width="1" fill="none">"##);
    for i in 1..9 {
        let x = BOARD_X + i as f64 * CELL_W;
        let y = BOARD_Y + i as f64 * CELL_H;
        let _ = write!(
            svg,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            num(x),
            num(BOARD_Y),
            num(x),
            num(BOARD_Y + BOARD_H)
        );
        let _ = write!(
            svg,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            num(BOARD_X),
            num(y),
            num(BOARD_X + BOARD_W),
            num(y)
        );
    }
    for (x1, y1, x2, y2) in [
        (BOARD_X, BOARD_Y, BOARD_X + BOARD_W, BOARD_Y),
        (
            BOARD_X,
            BOARD_Y + BOARD_H,
            BOARD_X + BOARD_W,
            BOARD_Y + BOARD_H,
        ),
        (BOARD_X, BOARD_Y, BOARD_X, BOARD_Y + BOARD_H),
        (
            BOARD_X + BOARD_W,
            BOARD_Y,
            BOARD_X + BOARD_W,
            BOARD_Y + BOARD_H,
        ),
    ] {
        let _ = write!(
            svg,
            r#"<line class="frame" stroke-width="2.5" stroke-linecap="square" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
    }
    svg.push_str("</g>\n");
    // The four star points (hoshi).
    svg.push_str(r##"<g class="stars" fill="#000000">"##);
    for (i, j) in [(3, 3), (6, 3), (3, 6), (6, 6)] {
        let _ = write!(
            svg,
            r#"<circle cx="{}" cy="{}" r="2.5"/>"#,
            num(BOARD_X + i as f64 * CELL_W),
            num(BOARD_Y + j as f64 * CELL_H)
        );
    }
    svg.push_str("</g>\n");
}

/// File numbers across the top, rank kanji down the right.
fn write_coordinates(svg: &mut String, attacker: Color) {
    let _ = write!(
        svg,
        r##"<g class="coordinates" font-size="{}" fill="#000000" text-anchor="middle" dominant-baseline="central">"##,
        num(LABEL_FONT)
    );
    for col in 0..9u8 {
        let name = notation::japanese_square(square_at(col, 0, attacker));
        let file: String = name.chars().take(1).collect();
        let _ = write!(
            svg,
            r#"<text class="file" x="{}" y="{}">{}</text>"#,
            num(BOARD_X + (col as f64 + 0.5) * CELL_W),
            num(BOARD_Y - TOP_LABELS / 2.0),
            file
        );
    }
    for row in 0..9u8 {
        let name = notation::japanese_square(square_at(0, row, attacker));
        let rank: String = name.chars().skip(1).collect();
        let _ = write!(
            svg,
            r#"<text class="rank" x="{}" y="{}">{}</text>"#,
            num(BOARD_X + BOARD_W + RANK_LABELS / 2.0),
            num(BOARD_Y + (row as f64 + 0.5) * CELL_H),
            rank
        );
    }
    svg.push_str("</g>\n");
}

/// The pieces, the defender's turned upside down.
fn write_pieces(svg: &mut String, pos: &Position, attacker: Color) {
    let _ = write!(
        svg,
        r##"<g class="pieces" font-size="{}" fill="#000000" text-anchor="middle" dominant-baseline="central">"##,
        num(PIECE_FONT)
    );
    for row in 0..9u8 {
        for col in 0..9u8 {
            let sq = square_at(col, row, attacker);
            let Some(p) = pos.piece_at(sq) else { continue };
            let cx = BOARD_X + (col as f64 + 0.5) * CELL_W;
            let cy = BOARD_Y + (row as f64 + 0.5) * CELL_H;
            let is_attacker = p.color == attacker;
            let ch = piece_char(p.kind, is_attacker);
            if is_attacker {
                let _ = write!(
                    svg,
                    r#"<text class="piece attacker" data-square="{sq}" x="{}" y="{}">{ch}</text>"#,
                    num(cx),
                    num(cy)
                );
            } else {
                let _ = write!(
                    svg,
                    r#"<text class="piece defender" data-square="{sq}" x="{x}" y="{y}" transform="rotate(180 {x} {y})">{ch}</text>"#,
                    x = num(cx),
                    y = num(cy)
                );
            }
        }
        svg.push('\n');
    }
    svg.push_str("</g>\n");
}

// ----- the command -----

/// Why `tsume render` cannot draw or write; the text is the message after `tsume: `.
#[derive(Debug)]
pub enum RenderError {
    /// `--out -` with a pack.
    PackToStdout(String),
    /// A directory as `--out` for one diagram.
    OutIsDirectory(PathBuf),
    /// A file as `--out` for a pack.
    OutNotDirectory(PathBuf),
    /// A USI `position`/`sfen` command whose SFEN is not a legal position.
    Position(ParsePositionError),
    /// An SFEN line that cannot be read.
    Line(LineError),
    /// Nothing but blanks (or a comment) where the SFEN should be.
    EmptySfen,
    /// One word that is neither a file nor an SFEN (three or four fields): most likely a
    /// mistyped file name.
    NoSuchInput(String),
    /// The moves: `--move N` beyond them, or one that cannot be played.
    Moves(MovesError),
    /// A KIF or CSA file that cannot be read (its message names the file and line).
    Record(InputError),
    /// A KIF file of several records (a pack's `problems.kif`): which one is meant?
    SeveralRecords { path: String, records: usize },
    /// The pack file cannot be read.
    UnreadablePack { path: PathBuf, error: io::Error },
    /// A problem of the pack, at `line` of `path`.
    PackLine {
        path: PathBuf,
        line: usize,
        error: LineError,
    },
    /// A directory given as the input that holds no pack file.
    NoPackFile(crate::html::NoPackFile),
    /// A pack without problems.
    EmptyPack(PathBuf),
    /// A file whose first line (blank and `#` lines aside) is not a JSON object: an SFEN
    /// list such as a pack's `pack.sfen`, not a pack.
    NotAPack(PathBuf),
    /// The output directory cannot be made.
    CreateDir { path: PathBuf, error: io::Error },
    /// A file cannot be written.
    Write { path: PathBuf, error: io::Error },
    /// The diagram cannot be written to stdout (`--out -`).
    Stdout(io::Error),
}

/// What is wrong with the moves of a diagram's line.
#[derive(Debug)]
pub enum MovesError {
    /// `--move ply` beyond the solution's `moves`.
    Beyond { ply: usize, moves: usize },
    /// A move that cannot be read or played.
    Illegal(crate::input::InputError),
}

impl fmt::Display for MovesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MovesError::Beyond { ply, moves: 0 } => {
                write!(f, "--move {ply}: there are no moves to play")
            }
            MovesError::Beyond { ply, moves } => write!(
                f,
                "--move {ply}: the solution has only {moves} move{}",
                if *moves == 1 { "" } else { "s" }
            ),
            MovesError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::PackToStdout(input) => write!(
                f,
                "--out - writes one diagram to stdout; {input} is a pack: give a directory"
            ),
            RenderError::OutIsDirectory(out) => write!(
                f,
                "--out {} is a directory; give a file name such as diagram.svg",
                out.display()
            ),
            RenderError::OutNotDirectory(dir) => {
                write!(f, "--out {} must be a directory for a pack", dir.display())
            }
            RenderError::Position(e) => write!(f, "{e}"),
            RenderError::Line(e) => write!(f, "{e}"),
            RenderError::EmptySfen => write!(f, "malformed SFEN: empty SFEN"),
            RenderError::NoSuchInput(input) => write!(
                f,
                "{input}: no such file, and not an SFEN (render draws one SFEN, quoted as one \
                 argument, a KIF or CSA file, or every problem of a pack: its pack.jsonl or \
                 its directory)"
            ),
            RenderError::Moves(e) => write!(f, "{e}"),
            RenderError::Record(e) => write!(f, "{e}"),
            RenderError::SeveralRecords { path, records } => write!(
                f,
                "{path}: {records} KIF records (render draws one problem; for every problem \
                 of a pack, give its pack.jsonl or its directory)"
            ),
            RenderError::UnreadablePack { path, error } => {
                write!(f, "cannot read pack {}: {error}", path.display())
            }
            RenderError::PackLine { path, line, error } => {
                write!(f, "{}:{line}: {error}", path.display())
            }
            RenderError::NoPackFile(e) => write!(
                f,
                "{e}: give an SFEN, a pack file (.jsonl) or a pack's directory"
            ),
            RenderError::EmptyPack(path) => write!(f, "pack {} has no problems", path.display()),
            RenderError::NotAPack(path) => write!(
                f,
                "{}: not a pack (a pack.jsonl has one JSON object per line); render draws one \
                 SFEN given as the argument, a KIF or CSA file, or every problem of a pack \
                 (its pack.jsonl or its directory)",
                path.display()
            ),
            RenderError::CreateDir { path, error } => {
                write!(f, "cannot create {}: {error}", path.display())
            }
            RenderError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            RenderError::Stdout(error) => write!(f, "cannot write the diagram to stdout: {error}"),
        }
    }
}

impl std::error::Error for RenderError {}

/// A problem to draw: its position and the moves that may follow.
struct Problem {
    pos: Position,
    moves: Vec<String>,
}

/// Reads `<sfen> moves m1 m2 …` (an SFEN line, as `tsume verify` reads it) or a USI
/// `position …` / `sfen …` command (as `tsume solve` reads it) into the position and the
/// moves.
fn parse_sfen_with_moves(text: &str) -> Result<Problem, RenderError> {
    if matches!(text.split_whitespace().next(), Some("position" | "sfen")) {
        let crate::input::SfenWithMoves { sfen, moves } = crate::input::split_moves(text);
        let pos = Position::from_sfen(&sfen).map_err(RenderError::Position)?;
        return Ok(Problem { pos, moves });
    }
    let read = line::parse_sfen_line(text)
        .map_err(RenderError::Line)?
        .ok_or(RenderError::EmptySfen)?;
    let pos = read.position().map_err(RenderError::Line)?;
    Ok(Problem {
        pos,
        moves: read.solution.unwrap_or_default(),
    })
}

/// The position after `ply` of the problem's moves, with the options to draw it.
fn position_after(problem: &Problem, ply: usize) -> Result<(Position, RenderOptions), MovesError> {
    let mut pos = problem.pos.clone();
    let attacker = pos.side_to_move();
    if ply > problem.moves.len() {
        return Err(MovesError::Beyond {
            ply,
            moves: problem.moves.len(),
        });
    }
    let mut last = None;
    // Every move is checked, not only those drawn: a diagram of a line with an illegal
    // move in it is bad input whatever `--move` says.
    let moves = crate::input::parse_moves(&pos, &problem.moves).map_err(MovesError::Illegal)?;
    for &m in &moves[..ply] {
        pos.do_move(m);
        last = Some(m);
    }
    Ok((
        pos,
        RenderOptions {
            last_move: last,
            attacker: Some(attacker),
            title: None,
            board_only: false,
        },
    ))
}

fn write_file(path: &Path, text: &str) -> Result<(), RenderError> {
    std::fs::write(path, text).map_err(|error| RenderError::Write {
        path: path.to_path_buf(),
        error,
    })
}

/// The pack file the input argument names, if it names one rather than an SFEN: a file
/// (or a name ending in `.jsonl`), or a pack's directory (its `pack.jsonl`, as `tsume
/// verify` and `tsume html` read it).
fn pack_path(input: &str) -> Result<Option<PathBuf>, RenderError> {
    let path = Path::new(input);
    if path.is_dir() {
        return crate::html::pack_file_in(path)
            .map(Some)
            .map_err(RenderError::NoPackFile);
    }
    Ok((input.ends_with(".jsonl") || path.is_file()).then(|| path.to_path_buf()))
}

/// The problem of a KIF or CSA file (by its extension, or by its content as `tsume verify`
/// tells it), read as `tsume solve` reads it: the record's starting position and its main
/// line (the moves `--move` plays). `None`: the input is not such a file (an SFEN, a pack).
fn record_problem(input: &str) -> Result<Option<Problem>, RenderError> {
    let path = Path::new(input);
    if input.ends_with(".jsonl") || !path.is_file() {
        return Ok(None);
    }
    let bytes = std::fs::read(path).map_err(|error| {
        RenderError::Record(InputError::Unreadable {
            path: input.to_string(),
            error,
        })
    })?;
    if crate::verify::detect(input, &bytes) == InputKind::Lines {
        return Ok(None);
    }
    let problem = input::load_problem(input, Format::Auto).map_err(|e| match e {
        InputError::SeveralRecords { path, records } => {
            RenderError::SeveralRecords { path, records }
        }
        e => RenderError::Record(e),
    })?;
    let pos = Position::from_setup(&problem.setup)
        .map_err(|e| RenderError::Record(InputError::IllegalPosition(e)))?;
    Ok(Some(Problem {
        pos,
        moves: problem.line.iter().map(Move::to_string).collect(),
    }))
}

/// Runs `tsume render INPUT --out OUT [--move N]`; returns the files written.
pub fn run(input: &str, out: &Path, ply: Option<usize>) -> Result<Vec<PathBuf>, RenderError> {
    let ply = ply.unwrap_or(0);
    let problem = match record_problem(input)? {
        Some(problem) => problem,
        None => {
            if let Some(pack) = pack_path(input)? {
                if out == Path::new("-") {
                    return Err(RenderError::PackToStdout(input.to_string()));
                }
                return render_pack(&pack, out, ply);
            }
            parse_sfen_with_moves(input).map_err(|e| match e {
                RenderError::Line(_) if input::is_one_word(input) => {
                    RenderError::NoSuchInput(input.to_string())
                }
                e => e,
            })?
        }
    };
    let (pos, opts) = position_after(&problem, ply).map_err(RenderError::Moves)?;
    let svg = render_svg(&pos, &opts);
    if out == Path::new("-") {
        crate::output::write_stdout(&svg).map_err(RenderError::Stdout)?;
        return Ok(Vec::new());
    }
    if out.is_dir() {
        return Err(RenderError::OutIsDirectory(out.to_path_buf()));
    }
    write_file(out, &svg)?;
    Ok(vec![out.to_path_buf()])
}

fn render_pack(path: &Path, dir: &Path, ply: usize) -> Result<Vec<PathBuf>, RenderError> {
    let bytes = std::fs::read(path).map_err(|error| RenderError::UnreadablePack {
        path: path.to_path_buf(),
        error,
    })?;
    // An SFEN list (a pack's pack.sfen) is named as such, not by a JSON parser's complaint;
    // a `.jsonl` file is a pack whatever its lines, and its bad lines are named as such.
    let jsonl = path.extension().is_some_and(|e| e == "jsonl");
    let first = String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.trim_start_matches('\u{feff}').starts_with('{'));
    if !jsonl && first == Some(false) {
        return Err(RenderError::NotAPack(path.to_path_buf()));
    }
    let at = |line: usize, error: LineError| RenderError::PackLine {
        path: path.to_path_buf(),
        line,
        error,
    };
    let mut jobs = Vec::new();
    // Ids are file names: the one id rule keeps them inside `dir` and visible.
    for p in line::read_pack(&bytes).map_err(|e| at(e.line, e.error))? {
        let read = &p.problem;
        let problem = Problem {
            pos: read.position().map_err(|e| at(p.line, e))?,
            moves: read.solution.clone().unwrap_or_default(),
        };
        let (pos, mut opts) =
            position_after(&problem, ply).map_err(|e| at(p.line, read.error(e.to_string())))?;
        opts.title = Some(p.id.clone());
        jobs.push((p.id, render_svg(&pos, &opts)));
    }
    if jobs.is_empty() {
        return Err(RenderError::EmptyPack(path.to_path_buf()));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(RenderError::OutNotDirectory(dir.to_path_buf()));
    }
    std::fs::create_dir_all(dir).map_err(|error| RenderError::CreateDir {
        path: dir.to_path_buf(),
        error,
    })?;
    let mut written = Vec::new();
    for (id, svg) in jobs {
        let file = dir.join(format!("{id}.svg"));
        write_file(&file, &svg)?;
        written.push(file);
    }
    Ok(written)
}

#[cfg(test)]
mod tests;
