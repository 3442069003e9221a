//! Attack tables, built at compile time by `const fn`.
//!
//! Step pieces (pawn, knight, silver, gold-likes, king) use per-square tables. Sliders are
//! branchless: along a file, a table indexed by the occupancy of the file's seven inner
//! squares; along ranks and diagonals, the subtraction trick on rays that increase the square
//! index, and the same trick on byte-reversed bitboards for rays that decrease it (see
//! `SliderRays`).

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
const UP: usize = 0;
const DOWN: usize = 1;

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

/// `(bishop, rook)` moves on an empty board, per square.
const fn build_pseudo() -> ([Bitboard; 81], [Bitboard; 81]) {
    let rays = build_rays();
    let mut bishop = [Bitboard::EMPTY; 81];
    let mut rook = [Bitboard::EMPTY; 81];
    let mut sq = 0;
    while sq < 81 {
        rook[sq] = Bitboard(rays[0][sq].0 | rays[1][sq].0 | rays[2][sq].0 | rays[3][sq].0);
        bishop[sq] = Bitboard(rays[4][sq].0 | rays[5][sq].0 | rays[6][sq].0 | rays[7][sq].0);
        sq += 1;
    }
    (bishop, rook)
}

static PSEUDO: ([Bitboard; 81], [Bitboard; 81]) = build_pseudo();

/// `(steppers, rooks, bishops)`, per square `sq`: where a piece must stand to attack a
/// square next to `sq` — a stepping piece (knights included) within two files and three
/// ranks; a rook or lance on the files and ranks, a bishop on the diagonals, of those squares.
const fn build_near() -> ([Bitboard; 81], [Bitboard; 81], [Bitboard; 81]) {
    let king = step_table(&KING_OFFSETS, Color::Black);
    let (bishop_pseudo, rook_pseudo) = build_pseudo();
    let mut steppers = [Bitboard::EMPTY; 81];
    let mut rooks = [Bitboard::EMPTY; 81];
    let mut bishops = [Bitboard::EMPTY; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut s = 0u128;
        let mut df = -2;
        while df <= 2 {
            let mut dr = -3;
            while dr <= 3 {
                if let Some(t) = offset(sq, df, dr) {
                    s |= 1 << t;
                }
                dr += 1;
            }
            df += 1;
        }
        steppers[sq] = Bitboard(s);
        let (mut r, mut b) = (0u128, 0u128);
        let mut t = 0;
        while t < 81 {
            if king[sq].0 >> t & 1 != 0 {
                r |= rook_pseudo[t].0;
                b |= bishop_pseudo[t].0;
            }
            t += 1;
        }
        rooks[sq] = Bitboard(r);
        bishops[sq] = Bitboard(b);
        sq += 1;
    }
    (steppers, rooks, bishops)
}

static NEAR: ([Bitboard; 81], [Bitboard; 81], [Bitboard; 81]) = build_near();

/// The squares where a stepping piece (of any kind, knights included) may stand and attack
/// a square next to `sq`.
#[inline]
pub fn steppers_near(sq: Square) -> Bitboard {
    NEAR.0[sq.index()]
}

/// The squares from which a rook, dragon or lance reaches a square next to `sq` on an
/// empty board.
#[inline]
pub fn rooks_near(sq: Square) -> Bitboard {
    NEAR.1[sq.index()]
}

/// The squares from which a bishop or horse reaches a square next to `sq` on an empty
/// board.
#[inline]
pub fn bishops_near(sq: Square) -> Bitboard {
    NEAR.2[sq.index()]
}

/// Groups of piece kinds sharing a check-candidate table (see [`check_candidates`]).
const CAND_PAWN: usize = 0;
const CAND_LANCE: usize = 1;
const CAND_KNIGHT: usize = 2;
const CAND_SILVER: usize = 3;
const CAND_GOLD: usize = 4;
const CAND_BISHOP: usize = 5;
const CAND_HORSE: usize = 6;

/// Empty-board moves of the base kind `group` (and of its promoted kind) for the candidate
/// table builder, from the tables built above.
struct EmptyBoard {
    pawn: [[Bitboard; 81]; 2],
    knight: [[Bitboard; 81]; 2],
    silver: [[Bitboard; 81]; 2],
    gold: [[Bitboard; 81]; 2],
    king: [Bitboard; 81],
    rays: [[Bitboard; 81]; 8],
}

impl EmptyBoard {
    const fn new() -> EmptyBoard {
        EmptyBoard {
            pawn: both(&PAWN_OFFSETS),
            knight: both(&KNIGHT_OFFSETS),
            silver: both(&SILVER_OFFSETS),
            gold: both(&GOLD_OFFSETS),
            king: step_table(&KING_OFFSETS, Color::Black),
            rays: build_rays(),
        }
    }

    /// Moves of the unpromoted piece of `group` of colour `c` (0 black, 1 white) from `sq`.
    const fn base(&self, group: usize, c: usize, sq: usize) -> u128 {
        let r = &self.rays;
        match group {
            CAND_PAWN => self.pawn[c][sq].0,
            CAND_LANCE => r[if c == 0 { 0 } else { 1 }][sq].0,
            CAND_KNIGHT => self.knight[c][sq].0,
            CAND_SILVER => self.silver[c][sq].0,
            CAND_GOLD => self.gold[c][sq].0,
            CAND_BISHOP => r[4][sq].0 | r[5][sq].0 | r[6][sq].0 | r[7][sq].0,
            _ => r[4][sq].0 | r[5][sq].0 | r[6][sq].0 | r[7][sq].0 | self.king[sq].0,
        }
    }

    /// Moves of the promoted piece of `group`, if the group promotes.
    const fn promoted(&self, group: usize, c: usize, sq: usize) -> Option<u128> {
        match group {
            CAND_PAWN | CAND_LANCE | CAND_KNIGHT | CAND_SILVER => Some(self.gold[c][sq].0),
            CAND_BISHOP => Some(self.base(CAND_HORSE, c, sq)),
            _ => None,
        }
    }
}

/// `CHECK_CANDIDATES[us][group][ksq]`: the squares from which a piece of `group` of colour
/// `us` can, on an empty board, move to a square from which it (or, when that move may
/// promote, its promoted form) attacks `ksq`. A superset of the origins of its direct checks.
const fn build_check_candidates() -> [[[Bitboard; 81]; 7]; 2] {
    let e = EmptyBoard::new();
    let mut t = [[[Bitboard::EMPTY; 81]; 7]; 2];
    let mut us = 0;
    while us < 2 {
        let them = 1 - us;
        let mut group = 0;
        while group < 7 {
            let mut ksq = 0;
            while ksq < 81 {
                let mut cand = 0u128;
                // Squares from which the piece checks: its moves seen from the king, reversed
                // (moves of the other colour's piece of the same kind from the king).
                let mut to = 0;
                while to < 81 {
                    let bit = 1u128 << to;
                    // Origins that reach `to`: reversed moves from `to`.
                    let origins = e.base(group, them, to);
                    if e.base(group, them, ksq) & bit != 0 {
                        cand |= origins;
                    }
                    if let Some(p) = e.promoted(group, them, ksq) {
                        if p & bit != 0 {
                            let mut o = origins;
                            if !in_zone(us, to) {
                                o &= zone_mask(us);
                            }
                            cand |= o;
                        }
                    }
                    to += 1;
                }
                t[us][group][ksq] = Bitboard(cand);
                ksq += 1;
            }
            group += 1;
        }
        us += 1;
    }
    t
}

const fn in_zone(c: usize, sq: usize) -> bool {
    let r = sq % 9;
    if c == 0 {
        r < 3
    } else {
        r > 5
    }
}

const fn zone_mask(c: usize) -> u128 {
    let mut b = 0u128;
    let mut sq = 0;
    while sq < 81 {
        if in_zone(c, sq) {
            b |= 1 << sq;
        }
        sq += 1;
    }
    b
}

static CHECK_CANDIDATES: [[[Bitboard; 81]; 7]; 2] = build_check_candidates();

/// A superset of the squares from which a piece of `kind` and colour `us` can give a direct
/// check (by its move, promotion included) to a king on `ksq`: all squares for rooks and
/// dragons, none for the king. Discovered checks are not covered.
#[inline]
pub fn check_candidates(us: Color, kind: PieceKind, ksq: Square) -> Bitboard {
    use PieceKind::*;
    let group = match kind {
        Pawn => CAND_PAWN,
        Lance => CAND_LANCE,
        Knight => CAND_KNIGHT,
        Silver => CAND_SILVER,
        Gold | ProPawn | ProLance | ProKnight | ProSilver => CAND_GOLD,
        Bishop => CAND_BISHOP,
        Horse => CAND_HORSE,
        Rook | Dragon => return Bitboard::ALL,
        King => return Bitboard::EMPTY,
    };
    CHECK_CANDIDATES[us.index()][group][ksq.index()]
}

/// Slider rays of one square in the forms the branchless attack functions use.
///
/// Rays that increase the square index are stored as they are: the squares a slider reaches
/// along such a ray are those up to the lowest blocker, `ray & (b ^ (b - 1))` with
/// `b = ray & occupied` (all of the ray when `b` is 0). Rays that decrease the index are
/// stored byte-reversed (`u128::swap_bytes`): consecutive squares of a diagonal or a rank are
/// 8, 9 or 10 bits apart, so they lie in different bytes and reversing the byte order reverses
/// their order; the same formula then applies to the byte-reversed occupancy. File rays (1
/// bit apart) use [`FILE_ATTACKS`] instead.
#[derive(Clone, Copy)]
struct SliderRays {
    /// Towards file 9 (+9).
    rank_inc: u128,
    /// Towards file 1 (−9), byte-reversed.
    rank_dec_rev: u128,
    /// (+1 file, −1 rank): +8.
    diag_inc8: u128,
    /// (+1 file, +1 rank): +10.
    diag_inc10: u128,
    /// (−1 file, −1 rank): −10, byte-reversed.
    diag_dec10_rev: u128,
    /// (−1 file, +1 rank): −8, byte-reversed.
    diag_dec8_rev: u128,
}

const fn build_slider_rays() -> [SliderRays; 81] {
    let rays = build_rays();
    let mut t = [SliderRays {
        rank_inc: 0,
        rank_dec_rev: 0,
        diag_inc8: 0,
        diag_inc10: 0,
        diag_dec10_rev: 0,
        diag_dec8_rev: 0,
    }; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = SliderRays {
            rank_inc: rays[2][sq].0,
            rank_dec_rev: rays[3][sq].0.swap_bytes(),
            diag_inc8: rays[4][sq].0,
            diag_inc10: rays[5][sq].0,
            diag_dec10_rev: rays[6][sq].0.swap_bytes(),
            diag_dec8_rev: rays[7][sq].0.swap_bytes(),
        };
        sq += 1;
    }
    t
}

static SLIDER_RAYS: [SliderRays; 81] = build_slider_rays();

/// `FILE_ATTACKS[rank][inner]`: the ranks (as a 9-bit mask) a rook on `rank` reaches along
/// its file, given the occupancy `inner` of ranks b–h (bit 0 = rank b). Ranks a and i never
/// block anything beyond them, so they need not be part of the index.
const fn build_file_attacks() -> [[u16; 128]; 9] {
    let mut t = [[0u16; 128]; 9];
    let mut rank = 0;
    while rank < 9 {
        let mut inner = 0;
        while inner < 128 {
            let occ = (inner as u16) << 1;
            let mut b = 0u16;
            let mut r = rank as i32 - 1;
            while r >= 0 {
                b |= 1 << r;
                if occ >> r & 1 != 0 {
                    break;
                }
                r -= 1;
            }
            r = rank as i32 + 1;
            while r < 9 {
                b |= 1 << r;
                if occ >> r & 1 != 0 {
                    break;
                }
                r += 1;
            }
            t[rank][inner] = b;
            inner += 1;
        }
        rank += 1;
    }
    t
}

static FILE_ATTACKS: [[u16; 128]; 9] = build_file_attacks();

/// The squares along the ray reached from its origin, for a ray that increases the index.
#[inline(always)]
const fn increasing(ray: u128, occupied: u128) -> u128 {
    let b = ray & occupied;
    ray & (b ^ b.wrapping_sub(1))
}

/// Both directions along the file of `sq`.
#[inline(always)]
fn file_attacks(sq: Square, occupied: u128) -> u128 {
    let base = sq.file() as u32 * 9;
    let inner = (occupied >> (base + 1)) as usize & 0x7f;
    (FILE_ATTACKS[sq.rank() as usize][inner] as u128) << base
}

/// Both directions along the rank of `sq`.
#[inline(always)]
fn rank_attacks(r: &SliderRays, occupied: u128, occupied_rev: u128) -> u128 {
    increasing(r.rank_inc, occupied) | increasing(r.rank_dec_rev, occupied_rev).swap_bytes()
}

/// The square a pawn of `color` on `sq` attacks (none from the last rank).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// The squares a knight of `color` on `sq` attacks (two ranks forward, one file aside).
#[inline]
pub fn knight_attacks(color: Color, sq: Square) -> Bitboard {
    KNIGHT[color.index()][sq.index()]
}

/// The squares a silver of `color` on `sq` attacks.
#[inline]
pub fn silver_attacks(color: Color, sq: Square) -> Bitboard {
    SILVER[color.index()][sq.index()]
}

/// The squares a gold of `color` on `sq` attacks (also the moves of the small promoted
/// pieces: と, 成香, 成桂, 成銀).
#[inline]
pub fn gold_attacks(color: Color, sq: Square) -> Bitboard {
    GOLD[color.index()][sq.index()]
}

/// The eight squares around `sq` (on the board).
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// The squares a lance of `color` on `sq` attacks: forward up to and including the first
/// occupied square (of either colour; the caller removes its own pieces).
#[inline]
pub fn lance_attacks(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(file_attacks(sq, occupied.0)) & lance_pseudo_attacks(color, sq)
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

/// The squares a bishop on `sq` attacks along the four diagonals, each up to and including
/// the first occupied square (of either colour).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let r = &SLIDER_RAYS[sq.index()];
    let occ = occupied.0;
    let rev = occ.swap_bytes();
    let inc = increasing(r.diag_inc8, occ) | increasing(r.diag_inc10, occ);
    let dec = increasing(r.diag_dec10_rev, rev) | increasing(r.diag_dec8_rev, rev);
    Bitboard(inc | dec.swap_bytes())
}

/// The squares a rook on `sq` attacks along its rank and file, each up to and including the
/// first occupied square (of either colour).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let r = &SLIDER_RAYS[sq.index()];
    let occ = occupied.0;
    Bitboard(rank_attacks(r, occ, occ.swap_bytes()) | file_attacks(sq, occ))
}

/// Bishop moves on an empty board.
#[inline]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    PSEUDO.0[sq.index()]
}

/// Rook moves on an empty board.
#[inline]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    PSEUDO.1[sq.index()]
}

/// Squares attacked by a `kind` piece of `color` on `sq`, given the occupancy.
#[inline(always)]
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
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for i in 0..20000 {
            let a = next();
            let b = next();
            let mut occ = (a as u128) << 64 | b as u128;
            // Dense, half and sparse occupancies.
            match i % 3 {
                0 => {}
                1 => occ &= (next() as u128) << 64 | next() as u128,
                _ => occ &= ((next() & next()) as u128) << 64 | (next() & next()) as u128,
            }
            let occ = Bitboard(occ & Bitboard::ALL.0);
            let s = Square::from_index(i % 81);
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
    fn check_candidates_cover_every_direct_check() {
        use PieceKind::{Gold, King};
        let e = Bitboard::EMPTY;
        for us in Color::ALL {
            for kind in PieceKind::ALL {
                for ksq in Square::all() {
                    let cand = check_candidates(us, kind, ksq);
                    for from in Square::all() {
                        let mut checks = false;
                        for to in attacks(us, kind, from, e).without(ksq) {
                            let promo = kind.can_promote()
                                && (from.in_promotion_zone(us) || to.in_promotion_zone(us));
                            checks |= kind != King && attacks(us, kind, to, e).contains(ksq);
                            checks |= promo && attacks(us, kind.promote(), to, e).contains(ksq);
                        }
                        assert!(
                            !checks || cand.contains(from),
                            "{us:?} {kind:?} {from} -> king {ksq}"
                        );
                    }
                }
            }
        }
        // The tables do filter: a gold far from the king is no candidate.
        assert!(!check_candidates(Color::Black, Gold, sq("5a")).contains(sq("5i")));
        assert!(check_candidates(Color::Black, Gold, sq("5a")).contains(sq("5c")));
        assert_eq!(
            check_candidates(Color::Black, King, sq("5a")),
            Bitboard::EMPTY
        );
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
