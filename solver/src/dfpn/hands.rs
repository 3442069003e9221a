//! Proof pieces (証明駒) and disproof pieces (反証駒): the least attacker hand with which a
//! proof still holds, and the greatest with which a disproof still holds. They let one
//! result stand for every superior (proof) or inferior (disproof) hand in the table.

use crate::attacks::between;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::hand::Hand;
use crate::movegen::CheckInfo;
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;

/// The largest hand a legal position can have: the full set of every hand kind. A disproof
/// with this hand holds for every hand.
pub fn max_hand() -> Hand {
    let mut h = Hand::EMPTY;
    for k in PieceKind::HAND {
        h = h.with_count(k, k.full_set_count() as u32);
    }
    h
}

/// `hand` plus one `kind`, staying within the full set (a disproof hand at the full set
/// already covers every hand).
#[inline]
fn add_capped(hand: Hand, kind: PieceKind) -> Hand {
    if hand.count(kind) < kind.full_set_count() as u32 {
        hand.add(kind)
    } else {
        hand
    }
}

/// Squares where `color` may drop `kind` as far as dead-piece rules go.
fn droppable(color: Color, kind: PieceKind) -> Bitboard {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => !Bitboard::far_ranks(color, 1),
        PieceKind::Knight => !Bitboard::far_ranks(color, 2),
        _ => Bitboard::ALL,
    }
}

/// Proof hand of an OR node proven by `m`, from the proof hand of the child it leads to.
#[inline]
pub fn before_attacker_move(pos: &Position, m: Move, child_proof: Hand) -> Hand {
    match m.drop_kind() {
        Some(kind) => add_capped(child_proof, kind),
        None => match pos.captured_piece(m) {
            Some(c) if child_proof.has(c.kind.unpromote()) => {
                child_proof.remove(c.kind.unpromote())
            }
            _ => child_proof,
        },
    }
}

/// Disproof hand of an OR node from the disproof hand of the child reached by `m`.
#[inline]
pub fn disproof_before_attacker_move(pos: &Position, m: Move, child_disproof: Hand) -> Hand {
    // Same translation: a drop used one piece, a capture gained one.
    before_attacker_move(pos, m, child_disproof)
}

/// Completes an AND node's proof hand (the kind-wise max of its children's): for every kind
/// the defender could interpose with a drop if it had one, but has none because the attacker
/// holds the rest, the proof needs all the attacker's pieces of that kind.
pub fn and_node_proof_hand(pos: &Position, attacker: Color, children_max: Hand) -> Hand {
    let defender = !attacker;
    let mut proof = children_max;
    let Some(ksq) = pos.king(defender) else {
        return proof;
    };
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.has_more_than_one() {
        return proof;
    }
    let gap = between(ksq, checkers.single());
    if gap.is_empty() {
        return proof;
    }
    let defender_hand = pos.hand(defender);
    let attacker_hand = pos.hand(attacker);
    for kind in PieceKind::HAND {
        if !defender_hand.has(kind) && (gap & droppable(defender, kind)).is_nonempty() {
            proof = proof.with_count(kind, attacker_hand.count(kind));
        }
    }
    proof
}

/// Completes an OR node's disproof hand (the kind-wise min over its children): for every kind
/// the attacker lacks but could drop with check if it had one, the disproof only holds
/// without it.
pub fn or_node_disproof_hand(pos: &Position, ci: &CheckInfo, children_min: Hand) -> Hand {
    let attacker = pos.side_to_move();
    let hand = pos.hand(attacker);
    let mut disproof = children_min;
    let empty = !pos.occupied();
    for kind in PieceKind::HAND {
        if hand.has(kind) {
            continue;
        }
        let mut targets = ci.check_squares[kind.index()] & empty & droppable(attacker, kind);
        if kind == PieceKind::Pawn {
            // A pawn drop that checks is in front of the king; nifu may forbid it, but only
            // if we keep the file's pawn, which a bigger hand does not change.
            targets = targets.and_not(pos.pieces_of(attacker, PieceKind::Pawn).fill_files());
        }
        if targets.is_nonempty() {
            disproof = disproof.with_count(kind, 0);
        }
    }
    disproof
}

/// Disproof hand of an AND node disproven by the defender's move `m`, from the child's: if
/// `m` drops a piece the defender must still have it, so the attacker may not hold more of
/// that kind than now.
#[inline]
pub fn and_node_disproof_hand(pos: &Position, m: Move, child_disproof: Hand) -> Hand {
    match m.drop_kind() {
        Some(kind) => {
            let now = pos.hand(!pos.side_to_move()).count(kind);
            child_disproof.with_count(kind, child_disproof.count(kind).min(now))
        }
        None => child_disproof,
    }
}
