//! A node's result and the children it keeps while it is searched.

use super::hands;
use super::table::{Kind, Probe, INF, NO_MATE};
use crate::hand::Hand;
use crate::moves::Move;
use crate::plies::Plies;
use crate::square::Square;

/// The value of a node as returned to its parent.
#[derive(Clone, Copy, Debug)]
pub struct NodeResult {
    /// Proof number: 0 when proven, [`INF`] when disproven.
    pub pn: u32,
    /// Disproof number: 0 when disproven, [`INF`] when proven.
    pub dn: u32,
    /// Proven: mate length; disproven: no mate within this many plies.
    pub len: u16,
    /// Proof hand (proven) or disproof hand (disproven).
    pub hand: Hand,
    /// Shallowest path depth a (repetition) disproof depends on; `u32::MAX` if none.
    pub rep_depth: u32,
    /// Of a proof, when known: the mating check (attacker to move) or a longest evasion
    /// (defender to move); `None` for other results.
    pub best: Option<Move>,
    /// Nodes searched below (for the table's replacement policy).
    pub amount: u32,
}

impl NodeResult {
    /// [`NodeResult::len`] as [`Plies`]: the mate length when proven, the budget disproven
    /// when disproven.
    #[inline]
    pub fn length(&self) -> Plies {
        Plies::new(self.len)
    }

    pub(super) fn unknown(pn: u32, dn: u32, amount: u32) -> NodeResult {
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

    pub(super) fn disproven(bound: u16, hand: Hand, rep_depth: u32, amount: u32) -> NodeResult {
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

    /// Proven, disproven or still unknown.
    pub fn kind(&self) -> Kind {
        Kind::of(self.pn, self.dn)
    }
}

/// One child of the node being searched, with its current value.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub(super) mv: Move,
    pub(super) via: Via,
    pub(super) pn: u32,
    pub(super) dn: u32,
    pub(super) len: u16,
    pub(super) hand: Hand,
    pub(super) rep_depth: u32,
    /// Neither found in the table nor evaluated yet (see `search::looks_up_first`).
    pub(super) fresh: bool,
}

impl Child {
    pub(super) fn new(mv: Move, via: Via) -> Child {
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
    pub(super) fn repeats(&mut self, depth: u32) {
        self.pn = INF;
        self.dn = 0;
        self.len = NO_MATE;
        self.hand = hands::max_hand();
        self.rep_depth = depth;
    }

    /// Takes the numbers, length and hand of a table probe.
    #[inline]
    pub(super) fn take(&mut self, p: &Probe) {
        self.pn = p.pn;
        self.dn = p.dn;
        self.len = p.len;
        self.hand = p.hand;
    }

    pub(super) fn set(&mut self, r: &NodeResult) {
        self.pn = r.pn;
        self.dn = r.dn;
        self.len = r.len;
        self.hand = r.hand;
        self.rep_depth = r.rep_depth;
    }
}

/// How a child is reached from its parent in the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Via {
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

impl Via {
    /// Its name (for the `stats` feature's traces).
    #[cfg(feature = "stats")]
    pub(super) fn name(self) -> &'static str {
        match self {
            Via::Normal => "normal",
            Via::Pending => "pending",
            Via::Interposition => "interposition",
            Via::UnusedCapture => "unused-capture",
        }
    }
}

/// Key marking an attacker node just after an interposition on `s` (its children differ).
#[inline]
pub(super) fn interposition_flag(s: Square) -> u64 {
    (s.index() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) & !1
}
