//! Replays a USI line from an SFEN and prints each position, its legal moves when asked.
use tsume_solver::Position;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut pos = Position::from_sfen(&args[1]).unwrap();
    for m in &args[2..] {
        let mv = pos.parse_move(m).unwrap();
        pos.do_move(mv);
        println!(
            "{m}: {} check={} mate={}",
            pos,
            pos.in_check(),
            pos.is_checkmate()
        );
    }
    println!("legal: {:?}", pos.legal_moves());
}
