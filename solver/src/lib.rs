//! The shogi rules core and the df-pn tsume solver of `tsume`.
//!
//! Rules: [`square`], [`bitboard`], [`attacks`], [`piece`], [`hand`], [`moves`],
//! [`setup`] (SFEN, unvalidated) → [`position`] (validated, do/undo, Zobrist keys),
//! [`movegen`] (legal moves, evasions, checks) and [`perft`].

pub mod attacks;
pub mod bitboard;
pub mod color;
pub mod csa;
pub mod dfpn;
pub mod hand;
pub mod kif;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod setup;
pub mod square;
pub mod tsume;
pub mod usi;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use color::Color;
pub use hand::Hand;
pub use moves::{Move, MoveList};
pub use piece::{Piece, PieceKind};
pub use position::{ParsePositionError, Position, PositionError, Validation};
pub use setup::{Setup, SfenError};
pub use square::Square;
