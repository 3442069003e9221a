//! Criterion benchmarks of the move generator: start-position perft(5) and the mate-tree
//! perft(5) over `tests/data/mate5_200.sfen` (see `benches/README.md`).
//!
//! Run: `cargo bench --bench perft` (about a minute). The side-by-side comparison with
//! rsshogi lives in `benches/rsshogi_compare/`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use tsume_solver::perft::{perft, PerftMode};
use tsume_solver::Position;

const STARTPOS_PERFT5: u64 = 19_861_490;
const MATE5_200_PERFT5: u64 = 3_502_982;

/// The 200 positions of `tests/data/mate5_200.sfen` (first 4 tokens of each content line).
fn mate5_200() -> Vec<Position> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/mate5_200.sfen");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let positions: Vec<Position> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let sfen = l.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
            Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
        })
        .collect();
    assert_eq!(positions.len(), 200);
    positions
}

fn mate_perft_sum(positions: &[Position]) -> u64 {
    positions
        .iter()
        .map(|p| perft(&mut p.clone(), 5, PerftMode::Mate))
        .sum()
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    // Flat sampling: ten equal samples of a few iterations each (the default linear sampling
    // would need 55 iterations of a 150 ms workload).
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));

    let start = Position::startpos();
    assert_eq!(
        perft(&mut start.clone(), 5, PerftMode::Legal),
        STARTPOS_PERFT5
    );
    group.bench_function("startpos_perft5", |b| {
        b.iter(|| perft(&mut black_box(&start).clone(), 5, PerftMode::Legal))
    });

    let positions = mate5_200();
    assert_eq!(mate_perft_sum(&positions), MATE5_200_PERFT5);
    group.bench_function("mate_perft5_mate5_200", |b| {
        b.iter(|| mate_perft_sum(black_box(&positions)))
    });

    group.finish();
}

criterion_group!(perft_benches, benches);
criterion_main!(perft_benches);
