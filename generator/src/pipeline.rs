//! The soundness pipeline for one candidate, cheap checks first: legal set-up → quick
//! mate screen under a node budget → tsume length in the wanted range → `tsume verify`
//! (exact length, 変長, 駒余り, 余詰, 不要駒) → unnecessary pieces moved to the defender's
//! hand one at a time, everything re-verified, until every piece is needed. Any budget
//! exhausted rejects the candidate. The verification is the solver's own
//! `tsume::verify`: one implementation for the generator and `tsume verify`.

use std::cell::RefCell;
use std::collections::HashSet;
use std::time::{Duration, Instant};

use tsume_solver::dfpn::Outcome;
use tsume_solver::tsume::verify::{without_piece, Flaw, PieceAt, Verdict, VerifyOptions};
use tsume_solver::{Color, Hand, Limits, Move, Plies, Position, Rules, Setup, Solver};

/// Settings of the pipeline.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Wanted tsume lengths (inclusive).
    pub min_length: usize,
    pub max_length: usize,
    /// Nodes per sub-search in verification.
    pub budget: u64,
    /// Nodes for the quick mate screen.
    pub screen_budget: u64,
    /// Table size per search in MiB.
    pub hash_mb: usize,
    /// Lengths whose quota is already met (rejected at the screen).
    pub full_lengths: HashSet<usize>,
}

/// Where a candidate left the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    Illegal,
    NoQuickMate,
    Length,
    Flawed(&'static str),
    Unproven,
    /// The quick solution repeats one of the pack's (checked again after verification).
    Duplicate,
    Accepted,
}

impl Stage {
    pub fn name(&self) -> String {
        match self {
            Stage::Illegal => "illegal".into(),
            Stage::NoQuickMate => "no-quick-mate".into(),
            Stage::Length => "length".into(),
            Stage::Flawed(code) => format!("flawed:{code}"),
            Stage::Unproven => "unproven".into(),
            Stage::Duplicate => "duplicate".into(),
            Stage::Accepted => "accepted".into(),
        }
    }
}

/// A sound problem the pipeline accepted.
#[derive(Clone, Debug)]
pub struct Found {
    pub setup: Setup,
    pub verdict: Verdict,
    /// Nodes the solver needed for the problem (the difficulty measure).
    pub solve_nodes: u64,
}

/// Time spent per stage (screen, verify) for the throughput benchmark.
#[derive(Clone, Copy, Debug, Default)]
pub struct StageTimes {
    pub screen: Duration,
    pub verify: Duration,
}

thread_local! {
    /// The worker's solver (see [`evaluate`]).
    static SOLVER: RefCell<Option<Solver>> = const { RefCell::new(None) };
}

/// The tsume length of `pos` and the solver's node count, within `budget` nodes.
fn quick_length(
    pos: &Position,
    budget: u64,
    solver: &mut Solver,
) -> Option<(usize, u64, Vec<Move>)> {
    let limits = Limits {
        node_limit: Some(budget),
        ..Limits::default()
    };
    let report = solver.solve(pos, &limits, Rules::Tsume);
    match report.outcome {
        Outcome::Mate { moves } => Some((moves.len(), report.nodes, moves)),
        _ => None,
    }
}

/// Runs the pipeline on one candidate. `known` holds the solution skeletons already in the
/// pack: a candidate whose quick solution has one of them is dropped before the (costly)
/// verification, as it would most likely end as a duplicate.
pub fn evaluate(
    setup: &Setup,
    settings: &Settings,
    known: &HashSet<String>,
) -> (Result<Found, Stage>, StageTimes) {
    // The worker's solver, kept for every candidate (its tables are cleared before every
    // search, in constant time, so that no verdict depends on the candidates before):
    // zeroing new tables for every candidate was 6–9 % of the generator's time.
    SOLVER.with_borrow_mut(|slot| {
        let solver = match slot {
            Some(solver) if solver.hash_mb() == settings.hash_mb => solver,
            _ => slot.insert(Solver::new(settings.hash_mb)),
        };
        evaluate_in(setup, settings, known, solver)
    })
}

fn evaluate_in(
    setup: &Setup,
    settings: &Settings,
    known: &HashSet<String>,
    solver: &mut Solver,
) -> (Result<Found, Stage>, StageTimes) {
    let mut times = StageTimes::default();
    let Ok(pos) = Position::from_setup(setup) else {
        return (Err(Stage::Illegal), times);
    };
    if pos.side_to_move() != Color::Black || pos.king(Color::White).is_none() {
        return (Err(Stage::Illegal), times);
    }
    let t = Instant::now();
    // The lower-bound game (`Defences::Tsume`), a bounded search, cheap to disprove, must
    // find a mate within the longest length wanted.
    let max_length = Plies::try_from(settings.max_length).expect("lengths are at most 99");
    if !solver.may_mate_within(&pos, max_length, settings.screen_budget / 4) {
        times.screen = t.elapsed();
        return (Err(Stage::NoQuickMate), times);
    }
    // Minimisation keeps the length (an unnecessary piece is one without which the problem
    // is sound with the same length), so the screen's length is final.
    let screened = quick_length(&pos, settings.screen_budget, solver);
    times.screen = t.elapsed();
    match screened {
        None => return (Err(Stage::NoQuickMate), times),
        Some((len, _, _))
            if len < settings.min_length
                || len > settings.max_length
                || settings.full_lengths.contains(&len) =>
        {
            return (Err(Stage::Length), times)
        }
        Some((_, _, moves)) => {
            if known.contains(&crate::identity::skeleton(&pos, &moves)) {
                return (Err(Stage::Duplicate), times);
            }
        }
    }
    let t = Instant::now();
    let result = minimise(setup.clone(), settings, solver);
    times.verify = t.elapsed();
    (result, times)
}

/// `setup` with the pieces `leftover` at the end of its solution moved from the attacker's
/// hand to the defender's; `None` when the attacker did not hold them all at the start (a
/// piece captured on the way and never used is part of the solution, not of the set-up).
fn give_leftovers(setup: &Setup, leftover: Hand) -> Option<Setup> {
    let attacker = setup.side_to_move.index();
    if leftover
        .kinds()
        .any(|k| u32::from(setup.hands[attacker][k.index()]) < leftover.count(k))
    {
        return None;
    }
    let mut setup = setup.clone();
    for kind in leftover.kinds() {
        for _ in 0..leftover.count(kind) {
            setup = without_piece(&setup, PieceAt::Hand(kind));
        }
    }
    Some(setup)
}

/// Verifies `setup`, taking out unnecessary pieces one at a time (re-verifying everything
/// each time) until it is sound or flawed.
fn minimise(mut setup: Setup, settings: &Settings, solver: &mut Solver) -> Result<Found, Stage> {
    // Every piece checked; generated problems have one solution, promotion choices
    // included (rules doc); the generator's threads each work on candidates of their own.
    let options = VerifyOptions::with_budget(settings.budget);
    for _ in 0..16 {
        let verdict = solver.verify(&setup, None, &options);
        if verdict.is_sound() {
            let length = verdict.length.unwrap_or(0);
            if length < settings.min_length || length > settings.max_length {
                return Err(Stage::Length);
            }
            let pos = Position::from_setup(&setup).map_err(|_| Stage::Illegal)?;
            let (_, nodes, _) =
                quick_length(&pos, settings.budget, solver).ok_or(Stage::Unproven)?;
            return Ok(Found {
                setup,
                verdict,
                solve_nodes: nodes,
            });
        }
        let unnecessary = verdict.flaws.iter().find_map(|f| match f {
            Flaw::Unnecessary(p) => Some(*p),
            _ => None,
        });
        let only_unnecessary = verdict
            .flaws
            .iter()
            .all(|f| matches!(f, Flaw::Unnecessary(_)));
        match (unnecessary, verdict.flaws.as_slice()) {
            (Some(piece), _) if only_unnecessary => setup = without_piece(&setup, piece),
            // Pieces left over: the mate did not need them; give them to the defender and
            // try again (the defender may now use them, so everything is re-verified).
            (_, [Flaw::Leftover(hand)]) => match give_leftovers(&setup, *hand) {
                Some(s) => setup = s,
                None => return Err(Stage::Flawed(verdict.flaws[0].code())),
            },
            _ => {
                let first = &verdict.flaws[0];
                return Err(match first {
                    Flaw::Unproven { .. } => Stage::Unproven,
                    f => Stage::Flawed(f.code()),
                });
            }
        }
    }
    Err(Stage::Flawed("unnecessary-piece"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsume_solver::piece::PieceKind::{Pawn, Silver};

    #[test]
    fn leftovers_held_from_the_start_go_to_the_defender() {
        let setup = Setup::from_sfen("8k/9/8P/9/9/9/9/9/9 b S2P 1").unwrap();
        let given = give_leftovers(&setup, Hand::EMPTY.add(Pawn).add(Silver)).unwrap();
        assert_eq!(given.hands[Color::Black.index()][Pawn.index()], 1);
        assert_eq!(given.hands[Color::Black.index()][Silver.index()], 0);
        assert_eq!(
            given.hands[Color::White.index()][Pawn.index()],
            setup.hands[Color::White.index()][Pawn.index()] + 1
        );
    }

    #[test]
    fn a_leftover_captured_on_the_way_is_not_in_the_set_up() {
        // The attacker holds one pawn; a second one left over was captured in the solution.
        let setup = Setup::from_sfen("8k/9/8P/9/9/9/9/9/9 b P 1").unwrap();
        assert!(give_leftovers(&setup, Hand::EMPTY.add(Pawn).add(Pawn)).is_none());
        let empty = Setup::from_sfen("8k/9/8P/9/9/9/9/9/9 b - 1").unwrap();
        assert!(give_leftovers(&empty, Hand::EMPTY.add(Pawn)).is_none());
    }
}
