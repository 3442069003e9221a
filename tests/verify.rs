//! `tsume verify`: verdicts against the rules doc and an outside oracle.

mod common;

use tsume_solver::tsume::verify::{self, Flaw, VerifyOptions};
use tsume_solver::{Setup, Solver};

fn options(check_unnecessary: bool) -> VerifyOptions {
    VerifyOptions {
        check_unnecessary,
        ..VerifyOptions::with_budget(2_000_000)
    }
}

/// Verifies with a fresh 16 MiB solver.
fn verify(setup: &Setup, claimed: Option<&[String]>, options: &VerifyOptions) -> verify::Verdict {
    Solver::new(16).verify(setup, claimed, options)
}

/// Splits `<sfen> [moves …]`.
fn problem(text: &str) -> (Setup, Option<Vec<String>>) {
    let (sfen, moves) = match text.split_once(" moves ") {
        Some((s, m)) => (s, Some(m.split_whitespace().map(String::from).collect())),
        None => (text, None),
    };
    (sfen.trim().parse().expect("valid SFEN"), moves)
}

/// Splits `<sfen> [moves …] # mating-first-moves=m1,m2,…` (cshogi's mating first moves).
fn oracle_problem(line: &str) -> (Setup, Option<Vec<String>>, Vec<&str>) {
    let (problem_text, comment) = line.split_once('#').expect("oracle comment");
    let mates = comment
        .trim()
        .trim_start_matches("mating-first-moves=")
        .split(',')
        .collect();
    let (setup, claimed) = problem(problem_text.trim());
    (setup, claimed, mates)
}

#[test]
fn verdicts_of_the_worked_cases() {
    assert_eq!(common::check_verify_cases(&options(true), 16), 13);
}

/// 余詰 at the first move exactly when cshogi's DfPn finds more than one mating first move.
#[test]
fn second_solutions_match_the_oracle() {
    let text = common::read_data("verify_yozume.txt");
    let (mut flagged, mut unique, mut unproven) = (0, 0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (setup, claimed, mates) = oracle_problem(line);
        let v = verify(&setup, claimed.as_deref(), &options(false));
        let at_first = v.flaws.iter().find_map(|f| match f {
            Flaw::SecondSolution { ply: 1, mv, .. } => Some(mv.to_string()),
            _ => None,
        });
        if v.is_unproven() {
            // Some other check (at a later ply) could not be decided within the budget.
            unproven += 1;
        }
        if mates.len() > 1 {
            let mv = at_first.unwrap_or_else(|| panic!("{line}: no 余詰 reported"));
            assert!(
                mates.contains(&mv.as_str()),
                "{line}: {mv} is not a mating move"
            );
            flagged += 1;
        } else {
            assert_eq!(
                at_first, None,
                "{line}: 余詰 reported for a unique first move"
            );
            unique += 1;
        }
    }
    assert!(
        flagged >= 20 && unique >= 5,
        "flagged {flagged}, unique {unique}"
    );
    assert!(unproven <= 4, "{unproven} verdicts unproven");
}

/// A mating twin of the solution's move (the other promotion choice) is 余詰 by default
/// and tolerated with `allow_promotion_choice`; any other mating move stays a cook.
#[test]
fn promotion_choice_is_a_cook_unless_tolerated() {
    let text = common::read_data("verify_promotion_choice.txt");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (setup, claimed, mates) = oracle_problem(line);
        let first = claimed.as_ref().expect("a claimed solution")[0].clone();
        let twin = if first.ends_with('+') {
            first.trim_end_matches('+').to_string()
        } else {
            format!("{first}+")
        };
        assert!(mates.contains(&first.as_str()) && mates.contains(&twin.as_str()));
        let cook_at_first = |v: &verify::Verdict| {
            v.flaws.iter().find_map(|f| match f {
                Flaw::SecondSolution {
                    ply: 1,
                    mv,
                    promotion_choice,
                } => Some((mv.to_string(), *promotion_choice)),
                _ => None,
            })
        };

        let strict = verify(&setup, claimed.as_deref(), &options(false));
        let (mv, twin_flag) = cook_at_first(&strict).unwrap_or_else(|| panic!("{line}: no 余詰"));
        assert!(mates.contains(&mv.as_str()), "{line}: {mv} does not mate");
        assert_eq!(twin_flag, mv == twin, "{line}: {mv}");

        let tolerant = VerifyOptions {
            allow_promotion_choice: true,
            ..options(false)
        };
        let v = verify(&setup, claimed.as_deref(), &tolerant);
        let tolerated: Vec<(usize, String)> = v
            .promotion_choices
            .iter()
            .map(|(ply, m)| (*ply, m.to_string()))
            .collect();
        if mates.len() == 2 {
            assert_eq!(tolerated, vec![(1, twin.clone())], "{line}");
            assert_eq!(cook_at_first(&v), None, "{line}: a twin reported as 余詰");
        } else {
            // The search stops at the cook; the twin is listed only if it came first.
            assert!(tolerated.iter().all(|t| *t == (1, twin.clone())), "{line}");
            let (mv, twin_flag) = cook_at_first(&v).unwrap_or_else(|| panic!("{line}: no 余詰"));
            assert!(mates.contains(&mv.as_str()) && mv != first && mv != twin);
            assert!(!twin_flag);
        }
        checked += 1;
    }
    assert_eq!(checked, 3);
}

/// A problem whose 余詰 checks, with a large budget, once ran into a livelock of the df-pn
/// thresholds (a saturated proof-number sum left a child one more than its own number).
#[test]
fn a_saturated_sum_does_not_stall_the_search() {
    let text = common::read_data("verify_livelock.txt");
    let line = text
        .lines()
        .find(|l| !l.starts_with('#'))
        .expect("a problem");
    let sfen = line
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ");
    let setup: Setup = sfen.parse().expect("valid SFEN");
    let options = VerifyOptions {
        check_unnecessary: false,
        ..VerifyOptions::with_budget(8_000_000)
    };
    let v = Solver::new(64).verify(&setup, None, &options);
    assert!(v.is_sound(), "{:?}", v.flaws);
    assert_eq!(v.length, Some(15), "the shtsume set's length");
    // 0.32 M nodes when it works; the livelock spent 18 M and gave up.
    assert!(v.nodes < 2_000_000, "{} nodes", v.nodes);
}

/// `--json` gives every line its object: an unreadable line is `"verdict": "unreadable"`
/// with its error, in its place among the verdicts (a report built from the JSON alone
/// misses nothing); the summary counts in the singular where there is one.
#[test]
fn verify_json_names_unreadable_lines_in_their_places() {
    let dir = scratch_dir("unreadable");
    let mixed = dir.join("mixed.txt");
    std::fs::write(
        &mixed,
        "not an sfen\n4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\n# a comment\n9/9 b\n",
    )
    .unwrap();
    let (verdicts, code, err) = json_verdicts(&[mixed.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    let places: Vec<(u64, &str)> = verdicts
        .iter()
        .map(|v| (v["line"].as_u64().unwrap(), v["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(places, [(1, "unreadable"), (2, "sound"), (4, "unreadable")]);
    assert!(verdicts[2]["error"]
        .as_str()
        .is_some_and(|e| e.starts_with("line 4: malformed SFEN")));
    assert!(
        err.contains("1 problem: 1 sound, 0 flawed, 0 unproven, 2 unreadable lines"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn verify_exit_codes_and_json() {
    let dir = scratch_dir("exit-codes");
    let sound = dir.join("sound.txt");
    std::fs::write(
        &sound,
        "# two sound problems\n4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\n\
         {\"sfen\":\"9/8k/7P1/9/7R1/9/9/9/9 b r2b4g4s4n4l17p 1\",\"solution\":[\"2c2b+\",\"1b1c\",\"2e2c+\"]}\n",
    )
    .unwrap();
    let o = common::tsume(&["verify", sound.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stdout(&o));
    assert_eq!(common::stdout(&o).matches(": sound: ").count(), 2);

    let flawed = dir.join("flawed.txt");
    std::fs::write(&flawed, "4k4/9/4P4/9/9/9/9/9/9 b GP2r2b3g4s4n4l16p 1\n").unwrap();
    let o = common::tsume(&["verify", "--json", flawed.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(common::stdout(&o).trim()).unwrap();
    assert_eq!(v["verdict"], "flawed");
    assert_eq!(v["flaws"][0]["code"], "leftover");
    assert_eq!(v["length"], 1);

    let unproven = dir.join("unproven.txt");
    std::fs::write(&unproven, "9/8k/7P1/9/7R1/9/9/9/9 b r2b4g4s4n4l17p 1\n").unwrap();
    let o = common::tsume(&["verify", "--budget", "1", unproven.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        common::stdout(&o).contains("unproven"),
        "{}",
        common::stdout(&o)
    );

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "4k4/9/4P4 b G 1\n").unwrap();
    let o = common::tsume(&["verify", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("line 1"),
        "{}",
        common::stderr(&o)
    );
    let o = common::tsume(&["verify", dir.join("missing.txt").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));

    // Nothing to verify is bad input, not a pass: an empty file, comments only.
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing here\n\n").unwrap();
    let o = common::tsume(&["verify", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", common::stdout(&o));
    assert!(
        common::stderr(&o).contains("no problem to verify"),
        "{}",
        common::stderr(&o)
    );
    // A directory is read as a pack's (its pack.jsonl), and named when it holds none.
    let o = common::tsume(&["verify", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("is a directory without a pack.jsonl"),
        "{}",
        common::stderr(&o)
    );
    std::fs::copy(&sound, dir.join("pack.jsonl")).unwrap();
    let o = common::tsume(&["verify", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    assert_eq!(common::stdout(&o).matches(": sound: ").count(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

/// The two-ply rule (2手変長ルール): in tricky_rules.txt's antma_t9_03 the defence `9c8c`
/// lasts 2 plies longer than the line's `9c9b` but ends with a pawn left over, so the
/// 7-ply line is best play: no 変長 and no length flaw (its pawn at 7c is a 不要駒, not
/// checked here).
#[test]
fn a_two_ply_longer_defence_with_pieces_left_over_is_no_henchou() {
    let line = "ln7/1k2s4/1pp6/p8/9/3L5/9/9/9 b RBGNrb3g3s2n2l15p 1 moves G*7b 8b9c B*7e 8c8d N*8e 9c9b R*8b";
    let (setup, claimed) = problem(line);
    let v = verify(&setup, claimed.as_deref(), &options(false));
    assert!(v.is_sound(), "{:?}", v.flaws);
    assert_eq!(v.length, Some(7));
}

#[test]
fn verify_reads_every_line_it_can() {
    // A BOM before line 1, a line that is not UTF-8, and unknown text after an SFEN (a
    // misspelt `moves`, with a wrong solution): each bad line is bad input for itself
    // only, and the others are verified.
    let dir = scratch_dir("lines");
    let path = dir.join("mixed.txt");
    let sound = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    bytes.extend_from_slice(format!("{sound}\n").as_bytes());
    bytes.extend_from_slice(b"\xff\xfe not text\n");
    bytes.extend_from_slice(format!("{sound} movez 9i9a\n").as_bytes());
    bytes.extend_from_slice(format!("{sound} 17 moves G*5b\n").as_bytes());
    // A pack line reads as `tsume render` and `tsume html` read it (one reader): the
    // solution a list, the id by the one id rule.
    bytes.extend_from_slice(format!("{{\"sfen\":\"{sound}\",\"solution\":\"G*5b\"}}\n").as_bytes());
    bytes.extend_from_slice(format!("{{\"id\":\"../x\",\"sfen\":\"{sound}\"}}\n").as_bytes());
    bytes.extend_from_slice(
        format!("{{\"id\":\"x\",\"sfen\":\"{sound}\",\"solution\":[\"G*5b\"]}}\n").as_bytes(),
    );
    std::fs::write(&path, &bytes).unwrap();
    let o = common::tsume(&["verify", path.to_str().unwrap()]);
    let (out, err) = (common::stdout(&o), common::stderr(&o));
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(out.contains("line 1: sound"), "{out}");
    assert!(out.contains("line 4: sound"), "{out}");
    assert!(out.contains("line 7: sound"), "{out}");
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(
        err.contains("line 5: \"solution\" must be a list of strings"),
        "{err}"
    );
    assert!(err.contains("line 6: id \"../x\": an id must be"), "{err}");
    assert!(err.contains("line 2: not UTF-8"), "{err}");
    assert!(
        err.contains("line 3: unexpected text after the SFEN: \"movez 9i9a\""),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A fresh directory for one test's files (`name` tells the tests apart, the process id
/// the runs).
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tsume-verify-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The JSON verdicts of `tsume verify --json <args…>`, one per problem, and its exit code.
fn json_verdicts(args: &[&str]) -> (Vec<serde_json::Value>, Option<i32>, String) {
    let mut all = vec!["verify", "--json"];
    all.extend_from_slice(args);
    let o = common::tsume(&all);
    let verdicts = common::stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON verdict"))
        .collect();
    (verdicts, o.status.code(), common::stderr(&o))
}

/// The fields of a verdict that do not depend on where the problem was read from.
fn verdict_fields(v: &serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "sfen": v["sfen"],
        "verdict": v["verdict"],
        "length": v["length"],
        "solution": v["solution"],
        "final_alternatives": v["final_alternatives"],
        "promotion_choices": v["promotion_choices"],
        "flaws": v["flaws"],
    })
}

#[test]
fn verify_reads_single_kif_and_csa_problems() {
    // The reference: the same problem and claimed solutions as SFEN lines.
    let sfen = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";
    let dir = scratch_dir("kif");
    let reference = dir.join("reference.sfen");
    std::fs::write(
        &reference,
        format!("{sfen} moves 2c2b+ 1b1c R*2c\n{sfen} moves R*2a 1b1c 2c2b+\n"),
    )
    .unwrap();
    let (lines, code, err) = json_verdicts(&[reference.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (&lines[0]["verdict"], &lines[0]["length"]),
        (&"sound".into(), &3.into())
    );
    assert_eq!(lines[1]["verdict"], "flawed");
    let sfen_text = common::stdout(&common::tsume(&["verify", reference.to_str().unwrap()]));
    let sfen_text: Vec<&str> = sfen_text
        .lines()
        .map(|l| l.split_once(": ").expect("line N: …").1)
        .collect();

    for (file, reference, code, label) in [
        ("verify_mate3.kif", &lines[0], 0, Some("三手詰")),
        ("verify_mate3.csa", &lines[0], 0, None),
        (
            "verify_mate3_wrong.kif",
            &lines[1],
            1,
            Some("三手詰（誤解）"),
        ),
        ("verify_mate3_wrong.csa", &lines[1], 1, None),
    ] {
        let path = common::data_path(file);
        let (read, status, err) = json_verdicts(&[path.to_str().unwrap()]);
        assert_eq!(status, Some(code), "{file}: {err}");
        assert_eq!(read.len(), 1, "{file}");
        assert_eq!(
            verdict_fields(&read[0]),
            verdict_fields(reference),
            "{file}"
        );
        assert_eq!(
            (&read[0]["record"], &read[0]["line"]),
            (&1.into(), &1.into())
        );
        assert_eq!(read[0]["label"].as_str(), label, "{file}");
        // The text output says the same as for the SFEN line, placed by record.
        let text = common::stdout(&common::tsume(&["verify", path.to_str().unwrap()]));
        let want = sfen_text[if code == 0 { 0 } else { 1 }];
        assert_eq!(text.trim_end().split_once("): ").unwrap().1, want, "{file}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The starter pack's `problems.kif` split as the generator writes it (each record after
/// its `# problem <id> …` comment), done here by hand: (first line, text) per record.
fn starter_kif_records() -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/starter/problems.kif"),
    )
    .unwrap();
    let mut records: Vec<(usize, String)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("# problem ") {
            records.push((i + 1, String::new()));
        }
        let last = records.last_mut().expect("the file starts with a record");
        last.1 += line;
        last.1 += "\n";
    }
    records
}

#[test]
fn a_malformed_kif_record_is_reported_and_the_others_are_verified() {
    let records = starter_kif_records();
    let sfen_lines: Vec<String> = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/starter/pack.sfen"),
    )
    .unwrap()
    .lines()
    .take(3)
    .map(String::from)
    .collect();
    // Record 2's third move made illegal (a piece dropped that the attacker does not hold).
    let third = records[1]
        .1
        .lines()
        .position(|l| l.starts_with("   3 "))
        .unwrap();
    let broken: String = records[1]
        .1
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == third {
                "   3 ５五角打\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let dir = scratch_dir("bad-kif");
    let kif = dir.join("problems.kif");
    std::fs::write(&kif, format!("{}{broken}{}", records[0].1, records[2].1)).unwrap();
    let sfen = dir.join("pack.sfen");
    std::fs::write(&sfen, format!("{}\n{}\n", sfen_lines[0], sfen_lines[2])).unwrap();

    let o = common::tsume(&["verify", kif.to_str().unwrap()]);
    let (out, err) = (common::stdout(&o), common::stderr(&o));
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    let bad_line = records[1].0 + third;
    assert!(
        err.contains(&format!("record 2, line {bad_line}: illegal move")),
        "{err}"
    );
    assert!(err.contains("1 unreadable record"), "{err}");
    assert!(!err.contains("1 unreadable records"), "{err}");
    // With --json the unreadable record has its object in its place among the verdicts.
    let (verdicts, code, _) = json_verdicts(&[kif.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    let places: Vec<(u64, &str)> = verdicts
        .iter()
        .map(|v| {
            (
                v["record"].as_u64().unwrap(),
                v["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(places[1], (2, "unreadable"), "{verdicts:?}");
    assert_eq!(places.len(), 3, "{verdicts:?}");
    assert!(verdicts[1]["error"]
        .as_str()
        .is_some_and(|e| e.contains("illegal move")));
    // Records 1 and 3 say what their SFEN lines say.
    let want: Vec<String> = common::stdout(&common::tsume(&["verify", sfen.to_str().unwrap()]))
        .lines()
        .map(|l| l.split_once(": ").unwrap().1.to_string())
        .collect();
    let got: Vec<(&str, &str)> = out.lines().map(|l| l.split_once("): ").unwrap()).collect();
    assert_eq!(got.len(), 2, "{out}");
    assert!(got[0].0.starts_with("record 1 (line 1, "), "{out}");
    assert!(got[1].0.starts_with("record 3 (line "), "{out}");
    assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), want);
    std::fs::remove_dir_all(&dir).ok();
}

/// The starter pack's `problems.kif` verifies as its `pack.sfen`, problem by problem: the
/// same problems in the same order, the same verdicts and lengths. (The unnecessary-piece
/// check is skipped to keep the test affordable: the question here is whether the records
/// read as the lines do; `tests/starter_pack.rs` runs every check on the pack.)
#[test]
fn the_starter_kif_verifies_as_its_sfen_lines() {
    let options = [
        "--threads",
        "2",
        "--budget",
        "1000000",
        "--hash",
        "256",
        "--skip-unnecessary",
    ];
    let run = |file: &str| {
        let mut args = options.to_vec();
        args.push(file);
        json_verdicts(&args)
    };
    let (kif, kif_code, kif_err) = run("problems/starter/problems.kif");
    let (sfen, sfen_code, sfen_err) = run("problems/starter/pack.sfen");
    assert_eq!(sfen_code, Some(0), "{sfen_err}");
    assert_eq!(kif_code, sfen_code, "{kif_err}");
    let records = starter_kif_records();
    assert_eq!(sfen.len(), records.len());
    assert_eq!(kif.len(), sfen.len());
    for (i, ((k, s), (first_line, text))) in kif.iter().zip(&sfen).zip(&records).enumerate() {
        assert_eq!(verdict_fields(k), verdict_fields(s), "problem {}", i + 1);
        assert_eq!(k["record"], i + 1);
        assert_eq!(k["line"], *first_line);
        // The label is the id the generator wrote in the record's comment.
        let id = text["# problem ".len()..]
            .split_whitespace()
            .next()
            .unwrap();
        assert_eq!(k["label"], id, "problem {}", i + 1);
    }
}

/// Without a file name (`-`), a KIF or CSA problem is told from lines by its content.
#[test]
fn verify_reads_kif_and_csa_from_stdin() {
    for (file, expected) in [
        (
            "verify_mate3.kif",
            "record 1 (line 1, 三手詰): sound: mate in 3 (2c2b+ 1b1c R*2c)",
        ),
        (
            "verify_mate3.csa",
            "record 1 (line 1): sound: mate in 3 (2c2b+ 1b1c R*2c)",
        ),
    ] {
        let text = std::fs::read(common::data_path(file)).unwrap();
        let o = common::tsume_with_stdin(&["verify", "-"], &text);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", common::stderr(&o));
        assert_eq!(common::stdout(&o).trim_end(), expected, "{file}");
    }
}

#[test]
fn kif_records_one_after_the_other_are_all_verified_and_text_after_the_end_is_refused() {
    let read = |f: &str| std::fs::read_to_string(common::data_path(f)).unwrap();
    let (sound, wrong) = (read("verify_mate3.kif"), read("verify_mate3_wrong.kif"));
    let dir = scratch_dir("two-kifu");
    // Two Kifu for Windows style records (no `#KIF` line), one after the other.
    let two = dir.join("two.kifu");
    std::fs::write(&two, format!("{sound}{wrong}")).unwrap();
    let (verdicts, code, err) = json_verdicts(&[two.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
    let got: Vec<(&str, &str)> = verdicts
        .iter()
        .map(|v| (v["label"].as_str().unwrap(), v["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(got, [("三手詰", "sound"), ("三手詰（誤解）", "flawed")]);
    assert_eq!(verdicts[1]["line"], sound.lines().count() + 1);
    // A line after まで that is neither a variation nor a record is bad input.
    let bad = dir.join("garbage.kifu");
    std::fs::write(&bad, format!("{sound}これは何\n")).unwrap();
    let o = common::tsume(&["verify", bad.to_str().unwrap()]);
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let n = sound.lines().count() + 1;
    assert!(
        err.contains(&format!(
            "line {n}: 「これは何」 after the end of the main line"
        )),
        "{err}"
    );
    // solve reads one record and says the file holds two.
    let o = common::tsume(&["solve", two.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("2 KIF records"),
        "{}",
        common::stderr(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn verify_reads_usi_position_lines_as_solve_does() {
    let sfen = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";
    let dir = scratch_dir("position");
    let file = dir.join("log.sfen");
    std::fs::write(
        &file,
        format!("position sfen {sfen} moves 2c2b+ 1b1c R*2c\nsfen {sfen} moves 2c2b+ 1b1c R*2c\n"),
    )
    .unwrap();
    let (verdicts, code, err) = json_verdicts(&[file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(verdicts.len(), 2);
    assert_eq!(verdict_fields(&verdicts[0]), verdict_fields(&verdicts[1]));
    assert_eq!(verdicts[0]["verdict"], "sound");
    std::fs::remove_dir_all(&dir).ok();
}
