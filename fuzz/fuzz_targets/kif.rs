//! Arbitrary bytes → KIF reader (`kif::decode` then `kif::parse`).
//!
//! Checks: no panic; an error names a line of the text (1 to one past the last) and has a
//! message; a record read is a legal position whose moves are legal in turn; and writing it
//! with `kif::write` and reading that back gives the same position and moves (the move
//! number aside, which KIF does not store).

#![no_main]

use libfuzzer_sys::fuzz_target;
use tsume_solver::kif::{self, Encoding, Ending};
use tsume_solver::Position;

fuzz_target!(|data: &[u8]| {
    let text = match kif::decode(data, Encoding::Auto) {
        Ok(t) => t,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let lines = text.split('\n').count();
    match kif::parse(&text) {
        Err(e) => {
            assert!(
                (1..=lines + 1).contains(&e.line),
                "error line {} of {lines}: {e}",
                e.line
            );
            assert!(!e.to_string().is_empty());
        }
        Ok(record) => {
            let start = Position::from_setup(&record.setup).expect("a record's set-up is legal");
            let mut pos = start.clone();
            for &m in &record.moves {
                assert!(
                    pos.legal_moves().contains(m),
                    "illegal move {m} in a record read"
                );
                pos.do_move(m);
            }
            let written = kif::write(&start, &record.moves, Ending::None);
            let again = kif::parse(&written).expect("a written record reads back");
            let mut a = again.setup.clone();
            let mut b = record.setup.clone();
            a.move_number = 1;
            b.move_number = 1;
            assert_eq!(a, b, "the position changed through write/read:\n{written}");
            assert_eq!(again.moves, record.moves, "the moves changed:\n{written}");
        }
    }
});
