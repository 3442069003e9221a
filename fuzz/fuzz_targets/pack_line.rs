//! Arbitrary bytes → the pack-line reader (`tsume_generator::line`), which `tsume verify`,
//! `tsume render` and `tsume html` read problem files and packs with.
//!
//! Checks: no panic, in `lines`, `parse`, `ProblemLine::position` and `read_pack`; every
//! error has a message, and names the problem (`problem <id>: …`) exactly when it carries
//! an id; an id read follows the id rule; a line read prints back (`to_json`, and an SFEN
//! line as `<sfen> moves …`) to a line that reads to the same problem; `read_pack` gives
//! increasing line numbers and distinct ids, and agrees with reading the lines one by one.

#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use tsume_generator::line::{self, LineError, ProblemLine};

fn check_error(e: &LineError) {
    assert!(!e.message.is_empty());
    let shown = e.to_string();
    match &e.id {
        Some(id) => {
            assert!(line::is_valid_id(id), "{id:?}");
            assert!(shown.starts_with(&format!("problem {id}: ")), "{shown}");
        }
        None => assert_eq!(shown, e.message),
    }
}

fn check_read(p: &ProblemLine, from_json: bool) {
    if let Some(id) = &p.id {
        assert!(from_json && line::is_valid_id(id), "{id:?}");
    }
    let json = p.to_json().to_string();
    let back = line::parse_json(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
    assert_eq!(&back, p, "{json}");
    assert_eq!(line::parse(&json).ok().flatten().as_ref(), Some(p));
    if !from_json {
        let text = match &p.solution {
            Some(moves) => format!("{} moves {}", p.setup, moves.join(" ")),
            None => p.setup.to_string(),
        };
        let back = line::parse_sfen_line(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back.as_ref(), Some(p), "{text}");
    }
    if let Err(e) = p.position() {
        check_error(&e);
        assert_eq!(e.id, p.id);
    }
}

fuzz_target!(|data: &[u8]| {
    let mut one_by_one = Vec::new();
    let mut first_error = None;
    let mut ids = HashSet::new();
    let mut last_line = 0;
    for (n, text) in line::lines(data) {
        assert_eq!(n, last_line + 1);
        last_line = n;
        let text = match text {
            Ok(t) => t,
            Err(e) => {
                check_error(&e);
                first_error.get_or_insert(n);
                continue;
            }
        };
        match line::parse(text) {
            Ok(None) => assert!(text.trim().is_empty() || text.trim().starts_with('#')),
            Ok(Some(p)) => check_read(&p, text.trim().starts_with('{')),
            Err(e) => check_error(&e),
        }
        if text.trim().is_empty() {
            continue;
        }
        // As `read_pack` reads the line: JSON with a new id.
        match line::parse_json(text.trim()) {
            Ok(p) if p.id.as_ref().is_some_and(|id| ids.insert(id.clone())) => {
                check_read(&p, true);
                one_by_one.push((n, p));
            }
            Ok(_) => {
                first_error.get_or_insert(n);
            }
            Err(e) => {
                check_error(&e);
                first_error.get_or_insert(n);
            }
        }
    }
    match line::read_pack(data) {
        Ok(problems) => {
            assert_eq!(first_error, None);
            assert_eq!(problems.len(), one_by_one.len());
            for (p, (n, q)) in problems.iter().zip(&one_by_one) {
                assert_eq!((p.line, &p.problem), (*n, q));
                assert_eq!(Some(&p.id), q.id.as_ref());
            }
        }
        Err(e) => {
            check_error(&e.error);
            assert_eq!(Some(e.line), first_error, "{e}");
        }
    }
});
