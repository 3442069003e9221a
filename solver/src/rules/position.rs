//! A validated position: board, hands, side to move, with incremental Zobrist keys and
//! do/undo.

use std::fmt;
use std::str::FromStr;

use crate::attacks::{self, between};
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::hand::Hand;
use crate::moves::Move;
use crate::piece::{Piece, PieceKind};
use crate::setup::Setup;
use crate::square::Square;
use crate::zobrist;

use PieceKind::*;

mod error;
pub use error::{IllegalMoveError, ParsePositionError, PositionError};

/// How strictly [`Position::from_setup_with`] checks piece counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validation {
    /// At most a full set of each kind (the rules doc).
    Strict,
    /// More pieces than a full set are accepted as long as all of a kind fit one hand; some
    /// published perft positions have three bishops. Never used for problems.
    AllowExtraPieces,
}

fn setup_hand(setup: &Setup, color: Color) -> Hand {
    let mut h = Hand::EMPTY;
    for kind in PieceKind::HAND {
        h = h.with_count(kind, setup.hands[color.index()][kind.index()] as u32);
    }
    h
}

/// Piece counts, promoted pieces with their base kind, hands included. Kings are counted
/// per side by [`check_placement`] (a third king is a second one of some side, and that
/// is the clearer message).
fn check_piece_counts(setup: &Setup, validation: Validation) -> Result<(), PositionError> {
    for kind in [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook] {
        let count = setup.count(kind);
        let max = match validation {
            // What a hand field can hold; board counts beyond it cannot reach a hand.
            Validation::AllowExtraPieces => Hand::capacity(kind),
            _ => kind.full_set_count(),
        };
        if count > max as u32 {
            return Err(PositionError::TooManyPieces { kind, count, max });
        }
    }
    Ok(())
}

/// Kings, dead pieces and nifu, in that order (the first one found is reported).
fn check_placement(setup: &Setup) -> Result<(), PositionError> {
    for color in Color::ALL {
        let kings = setup
            .board
            .iter()
            .flatten()
            .filter(|p| p.kind == King && p.color == color)
            .count();
        if kings > 1 {
            return Err(PositionError::TwoKings { color });
        }
    }
    for sq in Square::all() {
        if let Some(p) = setup.piece_at(sq) {
            if p.kind.is_dead_on(sq.relative_rank(p.color)) {
                return Err(PositionError::DeadPiece {
                    piece: p,
                    square: sq,
                });
            }
        }
    }
    for color in Color::ALL {
        for file in 0..9u8 {
            let pawns = (0..9u8)
                .filter(|&r| setup.piece_at(Square::new(file, r)) == Some(Piece::new(color, Pawn)))
                .count();
            if pawns > 1 {
                return Err(PositionError::Nifu {
                    color,
                    file: file + 1,
                });
            }
        }
    }
    Ok(())
}

/// What `undo_move` needs to restore, pushed by `do_move`.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    board_key: u64,
    checkers: Bitboard,
}

/// A legal position: the board (with bitboards by colour and kind), both hands, the side to
/// move, its Zobrist key and the pieces giving check, kept up to date by
/// [`do_move`](Position::do_move) and [`undo_move`](Position::undo_move) (the moves played are
/// kept, so that each can be undone). Built from an SFEN or a [`Setup`],
/// which is validated first (see [`PositionError`]); equality compares board, hands and side
/// to move, not the history.
///
/// ```
/// use tsume_solver::{Color, Position};
///
/// // A one-move mate: the gold dropped on 5b, guarded by the pawn.
/// let mut pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
/// assert_eq!(pos.side_to_move(), Color::Black);
/// let m = pos.parse_move("G*5b").unwrap();
/// pos.do_move(m);
/// assert!(pos.is_checkmate());
/// pos.undo_move();
/// assert_eq!(pos.to_sfen(), "4k4/9/4P4/9/9/9/9/9/9 b G 1");
///
/// // Validation: two pawns of one side on a file (二歩).
/// assert!(Position::from_sfen("4k4/9/4p4/9/9/9/4P4/4P4/9 b - 1").is_err());
/// ```
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; PieceKind::NUM],
    hands: [Hand; 2],
    side_to_move: Color,
    kings: [Option<Square>; 2],
    board_key: u64,
    /// Pieces giving check to the side to move.
    checkers: Bitboard,
    move_number: u32,
    history: Vec<Undo>,
}

impl PartialEq for Position {
    /// Same board, hands and side to move (the move history is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.hands == other.hands
            && self.side_to_move == other.side_to_move
    }
}

impl Eq for Position {}

impl Position {
    /// Validates a setup (see [`PositionError`]). Positions without a king for one or both
    /// sides are allowed: tsume problems usually have no attacker king.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        Position::from_setup_with(setup, Validation::Strict)
    }

    /// Validates a setup with the chosen strictness.
    pub fn from_setup_with(
        setup: &Setup,
        validation: Validation,
    ) -> Result<Position, PositionError> {
        check_piece_counts(setup, validation)?;
        check_placement(setup)?;
        let mut pos = Position::place(setup);
        pos.board_key = pos.compute_board_key();
        let them = !pos.side_to_move;
        if let Some(k) = pos.king(them) {
            if pos
                .attackers_to(pos.side_to_move, k, pos.occupied())
                .is_nonempty()
            {
                return Err(PositionError::OpponentInCheck { color: them });
            }
        }
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }

    /// The setup's pieces placed on an empty position, keys and checkers not yet computed.
    fn place(setup: &Setup) -> Position {
        let mut pos = Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; PieceKind::NUM],
            hands: [
                setup_hand(setup, Color::Black),
                setup_hand(setup, Color::White),
            ],
            side_to_move: setup.side_to_move,
            kings: [None; 2],
            board_key: 0,
            checkers: Bitboard::EMPTY,
            move_number: setup.move_number,
            history: Vec::with_capacity(256),
        };
        for sq in Square::all() {
            if let Some(p) = setup.piece_at(sq) {
                pos.put_piece(p, sq);
            }
        }
        pos
    }

    /// Reads an SFEN (see [`Setup::from_sfen`]) and validates it.
    pub fn from_sfen(sfen: &str) -> Result<Position, ParsePositionError> {
        Ok(Position::from_setup(&Setup::from_sfen(sfen)?)?)
    }

    /// The initial position of a game, Black to move.
    pub fn startpos() -> Position {
        Position::from_sfen(crate::setup::STARTPOS_SFEN).expect("the start position is legal")
    }

    /// The position as an unvalidated setup (for editing or printing).
    pub fn to_setup(&self) -> Setup {
        let mut hands = [[0u8; 7]; 2];
        for c in Color::ALL {
            for k in PieceKind::HAND {
                hands[c.index()][k.index()] = self.hands[c.index()].count(k) as u8;
            }
        }
        Setup {
            board: self.board,
            hands,
            side_to_move: self.side_to_move,
            move_number: self.move_number,
        }
    }

    /// The SFEN of the position, move number included (that of the setup, plus the moves
    /// played since).
    pub fn to_sfen(&self) -> String {
        self.to_setup().to_string()
    }

    fn put_piece(&mut self, p: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(p);
        self.by_color[p.color.index()] ^= Bitboard::from_square(sq);
        self.by_kind[p.kind.index()] ^= Bitboard::from_square(sq);
        if p.kind == King {
            self.kings[p.color.index()] = Some(sq);
        }
    }

    fn remove_piece(&mut self, p: Piece, sq: Square) {
        debug_assert_eq!(self.board[sq.index()], Some(p));
        self.board[sq.index()] = None;
        self.by_color[p.color.index()] ^= Bitboard::from_square(sq);
        self.by_kind[p.kind.index()] ^= Bitboard::from_square(sq);
        if p.kind == King {
            self.kings[p.color.index()] = None;
        }
    }

    fn compute_board_key(&self) -> u64 {
        let mut key = 0;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::piece_key(p, sq);
            }
        }
        if self.side_to_move == Color::White {
            key ^= zobrist::SIDE_KEY;
        }
        key
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.king(self.side_to_move) {
            Some(k) => self.attackers_to(!self.side_to_move, k, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    // ----- queries -----

    /// The player to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The pieces `color` holds in hand.
    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// The square of `color`'s king; `None` when it has none (usually the attacker in a
    /// problem).
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of the pieces of `kind`, both colours (promoted kinds apart).
    #[inline]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// Gold-likes: gold and the four small promoted pieces.
    #[inline]
    pub fn golds(&self) -> Bitboard {
        self.by_kind[Gold.index()]
            | self.by_kind[ProPawn.index()]
            | self.by_kind[ProLance.index()]
            | self.by_kind[ProKnight.index()]
            | self.by_kind[ProSilver.index()]
    }

    /// Pieces with a bishop's diagonal slide (bishop, horse).
    #[inline]
    pub fn bishop_sliders(&self) -> Bitboard {
        self.by_kind[Bishop.index()] | self.by_kind[Horse.index()]
    }

    /// Pieces with a rook's orthogonal slide (rook, dragon).
    #[inline]
    pub fn rook_sliders(&self) -> Bitboard {
        self.by_kind[Rook.index()] | self.by_kind[Dragon.index()]
    }

    /// Pieces that step one square in all eight directions (king, horse, dragon).
    #[inline]
    pub fn king_steppers(&self) -> Bitboard {
        self.by_kind[King.index()] | self.by_kind[Horse.index()] | self.by_kind[Dragon.index()]
    }

    /// The move number as in the SFEN (incremented by every move made).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The pieces of the full set (by unpromoted kind, kings excluded) that are neither on
    /// the board nor in a hand.
    pub fn missing_pieces(&self) -> Hand {
        let mut missing = Hand::EMPTY;
        for kind in PieceKind::HAND {
            let on_board = self.pieces_of_kind(kind).count()
                + if kind.can_promote() {
                    self.pieces_of_kind(kind.promote()).count()
                } else {
                    0
                };
            let held = self.hands[0].count(kind) + self.hands[1].count(kind);
            let total = kind.full_set_count() as u32;
            missing = missing.with_count(kind, total.saturating_sub(on_board + held));
        }
        missing
    }

    /// Key of the board and side to move (hands excluded).
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }

    /// Key of the whole position (board, side to move, both hands).
    #[inline]
    pub fn full_key(&self) -> u64 {
        zobrist::full_key(self.board_key, self.hands[0], self.hands[1])
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// Pieces of `color` attacking `sq`, given the occupancy `occupied`.
    #[inline]
    pub fn attackers_to(&self, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
        let them = !color; // attacks are looked up from the target, as if by the other side
        let own = self.by_color[color.index()];
        let mut att = ((attacks::pawn_attacks(them, sq) & self.by_kind[Pawn.index()])
            | (attacks::knight_attacks(them, sq) & self.by_kind[Knight.index()])
            | (attacks::silver_attacks(them, sq) & self.by_kind[Silver.index()])
            | (attacks::gold_attacks(them, sq) & self.golds())
            | (attacks::king_attacks(sq) & self.king_steppers()))
            & own;
        // Each kind of slider only if one stands on its empty-board lines from `sq`.
        let rooks = self.rook_sliders() & own & attacks::rook_pseudo_attacks(sq);
        if rooks.is_nonempty() {
            att |= attacks::rook_attacks(sq, occupied) & rooks;
        }
        let bishops = self.bishop_sliders() & own & attacks::bishop_pseudo_attacks(sq);
        if bishops.is_nonempty() {
            att |= attacks::bishop_attacks(sq, occupied) & bishops;
        }
        let lances = self.by_kind[Lance.index()] & own & attacks::lance_pseudo_attacks(them, sq);
        if lances.is_nonempty() {
            att |= attacks::lance_attacks(them, sq, occupied) & lances;
        }
        att
    }

    /// Whether `color` attacks `sq` (current occupancy).
    #[inline]
    pub fn is_attacked(&self, color: Color, sq: Square) -> bool {
        self.is_attacked_with(color, sq, self.occupied())
    }

    /// Whether `color` attacks `sq` given the occupancy `occupied`: the same answer as
    /// `attackers_to(..).is_nonempty()`, stepping pieces first, then each kind of slider only
    /// if one stands on its empty-board lines from `sq`.
    #[inline]
    pub fn is_attacked_with(&self, color: Color, sq: Square, occupied: Bitboard) -> bool {
        let them = !color;
        let own = self.by_color[color.index()];
        let step = (attacks::pawn_attacks(them, sq) & self.by_kind[Pawn.index()])
            | (attacks::knight_attacks(them, sq) & self.by_kind[Knight.index()])
            | (attacks::silver_attacks(them, sq) & self.by_kind[Silver.index()])
            | (attacks::gold_attacks(them, sq) & self.golds())
            | (attacks::king_attacks(sq) & self.king_steppers());
        if (step & own).is_nonempty() {
            return true;
        }
        let rooks = self.rook_sliders() & own;
        if (attacks::rook_pseudo_attacks(sq) & rooks).is_nonempty()
            && (attacks::rook_attacks(sq, occupied) & rooks).is_nonempty()
        {
            return true;
        }
        let bishops = self.bishop_sliders() & own;
        if (attacks::bishop_pseudo_attacks(sq) & bishops).is_nonempty()
            && (attacks::bishop_attacks(sq, occupied) & bishops).is_nonempty()
        {
            return true;
        }
        let lances = self.by_kind[Lance.index()] & own;
        (attacks::lance_pseudo_attacks(them, sq) & lances).is_nonempty()
            && (attacks::lance_attacks(them, sq, occupied) & lances).is_nonempty()
    }

    /// The squares next to `sq` (a king's escapes) that `color` attacks given the occupancy
    /// `occupied`: the same squares as asking [`Position::is_attacked_with`] of each, with
    /// the attack tables read once per piece that can reach them instead of once per square.
    #[inline]
    pub fn attacks_next_to(&self, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
        let own = self.by_color[color.index()];
        let mut att = Bitboard::EMPTY;
        let steppers = own & attacks::steppers_near(sq);
        if steppers.is_nonempty() {
            for s in self.by_kind[Pawn.index()] & steppers {
                att |= attacks::pawn_attacks(color, s);
            }
            for s in self.by_kind[Knight.index()] & steppers {
                att |= attacks::knight_attacks(color, s);
            }
            for s in self.by_kind[Silver.index()] & steppers {
                att |= attacks::silver_attacks(color, s);
            }
            for s in self.golds() & steppers {
                att |= attacks::gold_attacks(color, s);
            }
            for s in self.king_steppers() & steppers {
                att |= attacks::king_attacks(s);
            }
        }
        let reach = attacks::rooks_near(sq) & own;
        for s in self.rook_sliders() & reach {
            att |= attacks::rook_attacks(s, occupied);
        }
        for s in self.by_kind[Lance.index()] & reach {
            att |= attacks::lance_attacks(color, s, occupied);
        }
        for s in self.bishop_sliders() & own & attacks::bishops_near(sq) {
            att |= attacks::bishop_attacks(s, occupied);
        }
        att & attacks::king_attacks(sq)
    }

    /// Pieces (of either colour) that are the only piece between `king_sq` and a slider of
    /// `slider_color` aiming at it: moving one of them off the line opens the line.
    pub fn slider_blockers(&self, slider_color: Color, king_sq: Square) -> Bitboard {
        let king_color = !slider_color;
        let snipers = ((attacks::rook_pseudo_attacks(king_sq) & self.rook_sliders())
            | (attacks::bishop_pseudo_attacks(king_sq) & self.bishop_sliders())
            | (attacks::lance_pseudo_attacks(king_color, king_sq) & self.by_kind[Lance.index()]))
            & self.by_color[slider_color.index()];
        let occupied = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king_sq, s) & occupied;
            if b.is_nonempty() && !b.has_more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// Pieces of the side to move pinned to its own king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        let us = self.side_to_move;
        match self.king(us) {
            Some(k) => self.slider_blockers(!us, k) & self.by_color[us.index()],
            None => Bitboard::EMPTY,
        }
    }

    /// The moving piece of a board move, or the dropped piece.
    #[inline]
    pub fn moved_piece(&self, m: Move) -> Piece {
        match m.drop_kind() {
            Some(kind) => Piece::new(self.side_to_move, kind),
            None => self.board[m.from_sq().index()].expect("a board move starts on a piece"),
        }
    }

    /// The kind on the destination after the move (promotion applied).
    #[inline]
    pub fn moved_kind_after(&self, m: Move) -> PieceKind {
        let k = self.moved_piece(m).kind;
        if m.is_promotion() {
            k.promote()
        } else {
            k
        }
    }

    /// The piece captured by `m`, if any.
    #[inline]
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        if m.is_drop() {
            None
        } else {
            self.board[m.to().index()]
        }
    }

    /// Whether `m` (a legal move) gives check. Computed from scratch, without cached tables;
    /// move generators use [`crate::movegen::CheckInfo`] instead.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move;
        let Some(ksq) = self.king(!us) else {
            return false;
        };
        let to = m.to();
        let kind = self.moved_kind_after(m);
        let mut occ = self.occupied().with(to);
        if let Some(from) = m.from() {
            occ = occ.without(from);
        }
        if attacks::attacks(us, kind, to, occ).contains(ksq) {
            return true;
        }
        let Some(from) = m.from() else { return false };
        if attacks::line(from, ksq).is_empty() || attacks::aligned(from, to, ksq) {
            return false;
        }
        let ours = self.by_color[us.index()].without(from);
        let sliders = ((attacks::bishop_attacks(ksq, occ) & self.bishop_sliders())
            | (attacks::rook_attacks(ksq, occ) & self.rook_sliders())
            | (attacks::lance_attacks(!us, ksq, occ) & self.by_kind[Lance.index()]))
            & ours;
        sliders.is_nonempty()
    }

    /// The board key after `m` (a legal move), without making it.
    #[inline]
    pub fn board_key_after(&self, m: Move) -> u64 {
        let us = self.side_to_move;
        let to = m.to();
        let mut key = self.board_key ^ zobrist::SIDE_KEY;
        match m.drop_kind() {
            Some(kind) => key ^= zobrist::piece_key(Piece::new(us, kind), to),
            None => {
                let from = m.from_sq();
                let p = self.board[from.index()].expect("a board move starts on a piece");
                if let Some(c) = self.board[to.index()] {
                    key ^= zobrist::piece_key(c, to);
                }
                let moved = if m.is_promotion() {
                    Piece::new(us, p.kind.promote())
                } else {
                    p
                };
                key ^= zobrist::piece_key(p, from) ^ zobrist::piece_key(moved, to);
            }
        }
        key
    }

    /// The hand of the side to move after `m` (a legal move), without making it.
    #[inline]
    pub fn hand_after(&self, m: Move) -> Hand {
        let hand = self.hands[self.side_to_move.index()];
        match m.drop_kind() {
            Some(kind) => hand.remove(kind),
            None => match self.board[m.to().index()] {
                Some(c) => hand.add(c.kind.unpromote()),
                None => hand,
            },
        }
    }

    /// The full key (board, side, both hands) after `m`, without making it.
    #[inline]
    pub fn full_key_after(&self, m: Move) -> u64 {
        let mut hands = self.hands;
        hands[self.side_to_move.index()] = self.hand_after(m);
        zobrist::full_key(self.board_key_after(m), hands[0], hands[1])
    }

    // ----- making moves -----

    /// Takes one `kind` out of `color`'s hand, out of the game (the tsume rules' "captured
    /// piece never used"). Undone by [`Position::return_to_hand`].
    pub fn take_from_hand(&mut self, color: Color, kind: PieceKind) {
        debug_assert!(self.hands[color.index()].has(kind));
        self.hands[color.index()] = self.hands[color.index()].remove(kind);
    }

    /// Puts one `kind` back into `color`'s hand.
    pub fn return_to_hand(&mut self, color: Color, kind: PieceKind) {
        self.hands[color.index()] = self.hands[color.index()].add(kind);
    }

    /// Plays `m`, which must be legal in this position.
    pub fn do_move(&mut self, m: Move) {
        let us = self.side_to_move;
        let mut key = self.board_key ^ zobrist::SIDE_KEY;
        let to = m.to();
        let captured;
        match m.drop_kind() {
            Some(kind) => {
                captured = None;
                let p = Piece::new(us, kind);
                self.hands[us.index()] = self.hands[us.index()].remove(kind);
                self.put_piece(p, to);
                key ^= zobrist::piece_key(p, to);
            }
            None => {
                let from = m.from_sq();
                let p = self.board[from.index()].expect("a board move starts on a piece");
                captured = self.board[to.index()];
                if let Some(c) = captured {
                    self.remove_piece(c, to);
                    key ^= zobrist::piece_key(c, to);
                    self.hands[us.index()] = self.hands[us.index()].add(c.kind.unpromote());
                }
                self.remove_piece(p, from);
                key ^= zobrist::piece_key(p, from);
                let moved = if m.is_promotion() {
                    Piece::new(us, p.kind.promote())
                } else {
                    p
                };
                self.put_piece(moved, to);
                key ^= zobrist::piece_key(moved, to);
            }
        }
        self.history.push(Undo {
            mv: m,
            captured,
            board_key: self.board_key,
            checkers: self.checkers,
        });
        self.board_key = key;
        self.side_to_move = !us;
        self.move_number += 1;
        self.checkers = self.checkers_after(m);
        debug_assert_eq!(self.checkers, self.compute_checkers());
        debug_assert_eq!(self.board_key, self.compute_board_key());
    }

    /// The checkers of the side to move just after `m` was made, derived from the move: the
    /// side that moved could not have been giving check before it (the position was legal),
    /// so a checker is either the moved piece or a slider whose line through the origin
    /// square the move opened.
    #[inline]
    fn checkers_after(&self, m: Move) -> Bitboard {
        let them = self.side_to_move;
        let us = !them;
        let Some(ksq) = self.king(them) else {
            return Bitboard::EMPTY;
        };
        let to = m.to();
        let occ = self.occupied();
        let moved = self.board[to.index()].expect("the moved piece is on its destination");
        let mut checkers = Bitboard::EMPTY;
        if attacks::attacks(us, moved.kind, to, occ).contains(ksq) {
            checkers = Bitboard::from_square(to);
        }
        let Some(from) = m.from() else {
            return checkers;
        };
        let ours = self.by_color[us.index()];
        let ray = attacks::line(ksq, from);
        if ray.is_empty() || ray.contains(to) {
            return checkers;
        }
        let sliders = if ksq.file() == from.file() {
            (attacks::rook_attacks(ksq, occ) & self.rook_sliders())
                | (attacks::lance_attacks(them, ksq, occ) & self.by_kind[Lance.index()])
        } else if ksq.rank() == from.rank() {
            attacks::rook_attacks(ksq, occ) & self.rook_sliders()
        } else {
            attacks::bishop_attacks(ksq, occ) & self.bishop_sliders()
        };
        checkers | (sliders & ours & ray)
    }

    /// Takes back the last move made with [`Position::do_move`].
    pub fn undo_move(&mut self) {
        let u = self
            .history
            .pop()
            .expect("undo_move without a move to undo");
        let us = !self.side_to_move;
        let to = u.mv.to();
        let on_to = self.board[to.index()].expect("the moved piece is on its destination");
        self.remove_piece(on_to, to);
        match u.mv.drop_kind() {
            Some(kind) => self.hands[us.index()] = self.hands[us.index()].add(kind),
            None => {
                let from = u.mv.from_sq();
                let orig = if u.mv.is_promotion() {
                    Piece::new(us, on_to.kind.unpromote())
                } else {
                    on_to
                };
                self.put_piece(orig, from);
                if let Some(c) = u.captured {
                    self.put_piece(c, to);
                    self.hands[us.index()] = self.hands[us.index()].remove(c.kind.unpromote());
                }
            }
        }
        self.board_key = u.board_key;
        self.checkers = u.checkers;
        self.side_to_move = us;
        self.move_number -= 1;
        debug_assert_eq!(self.board_key, self.compute_board_key());
    }

    /// Number of moves made since the position was set up (undo-able plies).
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// The moves made since set-up, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// Forgets the move history (the position stays as it is).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// Key and board equality check against a from-scratch recomputation (for tests).
    pub fn is_consistent(&self) -> bool {
        let Ok(fresh) = Position::from_setup_with(&self.to_setup(), Validation::AllowExtraPieces)
        else {
            return false;
        };
        fresh.board_key == self.board_key
            && fresh.by_color == self.by_color
            && fresh.by_kind == self.by_kind
            && fresh.kings == self.kings
            && fresh.checkers == self.checkers
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        Position::from_sfen(s)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

#[cfg(test)]
mod tests;
