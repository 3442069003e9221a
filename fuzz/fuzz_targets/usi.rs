//! Arbitrary bytes → USI command lines → the command parser of `tsume usi`
//! (`tsume_solver::usi`: `parse_command`, and `position` for the `position` arguments).
//!
//! Checks: no panic; the command does not depend on surrounding whitespace and follows the
//! first word; `position` arguments are normalised (single spaces), read without a panic
//! with and without FillDefenderHand, and a position read prints as an SFEN that reads back
//! (`position sfen <it>`) to the same position; a `go` time limit is within `MAX_GO_MS`
//! (at least 1 ms for plain `go`), `go infinite` has none, and every unreadable time is
//! reported; a `USI_Hash` accepted is in range.

#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use tsume_solver::setup::MAX_MOVE_NUMBER;
use tsume_solver::usi::{self, Command, GoKind, SetOption, MAX_GO_MS, MAX_HASH_MB};
use tsume_solver::Position;

fn check_position(text: &str) {
    assert_eq!(text, text.split_whitespace().collect::<Vec<_>>().join(" "));
    let _ = usi::position(text, true);
    // Moves played from a move number near the reader's largest go past it (the SFEN would
    // not read back); the rest of the position is the same.
    let readable = |pos: &Position| pos.move_number() <= MAX_MOVE_NUMBER;
    if let Some(pos) = usi::position(text, false).ok().filter(readable) {
        let sfen = pos.to_sfen();
        let back = usi::position(&format!("sfen {sfen}"), false)
            .unwrap_or_else(|e| panic!("{text} → {sfen}: {e}"));
        assert_eq!(back.to_sfen(), sfen);
        assert_eq!(back.board_key(), pos.board_key());
    }
}

fuzz_target!(|data: &[u8]| {
    for raw in data.split(|&b| b == b'\n') {
        let Ok(line) = std::str::from_utf8(raw) else {
            continue;
        };
        let command = usi::parse_command(line);
        assert_eq!(usi::parse_command(&format!(" \t{line} \r")), command);
        let first = line.split_whitespace().next().unwrap_or("");
        match &command {
            Command::Usi => assert_eq!(first, "usi"),
            Command::IsReady => assert_eq!(first, "isready"),
            Command::UsiNewGame => assert_eq!(first, "usinewgame"),
            Command::Stop => assert_eq!(first, "stop"),
            Command::Quit => assert_eq!(first, "quit"),
            Command::SetOption(option) => {
                assert_eq!(first, "setoption");
                if let SetOption::Hash(mb) = option {
                    assert!((1..=MAX_HASH_MB).contains(mb));
                }
            }
            Command::Position(text) => {
                assert_eq!(first, "position");
                check_position(text);
            }
            Command::Go(go) => {
                assert_eq!(first, "go");
                if let Some(limit) = go.time_limit {
                    assert!(limit <= Duration::from_millis(MAX_GO_MS));
                    if go.kind == GoKind::Best {
                        assert!(limit >= Duration::from_millis(1));
                    }
                }
                if go.wait_for_stop {
                    assert!(go.kind == GoKind::Best && go.time_limit.is_none());
                }
                assert!(go.warnings.iter().all(|w| w.starts_with("go ")));
                let words: Vec<&str> = line.split_whitespace().skip(1).collect();
                if words.first() == Some(&"mate") && words.len() > 1 && words[1] != "infinite" {
                    assert_eq!(go.time_limit.is_none(), !go.warnings.is_empty());
                }
            }
            Command::Ignored => assert!(!matches!(
                first,
                "usi"
                    | "isready"
                    | "usinewgame"
                    | "setoption"
                    | "position"
                    | "go"
                    | "stop"
                    | "quit"
            )),
        }
    }
});
