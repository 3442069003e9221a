//! The lines a raw solve shows: a mating line read from the table after each proof, and
//! the best-play line (shortest attack, longest defence) of the proven-shortest mate.

use super::search::{NodeResult, Search};
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
/// them.
fn repaired_len_after(
    search: &mut Search,
    m: Move,
    remaining: Plies,
    budget: &mut u64,
) -> Option<Plies> {
    if *budget == 0 || search.stopped.is_some() {
        return None;
    }
    let start = search.nodes;
    let (r, _) = search.with_node_cap(*budget, |s| solve_after(s, m, remaining));
    *budget = budget.saturating_sub(search.nodes - start);
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

/// The search's result for the position after `m` within `remaining` plies.
fn solve_after(search: &mut Search, m: Move, remaining: Plies) -> NodeResult {
    search.push_move(m);
    let r = search.solve_current(remaining);
    search.pop_move();
    r
}

/// Proof status of the position after `m` within `remaining` plies, searching if the table
/// does not know.
fn child_status(search: &mut Search, m: Move, remaining: Plies) -> Option<Kind> {
    let r = solve_after(search, m, remaining);
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

/// [`longest_defence`] may spend at most the search's nodes so far divided by this (and at
/// least [`LINE_REPAIR_MIN_NODES`]) proving the other defences shorter.
const SHORTER_DEFENCES_SHARE: u64 = 512;

/// Among the defender's `moves` at a node of value exactly `v`, one whose value is exactly
/// `v − 1` (the longest): a child that is not mate within `v − 3`.
///
/// One child is the longest (there is one, the node's value being `v`) if every other is
/// mate within `v − 3`. So the child the table thinks longest is taken without its own
/// disproof, the one costly search here, when the others are proven shorter, by the table
/// or by searches within a small share of the nodes so far; on a long chase the disproof
/// costs as much at every defender node (ミクロコスモス: 112 M nodes each, benches/RESULTS.md
/// §34). Else each child in turn, the table's longest first, until one is not mate within
/// `v − 3`. Either way the child taken is the first of that order not mate within `v − 3`.
fn longest_defence(search: &mut Search, moves: &MoveList, v: Plies) -> Option<Move> {
    if v < Plies::new(3) {
        return moves.first().copied();
    }
    let shorter = v.minus(3);
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
    let (&(first_len, first), others) = order.split_first()?;
    if first_len > shorter {
        let mut budget = (search.nodes / SHORTER_DEFENCES_SHARE).max(LINE_REPAIR_MIN_NODES);
        let others_shorter = others.iter().all(|&(l, m)| {
            l <= shorter || repaired_len_after(search, m, shorter, &mut budget).is_some()
        });
        if others_shorter {
            return Some(first);
        }
    }
    for &(_, m) in &order {
        match child_status(search, m, shorter)? {
            Kind::Proven => continue,
            _ => return Some(m),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::search::{Defences, Limits};
    use crate::dfpn::table::Table;
    use crate::{Color, Position, Rules, Solver};

    /// 将棋図巧 No. 2 (raw 21, benches/data/zuko.txt): at each defender node of its
    /// best-play line, in a table that holds only the node's proof, the longest defence
    /// is the one the line plays and the only one not mate within `v − 3`; where every
    /// other defence could be proven shorter, it is taken without a disproof of its own
    /// (the table holds none for it).
    #[test]
    fn the_longest_defence_needs_no_disproof_when_the_others_are_shorter() {
        let root =
            Position::from_sfen("9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1")
                .expect("sfen");
        let report = Solver::new(16).solve(&root, &Limits::default(), Rules::Raw);
        let super::super::Outcome::Mate { moves: line } = report.outcome else {
            panic!("{:?}", report.outcome)
        };
        assert_eq!(line.len(), 21);
        let mut pos = root.clone();
        let mut without_disproof = 0;
        for (ply, &played) in line.iter().enumerate() {
            let v = Plies::new((line.len() - ply) as u16);
            if ply % 2 == 1 && v >= Plies::new(3) {
                let table = Table::new(1);
                let node = pos.clone();
                let mut search = Search::with_rules(
                    &table,
                    node,
                    Color::Black,
                    Limits::default(),
                    Defences::All,
                );
                let (chosen, own_disproof, others_mated) = super::super::on_search_thread(|| {
                    assert_eq!(search.solve_current(v).kind(), Kind::Proven);
                    let mut evasions = MoveList::new();
                    movegen::generate_evasions(&search.pos, &mut evasions);
                    let chosen = longest_defence(&mut search, &evasions, v).expect("a defence");
                    let shorter = v.minus(3);
                    let own_disproof = {
                        let pos = &search.pos;
                        let key = pos.board_key_after(chosen) ^ search.salt;
                        let probe = search
                            .table
                            .probe(key, pos.hand(Color::Black), shorter.get());
                        probe.kind() == Kind::Disproven
                    };
                    let mut others_mated = true;
                    for &m in evasions.iter() {
                        let mated = child_status(&mut search, m, shorter) == Some(Kind::Proven);
                        if m == chosen {
                            assert!(!mated, "ply {ply}: {chosen:?} is mate within {shorter:?}");
                        } else {
                            others_mated &= mated;
                        }
                    }
                    (chosen, own_disproof, others_mated)
                });
                assert_eq!(chosen, played, "ply {ply}");
                if others_mated && !own_disproof {
                    without_disproof += 1;
                }
            }
            pos.do_move(played);
        }
        assert!(without_disproof > 0, "every longest defence was disproven");
    }
}
