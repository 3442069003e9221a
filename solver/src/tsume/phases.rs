//! Where a tsume solve's nodes go, step by step (feature `stats`, for measurement only;
//! without it every function here is empty and compiles away).
//!
//! - Each step of the solve — the raw first mate and its shortenings, each question of the
//!   lower-bound game, each value question, the best-play line — is printed on stderr as
//!   `phase: <step>: <answer>, nodes <solve's so far> (+<the step's>), <ms since the solve
//!   began> ms (+<the step's>)`: the time tells where a second thread saves little (a step
//!   of many nodes that two threads search side by side takes half the time).
//! - The evaluator's bounding searches ([`Evaluator::bounds`](super::Evaluator)) are counted
//!   by game and question ([`Bound`]), settled or not, and by what asked them ([`Asker`]):
//!   the definition itself, or the two questions of the uselessness test. Each step of the
//!   evaluator prints the counts since the last step that had any.
//!
//! Build: `cargo build --release --features tsume-solver/stats`, then `tsume solve "<sfen>"`.
//! The counts are those of the thread that solves: measure at one thread (forks deciding
//! defences side by side on other threads are not counted). Other callers of the value
//! search (`tsume verify`) print the lines too, their nodes counted from the evaluator's
//! start (or a solve's before it on the same thread), without a time unless a solve began
//! on that thread. `benches/RESULTS.md` §32 was measured with this.

#[cfg(feature = "stats")]
use std::cell::Cell;
#[cfg(feature = "stats")]
use std::time::Duration;
use std::time::Instant;

/// The evaluator's bounding searches of a question "mate within `r`?".
#[derive(Clone, Copy, Debug)]
pub(crate) enum Bound {
    /// The plain lower-bound game within `r + 2` (its disproof says no).
    PlainWider = 0,
    /// The plain lower-bound game within `r` (it settles nothing by itself: counted as
    /// "settled" when it proves, which sends the question on to the raw game).
    Plain = 1,
    /// The raw game within `r`, capped (its proof says yes, "no mate at all" says no).
    Raw = 2,
    /// The two-ply lower-bound game, value `r` (its disproof says no).
    TwoPly = 3,
}

/// What asked for a tsume question.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Asker {
    /// The solve, or the definition's own recursion (a check, a defence).
    #[cfg_attr(not(feature = "stats"), allow(dead_code))] // the default, set only by `stats`
    Definition = 0,
    /// The uselessness test: whether another defence needs the whole length.
    OtherDefences = 1,
    /// The uselessness test: the interposed piece captured and the mate without it.
    CaptureAndMate = 2,
}

/// The counts of one thread (see the module doc).
#[cfg(feature = "stats")]
#[derive(Default)]
struct Counts {
    /// Nodes by [`Bound`], not settled (0) and settled (1).
    nodes: [[u64; 2]; 4],
    /// Searches, likewise.
    calls: [[u64; 2]; 4],
    /// Nodes by [`Asker`].
    by_asker: [u64; 3],
    /// Nodes of the solve before the evaluator started, added to its steps' counts.
    evaluator_start: u64,
}

#[cfg(feature = "stats")]
thread_local! {
    static ASKER: Cell<Asker> = const { Cell::new(Asker::Definition) };
    static COUNTS: std::cell::RefCell<Counts> = std::cell::RefCell::new(Counts::default());
    /// When this thread's solve began, and how long after it the last step was printed.
    static CLOCK: Cell<Option<(Instant, Duration)>> = const { Cell::new(None) };
}

/// The solve on this thread began at `start`: the steps printed after are timed from it.
#[inline]
pub(crate) fn solve_starts(start: Instant) {
    #[cfg(feature = "stats")]
    CLOCK.with(|c| c.set(Some((start, Duration::ZERO))));
    #[cfg(not(feature = "stats"))]
    let _ = start;
}

/// `<ms since the solve began> ms (+<ms since the last step>)`, the step ending now; empty
/// when no solve began on this thread.
#[cfg(feature = "stats")]
fn step_time() -> String {
    CLOCK.with(|c| {
        let Some((start, last)) = c.get() else {
            return String::new();
        };
        let now = start.elapsed();
        c.set(Some((start, now)));
        format!(", {} ms (+{})", now.as_millis(), (now - last).as_millis())
    })
}

/// Counts a bounding search of `nodes` nodes that settled the question or not.
#[inline]
pub(crate) fn bound(kind: Bound, nodes: u64, settled: bool) {
    #[cfg(feature = "stats")]
    {
        let s = usize::from(settled);
        let asker = ASKER.with(Cell::get) as usize;
        COUNTS.with_borrow_mut(|c| {
            c.nodes[kind as usize][s] += nodes;
            c.calls[kind as usize][s] += 1;
            c.by_asker[asker] += nodes;
        });
    }
    #[cfg(not(feature = "stats"))]
    let _ = (kind, nodes, settled);
}

/// Until it is dropped, the searches of this thread are counted as asked by `asker`.
#[must_use]
pub(crate) struct AskerGuard {
    #[cfg(feature = "stats")]
    outer: Asker,
}

/// Counts the searches of this thread as asked by `asker` until the guard is dropped.
#[inline]
pub(crate) fn asked_by(asker: Asker) -> AskerGuard {
    #[cfg(feature = "stats")]
    {
        AskerGuard {
            outer: ASKER.with(|a| a.replace(asker)),
        }
    }
    #[cfg(not(feature = "stats"))]
    {
        let _ = asker;
        AskerGuard {}
    }
}

#[cfg(feature = "stats")]
impl Drop for AskerGuard {
    fn drop(&mut self) {
        ASKER.with(|a| a.set(self.outer));
    }
}

/// The evaluator starts after `nodes` nodes of the solve (counts of earlier searches on
/// this thread are dropped).
#[inline]
pub(crate) fn evaluator_starts(nodes: u64) {
    #[cfg(feature = "stats")]
    COUNTS.with_borrow_mut(|c| {
        *c = Counts::default();
        c.evaluator_start = nodes;
    });
    #[cfg(not(feature = "stats"))]
    let _ = nodes;
}

/// Prints a step of the solve before the evaluator: `nodes` of the solve so far, `before`
/// of them before the step.
#[inline]
pub(crate) fn solve_step(what: std::fmt::Arguments<'_>, nodes: u64, before: u64) {
    #[cfg(feature = "stats")]
    eprintln!(
        "phase: {what}, nodes {nodes} (+{}){}",
        nodes - before,
        step_time()
    );
    #[cfg(not(feature = "stats"))]
    let _ = (what, nodes, before);
}

/// Prints a step of the evaluator: `nodes` of the evaluator so far (the solve's before it
/// are added), `before` of them before the step, and the bounding searches since the last
/// step that had any.
#[inline]
pub(crate) fn evaluator_step(what: std::fmt::Arguments<'_>, nodes: u64, before: u64) {
    #[cfg(feature = "stats")]
    {
        let start = COUNTS.with_borrow(|c| c.evaluator_start);
        eprintln!(
            "phase: {what}, nodes {} (+{}){}{}",
            start + nodes,
            nodes - before,
            step_time(),
            take_counts()
        );
    }
    #[cfg(not(feature = "stats"))]
    let _ = (what, nodes, before);
}

/// The counts since the last call, as text (empty when there are none), and zeroed.
#[cfg(feature = "stats")]
fn take_counts() -> String {
    COUNTS.with_borrow_mut(|c| {
        if c.calls == [[0; 2]; 4] {
            return String::new();
        }
        let mut s = String::from("; searches (nodes/calls, settled | not; plain r: proven | not):");
        for (name, k) in [
            ("plain r+2", Bound::PlainWider),
            ("plain r", Bound::Plain),
            ("raw", Bound::Raw),
            ("two-ply", Bound::TwoPly),
        ] {
            let k = k as usize;
            s += &format!(
                " {name} {}/{} | {}/{};",
                c.nodes[k][1], c.calls[k][1], c.nodes[k][0], c.calls[k][0]
            );
        }
        let [definition, others, capture] = c.by_asker;
        s += &format!(
            " asked by the definition {definition}, other defences {others}, capture and \
             mate {capture}"
        );
        c.nodes = Default::default();
        c.calls = Default::default();
        c.by_asker = Default::default();
        s
    })
}

#[cfg(all(test, feature = "stats"))]
mod tests {
    use super::*;

    /// `(ms since the solve began, ms of the step)` read back from [`step_time`]'s text.
    fn read_step_time(text: &str) -> (u128, u128) {
        let (total, step) = text
            .strip_prefix(", ")
            .and_then(|t| t.strip_suffix(')'))
            .and_then(|t| t.split_once(" ms (+"))
            .unwrap_or_else(|| panic!("not a step time: {text:?}"));
        (total.parse().unwrap(), step.parse().unwrap())
    }

    /// A step is timed from the start of this thread's solve, and from the step before it.
    #[test]
    fn steps_are_timed_from_the_solve_and_from_the_step_before() {
        CLOCK.with(|c| c.set(None));
        assert_eq!(step_time(), "", "no solve began on this thread");
        solve_starts(Instant::now() - Duration::from_millis(1500));
        let (total, step) = read_step_time(&step_time());
        assert!(total >= 1500, "{total}");
        assert_eq!(step, total, "the first step is timed from the start");
        std::thread::sleep(Duration::from_millis(30));
        let (total2, step2) = read_step_time(&step_time());
        assert!(total2 >= total + 30, "{total} then {total2}");
        assert!(
            (30..=total2 - total + 1).contains(&step2),
            "a step of {step2} ms between {total} and {total2}"
        );
    }

    /// Searches are counted by kind, settled or not, and by the innermost asker, which a
    /// guard restores when dropped; taking the counts zeroes them.
    #[test]
    fn searches_are_counted_by_kind_and_asker() {
        let _ = take_counts();
        bound(Bound::TwoPly, 40, false);
        {
            let _outer = asked_by(Asker::OtherDefences);
            bound(Bound::Plain, 5, true);
            {
                let _inner = asked_by(Asker::CaptureAndMate);
                bound(Bound::Raw, 7, true);
            }
            bound(Bound::PlainWider, 3, false);
        }
        bound(Bound::PlainWider, 11, true);
        let counts = take_counts();
        assert!(
            counts.contains(
                "plain r+2 11/1 | 3/1; plain r 5/1 | 0/0; raw 7/1 | 0/0; two-ply 0/0 | 40/1"
            ),
            "{counts}"
        );
        assert!(
            counts.ends_with("asked by the definition 51, other defences 8, capture and mate 7"),
            "{counts}"
        );
        assert_eq!(take_counts(), "", "taken counts are zeroed");
        // The evaluator's start drops what earlier searches left.
        bound(Bound::Raw, 9, false);
        evaluator_starts(100);
        assert_eq!(take_counts(), "");
    }
}
