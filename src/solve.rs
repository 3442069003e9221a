//! `tsume solve`: one position, solved under raw or tsume rules, answered as text, JSON or
//! a KIF/CSA record.
//!
//! A mate found is reported as a mate as soon as it is found: when a limit stops the
//! search before the mate is proven shortest, the answer is the best mate so far with the
//! lower bound proven so far (`Answer`), and the text and the JSON say the same.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use serde::Serialize;
use tsume_solver::dfpn::search::{Stop, Unsettled};
use tsume_solver::dfpn::{Outcome, SolveReport};
use tsume_solver::usi::Root;
use tsume_solver::{notation, tsume, Color, Limits, Move, Plies, Position, Rules, Solver};

use crate::live::{self, Live, Ticker};
use crate::{bad_input, exit, input, parse_time_limit};

/// The options of `tsume solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// Position as SFEN (quote it), optionally followed by `moves m1 m2 …` (USI: the
    /// position after them is solved), also written as a USI command (`position sfen …
    /// [moves …]`, `position startpos moves …`); or a KIF (.kif Shift-JIS, .kifu UTF-8) or
    /// CSA (.csa) file, whose starting position is solved (its moves, a problem's solution,
    /// are not played); another file is read by its content (a KIF or CSA record, or one
    /// SFEN line, read as the argument would be); `-` reads standard input so. The defender's hand is taken as written unless
    /// --fill-defender-hand is given.
    sfen: String,
    /// How to read the position (auto: KIF or CSA by file extension, else SFEN).
    #[arg(long, value_enum, default_value_t = input::Format::Auto)]
    format: input::Format,
    /// What to print: text, the solution as a KIF or CSA record, or one line `<sfen> moves
    /// <solution>` (as `tsume verify` reads a problem).
    #[arg(long, value_enum, default_value_t = input::Output::Text, conflicts_with = "json")]
    output: input::Output,
    /// Length convention: tsume (useless interpositions not counted, the problem-book
    /// answer) or raw (every legal defence counts).
    #[arg(long, value_enum, default_value_t = Rules::Tsume)]
    rules: Rules,
    /// Transposition table size in MiB, 1–65536.
    #[arg(long, default_value_t = 256, value_parser = crate::whole_number(1, 65536), allow_negative_numbers = true)]
    hash: u64,
    /// Threads searching together, 1–1024, sharing the --hash table (the answer is the same
    /// at any count; only the line shown may differ among equally good ones).
    #[arg(long, default_value_t = 1, value_parser = crate::whole_number(1, 1024), allow_negative_numbers = true)]
    threads: u64,
    /// Nodes each search spends alone before the other --threads join (for measurement).
    #[arg(long, hide = true, value_parser = crate::whole_number(0, u64::MAX), allow_negative_numbers = true)]
    warm_up_nodes: Option<u64>,
    /// Stop after this many seconds (answer: the best mate found so far, or unknown).
    #[arg(long, value_parser = crate::seconds, allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Stop after this many nodes (answer: the best mate found so far, or unknown); with
    /// --threads, each thread's (the nodes shown are all threads').
    #[arg(long, allow_negative_numbers = true, value_parser = crate::whole_number(1, u64::MAX))]
    nodes: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Give the defender every piece not on the board or in the attacker's hand.
    #[arg(long)]
    fill_defender_hand: bool,
    /// Add the defender's alternatives at each defender ply of the line, with their
    /// values (plies to mate from the defence; tsume rules only). Text: one line per
    /// defender ply that has any, longest first (`useless`: a useless interposition);
    /// JSON: `variations` (`null` value: a useless interposition).
    #[arg(long)]
    variations: bool,
}

/// What a tsume-rules solve adds: the other mating last moves, and (with --variations) the
/// defender's alternatives along the line (`Some(None)`: not found within the limits).
struct TsumeExtras {
    final_alternatives: Vec<Move>,
    variations: Option<Option<Vec<tsume::DefenderPly>>>,
}

pub fn run(args: SolveArgs) -> ExitCode {
    if args.variations && args.rules != Rules::Tsume {
        return bad_input("--variations needs --rules tsume");
    }
    if args.variations && args.output != input::Output::Text {
        return bad_input(
            "--variations is for the text and JSON answers: a KIF or CSA record holds the \
             line only",
        );
    }
    // Options first: a bad one is told before any note about the position.
    let time_limit = match parse_time_limit(args.time_limit) {
        Ok(t) => t,
        Err(e) => return bad_input(e),
    };
    let (pos, defender_to_move, headers) = match read_position(&args) {
        Ok(p) => p,
        Err(e) => return bad_input(e),
    };
    note_threads(args.threads);
    // The tables and the search thread are made here, fallibly: a --hash or an
    // address-space limit the machine cannot meet is bad input, not an abort.
    let mut solver = match Solver::try_new(args.hash as usize, args.rules) {
        Ok(s) => s,
        Err(e) => return bad_input(e),
    };
    // Ctrl-C stops the search and the answer so far is printed (see `interrupt`).
    let interrupted = crate::interrupt::watch();
    let mut limits = Limits {
        node_limit: args.nodes,
        threads: args.threads as usize,
        warm_up_nodes: args.warm_up_nodes,
        stop_flag: interrupted.clone(),
        ..Limits::default()
    };
    // On a terminal, a progress line on stderr, rewritten in place once a second.
    let ticker = std::io::stderr().is_terminal().then(|| {
        let live = Live::new();
        live.attach(&mut limits, None);
        Ticker::start(Duration::from_secs(1), move || {
            let text = live::progress_text(&live.snapshot(), live.elapsed());
            eprint!("\r\x1b[K{text}");
        })
    });
    // One clock for the solve and its variations.
    let limits = limits.with_time_limit(time_limit);
    let (report, tsume_extras) = solve(&mut solver, &pos, &limits, &args, defender_to_move);
    if let Some(ticker) = ticker {
        drop(ticker);
        eprint!("\r\x1b[K");
    }
    let answer = Answer::of(&report, args.rules);
    let text = match args.output {
        input::Output::Text if args.json => {
            json_text(&answer, &report, args.rules, tsume_extras.as_ref())
        }
        input::Output::Text => {
            text_answer(&pos, &answer, &report, args.rules, tsume_extras.as_ref())
        }
        output => record_answer(&pos, &answer, &report, output, &headers),
    };
    if let Err(e) = crate::output::write_stdout(&text) {
        return bad_input(format!("writing the answer: {e}"));
    }
    crate::interrupt::end_if_raised(interrupted.as_deref());
    ExitCode::from(answer.exit_code())
}

/// The headers of an input record (KIF keys; none for an SFEN).
type Headers = Vec<(String, String)>;

/// The position to solve, whether its side to move defends, and the input record's
/// headers, with the notes that go with them on stderr; `Err` for bad input.
fn read_position(args: &SolveArgs) -> Result<(Position, bool, Headers), PositionInputError> {
    let (pos, moves_played, headers) =
        input::load_problem(&args.sfen, args.format).and_then(|problem| {
            Ok((
                problem.position(args.fill_defender_hand)?,
                problem.moves.len(),
                problem.headers,
            ))
        })?;
    let defender_to_move = defender_to_move(&pos, moves_played)?;
    if defender_to_move && args.variations {
        return Err(PositionInputError::VariationsForDefender);
    }
    if defender_to_move {
        eprintln!(
            "note: {} is to move and in check: it defends, {} attacks; the line starts with \
             {}'s longest defence and the length counts it",
            color_name(pos.side_to_move()),
            color_name(!pos.side_to_move()),
            color_name(pos.side_to_move())
        );
    }
    let missing = pos.missing_pieces();
    if !missing.is_empty() {
        // The commonest slip: an SFEN that gives only the attacker's hand. The position is
        // solved as written, but the user is told.
        eprintln!(
            "note: the pieces {} are neither on the board nor in a hand; a tsume problem \
             gives them to the defender: add --fill-defender-hand (docs/rules.md §2)",
            // Spelt in the defender's letters, as it would be in the SFEN.
            missing.to_sfen((pos.side_to_move() == Color::White) != defender_to_move)
        );
    }
    Ok((pos, defender_to_move, headers))
}

/// Who attacks, as `tsume usi` reads it: the side to move, unless it is in check, when it
/// defends and the answer is its longest defence and the mate after it.
fn defender_to_move(pos: &Position, moves_played: usize) -> Result<bool, PositionInputError> {
    match tsume_solver::usi::root(pos) {
        Root::Attacker => Ok(false),
        Root::Defender => Ok(true),
        Root::NotAProblem(_) if !pos.in_check() && moves_played > 0 => {
            Err(PositionInputError::NoKingAfterMoves {
                moves_played,
                attacker: pos.side_to_move(),
            })
        }
        Root::NotAProblem(_) if !pos.in_check() => Err(PositionInputError::NoKing),
        Root::NotAProblem(why) => Err(PositionInputError::NotAProblem { why, moves_played }),
    }
}

/// Why the position of `tsume solve` is bad input.
#[derive(Debug)]
enum PositionInputError {
    /// The argument or its moves cannot be read.
    Input(input::InputError),
    /// After the `moves_played` moves given, `attacker` is to move, not in check, and the
    /// defender has no king.
    NoKingAfterMoves {
        moves_played: usize,
        attacker: Color,
    },
    /// The side to move is not in check and the other side has no king.
    NoKing,
    /// Not a mate problem for either side (why, from [`tsume_solver::usi::root`]) after the
    /// `moves_played` moves given, if any (a pack line's `moves` are its solution, and
    /// `solve` plays them first).
    NotAProblem {
        why: &'static str,
        moves_played: usize,
    },
    /// `--variations` with the defender to move.
    VariationsForDefender,
}

impl From<input::InputError> for PositionInputError {
    fn from(e: input::InputError) -> PositionInputError {
        PositionInputError::Input(e)
    }
}

impl std::fmt::Display for PositionInputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionInputError::Input(e) => write!(f, "{e}"),
            PositionInputError::NoKingAfterMoves {
                moves_played,
                attacker,
            } => write!(
                f,
                "after the {moves_played} move{} given, {} is to move and attacks, and the \
                 defender has no king to mate (the position after the moves is solved)",
                if *moves_played == 1 { "" } else { "s" },
                color_name(*attacker)
            ),
            PositionInputError::NoKing => f.write_str(
                "the defender (the side not to move) has no king to mate: the side to move \
                 attacks (`b` Black, `w` White); is the side field the wrong way round?",
            ),
            PositionInputError::NotAProblem {
                why,
                moves_played: 0,
            } => write!(f, "not a mate problem: {why}"),
            PositionInputError::NotAProblem { why, moves_played } => write!(
                f,
                "not a mate problem after the {moves_played} move{} given: {why} (`moves …` \
                 are played before the solve; to solve a pack line's problem give its SFEN \
                 alone, or check the line with `tsume verify`)",
                if *moves_played == 1 { "" } else { "s" },
            ),
            PositionInputError::VariationsForDefender => f.write_str(
                "--variations needs the attacker to move: here the side to move is in check \
                 and defends (solve the position after its defence for the variations)",
            ),
        }
    }
}

/// Tells when --threads is more than the machine's cores.
fn note_threads(threads: u64) {
    if let Ok(cores) = std::thread::available_parallelism() {
        if threads as usize > cores.get() {
            // Measured (benches/RESULTS.md §57e): 8 threads on 2 cores take about what 2 do,
            // with 1.15–2 times one thread's nodes.
            eprintln!(
                "note: --threads {threads} is more than this machine's {cores} cores: the \
                 extra threads only share them (benches/RESULTS.md §57e)"
            );
        }
    }
}

/// The solve, and under tsume rules what it adds: the variations (with --variations) go on
/// in the solve's tables, under the same deadline and with the nodes the solve left.
fn solve(
    solver: &mut Solver,
    pos: &Position,
    limits: &Limits,
    args: &SolveArgs,
    defender_to_move: bool,
) -> (SolveReport, Option<TsumeExtras>) {
    let report = if defender_to_move {
        solver.solve_defence(pos, limits, args.rules)
    } else {
        solver.solve(pos, limits, args.rules)
    };
    if args.rules != Rules::Tsume {
        return (report, None);
    }
    let variations = match (&report.outcome, args.variations) {
        (Outcome::Mate { moves }, true) => {
            let left = Limits {
                node_limit: limits.node_limit.map(|n| n.saturating_sub(report.nodes)),
                ..limits.clone()
            };
            Some(solver.variations(pos, moves, &left).ok())
        }
        _ => None,
    };
    let extras = TsumeExtras {
        final_alternatives: report.final_alternatives.clone(),
        variations,
    };
    (report, Some(extras))
}

/// The answer as a KIF or CSA record, with the input record's headers (a limit reached is
/// noted on stderr).
fn record_answer(
    pos: &Position,
    answer: &Answer,
    report: &SolveReport,
    output: input::Output,
    headers: &[(String, String)],
) -> String {
    if let Answer::Mate {
        stopped: Some(stop),
        ..
    } = answer
    {
        eprintln!("note: {}: {}", unsettled_reason(*stop), answer.headline());
    }
    input::record_text(
        pos,
        answer.moves(),
        answer.record_ending(),
        report,
        output,
        headers,
    )
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The answer of a solve, read once for every output.
pub enum Answer<'r> {
    /// A mate: proven shortest when `lower_bound == length`.
    Mate {
        /// The attacker mates within this many plies against every defence (under
        /// `line_rules`; under tsume rules a raw length bounds the tsume length from
        /// above).
        length: Plies,
        /// Every mate shorter than this is proven impossible.
        lower_bound: Plies,
        /// The line: best play when the search ended; when a limit stopped it, a mating
        /// line read from the table when a mate was proven (every attacker move checks, it
        /// ends in mate; the defender's moves are not necessarily the longest, so it may be
        /// shorter than `length`, or longer when the best mate's own line had been lost
        /// from the table). `None` if no line could be read.
        moves: Option<&'r [Move]>,
        /// The convention of `length` and `moves`.
        line_rules: Rules,
        /// Why the search ended before the answer was settled (a limit, but for a
        /// contradiction between searches), if it did.
        stopped: Option<Unsettled>,
    },
    NoMate,
    /// A limit stopped the search (or the searches contradicted each other) before any
    /// mate was found.
    Unknown(Unsettled),
}

impl<'r> Answer<'r> {
    pub fn of(report: &'r SolveReport, rules: Rules) -> Answer<'r> {
        match &report.outcome {
            Outcome::Mate { moves } => Answer::Mate {
                length: Plies::of_line(moves),
                lower_bound: Plies::of_line(moves),
                moves: Some(moves),
                line_rules: rules,
                stopped: None,
            },
            Outcome::NoMate => Answer::NoMate,
            Outcome::Unknown(stop) => match report.best() {
                Some(best) => Answer::Mate {
                    length: best.length,
                    // Never above the length (the bounds come from different searches).
                    lower_bound: report.lower_bound.min(best.length),
                    // The best mate's line if the table still held it when it was found,
                    // else the line of the last mate that had one (a longer bound).
                    moves: report
                        .improvements
                        .iter()
                        .rev()
                        .find_map(|i| i.line.as_deref()),
                    line_rules: best.rules,
                    stopped: Some(*stop),
                },
                None => Answer::Unknown(*stop),
            },
        }
    }

    /// The exit code of `tsume solve` (see `crate::exit`): any mate found is a success.
    pub fn exit_code(&self) -> u8 {
        match self {
            Answer::Mate { .. } => exit::SUCCESS,
            Answer::NoMate => exit::NEGATIVE,
            Answer::Unknown(_) => exit::UNKNOWN,
        }
    }

    fn moves(&self) -> &'r [Move] {
        match self {
            Answer::Mate {
                moves: Some(moves), ..
            } => moves,
            _ => &[],
        }
    }

    fn record_ending(&self) -> tsume_solver::kif::Ending {
        use tsume_solver::kif::Ending;
        match self {
            Answer::Mate { moves: Some(_), .. } => Ending::Mate,
            Answer::NoMate => Ending::NoMate,
            _ => Ending::Interrupt,
        }
    }

    /// The first line of the text output.
    pub fn headline(&self) -> String {
        match self {
            Answer::Mate {
                length,
                lower_bound,
                ..
            } if lower_bound >= length => format!("mate in {length}"),
            Answer::Mate {
                length,
                lower_bound,
                ..
            } => format!(
                "mate in {length} ({})",
                unproven_note(*length, *lower_bound)
            ),
            Answer::NoMate => "no mate".to_string(),
            Answer::Unknown(why) => format!("unknown ({})", unsettled_reason(*why)),
        }
    }
}

/// `not proven shortest; no mate within N` (the lower bound's part when one is known).
fn unproven_note(length: Plies, lower_bound: Plies) -> String {
    debug_assert!(lower_bound < length);
    if lower_bound > Plies::new(1) {
        format!(
            "not proven shortest; no mate within {}",
            lower_bound.minus(2)
        )
    } else {
        "not proven shortest".to_string()
    }
}

/// Why the answer is not settled, for the text output: `node limit reached`, ….
fn unsettled_reason(why: Unsettled) -> &'static str {
    match why {
        Unsettled::Limit(Stop::Nodes) => "node limit reached",
        Unsettled::Limit(Stop::Time) => "time limit reached",
        // Only Ctrl-C stops a solve of this command on request.
        Unsettled::Limit(Stop::Requested) => "interrupted",
        Unsettled::Inconsistent => "the searches contradicted each other",
        Unsettled::CutShort => "equally long defences left untried",
    }
}

/// Moves in USI, space separated.
fn usi_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn usi_list(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// The `--json` object. Fields that do not apply are left out.
#[derive(Serialize)]
struct SolveJson {
    status: &'static str,
    rules: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    length: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shortest: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_bound: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line_rules: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    final_alternatives: Option<Vec<String>>,
    /// `Some(None)`: asked for but not found within the limits (`null`).
    #[serde(skip_serializing_if = "Option::is_none")]
    variations: Option<Option<Vec<VariationJson>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<&'static str>,
    nodes: u64,
    time_ms: u64,
    improvements: Vec<ImprovementJson>,
    /// The raw mates proven on the way, as `[length, nodes so far]` (with a mate).
    #[serde(skip_serializing_if = "Option::is_none")]
    proofs: Option<Vec<[u64; 2]>>,
}

#[derive(Serialize)]
struct ImprovementJson {
    length: u16,
    line_rules: &'static str,
    nodes: u64,
    time_ms: u64,
}

#[derive(Serialize)]
struct VariationJson {
    ply: usize,
    alternatives: Vec<AlternativeJson>,
}

#[derive(Serialize)]
struct AlternativeJson {
    #[serde(rename = "move")]
    mv: String,
    value: Option<u16>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    useless: bool,
}

/// The `--json` answer: one line.
fn json_text(
    answer: &Answer,
    report: &SolveReport,
    rules: Rules,
    tsume_extras: Option<&TsumeExtras>,
) -> String {
    let mut obj = SolveJson {
        status: match answer {
            Answer::Mate { .. } => "mate",
            Answer::NoMate => "nomate",
            Answer::Unknown(_) => "unknown",
        },
        rules: rules.name(),
        length: None,
        shortest: None,
        lower_bound: None,
        line_rules: None,
        moves: None,
        final_alternatives: None,
        variations: None,
        stopped: None,
        nodes: report.nodes,
        time_ms: report.elapsed.as_millis() as u64,
        improvements: report
            .improvements
            .iter()
            .map(|i| ImprovementJson {
                length: i.length.get(),
                line_rules: i.rules.name(),
                nodes: i.nodes,
                time_ms: i.elapsed.as_millis() as u64,
            })
            .collect(),
        proofs: None,
    };
    match answer {
        Answer::Mate {
            length,
            lower_bound,
            moves,
            line_rules,
            stopped,
        } => {
            obj.length = Some(length.get());
            obj.shortest = Some(if lower_bound >= length {
                "proven"
            } else {
                "unproven"
            });
            obj.lower_bound = Some(lower_bound.get());
            obj.line_rules = Some(line_rules.name());
            obj.moves = moves.map(usi_list);
            obj.stopped = stopped.map(stop_key);
            obj.proofs = Some(
                report
                    .proofs
                    .iter()
                    .map(|&(l, n)| [u64::from(l), n])
                    .collect(),
            );
            if let (Some(extras), None) = (tsume_extras, stopped) {
                obj.final_alternatives = Some(usi_list(&extras.final_alternatives));
                obj.variations = extras
                    .variations
                    .as_ref()
                    .map(|v| v.as_deref().map(variations_json));
            }
        }
        Answer::NoMate => {}
        Answer::Unknown(why) => obj.stopped = Some(stop_key(*why)),
    }
    serde_json::to_string(&obj).expect("plain data serialises") + "\n"
}

/// The `variations` of the JSON.
fn variations_json(plies: &[tsume::DefenderPly]) -> Vec<VariationJson> {
    plies
        .iter()
        .map(|p| VariationJson {
            ply: p.ply,
            alternatives: p
                .alternatives
                .iter()
                .map(|&(m, v)| AlternativeJson {
                    mv: m.to_string(),
                    value: v.map(Plies::get),
                    useless: v.is_none(),
                })
                .collect(),
        })
        .collect()
}

/// The defender's alternatives as problem reviewers read them: a heading, then one line
/// per defender ply that has alternatives: the ply, the defence played and its plies to
/// mate, then the others, longest first, useless interpositions last:
///
/// ```text
/// variations (ply: defence played, plies to mate | the other defences):
///   2: △同玉 2b3a 4 | △１二玉 2b1b 2, △３二歩打 P*3b useless
/// ```
fn variations_text(pos: &Position, moves: &[Move], plies: &[tsume::DefenderPly]) -> String {
    let plies: Vec<_> = plies
        .iter()
        .filter(|p| !p.alternatives.is_empty())
        .collect();
    if plies.is_empty() {
        return "variations: none (no defender ply of the line has another defence)\n".to_string();
    }
    let mut out =
        "variations (ply: defence played, plies to mate | the other defences):\n".to_string();
    for ply in plies {
        let Some(played) = moves.get(ply.ply - 1) else {
            continue;
        };
        // The position before the defence, and the attacker move it answers (for 同).
        let mut before = pos.clone();
        for &m in &moves[..ply.ply - 1] {
            before.do_move(m);
        }
        let previous_to = ply.ply.checked_sub(2).map(|i| moves[i].to());
        let name = |m: Move| {
            format!(
                "{}{} {m}",
                notation::side_mark(before.side_to_move()),
                notation::japanese_move(&before, m, previous_to)
            )
        };
        let mut alternatives = ply.alternatives.clone();
        // Longest first; a useless interposition (no value) last.
        alternatives.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        let others: Vec<String> = alternatives
            .iter()
            .map(|&(m, v)| match v {
                Some(v) => format!("{} {v}", name(m)),
                None => format!("{} useless", name(m)),
            })
            .collect();
        out += &format!(
            "  {}: {} {} | {}\n",
            ply.ply,
            name(*played),
            moves.len() + 1 - ply.ply,
            others.join(", ")
        );
    }
    out
}

/// The `stopped` value of the JSON.
fn stop_key(why: Unsettled) -> &'static str {
    match why {
        Unsettled::Limit(Stop::Nodes) => "node_limit",
        Unsettled::Limit(Stop::Time) => "time_limit",
        Unsettled::Limit(Stop::Requested) => "stop",
        Unsettled::Inconsistent => "inconsistent",
        Unsettled::CutShort => "cut_short",
    }
}

/// The text answer.
fn text_answer(
    pos: &Position,
    answer: &Answer,
    report: &SolveReport,
    rules: Rules,
    tsume_extras: Option<&TsumeExtras>,
) -> String {
    let mut out = answer.headline() + "\n";
    if let Answer::Mate {
        moves,
        line_rules,
        stopped,
        length,
        lower_bound,
    } = answer
    {
        if let Some(moves) = moves {
            out += &format!("{}\n", usi_moves(moves));
            out += &format!("{}\n", notation::japanese_line(pos, moves));
        }
        match (stopped, tsume_extras) {
            (None, Some(extras)) if !extras.final_alternatives.is_empty() => {
                out += &format!(
                    "other mating last moves: {}\n",
                    usi_moves(&extras.final_alternatives)
                )
            }
            (None, _) => {}
            (Some(stop), _) => {
                out += &format!(
                    "{}: {}\n",
                    unsettled_reason(*stop),
                    match (line_rules, rules == Rules::Tsume, moves) {
                        (Rules::Tsume, _, _) if *stop == Unsettled::CutShort => {
                            "the value is proven; this line ends with pieces left over, and a \
                             best-play line 2 plies shorter without may exist"
                                .to_string()
                        }
                        (Rules::Tsume, _, moves) if lower_bound < length => format!(
                            "the tsume length is at most {length} ({} if best play must end with \
                             pieces left over); {}",
                            length.plus(2),
                            match moves {
                                Some(moves) => format!(
                                    "the line is a tsume mate read from the searches ({} plies; \
                                     the defender's moves not necessarily the longest)",
                                    moves.len()
                                ),
                                None => "no line could be read".to_string(),
                            }
                        ),
                        (Rules::Tsume, _, _) => {
                            "best play is proven; the other mating last moves are not known"
                                .to_string()
                        }
                        (Rules::Raw, tsume, Some(moves)) => format!(
                            "{}{} ({} plies; the defender's moves not necessarily the longest)",
                            if tsume {
                                format!(
                                    "the tsume length is at most {length}, the raw length of the \
                                 mate found (every defence counted, useless interpositions \
                                 included); "
                                )
                            } else if lower_bound >= length {
                                "the length is proven shortest, its best-play line was not \
                                 finished; "
                                    .to_string()
                            } else {
                                String::new()
                            },
                            if Plies::of_line(moves) > *length {
                                "the line is an earlier, longer mate's: the table no longer held \
                                 the shorter one's"
                            } else {
                                "the line is a mate read from the table under raw rules"
                            },
                            moves.len()
                        ),
                        (Rules::Raw, _, None) => "no line could be read from the table".to_string(),
                    }
                )
            }
        }
        if let (Some(moves), Some(plies)) = (
            moves,
            tsume_extras.and_then(|extras| extras.variations.as_ref()),
        ) {
            match plies {
                Some(plies) => out += &variations_text(pos, moves, plies),
                None => out += "variations: not found within the limits\n",
            }
        }
    }
    out += &format!(
        "nodes {} time {:.3}s{}\n",
        report.nodes,
        // Whole milliseconds, as USI's `time`: nps is told from the first one on.
        report.elapsed.as_millis() as f64 / 1000.0,
        live::nps_field(report.nodes, report.elapsed)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position and a 5-ply mating line from it.
    fn five_ply_mate() -> (Position, Vec<Move>) {
        let pos = Position::from_sfen("7nl/5B1k1/6Ppp/5+R3/9/9/9/9/9 b Srb4g3s3n3l15p 1").unwrap();
        let line = ["4b3a+", "2b3a", "S*2b", "3a2b", "4d4b"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        (pos, line)
    }

    /// A raw solve that proved its length shortest but was stopped in its best-play line,
    /// and whose table had lost the shortest mate's line: the text says the length is
    /// proven and that the line shown is an earlier, longer mate's.
    #[test]
    fn a_stopped_answer_tells_when_its_line_is_an_earlier_mates() {
        use tsume_solver::dfpn::Improvement;
        let (pos, earlier) = five_ply_mate();
        let improvement = |length: u16, line: Option<Vec<Move>>| Improvement {
            length: Plies::new(length),
            line,
            rules: Rules::Raw,
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
        };
        let mut report = SolveReport {
            outcome: Outcome::Unknown(Unsettled::Limit(Stop::Time)),
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            proofs: Vec::new(),
            mate_so_far: None,
            improvements: vec![improvement(5, Some(earlier)), improvement(3, None)],
            lower_bound: Plies::new(3),
            final_alternatives: Vec::new(),
        };
        let text = |report: &SolveReport| {
            text_answer(
                &pos,
                &Answer::of(report, Rules::Raw),
                report,
                Rules::Raw,
                None,
            )
        };
        let proven = text(&report);
        assert!(proven.starts_with("mate in 3\n"), "{proven}");
        assert!(
            proven.contains(
                "time limit reached: the length is proven shortest, its best-play line was not \
                 finished; the line is an earlier, longer mate's: the table no longer held the \
                 shorter one's (5 plies;"
            ),
            "{proven}"
        );
        report.lower_bound = Plies::new(1);
        let unproven = text(&report);
        assert!(
            unproven.starts_with("mate in 3 (not proven shortest)\n"),
            "{unproven}"
        );
        assert!(
            unproven.contains("time limit reached: the line is an earlier, longer mate's"),
            "{unproven}"
        );
    }

    /// The compact form: plies without alternatives left out, the played defence with its
    /// plies to mate, the others longest first and useless interpositions last, in Japanese
    /// (同 for a recapture) and USI.
    #[test]
    fn variations_text_is_one_line_per_ply_with_alternatives() {
        let (pos, moves) = five_ply_mate();
        let m = |usi: &str| usi.parse::<Move>().unwrap();
        let plies = [
            tsume::DefenderPly {
                ply: 2,
                alternatives: vec![(m("P*3b"), None), (m("2b1b"), Some(Plies::new(2)))],
            },
            tsume::DefenderPly {
                ply: 4,
                alternatives: vec![],
            },
        ];
        assert_eq!(
            variations_text(&pos, &moves, &plies),
            "variations (ply: defence played, plies to mate | the other defences):\n  \
             2: △同玉 2b3a 4 | △１二玉 2b1b 2, △３二歩打 P*3b useless\n"
        );
        assert_eq!(
            variations_text(&pos, &moves, &plies[1..]),
            "variations: none (no defender ply of the line has another defence)\n"
        );
    }
}
