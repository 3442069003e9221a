//! Arbitrary bytes → SFEN parser → position → move generator.
//!
//! Checks, for every input:
//! - no parser panics; errors have a non-empty message; `Setup` and `Position` agree;
//! - a parsed setup prints as an SFEN that parses back to the same setup, and a position
//!   prints as an SFEN that parses back to an equal position with the same keys;
//! - then, along a short walk chosen by the input's hash, at every visited position:
//!   the legal move list has no duplicates and agrees with the move counter,
//!   `has_legal_move` and the check generator; every legal move leaves a legal position
//!   (mover's king safe, full-set counts, no nifu, no dead piece), gives check exactly when
//!   `gives_check`/`CheckInfo` say so, is not a pawn-drop mate, prints and parses back, and
//!   `board_key_after`/`full_key_after` predict the keys `do_move` gives; do/undo restores
//!   the position, its keys and its checkers; and the legal move set
//!   equals the one of a slow reference generator written here from the rules (piece
//!   movements, promotion, dead pieces, nifu, pawn-drop mate, king safety).

#![no_main]

use libfuzzer_sys::fuzz_target;
use tsume_solver::movegen::{self, CheckInfo, MoveCounter};
use tsume_solver::{Color, Move, MoveList, ParsePositionError, PieceKind, Position, Setup, Square};

/// Plies of the walk below the parsed position.
const WALK_PLIES: usize = 4;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let setup = match Setup::from_sfen(text) {
        Ok(setup) => setup,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            assert_eq!(Position::from_sfen(text), Err(ParsePositionError::Sfen(e)));
            return;
        }
    };
    // Hand counts above 99 are kept by `Setup` (saturating at 255) but cannot be written
    // back as an SFEN count; such setups are never legal positions anyway.
    if setup.hands.iter().flatten().all(|&n| n <= 99) {
        let printed = setup.to_string();
        let again = Setup::from_sfen(&printed)
            .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
        assert_eq!(again, setup, "{text:?} → {printed:?}");
        assert_eq!(again.to_string(), printed);
    }
    let pos = match Position::from_setup(&setup) {
        Ok(pos) => pos,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            assert_eq!(
                Position::from_sfen(text),
                Err(ParsePositionError::Illegal(e))
            );
            return;
        }
    };
    assert_eq!(Position::from_sfen(text).as_ref(), Ok(&pos));
    let sfen = pos.to_sfen();
    let again = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{text:?} → {sfen:?}: {e}"));
    assert_eq!(again, pos, "{text:?} → {sfen:?}");
    assert_eq!(again.to_sfen(), sfen);
    assert_eq!(again.board_key(), pos.board_key(), "{sfen}");
    assert_eq!(again.full_key(), pos.full_key(), "{sfen}");
    assert_eq!(again.checkers(), pos.checkers(), "{sfen}");
    assert!(pos.is_consistent(), "{sfen}");

    let mut pos = pos;
    let mut seed = fnv1a(data);
    for _ in 0..=WALK_PLIES {
        let legal = check_moves(&mut pos);
        if legal.is_empty() {
            break;
        }
        seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
        let m = legal[(seed >> 33) as usize % legal.len()];
        pos.do_move(m);
    }
});

/// Checks the legal moves of `pos` (which is restored afterwards) and returns them.
fn check_moves(pos: &mut Position) -> MoveList {
    let sfen = pos.to_sfen();
    // Bitboards and kings agree with a from-scratch set-up (per child, `from_setup` below
    // checks the keys and checkers: `is_consistent` for every child would double the cost).
    assert!(pos.is_consistent(), "{sfen}");
    let before = pos.clone();
    let legal = pos.legal_moves();

    let mut sorted = legal.as_slice().to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), legal.len(), "duplicate legal moves in {sfen}");
    let mut counter = MoveCounter::default();
    movegen::generate_legal(pos, &mut counter);
    assert_eq!(counter.0, legal.len() as u64, "{sfen}");
    assert_eq!(movegen::has_legal_move(pos), !legal.is_empty(), "{sfen}");
    assert_eq!(
        pos.is_checkmate(),
        pos.in_check() && legal.is_empty(),
        "{sfen}"
    );

    let mut checks = MoveList::new();
    movegen::generate_checks(pos, &mut checks);
    let mut check_set = checks.as_slice().to_vec();
    check_set.sort_unstable();
    let n_checks = check_set.len();
    check_set.dedup();
    assert_eq!(
        check_set.len(),
        n_checks,
        "duplicate checking moves in {sfen}"
    );

    let ci = CheckInfo::new(pos);
    let us = pos.side_to_move();
    let mut played_checks = Vec::new();
    for &m in legal.iter() {
        let usi = m.to_string();
        assert_eq!(usi.parse::<Move>(), Ok(m), "{usi} in {sfen}");
        let gives = pos.gives_check(m);
        assert_eq!(ci.gives_check(pos, m), gives, "{usi} in {sfen}: CheckInfo");
        let is_pawn_drop = m.drop_kind() == Some(tsume_solver::PieceKind::Pawn);

        let board_key_after = pos.board_key_after(m);
        let full_key_after = pos.full_key_after(m);
        pos.do_move(m);
        let after = || pos.to_sfen();
        assert_eq!(
            pos.board_key(),
            board_key_after,
            "{usi} in {sfen}: board_key_after"
        );
        assert_eq!(
            pos.full_key(),
            full_key_after,
            "{usi} in {sfen}: full_key_after"
        );
        assert_eq!(pos.side_to_move(), !us);
        if let Some(k) = pos.king(us) {
            assert!(
                !pos.is_attacked(!us, k),
                "{usi} in {sfen} leaves the mover's king attacked: {}",
                after()
            );
        }
        assert_eq!(pos.in_check(), gives, "{usi} in {sfen}: gives_check");
        if pos.in_check() {
            played_checks.push(m);
        }
        if is_pawn_drop {
            assert!(!pos.is_checkmate(), "{usi} in {sfen} is a pawn-drop mate");
        }
        match Position::from_setup(&pos.to_setup()) {
            Ok(fresh) => {
                assert_eq!(fresh.board_key(), pos.board_key(), "{usi} in {sfen}");
                assert_eq!(fresh.full_key(), pos.full_key(), "{usi} in {sfen}");
                assert_eq!(fresh.checkers(), pos.checkers(), "{usi} in {sfen}");
            }
            Err(e) => panic!("{usi} in {sfen} gives an illegal position {}: {e}", after()),
        }
        assert_eq!(pos.last_move(), Some(m));
        pos.undo_move();

        assert_eq!(*pos, before, "{usi} in {sfen}: undo");
        assert_eq!(pos.board_key(), before.board_key(), "{usi} in {sfen}: undo");
        assert_eq!(pos.full_key(), before.full_key(), "{usi} in {sfen}: undo");
        assert_eq!(pos.checkers(), before.checkers(), "{usi} in {sfen}: undo");
        assert_eq!(pos.move_number(), before.move_number());
    }
    let mut reference = reference_legal(pos, 2);
    reference.sort_unstable();
    if reference != sorted {
        let missing: Vec<String> = reference
            .iter()
            .filter(|m| !sorted.contains(m))
            .map(|m| m.to_string())
            .collect();
        let extra: Vec<String> = sorted
            .iter()
            .filter(|m| !reference.contains(m))
            .map(|m| m.to_string())
            .collect();
        panic!(
            "legal moves of {sfen} differ from the reference: missing {missing:?}, extra {extra:?}"
        );
    }
    played_checks.sort_unstable();
    assert_eq!(
        check_set, played_checks,
        "generate_checks disagrees with the legal moves that give check in {sfen}"
    );
    // A few moves through the string API (it regenerates the moves: not for all of them).
    for &m in legal.iter().take(2).chain(legal.iter().last()) {
        assert_eq!(pos.parse_move(&m.to_string()), Ok(m), "{m} in {sfen}");
    }
    legal
}

fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

// ---------------------------------------------------------------------------------------
// Reference move generator: slow, written from the rules, sharing no code with movegen
// or the attack tables (it uses only the board accessors and do/undo of `Position`).
// ---------------------------------------------------------------------------------------

const GOLD_STEPS: &[(i8, i8)] = &[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)];
const KING_STEPS: &[(i8, i8)] = &[
    (0, -1),
    (1, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
];
const DIAGONALS: &[(i8, i8)] = &[(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ORTHOGONALS: &[(i8, i8)] = &[(0, 1), (0, -1), (1, 0), (-1, 0)];

/// (file, rank) offsets; a rank offset of −1 is Black's forward.
type Offsets = &'static [(i8, i8)];

/// (steps, slides) of a piece in Black's orientation.
fn movement(kind: PieceKind) -> (Offsets, Offsets) {
    use PieceKind::*;
    match kind {
        Pawn => (&[(0, -1)], &[]),
        Lance => (&[], &[(0, -1)]),
        Knight => (&[(1, -2), (-1, -2)], &[]),
        Silver => (&[(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)], &[]),
        Gold | ProPawn | ProLance | ProKnight | ProSilver => (GOLD_STEPS, &[]),
        King => (KING_STEPS, &[]),
        Bishop => (&[], DIAGONALS),
        Rook => (&[], ORTHOGONALS),
        Horse => (ORTHOGONALS, DIAGONALS),
        Dragon => (DIAGONALS, ORTHOGONALS),
    }
}

/// Squares the piece on `from` attacks (own pieces included).
fn targets(pos: &Position, from: Square) -> Vec<Square> {
    let p = pos.piece_at(from).expect("a piece");
    let sign = if p.color == Color::Black { 1 } else { -1 };
    let (steps, slides) = movement(p.kind);
    let mut out = Vec::new();
    for &(df, dr) in steps {
        if let Some(to) = from.offset(df * sign, dr * sign) {
            out.push(to);
        }
    }
    for &(df, dr) in slides {
        let mut s = from;
        while let Some(to) = s.offset(df * sign, dr * sign) {
            out.push(to);
            if pos.piece_at(to).is_some() {
                break;
            }
            s = to;
        }
    }
    out
}

fn ref_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    let sign = if by == Color::Black { 1 } else { -1 };
    // A stepping piece one step (in its own orientation) away from `sq`.
    for &(df, dr) in KING_STEPS.iter().chain(&[(1, -2), (-1, -2)]) {
        if let Some(p) = sq
            .offset(-df * sign, -dr * sign)
            .and_then(|s| pos.piece_at(s))
        {
            if p.color == by && movement(p.kind).0.contains(&(df, dr)) {
                return true;
            }
        }
    }
    // The first piece along each line from `sq`, if it slides towards `sq`.
    for &(df, dr) in DIAGONALS.iter().chain(ORTHOGONALS) {
        let mut s = sq;
        while let Some(from) = s.offset(-df * sign, -dr * sign) {
            if let Some(p) = pos.piece_at(from) {
                if p.color == by && movement(p.kind).1.contains(&(df, dr)) {
                    return true;
                }
                break;
            }
            s = from;
        }
    }
    false
}

fn ref_king(pos: &Position, color: Color) -> Option<Square> {
    Square::all().find(
        |&s| matches!(pos.piece_at(s), Some(p) if p.color == color && p.kind == PieceKind::King),
    )
}

/// Moves allowed by piece movement, promotion, dead-piece and nifu rules.
fn pseudo_legal(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let mut out = Vec::new();
    for from in Square::all() {
        let Some(p) = pos.piece_at(from) else {
            continue;
        };
        if p.color != us {
            continue;
        }
        for to in targets(pos, from) {
            if matches!(pos.piece_at(to), Some(q) if q.color == us) {
                continue;
            }
            if p.kind.can_promote() && (from.in_promotion_zone(us) || to.in_promotion_zone(us)) {
                out.push(Move::normal(from, to, true));
            }
            if !p.kind.is_dead_on(to.relative_rank(us)) {
                out.push(Move::normal(from, to, false));
            }
        }
    }
    for kind in PieceKind::HAND {
        if pos.hand(us).count(kind) == 0 {
            continue;
        }
        for to in Square::all() {
            if pos.piece_at(to).is_some() || kind.is_dead_on(to.relative_rank(us)) {
                continue;
            }
            let nifu = kind == PieceKind::Pawn
                && (0..9).any(|r| {
                    matches!(pos.piece_at(Square::new(to.file(), r)),
                        Some(q) if q.color == us && q.kind == PieceKind::Pawn)
                });
            if !nifu {
                out.push(Move::drop(kind, to));
            }
        }
    }
    out
}

/// Legal moves by the definition: pseudo-legal, own king not capturable afterwards, and
/// no pawn drop that checkmates. `depth` bounds the nested mate tests (at 0 a pawn-drop
/// mate counts as legal, which only matters for replies to replies).
fn reference_legal(pos: &mut Position, depth: u32) -> Vec<Move> {
    let us = pos.side_to_move();
    let mut legal = Vec::new();
    for m in pseudo_legal(pos) {
        pos.do_move(m);
        let safe = ref_king(pos, us).is_none_or(|k| !ref_attacked(pos, k, !us));
        let mut ok = safe;
        if safe && depth > 0 && m.drop_kind() == Some(PieceKind::Pawn) {
            if let Some(k) = ref_king(pos, !us) {
                if ref_attacked(pos, k, us) && reference_legal(pos, depth - 1).is_empty() {
                    ok = false; // uchifuzume
                }
            }
        }
        pos.undo_move();
        if ok {
            legal.push(m);
        }
    }
    legal
}
