//! Measurement: where the nodes of the shortest-mate searches go (feature `stats`).
//! `cargo run --release -p tsume-solver --features stats --example disproof_stats -- "<sfen>" [raw|lb] [hash MiB]`
//!
//! Runs the first mate, then "mate within L − 2?" until disproven, in the raw game (`raw`)
//! or the tsume lower-bound game (`lb`), and prints for each search: nodes by remaining
//! budget, how often attacker nodes were entered, how many budgets each position was
//! searched under, and the nodes charged to attacker nodes by their fate (see
//! `dfpn::stats`; a quarter of the positions is tracked).
use std::collections::HashMap;

use tsume_solver::dfpn::search::{Defences, Limits, Search};
use tsume_solver::dfpn::stats::{Fate, Node, Stats};
use tsume_solver::dfpn::table::{Kind, Table};
use tsume_solver::dfpn::MAX_LENGTH;
use tsume_solver::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut pos = Position::from_sfen(&args[1]).expect("sfen");
    pos.clear_history();
    let game = args.get(2).map_or("raw", |s| s.as_str());
    let hash: usize = args.get(3).map_or(1024, |s| s.parse().expect("hash MiB"));
    let defences = match game {
        "raw" => Defences::All,
        "lb" => Defences::Tsume,
        other => panic!("game {other}: raw or lb"),
    };
    tsume_solver::dfpn::on_search_thread(|| {
        let table = Table::new(hash);
        let attacker = pos.side_to_move();
        let mut search = Search::with_rules(&table, pos, attacker, Limits::default(), defences);
        let mut budget = MAX_LENGTH;
        loop {
            search.stats.clear();
            let before = search.nodes;
            let before_pd = search.path_dependent;
            let start = std::time::Instant::now();
            let r = search.solve_current(budget);
            let label = if budget == MAX_LENGTH {
                "first mate".to_string()
            } else {
                format!("within {budget}")
            };
            println!(
                "\n## {label}: {:?} len {} — {} nodes, {:.1} s, {} path-dependent disproofs",
                r.kind(),
                r.len,
                search.nodes - before,
                start.elapsed().as_secs_f64(),
                search.path_dependent - before_pd
            );
            report(&search.stats, search.nodes - before);
            match r.kind() {
                Kind::Proven if r.len >= 3 => budget = tsume_solver::Plies::new(r.len - 2),
                _ => break,
            }
        }
    });
}

fn bucket(x: u64, edges: &[u64]) -> usize {
    edges.iter().position(|&e| x <= e).unwrap_or(edges.len())
}

fn label(i: usize, edges: &[u64]) -> String {
    let lo = if i == 0 { 0 } else { edges[i - 1] + 1 };
    match edges.get(i) {
        Some(&hi) if hi == lo => format!("{lo}"),
        Some(&hi) => format!("{lo}–{hi}"),
        None => format!("> {}", edges[edges.len() - 1]),
    }
}

fn mn(x: u64) -> String {
    format!("{:.2} M", x as f64 / 1e6)
}

fn report(stats: &Stats, nodes: u64) {
    let all: Vec<&Node> = stats.nodes.values().collect();
    let ors: Vec<&Node> = all.iter().copied().filter(|n| n.or).collect();
    println!(
        "{} attacker and {} defender nodes entered ({} nodes counted outside any)",
        ors.len(),
        all.len() - ors.len(),
        stats.outside
    );
    let _ = nodes;
    by_remaining(stats);
    visits_per_or_node(&ors);
    budgets_per_position(&ors);
    fate_by_side(&all);
    bounded_excess(&ors);
    open_work(stats);
}

/// Node entries by remaining budget.
fn by_remaining(stats: &Stats) {
    let edges = [0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 1022];
    let mut rows = vec![[0u64; 2]; edges.len() + 1];
    for (r, c) in stats.by_remaining.iter().enumerate() {
        let b = bucket(r as u64, &edges);
        rows[b][0] += c[0];
        rows[b][1] += c[1];
    }
    println!("\n| remaining | OR entries | AND entries |\n|---|---|---|");
    for (i, row) in rows.iter().enumerate() {
        if row[0] + row[1] > 0 {
            let l = if i == edges.len() {
                "unlimited".into()
            } else {
                label(i, &edges)
            };
            println!("| {l} | {} | {} |", mn(row[0]), mn(row[1]));
        }
    }
}

/// Visits per OR node.
fn visits_per_or_node(ors: &[&Node]) {
    let edges = [1, 2, 4, 16, 64, 256];
    let mut rows = vec![(0u64, 0u64, 0u64); edges.len() + 1];
    for n in ors {
        let b = bucket(n.visits as u64, &edges);
        rows[b].0 += 1;
        rows[b].1 += n.visits as u64;
        rows[b].2 += n.own_nodes;
    }
    println!("\n| entries per OR node | OR nodes | entries | own nodes |\n|---|---|---|---|");
    for (i, r) in rows.iter().enumerate() {
        if r.0 > 0 {
            println!("| {} | {} | {} | {} |", label(i, &edges), r.0, r.1, mn(r.2));
        }
    }
}

/// Budgets per position (attacker nodes).
fn budgets_per_position(ors: &[&Node]) {
    let mut by_position: HashMap<u64, (u64, u64)> = HashMap::new();
    for n in ors {
        let e = by_position.entry(n.position).or_default();
        e.0 += 1;
        e.1 += n.own_nodes;
    }
    let edges = [1, 2, 4, 8, 16];
    let mut rows = vec![(0u64, 0u64); edges.len() + 1];
    for &(budgets, own) in by_position.values() {
        let b = bucket(budgets, &edges);
        rows[b].0 += 1;
        rows[b].1 += own;
    }
    println!("\n| budgets per attacker position | positions | own nodes |\n|---|---|---|");
    for (i, r) in rows.iter().enumerate() {
        if r.0 > 0 {
            println!("| {} | {} | {} |", label(i, &edges), r.0, mn(r.1));
        }
    }
}

/// Fate by side.
fn fate_by_side(all: &[&Node]) {
    let mut fates: HashMap<(bool, Fate), (u64, u64)> = HashMap::new();
    for n in all {
        let e = fates.entry((!n.or, n.fate)).or_default();
        e.0 += 1;
        e.1 += n.own_nodes;
    }
    let mut fates: Vec<_> = fates.into_iter().collect();
    fates.sort();
    println!("\n| side | fate | nodes | own nodes |\n|---|---|---|---|");
    for ((and, f), (c, o)) in fates {
        println!(
            "| {} | {f:?} | {c} | {} |",
            if and { "AND" } else { "OR" },
            mn(o)
        );
    }
}

/// Bounded disproofs of attacker nodes: how far the known mate is beyond the budget.
fn bounded_excess(ors: &[&Node]) {
    let mut excess: HashMap<String, (u64, u64)> = HashMap::new();
    for n in ors.iter().filter(|n| n.fate == Fate::Bounded) {
        let k = match n.known_mate {
            None => "no mate known".to_string(),
            Some(m) => match m as i64 - n.remaining as i64 {
                ..=0 => "≤ 0".into(),
                1..=2 => "1–2".into(),
                3..=4 => "3–4".into(),
                5..=8 => "5–8".into(),
                9..=16 => "9–16".into(),
                _ => "> 16".into(),
            },
        };
        let e = excess.entry(k).or_default();
        e.0 += 1;
        e.1 += n.own_nodes;
    }
    let mut excess: Vec<_> = excess.into_iter().collect();
    excess.sort();
    println!("\n| bounded OR: known mate − budget | OR nodes | own nodes |\n|---|---|---|");
    for (k, (c, o)) in excess {
        println!("| {k} | {c} | {} |", mn(o));
    }
}

/// Work left open, by the nearest settled ancestor (through first parents).
fn open_work(stats: &Stats) {
    let mut cause: HashMap<u64, String> = HashMap::new();
    let mut rows: HashMap<String, (u64, u64)> = HashMap::new();
    for (&id, n) in stats.nodes.iter().filter(|(_, n)| n.fate == Fate::Open) {
        let mut chain = vec![id];
        let mut cur = n.parent;
        let found = loop {
            let Some(p) = cur else {
                break "no settled ancestor".to_string();
            };
            if let Some(c) = cause.get(&p) {
                break c.clone();
            }
            let pn = &stats.nodes[&p];
            if pn.fate != Fate::Open {
                break format!("{} {:?}", if pn.or { "OR" } else { "AND" }, pn.fate);
            }
            chain.push(p);
            cur = pn.parent;
        };
        for c in chain {
            cause.insert(c, found.clone());
        }
        let e = rows.entry(found).or_default();
        e.0 += 1;
        e.1 += n.own_nodes;
    }
    let mut rows: Vec<_> = rows.into_iter().collect();
    rows.sort();
    println!("\n| open node's nearest settled ancestor | open nodes | own nodes |\n|---|---|---|");
    for (k, (c, o)) in rows {
        println!("| {k} | {c} | {} |", mn(o));
    }
}
