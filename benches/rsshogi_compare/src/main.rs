//! Side-by-side perft of tsume-solver and rsshogi 1.7.3 (dev-only harness, not in the workspace).
//!
//! Workloads:
//! - `mate5_200`: the mate-tree perft to depth 5 over `tests/data/mate5_200.sfen`: the root
//!   side plays only legal checking moves (plies 1, 3, 5), the other side every legal reply
//!   (plies 2, 4); leaves at depth 5 are counted, bulk-counted at the last ply. Total 3,502,982.
//! - `startpos`: plain perft(5) of the start position (every legal move, non-promotions
//!   included). Total 19,861,490.
//!
//! Each measurement is repeated `--reps N` times (default 7), the two libraries interleaved
//! (A B A B …) so drift hits both alike; the best and the median wall and thread-CPU times are
//! printed with the ratio tsume / rsshogi (below 1 means tsume is faster).
//!
//! Run: `cargo run --release --manifest-path benches/rsshogi_compare/Cargo.toml [-- --reps N]
//! [--only mate|startpos] [--lib tsume|rsshogi]` (`--lib` runs one library alone, for a profiler).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rsshogi::board::{Bitboard, Move32List, Position as RPos};
use rsshogi::movegen::{
    generate_legal_all_move32, generate_legal_all_move32_into, generate_moves_move32_into,
    ChecksAll, Move32Sink,
};
use rsshogi::types::{Color, Move32, PieceType};
use tsume_solver::perft::{perft as tsume_perft, PerftMode};
use tsume_solver::Position as TPos;

const MATE_TOTAL: u64 = 3_502_982;
const STARTPOS_TOTAL: u64 = 19_861_490;
const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const DEPTH: u8 = 5;

// ---------------------------------------------------------------------------------------------
// rsshogi side: the same tree, written with rsshogi's fastest public generators.
//
// Attacker nodes not in check: `ChecksAll` (rsshogi's dedicated check generator, the
// YaneuraOu-style one driven by its check-candidate table, with non-promotions), which is
// pseudo-legal, followed by `is_legal_after_pseudo_move32` (pins and king moves only — the
// documented split-legality second stage). Attacker nodes in check (rare: the defender's
// reply checked back): legal evasions (`LegalAll`) filtered by `gives_check_move32`, since
// rsshogi's check generator is specified for positions not in check. Defender nodes:
// `generate_legal_all_move32` (`LegalAll`), as rsshogi's own perft uses. Attacker moves are
// applied with `apply_move32_with_gives_check(mv, true)` (known to check), defender moves with
// `apply_move32`. At depth 1 moves are counted by sinks instead of stored.
// ---------------------------------------------------------------------------------------------

/// Counts every move pushed (the legal generator's output is legal already).
struct Count(u64);

impl Move32Sink for Count {
    #[inline]
    fn push_move32(&mut self, _: Move32) {
        self.0 += 1;
    }
    fn retain_unordered<F: FnMut(Move32) -> bool>(&mut self, _: F) {
        unreachable!("generators never call retain_unordered")
    }
    #[inline]
    fn push_drop_targets(&mut self, _: PieceType, targets: Bitboard, _: Color) {
        self.0 += u64::from(targets.count());
    }
}

/// Counts the pseudo-legal checks that pass the split-legality test.
struct LegalCheckCount<'a> {
    pos: &'a RPos,
    n: u64,
}

impl Move32Sink for LegalCheckCount<'_> {
    #[inline]
    fn push_move32(&mut self, mv: Move32) {
        self.n += u64::from(self.pos.is_legal_after_pseudo_move32(mv));
    }
    fn retain_unordered<F: FnMut(Move32) -> bool>(&mut self, _: F) {
        unreachable!("generators never call retain_unordered")
    }
    #[inline]
    fn push_drop_targets(&mut self, _: PieceType, targets: Bitboard, _: Color) {
        // Drops are legal when not in check (pawn-drop mate is screened by the generator).
        self.n += u64::from(targets.count());
    }
}

/// Stores the pseudo-legal checks that pass the split-legality test.
struct LegalCheckList<'a> {
    pos: &'a RPos,
    list: &'a mut Move32List,
}

impl Move32Sink for LegalCheckList<'_> {
    #[inline]
    fn push_move32(&mut self, mv: Move32) {
        if self.pos.is_legal_after_pseudo_move32(mv) {
            self.list.push(mv);
        }
    }
    fn retain_unordered<F: FnMut(Move32) -> bool>(&mut self, _: F) {
        unreachable!("generators never call retain_unordered")
    }
}

/// Counts legal evasions that give check.
struct CheckingCount<'a> {
    pos: &'a RPos,
    n: u64,
}

impl Move32Sink for CheckingCount<'_> {
    #[inline]
    fn push_move32(&mut self, mv: Move32) {
        self.n += u64::from(self.pos.gives_check_move32(mv));
    }
    fn retain_unordered<F: FnMut(Move32) -> bool>(&mut self, _: F) {
        unreachable!("generators never call retain_unordered")
    }
}

/// Stores legal evasions that give check.
struct CheckingList<'a> {
    pos: &'a RPos,
    list: &'a mut Move32List,
}

impl Move32Sink for CheckingList<'_> {
    #[inline]
    fn push_move32(&mut self, mv: Move32) {
        if self.pos.gives_check_move32(mv) {
            self.list.push(mv);
        }
    }
    fn retain_unordered<F: FnMut(Move32) -> bool>(&mut self, _: F) {
        unreachable!("generators never call retain_unordered")
    }
}

fn rs_checks_count(pos: &RPos) -> u64 {
    if pos.is_in_check() {
        let mut c = CheckingCount { pos, n: 0 };
        generate_legal_all_move32_into(pos, &mut c);
        c.n
    } else {
        let mut c = LegalCheckCount { pos, n: 0 };
        generate_moves_move32_into::<ChecksAll, _>(pos, &mut c);
        c.n
    }
}

fn rs_checks_list(pos: &RPos, list: &mut Move32List) {
    list.clear();
    if pos.is_in_check() {
        generate_legal_all_move32_into(pos, &mut CheckingList { pos, list });
    } else {
        generate_moves_move32_into::<ChecksAll, _>(pos, &mut LegalCheckList { pos, list });
    }
}

fn rs_perft(pos: &mut RPos, depth: u8, mate: bool, attacker: bool) -> u64 {
    let checks_only = mate && attacker;
    if depth == 1 {
        return if checks_only {
            rs_checks_count(pos)
        } else {
            let mut c = Count(0);
            generate_legal_all_move32_into(pos, &mut c);
            c.0
        };
    }
    let mut list = Move32List::new();
    if checks_only {
        rs_checks_list(pos, &mut list);
    } else {
        generate_legal_all_move32(pos, &mut list);
    }
    let mut total = 0;
    for &mv in list.iter() {
        if checks_only {
            pos.apply_move32_with_gives_check(mv, true);
        } else {
            pos.apply_move32(mv);
        }
        total += rs_perft(pos, depth - 1, mate, !attacker);
        // SAFETY: `mv` was applied just above and is undone at once, as rsshogi's perft does.
        unsafe { pos.undo_move32_unchecked(mv) };
    }
    total
}

// ---------------------------------------------------------------------------------------------
// Workloads
// ---------------------------------------------------------------------------------------------

struct Workload {
    name: &'static str,
    sfens: Vec<String>,
    mate: bool,
    expected: u64,
}

fn mate_sfens() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/mate5_200.sfen");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let sfens: Vec<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(sfens.len(), 200, "mate5_200.sfen should hold 200 positions");
    sfens
}

/// Positions are parsed outside the timed region; each run works on fresh copies.
fn run_tsume(positions: &[TPos], mate: bool) -> u64 {
    let mode = if mate {
        PerftMode::Mate
    } else {
        PerftMode::Legal
    };
    positions
        .iter()
        .map(|p| tsume_perft(&mut p.clone(), u32::from(DEPTH), mode))
        .sum()
}

fn run_rsshogi(positions: &[RPos], mate: bool) -> u64 {
    positions
        .iter()
        .map(|p| rs_perft(&mut p.clone(), DEPTH, mate, true))
        .sum()
}

// ---------------------------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------------------------

fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: valid pointer to a timespec; CLOCK_THREAD_CPUTIME_ID is supported on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[derive(Default)]
struct Samples {
    wall: Vec<Duration>,
    cpu: Vec<Duration>,
}

impl Samples {
    fn time(&mut self, f: impl FnOnce() -> u64, expected: u64, what: &str) {
        let c0 = thread_cpu();
        let w0 = Instant::now();
        let n = std::hint::black_box(f());
        let wall = w0.elapsed();
        let cpu = thread_cpu() - c0;
        assert_eq!(n, expected, "{what}: wrong leaf count");
        self.wall.push(wall);
        self.cpu.push(cpu);
    }
}

fn best(v: &[Duration]) -> Duration {
    *v.iter().min().expect("at least one sample")
}

fn median(v: &[Duration]) -> Duration {
    let mut s = v.to_vec();
    s.sort();
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The command line: repetitions, an optional workload filter and an optional single library.
struct Args {
    reps: usize,
    only: Option<String>,
    lib: Option<String>,
}

/// Reads the command line; `None` after printing the usage for `-h`/`--help`.
fn parse_args() -> Option<Args> {
    let mut reps = 7usize;
    let mut only: Option<String> = None;
    let mut lib: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|s| s.parse().ok()).expect("--reps N"),
            "--only" => only = Some(args.next().expect("--only mate|startpos")),
            "--lib" => lib = Some(args.next().expect("--lib tsume|rsshogi")),
            "-h" | "--help" => {
                println!(
                    "usage: rsshogi-compare [--reps N] [--only mate|startpos] [--lib tsume|rsshogi]"
                );
                return None;
            }
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(reps >= 1);
    Some(Args { reps, only, lib })
}

fn workloads() -> [Workload; 2] {
    [
        Workload {
            name: "mate5_200",
            sfens: mate_sfens(),
            mate: true,
            expected: MATE_TOTAL,
        },
        Workload {
            name: "startpos",
            sfens: vec![STARTPOS_SFEN.to_string()],
            mate: false,
            expected: STARTPOS_TOTAL,
        },
    ]
}

fn print_header(reps: usize) {
    println!(
        "perft depth {DEPTH}, {reps} interleaved runs per library (times in ms; ratio = tsume / rsshogi, < 1 means tsume is faster)"
    );
    println!(
        "{:<10} {:>9}  {:>10} {:>10} {:>6}  {:>10} {:>10} {:>6}  {:>10} {:>10}",
        "workload",
        "leaves",
        "tsume best",
        "rss best",
        "ratio",
        "tsume med",
        "rss med",
        "ratio",
        "tsume cpu",
        "rss cpu"
    );
}

/// The workload's positions, parsed by each library (outside any timed region).
fn parse_positions(w: &Workload) -> (Vec<TPos>, Vec<RPos>) {
    let tpos: Vec<TPos> = w
        .sfens
        .iter()
        .map(|s| TPos::from_sfen(s).unwrap_or_else(|e| panic!("tsume rejects {s}: {e}")))
        .collect();
    let rpos: Vec<RPos> = w
        .sfens
        .iter()
        .map(|s| {
            let mut p = rsshogi::board::position_from_sfen(s)
                .unwrap_or_else(|e| panic!("rsshogi rejects {s}: {e}"));
            p.init_stack();
            p
        })
        .collect();
    (tpos, rpos)
}

/// Which libraries run (both unless `--lib` names one).
struct Libraries {
    tsume: bool,
    rsshogi: bool,
}

/// Correctness once, untimed (also warms the caches and rsshogi's lazy tables): each library
/// that runs must count the workload's expected leaves.
fn check_leaf_counts(w: &Workload, tpos: &[TPos], rpos: &[RPos], libs: &Libraries) {
    if libs.tsume {
        assert_eq!(run_tsume(tpos, w.mate), w.expected, "tsume {}", w.name);
    }
    if libs.rsshogi {
        assert_eq!(run_rsshogi(rpos, w.mate), w.expected, "rsshogi {}", w.name);
    }
}

/// One library alone (for a profiler): just repeat it, untimed.
fn repeat_one(w: &Workload, tpos: &[TPos], rpos: &[RPos], libs: &Libraries, args: &Args) {
    for _ in 0..args.reps {
        let n = if libs.tsume {
            run_tsume(tpos, w.mate)
        } else {
            run_rsshogi(rpos, w.mate)
        };
        assert_eq!(n, w.expected);
    }
    println!(
        "{}: {} runs of {} only done",
        w.name,
        args.reps,
        args.lib.as_deref().unwrap()
    );
}

/// Times `reps` runs of each library, interleaved: (tsume, rsshogi) samples.
fn measure(w: &Workload, tpos: &[TPos], rpos: &[RPos], reps: usize) -> (Samples, Samples) {
    let mut t = Samples::default();
    let mut r = Samples::default();
    for i in 0..reps {
        // Alternate which library goes first in each pair: A B, B A, A B, …
        if i % 2 == 0 {
            t.time(|| run_tsume(tpos, w.mate), w.expected, "tsume");
            r.time(|| run_rsshogi(rpos, w.mate), w.expected, "rsshogi");
        } else {
            r.time(|| run_rsshogi(rpos, w.mate), w.expected, "rsshogi");
            t.time(|| run_tsume(tpos, w.mate), w.expected, "tsume");
        }
    }
    (t, r)
}

/// The workload's two report lines: best and median wall times, median thread-CPU times,
/// then the best thread-CPU times and the leaf rates.
fn report(w: &Workload, t: &Samples, r: &Samples) {
    let (tb, rb) = (best(&t.wall), best(&r.wall));
    let (tm, rm) = (median(&t.wall), median(&r.wall));
    println!(
        "{:<10} {:>9}  {:>10.1} {:>10.1} {:>6.3}  {:>10.1} {:>10.1} {:>6.3}  {:>10.1} {:>10.1}",
        w.name,
        w.expected,
        ms(tb),
        ms(rb),
        ms(tb) / ms(rb),
        ms(tm),
        ms(rm),
        ms(tm) / ms(rm),
        ms(median(&t.cpu)),
        ms(median(&r.cpu)),
    );
    println!(
        "{:<10} {:>9}  best thread-CPU: tsume {:.1} ms, rsshogi {:.1} ms, ratio {:.3}; Mleaves/s (best wall): tsume {:.1}, rsshogi {:.1}",
        "",
        "",
        ms(best(&t.cpu)),
        ms(best(&r.cpu)),
        ms(best(&t.cpu)) / ms(best(&r.cpu)),
        w.expected as f64 / tb.as_secs_f64() / 1e6,
        w.expected as f64 / rb.as_secs_f64() / 1e6,
    );
}

fn main() {
    let Some(args) = parse_args() else { return };
    rsshogi::board::init();
    let workloads = workloads();
    print_header(args.reps);
    let libs = Libraries {
        tsume: args.lib.as_deref() != Some("rsshogi"),
        rsshogi: args.lib.as_deref() != Some("tsume"),
    };
    for w in &workloads {
        if args.only.as_deref().is_some_and(|o| !w.name.starts_with(o)) {
            continue;
        }
        let (tpos, rpos) = parse_positions(w);
        check_leaf_counts(w, &tpos, &rpos, &libs);
        if !(libs.tsume && libs.rsshogi) {
            repeat_one(w, &tpos, &rpos, &libs, &args);
            continue;
        }
        let (t, r) = measure(w, &tpos, &rpos, args.reps);
        report(w, &t, &r);
    }
}
