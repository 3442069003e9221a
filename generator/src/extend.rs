//! Backward extension: from a sound L-ply problem, a position two plies earlier, an attacker
//! check and a defender reply that lead to it, as a candidate for an (L+2)-ply problem.
//! Random placement rarely gives more than a few plies; chains of extensions reach the long
//! lengths, and the pipeline decides as for any candidate whether the result is sound.
//!
//! A move is retracted by a retro move ("unmove"): a dropped piece goes back to its
//! owner's hand, a moved piece goes back to a square it could have come from (unpromoted if
//! it may have promoted on the way), and the square it arrived on may give back a piece it
//! captured. Every extension is replayed forwards (the check, then the reply, reaching the
//! base problem exactly) before it is returned, so a retro-move slip can only cost a
//! candidate, never produce a wrong one.

use tsume_solver::attacks::attacks;
use tsume_solver::{Bitboard, Color, Piece, PieceKind, Position, Setup, Square};

use crate::rng::Rng;

/// Retro moves drawn (without replacement) at each of the two steps before giving up: the
/// lists run to hundreds once captured pieces given back are counted. The draws are
/// uniform: preferring replies that are forced, or ones with many alternatives, gave fewer
/// sound problems (benches/RESULTS.md §6c).
const TRIES_PER_STEP: usize = 12;

/// A position two plies before `base` (attacker to move): a check and a reply lead from it
/// to `base`. `None` if no retro pair was found within a few draws.
pub fn extend(base: &Setup, rng: &mut Rng) -> Option<Setup> {
    let target = Position::from_setup(base).ok()?;
    let mut before_reply: Vec<Setup> = unmoves(base, Color::White)
        .into_iter()
        .filter(|s| Position::from_setup(s).is_ok_and(|p| p.in_check()))
        .collect();
    for _ in 0..TRIES_PER_STEP.min(before_reply.len()) {
        let i = rng.below(before_reply.len() as u64) as usize;
        let reply_from = before_reply.swap_remove(i);
        let mut before_check = unmoves(&reply_from, Color::Black);
        for _ in 0..TRIES_PER_STEP.min(before_check.len()) {
            let j = rng.below(before_check.len() as u64) as usize;
            let start = before_check.swap_remove(j);
            if leads_to(&start, &target) {
                return Some(start);
            }
        }
    }
    None
}

/// Whether some check from `start` and some reply to it reach `target` (board, hands and
/// side to move).
fn leads_to(start: &Setup, target: &Position) -> bool {
    let Ok(mut pos) = Position::from_setup(start) else {
        return false;
    };
    if pos.side_to_move() != Color::Black || pos.in_check() {
        return false;
    }
    for check in pos.legal_moves().iter().copied() {
        if !pos.gives_check(check) {
            continue;
        }
        pos.do_move(check);
        let found = pos.legal_moves().iter().any(|&reply| {
            pos.do_move(reply);
            let same = pos == *target;
            pos.undo_move();
            same
        });
        pos.undo_move();
        if found {
            return true;
        }
    }
    false
}

fn occupancy(setup: &Setup) -> Bitboard {
    Square::all()
        .filter(|s| setup.piece_at(*s).is_some())
        .fold(Bitboard::EMPTY, |b, s| b.with(s))
}

/// The set-ups from which `mover` could have reached `setup` in one move, with `mover` to
/// move and the defender's (White's) hand refilled to the full set. `setup` has the
/// defender's hand filled. Not validated: callers check legality.
fn unmoves(setup: &Setup, mover: Color) -> Vec<Setup> {
    let occupied = occupancy(setup);
    let mut out = Vec::new();
    let mut push = |mut s: Setup| {
        s.side_to_move = mover;
        s.hands[Color::White.index()] = [0; 7];
        s.fill_hand(Color::White);
        out.push(s);
    };
    for to in Square::all() {
        let Some(piece) = setup.piece_at(to) else {
            continue;
        };
        if piece.color != mover {
            continue;
        }
        // A drop: an unpromoted piece other than the king goes back to the hand.
        if piece.kind != PieceKind::King && !piece.kind.is_promoted() {
            let mut s = setup.clone();
            s.board[to.index()] = None;
            s.hands[mover.index()][piece.kind.index()] += 1;
            push(s);
        }
        // A board move, the piece unpromoted before it if it may have promoted.
        let unpromoted = piece.kind.is_promoted().then(|| piece.kind.unpromote());
        for before in std::iter::once(piece.kind).chain(unpromoted) {
            let promoted_here = before != piece.kind;
            // The squares a `before` piece of `mover` reaches `to` from: its attacks seen
            // from `to` with the colours swapped.
            let froms = attacks(!mover, before, to, occupied).and_not(occupied);
            for from in froms.squares() {
                if promoted_here && !to.in_promotion_zone(mover) && !from.in_promotion_zone(mover) {
                    continue;
                }
                let mut moved = setup.clone();
                moved.board[to.index()] = None;
                moved.board[from.index()] = Some(Piece::new(mover, before));
                push(moved.clone());
                for captured in captures_given_back(setup, mover) {
                    let mut s = moved.clone();
                    s.board[to.index()] = Some(Piece::new(!mover, captured));
                    s.hands[mover.index()][captured.unpromote().index()] -= 1;
                    push(s);
                }
            }
        }
    }
    out
}

/// The kinds of `!mover` piece a `mover` move may have captured: what `mover` holds in
/// hand (the defender's hand is the rest of the set), each also promoted. Kings are never
/// captured.
fn captures_given_back(setup: &Setup, mover: Color) -> Vec<PieceKind> {
    let mut kinds = Vec::new();
    for kind in PieceKind::HAND {
        if setup.hands[mover.index()][kind.index()] > 0 {
            kinds.push(kind);
            if kind.can_promote() {
                kinds.push(kind.promote());
            }
        }
    }
    kinds
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(sfen: &str) -> Setup {
        let mut s: Setup = sfen.parse().unwrap();
        s.hands[Color::White.index()] = [0; 7];
        s.fill_hand(Color::White);
        s
    }

    #[test]
    fn every_extension_replays_to_its_base() {
        // A 3-ply problem of the starter pack and a 1-ply mate (head-of-king gold).
        for sfen in [
            "7nl/7k1/6ppp/9/9/9/9/9/9 b GS 1",
            "4k4/9/4P4/9/9/9/9/9/9 b G 1",
        ] {
            let base = setup(sfen);
            let target = Position::from_setup(&base).unwrap();
            let mut found = 0;
            for i in 0..40 {
                let mut rng = Rng::for_candidate(3, i);
                if let Some(start) = extend(&base, &mut rng) {
                    found += 1;
                    assert!(leads_to(&start, &target), "{start}");
                    let pos = Position::from_setup(&start).unwrap();
                    assert!(!pos.in_check());
                    assert!(pos.missing_pieces().is_empty(), "{start}");
                }
            }
            assert!(found > 20, "{sfen}: {found} of 40");
        }
    }

    #[test]
    fn unmoves_include_a_drop_a_king_step_and_a_capture_given_back() {
        // White king on 5a, Black gold on 5b: dropped, or moved there (capturing what
        // Black holds, a silver).
        let s = setup("4k4/4G4/4P4/9/9/9/9/9/9 w S 1");
        let black = unmoves(&s, Color::Black);
        let sfens: Vec<String> = black.iter().map(|s| s.to_string()).collect();
        assert!(sfens
            .iter()
            .any(|f| f.starts_with("4k4/9/4P4/9/9/9/9/9/9 b GS")));
        assert!(sfens
            .iter()
            .any(|f| f.starts_with("4k4/4s4/4PG3/9/9/9/9/9/9 b 2r2b3g3s4n4l17p")));
        // No capture of a piece Black does not hold.
        assert!(!sfens.iter().any(|f| f.starts_with("4k4/4n4/4PG3/")));
        let white = unmoves(&setup("3k5/4G4/4P4/9/9/9/9/9/9 b - 1"), Color::White);
        assert!(white
            .iter()
            .any(|s| s.to_string().starts_with("4k4/4G4/4P4/9/9/9/9/9/9 w")));
    }
}
