//! Soundness of a tsume problem (rules doc §3): legal set-up, exact length, best play
//! (no 変長), no leftover hand pieces (駒余り), unique (no 余詰), no unnecessary piece
//! (不要駒). Every check is a search under a node budget; a budget exhausted makes the
//! verdict "unproven", never "sound".

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use super::{
    best_play_length, best_play_line, final_alternatives, hand_after_line, line_value, tsume_value,
    Evaluator, Tables, TieBreak,
};
use crate::color::Color;
use crate::dfpn::table::Table;
use crate::dfpn::{self, Limits, Unsettled};
use crate::movegen::{self, CheckInfo};
use crate::moves::{Move, MoveList};
use crate::piece::PieceKind;
use crate::position::Position;
use crate::setup::Setup;
use crate::square::Square;

mod unnecessary;
mod verdict;
pub use unnecessary::without_piece;
pub use verdict::{Flaw, PieceAt, Question, Verdict};

/// What [`Solver::verify`](crate::Solver::verify) checks, and its limits.
#[derive(Clone)]
pub struct VerifyOptions {
    /// `per_search`: nodes per sub-search (the `--budget`; one exhausted makes the verdict
    /// unproven; `None`: unbounded); `threads` and `warm_up_nodes` for each sub-search;
    /// `deadline` and `stop_flag` stop everything (unproven). `node_limit` is not used.
    pub limits: Limits,
    /// Check every piece for 不要駒 (the most expensive part).
    pub check_unnecessary: bool,
    /// Tolerate, at a non-final attacker move, the same move with the other promotion
    /// choice also mating (成生非限定). The rules doc counts it as 余詰 (the default); the
    /// usual convention of problem books calls it a blemish, not a cook. Tolerated twins
    /// are listed in [`Verdict::promotion_choices`].
    pub allow_promotion_choice: bool,
}

impl VerifyOptions {
    /// The default `--budget`: nodes per sub-search.
    pub const BUDGET: u64 = 2_000_000;

    /// The default options with `budget` nodes per sub-search.
    pub fn with_budget(budget: u64) -> VerifyOptions {
        VerifyOptions {
            limits: Limits {
                per_search: Some(budget),
                threads: 1,
                ..Limits::default()
            },
            check_unnecessary: true,
            allow_promotion_choice: false,
        }
    }
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions::with_budget(VerifyOptions::BUDGET)
    }
}

/// Checks the set-up rules of §3.1 that the position type does not already enforce.
fn check_setup(setup: &Setup) -> Result<Position, Flaw> {
    let pos = Position::from_setup(setup).map_err(|e| Flaw::SetUp(e.to_string()))?;
    let defender = !pos.side_to_move();
    if pos.king(defender).is_none() {
        return Err(Flaw::SetUp(
            "the defender has no king (the side to move attacks: is the side field the wrong \
             way round?)"
                .into(),
        ));
    }
    let missing = pos.missing_pieces();
    if !missing.is_empty() {
        return Err(Flaw::SetUp(format!(
            "the defender's hand is not the rest of the set (missing {}: \
             --fill-defender-hand gives it the rest)",
            // In the defender's case, as the SFEN hand the fill would write.
            missing.to_sfen(defender == Color::Black)
        )));
    }
    Ok(pos)
}

/// Verifies one problem, with the claimed solution if given (USI moves), in `tables`
/// (cleared first, so that the verdict does not depend on earlier calls), on a search
/// thread.
pub(crate) fn verify_in(
    setup: &Setup,
    claimed: Option<&[String]>,
    options: &VerifyOptions,
    tables: &mut Tables,
) -> Verdict {
    tables.clear();
    let pos = match check_setup(setup) {
        Ok(p) => p,
        Err(flaw) => {
            return Verdict {
                flaws: vec![flaw],
                ..Verdict::default()
            }
        }
    };
    dfpn::on_search_thread(|| {
        let mut v = Verifier {
            raw: &mut tables.raw,
            lower_bound: &mut tables.lower_bound,
            options,
            nodes: 0,
        };
        let mut verdict = v.verify_position(&pos, claimed);
        verdict.nodes = v.nodes;
        verdict
    })
}

struct Verifier<'a> {
    raw: &'a mut Table,
    lower_bound: &'a mut Table,
    options: &'a VerifyOptions,
    nodes: u64,
}

/// A problem's value and line, or why they are not known.
enum Solved {
    /// The value under the two-ply rule (see [`tsume_value`]).
    Mate {
        value: i32,
    },
    NoMate,
    Unproven(Unsettled),
}

impl Verifier<'_> {
    /// Nodes per sub-search.
    fn budget(&self) -> u64 {
        self.options.limits.per_search.unwrap_or(u64::MAX)
    }

    fn limits(&self) -> Limits {
        self.limits_with(self.budget())
    }

    fn limits_with(&self, budget: u64) -> Limits {
        Limits {
            node_limit: None,
            per_search: Some(budget),
            on_progress: None,
            on_event: None,
            ..self.options.limits.clone()
        }
    }

    /// The tsume value of `pos` (raw search first, then the evaluator).
    fn value(&mut self, pos: &Position) -> Solved {
        let limits = Limits {
            node_limit: Some(self.budget()),
            per_search: None,
            ..self.limits()
        };
        let first = dfpn::first_mate_length(
            pos,
            pos.side_to_move(),
            &limits,
            self.raw,
            Some(self.lower_bound),
        );
        self.nodes += first.nodes;
        let raw_length = match first.length {
            Ok(Some(len)) => len,
            Ok(None) => return Solved::NoMate,
            Err(why) => return Solved::Unproven(why),
        };
        let limits = self.limits();
        let mut ev = Evaluator::new(self.raw, self.lower_bound, pos.side_to_move(), limits);
        let mut root = pos.clone();
        root.clear_history();
        let r = tsume_value(&mut ev, &mut root, raw_length.value());
        self.nodes += ev.nodes;
        match r {
            Ok(value) => Solved::Mate { value },
            Err(why) => Solved::Unproven(why),
        }
    }

    fn verify_position(&mut self, pos: &Position, claimed: Option<&[String]>) -> Verdict {
        let mut verdict = Verdict::default();
        let value = match self.value(pos) {
            Solved::Mate { value } => value,
            Solved::NoMate => {
                verdict.flaws.push(Flaw::NoMate);
                return verdict;
            }
            Solved::Unproven(why) => {
                verdict
                    .flaws
                    .push(Flaw::unproven(Question::MateLength, why));
                return verdict;
            }
        };
        let attacker = pos.side_to_move();
        let limits = self.limits();
        let mut ev = Evaluator::new(self.raw, self.lower_bound, attacker, limits);
        let mut root = pos.clone();
        root.clear_history();

        let mut tie_break = TieBreak::new();
        let Some(line) = line_to_check(
            &mut ev,
            &mut root,
            claimed,
            value,
            &mut verdict,
            &mut tie_break,
        ) else {
            self.nodes += ev.nodes;
            return verdict;
        };
        verdict.solution = line.clone();

        let allow_twins = self.options.allow_promotion_choice;
        let flaws = line_flaws(
            &mut ev,
            &mut root,
            &line,
            claimed.is_some(),
            &tie_break,
            allow_twins,
            &mut verdict,
        );
        self.nodes += ev.nodes;
        verdict.flaws.extend(flaws);

        if self.options.check_unnecessary && verdict.flaws.is_empty() {
            let flaws = self.unnecessary_pieces(pos, value);
            verdict.flaws.extend(flaws);
        }
        verdict
    }
}

/// The line to check: the claimed one (replayed, with its length checked against the best
/// play's), or the best-play line (`value` the problem's). A line of value `v` is `v` plies
/// long, or `v + 2` when it ends with pieces left over. `None`, with the flaw in `verdict`,
/// when there is no line to check.
fn line_to_check(
    ev: &mut Evaluator,
    root: &mut Position,
    claimed: Option<&[String]>,
    value: i32,
    verdict: &mut Verdict,
    tie_break: &mut TieBreak,
) -> Option<Vec<Move>> {
    let attacker = ev.attacker;
    let line = match claimed {
        Some(moves) => match replay_claimed(ev, root, moves) {
            Ok(line) => {
                // A line of the best value without pieces left over is as long as any
                // best-play line; otherwise the best-play line's length decides.
                let best = if line_value(root, &line, attacker) == line.len() as i32
                    && line.len() == value as usize
                {
                    Ok(line.len())
                } else {
                    best_play_length(ev, root, value).map(usize::from)
                };
                match best {
                    Ok(best) => {
                        verdict.length = Some(best);
                        if best != line.len() {
                            verdict.flaws.push(Flaw::Length {
                                best,
                                claimed: line.len(),
                            });
                        }
                    }
                    Err(why) => verdict
                        .flaws
                        .push(Flaw::unproven(Question::SolutionLine, why)),
                }
                line
            }
            Err(flaw) => {
                verdict.flaws.push(flaw);
                return None;
            }
        },
        None => match best_play_line(ev, root, value, tie_break) {
            Ok(line) => {
                verdict.length = Some(line.len());
                line
            }
            Err(why) => {
                verdict
                    .flaws
                    .push(Flaw::unproven(Question::SolutionLine, why));
                return None;
            }
        },
    };
    Some(line)
}

/// The flaws of the problem along its `line` (`claimed`: the line is the claimed one):
/// 変長, 駒余り, 余詰 (promotion twins tolerated with `allow_twins`); the final
/// alternatives and the tolerated twins go into `verdict`.
fn line_flaws(
    ev: &mut Evaluator,
    root: &mut Position,
    line: &[Move],
    claimed: bool,
    tie_break: &TieBreak,
    allow_twins: bool,
    verdict: &mut Verdict,
) -> Vec<Flaw> {
    let attacker = ev.attacker;
    let mut flaws = Vec::new();
    let outcome = (|| -> Result<(), Unsettled> {
        if claimed {
            if let Some(ply) = longer_defence(ev, root, line)? {
                flaws.push(Flaw::LongerDefence { ply });
            }
        }
        let end_hand = hand_after_line(root, line, attacker);
        if !end_hand.is_empty() {
            flaws.push(if tie_break.cut_short() {
                // An untried equally long defence may leave no pieces.
                Flaw::Unproven {
                    question: Question::Leftover,
                    why: Unsettled::CutShort,
                }
            } else {
                Flaw::Leftover(end_hand)
            });
        }
        Ok(())
    })();
    if let Err(why) = outcome {
        flaws.push(Flaw::unproven(Question::LongerDefence, why));
    }
    match second_solution(ev, root, line, allow_twins) {
        Ok(others) => {
            if let Some(flaw) = others.cook {
                flaws.push(flaw);
            }
            verdict.promotion_choices = others.tolerated;
        }
        Err(why) => flaws.push(Flaw::unproven(Question::SecondSolution, why)),
    }
    match final_alternatives(ev, root, line) {
        Ok(alternatives) => verdict.final_alternatives = alternatives,
        Err(why) => flaws.push(Flaw::unproven(Question::FinalAlternatives, why)),
    }
    flaws
}

/// Replays the claimed USI moves: each legal, every attacker move a check, and the last
/// position mated (useless interpositions aside).
fn replay_claimed(
    ev: &mut Evaluator,
    root: &Position,
    moves: &[String],
) -> Result<Vec<Move>, Flaw> {
    let mut pos = root.clone();
    let mut line = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let m = pos.parse_move(text).map_err(|e| Flaw::BadSolution {
            ply,
            // A line that goes on after its mate is named so, not by the illegal move.
            reason: if i > 0 && pos.is_checkmate() {
                format!(
                    "the position is already mate after ply {i}, and the solution goes on \
                     with {text}"
                )
            } else {
                e.to_string()
            },
        })?;
        if pos.side_to_move() == ev.attacker && !CheckInfo::new(&pos).gives_check(&pos, m) {
            return Err(Flaw::BadSolution {
                ply,
                reason: format!("{text} is not a check"),
            });
        }
        pos.do_move(m);
        line.push(m);
    }
    let bad_end = |reason: &str| Flaw::BadSolution {
        ply: moves.len(),
        reason: reason.to_string(),
    };
    if line.len() % 2 == 0 {
        return Err(bad_end("the solution must end with an attacker move"));
    }
    match ev.ends_line(&mut pos) {
        Ok(true) => Ok(line),
        Ok(false) => Err(bad_end("the last position is not mate")),
        Err(why) => Err(Flaw::unproven(Question::EndOfSolution, why)),
    }
}

/// The defender ply of `line` where it stops being best play: the last defender ply whose
/// node is not mate within what the line leaves (there the longer defence branches off;
/// every ply before it fails too). Values under the two-ply rule: a line that ends with
/// pieces left over counts 2 plies shorter, so a defence exactly 2 plies longer that ends
/// with pieces left over is no 変長.
fn longer_defence(
    ev: &mut Evaluator,
    root: &mut Position,
    line: &[Move],
) -> Result<Option<usize>, Unsettled> {
    let value = line_value(root, line, ev.attacker);
    let mut found = None;
    let mut played = 0;
    let mut result = Ok(());
    for (i, &m) in line.iter().enumerate() {
        if root.side_to_move() != ev.attacker {
            let remaining = value - i as i32;
            match ev.mate_and(root, remaining) {
                Ok(true) => {}
                Ok(false) => found = Some(i + 1),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        root.do_move(m);
        played += 1;
    }
    for _ in 0..played {
        root.undo_move();
    }
    result.map(|()| found)
}

/// The 余詰 and 不要駒 checks are decided in rounds, each check getting 1/64, then 1/8,
/// then all of the budget (measured on shtsume_tsume50: 1/512 first adds nothing).
const ROUND_SHARES: [u64; 3] = [64, 8, 1];

/// The per-search budgets of the rounds for a full `budget`, each with whether it is the
/// last round (where running out is final).
fn round_budgets(budget: u64) -> impl Iterator<Item = (u64, bool)> {
    ROUND_SHARES
        .iter()
        .enumerate()
        .map(move |(i, &share)| ((budget / share).max(1), i + 1 == ROUND_SHARES.len()))
}

/// Other mating checks along a solution: the first cook, and the promotion twins tolerated
/// before it.
struct OtherMates {
    cook: Option<Flaw>,
    tolerated: Vec<(usize, Move)>,
}

/// Whether `other` is `m` with the other promotion choice.
fn is_promotion_twin(m: Move, other: Move) -> bool {
    !m.is_drop() && other != m && other.without_promotion() == m.without_promotion()
}

/// The first attacker ply of `line`, the last excepted, where another check also mates (at
/// any length). With `allow_twins`, a mating twin of the solution's move (other promotion
/// choice) is recorded as tolerated instead. A check whose search runs out of budget does
/// not stop the others: one proven second mate is a flaw whatever the rest; only if none
/// is found does an exhausted search make the answer unknown.
///
/// The checks are decided in rounds of growing budgets ([`ROUND_SHARES`]), the undecided
/// ones again in the next. One hard check searched first would otherwise leave the table
/// full of its unfinished work, and that can make the easy ones after it hard (in one
/// problem of shtsume_tsume50, a check refuted in 0.55 M nodes in a fresh table was not
/// refuted in 100 M after two hard ones).
fn second_solution(
    ev: &mut Evaluator,
    root: &mut Position,
    line: &[Move],
    allow_twins: bool,
) -> Result<OtherMates, Unsettled> {
    // (ply, the other check, the solution's move there)
    let mut pending: Vec<(usize, Move, Move)> = Vec::new();
    let mut played = 0;
    for (i, &m) in line.iter().enumerate() {
        if i + 1 < line.len() && root.side_to_move() == ev.attacker {
            let mut checks = MoveList::new();
            movegen::generate_checks(root, &mut checks);
            pending.extend(checks.iter().filter(|&&c| c != m).map(|&c| (i + 1, c, m)));
        }
        root.do_move(m);
        played += 1;
    }
    for _ in 0..played {
        root.undo_move();
    }

    let mut others = OtherMates {
        cook: None,
        tolerated: Vec::new(),
    };
    let mut undecided = None;
    let full = ev.limits.per_search;
    for (budget, last) in round_budgets(full.unwrap_or(u64::MAX)) {
        ev.limits.per_search = Some(budget);
        // A cook at an earlier ply (or this one) is already proven: not searched again.
        let cook_ply = others.cook.as_ref().and_then(Flaw::ply);
        pending.retain(|&(ply, _, _)| cook_ply.is_none_or(|p| p > ply));
        let results = mates_side_by_side(ev, root, line, &pending, allow_twins);
        let mut left = Vec::new();
        // In the order of the line, as if one after the other: the checks are in the order
        // of their plies, so everything after the first cook is left (and was skipped).
        for (&(ply, other, m), result) in pending.iter().zip(results) {
            if others.cook.is_some() {
                break;
            }
            match result.expect("searched: no cook before it") {
                Ok(true) => {
                    let promotion_choice = is_promotion_twin(m, other);
                    if allow_twins && promotion_choice {
                        others.tolerated.push((ply, other));
                    } else {
                        others.cook = Some(Flaw::SecondSolution {
                            ply,
                            mv: other,
                            promotion_choice,
                        });
                    }
                }
                Ok(false) => {}
                Err(why) if !last && why.may_settle_with_more_nodes() => left.push((ply, other, m)),
                Err(e) => {
                    undecided.get_or_insert(e);
                }
            }
        }
        pending = left;
        if pending.is_empty() {
            break;
        }
    }
    ev.limits.per_search = full;
    others.tolerated.sort_by_key(|&(ply, _)| ply);
    if let Some(cook_ply) = others.cook.as_ref().and_then(Flaw::ply) {
        others.tolerated.retain(|&(ply, _)| ply < cook_ply);
    }
    match (&others.cook, undecided) {
        (None, Some(e)) => Err(e),
        _ => Ok(others),
    }
}

/// Whether each of the `checks` (ply, the other check, the solution's move there) along
/// `line` mates at all (in the raw game, within `ev`'s limits), searched side by side with
/// `ev`'s threads (each search alone when there are at least as many checks as threads).
/// `None` for a check not searched because one earlier in the list is already a cook (a
/// mating check that is not a tolerated promotion twin): the caller stops at that one.
fn mates_side_by_side(
    ev: &mut Evaluator,
    root: &Position,
    line: &[Move],
    checks: &[(usize, Move, Move)],
    allow_twins: bool,
) -> Vec<Option<Result<bool, Unsettled>>> {
    let threads = ev.limits.threads.max(1);
    let per_search = (threads / checks.len().max(1)).max(1);
    // The index of the first cook found so far.
    let first_cook = AtomicUsize::new(usize::MAX);
    let forks = &*ev;
    let results = crate::dfpn::side_by_side(threads, checks, |i, &(ply, other, m)| {
        if first_cook.load(Relaxed) < i {
            return (None, 0);
        }
        let mut pos = root.clone();
        for &mv in &line[..ply - 1] {
            pos.do_move(mv);
        }
        pos.do_move(other);
        let mut fork = forks.fork(per_search);
        let result = fork.raw_mate_exists(&pos);
        if result == Ok(true) && !(allow_twins && is_promotion_twin(m, other)) {
            first_cook.fetch_min(i, Relaxed);
        }
        (Some(result), fork.nodes)
    });
    ev.nodes += results.iter().map(|&(_, n)| n).sum::<u64>();
    results.into_iter().map(|(r, _)| r).collect()
}
