//! Malformed and illegal SFENs from `tests/data/bad_sfen.txt` must be rejected with the
//! expected error, without panicking, and with a message that says where the problem is.
//! A few tricky but valid SFENs must be accepted.

mod common;

use std::collections::BTreeSet;
use std::panic;

use tsume_solver::{ParsePositionError, Position, PositionError, Setup, SfenError};

/// The variant name of an error. The match is exhaustive on purpose: a new error variant
/// does not compile here until it is added, with a corpus line, to `tests/data/bad_sfen.txt`.
fn kind_name(e: &ParsePositionError) -> &'static str {
    match e {
        ParsePositionError::Sfen(e) => match e {
            SfenError::Empty => "Empty",
            SfenError::FieldCount { .. } => "FieldCount",
            SfenError::RankCount { .. } => "RankCount",
            SfenError::RankLength { .. } => "RankLength",
            SfenError::BadEmptyCount { .. } => "BadEmptyCount",
            SfenError::UnknownPiece { .. } => "UnknownPiece",
            SfenError::BadPromotion { .. } => "BadPromotion",
            SfenError::BadSide { .. } => "BadSide",
            SfenError::BadHand { .. } => "BadHand",
            SfenError::BadMoveNumber { .. } => "BadMoveNumber",
        },
        ParsePositionError::Illegal(e) => match e {
            PositionError::TooManyPieces { .. } => "TooManyPieces",
            PositionError::Nifu { .. } => "Nifu",
            PositionError::DeadPiece { .. } => "DeadPiece",
            PositionError::TwoKings { .. } => "TwoKings",
            PositionError::OpponentInCheck { .. } => "OpponentInCheck",
        },
    }
}

/// Every variant name `kind_name` can return.
const ALL_KINDS: &[&str] = &[
    "Empty",
    "FieldCount",
    "RankCount",
    "RankLength",
    "BadEmptyCount",
    "UnknownPiece",
    "BadPromotion",
    "BadSide",
    "BadHand",
    "BadMoveNumber",
    "TooManyPieces",
    "Nifu",
    "DeadPiece",
    "TwoKings",
    "OpponentInCheck",
];

/// The name of the variant as `Debug` prints it (`UnknownPiece { rank: 3, .. }` →
/// `UnknownPiece`), used to cross-check `kind_name`.
fn debug_variant_name<E: std::fmt::Debug>(e: &E) -> String {
    format!("{e:?}")
        .chars()
        .take_while(|c| c.is_alphanumeric())
        .collect()
}

/// Texts the Display message must contain because the error value has a place: the place
/// is taken from the error's own fields, so a message that drops it fails here.
fn places_in_message(e: &ParsePositionError) -> Vec<String> {
    match e {
        ParsePositionError::Sfen(e) => match e {
            SfenError::RankLength { rank, squares } => {
                vec![format!("rank {rank}"), squares.to_string()]
            }
            SfenError::UnknownPiece {
                rank,
                column,
                found,
            } => vec![
                format!("rank {rank}"),
                format!("column {column}"),
                found.to_string(),
            ],
            SfenError::BadEmptyCount {
                rank,
                column,
                found,
            } => vec![
                format!("rank {rank}"),
                format!("column {column}"),
                found.clone(),
            ],
            SfenError::BadPromotion { rank, column } => {
                vec![format!("rank {rank}"), format!("column {column}")]
            }
            SfenError::BadHand { column, .. } => vec![format!("column {column}")],
            SfenError::FieldCount { found, .. } | SfenError::RankCount { found } => {
                vec![found.to_string()]
            }
            SfenError::BadSide { found } | SfenError::BadMoveNumber { found } => {
                vec![found.clone()]
            }
            SfenError::Empty => vec![],
        },
        ParsePositionError::Illegal(e) => match e {
            PositionError::TooManyPieces { count, max, .. } => {
                vec![count.to_string(), max.to_string()]
            }
            PositionError::Nifu { color, file } => {
                vec![format!("{color:?}"), format!("file {file}")]
            }
            PositionError::DeadPiece { piece, square } => {
                vec![piece.to_sfen(), square.to_string()]
            }
            PositionError::TwoKings { color } | PositionError::OpponentInCheck { color } => {
                vec![format!("{color:?}")]
            }
        },
    }
}

/// Kinds whose corpus lines must give the expected place (third column).
const KINDS_WITH_A_PLACE: &[&str] = &[
    "RankLength",
    "BadEmptyCount",
    "UnknownPiece",
    "BadPromotion",
    "BadHand",
    "Nifu",
    "DeadPiece",
];

struct Case<'a> {
    line_no: usize,
    kind: &'a str,
    sfen: &'a str,
    place: Option<&'a str>,
}

fn cases(text: &str) -> Vec<Case<'_>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let line_no = i + 1;
            let (kind, rest) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("bad_sfen.txt:{line_no}: no tab in {l:?}"));
            // The SFEN may itself be blank or contain tabs (the `Empty` cases): the place is
            // the last column only if there are three.
            let (sfen, place) = match rest.rsplit_once('\t') {
                Some((sfen, place)) if !place.trim().is_empty() => (sfen, Some(place)),
                _ => (rest, None),
            };
            assert!(
                ALL_KINDS.contains(&kind),
                "bad_sfen.txt:{line_no}: unknown error kind {kind:?}"
            );
            Case {
                line_no,
                kind,
                sfen,
                place,
            }
        })
        .collect()
}

#[test]
fn bad_sfens_are_rejected_with_the_expected_error() {
    let text = common::read_data("bad_sfen.txt");
    let cases = cases(&text);
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let mut failures = Vec::new();
    let mut seen = BTreeSet::new();
    for case in &cases {
        let Case {
            line_no,
            kind,
            sfen,
            place,
        } = *case;
        let where_ = format!("bad_sfen.txt:{line_no} ({sfen:?})");
        let result = panic::catch_unwind(|| Position::from_sfen(sfen));
        let err = match result {
            Err(_) => {
                failures.push(format!("{where_}: Position::from_sfen panicked"));
                continue;
            }
            Ok(Ok(pos)) => {
                failures.push(format!("{where_}: accepted as {}", pos.to_sfen()));
                continue;
            }
            Ok(Err(e)) => e,
        };
        let got = kind_name(&err);
        seen.insert(got);
        let inner_debug = match &err {
            ParsePositionError::Sfen(e) => debug_variant_name(e),
            ParsePositionError::Illegal(e) => debug_variant_name(e),
        };
        assert_eq!(inner_debug, got, "kind_name disagrees with Debug");
        if got != kind {
            failures.push(format!("{where_}: expected {kind}, got {err:?} ({err})"));
            continue;
        }
        // The syntax-only parser must agree on which layer the error belongs to.
        let setup = Setup::from_sfen(sfen);
        match &err {
            ParsePositionError::Sfen(e) if setup.as_ref() != Err(e) => failures.push(format!(
                "{where_}: Setup::from_sfen gave {setup:?}, Position::from_sfen {err:?}"
            )),
            ParsePositionError::Illegal(_) if setup.is_err() => failures.push(format!(
                "{where_}: Setup::from_sfen rejected a syntactically valid SFEN: {setup:?}"
            )),
            _ => {}
        }
        let msg = err.to_string();
        let inner_msg = match &err {
            ParsePositionError::Sfen(e) => e.to_string(),
            ParsePositionError::Illegal(e) => e.to_string(),
        };
        if inner_msg.trim().is_empty() || !msg.contains(&inner_msg) {
            failures.push(format!("{where_}: poor message {msg:?}"));
        }
        for p in places_in_message(&err) {
            if !msg.contains(&p) {
                failures.push(format!("{where_}: message {msg:?} does not mention {p:?}"));
            }
        }
        match place {
            Some(p) if !msg.contains(p) => failures.push(format!(
                "{where_}: message {msg:?} does not name the expected place {p:?} ({err:?})"
            )),
            None if KINDS_WITH_A_PLACE.contains(&kind) => failures.push(format!(
                "{where_}: corpus line needs the expected place as a third column"
            )),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let missing: Vec<_> = ALL_KINDS.iter().filter(|k| !seen.contains(*k)).collect();
    assert!(missing.is_empty(), "no corpus line for {missing:?}");
}

/// Valid but unusual SFENs: they parse, and `to_sfen` reads back as the same position.
const GOOD: &[&str] = &[
    // No king at all, or only the defender's (the usual tsume setting).
    "9/9/9/9/9/9/9/9/9 b - 1",
    "4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",
    "9/9/9/9/9/9/9/9/4K4 w 18p 1",
    // Promoted pieces on the last ranks are not dead; all promotable kinds, both colours.
    "+P+L+N+S1k3/9/9/9/9/9/9/9/+p+l+n+s+b+r3 b - 1",
    "4k4/9/9/9/9/9/9/9/+R+B7 b - 1",
    // Counts: 10 + 8 = 18 pawns; 4 golds plus 4 promoted silvers (not golds).
    "4k4/9/9/9/9/9/9/9/9 b 10P8p 1",
    "4k4/9/9/9/9/9/9/9/GGGG+S+S+S+S1 b - 1",
    // A tokin and a pawn on one file, and pawns of both colours on one file: not nifu.
    "4k4/9/4+P4/9/4P4/9/4p4/9/9 b - 1",
    // Knights on their third-to-last rank, lances on their second-to-last.
    "4k4/L8/N8/9/9/9/8n/8l/9 b - 1",
    // The side to move may be in check (only the other side may not).
    "4k4/9/9/9/9/9/9/4r4/4K4 b - 1",
    // Keyword, `startpos`, extra whitespace, no move number, a large move number,
    // non-canonical hand order and counts split over several groups.
    "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "startpos",
    "  sfen startpos\n",
    "4k4/9/9/9/9/9/9/9/9   w \t - ",
    "4k4/9/9/9/9/9/9/9/9 b - 1073741824",
    "4k4/9/9/9/9/9/9/9/9 b pP2gSs2P 1",
    // Both kings on one file, nothing between them, neither in check.
    "4k4/9/9/9/9/9/9/9/4K4 b - 1",
];

#[test]
fn tricky_good_sfens_parse_and_round_trip() {
    for sfen in GOOD {
        let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen:?}: {e}"));
        let again = Position::from_sfen(&pos.to_sfen())
            .unwrap_or_else(|e| panic!("{sfen:?} → {}: {e}", pos.to_sfen()));
        assert_eq!(again, pos, "{sfen:?}");
        assert_eq!(again.to_sfen(), pos.to_sfen(), "{sfen:?}");
    }
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b pP2gSs2P 1").unwrap();
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/9 b S3P2gsp 1");
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/9   w \t - ").unwrap();
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/9 w - 1");
}
