//! `tsume solve` answers as early as it can, honestly: a mate found before a limit stops the
//! search is reported as a mate (exit 0), not proven shortest, with the lower bound proven
//! so far; the text and the JSON say the same. Expected lengths are the published ones in
//! `tests/data/zuko.txt`.

mod common;

use std::sync::{Arc, Mutex};

use serde_json::Value;
use tsume_solver::dfpn::{self, SolveEvent};
use tsume_solver::{Limits, Move, Plies, Position, Rules, Solver};

/// The SFEN and published length of a problem of `tests/data/zuko.txt`.
fn zuko(id: &str) -> (String, u64) {
    let text = common::read_data("zuko.txt");
    let line = text
        .lines()
        .find(|l| l.contains(&format!("# {id} ")))
        .unwrap_or_else(|| panic!("{id} in zuko.txt"));
    let fields: Vec<&str> = line.split_whitespace().collect();
    (fields[..4].join(" "), fields[4].parse().expect("a length"))
}

/// The JSON `moves` read as moves of the line from `pos`.
fn usi_moves(pos: &Position, v: &Value) -> Vec<Move> {
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for m in v.as_array().expect("moves") {
        let m = p
            .parse_move(m.as_str().expect("a move"))
            .unwrap_or_else(|e| panic!("{m}: {e:?}"));
        p.do_move(m);
        moves.push(m);
    }
    moves
}

/// Runs `tsume solve` with `args` as text and as JSON, checks that the two agree (exit
/// code, headline, line, nodes), that a mate's line is a mating line and that stderr is
/// empty (not a terminal: no progress line); returns the JSON and the text.
fn solve_both(sfen: &str, args: &[&str]) -> (Value, String) {
    let mut text_args = vec!["solve", sfen];
    text_args.extend_from_slice(args);
    let text = common::tsume(&text_args);
    text_args.push("--json");
    let json = common::tsume(&text_args);
    assert!(text.stderr.is_empty(), "{}", common::stderr(&text));
    assert!(json.stderr.is_empty(), "{}", common::stderr(&json));
    let v: Value = serde_json::from_slice(&json.stdout).expect("one JSON object");
    let out = common::stdout(&text);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(text.status.code(), json.status.code(), "{out}\n{v}");
    let code = json.status.code().expect("an exit code");

    let headline = match v["status"].as_str().expect("status") {
        "mate" => mate_headline(sfen, &v, code, &lines),
        "nomate" => {
            assert_eq!(code, 1, "{v}");
            "no mate".to_string()
        }
        "unknown" => {
            assert_eq!(code, 3, "{v}");
            assert_eq!(v.get("length"), None, "{v}");
            assert_eq!(v["improvements"], serde_json::json!([]), "{v}");
            let limit = match v["stopped"].as_str() {
                Some("node_limit") => "node limit",
                Some("time_limit") => "time limit",
                s => panic!("stopped: {s:?}"),
            };
            format!("unknown ({limit} reached)")
        }
        s => panic!("status {s}"),
    };
    assert_eq!(lines[0], headline, "{out}\n{v}");
    let nodes = format!("nodes {} ", v["nodes"]);
    assert!(lines.last().unwrap().starts_with(&nodes), "{out}\n{v}");
    check_improvements(&v);
    (v, out)
}

/// The text headline of a JSON mate answer `v` (exit `code`), checked against the JSON and
/// the text `lines`: a mating line of odd length within its bounds.
fn mate_headline(sfen: &str, v: &Value, code: i32, lines: &[&str]) -> String {
    assert_eq!(code, 0, "{v}");
    let length = v["length"].as_u64().expect("length");
    let lower_bound = v["lower_bound"].as_u64().expect("lower_bound");
    assert!(length % 2 == 1 && lower_bound % 2 == 1, "{v}");
    assert!(1 <= lower_bound && lower_bound <= length, "{v}");
    let proven = lower_bound == length;
    assert_eq!(
        v["shortest"],
        if proven { "proven" } else { "unproven" },
        "{v}"
    );
    // The best improvement is the answer.
    let last = v["improvements"].as_array().and_then(|i| i.last());
    assert_eq!(last.map(|i| &i["length"]), Some(&v["length"]), "{v}");
    let pos = Position::from_sfen(sfen).unwrap();
    let moves = usi_moves(&pos, &v["moves"]);
    let end = common::replay_checking_line(&pos, &moves, sfen);
    assert!(
        dfpn::is_mated(&end),
        "{sfen}: the line does not end in mate"
    );
    assert_eq!(
        lines[1],
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect::<Vec<_>>()
            .join(" ")
    );
    match (proven, lower_bound) {
        (true, _) => format!("mate in {length}"),
        (false, 1) => format!("mate in {length} (not proven shortest)"),
        (false, b) => format!(
            "mate in {length} (not proven shortest; no mate within {})",
            b - 2
        ),
    }
}

/// The JSON improvements: each shorter, found later, within the nodes of the answer.
fn check_improvements(v: &Value) {
    let improvements = v["improvements"].as_array().expect("improvements");
    for pair in improvements.windows(2) {
        assert!(
            pair[1]["length"].as_u64() < pair[0]["length"].as_u64(),
            "{v}"
        );
        assert!(
            pair[1]["nodes"].as_u64() >= pair[0]["nodes"].as_u64(),
            "{v}"
        );
        assert!(
            pair[1]["time_ms"].as_u64() >= pair[0]["time_ms"].as_u64(),
            "{v}"
        );
    }
    for i in improvements {
        assert!(i["nodes"].as_u64() <= v["nodes"].as_u64(), "{v}");
    }
}

/// (nodes, a length) of a solve event.
type Event = (u64, Plies);

/// The events of a full library solve of `sfen`: (nodes, lower bound) and (nodes, length).
fn events(sfen: &str, tsume_rules: bool) -> (Vec<Event>, Vec<Event>) {
    let lower = Arc::new(Mutex::new(Vec::new()));
    let mates = Arc::new(Mutex::new(Vec::new()));
    let (l, m) = (lower.clone(), mates.clone());
    let options = Limits {
        on_event: Some(Arc::new(move |e: &SolveEvent| match e {
            SolveEvent::Mate(i) => m.lock().unwrap().push((i.nodes, i.length)),
            SolveEvent::LowerBound {
                lower_bound, nodes, ..
            } => l.lock().unwrap().push((*nodes, *lower_bound)),
        })),
        ..Limits::default()
    };
    let pos = Position::from_sfen(sfen).unwrap();
    let rules = if tsume_rules {
        Rules::Tsume
    } else {
        Rules::Raw
    };
    let report = Solver::new(64).solve(&pos, &options, rules);
    // What the events said is what the report keeps.
    let mates = mates.lock().unwrap().clone();
    assert_eq!(
        mates,
        report
            .improvements
            .iter()
            .map(|i| (i.nodes, i.length))
            .collect::<Vec<_>>()
    );
    let lower = lower.lock().unwrap().clone();
    assert_eq!(lower.last().map(|&(_, b)| b), Some(report.lower_bound));
    (lower, mates)
}

/// 将棋図巧 No. 99 (煙詰, 117) stopped by a node limit under tsume rules: the first raw
/// mate is the answer, an upper bound of the tsume length, and its line a raw mating line.
#[test]
fn a_stopped_tsume_search_answers_with_the_raw_mate_found() {
    let (sfen, published) = zuko("zuko099");
    let (v, out) = solve_both(
        &sfen,
        // About twice the nodes of the first mate with these tables.
        &["--rules", "tsume", "--hash", "256", "--nodes", "20000000"],
    );
    assert_eq!(v["status"], "mate", "{v}");
    assert_eq!(v["shortest"], "unproven", "{v}");
    assert_eq!(v["line_rules"], "raw", "{v}");
    assert_eq!(v["stopped"], "node_limit", "{v}");
    assert!(v["length"].as_u64().unwrap() >= published, "{v}");
    assert_eq!(v.get("final_alternatives"), None, "{v}");
    assert!(
        out.contains("node limit reached: the tsume length is at most"),
        "{out}"
    );
    // Too few nodes for any mate: unknown, exit 3.
    let (v, _) = solve_both(&sfen, &["--rules", "tsume", "--nodes", "1000"]);
    assert_eq!(v["status"], "unknown", "{v}");
}

/// 将棋図巧 No. 7 (raw 15) in a 1 MiB table, stopped in its minimality proof: the table no
/// longer holds all of the first mate's proof tree when its line is read, and the proofs
/// it lost are searched again, so the answer still shows a mating line (it showed none).
#[test]
fn a_line_whose_proofs_the_table_lost_is_searched_again() {
    let (sfen, published) = zuko("zuko007");
    let (v, _) = solve_both(
        &sfen,
        &["--rules", "raw", "--hash", "1", "--nodes", "1200000"],
    );
    assert_eq!(v["status"], "mate", "{v}");
    assert_eq!(v["shortest"], "unproven", "{v}");
    assert_eq!(v["length"].as_u64(), Some(published), "{v}");
    let moves = v["moves"].as_array().map(Vec::len);
    assert_eq!(moves, Some(published as usize), "{v}");
}

/// 将棋図巧 No. 5 (21) under tsume rules, stopped after the tsume search has raised the
/// lower bound but before it proved the length: the shortest raw mate found, with the lower
/// bound.
#[test]
fn a_stopped_tsume_search_reports_the_lower_bound_proven() {
    let (sfen, published) = zuko("zuko005");
    let (lower, mates) = events(&sfen, true);
    assert!(
        lower.iter().all(|&(_, b)| u64::from(b) <= published),
        "{lower:?}"
    );
    assert_eq!(mates.last().map(|&(_, l)| u64::from(l)), Some(published));
    // Stop between the first rise of the lower bound and the proof of the length (the
    // lower bound reaching it).
    let &(after, bound) = lower.first().expect("a lower bound");
    let &(proven, _) = lower.last().unwrap();
    assert!(
        bound > Plies::new(1) && after < proven,
        "{lower:?} {mates:?}"
    );
    let limit = ((after + proven) / 2).to_string();
    let (v, out) = solve_both(
        &sfen,
        &["--rules", "tsume", "--hash", "64", "--nodes", &limit],
    );
    assert_eq!(v["shortest"], "unproven", "{v}");
    let lower_bound = v["lower_bound"].as_u64().unwrap();
    assert!(1 < lower_bound && lower_bound <= published, "{v}");
    // The answer is the shortest mate found before the limit (the raw shortenings come
    // before the tsume search, so it may already have the published length).
    let found_by_then = mates
        .iter()
        .filter(|&&(n, _)| n <= limit.parse().unwrap())
        .map(|&(_, l)| u64::from(l))
        .min();
    assert_eq!(v["length"].as_u64(), found_by_then, "{v} {mates:?}");
    assert!(v["length"].as_u64().unwrap() >= published, "{v}");
    assert!(out.contains("no mate within"), "{out}");

    // Without a limit: proven, the lower bound is the length.
    let (v, _) = solve_both(&sfen, &["--rules", "tsume", "--hash", "64"]);
    assert_eq!(v["shortest"], "proven", "{v}");
    assert_eq!(v["length"].as_u64(), Some(published), "{v}");
    assert_eq!(v["lower_bound"].as_u64(), Some(published), "{v}");
    assert_eq!(v["line_rules"], "tsume", "{v}");
    assert_eq!(v.get("stopped"), None, "{v}");
}

/// The same problem under raw rules, stopped between two proofs: the longer mate, with no
/// lower bound yet; and proven without a limit.
#[test]
fn a_stopped_raw_search_answers_with_the_last_mate_proven() {
    let (sfen, published) = zuko("zuko005");
    let (lower, mates) = events(&sfen, false);
    assert_eq!(lower.last().map(|&(_, b)| u64::from(b)), Some(published));
    assert!(
        mates.len() >= 2,
        "the first mate was the shortest: {mates:?}"
    );
    let limit = ((mates[0].0 + mates[1].0) / 2).to_string();
    let (v, _) = solve_both(
        &sfen,
        &["--rules", "raw", "--hash", "64", "--nodes", &limit],
    );
    assert_eq!(v["shortest"], "unproven", "{v}");
    assert_eq!(v["length"].as_u64(), Some(u64::from(mates[0].1)), "{v}");
    assert!(v["length"].as_u64().unwrap() > published, "{v}");
    assert_eq!(v["line_rules"], "raw", "{v}");

    let (v, out) = solve_both(&sfen, &["--rules", "raw", "--hash", "64"]);
    assert_eq!(v["shortest"], "proven", "{v}");
    assert_eq!(v["length"].as_u64(), Some(published), "{v}");
    assert_eq!(v["lower_bound"].as_u64(), Some(published), "{v}");
    assert_eq!(
        v["improvements"].as_array().unwrap().len(),
        mates.len(),
        "{v}"
    );
    assert!(out.starts_with(&format!("mate in {published}\n")), "{out}");
}

/// A record (`--output csa`) of a search stopped after a mate: the mate's line, ending in
/// `%TSUMI`, exit 0, and a note on stderr that it is not proven shortest.
#[test]
fn a_stopped_search_writes_the_record_of_its_mate() {
    let (sfen, published) = zuko("zuko005");
    let (_, mates) = events(&sfen, false);
    let limit = ((mates[0].0 + mates[1].0) / 2).to_string();
    let o = common::tsume(&[
        "solve", &sfen, "--rules", "raw", "--hash", "64", "--nodes", &limit, "--output", "csa",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let csa = common::stdout(&o);
    assert!(csa.trim_end().ends_with("%TSUMI"), "{csa}");
    let err = common::stderr(&o);
    assert!(
        err.contains(&format!("mate in {} (not proven shortest", mates[0].1)),
        "{err}"
    );
    assert!(u64::from(mates[0].1) > published);
}
