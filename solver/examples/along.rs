//! Solves the positions along a known solution line, from the end backwards, to find where
//! the solver starts to struggle: `along "<sfen> moves …" STEP NODES`.
use tsume_solver::dfpn::Outcome;
use tsume_solver::{Limits, Position, Rules, Solver};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let line = &args[1];
    let step: usize = args[2].parse().unwrap();
    let nodes: u64 = args[3].parse().unwrap();
    let (sfen, moves) = line.split_once(" moves ").unwrap();
    let sfen: String = sfen
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ");
    let moves: Vec<&str> = moves
        .split('#')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    let mut pos = Position::from_sfen(&sfen).unwrap();
    let mut positions = vec![pos.clone()];
    for m in &moves {
        let mv = pos.parse_move(m).unwrap();
        pos.do_move(mv);
        positions.push(pos.clone());
    }
    let n = moves.len();
    let mut solver = Solver::new(1024);
    let mut k = n - 1;
    loop {
        if k.is_multiple_of(2) {
            let mut p = positions[k].clone();
            p.clear_history();
            let opts = Limits {
                node_limit: Some(nodes),
                ..Default::default()
            };
            let r = solver.solve(&p, &opts, Rules::Raw);
            let got = match &r.outcome {
                Outcome::Mate { moves } => format!("mate {}", moves.len()),
                o => format!("{o:?}"),
            };
            println!(
                "ply {k}: expect {} got {got} nodes {} first {:?}",
                n - k,
                r.nodes,
                r.proofs.first()
            );
        }
        if k < step {
            break;
        }
        k -= step;
    }
}
