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
