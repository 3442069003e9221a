//! Counters inside the search (feature `stats`, for measurement only): where the nodes of a
//! search go, by remaining budget and by the fate of the node they were spent at.
//!
//! Every node counted by the search is charged to the innermost node entered on the path
//! (the node itself, or the attacker or defender node whose children it evaluated). Nodes
//! are identified by (table key, attacker hand, remaining budget) and their side; each
//! remembers the node it was first entered from, so that work left open can be traced to
//! the settled ancestor that made it unnecessary.
//!
//! With `TSUME_TRACE=<prefix>` in the environment, every search of a [`Search::solve_current`]
//! call (each thread of a parallel one) that enters at least `TSUME_TRACE_MIN` nodes (default
//! 100,000) writes them all to `<prefix>.<budget>.t<thread>.tsv`, one line per node (by
//! identity: position, budget and side) with the node it was first entered from, the move
//! and the order of that first entry, its moves, nodes and fate; `benches/trace_tree.py`
//! reads them (RESULTS §53). A later search with the same budget overwrites the file.
//!
//! [`Search::solve_current`]: super::search::Search::solve_current

use std::collections::HashMap;
use std::io::Write;
use std::sync::OnceLock;

use super::search::NodeResult;
use super::table::{Kind, NO_MATE};
use crate::hand::Hand;
use crate::moves::Move;

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
    /// The move it was first entered by, and how (`Via`'s name), if any.
    pub entered_by: Option<(Move, &'static str)>,
    /// The order of its first entry among the search's entries.
    pub first_entry: u64,
    /// Its moves (checks or evasions) when first expanded, if it was.
    pub moves: Option<u32>,
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
    /// The move the search is entering the next node by (set just before).
    pub entering_by: Option<(Move, &'static str)>,
    /// Entries so far.
    entries: u64,
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
        let entered_by = self.entering_by.take();
        self.entries += 1;
        let first_entry = self.entries;
        let n = self.nodes.entry(id).or_insert(Node {
            entered_by,
            first_entry,
            moves: None,
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

    /// The innermost entered node has `moves` checks or evasions (kept from its first
    /// expansion).
    pub fn moves(&mut self, moves: usize) {
        if let Some(id) = self.frames.last() {
            let n = self.nodes.get_mut(id).expect("entered");
            n.moves.get_or_insert(moves as u32);
        }
    }

    /// With `TSUME_TRACE` set, writes every node entered since the last [`Stats::clear`]
    /// (see the module doc) for a search within `budget` on thread `thread`, if it entered
    /// enough of them; the error is printed, not returned (a measurement).
    pub fn write_trace(&self, budget: u16, thread: usize) {
        let Some((prefix, min)) = trace_settings() else {
            return;
        };
        if (self.nodes.len() as u64) < *min {
            return;
        }
        let path = format!("{prefix}.{budget}.t{thread}.tsv");
        if let Err(e) = self.write_tsv(std::path::Path::new(&path)) {
            eprintln!("trace: cannot write {path}: {e}");
        }
    }

    /// Writes every node entered since the last [`Stats::clear`] to `path`, one line each
    /// under a header line (the columns of the module doc).
    pub fn write_tsv(&self, path: &std::path::Path) -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
        writeln!(
            f,
            "id\tparent\tside\tbudget\tvisits\tnodes\tfate\tmove\tvia\tfirst_entry\tmoves"
        )?;
        for (id, n) in &self.nodes {
            let (mv, via) = n
                .entered_by
                .map_or(("-".to_string(), "-"), |(m, v)| (m.to_string(), v));
            writeln!(
                f,
                "{id}\t{}\t{}\t{}\t{}\t{}\t{:?}\t{mv}\t{via}\t{}\t{}",
                n.parent.unwrap_or(0),
                if n.or { "or" } else { "and" },
                n.remaining,
                n.visits,
                n.own_nodes,
                n.fate,
                n.first_entry,
                n.moves.map_or(-1, i64::from),
            )?;
        }
        f.flush()
    }
}

/// `TSUME_TRACE` (the files' prefix) and `TSUME_TRACE_MIN` (the fewest entered nodes of a
/// search written), read once; `None` without a prefix.
pub fn trace_settings() -> Option<&'static (String, u64)> {
    static SETTINGS: OnceLock<Option<(String, u64)>> = OnceLock::new();
    SETTINGS
        .get_or_init(|| {
            let prefix = std::env::var("TSUME_TRACE").ok()?;
            let min = std::env::var("TSUME_TRACE_MIN")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(100_000);
            Some((prefix, min))
        })
        .as_ref()
}

#[cfg(test)]
mod tests {
    use crate::dfpn::search::{Limits, Search};
    use crate::dfpn::table::{Kind, Table};
    use crate::plies::Plies;
    use crate::position::Position;

    /// A traced search's file has a line for every node it entered, each first entered
    /// from the root or from another node of the file, by a move.
    #[test]
    fn a_trace_has_every_entered_node_with_its_parent() {
        let table = Table::new(16);
        // 将棋図巧 No. 2 (raw 21, benches/data/zuko.txt).
        let pos =
            Position::from_sfen("9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1")
                .expect("sfen");
        let mut search = Search::new(&table, pos, Limits::default());
        let r = search.solve_current(Plies::new(21));
        assert_eq!(r.kind(), Kind::Proven);
        let path =
            std::env::temp_dir().join(format!("tsume-trace-test-{}.tsv", std::process::id()));
        search.stats.write_tsv(&path).expect("written");
        let text = std::fs::read_to_string(&path).expect("read");
        let _ = std::fs::remove_file(&path);
        let mut lines = text.lines();
        assert!(lines
            .next()
            .expect("header")
            .starts_with("id\tparent\tside"));
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
        assert_eq!(rows.len(), search.stats.nodes.len());
        assert!(rows.len() > 100, "{} nodes", rows.len());
        let ids: std::collections::HashSet<&str> = rows.iter().map(|r| r[0]).collect();
        let roots = rows.iter().filter(|r| r[1] == "0").count();
        assert_eq!(roots, 1, "one root");
        for r in &rows {
            assert_eq!(r.len(), 11);
            assert!(
                r[1] == "0" || ids.contains(r[1]),
                "parent {} not entered",
                r[1]
            );
            assert!(r[1] == "0" || r[7] != "-", "a child entered by a move");
            assert!(r[2] == "or" || r[2] == "and");
        }
    }
}
