//! Loading a position given on the command line: an SFEN (optionally followed by
//! `moves …`, or written as a USI `position` command), or a KIF or CSA file.

use std::fmt;
use std::path::Path;

use clap::ValueEnum;
use tsume_solver::csa::{self, CsaError};
use tsume_solver::kif::{self, DecodeError, Encoding, KifError};
use tsume_solver::position::IllegalMoveError;
use tsume_solver::{Move, Position, PositionError, Setup, SfenError};

use crate::verify::InputKind;

/// Why a position argument or its moves cannot be read. The text is the message after
/// `tsume: `; for files it says where (`path: line N: …`).
#[derive(Debug)]
pub enum InputError {
    /// Move `number` (1-based) of a `moves …` list: malformed, or not legal where it is
    /// played.
    Move {
        number: usize,
        usi: String,
        error: IllegalMoveError,
    },
    /// The set-up is not a legal position.
    IllegalPosition(PositionError),
    /// The SFEN cannot be read.
    MalformedSfen(SfenError),
    /// An existing file of a kind `solve` does not read (a pack, an SFEN list), given
    /// where an SFEN was expected.
    UnknownFile(String),
    /// A file with nothing but white space in it.
    Empty(String),
    /// One word that is neither an SFEN nor an existing file (a mistyped file name, a
    /// directory, `-` for standard input).
    NotAProblem { arg: String, what: &'static str },
    /// A KIF file of several records (a pack's `problems.kif`): which one is meant?
    SeveralRecords { path: String, records: usize },
    /// The file cannot be read.
    Unreadable { path: String, error: std::io::Error },
    /// The file is not text in its encoding.
    Decode { path: String, error: DecodeError },
    /// The file is not a KIF record.
    Kif { path: String, error: KifError },
    /// The file is not a CSA record.
    Csa { path: String, error: CsaError },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Move { number, usi, error } => write!(f, "move {number} ({usi}): {error}"),
            InputError::IllegalPosition(e) => write!(f, "illegal position: {e}"),
            InputError::MalformedSfen(e) => write!(f, "malformed SFEN: {e}"),
            InputError::UnknownFile(arg) => write!(
                f,
                "{arg}: a file of unknown kind (solve reads one problem: an SFEN, a KIF or \
                 CSA record, told by the name's .kif/.kifu/.csa or by the content, or a file \
                 of one SFEN line); for packs and SFEN lists use tsume verify"
            ),
            InputError::Empty(arg) => write!(
                f,
                "{arg}: empty (solve reads one problem: an SFEN, a KIF or CSA record, or \
                 a file of one SFEN line)"
            ),
            InputError::NotAProblem { arg, what } => write!(
                f,
                "{arg}: {what} (solve reads one problem: an SFEN, quoted as one argument, \
                 or a .kif/.kifu/.csa file)"
            ),
            InputError::SeveralRecords { path, records } => write!(
                f,
                "{path}: {records} KIF records (solve reads one problem; tsume verify reads \
                 every record of a file)"
            ),
            InputError::Unreadable { path, error } => write!(f, "cannot read {path}: {error}"),
            InputError::Decode { path, error } => write!(f, "{path}: {error}"),
            InputError::Kif { path, error } => write!(f, "{path}: {error}"),
            InputError::Csa { path, error } => write!(f, "{path}: {error}"),
        }
    }
}

impl std::error::Error for InputError {}

/// A position argument split into its SFEN and the USI moves written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SfenWithMoves {
    /// The SFEN part (`sfen ` keyword and `startpos` allowed: [`Setup::from_sfen`] reads
    /// them).
    pub sfen: String,
    /// The USI moves after the `moves` keyword, unchecked.
    pub moves: Vec<String>,
}

/// Splits `[position] <sfen>|sfen <sfen>|startpos [moves m1 m2 …]` into the SFEN and the
/// moves. The leading `position` of a USI command is dropped, so that a line copied from a
/// GUI's log reads as it is.
pub fn split_moves(text: &str) -> SfenWithMoves {
    let (sfen, moves) = tsume_generator::line::position_and_moves(text);
    SfenWithMoves {
        sfen: sfen.join(" "),
        moves: moves
            .unwrap_or_default()
            .iter()
            .map(|m| m.to_string())
            .collect(),
    }
}

/// Reads `moves` (USI) from `pos`, each checked to be legal where it is played. The error
/// names the move by its number and text: `move 2 (7g7f): …`.
pub fn parse_moves(pos: &Position, moves: &[String]) -> Result<Vec<Move>, InputError> {
    let mut pos = pos.clone();
    moves
        .iter()
        .enumerate()
        .map(|(i, usi)| {
            let m = pos.parse_move(usi).map_err(|error| InputError::Move {
                number: i + 1,
                usi: usi.clone(),
                error,
            })?;
            pos.do_move(m);
            Ok(m)
        })
        .collect()
}

/// A problem as given to `tsume solve`: the set-up written, the moves to play from it
/// before solving (only an SFEN argument can have them), and the record's headers.
#[derive(Clone, Debug)]
pub struct Problem {
    pub setup: Setup,
    pub moves: Vec<String>,
    /// A KIF or CSA record's headers, as KIF `key：value` pairs (`表題`, `作者` …; a CSA
    /// record's through [`csa::headers_to_kif`]); none for an SFEN.
    pub headers: Vec<(String, String)>,
    /// A KIF or CSA record's main line as written, from the set-up (`solve` does not play
    /// it: it solves the diagram; `render --move` does); none for an SFEN.
    pub line: Vec<Move>,
}

impl Problem {
    /// The problem of a record's set-up, headers and main line, no moves to play (a KIF or
    /// CSA record's diagram).
    fn of_record(setup: Setup, headers: Vec<(String, String)>, line: Vec<Move>) -> Problem {
        Problem {
            setup,
            moves: Vec::new(),
            headers,
            line,
        }
    }

    /// The position to solve: the set-up (with the defender's hand filled when asked),
    /// checked, and the moves played on it. The defender is the side to move after the
    /// moves when it is in check (it answers the check, as in `tsume usi`), otherwise the
    /// side not to move. The position has no history: the solve starts from it as from a
    /// diagram.
    pub fn position(&self, fill_defender_hand: bool) -> Result<Position, InputError> {
        let pos = self.play(&self.setup)?;
        if !fill_defender_hand {
            return Ok(pos);
        }
        // Hands give no check: the side in check is the same with the hand filled.
        let defender = if pos.in_check() {
            pos.side_to_move()
        } else {
            !pos.side_to_move()
        };
        let mut setup = self.setup.clone();
        setup.fill_hand(defender);
        self.play(&setup)
    }

    /// `setup`, checked, with the moves played on it and no history.
    fn play(&self, setup: &Setup) -> Result<Position, InputError> {
        let mut pos = Position::from_setup(setup).map_err(InputError::IllegalPosition)?;
        for m in parse_moves(&pos, &self.moves)? {
            pos.do_move(m);
        }
        pos.clear_history();
        Ok(pos)
    }
}

/// How to read the position argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A file ending in `.kif`/`.kifu` is KIF, `.csa` is CSA; anything else is an SFEN, or
    /// a file read by its content as `tsume verify` reads it (KIF, CSA or one SFEN line).
    Auto,
    /// The argument is an SFEN (`startpos` allowed).
    Sfen,
    /// The argument is a KIF file: UTF-8 if it ends in `.kifu`, otherwise Shift-JIS unless
    /// it is valid UTF-8.
    Kif,
    /// The argument is a CSA file (UTF-8 or Shift-JIS).
    Csa,
}

/// The format `auto` picks for `arg`.
pub fn detect(arg: &str) -> Format {
    let ext = Path::new(arg)
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("kif" | "kifu") => Format::Kif,
        Some("csa") => Format::Csa,
        _ => Format::Sfen,
    }
}

/// Reads the problem from `arg`: an SFEN with optional moves (see [`split_moves`]), or the
/// path of a KIF or CSA file. The error says what is wrong and, for files, where (`path:
/// line N: …`).
pub fn load_problem(arg: &str, format: Format) -> Result<Problem, InputError> {
    if arg == "-" {
        return load_stdin(format);
    }
    let auto = format == Format::Auto;
    let format = match format {
        Format::Auto => detect(arg),
        f => f,
    };
    match format {
        Format::Auto | Format::Sfen => {
            let SfenWithMoves { sfen, moves } = split_moves(arg);
            let parsed = sfen.parse::<Setup>();
            let path = Path::new(arg);
            if auto && parsed.is_err() && path.is_file() {
                // A file named otherwise: by its content, as `tsume verify` reads it.
                let bytes = std::fs::read(path).map_err(|error| InputError::Unreadable {
                    path: arg.to_string(),
                    error,
                })?;
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    return Err(InputError::Empty(arg.to_string()));
                }
                let kind = crate::verify::detect(arg, &bytes);
                return by_content(arg, &bytes, kind, || {
                    InputError::UnknownFile(arg.to_string())
                });
            }
            let setup = parsed.map_err(|e| {
                // A directory is named as such instead of a malformed SFEN, and so is one
                // word, which cannot be an SFEN (three or four fields): most likely a
                // mistyped file name.
                let one_word = is_one_word(arg) && !matches!(sfen.as_str(), "" | "sfen");
                let not_a_problem = |what| InputError::NotAProblem {
                    arg: arg.to_string(),
                    what,
                };
                match () {
                    _ if !auto => InputError::MalformedSfen(e),
                    _ if path.is_dir() => not_a_problem("a directory"),
                    _ if one_word => not_a_problem("no such file, and not an SFEN"),
                    _ => InputError::MalformedSfen(e),
                }
            })?;
            Ok(Problem {
                setup,
                moves,
                headers: Vec::new(),
                line: Vec::new(),
            })
        }
        Format::Kif => {
            let utf8_only = Path::new(arg)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("kifu"));
            let text = read_text(
                arg,
                if utf8_only {
                    Encoding::Utf8
                } else {
                    Encoding::Auto
                },
            )?;
            kif_problem(arg, &text)
        }
        Format::Csa => csa_problem(arg, &read_text(arg, Encoding::Auto)?),
    }
}

/// Whether `arg` is one word, which cannot be an SFEN (three or four fields): where a
/// problem is expected, most likely a mistyped file name.
pub(crate) fn is_one_word(arg: &str) -> bool {
    let word = arg.trim();
    !word.is_empty() && !word.contains(char::is_whitespace)
}

/// The problem of a KIF text of one record (`name` for the messages).
fn kif_problem(name: &str, text: &str) -> Result<Problem, InputError> {
    let records = kif::split_records(text).len();
    if records > 1 {
        return Err(InputError::SeveralRecords {
            path: name.to_string(),
            records,
        });
    }
    kif::parse(text)
        .map(|record| Problem::of_record(record.setup, record.headers, record.moves))
        .map_err(|error| InputError::Kif {
            path: name.to_string(),
            error,
        })
}

/// The problem of a CSA text (`name` for the messages).
fn csa_problem(name: &str, text: &str) -> Result<Problem, InputError> {
    csa::parse(text)
        .map(|record| {
            let headers = csa::headers_to_kif(&record.headers);
            Problem::of_record(record.setup, headers, record.moves)
        })
        .map_err(|error| InputError::Csa {
            path: name.to_string(),
            error,
        })
}

/// `tsume solve -`: the problem on standard input, a KIF or CSA record (told by
/// `--format`, or by its content as `tsume verify -` tells it) or one SFEN line.
fn load_stdin(format: Format) -> Result<Problem, InputError> {
    const NAME: &str = "standard input";
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes).map_err(|error| {
        InputError::Unreadable {
            path: NAME.to_string(),
            error,
        }
    })?;
    let kind = match format {
        Format::Kif => InputKind::Kif,
        Format::Csa => InputKind::Csa,
        Format::Sfen => InputKind::Lines,
        Format::Auto => crate::verify::detect("-", &bytes),
    };
    by_content(NAME, &bytes, kind, || InputError::NotAProblem {
        arg: NAME.to_string(),
        what: "not one SFEN line, nor a KIF or CSA record",
    })
}

/// The problem in `bytes` (of `name`, for the messages) read as `kind`: a KIF or CSA record
/// (Shift-JIS or UTF-8), or a text of one SFEN line (`<sfen> [moves …]`, as the argument
/// would be, blank lines and `#` comment lines aside); any other text is `not_one()` (an
/// SFEN list is for `tsume verify`).
fn by_content(
    name: &str,
    bytes: &[u8],
    kind: InputKind,
    not_one: impl FnOnce() -> InputError,
) -> Result<Problem, InputError> {
    let text = kif::decode(bytes, Encoding::Auto).map_err(|error| InputError::Decode {
        path: name.to_string(),
        error,
    });
    match kind {
        InputKind::Kif => kif_problem(name, &text?),
        InputKind::Csa => csa_problem(name, &text?),
        InputKind::Lines => text
            .ok()
            .and_then(|text| one_sfen_line_in(&text))
            .ok_or_else(not_one),
    }
}

/// The problem of a text that holds one SFEN line, read as `tsume verify` reads its lines
/// (blank and `#` lines aside; see [`by_content`]); its `moves …` are played, as the
/// argument's would be.
fn one_sfen_line_in(text: &str) -> Option<Problem> {
    let mut lines = text
        .lines()
        .filter_map(|l| tsume_generator::line::parse_sfen_line(l).transpose());
    let (Some(Ok(line)), None) = (lines.next(), lines.next()) else {
        return None;
    };
    Some(Problem {
        setup: line.setup,
        moves: line.solution.unwrap_or_default(),
        headers: Vec::new(),
        line: Vec::new(),
    })
}

fn read_text(path: &str, encoding: Encoding) -> Result<String, InputError> {
    let bytes = std::fs::read(path).map_err(|error| InputError::Unreadable {
        path: path.to_string(),
        error,
    })?;
    kif::decode(&bytes, encoding).map_err(|error| InputError::Decode {
        path: path.to_string(),
        error,
    })
}

/// What `tsume solve` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Output {
    /// The result, the USI line and the Japanese line (or JSON with --json).
    Text,
    /// A KIF record (UTF-8) of the position and the solution, ending in 詰み (mate), 不詰
    /// (no mate) or 中断 (limit reached), with the input record's headers (表題, 作者 …).
    Kif,
    /// A CSA V2.2 record of the position and the solution, ending in %TSUMI, %FUZUMI or
    /// %CHUDAN, with the input record's headers ($TITLE, N+ …).
    Csa,
    /// One line, `<sfen> moves <solution>` in USI (a problem as `tsume verify` and a
    /// pack's pack.sfen write it), or the SFEN alone when no mate was found.
    Sfen,
}

/// The record of a solve, to print on stdout (the statistics go to stderr here), with the
/// input record's `headers` (KIF keys; see [`record_headers`]).
pub fn record_text(
    pos: &Position,
    moves: &[Move],
    ending: tsume_solver::kif::Ending,
    report: &tsume_solver::dfpn::SolveReport,
    output: Output,
    headers: &[(String, String)],
) -> String {
    let headers = record_headers(headers);
    let text = match output {
        Output::Kif => kif::write_with_headers(pos, moves, ending, &headers),
        Output::Csa | Output::Text => {
            csa::write_with_headers(pos, moves, ending, &csa::headers_from_kif(&headers))
        }
        Output::Sfen => format!(
            "{}\n",
            tsume_generator::line::sfen_line(&pos.to_sfen(), moves)
        ),
    };
    eprintln!(
        "nodes {} time {:.3}s",
        report.nodes,
        report.elapsed.as_secs_f64()
    );
    text
}

/// The headers of an input record that go into the record of its solve: all of them (the
/// title, the author, the number, where it was published …) but `手数`, the length claimed,
/// which the record's own moves replace (they may be of another length, or no mate).
fn record_headers(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .filter(|(key, _)| key != "手数")
        .cloned()
        .collect()
}
