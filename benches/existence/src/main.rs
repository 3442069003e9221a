//! Mate-existence workload for the df-pn search of tsume-solver (dev-only harness, not in the
//! workspace). The same positions and output format as `benches/existence_cshogi.py`, which runs
//! cshogi's `DfPn`, so the two can be compared side by side.
//!
//! For each position: `Search::new(&mut table, pos, Limits::default())` and
//! `search.solve_current(dfpn::MAX_LENGTH)` — proves that a mate exists (no shortening, no
//! best-play line). One 64 MiB table, faulted in before the first position, is cleared
//! before each position, outside the timed region (the clearing time is printed separately). The answer must be "proven"; anything else is
//! reported as a failure.
//!
//! Usage: existence [--step K] [--hash MB] [--per-position FILE] [--tag NAME] FILE...
//! Lines: `<sfen 4 tokens> <len> ...` (`line.split('#')[0].split()`), every K-th line taken
//! (default 10). The set name is the file name up to `_`, e.g. `mate7`.
//!
//! Output: one line per set and a total, `RESULT <tag> <set> n=.. solved=.. cpu=..s wall=..s
//! nodes=..`, CPU being the thread CPU time (CLOCK_THREAD_CPUTIME_ID) of the search calls.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::{Duration, Instant};

use tsume_solver::dfpn::search::{Limits, Search};
use tsume_solver::dfpn::table::{Kind, Table};
use tsume_solver::dfpn::MAX_LENGTH;
use tsume_solver::Position;

fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: valid pointer to a timespec; the clock id is supported on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[derive(Default)]
struct Totals {
    n: usize,
    solved: usize,
    cpu: Duration,
    wall: Duration,
    nodes: u64,
}

impl Totals {
    fn add(&mut self, solved: bool, cpu: Duration, wall: Duration, nodes: u64) {
        self.n += 1;
        self.solved += solved as usize;
        self.cpu += cpu;
        self.wall += wall;
        self.nodes += nodes;
    }
}

/// The command line: see the module doc.
struct Args {
    step: usize,
    hash: usize,
    per_position: Option<String>,
    tag: String,
    files: Vec<String>,
}

fn parse_args() -> Args {
    let mut step = 10usize;
    let mut hash = 64usize;
    let mut per_position: Option<String> = None;
    let mut tag = "tsume".to_string();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--step" => step = args.next().unwrap().parse().unwrap(),
            "--hash" => hash = args.next().unwrap().parse().unwrap(),
            "--per-position" => per_position = args.next(),
            "--tag" => tag = args.next().unwrap(),
            _ => files.push(a),
        }
    }
    Args {
        step,
        hash,
        per_position,
        tag,
        files,
    }
}

/// The set name of a file: its file name up to the first `_` (`mate7_sample.txt` → `mate7`).
fn set_name(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .split('_')
        .next()
        .unwrap()
        .to_string()
}

/// The measurement: the table, the per-position output, and the totals so far.
struct Run {
    table: Table,
    out: Option<std::fs::File>,
    sets: BTreeMap<String, Totals>,
    order: Vec<String>,
    total: Totals,
    clear_time: Duration,
}

impl Run {
    fn new(args: &Args) -> Run {
        let out = args
            .per_position
            .as_ref()
            .map(|p| std::fs::File::create(p).unwrap());
        let mut table = Table::new(args.hash);
        // Fault the table's memory in before timing (clearing it per position is free and
        // touches nothing, so the first positions would otherwise pay for it).
        table.fault_in();
        Run {
            table,
            out,
            sets: BTreeMap::new(),
            order: Vec::new(),
            total: Totals::default(),
            clear_time: Duration::ZERO,
        }
    }

    /// Every `step`-th position line of the file at `path`.
    fn file(&mut self, path: &str, step: usize) {
        let name = set_name(path);
        self.order.push(name.clone());
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.split('#').next().unwrap().split_whitespace().count() >= 5)
            .collect();
        for (i, line) in lines.iter().enumerate().step_by(step) {
            self.position(&name, i, line);
        }
    }

    /// Proves the mate of one line (the `i`-th position line of set `name`), timed, and
    /// records it.
    fn position(&mut self, name: &str, i: usize, line: &str) {
        let body: Vec<&str> = line.split('#').next().unwrap().split_whitespace().collect();
        let sfen = body[..4].join(" ");
        let pos = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e:?}"));
        let c0 = Instant::now();
        self.table.clear();
        self.clear_time += c0.elapsed();
        let w0 = Instant::now();
        let t0 = thread_cpu();
        let mut search = Search::new(&mut self.table, pos, Limits::default());
        let r = search.solve_current(MAX_LENGTH);
        let cpu = thread_cpu() - t0;
        let wall = w0.elapsed();
        let solved = r.kind() == Kind::Proven;
        let nodes = search.nodes;
        if !solved {
            eprintln!("FAIL {name} line {} {sfen}: {:?}", i + 1, r.kind());
        }
        if let Some(f) = self.out.as_mut() {
            writeln!(
                f,
                "{name}\t{}\t{sfen}\t{}\t{}\t{:.6}\t{nodes}",
                i + 1,
                body[4],
                solved as u8,
                cpu.as_secs_f64()
            )
            .unwrap();
        }
        self.sets
            .entry(name.to_string())
            .or_default()
            .add(solved, cpu, wall, nodes);
        self.total.add(solved, cpu, wall, nodes);
    }

    /// The `RESULT` lines (one per set in the order given, then the total) and the `INFO` line.
    fn report(&self, tag: &str) {
        let print = |set: &str, t: &Totals| {
            println!(
                "RESULT {tag} {set} n={} solved={} cpu={:.3}s wall={:.3}s nodes={}",
                t.n,
                t.solved,
                t.cpu.as_secs_f64(),
                t.wall.as_secs_f64(),
                t.nodes
            );
        };
        for name in &self.order {
            print(name, &self.sets[name]);
        }
        print("total", &self.total);
        println!(
            "INFO {tag} table {} MiB, cleared {} times outside the timed region in {:.3}s",
            self.table.size_bytes() >> 20,
            self.total.n,
            self.clear_time.as_secs_f64()
        );
    }
}

fn main() {
    let args = parse_args();
    let mut run = Run::new(&args);
    for path in &args.files {
        run.file(path, args.step);
    }
    run.report(&args.tag);
}
