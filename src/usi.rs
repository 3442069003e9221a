//! `tsume usi`: a USI engine on stdin/stdout for mate search.
//!
//! Commands: `usi`, `isready`, `usinewgame`, `setoption name … value …`, `position`,
//! `go mate <ms>|infinite` (→ `checkmate <moves>|nomate|timeout`), plain `go` (→ `bestmove
//! <first mating move>` or `bestmove resign`), `stop`, `quit`. Other commands are ignored, as
//! USI requires. The search runs on its own thread, so `stop` and `quit` are answered while
//! it runs; a position that cannot be read is reported with `info string` and later `go`
//! commands answer "no mate" / `resign` instead of searching. The command lines are read by
//! [`tsume_solver::usi`] (pure functions, fuzzed); this module carries them out.
//!
//! With the defender to move (the side to move is in check, see [`protocol::root`]), `go
//! mate` searches the defender's node: `checkmate <defender move> <attacker move> …`, a
//! longest defence and best play to mate, or `checkmate nomate` when a defence escapes.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use tsume_solver::dfpn::{Improvement, Outcome, SolveReport};

use crate::live::{nps_field, Live, Snapshot, Ticker};
use tsume_solver::usi::{
    self as protocol, Command, Go, GoKind, Root, Rules, SetOption, MAX_HASH_MB, MAX_THREADS,
};
use tsume_solver::{Limits, Move, Position, Solver, SolverError};

const ENGINE_NAME: &str = concat!("tsume ", env!("CARGO_PKG_VERSION"));
const ENGINE_AUTHOR: &str = "the tsume developers";
const DEFAULT_HASH_MB: usize = 256;
/// Search threads until the GUI sets `Threads` (the same default as `tsume solve`).
const DEFAULT_THREADS: usize = 1;
/// Stack of the thread that runs a `go`: it makes the tables and answers; the search
/// itself recurses on the solver's own search thread.
const SEARCH_SETUP_STACK_BYTES: usize = 8 << 20;
/// The solver of the engine's last search with the `USI_Hash` it was made for, kept for
/// the next one (its tables are cleared, in constant time, before each): a GUI's `USI_Hash`
/// of a gigabyte is otherwise faulted in and zeroed anew for every `go mate` (1.3 s of a
/// 0.2 s search on our machines). `None` until the first search, and remade after
/// `USI_Hash` or `Rules` change.
type KeptSolver = Arc<Mutex<Option<(usize, Solver)>>>;

/// What one `go` asks of the solver.
struct Job {
    rules: Rules,
    /// The side to move is in check and defends (see [`protocol::root`]).
    defender: bool,
    pos: Position,
    hash_mb: usize,
    /// Every limit but the time, which starts once the tables are ready.
    limits: Limits,
    time_limit: Option<Duration>,
}

/// Runs `job` with the kept solver (the answer never depends on it: its tables are cleared
/// first).
///
/// When the `USI_Hash` tables cannot be allocated, smaller ones are tried (halving), each
/// refusal reported through `note`; `Err` when not even 1 MiB can be had.
fn solve(job: &Job, kept: &KeptSolver, note: &dyn Fn(&str)) -> Result<SolveReport, SolverError> {
    let mut slot = kept.lock().unwrap_or_else(|e| e.into_inner());
    if slot
        .as_ref()
        .is_none_or(|(mb, solver)| solver.rules() != Some(job.rules) || *mb != job.hash_mb)
    {
        // The old tables go before the new ones are made: never both in memory.
        *slot = None;
        let mut mb = job.hash_mb;
        let solver = loop {
            match Solver::try_new(mb, job.rules) {
                Ok(s) => break s,
                Err(SolverError::Tables(_)) if mb > 1 => {
                    note(&format!(
                        "USI_Hash {mb} MiB cannot be allocated (not enough memory); trying {} MiB",
                        mb / 2
                    ));
                    mb /= 2;
                }
                Err(e) => return Err(e),
            }
        };
        // Kept under the size asked for, so that the next search does not try again.
        *slot = Some((job.hash_mb, solver));
    }
    let (_, solver) = slot.as_mut().expect("just made");
    let limits = job.limits.clone().with_time_limit(job.time_limit);
    Ok(if job.defender {
        solver.solve_defence(&job.pos, &limits, job.rules)
    } else {
        solver.solve(&job.pos, &limits, job.rules)
    })
}

/// Engine output: whole lines, flushed at once, from the reader and the search thread.
#[derive(Clone)]
struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    fn line(&self, s: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout (the GUI went away) is not our problem to report.
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }
}

struct Options {
    hash_mb: usize,
    threads: usize,
    rules: Rules,
    fill_defender_hand: bool,
}

struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    /// `go infinite`: the answer waits for `stop`.
    wait_for_stop: bool,
    /// No time limit: stopped at the end of the input, which no `stop` can follow.
    unbounded: bool,
    id: u64,
}

struct Engine {
    out: Out,
    options: Options,
    /// The `position` command's arguments, and whether they were readable.
    position: Option<String>,
    running: Option<Running>,
    /// Tells the main loop that the search has answered.
    done_tx: mpsc::Sender<Event>,
    searches: u64,
    solver: KeptSolver,
}

/// What the main loop waits for.
enum Event {
    Line(String),
    /// A line that is not UTF-8 text (shown lossily).
    NotText(String),
    /// The end of the input.
    Eof,
    /// The search thread with this id has sent its answer.
    SearchDone(u64),
}

/// Runs the engine on stdin/stdout until `quit` or the end of input.
pub fn run() {
    run_with(
        Box::new(std::io::BufReader::new(std::io::stdin())),
        Box::new(std::io::stdout()),
    );
}

/// Sends each line of `input` to the main loop as an [`Event`], then [`Event::Eof`].
fn read_lines(mut input: Box<dyn BufRead + Send>, reader_tx: mpsc::Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                // A broken input is its end: say why, then finish as at the end.
                let _ = reader_tx.send(Event::NotText(format!("cannot read the input: {e}")));
                break;
            }
        }
        let bytes = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        // One garbled line (a GUI's encoding, line noise) must not end the session.
        let event = match std::str::from_utf8(bytes) {
            Ok(line) => Event::Line(line.to_string()),
            Err(_) => Event::NotText(format!(
                "ignored a line that is not UTF-8 text: {}",
                String::from_utf8_lossy(bytes)
            )),
        };
        if reader_tx.send(event).is_err() {
            return;
        }
    }
    let _ = reader_tx.send(Event::Eof);
}

/// Runs the engine on the given input and output.
///
/// A reader thread feeds the lines to this loop, so `stop`, `quit`, `isready` and `usi` are
/// answered while a search runs. Other commands that arrive during a search (`position`,
/// `go`, `setoption`, …) wait until it has answered, and then run in order. At the end of
/// the input the queued commands and the running search are finished (a search without a
/// time limit, `go infinite` or `go mate infinite`, is stopped and answers), then the
/// engine exits. A line that is not UTF-8 is reported with `info string` and skipped.
pub fn run_with(input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) {
    let (tx, rx) = mpsc::channel::<Event>();
    let reader_tx = tx.clone();
    std::thread::spawn(move || read_lines(input, reader_tx));
    let mut engine = Engine {
        out: Out(Arc::new(Mutex::new(output))),
        options: Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: DEFAULT_THREADS,
            // The same default as `tsume solve`: the conventions of tsume problems.
            rules: Rules::Tsume,
            fill_defender_hand: false,
        },
        position: Some("startpos".to_string()),
        running: None,
        done_tx: tx,
        searches: 0,
        solver: KeptSolver::default(),
    };
    let mut pending: VecDeque<String> = VecDeque::new();
    let mut eof = false;
    loop {
        while engine.running.is_none() {
            let Some(line) = pending.pop_front() else {
                break;
            };
            if !engine.command(line.trim()) {
                engine.stop_search();
                return;
            }
        }
        if eof {
            // No `stop` can come any more: a search without a time limit (`go infinite`,
            // `go mate infinite`; a GUI that died) is stopped and answers; timed ones
            // finish.
            match &engine.running {
                None => break,
                Some(r) if r.wait_for_stop || r.unbounded => r.stop.store(true, Ordering::Relaxed),
                Some(_) => {}
            }
        }
        let Ok(event) = rx.recv() else { break };
        match event {
            Event::Line(line) => {
                let cmd = line.split_whitespace().next().unwrap_or("");
                let immediate = matches!(cmd, "stop" | "quit" | "isready" | "usi");
                if engine.running.is_some() && !immediate {
                    pending.push_back(line);
                } else if !engine.command(line.trim()) {
                    if engine.running.is_some() {
                        // A script piping `go mate …` then `quit` gets a stopped search's
                        // answer: say why, and how to wait for the real one.
                        engine.info_string(
                            "quit stops the running search; to wait for its answer, end \
                             the input without quit",
                        );
                    }
                    break;
                }
            }
            Event::NotText(message) => engine.info_string(&message),
            Event::Eof => eof = true,
            Event::SearchDone(id) => engine.finished(id),
        }
    }
    engine.stop_search();
}

impl Engine {
    fn info_string(&self, s: &str) {
        self.out.line(&format!("info string {s}"));
    }

    /// Handles one command line; `false` on `quit`.
    fn command(&mut self, line: &str) -> bool {
        match protocol::parse_command(line) {
            Command::Usi => {
                self.out.line(&format!("id name {ENGINE_NAME}"));
                self.out.line(&format!("id author {ENGINE_AUTHOR}"));
                self.out.line(&format!(
                    "option name USI_Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
                ));
                self.out.line(&format!(
                    "option name Threads type spin default {DEFAULT_THREADS} min 1 max {MAX_THREADS}"
                ));
                self.out
                    .line("option name Rules type combo default tsume var tsume var raw");
                self.out
                    .line("option name FillDefenderHand type check default false");
                self.out.line("usiok");
            }
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption(option) => self.setoption(option),
            Command::Position(text) => self.set_position(text),
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop_search(),
            Command::Quit => return false,
            // usinewgame, gameover, ponderhit and anything unknown: ignored, as USI requires.
            Command::UsiNewGame | Command::Ignored => {}
        }
        true
    }

    fn setoption(&mut self, option: SetOption) {
        match option {
            SetOption::Malformed => {
                self.info_string("setoption: expected `setoption name <id> value <x>`")
            }
            SetOption::Hash(mb) => self.options.hash_mb = mb,
            SetOption::BadHash(value) => self.info_string(&format!(
                "USI_Hash must be 1..{MAX_HASH_MB} MiB, got {value:?}; keeping {}",
                self.options.hash_mb
            )),
            SetOption::Threads(n) => self.options.threads = n,
            SetOption::BadThreads(value) => self.info_string(&format!(
                "Threads must be 1..{MAX_THREADS}, got {value:?}; keeping {}",
                self.options.threads
            )),
            SetOption::Rules(rules) => self.options.rules = rules,
            SetOption::BadRules(value) => self.info_string(&format!(
                "Rules must be raw or tsume, got {value:?}; keeping {}",
                self.options.rules.name()
            )),
            SetOption::FillDefenderHand(fill) => self.options.fill_defender_hand = fill,
            SetOption::BadFillDefenderHand(value) => self.info_string(&format!(
                "FillDefenderHand must be true or false, got {value:?}"
            )),
            // USI_Ponder and other GUI-set options: ignored.
            SetOption::Other => {}
        }
    }

    fn set_position(&mut self, text: String) {
        match protocol::position(&text, false) {
            Ok(_) => self.position = Some(text),
            Err(e) => {
                self.info_string(&format!("bad position: {e}"));
                self.position = None;
            }
        }
    }

    fn go(&mut self, go: Go) {
        let Go {
            kind,
            time_limit,
            wait_for_stop,
            warnings,
        } = go;
        for w in &warnings {
            self.info_string(w);
        }
        let (pos, defender) = match self.root(kind) {
            Ok(root) => root,
            Err(msg) => {
                self.out.line(&format!("info string {msg}"));
                self.out.line(no_answer(kind));
                return;
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut limits = Limits {
            threads: self.options.threads,
            stop_flag: Some(stop.clone()),
            ..Limits::default()
        };
        let live = self.live_info(&mut limits);
        let job = Job {
            rules: self.options.rules,
            defender,
            pos,
            hash_mb: self.options.hash_mb,
            limits,
            time_limit,
        };
        let search = Search {
            kind,
            wait_for_stop,
            stop: stop.clone(),
            out: self.out.clone(),
            kept: self.solver.clone(),
            done_tx: self.done_tx.clone(),
        };
        self.searches += 1;
        let id = self.searches;
        let handle = std::thread::Builder::new()
            .name("search".to_string())
            // The deep recursion runs on the solver's own search thread, not this one.
            .stack_size(SEARCH_SETUP_STACK_BYTES)
            .spawn(move || search.run(&job, live, id));
        match handle {
            Ok(handle) => {
                self.running = Some(Running {
                    stop,
                    handle,
                    wait_for_stop,
                    unbounded: time_limit.is_none(),
                    id,
                })
            }
            Err(e) => {
                self.out
                    .line(&format!("info string cannot start the search: {e}"));
                self.out.line(no_answer(kind));
            }
        }
    }

    /// The position of the `position` command and whether its side to move defends, or
    /// why `go` cannot search it.
    fn root(&self, kind: GoKind) -> Result<(Position, bool), NoSearch> {
        let Some(text) = &self.position else {
            return Err(NoSearch::NoPosition);
        };
        let pos = protocol::position(text, self.options.fill_defender_hand)
            .map_err(NoSearch::BadPosition)?;
        // Who defends, read as KomoringHeights does: the side to move when it is in check.
        match protocol::root(&pos) {
            Root::Attacker => Ok((pos, false)),
            Root::Defender if kind == GoKind::Mate => Ok((pos, true)),
            Root::Defender => Err(NoSearch::DefenderForPlainGo),
            Root::NotAProblem(why) => Err(NoSearch::NotAProblem(why)),
        }
    }

    /// Sets `limits`' callbacks to send `info … score mate N pv …` each time the mate gets
    /// shorter (under either rules); the [`Live`] returned feeds the `info time … nodes …
    /// nps … hashfull …` lines of the search's ticker.
    fn live_info(&self, limits: &mut Limits) -> Live {
        let live = Live::new();
        let mate_out = self.out.clone();
        let mate_live = live.clone();
        live.attach(
            limits,
            Some(Arc::new(move |i: &Improvement, elapsed: Duration| {
                let nodes = mate_live.snapshot().nodes.max(i.nodes);
                let pv = match &i.line {
                    Some(line) => format!(" pv {}", usi_line(line)),
                    None => String::new(),
                };
                mate_out.line(&format!(
                    "info time {} nodes {nodes}{} score mate {}{pv}",
                    elapsed.as_millis(),
                    nps_field(nodes, elapsed),
                    i.length
                ));
            })),
        );
        live
    }

    /// Raises the stop flag and waits for the search thread (which sends the answer).
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }

    /// Joins search `id`, which has answered (a stale id, of a search already joined by
    /// `stop`, is ignored).
    fn finished(&mut self, id: u64) {
        if self.running.as_ref().is_some_and(|r| r.id == id) {
            let r = self.running.take().expect("checked");
            let _ = r.handle.join();
        }
    }
}

/// Why a `go` does not search (told to the GUI as `info string <this>`).
#[derive(Debug)]
enum NoSearch {
    /// No `position` command was readable.
    NoPosition,
    /// The `position` command cannot be read (why, from [`protocol::position`]).
    BadPosition(tsume_solver::usi::PositionCommandError),
    /// A plain `go` with the side to move in check: it defends, and only `go mate` searches
    /// its defence.
    DefenderForPlainGo,
    /// Not a mate problem for either side (why, from [`protocol::root`]).
    NotAProblem(&'static str),
}

impl std::fmt::Display for NoSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoSearch::NoPosition => f.write_str("no valid position (see the position error above)"),
            NoSearch::BadPosition(e) => write!(f, "bad position: {e}"),
            NoSearch::DefenderForPlainGo => f.write_str(
                "plain go searches a mate by the side to move, which is in check (the \
                 defender): use go mate for its longest defence",
            ),
            NoSearch::NotAProblem(why) => write!(f, "not a mate problem: {why}"),
        }
    }
}

/// The answer to `go` when there is nothing to search.
fn no_answer(kind: GoKind) -> &'static str {
    match kind {
        GoKind::Mate => "checkmate nomate",
        GoKind::Best => "bestmove resign",
    }
}

/// What the thread of one `go` needs besides its job.
struct Search {
    kind: GoKind,
    /// `go infinite`: the answer waits for `stop`.
    wait_for_stop: bool,
    stop: Arc<AtomicBool>,
    out: Out,
    kept: KeptSolver,
    done_tx: mpsc::Sender<Event>,
}

impl Search {
    /// Solves `job` (a panic or a failure to allocate answered as no mate found), sends
    /// the answer, and tells the main loop that search `id` is done.
    fn run(self, job: &Job, live: Live, id: u64) {
        let note = |s: &str| self.out.line(&format!("info string {s}"));
        let progress_out = self.out.clone();
        let ticker_live = live.clone();
        let ticker = Ticker::start(Duration::from_secs(1), move || {
            progress_out.line(&progress_line(
                &ticker_live.snapshot(),
                ticker_live.elapsed(),
            ));
        });
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            solve(job, &self.kept, &note)
        }));
        drop(ticker);
        // The `info` lines so far were timed from `live`'s start, a little before the
        // solve's own: the last one is timed on the same clock, so that time never goes
        // back.
        let searched = live.elapsed();
        let report = match result {
            Ok(Ok(r)) => Some(r),
            Ok(Err(e)) => {
                note(&format!("no search: {e}"));
                None
            }
            Err(panic) => {
                let why = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("internal error");
                note(&format!("the search failed: {why}"));
                None
            }
        };
        if self.wait_for_stop {
            // `go infinite`: the answer waits for `stop`.
            while !self.stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        answer(&self.out, self.kind, report.as_ref(), searched);
        let _ = self.done_tx.send(Event::SearchDone(id));
    }
}

fn progress_line(s: &Snapshot, elapsed: Duration) -> String {
    format!(
        "info time {} nodes {}{} hashfull {}",
        elapsed.as_millis(),
        s.nodes,
        nps_field(s.nodes, elapsed),
        s.hashfull
    )
}

fn usi_line(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Sends the final `info` and the answer of a finished search (`None`: the search failed),
/// `searched` after the search's `info` lines started their clock.
fn answer(out: &Out, kind: GoKind, report: Option<&SolveReport>, searched: Duration) {
    let Some(report) = report else {
        out.line(match kind {
            GoKind::Mate => "checkmate timeout",
            GoKind::Best => "bestmove resign",
        });
        return;
    };
    let elapsed = report.elapsed.max(searched);
    let stats = format!(
        "info time {} nodes {}{}",
        elapsed.as_millis(),
        report.nodes,
        nps_field(report.nodes, elapsed)
    );
    // The mate and its length: for a search stopped after a mate was proven, the best
    // mate's length (proven: a mate within it) with its line, or the last line read (as
    // `tsume solve` does).
    let mate = match &report.outcome {
        Outcome::Mate { moves } => Some((moves.len(), moves)),
        Outcome::Unknown(_) => report.best().and_then(|best| {
            let line = report
                .improvements
                .iter()
                .rev()
                .find_map(|i| i.line.as_ref());
            line.map(|line| (usize::from(best.length), line))
        }),
        Outcome::NoMate => None,
    };
    match mate {
        Some((_, moves)) if moves.is_empty() => {
            // Tsume rules, a defender's node where every defence is a useless interposition
            // (無駄合): mated by the convention, with no move to give.
            out.line(&stats);
            out.line(
                "info string the side to move is mated under tsume rules: every defence is a \
                 useless interposition (setoption name Rules value raw for a line with one)",
            );
            out.line(match kind {
                GoKind::Mate => "checkmate nomate",
                GoKind::Best => "bestmove resign",
            });
        }
        Some((length, moves)) => {
            out.line(&format!(
                "{stats} score mate {length} pv {}",
                usi_line(moves)
            ));
            match kind {
                GoKind::Mate => out.line(&format!("checkmate {}", usi_line(moves))),
                GoKind::Best => out.line(&format!("bestmove {}", moves[0])),
            }
        }
        None => {
            out.line(&stats);
            let proven_no_mate = matches!(report.outcome, Outcome::NoMate);
            out.line(match (kind, proven_no_mate) {
                (GoKind::Mate, true) => "checkmate nomate",
                (GoKind::Mate, false) => "checkmate timeout",
                (GoKind::Best, _) => "bestmove resign",
            });
        }
    }
}
