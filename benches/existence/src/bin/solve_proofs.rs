//! A raw solve of one position, as `tsume solve --rules raw` runs it (same options), but
//! also printing every mate proven on the way to the shortest (`SolveReport::proofs`) with the
//! time at which it was proven, and the peak RSS. Answers "was a mate proven within the limit?"
//! even when the shortening did not finish (the CLI then prints only `unknown`).
//!
//! Usage: solve_proofs [--hash MB] [--time-limit S] SFEN...   (the SFEN may be split in words)

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tsume_solver::dfpn::{Outcome, Progress};
use tsume_solver::{Limits, Position, Rules, Solver, Unsettled};

fn peak_rss_mb() -> f64 {
    // SAFETY: getrusage fills the zeroed struct.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    ru.ru_maxrss as f64 / 1024.0
}

fn main() {
    let mut hash = 1024usize;
    let mut time_limit = None;
    let mut words = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--hash" => hash = args.next().unwrap().parse().unwrap(),
            "--time-limit" => {
                time_limit = Some(Duration::from_secs_f64(args.next().unwrap().parse().unwrap()))
            }
            _ => words.push(a),
        }
    }
    let sfen = words.join(" ");
    let pos = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e:?}"));
    // Progress samples (nodes, seconds), about one a second, to time the proofs.
    let samples: Arc<Mutex<Vec<(u64, f64)>>> = Arc::default();
    let s2 = samples.clone();
    // The tables first: the time limit starts after them, as in `tsume solve`.
    let mut solver = Solver::new(hash);
    solver.prepare(Rules::Raw).expect("tables of --hash MiB");
    let options = Limits {
        on_progress: Some(Arc::new(move |p: &Progress| {
            s2.lock().unwrap().push((p.nodes, p.elapsed.as_secs_f64()))
        })),
        ..Limits::default()
    }
    .with_time_limit(time_limit);
    let report = solver.solve(&pos, &options, Rules::Raw);
    let (status, len) = match &report.outcome {
        Outcome::Mate { moves } => ("mate".to_string(), Some(moves.len())),
        Outcome::NoMate => ("nomate".to_string(), None),
        Outcome::Unknown(Unsettled::Limit(stop)) => (format!("unknown ({stop:?} limit)"), None),
        Outcome::Unknown(why) => (format!("unknown ({why:?})"), None),
    };
    let secs = report.elapsed.as_secs_f64();
    println!(
        "status {status} length {} nodes {} time {secs:.2}s nps {:.0} hash {hash} MiB peak RSS {:.0} MB",
        len.map_or("-".to_string(), |l| l.to_string()),
        report.nodes,
        report.nodes as f64 / secs.max(1e-9),
        peak_rss_mb()
    );
    let samples = samples.lock().unwrap();
    for (l, n) in &report.proofs {
        // The first progress sample at or past the proof's node count bounds its time.
        let t = samples
            .iter()
            .find(|(sn, _)| sn >= n)
            .map_or(format!("<= {secs:.1}s"), |(_, t)| format!("<= {t:.1}s"));
        println!("proof length {l} at nodes {n} ({t})");
    }
}
