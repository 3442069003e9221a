//! The rules of shogi: squares and bitboards, pieces and hands, moves, [`setup`] (SFEN,
//! unvalidated) → [`position`] (validated, do/undo, [`zobrist`] keys), [`movegen`]
//! (legal moves, evasions, checks) and [`perft`].

pub mod attacks;
pub mod bitboard;
pub mod color;
pub mod hand;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod position;
pub mod setup;
pub mod square;
pub mod zobrist;
