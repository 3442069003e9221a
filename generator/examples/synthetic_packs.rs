//! Synthetic shard packs for timing `tsume merge` (benches/RESULTS.md §18):
//!
//! ```text
//! cargo run --release -p tsume-generator --example synthetic_packs -- OUT PACKS PER_PACK [SEED]
//! ```
//!
//! writes `OUT/shard-K` for K = 1..=PACKS, each a finished pack (`pack.jsonl`,
//! `pack.sfen`, `problems.kif`, `manifest.json`) of PER_PACK records of shard K/PACKS of
//! SEED (default 1), as `tsume generate --shard K/PACKS` lays them out. The records are
//! random legal five-ply check lines (check, reply, check, reply, check) from the generator's
//! random placements: well-formed records whose fields all agree, which is what `tsume
//! merge` checks, but not sound problems. They time the merge, nothing else.

use std::collections::HashSet;
use std::path::PathBuf;

use tsume_generator::candidate::{self, Shape};
use tsume_generator::pack::{self, Record};
use tsume_generator::pipeline::Found;
use tsume_generator::rng::Rng;
use tsume_solver::movegen::CheckInfo;
use tsume_solver::tsume::verify::Verdict;
use tsume_solver::{Move, Position};

/// A random move of `moves`, a check when `check`.
fn pick(pos: &Position, rng: &mut Rng, check: bool) -> Option<Move> {
    let ci = CheckInfo::new(pos);
    let moves: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| !check || ci.gives_check(pos, m))
        .collect();
    (!moves.is_empty()).then(|| *rng.pick(&moves))
}

/// The record of the seed's candidate `global`, if its placement has a five-ply check line.
fn record(seed: u64, global: u64, shard: &str, shape: &Shape) -> Option<Record> {
    let mut rng = Rng::for_candidate(seed, global);
    let setup = candidate::random_placement(&mut rng, shape);
    let mut pos = Position::from_setup(&setup).ok()?;
    let mut solution = Vec::new();
    for check in [true, false, true, false, true] {
        let m = pick(&pos, &mut rng, check)?;
        pos.do_move(m);
        solution.push(m);
    }
    let found = Found {
        setup,
        verdict: Verdict {
            flaws: Vec::new(),
            length: Some(5),
            solution,
            final_alternatives: Vec::new(),
            promotion_choices: Vec::new(),
            nodes: 0,
        },
        solve_nodes: rng.below(20_000),
    };
    let generator = serde_json::json!({
        "seed": seed,
        "shard": shard,
        "candidate": global,
        "lengths": "5-5",
        "budget": 0,
        "version": env!("CARGO_PKG_VERSION"),
        "synthetic": true,
    });
    Some(pack::record(&found, generator))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, packs, per_pack, rest @ ..] = args.as_slice() else {
        return Err("usage: synthetic_packs OUT PACKS PER_PACK [SEED]".into());
    };
    let out = PathBuf::from(out);
    let packs: u64 = packs.parse()?;
    let per_pack: usize = per_pack.parse()?;
    let seed: u64 = rest.first().map_or(Ok(1), |s| s.parse())?;
    let shape = Shape::default();
    for k in 1..=packs {
        let shard = format!("{k}/{packs}");
        let dir = out.join(format!("shard-{k}"));
        std::fs::create_dir_all(&dir)?;
        let mut records = Vec::new();
        let mut seen = HashSet::new();
        for local in 0.. {
            if records.len() == per_pack {
                break;
            }
            let Some(r) = record(seed, local * packs + k - 1, &shard, &shape) else {
                continue;
            };
            let skeleton = pack::record_skeleton(&r).unwrap_or_default();
            if seen.insert(r.id.clone()) && seen.insert(skeleton) {
                records.push(r);
            }
        }
        let jsonl: String = records
            .iter()
            .map(|r| serde_json::to_string(r).expect("records serialise") + "\n")
            .collect();
        pack::write_file(&dir, "pack.jsonl", &jsonl)?;
        let mut extra = serde_json::Map::new();
        extra.insert("seed".into(), seed.into());
        extra.insert("shard".into(), shard.into());
        let refs: Vec<&Record> = records.iter().collect();
        pack::export(&dir, &refs, env!("CARGO_PKG_VERSION"), extra)?;
    }
    Ok(())
}
