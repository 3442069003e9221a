//! `tsume html`: a pack as one self-contained, offline HTML page to browse and solve.
//!
//! The page (`src/html/page.html`, with `style.css` and `app.js` inlined) has a list of
//! the problems with thumbnails (the `tsume render` board, inline SVG, with the hands
//! written as text under it), length and grade, filters by length and grade, and a problem
//! view where the user plays the solution by clicking squares.
//!
//! Every position the page can show is computed here, by the rules core: for each problem
//! the SFEN before each ply of the solution and after each accepted final alternative, and
//! the attacker's legal moves (USI) before each of its plies. The script then only parses
//! SFENs and looks clicks up: a click that makes no legal move does nothing, the selected
//! piece's legal destinations are highlighted, 成/不成 is asked only when both are legal,
//! and a legal move is compared with the expected one. So the page cannot drift from the
//! rules (a wrong move is never played, and a right one shows the rules core's position
//! after it).
//!
//! Reading is strict: a pack line the page could not show correctly (bad JSON, bad SFEN,
//! an illegal move in the solution or final alternatives…) is an error naming the line and
//! the problem, never a silently broken page. Soundness is `tsume verify`'s job.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use tsume_generator::line::{self, LineError, ProblemLine};
use tsume_solver::position::IllegalMoveError;
use tsume_solver::{notation, Color, Move, PieceKind, Position, Setup, Square};

use crate::render::{escape, hand_text, render_svg, RenderOptions};

/// The file a pack directory holds its problems in.
pub(crate) const PACK_FILE: &str = "pack.jsonl";

/// A directory given for a pack that holds no [`PACK_FILE`].
#[derive(Debug)]
pub(crate) struct NoPackFile(pub PathBuf);

impl fmt::Display for NoPackFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is a directory without a {PACK_FILE}",
            self.0.display()
        )
    }
}

/// The pack file in a pack's directory `dir` (as `tsume generate --out` writes it): what
/// `tsume verify`, `tsume render` and `tsume html` read when given the directory.
pub(crate) fn pack_file_in(dir: &Path) -> Result<PathBuf, NoPackFile> {
    let file = dir.join(PACK_FILE);
    if file.is_file() {
        Ok(file)
    } else {
        Err(NoPackFile(dir.to_path_buf()))
    }
}
/// The page written when `--out` is not given, inside the pack directory.
const DEFAULT_OUT: &str = "index.html";

const PAGE_TEMPLATE: &str = include_str!("html/page.html");
const STYLE: &str = include_str!("html/style.css");
const SCRIPT: &str = include_str!("html/app.js");

/// One move of a line, as the page shows it.
#[derive(Debug, Serialize)]
struct PageMove {
    /// Canonical USI (what the script builds from the clicks).
    usi: String,
    /// Japanese with the side mark: `▲２三飛打`.
    ja: String,
}

/// An accepted other last move and the position after it.
#[derive(Debug, Serialize)]
struct Alternative {
    usi: String,
    ja: String,
    sfen: String,
}

/// One problem as the page needs it (serialised into the page's data).
#[derive(Debug, Serialize)]
struct PageProblem {
    id: String,
    length: usize,
    grade: Option<u64>,
    themes: Vec<String>,
    /// `"b"` or `"w"`: the side that attacks, drawn at the bottom.
    attacker: &'static str,
    /// The SFEN before each ply of the solution and after the last: `length + 1` entries.
    positions: Vec<String>,
    /// The legal moves where the user plays, the attacker's turns: entry `i` is for
    /// `positions[2 * i]`, its USI moves sorted and joined by spaces (`(length + 1) / 2`
    /// entries). The script only looks clicks up in them.
    legal: Vec<String>,
    moves: Vec<PageMove>,
    alternatives: Vec<Alternative>,
    /// The diagram of the problem, an inline `<svg>` (in the list, not in the data).
    #[serde(skip)]
    thumbnail: String,
    /// The hands as the card writes them under the diagram ([`card_hands`]).
    #[serde(skip)]
    hands: [String; 2],
}

/// Runs `tsume html DIR [--out FILE]`; returns the file written (`None` for stdout).
pub fn run(dir: &Path, out: Option<&Path>) -> Result<Option<PathBuf>, HtmlError> {
    let problems = read_pack(dir)?;
    let page = page_html(&pack_title(dir), &problems);
    let out = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| dir.join(DEFAULT_OUT));
    if out == Path::new("-") {
        crate::output::write_stdout(&page).map_err(HtmlError::Stdout)?;
        return Ok(None);
    }
    if out.is_dir() {
        return Err(HtmlError::OutIsDirectory(out));
    }
    std::fs::write(&out, page).map_err(|error| HtmlError::Write {
        path: out.clone(),
        error,
    })?;
    let n = problems.len();
    let plural = if n == 1 { "" } else { "s" };
    eprintln!("wrote {} ({n} problem{plural})", out.display());
    Ok(Some(out))
}

/// The page title: the pack directory's name.
fn pack_title(dir: &Path) -> String {
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()));
    match name {
        Some(n) => format!("Tsume pack: {n}"),
        None => "tsume pack".to_string(),
    }
}

// ----- reading the pack -----

/// Reads and checks every problem of `DIR/pack.jsonl`.
fn read_pack(dir: &Path) -> Result<Vec<PageProblem>, HtmlError> {
    if !dir.exists() {
        return Err(HtmlError::NoPack(dir.to_path_buf()));
    }
    if !dir.is_dir() {
        return Err(HtmlError::NotDirectory(dir.to_path_buf()));
    }
    let path = pack_file_in(dir).map_err(|NoPackFile(dir)| HtmlError::NoPackFile(dir))?;
    let bytes = std::fs::read(&path).map_err(|error| HtmlError::Read {
        path: path.clone(),
        error,
    })?;
    let at = |line: usize, error: LineError| HtmlError::Line {
        path: path.clone(),
        line,
        error,
    };
    let problems = line::read_pack(&bytes)
        .map_err(|e| at(e.line, e.error))?
        .into_iter()
        .map(|p| page_problem(p.id, &p.problem).map_err(|e| at(p.line, e)))
        .collect::<Result<Vec<_>, _>>()?;
    if problems.is_empty() {
        return Err(HtmlError::Empty(path));
    }
    Ok(problems)
}

/// Why `tsume html` cannot write its page.
#[derive(Debug)]
pub enum HtmlError {
    /// The pack directory does not exist.
    NoPack(PathBuf),
    /// The pack path is not a directory.
    NotDirectory(PathBuf),
    /// The pack directory has no pack file.
    NoPackFile(PathBuf),
    /// The pack file cannot be read.
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A problem of the pack, at `line` of `path`.
    Line {
        path: PathBuf,
        line: usize,
        error: LineError,
    },
    /// A pack without problems.
    Empty(PathBuf),
    /// A directory given as the page's file.
    OutIsDirectory(PathBuf),
    /// The page cannot be written.
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The page cannot be written to stdout (`--out -`).
    Stdout(std::io::Error),
}

impl fmt::Display for HtmlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HtmlError::NoPack(dir) => write!(f, "pack directory {} does not exist", dir.display()),
            HtmlError::NotDirectory(dir) => write!(
                f,
                "{} is not a directory (give the pack directory, which holds {PACK_FILE})",
                dir.display()
            ),
            HtmlError::NoPackFile(dir) => {
                write!(f, "no {PACK_FILE} in pack directory {}", dir.display())
            }
            HtmlError::Read { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            HtmlError::Line { path, line, error } => {
                write!(f, "{}:{line}: {error}", path.display())
            }
            HtmlError::Empty(path) => write!(f, "{} has no problems", path.display()),
            HtmlError::OutIsDirectory(out) => write!(
                f,
                "--out {} is a directory; give a file name such as pack.html",
                out.display()
            ),
            HtmlError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            HtmlError::Stdout(error) => write!(f, "cannot write the page to stdout: {error}"),
        }
    }
}

/// A pack line read → the problem as the page shows it, or an error naming the problem
/// and what is wrong.
fn page_problem(id: String, read: &ProblemLine) -> Result<PageProblem, LineError> {
    let pos = read.position()?;
    let solution = read.solution.as_deref().unwrap_or_default();
    let alternatives = read.final_alternatives.as_deref().unwrap_or_default();
    let line =
        play_solution(&pos, solution, alternatives).map_err(|e| read.error(e.to_string()))?;
    check_length(read.length, line.moves.len()).map_err(|e| read.error(e.to_string()))?;
    let thumbnail = thumbnail(&pos);
    let hands = card_hands(&pos);
    Ok(PageProblem {
        length: line.moves.len(),
        attacker: match pos.side_to_move() {
            Color::Black => "b",
            Color::White => "w",
        },
        id,
        grade: read.grade,
        themes: read.themes.clone().unwrap_or_default(),
        positions: line.positions,
        legal: line.legal,
        moves: line.moves,
        alternatives: line.alternatives,
        thumbnail,
        hands,
    })
}

/// Why a pack line's solution cannot be shown: the message of its [`LineError`].
#[derive(Debug)]
enum SolutionError {
    Missing,
    /// An even number of moves: the attacker's mating move is not last.
    EvenLength(usize),
    /// Move `number` (1-based) of the solution.
    Move {
        number: usize,
        usi: String,
        error: IllegalMoveError,
    },
    /// A final alternative that is not legal where the last move is played.
    Alternative {
        usi: String,
        error: IllegalMoveError,
    },
    /// A `length` that is not the solution's.
    Length {
        length: u64,
        moves: usize,
    },
}

impl fmt::Display for SolutionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolutionError::Missing => write!(f, "missing \"solution\" (a list of USI moves)"),
            SolutionError::EvenLength(n) => write!(
                f,
                "the solution has {n} moves: it must end with the attacker's mating move (an odd number)"
            ),
            SolutionError::Move { number, usi, error } => {
                write!(f, "solution move {number} ({usi}): {error}")
            }
            SolutionError::Alternative { usi, error } => {
                write!(f, "final alternative {usi}: {error}")
            }
            SolutionError::Length { length, moves } => {
                write!(f, "\"length\" is {length} but the solution has {moves} moves")
            }
        }
    }
}

/// A solution played out: what the page shows along it.
struct PlayedLine {
    /// The SFEN before each ply and after the last.
    positions: Vec<String>,
    /// The attacker's legal moves before each of its plies ([`legal_moves_text`]).
    legal: Vec<String>,
    moves: Vec<PageMove>,
    /// The accepted final alternatives, without repeats or the solution's own last move.
    alternatives: Vec<Alternative>,
}

/// Plays the solution from `pos` and checks the final alternatives.
fn play_solution(
    pos: &Position,
    solution: &[String],
    alternatives: &[String],
) -> Result<PlayedLine, SolutionError> {
    if solution.is_empty() {
        return Err(SolutionError::Missing);
    }
    if solution.len().is_multiple_of(2) {
        return Err(SolutionError::EvenLength(solution.len()));
    }
    let mut p = pos.clone();
    let mut positions = vec![p.to_sfen()];
    let mut legal = Vec::with_capacity(solution.len().div_ceil(2));
    let mut moves = Vec::with_capacity(solution.len());
    let mut previous_to = None;
    // Where the alternatives are played instead of the last move, and the destination of
    // the move before it (for 同).
    let mut before_last = (p.clone(), None);
    for (i, usi) in solution.iter().enumerate() {
        let m = p.parse_move(usi).map_err(|error| SolutionError::Move {
            number: i + 1,
            usi: usi.clone(),
            error,
        })?;
        if i + 1 == solution.len() {
            before_last = (p.clone(), previous_to);
        }
        if i % 2 == 0 {
            legal.push(legal_moves_text(&p));
        }
        moves.push(page_move(&p, m, previous_to));
        previous_to = Some(m.to());
        p.do_move(m);
        positions.push(p.to_sfen());
    }
    let last = moves[moves.len() - 1].usi.clone();
    let mut accepted = Vec::new();
    for usi in alternatives {
        let alt = final_alternative(&before_last.0, usi, before_last.1)?;
        // The solution's own last move, or a repeat, adds nothing.
        if alt.usi != last && !accepted.iter().any(|a: &Alternative| a.usi == alt.usi) {
            accepted.push(alt);
        }
    }
    Ok(PlayedLine {
        positions,
        legal,
        moves,
        alternatives: accepted,
    })
}

/// Every legal move of `pos` in USI, sorted and joined by spaces: the page's list of the
/// moves a click may make there.
fn legal_moves_text(pos: &Position) -> String {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    moves.sort_unstable();
    moves.join(" ")
}

/// A move with its side mark and Japanese (`previous_to` makes a recapture `同`).
fn page_move(pos: &Position, m: Move, previous_to: Option<Square>) -> PageMove {
    PageMove {
        usi: m.to_string(),
        ja: format!(
            "{}{}",
            notation::side_mark(pos.side_to_move()),
            notation::japanese_move(pos, m, previous_to)
        ),
    }
}

/// Checks a final alternative: legal where the last move is played. Whether it mates is
/// left to `tsume verify`: under tsume rules a position can be mate although useless
/// interpositions (無駄合) are legal, which only a search decides.
fn final_alternative(
    before_last: &Position,
    usi: &str,
    previous_to: Option<Square>,
) -> Result<Alternative, SolutionError> {
    let m = before_last
        .parse_move(usi)
        .map_err(|error| SolutionError::Alternative {
            usi: usi.to_string(),
            error,
        })?;
    let mut after = before_last.clone();
    after.do_move(m);
    let PageMove { usi, ja } = page_move(before_last, m, previous_to);
    Ok(Alternative {
        usi,
        ja,
        sfen: after.to_sfen(),
    })
}

/// An optional `length` must agree with the solution.
fn check_length(length: Option<u64>, solution_len: usize) -> Result<(), SolutionError> {
    match length {
        Some(n) if n != solution_len as u64 => Err(SolutionError::Length {
            length: n,
            moves: solution_len,
        }),
        _ => Ok(()),
    }
}

/// The problem's diagram for the list, as inline SVG: the board only, the hands are
/// written as text on the card ([`card_hands`]), and its title is the SFEN (the id is in
/// the link, not on the card).
fn thumbnail(pos: &Position) -> String {
    let svg = render_svg(
        pos,
        &RenderOptions {
            board_only: true,
            ..RenderOptions::default()
        },
    );
    inline_svg(&svg)
}

/// The attacker's hand and the defender's, as the card writes them: `▲持駒 金二`, and
/// `△持駒 残り全部` when the defender holds every piece that is neither on the board nor
/// in the attacker's hand (the tsume convention), else its hand as it is.
fn card_hands(pos: &Position) -> [String; 2] {
    let attacker = pos.side_to_move();
    let defender = !attacker;
    let setup = Setup::from_sfen(&pos.to_sfen()).expect("a position's SFEN reads back");
    let full = PieceKind::HAND
        .into_iter()
        .all(|k| setup.count(k) == u32::from(k.full_set_count()));
    let defender_text = if full && !pos.hand(defender).is_empty() {
        format!("{}持駒 残り全部", notation::side_mark(defender))
    } else {
        hand_text(defender, pos.hand(defender))
    };
    [hand_text(attacker, pos.hand(attacker)), defender_text]
}

/// An SVG document made fit to inline in HTML: the HTML parser puts `<svg>` in the SVG
/// namespace by itself, so the `xmlns` declaration (the page's only URL) is dropped to
/// keep the page free of any `http:` reference.
fn inline_svg(svg: &str) -> String {
    svg.replacen(r#" xmlns="http://www.w3.org/2000/svg""#, "", 1)
        .replacen("<svg ", r#"<svg aria-hidden="true" "#, 1)
}

// ----- writing the page -----

/// The page's data as JSON safe inside `<script>`: `<` only occurs in JSON strings, where
/// `\u003c` means the same, so no `</script>` or `<!--` can end the element early.
fn script_json(problems: &[PageProblem]) -> String {
    let json = serde_json::to_string(&serde_json::json!({ "problems": problems }))
        .expect("page data serialises");
    json.replace('<', "\\u003c")
}

/// The whole page.
fn page_html(title: &str, problems: &[PageProblem]) -> String {
    fill_template(
        PAGE_TEMPLATE,
        &[
            ("title", &escape(title)),
            ("style", STYLE),
            ("count", &problems.len().to_string()),
            ("length_options", &length_options(problems)),
            ("grade_options", &grade_options(problems)),
            ("cards", &cards(problems)),
            ("data", &script_json(problems)),
            ("script", SCRIPT),
        ],
    )
}

/// Replaces each `{{name}}` of the template with its value, in one pass (so a value that
/// happens to contain `{{…}}` is left alone).
fn fill_template(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let end = rest[start..]
            .find("}}")
            .map(|e| start + e)
            .expect("template placeholders are closed");
        let name = &rest[start + 2..end];
        let value = values
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no value for template placeholder {name}"));
        out.push_str(&rest[..start]);
        out.push_str(value.1);
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// `<option>`s of the length filter: every length in the pack, shortest first.
fn length_options(problems: &[PageProblem]) -> String {
    let mut lengths: Vec<usize> = problems.iter().map(|p| p.length).collect();
    lengths.sort_unstable();
    lengths.dedup();
    lengths
        .iter()
        .map(|n| format!(r#"<option value="{n}">{n}手詰 (mate in {n})</option>"#))
        .collect()
}

/// `<option>`s of the grade filter: every grade in the pack, and "ungraded" when a problem
/// has none.
fn grade_options(problems: &[PageProblem]) -> String {
    let mut grades: Vec<u64> = problems.iter().filter_map(|p| p.grade).collect();
    grades.sort_unstable();
    grades.dedup();
    let mut html: String = grades
        .iter()
        .map(|g| format!(r#"<option value="{g}">grade {g}</option>"#))
        .collect();
    if problems.iter().any(|p| p.grade.is_none()) {
        html.push_str(r#"<option value="none">ungraded</option>"#);
    }
    html
}

/// The list of problems: one card each, with the diagram, length, grade and themes.
fn cards(problems: &[PageProblem]) -> String {
    problems
        .iter()
        .enumerate()
        .map(|(i, p)| card(i + 1, p))
        .collect()
}

fn card(number: usize, p: &PageProblem) -> String {
    let id = escape(&p.id);
    let (grade_attr, grade_text) = match p.grade {
        Some(g) => (g.to_string(), format!("grade {g}")),
        None => ("none".to_string(), "ungraded".to_string()),
    };
    let themes = if p.themes.is_empty() {
        String::new()
    } else {
        format!(
            r#"<span class="themes">{}</span>"#,
            escape(&p.themes.join(", "))
        )
    };
    format!(
        r##"<li class="card" data-id="{id}" data-length="{len}" data-grade="{grade_attr}"><a href="#problem={id}"><span class="thumb">{svg}</span><span class="hands"><span>{attacker}</span> <span>{defender}</span></span><span class="meta"><b class="number">#{number}</b> <span class="length">{len}手詰</span> <span class="grade">{grade_text}</span></span>{themes}</a></li>
"##,
        len = p.length,
        svg = p.thumbnail,
        attacker = escape(&p.hands[0]),
        defender = escape(&p.hands[1]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One pack line → the page's problem, as `read_pack` reads it.
    fn parse_line(text: &str) -> Result<PageProblem, LineError> {
        let read = line::parse_json(text)?;
        let id = read
            .id
            .clone()
            .ok_or_else(|| read.error("missing \"id\" (a string)"))?;
        page_problem(id, &read)
    }

    const MATE3: &str = r#"{"id":"m3","sfen":"6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1","length":3,"solution":["2c2b+","1b1c","R*2c"],"difficulty":{"grade":2}}"#;

    #[test]
    fn a_line_becomes_positions_moves_and_alternatives() {
        let p = parse_line(MATE3).unwrap();
        assert_eq!(p.length, 3);
        assert_eq!(p.grade, Some(2));
        assert_eq!(p.attacker, "b");
        assert_eq!(p.positions.len(), 4);
        assert_eq!(
            p.positions[0],
            "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1"
        );
        let ja: Vec<&str> = p.moves.iter().map(|m| m.ja.as_str()).collect();
        assert_eq!(ja, ["▲２二歩成", "△１三玉", "▲２三飛打"]);
        assert!(p.alternatives.is_empty());
        // A final alternative: legal, mating, with the position after it.
        let line = r#"{"id":"alt","sfen":"8k/9/7+R1/9/9/9/9/9/9 b Gr2b3g4s4n4l18p 1","solution":["G*1b"],"final_alternatives":["G*2b","G*1b"]}"#;
        let p = parse_line(line).unwrap();
        assert_eq!(
            p.alternatives.len(),
            1,
            "the solution's own move is dropped"
        );
        assert_eq!(p.alternatives[0].usi, "G*2b");
        assert_eq!(p.alternatives[0].ja, "▲２二金打");
        assert!(p.alternatives[0].sfen.starts_with("8k/7G1/7+R1/"));
    }

    /// The embedded legal moves of each of the attacker's positions are exactly the rules
    /// core's `legal_moves()` there, one per attacker's turn.
    #[test]
    fn the_attackers_positions_carry_their_legal_moves() {
        // A pawn at 7b: it may only promote on 7a.
        let forced = r#"{"id":"f","sfen":"4k4/2P6/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l16p 1","solution":["G*5b"]}"#;
        for text in [MATE3, forced] {
            let p = parse_line(text).unwrap();
            assert_eq!(p.legal.len(), p.length.div_ceil(2));
            for (i, legal) in p.legal.iter().enumerate() {
                let pos = Position::from_sfen(&p.positions[2 * i]).unwrap();
                let mut want: Vec<String> =
                    pos.legal_moves().iter().map(|m| m.to_string()).collect();
                want.sort();
                let got: Vec<&str> = legal.split(' ').collect();
                assert_eq!(got, want, "{} ply {}", p.id, 2 * i);
                assert!(got.contains(&p.moves[2 * i].usi.as_str()));
            }
        }
        let p = parse_line(MATE3).unwrap();
        let first: Vec<&str> = p.legal[0].split(' ').collect();
        // The pawn at 2c may promote on 2b or not; the rook drops on empty squares only; no
        // bishop in hand, no bishop drop.
        assert!(first.contains(&"2c2b+") && first.contains(&"2c2b"));
        assert!(first.contains(&"R*5e") && !first.contains(&"R*1b"));
        assert!(!first.iter().any(|m| m.starts_with("B*")));
        let p = parse_line(forced).unwrap();
        assert!(p.legal[0].split(' ').any(|m| m == "7b7a+"));
        assert!(!p.legal[0].split(' ').any(|m| m == "7b7a"));
    }

    #[test]
    fn bad_lines_name_the_problem() {
        let cases = [
            ("[1]", "not a JSON object"),
            (r#"{"sfen":"4k4/9/9/9/9/9/9/9/9 b G 1"}"#, "missing \"id\""),
            (r#"{"id":"a b"}"#, "an id must be"),
            (r#"{"id":".a"}"#, "not starting with '.'"),
            (
                r#"{"id":"x","sfen":"9/9 b - 1"}"#,
                "problem x: malformed SFEN",
            ),
            (
                r#"{"id":"x","sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1"}"#,
                "problem x: missing \"solution\"",
            ),
            (
                r#"{"id":"x","sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1","solution":["G*5b","5a4a"]}"#,
                "an odd number",
            ),
            (
                r#"{"id":"x","sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1","solution":["5c5a"]}"#,
                "solution move 1 (5c5a)",
            ),
            (
                r#"{"id":"x","sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1","solution":["G*5b"],"final_alternatives":["5a4a"]}"#,
                "final alternative 5a4a: 5a4a is not a legal move",
            ),
            (
                r#"{"id":"x","sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1","solution":["G*5b"],"length":3}"#,
                "\"length\" is 3",
            ),
            (
                r#"{"id":"x","sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1","solution":["G*5b"],"difficulty":{"grade":"hard"}}"#,
                "difficulty.grade",
            ),
            (
                r#"{"id":"x","sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1","solution":"G*5b"}"#,
                "\"solution\" must be a list of strings",
            ),
        ];
        for (line, needle) in cases {
            let e = parse_line(line)
                .err()
                .unwrap_or_else(|| panic!("{line} accepted"))
                .to_string();
            assert!(e.contains(needle), "{line}: {e:?} lacks {needle:?}");
        }
    }

    #[test]
    fn white_attacker() {
        // Black's king at 5i, White's pawn at 5g, a gold in White's hand: G*5h mates.
        let line = r#"{"id":"w","sfen":"9/9/9/9/9/9/4p4/9/4K4 w g 1","solution":["G*5h"]}"#;
        let p = parse_line(line).unwrap();
        assert_eq!(p.attacker, "w");
        assert_eq!(p.moves[0].ja, "△５八金打");
    }

    #[test]
    fn cards_write_the_hands_and_keep_the_id_in_the_link_only() {
        let p = parse_line(MATE3).unwrap();
        let html = card(1, &p);
        assert!(html.contains(r#"data-id="m3""#) && html.contains(r##"href="#problem=m3""##));
        assert_eq!(html.matches("m3").count(), 2, "the id is not shown: {html}");
        // Every piece is accounted for: the defender holds the rest.
        assert!(html.contains("<span>▲持駒 飛</span> <span>△持駒 残り全部</span>"));
        assert_eq!(html.matches("<svg ").count(), 1);
        assert!(
            !html.contains(r#"class="hand "#),
            "no hands inside the diagram"
        );
        // The defender's king (White's, at 1b) is 玉, drawn upside down.
        let king = html
            .split("<text ")
            .find(|t| t.contains(r#"data-square="1b""#))
            .unwrap();
        assert!(
            king.starts_with(r#"class="piece defender""#) && king.contains("rotate(180"),
            "{king}"
        );
        assert!(king.contains(">玉<"), "{king}");
        assert!(!html.contains('王'));
        // Not a full set: the defender's hand as it is (here empty).
        let w = r#"{"id":"w","sfen":"9/9/9/9/9/9/4p4/9/4K4 w g 1","solution":["G*5h"]}"#;
        let html = card(2, &parse_line(w).unwrap());
        assert!(html.contains("<span>△持駒 金</span> <span>▲持駒 なし</span>"));
        let partial = r#"{"id":"x","sfen":"4k4/9/4P4/9/9/9/9/9/9 b G2r 1","solution":["G*5b"]}"#;
        let html = card(3, &parse_line(partial).unwrap());
        assert!(html.contains("<span>▲持駒 金</span> <span>△持駒 飛二</span>"));
    }

    #[test]
    fn the_page_is_self_contained_and_its_data_cannot_close_the_script() {
        let mut p = parse_line(MATE3).unwrap();
        p.themes = vec!["</script><b>{{script}}".into()];
        let page = page_html("a <pack>", &[p]);
        assert!(!page.contains("http:") && !page.contains("https:"));
        assert!(page.contains("<title>a &lt;pack&gt;</title>"));
        assert_eq!(page.matches("</script>").count(), 2, "data and code only");
        assert!(page.contains(r#"\u003c/script>\u003cb>{{script}}"#));
        assert!(page.contains("&lt;/script&gt;&lt;b&gt;{{script}}"));
        assert!(!page.contains("{{title}}") && !page.contains("{{cards}}"));
    }

    #[test]
    fn template_placeholders_are_filled_once() {
        assert_eq!(
            fill_template("a{{x}}b{{y}}c", &[("x", "{{y}}"), ("y", "2")]),
            "a{{y}}b2c"
        );
    }
}
