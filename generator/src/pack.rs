//! The puzzle pack: one JSON object per problem in `pack.jsonl` (appended and flushed as
//! each problem is accepted), and, derived from it, `pack.sfen`, `problems.kif` and
//! `manifest.json` (see the README for the format).

use std::collections::{HashMap, HashSet, VecDeque};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tsume_solver::kif::{self, Ending};
use tsume_solver::movegen::{self, CheckInfo, MoveCounter};
use tsume_solver::{notation, Color, Move, Position, Setup};

pub use crate::identity::{canonical_id, mirror, skeleton};
use crate::pipeline::Found;

/// Difficulty of a problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difficulty {
    /// Nodes the df-pn solver needed (tsume rules).
    pub nodes: u64,
    /// 1–8 stars by node count.
    pub grade: u8,
    /// Checks at the first move that do not mate.
    pub tempting_checks: u32,
}

/// One problem of a pack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The first 16 hex digits of the sha256 of the canonical SFEN (the smaller of the
    /// position's SFEN and its left–right mirror's).
    pub id: String,
    pub sfen: String,
    pub length: usize,
    pub solution: Vec<String>,
    pub solution_ja: String,
    pub final_alternatives: Vec<String>,
    pub difficulty: Difficulty,
    pub themes: Vec<String>,
    pub generator: serde_json::Value,
}

/// The grade of a problem from the solver's node count: 1 below 1,000 nodes, then one
/// more star for each factor of about 3, up to 8 from 1,000,000 nodes.
pub fn grade(nodes: u64) -> u8 {
    const STEPS: [u64; 7] = [1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000];
    1 + STEPS.iter().filter(|&&s| nodes >= s).count() as u8
}

/// Themes of a solution.
pub fn themes(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut themes = Vec::new();
    let mut p = pos.clone();
    let (mut sacrifice, mut interposition, mut promotion_choice, mut non_promotion) =
        (false, false, false, false);
    for (i, &m) in moves.iter().enumerate() {
        let attacker = p.side_to_move() == Color::Black;
        if attacker {
            let ci = CheckInfo::new(&p);
            if !m.is_drop() {
                let other = if m.is_promotion() {
                    m.without_promotion()
                } else {
                    m.with_promotion()
                };
                let other_checks =
                    other != m && p.legal_moves().contains(other) && ci.gives_check(&p, other);
                if other_checks {
                    promotion_choice = true;
                }
                if !m.is_promotion() && other != m && p.legal_moves().contains(other) {
                    non_promotion = true;
                }
            }
            if moves.get(i + 1).is_some_and(|reply| reply.to() == m.to()) {
                sacrifice = true;
            }
        } else {
            let squares = movegen::interposition_squares(&p);
            if movegen::is_interposition(&p, squares, m) {
                interposition = true;
            }
        }
        p.do_move(m);
    }
    if sacrifice {
        themes.push("sacrifice".into());
    }
    if interposition {
        themes.push("interposition".into());
    }
    if promotion_choice {
        themes.push("promotion-choice".into());
    }
    if non_promotion {
        themes.push("non-promotion".into());
    }
    if moves.last().is_some_and(|m| m.is_drop()) {
        themes.push("drop-mate".into());
    }
    themes
}

/// Checks at the root that do not mate (the solution's first move excepted).
fn tempting_checks(pos: &Position) -> u32 {
    let mut c = MoveCounter::default();
    movegen::generate_checks(pos, &mut c);
    (c.0 as u32).saturating_sub(1)
}

/// The pack record of an accepted problem.
pub fn record(found: &Found, generator: serde_json::Value) -> Record {
    let pos = Position::from_setup(&found.setup).expect("accepted problems are legal");
    let moves = &found.verdict.solution;
    Record {
        id: canonical_id(&found.setup),
        sfen: found.setup.to_string(),
        length: moves.len(),
        solution: moves.iter().map(|m| m.to_string()).collect(),
        solution_ja: notation::japanese_line(&pos, moves),
        final_alternatives: found
            .verdict
            .final_alternatives
            .iter()
            .map(|m| m.to_string())
            .collect(),
        difficulty: Difficulty {
            nodes: found.solve_nodes,
            grade: grade(found.solve_nodes),
            tempting_checks: tempting_checks(&pos),
        },
        themes: themes(&pos, moves),
        generator,
    }
}

/// Why the pack could not be read or written.
#[derive(Debug)]
pub enum PackError {
    /// A file or directory could not be read or written.
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A JSON file (`progress.json`, a manifest) could not be read.
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    /// Another `tsume generate` run holds the pack directory.
    Locked { dir: PathBuf },
    /// A line of a pack file is malformed or contradicts the rest.
    Line {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// The run or the pack was refused for the reason given (other parameters, a bad
    /// option, an injected fault, …).
    Refused(String),
}

impl PackError {
    /// The error of an I/O operation on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> PackError {
        PackError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The error of reading the JSON file `path`.
    pub fn json(path: &Path, source: serde_json::Error) -> PackError {
        PackError::Json {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PackError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            PackError::Json { path, source } => write!(f, "{}: {source}", path.display()),
            PackError::Locked { dir } => write!(
                f,
                "{}: another tsume generate run is using this pack directory; wait for it to \
                 finish or use another --out directory",
                dir.display()
            ),
            PackError::Line {
                path,
                line,
                message,
            } => write!(f, "{}: line {line}: {message}", path.display()),
            PackError::Refused(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for PackError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PackError::Io { source, .. } => Some(source),
            PackError::Json { source, .. } => Some(source),
            _ => None,
        }
    }
}

fn io_error(path: &Path, e: std::io::Error) -> PackError {
    PackError::io(path, e)
}

/// What a resumed run expects of the records it finds (see [`Pack::resume`]).
pub struct Expect<'a> {
    /// The run's `generator` object without `candidate`: every record must have it.
    pub generator: &'a serde_json::Value,
    /// Drop a last line cut off by an interrupted write instead of refusing the file.
    pub drop_truncated: bool,
}

/// A pack directory being written: `pack.jsonl` (or another record file) open for
/// appending.
pub struct Pack {
    dir: PathBuf,
    /// The record file, `pack.jsonl` for the pack itself.
    path: PathBuf,
    file: File,
    pub records: Vec<Record>,
    ids: HashSet<String>,
    skeletons: HashSet<String>,
    /// Records already in the file from the batch a resumed run does again, with their line
    /// numbers: the run must generate exactly these, in order, and they are not written
    /// twice (see [`Pack::hold_back_from`]).
    pending: VecDeque<(usize, Record)>,
    /// What opening the file repaired or dropped, for the user.
    pub notes: Vec<String>,
}

impl Pack {
    /// Opens (creating if needed) the pack in `dir`, reading the problems already there.
    pub fn open(dir: &Path) -> Result<Pack, PackError> {
        Pack::open_records(dir, "pack.jsonl")
    }

    /// Opens (creating if needed) the record file `name` in `dir`, reading the problems
    /// already there (only their syntax is checked).
    pub fn open_records(dir: &Path, name: &str) -> Result<Pack, PackError> {
        Pack::open_checked(dir, name, None)
    }

    /// Opens the record file `name` in `dir` to resume a run, checking every record before
    /// anything is generated: a last line cut off by an interrupted write (dropped with
    /// `expect.drop_truncated`, otherwise refused; a whole record that only lost its newline
    /// gets it back), a duplicated line, a record out of candidate order, a record from
    /// another run, or one whose solution or derived fields were edited is an error naming
    /// its line.
    pub fn resume(dir: &Path, name: &str, expect: &Expect) -> Result<Pack, PackError> {
        Pack::open_checked(dir, name, Some(expect))
    }

    fn open_checked(dir: &Path, name: &str, expect: Option<&Expect>) -> Result<Pack, PackError> {
        fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
        let path = dir.join(name);
        let bytes = match fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_error(&path, e)),
        };
        let mut notes = Vec::new();
        let (lines, cut) = split_last_line(&path, &bytes, expect, &mut notes)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| io_error(&path, e))?;
        let mut pack = Pack {
            dir: dir.to_path_buf(),
            path,
            file,
            records: Vec::new(),
            ids: HashSet::new(),
            skeletons: HashSet::new(),
            pending: VecDeque::new(),
            notes,
        };
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut last_candidate: Option<(usize, u64)> = None;
        for (line, r) in lines {
            let at = |message: String| PackError::Line {
                path: pack.path.clone(),
                line,
                message,
            };
            if let Some(expect) = expect {
                check_record(&r, expect).map_err(at)?;
                let skeleton = record_skeleton(&r).unwrap_or_default();
                for key in [format!("id {}", r.id), format!("skeleton {skeleton}")] {
                    if let Some(first) = seen.insert(key, line) {
                        return Err(at(format!(
                            "problem {} duplicates the problem of line {first}",
                            r.id
                        )));
                    }
                }
                if let Some(c) = candidate(&r) {
                    if let Some((prev_line, prev)) = last_candidate.filter(|&(_, p)| p >= c) {
                        return Err(at(format!(
                            "problem {} has candidate number {c}, not after line {prev_line}'s {prev}: lines out of order or copied",
                            r.id
                        )));
                    }
                    last_candidate = Some((line, c));
                }
            }
            pack.pending.push_back((line, r));
        }
        // Repairs only once every record has passed: a refused file is left as it was.
        match cut {
            // A whole record that lost its newline: give it back, so that the next record
            // is not glued onto it.
            Cut::MissingNewline => {
                (&pack.file)
                    .write_all(b"\n")
                    .and_then(|_| pack.file.sync_data())
                    .map_err(|e| io_error(&pack.path, e))?;
            }
            Cut::Drop(len) => {
                pack.file
                    .set_len(len)
                    .and_then(|_| pack.file.sync_data())
                    .map_err(|e| io_error(&pack.path, e))?;
            }
            Cut::None => {}
        }
        if expect.is_none() {
            pack.hold_back_from(None);
        }
        Ok(pack)
    }

    /// The largest candidate number among the records read (records of older versions
    /// carry none).
    pub fn last_candidate(&self) -> Option<u64> {
        self.records
            .iter()
            .chain(self.pending.iter().map(|(_, r)| r))
            .filter_map(candidate)
            .max()
    }

    /// Takes the records read: those of candidates before `next` (all with `None`) make
    /// the pack's state, and those of candidates `next` and later are held back: a resumed
    /// run generates them again from `next` and checks that it gets exactly them (so an
    /// interruption between a record's append and the batch's `progress.json` loses
    /// nothing and changes nothing). Called once, right after opening.
    pub fn hold_back_from(&mut self, next: Option<u64>) {
        let read: Vec<(usize, Record)> = self.pending.drain(..).collect();
        for (line, r) in read {
            if next.is_some_and(|n| candidate(&r).is_some_and(|c| c >= n)) {
                self.pending.push_back((line, r));
            } else {
                self.remember(r);
            }
        }
    }

    /// Whether the next [`Pack::append`] replays a record already in the file.
    pub fn replays_next(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Fails when records held back by [`Pack::hold_back_from`] were not generated again.
    pub fn check_replayed(&self) -> Result<(), PackError> {
        match self.pending.front() {
            None => Ok(()),
            Some((line, r)) => Err(PackError::Line {
                path: self.path.clone(),
                line: *line,
                message: format!(
                    "problem {} (candidate {}) is not one this run generates: edited, or from another run",
                    r.id,
                    candidate(r).map_or("?".into(), |c| c.to_string())
                ),
            }),
        }
    }

    fn remember(&mut self, r: Record) {
        self.ids.insert(r.id.clone());
        if let Some(s) = record_skeleton(&r) {
            self.skeletons.insert(s);
        }
        self.records.push(r);
    }

    /// The solution skeletons of the problems in the pack.
    pub fn skeletons(&self) -> HashSet<String> {
        self.skeletons.clone()
    }

    /// Whether the pack already has this problem (or its mirror, or its skeleton).
    pub fn is_duplicate(&self, r: &Record) -> bool {
        self.ids.contains(&r.id) || record_skeleton(r).is_some_and(|s| self.skeletons.contains(&s))
    }

    /// Appends `r` to the record file and flushes it to disk; or, when the file already has
    /// it (a record held back by [`Pack::hold_back_from`]), checks that it is the same.
    pub fn append(&mut self, r: Record) -> Result<(), PackError> {
        if let Some((line, held)) = self.pending.pop_front() {
            if held != r {
                return Err(PackError::Refused(format!(
                    "{}: line {line}: problem {} is not what this run generates there (problem {}): edited, or from another run",
                    self.path.display(),
                    held.id,
                    r.id
                )));
            }
            self.remember(r);
            return Ok(());
        }
        let path = &self.path;
        let line = serde_json::to_string(&r).expect("records serialise");
        writeln!(self.file, "{line}").map_err(|e| io_error(path, e))?;
        self.file.flush().map_err(|e| io_error(path, e))?;
        self.file.sync_data().map_err(|e| io_error(path, e))?;
        self.remember(r);
        Ok(())
    }

    /// Writes the first half of `r`'s line, as a write cut off by a crash would (the
    /// generator's fault-injection test hook).
    #[doc(hidden)]
    pub fn append_torn(&mut self, r: &Record) -> Result<(), PackError> {
        let line = serde_json::to_string(r).expect("records serialise");
        let path = &self.path;
        self.file
            .write_all(&line.as_bytes()[..line.len() / 2])
            .and_then(|_| self.file.sync_data())
            .map_err(|e| io_error(path, e))
    }

    /// Writes `pack.sfen`, `problems.kif` and `manifest.json` from the records, with the
    /// fields of `extra` added to the manifest.
    pub fn export(
        &self,
        version: &str,
        extra: serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), PackError> {
        // Held-back records are in the file (a run stopped before generating them again).
        let records: Vec<&Record> = self
            .records
            .iter()
            .chain(self.pending.iter().map(|(_, r)| r))
            .collect();
        export(&self.dir, &records, version, extra)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Writes `pack.sfen`, `problems.kif` and `manifest.json` in `dir` from `records` (those of
/// its `pack.jsonl`, which must be written), each through a temporary file and a rename;
/// the manifest has the fields of `extra` besides its own.
pub fn export(
    dir: &Path,
    records: &[&Record],
    version: &str,
    extra: serde_json::Map<String, serde_json::Value>,
) -> Result<(), PackError> {
    let mut sfen = String::new();
    let mut kif_text = String::new();
    let mut counts = std::collections::BTreeMap::<usize, usize>::new();
    let mut count = 0;
    for r in records {
        sfen += &crate::line::sfen_line(&r.sfen, &r.solution);
        sfen.push('\n');
        let pos = Position::from_sfen(&r.sfen)
            .map_err(|e| PackError::Refused(format!("pack.jsonl: problem {}: {e}", r.id)))?;
        let moves: Vec<Move> = replay(&pos, &r.solution).ok_or_else(|| {
            PackError::Refused(format!("pack.jsonl: problem {}: bad solution", r.id))
        })?;
        kif_text += &format!(
            "{}{} ({} plies)\n",
            crate::line::KIF_PROBLEM_COMMENT,
            r.id,
            r.length
        );
        kif_text += &kif::write(&pos, &moves, Ending::Mate);
        kif_text += "\n";
        *counts.entry(r.length).or_default() += 1;
        count += 1;
    }
    write_file(dir, "pack.sfen", &sfen)?;
    write_file(dir, "problems.kif", &kif_text)?;
    let mut files = serde_json::Map::new();
    for name in ["pack.jsonl", "pack.sfen", "problems.kif"] {
        let path = dir.join(name);
        let bytes = fs::read(&path).map_err(|e| io_error(&path, e))?;
        files.insert(
            name.into(),
            serde_json::json!({ "sha256": sha256_hex(&bytes) }),
        );
    }
    let mut manifest = serde_json::json!({
        "tool": "tsume",
        "version": version,
        "rules": RULES,
        "count": count,
        "counts_per_length": counts.iter().map(|(l, n)| (l.to_string(), serde_json::Value::from(*n))).collect::<serde_json::Map<_, _>>(),
        "files": files,
    });
    if let Some(m) = manifest.as_object_mut() {
        m.extend(extra);
    }
    write_file(
        dir,
        "manifest.json",
        &(serde_json::to_string_pretty(&manifest).expect("json") + "\n"),
    )
}

/// The rules a pack's problems are sound under (the manifest's `rules`): packs of other
/// rules are not comparable.
pub const RULES: &str = "tsume";

/// The sha256 of `bytes` in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Writes `dir/name` through a temporary file and a rename: the file is whole or as it was.
pub fn write_file(dir: &Path, name: &str, text: &str) -> Result<(), PackError> {
    let path = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp"));
    fs::write(&tmp, text).map_err(|e| io_error(&tmp, e))?;
    fs::rename(&tmp, &path).map_err(|e| io_error(&path, e))
}

fn replay(pos: &Position, solution: &[String]) -> Option<Vec<Move>> {
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for text in solution {
        let m = p.parse_move(text).ok()?;
        p.do_move(m);
        moves.push(m);
    }
    Some(moves)
}

/// The solution skeleton of a record ([`skeleton`]), if its SFEN and solution can be
/// read.
pub fn record_skeleton(r: &Record) -> Option<String> {
    let pos = Position::from_sfen(&r.sfen).ok()?;
    let moves = replay(&pos, &r.solution)?;
    Some(skeleton(&pos, &moves))
}

/// How the last line of a record file ends.
enum Cut {
    None,
    /// A whole record without its newline.
    MissingNewline,
    /// A partial line, dropped: the file is cut to this length.
    Drop(u64),
}

/// Parses the lines of a record file (1-based line numbers, blank lines skipped), and
/// decides what to do with a last line without a newline: a whole record gets it back; a
/// partial one (an interrupted write) is refused, or dropped with `drop_truncated`.
fn split_last_line(
    path: &Path,
    bytes: &[u8],
    expect: Option<&Expect>,
    notes: &mut Vec<String>,
) -> Result<(Vec<(usize, Record)>, Cut), PackError> {
    let mut records = Vec::new();
    let mut cut = Cut::None;
    let mut offset = 0;
    let count = bytes.split_inclusive(|&b| b == b'\n').count();
    for (i, raw) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let start = offset;
        offset += raw.len();
        let last_without_newline = i + 1 == count && !raw.ends_with(b"\n");
        let parsed = std::str::from_utf8(raw)
            .map_err(|_| "not UTF-8 text".to_string())
            .and_then(|text| {
                if text.trim().is_empty() {
                    return Ok(None);
                }
                serde_json::from_str::<Record>(text)
                    .map(Some)
                    .map_err(|e| format!("not a pack record: {e}"))
            });
        match parsed {
            Ok(None) => {}
            Ok(Some(r)) => {
                if last_without_newline {
                    cut = Cut::MissingNewline;
                    notes.push(format!(
                        "{}: line {line} had lost its newline; added",
                        path.display()
                    ));
                }
                records.push((line, r));
            }
            Err(_) if last_without_newline && expect.is_some_and(|e| e.drop_truncated) => {
                cut = Cut::Drop(start as u64);
                notes.push(format!(
                    "{}: dropped line {line}, cut off by an interrupted write",
                    path.display()
                ));
            }
            Err(_) if last_without_newline => {
                return Err(PackError::Refused(format!(
                    "{}: line {line} is cut off (no newline at the end and not a whole record): \
                     the last write was interrupted; rerun with --drop-truncated to drop it",
                    path.display()
                )));
            }
            Err(e) => {
                return Err(PackError::Line {
                    path: path.to_path_buf(),
                    line,
                    message: e.to_string(),
                });
            }
        }
    }
    Ok((records, cut))
}

/// The candidate number a record was generated from (`generator.candidate`; records of
/// older versions have none).
pub fn candidate(r: &Record) -> Option<u64> {
    r.generator.get("candidate").and_then(|c| c.as_u64())
}

/// Checks that `r` is a record this run could have written: its run (`generator` without
/// the candidate), its id, and its solution and the fields derived from it (a legal line,
/// every attacker move a check, an odd length, the length, the Japanese line, the themes,
/// the grade and tempting checks).
fn check_record(r: &Record, expect: &Expect) -> Result<(), String> {
    let mut run = r.generator.clone();
    if let Some(o) = run.as_object_mut() {
        o.remove("candidate");
    }
    if &run != expect.generator {
        return Err(format!(
            "problem {} is from another run (generator {run}; this run is {})",
            r.id, expect.generator
        ));
    }
    check_fields(r)
}

/// Checks that `r` is a record this tool could have written, whatever its run: its id,
/// and its solution and the fields derived from it (a legal line, every attacker move a
/// check, an odd length, the length, the Japanese line, the themes, the grade and
/// tempting checks).
pub fn check_fields(r: &Record) -> Result<(), String> {
    let setup: Setup = r
        .sfen
        .parse()
        .map_err(|e| format!("problem {}: bad SFEN: {e}", r.id))?;
    let pos = Position::from_setup(&setup)
        .map_err(|e| format!("problem {}: illegal position: {e}", r.id))?;
    if canonical_id(&setup) != r.id {
        return Err(format!(
            "problem {}: the id is not the position's ({})",
            r.id,
            canonical_id(&setup)
        ));
    }
    let tampered = |what: &str| format!("problem {}: {what}: edited after generation", r.id);
    let moves = replay(&pos, &r.solution).ok_or_else(|| tampered("an illegal solution"))?;
    let mut p = pos.clone();
    for (i, &m) in moves.iter().enumerate() {
        if i % 2 == 0 && !CheckInfo::new(&p).gives_check(&p, m) {
            return Err(tampered(&format!("solution ply {} is not a check", i + 1)));
        }
        p.do_move(m);
    }
    // Whether the end is mate under tsume rules (useless interpositions aside) takes a
    // search; the derived fields below catch a solution edited by hand.
    if moves.len().is_multiple_of(2) {
        return Err(tampered(
            "the solution does not end with the attacker's move",
        ));
    }
    if r.length != moves.len() {
        return Err(tampered("the length is not the solution's"));
    }
    if r.solution_ja != notation::japanese_line(&pos, &moves) {
        return Err(tampered("solution_ja is not the solution"));
    }
    if r.themes != themes(&pos, &moves) {
        return Err(tampered("the themes are not the solution's"));
    }
    if r.difficulty.grade != grade(r.difficulty.nodes)
        || r.difficulty.tempting_checks != tempting_checks(&pos)
    {
        return Err(tampered("the difficulty"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_rise_with_nodes() {
        assert_eq!(grade(10), 1);
        assert_eq!(grade(999), 1);
        assert_eq!(grade(1_000), 2);
        assert_eq!(grade(50_000), 5);
        assert_eq!(grade(5_000_000), 8);
    }

    #[test]
    fn mirror_images_share_an_id_and_a_skeleton() {
        let a: Setup = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1"
            .parse()
            .unwrap();
        let b = mirror(&a);
        assert_ne!(a, b);
        assert_eq!(canonical_id(&a), canonical_id(&b));
        let pa = Position::from_setup(&a).unwrap();
        let pb = Position::from_setup(&b).unwrap();
        let ma = replay(&pa, &["2c2b+".into(), "1b1c".into(), "R*2c".into()]).unwrap();
        let mb: Vec<Move> = ma.iter().map(|m| m.mirror()).collect();
        assert_eq!(skeleton(&pa, &ma), skeleton(&pb, &mb));
    }

    #[test]
    fn themes_of_a_drop_mate_with_promotion() {
        let pos = Position::from_sfen("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1").unwrap();
        let moves = replay(&pos, &["2c2b+".into(), "1b1c".into(), "R*2c".into()]).unwrap();
        let t = themes(&pos, &moves);
        assert!(t.contains(&"drop-mate".to_string()), "{t:?}");
    }
}
