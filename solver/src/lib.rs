//! The shogi rules core and the df-pn tsume solver of `tsume`, in four rooms:
//!
//! - [`rules`]: [`square`], [`bitboard`], [`attacks`], [`piece`], [`hand`], [`moves`],
//!   [`setup`] (SFEN, unvalidated) → [`position`] (validated, do/undo, Zobrist keys),
//!   [`movegen`] (legal moves, evasions, checks) and [`perft`];
//! - [`formats`]: [`notation`] (Japanese moves), [`kif`], [`csa`], [`usi`];
//! - [`dfpn`]: the df-pn search (shortest mate under the raw rules);
//! - [`tsume`]: the tsume conventions (無駄合, tsume length, best play, `verify`).
//!
//! The [`Solver`] is the one way in to the search. It owns its transposition tables, is
//! reused from one problem to the next, and solves ([`Solver::solve`]) or verifies
//! ([`Solver::verify`]) under one [`Limits`] and one [`Rules`]; [`dfpn`] (the mate search)
//! and [`tsume`] (the tsume conventions on top of it) are its building blocks. Mate lengths
//! and length budgets are [`Plies`].

// The search's public API (`solver`, `dfpn`'s solve types, `tsume`) is documented in full;
// the modules allowed in `rules` and `formats` are yet to be (issue 24).
#![warn(missing_docs)]

pub mod dfpn;
pub mod formats;
pub mod plies;
pub mod rules;
pub mod solver;
pub mod tsume;

// The modules by their short paths (`tsume_solver::position`, `crate::movegen`, …), as
// before they were grouped.
pub use formats::{csa, kif, notation, usi};
pub use rules::{
    attacks, bitboard, color, hand, movegen, moves, perft, piece, position, setup, square, zobrist,
};

pub use bitboard::Bitboard;
pub use color::Color;
pub use dfpn::{Limits, Outcome, SolveReport, Stop, Unsettled};
pub use hand::Hand;
pub use moves::{Move, MoveList};
pub use piece::{Piece, PieceKind};
pub use plies::Plies;
pub use position::{ParsePositionError, Position, PositionError, Validation};
pub use setup::{Setup, SfenError};
pub use solver::{Rules, Solver, SolverError};
pub use square::Square;
