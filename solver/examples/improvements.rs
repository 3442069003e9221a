//! Prints each improvement of a solve (length, nodes, time, the length of the line read)
//! and each rise of the lower bound.
//! `cargo run --release -p tsume-solver --example improvements -- "<sfen>" raw|tsume [nodes] [hash_mb]`
use tsume_solver::dfpn;
use tsume_solver::{Limits, Position, Rules, Solver};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pos = Position::from_sfen(&args[1]).expect("an SFEN");
    let hash_mb = args.get(4).map_or(256, |n| n.parse().expect("MiB"));
    let options = Limits {
        node_limit: args.get(3).map(|n| n.parse().expect("nodes")),
        on_event: Some(std::sync::Arc::new(|e: &dfpn::SolveEvent| {
            if let dfpn::SolveEvent::LowerBound {
                lower_bound,
                nodes,
                elapsed,
            } = e
            {
                println!(
                    "lower bound {lower_bound} nodes {nodes} {} ms",
                    elapsed.as_millis()
                );
            }
        })),
        ..Limits::default()
    };
    let rules = match args[2].as_str() {
        "raw" => Rules::Raw,
        _ => Rules::Tsume,
    };
    let report = Solver::new(hash_mb).solve(&pos, &options, rules);
    for i in &report.improvements {
        println!(
            "{} {:?} nodes {} {} ms line {:?}",
            i.length,
            i.rules,
            i.nodes,
            i.elapsed.as_millis(),
            i.line.as_ref().map(Vec::len)
        );
    }
    println!(
        "{:?} lower bound {} nodes {}",
        match &report.outcome {
            dfpn::Outcome::Mate { moves } => format!("mate {}", moves.len()),
            o => format!("{o:?}"),
        },
        report.lower_bound,
        report.nodes
    );
}
