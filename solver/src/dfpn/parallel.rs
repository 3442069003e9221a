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
//! stored in the table are the true ones. A node does not read its children again from
//! the table between descents: a child another thread has settled is found settled when
//! this thread next enters it (at the cost of one expansion), and re-reading every child
//! before each step cost about 14 % of two threads' time for no fewer nodes
//! (benches/RESULTS.md §24a).
//!
//! # Where threads are deflected
//!
//! A node is settled one way only when every child is, the other way by one child: an
//! attacker node is refuted when every check is and mated by one check, a defender node
//! mated when every evasion is and refuted by one. A second thread sent to a sibling does
//! work the node will need on the first side, and mostly work the first thread's child
//! makes unnecessary on the other. So a node deflects the threads only where its likely
//! outcome needs every child ([`deflection`]). In the searches that look for a proof — the
//! unbounded first searches, and the tsume solve's capped raw shortenings after its first
//! mate (`shorten_cheaply`: bounded, but asked right after a longer mate was proven) — that
//! is every defender node, and an attacker node whose disproof number is at most its proof
//! number (likely refuted, by the numbers); deflecting at defender nodes only by their
//! numbers too (proof number at most disproof number) took 煙詰's first mate at two threads
//! 1.17 times the nodes (benches/RESULTS.md §41c). In the other bounded searches ("mate
//! within `N`?", the shortest-mate and tsume questions, nearly all of whose nodes end
//! refuted) it is every attacker node and no defender node. The raw solve's own
//! shortenings keep that rule: their last search is the whole minimality disproof,
//! uncapped, and by the numbers a bounded disproof can cost three times the nodes
//! (benches/RESULTS.md §23a, No. 98).
//! Deflecting at every node, as Kaneko did, left 寿 and 煙詰 as slow at two threads as at
//! one (benches/RESULTS.md §23). A thread marks its moves only below nodes that deflect
//! ([`marks_read`]): nobody reads the others.
//!
//! Why the answer stays exact: each thread is an ordinary df-pn over its own path (so
//! repetitions are judged on its own path, and a path-dependent disproof is stored only
//! once its thread returns above the depth it depends on, as alone); the marks only change
//! the order in which children are searched; and every final table entry is a proof or
//! disproof one thread made (see the table's doc for racing entries). The first thread to
//! settle the root raises a flag that stops the others.
//!
//! # Threads that order the first search differently
//!
//! The unbounded first searches ("a mate at all?") have heavy tails that depend on the
//! order of the children more than on anything else: chaining non-promotions and later
//! drops (as the bounded searches do, see `children.rs`) costs some 将棋図巧 diagrams
//! hundreds of times the nodes and saves others three quarters, with neither order better
//! on the whole. So every other helper thread chains in unbounded searches too
//! ([`Search::chains_unbounded`]): two threads then find a first mate about as soon as the
//! better of the two orders would, and share it through the table (benches/RESULTS.md
//! §26c). The threads of one order deflect one another, but not those of the other order
//! ([`marks_of_the_orders`]): those search apart already, and marks shared between the
//! orders sent the unchained thread off the path it finds alone (two threads, 煙詰's first
//! mate 2.10 s instead of 2.86 s on average; benches/RESULTS.md §49). One thread alone
//! alternates the two orders in slices of growing size ([`Search::solve_first`]). The
//! chaining helpers chain all of a defender node's drops in one chain, not one per square
//! (a narrower search, as shtsume's: at two threads 煙詰 reaches its final length after
//! 1.6–1.8 s on average instead of 2.6–3.0 s; at one thread the slices would leave the
//! lower-bound game fewer raw entries, benches/RESULTS.md §51d–f). Chaining
//! changes only the order and the counting of the children, never a node's value, so the
//! answer stays exact. The race has a price later: the lower-bound game reads the raw
//! "no mate at all" the unchained order leaves, and where the race ends before the
//! unchained thread has searched much, 煙詰's lower-bound disproof costs about twice the
//! nodes (benches/RESULTS.md §54b–d, where a longer unchained warm-up and a harvest beside
//! the shortenings were measured).
//!
//! A search starts alone and brings the other threads in only after [`WARM_UP_NODES`]
//! nodes: most of the many small searches of the tsume evaluator and of `tsume verify` end
//! before, and would spend more on starting threads than they save.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use super::search::*;
use super::table::Kind;
use crate::moves::Move;

/// Nodes a parallel search spends alone before it starts its other threads.
pub const WARM_UP_NODES: u64 = 20_000;

/// How many threads are searching below each (node, move), counted in an array of
/// counters indexed by a hash of the two: a collision only makes a child look busy.
pub struct Marks {
    counts: Box<[AtomicU16]>,
}

/// A thread holds one mark per node of its path, and 寿's paths are 600 plies deep: with
/// 2^16 counters about one child in a hundred looked busy to the other thread, and 寿 at
/// two threads took 8 % longer than with 2^18. 2^20 counters (2 MB) left the core's cache
/// and slowed the shallower problems (benches/RESULTS.md §39f).
const MARK_BITS: u32 = 18;

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

/// The orders of an unbounded search: thread `i` (the calling thread 0, helpers from 1)
/// searches order `i % ORDERS`, order 1 chaining ([`Search::chains_unbounded`]).
const ORDERS: usize = 2;

/// The marks of a parallel search with `remaining` plies: one set for all its threads,
/// or, in an unbounded search, one per order (thread `i` uses set `i % len`), so that a
/// thread is deflected only by threads that order the children as it does.
fn marks_of_the_orders(remaining: u16) -> Vec<Arc<Marks>> {
    let sets = if remaining == UNLIMITED { ORDERS } else { 1 };
    (0..sets).map(|_| Arc::new(Marks::new())).collect()
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

/// Whether a node sends the other threads off the children being searched below it (see
/// the module doc, "Where threads are deflected").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Deflection {
    /// Always: the node's children are chosen by their virtual numbers.
    Always,
    /// Never: by their true numbers, so the threads go down the same child.
    Never,
    /// When the node's own numbers say every child is likely to need settling: at an
    /// attacker node, when it is likely refuted (dn ≤ pn).
    ByNumbers,
}

/// Where threads are deflected: in a search whose nodes nearly all end refuted (`refuting`:
/// the bounded ones other than the raw shortenings) at attacker nodes only; in the others
/// at defender nodes, and at attacker nodes where the node's numbers say it is likely
/// refuted (benches/RESULTS.md §23: at both kinds of node always, as Kaneko, 寿 and 煙詰
/// gained nothing at two threads; §39a: the shortenings as the unbounded searches; §41c:
/// their defender nodes always).
#[inline]
pub(super) fn deflection(attacker_node: bool, refuting: bool) -> Deflection {
    match (attacker_node, refuting) {
        (true, false) => Deflection::ByNumbers,
        (false, false) => Deflection::Always,
        (true, true) => Deflection::Always,
        (false, true) => Deflection::Never,
    }
}

/// Whether a thread marks the children it searches below a node of this kind: only where
/// another thread choosing among them reads the marks ([`deflection`]). The marks below a
/// node that never deflects (a defender node of a refuting search) were never read, yet
/// each cost an atomic increment on a cold cache line; leaving them out took 寿's and 煙詰's
/// time per node at two threads 4 % and 3 % down, the 20 将棋図巧 diagrams' unchanged
/// (benches/RESULTS.md §60a).
#[inline]
pub(super) fn marks_read(attacker_node: bool, refuting: bool) -> bool {
    deflection(attacker_node, refuting) != Deflection::Never
}

/// How a thread of a parallel search shares its node count while it runs, so that the
/// progress reports (made by the calling thread only) count every thread's nodes: the exact
/// counts are gathered when the helpers end ([`Search::gather`]).
pub(super) enum NodeTally {
    /// A helper: adds its nodes to the shared count at each clock check (`told` so far).
    Adds { to: Arc<AtomicU64>, told: u64 },
    /// The calling thread: reports its own nodes plus the helpers' shared count.
    Reads(Arc<AtomicU64>),
}

impl Search<'_> {
    /// A helper adds the nodes it searched since it last told to the shared count.
    pub(super) fn tell_nodes(&mut self) {
        if let Some(NodeTally::Adds { to, told }) = &mut self.tally {
            to.fetch_add(self.nodes - *told, Relaxed);
            *told = self.nodes;
        }
    }

    /// The nodes the other threads of this parallel search have told so far (0 alone and
    /// on a helper).
    pub(super) fn other_threads_nodes(&self) -> u64 {
        match &self.tally {
            Some(NodeTally::Reads(count)) => count.load(Relaxed),
            _ => 0,
        }
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
        if let Some(r) = self.warm_up(remaining) {
            return r;
        }
        let threads = self.limits.threads.max(1);
        let left = limit.map(|n| n.saturating_sub(self.nodes));
        let marks = marks_of_the_orders(remaining);
        let halt = Arc::new(AtomicBool::new(false));
        let helpers_nodes = Arc::new(AtomicU64::new(0));
        let (r, helpers) = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for index in 1..threads {
                let mut helper = self.helper(&marks[index % marks.len()], &halt, left, index);
                helper.tally = Some(NodeTally::Adds {
                    to: helpers_nodes.clone(),
                    told: 0,
                });
                let halt = &halt;
                let run = move || {
                    let result = helper.solve_current_alone(remaining);
                    #[cfg(feature = "stats")]
                    helper.stats.write_trace(remaining, index);
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
            self.marks = Some(marks[0].clone());
            self.halt = Some(halt.clone());
            self.tally = Some(NodeTally::Reads(helpers_nodes.clone()));
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
        self.tally = None;
        self.limits.node_limit = limit;
        self.gather(r, helpers)
    }

    /// The first [`WARM_UP_NODES`] (or the limits' `warm_up_nodes`) of a parallel search,
    /// alone: `Some` result when they settle it or a limit other than theirs stops it, or
    /// when the node limit allows no more than the warm-up (a small search, alone
    /// throughout: the evaluator's capped searches went parallel from their first node).
    fn warm_up(&mut self, remaining: u16) -> Option<NodeResult> {
        let limit = self.limits.node_limit;
        let warm_up = self.limits.warm_up_nodes.unwrap_or(WARM_UP_NODES);
        let warm_up_end = self.nodes.saturating_add(warm_up);
        if warm_up == 0 {
            return None;
        }
        if limit.is_some_and(|n| n <= warm_up_end) {
            return Some(self.solve_current_alone(remaining));
        }
        let (r, capped) = self.with_node_cap(warm_up, |s| s.solve_current_alone(remaining));
        (r.kind() != Kind::Unknown || !capped).then_some(r)
    }

    /// This thread's result `r` with the helpers': their nodes counted, the root taken
    /// from whichever thread settled it, and the stop that only meant "another thread
    /// settled the root" forgotten.
    fn gather(&mut self, r: NodeResult, helpers: Vec<HelperResult>) -> NodeResult {
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

    /// Helper number `index` (from 1) searching from this search's current position and
    /// path, with its own node count and limit (`left`), and no progress reports; the odd
    /// ones chain moves in unbounded searches too (see the module doc).
    fn helper(
        &self,
        marks: &Arc<Marks>,
        halt: &Arc<AtomicBool>,
        left: Option<u64>,
        index: usize,
    ) -> Search<'t> {
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
        helper.chains_unbounded = index % ORDERS == 1;
        helper.one_drop_chain = helper.chains_unbounded;
        helper.expects_proof = self.expects_proof;
        helper.no_mate_copies = self.no_mate_copies;
        helper.raw_proofs = self.raw_proofs;
        helper.raw_proofs_above = self.raw_proofs_above;
        helper
    }
}

/// `f(i, &items[i])` for every item, `threads` (at least one) at a time side by side, the
/// results in the items' order: for independent questions such as the 余詰 and 不要駒
/// checks of `tsume verify`, many small searches each too small to split. The calling
/// thread takes its share; the others are search threads with deep stacks (one that
/// cannot be started leaves fewer). Items are handed out in order, so with one thread
/// this is a plain loop on the calling thread. `f` may skip an item it finds no longer
/// needed (returning a value that says so), e.g. after an earlier item settled the
/// question.
pub fn side_by_side<T: Sync, R: Send>(
    threads: usize,
    items: &[T],
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    side_by_side_with(threads, items, f, || ())
}

/// [`side_by_side`] that calls `helper_done` once for each of the `threads − 1` helper
/// threads it was allowed: when that helper finds no item left (or at once, for a helper
/// not started). The tsume evaluator gives the thread back to its pool there, so that a
/// question still running can split its own questions.
pub fn side_by_side_with<T: Sync, R: Send>(
    threads: usize,
    items: &[T],
    f: impl Fn(usize, &T) -> R + Sync,
    helper_done: impl Fn() + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(i, item)));
        }
    };
    let helpers = threads.max(1) - 1;
    let wanted = helpers.min(items.len().saturating_sub(1));
    let mut done = if wanted == 0 {
        (0..helpers).for_each(|_| helper_done());
        work()
    } else {
        std::thread::scope(|scope| {
            let helper = || {
                let done = work();
                helper_done();
                done
            };
            let handles: Vec<_> = (0..wanted)
                .filter_map(|_| super::spawn_search_thread(scope, "tsume-side", helper).ok())
                .collect();
            (handles.len()..helpers).for_each(|_| helper_done());
            let mut done = work();
            for h in handles {
                done.extend(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
            }
            done
        })
    };
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::super::node::{Child, Via};
    use super::super::table::Table;
    use super::*;
    use crate::Position;
    use std::sync::Mutex;

    /// The progress reports of a parallel search count the helpers' nodes as they go: a
    /// helper adds what it searched since it last told, the calling thread reports its own
    /// nodes plus that count (unit tests report at every clock check).
    #[test]
    fn progress_reports_count_the_helpers_nodes() {
        let table = Table::new(1);
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
        let count = Arc::new(AtomicU64::new(0));
        let mut helper = Search::new(&table, pos.clone(), Limits::default());
        helper.tally = Some(NodeTally::Adds {
            to: count.clone(),
            told: 0,
        });
        helper.nodes = 700;
        helper.check_clock();
        helper.nodes = 1000;
        helper.check_clock();
        assert_eq!(count.load(Relaxed), 1000, "each node told once");
        let reports = Arc::new(Mutex::new(Vec::new()));
        let r = reports.clone();
        let limits = Limits {
            on_progress: Some(Arc::new(move |p: &Progress| {
                r.lock().unwrap().push(p.nodes)
            })),
            ..Limits::default()
        };
        let mut main = Search::new(&table, pos, limits);
        main.tally = Some(NodeTally::Reads(count));
        main.nodes = 256;
        main.check_clock();
        assert_eq!(*reports.lock().unwrap(), [1256]);
    }

    #[test]
    fn virtual_numbers_grow_with_the_threads_and_keep_final_values() {
        assert_eq!(virtual_number(5, 0), 5);
        assert_eq!(virtual_number(5, 1), 11);
        assert_eq!(virtual_number(5, 2), 22);
        assert_eq!(virtual_number(0, 3), 0);
        assert_eq!(virtual_number(MAX_FINITE, 1), MAX_FINITE);
        assert!(virtual_number(MAX_FINITE - 2, 1) < MAX_FINITE);
    }

    /// A small root (the kings, a pawn, a gold in hand) for the tests that need a search,
    /// not its moves.
    fn bare_root() -> crate::Position {
        crate::Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1").expect("sfen")
    }

    /// Two children, the first with the lesser number and another thread below it (when
    /// `threads`): which one a node of each kind picks (`attacker_node`, `unbounded`), given
    /// the children's (pn, dn).
    fn picked(
        threads: bool,
        attacker_node: bool,
        unbounded: bool,
        numbers: [(u32, u32); 2],
    ) -> usize {
        picked_in(threads, false, attacker_node, unbounded, numbers)
    }

    /// [`picked`] in a search that `expects_proof` or not.
    fn picked_in(
        threads: bool,
        expects_proof: bool,
        attacker_node: bool,
        unbounded: bool,
        numbers: [(u32, u32); 2],
    ) -> usize {
        let table = Table::new(1);
        let pos = bare_root();
        let mut search = Search::new(&table, pos, Limits::default());
        search.expects_proof = expects_proof;
        search.marks = Some(Arc::new(Marks::new()));
        let parent = search.pos.full_key();
        let children: Vec<Child> = numbers
            .iter()
            .enumerate()
            .map(|(i, &(pn, dn))| {
                let mut c = Child::new(Move::from_raw(0x100 + i as u16), Via::Normal);
                c.pn = pn;
                c.dn = dn;
                c
            })
            .collect();
        let marks = search.marks.clone().expect("marks");
        marks.enter(Marks::slot(parent, children[0].mv));
        if !threads {
            search.marks = None;
        }
        let refuting = search.refutes(if unbounded { UNLIMITED } else { 9 });
        if attacker_node {
            search.pick_check(&children, parent, false, refuting).best
        } else {
            search.pick_evasion(&children, parent, refuting).best
        }
    }

    #[test]
    fn threads_are_deflected_where_every_child_is_likely_needed() {
        // Bounded: attacker nodes always, defender nodes never.
        assert_eq!(picked(true, true, false, [(1, 1), (2, 1)]), 1);
        assert_eq!(picked(true, false, false, [(1, 1), (1, 2)]), 0);
        // Unbounded, attacker node: likely refuted (dn 3 ≤ pn 3) or likely mated.
        assert_eq!(picked(true, true, true, [(3, 1), (4, 2)]), 1);
        assert_eq!(picked(true, true, true, [(1, 5), (2, 5)]), 0);
        // Unbounded, defender node: always, likely mated (pn 2 ≤ dn 3) or not.
        assert_eq!(picked(true, false, true, [(1, 3), (1, 4)]), 1);
        assert_eq!(picked(true, false, true, [(5, 1), (5, 2)]), 1);
        // Alone, never.
        assert_eq!(picked(false, true, false, [(1, 1), (2, 1)]), 0);
        assert_eq!(picked(false, false, true, [(1, 3), (1, 4)]), 0);
    }

    /// A node marks its children for the other threads exactly where they can change the
    /// child another thread picks there.
    #[test]
    fn marks_are_made_where_they_are_read() {
        for attacker_node in [true, false] {
            for refuting in [true, false] {
                let unbounded = !refuting;
                // Equal children, the first one busy: deflected, a thread takes the second
                // (numbers by which an unbounded attacker node deflects too).
                let numbers = if attacker_node {
                    [(3, 1), (3, 1)]
                } else {
                    [(1, 3), (1, 3)]
                };
                let read = picked(true, attacker_node, unbounded, numbers) == 1;
                assert_eq!(
                    marks_read(attacker_node, refuting),
                    read,
                    "attacker node {attacker_node}, refuting {refuting}"
                );
            }
        }
    }

    /// A search that expects a proof (a raw shortening) deflects its bounded nodes as an
    /// unbounded search does: an attacker node likely mated keeps the threads on its best
    /// check, a likely refuted one splits them, and a defender node always splits its
    /// evasions.
    #[test]
    fn a_search_that_expects_a_proof_deflects_as_an_unbounded_one() {
        assert_eq!(picked_in(true, true, true, false, [(1, 5), (2, 5)]), 0);
        assert_eq!(picked_in(true, true, true, false, [(3, 1), (4, 2)]), 1);
        assert_eq!(picked_in(true, true, false, false, [(1, 3), (1, 4)]), 1);
        assert_eq!(picked_in(true, true, false, false, [(5, 1), (5, 2)]), 1);
        // The same bounded nodes in a search that expects refutations.
        assert_eq!(picked_in(true, false, true, false, [(1, 5), (2, 5)]), 1);
        assert_eq!(picked_in(true, false, false, false, [(1, 3), (1, 4)]), 0);
        // Helpers take the switch from the thread that starts them.
        let table = Table::new(1);
        let pos = bare_root();
        let mut search = Search::new(&table, pos.clone(), Limits::default());
        assert!(
            !search.expects_proof,
            "searches expect refutations unless told"
        );
        search.expects_proof = true;
        let (marks, halt) = (Arc::new(Marks::new()), Arc::new(AtomicBool::new(false)));
        assert!(search.helper(&marks, &halt, None, 1).expects_proof);
        // The tsume solve's raw shortenings are such searches.
        let color = pos.side_to_move();
        let shortening =
            super::super::shortening_search((&table, None), pos, color, Limits::default());
        assert!(shortening.expects_proof);
    }

    /// 将棋図巧 No. 2 (benches/data/zuko.txt): the first mate of one thread alone, chaining
    /// in the unbounded search or not: (kind, length, nodes).
    fn first_mate_alone(chains_unbounded: bool) -> (Kind, u16, u64) {
        let table = Table::new(16);
        let pos = crate::Position::from_sfen(
            "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1",
        )
        .expect("sfen");
        let mut search = Search::new(&table, pos, Limits::default());
        search.chains_unbounded = chains_unbounded;
        let r = super::super::on_search_thread(|| search.solve_current(crate::Plies::UNLIMITED));
        (r.kind(), r.len, search.nodes)
    }

    #[test]
    fn every_other_helper_orders_the_first_search_with_chains() {
        let table = Table::new(1);
        let pos = bare_root();
        let search = Search::new(&table, pos, Limits::default());
        let (marks, halt) = (Arc::new(Marks::new()), Arc::new(AtomicBool::new(false)));
        let chaining: Vec<bool> = (1..=4)
            .map(|i| search.helper(&marks, &halt, None, i).chains(UNLIMITED))
            .collect();
        assert_eq!(chaining, [true, false, true, false]);
        // The chaining helpers chain all of a defender node's drops in one chain; one
        // thread alone (its slices) chains them per square.
        let across: Vec<bool> = (1..=4)
            .map(|i| search.helper(&marks, &halt, None, i).one_drop_chain)
            .collect();
        assert_eq!(across, [true, false, true, false]);
        assert!(!search.one_drop_chain);
        assert!(!search.chains(UNLIMITED));
        assert!(search.chains(9) && search.helper(&marks, &halt, None, 2).chains(9));
        // The switch reaches the search: another order (node-count anchors), the same
        // mate (the diagram's first mates are both its 21-ply solution).
        assert_eq!(first_mate_alone(false), (Kind::Proven, 21, 16_831));
        assert_eq!(first_mate_alone(true), (Kind::Proven, 21, 10_765));
    }

    /// An unbounded search gives each order of its first search marks of its own, so
    /// that a thread is deflected only by the threads that order the children as it does;
    /// a bounded search (one order) shares one set among all its threads.
    #[test]
    fn threads_are_deflected_only_by_threads_of_their_own_order() {
        let table = Table::new(1);
        let pos = bare_root();
        let search = Search::new(&table, pos, Limits::default());
        let halt = Arc::new(AtomicBool::new(false));
        let sets = marks_of_the_orders(UNLIMITED);
        assert_eq!(sets.len(), 2);
        // Thread i uses set i % 2 (the calling thread, 0, unchained, the first): one
        // order per set.
        for i in 1..=4 {
            let helper = search.helper(&sets[i % sets.len()], &halt, None, i);
            let in_the_unchained_set = i % sets.len() == 0;
            assert_eq!(
                !helper.chains(UNLIMITED),
                in_the_unchained_set,
                "thread {i}"
            );
        }
        // A thread below a child in one set leaves it free in the other.
        let slot = Marks::slot(search.pos.full_key(), Move::from_raw(0x100));
        sets[1].enter(slot);
        assert_eq!((sets[0].count(slot), sets[1].count(slot)), (0, 1));
        assert_eq!(marks_of_the_orders(9).len(), 1);
    }

    /// One thread alternates the two orders in slices (`Search::solve_first`): the same
    /// mate, in another number of nodes than either order alone (an anchor); the order and
    /// the node limit are given back; a node limit inside a slice stops it there.
    #[test]
    fn one_thread_alternates_the_orders_of_the_first_search_in_slices() {
        let table = Table::new(16);
        let pos = crate::Position::from_sfen(
            "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1",
        )
        .expect("sfen");
        let mut search = Search::new(&table, pos.clone(), Limits::default());
        let r = super::super::on_search_thread(|| search.solve_first_in_slices(2_000, 2));
        assert_eq!((r.kind(), r.len), (Kind::Proven, 21));
        // 2,000 unchained, 4,000 chained, then unchained again: neither order's count
        // (16,831 and 10,765, see the test above).
        assert_eq!(search.nodes, 13_310);
        assert_eq!(search.limits.node_limit, None);
        assert!(!search.chains(UNLIMITED) && search.stopped.is_none());

        let table = Table::new(16);
        let limits = Limits {
            node_limit: Some(5_000),
            ..Limits::default()
        };
        let mut search = Search::new(&table, pos, limits);
        let r = super::super::on_search_thread(|| search.solve_first_in_slices(2_000, 2));
        assert_eq!(r.kind(), Kind::Unknown);
        // Stopped inside the second slice (nodes 2,000 to 6,000) at the limit, give or take
        // the nodes counted while unwinding, and no slice after it.
        assert_eq!(search.stopped, Some(Stop::Nodes));
        assert!((5_000..5_100).contains(&search.nodes), "{}", search.nodes);
        assert_eq!(search.limits.node_limit, Some(5_000));
    }

    /// The raw shortenings' cap counts the nodes of all threads: at four threads that join
    /// at once, the given-up "within 19" disproof of 将棋図巧 No. 2 (its first mate of 21 is
    /// the shortest) spends about the cap, not four times it.
    #[test]
    fn the_shortenings_cap_counts_every_threads_nodes() {
        let pos = crate::Position::from_sfen(
            "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1",
        )
        .expect("sfen");
        let limits = Limits {
            threads: 4,
            warm_up_nodes: Some(0),
            ..Limits::default()
        };
        let cap = 4_000;
        let (first, shortened, nodes) = super::super::on_search_thread(|| {
            let mut table = Table::new(16);
            let first =
                super::super::first_mate(&pos, crate::Color::Black, &limits, &mut table, None);
            let (shortened, nodes) = super::super::shorten_cheaply(
                &pos,
                crate::Color::Black,
                &limits,
                (&mut table, None),
                crate::Plies::new(21),
                cap,
                |_, _, _| {},
            );
            (first.length, shortened, nodes)
        });
        assert_eq!(first, Ok(Some(crate::Plies::new(21))));
        assert_eq!(shortened, Ok(crate::Plies::new(21)));
        // Each thread stops at its share (or sooner, halted by the first to stop), give or
        // take the nodes counted while unwinding; the disproof alone needs more than 16,000.
        assert!(nodes < cap * 3 / 2, "{nodes} nodes");
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

    /// A thread 600 plies deep (寿's paths) holds 600 marks: another thread should find
    /// few children falsely busy (about one in 400 with 2^18 counters; with 2^16 about
    /// one in a hundred were).
    #[test]
    fn a_deep_path_leaves_few_children_falsely_busy() {
        let marks = Marks::new();
        // (node, move) pairs told apart by their node, whose keys are spread over 64 bits
        // as full keys are (consecutive ones would fill the counters too evenly).
        let pair = |i: u64| {
            (
                i.wrapping_mul(0x2545_f491_4f6c_dd1d),
                Move::from_raw(0x1234),
            )
        };
        for i in 0..600 {
            let (parent, m) = pair(i);
            marks.enter(Marks::slot(parent, m));
        }
        let probes = 100_000;
        let busy = (600..600 + probes)
            .filter(|&i| {
                let (parent, m) = pair(i);
                marks.count(Marks::slot(parent, m)) > 0
            })
            .count();
        assert!(
            busy * 250 < probes as usize,
            "{busy} of {probes} children look busy"
        );
    }

    #[test]
    fn side_by_side_keeps_the_order_at_any_thread_count() {
        let items: Vec<u64> = (0..100).collect();
        for threads in [0, 1, 2, 8, 200] {
            let squares = side_by_side(threads, &items, |i, &x| (i as u64, x * x));
            assert_eq!(squares.len(), 100);
            assert!(squares.iter().all(|&(i, sq)| sq == i * i));
        }
        assert!(side_by_side(4, &[] as &[u8], |_, _| ()).is_empty());
    }

    #[test]
    fn side_by_side_gives_back_every_helper_it_was_allowed() {
        for (threads, items) in [(1, 5), (4, 0), (4, 1), (4, 2), (4, 10), (9, 3)] {
            let given_back = AtomicUsize::new(0);
            let list: Vec<usize> = (0..items).collect();
            let out = side_by_side_with(
                threads,
                &list,
                |_, &x| x,
                || {
                    given_back.fetch_add(1, Relaxed);
                },
            );
            assert_eq!(out, list);
            assert_eq!(given_back.load(Relaxed), threads - 1, "{threads} {items}");
        }
    }
}
