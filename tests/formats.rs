//! KIF and CSA: round trips on every 将棋図巧 problem, records written by cshogi, bad files
//! through the CLI, and `tsume solve --output kif|csa`.

mod common;

use std::path::{Path, PathBuf};

use tsume_solver::kif::{self, Encoding, Ending};
use tsume_solver::{csa, Move, Position, Setup};

use common::{stderr, stdout, tsume};

/// `sfen [moves m…]` lines of a problem file.
fn problems(name: &str) -> Vec<(Setup, Vec<String>)> {
    common::content_lines(&common::read_data(name))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let setup: Setup = fields[..4].join(" ").parse().unwrap();
            let moves = match fields.iter().position(|f| *f == "moves") {
                Some(i) => fields[i + 1..].iter().map(|s| s.to_string()).collect(),
                None => Vec::new(),
            };
            (setup, moves)
        })
        .collect()
}

/// Neither format records the move number: records read back start at 1.
fn without_move_number(setup: &Setup) -> Setup {
    Setup {
        move_number: 1,
        ..setup.clone()
    }
}

fn replay(setup: &Setup, usi: &[String]) -> (Position, Vec<Move>) {
    let pos = Position::from_setup(setup).unwrap();
    let mut p = pos.clone();
    let moves = usi
        .iter()
        .map(|u| {
            let m = p.parse_move(u).unwrap();
            p.do_move(m);
            m
        })
        .collect();
    (pos, moves)
}

#[test]
fn zuko_positions_round_trip_through_kif_and_csa() {
    let all = problems("zuko.txt");
    assert_eq!(all.len(), 103);
    for (setup, _) in &all {
        let pos = Position::from_setup(setup).unwrap();
        let expected = without_move_number(setup);
        let text = kif::write(&pos, &[], Ending::None);
        let back = kif::parse(&text).unwrap_or_else(|e| panic!("{setup}: {e}\n{text}"));
        assert_eq!(back.setup, expected, "KIF of {setup}:\n{text}");
        assert!(back.moves.is_empty());
        let text = csa::write(&pos, &[], Ending::None);
        let back = csa::parse(&text).unwrap_or_else(|e| panic!("{setup}: {e}\n{text}"));
        assert_eq!(back.setup, expected, "CSA of {setup}:\n{text}");
    }
}

#[test]
fn zuko_solutions_round_trip_through_kif_and_csa() {
    let all = problems("zuko_solutions.txt");
    assert_eq!(all.len(), 99);
    let mut plies = 0;
    for (setup, usi) in &all {
        let (pos, moves) = replay(setup, usi);
        plies += moves.len();
        let expected = without_move_number(setup);
        let text = kif::write(&pos, &moves, Ending::Mate);
        let back = kif::parse(&text).unwrap_or_else(|e| panic!("{setup}: {e}\n{text}"));
        assert_eq!(
            (back.setup, back.moves),
            (expected.clone(), moves.clone()),
            "KIF:\n{text}"
        );
        let text = csa::write(&pos, &moves, Ending::Mate);
        let back = csa::parse(&text).unwrap_or_else(|e| panic!("{setup}: {e}\n{text}"));
        assert_eq!((back.setup, back.moves), (expected, moves), "CSA:\n{text}");
    }
    // Long lines (煙詰 and others): every kind of move gets written and read.
    assert!(plies > 4000, "{plies}");
}

fn cshogi_dir() -> PathBuf {
    common::data_path("formats/cshogi")
}

#[test]
fn records_written_by_cshogi_read_correctly() {
    let expected = std::fs::read_to_string(cshogi_dir().join("expected.tsv")).unwrap();
    let mut count = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let (file, sfen, usi) = (f[0], f[1], f[2]);
        let bytes = std::fs::read(cshogi_dir().join(file)).unwrap();
        let setup: Setup = sfen.parse().unwrap();
        let usi: Vec<String> = usi.split_whitespace().map(String::from).collect();
        let (_, moves) = replay(&setup, &usi);
        let (got_setup, got_moves) = if file.ends_with(".csa") {
            let text = kif::decode(&bytes, Encoding::Auto).unwrap();
            let r = csa::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
            (r.setup, r.moves)
        } else {
            let encoding = if file.ends_with(".kifu") {
                Encoding::Utf8
            } else {
                // cshogi writes .kif in cp932: this must not pass as UTF-8.
                assert!(
                    std::str::from_utf8(&bytes).is_err(),
                    "{file} is not Shift-JIS"
                );
                Encoding::ShiftJis
            };
            let text = kif::decode(&bytes, encoding).unwrap_or_else(|e| panic!("{file}: {e}"));
            let r = kif::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
            (r.setup, r.moves)
        };
        assert_eq!(got_setup, without_move_number(&setup), "{file}");
        assert_eq!(got_moves, moves, "{file}");
        count += 1;
    }
    assert_eq!(count, 18);
}

#[test]
fn solve_reads_kif_and_csa_files() {
    // White mates in 3 (the diagram says 後手番).
    for file in ["mate3_w1.kif", "mate3_w1.kifu", "mate3_w1.csa"] {
        let path = cshogi_dir().join(file);
        let o = tsume(&["solve", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.starts_with("mate in 3\nB*5g 4h5h 7i6i\n"),
            "{file}: {out}"
        );
    }
    // --format overrides the extension.
    let dir = temp_dir("format_flag");
    let path = dir.join("problem.txt");
    std::fs::copy(cshogi_dir().join("mate3_w1.csa"), &path).unwrap();
    let o = tsume(&["solve", "--format", "csa", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Under another name, a record is told by its content, as `tsume verify` tells it.
    let o = tsume(&["solve", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("mate in 3\nB*5g 4h5h 7i6i\n"),
        "{}",
        stdout(&o)
    );
    let kif = dir.join("zuko002.txt");
    std::fs::copy(cshogi_dir().join("zuko002.kif"), &kif).unwrap();
    let o = tsume(&["solve", kif.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("mate in 21\n"), "{}", stdout(&o));
    // --format still says what it is.
    let o = tsume(&["solve", "--format", "kif", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "a CSA record read as KIF");
}

/// `tsume solve -` with `stdin` on standard input.
fn solve_stdin(stdin: &[u8], args: &[&str]) -> std::process::Output {
    let mut all = vec!["solve", "-"];
    all.extend(args);
    common::tsume_with_stdin(&all, stdin)
}

/// `tsume solve -` reads a KIF (Shift-JIS or UTF-8, with or without its move list) or CSA
/// record, or one SFEN line, from standard input, told apart by content as `tsume verify
/// -` does; a diagram-only Shift-JIS KIF under another name is KIF to `tsume verify` too.
#[test]
fn solve_reads_standard_input() {
    let answer = "mate in 3\nB*5g 4h5h 7i6i\n";
    for file in ["mate3_w1.kif", "mate3_w1.kifu", "mate3_w1.csa"] {
        let bytes = std::fs::read(cshogi_dir().join(file)).unwrap();
        let o = solve_stdin(&bytes, &[]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
        assert!(stdout(&o).starts_with(answer), "{file}: {}", stdout(&o));
    }
    // The diagram alone (Shift-JIS: 手数 is 8E E8 90 94), no #KIF and no move list.
    let kif = std::fs::read(cshogi_dir().join("mate3_w1.kif")).unwrap();
    let cut = kif
        .windows(4)
        .position(|w| w == [0x8e, 0xe8, 0x90, 0x94])
        .unwrap();
    let diagram = &kif[..cut];
    let o = solve_stdin(diagram, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with(answer), "{}", stdout(&o));
    let dir = temp_dir("stdin_diagram");
    let path = dir.join("diagram.txt");
    std::fs::write(&path, diagram).unwrap();
    let o = tsume(&["verify", path.to_str().unwrap()]);
    assert!(
        stdout(&o).starts_with("record 1 (line 1): "),
        "read as KIF: {}{}",
        stdout(&o),
        stderr(&o)
    );
    // One SFEN line; anything else is named.
    let o = solve_stdin(b"6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1\n", &[]);
    assert!(
        stdout(&o).starts_with("mate in 3\n2c2b+ 1b1c R*2c\n"),
        "{}",
        stdout(&o)
    );
    let o = solve_stdin(b"no problem here\n", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("standard input"), "{}", stderr(&o));
    // --format says what it is.
    let o = solve_stdin(&kif, &["--format", "csa"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
}

#[test]
fn solve_writes_kif_and_csa_records() {
    let sfen = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";
    let o = tsume(&["solve", sfen, "--output", "kif"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("#KIF version=2.0 encoding=UTF-8\n"),
        "{text}"
    );
    assert!(
        text.contains("   1 ２二歩成(23)\n   2 １三玉(12)\n   3 ２三飛打\n   4 詰み\n"),
        "{text}"
    );
    let r = kif::parse(&text).unwrap();
    assert_eq!(r.setup.to_string(), sfen);
    let usi: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(usi, ["2c2b+", "1b1c", "R*2c"]);

    let o = tsume(&["solve", sfen, "--output", "csa"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.ends_with("+2322TO\n-1213OU\n+0023HI\n%TSUMI\n"),
        "{text}"
    );
    let r = csa::parse(&text).unwrap();
    assert_eq!(r.setup.to_string(), sfen);

    // One SFEN line with the solution, as `tsume verify` reads a problem: the KIF file's
    // problem, which verify then finds sound.
    let kif_file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/formats/cshogi/mate3_w1.kifu"
    );
    let o = tsume(&["solve", kif_file, "--output", "sfen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let line = stdout(&o);
    assert_eq!(line.lines().count(), 1, "{line}");
    let (sfen_part, moves_part) = line.trim_end().split_once(" moves ").expect("moves");
    let expected = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/formats/cshogi/expected.tsv"
    ))
    .unwrap();
    let row: Vec<&str> = expected
        .lines()
        .find(|l| l.starts_with("mate3_w1.kifu\t"))
        .unwrap()
        .split('\t')
        .collect();
    // The board, side and hands (the move number is the record's business).
    let fields = |s: &str| s.split(' ').take(3).collect::<Vec<_>>().join(" ");
    assert_eq!(
        fields(sfen_part),
        fields(row[1]),
        "cshogi's SFEN of the file"
    );
    assert_eq!(moves_part.split(' ').count(), 3, "{line}");
    // A sound problem's KIF record, back to one line that `tsume verify` finds sound.
    let dir = std::env::temp_dir().join(format!("tsume-sfen-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("mate3.kifu");
    std::fs::write(&record, stdout(&tsume(&["solve", sfen, "--output", "kif"]))).unwrap();
    let o = tsume(&["solve", record.to_str().unwrap(), "--output", "sfen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(fields(&stdout(&o)), fields(sfen), "{}", stdout(&o));
    assert!(
        stdout(&o).ends_with(" moves 2c2b+ 1b1c R*2c\n"),
        "{}",
        stdout(&o)
    );
    let list = dir.join("mate3.txt");
    std::fs::write(&list, stdout(&o)).unwrap();
    let v = tsume(&["verify", list.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(v.status.code(), Some(0), "{}{}", stdout(&v), stderr(&v));
    // No mate: the SFEN alone, exit code 1.
    let no_mate = "kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1";
    let o = tsume(&["solve", no_mate, "--output", "sfen"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("{no_mate}\n"));

    // No mate: the record ends in 不詰, exit code 1.
    let o = tsume(&[
        "solve",
        "kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1",
        "--output",
        "kif",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).ends_with("   1 不詰\n"), "{}", stdout(&o));
    // --json and --output do not mix.
    let o = tsume(&["solve", sfen, "--output", "kif", "--json"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `tsume solve FILE --output kif|csa` carries the input record's headers (title,
/// author, number, publication …) into the record it writes, from KIF and from CSA, but
/// not the claimed length (`手数`): the record's moves replace it. An SFEN has none.
#[test]
fn solve_records_keep_the_input_records_headers() {
    let dir = temp_dir("headers");
    let kif_text = common::read_data("verify_mate3.kif").replace(
        "表題：三手詰\n",
        "表題：三手詰\n作者：誰か\n作品番号：3\n発表誌：詰将棋パラダイス\n手数：5\n",
    );
    let kif_in = dir.join("headers.kifu");
    std::fs::write(&kif_in, &kif_text).unwrap();
    let kept = [
        ("表題", "三手詰"),
        ("作者", "誰か"),
        ("作品番号", "3"),
        ("発表誌", "詰将棋パラダイス"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()));
    let solve = |path: &Path, output: &str| {
        let o = tsume(&["solve", path.to_str().unwrap(), "--output", output]);
        assert_eq!(o.status.code(), Some(0), "{path:?}: {}", stderr(&o));
        stdout(&o)
    };
    // KIF in, KIF out: the headers as they were, before the position.
    let text = solve(&kif_in, "kif");
    assert!(
        text.contains(
            "表題：三手詰\n作者：誰か\n作品番号：3\n発表誌：詰将棋パラダイス\n後手の持駒："
        ),
        "{text}"
    );
    assert!(!text.contains("手数："), "{text}");
    let r = kif::parse(&text).unwrap();
    assert_eq!(r.headers, kept);
    let usi: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(usi, ["2c2b+", "1b1c", "R*2c"]);
    // KIF in, CSA out: 表題 is $TITLE, the others keep their keys.
    let text = solve(&kif_in, "csa");
    assert!(text.starts_with("'CSA encoding=UTF-8\nV2.2\n"), "{text}");
    assert!(
        text.contains("$TITLE:三手詰\n$作者:誰か\n$作品番号:3\n$発表誌:詰将棋パラダイス\nP1"),
        "{text}"
    );
    assert!(!text.contains("手数"), "{text}");
    let r = csa::parse(&text).unwrap();
    assert_eq!(csa::headers_to_kif(&r.headers), kept);
    // CSA in ($TITLE, and that CSA record back): the same headers, in KIF and in CSA.
    let csa_in = dir.join("headers.csa");
    std::fs::write(&csa_in, &text).unwrap();
    let r = kif::parse(&solve(&csa_in, "kif")).unwrap();
    assert_eq!(r.headers, kept);
    assert_eq!(solve(&csa_in, "csa"), text);
    let plain_csa = dir.join("title.csa");
    std::fs::write(
        &plain_csa,
        common::read_data("verify_mate3.csa").replace("V2.2\n", "V2.2\n$TITLE:三手詰\n"),
    )
    .unwrap();
    let text = solve(&plain_csa, "kif");
    assert!(text.contains("\n表題：三手詰\n後手の持駒："), "{text}");
    // An SFEN: no headers, the record as before.
    let sfen = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";
    let o = tsume(&["solve", sfen, "--output", "kif"]);
    let text = stdout(&o);
    let pos = Position::from_sfen(sfen).unwrap();
    let moves = kif::parse(&text).unwrap().moves;
    assert_eq!(text, kif::write(&pos, &moves, Ending::Mate));
    let o = tsume(&["solve", sfen, "--output", "csa"]);
    assert_eq!(stdout(&o), csa::write(&pos, &moves, Ending::Mate));
    let _ = std::fs::remove_dir_all(&dir);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tsume-formats-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tsume solve <file>` must exit 2 with every needle in the message.
fn assert_bad_file(path: &Path, needles: &[&str]) {
    let o = tsume(&["solve", path.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{path:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    for n in needles {
        assert!(err.contains(n), "{path:?}: {n:?} not in {err}");
    }
}

#[test]
fn bad_files_name_the_line() {
    let dir = temp_dir("bad");
    let kifu = std::fs::read_to_string(cshogi_dir().join("mate3_w1.kifu")).unwrap();
    let lines: Vec<&str> = kifu.lines().collect();
    // Line 5 is the diagram's first rank: cut the file after the fourth rank (line 8).
    assert!(
        lines[4].starts_with('|') && lines[7].ends_with("|四"),
        "{kifu}"
    );

    let truncated = dir.join("truncated.kifu");
    std::fs::write(&truncated, lines[..8].join("\n")).unwrap();
    assert_bad_file(&truncated, &["line 8", "truncated", "4 of 9 ranks"]);

    // Cut before the diagram: not the start position (which has no mate: exit 1).
    let headers_only = dir.join("headers_only.kifu");
    std::fs::write(&headers_only, lines[..2].join("\n")).unwrap();
    assert_bad_file(&headers_only, &["line 2", "no board diagram"]);
    // CR-only line endings: one long line of headers, read as the start position before.
    let cr = dir.join("cr_only.kifu");
    std::fs::write(&cr, kifu.replace("\r\n", "\n").replace('\n', "\r")).unwrap();
    assert_bad_file(&cr, &["line 1", "CR-only"]);

    // Shift-JIS bytes in a UTF-8 .kifu: the first line already is not UTF-8.
    let wrong = dir.join("shift_jis.kifu");
    std::fs::copy(cshogi_dir().join("mate3_w1.kif"), &wrong).unwrap();
    assert_bad_file(&wrong, &["line 1", "UTF-8"]);

    // A stray byte deep in a Shift-JIS file.
    let mut bytes = std::fs::read(cshogi_dir().join("zuko002.kif")).unwrap();
    let line6 = bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(4)
        .unwrap()
        .0;
    bytes.insert(line6 + 2, 0x81);
    bytes.insert(line6 + 3, b'\n');
    let broken = dir.join("broken.kif");
    std::fs::write(&broken, &bytes).unwrap();
    assert_bad_file(&broken, &["line 6", "Shift-JIS"]);

    // An illegal diagram: a second defending king, and two black pawns on one file.
    let two_kings = dir.join("two_kings.kifu");
    std::fs::write(
        &two_kings,
        kifu.replace("| 歩 ・ 歩 ・ 歩", "| 歩 ・ 歩 ・v玉"),
    )
    .unwrap();
    assert_bad_file(
        &two_kings,
        &["line 4", "illegal position", "more than one White king"],
    );
    let nifu = dir.join("nifu.kifu");
    std::fs::write(&nifu, kifu.replace("|v歩 ・ ・ ・ ・", "| 歩 ・ ・ ・ ・")).unwrap();
    assert_bad_file(&nifu, &["line 4", "nifu"]);
    let unknown = dir.join("unknown_piece.kifu");
    std::fs::write(
        &unknown,
        kifu.replace("|v歩 ・ ・ ・ ・", "|v犬 ・ ・ ・ ・"),
    )
    .unwrap();
    assert_bad_file(&unknown, &["line 9", "unknown piece"]);

    // CSA: cut after P5, and a row with a bad piece code.
    let csa_text = std::fs::read_to_string(cshogi_dir().join("mate3_w1.csa")).unwrap();
    let csa_lines: Vec<&str> = csa_text.lines().collect();
    assert!(csa_lines[7].starts_with("P5"), "{csa_text}");
    let cut = dir.join("truncated.csa");
    std::fs::write(&cut, csa_lines[..8].join("\n")).unwrap();
    assert_bad_file(&cut, &["line 8", "truncated"]);
    let bad = dir.join("bad_piece.csa");
    std::fs::write(&bad, csa_text.replace("P5-FU", "P5-XX")).unwrap();
    assert_bad_file(&bad, &["line 8", "unknown piece"]);
    // No side-to-move line: the CSA standard requires one after the position, so the file
    // is refused, naming what is missing and what came instead.
    assert_eq!(csa_lines[17], "-", "{csa_text}");
    let no_side = dir.join("no_side.csa");
    std::fs::write(&no_side, csa_text.replace("P-00KA\n-\n", "P-00KA\n")).unwrap();
    assert_bad_file(
        &no_side,
        &[
            "line 18: no side-to-move line",
            "the CSA standard requires a line of only '+' (Black to move) or '-' (White to \
             move) after the position",
            "\"-0057KA\" comes first",
        ],
    );
    let diagram_only = dir.join("diagram_only.csa");
    std::fs::write(&diagram_only, csa_lines[..17].join("\n")).unwrap();
    assert_bad_file(
        &diagram_only,
        &["line 17: no side-to-move line", "the file ends first"],
    );

    // A file that does not exist.
    assert_bad_file(&dir.join("missing.kif"), &["cannot read", "missing.kif"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The record of the starter pack's problem `id` (from its `# problem` line to its `まで`
/// line).
fn starter_record(id: &str) -> String {
    let pack = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/starter/problems.kif"),
    )
    .unwrap();
    let start = pack.find(&format!("# problem {id} ")).unwrap();
    let end = start + pack[start..].find("まで").unwrap();
    let end = end + pack[end..].find('\n').unwrap() + 1;
    pack[start..end].to_string()
}

/// A move written with `生` (old 柿木将棋) is the move written with `不成`: the starter
/// pack's problem whose first move is `６三桂不成(55)` is verified sound with `６三桂生(55)`;
/// a `生` where no promotion is possible is refused, naming the line (exit 2).
#[test]
fn a_move_written_with_sei_is_read_as_funari() {
    let dir = temp_dir("sei");
    let record = starter_record("a36fbb136223749b");
    assert!(record.contains("   1 ６三桂不成(55)\n"), "{record}");
    let sei = dir.join("sei.kifu");
    std::fs::write(&sei, record.replace("６三桂不成(55)", "６三桂生(55)")).unwrap();
    let o = tsume(&["verify", sei.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("sound: mate in 15 (5e6c 7a7b "),
        "{}",
        stdout(&o)
    );
    // A drop cannot decline to promote.
    assert!(record.contains("   7 ６二金打\n"), "{record}");
    let line = record.lines().position(|l| l == "   7 ６二金打").unwrap() + 1;
    let bad = dir.join("sei_drop.kifu");
    std::fs::write(&bad, record.replace("６二金打", "６二金生")).unwrap();
    assert_bad_file(
        &bad,
        &[&format!("line {line}"), "６二金生", "生 (not promoted)"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every way of cutting or garbling a record a little: each prefix (at every character),
/// each line left out, each line doubled, and each line's first and last characters
/// removed.
fn damaged(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .char_indices()
        .map(|(i, _)| text[..i].to_string())
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    for i in 0..lines.len() {
        let mut without = lines.clone();
        without.remove(i);
        out.push(without.join("\n"));
        let mut doubled = lines.clone();
        doubled.insert(i, lines[i]);
        out.push(doubled.join("\n"));
        for cut in [
            lines[i].chars().skip(1).collect::<String>(),
            lines[i]
                .chars()
                .take(lines[i].chars().count().saturating_sub(1))
                .collect(),
        ] {
            let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            edited[i] = cut;
            out.push(edited.join("\n"));
        }
    }
    out
}

#[test]
fn damaged_records_are_errors_or_legal_positions_never_panics() {
    // A deterministic small fuzz of the KIF and CSA readers over cshogi's records: the
    // reader returns an error with a line inside the text, or a legal position (not the
    // start position) whose moves replay.
    for entry in std::fs::read_dir(cshogi_dir()).unwrap() {
        let path = entry.unwrap().path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "kifu" | "csa") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for variant in damaged(&text) {
            let lines = variant.lines().count().max(1);
            let result = if ext == "csa" {
                csa::parse(&variant)
                    .map(|r| (r.setup, r.moves))
                    .map_err(|e| e.line)
            } else {
                kif::parse(&variant)
                    .map(|r| (r.setup, r.moves))
                    .map_err(|e| e.line)
            };
            match result {
                Ok((setup, moves)) => {
                    // A damaged problem is never read as the start position (these
                    // records are mate problems: a cut-off one used to be).
                    assert_ne!(
                        setup,
                        Setup::from_sfen("startpos").unwrap(),
                        "{path:?}: read as the start position:\n{variant}"
                    );
                    let mut pos = Position::from_setup(&setup).unwrap_or_else(|e| {
                        panic!("{path:?}: an illegal position: {e}\n{variant}")
                    });
                    for m in moves {
                        assert!(pos.legal_moves().contains(m), "{path:?}: {m}\n{variant}");
                        pos.do_move(m);
                    }
                }
                Err(line) => assert!(
                    (1..=lines + 1).contains(&line),
                    "{path:?}: error at line {line} of {lines}\n{variant}"
                ),
            }
        }
    }
}
