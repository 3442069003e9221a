//! Why a set-up or a move is refused: [`PositionError`], [`ParsePositionError`],
//! [`IllegalMoveError`].

use std::fmt;

use crate::color::Color;
use crate::moves::ParseMoveError;
use crate::piece::{Piece, PieceKind};
use crate::setup::SfenError;
use crate::square::Square;

/// Why a [`Setup`](crate::Setup) is not a legal shogi position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// More pieces of a kind (promoted ones counted with their base kind, hands included)
    /// than a full set has.
    TooManyPieces {
        /// The base kind.
        kind: PieceKind,
        /// How many the setup uses.
        count: u32,
        /// The most allowed: a full set, or what one hand can hold under
        /// [`Validation::AllowExtraPieces`](crate::Validation::AllowExtraPieces).
        max: u8,
    },
    /// Two unpromoted pawns of one colour on one file (二歩).
    Nifu {
        /// The pawns' owner.
        color: Color,
        /// The file, 1–9.
        file: u8,
    },
    /// A pawn or lance on its last rank, or a knight on its last two (行き所のない駒).
    DeadPiece {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// More than one king of a colour.
    TwoKings {
        /// The colour with two kings.
        color: Color,
    },
    /// The side that is not to move is in check (it could be captured).
    OpponentInCheck {
        /// The side in check.
        color: Color,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            TooManyPieces { kind, count, max } => write!(
                f,
                "{count} pieces of kind {} on the board and in hand; a full set has {max}",
                kind.sfen_letter()
            ),
            Nifu { color, file } => {
                write!(f, "two unpromoted {color:?} pawns on file {file} (nifu)")
            }
            DeadPiece { piece, square } => write!(
                f,
                "{} on {square} can never move again (dead piece)",
                piece.to_sfen()
            ),
            TwoKings { color } => write!(f, "more than one {color:?} king"),
            OpponentInCheck { color } => {
                write!(f, "{color:?} is in check but it is not {color:?}'s turn")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// SFEN text that is not a legal position: either its syntax or its content is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// The text is not SFEN.
    Sfen(SfenError),
    /// The SFEN reads, but the position breaks the rules.
    Illegal(PositionError),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::Sfen(e) => write!(f, "malformed SFEN: {e}"),
            ParsePositionError::Illegal(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl From<SfenError> for ParsePositionError {
    fn from(e: SfenError) -> Self {
        ParsePositionError::Sfen(e)
    }
}

impl From<PositionError> for ParsePositionError {
    fn from(e: PositionError) -> Self {
        ParsePositionError::Illegal(e)
    }
}

/// A USI move string that is malformed or not legal in the position
/// ([`Position::parse_move`](crate::Position::parse_move)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMoveError {
    /// Not USI move syntax.
    Malformed(ParseMoveError),
    /// A move, but not a legal one in the position written as `sfen`.
    NotLegal {
        /// The move as given.
        usi: String,
        /// The position.
        sfen: String,
    },
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMoveError::Malformed(e) => write!(f, "{e}"),
            IllegalMoveError::NotLegal { usi, sfen } => {
                write!(f, "{usi} is not a legal move in {sfen}")
            }
        }
    }
}

impl std::error::Error for IllegalMoveError {}
