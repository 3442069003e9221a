//! The USI protocol's commands as data: one line of a GUI's input becomes a [`Command`],
//! which the engine of `tsume usi` (the binary's `src/usi.rs`) carries out. Pure functions,
//! no I/O and no search, so that they can be tested and fuzzed on their own.
//!
//! Commands: `usi`, `isready`, `usinewgame`, `setoption name … value …`, `position
//! startpos|sfen … [moves …]`, `go mate <ms>|infinite`, plain `go` with its time controls,
//! `stop`, `quit`; others (`gameover`, `ponderhit`, unknown words) are ignored, as USI
//! requires.

use std::time::Duration;

use std::fmt;

use crate::position::IllegalMoveError;
use crate::{Position, PositionError, Setup, SfenError};

/// The largest `USI_Hash`, in MiB.
pub const MAX_HASH_MB: usize = 65536;
/// The most search threads `Threads` takes.
pub const MAX_THREADS: usize = 1024;
/// The largest time in a `go` command, in ms (about 31 years): larger would overflow the
/// search's deadline.
pub const MAX_GO_MS: u64 = 1_000_000_000_000;
/// Kept back from a `go` time budget (byoyomi, movetime) for answering.
pub const ANSWER_MARGIN: Duration = Duration::from_millis(100);

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `usi`: identify and list the options.
    Usi,
    /// `isready`.
    IsReady,
    /// `usinewgame`.
    UsiNewGame,
    /// `setoption …`.
    SetOption(SetOption),
    /// `position …`: its arguments, joined by single spaces (read them with [`position`]).
    Position(String),
    /// `go …`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// A blank line, `gameover`, `ponderhit` or an unknown command: ignored.
    Ignored,
}

pub use crate::solver::Rules;

/// A `setoption` command, read. The `Bad…` variants carry the value given, which the
/// engine reports (`info string`) while keeping the option as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOption {
    /// Not `setoption name <id> [value <x>]`.
    Malformed,
    /// `USI_Hash` (or `Hash`): MiB, in 1..=[`MAX_HASH_MB`].
    Hash(usize),
    /// A `USI_Hash` that is not a number in range.
    BadHash(String),
    /// `Threads`: search threads, in 1..=[`MAX_THREADS`].
    Threads(usize),
    /// A `Threads` that is not a number in range.
    BadThreads(String),
    /// `Rules`: `raw` or `tsume`.
    Rules(Rules),
    /// A `Rules` value that is neither.
    BadRules(String),
    /// `FillDefenderHand`: `true` or `false`.
    FillDefenderHand(bool),
    /// A `FillDefenderHand` value that is neither.
    BadFillDefenderHand(String),
    /// Any other option (`USI_Ponder`, …): ignored.
    Other,
}

/// What `go` was asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoKind {
    /// `go mate …`: answer `checkmate …`.
    Mate,
    /// Plain `go`: answer `bestmove …`.
    Best,
}

/// A `go` command, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Go {
    /// What to answer.
    pub kind: GoKind,
    /// The search's time limit (`None`: until `stop`).
    pub time_limit: Option<Duration>,
    /// `go infinite` / `go ponder`: hold the answer until `stop`.
    pub wait_for_stop: bool,
    /// Times that could not be read, for the GUI (`info string`).
    pub warnings: Vec<String>,
}

/// Reads one command line (surrounding whitespace and the spacing between words do not
/// matter).
pub fn parse_command(line: &str) -> Command {
    let mut words = line.split_whitespace();
    let Some(cmd) = words.next() else {
        return Command::Ignored;
    };
    let rest: Vec<&str> = words.collect();
    match cmd {
        "usi" => Command::Usi,
        "isready" => Command::IsReady,
        "usinewgame" => Command::UsiNewGame,
        "setoption" => Command::SetOption(parse_setoption(&rest)),
        "position" => Command::Position(rest.join(" ")),
        "go" => Command::Go(parse_go(&rest)),
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        _ => Command::Ignored,
    }
}

/// `setoption` arguments: `name <id…> [value <x…>]`; names are case-insensitive.
pub fn parse_setoption(args: &[&str]) -> SetOption {
    let text = args.join(" ");
    let Some(text) = text.strip_prefix("name ") else {
        return SetOption::Malformed;
    };
    let (name, value) = match text.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (text.trim(), ""),
    };
    let lower = value.to_ascii_lowercase();
    match name.to_ascii_lowercase().as_str() {
        "usi_hash" | "hash" => match value.parse::<usize>() {
            Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => SetOption::Hash(mb),
            _ => SetOption::BadHash(value.to_string()),
        },
        "threads" => match value.parse::<usize>() {
            Ok(n) if (1..=MAX_THREADS).contains(&n) => SetOption::Threads(n),
            _ => SetOption::BadThreads(value.to_string()),
        },
        "rules" => match lower.parse() {
            Ok(rules) => SetOption::Rules(rules),
            Err(_) => SetOption::BadRules(value.to_string()),
        },
        "filldefenderhand" => match lower.as_str() {
            "true" => SetOption::FillDefenderHand(true),
            "false" => SetOption::FillDefenderHand(false),
            _ => SetOption::BadFillDefenderHand(value.to_string()),
        },
        _ => SetOption::Other,
    }
}

/// `go` arguments: what to answer, the time limit, whether to hold the answer until `stop`
/// (`go infinite`), and warnings for the GUI. A time that is not a number of milliseconds
/// is reported and ignored: `go mate abc` searches as `go mate infinite`, `go byoyomi abc`
/// as if the byoyomi were not given.
pub fn parse_go(args: &[&str]) -> Go {
    let mut warnings = Vec::new();
    let mut ms = |key: &str, s: Option<&&str>| -> Option<u64> {
        let s = s?;
        match s.parse::<u64>() {
            Ok(v) if v <= MAX_GO_MS => Some(v),
            _ => {
                warnings.push(format!(
                    "go {key}: {s:?} is not a time in milliseconds (0..{MAX_GO_MS}); ignored"
                ));
                None
            }
        }
    };
    if args.first() == Some(&"mate") {
        let limit = match args.get(1) {
            Some(&"infinite") | None => None,
            s => ms("mate", s).map(Duration::from_millis),
        };
        if limit.is_none() && !warnings.is_empty() {
            warnings.push("go mate: searching without a time limit, as go mate infinite".into());
        }
        return Go {
            kind: GoKind::Mate,
            time_limit: limit,
            wait_for_stop: false,
            warnings,
        };
    }
    let mut value = |key: &str| {
        ms(
            key,
            args.iter()
                .position(|a| *a == key)
                .and_then(|i| args.get(i + 1)),
        )
    };
    if args.contains(&"infinite") || args.contains(&"ponder") {
        return Go {
            kind: GoKind::Best,
            time_limit: None,
            wait_for_stop: true,
            warnings,
        };
    }
    let (movetime, byoyomi) = (value("movetime"), value("byoyomi"));
    let (btime, wtime) = (value("btime"), value("wtime"));
    let (binc, winc) = (value("binc"), value("winc"));
    let budget = if let Some(t) = movetime {
        Some(t)
    } else if let Some(b) = byoyomi.filter(|&b| b > 0) {
        Some(b)
    } else {
        // Sudden death or Fischer: a small share of the clock. The side is unknown here, so
        // use the smaller of the two.
        match (btime, wtime) {
            (Some(b), Some(w)) => Some(b.min(w) / 20 + binc.unwrap_or(0).min(winc.unwrap_or(0))),
            (Some(t), None) | (None, Some(t)) => Some(t / 20),
            (None, None) => None,
        }
    };
    let limit = budget.map(|ms| {
        Duration::from_millis(ms)
            .saturating_sub(ANSWER_MARGIN)
            .max(Duration::from_millis(1))
    });
    Go {
        kind: GoKind::Best,
        time_limit: limit,
        wait_for_stop: false,
        warnings,
    }
}

/// The position of a `position` command's arguments (`startpos|sfen … [moves …]`); with
/// `fill_defender_hand`, the defender (the side not to move after the moves) gets every
/// piece that is on no square and in no hand.
pub fn position(args: &str, fill_defender_hand: bool) -> Result<Position, PositionCommandError> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let moves_at = words.iter().position(|w| *w == "moves");
    let (spec, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &words[words.len()..]),
    };
    let mut setup: Setup = match spec {
        ["startpos"] => Setup::from_sfen("startpos").map_err(PositionCommandError::Startpos)?,
        ["sfen", fields @ ..] if !fields.is_empty() => fields
            .join(" ")
            .parse()
            .map_err(PositionCommandError::Sfen)?,
        _ => return Err(PositionCommandError::Syntax),
    };
    let play = |setup: &Setup| {
        let mut pos = Position::from_setup(setup).map_err(PositionCommandError::Illegal)?;
        for (i, m) in moves.iter().enumerate() {
            let mv = pos
                .parse_move(m)
                .map_err(|error| PositionCommandError::Move {
                    number: i + 1,
                    text: m.to_string(),
                    error,
                })?;
            pos.do_move(mv);
        }
        Ok::<Position, PositionCommandError>(pos)
    };
    let pos = play(&setup)?;
    if !fill_defender_hand {
        return Ok(pos);
    }
    // The defender, after the moves, as [`root`] reads it: the side to move when it is in
    // check, else the other side. More pieces in its hand make no given move illegal.
    let defender = match root(&pos) {
        Root::Defender => pos.side_to_move(),
        _ => !pos.side_to_move(),
    };
    setup.fill_hand(defender);
    play(&setup)
}

/// Why the arguments of a `position` command give no position.
#[derive(Debug)]
pub enum PositionCommandError {
    /// `startpos` could not be read (never expected).
    Startpos(SfenError),
    /// The SFEN after `sfen` is malformed.
    Sfen(SfenError),
    /// Neither `startpos` nor `sfen <sfen>`.
    Syntax,
    /// The SFEN is not a legal position.
    Illegal(PositionError),
    /// Move `number` (`text`) of the `moves` cannot be played.
    Move {
        /// The move's number among the `moves`, from 1.
        number: usize,
        /// The move as given.
        text: String,
        /// Why it cannot be played.
        error: IllegalMoveError,
    },
}

impl fmt::Display for PositionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionCommandError::Startpos(e) => write!(f, "{e}"),
            PositionCommandError::Sfen(e) => write!(f, "malformed SFEN: {e}"),
            PositionCommandError::Syntax => {
                write!(f, "expected `position startpos|sfen <sfen> [moves …]`")
            }
            PositionCommandError::Illegal(e) => write!(f, "illegal position: {e}"),
            PositionCommandError::Move {
                number,
                text,
                error,
            } => write!(f, "move {number} ({text}): {error}"),
        }
    }
}

impl std::error::Error for PositionCommandError {}

/// Whose mate a `go` searches, read from the position after the moves as KomoringHeights
/// does (from the kings on the board and who is in check).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Root {
    /// The side to move attacks (it is not in check; the other side has a king).
    Attacker,
    /// The side to move is in check and has a legal move: it defends, the other side
    /// attacks. The answer is the line from the defender's move.
    Defender,
    /// Not a mate problem for either side: why, for the GUI (`info string`).
    NotAProblem(&'static str),
}

/// Reads whose mate a `go` on `pos` searches (see [`Root`]).
pub fn root(pos: &Position) -> Root {
    let to_move = pos.side_to_move();
    if pos.in_check() {
        if crate::dfpn::is_mated(pos) {
            Root::NotAProblem("the side to move is already checkmated: no move to answer")
        } else {
            Root::Defender
        }
    } else if pos.king(!to_move).is_some() {
        Root::Attacker
    } else if pos.king(to_move).is_some() {
        Root::NotAProblem(
            "the side to move has the only king but is not in check: as the defender it \
             would have to be in check, and the side not to move has no king to mate",
        )
    } else {
        Root::NotAProblem("the side not to move has no king to mate")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots() {
        let at = |args: &str| root(&position(args, false).expect("readable"));
        // The attacker to move, then the defender in check after the attacker's move.
        let problem = "sfen 6S2/8k/7P1/8n/9/9/9/9/9 b Rr2b4g3s3n4l17p 1";
        assert_eq!(at(problem), Root::Attacker);
        assert_eq!(at(&format!("{problem} moves 2c2b+")), Root::Defender);
        // The defender's lone king, not in check, to move.
        assert!(matches!(
            at("sfen 8k/9/9/9/9/9/9/9/9 w R2G 1"),
            Root::NotAProblem(why) if why.contains("not in check")
        ));
        // No king at all.
        assert!(matches!(
            at("sfen 9/9/9/9/9/9/9/9/9 b R 1"),
            Root::NotAProblem(why) if why.contains("no king")
        ));
        // Head mate: the defender to move is mated.
        assert!(matches!(
            at("sfen 8k/8G/8P/9/9/9/9/9/9 w - 1"),
            Root::NotAProblem(why) if why.contains("checkmated")
        ));
    }

    #[test]
    fn fill_defender_hand_after_moves_to_the_defender() {
        // After 2c2b+ the defender (gote, in check) is to move: it gets the pieces.
        let pos =
            position("sfen 6S2/8k/7P1/8n/9/9/9/9/9 b R 1 moves 2c2b+", true).expect("readable");
        assert!(!pos.hand(pos.side_to_move()).is_empty());
        assert_eq!(
            pos.hand(!pos.side_to_move()).count(crate::PieceKind::Rook),
            1
        );
    }

    #[test]
    fn commands() {
        assert_eq!(parse_command("  usi "), Command::Usi);
        assert_eq!(parse_command(""), Command::Ignored);
        assert_eq!(parse_command("gameover win"), Command::Ignored);
        assert_eq!(
            parse_command("position  startpos   moves 7g7f"),
            Command::Position("startpos moves 7g7f".into())
        );
        assert_eq!(
            parse_command("setoption name USI_Hash value 64"),
            Command::SetOption(SetOption::Hash(64))
        );
        assert_eq!(
            parse_command("setoption name USI_Hash value 65537"),
            Command::SetOption(SetOption::BadHash("65537".into()))
        );
        assert_eq!(
            parse_command("setoption name rules value TSUME"),
            Command::SetOption(SetOption::Rules(Rules::Tsume))
        );
        assert_eq!(
            parse_command("setoption name FillDefenderHand value yes"),
            Command::SetOption(SetOption::BadFillDefenderHand("yes".into()))
        );
        assert_eq!(
            parse_command("setoption USI_Hash"),
            Command::SetOption(SetOption::Malformed)
        );
        assert_eq!(
            parse_command("setoption name USI_Ponder value true"),
            Command::SetOption(SetOption::Other)
        );
    }

    #[test]
    fn go_arguments() {
        let g = parse_go(&["mate", "1500"]);
        assert!(g.kind == GoKind::Mate && g.time_limit == Some(Duration::from_millis(1500)));
        assert!(!g.wait_for_stop);
        let g = parse_go(&["mate", "infinite"]);
        assert!(g.kind == GoKind::Mate && g.time_limit.is_none());
        let g = parse_go(&["infinite"]);
        assert!(g.kind == GoKind::Best && g.time_limit.is_none() && g.wait_for_stop);
        let g = parse_go(&["btime", "0", "wtime", "0", "byoyomi", "1000"]);
        assert!(g.time_limit == Some(Duration::from_millis(900)) && !g.wait_for_stop);
        let g = parse_go(&[]);
        assert!(g.time_limit.is_none() && g.warnings.is_empty());
    }

    #[test]
    fn unreadable_go_times_are_reported_and_ignored() {
        for bad in ["abc", "-5", "1e3", "99999999999999999999"] {
            let g = parse_go(&["mate", bad]);
            assert!(g.kind == GoKind::Mate && g.time_limit.is_none() && !g.wait_for_stop);
            assert!(g.warnings[0].contains(bad), "{:?}", g.warnings);
            assert!(
                g.warnings[1].contains("without a time limit"),
                "{:?}",
                g.warnings
            );
        }
        let g = parse_go(&["byoyomi", "abc", "movetime", "500"]);
        assert!(g.kind == GoKind::Best && g.time_limit == Some(Duration::from_millis(400)));
        assert!(
            g.warnings.len() == 1 && g.warnings[0].contains("byoyomi"),
            "{:?}",
            g.warnings
        );
    }

    #[test]
    fn positions() {
        assert!(position("startpos moves 7g7f 3c3d", false).is_ok());
        assert!(position("startpos moves 7g7e", false)
            .unwrap_err()
            .to_string()
            .contains("move 1"));
        assert!(position("sfen 9/9/9 b - 1", false)
            .unwrap_err()
            .to_string()
            .contains("malformed SFEN"));
        assert!(matches!(
            position("", false),
            Err(PositionCommandError::Syntax)
        ));
        let p = position("sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1", true).unwrap();
        assert_eq!(p.to_sfen(), "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    }
}
