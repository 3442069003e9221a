//! The lines a raw solve shows: a mating line read from the table after each proof, and
//! the best-play line (shortest attack, longest defence) of the proven-shortest mate.

use super::search::Search;
use super::table::{Kind, NO_MATE};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::plies::Plies;

/// A mating line of at most `value` plies read from the table alone (no search): the
/// attacker takes the shortest proven child, the defender the longest. `None` if an entry
/// is missing (replaced) on the way.
pub(super) fn table_mating_line(search: &mut Search, value: Plies) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut v = value;
    let result = loop {
        let mut moves = MoveList::new();
        let attacker_to_move = search.pos.side_to_move() == search.attacker;
        if attacker_to_move {
            movegen::generate_checks(&search.pos, &mut moves);
        } else {
            movegen::generate_evasions(&search.pos, &mut moves);
            if moves.is_empty() {
                break Some(());
            }
        }
        if v == Plies::ZERO {
            break None;
        }
        let proven: Vec<(Plies, Move)> = moves
            .iter()
            .filter_map(|&m| proven_len_after(search, m, v.below()).map(|l| (l, m)))
            .collect();
        let choice = if attacker_to_move {
            proven.iter().min_by_key(|&&(l, m)| (l, m.raw())).copied()
        } else if proven.len() == moves.len() {
            proven
                .iter()
                .max_by_key(|&&(l, m)| (l, std::cmp::Reverse(m.raw())))
                .copied()
        } else {
            None
        };
        let Some((l, m)) = choice else { break None };
        search.push_move(m);
        line.push(m);
        v = l;
    };
    for _ in 0..line.len() {
        search.pop_move();
    }
    result.map(|_| line)
}

/// Proof status of the position after `m` within `remaining` plies, searching if the table
/// does not know.
fn child_status(search: &mut Search, m: Move, remaining: Plies) -> Option<Kind> {
    search.push_move(m);
    let r = search.solve_current(remaining);
    search.pop_move();
    if search.stopped.is_some() {
        None
    } else {
        Some(r.kind())
    }
}

/// The length the table proves for the position after `m`, if proven within `remaining`.
fn proven_len_after(search: &Search, m: Move, remaining: Plies) -> Option<Plies> {
    let pos = &search.pos;
    let hand = if pos.side_to_move() == search.attacker {
        pos.hand_after(m)
    } else {
        pos.hand(search.attacker)
    };
    let p = search
        .table
        .probe(pos.board_key_after(m) ^ search.salt, hand, remaining.get());
    (p.kind() == Kind::Proven).then_some(Plies::new(p.len))
}

/// A best-play line from the current position whose value is `value` plies: the attacker
/// plays a mate of the shortest length, the defender a defence of the longest. Leaves the
/// position unchanged. `None` if a limit stopped the search (or the searches contradicted
/// each other: see [`Search::unsettled`]).
pub(super) fn best_play_line(search: &mut Search, value: Plies) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut v = value;
    let result = loop {
        let mut moves = MoveList::new();
        if search.pos.side_to_move() == search.attacker {
            movegen::generate_checks(&search.pos, &mut moves);
            let mut choice = moves
                .iter()
                .filter_map(|&m| proven_len_after(search, m, v.below()).map(|l| (l, m)))
                .min_by_key(|&(l, m)| (l, m.raw()))
                .map(|(_, m)| m);
            if choice.is_none() {
                for &m in moves.iter() {
                    match child_status(search, m, v.below()) {
                        None => break,
                        Some(Kind::Proven) => {
                            choice = Some(m);
                            break;
                        }
                        Some(_) => {}
                    }
                }
            }
            let Some(m) = choice else { break None };
            search.push_move(m);
            line.push(m);
            v = v.below();
        } else {
            movegen::generate_evasions(&search.pos, &mut moves);
            if moves.is_empty() {
                break Some(());
            }
            let chosen = longest_defence(search, &moves, v)?;
            search.push_move(chosen);
            line.push(chosen);
            v = v.below();
        }
    };
    for _ in 0..line.len() {
        search.pop_move();
    }
    result.map(|_| line)
}

/// Among the defender's `moves` at a node of value `v`, one whose value is exactly `v − 1`
/// (the longest): a child that is not mate within `v − 3`.
fn longest_defence(search: &mut Search, moves: &MoveList, v: Plies) -> Option<Move> {
    if v < Plies::new(3) {
        return moves.first().copied();
    }
    // Try the children the table thinks longest first.
    let mut order: Vec<(Plies, Move)> = moves
        .iter()
        .map(|&m| {
            (
                proven_len_after(search, m, v.below()).unwrap_or(Plies::new(NO_MATE)),
                m,
            )
        })
        .collect();
    order.sort_by_key(|&(l, m)| (std::cmp::Reverse(l), m.raw()));
    for &(_, m) in &order {
        match child_status(search, m, v.minus(3))? {
            Kind::Proven => continue,
            _ => return Some(m),
        }
    }
    None
}
