//! The lines a raw solve shows: a mating line read from the table after each proof, and
//! the best-play line (shortest attack, longest defence) of the proven-shortest mate.

use super::search::{Search, Stop};
use super::table::{Kind, NO_MATE};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::plies::Plies;

/// [`table_mating_line`] may search again for the proofs the table no longer holds, with
/// at most the search's nodes so far divided by this (and at least
/// [`LINE_REPAIR_MIN_NODES`]).
const LINE_REPAIR_SHARE: u64 = 8;

/// The least nodes [`table_mating_line`] may search with (see [`LINE_REPAIR_SHARE`]).
const LINE_REPAIR_MIN_NODES: u64 = 10_000;

/// A mating line of at most `value` plies, just proven, read from the table: the attacker
/// takes the shortest proven child, the defender the longest. A child whose proof the
/// table no longer holds (replaced since it was proven) is searched for again within a
/// small share of the nodes spent so far; those searches mostly find the rest of the
/// proof still in the table. `None` if they do not suffice.
pub(super) fn table_mating_line(search: &mut Search, value: Plies) -> Option<Vec<Move>> {
    let mut repair = (search.nodes / LINE_REPAIR_SHARE).max(LINE_REPAIR_MIN_NODES);
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
        let mut proven = Vec::with_capacity(moves.len());
        let mut missing = Vec::new();
        for &m in moves.iter() {
            match proven_len_after(search, m, v.below()) {
                Some(l) => proven.push((l, m)),
                None => missing.push(m),
            }
        }
        let choice = if attacker_to_move {
            let shortest = proven.iter().min_by_key(|&&(l, m)| (l, m.raw())).copied();
            // Else the check the node's own proof stored as its best.
            shortest.or_else(|| {
                let best = stored_best_move(search, v).filter(|m| missing.contains(m))?;
                Some((
                    repaired_len_after(search, best, v.below(), &mut repair)?,
                    best,
                ))
            })
        } else {
            for &m in &missing {
                let Some(l) = repaired_len_after(search, m, v.below(), &mut repair) else {
                    break;
                };
                proven.push((l, m));
            }
            let longest = proven
                .iter()
                .max_by_key(|&&(l, m)| (l, std::cmp::Reverse(m.raw())))
                .copied();
            longest.filter(|_| proven.len() == moves.len())
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

/// The length of a mate after `m` within `remaining` plies, searched for with at most
/// `budget` nodes (what the search spends is taken off it); `None` if not proven within
/// them. A stop by the budget is not the search's stop; one by the search's own limits is.
fn repaired_len_after(
    search: &mut Search,
    m: Move,
    remaining: Plies,
    budget: &mut u64,
) -> Option<Plies> {
    if *budget == 0 || search.stopped.is_some() {
        return None;
    }
    let limit = search.limits.node_limit;
    let start = search.nodes;
    let end = start.saturating_add(*budget);
    search.limits.node_limit = Some(limit.map_or(end, |l| l.min(end)));
    search.push_move(m);
    let r = search.solve_current(remaining);
    search.pop_move();
    search.limits.node_limit = limit;
    *budget = budget.saturating_sub(search.nodes - start);
    if search.stopped == Some(Stop::Nodes) && limit.is_none_or(|l| search.nodes < l) {
        search.stopped = None;
    }
    (r.kind() == Kind::Proven).then(|| r.length())
}

/// The move stored with the table's entry of the current position within `remaining`.
fn stored_best_move(search: &Search, remaining: Plies) -> Option<Move> {
    let pos = &search.pos;
    let key = pos.board_key() ^ search.salt;
    search
        .table
        .probe(key, pos.hand(search.attacker), remaining.get())
        .best
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
                // The check the node's own proof stored first: each check tried before
                // the mating one costs a disproof.
                let best = stored_best_move(search, v).filter(|&m| moves.contains(m));
                let rest = moves.iter().copied().filter(|&m| Some(m) != best);
                for m in best.into_iter().chain(rest) {
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
