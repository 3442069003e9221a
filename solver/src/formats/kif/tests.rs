use super::*;

const TSUME: &str = "\
# a three-move problem
後手の持駒：飛　角二　金四　銀三　桂三　香四　歩十七
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ 銀 ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・v玉|二
| ・ ・ ・ ・ ・ ・ ・ 歩 ・|三
| ・ ・ ・ ・ ・ ・ ・ ・v桂|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：飛
手数----指手---------消費時間--
   1 ２二歩成(23)   ( 0:00/00:00:00)
   2 １三玉(12)   ( 0:00/00:00:00)
   3 ２三飛打
   4 詰み
まで3手で詰み
";

#[test]
fn reads_a_tsume_record() {
    let r = parse(TSUME).unwrap();
    assert_eq!(
        r.setup.to_string(),
        "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1"
    );
    let usi: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(usi, ["2c2b+", "1b1c", "R*2c"]);
}

#[test]
fn write_then_read() {
    let pos = Position::from_sfen("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1").unwrap();
    let r = parse(TSUME).unwrap();
    let text = write(&pos, &r.moves, Ending::Mate);
    assert!(text.contains("   1 ２二歩成(23)\n"), "{text}");
    assert!(text.contains("   4 詰み\nまで3手で詰み\n"), "{text}");
    assert_eq!(
        parse(&text).unwrap(),
        KifRecord {
            headers: vec![],
            ..r
        }
    );
    let start = Position::startpos();
    let text = write(&start, &[], Ending::None);
    assert!(text.contains("手合割：平手"));
    assert_eq!(parse(&text).unwrap().setup, start.to_setup());
}

#[test]
fn several_records_in_one_file() {
    let pos = Position::from_sfen("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1").unwrap();
    let moves = parse(TSUME).unwrap().moves;
    let record = write(&pos, &moves, Ending::Mate);
    let header_lines = record.lines().count();
    // As the generator writes a pack's problems.kif: a comment, the record, a blank line.
    let mut text = "\u{feff}".to_string();
    for (i, body) in [
        record.as_str(),
        &record.replace("２三飛打", "２三角打"),
        &record,
    ]
    .iter()
    .enumerate()
    {
        text += &format!("# problem p{i} (3 plies)\n{body}\n");
    }
    let records = parse_records(&text);
    assert_eq!(records.len(), 3);
    let step = header_lines + 2;
    for (i, (r, _)) in records.iter().enumerate() {
        assert_eq!(r.first_line, 1 + i * step);
        assert!(
            r.text.starts_with(&format!("# problem p{i} ")),
            "{}",
            r.text
        );
    }
    assert_eq!(records[0].1.as_ref().unwrap().moves, moves);
    assert_eq!(records[2].1.as_ref().unwrap().moves, moves);
    // The second record's bad third move is reported at its line in the file.
    let e = records[1].1.as_ref().unwrap_err();
    let third = text
        .lines()
        .position(|l| l.contains("２三角打"))
        .expect("the bad move")
        + 1;
    assert_eq!(e.line, third, "{e}");
    // One record (no `#KIF` line, or one) is the whole text.
    assert_eq!(split_records(TSUME).len(), 1);
    assert_eq!(split_records(&record).len(), 1);
    assert_eq!(split_records(&record)[0].text, record);
}

#[test]
fn counts_and_rest_of_pieces() {
    for n in 1..=99 {
        assert_eq!(parse_count(&kanji_count(n)), Some(n), "{n}");
    }
    assert_eq!(parse_count("17"), Some(17));
    assert_eq!(parse_count("１８"), Some(18));
    assert_eq!(parse_count("十十"), None);
    let text = TSUME.replace(
        "後手の持駒：飛　角二　金四　銀三　桂三　香四　歩十七",
        "後手の持駒：残り全部",
    );
    assert_eq!(parse(&text).unwrap().setup, parse(TSUME).unwrap().setup);
}

#[test]
fn errors_carry_line_numbers() {
    let lines: Vec<&str> = TSUME.lines().collect();
    // Truncated inside the diagram.
    let cut = lines[..8].join("\n");
    let e = parse(&cut).unwrap_err();
    assert_eq!(e.line, 8);
    assert_eq!(e.kind, KifErrorKind::TruncatedBoard { ranks: 4 });
    // An unknown piece.
    let bad = TSUME.replace("|二", "|X").replace("v玉", "v猫");
    let e = parse(&bad).unwrap_err();
    assert_eq!(e.line, 6);
    assert!(matches!(e.kind, KifErrorKind::BadBoardRow(_)), "{e}");
    // Two kings of one side.
    let bad = TSUME.replace(
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五",
        "| ・ ・ ・ ・v玉 ・ ・ ・ ・|五",
    );
    let e = parse(&bad).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(matches!(
        e.kind,
        KifErrorKind::IllegalPosition(PositionError::TwoKings { .. })
    ));
    // A dead piece names its rank's line.
    let bad = TSUME
        .replace(
            "| ・ ・ ・ ・ ・ ・ 銀 ・ ・|一",
            "| ・ ・ ・ ・ ・ ・ 香 ・ ・|一",
        )
        .replace("香四", "香三");
    let e = parse(&bad).unwrap_err();
    assert_eq!(e.line, 5, "{e}");
    // An illegal move.
    let bad = TSUME.replace("   3 ２三飛打", "   3 ２三角打");
    let e = parse(&bad).unwrap_err();
    assert_eq!(e.line, 19);
    assert!(matches!(e.kind, KifErrorKind::IllegalMove { .. }), "{e}");
    // A hole in the move numbers.
    let bad = TSUME.replace("   3 ２三飛打", "   5 ２三飛打");
    assert_eq!(
        parse(&bad).unwrap_err().kind,
        KifErrorKind::MoveNumber {
            expected: 3,
            found: 5
        }
    );
    assert_eq!(
        parse("# only a comment\n").unwrap_err().kind,
        KifErrorKind::Empty
    );
}

#[test]
fn a_record_cut_off_before_its_diagram_is_not_the_start_position() {
    let lines: Vec<&str> = TSUME.lines().collect();
    let e = parse(&(lines[..3].join("\n") + "\n")).unwrap_err();
    assert_eq!((e.line, e.kind), (3, KifErrorKind::NoPosition));
    // A game's moves or a 手合割 without a diagram are still the start position.
    let game = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    assert_eq!(parse(game).unwrap().moves.len(), 1);
    let game = "手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    assert_eq!(parse(game).unwrap().moves.len(), 1);
}

#[test]
fn cr_only_line_endings_are_refused() {
    let e = parse(&TSUME.replace('\n', "\r")).unwrap_err();
    assert_eq!((e.line, e.kind), (1, KifErrorKind::BareCarriageReturn));
    // CRLF is fine.
    assert_eq!(
        parse(&TSUME.replace('\n', "\r\n")).unwrap(),
        parse(TSUME).unwrap()
    );
}

#[test]
fn text_after_a_move_is_refused() {
    for bad in [
        "２三飛打成成成",
        "２三飛打成",
        "２三飛打x",
        "２二歩成(23)成",
    ] {
        let text = TSUME
            .replace("   3 ２三飛打", &format!("   3 {bad}"))
            .replace(
                "   1 ２二歩成(23)   ( 0:00/00:00:00)",
                &format!(
                    "   1 {}",
                    if bad.contains("(23)") {
                        bad
                    } else {
                        "２二歩成(23)"
                    }
                ),
            );
        let e = parse(&text).unwrap_err();
        assert!(matches!(e.kind, KifErrorKind::BadMove(_)), "{bad}: {e}");
    }
    // A time or a variation mark after the move is fine.
    let text = TSUME.replace("   3 ２三飛打", "   3 ２三飛打   ( 0:01/00:00:01)+");
    assert_eq!(parse(&text).unwrap().moves.len(), 3);
}

#[test]
fn a_utf8_file_that_declares_shift_jis_is_read_as_shift_jis() {
    let text = "#KIF version=2.0 encoding=Shift_JIS\r\n先手の持駒：飛\r\n";
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(text);
    assert_eq!(decode(&sjis, Encoding::Utf8).unwrap(), text);
    // Without the declaration, a .kifu must be UTF-8.
    let (plain, _, _) = encoding_rs::SHIFT_JIS.encode("#KIF version=2.0\r\n先手の持駒：飛\r\n");
    assert!(decode(&plain, Encoding::Utf8).is_err());
    // A UTF-8 file that declares UTF-8 stays UTF-8.
    let utf8 = "#KIF version=2.0 encoding=UTF-8\n先手の持駒：飛\n";
    assert_eq!(decode(utf8.as_bytes(), Encoding::Utf8).unwrap(), utf8);
}

#[test]
fn decoding() {
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("先手の持駒：飛\n");
    assert_eq!(decode(&sjis, Encoding::Auto).unwrap(), "先手の持駒：飛\n");
    assert_eq!(
        decode(&sjis, Encoding::ShiftJis).unwrap(),
        "先手の持駒：飛\n"
    );
    let mut bytes = b"# ok\n# ok\n".to_vec();
    bytes.extend_from_slice(&sjis);
    let e = decode(&bytes, Encoding::Utf8).unwrap_err();
    assert_eq!(e.line, 3);
    let e = decode(b"ok\n\x81\n", Encoding::ShiftJis).unwrap_err();
    assert_eq!(e.line, 2);
    assert_eq!(
        decode("\u{feff}後手番".as_bytes(), Encoding::Auto).unwrap(),
        "後手番"
    );
}

/// Two records as Kifu for Windows writes them (no `#KIF` line), one after the other.
fn two_records() -> String {
    let second = TSUME
        .replace("# a three-move problem\n", "")
        .replace("   4 詰み\nまで3手で詰み\n", "   4 詰み\nまで3手で詰み\n\n");
    let first = TSUME.replace("# a three-move problem\n", "作品名：一\n");
    format!("# ---- Kifu for Windows ----\n{first}# ---- Kifu for Windows ----\n表題：二\n{second}")
}

#[test]
fn records_one_after_the_other_without_kif_lines_are_split_at_the_end_line() {
    let text = two_records();
    let records = parse_records(&text);
    assert_eq!(records.len(), 2, "{records:?}");
    let second_start = TSUME.lines().count() + 2;
    assert_eq!(records[0].0.first_line, 1);
    assert_eq!(records[1].0.first_line, second_start);
    assert!(records[1].0.text.starts_with("# ---- Kifu"));
    for (_, r) in &records {
        assert_eq!(r.as_ref().unwrap().moves, parse(TSUME).unwrap().moves);
    }
    assert_eq!(records[1].1.as_ref().unwrap().headers[0].1, "二");
    // After a terminal move line without a まで line, a diagram starts the next record.
    let bare = TSUME.replace("まで3手で詰み\n", "");
    let bare = bare.replace("# a three-move problem\n", "");
    assert_eq!(split_records(&format!("{bare}{bare}")).len(), 2);
    // Read as one record, the second one is an error, not dropped.
    let e = parse(&text).unwrap_err();
    assert_eq!(e.line, second_start + 1, "{e}");
    assert!(
        matches!(
            e.kind,
            KifErrorKind::AfterEnd {
                end: 21,
                next_record: true,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn text_after_the_end_line_is_refused_unless_a_variation() {
    for garbage in ["something else", "２三飛打", "   5 ２三飛打", "先手番"] {
        let text = format!("{TSUME}{garbage}\n");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.line, 22, "{garbage}: {e}");
        assert!(
            matches!(
                e.kind,
                KifErrorKind::AfterEnd {
                    end: 20,
                    next_record: false,
                    ..
                }
            ),
            "{garbage}: {e}"
        );
        assert!(e.to_string().contains(garbage.trim()), "{e}");
        // In a file of several records too.
        let records = parse_records(&text);
        assert_eq!(records.len(), 1);
        assert!(records[0].1.is_err());
    }
    // Comments, blank lines and variation blocks are fine.
    let text = format!(
        "{TSUME}\n*作意\n変化：3手\n   3 ２三角打\n   4 同　玉(13)\nまで4手で中断\n\n変化：1手\n   1 ２一銀不成(31)\n"
    );
    assert_eq!(parse(&text).unwrap().moves, parse(TSUME).unwrap().moves);
    assert_eq!(split_records(&text).len(), 1);
    // A move line after まで without a 変化 line is not a variation.
    let e = parse(&format!("{TSUME}   5 ２三飛打\n")).unwrap_err();
    assert!(matches!(e.kind, KifErrorKind::AfterEnd { .. }), "{e}");
}

#[test]
fn hand_lines_in_every_spelling() {
    let want = parse(TSUME).unwrap().setup;
    for (black, white) in [
        ("先手の持ち駒：", "後手の持ち駒："),
        ("先手持駒：", "後手持駒："),
        ("先手持ち駒：", "後手持ち駒："),
        ("下手の持ち駒：", "上手の持ち駒："),
        ("先手の持駒:", "後手の持駒:"),
        ("先手の持ち駒:", "後手持駒:"),
        ("先手の持駒 ：", "後手の持駒　："),
    ] {
        // The attacker's rook and the defender's 残り全部: a hand line not read would
        // leave the rook to the defender.
        let text = TSUME
            .replace(
                "後手の持駒：飛　角二　金四　銀三　桂三　香四　歩十七",
                &format!("{white}残り全部"),
            )
            .replace("先手の持駒：飛", &format!("{black}飛"));
        assert_eq!(parse(&text).unwrap().setup, want, "{black} {white}");
    }
    // The defender's 残り全部 however it is written.
    for rest in ["残り全部", "残りすべて", "残り全て"] {
        let text = TSUME.replace(
            "後手の持駒：飛　角二　金四　銀三　桂三　香四　歩十七",
            &format!("後手の持駒：{rest}"),
        );
        assert_eq!(parse(&text).unwrap().setup, want, "{rest}");
    }
    // Any other hand line is an error naming it, not an unknown header.
    for bad in [
        "持駒：飛",
        "攻方の持駒：飛",
        "先手の持駒駒：飛",
        "先手の手持駒:飛",
    ] {
        let text = TSUME.replace("先手の持駒：飛", bad);
        let e = parse(&text).unwrap_err();
        assert_eq!(e.line, 15, "{bad}: {e}");
        assert_eq!(
            e.kind,
            KifErrorKind::UnknownHandLine(bad.to_string()),
            "{bad}"
        );
    }
    // Other headers with a half-width colon are still not KIF lines.
    let e = parse(&TSUME.replace("先手の持駒：飛", "先手の持駒：飛\n作者:誰")).unwrap_err();
    assert!(matches!(e.kind, KifErrorKind::UnknownLine(_)), "{e}");
}

#[test]
fn bod_move_count_lines_are_skipped() {
    for extra in [
        "手数＝0",
        "手数＝3  ▲２三飛打  まで",
        "手数＝１２　△同　玉  まで",
    ] {
        let text = TSUME.replace("先手の持駒：飛\n", &format!("先手の持駒：飛\n{extra}\n"));
        assert_eq!(parse(&text).unwrap(), parse(TSUME).unwrap(), "{extra}");
        // Without moves, as a BOD diagram is.
        let bod = text.split("手数----").next().unwrap().to_string();
        assert_eq!(parse(&bod).unwrap().setup, parse(TSUME).unwrap().setup);
    }
    for bad in ["手数＝", "手数＝x", "手数＝3x"] {
        let text = TSUME.replace("先手の持駒：飛\n", &format!("先手の持駒：飛\n{bad}\n"));
        let e = parse(&text).unwrap_err();
        assert_eq!(e.line, 16, "{bad}: {e}");
        assert!(matches!(e.kind, KifErrorKind::UnknownLine(_)), "{bad}: {e}");
    }
}

#[test]
fn errors_quote_the_text_as_written() {
    let text = TSUME.replace("# a three-move problem\n", "将棋図巧　第２番\n");
    let e = parse(&text).unwrap_err().to_string();
    assert_eq!(e, "line 1: not a KIF line: 「将棋図巧　第２番」");
    let text = TSUME.replace("   3 ２三飛打", "   3 ２三飛打　x");
    let e = parse(&text).unwrap_err().to_string();
    assert_eq!(e, "line 19: unreadable move: 「２三飛打　x」");
    let text = TSUME.replace("先手の持駒：飛", "先手の持駒：飛　猫");
    let e = parse(&text).unwrap_err().to_string();
    assert!(e.contains("「猫」 is not a piece that can be held"), "{e}");
}

/// TSUME's diagram with Black's rook on file 2, `rank`, instead of its pawn on ２三 and its
/// rook in hand, and `moves` as the main line.
fn rook_record(rank: &str, moves: &str) -> String {
    let head = TSUME.split("手数----").next().unwrap();
    let empty = format!("| ・ ・ ・ ・ ・ ・ ・ ・ ・|{rank}");
    let rook = format!("| ・ ・ ・ ・ ・ ・ ・ 飛 ・|{rank}");
    let head = head
        .replace(
            "| ・ ・ ・ ・ ・ ・ ・ 歩 ・|三",
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三",
        )
        .replace(&empty, &rook)
        .replace("先手の持駒：飛", "先手の持駒：なし")
        .replace("歩十七", "歩十八");
    format!("{head}手数----指手---------消費時間--\n{moves}")
}

/// `生` (old 柿木将棋 and other writers) is read as `不成`, where `不成` is read: after
/// the piece of a board move that could promote.
#[test]
fn sei_is_read_as_funari() {
    // The rook on ２三 is in the promotion zone: 不成 and 生 are the same move.
    let funari = parse(&rook_record("三", "   1 ２二飛不成(23)\n")).unwrap();
    let sei = parse(&rook_record("三", "   1 ２二飛生(23)\n")).unwrap();
    assert_eq!(sei, funari);
    let usi: Vec<String> = sei.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(usi, ["2c2b"]);
    // With the time after it.
    let timed = rook_record("三", "   1 ２二飛生(23)   ( 0:01/00:00:01)\n");
    assert_eq!(parse(&timed).unwrap().moves, funari.moves);
    // 成 after 生 is not a move.
    let e = parse(&rook_record("三", "   1 ２二飛生成(23)\n")).unwrap_err();
    assert!(matches!(e.kind, KifErrorKind::BadMove(_)), "{e}");
}

/// A non-promotion (`不成`, or `生`) where the move cannot promote is refused, naming the
/// line: on a drop, on a piece that never promotes, and on a move outside the promotion
/// zone.
#[test]
fn a_meaningless_non_promotion_is_refused() {
    for word in ["不成", "生"] {
        for (line, good, bad) in [
            // A drop: a move without its origin.
            (19, "   3 ２三飛打", format!("   3 ２三飛{word}")),
            // A king cannot promote.
            (
                18,
                "   2 １三玉(12)   ( 0:00/00:00:00)",
                format!("   2 １三玉{word}(12)"),
            ),
        ] {
            let e = parse(&TSUME.replace(good, &bad)).unwrap_err();
            assert_eq!(e.line, line, "{bad}: {e}");
            assert!(
                matches!(&e.kind, KifErrorKind::IllegalMove { reason, .. } if reason.contains(word)),
                "{bad}: {e}"
            );
        }
        // Outside the promotion zone: the rook from ２五 to ２四.
        let text = rook_record("五", &format!("   1 ２四飛{word}(25)\n"));
        let e = parse(&text).unwrap_err();
        assert_eq!(e.line, 17, "{e}");
        assert!(e.to_string().contains("promotion zone"), "{e}");
        // Without the word, the same move is read.
        let plain = parse(&text.replace(word, "")).unwrap();
        assert_eq!(plain.moves[0].to_string(), "2e2d");
    }
}

/// The starter pack's problem a36fbb136223749b, its first six moves: the sixth takes on
/// the fifth's square (`同　金(41)`).
const RECAPTURE: &str = "\
後手の持駒：飛二　金　銀三　桂三　香三　歩十八
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・v金v玉 ・v金v金 ・ ・ ・|一
| ・ ・ 角 ・ ・ 角 ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三
| ・ 杏 ・ 銀 ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ 桂 ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：なし
手数----指手---------消費時間--
   1 ６三桂不成(55)
   2 ７二玉(71)
   3 ７三成香(84)
   4 ６一玉(72)
   5 ５一桂成(63)
   6 同　金(41)
";

/// `５一同金(41)`: some writers put the square before `同`. It is read when the square is
/// the previous move's destination, with or without a space after `同`, as `同　金(41)` and
/// `同金(41)` are.
#[test]
fn a_square_before_dou_is_read_when_it_is_the_previous_destination() {
    let want = parse(RECAPTURE).unwrap();
    assert_eq!(want.moves[5].to_string(), "4a5a");
    for same in ["５一同金(41)", "５一同　金(41)", "同金(41)", "同 金(41)"] {
        let text = RECAPTURE.replace("同　金(41)", same);
        assert_eq!(parse(&text).unwrap(), want, "{same}");
    }
    // With the time after it.
    let text = RECAPTURE.replace("同　金(41)", "５一同金(41)   ( 0:01/00:00:01)");
    assert_eq!(parse(&text).unwrap(), want);
}

/// A square before `同` that is not the previous move's destination is an error naming
/// the line and both squares; `同` on the first move is refused with or without a square.
#[test]
fn a_square_before_dou_that_is_not_the_previous_destination_is_refused() {
    let text = RECAPTURE.replace("同　金(41)", "５二同金(41)");
    let e = parse(&text).unwrap_err();
    assert_eq!(e.line, 21, "{e}");
    assert_eq!(
        e.kind,
        KifErrorKind::SameSquare {
            text: "５二同金(41)".to_string(),
            written: Square::new(4, 1),
            previous: Square::new(4, 0),
        }
    );
    let message = e.to_string();
    assert!(message.starts_with("line 21: "), "{message}");
    for needle in ["５二同金(41)", "５二", "５一"] {
        assert!(message.contains(needle), "{needle}: {message}");
    }
    for first in ["５五同桂(55)", "同　桂(55)"] {
        let text = RECAPTURE.replace("６三桂不成(55)", first);
        let e = parse(&text).unwrap_err();
        assert_eq!(e.line, 16, "{first}: {e}");
        assert!(e.to_string().contains("first move"), "{first}: {e}");
    }
}

fn header(key: &str, value: &str) -> (String, String) {
    (key.to_string(), value.to_string())
}

/// Header lines given to [`write_with_headers`] are written before the position and read
/// back as they were; a header that would be read as something else (a hand, a 手合割,
/// the end of the main line, a comment, two lines) is left out.
#[test]
fn headers_are_written_and_read_back() {
    let pos = Position::from_sfen("6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1").unwrap();
    let moves = parse(TSUME).unwrap().moves;
    let kept = vec![
        header("表題", "詰将棋　第２番"),
        header("作者", "伊藤看寿"),
        header("作品番号", "2"),
        header("発表誌", "将棋図巧"),
        header("開始日時", "1755/01/01 00:00:00"),
    ];
    let text = write_with_headers(&pos, &moves, Ending::Mate, &kept);
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle}:\n{text}"))
    };
    assert!(
        at("表題：詰将棋　第２番\n作者：伊藤看寿\n") < at("後手の持駒："),
        "{text}"
    );
    let back = parse(&text).unwrap();
    assert_eq!(back.headers, kept);
    assert_eq!(back.moves, moves);
    let mut all = kept.clone();
    all.extend([
        header("先手の持駒", "飛"),
        header("手合割", "香落ち"),
        header("変化", "3手"),
        header("まで3手で詰み", ""),
        header("# 作者", "誰"),
        header("作者", "二行\n目"),
        header("", "名無し"),
    ]);
    let text = write_with_headers(&pos, &moves, Ending::Mate, &all);
    let back = parse(&text).unwrap();
    assert_eq!(back.headers, kept, "{text}");
    assert_eq!((back.setup, back.moves), (pos.to_setup(), moves.clone()));
    // No headers: what `write` writes.
    assert_eq!(
        write_with_headers(&pos, &moves, Ending::Mate, &[]),
        write(&pos, &moves, Ending::Mate)
    );
}

/// `成` where the move cannot promote, a pawn, lance or knight left where it could never
/// move again, and `同` without the origin square are refused with a message naming
/// what is wrong, not "not legal in <sfen>".
#[test]
fn promotion_words_and_same_square_that_do_not_fit_the_move_are_named() {
    let reason_of = |text: &str| match parse(text).unwrap_err().kind {
        KifErrorKind::IllegalMove { reason, .. } => reason,
        other => panic!("{other:?}"),
    };
    // The rook from ２五 to ２四: outside the promotion zone.
    let reason = reason_of(&rook_record("五", "   1 ２四飛成(25)\n"));
    assert!(
        reason.contains("成 (promoted)") && reason.contains("promotion zone"),
        "{reason}"
    );
    // A king never promotes.
    let reason = reason_of(&TSUME.replace("１三玉(12)", "１三玉成(12)"));
    assert!(reason.contains("never promotes"), "{reason}");
    // A pawn to the far rank must promote, with or without 不成 written.
    let head = TSUME.split("手数----").next().unwrap();
    let head = head
        .replace(
            "| ・ ・ ・ ・ ・ ・ ・ 歩 ・|三",
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三",
        )
        .replace(
            "| ・ ・ ・ ・ ・ ・ ・ ・v玉|二",
            "| ・ ・ ・ ・ ・ ・ ・ 歩v玉|二",
        );
    let record = |m: &str| format!("{head}手数----指手---------消費時間--\n   1 {m}\n");
    for m in ["２一歩(22)", "２一歩不成(22)"] {
        let reason = reason_of(&record(m));
        assert!(reason.contains("must promote"), "{m}: {reason}");
    }
    assert_eq!(
        parse(&record("２一歩成(22)")).unwrap().moves[0].to_string(),
        "2b2a+"
    );
    // 同 names an occupied square: without its origin it is no drop.
    for same in ["同　金", "５一同金"] {
        let reason = reason_of(&RECAPTURE.replace("同　金(41)", same));
        assert!(
            reason.contains("without the origin square"),
            "{same}: {reason}"
        );
    }
}
