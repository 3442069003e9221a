//! `tsume verify`: soundness of every problem of a file (one SFEN per line, optionally with
//! `moves …`, or a pack's JSON lines), with output and exit codes stable enough for CI.

use std::io::{BufRead, Write};

use rayon::prelude::*;
use tsume_generator::line;
use tsume_solver::tsume::verify::{self, Flaw, Verdict, VerifyOptions};
use tsume_solver::Setup;

/// One problem read from the input.
pub struct Problem {
    /// 1-based line number in the input.
    pub line: usize,
    pub setup: Setup,
    /// The claimed solution (USI), if the line gives one.
    pub claimed: Option<Vec<String>>,
}

/// Problems read, and the unreadable lines as (line number, message).
pub type ReadProblems = (Vec<Problem>, Vec<(usize, String)>);

/// Reads every problem (lines as [`tsume_generator::line::parse`] reads them); malformed
/// lines are returned as `(line, message)` errors.
pub fn read_problems(
    reader: impl BufRead,
    fill_defender_hand: bool,
) -> Result<ReadProblems, String> {
    let mut problems = Vec::new();
    let mut errors = Vec::new();
    let mut reader = reader;
    let mut buf = Vec::new();
    for i in 0.. {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("reading line {}: {e}", i + 1)),
        }
        // A byte-order mark (Windows editors write one) is not part of the first line.
        let raw = match buf.strip_prefix("\u{feff}".as_bytes()) {
            Some(rest) if i == 0 => rest,
            _ => &buf[..],
        };
        // One line that is not UTF-8 is bad input for that line only.
        match line::text_of(raw).and_then(line::parse) {
            Ok(Some(read)) => {
                let mut setup = read.setup;
                if fill_defender_hand {
                    setup.fill_hand(!setup.side_to_move);
                }
                problems.push(Problem {
                    line: i + 1,
                    setup,
                    claimed: read.solution,
                })
            }
            Ok(None) => {}
            Err(e) => errors.push((i + 1, e.to_string())),
        }
    }
    Ok((problems, errors))
}

/// The verdict word: `sound`, `flawed` or `unproven` (unproven wins when the only flaws
/// are budget exhaustions).
pub fn verdict_word(v: &Verdict) -> &'static str {
    if v.is_sound() {
        "sound"
    } else if v.flaws.iter().all(|f| matches!(f, Flaw::Unproven(_))) {
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
    serde_json::json!({
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
    })
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
            "line {}: sound: mate in {} ({}){tolerated}",
            p.line,
            v.length.unwrap_or(0),
            v.solution
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        )
    } else {
        let flaws: Vec<String> = v.flaws.iter().map(|f| f.to_string()).collect();
        format!("line {}: {word}: {}", p.line, flaws.join("; "))
    }
}

/// Verifies `problems` on `threads` threads, printing each verdict in input order as soon
/// as it and those before it are known. Returns (sound, flawed, unproven) counts.
/// Why [`run`] stopped early.
pub enum RunError {
    /// The reader of the output went away (`| head -2`): stop quietly, as Unix tools do.
    OutputClosed,
    Other(String),
}

impl RunError {
    fn writing(e: std::io::Error) -> RunError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            RunError::OutputClosed
        } else {
            RunError::Other(format!("writing the output: {e}"))
        }
    }
}

pub fn run(
    problems: &[Problem],
    options: &VerifyOptions,
    json: bool,
    threads: usize,
) -> Result<(usize, usize, usize), RunError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| RunError::Other(format!("starting {threads} threads: {e}")))?;
    let mut counts = (0, 0, 0);
    let stdout = std::io::stdout();
    // Chunks keep the output in order and flowing on long inputs.
    for chunk in problems.chunks(threads.max(1) * 4) {
        let verdicts: Vec<Verdict> = pool.install(|| {
            chunk
                .par_iter()
                .map(|p| {
                    tsume_solver::tsume::with_thread_tables(options.hash_mb, |tables| {
                        verify::verify_with_tables(&p.setup, p.claimed.as_deref(), options, tables)
                    })
                })
                .collect()
        });
        let mut out = stdout.lock();
        for (p, v) in chunk.iter().zip(&verdicts) {
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
    Ok(counts)
}
