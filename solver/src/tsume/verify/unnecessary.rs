//! 不要駒: a piece is unnecessary when the problem without it (the piece moved into the
//! defender's hand) is still sound with the same value.

use super::*;

impl Verifier<'_> {
    /// The unnecessary pieces of the sound problem `pos` (value `value`) as flaws, in the
    /// pieces' order. Asked in rounds of growing budgets, as the 余詰 checks (see
    /// `second_solution`), the questions of a round side by side.
    pub(super) fn unnecessary_pieces(&mut self, pos: &Position, value: i32) -> Vec<Flaw> {
        let pieces = removable_pieces(pos);
        let mut found: Vec<Option<Flaw>> = vec![None; pieces.len()];
        let mut pending: Vec<usize> = (0..pieces.len()).collect();
        let threads = self.options.limits.threads.max(1);
        for (budget, last) in round_budgets(self.budget()) {
            // Side by side, each piece's question alone when there are enough of them.
            let per_piece = (threads / pending.len().max(1)).max(1);
            let this = &*self;
            let results = crate::dfpn::side_by_side(threads, &pending, |_, &i| {
                this.sound_without(pos, pieces[i], value, budget, per_piece)
            });
            let mut left = Vec::new();
            for (i, (result, nodes)) in pending.into_iter().zip(results) {
                self.nodes += nodes;
                let piece = pieces[i];
                found[i] = match result {
                    Ok(true) => Some(Flaw::Unnecessary(piece)),
                    Ok(false) => None,
                    Err(why) if !last && why.may_settle_with_more_nodes() => {
                        left.push(i);
                        None
                    }
                    Err(why) => Some(Flaw::unproven(Question::Unnecessary(piece), why)),
                };
            }
            pending = left;
        }
        found.into_iter().flatten().collect()
    }

    /// Whether the problem with `piece` moved into the defender's hand is still sound with
    /// the same value (then the piece is unnecessary), searched with `threads` threads in
    /// the shared tables; with the nodes searched.
    fn sound_without(
        &self,
        pos: &Position,
        piece: PieceAt,
        value: i32,
        budget: u64,
        threads: usize,
    ) -> (Result<bool, Unsettled>, u64) {
        let Ok(reduced) = Position::from_setup(&without_piece(&pos.to_setup(), piece)) else {
            return (Ok(false), 0);
        };
        let limits = Limits {
            threads,
            ..self.limits_with(budget)
        };
        let attacker = reduced.side_to_move();
        let mut ev = Evaluator::in_shared_tables(self.raw, self.lower_bound, attacker, limits);
        let mut root = reduced.clone();
        let mut tie_break = TieBreak::new();
        let result = (|| {
            // Same value or not, by bounded searches only: mate within v but not v − 2.
            if !ev.mate_or(&mut root, value)? || ev.mate_or(&mut root, value - 2)? {
                return Ok(false);
            }
            let line = best_play_line(&mut ev, &mut root, value, &mut tie_break)?;
            if !hand_after_line(&mut root, &line, attacker).is_empty() {
                // Pieces left over make the reduced problem unsound, unless an untried
                // defence leaves none: then it is not known.
                return if tie_break.cut_short() {
                    Err(Unsettled::CutShort)
                } else {
                    Ok(false)
                };
            }
            let allow_twins = self.options.allow_promotion_choice;
            Ok(second_solution(&mut ev, &mut root, &line, allow_twins)?
                .cook
                .is_none())
        })();
        (result, ev.nodes)
    }
}

/// `setup` (attacker to move) with `piece` moved into the defender's hand.
pub fn without_piece(setup: &Setup, piece: PieceAt) -> Setup {
    let mut s = setup.clone();
    let kind = match piece {
        PieceAt::Board(sq, kind) => {
            s.board[sq.index()] = None;
            kind.unpromote()
        }
        PieceAt::Hand(kind) => {
            s.hands[s.side_to_move.index()][kind.index()] -= 1;
            kind
        }
    };
    s.hands[(!s.side_to_move).index()][kind.index()] += 1;
    s
}

/// Every non-king piece on the board, and each kind in the attacker's hand.
fn removable_pieces(pos: &Position) -> Vec<PieceAt> {
    let mut pieces = Vec::new();
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            if p.kind != PieceKind::King {
                pieces.push(PieceAt::Board(sq, p.kind));
            }
        }
    }
    for kind in PieceKind::HAND {
        if pos.hand(pos.side_to_move()).has(kind) {
            pieces.push(PieceAt::Hand(kind));
        }
    }
    pieces
}
