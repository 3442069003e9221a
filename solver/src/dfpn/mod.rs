//! The df-pn mate solver.
//!
//! - [`table`]: the fixed-size transposition table with hand superiority;
//! - [`hands`]: proof and disproof pieces;
//! - [`search`]: the df-pn search (OR = attacker checks, AND = defender evasions), with a
//!   length limit and repetition handling; its node loop, with the children's initial
//!   values (`estimates`), the table and path look-ups (`probe`), the thresholds, a node's
//!   result and children (`node`) and the limits (`clock`) in files of their own;
//! - `lines`: the lines a solve shows (a mating line read from the table after each proof,
//!   the best-play line after the last);
//! - this module: the raw solve behind [`Solver`](crate::Solver) (proves mate, shortens
//!   it to the shortest mate, "mate within L − 2?" until disproven, and extracts a
//!   best-play line), and what a solve reports.

mod children;
mod clock;
mod estimates;
pub mod hands;
mod lines;
mod node;
mod parallel;
mod path;
mod probe;
pub(crate) use probe::TWO_PLY_FIRST_UP_TO;
pub mod search;
#[cfg(feature = "stats")]
pub mod stats;
pub mod table;
pub(crate) use clock::progress_after;
pub use parallel::WARM_UP_NODES;
pub(crate) use parallel::{side_by_side, side_by_side_with};
mod thresholds;

use std::time::{Duration, Instant};

use crate::color::Color;
use crate::movegen::{self, MoveCounter};
use crate::moves::Move;
use crate::plies::Plies;
use crate::position::Position;
use search::Defences;
pub use search::{Limits, Progress, ProgressCallback, Search, Stop, Unsettled};

use crate::solver::Rules;
use lines::{best_play_line, table_mating_line};
use std::sync::Arc;
use table::{Kind, Table};

/// The length budget of the first search: none.
pub const MAX_LENGTH: Plies = Plies::UNLIMITED;

/// A mate shorter than any found before it in the same solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Improvement {
    /// The attacker mates within this many plies against every defence (under `rules`;
    /// before the tsume length is proven, a tsume bound counts a line that ends with pieces
    /// left over 2 plies shorter, so the proven length can come out 2 plies longer).
    pub length: Plies,
    /// A mating line within `length` (every attacker move checks, it ends in mate), when
    /// it could be read; not necessarily best play until the solve ends.
    pub line: Option<Vec<Move>>,
    /// The convention of `length` and `line`.
    pub rules: Rules,
    /// Nodes searched when it was found.
    pub nodes: u64,
    /// Time since the solve started.
    pub elapsed: Duration,
}

/// What a running solve has just learnt.
#[derive(Clone, Debug)]
pub enum SolveEvent<'a> {
    /// A mate shorter than any before (the last of these is the answer so far), or the
    /// proven answer if it differs from the last (see [`Improvement::length`]).
    Mate(&'a Improvement),
    /// Every mate shorter than this many plies is now proven impossible.
    LowerBound {
        /// The new lower bound.
        lower_bound: Plies,
        /// Nodes searched when it was proven.
        nodes: u64,
        /// Time since the solve started.
        elapsed: Duration,
    },
}

/// Receives [`SolveEvent`]s from a running solve (on the search thread).
pub type EventCallback = Arc<dyn Fn(&SolveEvent) + Send + Sync>;

/// The answer of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Mate under best play; the line starts with the attacker's move and ends in mate.
    Mate {
        /// The best-play line.
        moves: Vec<Move>,
    },
    /// No forced mate.
    NoMate,
    /// The answer is not known: a limit was reached first (or, with a table key collision,
    /// the searches contradicted each other).
    Unknown(Unsettled),
}

/// What a [`Solver`](crate::Solver) solve found.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// The answer.
    pub outcome: Outcome,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Time the solve took.
    pub elapsed: Duration,
    /// Each mate proven on the way to the shortest: (length, nodes searched so far). The
    /// first is the first mate found; under raw rules the rest come from the "mate within
    /// L − 2?" searches; under tsume rules it is the first raw mate alone, the upper bound
    /// the tsume length starts from.
    pub proofs: Vec<(Plies, u64)>,
    /// When a limit stopped the search after a mate was proven but before it was shown to
    /// be the shortest: a mating line read from the table (every attacker move checks, it
    /// ends in mate, but it need not be the shortest nor best play): the line of the last
    /// of `improvements`.
    pub mate_so_far: Option<Vec<Move>>,
    /// Each time the reported mate got shorter, in order (the last is the answer so far;
    /// with [`Outcome::Mate`], the answer's own length comes last).
    pub improvements: Vec<Improvement>,
    /// Every mate shorter than this many plies is proven impossible (1 when nothing is
    /// known; the length itself for [`Outcome::Mate`]).
    pub lower_bound: Plies,
    /// Under tsume rules, with [`Outcome::Mate`]: the other attacker moves that mate on
    /// the last move of the line (最終手余詰); empty otherwise.
    pub final_alternatives: Vec<Move>,
}

impl SolveReport {
    /// The best mate found, proven shortest or not: the last improvement.
    pub fn best(&self) -> Option<&Improvement> {
        self.improvements.last()
    }
}

/// Records improvements and lower bounds as a solve learns them, and tells
/// [`Limits::on_event`].
pub(crate) struct Recorder {
    start: Instant,
    on_event: Option<EventCallback>,
    pub(crate) improvements: Vec<Improvement>,
    pub(crate) lower_bound: Plies,
}

impl Recorder {
    pub(crate) fn new(start: Instant, limits: &Limits) -> Recorder {
        Recorder {
            start,
            on_event: limits.on_event.clone(),
            improvements: Vec::new(),
            lower_bound: Plies::new(1),
        }
    }

    /// A mate within `length` plies (kept only if shorter than the best so far).
    pub(crate) fn mate(
        &mut self,
        length: Plies,
        line: Option<Vec<Move>>,
        rules: Rules,
        nodes: u64,
    ) {
        if self.improvements.last().is_some_and(|i| i.length <= length) {
            return;
        }
        self.push(length, line, rules, nodes);
    }

    /// The proven answer: kept unless the last mate has its length. It is 2 plies longer
    /// than the last when best play must end with pieces left over and a tsume bound
    /// (a value) was told before.
    pub(crate) fn settled(
        &mut self,
        length: Plies,
        line: Option<Vec<Move>>,
        rules: Rules,
        nodes: u64,
    ) {
        if self.improvements.last().is_some_and(|i| i.length == length) {
            return;
        }
        self.push(length, line, rules, nodes);
    }

    fn push(&mut self, length: Plies, line: Option<Vec<Move>>, rules: Rules, nodes: u64) {
        let improvement = Improvement {
            length,
            line,
            rules,
            nodes,
            elapsed: self.start.elapsed(),
        };
        if let Some(f) = &self.on_event {
            f(&SolveEvent::Mate(&improvement));
        }
        self.improvements.push(improvement);
    }

    /// A tsume solve stopped before its best-play line was settled. A tsume length told
    /// before ([`Recorder::mate`] from a bound of the value) is that many plies, or 2 more
    /// when best play must end with pieces left over: a lower bound equal to it proves the
    /// value, not the length. The bound is then taken 2 plies below the length, so that the
    /// answer says "not proven shortest" and why (将棋図巧 No. 71 stopped in its best-play
    /// line claimed 53 proven; its length is 55).
    pub(crate) fn value_not_length(&mut self) {
        if let Some(last) = self.improvements.last() {
            if last.rules == Rules::Tsume && self.lower_bound >= last.length {
                self.lower_bound = Plies::new(last.length.get().saturating_sub(2).max(1));
            }
        }
    }

    /// No mate shorter than `lower_bound` plies (kept only if higher than before).
    pub(crate) fn lower_bound(&mut self, lower_bound: Plies, nodes: u64) {
        if lower_bound <= self.lower_bound {
            return;
        }
        self.lower_bound = lower_bound;
        if let Some(f) = &self.on_event {
            f(&SolveEvent::LowerBound {
                lower_bound,
                nodes,
                elapsed: self.start.elapsed(),
            });
        }
    }
}

/// Solves `pos` for a mate by `attacker` (whichever side is to move) under the raw
/// convention, every legal defence counting, in `table`, cleared first (in constant time)
/// so that the answer does not depend on earlier calls; on a search thread of its own.
/// Returns the shortest mate with a best-play line (with the defender to move, the line
/// starts with a longest defence and the lengths count it).
pub(crate) fn solve_in(
    pos: &Position,
    attacker: Color,
    limits: &Limits,
    table: &mut Table,
) -> SolveReport {
    table.clear();
    on_search_thread(|| solve_on_this_thread(pos, attacker, limits, table))
}

/// Runs `f` on a thread of its own with a stack for deep searches: the search recurses once
/// per ply, and problems run to well over a thousand plies, whatever thread called us.
/// The [`Solver`](crate::Solver) does this itself; this is for those who drive the
/// building blocks ([`Search`], [`Evaluator`](crate::tsume::Evaluator)) directly.
///
/// Panics with a clear message when no such thread can be started
/// ([`Solver::try_new`](crate::Solver::try_new) tells beforehand).
pub fn on_search_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    try_on_search_thread(f).unwrap_or_else(|e| panic!("{e}"))
}

/// [`on_search_thread`], or an error when the thread cannot be started even with the
/// smallest stack (an address-space limit such as `ulimit -v`).
pub(crate) fn try_on_search_thread<T: Send>(
    f: impl FnOnce() -> T + Send,
) -> Result<T, SearchThreadError> {
    std::thread::scope(|scope| {
        spawn_search_thread(scope, "tsume-search", f).map(|handle| {
            handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    })
}

/// Starts `f` on a scoped thread with a stack for deep searches (the main search thread and
/// the helpers of a parallel search). The stack is only reserved (pages are touched as the
/// search goes deeper), but a limit on the address space can refuse the reservation: then
/// a smaller one is taken (enough for all but very deep searches) rather than fail.
pub(crate) fn spawn_search_thread<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    name: &str,
    f: impl FnOnce() -> T + Send + 'scope,
) -> Result<std::thread::ScopedJoinHandle<'scope, T>, SearchThreadError> {
    // Shared with each attempt, so that `f` is still here when a spawn fails.
    let slot = Arc::new(std::sync::Mutex::new(Some(f)));
    let mut size = SEARCH_STACK_BYTES;
    loop {
        let slot = slot.clone();
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .stack_size(size)
            .spawn_scoped(scope, move || {
                let f = slot
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()
                    .expect("run once");
                f()
            });
        match spawned {
            Ok(handle) => return Ok(handle),
            Err(_) if size / 2 >= MIN_SEARCH_STACK_BYTES => size /= 2,
            Err(e) => {
                return Err(SearchThreadError {
                    stack_bytes: size,
                    message: e.to_string(),
                })
            }
        }
    }
}

/// Stack of the search thread: a few kilobytes per ply for a few thousand plies, reserved
/// (only the pages used are ever touched).
const SEARCH_STACK_BYTES: usize = 1 << 30;

/// The smallest stack [`spawn_search_thread`] falls back to.
const MIN_SEARCH_STACK_BYTES: usize = 16 << 20;

/// The search thread could not be started.
#[derive(Clone, Debug)]
pub struct SearchThreadError {
    /// The smallest stack tried.
    pub stack_bytes: usize,
    /// The system's reason.
    pub message: String,
}

impl std::fmt::Display for SearchThreadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot start the search thread, even with a {} MiB stack: {} (an address-space limit such as `ulimit -v` too low?)",
            self.stack_bytes >> 20,
            self.message
        )
    }
}

impl std::error::Error for SearchThreadError {}

/// [`solve_in`] on the calling thread (which must have a deep enough stack).
fn solve_on_this_thread(
    pos: &Position,
    attacker: Color,
    limits: &Limits,
    table: &mut Table,
) -> SolveReport {
    let start = Instant::now();
    let mut root = pos.clone();
    root.clear_history();
    let mut search = Search::with_rules(table, root, attacker, limits.clone(), Defences::All);
    let mut proofs = Vec::new();
    let mut recorder = Recorder::new(start, limits);
    let outcome = solve_search(&mut search, &mut proofs, &mut recorder);
    let mate_so_far = match outcome {
        Outcome::Unknown(_) => recorder.improvements.last().and_then(|i| i.line.clone()),
        _ => None,
    };
    SolveReport {
        outcome,
        nodes: search.nodes,
        elapsed: start.elapsed(),
        proofs,
        mate_so_far,
        improvements: recorder.improvements,
        lower_bound: recorder.lower_bound,
        final_alternatives: Vec::new(),
    }
}

/// A first raw mate, not necessarily the shortest.
#[derive(Clone, Debug)]
pub(crate) struct FirstMate {
    /// The mate's length (an upper bound of the shortest), `None` for no mate.
    pub length: Result<Option<Plies>, Unsettled>,
    /// A mating line of at most that length, read from the table (`None` if too much of
    /// the proof was lost from it).
    pub line: Option<Vec<Move>>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Proves or disproves a raw mate by `attacker` (whichever side is to move; with the
/// defender to move, the length and line count from the defender's move) without
/// shortening it, on the calling thread (which must have a deep enough stack).
///
/// `no_mate_copies`: the lower-bound games' table of the same problem, which receives a
/// copy of each "no mate at all" the search stores ([`Search::no_mate_copies`]).
pub(crate) fn first_mate(
    pos: &Position,
    attacker: Color,
    limits: &Limits,
    table: &mut Table,
    no_mate_copies: Option<&Table>,
) -> FirstMate {
    first_mate_reading(
        pos,
        attacker,
        limits,
        table,
        no_mate_copies,
        table_mating_line,
    )
}

/// [`first_mate`] without its line (`line` is `None`), for a caller that only needs the
/// length: reading the line may search again for proofs the table lost.
pub(crate) fn first_mate_length(
    pos: &Position,
    attacker: Color,
    limits: &Limits,
    table: &mut Table,
    no_mate_copies: Option<&Table>,
) -> FirstMate {
    first_mate_reading(pos, attacker, limits, table, no_mate_copies, |_, _| None)
}

/// [`first_mate`] with the line of a mate read by `read_line`.
fn first_mate_reading(
    pos: &Position,
    attacker: Color,
    limits: &Limits,
    table: &mut Table,
    no_mate_copies: Option<&Table>,
    read_line: impl FnOnce(&mut Search, Plies) -> Option<Vec<Move>>,
) -> FirstMate {
    let mut root = pos.clone();
    root.clear_history();
    let mut search = Search::with_rules(table, root, attacker, limits.clone(), Defences::All);
    search.no_mate_copies = no_mate_copies;
    let r = search.solve_first();
    let (length, line) = match r.kind() {
        Kind::Proven => (Ok(Some(r.length())), read_line(&mut search, r.length())),
        Kind::Disproven => (Ok(None), None),
        Kind::Unknown => (Err(search.unsettled()), None),
    };
    FirstMate {
        length,
        line,
        nodes: search.nodes,
    }
}

/// In [`shorten_cheaply`], a shortening may take this many times the nodes of the dearest
/// one proven before it. On long problems the proven shortenings grow dearer one after the
/// other (ミクロコスモス: 3 M, 4.5 M, 16 M, 26 M, 52 M nodes from its first mate of 1585
/// plies down to 1525, against a cap of 19 M), and the lower-bound game that takes over
/// after the cap is dearer still (benches/RESULTS.md §33c).
pub(crate) const SHORTENING_GROWTH: u64 = 4;

/// Shortens a raw mate by `attacker` (whichever side is to move in `pos`) of `length`
/// plies just proven in `table` by "mate within L − 2?" searches, each given at most `cap`
/// nodes or [`SHORTENING_GROWTH`] times the dearest proven one so far, before anything
/// else is searched: the proven ones reuse the proof tree in the table and cost little;
/// the last one, a disproof, is what costs (the minimality proof), and is given up at the
/// cap. `found` hears of each shorter mate (its length, a line read from the table, the
/// nodes spent here so far). Returns the shortest length found, or the limit of `limits`
/// (for all these searches together) that stopped them, and the nodes spent. On the
/// calling thread (which must have a deep enough stack).
///
/// The cap counts the nodes of all threads, as the nodes it is measured from do: a node
/// limit holds for each thread, so each is given its share. Given whole to each, two
/// threads spent 10–20 M nodes here on 寿 and 煙詰 against 1–4 M at one thread, nearly
/// all in the given-up disproof (benches/RESULTS.md §36c).
///
/// The searches run in the raw `table`; `no_mate_copies` is as for [`first_mate`].
pub(crate) fn shorten_cheaply(
    pos: &Position,
    attacker: Color,
    limits: &Limits,
    (table, no_mate_copies): (&mut Table, Option<&Table>),
    length: Plies,
    cap: u64,
    mut found: impl FnMut(Plies, Option<Vec<Move>>, u64),
) -> (Result<Plies, Unsettled>, u64) {
    let mut length = length;
    let mut nodes = 0;
    let mut dearest_proof = 0;
    while length >= Plies::new(3) {
        let cap = cap
            .max(SHORTENING_GROWTH.saturating_mul(dearest_proof))
            .div_ceil(limits.threads.max(1) as u64);
        let left = limits.node_limit.map(|n| n.saturating_sub(nodes));
        // Whether the cap, not the limit for all, is what stops this search.
        let capped = left.is_none_or(|l| cap < l);
        let mut root = pos.clone();
        root.clear_history();
        let limits = Limits {
            node_limit: Some(left.map_or(cap, |l| l.min(cap))),
            on_progress: clock::progress_after(&limits.on_progress, nodes),
            ..limits.clone()
        };
        let mut search = shortening_search((table, no_mate_copies), root, attacker, limits);
        let r = search.solve_current(length.minus(2));
        nodes += search.nodes;
        match (r.kind(), search.stopped) {
            (Kind::Proven, _) => {
                length = r.length();
                let proof_nodes = search.nodes;
                dearest_proof = dearest_proof.max(proof_nodes);
                let line = table_mating_line(&mut search, length);
                nodes += search.nodes - proof_nodes;
                found(length, line, nodes);
            }
            (Kind::Unknown, Some(Stop::Nodes)) if capped => break,
            (Kind::Unknown, _) => return (Err(search.unsettled()), nodes),
            (Kind::Disproven, _) => break,
        }
    }
    (Ok(length), nodes)
}

/// The search of one of [`shorten_cheaply`]'s questions: the raw game, expecting a proof
/// (its threads deflected as in the unbounded searches, see `parallel.rs`), its "no mate
/// at all" copied to `no_mate_copies`.
fn shortening_search<'t>(
    (table, no_mate_copies): (&'t Table, Option<&'t Table>),
    root: Position,
    attacker: Color,
    limits: Limits,
) -> Search<'t> {
    let mut search = Search::with_rules(table, root, attacker, limits, Defences::All);
    search.expects_proof = true;
    search.no_mate_copies = no_mate_copies;
    search
}

fn solve_search(
    search: &mut Search,
    proofs: &mut Vec<(Plies, u64)>,
    recorder: &mut Recorder,
) -> Outcome {
    let r = search.solve_first();
    let mut len = match r.kind() {
        Kind::Unknown => return Outcome::Unknown(search.unsettled()),
        Kind::Disproven => return Outcome::NoMate,
        Kind::Proven => r.length(),
    };
    // Each proof's line is read from the table at once, while most of the proof tree is
    // still there (what is not is searched again): it is the answer if a limit stops
    // what follows.
    let mut proven = |search: &mut Search, len: Plies| {
        proofs.push((len, search.nodes));
        let line = table_mating_line(search, len);
        recorder.mate(len, line, Rules::Raw, search.nodes);
    };
    proven(search, len);
    while len >= Plies::new(3) {
        let r = search.solve_current(len.minus(2));
        match r.kind() {
            Kind::Proven => {
                len = r.length();
                proven(search, len);
            }
            Kind::Disproven => break,
            Kind::Unknown => return Outcome::Unknown(search.unsettled()),
        }
    }
    recorder.lower_bound(len, search.nodes);
    match best_play_line(search, len) {
        Some(moves) => Outcome::Mate { moves },
        None => Outcome::Unknown(search.unsettled()),
    }
}

/// Whether the side to move is checkmated (no evasion) — the end of a mating line.
pub fn is_mated(pos: &Position) -> bool {
    if !pos.in_check() {
        return false;
    }
    let mut c = MoveCounter::default();
    movegen::generate_evasions(pos, &mut c);
    c.0 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tsume length told by value and a lower bound equal to it prove the value only:
    /// a solve stopped before its best-play line says "not proven shortest". A raw length
    /// is a length, and its equal lower bound stays.
    #[test]
    fn a_stopped_tsume_solve_does_not_call_a_value_its_length() {
        for (rules, lower_bound) in [(Rules::Tsume, 51), (Rules::Raw, 53)] {
            let mut recorder = Recorder::new(Instant::now(), &Limits::default());
            recorder.mate(Plies::new(53), None, rules, 1);
            recorder.lower_bound(Plies::new(53), 2);
            recorder.value_not_length();
            assert_eq!(recorder.lower_bound, Plies::new(lower_bound), "{rules:?}");
        }
        let mut recorder = Recorder::new(Instant::now(), &Limits::default());
        recorder.mate(Plies::new(57), None, Rules::Tsume, 1);
        recorder.lower_bound(Plies::new(53), 2);
        recorder.value_not_length();
        assert_eq!(
            recorder.lower_bound,
            Plies::new(53),
            "an unproven length keeps its bound"
        );
    }
}
