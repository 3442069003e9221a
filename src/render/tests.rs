use super::*;

const MATE3: &str = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";

/// Parses an SVG (leaked: tests only) so that the document can outlive temporaries.
fn parse(svg: &str) -> roxmltree::Document<'static> {
    let svg: &'static str = Box::leak(svg.to_string().into_boxed_str());
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed: {e}\n{svg}"))
}

fn with_class<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
    class: &'a str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> + 'a {
    doc.descendants().filter(move |n| {
        n.attribute("class")
            .is_some_and(|c| c.split_whitespace().any(|w| w == class))
    })
}

fn group_text(doc: &roxmltree::Document<'_>, class: &str) -> String {
    let g = with_class(doc, class)
        .find(|n| n.has_tag_name("g"))
        .unwrap_or_else(|| panic!("no group {class}"));
    g.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

fn svg_of(sfen: &str) -> String {
    render_svg(
        &Position::from_sfen(sfen).unwrap(),
        &RenderOptions::default(),
    )
}

#[test]
fn well_formed_and_scalable() {
    let svg = svg_of(MATE3);
    let doc = parse(&svg);
    let root = doc.root_element();
    assert!(root.has_tag_name(("http://www.w3.org/2000/svg", "svg")));
    assert_eq!(
        root.attribute("viewBox"),
        Some(format!("0 0 {} {}", num(WIDTH), num(HEIGHT)).as_str())
    );
    assert!(root.attribute("font-family").unwrap().ends_with("serif"));
    // Nothing external: no links, images, styles or font files.
    assert!(!svg.contains("href") && !svg.contains("@import") && !svg.contains("url("));
}

#[test]
fn grid_has_ten_lines_each_way() {
    let doc = parse(&svg_of(MATE3));
    let grid = with_class(&doc, "grid").next().unwrap();
    let lines: Vec<_> = grid.children().filter(|n| n.has_tag_name("line")).collect();
    let coord = |n: &roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    let mut xs: Vec<f64> = lines
        .iter()
        .filter(|l| coord(l, "x1") == coord(l, "x2"))
        .map(|l| coord(l, "x1"))
        .collect();
    let mut ys: Vec<f64> = lines
        .iter()
        .filter(|l| coord(l, "y1") == coord(l, "y2"))
        .map(|l| coord(l, "y1"))
        .collect();
    xs.sort_by(f64::total_cmp);
    ys.sort_by(f64::total_cmp);
    assert_eq!(xs.len(), 10);
    assert_eq!(ys.len(), 10);
    for i in 0..10 {
        assert!((xs[i] - (BOARD_X + i as f64 * CELL_W)).abs() < 1e-9);
        assert!((ys[i] - (BOARD_Y + i as f64 * CELL_H)).abs() < 1e-9);
    }
}

#[test]
fn coordinates_for_black_and_white_attackers() {
    let doc = parse(&svg_of(MATE3));
    let files: String = with_class(&doc, "file").filter_map(|n| n.text()).collect();
    let ranks: String = with_class(&doc, "rank").filter_map(|n| n.text()).collect();
    assert_eq!(files, "９８７６５４３２１");
    assert_eq!(ranks, "一二三四五六七八九");
    // White attacks: the board is seen from White's side.
    let doc = parse(&svg_of("9/9/9/9/9/9/9/7K1/9 w G 1"));
    let files: String = with_class(&doc, "file").filter_map(|n| n.text()).collect();
    let ranks: String = with_class(&doc, "rank").filter_map(|n| n.text()).collect();
    assert_eq!(files, "１２３４５６７８９");
    assert_eq!(ranks, "九八七六五四三二一");
}

#[test]
fn every_piece_kind_has_its_kanji_and_the_defender_is_rotated() {
    // Black attacks; every kind of both colours on the board.
    let sfen = "lnsgk4/+p+l+n+s+b+r3/p8/9/9/4P4/+P+L+N+S5/1B5R1/LNSGK4 b - 1";
    let pos = Position::from_sfen(sfen).unwrap();
    let svg = render_svg(&pos, &RenderOptions::default());
    let doc = parse(&svg);
    let mut count = 0;
    for n in with_class(&doc, "piece") {
        count += 1;
        let sq: Square = n.attribute("data-square").unwrap().parse().unwrap();
        let p = pos.piece_at(sq).expect("a piece there");
        let attacker = p.color == Color::Black;
        let want = match (p.kind, attacker) {
            (PieceKind::King, true) => "王",
            (PieceKind::King, false) => "玉",
            (PieceKind::Pawn, _) => "歩",
            (PieceKind::Lance, _) => "香",
            (PieceKind::Knight, _) => "桂",
            (PieceKind::Silver, _) => "銀",
            (PieceKind::Gold, _) => "金",
            (PieceKind::Bishop, _) => "角",
            (PieceKind::Rook, _) => "飛",
            (PieceKind::ProPawn, _) => "と",
            (PieceKind::ProLance, _) => "杏",
            (PieceKind::ProKnight, _) => "圭",
            (PieceKind::ProSilver, _) => "全",
            (PieceKind::Horse, _) => "馬",
            (PieceKind::Dragon, _) => "龍",
        };
        assert_eq!(n.text(), Some(want), "{sq}");
        let classes = n.attribute("class").unwrap();
        let x = n.attribute("x").unwrap();
        let y = n.attribute("y").unwrap();
        if attacker {
            assert!(classes.contains("attacker"));
            assert_eq!(n.attribute("transform"), None);
        } else {
            assert!(classes.contains("defender"));
            assert_eq!(
                n.attribute("transform"),
                Some(format!("rotate(180 {x} {y})").as_str())
            );
        }
        // The text sits at the centre of its cell.
        let (col, row) = cell_of(sq, Color::Black);
        assert_eq!(x, num(BOARD_X + (col as f64 + 0.5) * CELL_W));
        assert_eq!(y, num(BOARD_Y + (row as f64 + 0.5) * CELL_H));
    }
    assert_eq!(
        count,
        Square::all().filter(|&s| pos.piece_at(s).is_some()).count()
    );
}

#[test]
fn white_attacker_is_upright_at_the_bottom() {
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w - 1").unwrap();
    let doc = parse(&render_svg(&pos, &RenderOptions::default()));
    let pieces: Vec<_> = with_class(&doc, "piece").collect();
    assert_eq!(pieces.len(), 2);
    for n in pieces {
        let sq: Square = n.attribute("data-square").unwrap().parse().unwrap();
        let y: f64 = n.attribute("y").unwrap().parse().unwrap();
        if sq.to_string() == "5a" {
            // White's king: attacker, upright, at the bottom.
            assert_eq!(n.text(), Some("王"));
            assert!(n.attribute("transform").is_none());
            assert!(y > BOARD_Y + 8.0 * CELL_H);
        } else {
            assert_eq!(n.text(), Some("玉"));
            assert!(n.attribute("transform").is_some());
            assert!(y < BOARD_Y + CELL_H);
        }
    }
}

#[test]
fn hands_are_written_beside_the_board() {
    let doc = parse(&svg_of(MATE3));
    assert_eq!(group_text(&doc, "attacker"), "▲持駒飛");
    assert_eq!(
        group_text(&doc, "defender"),
        "△持駒飛角二金四銀三桂三香四歩十七"
    );
    let hand = with_class(&doc, "attacker")
        .find(|n| n.has_tag_name("g"))
        .unwrap();
    assert_eq!(hand.attribute("aria-label"), Some("▲持駒 飛"));
    let doc = parse(&svg_of("4k4/9/9/9/9/9/9/9/9 b - 1"));
    assert_eq!(group_text(&doc, "attacker"), "▲持駒なし");
    assert_eq!(group_text(&doc, "defender"), "△持駒なし");
    // A long hand still fits beside the board.
    let doc = parse(&svg_of("4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1"));
    for n in with_class(&doc, "attacker").flat_map(|g| g.descendants()) {
        if let Some(y) = n.attribute("y") {
            assert!(y.parse::<f64>().unwrap() < BOARD_Y + BOARD_H);
        }
    }
    assert_eq!(
        group_text(&doc, "attacker"),
        "▲持駒飛二角二金四銀四桂四香四歩十八"
    );
}

#[test]
fn highlight_iff_last_move() {
    let doc = parse(&svg_of(MATE3));
    assert_eq!(with_class(&doc, "last-move").count(), 0);
    let problem = parse_sfen_with_moves(&format!("{MATE3} moves 2c2b+ 1b1c")).unwrap();
    let (pos, opts) = position_after(&problem, 2).unwrap();
    assert_eq!(opts.attacker, Some(Color::Black));
    let doc = parse(&render_svg(&pos, &opts));
    let marks: Vec<_> = with_class(&doc, "last-move").collect();
    assert_eq!(marks.len(), 1);
    assert_eq!(marks[0].attribute("data-square"), Some("1c"));
    let (col, row) = cell_of("1c".parse().unwrap(), Color::Black);
    assert_eq!(
        marks[0].attribute("x"),
        Some(num(BOARD_X + col as f64 * CELL_W).as_str())
    );
    assert_eq!(
        marks[0].attribute("y"),
        Some(num(BOARD_Y + row as f64 * CELL_H).as_str())
    );
    // The defender is to move after one ply, but the attacker stays at the bottom.
    let (pos, opts) = position_after(&problem, 1).unwrap();
    let doc = parse(&render_svg(&pos, &opts));
    let files: String = with_class(&doc, "file").filter_map(|n| n.text()).collect();
    assert_eq!(files, "９８７６５４３２１");
    let tokin = with_class(&doc, "piece")
        .find(|n| n.attribute("data-square") == Some("2b"))
        .unwrap();
    assert_eq!(tokin.text(), Some("と"));
    assert!(tokin.attribute("transform").is_none());
}

#[test]
fn moves_suffix_errors() {
    let problem = parse_sfen_with_moves(&format!("{MATE3} moves 2c2b+")).unwrap();
    assert!(position_after(&problem, 2)
        .unwrap_err()
        .to_string()
        .contains("only 1 move"));
    let problem = parse_sfen_with_moves(&format!("{MATE3} moves 5e5d")).unwrap();
    assert!(position_after(&problem, 1)
        .unwrap_err()
        .to_string()
        .contains("move 1 (5e5d)"));
    assert!(parse_sfen_with_moves("startpos moves 7g7f").is_ok());
    // A USI `position` command reads as the same problem.
    let usi = parse_sfen_with_moves(&format!("position sfen {MATE3} moves 2c2b+")).unwrap();
    assert_eq!(usi.pos, Position::from_sfen(MATE3).unwrap());
    assert_eq!(usi.moves, ["2c2b+"]);
    assert!(parse_sfen_with_moves("9/9 b - 1").is_err());
}

#[test]
fn board_only_leaves_out_the_hands_and_keeps_the_board_in_view() {
    let pos = Position::from_sfen(MATE3).unwrap();
    let full = parse(&render_svg(&pos, &RenderOptions::default()));
    assert_eq!(with_class(&full, "hand").count(), 2);
    let svg = render_svg(
        &pos,
        &RenderOptions {
            board_only: true,
            ..RenderOptions::default()
        },
    );
    let doc = parse(&svg);
    assert_eq!(with_class(&doc, "hand").count(), 0, "no hands");
    let view: Vec<f64> = doc
        .root_element()
        .attribute("viewBox")
        .unwrap()
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    let (left, right) = (view[0], view[0] + view[2]);
    assert!(right - left < WIDTH - 2.0 * HAND_W, "narrower: {view:?}");
    // Every piece and coordinate is inside the view, with the board's frame.
    for n in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let x: f64 = n.attribute("x").unwrap().parse().unwrap();
        assert!(
            left < x && x < right,
            "{:?} at x={x} outside {view:?}",
            n.text()
        );
    }
    assert!(left < BOARD_X && BOARD_X + BOARD_W < right);
}

#[test]
fn titles_are_escaped() {
    let pos = Position::from_sfen(MATE3).unwrap();
    let svg = render_svg(
        &pos,
        &RenderOptions {
            title: Some("<a&b>".into()),
            ..RenderOptions::default()
        },
    );
    let doc = parse(&svg);
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert!(title.text().unwrap().starts_with("<a&b>: "));
}

#[test]
fn markup_is_escaped() {
    assert_eq!(escape(r#"<a&b>"'"#), "&lt;a&amp;b&gt;&quot;&#39;");
    assert_eq!(escape("歩 x"), "歩 x");
}

#[test]
fn numerals() {
    assert_eq!(kanji_count(1), "");
    assert_eq!(kanji_count(2), "二");
    assert_eq!(kanji_count(10), "十");
    assert_eq!(kanji_count(18), "十八");
}
