//! Node counts of the raw search on a set of problems, to compare search changes:
//! `node_bench FILE [NODE_LIMIT] [HASH_MB]` (`FIRST_ONLY=1`: first mates only; `THREADS=N`:
//! N threads, the node limit each thread's). FILE has one SFEN per line (fields after the
//! fourth and `# comments` ignored). Prints per problem the first mate's length and nodes,
//! the shortest mate's length and total nodes, and the time; then the totals.
use std::time::Instant;
use tsume_solver::dfpn::search::{Defences, Search};
use tsume_solver::dfpn::table::{Kind, Table};
use tsume_solver::dfpn::{self, Outcome};
use tsume_solver::{Limits, Position, Rules, Solver};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = std::fs::read_to_string(&args[1]).expect("reading the problem file");
    let node_limit: u64 = args.get(2).map_or(20_000_000, |s| s.parse().unwrap());
    let hash_mb: usize = args.get(3).map_or(256, |s| s.parse().unwrap());
    let first_only = std::env::var_os("FIRST_ONLY").is_some();
    let threads: usize = std::env::var("THREADS").map_or(1, |t| t.parse().expect("THREADS=N"));
    // FIRST_ONLY: one first-mate search in a table of its own; else full solves (whose
    // first proof is that same search).
    let mut table = first_only.then(|| Table::new(hash_mb));
    let mut solver = Solver::new(hash_mb);
    let (mut first_total, mut total, mut solved, mut time) = (0u64, 0u64, 0, 0.0);
    for line in file.lines().filter(|l| !l.trim().is_empty()) {
        let (body, comment) = line.split_once('#').unwrap_or((line, ""));
        let sfen: Vec<&str> = body.split_whitespace().take(4).collect();
        let name = comment.split_whitespace().next().unwrap_or("");
        let pos = Position::from_sfen(&sfen.join(" ")).expect("a legal SFEN");
        let opts = Limits {
            node_limit: Some(node_limit),
            threads,
            ..Default::default()
        };
        let start = Instant::now();
        let (first_len, first_nodes, r) = match table.as_mut() {
            Some(table) => {
                let (len, nodes) = first_mate(&pos, &opts, table);
                (len, nodes, None)
            }
            None => {
                let r = solver.solve(&pos, &opts, Rules::Raw);
                let (len, nodes) = match (&r.outcome, r.proofs.first()) {
                    (_, Some(&(len, nodes))) => (len.to_string(), nodes),
                    (Outcome::NoMate, None) => ("nomate".into(), r.nodes),
                    (_, None) => ("?".into(), r.nodes),
                };
                (len, nodes, Some(r))
            }
        };
        let secs = start.elapsed().as_secs_f64();
        let Some(r) = r else {
            first_total += first_nodes;
            time += secs;
            println!("{name:10} first {first_len:>6} {first_nodes:>10}  {secs:7.2}s");
            continue;
        };
        let len = match &r.outcome {
            Outcome::Mate { moves } => {
                solved += 1;
                moves.len().to_string()
            }
            Outcome::NoMate => {
                solved += 1;
                "nomate".into()
            }
            Outcome::Unknown(_) => "?".into(),
        };
        if std::env::var_os("PROOFS").is_some() {
            println!("  proofs {:?}", r.proofs);
        }
        first_total += first_nodes;
        total += r.nodes;
        time += secs;
        println!(
            "{name:10} first {first_len:>6} {:>10}  shortest {len:>6} {:>10}  {secs:7.2}s",
            first_nodes, r.nodes
        );
    }
    println!("TOTAL solved {solved} first-nodes {first_total} nodes {total} time {time:.2}s");
}

/// The length (or `nomate`, `?`) and nodes of a first-mate search of `pos` in `table`.
fn first_mate(pos: &Position, limits: &Limits, table: &mut Table) -> (String, u64) {
    table.clear();
    let table = &*table;
    dfpn::on_search_thread(|| {
        let mut search = Search::with_rules(
            table,
            pos.clone(),
            pos.side_to_move(),
            limits.clone(),
            Defences::All,
        );
        let r = search.solve_first();
        let len = match r.kind() {
            Kind::Proven => r.len.to_string(),
            Kind::Disproven => "nomate".into(),
            Kind::Unknown => "?".into(),
        };
        (len, search.nodes)
    })
}
