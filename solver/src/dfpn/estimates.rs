//! The initial values of new children: a child is evaluated (its evasions or checks
//! generated and counted) before it is first searched, and some are decided on the spot
//! (mated, no check at all, mate in one).

use super::hands;
use super::node::*;
use super::search::*;
use super::table::{INF, NO_MATE};
use crate::hand::Hand;
use crate::movegen::{self, CheckInfo};
use crate::moves::{Move, MoveList};

/// Counts evasions, drops on one square (interpositions with different pieces) as one, the
/// way the AND node will count their proof numbers.
#[derive(Default)]
pub(super) struct EvasionCounter {
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

/// At most this many plies left at a new defender node, its evasions are not counted for
/// the initial proof number (only whether one exists): so close to the horizon the count
/// hardly guides the search, and generating them all was a large part of the work of the
/// "mate within L − 2" searches (set of 32 将棋図巧 problems: 7 % fewer nodes, 6 % less time).
pub(super) const COUNT_EVASIONS_ABOVE: u16 = 2;

/// Cap of the initial disproof number of a new attacker node (its number of checks): 16
/// cost set A 10 % more nodes in the first mates, 64 gained nothing over 32.
pub(super) const MAX_INITIAL_DN: u32 = 32;

impl Search<'_> {
    /// An attacker node (`key`, not flagged) with one ply left, decided in one pass over its
    /// checks `moves`: mate in one or no mate. Unlike the general node it neither probes the
    /// table for its children (only "mated or not" matters there) nor looks them up on the
    /// path (a position on the path had a legal move, so a repetition is no mate anyway, and
    /// this disproof holds on every path). `None` if some child stays undecided (in the tsume
    /// game, a defender left with interpositions only).
    pub(super) fn mate_in_one(
        &mut self,
        key: u64,
        ci: &CheckInfo,
        moves: &MoveList,
    ) -> Option<NodeResult> {
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
    pub(super) fn evaluate_new_and_child(&mut self, c: &mut Child, remaining: u16) {
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
    pub(super) fn mated(&mut self, key: u64, remaining: u16) -> Result<NodeResult, NodeResult> {
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
    pub(super) fn disprove_checkless(&mut self, key: u64, ci: &CheckInfo) -> Hand {
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
    pub(super) fn evaluate_new_or_child(&mut self, c: &mut Child, key: u64, budget: u16) {
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
    pub(super) fn horizon_escape(&self) -> bool {
        match self.defences {
            Defences::All => movegen::has_legal_move(&self.pos),
            Defences::Tsume | Defences::TsumeTwoPly => {
                let mut first = movegen::FirstMove(None);
                movegen::generate_evasions_without_interpositions(&self.pos, &mut first);
                first.0.is_some()
            }
        }
    }
}
