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

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::hands;
use super::table::{Kind, Probe, Table, INF, NO_MATE};
use crate::color::Color;
use crate::hand::Hand;
use crate::movegen::{self, CheckInfo};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::square::Square;
use crate::zobrist;

/// A proof/disproof number that is not final saturates below [`INF`].
const MAX_FINITE: u32 = INF - 1;

/// Why the search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Nodes,
    Time,
    /// The stop flag was raised.
    Requested,
}

/// Counts evasions, drops on one square (interpositions with different pieces) as one, the
/// way the AND node will count their proof numbers.
#[derive(Default)]
struct EvasionCounter {
    moves: u32,
    drops: u32,
    drop_squares: crate::bitboard::Bitboard,
}

impl EvasionCounter {
    fn distinct(&self) -> u32 {
        self.moves - self.drops + self.drop_squares.count()
    }
}

impl movegen::MoveSink for EvasionCounter {
    #[inline]
    fn push(&mut self, m: Move) -> bool {
        self.moves += 1;
        if m.is_drop() {
            self.drops += 1;
            self.drop_squares = self.drop_squares.with(m.to());
        }
        true
    }
}

/// Hashes the path's Zobrist keys, which are already uniformly random, by taking them as
/// they are (SipHash showed in profiles).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    #[inline]
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A length budget meaning "no limit": it does not shrink with depth, so a position reached
/// by paths of different lengths shares one table entry in the first search.
pub const UNLIMITED: u16 = u16::MAX - 1;
/// At most this many plies left at a new defender node, its evasions are not counted for
/// the initial proof number (only whether one exists): so close to the horizon the count
/// hardly guides the search, and generating them all was a large part of the work of the
/// "mate within L − 2" searches (set of 32 将棋図巧 problems: 7 % fewer nodes, 6 % less time).
const COUNT_EVASIONS_ABOVE: u16 = 2;

/// Cap of the initial disproof number of a new attacker node (its number of checks): 16
/// cost set A 10 % more nodes in the first mates, 64 gained nothing over 32.
const MAX_INITIAL_DN: u32 = 32;

/// Whether a node looks every child up in the table before it evaluates any: then a child
/// the table settles (a proven check, a refuting evasion) costs no evaluation of the
/// children before it. Only in unlimited searches: in the bounded ones the different
/// child it settles on cost more than the evaluations saved (benches/RESULTS.md §16a).
#[inline]
fn looks_up_first(remaining: u16) -> bool {
    remaining == UNLIMITED
}

/// The budget of a child: one ply less, unless unlimited.
#[inline]
fn below(remaining: u16) -> u16 {
    if remaining == UNLIMITED {
        UNLIMITED
    } else {
        remaining - 1
    }
}

/// The table-key salt of a position: zero when every piece of the set is on the board or in
/// a hand (the usual problem), else a mix of the pieces missing from the game.
pub fn table_salt(pos: &Position) -> u64 {
    salt_of(pos.missing_pieces())
}

/// The threshold for the best child: a little above the second best (the 1+ε trick of
/// Pawlewicz and Lew), so that the search does not flip between two close children.
#[inline]
fn one_plus_epsilon(second: u32) -> u32 {
    second.saturating_add(1).saturating_add(second / 4)
}

/// The disproof-number threshold of an attacker node's best child: the node's disproof
/// number (`dn`, hardest child plus one per other open child) reaches `th_dn` when the
/// child's reaches `th_dn` less one per other open child.
///
/// Once `dn` is saturated (only an infinite threshold lets the search go on), the child may
/// use the whole threshold: the difference would stop it at once, and the node would call
/// it again and again without progress.
fn or_child_dn_threshold(th_dn: u32, dn: u32, open: u32) -> u32 {
    if dn >= MAX_FINITE {
        th_dn
    } else {
        th_dn - (open - 1)
    }
}

/// The proof-number threshold of a defender node's child (proof number `child_pn`) when
/// the node's sum is `pn`: the sum reaches `th_pn` when the child's reaches `th_pn` less
/// the others.
///
/// With the sum saturated (only an infinite threshold lets the search go on) the
/// difference would leave the child one more than its own proof number: it would return
/// after a few nodes, to be called again, millions of times over. That livelock was seen
/// in `tsume verify` once table entries of earlier searches brought huge numbers (a check
/// refuted in 0.5 M nodes was not refuted in 20 M).
fn and_child_pn_threshold(th_pn: u32, pn: u32, child_pn: u32) -> u32 {
    if pn >= MAX_FINITE {
        th_pn
    } else {
        th_pn - (pn - child_pn.min(pn))
    }
}

#[cfg(test)]
mod threshold_tests {
    use super::*;

    #[test]
    fn a_child_keeps_the_difference_below_saturation() {
        assert_eq!(and_child_pn_threshold(100, 30, 10), 80);
        assert_eq!(or_child_dn_threshold(100, 30, 4), 97);
        assert_eq!(and_child_pn_threshold(INF, MAX_FINITE - 5, 10), 16);
    }

    #[test]
    fn a_saturated_sum_passes_the_whole_threshold_on() {
        // A child whose threshold stays "its proof number plus one" would return at once.
        assert_eq!(and_child_pn_threshold(INF, MAX_FINITE, 1_833_066_361), INF);
        assert_eq!(or_child_dn_threshold(INF, MAX_FINITE, 3), INF);
    }
}

/// The value of a node as returned to its parent.
#[derive(Clone, Copy, Debug)]
pub struct NodeResult {
    pub pn: u32,
    pub dn: u32,
    /// Proven: mate length; disproven: no mate within this many plies.
    pub len: u16,
    /// Proof hand (proven) or disproof hand (disproven).
    pub hand: Hand,
    /// Shallowest path depth a (repetition) disproof depends on; `u32::MAX` if none.
    pub rep_depth: u32,
    pub best: Option<Move>,
    /// Nodes searched below (for the table's replacement policy).
    pub amount: u32,
}

impl NodeResult {
    fn unknown(pn: u32, dn: u32, amount: u32) -> NodeResult {
        NodeResult {
            pn,
            dn,
            len: 0,
            hand: Hand::EMPTY,
            rep_depth: u32::MAX,
            best: None,
            amount,
        }
    }

    fn disproven(bound: u16, hand: Hand, rep_depth: u32, amount: u32) -> NodeResult {
        NodeResult {
            pn: INF,
            dn: 0,
            len: bound,
            hand,
            rep_depth,
            best: None,
            amount,
        }
    }

    pub fn kind(&self) -> Kind {
        Kind::of(self.pn, self.dn)
    }
}

/// One child of the node being searched, with its current value.
#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Move,
    via: Via,
    pn: u32,
    dn: u32,
    len: u16,
    hand: Hand,
    rep_depth: u32,
    /// Neither found in the table nor evaluated yet (see [`looks_up_first`]).
    fresh: bool,
}

impl Child {
    fn new(mv: Move, via: Via) -> Child {
        Child {
            mv,
            via,
            pn: 1,
            dn: 1,
            len: 0,
            hand: Hand::EMPTY,
            rep_depth: u32::MAX,
            fresh: false,
        }
    }

    /// The child repeats the position at path depth `depth`: a failure for the attacker
    /// that depends on the path.
    fn repeats(&mut self, depth: u32) {
        self.pn = INF;
        self.dn = 0;
        self.len = NO_MATE;
        self.hand = hands::max_hand();
        self.rep_depth = depth;
    }

    fn set(&mut self, r: &NodeResult) {
        self.pn = r.pn;
        self.dn = r.dn;
        self.len = r.len;
        self.hand = r.hand;
        self.rep_depth = r.rep_depth;
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
    fn excuses_interpositions(self) -> bool {
        self != Defences::All
    }
}

/// Salt of the table keys of [`Defences::TsumeTwoPly`].
const TWO_PLY_SALT: u64 = 0x6a09_e667_f3bc_c908 & !3;

/// How a child is reached from its parent in the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    /// A move, one ply of the budget.
    Normal,
    /// (Tsume game) an interposition searched first as an ordinary move (one ply of the
    /// budget): most are refuted that way or mate anyway, and only one refuted becomes
    /// [`Via::Interposition`], with its extra children.
    Pending,
    /// (Tsume game) an interposition: the child, an attacker node flagged with the
    /// interposition square, keeps the parent's budget; its ordinary checks get two plies
    /// less and its captures on the square lead to [`Via::UnusedCapture`] children.
    Interposition,
    /// (Tsume game) the capture of an interposed piece, the piece then taken out of the
    /// game; the child keeps the budget of the node before the interposition.
    UnusedCapture,
}

/// Key marking an attacker node just after an interposition on `s` (its children differ).
#[inline]
fn interposition_flag(s: Square) -> u64 {
    (s.index() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) & !1
}

/// The table-key salt of a set of pieces missing from the game (zero for none).
#[inline]
fn salt_of(missing: Hand) -> u64 {
    if missing.is_empty() {
        0
    } else {
        zobrist::hands_key(missing, Hand::EMPTY) | 2
    }
}

pub struct Search<'t> {
    pub table: &'t mut Table,
    pub pos: Position,
    pub attacker: Color,
    pub defences: Defences,
    /// XORed into every table key: it tells apart positions of the same board and attacker
    /// hand whose defender hands differ because pieces left the game (the tsume rules'
    /// "captured piece never used" positions), which hand superiority must not mix.
    pub salt: u64,
    /// The pieces missing from the game at the current node.
    missing: Hand,
    /// XORed into every key on top of the missing pieces' salt: the game's own
    /// ([`TWO_PLY_SALT`] or 0).
    game_salt: u64,
    /// Full keys of the positions on the current path, with their path depth.
    path: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    depth: u32,
    pub nodes: u64,
    limits: Limits,
    start: Instant,
    next_report: Instant,
    pub stopped: Option<Stop>,
    /// Disproofs that depended on the path and were not stored (a statistic).
    pub path_dependent: u64,
    /// Child lists of the nodes on the current path, returned for reuse when a node exits.
    scratch: Vec<Scratch>,
    /// Counters for measurement (feature `stats`).
    #[cfg(feature = "stats")]
    pub stats: super::stats::Stats,
}

/// The table key, attacker hand and repetition depth of a child (see [`Search::child_key`]).
type ChildKey = (u64, Hand, Option<u32>);

/// A node's working lists, borrowed from [`Search::scratch`] for the node's lifetime: two
/// allocations per node were 8 % of the time of a mate-in-3 search.
#[derive(Default)]
struct Scratch {
    children: Vec<Child>,
    keys: Vec<ChildKey>,
}

/// When to stop, and whom to tell about progress.
#[derive(Clone, Default)]
pub struct Limits {
    pub node_limit: Option<u64>,
    pub deadline: Option<Instant>,
    /// Set by another thread to stop the search (USI `stop`).
    pub stop_flag: Option<Arc<AtomicBool>>,
    /// Called about once a second with the search's progress.
    pub on_progress: Option<ProgressCallback>,
}

/// Receives [`Progress`] reports from a running search.
pub type ProgressCallback = Arc<dyn Fn(&Progress) + Send + Sync>;

/// A snapshot of a running search.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub nodes: u64,
    pub elapsed: std::time::Duration,
    /// Table fill in per mille.
    pub hashfull: usize,
}

impl<'t> Search<'t> {
    pub fn new(table: &'t mut Table, pos: Position, limits: Limits) -> Search<'t> {
        let attacker = pos.side_to_move();
        Search::with_rules(table, pos, attacker, limits, Defences::All)
    }

    /// A search of `pos` (either side to move) for a mate by `attacker`, the defender
    /// choosing among `defences`.
    pub fn with_rules(
        table: &'t mut Table,
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
        let mut path = HashMap::default();
        path.insert(pos.full_key(), 0);
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
            next_report: start + std::time::Duration::from_secs(1),
            stopped: None,
            path_dependent: 0,
            scratch: Vec::new(),
            #[cfg(feature = "stats")]
            stats: Default::default(),
        }
    }

    /// Plays a move outside the search (along a solution line), keeping the path.
    pub fn push_move(&mut self, m: Move) {
        self.pos.do_move(m);
        self.depth += 1;
        self.path.entry(self.pos.full_key()).or_insert(self.depth);
    }

    pub fn pop_move(&mut self) {
        if self.path.get(&self.pos.full_key()) == Some(&self.depth) {
            self.path.remove(&self.pos.full_key());
        }
        self.depth -= 1;
        self.pos.undo_move();
    }

    /// The board key and attacker hand of the position after `m` (its table key), and the
    /// path depth of the position it repeats, if any: the board key is computed once.
    #[inline]
    fn child_key(&self, m: Move) -> (u64, Hand, Option<u32>) {
        let key = self.pos.board_key_after(m) ^ self.salt;
        let mut hands = [self.pos.hand(Color::Black), self.pos.hand(Color::White)];
        hands[self.pos.side_to_move().index()] = self.pos.hand_after(m);
        let repeats = self
            .path
            .get(&zobrist::full_key(key ^ self.salt, hands[0], hands[1]))
            .copied();
        (key, hands[self.attacker.index()], repeats)
    }

    /// [`Search::child_key`] of every move, each child's table cluster prefetched: the
    /// loads all start before the first probe waits for one.
    #[inline]
    fn prefetch_child_keys(&self, moves: &MoveList, keys: &mut Vec<ChildKey>) {
        keys.extend(moves.iter().map(|&m| {
            let key = self.child_key(m);
            self.table.prefetch(key.0);
            key
        }));
    }

    /// Runs a node with a [`Scratch`] from the pool (empty), returning it afterwards.
    #[inline]
    fn with_scratch(
        &mut self,
        node: impl FnOnce(&mut Self, &mut Scratch) -> NodeResult,
    ) -> NodeResult {
        let mut scratch = self.scratch.pop().unwrap_or_default();
        let r = node(self, &mut scratch);
        scratch.children.clear();
        scratch.keys.clear();
        self.scratch.push(scratch);
        r
    }

    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        #[cfg(feature = "stats")]
        self.stats.node();
        if self.limits.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = Some(Stop::Nodes);
        }
        // Every 256 nodes: `stop` is answered within a few milliseconds even in a debug build
        // (~80 k nodes/s), and the clock read costs nothing per node.
        if self.nodes & 255 == 0 {
            self.check_clock();
        }
    }

    #[cold]
    fn check_clock(&mut self) {
        if self
            .limits
            .stop_flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.stopped = Some(Stop::Requested);
        }
        let now = Instant::now();
        if self.limits.deadline.is_some_and(|d| now >= d) {
            self.stopped = Some(Stop::Time);
        }
        if now >= self.next_report {
            self.next_report = now + std::time::Duration::from_secs(1);
            if let Some(f) = &self.limits.on_progress {
                f(&Progress {
                    nodes: self.nodes,
                    elapsed: now - self.start,
                    hashfull: self.table.hashfull(),
                });
            }
        }
    }

    /// Searches the current position (attacker or defender to move) until it is proven or
    /// disproven within `remaining` plies, or a limit stops the search.
    pub fn solve_current(&mut self, remaining: u16) -> NodeResult {
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

    /// Stores a proof of the node `key` (proof hand `proof`, mate in `len`) and returns it.
    #[inline]
    fn prove(
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
    fn descend(&mut self, m: Move, via: Via, remaining: u16, th_pn: u32, th_dn: u32) -> NodeResult {
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
        self.pos.do_move(m);
        let saved_salt = self.salt;
        if let Some(x) = unused {
            self.pos.take_from_hand(self.attacker, x);
            self.missing = self.missing.add(x);
            self.salt = salt_of(self.missing) ^ self.game_salt;
        }
        self.depth += 1;
        self.path.insert(self.pos.full_key(), self.depth);
        let r = if attacker_moved {
            self.and_node(remaining, th_pn, th_dn)
        } else {
            let flag = (via == Via::Interposition).then(|| m.to());
            self.or_node(remaining, th_pn, th_dn, flag)
        };
        self.path.remove(&self.pos.full_key());
        self.depth -= 1;
        if let Some(x) = unused {
            self.pos.return_to_hand(self.attacker, x);
            self.missing = self.missing.remove(x);
            self.salt = saved_salt;
        }
        self.pos.undo_move();
        r
    }

    /// A child's length or bound as seen from its parent: one ply more, except for the
    /// links of the tsume game that keep the parent's budget (see [`Via`]).
    #[inline]
    fn lift(c: &Child, flagged_parent: bool) -> u16 {
        match c.via {
            Via::Interposition | Via::UnusedCapture => c.len,
            Via::Normal | Via::Pending if flagged_parent => c.len.saturating_add(2),
            Via::Normal | Via::Pending => c.len.saturating_add(1),
        }
    }

    /// Probes the table for a position whose key is `key` (salted for the pieces `missing`
    /// from the game and for the game). In the two-ply game, a result of the plain
    /// lower-bound game settles it too where it can (see [`Search::probe_plain`]).
    #[inline]
    fn probe_transfer(&self, key: u64, missing: Hand, hand: Hand, budget: u16) -> Probe {
        let p = self.probe_missing(key, missing, hand, budget);
        if self.defences == Defences::TsumeTwoPly && p.kind() == Kind::Unknown {
            if let Some(q) = self.probe_plain(key ^ TWO_PLY_SALT, missing, hand, budget) {
                return q;
            }
        }
        p
    }

    /// A two-ply lower-bound answer within `budget` from the plain lower-bound game's
    /// entries (key `plain`): along any line the plain length `ℓ` and the two-ply budget
    /// `v + 2` satisfy `ℓ ≤ v + 2 ≤ ℓ + 2`, and the rule's excused interpositions keep the
    /// order, so no plain mate within `b` is no two-ply mate within `b`, and a plain mate
    /// within `b − 2` is a two-ply mate within `b`.
    #[inline]
    fn probe_plain(&self, plain: u64, missing: Hand, hand: Hand, budget: u16) -> Option<Probe> {
        let d = self.probe_missing(plain, missing, hand, budget);
        if d.kind() == Kind::Disproven {
            return Some(d);
        }
        let mut q = self.probe_missing(plain, missing, hand, budget.checked_sub(2)?);
        (q.kind() == Kind::Proven).then(|| {
            q.len += 2;
            q
        })
    }

    /// Probes the table for `key` (salted for the pieces `missing` from the game). When
    /// some pieces are missing and the entry is not a proof, a proof stored with one of
    /// them back in the game also holds: there the defender's hand had that piece more, and
    /// a mate against a stronger defender is a mate against a weaker one (every game
    /// searched here is monotone in the defender's hand). This lets the tsume game's "piece
    /// removed" positions share the proofs of ordinary ones.
    #[inline]
    fn probe_missing(&self, key: u64, missing: Hand, hand: Hand, budget: u16) -> Probe {
        let p = self.table.probe(key, hand, budget);
        if missing.is_empty() || p.kind() == Kind::Proven {
            return p;
        }
        let base = key ^ salt_of(missing);
        for k in missing.kinds() {
            let q = self
                .table
                .probe(base ^ salt_of(missing.remove(k)), hand, budget);
            if q.kind() == Kind::Proven {
                return q;
            }
        }
        p
    }

    /// Fills `c` from the table or the repetition path: `key` and `hand` are its table key
    /// and attacker hand (`missing`: the pieces out of the game there), `full` its full key,
    /// `budget` its remaining length.
    #[inline]
    fn probe_child(
        &self,
        c: &mut Child,
        key: u64,
        missing: Hand,
        hand: Hand,
        full: u64,
        budget: u16,
    ) -> bool {
        if let Some(&d) = self.path.get(&full) {
            c.repeats(d);
            return true;
        }
        let p = self.probe_transfer(key, missing, hand, budget);
        c.pn = p.pn;
        c.dn = p.dn;
        c.len = p.len;
        c.hand = p.hand;
        p.found
    }

    /// Attacker to move: some check must lead to mate. `flag` is the square of the
    /// interposition just played, in the tsume game (see [`Via::Interposition`]).
    #[allow(clippy::let_and_return)] // the result is counted in between with `stats`
    fn or_node(
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

    fn or_node_with(
        &mut self,
        scratch: &mut Scratch,
        remaining: u16,
        th_pn: u32,
        th_dn: u32,
        flag: Option<Square>,
    ) -> NodeResult {
        self.tick();
        let key = self.pos.board_key() ^ self.salt ^ flag.map_or(0, interposition_flag);
        let hand = self.pos.hand(self.attacker);
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
        if moves.is_empty() {
            let d = self.disprove_checkless(key, &ci);
            return NodeResult::disproven(NO_MATE, d, u32::MAX, 1);
        }
        if remaining == 1 && flag.is_none() {
            if let Some(r) = self.mate_in_one(key, &ci, &moves) {
                return r;
            }
        }
        let Scratch { children, keys } = scratch;
        if let Some(budget) = normal_budget {
            self.prefetch_child_keys(&moves, keys);
            let lookup_first = looks_up_first(remaining);
            let mut mate = false;
            for (&m, &(child_key, child_hand, repeats)) in moves.iter().zip(keys.iter()) {
                let mut c = Child::new(m, Via::Normal);
                if let Some(d) = repeats {
                    c.repeats(d);
                } else {
                    let p = self.probe_transfer(child_key, self.missing, child_hand, budget);
                    if p.found {
                        c.pn = p.pn;
                        c.dn = p.dn;
                        c.len = p.len;
                        c.hand = p.hand;
                    } else if lookup_first {
                        c.fresh = true;
                    } else {
                        self.evaluate_new_and_child(&mut c, budget);
                    }
                }
                mate = c.pn == 0;
                children.push(c);
                if mate {
                    break;
                }
            }
            if !mate {
                for c in children.iter_mut().filter(|c| c.fresh) {
                    c.fresh = false;
                    self.evaluate_new_and_child(c, budget);
                    if c.pn == 0 {
                        break;
                    }
                }
            }
        }
        if let Some(s) = flag {
            // Capturing the interposed piece and mating without it (within the parent's
            // budget) makes the interposition useless.
            for &m in moves.iter().filter(|m| m.to() == s) {
                let Some(captured) = self.pos.captured_piece(m) else {
                    continue;
                };
                let x = captured.kind.unpromote();
                let board = self.pos.board_key_after(m);
                let mut hands = [self.pos.hand(Color::Black), self.pos.hand(Color::White)];
                hands[self.attacker.index()] = self.pos.hand_after(m).remove(x);
                let child_hand = hands[self.attacker.index()];
                let full = zobrist::full_key(board, hands[0], hands[1]);
                let missing = self.missing.add(x);
                let mut c = Child::new(m, Via::UnusedCapture);
                let key = board ^ salt_of(missing) ^ self.game_salt;
                self.probe_child(&mut c, key, missing, child_hand, full, remaining);
                children.push(c);
            }
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
        let flagged = flag.is_some();
        let mut amount: u32 = 1;
        loop {
            let mut pn = INF;
            let mut dn_max: u32 = 0;
            let mut open: u32 = 0;
            let mut best = 0;
            let mut pn2 = INF;
            for (i, c) in children.iter().enumerate() {
                let shorter =
                    c.pn == 0 && Self::lift(c, flagged) < Self::lift(&children[best], flagged);
                if c.pn < pn || (c.pn == pn && shorter) {
                    pn2 = pn;
                    pn = c.pn;
                    best = i;
                } else if c.pn < pn2 {
                    pn2 = c.pn;
                }
                if c.dn > 0 {
                    dn_max = dn_max.max(c.dn);
                    open += 1;
                }
            }
            // The disproof number is that of the hardest child plus one per other open
            // child (as in weak proof-number search), not the sum: checks that transpose
            // into each other, or look alike (a promotion and its non-promotion), would
            // otherwise be counted many times, and a node with many checks would look far
            // harder to refute than it is. It cut the nodes of the shortest-mate searches by
            // a fifth on 32 将棋図巧 problems.
            let dn = if open == 0 {
                0
            } else {
                dn_max.saturating_add(open - 1)
            };
            if pn == 0 {
                let c = children[best];
                let proof = match c.via {
                    Via::UnusedCapture => c.hand,
                    _ => hands::before_attacker_move(&self.pos, c.mv, c.hand),
                };
                let len = Self::lift(&c, flagged);
                return self.prove(key, proof, len, Some(c.mv), amount);
            }
            if dn == 0 {
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
                if flagged && normal_budget.is_none() {
                    // Ordinary checks were cut by the budget, not refuted.
                    bound = bound.min(remaining);
                }
                let d = hands::or_node_disproof_hand(&self.pos, &ci, d);
                if rep >= self.depth {
                    self.table.store_disproven(key, d, bound, amount);
                    rep = u32::MAX;
                } else {
                    self.path_dependent += 1;
                }
                return NodeResult::disproven(bound, d, rep, amount);
            }
            let dn = dn.min(MAX_FINITE);
            if pn >= th_pn || dn >= th_dn || self.stopped.is_some() {
                self.table.store_unknown(
                    key,
                    hand,
                    remaining,
                    pn,
                    dn,
                    Some(children[best].mv),
                    amount,
                );
                return NodeResult::unknown(pn, dn, amount);
            }
            let c = children[best];
            let child_th_pn = th_pn.min(one_plus_epsilon(pn2));
            let child_th_dn = or_child_dn_threshold(th_dn, dn, open);
            let budget = match c.via {
                Via::UnusedCapture => remaining,
                _ => normal_budget.expect("ordinary children only with a budget"),
            };
            let r = self.descend(c.mv, c.via, budget, child_th_pn, child_th_dn);
            amount = amount.saturating_add(r.amount);
            children[best].set(&r);
        }
    }

    /// An attacker node (`key`, not flagged) with one ply left, decided in one pass over its
    /// checks `moves`: mate in one or no mate. Unlike the general node it neither probes the
    /// table for its children (only "mated or not" matters there) nor looks them up on the
    /// path (a position on the path had a legal move, so a repetition is no mate anyway, and
    /// this disproof holds on every path). `None` if some child stays undecided (in the tsume
    /// game, a defender left with interpositions only).
    fn mate_in_one(&mut self, key: u64, ci: &CheckInfo, moves: &MoveList) -> Option<NodeResult> {
        let mut disproof = hands::max_hand();
        for &m in moves.iter() {
            let mut c = Child::new(m, Via::Normal);
            self.evaluate_new_and_child(&mut c, 0);
            if c.pn == 0 {
                let proof = hands::before_attacker_move(&self.pos, m, c.hand);
                return Some(self.prove(key, proof, 1, Some(m), 1));
            }
            if c.dn != 0 {
                return None;
            }
            disproof = disproof.min(hands::disproof_before_attacker_move(&self.pos, m, c.hand));
        }
        let disproof = hands::or_node_disproof_hand(&self.pos, ci, disproof);
        self.table.store_disproven(key, disproof, 1, 1);
        Some(NodeResult::disproven(1, disproof, u32::MAX, 1))
    }

    /// Initial value of a new AND child (after the attacker's check `c.mv`): immediate mate
    /// is proven on the spot; otherwise the number of evasions estimates its proof number.
    fn evaluate_new_and_child(&mut self, c: &mut Child, remaining: u16) {
        self.pos.do_move(c.mv);
        self.nodes += 1;
        #[cfg(feature = "stats")]
        self.stats.node();
        let mut count = EvasionCounter::default();
        let horizon = remaining <= 1;
        if horizon && self.horizon_escape() {
            // Only "mated or not" matters at the horizon, and the defender escapes.
            c.pn = INF;
            c.dn = 0;
            c.len = remaining;
            c.hand = hands::max_hand();
            self.pos.undo_move();
            return;
        }
        if horizon && !self.defences.excuses_interpositions() {
            // No escape at all: mated.
        } else if remaining <= COUNT_EVASIONS_ABOVE {
            let mut first = movegen::FirstMove(None);
            movegen::generate_evasions(&self.pos, &mut first);
            count.moves = first.0.is_some() as u32;
        } else {
            movegen::generate_evasions(&self.pos, &mut count);
        }
        if count.moves == 0 {
            let key = self.pos.board_key() ^ self.salt;
            match self.mated(key, remaining) {
                Ok(r) => {
                    c.pn = 0;
                    c.dn = INF;
                    c.len = r.len;
                    c.hand = r.hand;
                }
                Err(r) => {
                    c.pn = INF;
                    c.dn = 0;
                    c.len = r.len;
                    c.hand = r.hand;
                }
            }
        } else {
            c.pn = count.distinct().clamp(1, 16);
            c.dn = 1;
        }
        self.pos.undo_move();
    }

    /// The defender node `key` (the current position, `remaining` plies left) is mated:
    /// proven, stored, with its length (0 plies; in the two-ply game 0 with pieces left in
    /// hand, 2 without). `Err` with a stored disproof when, in the two-ply game, a mate
    /// without pieces left over does not fit the budget (the disproof then holds for the
    /// empty hand only).
    fn mated(&mut self, key: u64, remaining: u16) -> Result<NodeResult, NodeResult> {
        let mut kept = Hand::EMPTY;
        let mut len = 0;
        if self.defences == Defences::TsumeTwoPly {
            match self.pos.hand(self.attacker).kinds().next() {
                Some(k) => kept = kept.add(k),
                None if remaining >= 2 => len = 2,
                None => {
                    self.table.store_disproven(key, Hand::EMPTY, remaining, 1);
                    return Err(NodeResult::disproven(remaining, Hand::EMPTY, u32::MAX, 1));
                }
            }
        }
        let proof = hands::and_node_proof_hand(&self.pos, self.attacker, kept);
        Ok(self.prove(key, proof, len, None, 1))
    }

    /// Stores "no mate" for the attacker node `key` (the current position), which has no
    /// check, and returns its disproof hand.
    #[inline]
    fn disprove_checkless(&mut self, key: u64, ci: &CheckInfo) -> Hand {
        let d = hands::or_node_disproof_hand(&self.pos, ci, hands::max_hand());
        self.table.store_disproven(key, d, NO_MATE, 1);
        d
    }

    /// Initial value of a new OR child (after the defender's evasion `c.mv`; `key` is its
    /// table key): no check at all is a disproof on the spot; otherwise the number of checks
    /// is its disproof number (what a first expansion would give it), so that the defender
    /// node picks the evasion leaving the fewest checks without expanding every evasion
    /// first. On the 32 将棋図巧 problems of set A: 30 % fewer nodes, about 40 % less time.
    ///
    /// An ordinary child with one ply left (`budget`) is decided instead, by one expansion
    /// (mate in one or not): that costs about what estimating it would, and a defender node
    /// two plies from its horizon is then settled in one visit instead of being re-expanded
    /// each time its thresholds are raised. Set A (raw shortest): −29 % nodes, −25 % time.
    /// One expansion only (thresholds of 1): in the tsume game a check may leave the
    /// defender only interpositions, and settling those chains of drops and captures at
    /// once cost 将棋図巧 No. 12 8.5 M nodes instead of 1.6 M.
    fn evaluate_new_or_child(&mut self, c: &mut Child, key: u64, budget: u16) {
        if budget == 1 && c.via == Via::Normal {
            let r = self.descend(c.mv, c.via, 1, 1, 1);
            c.set(&r);
            return;
        }
        self.pos.do_move(c.mv);
        self.nodes += 1;
        #[cfg(feature = "stats")]
        self.stats.node();
        let ci = CheckInfo::new(&self.pos);
        let mut checks = movegen::MoveCounter::default();
        movegen::generate_checks_with(&self.pos, &ci, &mut checks);
        if checks.0 == 0 {
            let d = self.disprove_checkless(key, &ci);
            c.pn = INF;
            c.dn = 0;
            c.len = NO_MATE;
            c.hand = d;
        } else {
            c.dn = (checks.0 as u32).min(MAX_INITIAL_DN);
        }
        self.pos.undo_move();
    }

    /// At a defender node with at most one ply left: whether the defender survives it, i.e.
    /// has a move that needs an answer (in the tsume game an interposition may not).
    #[inline]
    fn horizon_escape(&self) -> bool {
        match self.defences {
            Defences::All => movegen::has_legal_move(&self.pos),
            Defences::Tsume | Defences::TsumeTwoPly => {
                let mut first = movegen::FirstMove(None);
                movegen::generate_evasions_without_interpositions(&self.pos, &mut first);
                first.0.is_some()
            }
        }
    }

    /// Defender to move (in check): every evasion must lead to mate.
    #[allow(clippy::let_and_return)] // the result is counted in between with `stats`
    fn and_node(&mut self, remaining: u16, th_pn: u32, th_dn: u32) -> NodeResult {
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

    fn and_node_with(
        &mut self,
        scratch: &mut Scratch,
        remaining: u16,
        th_pn: u32,
        th_dn: u32,
    ) -> NodeResult {
        self.tick();
        let key = self.pos.board_key() ^ self.salt;
        let hand = self.pos.hand(self.attacker);
        let mut moves = MoveList::new();
        let horizon = remaining <= 1;
        if horizon && self.horizon_escape() {
            return NodeResult::disproven(remaining, hands::max_hand(), u32::MAX, 1);
        }
        if !horizon || self.defences.excuses_interpositions() {
            // (At the horizon of the tsume game only interpositions are left here.)
            movegen::generate_evasions(&self.pos, &mut moves);
        }
        if moves.is_empty() {
            return self.mated(key, remaining).unwrap_or_else(|r| r);
        }
        let squares = if self.defences.excuses_interpositions() {
            movegen::interposition_squares(&self.pos)
        } else {
            crate::bitboard::Bitboard::EMPTY
        };
        let Scratch { children, keys } = scratch;
        self.prefetch_child_keys(&moves, keys);
        let lookup_first = looks_up_first(remaining);
        let mut refuted = None;
        for (&m, &(child_key, child_hand, repeats)) in moves.iter().zip(keys.iter()) {
            let via = if !movegen::is_interposition(&self.pos, squares, m) {
                Via::Normal
            } else if remaining >= 2 && remaining != UNLIMITED {
                Via::Pending
            } else {
                Via::Interposition
            };
            let mut c = Child::new(m, via);
            if let Some(d) = repeats {
                c.repeats(d);
            } else {
                let (key, budget) = match via {
                    Via::Interposition => (child_key ^ interposition_flag(m.to()), remaining),
                    _ => (child_key, below(remaining)),
                };
                let p = self.probe_transfer(key, self.missing, child_hand, budget);
                c.pn = p.pn;
                c.dn = p.dn;
                c.len = p.len;
                c.hand = p.hand;
                if !p.found && via != Via::Interposition && budget >= 1 {
                    if lookup_first {
                        c.fresh = true;
                    } else {
                        self.evaluate_new_or_child(&mut c, key, budget);
                    }
                }
            }
            self.flag_if_refuted(&mut c, remaining);
            if c.dn == 0 {
                refuted = Some(c);
                break;
            }
            children.push(c);
        }
        if refuted.is_none() {
            // (Only with `lookup_first`: every move has its child, in order.)
            for (c, &(key, _, _)) in children.iter_mut().zip(keys.iter()) {
                if !c.fresh {
                    continue;
                }
                c.fresh = false;
                self.evaluate_new_or_child(c, key, below(remaining));
                self.flag_if_refuted(c, remaining);
                if c.dn == 0 {
                    refuted = Some(*c);
                    break;
                }
            }
        }
        if let Some(c) = refuted {
            children.clear();
            children.push(c);
        }
        let mut amount: u32 = 1;
        loop {
            let mut dn = INF;
            let mut pn: u32 = 0;
            let mut best = 0;
            let mut dn2 = INF;
            // Drops on one square (interpositions with different pieces) usually share their
            // fate: their proof numbers count once, as the largest of them.
            let mut drop_pn = [0u32; 81];
            for (i, c) in children.iter().enumerate() {
                if c.dn < dn || (c.dn == dn && c.dn == 0 && c.rep_depth > children[best].rep_depth)
                {
                    dn2 = dn;
                    dn = c.dn;
                    best = i;
                } else if c.dn < dn2 {
                    dn2 = c.dn;
                }
                if c.mv.is_drop() {
                    let slot = &mut drop_pn[c.mv.to().index()];
                    if c.pn > *slot {
                        pn = pn.saturating_add(c.pn - *slot);
                        *slot = c.pn;
                    }
                } else {
                    pn = pn.saturating_add(c.pn);
                }
            }
            if dn == 0 {
                let c = children[best];
                let d = hands::and_node_disproof_hand(&self.pos, c.mv, c.hand);
                let bound = Self::lift(&c, false);
                let mut rep = c.rep_depth;
                if rep >= self.depth {
                    self.table.store_disproven(key, d, bound, amount);
                    rep = u32::MAX;
                } else {
                    self.path_dependent += 1;
                }
                return NodeResult::disproven(bound, d, rep, amount);
            }
            if pn == 0 {
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
                return self.prove(key, proof, len, Some(best_mv), amount);
            }
            let pn = pn.min(MAX_FINITE);
            if pn >= th_pn || dn >= th_dn || self.stopped.is_some() {
                self.table.store_unknown(
                    key,
                    hand,
                    remaining,
                    pn,
                    dn,
                    Some(children[best].mv),
                    amount,
                );
                return NodeResult::unknown(pn, dn, amount);
            }
            let c = children[best];
            let child_th_dn = th_dn.min(one_plus_epsilon(dn2));
            let child_th_pn = and_child_pn_threshold(th_pn, pn, c.pn);
            let budget = match c.via {
                Via::Interposition => remaining,
                _ => below(remaining),
            };
            let r = self.descend(c.mv, c.via, budget, child_th_pn, child_th_dn);
            amount = amount.saturating_add(r.amount);
            children[best].set(&r);
            self.flag_if_refuted(&mut children[best], remaining);
        }
    }

    /// A pending interposition refuted as an ordinary move becomes the flagged child that
    /// may still be excused (see [`Via::Pending`]).
    fn flag_if_refuted(&mut self, c: &mut Child, remaining: u16) {
        if c.via != Via::Pending || c.dn != 0 {
            return;
        }
        // A repetition stays a failure (the position is on the path: never searched again).
        // A refutation that only depends on the path further down does not: the capture of
        // the interposed piece may still excuse the interposition.
        if self.path.contains_key(&self.pos.full_key_after(c.mv)) {
            return;
        }
        c.via = Via::Interposition;
        let key = self.pos.board_key_after(c.mv) ^ self.salt ^ interposition_flag(c.mv.to());
        let p = self.probe_transfer(key, self.missing, self.pos.hand(self.attacker), remaining);
        c.pn = p.pn;
        c.dn = p.dn;
        c.len = p.len;
        c.hand = p.hand;
        c.rep_depth = u32::MAX;
    }
}
