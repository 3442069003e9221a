//! Arbitrary bytes → USI move parser, and `Position::parse_move` on a few positions.
//!
//! Checks: no panic; a string that parses is already canonical (it prints back unchanged)
//! and its printed form parses to the same move; the accessors and `mirror` are sane; a move
//! `parse_move` accepts is in the legal move list and does/undoes cleanly; every error has
//! a non-empty message.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tsume_solver::{Move, Position};

/// Positions to try the string on: the start position (what the brief asks for), a tsume
/// position with hands for both sides, a kingless attacker with a full hand (every drop),
/// and a White-to-move position in check.
fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        [
            "startpos",
            "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72",
            "4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",
            "4k4/9/4P4/9/9/9/9/9/4K4 w RBGSNL 1",
        ]
        .iter()
        .map(|s| Position::from_sfen(s).expect("fuzz seed positions are legal"))
        .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    match s.parse::<Move>() {
        Ok(m) => {
            let text = m.to_string();
            assert_eq!(text, s, "a parsed move prints differently");
            assert_eq!(text.parse::<Move>(), Ok(m));
            assert_eq!(Move::from_raw(m.raw()), m);
            match m.from() {
                Some(from) => {
                    assert!(!m.is_drop() && m.drop_kind().is_none());
                    assert_ne!(from, m.to());
                    assert_eq!(m.from_sq(), from);
                }
                None => {
                    assert!(m.is_drop() && !m.is_promotion());
                    assert!(m.drop_kind().is_some());
                }
            }
            assert!(!m.without_promotion().is_promotion());
            assert_eq!(m.mirror().mirror(), m);
            assert_eq!(m.mirror().to_string().parse::<Move>(), Ok(m.mirror()));
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    for pos in positions() {
        match pos.parse_move(s) {
            Ok(m) => {
                assert_eq!(m.to_string(), s);
                assert!(pos.legal_moves().contains(m), "{s} in {pos}");
                let mut p = pos.clone();
                p.do_move(m);
                assert!(p.is_consistent(), "{s} in {pos}");
                p.undo_move();
                assert_eq!(&p, pos);
                assert_eq!(p.full_key(), pos.full_key());
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
});
