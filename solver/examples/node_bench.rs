//! Node counts of the raw search on a set of problems, to compare search changes:
//! `node_bench FILE [NODE_LIMIT] [HASH_MB]` (`FIRST_ONLY=1`: first mates only). FILE has one SFEN per line (fields after the
//! fourth and `# comments` ignored). Prints per problem the first mate's length and nodes,
//! the shortest mate's length and total nodes, and the time; then the totals.
use std::time::Instant;
use tsume_solver::dfpn::{self, table::Table, Outcome, SolveOptions};
use tsume_solver::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = std::fs::read_to_string(&args[1]).expect("reading the problem file");
    let node_limit: u64 = args.get(2).map_or(20_000_000, |s| s.parse().unwrap());
    let hash_mb: usize = args.get(3).map_or(256, |s| s.parse().unwrap());
    let first_only = std::env::var_os("FIRST_ONLY").is_some();
    let mut table = Table::new(hash_mb);
    let (mut first_total, mut total, mut solved, mut time) = (0u64, 0u64, 0, 0.0);
    for line in file.lines().filter(|l| !l.trim().is_empty()) {
        let (body, comment) = line.split_once('#').unwrap_or((line, ""));
        let sfen: Vec<&str> = body.split_whitespace().take(4).collect();
        let name = comment.split_whitespace().next().unwrap_or("");
        let pos = Position::from_sfen(&sfen.join(" ")).expect("a legal SFEN");
        let opts = SolveOptions {
            node_limit: Some(node_limit),
            ..Default::default()
        };
        table.clear();
        let start = Instant::now();
        let first =
            dfpn::on_search_thread(|| dfpn::first_mate_on_this_thread(&pos, &opts, &mut table));
        let r = if first_only {
            dfpn::SolveReport {
                outcome: dfpn::Outcome::Unknown(dfpn::Stop::Nodes),
                nodes: 0,
                elapsed: start.elapsed(),
                proofs: Vec::new(),
                mate_so_far: None,
                improvements: Vec::new(),
                lower_bound: 1,
            }
        } else {
            dfpn::solve_with_table(&pos, &opts, &mut table)
        };
        let secs = start.elapsed().as_secs_f64();
        let first_len = match first.length {
            Ok(Some(l)) => l.to_string(),
            Ok(None) => "nomate".into(),
            Err(_) => "?".into(),
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
        first_total += first.nodes;
        total += r.nodes;
        time += secs;
        println!(
            "{name:10} first {first_len:>6} {:>10}  shortest {len:>6} {:>10}  {secs:7.2}s",
            first.nodes, r.nodes
        );
    }
    println!("TOTAL solved {solved} first-nodes {first_total} nodes {total} time {time:.2}s");
}
