//! Debug aid: for a problem and its solution, runs the raw "does this other check mate at
//! all" search of every alternative check at every attacker ply but the last, and prints
//! each answer with its node count.
//! `cargo run --release --example yozume_probe -- "<sfen>" "<usi moves>" NODE_LIMIT`
//! (`ONLY=<usi>`: that alternative only, in a fresh table).
use tsume_solver::dfpn::search::{Defences, Limits, Search};
use tsume_solver::dfpn::table::Table;
use tsume_solver::movegen;
use tsume_solver::moves::MoveList;
use tsume_solver::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut pos = Position::from_sfen(&args[1]).expect("sfen");
    let line: Vec<&str> = args[2].split_whitespace().collect();
    let limit: u64 = args[3].parse().expect("node limit");
    let attacker = pos.side_to_move();
    tsume_solver::dfpn::on_search_thread(|| {
        let table = Table::new(1024);
        for (i, text) in line.iter().enumerate() {
            let m = pos.parse_move(text).expect("move");
            if i + 1 < line.len() && pos.side_to_move() == attacker {
                let mut checks = MoveList::new();
                movegen::generate_checks(&pos, &mut checks);
                let only = std::env::var("ONLY").ok();
                for &other in checks
                    .iter()
                    .filter(|&&c| c != m && only.as_deref().is_none_or(|o| o == c.to_string()))
                {
                    let mut after = pos.clone();
                    after.do_move(other);
                    after.clear_history();
                    let start = std::time::Instant::now();
                    let limits = Limits {
                        node_limit: Some(limit),
                        ..Limits::default()
                    };
                    let mut s = Search::with_rules(&table, after, attacker, limits, Defences::All);
                    let r = s.solve_current(tsume_solver::dfpn::MAX_LENGTH);
                    if s.nodes > 100_000 {
                        println!(
                            "ply {} {} : {:?} len {} nodes {} path-dependent {} {:.1?}",
                            i + 1,
                            other,
                            r.kind(),
                            r.len,
                            s.nodes,
                            s.path_dependent,
                            start.elapsed()
                        );
                    }
                }
            }
            pos.do_move(m);
        }
    });
}
