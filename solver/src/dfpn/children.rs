//! The children of one node: their expansion (table probes, repetitions, initial
//! estimates; see `estimates.rs`) and the choice of the child to search next, for the
//! attacker's checks and the defender's evasions alike.

use super::node::*;
use super::parallel::{deflection, virtual_number, Deflection};
use super::probe::ChildKey;
use super::search::*;
use super::table::INF;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::square::Square;
use crate::zobrist;

/// Whether `m` is the non-promotion of the move `before` it (the move generator gives a
/// promotion first, then the same move without).
#[inline]
fn is_non_promotion_of(m: Move, before: Move) -> bool {
    !m.is_drop()
        && !m.is_promotion()
        && !before.is_drop()
        && before.is_promotion()
        && before.from() == m.from()
        && before.to() == m.to()
}

/// The child a node searches next, and the node's numbers from its children's.
pub(super) struct Pick {
    /// Index of the child to search.
    pub(super) best: usize,
    /// The number the node chooses by (proof number at attacker nodes, disproof number
    /// at defender nodes), the other threads' virtual numbers included.
    pub(super) least: u32,
    /// [`Pick::least`] without the virtual numbers (what the table is told).
    pub(super) least_true: u32,
    /// The second least, for the best child's threshold.
    pub(super) second: u32,
    /// The other number of the node (disproof number at attacker nodes, proof number at
    /// defender nodes).
    pub(super) other: u32,
    /// Children not yet refuted (attacker nodes only).
    pub(super) open: u32,
}

impl Pick {
    fn new() -> Pick {
        Pick {
            best: 0,
            least: INF,
            least_true: INF,
            second: INF,
            other: 0,
            open: 0,
        }
    }

    /// Child `i` with the number `value` (the one the node chooses by): the new best if
    /// less than the best so far, or equal and `wins_tie`; else maybe the second.
    #[inline]
    fn offer(&mut self, i: usize, value: u32, wins_tie: bool) {
        if value < self.least || (value == self.least && wins_tie) {
            self.second = self.least;
            self.least = value;
            self.best = i;
        } else if value < self.second {
            self.second = value;
        }
    }
}

impl Search<'_> {
    /// Fills `children` with the ordinary checks `moves` (`budget` plies left after each):
    /// each probed in the table, found on the path, or evaluated. It stops at a check the
    /// table proves. In unlimited searches every check is looked up before any is
    /// evaluated (see [`looks_up_first`]); where the node chains moves
    /// ([`Search::chains`]), a non-promotion waits in `chained` behind its promotion (see
    /// [`Search::release_non_promotions`]). `keys` receives the moves' child keys.
    pub(super) fn expand_checks(
        &mut self,
        moves: &MoveList,
        children: &mut Vec<Child>,
        keys: &mut Vec<ChildKey>,
        chained: &mut Vec<(Move, ChildKey)>,
        remaining: u16,
        budget: u16,
    ) {
        self.prefetch_child_keys(moves, keys);
        let lookup_first = looks_up_first(remaining);
        let chains = self.chains(remaining);
        let mut mate = false;
        for i in 0..moves.len() {
            let (m, key) = (moves[i], keys[i]);
            if chains && i > 0 && is_non_promotion_of(m, moves[i - 1]) {
                chained.push((m, key));
                continue;
            }
            let c = self.check_child(m, key, budget, lookup_first);
            mate = c.pn == 0;
            children.push(c);
            if mate {
                break;
            }
        }
        if lookup_first && !mate {
            for c in children.iter_mut().filter(|c| c.fresh) {
                c.fresh = false;
                self.evaluate_new_and_child(c, budget);
                if c.pn == 0 {
                    break;
                }
            }
        }
    }

    /// The child of the check `m` (key `key`, `budget` plies left after it), from the table
    /// or the path, evaluated unless `lookup_first` defers that (`fresh`).
    fn check_child(
        &mut self,
        m: Move,
        (child_key, child_hand, repeats): ChildKey,
        budget: u16,
        lookup_first: bool,
    ) -> Child {
        let mut c = Child::new(m, Via::Normal);
        if let Some(d) = repeats {
            c.repeats(d);
        } else {
            let p = self.probe_transfer(child_key, self.missing, child_hand, budget);
            if p.found {
                c.take(&p);
            } else if lookup_first {
                c.fresh = true;
            } else {
                self.evaluate_new_and_child(&mut c, budget);
            }
        }
        c
    }

    /// Makes the non-promotions waiting in `chained` children of an attacker node whose
    /// every other check is refuted. A piece's check without promotion nearly always shares
    /// the fate of the same move with promotion, which comes first, so where a node chains
    /// moves ([`Search::chains`]) the non-promotion is neither evaluated nor counted in the
    /// node's disproof number until the node would otherwise be refuted. The node's value
    /// is unchanged: it is refuted only when every check, these included, is refuted; a
    /// non-promotion that mates where the promotion does not (打ち歩詰め, a guarded square
    /// left open) still proves it, only later. `budget` is an ordinary check's.
    pub(super) fn release_non_promotions(
        &mut self,
        children: &mut Vec<Child>,
        chained: &mut Vec<(Move, ChildKey)>,
        budget: u16,
    ) {
        for (m, key) in chained.drain(..) {
            children.push(self.check_child(m, key, budget, false));
        }
    }

    /// Adds, at an attacker node just after an interposition on `s` (tsume game), the
    /// captures of the interposed piece as children that take it out of the game: one
    /// that mates within the parent's budget (`remaining`) makes the interposition useless.
    pub(super) fn expand_unused_captures(
        &mut self,
        moves: &MoveList,
        s: Square,
        children: &mut Vec<Child>,
        remaining: u16,
    ) {
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

    /// Fills `children` with the evasions `moves` of a defender node with `remaining`
    /// plies: each probed, found on the path, or evaluated, interpositions of the tsume
    /// game marked (see [`Via`]). A refuting evasion, once found, is the only child left.
    /// Where the node chains moves ([`Search::chains`]), the second and later drops on a
    /// square wait in `chained` (see [`Search::unchain`]). `keys` receives the moves' child
    /// keys (aligned with `children` after it, for the evaluation of fresh evasions).
    pub(super) fn expand_evasions(
        &mut self,
        moves: &MoveList,
        children: &mut Vec<Child>,
        keys: &mut Vec<ChildKey>,
        chained: &mut Vec<(Move, ChildKey)>,
        remaining: u16,
    ) {
        // Chains in bounded searches; in unbounded first searches only on the threads that
        // order those differently (they cost one thread alone 煙詰's first mate two thirds
        // more nodes, RESULTS §22).
        let chains = self.chains(remaining);
        let squares = self.interposition_squares();
        self.prefetch_child_keys(moves, keys);
        self.prefetch_raw_proofs(keys, remaining);
        let lookup_first = looks_up_first(remaining);
        let across = self.drops_chain_across_squares(remaining);
        let mut refuted = None;
        let mut heads = Bitboard::EMPTY;
        let mut kept = 0;
        for i in 0..moves.len() {
            let (m, key) = (moves[i], keys[i]);
            if chains && m.is_drop() {
                if heads.contains(m.to()) || across && !heads.is_empty() {
                    chained.push((m, key));
                    continue;
                }
                heads = heads.with(m.to());
            }
            let c = self.evasion_child(m, key, squares, remaining, lookup_first);
            if c.dn == 0 {
                refuted = Some(c);
                break;
            }
            children.push(c);
            keys[kept] = key;
            kept += 1;
        }
        keys.truncate(kept);
        if lookup_first && refuted.is_none() {
            refuted = self.evaluate_fresh_evasions(children, keys, remaining);
        }
        if let Some(c) = refuted {
            // The node is refuted: nothing waits in a chain.
            children.clear();
            children.push(c);
            chained.clear();
        }
    }

    /// Whether a defender node with `remaining` plies chains all its drops in one chain
    /// (see [`Search::one_drop_chain`]): only in unbounded searches.
    #[inline]
    fn drops_chain_across_squares(&self, remaining: u16) -> bool {
        remaining == UNLIMITED && self.one_drop_chain
    }

    /// The squares where an evasion is an interposition the game may excuse (none in the
    /// raw game).
    fn interposition_squares(&self) -> Bitboard {
        if self.defences.excuses_interpositions() {
            movegen::interposition_squares(&self.pos)
        } else {
            Bitboard::EMPTY
        }
    }

    /// Makes the next drop of a chain a child once every earlier drop on its square is
    /// mated. Drops of different pieces on one square usually share their fate, so where a
    /// node chains moves ([`Search::chains`]) only the first of them is a child at first
    /// (the head): the others are neither evaluated nor counted until it is mated. The
    /// node's value is unchanged: it is mated only when every drop has become a child and
    /// is mated, and a refuting head refutes it as before. Where the drops chain across
    /// squares ([`Search::one_drop_chain`]), one chain holds them all.
    pub(super) fn unchain(
        &mut self,
        children: &mut Vec<Child>,
        chained: &mut Vec<(Move, ChildKey)>,
        remaining: u16,
    ) {
        let squares = self.interposition_squares();
        let across = self.drops_chain_across_squares(remaining);
        let mut i = 0;
        while i < chained.len() {
            let (m, key) = chained[i];
            let open_on_square = children
                .iter()
                .any(|c| c.pn != 0 && c.mv.is_drop() && (across || c.mv.to() == m.to()));
            if open_on_square {
                i += 1;
                continue;
            }
            chained.remove(i);
            let c = self.evasion_child(m, key, squares, remaining, false);
            children.push(c);
        }
    }

    /// The child of the evasion `m` (key `key`), from the table or the path, evaluated
    /// unless `lookup_first` defers that (`fresh`).
    fn evasion_child(
        &mut self,
        m: Move,
        (child_key, child_hand, repeats): ChildKey,
        squares: Bitboard,
        remaining: u16,
        lookup_first: bool,
    ) -> Child {
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
            let mut p = self.probe_transfer(key, self.missing, child_hand, budget);
            if !p.found && via != Via::Interposition {
                if let Some(q) = self.probe_raw_proof(key, child_hand, remaining, budget) {
                    p = q;
                }
            }
            c.take(&p);
            if !p.found && via != Via::Interposition && budget >= 1 {
                if lookup_first {
                    c.fresh = true;
                } else {
                    self.evaluate_new_or_child(&mut c, key, budget);
                }
            }
        }
        self.flag_if_refuted(&mut c, remaining);
        c
    }

    /// Evaluates the evasions the look-up pass left `fresh` (every move has its child,
    /// in order), up to the first that refutes the node, which is returned.
    fn evaluate_fresh_evasions(
        &mut self,
        children: &mut [Child],
        keys: &[ChildKey],
        remaining: u16,
    ) -> Option<Child> {
        for (c, &(key, _, _)) in children.iter_mut().zip(keys.iter()) {
            if !c.fresh {
                continue;
            }
            c.fresh = false;
            self.evaluate_new_or_child(c, key, below(remaining));
            self.flag_if_refuted(c, remaining);
            if c.dn == 0 {
                return Some(*c);
            }
        }
        None
    }

    /// The check to search next at an attacker node (`parent`: its full key when threads
    /// search together): the least proof number, among proven ones the shortest
    /// (`flagged`: the node follows an interposition). The node's disproof number is that
    /// of the hardest child plus one per other open child (as in weak proof-number
    /// search), not the sum: checks that transpose into each other, or look alike (a
    /// promotion and its non-promotion), would otherwise be counted many times, and a node
    /// with many checks would look far harder to refute than it is. It cut the nodes of
    /// the shortest-mate searches by a fifth on 32 将棋図巧 problems.
    /// `refuting`: whether the node's search refutes ([`Search::refutes`], asked once per
    /// node); it and the numbers change what [`deflection`] does when threads search
    /// together.
    pub(super) fn pick_check(
        &self,
        children: &[Child],
        parent: u64,
        flagged: bool,
        refuting: bool,
    ) -> Pick {
        self.deflected(true, refuting, |deflects| {
            self.pick_check_by(children, parent, flagged, deflects)
        })
    }

    /// [`Search::pick_check`], the children's proof numbers made virtual (`deflects`) or
    /// not.
    fn pick_check_by(
        &self,
        children: &[Child],
        parent: u64,
        flagged: bool,
        deflects: bool,
    ) -> Pick {
        let mut pick = Pick::new();
        let mut dn_max: u32 = 0;
        for (i, c) in children.iter().enumerate() {
            let shorter =
                c.pn == 0 && Self::lift(c, flagged) < Self::lift(&children[pick.best], flagged);
            pick.least_true = pick.least_true.min(c.pn);
            let c_pn = if deflects {
                virtual_number(c.pn, self.busy(parent, c.mv))
            } else {
                c.pn
            };
            pick.offer(i, c_pn, shorter);
            if c.dn > 0 {
                dn_max = dn_max.max(c.dn);
                pick.open += 1;
            }
        }
        if pick.open > 0 {
            pick.other = dn_max.saturating_add(pick.open - 1);
        }
        pick
    }

    /// The evasion to search next at a defender node (`parent` as in
    /// [`Search::pick_check`]): the least disproof number, among refuting ones the one
    /// depending on the shallowest path. The node's proof number is the sum of its
    /// children's, except that drops on one square (interpositions with different pieces),
    /// which usually share their fate, count once, as the largest of them.
    /// `refuting` as in [`Search::pick_check`].
    pub(super) fn pick_evasion(&self, children: &[Child], parent: u64, refuting: bool) -> Pick {
        self.deflected(false, refuting, |deflects| {
            self.pick_evasion_by(children, parent, deflects)
        })
    }

    /// The pick `by` makes (one pass over the children, their numbers made virtual or
    /// not), virtual where this node sends the other threads away (see [`deflection`]): a
    /// second pass only when that depends on the node's numbers.
    #[inline]
    fn deflected(&self, attacker_node: bool, refuting: bool, by: impl Fn(bool) -> Pick) -> Pick {
        if self.marks.is_none() {
            return by(false);
        }
        match deflection(attacker_node, refuting) {
            Deflection::Always => by(true),
            Deflection::Never => by(false),
            Deflection::ByNumbers => {
                let pick = by(false);
                // The node's other number at most the one it chooses by (at an attacker
                // node, dn ≤ pn): likely settled the way that needs every child.
                if pick.other <= pick.least {
                    by(true)
                } else {
                    pick
                }
            }
        }
    }

    /// [`Search::pick_evasion`], the children's disproof numbers made virtual
    /// (`deflects`) or not.
    fn pick_evasion_by(&self, children: &[Child], parent: u64, deflects: bool) -> Pick {
        let mut pick = Pick::new();
        let mut drop_pn = [0u32; 81];
        for (i, c) in children.iter().enumerate() {
            pick.least_true = pick.least_true.min(c.dn);
            let c_dn = if deflects {
                virtual_number(c.dn, self.busy(parent, c.mv))
            } else {
                c.dn
            };
            // Among refutations, the one depending on the shallowest path.
            let shallower =
                c_dn == pick.least && c.dn == 0 && c.rep_depth > children[pick.best].rep_depth;
            pick.offer(i, c_dn, shallower);
            if c.mv.is_drop() {
                let slot = &mut drop_pn[c.mv.to().index()];
                if c.pn > *slot {
                    pick.other = pick.other.saturating_add(c.pn - *slot);
                    *slot = c.pn;
                }
            } else {
                pick.other = pick.other.saturating_add(c.pn);
            }
        }
        pick
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::table::Table;
    use crate::position::Position;

    /// The drops of a defender node in an unbounded search on a thread that chains: one
    /// chain per square, or one for every square on a thread whose drops chain across
    /// squares; the next drop becomes a child once the open one is mated.
    #[test]
    fn drops_chain_per_square_or_across_squares() {
        // White's king on 5a, checked by Black's rook on 5e: a gold or a silver dropped on
        // 5b, 5c or 5d (six drops), and the king's moves.
        let table = Table::new(1);
        let expand = |across: bool| {
            let pos = Position::from_sfen("4k4/9/9/9/4R4/9/9/9/4K4 w gs 1").expect("sfen");
            let mut search =
                Search::with_rules(&table, pos, Color::Black, Limits::default(), Defences::All);
            search.chains_unbounded = true;
            search.one_drop_chain = across;
            let mut moves = MoveList::new();
            movegen::generate_evasions(&search.pos, &mut moves);
            let (mut children, mut keys, mut chained) = (Vec::new(), Vec::new(), Vec::new());
            search.expand_evasions(&moves, &mut children, &mut keys, &mut chained, UNLIMITED);
            let drops = |children: &[Child]| children.iter().filter(|c| c.mv.is_drop()).count();
            let before = (drops(&children), chained.len());
            // The open drops mated: the chains release their next drops.
            for c in children.iter_mut().filter(|c| c.mv.is_drop()) {
                c.pn = 0;
            }
            search.unchain(&mut children, &mut chained, UNLIMITED);
            (before, (drops(&children), chained.len()))
        };
        assert_eq!(expand(false), ((3, 3), (6, 0)));
        assert_eq!(expand(true), ((1, 5), (2, 4)));
    }
}
