//! Counters inside the search (feature `stats`, for measurement only): where the nodes of a
//! search go, by remaining budget and by the fate of the node they were spent at.
//!
//! Every node counted by the search is charged to the innermost node entered on the path
//! (the node itself, or the attacker or defender node whose children it evaluated). Nodes
//! are identified by (table key, attacker hand, remaining budget) and their side; each
//! remembers the node it was first entered from, so that work left open can be traced to
//! the settled ancestor that made it unnecessary.

use std::collections::HashMap;

use super::search::NodeResult;
use super::table::{Kind, NO_MATE};
use crate::hand::Hand;

/// What became of a node (its last final result in this search).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fate {
    /// Every call returned on a threshold (or a limit).
    Open,
    /// Mate.
    Proven,
    /// No mate at any length (path-independent).
    NoMate,
    /// No mate within the budget, stored in the table.
    Bounded,
    /// A disproof that depends on the path (a repetition below), not stored.
    PathDependent,
}

impl Fate {
    /// The fate a node's result stands for (bounded disproofs of any bound together).
    pub fn of(r: &NodeResult) -> Fate {
        match r.kind() {
            Kind::Unknown => Fate::Open,
            Kind::Proven => Fate::Proven,
            Kind::Disproven if r.rep_depth != u32::MAX => Fate::PathDependent,
            Kind::Disproven => Fate::Bounded,
        }
    }
}

/// One node entered by the search.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Attacker to move.
    pub or: bool,
    /// The position (key and hand, without the budget).
    pub position: u64,
    /// The budget it was entered with.
    pub remaining: u16,
    /// Times the node was entered.
    pub visits: u32,
    /// Nodes charged to it (see the module doc).
    pub own_nodes: u64,
    /// What became of it.
    pub fate: Fate,
    /// For a bounded disproof of an attacker node: the mate length the table knew for the
    /// position when it was disproven (an upper bound of its shortest mate), if any.
    pub known_mate: Option<u16>,
    /// The node it was first entered from (its identity), if any.
    pub parent: Option<u64>,
}

/// The counters of one search, reset by [`Stats::clear`].
#[derive(Default)]
pub struct Stats {
    /// Node entries by remaining budget (index 1023: unlimited or larger), OR and AND.
    pub by_remaining: Vec<[u64; 2]>,
    /// Every node entered, by identity (position, budget and side).
    pub nodes: HashMap<u64, Node>,
    /// The nodes on the path (identities).
    frames: Vec<u64>,
    /// Nodes counted outside any entered node.
    pub outside: u64,
}

fn identity(key: u64, hand: Hand, remaining: u16, or: bool) -> (u64, u64) {
    let position = key ^ (hand.raw() as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
    let id = position ^ (remaining as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ or as u64;
    (position, id)
}

impl Stats {
    /// Forgets everything counted.
    pub fn clear(&mut self) {
        *self = Stats::default();
    }

    /// A node entered: an attacker node if `or`, of table key `key`, attacker hand `hand`
    /// and budget `remaining`; the nodes counted until its [`Stats::exit`] are charged to it.
    pub fn enter(&mut self, or: bool, key: u64, hand: Hand, remaining: u16) {
        if self.by_remaining.is_empty() {
            self.by_remaining = vec![[0; 2]; 1024];
        }
        self.by_remaining[(remaining as usize).min(1023)][usize::from(!or)] += 1;
        let (position, id) = identity(key, hand, remaining, or);
        let parent = self.frames.last().copied();
        let n = self.nodes.entry(id).or_insert(Node {
            or,
            position,
            remaining,
            visits: 0,
            own_nodes: 0,
            fate: Fate::Open,
            known_mate: None,
            parent,
        });
        n.visits += 1;
        self.frames.push(id);
    }

    /// One node searched (charged to the innermost frame).
    pub fn node(&mut self) {
        match self.frames.last() {
            Some(id) => self.nodes.get_mut(id).expect("entered").own_nodes += 1,
            None => self.outside += 1,
        }
    }

    /// The innermost entered node left, with its `fate` (kept unless open), the length
    /// `bound` of a disproof (a [`NO_MATE`] bound makes it [`Fate::NoMate`]) and the mate
    /// length the table knew for it.
    pub fn exit(&mut self, fate: Fate, bound: u16, known_mate: Option<u16>) {
        let id = self.frames.pop().expect("entered");
        let n = self.nodes.get_mut(&id).expect("entered");
        if fate == Fate::Open {
            return;
        }
        n.fate = match fate {
            Fate::Bounded if bound == NO_MATE => Fate::NoMate,
            f => f,
        };
        n.known_mate = known_mate;
    }
}
