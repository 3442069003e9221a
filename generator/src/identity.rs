//! What makes two problems the same: the id of a position (mirror images share it) and the
//! skeleton of a solution (the same idea shifted on the board). The generator's dedup, the
//! pack and `tsume merge` all go by these two.

use sha2::{Digest, Sha256};
use tsume_solver::{Move, Piece, PieceKind, Position, Setup, Square};

/// The left–right mirror of a setup.
pub fn mirror(setup: &Setup) -> Setup {
    let mut m = setup.clone();
    for sq in Square::all() {
        m.board[sq.mirror().index()] = setup.board[sq.index()];
    }
    m
}

/// The id of a position: mirror images share it.
pub fn canonical_id(setup: &Setup) -> String {
    let a = setup.to_string();
    let b = mirror(setup).to_string();
    let canonical = if a <= b { a } else { b };
    let digest = Sha256::digest(canonical.as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The solution's skeleton: per move, the piece, drop or not, promotion, and the
/// destination relative to the defender king's starting square (mirror-normalised). Two
/// problems with one skeleton are the same idea shifted on the board. The pieces that move
/// like a gold (gold, promoted pawn, lance, knight, silver) are one kind here: a problem
/// that only swaps one for another is not a new problem.
pub fn skeleton(pos: &Position, moves: &[Move]) -> String {
    let Some(king) = pos.king(!pos.side_to_move()) else {
        return String::new();
    };
    let mut p = pos.clone();
    let mut parts = Vec::new();
    let mut mirror_sign: Option<i16> = None;
    for &m in moves {
        let piece = if let Some(kind) = m.drop_kind() {
            format!("{}*", kind.sfen_letter())
        } else {
            p.piece_at(m.from_sq())
                .map(|pc| {
                    if pc.kind.is_gold_like() {
                        Piece::new(pc.color, PieceKind::Gold).to_sfen()
                    } else {
                        pc.to_sfen()
                    }
                })
                .unwrap_or_default()
        };
        let dx = m.to().file() as i16 - king.file() as i16;
        let dy = m.to().rank() as i16 - king.rank() as i16;
        // The first sideways move fixes the orientation, so mirror images agree.
        let sign = *mirror_sign.get_or_insert(if dx < 0 {
            -1
        } else if dx > 0 {
            1
        } else {
            0
        });
        let dx = if sign < 0 { -dx } else { dx };
        parts.push(format!(
            "{piece}{dx:+}{dy:+}{}",
            if m.is_promotion() { "+" } else { "" }
        ));
        p.do_move(m);
    }
    parts.join(" ")
}
