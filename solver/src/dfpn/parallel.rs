//! Several threads searching one root in one shared table.
//!
//! Every thread runs the same df-pn from the same root ([`Search::solve_current`]) and
//! shares what it proves through the [`Table`](super::table::Table). To keep the threads
//! from searching the same subtree, a thread marks the move it is searching below
//! ([`Marks`]); another thread choosing among the children of that node sees the marked
//! child's number inflated ("virtual" proof and disproof numbers, after Kaneko's parallel
//! df-pn, AAAI 2010) — the proof number at an attacker node, the disproof number at a
//! defender node — and takes the next best child unless the marked one is far better.
//! Only the choice of child and the node's own exit test use the inflated numbers; what is
//! stored in the table are the true ones.
//!
//! Why the answer stays exact: each thread is an ordinary df-pn over its own path (so
//! repetitions are judged on its own path, and a path-dependent disproof is stored only
//! once its thread returns above the depth it depends on, as alone); the marks only change
//! the order in which children are searched; and every final table entry is a proof or
//! disproof one thread made (see the table's doc for racing entries). The first thread to
//! settle the root raises a flag that stops the others.
//!
//! A search starts alone and brings the other threads in only after [`WARM_UP_NODES`]
//! nodes: most of the many small searches of the tsume evaluator and of `tsume verify` end
//! before, and would spend more on starting threads than they save.

use std::sync::atomic::{AtomicBool, AtomicU16, Ordering::Relaxed};
use std::sync::Arc;

use super::search::*;
use super::table::Kind;
use crate::moves::Move;

/// Nodes a parallel search spends alone before it starts its other threads.
pub const WARM_UP_NODES: u64 = 20_000;

/// How many threads are searching below each (node, move), counted in a small array of
/// counters indexed by a hash of the two: a collision only makes a child look busy.
pub struct Marks {
    counts: Box<[AtomicU16]>,
}

const MARK_BITS: u32 = 16;

impl Marks {
    fn new() -> Marks {
        Marks {
            counts: (0..1usize << MARK_BITS)
                .map(|_| AtomicU16::new(0))
                .collect(),
        }
    }

    /// The counter of the move `m` from the position with full key `parent`.
    #[inline]
    pub(super) fn slot(parent: u64, m: Move) -> usize {
        let h = (parent ^ (m.raw() as u64).wrapping_mul(0xff51_afd7_ed55_8ccd))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> (64 - MARK_BITS)) as usize
    }

    #[inline]
    pub(super) fn enter(&self, slot: usize) {
        self.counts[slot].fetch_add(1, Relaxed);
    }

    #[inline]
    pub(super) fn leave(&self, slot: usize) {
        self.counts[slot].fetch_sub(1, Relaxed);
    }

    /// Threads searching below `slot` now (this one's marks are left before it chooses).
    #[inline]
    pub(super) fn count(&self, slot: usize) -> u32 {
        self.counts[slot].load(Relaxed) as u32
    }
}

/// `number` (a proof number at an attacker node, a disproof number at a defender node) as a
/// thread sees it when `busy` other threads search below that child: doubled for each,
/// final values (0 and infinite) unchanged.
#[inline]
pub(super) fn virtual_number(number: u32, busy: u32) -> u32 {
    if busy == 0 || number == 0 || number >= MAX_FINITE {
        number
    } else {
        number
            .saturating_mul(1 << busy.min(8))
            .saturating_add(busy)
            .min(MAX_FINITE - 1)
    }
}

/// What a helper thread brings back.
struct HelperResult {
    result: NodeResult,
    nodes: u64,
    path_dependent: u64,
}

impl<'t> Search<'t> {
    /// [`Search::solve_current`] with `self.limits.threads` threads: alone for the first
    /// [`WARM_UP_NODES`], then with helpers until one thread settles the root or a limit
    /// stops them all. Nodes are counted for all threads; a node limit holds for each
    /// thread (each may search what is left of it): the caps of the tsume evaluator's
    /// sub-searches are measured in the work of one thread, and with an equal share each
    /// they gave up twice as often at two threads (将棋図巧 No. 98: 8.8 times the nodes).
    pub(super) fn solve_current_in_parallel(&mut self, remaining: u16) -> NodeResult {
        let limit = self.limits.node_limit;
        let warm_up = self.limits.warm_up_nodes.unwrap_or(WARM_UP_NODES);
        let warm_up_end = self.nodes.saturating_add(warm_up);
        if warm_up > 0 {
            if limit.is_some_and(|n| n <= warm_up_end) {
                // Allowed no more than the warm-up: a small search, alone throughout (the
                // evaluator's capped searches; they went parallel from their first node).
                return self.solve_current_alone(remaining);
            }
            self.limits.node_limit = Some(warm_up_end);
            let r = self.solve_current_alone(remaining);
            self.limits.node_limit = limit;
            if r.kind() != Kind::Unknown || self.stopped != Some(Stop::Nodes) {
                return r;
            }
            self.stopped = None;
        }
        let threads = self.limits.threads.max(1);
        let left = limit.map(|n| n.saturating_sub(self.nodes));
        let marks = Arc::new(Marks::new());
        let halt = Arc::new(AtomicBool::new(false));
        let (r, helpers) = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for _ in 1..threads {
                let mut helper = self.helper(&marks, &halt, left);
                let halt = &halt;
                let run = move || {
                    let result = helper.solve_current_alone(remaining);
                    if result.kind() != Kind::Unknown {
                        halt.store(true, Relaxed);
                    }
                    HelperResult {
                        result,
                        nodes: helper.nodes,
                        path_dependent: helper.path_dependent,
                    }
                };
                // A helper that cannot be started leaves the search with fewer threads.
                if let Ok(handle) = super::spawn_search_thread(scope, "tsume-helper", run) {
                    handles.push(handle);
                }
            }
            self.marks = Some(marks.clone());
            self.halt = Some(halt.clone());
            self.limits.node_limit = limit;
            let r = self.solve_current_alone(remaining);
            halt.store(true, Relaxed);
            let helpers: Vec<HelperResult> = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect();
            (r, helpers)
        });
        self.marks = None;
        self.halt = None;
        self.limits.node_limit = limit;
        // A halt by another thread stops this one as `Requested`, as the user's stop flag
        // does: forget it (the root is settled, by this thread or another), or the next
        // search of this `Search` would stop at once.
        let user_stop = self
            .limits
            .stop_flag
            .as_ref()
            .is_some_and(|f| f.load(Relaxed));
        if self.stopped == Some(Stop::Requested) && !user_stop {
            self.stopped = None;
        }
        let mut r = r;
        for h in helpers {
            self.nodes += h.nodes;
            self.path_dependent += h.path_dependent;
            if r.kind() == Kind::Unknown && h.result.kind() != Kind::Unknown {
                // Another thread settled the root; this one was stopped by its flag.
                r = h.result;
                self.stopped = None;
            }
        }
        if r.kind() == Kind::Unknown && self.stopped.is_none() {
            self.stopped = Some(Stop::Nodes);
        }
        r
    }

    /// How many other threads search below the child `m` of the node with full key
    /// `parent` (zero alone).
    #[inline]
    pub(super) fn busy(&self, parent: u64, m: Move) -> u32 {
        self.marks
            .as_ref()
            .map_or(0, |marks| marks.count(Marks::slot(parent, m)))
    }

    /// A helper searching from this search's current position and path, with its own
    /// node count and limit (`left`), and no progress reports.
    fn helper(&self, marks: &Arc<Marks>, halt: &Arc<AtomicBool>, left: Option<u64>) -> Search<'t> {
        let limits = Limits {
            node_limit: left,
            on_progress: None,
            threads: 1,
            ..self.limits.clone()
        };
        let mut helper = Search::with_rules(
            self.table,
            self.pos.clone(),
            self.attacker,
            limits,
            self.defences,
        );
        helper.salt = self.salt;
        helper.missing = self.missing;
        helper.game_salt = self.game_salt;
        helper.path = self.path.clone();
        helper.depth = self.depth;
        helper.marks = Some(marks.clone());
        helper.halt = Some(halt.clone());
        helper
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_numbers_grow_with_the_threads_and_keep_final_values() {
        assert_eq!(virtual_number(5, 0), 5);
        assert_eq!(virtual_number(5, 1), 11);
        assert_eq!(virtual_number(5, 2), 22);
        assert_eq!(virtual_number(0, 3), 0);
        assert_eq!(virtual_number(MAX_FINITE, 1), MAX_FINITE);
        assert!(virtual_number(MAX_FINITE - 2, 1) < MAX_FINITE);
    }

    #[test]
    fn marks_count_threads_per_move() {
        let marks = Marks::new();
        let m = Move::from_raw(0x1234);
        let s = Marks::slot(42, m);
        assert_eq!(marks.count(s), 0);
        marks.enter(s);
        marks.enter(s);
        assert_eq!(marks.count(s), 2);
        marks.leave(s);
        assert_eq!(marks.count(s), 1);
        assert_ne!(Marks::slot(42, m), Marks::slot(43, m));
    }
}
