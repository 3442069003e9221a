//! The one reader of problem lines: a pack's JSON line (`pack.jsonl`) or an SFEN line
//! (`pack.sfen`, problem lists: `<sfen> [<label>] [moves m1 m2 …] [# comment]`) becomes a
//! typed [`ProblemLine`]. `tsume verify`, `tsume render` and `tsume html` all read through
//! it, so one pack reads the same in each (one id rule: [`is_valid_id`]); what a command
//! needs beyond that (a solution to play, a legal position to draw) it checks itself.
//!
//! The record files read as problems too: the generator's `problems.kif` (several KIF
//! records, [`read_kif_records`]) and a single KIF or CSA problem ([`read_csa`]), each
//! record's position and main line becoming a [`ProblemLine`] like a line's.
//!
//! Only the syntax and the types of the fields are checked here: an SFEN that parses (not
//! a legal position: [`ProblemLine::position`]), moves as strings (not legal moves).

use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value};
use tsume_solver::{csa, kif, Move, Position, Setup};

/// The longest id accepted.
pub const MAX_ID_LEN: usize = 200;

/// One problem as a line gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemLine {
    /// The problem's id (JSON lines only; optional here, required by `render` and `html`).
    pub id: Option<String>,
    /// The position, parsed but not validated.
    pub setup: Setup,
    /// The claimed solution as USI moves (`moves …`, or the JSON `solution` list).
    pub solution: Option<Vec<String>>,
    /// Other mating last moves (JSON `final_alternatives`).
    pub final_alternatives: Option<Vec<String>>,
    /// The JSON `length`.
    pub length: Option<u64>,
    /// The JSON `difficulty.grade`.
    pub grade: Option<u64>,
    /// The JSON `themes`.
    pub themes: Option<Vec<String>>,
}

/// Why a line could not be read: the message, and the problem's id when the line gave a
/// valid one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub id: Option<String>,
    pub message: String,
}

impl LineError {
    fn new(message: impl Into<String>) -> LineError {
        LineError {
            id: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            Some(id) => write!(f, "problem {id}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for LineError {}

/// The id rule: 1 to [`MAX_ID_LEN`] ASCII letters, digits, `-`, `_` and `.`, not starting
/// with `.`. Ids name files (`render`) and page links (`html`), so they need no escaping
/// and cannot climb out of a directory or hide a file. The generator writes 16 hex digits.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Reads any problem line: a JSON object when it starts with `{`, otherwise an SFEN line.
/// `Ok(None)` for blank and `#` comment lines.
pub fn parse(text: &str) -> Result<Option<ProblemLine>, LineError> {
    let trimmed = text.trim();
    if trimmed.starts_with('{') {
        parse_json(trimmed).map(Some)
    } else {
        parse_sfen_line(trimmed)
    }
}

/// The words of a position as a problem line or `tsume solve`'s argument writes it: a USI
/// command's leading `position` dropped, then split at `moves` into the position's words
/// and, when `moves` is written, the moves.
pub fn position_and_moves(text: &str) -> (Vec<&str>, Option<Vec<&str>>) {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if words.first() == Some(&"position") {
        words.remove(0);
    }
    match words.iter().position(|w| *w == "moves") {
        Some(i) => {
            let moves = words.split_off(i + 1);
            words.truncate(i);
            (words, Some(moves))
        }
        None => (words, None),
    }
}

/// A problem as one SFEN line, `<sfen> moves m1 m2 …` (the SFEN alone without moves), as
/// a pack's `pack.sfen` holds it and [`parse_sfen_line`] reads it; no line feed.
pub fn sfen_line<M: fmt::Display>(sfen: &str, moves: &[M]) -> String {
    let mut line = sfen.to_string();
    if !moves.is_empty() {
        line.push_str(" moves");
        for m in moves {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}

/// Reads an SFEN line: `<sfen> [<label>] [moves m1 m2 …] [# comment]`, the SFEN optionally
/// `startpos` or prefixed with `sfen`, the whole optionally prefixed with `position` (a USI
/// command copied from a GUI's log: `position sfen … moves …`, `position startpos moves …`,
/// read as `tsume solve` reads its argument), the label a data set's length label (a number, `?`,
/// `nomate`, `nomateN` or `>=N`; not read). `Ok(None)` for
/// blank and `#` comment lines; any other text after the SFEN is an error (a misspelt
/// `moves` would otherwise drop the claimed solution).
pub fn parse_sfen_line(text: &str) -> Result<Option<ProblemLine>, LineError> {
    let body = text.split('#').next().unwrap_or("").trim();
    if body.is_empty() {
        return Ok(None);
    }
    let (position, moves) = position_and_moves(body);
    let moves = moves.map(|m| m.iter().map(|w| w.to_string()).collect());
    // `startpos` is one word; otherwise board, side, hands and an optional move number.
    let fields = if position.first() == Some(&"startpos") {
        1
    } else {
        4 + usize::from(position.first() == Some(&"sfen"))
    };
    let mut take = position.len().min(fields);
    // Without a move number, a label other than a number stands where the number would.
    if take == fields && fields > 1 && !is_number(position[take - 1]) {
        take -= 1;
    }
    // The SFEN's own error first: text that is no SFEN at all is told as such, not as
    // text after one.
    let setup = parse_setup(&position[..take].join(" "))?;
    let extra = &position[take..];
    if !(extra.is_empty() || extra.len() == 1 && is_length_label(extra[0])) {
        return Err(LineError::new(format!(
            "unexpected text after the SFEN: \"{}\" (only a length label — a number, `?`, \
             `nomate`, `nomateN` or `>=N` — and `moves …` may follow it)",
            extra.join(" ")
        )));
    }
    Ok(Some(ProblemLine {
        id: None,
        setup,
        solution: moves,
        final_alternatives: None,
        length: None,
        grade: None,
        themes: None,
    }))
}

/// Whether `word` is a data set's length label, ignored here: a length in plies, `?`
/// (unknown), `nomate`, `nomateN` (no mate within N) or `>=N` (the line format of
/// `benches/data/README.md`).
fn is_length_label(word: &str) -> bool {
    is_number(word)
        || word == "?"
        || word
            .strip_prefix("nomate")
            .is_some_and(|n| n.is_empty() || is_number(n))
        || word.strip_prefix(">=").is_some_and(is_number)
}

/// Whether `word` is a number of decimal digits.
fn is_number(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

fn parse_setup(sfen: &str) -> Result<Setup, LineError> {
    sfen.parse()
        .map_err(|e| LineError::new(format!("malformed SFEN: {e}")))
}

/// Reads a pack's JSON line: an object with `sfen` (a string) and optionally `id`,
/// `solution`, `final_alternatives`, `themes` (lists of strings), `length` (a whole number)
/// and `difficulty.grade` (a whole number); other fields are ignored.
pub fn parse_json(text: &str) -> Result<ProblemLine, LineError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| LineError::new(format!("not JSON: {e}")))?;
    let obj = value
        .as_object()
        .ok_or_else(|| LineError::new("not a JSON object (one problem per line)"))?;
    let id = match obj.get("id") {
        None => None,
        Some(Value::String(s)) if is_valid_id(s) => Some(s.clone()),
        Some(Value::String(s)) => {
            return Err(LineError::new(format!(
                "id {s:?}: an id must be 1 to {MAX_ID_LEN} letters, digits, '-', '_' and '.', not starting with '.'"
            )))
        }
        Some(v) => return Err(LineError::new(format!("\"id\" must be a string, got {v}"))),
    };
    let in_problem = |message: String| LineError {
        id: id.clone(),
        message,
    };
    let sfen = match obj.get("sfen") {
        Some(Value::String(s)) => s,
        None => return Err(in_problem("missing \"sfen\" (a string)".into())),
        Some(v) => return Err(in_problem(format!("\"sfen\" must be a string, got {v}"))),
    };
    let setup = parse_setup(sfen).map_err(|e| in_problem(e.message))?;
    let list = |field| string_list(obj, field).map_err(in_problem);
    Ok(ProblemLine {
        setup,
        solution: list("solution")?,
        final_alternatives: list("final_alternatives")?,
        themes: list("themes")?,
        length: whole_number(obj.get("length"), "length").map_err(in_problem)?,
        grade: grade(obj.get("difficulty")).map_err(in_problem)?,
        id,
    })
}

/// An optional field that must be a list of strings.
fn string_list(obj: &Map<String, Value>, field: &str) -> Result<Option<Vec<String>>, String> {
    let bad = || format!("\"{field}\" must be a list of strings");
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(bad))
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(bad()),
    }
}

/// An optional field that must be a non-negative integer.
fn whole_number(value: Option<&Value>, field: &str) -> Result<Option<u64>, String> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("\"{field}\" must be a whole number, got {v}")),
    }
}

/// The optional `difficulty.grade`.
fn grade(difficulty: Option<&Value>) -> Result<Option<u64>, String> {
    match difficulty {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(d)) => whole_number(d.get("grade"), "difficulty.grade"),
        Some(_) => Err("\"difficulty\" must be an object".into()),
    }
}

impl ProblemLine {
    /// The legal position, or an error naming the problem.
    pub fn position(&self) -> Result<Position, LineError> {
        Position::from_setup(&self.setup).map_err(|e| self.error(format!("illegal position: {e}")))
    }

    /// An error about this problem (named by its id when it has one).
    pub fn error(&self, message: impl Into<String>) -> LineError {
        LineError {
            id: self.id.clone(),
            message: message.into(),
        }
    }

    /// The line as a JSON object of the fields read (reads back to the same value).
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        if let Some(id) = &self.id {
            o.insert("id".into(), id.clone().into());
        }
        o.insert("sfen".into(), self.setup.to_string().into());
        for (field, list) in [
            ("solution", &self.solution),
            ("final_alternatives", &self.final_alternatives),
            ("themes", &self.themes),
        ] {
            if let Some(list) = list {
                o.insert(field.into(), list.clone().into());
            }
        }
        if let Some(length) = self.length {
            o.insert("length".into(), length.into());
        }
        if let Some(grade) = self.grade {
            o.insert("difficulty".into(), serde_json::json!({ "grade": grade }));
        }
        Value::Object(o)
    }
}

/// A problem of a pack file, with its 1-based line number and its (required) id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackProblem {
    pub line: usize,
    pub id: String,
    pub problem: ProblemLine,
}

/// A line of a file that could not be read, with its 1-based number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub line: usize,
    pub error: LineError,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

/// The lines of a file's bytes, 1-based, each as text or the error of a line that is not
/// UTF-8; a UTF-8 byte-order mark before the first line is skipped (Windows editors write
/// one).
pub fn lines(bytes: &[u8]) -> impl Iterator<Item = (usize, Result<&str, LineError>)> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    bytes
        .split_inclusive(|&b| b == b'\n')
        .enumerate()
        .map(|(i, raw)| (i + 1, text_of(raw)))
}

/// One raw line (with or without its newline) as text.
pub fn text_of(raw: &[u8]) -> Result<&str, LineError> {
    std::str::from_utf8(raw).map_err(|_| LineError::new("not UTF-8 text"))
}

/// Reads every problem of a pack's `pack.jsonl` (blank lines skipped): each line a JSON
/// line with an id, no id twice. The first bad line is the error.
pub fn read_pack(bytes: &[u8]) -> Result<Vec<PackProblem>, FileError> {
    let mut problems = Vec::new();
    let mut ids = HashSet::new();
    for (line, text) in lines(bytes) {
        let at = |error| FileError { line, error };
        let text = text.map_err(at)?;
        if text.trim().is_empty() {
            continue;
        }
        let problem = parse_json(text.trim()).map_err(at)?;
        let Some(id) = problem.id.clone() else {
            return Err(at(LineError::new("missing \"id\" (a string)")));
        };
        if !ids.insert(id.clone()) {
            return Err(at(LineError::new(format!("duplicate id {id:?}"))));
        }
        problems.push(PackProblem { line, id, problem });
    }
    Ok(problems)
}

/// The comment the generator writes before each record of `problems.kif`:
/// `# problem <id> (<length> plies)`.
pub const KIF_PROBLEM_COMMENT: &str = "# problem ";

/// The KIF headers that name a problem, in order of preference.
const KIF_TITLE_HEADERS: [&str; 3] = ["表題", "作品名", "題名"];

/// A problem read from a record file (KIF or CSA).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordProblem {
    /// The record's 1-based number in the file.
    pub record: usize,
    /// The 1-based line where the record starts.
    pub line: usize,
    /// The problem's name: the id of the generator's `# problem <id>` comment, or a
    /// `表題`/`作品名`/`題名` header.
    pub label: Option<String>,
    /// The position and the main line as the claimed solution (none when the record has no
    /// move); `id` is the label when it follows the id rule ([`is_valid_id`]).
    pub problem: ProblemLine,
}

/// A record of a file that could not be read: its 1-based number and the reader's error
/// (which names the file's line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub record: usize,
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record {}, {}", self.record, self.message)
    }
}

fn record_problem(
    record: usize,
    line: usize,
    label: Option<String>,
    setup: Setup,
    moves: &[Move],
) -> RecordProblem {
    let id = label.clone().filter(|l| is_valid_id(l));
    RecordProblem {
        record,
        line,
        label,
        problem: ProblemLine {
            id,
            setup,
            solution: (!moves.is_empty()).then(|| moves.iter().map(|m| m.to_string()).collect()),
            final_alternatives: None,
            length: None,
            grade: None,
            themes: None,
        },
    }
}

/// Reads every record of a KIF file (decoded text): one record, or several as the
/// generator writes `problems.kif` (split as [`kif::split_records`] does). A bad record is
/// an error for itself only.
pub fn read_kif_records(text: &str) -> Vec<Result<RecordProblem, RecordError>> {
    kif::parse_records(text)
        .into_iter()
        .enumerate()
        .map(|(i, (record, parsed))| {
            let r = parsed.map_err(|e| RecordError {
                record: i + 1,
                message: e.to_string(),
            })?;
            let comment_label = record
                .text
                .lines()
                .take_while(|l| !l.trim_start().starts_with("#KIF"))
                .find_map(|l| l.trim().strip_prefix(KIF_PROBLEM_COMMENT.trim_end()))
                .and_then(|rest| rest.split_whitespace().next())
                .map(str::to_string);
            Ok(record_problem(
                i + 1,
                record.first_line,
                comment_label.or_else(|| title_of(&r.headers)),
                r.setup,
                &r.moves,
            ))
        })
        .collect()
}

/// The title of a record with KIF `headers`: its first non-empty `表題`/`作品名`/`題名`.
fn title_of(headers: &[(String, String)]) -> Option<String> {
    KIF_TITLE_HEADERS.iter().find_map(|title| {
        headers
            .iter()
            .find(|(key, value)| key == title && !value.trim().is_empty())
            .map(|(_, value)| value.trim().to_string())
    })
}

/// Reads a CSA file (decoded text) as one problem: the first game's position and moves
/// (record 1), labelled by its title as a KIF record is, its record information read as
/// KIF headers ([`csa::headers_to_kif`]: `$TITLE` is `表題`; a `$表題` line is too).
pub fn read_csa(text: &str) -> Result<RecordProblem, RecordError> {
    let r = csa::parse(text).map_err(|e| RecordError {
        record: 1,
        message: e.to_string(),
    })?;
    let label = title_of(&csa::headers_to_kif(&r.headers));
    Ok(record_problem(1, 1, label, r.setup, &r.moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MATE3: &str = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";

    /// The written line reads back as the same position and moves.
    #[test]
    fn an_sfen_line_written_reads_back() {
        let sfen = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";
        let moves = ["2c2b+", "1b1c", "R*2c"];
        let line = sfen_line(sfen, &moves);
        assert_eq!(line, format!("{sfen} moves 2c2b+ 1b1c R*2c"));
        let read = parse_sfen_line(&line).unwrap().unwrap();
        assert_eq!(read.setup.to_string(), sfen);
        assert_eq!(read.solution.unwrap(), moves);
        assert_eq!(sfen_line::<&str>(sfen, &[]), sfen);
    }

    #[test]
    fn sfen_lines() {
        assert_eq!(parse("  ").unwrap(), None);
        assert_eq!(parse("# a comment").unwrap(), None);
        let p = parse(&format!("{MATE3} 17 moves 2c2b+ 1b1c R*2c # note"))
            .unwrap()
            .unwrap();
        assert_eq!(p.setup.to_string(), MATE3);
        assert_eq!(p.solution.unwrap(), ["2c2b+", "1b1c", "R*2c"]);
        let p = parse(MATE3).unwrap().unwrap();
        assert_eq!(p.solution, None);
        let p = parse("startpos moves 7g7f").unwrap().unwrap();
        assert_eq!(p.solution.unwrap(), ["7g7f"]);
        // A USI `position` command, as `tsume solve` reads it.
        let p = parse("position startpos moves 7g7f").unwrap().unwrap();
        assert_eq!(p.solution.unwrap(), ["7g7f"]);
        let p = parse(&format!("position sfen {MATE3} moves 2c2b+ 1b1c R*2c"))
            .unwrap()
            .unwrap();
        assert_eq!(p.setup.to_string(), MATE3);
        assert_eq!(p.solution.unwrap(), ["2c2b+", "1b1c", "R*2c"]);
        let p = parse(&format!("position {MATE3}")).unwrap().unwrap();
        assert_eq!((p.setup.to_string(), p.solution), (MATE3.to_string(), None));
        assert!(parse("position").is_err());
        assert!(parse("position position startpos").is_err());
        // The `sfen` prefix keeps the move number (it used to be taken for a label).
        let p = parse(&format!("sfen {} 5", &MATE3[..MATE3.len() - 2]))
            .unwrap()
            .unwrap();
        assert_eq!(p.setup.to_string(), MATE3.replace(" 1", " 5"));
        let e = parse(&format!("{MATE3} movez 9i9a")).unwrap_err();
        assert!(e
            .message
            .contains("unexpected text after the SFEN: \"movez 9i9a\""));
        // The length labels of the repository's data sets (benches/data/README.md).
        for label in ["?", "nomate", "nomate15", ">=21", "75"] {
            let p = parse(&format!("{MATE3} {label} # zuko006"))
                .unwrap()
                .unwrap();
            assert_eq!(p.setup.to_string(), MATE3, "{label}");
        }
        // Without a move number too.
        let no_number = &MATE3[..MATE3.len() - 2];
        for label in ["?", "nomate", ">=21"] {
            let p = parse(&format!("{no_number} {label}")).unwrap().unwrap();
            assert_eq!(p.setup.to_string(), MATE3, "{label}");
        }
        assert!(parse(&format!("{no_number} movez"))
            .unwrap_err()
            .message
            .contains("unexpected text after the SFEN: \"movez\""));
        for label in ["nomatex", ">=", "??", "-3"] {
            assert!(parse(&format!("{MATE3} {label}")).is_err(), "{label}");
        }
        assert!(parse("9/9 b - 1")
            .unwrap_err()
            .message
            .starts_with("malformed SFEN"));
        // Text that is no SFEN at all is told as a malformed SFEN, not as text after one.
        let e = parse("this is not sfen").unwrap_err();
        assert!(e.message.starts_with("malformed SFEN"), "{}", e.message);
    }

    #[test]
    fn json_lines() {
        let line = format!(
            r#"{{"id":"m3","sfen":"{MATE3}","length":3,"solution":["2c2b+","1b1c","R*2c"],"difficulty":{{"grade":2,"nodes":9}},"themes":["drop-mate"],"other":1}}"#
        );
        let p = parse(&line).unwrap().unwrap();
        assert_eq!(p.id.as_deref(), Some("m3"));
        assert_eq!((p.length, p.grade), (Some(3), Some(2)));
        assert_eq!(p.themes.as_deref(), Some(&["drop-mate".to_string()][..]));
        assert_eq!(parse_json(&p.to_json().to_string()).unwrap(), p);
        let cases = [
            ("[1]", "not a JSON object"),
            ("{", "not JSON"),
            (r#"{"id":"a b"}"#, "an id must be"),
            (r#"{"id":".x"}"#, "not starting with '.'"),
            (r#"{"id":7}"#, "\"id\" must be a string, got 7"),
            (r#"{"id":"x"}"#, "problem x: missing \"sfen\""),
            (r#"{"sfen":3}"#, "\"sfen\" must be a string, got 3"),
            (
                r#"{"id":"x","sfen":"9/9 b - 1"}"#,
                "problem x: malformed SFEN",
            ),
            (
                r#"{"sfen":"4k4/9/9/9/9/9/9/9/9 b G 1","solution":"G*5b"}"#,
                "\"solution\" must be a list of strings",
            ),
            (
                r#"{"sfen":"4k4/9/9/9/9/9/9/9/9 b G 1","length":"3"}"#,
                "\"length\" must be a whole number",
            ),
            (
                r#"{"sfen":"4k4/9/9/9/9/9/9/9/9 b G 1","difficulty":{"grade":"hard"}}"#,
                "\"difficulty.grade\" must be a whole number",
            ),
        ];
        for (line, needle) in cases {
            let e = parse_json(line).unwrap_err().to_string();
            assert!(e.contains(needle), "{line}: {e:?} lacks {needle:?}");
        }
    }

    #[test]
    fn kif_records() {
        let pos = Position::from_sfen(MATE3).unwrap();
        let mut p = pos.clone();
        let moves: Vec<Move> = ["2c2b+", "1b1c", "R*2c"]
            .iter()
            .map(|u| {
                let m = p.parse_move(u).unwrap();
                p.do_move(m);
                m
            })
            .collect();
        let record = kif::write(&pos, &moves, kif::Ending::Mate);
        let titled = record.replace("後手の持駒", "表題：詰み三手\n後手の持駒");
        let text = format!(
            "{KIF_PROBLEM_COMMENT}abc (3 plies)\n{record}\n{titled}\n{}",
            record.replace("後手の持駒：", "後手の持駒：竜")
        );
        let read = read_kif_records(&text);
        assert_eq!(read.len(), 3);
        let first = read[0].as_ref().unwrap();
        assert_eq!((first.record, first.line), (1, 1));
        assert_eq!(first.label.as_deref(), Some("abc"));
        assert_eq!(first.problem.id.as_deref(), Some("abc"));
        assert_eq!(first.problem.setup.to_string(), MATE3);
        assert_eq!(
            first.problem.solution.as_deref().unwrap(),
            ["2c2b+", "1b1c", "R*2c"]
        );
        let second = read[1].as_ref().unwrap();
        assert_eq!(second.label.as_deref(), Some("詰み三手"));
        assert_eq!(second.problem.id, None);
        let e = read[2].as_ref().unwrap_err();
        assert_eq!(e.record, 3);
        assert!(e.to_string().starts_with("record 3, line "), "{e}");
    }

    #[test]
    fn ids() {
        for good in ["0123456789abcdef", "mate3-001_a.b", "7"] {
            assert!(is_valid_id(good), "{good}");
        }
        for bad in [
            "",
            ".hidden",
            "..",
            "a/b",
            "../up",
            "a b",
            "名前",
            &"x".repeat(201),
        ] {
            assert!(!is_valid_id(bad), "{bad}");
        }
    }

    #[test]
    fn pack_files() {
        let good = format!(r#"{{"id":"a","sfen":"{MATE3}"}}"#);
        let mut bytes = "\u{feff}".as_bytes().to_vec();
        bytes.extend_from_slice(format!("{good}\n\n").as_bytes());
        bytes.extend_from_slice(good.replace("\"a\"", "\"b\"").as_bytes());
        let read = read_pack(&bytes).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!((read[1].line, read[1].id.as_str()), (3, "b"));
        let e = read_pack(format!("{good}\n{good}\n").as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), "line 2: duplicate id \"a\"");
        let e = read_pack(b"\n\xff\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: not UTF-8 text");
        let e = read_pack(format!(r#"{{"sfen":"{MATE3}"}}"#).as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), "line 1: missing \"id\" (a string)");
    }

    /// A CSA problem is labelled by its `$TITLE` (or a KIF title key written as `$表題`),
    /// as a KIF record by its `表題`; without one it has no label.
    #[test]
    fn a_csa_problem_is_labelled_by_its_title() {
        let body = "P1 *  *  *  *  *  * +GI *  * \nP2 *  *  *  *  *  *  *  * -OU\n\
                    P3 *  *  *  *  *  *  * +FU * \nP4 *  *  *  *  *  *  *  * -KE\n\
                    P5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
                    P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \n\
                    P9 *  *  *  *  *  *  *  *  * \nP+00HI\nP-00AL\n+\n";
        for (head, label) in [
            ("$TITLE:mate in 3\n", Some("mate in 3")),
            ("$表題:三手詰\n", Some("三手詰")),
            ("$TITLE:\n", None),
            ("", None),
        ] {
            let p = read_csa(&format!("V2.2\n{head}{body}")).unwrap();
            assert_eq!(p.label.as_deref(), label, "{head}");
            assert_eq!(p.problem.setup.to_string(), MATE3);
        }
    }
}
