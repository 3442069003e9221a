//! The `tsume` binary, run as a user would: exit codes, stdout and error messages.

mod common;

const EXIT_BAD_INPUT: i32 = 2;

/// First position of `tests/data/mate5_200.sfen` (White to play and mate in 5).
const MATE5_FIRST: &str =
    "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72";

use common::{stderr, stdout, tsume};

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("").trim()
}

/// Runs a command that must be refused as bad input: exit code 2, no panic, and a message
/// on stderr containing every one of `needles`.
fn assert_bad_input(args: &[&str], needles: &[&str]) {
    let o = tsume(args);
    let err = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(EXIT_BAD_INPUT),
        "{args:?}: status {:?}\nstdout: {}\nstderr: {err}",
        o.status,
        stdout(&o)
    );
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    assert!(!err.trim().is_empty(), "{args:?}: nothing on stderr");
    for n in needles {
        assert!(
            err.contains(n),
            "{args:?}: stderr does not mention {n:?}:\n{err}"
        );
    }
    assert!(
        stdout(&o).trim().is_empty(),
        "{args:?}: printed a result for bad input: {}",
        stdout(&o)
    );
}

#[test]
fn perft_startpos_depth_3() {
    let o = tsume(&["perft", "startpos", "3"]);
    assert!(o.status.success(), "{:?}\n{}", o.status, stderr(&o));
    assert_eq!(last_line(&stdout(&o)), "25470");
}

#[test]
fn perft_startpos_as_full_sfen() {
    let o = tsume(&[
        "perft",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "2",
    ]);
    assert!(o.status.success(), "{:?}\n{}", o.status, stderr(&o));
    assert_eq!(last_line(&stdout(&o)), "900");
}

#[test]
fn perft_divide_sums_to_the_total() {
    let o = tsume(&["perft", "startpos", "2", "--divide"]);
    assert!(o.status.success(), "{:?}\n{}", o.status, stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let (total, rows) = lines.split_last().expect("some output");
    assert_eq!(total.trim(), "900");
    assert_eq!(rows.len(), 30);
    let sum: u64 = rows
        .iter()
        .map(|r| {
            let (_, n) = r.split_once(": ").unwrap_or_else(|| panic!("row {r:?}"));
            n.trim().parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(sum, 900);
}

#[test]
fn perft_mate_mode_on_a_mate5_problem() {
    // 5 checks, 8 replies, 35 checks after them: recomputed with cshogi 1.1.0 (legal moves,
    // keeping the attacker's moves after which the defender is in check).
    let o = tsume(&["perft", MATE5_FIRST, "3", "--mode", "mate"]);
    assert!(o.status.success(), "{:?}\n{}", o.status, stderr(&o));
    assert_eq!(last_line(&stdout(&o)), "35");
    let o = tsume(&["perft", MATE5_FIRST, "1", "--mode", "mate"]);
    assert_eq!(last_line(&stdout(&o)), "5");
}

#[test]
fn malformed_sfen_is_exit_2() {
    assert_bad_input(&["perft", "not an sfen at all", "1"], &["SFEN", "found 5"]);
    assert_bad_input(
        &[
            "perft",
            "lnsgkgsnl/1r5b1/ppppXpppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "1",
        ],
        &["rank 3", "column 5", "'X'"],
    );
    assert_bad_input(
        &["perft", "9/9/9/9/9/9/9/9/9 b 0P 1", "1"],
        &["hand", "column 1"],
    );
    assert_bad_input(&["perft", "", "1"], &["empty"]);
    assert_bad_input(&["perft", "4k4/9/9/9/9/9/9/9/4K4 ｂ - 1", "1"], &["side"]);
}

#[test]
fn illegal_position_is_exit_2() {
    assert_bad_input(
        &["perft", "4k4/9/4P4/9/4P4/9/9/9/4K4 b - 1", "1"],
        &["illegal", "file 5", "nifu"],
    );
    assert_bad_input(
        &["perft", "4k4/9/9/9/9/9/9/9/p3K4 b - 1", "1"],
        &["illegal", "9i"],
    );
    assert_bad_input(
        &["perft", "4k4/9/9/9/4R4/9/9/9/4K4 b - 1", "1"],
        &["illegal", "check"],
    );
    assert_bad_input(
        &["perft", "4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "1"],
        &["illegal", "19"],
    );
}

#[test]
fn bad_depth_is_exit_2() {
    assert_bad_input(&["perft", "startpos", "x"], &["DEPTH", "'x'"]);
    assert_bad_input(&["perft", "startpos", "-1"], &["-1"]);
    assert_bad_input(&["perft", "startpos", "3.5"], &["DEPTH"]);
    assert_bad_input(&["perft", "startpos", "99999999999"], &["DEPTH"]);
    assert_bad_input(&["perft", "startpos"], &["DEPTH"]);
    assert_bad_input(&["perft", "startpos", "1", "--mode", "fast"], &["fast"]);
}

/// The last line of a solve: nodes, time in whole milliseconds, and nodes per second only
/// from the first millisecond on (1 node in 0.000 s said `nps 1000`).
#[test]
fn solve_tells_no_rate_under_a_millisecond() {
    for sfen in ["startpos", MATE3] {
        let o = tsume(&["solve", sfen, "--hash", "16"]);
        let out = stdout(&o);
        let last = last_line(&out);
        let time = last
            .split_once(" time ")
            .and_then(|(_, t)| t.split('s').next())
            .unwrap_or_else(|| panic!("{last}"));
        assert_eq!(time != "0.000", last.contains(" nps "), "{last}");
    }
}

/// More threads than cores is allowed, with a note on stderr, and gives the same answer.
#[test]
fn more_threads_than_cores_are_noted_and_solve_alike() {
    let one = tsume(&["solve", MATE3, "--hash", "16", "--json"]);
    let many = tsume(&[
        "solve",
        MATE3,
        "--hash",
        "16",
        "--json",
        "--threads",
        "1024",
    ]);
    assert!(
        many.status.success(),
        "{:?}\n{}",
        many.status,
        stderr(&many)
    );
    let note = "is more than this machine's";
    assert!(!stderr(&one).contains(note), "{}", stderr(&one));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(
        stderr(&many).contains(note),
        cores < 1024,
        "{}",
        stderr(&many)
    );
    let answer = |o: &std::process::Output| {
        let v: serde_json::Value = serde_json::from_str(last_line(&stdout(o))).expect("json");
        (v["status"].clone(), v["length"].clone())
    };
    assert_eq!(answer(&one), answer(&many));
}

#[test]
fn perft_depth_0_counts_the_root() {
    let o = tsume(&["perft", "startpos", "0"]);
    assert!(o.status.success(), "{:?}\n{}", o.status, stderr(&o));
    assert_eq!(last_line(&stdout(&o)), "1");
}

#[test]
fn help_and_unknown_command() {
    let o = tsume(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("perft"));
    assert_bad_input(&["frobnicate"], &["frobnicate"]);
    // Options that exclude each other are named both, without a usage line that shows one
    // of them as the command to type.
    assert_bad_input(
        &["solve", "--json", "--output", "kif", MATE3],
        &["'--json' cannot be used with '--output"],
    );
    let o = tsume(&["solve", "--json", "--output", "kif", MATE3]);
    assert!(!stderr(&o).contains("Usage:"), "{}", stderr(&o));
}

/// Every option and argument of `verify` and `generate` says what it is for, and the
/// table and thread options their ranges (the bounds their values are checked against).
#[test]
fn help_describes_every_option() {
    let o = tsume(&["verify", "--help"]);
    assert!(stdout(&o).contains("a pack's directory (its pack.jsonl"));
    for (command, option, words) in [
        ("generate", "--seed <SEED>", "Random seed"),
        (
            "generate",
            "--threads <THREADS>",
            "Threads, 1–256, evaluating",
        ),
        ("verify", "--hash <HASH>", "in MiB, 1–65536"),
        ("verify", "--threads <THREADS>", "Threads, 1–256:"),
        ("solve", "--hash <HASH>", "in MiB, 1–65536"),
        ("solve", "--threads <THREADS>", "together, 1–1024,"),
    ] {
        let help = stdout(&tsume(&[command, "--help"]));
        // Up to the next option, whether clap puts the text on the same line or the next.
        let after = help.split_once(option).map_or("", |(_, rest)| rest);
        let description = after.split("\n      --").next().unwrap_or("");
        assert!(
            description.contains(words),
            "{command} {option}: {description:?}\n{help}"
        );
    }
}

/// `tsume ARGS` under `ulimit -v KB` (an address-space limit, as on shared machines).
fn tsume_limited(kb: u64, args: &[&str]) -> std::process::Output {
    let mut script = format!("ulimit -v {kb} && exec \"$0\"");
    for i in 1..=args.len() {
        script += &format!(" \"${i}\"");
    }
    std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_tsume"))
        .args(args)
        .output()
        .expect("running sh")
}

const MATE3: &str = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";

#[test]
fn a_hash_larger_than_memory_is_bad_input_not_an_abort() {
    // 65536 MiB, the documented maximum, under a 2 GB address-space limit.
    for rules in ["tsume", "raw"] {
        let o = tsume_limited(
            2_000_000,
            &["solve", MATE3, "--hash", "65536", "--rules", rules],
        );
        assert_eq!(
            o.status.code(),
            Some(EXIT_BAD_INPUT),
            "{rules}: {}",
            stderr(&o)
        );
        assert!(stderr(&o).contains("MiB"), "{}", stderr(&o));
        assert!(stderr(&o).contains("transposition table"), "{}", stderr(&o));
    }
    let dir = std::env::temp_dir().join(format!("tsume-cli-hash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("one.txt");
    std::fs::write(&file, format!("{MATE3}\n")).unwrap();
    let o = tsume_limited(
        2_000_000,
        &["verify", file.to_str().unwrap(), "--hash", "65536"],
    );
    assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT), "{}", stderr(&o));
    // The size asked for, not the half (one of the two games' tables) that failed.
    assert!(stderr(&o).contains("65536 MiB"), "{}", stderr(&o));
    // What fits is solved as before.
    let o = tsume_limited(2_000_000, &["verify", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn generate_checks_its_tables_fit_before_starting() {
    let dir = std::env::temp_dir().join(format!("tsume-cli-gen-{}", std::process::id()));
    let o = tsume_limited(
        40_000,
        &[
            "generate",
            "--out",
            dir.to_str().unwrap(),
            "--count",
            "1",
            "--threads",
            "2",
        ],
    );
    assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT), "{}", stderr(&o));
    assert!(stderr(&o).contains("MiB"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_small_address_space_still_solves() {
    // The search thread's 1 GB stack reservation did not fit: every solve panicked.
    let o = tsume_limited(800_000, &["solve", MATE3]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("mate in 3"), "{}", stdout(&o));
    let o = tsume_limited(100_000, &["solve", MATE3, "--hash", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_huge_time_limit_is_bad_input() {
    for t in ["1e20", "1e10", "nan"] {
        assert_bad_input(
            &["solve", MATE3, &format!("--time-limit={t}")],
            &["--time-limit"],
        );
    }
    let o = tsume(&["solve", MATE3, "--time-limit", "1e9"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// The commonest slip: an SFEN with only the attacker's hand. It is solved as written (mate
/// in 5), and stderr says which pieces are missing and how to give them to the defender;
/// with `--fill-defender-hand` the note is gone (and the length is the book's 31, not
/// searched here).
#[test]
fn missing_pieces_are_pointed_out() {
    let sfen = "8k/9/9/9/9/9/9/9/9 b R2GS 1";
    let o = tsume(&["solve", sfen, "--hash", "16"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("mate in 5"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("are neither on the board nor in a hand"),
        "{err}"
    );
    assert!(err.contains("--fill-defender-hand"), "{err}");
    let full = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
    let o = tsume(&["solve", full, "--hash", "16"]);
    assert!(!stderr(&o).contains("note:"), "{}", stderr(&o));
}

/// `tsume verify X --json | head -2`: the reader going away ends the run quietly, with no
/// error message and exit code 0.
#[test]
fn a_closed_output_pipe_ends_verify_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let pack = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/starter/pack.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args([
            "verify",
            pack,
            "--json",
            "--skip-unnecessary",
            "--threads",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(!err.contains("Broken pipe"), "{err}");
}

/// A file that is neither KIF nor CSA (a pack, an SFEN list) is named as such, with a
/// pointer to `tsume verify`, instead of "malformed SFEN".
#[test]
fn a_file_of_unknown_kind_is_named() {
    let pack = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/starter/pack.sfen");
    let o = tsume(&["solve", pack]);
    assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT));
    let err = stderr(&o);
    assert!(err.contains("a file of unknown kind"), "{err}");
    assert!(err.contains("tsume verify"), "{err}");
    assert!(!err.contains("malformed SFEN"), "{err}");
}

/// A file holding one SFEN line (blank and `#` lines aside, `position sfen …` too) is that
/// problem; a file of several is still a list for `tsume verify`.
#[test]
fn a_file_of_one_sfen_line_is_solved() {
    let dir = std::env::temp_dir().join(format!("tsume-one-sfen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one = dir.join("mate3.txt");
    std::fs::write(
        &one,
        "# a mate in 3\n\nposition sfen 6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1\n",
    )
    .unwrap();
    let o = tsume(&["solve", one.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("mate in 3\n2c2b+ 1b1c R*2c\n"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let two = dir.join("two.txt");
    std::fs::write(
        &two,
        "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1\n6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1\n",
    )
    .unwrap();
    assert_bad_input(
        &["solve", two.to_str().unwrap()],
        &["a file of unknown kind"],
    );
    // An empty file is named so.
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "\n  \n").unwrap();
    assert_bad_input(
        &["solve", empty.to_str().unwrap()],
        &["empty.txt: empty (solve reads"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A KIF file of several records (a pack's `problems.kif`) is refused with the count and a
/// pointer to `tsume verify`, instead of the first record solved silently.
#[test]
fn a_kif_file_of_several_records_is_refused() {
    let kif = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/starter/problems.kif");
    let o = tsume(&["solve", kif]);
    assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("135 KIF records"), "{err}");
    assert!(err.contains("tsume verify"), "{err}");
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

/// A KIF move with its square before `同` (`５一同金(41)`, as some writers put it) is read
/// when the square is the previous move's destination, and is bad input naming the line
/// and both squares when it is not (`solve` and `verify`: exit 2).
#[test]
fn a_square_before_dou_must_be_the_previous_destination() {
    let pack = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/problems/starter/problems.kif"
    ))
    .unwrap();
    let start = pack.find("# problem a36fbb136223749b ").unwrap();
    let end = start + pack[start..].find("まで").unwrap();
    let record = &pack[start..end + pack[end..].find('\n').unwrap() + 1];
    assert_eq!(record.matches("   6 同　金(41)\n").count(), 1, "{record}");
    let line = record.lines().position(|l| l == "   6 同　金(41)").unwrap() + 1;
    let dir = std::env::temp_dir().join(format!("tsume-square-dou-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let same = dir.join("same.kifu");
    std::fs::write(
        &same,
        record.replace("   6 同　金(41)", "   6 ５一同金(41)"),
    )
    .unwrap();
    let o = tsume(&["verify", same.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains(": sound: mate in 15"), "{}", stdout(&o));
    let other = dir.join("other.kifu");
    std::fs::write(
        &other,
        record.replace("   6 同　金(41)", "   6 ５二同金(41)"),
    )
    .unwrap();
    let path = other.to_str().unwrap();
    for command in ["solve", "verify"] {
        assert_bad_input(
            &[command, path],
            &[
                &format!("line {line}: 「５二同金(41)」 writes ５二 and 同"),
                "the previous move went to ５一",
            ],
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A mistyped file name or a directory is named as what it is, with what `solve` (or
/// `render`) reads, instead of "malformed SFEN" (exit 2); empty standard input (`-`) is
/// named too.
#[test]
fn a_missing_file_or_a_directory_is_not_called_a_malformed_sfen() {
    let dir = env!("CARGO_MANIFEST_DIR");
    for (arg, says) in [
        ("no-such-problem.txt", "no such file, and not an SFEN"),
        (dir, "a directory"),
        ("-", "standard input: not one SFEN line"),
    ] {
        let o = tsume(&["solve", arg]);
        assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT), "{arg}");
        let err = stderr(&o);
        let named = if arg == "-" {
            says.to_string()
        } else {
            format!("{arg}: {says}")
        };
        assert!(err.contains(&named), "{arg}: {err}");
        assert!(err.contains("quoted as one argument"), "{arg}: {err}");
        assert!(!err.contains("malformed SFEN"), "{arg}: {err}");
    }
    // Several words stay an SFEN, and say what is wrong with it.
    let o = tsume(&["solve", "9/9/9 b"]);
    assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT));
    assert!(stderr(&o).contains("malformed SFEN"), "{}", stderr(&o));
    // `render` names a mistyped file name in the same way, and an SFEN likewise stays one.
    let missing = ["render", "no-such-problem.kif", "--out", "-"];
    assert_bad_input(
        &missing,
        &[
            "no-such-problem.kif: no such file, and not an SFEN",
            "KIF or CSA file",
        ],
    );
    assert!(!stderr(&tsume(&missing)).contains("malformed SFEN"));
    assert_bad_input(&["render", "9/9/9 b", "--out", "-"], &["malformed SFEN"]);
}

/// A negative number for a numeric option is refused as a value of that option (exit 2),
/// not taken for an unknown flag with clap's tip to write `-- -1` (which would make it the
/// position argument).
#[test]
fn a_negative_number_is_an_invalid_value_of_its_option() {
    for args in [
        vec!["solve", MATE3, "--hash", "-1"],
        vec!["solve", MATE3, "--threads", "-1"],
        vec!["solve", MATE3, "--nodes", "-5"],
        vec!["verify", "pack.jsonl", "--budget", "-3"],
        vec!["generate", "--count", "-3"],
    ] {
        let o = tsume(&args);
        assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT), "{args:?}");
        let err = stderr(&o);
        let (option, value) = (args[args.len() - 2], args[args.len() - 1]);
        assert!(
            err.contains(&format!("invalid value '{value}' for '{option}")),
            "{args:?}: {err}"
        );
        assert!(!err.contains("-- "), "{args:?}: {err}");
    }
    // Every bad value, negative, zero or not a number, is told with the values allowed;
    // an option without a real upper bound says "at least N", not the largest u64.
    for (args, allowed) in [
        (
            vec!["solve", MATE3, "--nodes", "0"],
            "a whole number, at least 1",
        ),
        (
            vec!["solve", MATE3, "--nodes", "-5"],
            "a whole number, at least 1",
        ),
        (
            vec!["verify", "pack.jsonl", "--budget", "0"],
            "a whole number, at least 1",
        ),
        (
            vec!["generate", "--budget", "0"],
            "a whole number, at least 1000",
        ),
        (
            vec!["generate", "--budget", "-5"],
            "a whole number, at least 1000",
        ),
        (
            vec!["solve", MATE3, "--hash", "-5"],
            "a whole number from 1 to 65536",
        ),
        (
            vec!["solve", MATE3, "--hash", "0"],
            "a whole number from 1 to 65536",
        ),
        (
            vec!["solve", MATE3, "--hash", "lots"],
            "a whole number from 1 to 65536",
        ),
        (
            vec!["verify", "pack.jsonl", "--hash", "-5"],
            "a whole number from 1 to 65536",
        ),
        (
            vec!["verify", "pack.jsonl", "--threads", "x"],
            "a whole number from 1 to 256",
        ),
        (
            vec!["solve", MATE3, "--threads", "-1"],
            "a whole number from 1 to 1024",
        ),
        (
            vec!["generate", "--count", "-3"],
            "a whole number from 1 to 1000000",
        ),
        (
            vec!["generate", "--seed", "-1"],
            "a whole number, 0 or more",
        ),
        (
            vec!["merge", "out", "in", "--budget", "-1"],
            "a whole number, at least 1",
        ),
        (
            vec!["render", MATE3, "--out", "-", "--move", "-1"],
            "a whole number, 0 or more",
        ),
        (
            vec!["perft", "startpos", "-1"],
            "a whole number from 0 to 4294967295",
        ),
        (
            vec!["solve", MATE3, "--time-limit", "soon"],
            "a positive number of seconds up to 1e9",
        ),
    ] {
        let o = tsume(&args);
        assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("must be {allowed}")),
            "{args:?}: {err}"
        );
        assert!(!err.contains("invalid digit"), "{args:?}: {err}");
        assert!(!err.contains("18446744073709551615"), "{args:?}: {err}");
    }
    // A negative --time-limit reaches the command's own check.
    let o = tsume(&["solve", MATE3, "--time-limit", "-1"]);
    assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT));
    assert!(stderr(&o).contains("--time-limit must be a positive number"));
}

/// `tsume solve` reads the position after `moves …`, also written as a USI `position`
/// command (as a GUI logs it), and solves from there.
#[test]
fn solve_reads_the_position_after_moves() {
    for arg in [
        format!("{MATE3} moves 2c2b+ 1b1c"),
        format!("sfen {MATE3} moves 2c2b+ 1b1c"),
        format!("position sfen {MATE3} moves 2c2b+ 1b1c"),
    ] {
        let o = tsume(&["solve", &arg, "--hash", "16"]);
        assert_eq!(o.status.code(), Some(0), "{arg}: {}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[..2], ["mate in 1", "R*2c"], "{arg}: {out}");
    }
    // From the start position, after 7g7f, White attacks and has no check.
    let o = tsume(&["solve", "position startpos moves 7g7f", "--hash", "16"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("no mate"), "{}", stdout(&o));
    // The record is of the position after the moves.
    let o = tsume(&[
        "solve",
        &format!("{MATE3} moves 2c2b+ 1b1c"),
        "--output",
        "kif",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("v玉|三"), "{}", stdout(&o));
    assert!(stdout(&o).contains("まで1手で詰み"), "{}", stdout(&o));
}

/// `--fill-defender-hand` with moves fills the hand of the side that defends after them:
/// here the position is given with White to move, and Black attacks after one move.
#[test]
fn fill_defender_hand_after_moves_fills_the_defender_after_them() {
    let arg = "position sfen 6S2/7+Pk/9/8n/9/9/9/9/9 w R 2 moves 1b1c";
    let o = tsume(&["solve", arg, "--fill-defender-hand", "--output", "kif"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("後手の持駒：飛　角二　金四　銀三　桂三　香四　歩十七"),
        "{out}"
    );
    assert!(out.contains("先手の持駒：飛\n"), "{out}");
    assert!(!stderr(&o).contains("note:"), "{}", stderr(&o));
}

#[test]
fn solve_refuses_bad_moves_and_counts() {
    assert_bad_input(
        &["solve", &format!("{MATE3} moves 2c2b+ 1b1d")],
        &["move 2 (1b1d)", "not a legal move"],
    );
    assert_bad_input(
        &["solve", &format!("{MATE3} moves 2c2b+ xyz")],
        &["move 2 (xyz)"],
    );
    assert_bad_input(
        &["solve", "4k4/9/9/9/10/9/9/9/4K4 b - 1"],
        &["rank 5", "the count 10 is too large"],
    );
    assert_bad_input(&["solve", "position"], &["empty SFEN"]);
    // After an odd number of moves the other side attacks (when it is not in check): here
    // it has no king to mate.
    assert_bad_input(
        &["solve", &format!("position sfen {MATE3} moves 3a4b")],
        &[
            "after the 1 move given, White is to move and attacks",
            "no king",
        ],
    );
    // The side field the wrong way round: the hint names it.
    assert_bad_input(
        &["solve", "4k4/9/4P4/9/9/9/9/9/9 w G2r2b3g4s4n4l17p 1"],
        &["has no king to mate", "side field the wrong way round"],
    );
}

/// `tsume completions SHELL` prints a script that knows every subcommand.
#[test]
fn completions_name_the_subcommands() {
    let o = tsume(&["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bash = stdout(&o);
    assert!(bash.contains("complete -F _tsume"), "{bash}");
    for sub in [
        "solve",
        "verify",
        "generate",
        "merge",
        "usi",
        "render",
        "html",
        "perft",
        "completions",
    ] {
        assert!(bash.contains(&format!("tsume,{sub})")), "bash: no {sub}");
    }
    // The options of a subcommand are completed too.
    assert!(bash.contains("--fill-defender-hand"), "{bash}");
    let o = tsume(&["completions", "zsh"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("#compdef tsume"), "{}", stdout(&o));
    let o = tsume(&["completions", "fish"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("complete -c tsume"), "{}", stdout(&o));
    assert_bad_input(&["completions", "tcsh"], &["tcsh", "bash"]);
}

/// `--variations` in text: the defender's alternatives, one line per defender ply that
/// has any (sugyan_futile: at ply 2 the king could go to 1b, mated 2 plies later), and the
/// same alternatives in JSON.
#[test]
fn variations_are_printed_in_text_too() {
    let sfen = "7nl/5B1k1/6Ppp/5+R3/9/9/9/9/9 b Srb4g3s3n3l15p 1";
    let o = tsume(&["solve", sfen, "--variations", "--hash", "16"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "mate in 5", "{out}");
    assert_eq!(
        lines[3], "variations (ply: defence played, plies to mate | the other defences):",
        "{out}"
    );
    assert_eq!(lines[4], "  2: △同玉 2b3a 4 | △１二玉 2b1b 2", "{out}");
    assert!(lines[5].starts_with("nodes "), "{out}");
    let o = tsume(&["solve", sfen, "--variations", "--json", "--hash", "16"]);
    assert!(
        stdout(&o)
            .contains(r#""variations":[{"ply":2,"alternatives":[{"move":"2b1b","value":2}]}"#),
        "{}",
        stdout(&o)
    );
    assert_bad_input(
        &["solve", sfen, "--variations", "--rules", "raw"],
        &["--variations needs --rules tsume"],
    );
}

/// `tsume solve … | head -1`: a reader that has gone away ends the command quietly with the
/// answer's exit code, for text, JSON and records alike (stdout is a pipe whose reading end
/// is closed before the command writes).
#[test]
fn a_closed_output_pipe_ends_solve_quietly() {
    for extra in [&[][..], &["--json"], &["--output", "kif"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_tsume"))
            .args(["solve", MATE3, "--hash", "16"])
            .args(extra)
            .stdout(writer)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{extra:?}: {err}");
    }
}

/// Every command that prints its result ends quietly (exit 0) when the reader has gone away,
/// and refuses cleanly (exit 2, the write named) when stdout cannot be written: never a
/// panic. (`render`, `html`, `perft` and `generate --stats` once panicked in `print!`.)
#[test]
fn a_closed_or_full_stdout_never_panics() {
    let dir = std::env::temp_dir().join(format!("tsume-cli-stdout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pack = dir.join("pack");
    let pack = pack.to_str().unwrap();
    let commands: Vec<(Vec<&str>, &str)> = vec![
        (vec!["render", "startpos", "--out", "-"], "the diagram"),
        (vec!["html", "problems/starter", "--out", "-"], "the page"),
        (vec!["perft", "startpos", "2", "--divide"], "the count"),
        (vec!["perft", "startpos", "1"], "the count"),
        (vec!["completions", "bash"], "the completion script"),
        (vec!["solve", MATE3, "--hash", "16"], "the answer"),
        (
            vec![
                "generate", "--out", pack, "--count", "1", "--length", "1", "--stats",
            ],
            "the statistics",
        ),
    ];
    let run = |args: &[&str], out: std::process::Stdio| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tsume"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(out)
            .output()
            .unwrap()
    };
    for (args, what) in &commands {
        // A generate run that finds its pack complete prints its statistics again.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = run(args, writer.into());
        let err = stderr(&o);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?} into a closed pipe: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        match std::fs::OpenOptions::new().write(true).open("/dev/full") {
            Ok(full) => {
                let o = run(args, full.into());
                let err = stderr(&o);
                assert_eq!(
                    o.status.code(),
                    Some(EXIT_BAD_INPUT),
                    "{args:?} into /dev/full: {err}"
                );
                assert!(!err.contains("panicked"), "{args:?}: {err}");
                assert!(
                    err.contains(what),
                    "{args:?}: the write is not named: {err}"
                );
            }
            Err(e) => eprintln!("NOT RUN: {args:?} into a full device (no /dev/full: {e})"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// With the defender to move (in check after the moves given), `tsume solve` answers as `tsume
/// usi` does: the defender's longest defence and the mate after it, the length counting the
/// defence, with a note on stderr saying who defends. Each rule set, KIF output, and the
/// cases that are not a problem.
#[test]
fn solve_with_the_defender_to_move_answers_its_longest_defence_and_the_mate() {
    let after = format!("position sfen {MATE3} moves 2c2b+");
    let o = tsume(&["solve", &after]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("mate in 2\n1b1c R*2c\n△１三玉 ▲２三飛打\n"),
        "{out}"
    );
    assert!(
        stderr(&o).contains("White is to move and in check: it defends, Black attacks"),
        "{}",
        stderr(&o)
    );
    // The same as the USI engine's `checkmate 1b1c R*2c` (tests/usi.rs), under raw rules too.
    let o = tsume(&["solve", &after, "--rules", "raw", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["status"], "mate");
    assert_eq!(v["length"], 2);
    assert_eq!(v["moves"], serde_json::json!(["1b1c", "R*2c"]));
    // A record starts from the position after the moves, White to move.
    let o = tsume(&["solve", &after, "--output", "kif"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let kif = stdout(&o);
    assert!(kif.contains("後手番"), "{kif}");
    assert!(kif.contains("   1 １三玉(12)"), "{kif}");
    assert!(kif.contains("まで2手で詰み"), "{kif}");
    assert_bad_input(
        &["solve", &after, "--variations"],
        &["--variations needs the attacker to move"],
    );
    assert_bad_input(
        &["solve", &format!("{after} 1b1c R*2c")],
        &["not a mate problem", "already checkmated"],
    );
}

/// With the defender to move, a defence that escapes is no mate (exit 1): the king takes the
/// lone gold (the same position as in tests/usi.rs), under either rules.
#[test]
fn solve_with_the_defender_to_move_answers_no_mate_when_it_escapes() {
    let after = "4k4/9/9/9/9/9/9/9/9 b Gr2b3g4s4n4l18p 1 moves G*5b";
    for rules in ["tsume", "raw"] {
        let o = tsume(&["solve", after, "--rules", rules]);
        assert_eq!(o.status.code(), Some(1), "{rules}: {}", stderr(&o));
        assert!(
            stdout(&o).starts_with("no mate\n"),
            "{rules}: {}",
            stdout(&o)
        );
    }
}

/// What a newcomer slips on gets a message that says what to do (a trial run as a new
/// user, 2026-12-04): a line copied from a data set, an SFEN without quotes, a pack line
/// whose `moves` are its solution, options that cannot go together, two kings of a side,
/// and a bad option told before any note about the position.
#[test]
fn newcomer_slips_are_told_what_to_do() {
    let zuko090 = "3B1glk1/+Pp2Pp1l1/1S3+RP1s/2s2+B3/S6N1/2pl3p1/2+p6/2G6/+RG3P1Pg b L3n8p 1";
    assert_bad_input(
        &["solve", &format!("{zuko090} 75 # zuko090")],
        &["found 7", "\"75 # zuko090\" follows the move number"],
    );
    let mut unquoted = vec!["solve"];
    unquoted.extend(zuko090.split(' '));
    assert_bad_input(&unquoted, &["unexpected argument 'b'", "quote it"]);
    assert_bad_input(
        &[
            "solve",
            "5r3/4kB3/2S6/9/9/9/9/9/9 b Grb3g3s4n4l18p 1 moves G*5c 5b6a 7c6b+",
        ],
        &[
            "after the 3 moves given",
            "already checkmated",
            "tsume verify",
        ],
    );
    let mate3 = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";
    for output in ["kif", "csa"] {
        assert_bad_input(
            &["solve", mate3, "--output", output, "--variations"],
            &["--variations", "KIF or CSA"],
        );
    }
    assert_bad_input(
        &["solve", "4k4/9/4P4/9/9/9/9/9/K3K4 b G 1"],
        &["more than one Black king"],
    );
    let o = tsume(&["solve", "4k4/9/9/9/9/9/9/9/9 b G 1", "--time-limit", "0"]);
    assert_eq!(o.status.code(), Some(EXIT_BAD_INPUT));
    assert!(
        stderr(&o).starts_with("tsume: --time-limit"),
        "the bad option first:\n{}",
        stderr(&o)
    );
}

/// Ctrl-C (SIGINT) during a solve: the search stops, its answer so far is printed whole (a
/// mate found or unknown, `"stopped": "stop"`), and the process then dies by the signal, so
/// that a shell sees an interrupted command (status 130) and a loop of solves stops.
#[cfg(unix)]
#[test]
fn an_interrupted_solve_prints_its_answer_then_dies_by_the_signal() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    // 将棋図巧 No. 100 (寿, 611 plies): seconds of search in any build.
    let kotobuki =
        "g3p3+r/3lPG3/1s4ppp/1l1B4P/L2b1kPl1/3+p3+R+p/3+p2+s1S/+NP+p1gS3/1g+p2P3 b 4P3n 1";
    let child = Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(["solve", kotobuki, "--json", "--hash", "64"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough for the handler to be in place (it is, before the tables are made).
    std::thread::sleep(std::time::Duration::from_millis(1500));
    common::interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.signal(),
        Some(2),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("the whole answer, as JSON");
    assert_eq!(answer["stopped"], "stop", "{answer}");
    assert!(
        matches!(answer["status"].as_str(), Some("mate" | "unknown")),
        "{answer}"
    );
}
