use super::*;

#[test]
fn startpos_round_trip() {
    let p = Position::startpos();
    assert_eq!(p.to_sfen(), crate::setup::STARTPOS_SFEN);
    assert!(!p.in_check());
}

#[test]
fn validation_errors() {
    type Case = (&'static str, fn(&PositionError) -> bool);
    let cases: &[Case] = &[
        ("4k4/9/9/9/9/9/9/9/9 b 19P 1", |e| {
            matches!(
                e,
                PositionError::TooManyPieces {
                    kind: Pawn,
                    count: 19,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/9/9/9/R8 b 2R 1", |e| {
            matches!(
                e,
                PositionError::TooManyPieces {
                    kind: Rook,
                    count: 3,
                    ..
                }
            )
        }),
        ("4k4/9/4+R4/9/9/9/9/9/R8 b R 1", |e| {
            matches!(e, PositionError::TooManyPieces { kind: Rook, .. })
        }),
        ("4k4/9/4P4/9/4P4/9/9/9/9 b - 1", |e| {
            matches!(
                e,
                PositionError::Nifu {
                    color: Color::Black,
                    file: 5
                }
            )
        }),
        ("P3k4/9/9/9/9/9/9/9/9 b - 1", |e| {
            matches!(e, PositionError::DeadPiece { .. })
        }),
        ("4k4/N8/9/9/9/9/9/9/9 b - 1", |e| {
            matches!(e, PositionError::DeadPiece { .. })
        }),
        ("4k4/9/9/9/9/9/9/9/4l4 b - 1", |e| {
            matches!(e, PositionError::DeadPiece { .. })
        }),
        ("4k4/9/4P4/9/9/9/9/9/K3K4 b G 1", |e| {
            matches!(
                e,
                PositionError::TwoKings {
                    color: Color::Black
                }
            )
        }),
        ("4k3k/9/9/9/9/9/9/9/9 b - 1", |e| {
            matches!(
                e,
                PositionError::TwoKings {
                    color: Color::White
                }
            )
        }),
        ("4k4/4R4/9/9/9/9/9/9/9 b - 1", |e| {
            matches!(
                e,
                PositionError::OpponentInCheck {
                    color: Color::White
                }
            )
        }),
    ];
    for (sfen, pred) in cases {
        let setup: Setup = sfen.parse().unwrap();
        let err = Position::from_setup(&setup).expect_err(sfen);
        assert!(pred(&err), "{sfen}: {err}");
    }
    // Tokin and enemy pawns do not count for nifu; kingless positions are fine.
    assert!(Position::from_sfen("9/9/4+P4/9/4P4/9/4p4/9/9 b - 1").is_ok());
    assert!(Position::from_sfen("9/9/9/9/9/9/9/9/9 b - 1").is_ok());
}

#[test]
fn do_undo_restores() {
    let mut p = Position::startpos();
    let before = p.clone();
    let m: Move = "7g7f".parse().unwrap();
    p.do_move(m);
    assert_eq!(p.side_to_move(), Color::White);
    assert_ne!(p.board_key(), before.board_key());
    p.undo_move();
    assert_eq!(p, before);
    assert_eq!(p.board_key(), before.board_key());
}

/// [`Position::attacks_next_to`] gives the squares next to a square that
/// [`Position::attackers_to`] finds attacked, for both colours, every square, at the
/// position's occupancy and with that square emptied (as a king's escapes are tested), over
/// the positions of the move-generation oracle.
#[test]
fn attacks_next_to_a_square_agree_with_attackers_to() {
    let oracle = include_str!("../../../../tests/data/movegen_oracle.txt");
    let mut positions = 0;
    for line in oracle
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let sfen = line.split('\t').next().expect("sfen field");
        // The oracle also holds positions outside the piece set, which validation refuses.
        let Ok(p) = Position::from_sfen(sfen) else {
            continue;
        };
        positions += 1;
        for color in [Color::Black, Color::White] {
            for sq in Square::all() {
                for occ in [p.occupied(), p.occupied().without(sq)] {
                    let expected = attacks::king_attacks(sq)
                        .into_iter()
                        .filter(|&t| p.attackers_to(color, t, occ).is_nonempty())
                        .fold(Bitboard::EMPTY, |b, t| b.with(t));
                    assert_eq!(
                        p.attacks_next_to(color, sq, occ),
                        expected,
                        "{sfen}: {color:?} next to {sq:?}"
                    );
                }
            }
        }
    }
    assert!(positions >= 100, "only {positions} oracle positions");
}
