//! The rules of shogi: squares and bitboards, pieces and hands, moves, [`setup`] (SFEN,
//! unvalidated) → [`position`] (validated, do/undo, [`zobrist`] keys), [`movegen`]
//! (legal moves, evasions, checks) and [`perft`].

#[allow(missing_docs)]
pub mod attacks;
#[allow(missing_docs)]
pub mod bitboard;
pub mod color;
#[allow(missing_docs)]
pub mod hand;
pub mod movegen;
#[allow(missing_docs)]
pub mod moves;
pub mod perft;
#[allow(missing_docs)]
pub mod piece;
#[allow(missing_docs)]
pub mod position;
#[allow(missing_docs)]
pub mod setup;
pub mod square;
pub mod zobrist;
