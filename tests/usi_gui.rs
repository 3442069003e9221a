//! `tsume` started as the shogi GUIs start an engine, and driven with their command
//! sequences, the replies read the way the GUIs read them (issue 20).
//!
//! ShogiHome (github.com/sunfish-shogi/shogihome, read at commit 040d2921): the engine is a
//! bare executable path, spawned without arguments with its directory as the working
//! directory (`ChildProcess` in `src/background/usi/process.ts`). Registering an engine
//! (`getUSIEngineInfo` in `src/background/usi/index.ts`) sends `usi`, reads `id name`, `id
//! author` and `option` lines until `usiok` (10 s by default, the app's
//! `engineTimeoutSeconds`), then sends `quit` and kills the engine if it has not exited 5 s
//! later (`DefaultQuitTimeout` in `src/background/usi/engine.ts`). A mate search
//! (`MateSearchManager.start` in `src/renderer/store/mate.ts`) launches the engine again:
//! `usi`; on `usiok`, one `setoption name N value V` per option with its saved value (the
//! engine's own options, plus `USI_Ponder`, which `EngineProcess.onUSIOk` adds when the
//! engine does not list it); `isready`; on `readyok`, `usinewgame`, then the record's `position
//! sfen … [moves …]` and `go mate <ms>` (the dialog's seconds × 1000) or `go mate infinite`
//! (`sendReservedGoCommands`). It reads `info …` lines with `parseInfoCommand` and the answer
//! with `onCheckmate`: `checkmate notimplemented` / `timeout` / `nomate`, or moves that
//! `USIPlayer.onCheckmate` (`src/renderer/players/usi.ts`) plays one by one from the
//! searched position, failing on a move it cannot read or play. Stopping the search
//! (`MateSearchManager.close`) sends `quit` during the search, without `stop`.
//!
//! 将棋所 (Shogidokoro): its USI description (http://shogidokoro.starfree.jp/usi.html, the
//! protocol's reference) defines `go mate <ms>|infinite` and the `checkmate` replies; its
//! own sequence is the same `usi` … `isready`, `usinewgame`, `position`, `go mate`, with
//! `USI_Hash` and `USI_Ponder` always set, and `stop` to end a search early.
//!
//! The GUIs themselves are not run here: these tests replay their sequences.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// ShogiHome's default time for `usiok` (`engineTimeoutSeconds`).
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(10);
/// ShogiHome's time between `quit` and killing the engine (`DefaultQuitTimeout`).
const QUIT_TIMEOUT: Duration = Duration::from_secs(5);

/// The mate in 3 of the issue: 1. 2c2b+ 1b1c (or 1b2b…) 2. R*2c.
const MATE3: &str = "6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";
/// ミクロコスモス (1525 plies), see tests/usi.rs: a search on it runs until stopped.
const MICROCOSMOS: &str =
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";

/// The engine as a GUI launches it: the executable alone, no arguments, in its directory.
struct Gui(common::engine::Pipe);

impl Gui {
    fn launch() -> Gui {
        let exe = std::path::Path::new(env!("CARGO_BIN_EXE_tsume"));
        Gui(common::engine::Pipe::spawn(&[], exe.parent(), true))
    }

    fn send(&mut self, cmd: &str) {
        self.0.send(cmd);
    }

    /// Lines up to and including the first that `done` accepts.
    fn until(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        self.0.until("answer", done, timeout)
    }

    /// `quit`, and the process gone before the GUI would kill it.
    fn quit(&mut self) {
        self.send("quit");
        let status = self.0.wait_exit(QUIT_TIMEOUT);
        assert!(status.success(), "{status:?}\n{}", self.0.log.join("\n"));
    }
}

/// An `option` line as ShogiHome's `EngineProcess.onOption` reads it (at least `name <id>
/// type <t>`, then `default`/`min`/`max`/`var` pairs), checked the way its settings
/// validation (`validateUSIEngine` in `src/common/settings/usi.ts`) checks a value: a
/// known type, a numeric spin default within min..max, a combo default among its vars, a
/// check default `true` or `false`. Returns the name and the default.
fn read_option(line: &str) -> (String, String) {
    let args: Vec<&str> = line["option ".len()..].split(' ').collect();
    assert!(
        args.len() >= 4 && args[0] == "name" && args[2] == "type",
        "ShogiHome rejects {line:?}"
    );
    let (name, kind) = (args[1], args[3]);
    assert!(
        ["check", "spin", "combo", "button", "string", "filename"].contains(&kind),
        "{line:?}"
    );
    let mut default = None;
    let (mut min, mut max, mut vars) = (None, None, Vec::new());
    for pair in args[4..].chunks(2) {
        let [key, value] = pair else {
            panic!("a key without a value in {line:?}")
        };
        match *key {
            "default" => default = Some(value.to_string()),
            "min" => min = Some(value.parse::<f64>().expect(line)),
            "max" => max = Some(value.parse::<f64>().expect(line)),
            "var" => vars.push(value.to_string()),
            _ => panic!("unknown key {key:?} in {line:?}"),
        }
    }
    let default = default.unwrap_or_else(|| panic!("no default in {line:?}"));
    match kind {
        "spin" => {
            let v: f64 = default.parse().expect(line);
            assert!(
                min.is_some_and(|m| m <= v) && max.is_some_and(|m| v <= m),
                "{line:?}"
            );
        }
        "combo" => assert!(vars.contains(&default), "{line:?}"),
        "check" => assert!(default == "true" || default == "false", "{line:?}"),
        _ => {}
    }
    (name.to_string(), default)
}

/// `usi` and the lines up to `usiok`, as ShogiHome reads them: each is `id name`, `id
/// author` or an `option` it accepts. Returns the engine's name and its options' defaults.
fn handshake(gui: &mut Gui) -> (String, Vec<(String, String)>) {
    gui.send("usi");
    let got = gui.until(|l| l == "usiok", LAUNCH_TIMEOUT);
    let mut name = None;
    let mut options = Vec::new();
    for line in &got[..got.len() - 1] {
        if let Some(n) = line.strip_prefix("id name ") {
            name = Some(n.to_string());
        } else if line.starts_with("id author ") {
        } else if line.starts_with("option ") {
            options.push(read_option(line));
        } else {
            panic!("ShogiHome ignores {line:?} before usiok: {got:?}");
        }
    }
    (name.expect("no id name"), options)
}

/// An `info` line as ShogiHome's `parseInfoCommand` reads it: the numbers it converts with
/// `Number()` must be numbers (a `score mate` may also be `+`/`-`), `pv` takes the rest of
/// the line, `string` too. Returns the mate score and the pv when there are.
fn read_info(line: &str) -> (Option<i64>, Option<Vec<String>>) {
    let s: Vec<&str> = line["info ".len()..].split(' ').collect();
    let number = |i: usize| -> f64 {
        s.get(i)
            .and_then(|t| t.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("ShogiHome reads NaN at token {i} of {line:?}"))
    };
    let (mut mate, mut pv) = (None, None);
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            "depth" | "seldepth" | "time" | "nodes" | "multipv" | "hashfull" | "nps" => {
                number(i + 1);
                i += 1;
            }
            "currmove" => i += 1,
            "score" => {
                match s.get(i + 1) {
                    Some(&"cp") => {
                        number(i + 2);
                    }
                    Some(&"mate") => mate = Some(number(i + 2) as i64),
                    other => panic!("score {other:?} in {line:?}"),
                }
                i += 2;
            }
            "pv" => {
                pv = Some(s[i + 1..].iter().map(|m| m.to_string()).collect());
                break;
            }
            "string" => break,
            _ => {}
        }
        i += 1;
    }
    (mate, pv)
}

/// What the GUI makes of the answer to `go mate` (`EngineProcess.onCheckmate`).
#[derive(Debug, PartialEq)]
enum Answer {
    NotImplemented,
    Timeout,
    NoMate,
    /// The moves, each read and played from the searched position.
    Mate(Vec<String>),
}

/// The GUI's side of a mate search on `position` (a whole `position …` command): the
/// options set, `isready`, `usinewgame`, `position`, `go` (e.g. `go mate 10000`); then the
/// lines up to `checkmate …`, every `info` read as ShogiHome reads it, no `bestmove`. A
/// mate's moves are played from the position as `USIPlayer.onCheckmate` plays them.
fn mate_search(gui: &mut Gui, setoptions: &[String], position: &str, go: &str) -> Answer {
    for s in setoptions {
        gui.send(s);
    }
    gui.send("isready");
    gui.until(|l| l == "readyok", LAUNCH_TIMEOUT);
    gui.send("usinewgame");
    gui.send(position);
    gui.send(go);
    let got = gui.until(|l| l.starts_with("checkmate "), Duration::from_secs(60));
    let mut last_pv = None;
    for line in &got[..got.len() - 1] {
        assert!(!line.starts_with("bestmove"), "{got:?}");
        if line.starts_with("info ") {
            let (mate, pv) = read_info(line);
            if let (Some(mate), Some(pv)) = (mate, pv) {
                assert_eq!(mate as usize, pv.len(), "{line:?}");
                last_pv = Some(pv);
            }
        }
    }
    let args = got.last().unwrap()["checkmate ".len()..].trim();
    match args {
        "notimplemented" => Answer::NotImplemented,
        "timeout" => Answer::Timeout,
        "nomate" => Answer::NoMate,
        _ => {
            let moves: Vec<String> = args.split(' ').map(str::to_string).collect();
            let mut pos = tsume_solver::usi::position(
                position.strip_prefix("position ").expect(position),
                false,
            )
            .expect("the GUI's position");
            for m in &moves {
                let mv = pos
                    .parse_move(m)
                    .unwrap_or_else(|e| panic!("the GUI cannot read or play {m}: {e}: {got:?}"));
                pos.do_move(mv);
            }
            assert!(pos.is_checkmate(), "the line does not end in mate: {got:?}");
            // The GUI shows the last pv with the answer: the same line.
            assert_eq!(last_pv.as_ref(), Some(&moves), "{got:?}");
            Answer::Mate(moves)
        }
    }
}

/// The `setoption` lines ShogiHome sends at launch for an engine registered with its
/// defaults: each option the engine listed, then `USI_Ponder` (added by the GUI).
fn shogihome_setoptions(options: &[(String, String)]) -> Vec<String> {
    let mut lines: Vec<String> = options
        .iter()
        .map(|(name, value)| format!("setoption name {name} value {value}"))
        .collect();
    if !options.iter().any(|(n, _)| n == "USI_Ponder") {
        lines.push("setoption name USI_Ponder value true".to_string());
    }
    lines
}

/// Registering the engine in ShogiHome: `usi` answered within its launch timeout with lines
/// it accepts (the options a user sets: `USI_Hash`, `Rules`, `FillDefenderHand`), and `quit`
/// obeyed before it would kill the engine.
#[test]
fn shogihome_registers_the_engine_started_without_arguments() {
    let mut gui = Gui::launch();
    let (name, options) = handshake(&mut gui);
    assert!(name.starts_with("tsume "), "{name}");
    let names: Vec<&str> = options.iter().map(|(n, _)| n.as_str()).collect();
    for wanted in ["USI_Hash", "Rules", "FillDefenderHand"] {
        assert!(names.contains(&wanted), "{names:?}");
    }
    gui.quit();
}

/// ShogiHome's mate search, with and without its time limit: a mate from the attacker's
/// move, the defender's line when the record is stepped one ply into the solution, no mate,
/// a timeout; then "Stop Mate Search" (`quit` during `go mate infinite`).
#[test]
fn shogihome_mate_search_sequences() {
    let mut gui = Gui::launch();
    let (_, options) = handshake(&mut gui);
    let setoptions = shogihome_setoptions(&options);
    // The dialog's default limit: 10 seconds, sent as milliseconds.
    let answer = mate_search(
        &mut gui,
        &setoptions,
        &format!("position sfen {MATE3}"),
        "go mate 10000",
    );
    let Answer::Mate(moves) = answer else {
        panic!("{answer:?}")
    };
    assert_eq!(moves.len(), 3, "{moves:?}");
    gui.quit();

    // Each search is a new launch, as `MateSearchManager.start` does it.
    let mut gui = Gui::launch();
    handshake(&mut gui);
    let answer = mate_search(
        &mut gui,
        &setoptions,
        &format!("position sfen {MATE3} moves 2c2b+"),
        "go mate infinite",
    );
    assert_eq!(answer, Answer::Mate(vec!["1b1c".into(), "R*2c".into()]));
    gui.quit();

    // The king takes the lone gold: "No mate." in the GUI.
    let mut gui = Gui::launch();
    handshake(&mut gui);
    let answer = mate_search(
        &mut gui,
        &setoptions,
        "position sfen 4k4/9/9/9/9/9/9/9/9 b Gr2b3g4s4n4l18p 1 moves G*5b",
        "go mate infinite",
    );
    assert_eq!(answer, Answer::NoMate);
    gui.quit();

    // The shortest limit the dialog allows (1 second): `checkmate timeout` in time.
    let mut gui = Gui::launch();
    handshake(&mut gui);
    let start = Instant::now();
    let answer = mate_search(
        &mut gui,
        &setoptions,
        &format!("position sfen {MICROCOSMOS}"),
        "go mate 1000",
    );
    assert_eq!(answer, Answer::Timeout);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    gui.quit();

    // "Stop Mate Search": `quit` while `go mate infinite` runs.
    let mut gui = Gui::launch();
    handshake(&mut gui);
    for s in &setoptions {
        gui.send(s);
    }
    gui.send("isready");
    gui.until(|l| l == "readyok", LAUNCH_TIMEOUT);
    gui.send("usinewgame");
    gui.send(&format!("position sfen {MICROCOSMOS}"));
    gui.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(300));
    gui.quit();
}

/// 将棋所's 詰将棋解答 as its USI description defines it: `USI_Hash` and `USI_Ponder` set,
/// `go mate <ms>` or `go mate infinite`, and `stop` ending an infinite search early with
/// `checkmate timeout` when no mate was found.
#[test]
fn shogidokoro_mate_search_sequences() {
    let mut gui = Gui::launch();
    handshake(&mut gui);
    let setoptions = vec![
        "setoption name USI_Hash value 256".to_string(),
        "setoption name USI_Ponder value false".to_string(),
        "setoption name Rules value tsume".to_string(),
    ];
    let answer = mate_search(
        &mut gui,
        &setoptions,
        &format!("position sfen {MATE3}"),
        "go mate 5000",
    );
    assert!(
        matches!(&answer, Answer::Mate(m) if m.len() == 3),
        "{answer:?}"
    );
    // The same engine process, the next problem.
    let answer = mate_search(
        &mut gui,
        &[],
        &format!("position sfen {MATE3} moves 2c2b+"),
        "go mate infinite",
    );
    assert_eq!(answer, Answer::Mate(vec!["1b1c".into(), "R*2c".into()]));
    // Stopped by the user.
    gui.send(&format!("position sfen {MICROCOSMOS}"));
    gui.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    gui.send("stop");
    let got = gui.until(|l| l.starts_with("checkmate "), Duration::from_secs(5));
    assert_eq!(got.last().unwrap(), "checkmate timeout", "{got:?}");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    gui.quit();
}

/// Started without arguments but not by a GUI: the usage error it always was (exit 2), with
/// what was read, never a hang or a panic.
#[test]
fn without_arguments_a_first_line_other_than_usi_is_bad_input() {
    for (input, why) in [
        (&b"solve\n"[..], "the first line was \"solve\""),
        (&b""[..], "the standard input ended"),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tsume"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(why) && err.contains("Usage: tsume"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(o.stdout.is_empty());
    }
}

/// A GUI on Windows (将棋所 is a .NET program) ends its lines with CR LF: the first line
/// `usi\r\n` still starts the engine, and the session goes on.
#[test]
fn without_arguments_a_first_line_usi_with_crlf_starts_the_engine() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsume"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            format!("\r\nusi\r\nisready\r\nposition sfen {MATE3}\r\ngo mate 5000\r\nquit\r\n")
                .as_bytes(),
        )
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.contains(&"usiok") && lines.contains(&"readyok"),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("checkmate ") && l.split(' ').count() == 4),
        "{out}"
    );
}
