//! Debug aid: runs the tsume evaluator's two bounding searches on a position and prints
//! their answers and node counts. `cargo run --release --example tsume_probe -- "<sfen>" R`
use tsume_solver::dfpn::search::{Defences, Limits, Search};
use tsume_solver::dfpn::table::Table;
use tsume_solver::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pos = Position::from_sfen(&args[1]).expect("sfen");
    let r: u16 = args[2].parse().expect("budget");
    tsume_solver::dfpn::on_search_thread(|| {
        for defences in [Defences::All, Defences::Tsume] {
            let table = Table::new(512);
            let start = std::time::Instant::now();
            let limits = Limits {
                node_limit: Some(50_000_000),
                ..Limits::default()
            };
            let mut s =
                Search::with_rules(&table, pos.clone(), pos.side_to_move(), limits, defences);
            let res = s.solve_current(tsume_solver::Plies::new(r));
            println!(
                "{defences:?} within {r}: {:?} len {} nodes {} {:?}",
                res.kind(),
                res.len,
                s.nodes,
                start.elapsed()
            );
        }
    });
}
