//! Tsume conventions on top of the df-pn search (`docs/rules.md` §2–3).
//!
//! - [`evaluator`]: the exact "tsume-mate within r" predicate, useless interpositions
//!   (無駄合) not counted;
//! - this module: the tsume solve behind [`Solver`](crate::Solver) (the tsume length of a
//!   problem and its best-play line), and its building blocks;
//! - [`verify`]: soundness of a problem (exact length, 変長, 駒余り, 余詰, 不要駒).

pub mod evaluator;
mod phases;
pub mod verify;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use crate::color::Color;
use crate::dfpn::table::{Kind, Table, TableAllocError};
use crate::dfpn::TWO_PLY_FIRST_UP_TO;
use crate::dfpn::{
    self, Limits, Outcome, Progress, ProgressCallback, Recorder, SolveReport, Unsettled,
};
use crate::hand::Hand;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::plies::Plies;
use crate::position::Position;
pub use evaluator::Evaluator;

use crate::solver::Rules;

/// The search, among equally long defences, for a line that leaves the attacker no pieces
/// in hand: how many alternative sub-lines it may still try, whether it ever ran out, and
/// the sub-lines it has tried in full. A line with pieces left over settles the length (and
/// is a 駒余り verdict) only if the search was not cut short.
///
/// The search is an OR over best-play moves of both sides, so once a line is in hand an
/// alternative that cannot end without pieces is skipped: a (position, value) pair from
/// which every best-play line was tried (values fall along a line, so no pair recurs on
/// its own path), or one where the attacker holds more pieces than it has moves left.
#[derive(Clone, Debug)]
pub struct TieBreak {
    tries: u32,
    cut_short: bool,
    /// (full key, value) pairs whose every best-play line ends with pieces left over.
    dead_ends: HashSet<(u64, i32)>,
}

impl TieBreak {
    /// Alternative sub-lines tried, in all, before giving up.
    pub const TRIES: u32 = 64;

    /// A search allowed [`TieBreak::TRIES`] alternative sub-lines.
    pub fn new() -> TieBreak {
        TieBreak::with_tries(Self::TRIES)
    }

    /// A search that tries every alternative: what a solve needs for an exact length
    /// (each (position, value) pair is searched once, and the limits stop it like any
    /// search).
    pub fn exhaustive() -> TieBreak {
        TieBreak::with_tries(u32::MAX)
    }

    /// A search allowed `tries` alternative sub-lines (tests use few).
    pub fn with_tries(tries: u32) -> TieBreak {
        TieBreak {
            tries,
            cut_short: false,
            dead_ends: HashSet::new(),
        }
    }

    /// Whether some equally long defence was left untried: a line with pieces left over
    /// then proves nothing about 駒余り.
    pub fn cut_short(&self) -> bool {
        self.cut_short
    }

    /// Whether `line` from `pos` has a settled length: it ends with no `attacker` pieces in
    /// hand, or the search that chose it tried every alternative (so best play must leave
    /// pieces over, and the length is the value + 2).
    pub fn settles(&self, pos: &mut Position, line: &[Move], attacker: Color) -> bool {
        !self.cut_short || hand_after_line(pos, line, attacker).is_empty()
    }

    /// Takes one try; `false` (and remembered) when none is left.
    fn take(&mut self) -> bool {
        if self.tries == 0 {
            self.cut_short = true;
            return false;
        }
        self.tries -= 1;
        true
    }

    /// Whether every best-play line of value `v` after `m` from `pos` is known to end with
    /// `attacker` pieces left over: tried in full before, or holding more pieces than the
    /// attacker has moves left to drop them (a line without pieces left over is exactly
    /// `v` plies long, and each attacker move empties the hand by one piece at most).
    fn is_dead_end(&self, pos: &Position, m: Move, v: i32, attacker: Color) -> bool {
        let mover = pos.side_to_move();
        let (hand, attacker_moves) = if mover == attacker {
            (pos.hand_after(m), v / 2)
        } else {
            (pos.hand(attacker), (v + 1) / 2)
        };
        i64::from(hand.total()) > i64::from(attacker_moves)
            || self.dead_ends.contains(&(pos.full_key_after(m), v))
    }
}

impl Default for TieBreak {
    fn default() -> TieBreak {
        TieBreak::new()
    }
}

/// The two tables of a tsume-rules search: one for the raw game, one for the lower-bound
/// game (results of the two games must never mix). `hash_mb` is split between them.
pub(crate) struct Tables {
    pub raw: Table,
    pub lower_bound: Table,
}

impl Tables {
    /// Tables of `hash_mb` MiB in all, or an error when the memory cannot be allocated
    /// (naming `hash_mb`, the size the user asked for, not the half that failed).
    pub fn try_new(hash_mb: usize) -> Result<Tables, TableAllocError> {
        let all = |_| TableAllocError { megabytes: hash_mb };
        Ok(Tables {
            raw: Table::try_new(hash_mb.div_ceil(2).max(1)).map_err(all)?,
            lower_bound: Table::try_new((hash_mb / 2).max(1)).map_err(all)?,
        })
    }

    /// Forgets everything (in constant time, see [`Table::clear`]).
    pub fn clear(&mut self) {
        self.raw.clear();
        self.lower_bound.clear();
    }
}

/// The raw shortenings before the tsume evaluator get at most the first mate's nodes
/// divided by this, plus [`SHORTENING_CAP_MIN`], each (or more after a dear proven one, see
/// [`dfpn::SHORTENING_GROWTH`]).
const SHORTENING_CAP_DIVISOR: u64 = 4;
const SHORTENING_CAP_MIN: u64 = 64;

/// Solves `pos` for a mate by `attacker` (whichever side is to move) under tsume rules, in
/// `tables` (cleared first), on a search thread of its own: a first raw mate bounds the
/// length from above, the lower-bound game's shortest mate from below, and the evaluator
/// settles it between them. With the defender to move the value of the defender's node is
/// settled in the same way ([`Evaluator::mate_and`]), and the line starts with a longest
/// counted defence, never a useless interposition.
pub(crate) fn solve_in(
    pos: &Position,
    attacker: Color,
    options: &Limits,
    tables: &mut Tables,
) -> SolveReport {
    tables.clear();
    let start = Instant::now();
    let mut run = Run {
        pos,
        attacker,
        options,
        start,
        recorder: Recorder::new(start, options),
    };
    let (first, found) = dfpn::on_search_thread(|| run.solve(tables));
    let recorder = run.recorder;
    let mate_so_far = match found.outcome {
        Outcome::Unknown(_) => recorder.improvements.last().and_then(|i| i.line.clone()),
        _ => None,
    };
    let proofs = match first.length {
        Ok(Some(len)) => vec![(len, first.nodes)],
        _ => Vec::new(),
    };
    SolveReport {
        outcome: found.outcome,
        nodes: first.nodes + found.nodes,
        elapsed: start.elapsed(),
        proofs,
        mate_so_far,
        improvements: recorder.improvements,
        lower_bound: recorder.lower_bound,
        final_alternatives: found.final_alternatives,
    }
}

/// One tsume solve under way (on the search thread).
struct Run<'a> {
    pos: &'a Position,
    attacker: Color,
    options: &'a Limits,
    start: Instant,
    recorder: Recorder,
}

/// What a tsume solve found after its first raw mate.
struct Found {
    outcome: Outcome,
    /// Nodes searched after the first raw mate.
    nodes: u64,
    final_alternatives: Vec<Move>,
}

impl Found {
    /// The solve ended with `outcome` (not a tsume mate) after `nodes` more nodes.
    fn ended(outcome: Outcome, nodes: u64) -> Found {
        Found {
            outcome,
            nodes,
            final_alternatives: Vec::new(),
        }
    }
}

impl Run<'_> {
    /// The first raw mate, and what follows from it.
    fn solve(&mut self, tables: &mut Tables) -> (dfpn::FirstMate, Found) {
        phases::solve_starts(self.start);
        let first = dfpn::first_mate(
            self.pos,
            self.attacker,
            self.options,
            &mut tables.raw,
            Some(&tables.lower_bound),
        );
        let found = match first.length {
            Ok(Some(upper)) => self.after_raw_mate(&first, upper, tables),
            Ok(None) => Found::ended(Outcome::NoMate, 0),
            Err(stop) => Found::ended(Outcome::Unknown(stop), 0),
        };
        (first, found)
    }

    /// The solve's progress callback for a later phase, whose searches count their nodes
    /// from zero after `before` nodes of the solve: they report as the whole solve.
    fn phase_progress(&self, before: u64) -> Option<ProgressCallback> {
        let start = self.start;
        self.options.on_progress.clone().map(|f| {
            Arc::new(move |p: &Progress| {
                f(&Progress {
                    nodes: before + p.nodes,
                    elapsed: start.elapsed(),
                    hashfull: p.hashfull,
                })
            }) as ProgressCallback
        })
    }

    /// From a first raw mate of `upper` plies: its cheap shortenings, then the evaluator.
    fn after_raw_mate(
        &mut self,
        first: &dfpn::FirstMate,
        upper: Plies,
        tables: &mut Tables,
    ) -> Found {
        // Until the tsume length is known, the answer is this raw mate: the tsume length
        // is at most its length (a raw mate within `r` is a tsume mate within `r`).
        self.recorder
            .mate(upper, first.line.clone(), Rules::Raw, first.nodes);
        // The raw game's proven shortenings come almost free from the first proof's tree:
        // the answer reaches its final length early wherever the raw and tsume lengths
        // agree, and the evaluator gets a tighter upper bound. Only the raw minimality
        // disproof is not wanted here, and it is given up at the cap.
        let raw_limits = Limits {
            node_limit: self
                .options
                .node_limit
                .map(|n| n.saturating_sub(first.nodes)),
            on_progress: self.phase_progress(first.nodes),
            on_event: None,
            ..self.options.clone()
        };
        phases::solve_step(format_args!("raw first mate {upper}"), first.nodes, 0);
        let cap = first.nodes / SHORTENING_CAP_DIVISOR + SHORTENING_CAP_MIN;
        let recorder = &mut self.recorder;
        let (shortened, shortening_nodes) = dfpn::shorten_cheaply(
            self.pos,
            self.attacker,
            &raw_limits,
            (&mut tables.raw, Some(&tables.lower_bound)),
            upper,
            cap,
            |len, line, n| recorder.mate(len, line, Rules::Raw, first.nodes + n),
        );
        phases::solve_step(
            format_args!("raw shortenings: {shortened:?}"),
            first.nodes + shortening_nodes,
            first.nodes,
        );
        match shortened {
            Ok(upper) => self.evaluate(tables, upper, first.nodes, shortening_nodes),
            Err(stop) => Found::ended(Outcome::Unknown(stop), shortening_nodes),
        }
    }

    /// The tsume value (the raw mate is within `upper` plies), the best-play line and the
    /// other mating last moves, by the evaluator; `first_nodes + shortening_nodes` nodes
    /// were searched before.
    fn evaluate(
        &mut self,
        tables: &mut Tables,
        upper: Plies,
        first_nodes: u64,
        shortening_nodes: u64,
    ) -> Found {
        let before = first_nodes + shortening_nodes;
        let limits = Limits {
            node_limit: self.options.node_limit.map(|n| n.saturating_sub(before)),
            on_progress: None,
            on_event: None,
            ..self.options.clone()
        };
        let Tables { raw, lower_bound } = tables;
        let mut ev = Evaluator::new(raw, lower_bound, self.attacker, limits);
        ev.on_progress = self.phase_progress(before);
        phases::evaluator_starts(before);
        let mut root = self.pos.clone();
        root.clear_history();
        let recorder = &mut self.recorder;
        let mut on_bound = |ev: &mut Evaluator, pos: &mut Position, bound: ValueBound| {
            match bound {
                // A value of at least `v` is a length of at least `v` (a line of value `v`
                // is `v` or `v + 2` plies long), and a mate is at least 1 ply.
                ValueBound::AtLeast(v) => {
                    recorder.lower_bound(Plies::of_value(v.max(1)), before + ev.nodes)
                }
                // A length of at most `v`, or `v + 2` if best play must leave pieces over.
                ValueBound::AtMost(v) => {
                    let line = mating_line(ev, pos, v).ok();
                    recorder.mate(Plies::of_value(v), line, Rules::Tsume, before + ev.nodes);
                }
            }
        };
        let mut tie_break = TieBreak::exhaustive();
        let line = tsume_value_reporting(&mut ev, &mut root, upper.value(), &mut on_bound)
            .and_then(|value| {
                let at_value = ev.nodes;
                let line = best_play_line(&mut ev, &mut root, value, &mut tie_break);
                phases::evaluator_step(
                    format_args!("best-play line of value {value}"),
                    ev.nodes,
                    at_value,
                );
                line.map(|l| (value, l))
            });
        let nodes = |ev: &Evaluator| shortening_nodes + ev.nodes;
        let (value, line) = match line {
            Ok(found) => found,
            Err(stop) => {
                self.recorder.value_not_length();
                return Found::ended(Outcome::Unknown(stop), nodes(&ev));
            }
        };
        let length = Plies::of_line(&line);
        if !tie_break.settles(&mut root, &line, self.attacker) {
            // The value is proven, but a best-play line 2 plies shorter that ends without
            // pieces left over may exist: the length is the value or this line's.
            self.recorder
                .lower_bound(Plies::of_value(value), before + ev.nodes);
            self.recorder
                .settled(length, Some(line), Rules::Tsume, before + ev.nodes);
            return Found::ended(Outcome::Unknown(Unsettled::CutShort), nodes(&ev));
        }
        // Best play is proven: its length is the tsume length.
        self.recorder.lower_bound(length, before + ev.nodes);
        self.recorder
            .settled(length, Some(line.clone()), Rules::Tsume, before + ev.nodes);
        match final_alternatives(&mut ev, &mut root, &line) {
            Ok(alternatives) => Found {
                outcome: Outcome::Mate { moves: line },
                nodes: nodes(&ev),
                final_alternatives: alternatives,
            },
            Err(stop) => Found::ended(Outcome::Unknown(stop), nodes(&ev)),
        }
    }
}

/// A bound of the tsume value proven on the way (see [`tsume_value`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ValueBound {
    /// No tsume mate of a lower value.
    AtLeast(i32),
    /// Tsume mate within this value.
    AtMost(i32),
}

/// A lower-bound proof that takes more than the evaluator's nodes so far divided by this
/// (and more than [`STALL_MIN_NODES`]) has stalled: the tsume question is asked at the
/// lower-bound game's shortest mate so far before it goes on.
const STALL_DIVISOR: u64 = 8;
const STALL_MIN_NODES: u64 = 100_000;

/// The tsume value of the attacker-to-move `pos`, known to be mate within `upper` plies
/// (its raw length): its length under best play, a line that ends with pieces left over
/// counted 2 plies shorter (the two-ply rule, see [`Evaluator::mate_or`]; a best-play line
/// of value `v` is `v` plies long, or `v + 2` when it ends with pieces left over). The
/// lower-bound game's shortest mate `P` bounds the value from below by `P − 2` (by `P`
/// where no line ends with pieces left over), so it is the least `r` from there up with
/// tsume mate within `r`, or `upper`.
pub fn tsume_value(ev: &mut Evaluator, pos: &mut Position, upper: i32) -> Result<i32, Unsettled> {
    tsume_value_reporting(ev, pos, upper, &mut |_, _, _| {})
}

/// [`tsume_value`], telling `on_bound` each bound of the value as it is proven (the
/// evaluator and `pos` are lent to it, say to read a line). With the defender to move (in
/// check) it is the value of the defender's node, settled by [`Evaluator::mate_and`] in the
/// same way.
fn tsume_value_reporting(
    ev: &mut Evaluator,
    pos: &mut Position,
    upper: i32,
    on_bound: &mut dyn FnMut(&mut Evaluator, &mut Position, ValueBound),
) -> Result<i32, Unsettled> {
    let (least, upper) = lower_bound_game(ev, pos, upper, on_bound)?;
    on_bound(ev, pos, ValueBound::AtLeast(least));
    let attacker_to_move = pos.side_to_move() == ev.attacker;
    // The least values: a mate in 1 keeping a piece (−1); a defender's node mated but for
    // useless interpositions, with pieces left over (−2).
    let mut r = least.max(if attacker_to_move { -1 } else { -2 });
    while r < upper {
        let mate = traced(ev, format_args!("value: tsume mate within {r}?"), |ev| {
            if attacker_to_move {
                ev.mate_or(pos, r)
            } else {
                ev.mate_and(pos, r)
            }
        })?;
        if mate {
            return Ok(r);
        }
        on_bound(ev, pos, ValueBound::AtLeast(r + 2));
        r += 2;
    }
    Ok(upper)
}

/// The bounds `(least, upper)` of the value of `pos` (tsume mate within `upper`) from the
/// lower-bound game: its shortest mate `P` gives `least = P − 2`, found by shortening a
/// first proof until "within L − 2" is disproven.
///
/// That last disproof is most of the game's cost, and the tsume length is most often `L`
/// itself: so when a shortening stalls (see [`STALL_DIVISOR`]) with the attacker to move,
/// the tsume question at `L` goes first. Yes is a new `upper`, told at once (a line of the
/// final length long before the proof ends), and a question the value search asks anyway
/// unless `L` is above the value. No is a value of at least `L + 2`, more than the game can
/// prove from there: it stops.
///
/// Whenever `upper` is set (at the start, and when the stall's question finds a line), the
/// game's next question at `upper` is its last, and on short problems the two-ply game asks
/// it first ([`two_ply_rules_out`]).
///
/// The game's proofs are cheap down to about the lengths the raw game has proven: it reads
/// the raw proofs after evasions. Below them it builds a proof tree of its own, at about the
/// raw first mate's price or more (煙詰: 5–50 M nodes where the raw shortening takes a few
/// hundred thousand, benches/RESULTS.md §56a). That is why the raw shortenings run first.
fn lower_bound_game(
    ev: &mut Evaluator,
    pos: &mut Position,
    mut upper: i32,
    on_bound: &mut dyn FnMut(&mut Evaluator, &mut Position, ValueBound),
) -> Result<(i32, i32), Unsettled> {
    let attacker_to_move = pos.side_to_move() == ev.attacker;
    if attacker_to_move && two_ply_rules_out(ev, pos, upper)? {
        return Ok((upper, upper));
    }
    let within = upper - 2;
    let first = traced(ev, format_args!("lower-bound game within {within}"), |ev| {
        ev.lower_bound_mate(pos, within, None)
    })?;
    let (Kind::Proven, mut shortest) = first else {
        return Ok((within, upper));
    };
    let mut asked_at = None;
    loop {
        let ask = attacker_to_move && shortest < upper && asked_at != Some(shortest);
        let cap = ask.then(|| (ev.nodes / STALL_DIVISOR).max(STALL_MIN_NODES));
        let within = shortest - 2;
        let answer = traced(ev, format_args!("lower-bound game within {within}"), |ev| {
            ev.lower_bound_mate(pos, within, cap)
        })?;
        match answer {
            (Kind::Proven, length) => shortest = length,
            (Kind::Disproven, _) => return Ok((shortest - 2, upper)),
            (Kind::Unknown, _) => {
                asked_at = Some(shortest);
                let mate = traced(
                    ev,
                    format_args!("stalled: tsume mate within {shortest}?"),
                    |ev| ev.mate_or(pos, shortest),
                )?;
                if !mate {
                    return Ok((shortest + 2, upper));
                }
                upper = shortest;
                let before = ev.nodes;
                on_bound(ev, pos, ValueBound::AtMost(upper));
                phases::evaluator_step(
                    format_args!("a tsume line within {upper} told"),
                    ev.nodes,
                    before,
                );
                if two_ply_rules_out(ev, pos, upper)? {
                    return Ok((upper, upper));
                }
            }
        }
    }
}

/// Whether the two-ply lower-bound game disproves "a line of value `upper − 2` or less" at
/// `pos` (attacker to move, tsume mate within `upper` known), asked only where `upper` is at
/// most `TWO_PLY_FIRST_UP_TO` (in `dfpn::probe`): then the value is `upper`.
///
/// After the plain game's last disproof, "within `upper − 2`", the value question at
/// `upper − 2` is always the two-ply game's "within `upper`", and that disproof proves the
/// plain one too ([`Evaluator::two_ply_mate`]). Asked first, it saves the plain disproof.
/// The plain game's advantage, the raw proofs it reads after evasions (above
/// `RAW_PROOFS_ABOVE`, 40 plies, in `dfpn::probe`), is out of reach of problems this
/// short; on longer ones the plain disproof reads them and leaves the two-ply game little
/// to do (benches/RESULTS.md §52).
fn two_ply_rules_out(ev: &mut Evaluator, pos: &Position, upper: i32) -> Result<bool, Unsettled> {
    if upper > i32::from(TWO_PLY_FIRST_UP_TO) {
        return Ok(false);
    }
    let kind = traced(ev, format_args!("two-ply game within {upper}"), |ev| {
        ev.two_ply_mate(pos, upper)
    })?;
    Ok(kind == Kind::Disproven)
}

/// `ask`'s answer, printed with its nodes as a step of the evaluator (feature `stats`, see
/// `phases`).
fn traced<T: std::fmt::Debug>(
    ev: &mut Evaluator,
    what: std::fmt::Arguments<'_>,
    ask: impl FnOnce(&mut Evaluator) -> Result<T, Unsettled>,
) -> Result<T, Unsettled> {
    let before = ev.nodes;
    let answer = ask(ev)?;
    phases::evaluator_step(format_args!("{what} {answer:?}"), ev.nodes, before);
    Ok(answer)
}

/// A tsume mating line from the attacker-to-move `pos`, known to be tsume mate within the
/// value `v`: each attacker move keeps the mate within what is left, each defender move is
/// a counted defence (the one the raw table thinks longest first; not necessarily the
/// longest, so the line may be shorter than `v`).
fn mating_line(ev: &mut Evaluator, pos: &mut Position, v: i32) -> Result<Vec<Move>, Unsettled> {
    let mut line = Vec::new();
    let result = extend_mating_line(ev, pos, v, &mut line);
    for _ in &line {
        pos.undo_move();
    }
    result.map(|()| line)
}

/// [`mating_line`], its moves played on `pos` and pushed on `line` as it goes.
fn extend_mating_line(
    ev: &mut Evaluator,
    pos: &mut Position,
    mut v: i32,
    line: &mut Vec<Move>,
) -> Result<(), Unsettled> {
    loop {
        // None only if the searches contradict each other (a key collision).
        let m = ev.mating_check(pos, v)?.ok_or(Unsettled::Inconsistent)?;
        pos.do_move(m);
        line.push(m);
        v -= 1;
        let mut defence = None;
        for d in defences_longest_first(ev, pos) {
            if !ev.is_useless_interposition(pos, d, v)? {
                defence = Some(d);
                break;
            }
        }
        let Some(d) = defence else {
            // Mated, but for useless interpositions.
            return Ok(());
        };
        pos.do_move(d);
        line.push(d);
        v -= 1;
    }
}

/// The evasions of the defender-to-move `pos`, those the raw table thinks longest first
/// (those not known to be mate first of all, as if longest).
fn defences_longest_first(ev: &Evaluator, pos: &Position) -> Vec<Move> {
    let mut evasions = MoveList::new();
    movegen::generate_evasions(pos, &mut evasions);
    let mut order: Vec<(Option<Plies>, Move)> = evasions
        .iter()
        .map(|&d| (ev.raw_hint_after(pos, d), d))
        .collect();
    order.sort_by_key(|&(l, d)| (l.is_some(), std::cmp::Reverse(l), d.raw()));
    order.into_iter().map(|(_, d)| d).collect()
}

/// The evasions of the defender-to-move `pos` of value `v` in the order a best-play line
/// tries them: those the lower-bound games' table already knows not to be mate within
/// `v − 3` first, then as [`defences_longest_first`]. The lower-bound game's disproof
/// refuted each node of the line by one longest defence and stored it; any other longest
/// defence tried first costs that disproof again (寿: 7.5 M nodes at one node,
/// benches/RESULTS.md §36a).
fn defences_known_longest_first(ev: &Evaluator, pos: &Position, v: i32) -> Vec<Move> {
    let mut order = defences_longest_first(ev, pos);
    // Stable: equally known defences keep the raw table's order.
    order.sort_by_cached_key(|&d| ev.no_mate_rank_after(pos, d, v - 3));
    order
}

/// Whether the defence `d` of the defender-to-move `pos` (of value `v`) is counted and
/// reaches the value: not a useless interposition, mate within `v − 1` but not within
/// `v − 3`.
pub fn is_longest_defence(
    ev: &mut Evaluator,
    pos: &mut Position,
    d: Move,
    v: i32,
) -> Result<bool, Unsettled> {
    if ev.is_useless_interposition(pos, d, v)? {
        return Ok(false);
    }
    pos.do_move(d);
    let counted = ev.mate_or(pos, v - 1).and_then(|within| {
        if within {
            ev.mate_or(pos, v - 3).map(|shorter| !shorter)
        } else {
            Ok(false)
        }
    });
    pos.undo_move();
    counted
}

/// A best-play line of value `v` (see [`tsume_value`]) from `pos`: the attacker mates in
/// the fewest plies, the defender plays a longest counted defence; where two lines have the
/// same value (one exactly 2 plies longer and ending with pieces left over, or equally long
/// and both ending with or without), both sides prefer one after which the attacker ends
/// with no pieces in hand. Useless interpositions are never part of it. `tie_break` bounds
/// the search for a line without pieces left over and tells whether it was cut short.
pub fn best_play_line(
    ev: &mut Evaluator,
    pos: &mut Position,
    v: i32,
    tie_break: &mut TieBreak,
) -> Result<Vec<Move>, Unsettled> {
    if pos.side_to_move() == ev.attacker {
        attacker_line(ev, pos, v, tie_break)
    } else {
        defender_line(ev, pos, v, tie_break)
    }
}

/// [`best_play_line`] with the attacker to move.
fn attacker_line(
    ev: &mut Evaluator,
    pos: &mut Position,
    v: i32,
    tie_break: &mut TieBreak,
) -> Result<Vec<Move>, Unsettled> {
    // The checks the tables know to mate first: each one tried before the mating one
    // costs a disproof. (With several mating checks, a flaw, which one is shown may then
    // depend on the tables.)
    let mut first: Option<Vec<Move>> = None;
    for m in ev.checks_likeliest_first(pos, v - 1) {
        if first.is_some() && tie_break.is_dead_end(pos, m, v - 1, ev.attacker) {
            continue;
        }
        pos.do_move(m);
        let ok = ev.mate_and(pos, v - 1);
        pos.undo_move();
        if !ok? {
            continue;
        }
        if first.is_some() && !tie_break.take() {
            break;
        }
        if let Some(line) = line_after(ev, pos, m, v - 1, tie_break, &mut first)? {
            return Ok(line);
        }
    }
    // None only if the searches contradict each other (a key collision): answer
    // "unknown" rather than a wrong line.
    first.ok_or(Unsettled::Inconsistent)
}

/// [`best_play_line`] with the defender to move.
fn defender_line(
    ev: &mut Evaluator,
    pos: &mut Position,
    v: i32,
    tie_break: &mut TieBreak,
) -> Result<Vec<Move>, Unsettled> {
    // The defences the raw table thinks longest first: the first that is a longest
    // counted defence and leaves no pieces in hand ends the search.
    if v < 0 {
        return Ok(Vec::new());
    }
    let order = defences_known_longest_first(ev, pos, v);
    if order.is_empty() {
        return Ok(Vec::new());
    }
    let mut first: Option<Vec<Move>> = None;
    for d in order {
        if first.is_some() && tie_break.is_dead_end(pos, d, v - 1, ev.attacker) {
            continue;
        }
        if !is_longest_defence(ev, pos, d, v)? {
            continue;
        }
        if first.is_some() && !tie_break.take() {
            break;
        }
        if let Some(line) = line_after(ev, pos, d, v - 1, tie_break, &mut first)? {
            return Ok(line);
        }
    }
    match first {
        Some(line) => Ok(line),
        // No counted defence: mated but for useless interpositions.
        None if v == 0 => Ok(Vec::new()),
        // Not mated, yet no counted defence reaches the value: a contradiction.
        None => Err(Unsettled::Inconsistent),
    }
}

/// The line that starts with `m` from `pos` and goes on with a best-play line of value
/// `v`: returned if it leaves the attacker no pieces in hand, else kept in `first` (if
/// that is still empty) for want of a better one.
fn line_after(
    ev: &mut Evaluator,
    pos: &mut Position,
    m: Move,
    v: i32,
    tie_break: &mut TieBreak,
    first: &mut Option<Vec<Move>>,
) -> Result<Option<Vec<Move>>, Unsettled> {
    pos.do_move(m);
    let rest = best_play_line(ev, pos, v, tie_break);
    let mut line = vec![m];
    let leftover = rest.map(|rest| {
        line.extend(rest);
        !hand_after_line(pos, &line[1..], ev.attacker).is_empty()
    });
    let key = pos.full_key();
    pos.undo_move();
    if !leftover? {
        return Ok(Some(line));
    }
    if !tie_break.cut_short {
        // Every best-play line from here was tried.
        tie_break.dead_ends.insert((key, v));
    }
    first.get_or_insert(line);
    Ok(None)
}

/// The length of a best-play line of value `v` from `pos` (see [`best_play_line`]), or
/// [`Unsettled::CutShort`] when the tie-break gave up with a line that ends with pieces left
/// over (the length is then `v` or `v + 2`).
pub fn best_play_length(
    ev: &mut Evaluator,
    pos: &mut Position,
    v: i32,
) -> Result<Plies, Unsettled> {
    let mut tie_break = TieBreak::new();
    let line = best_play_line(ev, pos, v, &mut tie_break)?;
    if tie_break.settles(pos, &line, ev.attacker) {
        Ok(Plies::of_line(&line))
    } else {
        Err(Unsettled::CutShort)
    }
}

/// The value of `line` from `pos` under the two-ply rule (see [`tsume_value`]): its
/// length, less 2 when it ends with `attacker` pieces in hand.
pub fn line_value(pos: &mut Position, line: &[Move], attacker: Color) -> i32 {
    let leftover = !hand_after_line(pos, line, attacker).is_empty();
    Plies::of_line(line).value() - if leftover { 2 } else { 0 }
}

/// `attacker`'s hand after playing `line` from `pos` (left as it was).
pub fn hand_after_line(pos: &mut Position, line: &[Move], attacker: Color) -> Hand {
    for &m in line {
        pos.do_move(m);
    }
    let hand = pos.hand(attacker);
    for _ in line {
        pos.undo_move();
    }
    hand
}

/// The other attacker moves that mate at the last attacker move of `line` (useless
/// interpositions after them not counting).
pub fn final_alternatives(
    ev: &mut Evaluator,
    root: &mut Position,
    line: &[Move],
) -> Result<Vec<Move>, Unsettled> {
    let Some((&last, before)) = line.split_last() else {
        return Ok(Vec::new());
    };
    for &m in before {
        root.do_move(m);
    }
    let mut checks = MoveList::new();
    movegen::generate_checks(root, &mut checks);
    let mut result = Ok(Vec::new());
    for &m in checks.iter().filter(|&&m| m != last) {
        root.do_move(m);
        let mates = ev.ends_line(root);
        root.undo_move();
        match (mates, &mut result) {
            (Ok(true), Ok(v)) => v.push(m),
            (Ok(false), _) => {}
            (Err(e), r) => {
                *r = Err(e);
                break;
            }
            _ => {}
        }
    }
    for _ in before {
        root.undo_move();
    }
    result
}

/// The defender's alternatives at one defender ply of a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefenderPly {
    /// 1-based ply of the defender move on the line.
    pub ply: usize,
    /// Every legal defence but the line's, with its value: the plies to mate from the
    /// defender's node when it is played (the defence included, along a best-play line
    /// after it), or `None` for a useless interposition (not counted).
    pub alternatives: Vec<(Move, Option<Plies>)>,
}

/// The defender's alternatives, with their values, at each defender ply of `line` (a
/// best-play line of `pos` under tsume rules), searched in `tables` as they are (what a
/// solve of `pos` left there is reused) and within `limits`, on a search thread.
pub(crate) fn variations_in(
    pos: &Position,
    line: &[Move],
    limits: &Limits,
    tables: &mut Tables,
) -> Result<Vec<DefenderPly>, Unsettled> {
    let limits = Limits {
        on_progress: None,
        on_event: None,
        ..limits.clone()
    };
    let attacker = pos.side_to_move();
    let Tables { raw, lower_bound } = tables;
    dfpn::on_search_thread(|| {
        let mut ev = Evaluator::new(raw, lower_bound, attacker, limits);
        let mut p = pos.clone();
        p.clear_history();
        let mut plies = Vec::new();
        let mut result = Ok(());
        let value = line_value(&mut p, line, attacker);
        for (i, &m) in line.iter().enumerate() {
            if p.side_to_move() != attacker {
                let value = value - i as i32;
                match defender_alternatives(&mut ev, &mut p, m, value) {
                    Ok(alternatives) => plies.push(DefenderPly {
                        ply: i + 1,
                        alternatives,
                    }),
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            p.do_move(m);
        }
        result.map(|()| plies)
    })
}

/// The values of the defences other than `chosen` at a defender node of value `v`.
fn defender_alternatives(
    ev: &mut Evaluator,
    pos: &mut Position,
    chosen: Move,
    v: i32,
) -> Result<Vec<(Move, Option<Plies>)>, Unsettled> {
    let mut evasions = MoveList::new();
    movegen::generate_evasions(pos, &mut evasions);
    let mut out = Vec::new();
    for &d in evasions.iter().filter(|&&d| d != chosen) {
        let value = if ev.is_useless_interposition(pos, d, v)? {
            None
        } else {
            pos.do_move(d);
            let value = defence_value(ev, pos, v + 1);
            pos.undo_move();
            value?
        };
        out.push((d, value));
    }
    Ok(out)
}

/// The plies to mate from the defender's node after the defence that led to the
/// attacker-to-move `pos` (that defence included): the length of a best-play line from
/// `pos` plus one, if its value is at most `most` (the two-ply rule's value, see
/// [`tsume_value`]).
fn defence_value(
    ev: &mut Evaluator,
    pos: &mut Position,
    most: i32,
) -> Result<Option<Plies>, Unsettled> {
    let mut r = -1;
    while r < most {
        if ev.mate_or(pos, r)? {
            return Ok(Some(best_play_length(ev, pos, r)?.plus(1)));
        }
        r += 2;
    }
    Ok(None)
}

#[cfg(test)]
mod tests;
