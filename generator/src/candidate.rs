//! Candidate positions: random placements around a defender king, and mutations of
//! accepted problems (which is how longer problems are reached: random placement alone
//! rarely gives more than a few plies).
//!
//! The attacker is Black (sente, to move); the defender is White with its king in the top
//! three ranks. Candidates are unvalidated `Setup`s with the defender's hand filled in
//! (the full set), checked later by `Position::from_setup`.

use tsume_solver::{Color, Piece, PieceKind, Setup, Square};

use crate::rng::Rng;

/// How candidates are drawn.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shape {
    /// Pieces placed on the board besides the king (attacker and defender together).
    pub min_board: u32,
    pub max_board: u32,
    /// Pieces in the attacker's hand.
    pub min_hand: u32,
    pub max_hand: u32,
    /// Placed pieces are at most this far (king steps) from the defender's king.
    pub radius: u8,
    /// Percentage of candidates that mutate an accepted problem (once there is one).
    pub mutate_percent: u64,
    /// Percentage of candidates that extend an accepted problem backwards by two plies
    /// (once there is one shorter than the longest wanted length).
    #[serde(default)]
    pub extend_percent: u64,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            min_board: 2,
            max_board: 7,
            min_hand: 1,
            max_hand: 3,
            radius: 2,
            mutate_percent: 30,
            extend_percent: 30,
        }
    }
}

use PieceKind::*;

/// Kinds (with repetition as weights) for attacker pieces on the board.
const ATTACKER_BOARD: &[PieceKind] = &[
    Rook, Bishop, Gold, Gold, Silver, Silver, Knight, Lance, Pawn, Pawn, Dragon, Horse, ProPawn,
];
/// Kinds for defender pieces on the board.
const DEFENDER_BOARD: &[PieceKind] = &[
    Gold, Gold, Silver, Silver, Knight, Knight, Lance, Lance, Pawn, Pawn, Pawn, Rook, Bishop,
];
/// Kinds for the attacker's hand.
const ATTACKER_HAND: &[PieceKind] = &[
    Rook, Bishop, Gold, Gold, Silver, Silver, Knight, Knight, Lance, Pawn,
];

fn fits(setup: &Setup, kind: PieceKind) -> bool {
    setup.count(kind) < kind.unpromote().full_set_count() as u32
}

/// The empty squares within `radius` of `king`.
fn near(setup: &Setup, king: Square, radius: u8) -> Vec<Square> {
    Square::all()
        .filter(|s| setup.board[s.index()].is_none())
        .filter(|s| {
            let df = (s.file() as i16 - king.file() as i16).unsigned_abs() as u8;
            let dr = (s.rank() as i16 - king.rank() as i16).unsigned_abs() as u8;
            df.max(dr) <= radius
        })
        .collect()
}

fn defender_king(setup: &Setup) -> Option<Square> {
    Square::all().find(|s| setup.board[s.index()] == Some(Piece::new(Color::White, King)))
}

/// Places one random piece near the defender's king (attacker or defender), if it fits.
fn add_board_piece(setup: &mut Setup, rng: &mut Rng, radius: u8) {
    let Some(king) = defender_king(setup) else {
        return;
    };
    let squares = near(setup, king, radius);
    if squares.is_empty() {
        return;
    }
    let sq = *rng.pick(&squares);
    let (color, kinds) = if rng.chance(55) {
        (Color::Black, ATTACKER_BOARD)
    } else {
        (Color::White, DEFENDER_BOARD)
    };
    let kind = *rng.pick(kinds);
    if fits(setup, kind) {
        setup.board[sq.index()] = Some(Piece::new(color, kind));
        if !is_legal(setup) {
            // Dead piece, nifu, or a check on the defender: not a problem position.
            setup.board[sq.index()] = None;
        }
    }
}

/// Whether the setup (defender hand filled in) is a legal position.
fn is_legal(setup: &Setup) -> bool {
    let mut s = setup.clone();
    s.hands[Color::White.index()] = [0; 7];
    s.fill_hand(Color::White);
    tsume_solver::Position::from_setup(&s).is_ok()
}

fn add_hand_piece(setup: &mut Setup, rng: &mut Rng) {
    let kind = *rng.pick(ATTACKER_HAND);
    if fits(setup, kind) {
        setup.hands[Color::Black.index()][kind.index()] += 1;
    }
}

/// A random placement: the defender's king in the top three ranks, pieces around it, a
/// few pieces in the attacker's hand, the defender's hand filled in.
pub fn random_placement(rng: &mut Rng, shape: &Shape) -> Setup {
    let mut setup = Setup::empty();
    setup.side_to_move = Color::Black;
    let king = Square::new(rng.below(9) as u8, rng.below(3) as u8);
    setup.board[king.index()] = Some(Piece::new(Color::White, King));
    let board = shape.min_board + rng.below((shape.max_board - shape.min_board + 1) as u64) as u32;
    for _ in 0..board {
        add_board_piece(&mut setup, rng, shape.radius);
    }
    let hand = shape.min_hand + rng.below((shape.max_hand - shape.min_hand + 1) as u64) as u32;
    for _ in 0..hand {
        add_hand_piece(&mut setup, rng);
    }
    finish(setup)
}

/// A small random change to an accepted problem: add, move or remove a piece, or change
/// the attacker's hand.
pub fn mutate(base: &Setup, rng: &mut Rng, shape: &Shape) -> Setup {
    let mut setup = base.clone();
    setup.hands[Color::White.index()] = [0; 7];
    // One to three changes: a single added piece is often just removed again as
    // unnecessary, giving back the base problem.
    for _ in 0..1 + rng.below(3) {
        mutate_once(&mut setup, rng, shape);
    }
    finish(setup)
}

fn mutate_once(setup: &mut Setup, rng: &mut Rng, shape: &Shape) {
    let placed: Vec<Square> = Square::all()
        .filter(|s| matches!(setup.board[s.index()], Some(p) if p.kind != King))
        .collect();
    match rng.below(5) {
        0 | 1 => add_board_piece(setup, rng, shape.radius + 1),
        2 if !placed.is_empty() => {
            // Move a piece to another square near the king.
            let from = *rng.pick(&placed);
            let piece = setup.board[from.index()].take();
            if let Some(king) = defender_king(setup) {
                let squares = near(setup, king, shape.radius + 1);
                if !squares.is_empty() {
                    setup.board[rng.pick(&squares).index()] = piece;
                } else {
                    setup.board[from.index()] = piece;
                }
            }
        }
        3 if !placed.is_empty() => {
            let from = *rng.pick(&placed);
            setup.board[from.index()] = None;
        }
        _ => {
            // Swap one hand piece for another, or add one.
            let held: Vec<PieceKind> = PieceKind::HAND
                .into_iter()
                .filter(|k| setup.hands[Color::Black.index()][k.index()] > 0)
                .collect();
            if !held.is_empty() && rng.chance(50) {
                let k = *rng.pick(&held);
                setup.hands[Color::Black.index()][k.index()] -= 1;
            }
            add_hand_piece(setup, rng);
        }
    }
}

fn finish(mut setup: Setup) -> Setup {
    setup.move_number = 1;
    setup.fill_hand(Color::White);
    setup
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsume_solver::Position;

    #[test]
    fn placements_are_mostly_legal_full_sets() {
        let shape = Shape::default();
        let mut legal = 0;
        for i in 0..200 {
            let mut rng = Rng::for_candidate(1, i);
            let setup = random_placement(&mut rng, &shape);
            if let Ok(pos) = Position::from_setup(&setup) {
                legal += 1;
                assert!(pos.missing_pieces().is_empty(), "{setup}");
                assert!(pos.king(Color::White).is_some());
                assert_eq!(pos.side_to_move(), Color::Black);
            }
        }
        assert!(legal > 190, "only {legal} of 200 legal");
    }

    #[test]
    fn same_stream_same_candidate() {
        let shape = Shape::default();
        let a = random_placement(&mut Rng::for_candidate(5, 9), &shape);
        let b = random_placement(&mut Rng::for_candidate(5, 9), &shape);
        assert_eq!(a, b);
        let m1 = mutate(&a, &mut Rng::for_candidate(6, 1), &shape);
        let m2 = mutate(&a, &mut Rng::for_candidate(6, 1), &shape);
        assert_eq!(m1, m2);
    }
}
