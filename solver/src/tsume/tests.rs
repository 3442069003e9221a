use std::sync::{Arc, Mutex};

use crate::dfpn::{Progress, SolveEvent};
use crate::{Limits, Position, Rules, Solver};

/// Every phase of a tsume solve reports its progress, as the whole solve's: the raw game's
/// shortenings after its first mate too (they once ran without a callback, and a display
/// stood still for seconds on 煙詰). 将棋図巧 No. 34 (tsume 17, from `tests/data/zuko.txt`):
/// the first raw mate is 19, shortened to 17 some thousands of nodes later. In unit tests a
/// search reports every 256 nodes, so the test does not depend on the machine's speed.
#[test]
fn every_phase_of_a_tsume_solve_reports_its_progress() {
    let pos = Position::from_sfen("9/7lS/7pb/5S1B1/5rgk1/8p/4+R2G1/9/9 b SN2gs3n3l16p 1")
        .expect("a legal SFEN");
    let reports = Arc::new(Mutex::new(Vec::new()));
    let raw_mates = Arc::new(Mutex::new(Vec::new()));
    let (r, m) = (reports.clone(), raw_mates.clone());
    let limits = Limits {
        on_progress: Some(Arc::new(move |p: &Progress| {
            r.lock().unwrap().push(p.nodes)
        })),
        on_event: Some(Arc::new(move |e: &SolveEvent| {
            if let SolveEvent::Mate(i) = e {
                if i.rules == Rules::Raw {
                    m.lock().unwrap().push((i.length.get(), i.nodes));
                }
            }
        })),
        ..Limits::default()
    };
    let report = Solver::new(16).solve(&pos, &limits, Rules::Tsume);
    let reports = reports.lock().unwrap().clone();
    let raw_mates = raw_mates.lock().unwrap().clone();
    let lengths: Vec<u16> = raw_mates.iter().map(|&(l, _)| l).collect();
    assert_eq!(lengths, [19, 17], "the raw mates found");
    let (first, shortened) = (raw_mates[0].1, raw_mates[1].1);
    assert!(
        reports.iter().any(|&n| first < n && n < shortened),
        "no report between the first raw mate ({first} nodes) and its shortening \
         ({shortened}): {} reports",
        reports.len()
    );
    assert!(
        reports.windows(2).all(|w| w[0] <= w[1]),
        "reports count the whole solve's nodes"
    );
    assert!(reports.last().is_some_and(|&n| n <= report.nodes));
    assert!(
        reports.iter().any(|&n| n > shortened),
        "the evaluator reports too"
    );
}

/// A best-play line tries first the defences whose lower bound the lower-bound games'
/// table already holds: settled ones (no plain mate within `v − 1`, or no two-ply line of
/// value `v − 3`) before those with only the plain disproof within `v − 3`, and those before
/// the rest, each group in the raw table's order (here, with nothing in it, generation
/// order). The line of 寿 once re-proved a lower bound of 7.5 M nodes that the table held
/// for another longest defence of the same node.
#[test]
fn a_line_tries_the_defences_with_a_known_lower_bound_first() {
    use crate::color::Color;
    use crate::dfpn::search::{table_salt, TWO_PLY_SALT};
    use crate::dfpn::table::Table;
    use crate::plies::Plies;
    use crate::tsume::Evaluator;

    // White to move, in check from the rook on 5i: king moves and interpositions.
    let pos =
        Position::from_sfen("4k4/9/9/9/9/9/9/9/4R4 w r2b4g4s4n4l18p 1").expect("a legal SFEN");
    let (mut raw, mut lower_bound) = (Table::new(1), Table::new(1));
    let v = 9;
    let plain = |d: crate::moves::Move| pos.board_key_after(d) ^ table_salt(&pos);
    let hand = pos.hand(Color::Black);
    let budget = |value: i32| Plies::of_value(value).get();
    let generated = {
        let ev = Evaluator::new(&mut raw, &mut lower_bound, Color::Black, Limits::default());
        super::defences_known_longest_first(&ev, &pos, v)
    };
    assert!(generated.len() >= 6, "{} evasions", generated.len());
    let (half, wider, two_ply) = (generated[1], generated[3], generated[5]);
    lower_bound.store_disproven(plain(half), hand, budget(v - 3), 1);
    lower_bound.store_disproven(plain(wider), hand, budget(v - 1), 1);
    lower_bound.store_disproven(plain(two_ply) ^ TWO_PLY_SALT, hand, budget(v - 1), 1);
    let ev = Evaluator::new(&mut raw, &mut lower_bound, Color::Black, Limits::default());
    let known = [wider, two_ply, half];
    let mut expected = known.to_vec();
    expected.extend(generated.iter().filter(|d| !known.contains(d)));
    assert_eq!(super::defences_known_longest_first(&ev, &pos, v), expected);
}

/// Where the tsume length is known to be at most `L` ≤ `TWO_PLY_FIRST_UP_TO`, the
/// lower-bound game's last question goes to the two-ply game first: its disproof "no line of
/// value `L − 2`" settles the plain "no mate within `L − 2`" too, which is then never
/// searched (before, it was searched first and the two-ply question after it). 将棋図巧
/// No. 34 (17, from `tests/data/zuko.txt`), from an upper bound of 17, and of 45: there the
/// game's shortening stalls at "within 15" and the tsume question finds a line of 17 first.
#[test]
fn a_short_problems_last_lower_bound_question_goes_to_the_two_ply_game() {
    use crate::color::Color;
    use crate::dfpn::search::{table_salt, TWO_PLY_SALT};
    use crate::dfpn::table::{Kind, Table};
    use crate::plies::Plies;
    use crate::tsume::Evaluator;

    let mut pos = Position::from_sfen("9/7lS/7pb/5S1B1/5rgk1/8p/4+R2G1/9/9 b SN2gs3n3l16p 1")
        .expect("a legal SFEN");
    let plain = pos.board_key() ^ table_salt(&pos);
    let hand = pos.hand(Color::Black);
    let within = |value: i32| Plies::of_value(value).get();
    for upper in [17, 45] {
        let (mut raw, mut lower_bound) = (Table::new(16), Table::new(16));
        let value = {
            let mut ev =
                Evaluator::new(&mut raw, &mut lower_bound, Color::Black, Limits::default());
            super::tsume_value(&mut ev, &mut pos, upper)
        };
        assert_eq!(value, Ok(17), "upper {upper}");
        let two_ply = lower_bound.probe(plain ^ TWO_PLY_SALT, hand, within(17));
        assert_eq!(two_ply.kind(), Kind::Disproven, "upper {upper}");
        let plain = lower_bound.probe(plain, hand, within(15));
        assert_eq!(plain.kind(), Kind::Unknown, "upper {upper}");
    }
}
