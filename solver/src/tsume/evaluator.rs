//! The tsume-rules mate predicate: "is this position mate within `r` plies when useless
//! interpositions (無駄合) do not count?", decided exactly by the rules' definition
//! (`docs/rules.md` §2).
//!
//! Lengths are values under the two-ply rule (2手変長ルール): a line that ends with attacker
//! pieces in hand counts 2 plies shorter. With that count, best play (the defender avoids
//! a line exactly 2 plies longer that ends with pieces left over) is a plain minimax whose
//! mated leaves are worth 0, or −2 with pieces in hand; a value moves by at most 2 when its
//! leaves do.
//!
//! Two df-pn games bound the tsume length `T` of a position:
//! - the *raw* game (every evasion counts, plain lengths) is at least as long: mate within
//!   `r` there proves tsume mate within `r`, and no raw mate at all means no tsume mate;
//! - the game where an interposition is excused as soon as capturing it and mating without
//!   the captured piece fits the interposing node's budget (`Defences::Tsume`: the rule
//!   without its condition on the other defences) is at most as long in plain lengths, so
//!   at most 2 longer in values: no mate within `r + 2` there disproves tsume mate within
//!   `r`. Played with the same two-ply leaves (`Defences::TsumeTwoPly`) it is at most as
//!   long in values (the defender has fewer defences, the leaves are the same): no mate
//!   of value `r` or less there disproves it too, and more often.
//!
//! Only where the bounds disagree does the evaluator expand the node itself and apply the
//! definition: at a defender node with budget `r`, every defence other than an
//! interposition must be mate within `r − 1`; an interposition at `s` must be mate within
//! `r − 1` too, unless it is useless. Interpositions are judged from the king outward: the
//! one at `s` is useless when the defences that judge it — those other than
//! interpositions, and the interpositions on squares strictly nearer the king — already
//! need the full `r` plies (`W(s) = r`), and some check capturing on `s` leads to a position
//! that is mate within `r` with the captured piece taken out of the attacker's hand (the
//! piece never used). An interposition that is useless relative to a shorter `W(s)` adds at
//! most one ply to its own branch and is then within `r − 1` anyway, so `W(s) = r` is the
//! only case where the rule changes the answer. The lower-bound game drops the condition on
//! `W(s)` and the raw game the whole rule, so both still bound this predicate.
//!
//! Results are memoised per exact position (both hands) and budget: the tsume predicate is
//! not monotone in the attacker's hand (a bigger hand can shorten `W0` and turn a useless
//! interposition into an effective one), so no hand superiority is used here. Within a
//! budget the predicate does not depend on the path (a mate within a bound never needs to
//! repeat a position), so no repetition bookkeeping is needed either.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use dashmap::DashMap;

use crate::color::Color;
use crate::dfpn::progress_after;
use crate::dfpn::search::{
    Defences, Limits, ProgressCallback, Search, Stop, Unsettled, TWO_PLY_SALT,
};
use crate::dfpn::table::{Kind, Table, NO_MATE};
use crate::hand::Hand;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::plies::Plies;
use crate::position::Position;

use super::phases::{self, Asker, Bound};

/// A value, or why it is not known (the limit that stopped the search, most often).
pub type Eval<T> = Result<T, Unsettled>;

/// The raw game's search in [`Evaluator::bounds`] stops after this many times the nodes of
/// the lower-bound game's proof of the same question, plus [`RAW_CAP_MIN`]. Where it
/// settles "yes" it mostly does so from its table in a few nodes; where it fails a useless
/// interposition stands in the way, and every node spent is lost (benches/RESULTS.md §31a).
const RAW_CAP_FACTOR: u64 = 4;
const RAW_CAP_MIN: u64 = 1_000;

/// A defender node splits its defences' questions among spare threads only when the
/// bounding games spent at least this many nodes on it (smaller questions end before a
/// thread would start).
const SIDE_BY_SIDE_MIN_NODES: u64 = 2_000;

/// The table key (in either game, from a root with no interposition flag) of the position
/// after `m`.
fn table_key_after(pos: &Position, m: Move) -> u64 {
    pos.board_key_after(m) ^ crate::dfpn::search::table_salt(pos)
}

/// What the lower-bound games' table holds about "tsume mate within `r`?" for one
/// position (see [`Evaluator::bounds`] for what each answer settles).
struct LowerBoundEvidence {
    /// The plain game within `r`.
    plain: Kind,
    /// The two-ply game, value `r`.
    two_ply: Kind,
    /// The plain game within `r + 2`.
    plain_wider: Kind,
}

impl LowerBoundEvidence {
    /// No tsume mate within `r`, certainly: no plain mate within `r + 2`, or no two-ply
    /// line of value `r` or less.
    fn rules_out(&self) -> bool {
        self.plain_wider == Kind::Disproven || self.two_ply == Kind::Disproven
    }
}

/// Decides tsume-rules mate predicates for positions of one problem (one attacker).
pub struct Evaluator<'t> {
    raw: &'t Table,
    lower_bound: &'t Table,
    /// Shared with the forks (answers are exact, so whoever stores one first is right).
    memo: Arc<DashMap<(u64, i32), bool>>,
    /// Threads of the problem not in use, shared with the forks: a defender node takes
    /// some to decide its defences side by side and gives each back as it runs out of
    /// defences to decide.
    spare: Arc<AtomicUsize>,
    /// The side that mates.
    pub attacker: Color,
    /// Its limits: `node_limit` for all its sub-searches together, `per_search` for each
    /// (its own `on_progress` is used instead of theirs).
    pub limits: Limits,
    /// Nodes searched by every sub-search so far.
    pub nodes: u64,
    /// Given to each sub-search (with the nodes of the earlier ones added).
    pub on_progress: Option<ProgressCallback>,
}

impl<'t> Evaluator<'t> {
    /// `raw` may already hold results of a raw search of the same problem (it is shared);
    /// `lower_bound` must only ever be used for the lower-bound game.
    pub fn new(
        raw: &'t mut Table,
        lower_bound: &'t mut Table,
        attacker: Color,
        limits: Limits,
    ) -> Evaluator<'t> {
        Evaluator::in_shared_tables(raw, lower_bound, attacker, limits)
    }

    /// [`Evaluator::new`] in tables that other evaluators may be searching at the same time
    /// (see [`Evaluator::fork`]).
    pub fn in_shared_tables(
        raw: &'t Table,
        lower_bound: &'t Table,
        attacker: Color,
        limits: Limits,
    ) -> Evaluator<'t> {
        let spare = Arc::new(AtomicUsize::new(limits.threads.max(1) - 1));
        Evaluator {
            raw,
            lower_bound,
            memo: Arc::new(DashMap::new()),
            spare,
            attacker,
            limits,
            nodes: 0,
            on_progress: None,
        }
    }

    /// A new evaluator of the same problem in the same tables, with an empty memo, no
    /// nodes counted, and `threads` threads per sub-search: one of
    /// several that decide independent questions side by side (their answers are exact
    /// whatever the others store meanwhile: the tables are shared without a lock as by the
    /// threads of one parallel search). A total node limit becomes what is left of it, for
    /// each fork. A fork reports its progress as this evaluator's nodes so far plus its
    /// own (forks side by side each report theirs; the displays show the largest, and the
    /// sum is counted when they are done).
    pub fn fork(&self, threads: usize) -> Evaluator<'t> {
        let limits = Limits {
            node_limit: self.limits.node_limit.map(|t| t.saturating_sub(self.nodes)),
            threads,
            ..self.limits.clone()
        };
        Evaluator {
            raw: self.raw,
            lower_bound: self.lower_bound,
            memo: self.memo.clone(),
            spare: self.spare.clone(),
            attacker: self.attacker,
            limits,
            nodes: 0,
            on_progress: progress_after(&self.on_progress, self.nodes),
        }
    }

    /// Up to `wanted` spare threads of the problem, taken (none: `0`).
    fn take_spare(&self, wanted: usize) -> usize {
        let mut spare = self.spare.load(Relaxed);
        loop {
            let take = spare.min(wanted);
            if take == 0 {
                return 0;
            }
            match self
                .spare
                .compare_exchange_weak(spare, spare - take, Relaxed, Relaxed)
            {
                Ok(_) => return take,
                Err(now) => spare = now,
            }
        }
    }

    /// A df-pn search of `pos` within `remaining` plies in the chosen game.
    fn dfpn(
        &mut self,
        pos: &Position,
        remaining: Plies,
        defences: Defences,
    ) -> Eval<(Kind, Plies)> {
        self.dfpn_capped(pos, remaining, defences, None)
    }

    /// [`Evaluator::dfpn`] that gives up after `cap` nodes: `Kind::Unknown` then (the
    /// limits of the evaluator still stop everything with an error).
    fn dfpn_capped(
        &mut self,
        pos: &Position,
        remaining: Plies,
        defences: Defences,
        cap: Option<u64>,
    ) -> Eval<(Kind, Plies)> {
        let table = match defences {
            Defences::All => self.raw,
            Defences::Tsume | Defences::TsumeTwoPly => self.lower_bound,
        };
        let left = self.limits.node_limit.map(|t| t.saturating_sub(self.nodes));
        let limit = match (self.limits.per_search, left) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if limit == Some(0) {
            return Err(Unsettled::Limit(Stop::Nodes));
        }
        let capped = cap.is_some_and(|c| limit.is_none_or(|l| c < l));
        let node_limit = if capped { cap } else { limit };
        let limits = Limits {
            node_limit,
            deadline: self.limits.deadline,
            stop_flag: self.limits.stop_flag.clone(),
            threads: self.limits.threads,
            warm_up_nodes: self.limits.warm_up_nodes,
            per_search: None,
            on_event: None,
            on_progress: progress_after(&self.on_progress, self.nodes),
        };
        let mut root = pos.clone();
        root.clear_history();
        let mut search = Search::with_rules(table, root, self.attacker, limits, defences);
        match defences {
            Defences::All => search.no_mate_copies = Some(self.lower_bound),
            Defences::Tsume | Defences::TsumeTwoPly => search.raw_proofs = Some(self.raw),
        }
        let r = search.solve_current(remaining);
        self.nodes += search.nodes;
        match (r.kind(), search.stopped) {
            (Kind::Unknown, Some(Stop::Nodes)) if capped => Ok((Kind::Unknown, Plies::ZERO)),
            (Kind::Unknown, _) => Err(search.unsettled()),
            (kind, _) => Ok((kind, r.length())),
        }
    }

    /// The raw mate length the table knows for the position after the defender's move `m`
    /// (a hint for move ordering; `None` if not known to be mate).
    pub fn raw_hint_after(&self, pos: &Position, m: Move) -> Option<Plies> {
        let key = table_key_after(pos, m);
        let p = self
            .raw
            .probe(key, pos.hand(self.attacker), crate::dfpn::MAX_LENGTH.get());
        (p.kind() == Kind::Proven).then_some(Plies::new(p.len))
    }

    /// What the lower-bound games' table holds about "tsume mate within `r`?" for the
    /// position of table key `key` and attacker hand `hand` (no search).
    fn lower_bound_evidence(&self, key: u64, hand: Hand, r: i32) -> LowerBoundEvidence {
        let within = |key: u64, value: i32| {
            self.lower_bound
                .probe(key, hand, Plies::of_value(value).get())
                .kind()
        };
        LowerBoundEvidence {
            plain: within(key, r),
            two_ply: within(key ^ TWO_PLY_SALT, r + 2),
            plain_wider: within(key, r + 2),
        }
    }

    /// How much the lower-bound games' table already knows that no tsume mate within `r`
    /// follows the defender's move `m` of `pos`: 0, settled (see
    /// [`LowerBoundEvidence::rules_out`]); 1, no plain mate within `r` (the dear half of
    /// the question, see [`Evaluator::bounds`]); 2, nothing. Only an order: the answer is
    /// searched.
    pub(crate) fn no_mate_rank_after(&self, pos: &Position, m: Move, r: i32) -> u8 {
        let e = self.lower_bound_evidence(table_key_after(pos, m), pos.hand(self.attacker), r);
        if e.rules_out() {
            0
        } else if e.plain == Kind::Disproven {
            1
        } else {
            2
        }
    }

    /// Whether the raw game has a mate at all from `pos` (any length).
    pub fn raw_mate_exists(&mut self, pos: &Position) -> Eval<bool> {
        let (kind, _) = self.dfpn(pos, crate::dfpn::MAX_LENGTH, Defences::All)?;
        Ok(kind == Kind::Proven)
    }

    /// The (plain) lower-bound game's answer to "mate within `within` plies?" from `pos`,
    /// given up after `cap` nodes if one is given (`Kind::Unknown` then): with
    /// `Kind::Proven`, the length of the mate found (not necessarily the shortest).
    pub fn lower_bound_mate(
        &mut self,
        pos: &Position,
        within: i32,
        cap: Option<u64>,
    ) -> Eval<(Kind, i32)> {
        if within < 1 {
            return Ok((Kind::Disproven, 0));
        }
        let (kind, len) = self.dfpn_capped(pos, Plies::of_value(within), Defences::Tsume, cap)?;
        Ok((kind, len.value()))
    }

    /// The two-ply lower-bound game's answer to "a line of value `within − 2` or less?"
    /// from `pos`: disproven, no tsume mate within `within − 2` (and no plain lower-bound
    /// mate within it either).
    pub fn two_ply_mate(&mut self, pos: &Position, within: i32) -> Eval<Kind> {
        Ok(self.bounding(Bound::TwoPly, pos, within, None)?.0)
    }

    /// The shortest mate of the (plain) lower-bound game from `pos` if it is within
    /// `within` plies (found by shortening a first proof until "within L − 2" is
    /// disproven).
    pub fn lower_bound_length(&mut self, pos: &Position, within: i32) -> Eval<Option<i32>> {
        let mut shortest = None;
        let mut within = within;
        while let (Kind::Proven, length) = self.lower_bound_mate(pos, within, None)? {
            shortest = Some(length);
            within = length - 2;
        }
        Ok(shortest)
    }

    /// The quick answer of the bounding games, if they settle it. The lower-bound games go
    /// first: their disproof settles "no", and only after a proof can the raw game's
    /// (harder) proof settle "yes".
    ///
    /// The value here counts a line that ends with pieces left over 2 plies shorter (see
    /// [`Evaluator::mate_or`]). The raw game counts plain lengths: its mate within `r` is
    /// still one here. The plain lower-bound game rules one out by a disproof within
    /// `r + 2`, and where it has no mate within `r` the raw game has none either. In
    /// between — its shortest mate `r + 1` or `r + 2`, which only a line ending with pieces
    /// left over can bring down to `r` — the two-ply lower-bound game, which counts values
    /// (plus 2), decides more of them: a chase whose positions sit on that threshold all
    /// along the principal line would otherwise be expanded at every one of them
    /// (将棋図巧 No. 98).
    fn bounds(&mut self, pos: &Position, r: i32) -> Eval<Option<bool>> {
        if r < 0 {
            return Ok(None);
        }
        let before = self.nodes;
        if let (Kind::Disproven, _) = self.bounding(Bound::PlainWider, pos, r + 2, None)? {
            return Ok(Some(false));
        }
        if r > 0 && self.bounding(Bound::Plain, pos, r, None)?.0 != Kind::Disproven {
            // The raw game settles "yes" by a proof about as big as the lower-bound game's
            // just found, unless a useless interposition stands in the way: then it would
            // only disprove, at great cost, what the expansion decides anyway.
            let cap = RAW_CAP_FACTOR * (self.nodes - before) + RAW_CAP_MIN;
            match self.bounding(Bound::Raw, pos, r, Some(cap))? {
                (Kind::Proven, _) => return Ok(Some(true)),
                // No mate at any length.
                (Kind::Disproven, len) if len == Plies::new(NO_MATE) => return Ok(Some(false)),
                _ => {}
            }
        } else if let (Kind::Disproven, _) = self.bounding(Bound::TwoPly, pos, r + 2, None)? {
            return Ok(Some(false));
        }
        Ok(None)
    }

    /// One search of [`Evaluator::bounds`]: `kind`'s game within `plies`, given up after
    /// `cap` nodes if one is given (counted by kind with the feature `stats`).
    fn bounding(
        &mut self,
        kind: Bound,
        pos: &Position,
        plies: i32,
        cap: Option<u64>,
    ) -> Eval<(Kind, Plies)> {
        let defences = match kind {
            Bound::PlainWider | Bound::Plain => Defences::Tsume,
            Bound::Raw => Defences::All,
            Bound::TwoPly => Defences::TsumeTwoPly,
        };
        let before = self.nodes;
        let result = self.dfpn_capped(pos, Plies::of_value(plies), defences, cap)?;
        let settles = match kind {
            // Never settles by itself: proven is the outcome that goes on to the raw game.
            Bound::Plain => result.0 == Kind::Proven,
            Bound::Raw => {
                result.0 == Kind::Proven || result == (Kind::Disproven, Plies::new(NO_MATE))
            }
            Bound::PlainWider | Bound::TwoPly => result.0 == Kind::Disproven,
        };
        phases::bound(kind, self.nodes - before, settles);
        Ok(result)
    }

    /// The value of a mated defender node: 0, or −2 when the attacker has pieces left over
    /// (the two-ply rule, see [`Evaluator::mate_or`]).
    pub fn mated_value(&self, pos: &Position) -> i32 {
        if pos.hand(self.attacker).is_empty() {
            0
        } else {
            -2
        }
    }

    /// Attacker to move: is there a check after which the defender is tsume-mated within
    /// `r − 1` plies?
    ///
    /// Lengths here are values under the two-ply rule (2手変長ルール): a line that ends with
    /// attacker pieces in hand counts 2 plies shorter than it is. With that count the rules
    /// doc's best play is a plain minimax: the defender takes a longest defence, and a
    /// defence whose line is exactly 2 plies longer but ends with pieces left over ties
    /// with the one that does not (both sides then prefer the line without, the shorter
    /// one); a mate in 1 that keeps a piece is worth −1, so `r` goes down to −1.
    pub fn mate_or(&mut self, pos: &mut Position, r: i32) -> Eval<bool> {
        if r < -1 {
            return Ok(false);
        }
        self.settle(pos, r, Self::expand_or)
    }

    /// The definition at an attacker node the bounds did not settle: some check mates.
    /// The checks the bounding games' tables already know to mate go first: every other
    /// check tried before the mating one costs a disproof.
    fn expand_or(&mut self, pos: &mut Position, r: i32, _hard: bool) -> Eval<bool> {
        Ok(self.mating_check(pos, r)?.is_some())
    }

    /// The first check of the attacker-to-move `pos` (likeliest first) after which the
    /// defender is tsume-mated within `r − 1` plies, if any.
    pub fn mating_check(&mut self, pos: &mut Position, r: i32) -> Eval<Option<Move>> {
        for m in self.checks_likeliest_first(pos, r - 1) {
            pos.do_move(m);
            let ok = self.mate_and(pos, r - 1);
            pos.undo_move();
            if ok? {
                return Ok(Some(m));
            }
        }
        Ok(None)
    }

    /// The checks of the attacker-to-move `pos`, those the tables know to mate within `r`
    /// more plies first (in generation order otherwise).
    pub fn checks_likeliest_first(&self, pos: &Position, r: i32) -> Vec<Move> {
        let mut checks = MoveList::new();
        movegen::generate_checks(pos, &mut checks);
        let mut checks = checks.to_vec();
        // Stable: equally likely checks keep the generation order.
        checks.sort_by_cached_key(|&m| self.mate_likelihood_rank(pos, m, r));
        checks
    }

    /// How likely the check `m` of the attacker-to-move `pos` is to mate within the value
    /// `r` (plies left after it), from what the bounding games' tables hold; lower is
    /// likelier. Only an order: the answer is searched.
    ///
    /// 0. a tsume mate within `r` already decided (the memo), or a mate within `r` in the raw
    ///    game: certainly a tsume mate;
    /// 1. mate within `r` in the plain lower-bound game;
    /// 2. a line of value `r` or less in the two-ply game (most often a line that ends with
    ///    pieces left over, whose plain length is `r + 2`: the case a plain disproof within
    ///    `r` misjudges);
    /// 3. nothing known within `r`;
    /// 4. no plain mate within `r`, one within `r + 2`: only pieces left over could bring
    ///    its value down to `r`;
    /// 5. no plain mate within `r`, nothing known beyond;
    /// 6. certainly not: no mate within `r + 2` in the plain game, or of value `r` or less in
    ///    the two-ply game, or no tsume mate within `r` already decided.
    ///
    /// The checks of an attacker node the bounds did not settle are mostly of ranks 2 to 5
    /// (the node's own two-ply and plain proofs passed through some of them). Rank 2 puts
    /// a mating check whose plain mate is `r + 2` long ahead of the checks with no plain
    /// mate within `r`, each of which costs a disproof to try (benches/RESULTS.md §27a).
    /// The memo goes first: a line read after the value search asks again what that
    /// search decided, and a check only the definition found to mate (of rank 4, say)
    /// would otherwise wait behind checks of rank 3, each a disproof (§36f).
    fn mate_likelihood_rank(&self, pos: &Position, m: Move, r: i32) -> u8 {
        match self.memo.get(&(pos.full_key_after(m), r)).map(|v| *v) {
            Some(true) => return 0,
            Some(false) => return 6,
            None => {}
        }
        let key = table_key_after(pos, m);
        let hand = pos.hand_after(m);
        if self.raw.probe(key, hand, Plies::of_value(r).get()).kind() == Kind::Proven {
            return 0;
        }
        let e = self.lower_bound_evidence(key, hand, r);
        if e.plain == Kind::Proven {
            1
        } else if e.two_ply == Kind::Proven {
            2
        } else if e.rules_out() {
            6
        } else if e.plain == Kind::Unknown {
            3
        } else if e.plain_wider == Kind::Proven {
            4
        } else {
            5
        }
    }

    /// The memoised answer for (`pos`, `r`): the bounding games', or else `expand`'s.
    fn settle(
        &mut self,
        pos: &mut Position,
        r: i32,
        expand: fn(&mut Self, &mut Position, i32, bool) -> Eval<bool>,
    ) -> Eval<bool> {
        let key = (pos.full_key(), r);
        if let Some(v) = self.memo.get(&key).map(|v| *v) {
            return Ok(v);
        }
        let before = self.nodes;
        let value = match self.bounds(pos, r)? {
            Some(v) => v,
            None => {
                let hard = self.nodes - before >= SIDE_BY_SIDE_MIN_NODES;
                expand(self, pos, r, hard)?
            }
        };
        self.memo.insert(key, value);
        Ok(value)
    }

    /// Defender to move, in check: is it tsume-mated within `r` plies (useless
    /// interpositions not counted, lengths under the two-ply rule as in
    /// [`Evaluator::mate_or`])?
    pub fn mate_and(&mut self, pos: &mut Position, r: i32) -> Eval<bool> {
        if r < -2 {
            return Ok(false);
        }
        if !movegen::has_legal_move(pos) {
            return Ok(r >= self.mated_value(pos));
        }
        self.settle(pos, r, Self::expand_and)
    }

    /// Whether the defender-to-move `pos` ends a line: mated, or left only with
    /// interpositions that change nothing (each useless, or captured with mate so that its
    /// line is worth no more than the mate now).
    pub fn ends_line(&mut self, pos: &mut Position) -> Eval<bool> {
        if !split_evasions(pos).0.is_empty() {
            return Ok(false);
        }
        let mated = self.mated_value(pos);
        self.mate_and(pos, mated)
    }

    /// Whether the defence `d` of the defender-to-move `pos`, whose value is `r`, is a
    /// useless interposition (the rules doc's test, judged from the king outward).
    pub fn is_useless_interposition(&mut self, pos: &mut Position, d: Move, r: i32) -> Eval<bool> {
        let (others, interpositions) = split_evasions(pos);
        let Some(king) = pos.king(pos.side_to_move()) else {
            return Ok(false);
        };
        if !interpositions.contains(&d) {
            return Ok(false);
        }
        // The defences that judge it: all but the interpositions, and those nearer the king.
        let distance = d.to().distance(king);
        let nearer = interpositions
            .iter()
            .filter(|m| m.to().distance(king) < distance);
        let judges: Vec<Move> = others.iter().chain(nearer).copied().collect();
        pos.do_move(d);
        let useless = self.needs_whole_length(pos, r, &judges).and_then(|need| {
            if need {
                self.captured_and_mated(pos, d.to(), r)
            } else {
                Ok(false)
            }
        });
        pos.undo_move();
        useless
    }

    /// The rules doc's definition at a defender node the bounds did not settle: every
    /// defence mate within `r − 1`, or a useless interposition (judged from the king
    /// outward, see [`Evaluator::is_useless_interposition`]; its questions about the nearer
    /// defences are memoised, so each is searched once per node).
    fn expand_and(&mut self, pos: &mut Position, r: i32, hard: bool) -> Eval<bool> {
        let (others, interpositions) = split_evasions(pos);
        let count = others.len() + interpositions.len();
        if hard && count >= 2 {
            let helpers = self.take_spare(count - 1);
            if helpers > 0 {
                let defences: Vec<Move> = others.into_iter().chain(interpositions).collect();
                return self.expand_and_side_by_side(pos, r, &defences, helpers);
            }
        }
        for &d in others.iter().chain(&interpositions) {
            pos.do_move(d);
            let within = self.mate_or(pos, r - 1);
            pos.undo_move();
            if !within? && !self.is_useless_interposition(pos, d, r)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// [`Evaluator::expand_and`] with the defences decided side by side by forks of this
    /// evaluator on `helpers` spare threads besides this one (given back as they run out of
    /// defences). The answer is the one-by-one loop's: the first defence in order that is
    /// not mate (or whose search stopped) decides it; a defence after one known to refute
    /// is not searched.
    fn expand_and_side_by_side(
        &mut self,
        pos: &Position,
        r: i32,
        defences: &[Move],
        helpers: usize,
    ) -> Eval<bool> {
        let refuted = AtomicUsize::new(usize::MAX);
        let this = &*self;
        let spare = &self.spare;
        let results = crate::dfpn::side_by_side_with(
            helpers + 1,
            defences,
            |i, &d| {
                if refuted.load(Relaxed) < i {
                    return (None, 0);
                }
                let mut fork = this.fork(1);
                let mut p = pos.clone();
                p.do_move(d);
                let within = fork.mate_or(&mut p, r - 1);
                p.undo_move();
                let answer = within
                    .and_then(|within| Ok(within || fork.is_useless_interposition(&mut p, d, r)?));
                if answer != Ok(true) {
                    refuted.fetch_min(i, Relaxed);
                }
                (Some(answer), fork.nodes)
            },
            || {
                spare.fetch_add(1, Relaxed);
            },
        );
        self.nodes += results.iter().map(|&(_, n)| n).sum::<u64>();
        for (answer, _) in results {
            match answer {
                Some(Ok(true)) => {}
                Some(other) => return other,
                None => unreachable!("skipped only after an earlier refutation"),
            }
        }
        Ok(true)
    }

    /// With the interposition (the last move of `pos`) undone temporarily: whether some
    /// defence in `defences` is not mate within `r − 3`, i.e. the defender already needs all
    /// `r` plies without the interposition (with no defence at all, whether `r` is the value
    /// of the mate there and then).
    ///
    /// A useless defence among them counts as needing all `r` plies: it is useless only
    /// when a counted defence nearer still does, so the answer is the same (and an
    /// effective one refutes the node anyway).
    fn needs_whole_length(&mut self, pos: &mut Position, r: i32, defences: &[Move]) -> Eval<bool> {
        if defences.is_empty() {
            return Ok(r == self.mated_value(pos));
        }
        let d = pos.last_move().expect("the interposition was played");
        pos.undo_move();
        let _asker = phases::asked_by(Asker::OtherDefences);
        let mut result = Ok(false);
        for &o in defences {
            pos.do_move(o);
            let short = self.mate_or(pos, r - 3);
            pos.undo_move();
            match short {
                Ok(true) => {}
                Ok(false) => {
                    result = Ok(true);
                    break;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        pos.do_move(d);
        result
    }

    /// After an interposition on `s`: whether some check capturing on `s` leads to a
    /// position that is mate within `r` with the captured piece out of the attacker's hand.
    fn captured_and_mated(
        &mut self,
        pos: &mut Position,
        s: crate::square::Square,
        r: i32,
    ) -> Eval<bool> {
        let _asker = phases::asked_by(Asker::CaptureAndMate);
        let mut checks = MoveList::new();
        movegen::generate_checks(pos, &mut checks);
        for &c in checks.iter().filter(|m| m.to() == s) {
            let Some(captured) = pos.captured_piece(c) else {
                continue;
            };
            // The captured piece goes out of the game: taken from the attacker's hand in
            // place (the evaluator's results do not depend on the move history).
            let kind = captured.kind.unpromote();
            pos.do_move(c);
            pos.take_from_hand(self.attacker, kind);
            let mated = self.mate_and(pos, r);
            pos.return_to_hand(self.attacker, kind);
            pos.undo_move();
            if mated? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The evasions of the defender-to-move `pos`: those that are not interpositions (in
/// generation order), and the interpositions from the king outward (on one square, in
/// generation order).
fn split_evasions(pos: &Position) -> (Vec<Move>, Vec<Move>) {
    let mut evasions = MoveList::new();
    movegen::generate_evasions(pos, &mut evasions);
    let squares = movegen::interposition_squares(pos);
    let (mut interpositions, others): (Vec<Move>, Vec<Move>) = evasions
        .iter()
        .partition(|&&m| movegen::is_interposition(pos, squares, m));
    if let Some(king) = pos.king(pos.side_to_move()) {
        interpositions.sort_by_key(|m| m.to().distance(king));
    }
    (others, interpositions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::Progress;
    use std::sync::Mutex;

    /// A fork deciding questions side by side reports its progress as its parent's nodes
    /// so far plus its own.
    #[test]
    fn a_fork_reports_its_nodes_after_its_parents() {
        let (mut raw, mut lower_bound) = (Table::new(1), Table::new(1));
        let reports = Arc::new(Mutex::new(Vec::new()));
        let r = reports.clone();
        let mut ev = Evaluator::new(&mut raw, &mut lower_bound, Color::Black, Limits::default());
        ev.on_progress = Some(Arc::new(move |p: &Progress| {
            r.lock().unwrap().push(p.nodes)
        }));
        ev.nodes = 1000;
        let fork = ev.fork(1);
        let report = fork.on_progress.as_ref().expect("a fork reports");
        report(&Progress {
            nodes: 5,
            elapsed: std::time::Duration::ZERO,
            hashfull: 0,
        });
        assert_eq!(*reports.lock().unwrap(), [1005]);
    }

    /// The order of [`Evaluator::checks_likeliest_first`] with one check of each kind of
    /// table evidence: above all, a check whose line of value `r` the two-ply game knows
    /// comes before the checks nothing is known about, although the plain game has no mate
    /// within `r` after it.
    #[test]
    fn checks_are_ordered_by_what_the_bounding_games_know() {
        let pos = Position::from_sfen("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1").unwrap();
        let mut checks = MoveList::new();
        movegen::generate_checks(&pos, &mut checks);
        let checks = checks.to_vec();
        assert!(checks.len() >= 6, "{} checks", checks.len());
        let r = 7;
        let budget = |v: i32| Plies::of_value(v).get();
        let mut raw = Table::new(1);
        let mut lower_bound = Table::new(1);
        let key = |m: Move| table_key_after(&pos, m);
        let hand = |m: Move| pos.hand_after(m);
        // checks[0] and checks[5..]: nothing known (rank 3).
        let (no_plain, two_ply, plain_wider, not) = (checks[1], checks[2], checks[3], checks[4]);
        lower_bound.store_disproven(key(no_plain), hand(no_plain), budget(r), 1);
        lower_bound.store_disproven(key(two_ply), hand(two_ply), budget(r), 1);
        lower_bound.store_proven(
            key(two_ply) ^ TWO_PLY_SALT,
            hand(two_ply),
            budget(r + 2),
            None,
            1,
        );
        lower_bound.store_disproven(key(plain_wider), hand(plain_wider), budget(r), 1);
        lower_bound.store_proven(key(plain_wider), hand(plain_wider), budget(r + 2), None, 1);
        lower_bound.store_disproven(key(not) ^ TWO_PLY_SALT, hand(not), budget(r + 2), 1);
        let ev = Evaluator::new(&mut raw, &mut lower_bound, Color::Black, Limits::default());
        let mut expected = vec![two_ply, checks[0]];
        expected.extend(&checks[5..]);
        expected.extend([plain_wider, no_plain, not]);
        assert_eq!(ev.checks_likeliest_first(&pos, r), expected);
        // What the definition already decided goes before any table evidence: a check
        // known to mate first, one known not to among the certainly-nots.
        ev.memo.insert((pos.full_key_after(plain_wider), r), true);
        ev.memo.insert((pos.full_key_after(checks[0]), r), false);
        let mut expected = vec![plain_wider, two_ply];
        expected.extend(&checks[5..]);
        expected.extend([no_plain, checks[0], not]);
        assert_eq!(ev.checks_likeliest_first(&pos, r), expected);
    }
}
