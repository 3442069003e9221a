//! `tsume verify`: soundness of every problem of a file (one SFEN per line, optionally with
//! `moves …`, or a pack's JSON lines; or KIF records, one or several as in a pack's
//! `problems.kif`; or a CSA problem), with output and exit codes stable enough for CI.

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use rayon::prelude::*;
use tsume_generator::line;
use tsume_solver::kif::{self, DecodeError, Encoding};
use tsume_solver::tsume::verify::{Flaw, Verdict, VerifyOptions};
use tsume_solver::{Rules, Setup, Solver, SolverError};

/// The solvers of a pool of worker threads, made before the work starts (a `--hash` the
/// machine cannot give is then bad input, not an abort in the middle of the run) and lent
/// to each task: with as many as the pool has threads, every task finds one idle.
pub struct Solvers {
    hash_mb: usize,
    idle: Mutex<Vec<Solver>>,
}

impl Solvers {
    /// `workers` solvers of `hash_mb` MiB with their tsume tables made, or why the machine
    /// cannot hold them all (and start a search thread while they are held).
    pub fn new(workers: usize, hash_mb: usize) -> Result<Solvers, SolverError> {
        let idle = (0..workers)
            .map(|_| Solver::try_new(hash_mb, Rules::Tsume))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Solvers {
            hash_mb,
            idle: Mutex::new(idle),
        })
    }

    /// Runs `f` with an idle solver (a new one if none is idle).
    pub fn with<R>(&self, f: impl FnOnce(&mut Solver) -> R) -> R {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut solver = idle.unwrap_or_else(|| Solver::new(self.hash_mb));
        let r = f(&mut solver);
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(solver);
        r
    }
}

/// One problem read from the input.
pub struct Problem {
    /// 1-based line number in the input (for a record, the line where it starts).
    pub line: usize,
    /// The 1-based record number, for a problem of a KIF or CSA file.
    pub record: Option<usize>,
    /// The record's name (KIF: the generator's `# problem <id>` or a `表題` header).
    pub label: Option<String>,
    pub setup: Setup,
    /// The claimed solution (USI), if the line gives one.
    pub claimed: Option<Vec<String>>,
}

/// What kind of file the input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// One problem per line: SFEN lines or a pack's JSON lines.
    Lines,
    /// KIF records: one problem, or several as in a pack's `problems.kif`.
    Kif,
    /// One CSA problem.
    Csa,
}

impl InputKind {
    /// The unit a bad piece of input is counted in.
    pub fn unit(self) -> &'static str {
        match self {
            InputKind::Lines => "lines",
            InputKind::Kif | InputKind::Csa => "records",
        }
    }

    /// [`InputKind::unit`] for `n` of them: `line` for one, `lines` otherwise.
    pub fn unit_of(self, n: usize) -> &'static str {
        let unit = self.unit();
        if n == 1 {
            &unit[..unit.len() - 1]
        } else {
            unit
        }
    }
}

/// The kind of `name` (a path, or `-` for stdin) with content `bytes`: `.kif`/`.kifu` is
/// KIF and `.csa` is CSA, as for `tsume solve`; any other name is KIF when a line (UTF-8 or
/// Shift-JIS) starts with `#KIF`, is a KIF move list's header (`手数----`) or, outside a
/// pack's JSON lines, is a diagram's hand line (`後手の持駒：…`) or `手合割：`, CSA when a
/// line is `PI` or a `P1` board row, otherwise lines.
pub fn detect(name: &str, bytes: &[u8]) -> InputKind {
    match crate::input::detect(name) {
        crate::input::Format::Kif => return InputKind::Kif,
        crate::input::Format::Csa => return InputKind::Csa,
        _ => {}
    }
    let text = kif::decode(bytes, Encoding::Auto)
        .map(std::borrow::Cow::Owned)
        .unwrap_or_else(|_| String::from_utf8_lossy(bytes));
    let lines = || text.lines().map(str::trim);
    let kif_line = |l: &str| {
        l.starts_with("#KIF")
            || l.starts_with("手数----")
            || (!l.starts_with('{')
                && (l.starts_with("手合割：")
                    || ["先手", "後手", "上手", "下手"].iter().any(|side| {
                        l.strip_prefix(side).is_some_and(|rest| {
                            ["の持駒", "の持ち駒", "持駒", "持ち駒"]
                                .iter()
                                .any(|key| rest.starts_with(key))
                        })
                    })))
    };
    if lines().any(kif_line) {
        InputKind::Kif
    } else if lines().any(|l| l == "PI" || l.starts_with("P1-") || l.starts_with("P1 ")) {
        InputKind::Csa
    } else {
        InputKind::Lines
    }
}

/// A line or record that cannot be read as a problem.
#[derive(Clone, Debug)]
pub struct Unreadable {
    /// 1-based line number, for a line of an SFEN list or pack.
    pub line: Option<usize>,
    /// 1-based record number, for a record of a KIF or CSA file.
    pub record: Option<usize>,
    /// What is wrong, starting with where (`line 3: …`, `record 2, line 47: …`).
    pub message: String,
}

impl Unreadable {
    /// Its place among the problems of the input (see [`Problem::place`]).
    fn place(&self) -> usize {
        self.record.or(self.line).unwrap_or(0)
    }

    /// The JSON object `--json` prints for it, in input order among the verdicts.
    fn json(&self) -> serde_json::Value {
        let mut o = serde_json::json!({ "verdict": "unreadable", "error": self.message });
        if let Some(line) = self.line {
            o["line"] = line.into();
        }
        if let Some(record) = self.record {
            o["record"] = record.into();
        }
        o
    }
}

impl Problem {
    /// Its place in the input: the record number in a KIF or CSA file, else the line.
    fn place(&self) -> usize {
        self.record.unwrap_or(self.line)
    }
}

/// Problems read, and the unreadable lines or records.
pub type ReadProblems = (Vec<Problem>, Vec<Unreadable>);

/// Reads every problem of `bytes` (from `name`) as `kind` says: lines as
/// [`tsume_generator::line::parse`] reads them, KIF records as
/// [`line::read_kif_records`], a CSA problem as [`line::read_csa`]. A malformed line or
/// record is returned as an error and the others are read; the error is a file that
/// cannot be decoded at all (a KIF or CSA file in no known encoding).
pub fn read_problems(
    bytes: &[u8],
    kind: InputKind,
    name: &str,
    fill_defender_hand: bool,
) -> Result<ReadProblems, DecodeError> {
    let mut problems = Vec::new();
    let mut errors = Vec::new();
    let mut push = |line, record, label, read: line::ProblemLine| {
        let mut setup = read.setup;
        if fill_defender_hand {
            setup.fill_hand(!setup.side_to_move);
        }
        problems.push(Problem {
            line,
            record,
            label,
            setup,
            claimed: read.solution,
        })
    };
    let record = |r: line::RecordProblem| (r.line, Some(r.record), r.label, r.problem);
    match kind {
        InputKind::Lines => {
            for (n, text) in line::lines(bytes) {
                // One line that is not UTF-8 is bad input for that line only.
                match text.and_then(line::parse) {
                    Ok(Some(read)) => push(n, None, None, read),
                    Ok(None) => {}
                    Err(e) => errors.push(Unreadable {
                        line: Some(n),
                        record: None,
                        message: format!("line {n}: {e}"),
                    }),
                }
            }
        }
        InputKind::Kif | InputKind::Csa => {
            let utf8_only = Path::new(name)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("kifu"));
            let encoding = if utf8_only {
                Encoding::Utf8
            } else {
                Encoding::Auto
            };
            let text = kif::decode(bytes, encoding)?;
            let read = if kind == InputKind::Kif {
                line::read_kif_records(&text)
            } else {
                vec![line::read_csa(&text)]
            };
            for r in read {
                match r {
                    Ok(r) => {
                        let (n, rec, label, p) = record(r);
                        push(n, rec, label, p)
                    }
                    Err(e) => errors.push(Unreadable {
                        line: None,
                        record: Some(e.record),
                        message: e.to_string(),
                    }),
                }
            }
        }
    }
    Ok((problems, errors))
}

/// The verdict word: `sound`, `flawed` or `unproven` (unproven wins when the only flaws
/// are budget exhaustions).
pub fn verdict_word(v: &Verdict) -> &'static str {
    if v.is_sound() {
        "sound"
    } else if v.flaws.iter().all(|f| matches!(f, Flaw::Unproven { .. })) {
        "unproven"
    } else {
        "flawed"
    }
}

fn json_line(p: &Problem, v: &Verdict) -> serde_json::Value {
    let moves = |ms: &[tsume_solver::Move]| ms.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    let flaws: Vec<serde_json::Value> = v
        .flaws
        .iter()
        .map(|f| {
            let mut o = serde_json::json!({ "code": f.code(), "message": f.to_string() });
            if let Some(ply) = f.ply() {
                o["ply"] = ply.into();
            }
            if let Flaw::SecondSolution {
                mv,
                promotion_choice,
                ..
            } = f
            {
                o["move"] = mv.to_string().into();
                o["promotion_choice"] = (*promotion_choice).into();
            }
            o
        })
        .collect();
    let mut o = serde_json::json!({
        "line": p.line,
        "sfen": p.setup.to_string(),
        "verdict": verdict_word(v),
        "length": v.length,
        "solution": moves(&v.solution),
        "final_alternatives": moves(&v.final_alternatives),
        "promotion_choices": v
            .promotion_choices
            .iter()
            .map(|(ply, m)| serde_json::json!({ "ply": ply, "move": m.to_string() }))
            .collect::<Vec<_>>(),
        "flaws": flaws,
        "nodes": v.nodes,
    });
    if let Some(record) = p.record {
        o["record"] = record.into();
    }
    if let Some(label) = &p.label {
        o["label"] = label.clone().into();
    }
    o
}

/// Where a problem is: `line 3`, or `record 2 (line 24, <label>)`.
fn place(p: &Problem) -> String {
    match (p.record, &p.label) {
        (None, _) => format!("line {}", p.line),
        (Some(r), None) => format!("record {r} (line {})", p.line),
        (Some(r), Some(label)) => format!("record {r} (line {}, {label})", p.line),
    }
}

fn text_line(p: &Problem, v: &Verdict) -> String {
    let word = verdict_word(v);
    if v.is_sound() {
        let tolerated: String = v
            .promotion_choices
            .iter()
            .map(|(ply, m)| format!("; 成生非限定 at ply {ply}: {m} also mates"))
            .collect();
        format!(
            "{}: sound: mate in {} ({}){tolerated}",
            place(p),
            v.length.unwrap_or(0),
            v.solution
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        )
    } else {
        let flaws: Vec<String> = v.flaws.iter().map(|f| f.to_string()).collect();
        format!("{}: {word}: {}", place(p), flaws.join("; "))
    }
}

/// Why [`run`] stopped early.
#[derive(Debug)]
pub enum RunError {
    /// The reader of the output went away (`| head -2`): stop quietly, as Unix tools do.
    OutputClosed,
    /// The output cannot be written.
    Writing(std::io::Error),
    /// A pool of `threads` threads cannot be started.
    Threads {
        threads: usize,
        error: rayon::ThreadPoolBuildError,
    },
}

impl RunError {
    fn writing(e: std::io::Error) -> RunError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            RunError::OutputClosed
        } else {
            RunError::Writing(e)
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::OutputClosed => f.write_str("the output was closed"),
            RunError::Writing(e) => write!(f, "writing the output: {e}"),
            RunError::Threads { threads, error } => {
                write!(f, "starting {threads} threads: {error}")
            }
        }
    }
}

/// Verifies `problems` on `threads` threads, printing each verdict in input order as soon
/// as it and those before it are known; with `json`, the `unreadable` lines or records too,
/// in their places (a report built from the JSON alone misses none). Returns (sound,
/// flawed, unproven) counts.
pub fn run(
    problems: &[Problem],
    unreadable: &[Unreadable],
    options: &VerifyOptions,
    solvers: &Solvers,
    json: bool,
    threads: usize,
) -> Result<(usize, usize, usize), RunError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| RunError::Threads { threads, error })?;
    let mut counts = (0, 0, 0);
    let stdout = std::io::stdout();
    let mut unreadable = unreadable.iter().filter(|_| json).peekable();
    let mut unreadable_before = |out: &mut std::io::StdoutLock, place: usize| {
        while let Some(u) = unreadable.next_if(|u| u.place() < place) {
            writeln!(out, "{}", u.json()).map_err(RunError::writing)?;
        }
        Ok(())
    };
    // Chunks keep the output in order and flowing on long inputs.
    for chunk in problems.chunks(threads.max(1) * 4) {
        let verdicts: Vec<Verdict> = pool.install(|| {
            chunk
                .par_iter()
                .map(|p| {
                    solvers.with(|solver| solver.verify(&p.setup, p.claimed.as_deref(), options))
                })
                .collect()
        });
        let mut out = stdout.lock();
        for (p, v) in chunk.iter().zip(&verdicts) {
            unreadable_before(&mut out, p.place())?;
            let text = if json {
                json_line(p, v).to_string()
            } else {
                text_line(p, v)
            };
            writeln!(out, "{text}").map_err(RunError::writing)?;
            match verdict_word(v) {
                "sound" => counts.0 += 1,
                "flawed" => counts.1 += 1,
                _ => counts.2 += 1,
            }
        }
        out.flush().map_err(RunError::writing)?;
    }
    let mut out = stdout.lock();
    unreadable_before(&mut out, usize::MAX)?;
    out.flush().map_err(RunError::writing)?;
    Ok(counts)
}
