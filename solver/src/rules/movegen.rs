//! Move generators with explicit contracts.
//!
//! | generator | position | yields |
//! |---|---|---|
//! | [`generate_legal`] | any | every legal move, each non-promotion that is legal included |
//! | [`generate_evasions`] | side to move in check | every legal move (all of them evade) |
//! | [`generate_checks`] | any (also when in check) | every legal move that gives check |
//!
//! "Legal" follows the rules doc: own king never left attacked (when there is one), nifu, no
//! dead drops or dead non-promotions, and no pawn-drop mate (打ち歩詰め). Each generator feeds
//! a [`MoveSink`], which may stop the generation early by returning `false`.

use crate::attacks::{self, aligned, between, line};
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::piece::PieceKind::{self, *};
use crate::position::{IllegalMoveError, Position};
use crate::square::Square;

/// Receives generated moves; returning `false` stops the generator.
pub trait MoveSink {
    /// Takes one move; `false` asks the generator to stop.
    fn push(&mut self, m: Move) -> bool;
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) -> bool {
        MoveList::push(self, m);
        true
    }
}

/// Counts moves.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn push(&mut self, _: Move) -> bool {
        self.0 += 1;
        true
    }
}

/// Keeps the first move and stops.
#[derive(Default)]
pub struct FirstMove(pub Option<Move>);

impl MoveSink for FirstMove {
    #[inline]
    fn push(&mut self, m: Move) -> bool {
        self.0 = Some(m);
        false
    }
}

/// Adapts a closure into a sink.
pub struct FnSink<F: FnMut(Move) -> bool>(pub F);

impl<F: FnMut(Move) -> bool> MoveSink for FnSink<F> {
    #[inline]
    fn push(&mut self, m: Move) -> bool {
        (self.0)(m)
    }
}

/// What the side to move needs to know to tell which of its moves give check.
#[derive(Clone, Debug)]
pub struct CheckInfo {
    /// The opponent's king.
    pub king: Option<Square>,
    /// `check_squares[k]`: squares from which a piece of kind `k` (ours) attacks that king.
    pub check_squares: [Bitboard; PieceKind::NUM],
    /// Our pieces that alone block one of our sliders from the king (moving them off the
    /// line gives a discovered check).
    pub discoverers: Bitboard,
}

impl CheckInfo {
    /// The checking information of `pos` for its side to move.
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let them = !us;
        let mut check_squares = [Bitboard::EMPTY; PieceKind::NUM];
        let Some(ksq) = pos.king(them) else {
            return CheckInfo {
                king: None,
                check_squares,
                discoverers: Bitboard::EMPTY,
            };
        };
        let occ = pos.occupied();
        let gold = attacks::gold_attacks(them, ksq);
        let bishop = attacks::bishop_attacks(ksq, occ);
        let rook = attacks::rook_attacks(ksq, occ);
        let king = attacks::king_attacks(ksq);
        check_squares[Pawn.index()] = attacks::pawn_attacks(them, ksq);
        check_squares[Lance.index()] = attacks::lance_attacks(them, ksq, occ);
        check_squares[Knight.index()] = attacks::knight_attacks(them, ksq);
        check_squares[Silver.index()] = attacks::silver_attacks(them, ksq);
        check_squares[Bishop.index()] = bishop;
        check_squares[Rook.index()] = rook;
        for k in [Gold, ProPawn, ProLance, ProKnight, ProSilver] {
            check_squares[k.index()] = gold;
        }
        check_squares[Horse.index()] = bishop | king;
        check_squares[Dragon.index()] = rook | king;
        let discoverers = pos.slider_blockers(us, ksq) & pos.pieces(us);
        CheckInfo {
            king: Some(ksq),
            check_squares,
            discoverers,
        }
    }

    /// Whether the legal move `m` gives check.
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        let Some(ksq) = self.king else { return false };
        let to = m.to();
        if self.check_squares[pos.moved_kind_after(m).index()].contains(to) {
            return true;
        }
        match m.from() {
            Some(from) => self.discoverers.contains(from) && !aligned(from, to, ksq),
            None => false,
        }
    }
}

/// Squares where a piece of `kind` may be dropped by `color` without being dead.
#[inline]
fn drop_zone(color: Color, kind: PieceKind) -> Bitboard {
    const BLACK_LP: Bitboard = Bitboard::far_ranks(Color::Black, 1).complement();
    const WHITE_LP: Bitboard = Bitboard::far_ranks(Color::White, 1).complement();
    const BLACK_N: Bitboard = Bitboard::far_ranks(Color::Black, 2).complement();
    const WHITE_N: Bitboard = Bitboard::far_ranks(Color::White, 2).complement();
    match (kind, color) {
        (Pawn | Lance, Color::Black) => BLACK_LP,
        (Pawn | Lance, Color::White) => WHITE_LP,
        (Knight, Color::Black) => BLACK_N,
        (Knight, Color::White) => WHITE_N,
        _ => Bitboard::ALL,
    }
}

/// Pushes the promotion and/or non-promotion of a board move, as the rules allow, keeping
/// only the variants for which `keep(promoted)` holds.
#[inline]
fn push_board_move<S: MoveSink>(
    sink: &mut S,
    us: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
    mut keep: impl FnMut(bool) -> bool,
) -> bool {
    if kind.can_promote() && (from.in_promotion_zone(us) || to.in_promotion_zone(us)) {
        if keep(true) && !sink.push(Move::normal(from, to, true)) {
            return false;
        }
        if kind.is_dead_on(to.relative_rank(us)) {
            return true;
        }
    }
    if keep(false) {
        return sink.push(Move::normal(from, to, false));
    }
    true
}

/// Whether dropping a pawn of the side to move on `to` would checkmate (打ち歩詰め).
/// `to` must be the square in front of the opponent's king.
pub fn is_pawn_drop_mate(pos: &Position, to: Square) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let Some(ksq) = pos.king(them) else {
        return false;
    };
    let occ = pos.occupied().with(to);
    // The king steps to a square we do not attack (capturing the pawn included).
    let escapes = attacks::king_attacks(ksq) & !pos.pieces(them);
    if escapes
        .and_not(pos.attacks_next_to(us, ksq, occ.without(ksq)))
        .is_nonempty()
    {
        return false;
    }
    // Another piece captures the pawn without exposing its king.
    let capturers = pos.attackers_to(them, to, occ).without(ksq);
    let our_bishops = pos.bishop_sliders() & pos.pieces(us);
    let our_rooks = pos.rook_sliders() & pos.pieces(us);
    let our_lances = pos.pieces_of(us, Lance);
    for from in capturers {
        let after = occ.without(from);
        let exposed = (attacks::bishop_attacks(ksq, after) & our_bishops)
            | (attacks::rook_attacks(ksq, after) & our_rooks)
            | (attacks::lance_attacks(them, ksq, after) & our_lances);
        if exposed.is_empty() {
            return false;
        }
    }
    true
}

/// Drops of the side to move onto `targets(kind)` (already restricted to empty squares by
/// the caller), applying nifu, dead-drop and pawn-drop-mate rules.
#[inline]
fn generate_drops<S: MoveSink>(
    pos: &Position,
    sink: &mut S,
    targets: impl Fn(PieceKind) -> Bitboard,
) -> bool {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    if hand.is_empty() {
        return true;
    }
    // One call per kind, so that the compiler, inlining each, sees its kind as a constant
    // (the hand field and the drop zone fold; a loop over the kinds cost 7 % more
    // instructions, benches/RESULTS.md §48). The order is the generator's: pawn, lance,
    // knight, silver, gold, bishop, rook.
    let mut kind_drops = |kind: PieceKind| -> bool {
        if !hand.has(kind) {
            return true;
        }
        let mut t = targets(kind) & drop_zone(us, kind);
        if kind == Pawn {
            t = t.and_not(pos.pieces_of(us, Pawn).fill_files());
            if let Some(ksq) = pos.king(!us) {
                if let Some(front) = attacks::pawn_attacks(!us, ksq).first() {
                    if t.contains(front) && is_pawn_drop_mate(pos, front) {
                        t = t.without(front);
                    }
                }
            }
        }
        for to in t {
            if !sink.push(Move::drop(kind, to)) {
                return false;
            }
        }
        true
    };
    kind_drops(Pawn)
        && kind_drops(Lance)
        && kind_drops(Knight)
        && kind_drops(Silver)
        && kind_drops(Gold)
        && kind_drops(Bishop)
        && kind_drops(Rook)
}

/// Legal king moves of the side to move onto `targets`.
#[inline]
fn generate_king_moves<S: MoveSink>(
    pos: &Position,
    sink: &mut S,
    ksq: Square,
    targets: Bitboard,
) -> bool {
    let us = pos.side_to_move();
    let occ = pos.occupied().without(ksq);
    let attacked = pos.attacks_next_to(!us, ksq, occ);
    for to in (attacks::king_attacks(ksq) & targets).and_not(pos.pieces(us) | attacked) {
        if !sink.push(Move::normal(ksq, to, false)) {
            return false;
        }
    }
    true
}

/// Every legal move.
pub fn generate_legal<S: MoveSink>(pos: &Position, sink: &mut S) -> bool {
    if pos.in_check() {
        return generate_evasions(pos, sink);
    }
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let ours = pos.pieces(us);
    let own_king = pos.king(us);
    let pinned = pos.pinned();
    for from in ours & !pos.pieces_of_kind(King) {
        let kind = pos.piece_at(from).expect("own piece").kind;
        let mut t = attacks::attacks(us, kind, from, occ) & !ours;
        if pinned.contains(from) {
            t &= line(from, own_king.expect("pinned implies a king"));
        }
        for to in t {
            if !push_board_move(sink, us, kind, from, to, |_| true) {
                return false;
            }
        }
    }
    if let Some(k) = own_king {
        if !generate_king_moves(pos, sink, k, Bitboard::ALL) {
            return false;
        }
    }
    let empty = !occ;
    generate_drops(pos, sink, |_| empty)
}

/// Every legal move of a side in check.
pub fn generate_evasions<S: MoveSink>(pos: &Position, sink: &mut S) -> bool {
    evasions::<S, true>(pos, sink)
}

/// The legal evasions that are not interpositions: king moves and captures of the checker.
/// (The tsume game's horizon: an interposition may be useless, these never are.)
pub fn generate_evasions_without_interpositions<S: MoveSink>(pos: &Position, sink: &mut S) -> bool {
    evasions::<S, false>(pos, sink)
}

fn evasions<S: MoveSink, const INTERPOSE: bool>(pos: &Position, sink: &mut S) -> bool {
    debug_assert!(pos.in_check());
    let us = pos.side_to_move();
    let ksq = pos.king(us).expect("in check implies a king");
    if !generate_king_moves(pos, sink, ksq, Bitboard::ALL) {
        return false;
    }
    let checkers = pos.checkers();
    if checkers.has_more_than_one() {
        return true;
    }
    let checker = checkers.single();
    let blocks = if INTERPOSE {
        between(ksq, checker)
    } else {
        Bitboard::EMPTY
    };
    let target = blocks.with(checker);
    let occ = pos.occupied();
    // A pinned piece cannot capture the checker or block: it may only move along its pin
    // line, which meets the checker's line at the king only.
    let movers = pos.pieces(us).without(ksq).and_not(pos.pinned());
    for to in target {
        for from in pos.attackers_to(us, to, occ) & movers {
            let kind = pos.piece_at(from).expect("own piece").kind;
            if !push_board_move(sink, us, kind, from, to, |_| true) {
                return false;
            }
        }
    }
    !INTERPOSE || generate_drops(pos, sink, |_| blocks)
}

/// The squares where the side to move, in check, could interpose (中合/移動合): strictly
/// between its king and a single ranged checker. Empty when not in check, in double check,
/// or checked from an adjacent square.
pub fn interposition_squares(pos: &Position) -> Bitboard {
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.has_more_than_one() {
        return Bitboard::EMPTY;
    }
    match pos.king(pos.side_to_move()) {
        Some(ksq) => between(ksq, checkers.single()),
        None => Bitboard::EMPTY,
    }
}

/// Whether the evasion `m` is an interposition: a drop or a non-king move onto one of the
/// `squares` from [`interposition_squares`].
#[inline]
pub fn is_interposition(pos: &Position, squares: Bitboard, m: Move) -> bool {
    squares.contains(m.to()) && (m.is_drop() || pos.king(pos.side_to_move()) != m.from())
}

/// Every legal move that gives check.
pub fn generate_checks<S: MoveSink>(pos: &Position, sink: &mut S) -> bool {
    let ci = CheckInfo::new(pos);
    generate_checks_with(pos, &ci, sink)
}

/// [`generate_checks`] with a precomputed [`CheckInfo`].
///
/// Discovered-check candidates (`ci.discoverers`) have all their moves examined; every other
/// piece only if it stands on a square from which its kind can give a direct check at all
/// ([`attacks::check_candidates`]), and then only its moves onto check squares.
pub fn generate_checks_with<S: MoveSink>(pos: &Position, ci: &CheckInfo, sink: &mut S) -> bool {
    let Some(eksq) = ci.king else { return true };
    if pos.in_check() {
        let mut filter = FnSink(|m| !ci.gives_check(pos, m) || sink.push(m));
        return generate_evasions(pos, &mut filter);
    }
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let ours = pos.pieces(us);
    let own_king = pos.king(us);
    let pinned = pos.pinned();
    let not_ours = !ours;

    // Discovered checks (and direct ones by the same pieces).
    for from in ci.discoverers {
        let kind = pos.piece_at(from).expect("own piece").kind;
        let t = attacks::attacks(us, kind, from, occ) & not_ours;
        if kind == King {
            let ok = generate_king_moves(
                pos,
                &mut FnSink(|m: Move| aligned(from, m.to(), eksq) || sink.push(m)),
                from,
                t,
            );
            if !ok {
                return false;
            }
            continue;
        }
        let t = if pinned.contains(from) {
            t & line(from, own_king.expect("pinned implies a king"))
        } else {
            t
        };
        for to in t {
            let discovered = !aligned(from, to, eksq);
            let ok = push_board_move(sink, us, kind, from, to, |promote| {
                let after = if promote { kind.promote() } else { kind };
                discovered || ci.check_squares[after.index()].contains(to)
            });
            if !ok {
                return false;
            }
        }
    }

    // Direct checks by the other pieces, kind by kind.
    let ctx = DirectChecks {
        ci,
        us,
        eksq,
        occ,
        not_ours,
        pinned,
        own_king,
        others: ours.and_not(ci.discoverers),
    };
    if !(ctx.run(sink, Pawn, pos.pieces_of_kind(Pawn))
        && ctx.run(sink, Lance, pos.pieces_of_kind(Lance))
        && ctx.run(sink, Knight, pos.pieces_of_kind(Knight))
        && ctx.run(sink, Silver, pos.pieces_of_kind(Silver))
        // Gold-likes all move as a gold and never promote.
        && ctx.run(sink, Gold, pos.golds())
        && ctx.run(sink, Bishop, pos.pieces_of_kind(Bishop))
        && ctx.run(sink, Rook, pos.pieces_of_kind(Rook))
        && ctx.run(sink, Horse, pos.pieces_of_kind(Horse))
        && ctx.run(sink, Dragon, pos.pieces_of_kind(Dragon)))
    {
        return false;
    }

    let empty = !occ;
    generate_drops(pos, sink, |kind| ci.check_squares[kind.index()] & empty)
}

/// Direct checks by pieces that are not discovered-check candidates (part of
/// [`generate_checks_with`]).
struct DirectChecks<'a> {
    ci: &'a CheckInfo,
    us: Color,
    eksq: Square,
    occ: Bitboard,
    not_ours: Bitboard,
    pinned: Bitboard,
    own_king: Option<Square>,
    /// Our pieces other than the discovered-check candidates.
    others: Bitboard,
}

impl DirectChecks<'_> {
    /// The direct checks of our pieces of `kind` among `pieces` (pieces of every colour;
    /// gold-likes all pass as `Gold`).
    #[inline(always)]
    fn run<S: MoveSink>(&self, sink: &mut S, kind: PieceKind, pieces: Bitboard) -> bool {
        let froms = pieces & self.others & attacks::check_candidates(self.us, kind, self.eksq);
        if froms.is_empty() {
            return true;
        }
        let cs = &self.ci.check_squares;
        let mut reach = cs[kind.index()];
        if kind.can_promote() {
            reach |= cs[kind.promote().index()];
        }
        let reach = reach & self.not_ours;
        for from in froms {
            let mut t = attacks::attacks(self.us, kind, from, self.occ) & reach;
            if t.is_empty() {
                continue;
            }
            if self.pinned.contains(from) {
                t &= line(from, self.own_king.expect("pinned implies a king"));
            }
            for to in t {
                let ok = push_board_move(sink, self.us, kind, from, to, |promote| {
                    let after = if promote { kind.promote() } else { kind };
                    cs[after.index()].contains(to)
                });
                if !ok {
                    return false;
                }
            }
        }
        true
    }
}

/// Whether the side to move has any legal move (stops at the first one).
pub fn has_legal_move(pos: &Position) -> bool {
    let mut first = FirstMove::default();
    generate_legal(pos, &mut first);
    first.0.is_some()
}

/// The questions about a position that need the move generator. They live here, not in
/// `position.rs`, so that the position does not import the generator that imports it.
impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate_legal(self, &mut list);
        list
    }

    /// Parses a USI move and checks that it is legal here.
    pub fn parse_move(&self, usi: &str) -> Result<Move, IllegalMoveError> {
        let m: Move = usi.parse().map_err(IllegalMoveError::Malformed)?;
        if self.legal_moves().contains(m) {
            Ok(m)
        } else {
            Err(IllegalMoveError::NotLegal {
                usi: usi.to_string(),
                sfen: self.to_sfen(),
            })
        }
    }

    /// Whether the side to move is checkmated (in check, no legal move).
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !has_legal_move(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(sfen: &str) -> Vec<String> {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn uchifuzume_is_excluded() {
        // From perft.txt: 85 legal moves; P*1b would be pawn-drop mate.
        let v = legal("7lk/9/8S/9/9/9/9/7L1/8K b P 1");
        assert_eq!(v.len(), 85);
        assert!(!v.contains(&"P*1b".to_string()));
    }

    #[test]
    fn pawn_drop_check_that_is_not_mate_is_legal() {
        // The king can take the pawn.
        let v = legal("8k/9/9/9/9/9/9/9/9 b P 1");
        assert!(v.contains(&"P*1b".to_string()));
    }

    #[test]
    fn compulsory_promotion_and_optional_ones() {
        // Black pawn on 5b must promote on 5a; silver may choose.
        let v = legal("k8/4P4/4S4/9/9/9/9/9/9 b - 1");
        assert!(v.contains(&"5b5a+".to_string()));
        assert!(!v.contains(&"5b5a".to_string()));
        let v = legal("k8/9/9/4S4/9/9/9/9/9 b - 1");
        assert!(v.contains(&"5d5c".to_string()) && v.contains(&"5d5c+".to_string()));
        // Knight to rank 2 must promote, to rank 3 may choose.
        let v = legal("k8/9/9/9/4N4/9/9/9/9 b - 1");
        assert!(v.contains(&"5e4c".to_string()) && v.contains(&"5e4c+".to_string()));
    }

    #[test]
    fn checks_are_legal_and_give_check() {
        for sfen in [
            "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1",
            "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
            "k8/9/PK7/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let legal = pos.legal_moves();
            let mut checks = MoveList::new();
            generate_checks(&pos, &mut checks);
            let expected: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| pos.gives_check(m))
                .collect();
            let mut got: Vec<Move> = checks.iter().copied().collect();
            let mut exp = expected.clone();
            got.sort();
            exp.sort();
            assert_eq!(got, exp, "{sfen}");
        }
    }
}
