//! The df-pn search proper (Nagai's MID with a transposition table).
//!
//! OR nodes (attacker to move) expand the legal checks, AND nodes every legal evasion.
//! Each node gets a `remaining` length: a mate must be delivered within that many plies, so
//! the same search proves "mate within N" for the shortest-mate iterations.
//!
//! Repetition: a position already on the current path is a failure for the attacker
//! (perpetual check is not mate). Such a disproof depends on the path; it is kept in the
//! parent's child list and propagated with the path depth it depends on, and only written
//! to the table once the search has returned above that depth (graph-history interaction).
//!
//! This file is the node loop (the OR and AND nodes, descending into a child); the rest of
//! the search is split by idea beside it: `children.rs` (a node's children: their
//! expansion and the pick of the next), `estimates.rs` (initial values of new children,
//! nodes decided on the spot), `probe.rs` (keys, table probes, repetition),
//! `thresholds.rs`, `node.rs` (a node's result and its children), `clock.rs` (limits
//! and progress) and `parallel.rs` (threads searching one root together).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use super::hands;
use super::table::{Kind, Table, INF, NO_MATE};
use crate::color::Color;
use crate::hand::Hand;
use crate::movegen::{self, CheckInfo};
use crate::moves::{Move, MoveList};
use crate::plies::Plies;
use crate::position::Position;
use crate::square::Square;
use crate::zobrist;

pub use super::clock::{Limits, Progress, ProgressCallback, Stop, Unsettled};
pub use super::node::NodeResult;
use super::node::*;
use super::parallel::{marks_read, Marks, NodeTally};
use super::path::Path;
pub use super::probe::table_salt;
use super::probe::*;
use super::thresholds::*;

/// A proof/disproof number that is not final saturates below [`INF`].
pub(super) const MAX_FINITE: u32 = INF - 1;

/// [`Plies::UNLIMITED`] as the raw budget of the search's recursion (see [`Plies`] for
/// why the recursion keeps raw budgets).
pub const UNLIMITED: u16 = Plies::UNLIMITED.get();

/// Nodes of the first, unchained slice of [`Search::solve_first`] at one thread. Smaller
/// first slices lost problems the unchained order finds soon after (benches/RESULTS.md
/// §29c: with 1 M, 将棋図巧 No. 89).
pub const FIRST_SLICE_NODES: u64 = 2_000_000;

/// How many times longer each slice of [`Search::solve_first`] is than the one before.
pub const SLICE_GROWTH: u64 = 2;

/// Whether a node looks every child up in the table before it evaluates any: then a child
/// the table settles (a proven check, a refuting evasion) costs no evaluation of the
/// children before it. Only in unlimited searches: in the bounded ones the different
/// child it settles on cost more than the evaluations saved (benches/RESULTS.md §16a).
#[inline]
pub(super) fn looks_up_first(remaining: u16) -> bool {
    remaining == UNLIMITED
}

impl Search<'_> {
    /// Whether a node with `remaining` plies chains moves behind others (see
    /// [`Scratch::chained`]): in bounded searches, and in unbounded ones on a thread that
    /// [`Search::chains_unbounded`].
    #[inline]
    pub(super) fn chains(&self, remaining: u16) -> bool {
        remaining != UNLIMITED || self.chains_unbounded
    }
}

/// The budget of a child: one ply less, unless unlimited.
#[inline]
pub(super) fn below(remaining: u16) -> u16 {
    if remaining == UNLIMITED {
        UNLIMITED
    } else {
        remaining - 1
    }
}

/// Which defences an AND node considers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Defences {
    /// Every legal evasion (the game itself).
    #[default]
    All,
    /// Every evasion, but an interposition is excused when a check capturing the
    /// interposed piece leads to a mate within the interposing node's own budget with the
    /// captured piece out of the game: the tsume rule of useless interpositions without its
    /// "the other defences need the full budget" condition. Its mate length is a lower
    /// bound of the tsume length, equal to it unless an interposition lengthens a mate by
    /// four plies or more over shorter other defences.
    Tsume,
    /// [`Defences::Tsume`] with the two-ply rule's leaves: a mated defender node is worth
    /// −2 plies when the attacker has pieces left in hand, so "mate within `r`" here means
    /// a line of at most `r` plies, or `r + 2` ending with pieces left over. Lengths and
    /// budgets are those values plus 2 (a mated node is 0 with pieces in hand, 2 without),
    /// so the search's budgets stay non-negative: mate within `r + 2` here is a lower-bound
    /// value of at most `r` (`tsume::evaluator`). Its table entries are kept apart from
    /// the other games' by a salt.
    TsumeTwoPly,
}

impl Defences {
    /// Whether useless interpositions are excused (the lower-bound games).
    #[inline]
    pub(super) fn excuses_interpositions(self) -> bool {
        self != Defences::All
    }
}

/// Salt of the table keys of [`Defences::TsumeTwoPly`]. Of high bits only, so that a
/// position's two-ply and plain entries share a table cluster (see
/// [`CLUSTER_FREE_BITS`](super::table::CLUSTER_FREE_BITS)): the two-ply game reads the
/// plain game's entry of each child it probes ([`Search::probe_plain`]), and the evaluator
/// reads both for each check it orders.
pub(crate) const TWO_PLY_SALT: u64 = 0x6a << 56;
const _: () = assert!(TWO_PLY_SALT.trailing_zeros() >= super::table::CLUSTER_FREE_BITS);

/// Salt of the raw game's "no mate at all" copied into a lower-bound games' table (see
/// [`Search::no_mate_copies`]). Of high bits only, like [`TWO_PLY_SALT`], so that the copy
/// of a position's disproof lies in the cluster of the position's own lower-bound entries:
/// a lower-bound probe reads it from the cache lines it has just loaded.
pub(crate) const RAW_NO_MATE_SALT: u64 = 0x36 << 56;
const _: () = assert!(RAW_NO_MATE_SALT.trailing_zeros() >= super::table::CLUSTER_FREE_BITS);

/// The table-key salt of a set of pieces missing from the game (zero for none).
#[inline]
pub(super) fn salt_of(missing: Hand) -> u64 {
    if missing.is_empty() {
        0
    } else {
        zobrist::hands_key(missing, Hand::EMPTY) | 2
    }
}

/// One df-pn search: the current position (moved along the path as nodes are entered and
/// left), whose mate it is after, the game it plays, the table it shares, and what it has
/// spent. [`Search::solve_current`] answers one "mate within N?" question; a solve asks
/// several in turn of the same `Search`, reusing its table. It recurses once per ply: run
/// it on a thread with a deep stack ([`on_search_thread`](super::on_search_thread)).
pub struct Search<'t> {
    /// The transposition table (shared with other threads in a parallel search).
    pub table: &'t Table,
    /// The current position: the root (or where [`Search::push_move`] led) between searches,
    /// the node being searched during one.
    pub pos: Position,
    /// The side that mates.
    pub attacker: Color,
    /// The defences an AND node considers (the game).
    pub defences: Defences,
    /// XORed into every table key: it tells apart positions of the same board and attacker
    /// hand whose defender hands differ because pieces left the game (the tsume rules'
    /// "captured piece never used" positions), which hand superiority must not mix.
    pub salt: u64,
    /// The pieces missing from the game at the current node.
    pub(super) missing: Hand,
    /// XORed into every key on top of the missing pieces' salt: the game's own
    /// ([`TWO_PLY_SALT`] or 0).
    pub(super) game_salt: u64,
    /// Full keys of the positions on the current path, with their path depth.
    pub(super) path: Path,
    pub(super) depth: u32,
    /// Nodes searched so far by this search (all its `solve_current` calls).
    pub nodes: u64,
    pub(super) limits: Limits,
    pub(super) start: Instant,
    pub(super) next_report: Instant,
    /// The limit that stopped the search, if one did (the last answer is then unknown).
    pub stopped: Option<Stop>,
    /// Disproofs that depended on the path and were not stored (a statistic).
    pub path_dependent: u64,
    /// Child lists of the nodes on the current path, returned for reuse when a node exits.
    pub(super) scratch: Vec<Scratch>,
    /// While threads search together: the moves each thread is searching below (see
    /// `parallel.rs`); `None` alone.
    pub(super) marks: Option<Arc<Marks>>,
    /// Raised when another thread has settled the root.
    pub(super) halt: Option<Arc<AtomicBool>>,
    /// While threads search together: how this one shares its node count for the progress
    /// reports.
    pub(super) tally: Option<NodeTally>,
    /// Whether this thread chains moves (see [`Scratch::chained`]) in unbounded searches
    /// too, not only in bounded ones: every other helper thread does, so that threads
    /// searching one first mate order it differently (see `parallel.rs`).
    pub(super) chains_unbounded: bool,
    /// Whether, where this thread chains in unbounded searches, all of a defender node's
    /// drops form one chain rather than one per square (see [`Search::unchain`]): on the
    /// helper threads that chain, whose first search is the narrower order of a pair.
    /// Not at one thread, where it would leave the lower-bound game fewer of the raw
    /// game's entries (benches/RESULTS.md §51d).
    pub(super) one_drop_chain: bool,
    /// Whether this search is expected to end in a proof (a raw shortening, asked right
    /// after a longer mate was proven): its threads are then deflected in its bounded
    /// nodes as in the unbounded searches (see
    /// [`deflection`](super::parallel::deflection)), and its children's thresholds are
    /// those of the unbounded searches (see [`Search::refutes`]).
    pub(super) expects_proof: bool,
    /// In the raw game, the lower-bound games' table of the same problem: each "no mate at
    /// all" this search settles below a node is copied there, under a salt of its own,
    /// where the lower-bound games read it (a lower-bound mate is a raw mate, each excused
    /// interposition captured and the piece kept, so no raw mate at all is no lower-bound
    /// mate at all). Not that of a node without a check, which the lower-bound games settle
    /// by generating its checks: copying those too measured no better
    /// (`benches/RESULTS.md` §40d). `None` where no lower-bound game follows.
    pub no_mate_copies: Option<&'t Table>,
    /// In the lower-bound games, the raw game's table of the same problem, whose proofs
    /// settle the positions after an evasion that the game's own table does not know (a
    /// raw mate within `b` is a plain lower-bound mate within `b`, a two-ply one within
    /// `b + 2`; `probe_raw_proof` in `probe.rs`). `None` elsewhere.
    pub raw_proofs: Option<&'t Table>,
    /// The plies a defender node must have left for [`Search::raw_proofs`] to be read below
    /// it (40 unless changed; tests of small problems set 0).
    pub raw_proofs_above: u16,
    /// Counters for measurement (feature `stats`).
    #[cfg(feature = "stats")]
    pub stats: super::stats::Stats,
}

/// A node's working lists, borrowed from [`Search::scratch`] for the node's lifetime: two
/// allocations per node were 8 % of the time of a mate-in-3 search.
#[derive(Default)]
pub(super) struct Scratch {
    children: Vec<Child>,
    keys: Vec<ChildKey>,
    /// Moves that wait for others to settle before they become children: at a defender
    /// node the later drops on a square (see [`Search::unchain`]), at an attacker node the
    /// non-promotions (see [`Search::release_non_promotions`]); only where the node chains
    /// moves ([`Search::chains`]).
    chained: Vec<(Move, ChildKey)>,
}

/// What an attacker node's loop needs to know about the node.
struct OrNode<'a> {
    /// Its table key (flagged after an interposition).
    key: u64,
    ci: &'a CheckInfo,
    /// The interposition square just played (tsume game).
    flag: Option<Square>,
    remaining: u16,
    /// The budget of an ordinary check's child (`None`: no ordinary check fits).
    normal_budget: Option<u16>,
}

impl<'t> Search<'t> {
    /// A search of `pos` for a mate by the side to move, every legal defence counting.
    pub fn new(table: &'t Table, pos: Position, limits: Limits) -> Search<'t> {
        let attacker = pos.side_to_move();
        Search::with_rules(table, pos, attacker, limits, Defences::All)
    }

    /// A search of `pos` (either side to move) for a mate by `attacker`, the defender
    /// choosing among `defences`.
    pub fn with_rules(
        table: &'t Table,
        pos: Position,
        attacker: Color,
        limits: Limits,
        defences: Defences,
    ) -> Search<'t> {
        let start = Instant::now();
        let missing = pos.missing_pieces();
        let game_salt = if defences == Defences::TsumeTwoPly {
            TWO_PLY_SALT
        } else {
            0
        };
        let salt = salt_of(missing) ^ game_salt;
        let path = Path::new(pos.full_key());
        Search {
            table,
            pos,
            attacker,
            defences,
            salt,
            missing,
            game_salt,
            path,
            depth: 0,
            nodes: 0,
            limits,
            start,
            next_report: start + super::clock::REPORT_PERIOD,
            stopped: None,
            path_dependent: 0,
            scratch: Vec::new(),
            marks: None,
            halt: None,
            tally: None,
            chains_unbounded: false,
            one_drop_chain: false,
            expects_proof: false,
            no_mate_copies: None,
            raw_proofs: None,
            raw_proofs_above: super::probe::RAW_PROOFS_ABOVE,
            #[cfg(feature = "stats")]
            stats: Default::default(),
        }
    }

    /// Plays a move outside the search (along a solution line), keeping the path.
    pub fn push_move(&mut self, m: Move) {
        self.pos.do_move(m);
        self.depth += 1;
        self.path.insert_new(self.pos.full_key(), self.depth);
    }

    /// Whether a node with `remaining` plies left is in a refuting search: bounded, and not
    /// one that expects a proof (the raw shortenings of a tsume solve). The minimality
    /// disproofs, the lower-bound games and the evaluator's bounded questions are; their
    /// children's thresholds differ (see `thresholds.rs`), as does the threads' deflection
    /// (`parallel.rs`).
    #[inline]
    pub(super) fn refutes(&self, remaining: u16) -> bool {
        remaining != UNLIMITED && !self.expects_proof
    }

    /// Takes back the last [`Search::push_move`].
    pub fn pop_move(&mut self) {
        if self.path.get(self.pos.full_key()) == Some(self.depth) {
            self.path.remove(self.pos.full_key());
        }
        self.depth -= 1;
        self.pos.undo_move();
    }

    /// Runs a node with a [`Scratch`] from the pool (empty), returning it afterwards.
    #[inline]
    pub(super) fn with_scratch(
        &mut self,
        node: impl FnOnce(&mut Self, &mut Scratch) -> NodeResult,
    ) -> NodeResult {
        let mut scratch = self.scratch.pop().unwrap_or_default();
        let r = node(self, &mut scratch);
        scratch.children.clear();
        scratch.keys.clear();
        scratch.chained.clear();
        self.scratch.push(scratch);
        r
    }

    /// Searches the current position (attacker or defender to move) until it is proven or
    /// disproven within `remaining` plies, or a limit stops the search.
    /// With `limits.threads` above one, several threads search it together (see
    /// `parallel.rs`).
    pub fn solve_current(&mut self, remaining: Plies) -> NodeResult {
        let remaining = remaining.get();
        #[cfg(feature = "stats")]
        if super::stats::trace_settings().is_some() {
            self.stats.clear();
        }
        let r = if self.limits.threads > 1 && self.marks.is_none() {
            self.solve_current_in_parallel(remaining)
        } else {
            self.solve_current_alone(remaining)
        };
        #[cfg(feature = "stats")]
        self.stats.write_trace(remaining, 0);
        r
    }

    /// [`Search::solve_current`] on this thread alone.
    pub(super) fn solve_current_alone(&mut self, remaining: u16) -> NodeResult {
        loop {
            let r = if self.pos.side_to_move() == self.attacker {
                self.or_node(remaining, INF, INF, None)
            } else {
                self.and_node(remaining, INF, INF)
            };
            if r.kind() != Kind::Unknown || self.stopped.is_some() {
                return r;
            }
        }
    }

    /// Searches the current position for a mate at any length (the first mate of a solve).
    ///
    /// The heavy tails of an unbounded search depend on the order of the children more
    /// than on anything else, and the unchained order and the chained one (the bounded
    /// searches' order: non-promotions and later drops on a square wait for the others)
    /// fail on different problems (benches/RESULTS.md §26c).
    /// So one thread alternates them from one table, in slices of growing size: first
    /// [`FIRST_SLICE_NODES`] nodes unchained, then [`SLICE_GROWTH`] times as many chained,
    /// and so on; each slice goes on from the numbers the earlier ones stored. Several
    /// threads already split the two orders between them, so they search as
    /// [`Search::solve_current`] does. The order never changes a node's value, so the
    /// answer is exact either way.
    pub fn solve_first(&mut self) -> NodeResult {
        if self.limits.threads > 1 {
            return self.solve_current(Plies::UNLIMITED);
        }
        self.solve_first_in_slices(FIRST_SLICE_NODES, SLICE_GROWTH)
    }

    /// [`Search::solve_first`] at one thread, the first slice `first` nodes long, each
    /// next one `growth` times longer.
    pub(super) fn solve_first_in_slices(&mut self, first: u64, growth: u64) -> NodeResult {
        let chains_unbounded = self.chains_unbounded;
        let mut slice = first;
        let r = loop {
            let (r, slice_ended) = self.with_node_cap(slice, |s| s.solve_current_alone(UNLIMITED));
            if r.kind() != Kind::Unknown || !slice_ended {
                break r;
            }
            self.chains_unbounded = !self.chains_unbounded;
            slice = slice.saturating_mul(growth);
        };
        self.chains_unbounded = chains_unbounded;
        r
    }

    /// Runs `solve` with at most `cap` more nodes, within the search's own node limit, and
    /// tells whether the cap is what stopped it. A stop by the cap is not left as the
    /// search's stop (the search may go on); one by the search's own limits is.
    pub(super) fn with_node_cap(
        &mut self,
        cap: u64,
        solve: impl FnOnce(&mut Self) -> NodeResult,
    ) -> (NodeResult, bool) {
        let limit = self.limits.node_limit;
        let end = self.nodes.saturating_add(cap);
        self.limits.node_limit = Some(limit.map_or(end, |l| l.min(end)));
        let r = solve(self);
        self.limits.node_limit = limit;
        let capped = self.stopped == Some(Stop::Nodes) && limit.is_none_or(|l| self.nodes < l);
        if capped {
            self.stopped = None;
        }
        (r, capped)
    }

    /// Stores a proof of the node `key` (proof hand `proof`, mate in `len`) and returns it.
    #[inline]
    pub(super) fn prove(
        &mut self,
        key: u64,
        proof: Hand,
        len: u16,
        best: Option<Move>,
        amount: u32,
    ) -> NodeResult {
        self.table.store_proven(key, proof, len, best, amount);
        NodeResult {
            pn: 0,
            dn: INF,
            len,
            hand: proof,
            rep_depth: u32::MAX,
            best,
            amount,
        }
    }

    /// Plays the move to a child, searches it, and takes the move back.
    pub(super) fn descend(
        &mut self,
        m: Move,
        via: Via,
        remaining: u16,
        th_pn: u32,
        th_dn: u32,
    ) -> NodeResult {
        let attacker_moved = self.pos.side_to_move() == self.attacker;
        let unused = match via {
            Via::UnusedCapture => {
                let x = self
                    .pos
                    .captured_piece(m)
                    .expect("a capture")
                    .kind
                    .unpromote();
                Some(x)
            }
            _ => None,
        };
        // The child's budget is bounded exactly where its parent's is: the parent's search
        // refutes as the child's does.
        let marked = || marks_read(attacker_moved, self.refutes(remaining));
        let mark = self.marks.as_ref().filter(|_| marked()).map(|marks| {
            let slot = Marks::slot(self.pos.full_key(), m);
            marks.enter(slot);
            slot
        });
        self.pos.do_move(m);
        let saved_salt = self.salt;
        if let Some(x) = unused {
            self.pos.take_from_hand(self.attacker, x);
            self.missing = self.missing.add(x);
            self.salt = salt_of(self.missing) ^ self.game_salt;
        }
        self.depth += 1;
        self.path.insert(self.pos.full_key(), self.depth);
        #[cfg(feature = "stats")]
        {
            self.stats.entering_by = Some((m, via.name()));
        }
        let r = if attacker_moved {
            self.and_node(remaining, th_pn, th_dn)
        } else {
            let flag = (via == Via::Interposition).then(|| m.to());
            self.or_node(remaining, th_pn, th_dn, flag)
        };
        self.path.remove(self.pos.full_key());
        self.depth -= 1;
        if let Some(x) = unused {
            self.pos.return_to_hand(self.attacker, x);
            self.missing = self.missing.remove(x);
            self.salt = saved_salt;
        }
        self.pos.undo_move();
        if let (Some(marks), Some(slot)) = (&self.marks, mark) {
            marks.leave(slot);
        }
        r
    }

    /// A child's length or bound as seen from its parent: one ply more, except for the
    /// links of the tsume game that keep the parent's budget (see [`Via`]).
    #[inline]
    pub(super) fn lift(c: &Child, flagged_parent: bool) -> u16 {
        match c.via {
            Via::Interposition | Via::UnusedCapture => c.len,
            Via::Normal | Via::Pending if flagged_parent => c.len.saturating_add(2),
            Via::Normal | Via::Pending => c.len.saturating_add(1),
        }
    }

    /// Attacker to move: some check must lead to mate. `flag` is the square of the
    /// interposition just played, in the tsume game (see [`Via::Interposition`]).
    #[allow(clippy::let_and_return)] // the result is counted in between with `stats`
    pub(super) fn or_node(
        &mut self,
        remaining: u16,
        th_pn: u32,
        th_dn: u32,
        flag: Option<Square>,
    ) -> NodeResult {
        #[cfg(feature = "stats")]
        let key = self.pos.board_key() ^ self.salt ^ flag.map_or(0, interposition_flag);
        #[cfg(feature = "stats")]
        self.stats
            .enter(true, key, self.pos.hand(self.attacker), remaining);
        let r = self.with_scratch(|search, scratch| {
            search.or_node_with(scratch, remaining, th_pn, th_dn, flag)
        });
        #[cfg(feature = "stats")]
        {
            use super::stats::Fate;
            let fate = Fate::of(&r);
            let known = (fate == Fate::Bounded && r.len != NO_MATE)
                .then(|| {
                    self.table
                        .probe(key, self.pos.hand(self.attacker), UNLIMITED)
                })
                .filter(|p| p.kind() == Kind::Proven)
                .map(|p| p.len);
            self.stats.exit(fate, r.len, known);
        }
        r
    }

    pub(super) fn or_node_with(
        &mut self,
        scratch: &mut Scratch,
        remaining: u16,
        th_pn: u32,
        th_dn: u32,
        flag: Option<Square>,
    ) -> NodeResult {
        self.tick();
        let key = self.pos.board_key() ^ self.salt ^ flag.map_or(0, interposition_flag);
        // The budget of an ordinary check's child (none left: no ordinary check).
        let normal_budget = match flag {
            None => (remaining > 0).then(|| below(remaining)),
            Some(_) => (remaining >= 2).then(|| below(below(remaining))),
        };
        if flag.is_none() && normal_budget.is_none() {
            return NodeResult::disproven(0, hands::max_hand(), u32::MAX, 1);
        }
        let ci = CheckInfo::new(&self.pos);
        let mut moves = MoveList::new();
        movegen::generate_checks_with(&self.pos, &ci, &mut moves);
        #[cfg(feature = "stats")]
        self.stats.moves(moves.len());
        if moves.is_empty() {
            let d = self.disprove_checkless(key, &ci);
            return NodeResult::disproven(NO_MATE, d, u32::MAX, 1);
        }
        if remaining == 1 && flag.is_none() {
            if let Some(r) = self.mate_in_one(key, &ci, &moves) {
                return r;
            }
        }
        let Scratch {
            children,
            keys,
            chained,
        } = scratch;
        if let Some(budget) = normal_budget {
            self.expand_checks(&moves, children, keys, chained, remaining, budget);
        }
        if let Some(s) = flag {
            self.expand_unused_captures(&moves, s, children, remaining);
        }
        if let Some(i) = children.iter().position(|c| c.pn == 0) {
            let c = children[i];
            children.clear();
            children.push(c);
        }
        if children.is_empty() {
            // Flagged, no budget for an ordinary check and no capture of the interposed piece.
            return NodeResult::disproven(remaining, hands::max_hand(), u32::MAX, 1);
        }
        let node = OrNode {
            key,
            ci: &ci,
            flag,
            remaining,
            normal_budget,
        };
        self.or_loop(&node, scratch, th_pn, th_dn)
    }

    /// Searches an attacker node's children until the node is settled or exceeds a
    /// threshold.
    fn or_loop(
        &mut self,
        node: &OrNode,
        scratch: &mut Scratch,
        th_pn: u32,
        th_dn: u32,
    ) -> NodeResult {
        let Scratch {
            children, chained, ..
        } = scratch;
        let flagged = node.flag.is_some();
        let hand = self.pos.hand(self.attacker);
        let parent = self.parent_key();
        let mut amount: u32 = 1;
        let refuting = self.refutes(node.remaining);
        loop {
            let pick = self.pick_check(children, parent, flagged, refuting);
            let (pn, dn) = (pick.least, pick.other);
            if pn == 0 {
                return self.proven_by_check(node, &children[pick.best], amount);
            }
            if dn == 0 {
                if let Some(budget) = node.normal_budget.filter(|_| !chained.is_empty()) {
                    self.release_non_promotions(children, chained, budget);
                    continue;
                }
                return self.refuted_checks(node, children, amount);
            }
            let dn = dn.min(MAX_FINITE);
            if pn >= th_pn || dn >= th_dn || self.stopped.is_some() {
                let best = Some(children[pick.best].mv);
                let pn_true = pick.least_true;
                self.table
                    .store_unknown(node.key, hand, node.remaining, pn_true, dn, best, amount);
                return NodeResult::unknown(pn, dn, amount);
            }
            let c = children[pick.best];
            let child_th_pn = th_pn.min(if refuting {
                refuting_or_child_pn_threshold(pick.second)
            } else {
                one_plus_epsilon(pick.second)
            });
            let child_th_dn = or_child_dn_threshold(th_dn, dn, pick.open);
            let budget = match c.via {
                Via::UnusedCapture => node.remaining,
                _ => node
                    .normal_budget
                    .expect("ordinary children only with a budget"),
            };
            let r = self.descend(c.mv, c.via, budget, child_th_pn, child_th_dn);
            amount = amount.saturating_add(r.amount);
            children[pick.best].set(&r);
        }
    }

    /// An attacker node mated by the check `c`: stored and returned.
    fn proven_by_check(&mut self, node: &OrNode, c: &Child, amount: u32) -> NodeResult {
        let proof = match c.via {
            Via::UnusedCapture => c.hand,
            _ => hands::before_attacker_move(&self.pos, c.mv, c.hand),
        };
        let len = Self::lift(c, node.flag.is_some());
        self.prove(node.key, proof, len, Some(c.mv), amount)
    }

    /// An attacker node whose every check is refuted: its disproof hand and bound from
    /// theirs, stored unless it depends on the path above the node.
    fn refuted_checks(&mut self, node: &OrNode, children: &[Child], amount: u32) -> NodeResult {
        let flagged = node.flag.is_some();
        let mut d = hands::max_hand();
        let mut bound = NO_MATE;
        let mut rep = u32::MAX;
        for c in children.iter() {
            d = d.min(match c.via {
                Via::UnusedCapture => c.hand,
                _ => hands::disproof_before_attacker_move(&self.pos, c.mv, c.hand),
            });
            bound = bound.min(Self::lift(c, flagged));
            rep = rep.min(c.rep_depth);
        }
        if flagged && node.normal_budget.is_none() {
            // Ordinary checks were cut by the budget, not refuted.
            bound = bound.min(node.remaining);
        }
        let d = hands::or_node_disproof_hand(&self.pos, node.ci, d);
        self.disproven(node.key, d, bound, rep, amount)
    }

    /// A disproof (hand `d`, no mate within `bound`) depending on the path down to depth
    /// `rep`: stored when that is not above this node, else counted and kept out of the
    /// table (see the module doc).
    pub(super) fn disproven(
        &mut self,
        key: u64,
        d: Hand,
        bound: u16,
        rep: u32,
        amount: u32,
    ) -> NodeResult {
        let mut rep = rep;
        if rep >= self.depth {
            self.table.store_disproven(key, d, bound, amount);
            if bound == NO_MATE {
                if let Some(copies) = self.no_mate_copies {
                    copies.store_disproven(key ^ RAW_NO_MATE_SALT, d, NO_MATE, amount);
                }
            }
            rep = u32::MAX;
        } else {
            self.path_dependent += 1;
        }
        NodeResult::disproven(bound, d, rep, amount)
    }

    /// The full key of the current position when threads search together (the key of
    /// their marks), else 0.
    #[inline]
    fn parent_key(&self) -> u64 {
        if self.marks.is_some() {
            self.pos.full_key()
        } else {
            0
        }
    }

    /// Defender to move (in check): every evasion must lead to mate.
    #[allow(clippy::let_and_return)] // the result is counted in between with `stats`
    pub(super) fn and_node(&mut self, remaining: u16, th_pn: u32, th_dn: u32) -> NodeResult {
        #[cfg(feature = "stats")]
        self.stats.enter(
            false,
            self.pos.board_key() ^ self.salt,
            self.pos.hand(self.attacker),
            remaining,
        );
        let r = self
            .with_scratch(|search, scratch| search.and_node_with(scratch, remaining, th_pn, th_dn));
        #[cfg(feature = "stats")]
        self.stats.exit(super::stats::Fate::of(&r), r.len, None);
        r
    }

    pub(super) fn and_node_with(
        &mut self,
        scratch: &mut Scratch,
        remaining: u16,
        th_pn: u32,
        th_dn: u32,
    ) -> NodeResult {
        self.tick();
        let key = self.pos.board_key() ^ self.salt;
        let mut moves = MoveList::new();
        let horizon = remaining <= 1;
        if horizon && self.horizon_escape() {
            return NodeResult::disproven(remaining, hands::max_hand(), u32::MAX, 1);
        }
        if !horizon || self.defences.excuses_interpositions() {
            // (At the horizon of the tsume game only interpositions are left here.)
            movegen::generate_evasions(&self.pos, &mut moves);
            #[cfg(feature = "stats")]
            self.stats.moves(moves.len());
        }
        if moves.is_empty() {
            return self.mated(key, remaining).unwrap_or_else(|r| r);
        }
        self.expand_evasions(
            &moves,
            &mut scratch.children,
            &mut scratch.keys,
            &mut scratch.chained,
            remaining,
        );
        self.and_loop(key, remaining, scratch, th_pn, th_dn)
    }

    /// Searches a defender node's children until the node is settled or exceeds a
    /// threshold.
    fn and_loop(
        &mut self,
        key: u64,
        remaining: u16,
        scratch: &mut Scratch,
        th_pn: u32,
        th_dn: u32,
    ) -> NodeResult {
        let Scratch {
            children, chained, ..
        } = scratch;
        let hand = self.pos.hand(self.attacker);
        let parent = self.parent_key();
        let mut amount: u32 = 1;
        let refuting = self.refutes(remaining);
        // A chain moves on only when a drop is mated: after expansion (from the table) or
        // after the searched drop.
        let mut unchain_due = !chained.is_empty();
        loop {
            if unchain_due {
                self.unchain(children, chained, remaining);
            }
            let pick = self.pick_evasion(children, parent, refuting);
            let (pn, dn) = (pick.other, pick.least);
            if dn == 0 {
                let c = children[pick.best];
                let d = hands::and_node_disproof_hand(&self.pos, c.mv, c.hand);
                return self.disproven(key, d, Self::lift(&c, false), c.rep_depth, amount);
            }
            if pn == 0 {
                return self.mated_by_every_evasion(key, children, amount);
            }
            let pn = pn.min(MAX_FINITE);
            if pn >= th_pn || dn >= th_dn || self.stopped.is_some() {
                let best = Some(children[pick.best].mv);
                let dn_true = pick.least_true;
                self.table
                    .store_unknown(key, hand, remaining, pn, dn_true, best, amount);
                return NodeResult::unknown(pn, dn, amount);
            }
            let c = children[pick.best];
            let child_th_dn = th_dn.min(if refuting {
                refuting_and_child_dn_threshold(pick.second)
            } else {
                one_plus_epsilon(pick.second)
            });
            let child_th_pn = and_child_pn_threshold(th_pn, pn, c.pn);
            let budget = match c.via {
                Via::Interposition => remaining,
                _ => below(remaining),
            };
            let r = self.descend(c.mv, c.via, budget, child_th_pn, child_th_dn);
            amount = amount.saturating_add(r.amount);
            children[pick.best].set(&r);
            self.flag_if_refuted(&mut children[pick.best], remaining);
            unchain_due = r.pn == 0 && c.mv.is_drop() && !chained.is_empty();
        }
    }

    /// A defender node mated after every evasion: proven with the longest of them.
    fn mated_by_every_evasion(&mut self, key: u64, children: &[Child], amount: u32) -> NodeResult {
        let mut proof = Hand::EMPTY;
        let mut len = 0;
        let mut best_mv = children[0].mv;
        for c in children.iter() {
            proof = proof.max(c.hand);
            let l = Self::lift(c, false);
            if l >= len {
                len = l;
                best_mv = c.mv;
            }
        }
        let proof = hands::and_node_proof_hand(&self.pos, self.attacker, proof);
        self.prove(key, proof, len, Some(best_mv), amount)
    }
}
