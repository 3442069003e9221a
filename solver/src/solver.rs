//! The front door: a [`Solver`] owns its transposition tables and is reused from one
//! problem to the next; every solve, verification and screen goes through it, with one
//! [`Limits`] and one [`Rules`].
//!
//! The search recurses once per ply, and problems run to well over a thousand plies: the
//! solver runs each search on a thread of its own with a deep stack, whatever thread calls
//! it, so callers need not care about stack sizes.

use std::fmt;
use std::str::FromStr;

use crate::color::Color;
use crate::dfpn::search::{Defences, Search};
use crate::dfpn::table::{Kind, Table, TableAllocError};
use crate::dfpn::{self, Limits, SearchThreadError, SolveReport, Unsettled};
use crate::moves::Move;
use crate::plies::Plies;
use crate::position::Position;
use crate::setup::Setup;
use crate::tsume::verify::{self, Verdict, VerifyOptions};
use crate::tsume::{self, DefenderPly, Tables};

/// Which length convention a solve uses (`tsume solve --rules`, the USI `Rules` option,
/// the JSON `"rules"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Rules {
    /// Useless interpositions (無駄合) neither count nor appear (docs/rules.md §2).
    Tsume,
    /// Every legal defence counts, useless interpositions included (KomoringHeights style).
    Raw,
}

impl Rules {
    /// The name used on the command line, in USI and in JSON: `tsume` or `raw`.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Tsume => "tsume",
            Rules::Raw => "raw",
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rules name that is neither `tsume` nor `raw`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRulesError(pub String);

impl fmt::Display for ParseRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rules {:?} (tsume or raw)", self.0)
    }
}

impl std::error::Error for ParseRulesError {}

impl FromStr for Rules {
    type Err = ParseRulesError;

    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        match s {
            "tsume" => Ok(Rules::Tsume),
            "raw" => Ok(Rules::Raw),
            _ => Err(ParseRulesError(s.to_string())),
        }
    }
}

/// Why a [`Solver`] could not be made ready.
#[derive(Debug)]
pub enum SolverError {
    /// The tables cannot be allocated.
    Tables(TableAllocError),
    /// The search thread cannot be started.
    Thread(SearchThreadError),
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverError::Tables(e) => e.fmt(f),
            SolverError::Thread(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SolverError {}

impl From<TableAllocError> for SolverError {
    fn from(e: TableAllocError) -> SolverError {
        SolverError::Tables(e)
    }
}

/// The tables of one rules: one table for the raw game, or the two of a tsume solve (the
/// raw game's and the lower-bound game's, `hash_mb` split between them).
enum Kept {
    Raw(Table),
    Tsume(Tables),
}

/// The size of the quick screen's table ([`Solver::may_mate_within`]) in MiB: the screen is
/// a short bounded search.
const SCREEN_HASH_MB: usize = 1;

/// A mate solver that owns its transposition tables and is reused: make one per thread
/// that solves (the USI engine keeps one; `tsume verify` and the generator one per worker)
/// and call it for every problem. Each solve or verification clears the tables first (in
/// constant time), so no answer depends on the problems before; the tables are made once
/// (zeroing a large table for every problem would cost more than many searches).
///
/// Solve a position from Rust:
///
/// ```
/// use tsume_solver::dfpn::Outcome;
/// use tsume_solver::{Limits, Position, Rules, Solver};
///
/// // Black: a gold in hand, a pawn on 1c; White: the king on 1a, the rest in hand.
/// let pos: Position = "8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
/// let mut solver = Solver::new(16);
/// let report = solver.solve(&pos, &Limits::default(), Rules::Tsume);
/// let Outcome::Mate { moves } = &report.outcome else { panic!("a mate") };
/// assert_eq!(moves.len(), 1);
/// assert_eq!(moves[0].to_string(), "G*1b");
/// ```
///
/// Verify a problem and its claimed solution:
///
/// ```
/// use tsume_solver::tsume::verify::VerifyOptions;
/// use tsume_solver::{Setup, Solver};
///
/// let setup: Setup = "8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1".parse().unwrap();
/// let claimed = vec!["G*1b".to_string()];
/// let verdict = Solver::new(16).verify(&setup, Some(&claimed), &VerifyOptions::default());
/// assert!(verdict.is_sound(), "{:?}", verdict.flaws);
/// assert_eq!(verdict.length, Some(1));
/// ```
pub struct Solver {
    hash_mb: usize,
    tables: Option<Kept>,
    screen: Option<Table>,
    /// The attacker of the last tsume solve, whose results the tables still hold
    /// ([`Solver::variations`] goes on from them).
    last_tsume_attacker: Option<Color>,
}

impl Solver {
    /// A solver with `hash_mb` MiB of tables, made on first use (see [`Solver::try_new`] to
    /// make them now, fallibly).
    pub fn new(hash_mb: usize) -> Solver {
        Solver {
            hash_mb,
            tables: None,
            screen: None,
            last_tsume_attacker: None,
        }
    }

    /// A solver with its tables for `rules` made now, and a search thread known to start:
    /// an error, not a panic later, when the machine cannot give either (a `--hash` too
    /// large, an address-space limit).
    pub fn try_new(hash_mb: usize, rules: Rules) -> Result<Solver, SolverError> {
        let mut solver = Solver::new(hash_mb);
        solver.prepare(rules)?;
        dfpn::try_on_search_thread(|| ()).map_err(SolverError::Thread)?;
        Ok(solver)
    }

    /// The size of the tables in MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The rules whose tables the solver holds now (`None` before the first use).
    pub fn rules(&self) -> Option<Rules> {
        match self.tables {
            Some(Kept::Raw(_)) => Some(Rules::Raw),
            Some(Kept::Tsume(_)) => Some(Rules::Tsume),
            None => None,
        }
    }

    /// Makes the tables for `rules` now unless they are there (the other rules' tables
    /// go first: never both in memory).
    pub fn prepare(&mut self, rules: Rules) -> Result<(), TableAllocError> {
        if self.rules() == Some(rules) {
            return Ok(());
        }
        self.tables = None;
        self.last_tsume_attacker = None;
        self.tables = Some(match rules {
            Rules::Raw => Kept::Raw(Table::try_new(self.hash_mb)?),
            Rules::Tsume => Kept::Tsume(Tables::try_new(self.hash_mb)?),
        });
        Ok(())
    }

    fn raw_table(&mut self) -> &mut Table {
        self.prepare(Rules::Raw).unwrap_or_else(|e| panic!("{e}"));
        match &mut self.tables {
            Some(Kept::Raw(table)) => table,
            _ => unreachable!("just prepared"),
        }
    }

    fn tsume_tables(&mut self) -> &mut Tables {
        self.prepare(Rules::Tsume).unwrap_or_else(|e| panic!("{e}"));
        match &mut self.tables {
            Some(Kept::Tsume(tables)) => tables,
            _ => unreachable!("just prepared"),
        }
    }

    /// Solves `pos`, the side to move attacking: the shortest mate under `rules` with a
    /// best-play line (the attacker mates in the fewest plies, the defender defends the
    /// longest), no mate, or the limit that stopped the search with the best mate found
    /// so far. Under tsume rules the report also lists the other mating last moves.
    pub fn solve(&mut self, pos: &Position, limits: &Limits, rules: Rules) -> SolveReport {
        self.solve_for(pos, pos.side_to_move(), limits, rules)
    }

    /// Solves `pos` with the *defender* to move (in check; the attacker is the other side):
    /// the defender's node of a problem, as a GUI stepping through a solution asks for it
    /// (see [`crate::usi::root`]).
    ///
    /// [`Outcome::Mate`](dfpn::Outcome::Mate)'s line starts with the defender's move, a
    /// longest defence (under tsume rules never a useless interposition), and goes on with
    /// best play to mate; its length (and every improvement's) counts the plies from the
    /// defender's move. [`Outcome::NoMate`](dfpn::Outcome::NoMate) when some defence
    /// escapes. Under tsume rules, where every defence is a useless interposition the
    /// defender's node already counts as mated: the line is then empty.
    pub fn solve_defence(&mut self, pos: &Position, limits: &Limits, rules: Rules) -> SolveReport {
        self.solve_for(pos, !pos.side_to_move(), limits, rules)
    }

    fn solve_for(
        &mut self,
        pos: &Position,
        attacker: Color,
        limits: &Limits,
        rules: Rules,
    ) -> SolveReport {
        match rules {
            Rules::Raw => dfpn::solve_in(pos, attacker, limits, self.raw_table()),
            Rules::Tsume => {
                let report = tsume::solve_in(pos, attacker, limits, self.tsume_tables());
                self.last_tsume_attacker = Some(attacker);
                report
            }
        }
    }

    /// The defender's alternatives, with their values, at each defender ply of `line` (a
    /// best-play line of `pos` under tsume rules, the side to move attacking).
    ///
    /// After [`Solver::solve`] of the same position, this goes on from what the solve left
    /// in the tables, and with the same `limits` it shares the solve's deadline: a time
    /// limit holds for the two together.
    pub fn variations(
        &mut self,
        pos: &Position,
        line: &[Move],
        limits: &Limits,
    ) -> Result<Vec<DefenderPly>, Unsettled> {
        let attacker = pos.side_to_move();
        let same_game =
            self.rules() == Some(Rules::Tsume) && self.last_tsume_attacker == Some(attacker);
        let tables = self.tsume_tables();
        if !same_game {
            tables.clear();
        }
        tsume::variations_in(pos, line, limits, tables)
    }

    /// Verifies one problem (`docs/rules.md` §3), with the claimed solution if given (USI
    /// moves): legal set-up, exact length, best play, no 駒余り, no 余詰, no 不要駒.
    pub fn verify(
        &mut self,
        setup: &Setup,
        claimed: Option<&[String]>,
        options: &VerifyOptions,
    ) -> Verdict {
        let verdict = verify::verify_in(setup, claimed, options, self.tsume_tables());
        self.last_tsume_attacker = None;
        verdict
    }

    /// A quick necessary test for a tsume mate within `max_length` plies of `pos` (the side
    /// to move attacking): whether the lower-bound game (useless interpositions excused)
    /// finds a mate within it in at most `nodes` nodes. `false` is not a proof of no mate
    /// (the nodes may run out), but a tsume mate within `max_length` is always a mate of
    /// the lower-bound game. In a small table of its own, on the calling thread (the
    /// search is at most `max_length` plies deep).
    pub fn may_mate_within(&mut self, pos: &Position, max_length: Plies, nodes: u64) -> bool {
        let table = self
            .screen
            .get_or_insert_with(|| Table::new(SCREEN_HASH_MB));
        table.clear();
        let limits = Limits {
            node_limit: Some(nodes),
            ..Limits::default()
        };
        let mut search = Search::with_rules(
            table,
            pos.clone(),
            pos.side_to_move(),
            limits,
            Defences::Tsume,
        );
        search.solve_current(max_length).kind() == Kind::Proven
    }
}
