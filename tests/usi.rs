//! `tsume usi` driven over pipes as a GUI would: handshake, `go mate` on labelled problems,
//! `stop` latency, time limits, progress `info`, plain `go`, bad input.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tsume_solver::{Move, Position};

/// ミクロコスモス (橋本孝治), a 1525-ply mate: no solver finishes it in a test's lifetime, so
/// a search on it runs until it is stopped. (Position from komori-n/KomoringHeights'
/// benchmark set, via the project's shared data.)
const MICROCOSMOS: &str =
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";

/// `tsume usi`, handshake done.
struct Engine(common::engine::Pipe);

impl std::ops::Deref for Engine {
    type Target = common::engine::Pipe;
    fn deref(&self) -> &common::engine::Pipe {
        &self.0
    }
}

impl std::ops::DerefMut for Engine {
    fn deref_mut(&mut self) -> &mut common::engine::Pipe {
        &mut self.0
    }
}

impl Engine {
    fn start() -> Engine {
        let mut e = Engine(common::engine::Pipe::spawn(&["usi"], None, false));
        e.send("usi");
        e.expect("usiok", Duration::from_secs(10));
        e
    }

    /// Lines up to and including the first one starting with `prefix`.
    fn expect(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        self.0
            .until(&format!("{prefix:?}"), |l| l.starts_with(prefix), timeout)
    }

    fn ready(&mut self) {
        self.send("isready");
        self.expect("readyok", Duration::from_secs(10));
    }
}

/// Replays `moves` from `sfen`: legal, every attacker move a check, and mate at the end.
fn assert_mating_line(sfen: &str, moves: &[&str]) {
    let start = Position::from_sfen(sfen).unwrap();
    let mut p = start.clone();
    let mut line: Vec<Move> = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let mv: Move = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{sfen}: ply {} {m}: {e}", i + 1));
        p.do_move(mv);
        line.push(mv);
    }
    let end = common::replay_checking_line(&start, &line, sfen);
    assert!(end.is_checkmate(), "{sfen}: the line does not end in mate");
}

#[test]
fn handshake_lists_the_options() {
    let mut e = Engine::start();
    let lines = e.log.clone();
    assert!(
        lines.iter().any(|l| l.starts_with("id name tsume")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("id author ")),
        "{lines:?}"
    );
    for opt in [
        "option name USI_Hash type spin",
        "option name Threads type spin",
        "option name Rules type combo default tsume var tsume var raw",
        "option name FillDefenderHand type check default false",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(opt)), "{opt}: {lines:?}");
    }
    e.send("usinewgame");
    e.send("this is not a usi command");
    e.ready();
    // Threads is honoured (the searches below run with 4) and a bad value refused.
    e.send("setoption name Threads value 0");
    let got = e.expect("info string", Duration::from_secs(5));
    assert!(
        got.last().unwrap().contains("Threads must be 1..1024"),
        "{got:?}"
    );
    e.send("setoption name Threads value 4");
    // Tsume rules: the interpositions on the 4th rank are useless, so R 9e9d mates in one
    // (tricky_rules khblog_futile_1te: source 1, raw 15).
    e.send("setoption name Rules value tsume");
    e.send("position sfen 9/9/6Bnl/8k/R6p1/9/9/9/9 b rb4g4s3n3l17p 1");
    e.send("go mate 20000");
    let got = e.expect("checkmate", Duration::from_secs(30));
    assert_eq!(got.last().unwrap(), "checkmate 9e9d");
    e.send("setoption name Rules value raw");
    e.send("go mate 20000");
    let got = e.expect("checkmate", Duration::from_secs(30));
    assert_eq!(
        got.last().unwrap().split_whitespace().count(),
        16,
        "{got:?}"
    );
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn go_mate_solves_labelled_problems() {
    let text = common::read_data("mate_sample_raw.txt");
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 64");
    // Raw lengths, as the data has them.
    e.send("setoption name Rules value raw");
    e.ready();
    let mut solved = 0;
    // Every 10th line: mate in 3 to 11 plies (raw lengths computed by KomoringHeights).
    for line in common::content_lines(&text).step_by(10) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let sfen = fields[..4].join(" ");
        let expected: usize = fields[4].parse().unwrap();
        e.send(&format!("position sfen {sfen}"));
        e.send("go mate 20000");
        let got = e.expect("checkmate", Duration::from_secs(30));
        let answer = got.last().unwrap();
        let moves: Vec<&str> = answer.split_whitespace().skip(1).collect();
        assert!(
            !matches!(moves.as_slice(), ["nomate"] | ["timeout"]),
            "{sfen}: {answer}"
        );
        assert_eq!(moves.len(), expected, "{sfen}: {answer}");
        assert_mating_line(&sfen, &moves);
        // The final info line carries the PV.
        let info = &got[got.len() - 2];
        assert!(
            info.starts_with("info ") && info.contains(" nodes "),
            "{info}"
        );
        assert!(info.ends_with(&format!("pv {}", moves.join(" "))), "{info}");
        solved += 1;
    }
    assert_eq!(solved, 20);
}

/// Each shorter mate is announced as it is found (`info … score mate N pv …`), under both
/// rules, before the answer: 将棋図巧 No. 5, whose first mate is not the shortest (21 plies
/// as published, `tests/data/zuko.txt`).
#[test]
fn each_shorter_mate_is_announced_with_its_line() {
    let text = common::read_data("zuko.txt");
    let line = text.lines().find(|l| l.contains("# zuko005 ")).unwrap();
    let fields: Vec<&str> = line.split_whitespace().collect();
    let sfen = fields[..4].join(" ");
    let published: usize = fields[4].parse().unwrap();
    let mut e = Engine::start();
    for rules in ["raw", "tsume"] {
        e.send(&format!("setoption name Rules value {rules}"));
        e.send(&format!("position sfen {sfen}"));
        e.send("go mate 20000");
        let got = e.expect("checkmate", Duration::from_secs(30));
        let answer: Vec<&str> = got.last().unwrap().split_whitespace().skip(1).collect();
        assert_eq!(answer.len(), published, "{rules}: {got:?}");
        // The announcements, before the final info line (which carries the answer's PV).
        let announced: Vec<(usize, Vec<&str>)> = got[..got.len() - 2]
            .iter()
            .filter_map(|l| {
                let (head, pv) = l.split_once(" pv ")?;
                let length = head.split_once(" score mate ")?.1.parse().ok()?;
                Some((length, pv.split_whitespace().collect()))
            })
            .collect();
        assert!(!announced.is_empty(), "{rules}: {got:?}");
        assert!(
            announced[0].0 > published,
            "{rules}: the first mate is longer: {got:?}"
        );
        for pair in announced.windows(2) {
            assert!(pair[1].0 < pair[0].0, "{rules}: {got:?}");
        }
        for (length, pv) in &announced {
            assert!(pv.len() <= *length, "{rules}: {got:?}");
            assert_mating_line(&sfen, pv);
        }
        let last = &got[got.len() - 2];
        assert!(
            last.contains(&format!(" score mate {published} pv ")),
            "{last}"
        );
        // The `info` lines' times never go back (the final one was once timed by a clock
        // started a little after the announcements').
        let times: Vec<u64> = got
            .iter()
            .filter_map(|l| {
                l.strip_prefix("info time ")?
                    .split(' ')
                    .next()?
                    .parse()
                    .ok()
            })
            .collect();
        assert!(times.len() >= 2, "{rules}: {got:?}");
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{rules}: {got:?}");
    }
}

/// The engine keeps its tables from one `go mate` to the next but clears them: the same
/// search twice does the same work (a table left full would prove the second at once).
#[test]
fn a_repeated_search_starts_from_cleared_tables() {
    let mut e = Engine::start();
    for rules in ["raw", "tsume"] {
        e.send(&format!("setoption name Rules value {rules}"));
        // 将棋図巧 No. 5 (21 plies).
        e.send("position sfen n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1");
        let mut nodes = Vec::new();
        for _ in 0..2 {
            e.send("go mate 20000");
            let got = e.expect("checkmate", Duration::from_secs(30));
            assert!(!got.last().unwrap().contains("timeout"), "{got:?}");
            let info = &got[got.len() - 2];
            let n = info.split_whitespace().skip_while(|w| *w != "nodes").nth(1);
            nodes.push(n.expect("a node count").to_string());
        }
        assert_eq!(
            nodes[0], nodes[1],
            "{rules}: the second search reused results"
        );
    }
}

#[test]
fn go_mate_answers_nomate() {
    let mut e = Engine::start();
    // P*9b would be pawn-drop mate, which is illegal (tricky_rules: antma_t1_uchifuzume).
    e.send("position sfen kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1");
    e.send("go mate 10000");
    let got = e.expect("checkmate", Duration::from_secs(20));
    assert_eq!(got.last().unwrap(), "checkmate nomate");
}

#[test]
fn stop_answers_within_100_ms_and_info_reports_progress() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate infinite");
    // About once a second: nodes, nps, time, hashfull.
    let got = e.expect("info time", Duration::from_secs(5));
    let info = got.last().unwrap();
    for key in [" nodes ", " nps ", " hashfull "] {
        assert!(info.contains(key), "{info}");
    }
    assert!(
        !got.iter().any(|l| l.starts_with("checkmate")),
        "answered before stop: {got:?}"
    );
    let sent = Instant::now();
    e.send("stop");
    let got = e.expect("checkmate", Duration::from_secs(5));
    let latency = sent.elapsed();
    assert_eq!(got.last().unwrap(), "checkmate timeout");
    assert!(
        latency < Duration::from_millis(100),
        "stop took {latency:?}"
    );
    // Still alive and ready for more.
    e.ready();
}

#[test]
fn go_mate_time_limit_answers_timeout() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {MICROCOSMOS}"));
    let sent = Instant::now();
    e.send("go mate 500");
    let got = e.expect("checkmate", Duration::from_secs(10));
    let took = sent.elapsed();
    assert_eq!(got.last().unwrap(), "checkmate timeout");
    assert!(
        took >= Duration::from_millis(450) && took < Duration::from_millis(1500),
        "go mate 500 answered after {took:?}"
    );
}

/// `quit` during a search stops it, and an `info string` says why the answer is a
/// timeout and how a script waits for the real one.
#[test]
fn quit_during_a_search_says_what_it_stops() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate 60000");
    e.send("quit");
    let got = e.expect("checkmate", Duration::from_secs(10));
    assert!(
        got.iter()
            .any(|l| l.starts_with("info string quit stops the running search")),
        "{got:?}"
    );
    assert_eq!(got.last().unwrap(), "checkmate timeout");
}

#[test]
fn plain_go_answers_bestmove() {
    let mut e = Engine::start();
    e.send("position sfen 6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1");
    e.send("go btime 0 wtime 0 byoyomi 5000");
    let got = e.expect("bestmove", Duration::from_secs(10));
    assert_eq!(got.last().unwrap(), "bestmove 2c2b+");
    // No mate for the side to move after 1.7g7f: resign.
    e.send("position startpos moves 7g7f");
    e.send("go byoyomi 1000");
    let got = e.expect("bestmove", Duration::from_secs(10));
    assert_eq!(got.last().unwrap(), "bestmove resign");
    // `go infinite` holds its answer until stop.
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let got = e.expect("bestmove", Duration::from_secs(5));
    assert_eq!(got.last().unwrap(), "bestmove resign");
}

#[test]
fn fill_defender_hand_option() {
    // 9/9/6Bnl/8k/R6p1/9/9/9/9: with an empty defender hand ▲９四飛 mates at once; with
    // the rest of the pieces in hand the defender can interpose on the 4th rank (15 plies
    // raw; the source's tsume answer is 1).
    let sfen = "9/9/6Bnl/8k/R6p1/9/9/9/9 b - 1";
    let mut e = Engine::start();
    e.send("setoption name Rules value raw");
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 5000");
    let got = e.expect("checkmate", Duration::from_secs(10));
    assert_eq!(got.last().unwrap(), "checkmate 9e9d");
    e.send("setoption name FillDefenderHand value true");
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 10000");
    let got = e.expect("checkmate", Duration::from_secs(20));
    let moves: Vec<&str> = got.last().unwrap().split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 15, "{got:?}");
    assert_mating_line("9/9/6Bnl/8k/R6p1/9/9/9/9 b rb4g4s3n3l17p 1", &moves);
}

#[test]
fn bad_positions_are_reported_and_survived() {
    let mut e = Engine::start();
    for bad in [
        "position sfen 9/9/9 b - 1",
        "position sfen lnsgkgsnl/9/9/9/9/9/9/9/9 x - 1",
        "position sfen 4k4/9/9/9/9/9/9/9/4K4 b 99P 1",
        "position startpos moves 7g7f 7g7f",
        "position startpos moves xyz",
        "position",
        "position sfen",
    ] {
        e.send(bad);
        let got = e.expect("info string", Duration::from_secs(5));
        assert!(
            got.last().unwrap().contains("bad position"),
            "{bad}: {got:?}"
        );
        e.send("go mate 1000");
        let got = e.expect("checkmate", Duration::from_secs(5));
        assert_eq!(got.last().unwrap(), "checkmate nomate", "{bad}");
        e.ready();
    }
    // A position without a king to mate.
    e.send("position sfen 9/9/9/9/9/9/9/9/4K4 b G 1");
    e.send("go mate 1000");
    let got = e.expect("checkmate", Duration::from_secs(5));
    assert_eq!(got.last().unwrap(), "checkmate nomate");
    e.ready();
}

#[test]
fn quit_during_a_search_exits() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {MICROCOSMOS}"));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn end_of_input_finishes_the_queued_work() {
    // A scripted client: every command at once, then the pipe closes.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsume"))
        .arg("usi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script = "usi\nisready\n\
                  position sfen 6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1\ngo mate 5000\n\
                  position startpos\ngo mate 1000\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("checkmate"))
        .collect();
    assert_eq!(
        answers,
        ["checkmate 2c2b+ 1b1c R*2c", "checkmate nomate"],
        "{text}"
    );
    // No rate made up for a search under a millisecond (`info time 0 nodes 21 nps 21000`).
    for line in text.lines().filter(|l| l.starts_with("info time ")) {
        let ms: u64 = line["info time ".len()..]
            .split(' ')
            .next()
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert_eq!(ms > 0, line.contains(" nps "), "{line}");
    }
}

/// Runs `tsume usi` on `input` (closed at its end), optionally under `ulimit -v KB`;
/// fails if it has not exited after `timeout`. Returns stdout.
fn run_script(input: &[u8], ulimit_kb: Option<u64>, timeout: Duration) -> String {
    let mut cmd = match ulimit_kb {
        Some(kb) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("ulimit -v {kb} && exec \"$0\" usi"))
                .arg(env!("CARGO_BIN_EXE_tsume"));
            c
        }
        None => {
            let mut c = Command::new(env!("CARGO_BIN_EXE_tsume"));
            c.arg("usi");
            c
        }
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).unwrap();
        s
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the engine did not exit within {timeout:?} after the end of its input");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let out = reader.join().unwrap();
    assert!(status.success(), "{status:?}\n{out}");
    out
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_the_session_goes_on() {
    let out = run_script(
        b"usi\n\xff\xfe garbage\nisready\nposition sfen 6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1\ngo mate 5000\n",
        None,
        Duration::from_secs(20),
    );
    assert!(
        out.contains("info string ignored a line that is not UTF-8"),
        "{out}"
    );
    assert!(out.contains("readyok"), "{out}");
    assert!(out.contains("checkmate 2c2b+ 1b1c R*2c"), "{out}");
}

#[test]
fn the_end_of_input_stops_a_search_without_a_time_limit() {
    // A GUI that died mid-search: no `stop` will come.
    for (go, answer) in [
        ("go mate infinite", "checkmate timeout"),
        ("go infinite", "bestmove resign"),
        ("go mate abc", "checkmate timeout"),
    ] {
        let script = format!("usi\nposition sfen {MICROCOSMOS}\n{go}\n");
        let out = run_script(script.as_bytes(), None, Duration::from_secs(20));
        assert!(out.lines().any(|l| l == answer), "{go}: {out}");
    }
}

#[test]
fn unreadable_go_times_are_reported() {
    let mate3 = "position sfen 6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";
    for (go, needle, answer) in [
        ("go mate abc", "\"abc\"", "checkmate 2c2b+ 1b1c R*2c"),
        ("go mate -5", "\"-5\"", "checkmate 2c2b+ 1b1c R*2c"),
        ("go byoyomi abc", "go byoyomi", "bestmove 2c2b+"),
    ] {
        let mut e = Engine::start();
        e.send(mate3);
        e.send(go);
        let got = e.expect("info string", Duration::from_secs(5));
        assert!(got.last().unwrap().contains(needle), "{go}: {got:?}");
        let prefix = answer.split(' ').next().unwrap();
        let got = e.expect(prefix, Duration::from_secs(10));
        assert_eq!(got.last().unwrap(), answer, "{go}");
    }
}

#[test]
fn a_usi_hash_larger_than_memory_falls_back_to_a_smaller_table() {
    // Under a 2 GB address-space limit, the documented maximum USI_Hash cannot be had: the
    // engine says so and searches with a table that fits (it used to abort).
    for rules in ["raw", "tsume"] {
        let script = format!(
            "usi\nsetoption name USI_Hash value 65536\nsetoption name Rules value {rules}\n\
             position sfen 6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1\ngo mate 5000\n"
        );
        let out = run_script(script.as_bytes(), Some(2_000_000), Duration::from_secs(30));
        assert!(
            out.contains("info string USI_Hash 65536 MiB cannot be allocated"),
            "{out}"
        );
        assert!(out.contains("checkmate 2c2b+ 1b1c R*2c"), "{rules}: {out}");
    }
}

/// Replays a defender-to-move answer from the position of `position_args` (a `position`
/// command's arguments): the side to move is in check, the first move is its legal
/// evasion, and the rest is a mating line (every attacker move checks, mate at the end).
fn assert_defence_line(position_args: &str, moves: &[&str]) {
    let mut p = tsume_solver::usi::position(position_args, false).unwrap();
    assert!(
        p.in_check(),
        "{position_args}: the side to move is not in check"
    );
    let (first, rest) = moves.split_first().expect("a defender move");
    let mv = p
        .parse_move(first)
        .unwrap_or_else(|e| panic!("{position_args}: {first}: {e}"));
    assert!(p.legal_moves().contains(mv), "{position_args}: {first}");
    p.do_move(mv);
    assert_mating_line(&p.to_sfen(), rest);
}

/// The `checkmate` answer's moves, with the final `info`'s mate length and PV checked
/// against them.
fn checkmate_moves(got: &[String]) -> Vec<String> {
    let answer = got.last().unwrap();
    let moves: Vec<String> = answer
        .split_whitespace()
        .skip(1)
        .map(str::to_string)
        .collect();
    assert!(
        !matches!(
            moves.first().map(String::as_str),
            Some("nomate" | "timeout") | None
        ),
        "{got:?}"
    );
    let info = &got[got.len() - 2];
    assert!(
        info.ends_with(&format!(
            "score mate {} pv {}",
            moves.len(),
            moves.join(" ")
        )),
        "{got:?}"
    );
    moves
}

/// A GUI stepping through a solution asks at every ply, the defender's too (issue 20): with
/// the side to move in check, `go mate` answers the line from its move, a longest defence
/// and best play to mate, one ply shorter than the solution from the attacker's move before
/// it. Under both rules: the mate in 3 of the issue (its length from the engine's own answer
/// for the attacker's position), and 将棋図巧 No. 5 stepped into after 1 and 3 plies of its
/// published solution (21 plies under both rules, `tests/data/zuko_solutions.txt`).
#[test]
fn go_mate_with_the_defender_to_move_answers_the_line_from_its_move() {
    let text = common::read_data("zuko_solutions.txt");
    let line = text.lines().find(|l| l.contains("# zuko005 ")).unwrap();
    let (head, solution) = line.split_once(" moves ").unwrap();
    let fields: Vec<&str> = head.split_whitespace().collect();
    let zuko005 = format!("sfen {}", fields[..4].join(" "));
    let published: usize = fields[4].parse().unwrap();
    let solution: Vec<&str> = solution
        .split('#')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(solution.len(), published);
    let mate3 = "sfen 6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";
    let mut e = Engine::start();
    for rules in ["raw", "tsume"] {
        e.send(&format!("setoption name Rules value {rules}"));
        // The attacker's answer, then the defender's after its first move.
        e.send(&format!("position {mate3}"));
        e.send("go mate 20000");
        let attack = checkmate_moves(&e.expect("checkmate", Duration::from_secs(30)));
        let after = format!("{mate3} moves {}", attack[0]);
        e.send(&format!("position {after}"));
        e.send("go mate 20000");
        let defence = checkmate_moves(&e.expect("checkmate", Duration::from_secs(30)));
        assert_eq!(defence.len(), attack.len() - 1, "{rules}: {defence:?}");
        assert_defence_line(
            &after,
            &defence.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        for plies in [1, 3] {
            let after = format!("{zuko005} moves {}", solution[..plies].join(" "));
            e.send(&format!("position {after}"));
            e.send("go mate 20000");
            let defence = checkmate_moves(&e.expect("checkmate", Duration::from_secs(60)));
            assert_eq!(defence.len(), published - plies, "{rules}: {defence:?}");
            assert_defence_line(
                &after,
                &defence.iter().map(String::as_str).collect::<Vec<_>>(),
            );
        }
    }
}

/// A check the defender escapes: `checkmate nomate`. After G*5b the king takes the gold,
/// and then the attacker (nothing on the board, nothing in hand) has no check at all,
/// which the test checks with the move generator.
#[test]
fn go_mate_with_the_defender_to_move_answers_nomate_when_it_escapes() {
    let after = "sfen 4k4/9/9/9/9/9/9/9/9 b Gr2b3g4s4n4l18p 1 moves G*5b";
    let p = tsume_solver::usi::position(&format!("{after} 5a5b"), false).unwrap();
    let mut checks = tsume_solver::MoveList::new();
    tsume_solver::movegen::generate_checks(&p, &mut checks);
    assert!(checks.is_empty(), "the attacker still has a check");
    let mut e = Engine::start();
    for rules in ["raw", "tsume"] {
        e.send(&format!("setoption name Rules value {rules}"));
        e.send(&format!("position {after}"));
        e.send("go mate 20000");
        let got = e.expect("checkmate", Duration::from_secs(30));
        assert_eq!(got.last().unwrap(), "checkmate nomate", "{rules}: {got:?}");
    }
}

/// The side to move has the only king and is not in check: not a mate problem for either
/// side (`checkmate nomate`, and why); a side to move already mated has no move to answer;
/// plain `go` with the defender to move says to use `go mate`.
#[test]
fn a_defender_to_move_that_is_not_in_check_is_not_a_mate_problem() {
    let mut e = Engine::start();
    e.send("position sfen 8k/9/9/9/9/9/9/9/9 w R2G 1");
    e.send("go mate 1000");
    let got = e.expect("checkmate", Duration::from_secs(10));
    assert_eq!(got.last().unwrap(), "checkmate nomate", "{got:?}");
    assert!(
        got.iter()
            .any(|l| l.starts_with("info string") && l.contains("not in check")),
        "{got:?}"
    );
    // Head mate (1b gold, guarded by the 1c pawn), gote to move.
    e.send("position sfen 8k/8G/8P/9/9/9/9/9/9 w - 1");
    e.send("go mate 1000");
    let got = e.expect("checkmate", Duration::from_secs(10));
    assert_eq!(got.last().unwrap(), "checkmate nomate", "{got:?}");
    assert!(
        got.iter()
            .any(|l| l.starts_with("info string") && l.contains("checkmated")),
        "{got:?}"
    );
    e.send("position sfen 6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1 moves 2c2b+");
    e.send("go btime 0 wtime 0 byoyomi 1000");
    let got = e.expect("bestmove", Duration::from_secs(10));
    assert_eq!(got.last().unwrap(), "bestmove resign", "{got:?}");
    assert!(
        got.iter()
            .any(|l| l.starts_with("info string") && l.contains("go mate")),
        "{got:?}"
    );
}

/// The defender's longest defence under tsume rules is never a useless interposition
/// (無駄合): after `G*3i` of the rules doc's example (`tests/data/rules_doc_examples.txt`:
/// best play `G*3i 2h1i 3g1g`), the answer is exactly the doc's rest of the line, while
/// under raw rules the interpositions count and the answer is one ply shorter than the
/// engine's own answer from the attacker's move.
#[test]
fn the_defender_to_move_does_not_choose_a_useless_interposition_under_tsume_rules() {
    let text = common::read_data("rules_doc_examples.txt");
    let example = text
        .lines()
        .find(|l| l.contains("line G*3i 2h1i 3g1g"))
        .unwrap();
    let (sfen, expectation) = example.split_once(" | ").unwrap();
    let doc_line: Vec<&str> = expectation
        .split("line ")
        .nth(1)
        .unwrap()
        .split(['|', ';'])
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    let after = format!("sfen {sfen} moves {}", doc_line[0]);
    let mut e = Engine::start();
    e.send("setoption name Rules value tsume");
    e.send(&format!("position {after}"));
    e.send("go mate 20000");
    let defence = checkmate_moves(&e.expect("checkmate", Duration::from_secs(30)));
    assert_eq!(defence, doc_line[1..], "tsume");
    e.send("setoption name Rules value raw");
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 20000");
    let attack = checkmate_moves(&e.expect("checkmate", Duration::from_secs(30)));
    assert_eq!(attack[0], doc_line[0], "raw: {attack:?}");
    e.send(&format!("position {after}"));
    e.send("go mate 20000");
    let defence = checkmate_moves(&e.expect("checkmate", Duration::from_secs(30)));
    assert_eq!(defence.len(), attack.len() - 1, "raw: {defence:?}");
    assert!(defence.len() > doc_line.len() - 1, "raw: {defence:?}");
    assert_defence_line(
        &after,
        &defence.iter().map(String::as_str).collect::<Vec<_>>(),
    );
}

/// At the end of the rules doc's line `G*3i 2h1i 3g1g` the defender can only interpose
/// uselessly: mated under tsume rules (no move to answer: `checkmate nomate`, and why),
/// while under raw rules the interpositions count and the answer starts with one.
#[test]
fn a_defender_left_only_useless_interpositions_is_mated_under_tsume_rules() {
    let end = "sfen 9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1 moves G*3i 2h1i 3g1g";
    let mut e = Engine::start();
    e.send(&format!("position {end}"));
    e.send("go mate 20000");
    let got = e.expect("checkmate", Duration::from_secs(30));
    assert_eq!(got.last().unwrap(), "checkmate nomate", "{got:?}");
    assert!(
        got.iter()
            .any(|l| l.starts_with("info string") && l.contains("useless interposition")),
        "{got:?}"
    );
    e.send("setoption name Rules value raw");
    e.send("go mate 20000");
    let defence = checkmate_moves(&e.expect("checkmate", Duration::from_secs(30)));
    assert!(defence[0].starts_with("P*"), "{defence:?}");
    assert_defence_line(end, &defence.iter().map(String::as_str).collect::<Vec<_>>());
}
