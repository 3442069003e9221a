//! Japanese move notation (▲２三銀成 △同玉 …), as problem books and KIF files write it.

use crate::color::Color;
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;

const FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// The square in Japanese: full-width file digit and kanji rank (`２三`).
pub fn japanese_square(sq: Square) -> String {
    format!("{}{}", FILES[sq.file() as usize], RANKS[sq.rank() as usize])
}

/// The side's mark: ▲ for Black (sente), △ for White (gote).
pub fn side_mark(color: Color) -> &'static str {
    match color {
        Color::Black => "▲",
        Color::White => "△",
    }
}

/// One move in Japanese, without the side mark: `２三銀成`, `同玉`, `５五角打`, `３三桂不成`.
/// `previous_to` is the destination of the previous move (for 同).
pub fn japanese_move(pos: &Position, m: Move, previous_to: Option<Square>) -> String {
    let to = m.to();
    let mut s = if previous_to == Some(to) {
        "同".to_string()
    } else {
        japanese_square(to)
    };
    let piece = pos.moved_piece(m);
    s += piece.kind.japanese();
    if m.is_drop() {
        s += "打";
    } else if m.is_promotion() {
        s += "成";
    } else if piece.kind.can_promote() {
        let from = m.from_sq();
        let us = pos.side_to_move();
        if from.in_promotion_zone(us) || to.in_promotion_zone(us) {
            s += "不成";
        }
    }
    s
}

/// One move as a KIF move line writes it: the destination (`同　` for a recapture), the
/// piece as it stands before the move (`成銀`, `龍`), `成`/`不成`/`打`, then the origin in
/// parentheses for a board move: `２三銀成(32)`, `同　玉(12)`, `５五角打`. The origin makes
/// the move unambiguous, so KIF needs no 右/左/直/上/引/寄.
pub fn kif_move(pos: &Position, m: Move, previous_to: Option<Square>) -> String {
    let mut s = japanese_move(pos, m, previous_to);
    if let Some(rest) = s.strip_prefix("同") {
        s = format!("同　{rest}");
    }
    if let Some(from) = m.from() {
        s += &format!("({}{})", from.file() + 1, from.rank() + 1);
    }
    s
}

/// A line of moves from `pos` in Japanese with side marks, space separated.
///
/// ```
/// use tsume_solver::notation::japanese_line;
/// use tsume_solver::{Move, Position};
///
/// let moves: Vec<Move> = ["7g7f", "3c3d", "8h2b+", "3a2b"]
///     .iter()
///     .map(|m| m.parse().unwrap())
///     .collect();
/// assert_eq!(
///     japanese_line(&Position::startpos(), &moves),
///     "▲７六歩 △３四歩 ▲２二角成 △同銀"
/// );
/// ```
pub fn japanese_line(pos: &Position, moves: &[Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    let mut prev = None;
    for &m in moves {
        out.push(format!(
            "{}{}",
            side_mark(p.side_to_move()),
            japanese_move(&p, m, prev)
        ));
        prev = Some(m.to());
        p.do_move(m);
    }
    out.join(" ")
}

/// Japanese names of pieces in hand, e.g. `飛 金2` (`なし` when empty).
pub fn japanese_hand(hand: crate::hand::Hand) -> String {
    let mut parts = Vec::new();
    for kind in PieceKind::HAND_SFEN_ORDER {
        let n = hand.count(kind);
        match n {
            0 => {}
            1 => parts.push(kind.japanese().to_string()),
            _ => parts.push(format!("{}{}", kind.japanese(), n)),
        }
    }
    if parts.is_empty() {
        "なし".to_string()
    } else {
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_style() {
        let pos = Position::from_sfen("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1").unwrap();
        let moves: Vec<Move> = ["2c2b+", "1b1c", "R*2c"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        assert_eq!(japanese_line(&pos, &moves), "▲２二歩成 △１三玉 ▲２三飛打");
        let pos = Position::from_sfen("9/9/9/9/9/9/9/9/9 b - 1").unwrap();
        assert_eq!(japanese_hand(pos.hand(Color::Black)), "なし");
    }

    #[test]
    fn kif_moves_name_the_origin() {
        let pos = Position::from_sfen("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1").unwrap();
        let m: Move = "2c2b+".parse().unwrap();
        assert_eq!(kif_move(&pos, m, None), "２二歩成(23)");
        let m: Move = "R*2c".parse().unwrap();
        assert_eq!(kif_move(&pos, m, None), "２三飛打");
        let pos = Position::from_sfen("4k4/9/9/4S4/9/9/9/9/9 b - 1").unwrap();
        let m: Move = "5d5c".parse().unwrap();
        assert_eq!(kif_move(&pos, m, Some(m.to())), "同　銀不成(54)");
    }

    #[test]
    fn same_square_and_non_promotion() {
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
        let m: Move = "G*5b".parse().unwrap();
        assert_eq!(japanese_move(&pos, m, None), "５二金打");
        let pos = Position::from_sfen("4k4/9/9/4S4/9/9/9/9/9 b - 1").unwrap();
        let m: Move = "5d5c".parse().unwrap();
        assert_eq!(japanese_move(&pos, m, Some(m.to())), "同銀不成");
    }
}
