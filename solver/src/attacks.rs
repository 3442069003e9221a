//! Attack tables, built at compile time by `const fn`.
//!
//! Step pieces (pawn, knight, silver, gold-likes, king) use per-square tables. Sliders use
//! the classical ray method: for each of the 8 directions a table of the squares beyond each
//! square; the first blocker is the lowest (or highest) set bit of `ray & occupied`,
//! depending on whether the direction increases the square index.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::piece::PieceKind;
use crate::square::Square;

/// (dfile, drank) of the 8 directions; drank −1 is towards rank a.
const DIRS: [(i8, i8); 8] = [
    (0, -1),
    (0, 1),
    (1, 0),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, -1),
    (-1, 1),
];
/// Whether moving in direction `d` increases the square index (`dfile * 9 + drank > 0`).
const DIR_POSITIVE: [bool; 8] = [false, true, true, false, true, true, false, false];

const UP: usize = 0;
const DOWN: usize = 1;
const ROOK_DIRS: [usize; 4] = [0, 1, 2, 3];
const BISHOP_DIRS: [usize; 4] = [4, 5, 6, 7];

const fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq / 9) as i8 + df;
    let r = (sq % 9) as i8 + dr;
    if f >= 0 && f < 9 && r >= 0 && r < 9 {
        Some(f as usize * 9 + r as usize)
    } else {
        None
    }
}

/// Step table for offsets given from Black's view (drank −1 = forward); White mirrors ranks.
const fn step_table(offsets: &[(i8, i8)], color: Color) -> [Bitboard; 81] {
    let mut t = [Bitboard::EMPTY; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut b = 0u128;
        let mut i = 0;
        while i < offsets.len() {
            let (df, dr) = offsets[i];
            let dr = match color {
                Color::Black => dr,
                Color::White => -dr,
            };
            if let Some(to) = offset(sq, df, dr) {
                b |= 1 << to;
            }
            i += 1;
        }
        t[sq] = Bitboard(b);
        sq += 1;
    }
    t
}

const PAWN_OFFSETS: [(i8, i8); 1] = [(0, -1)];
const KNIGHT_OFFSETS: [(i8, i8); 2] = [(-1, -2), (1, -2)];
const SILVER_OFFSETS: [(i8, i8); 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_OFFSETS: [(i8, i8); 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_OFFSETS: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const fn both(offsets: &[(i8, i8)]) -> [[Bitboard; 81]; 2] {
    [
        step_table(offsets, Color::Black),
        step_table(offsets, Color::White),
    ]
}

static PAWN: [[Bitboard; 81]; 2] = both(&PAWN_OFFSETS);
static KNIGHT: [[Bitboard; 81]; 2] = both(&KNIGHT_OFFSETS);
static SILVER: [[Bitboard; 81]; 2] = both(&SILVER_OFFSETS);
static GOLD: [[Bitboard; 81]; 2] = both(&GOLD_OFFSETS);
static KING: [Bitboard; 81] = step_table(&KING_OFFSETS, Color::Black);

const fn build_rays() -> [[Bitboard; 81]; 8] {
    let mut t = [[Bitboard::EMPTY; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let mut b = 0u128;
            let mut cur = offset(sq, DIRS[d].0, DIRS[d].1);
            while let Some(s) = cur {
                b |= 1 << s;
                cur = offset(s, DIRS[d].0, DIRS[d].1);
            }
            t[d][sq] = Bitboard(b);
            sq += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[d][sq]`: the squares strictly beyond `sq` in direction `d`, to the edge.
static RAYS: [[Bitboard; 81]; 8] = build_rays();

/// (`BETWEEN`, `LINE`): squares strictly between two aligned squares, and the whole line
/// through them (edge to edge); both empty for squares not on a common rank, file or diagonal.
const fn build_lines() -> ([[Bitboard; 81]; 81], [[Bitboard; 81]; 81]) {
    let rays = build_rays();
    let mut between = [[Bitboard::EMPTY; 81]; 81];
    let mut line = [[Bitboard::EMPTY; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let mut acc = 0u128;
            let mut cur = offset(a, DIRS[d].0, DIRS[d].1);
            while let Some(b) = cur {
                between[a][b] = Bitboard(acc);
                let back = opposite_dir(d);
                line[a][b] = Bitboard(rays[d][a].0 | rays[back][a].0 | 1 << a);
                acc |= 1 << b;
                cur = offset(b, DIRS[d].0, DIRS[d].1);
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

const fn opposite_dir(d: usize) -> usize {
    let (df, dr) = DIRS[d];
    let mut i = 0;
    while i < 8 {
        if DIRS[i].0 == -df && DIRS[i].1 == -dr {
            return i;
        }
        i += 1;
    }
    unreachable!()
}

static LINES: ([[Bitboard; 81]; 81], [[Bitboard; 81]; 81]) = build_lines();

#[inline]
fn ray_attack(d: usize, sq: Square, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[d][sq.index()].0;
    let blockers = ray & occupied.0;
    if blockers == 0 {
        return Bitboard(ray);
    }
    let first = if DIR_POSITIVE[d] {
        blockers.trailing_zeros()
    } else {
        127 - blockers.leading_zeros()
    };
    Bitboard(ray ^ RAYS[d][first as usize].0)
}

#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

#[inline]
pub fn knight_attacks(color: Color, sq: Square) -> Bitboard {
    KNIGHT[color.index()][sq.index()]
}

#[inline]
pub fn silver_attacks(color: Color, sq: Square) -> Bitboard {
    SILVER[color.index()][sq.index()]
}

#[inline]
pub fn gold_attacks(color: Color, sq: Square) -> Bitboard {
    GOLD[color.index()][sq.index()]
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

#[inline]
pub fn lance_attacks(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    let d = match color {
        Color::Black => UP,
        Color::White => DOWN,
    };
    ray_attack(d, sq, occupied)
}

/// Squares a lance would reach on an empty board (its whole forward ray).
#[inline]
pub fn lance_pseudo_attacks(color: Color, sq: Square) -> Bitboard {
    let d = match color {
        Color::Black => UP,
        Color::White => DOWN,
    };
    RAYS[d][sq.index()]
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for d in BISHOP_DIRS {
        b |= ray_attack(d, sq, occupied);
    }
    b
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for d in ROOK_DIRS {
        b |= ray_attack(d, sq, occupied);
    }
    b
}

/// Bishop moves on an empty board.
#[inline]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    Bitboard(
        RAYS[4][sq.index()].0
            | RAYS[5][sq.index()].0
            | RAYS[6][sq.index()].0
            | RAYS[7][sq.index()].0,
    )
}

/// Rook moves on an empty board.
#[inline]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    Bitboard(
        RAYS[0][sq.index()].0
            | RAYS[1][sq.index()].0
            | RAYS[2][sq.index()].0
            | RAYS[3][sq.index()].0,
    )
}

/// Squares attacked by a `kind` piece of `color` on `sq`, given the occupancy.
#[inline]
pub fn attacks(color: Color, kind: PieceKind, sq: Square, occupied: Bitboard) -> Bitboard {
    use PieceKind::*;
    match kind {
        Pawn => pawn_attacks(color, sq),
        Lance => lance_attacks(color, sq, occupied),
        Knight => knight_attacks(color, sq),
        Silver => silver_attacks(color, sq),
        Gold | ProPawn | ProLance | ProKnight | ProSilver => gold_attacks(color, sq),
        King => king_attacks(sq),
        Bishop => bishop_attacks(sq, occupied),
        Rook => rook_attacks(sq, occupied),
        Horse => bishop_attacks(sq, occupied) | king_attacks(sq),
        Dragon => rook_attacks(sq, occupied) | king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal; else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINES.0[a.index()][b.index()]
}

/// The whole line through `a` and `b` (edge to edge) if aligned; else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINES.1[a.index()][b.index()]
}

/// Whether `c` lies on the line through `a` and `b` (which must be aligned).
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    /// Slow reference: walk each direction square by square.
    fn slow_slide(sq0: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let mut cur = sq0.offset(df, dr);
            while let Some(s) = cur {
                b = b.with(s);
                if occ.contains(s) {
                    break;
                }
                cur = s.offset(df, dr);
            }
        }
        b
    }

    #[test]
    fn sliders_match_slow_walk() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ =
                Bitboard(((seed as u128) << 64 | seed.rotate_left(29) as u128) & Bitboard::ALL.0);
            let s = Square::from_index((seed % 81) as usize);
            assert_eq!(rook_attacks(s, occ), slow_slide(s, occ, &DIRS[0..4]));
            assert_eq!(bishop_attacks(s, occ), slow_slide(s, occ, &DIRS[4..8]));
            assert_eq!(
                lance_attacks(Color::Black, s, occ),
                slow_slide(s, occ, &[(0, -1)])
            );
            assert_eq!(
                lance_attacks(Color::White, s, occ),
                slow_slide(s, occ, &[(0, 1)])
            );
        }
    }

    #[test]
    fn step_pieces() {
        assert_eq!(
            pawn_attacks(Color::Black, sq("5e")),
            Bitboard::from_square(sq("5d"))
        );
        assert_eq!(
            pawn_attacks(Color::White, sq("5e")),
            Bitboard::from_square(sq("5f"))
        );
        assert_eq!(
            knight_attacks(Color::Black, sq("5e")),
            Bitboard::from_square(sq("4c")).with(sq("6c"))
        );
        assert_eq!(
            knight_attacks(Color::White, sq("1a")),
            Bitboard::from_square(sq("2c"))
        );
        assert_eq!(silver_attacks(Color::Black, sq("5e")).count(), 5);
        assert!(!silver_attacks(Color::Black, sq("5e")).contains(sq("5f")));
        assert!(gold_attacks(Color::White, sq("5e")).contains(sq("5d")));
        assert!(!gold_attacks(Color::White, sq("5e")).contains(sq("4d")));
        assert_eq!(king_attacks(sq("1a")).count(), 3);
    }

    #[test]
    fn lines_and_between() {
        assert_eq!(between(sq("1a"), sq("1e")).count(), 3);
        assert_eq!(between(sq("1a"), sq("5e")).count(), 3);
        assert!(between(sq("1a"), sq("2c")).is_empty());
        assert!(line(sq("1a"), sq("2c")).is_empty());
        assert_eq!(line(sq("5e"), sq("5a")).count(), 9);
        assert_eq!(line(sq("1a"), sq("9i")).count(), 9);
        assert!(aligned(sq("1a"), sq("3c"), sq("7g")));
        for a in Square::all() {
            for b in Square::all() {
                assert_eq!(between(a, b), between(b, a));
                assert_eq!(line(a, b), line(b, a));
            }
        }
    }
}
