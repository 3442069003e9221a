//! Tsume conventions on top of the df-pn search (rules doc §2–3).
//!
//! - [`evaluator`]: the exact "tsume-mate within r" predicate, useless interpositions
//!   (無駄合) not counted;
//! - [`solve`] (this module): the tsume length of a problem and its best-play line;
//! - [`verify`]: soundness of a problem (exact length, 変長, 駒余り, 余詰, 不要駒).

pub mod evaluator;
pub mod verify;

use std::time::Instant;

use crate::color::Color;
use crate::dfpn::table::Table;
use crate::dfpn::{self, Outcome, SolveOptions, SolveReport, Stop};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
pub use evaluator::{EvalLimits, Evaluator};

/// The answer under tsume rules.
#[derive(Clone, Debug)]
pub struct TsumeReport {
    /// The outcome with the tsume best-play line, nodes and time of the whole solve.
    pub report: SolveReport,
    /// The raw length (every evasion counted), when a mate was proven.
    pub raw_length: Option<u16>,
    /// Other attacker moves that mate on the last move of the line (最終手余詰).
    pub final_alternatives: Vec<Move>,
}

/// How many alternative sub-lines the line extraction may try to find, among equally long
/// defences, the one that leaves the attacker no pieces in hand.
const TIE_BREAK_TRIES: u32 = 64;

/// Solves `pos` under tsume rules: the raw search proves the mate and its raw length, then
/// the evaluator shortens it while useless interpositions make the raw line longer.
pub fn solve(pos: &Position, options: &SolveOptions) -> TsumeReport {
    let mut raw = Table::new(options.hash_mb.div_ceil(2).max(1));
    let mut no_interposition = Table::new((options.hash_mb / 2).max(1));
    solve_with_tables(pos, options, &mut raw, &mut no_interposition)
}

/// [`solve`] with caller-provided tables (used for the raw game and the no-interposition
/// game respectively).
pub fn solve_with_tables(
    pos: &Position,
    options: &SolveOptions,
    raw: &mut Table,
    no_interposition: &mut Table,
) -> TsumeReport {
    let start = Instant::now();
    let raw_report = dfpn::solve_with_table(pos, options, raw);
    let Outcome::Mate { moves: raw_moves } = &raw_report.outcome else {
        return TsumeReport {
            report: raw_report,
            raw_length: None,
            final_alternatives: Vec::new(),
        };
    };
    let raw_length = raw_moves.len() as u16;
    let limits = EvalLimits {
        per_search: None,
        total: options
            .node_limit
            .map(|n| n.saturating_sub(raw_report.nodes)),
        deadline: options.time_limit.map(|t| start + t),
        stop_flag: options.stop_flag.clone(),
    };
    let attacker = pos.side_to_move();
    let (result, nodes) = dfpn::on_search_thread(|| {
        let mut ev = Evaluator::new(raw, no_interposition, attacker, limits);
        let mut root = pos.clone();
        root.clear_history();
        let result = tsume_line(&mut ev, &mut root, raw_length);
        (result, ev.nodes)
    });
    let (outcome, final_alternatives) = match result {
        Ok((moves, alternatives)) => (Outcome::Mate { moves }, alternatives),
        Err(stop) => (Outcome::Unknown(stop), Vec::new()),
    };
    let mate_so_far = match outcome {
        Outcome::Unknown(_) => Some(raw_moves.clone()),
        _ => None,
    };
    TsumeReport {
        report: SolveReport {
            outcome,
            nodes: raw_report.nodes + nodes,
            elapsed: start.elapsed(),
            proofs: raw_report.proofs.clone(),
            mate_so_far,
        },
        raw_length: Some(raw_length),
        final_alternatives,
    }
}

/// The tsume length of `root` (a raw mate of `raw_length` plies), its best-play line and
/// the alternative last moves.
fn tsume_line(
    ev: &mut Evaluator,
    root: &mut Position,
    raw_length: u16,
) -> Result<(Vec<Move>, Vec<Move>), Stop> {
    let length = tsume_length(ev, root, raw_length as i32)?;
    let mut tries = TIE_BREAK_TRIES;
    let line = best_play_line(ev, root, length, &mut tries)?;
    let alternatives = final_alternatives(ev, root, &line)?;
    Ok((line, alternatives))
}

/// The tsume length of the attacker-to-move `pos`, known to be mate within `upper` plies:
/// the least `r` with tsume mate within `r`, searched downwards from `upper`.
pub fn tsume_length(ev: &mut Evaluator, pos: &mut Position, upper: i32) -> Result<i32, Stop> {
    let mut length = upper;
    while length >= 3 && ev.mate_or(pos, length - 2)? {
        if std::env::var_os("TSUME_DEBUG").is_some() {
            eprintln!(
                "tsume mate within {}: nodes {} expanded {}",
                length - 2,
                ev.nodes,
                ev.expanded
            );
        }
        length -= 2;
    }
    if std::env::var_os("TSUME_DEBUG").is_some() {
        eprintln!(
            "tsume length {length}: nodes {} expanded {}",
            ev.nodes, ev.expanded
        );
    }
    Ok(length)
}

/// The defences of the defender-to-move `pos` (of value `v`) that are counted and reach
/// the value: each is mate within `v − 1` but not within `v − 3`.
pub fn longest_defences(ev: &mut Evaluator, pos: &mut Position, v: i32) -> Result<Vec<Move>, Stop> {
    let mut evasions = MoveList::new();
    movegen::generate_evasions(pos, &mut evasions);
    let mut longest = Vec::new();
    for &d in evasions.iter() {
        pos.do_move(d);
        let counted = ev.mate_or(pos, v - 1).and_then(|within| {
            if within {
                ev.mate_or(pos, v - 3).map(|shorter| !shorter)
            } else {
                Ok(false)
            }
        });
        pos.undo_move();
        if counted? {
            longest.push(d);
        }
    }
    Ok(longest)
}

/// A best-play line of value `v` from `pos`: the attacker mates in the fewest plies (on the
/// last move preferring one that keeps pieces in hand), the defender plays a longest
/// counted defence, preferring one after which the attacker ends with no pieces in hand.
/// Useless interpositions are never part of it.
pub fn best_play_line(
    ev: &mut Evaluator,
    pos: &mut Position,
    v: i32,
    tries: &mut u32,
) -> Result<Vec<Move>, Stop> {
    let attacker_to_move = pos.side_to_move() == ev.attacker;
    if attacker_to_move {
        let mut checks = MoveList::new();
        movegen::generate_checks(pos, &mut checks);
        let mut chosen: Option<Move> = None;
        for &m in checks.iter() {
            pos.do_move(m);
            let ok = ev.mate_and(pos, v - 1);
            pos.undo_move();
            if ok? {
                let better = match chosen {
                    None => true,
                    // Last move: keep pieces in hand if some mate allows it.
                    Some(c) => v == 1 && pos.hand_after(m).total() > pos.hand_after(c).total(),
                };
                if better {
                    chosen = Some(m);
                }
                if v > 1 {
                    break;
                }
            }
        }
        let m = chosen.expect("a position of value v has a check mating within v");
        pos.do_move(m);
        let rest = best_play_line(ev, pos, v - 1, tries);
        pos.undo_move();
        let mut line = vec![m];
        line.extend(rest?);
        Ok(line)
    } else {
        let mut evasions = MoveList::new();
        movegen::generate_evasions(pos, &mut evasions);
        if evasions.is_empty() || v == 0 {
            return Ok(Vec::new());
        }
        let candidates = longest_defences(ev, pos, v)?;
        let mut first: Option<Vec<Move>> = None;
        for &d in &candidates {
            if first.is_some() {
                if *tries == 0 {
                    break;
                }
                *tries -= 1;
            }
            pos.do_move(d);
            let rest = best_play_line(ev, pos, v - 1, tries);
            let mut line = vec![d];
            let rest = match rest {
                Ok(r) => r,
                Err(e) => {
                    pos.undo_move();
                    return Err(e);
                }
            };
            line.extend(rest);
            let leftover = hand_after_line(pos, &line[1..], ev.attacker);
            pos.undo_move();
            if leftover == 0 {
                return Ok(line);
            }
            first.get_or_insert(line);
        }
        Ok(first.expect("a defender node of value v has a longest defence"))
    }
}

/// The number of pieces in `attacker`'s hand after playing `line` from `pos`.
fn hand_after_line(pos: &mut Position, line: &[Move], attacker: Color) -> u32 {
    for &m in line {
        pos.do_move(m);
    }
    let n = pos.hand(attacker).total();
    for _ in line {
        pos.undo_move();
    }
    n
}

/// The other attacker moves that mate at the last attacker move of `line` (useless
/// interpositions after them not counting).
pub fn final_alternatives(
    ev: &mut Evaluator,
    root: &mut Position,
    line: &[Move],
) -> Result<Vec<Move>, Stop> {
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
        let mates = ev.mate_and(root, 0);
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
