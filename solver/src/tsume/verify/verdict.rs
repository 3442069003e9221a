//! What a verification finds: the flaws of a problem and the verdict.

use std::fmt;

use crate::dfpn::{Stop, Unsettled};
use crate::hand::Hand;
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::square::Square;

/// A piece that can be taken out of a problem: on a square, or in the attacker's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceAt {
    /// A piece of this kind on this square.
    Board(Square, PieceKind),
    /// A piece of this kind in the attacker's hand.
    Hand(PieceKind),
}

impl fmt::Display for PieceAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PieceAt::Board(sq, kind) => write!(f, "{} at {sq}", kind_letters(*kind)),
            PieceAt::Hand(kind) => write!(f, "{} in hand", kind_letters(*kind)),
        }
    }
}

fn kind_letters(kind: PieceKind) -> String {
    if kind.is_promoted() {
        format!("+{}", kind.unpromote().sfen_letter())
    } else {
        kind.sfen_letter().to_string()
    }
}

/// What is wrong with a problem. Plies are counted from 1 at the first attacker move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// Not a legal tsume set-up (rules doc §3.1).
    SetUp(String),
    /// No mate at all.
    NoMate,
    /// The claimed solution is not a mating line.
    BadSolution {
        /// The first ply that is wrong.
        ply: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The best-play value differs from the claimed solution's length.
    Length {
        /// The best-play value.
        best: usize,
        /// The claimed solution's length.
        claimed: usize,
    },
    /// 変長: at this defender ply a longer defence than the solution's exists.
    LongerDefence {
        /// The defender ply.
        ply: usize,
    },
    /// 駒余り: the attacker ends with these pieces in hand.
    Leftover(Hand),
    /// 余詰: at this attacker ply another check also mates. `promotion_choice`: it is the
    /// solution's move with the other promotion choice (成生非限定).
    SecondSolution {
        /// The attacker ply.
        ply: usize,
        /// The other mating check.
        mv: Move,
        /// It is the solution's move with the other promotion choice.
        promotion_choice: bool,
    },
    /// 不要駒: the problem stays sound without this piece.
    Unnecessary(PieceAt),
    /// The searches left `question` undecided (most often out of budget or time).
    Unproven {
        /// What was being decided.
        question: Question,
        /// Why it is undecided: the limit that stopped it, or equally long defences left
        /// untried by the tie-break, or searches that contradicted each other.
        why: Unsettled,
    },
}

/// A question of the verification that a search may leave undecided ([`Flaw::Unproven`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// The problem's tsume length.
    MateLength,
    /// The best-play line, or the claimed line's best length.
    SolutionLine,
    /// Whether the claimed solution ends in mate.
    EndOfSolution,
    /// 変長: a longer defence along the line.
    LongerDefence,
    /// 駒余り: pieces left over, with equally long defences untried.
    Leftover,
    /// 余詰: another mating check along the line.
    SecondSolution,
    /// The alternatives of the final mating move.
    FinalAlternatives,
    /// 不要駒: whether this piece is unnecessary.
    Unnecessary(PieceAt),
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Question::MateLength => f.write_str("mate length"),
            Question::SolutionLine => f.write_str("solution line"),
            Question::EndOfSolution => f.write_str("end of the solution"),
            Question::LongerDefence => f.write_str("変長"),
            Question::Leftover => f.write_str("駒余り"),
            Question::SecondSolution => f.write_str("余詰"),
            Question::FinalAlternatives => f.write_str("final alternatives"),
            Question::Unnecessary(piece) => write!(f, "不要駒 {piece}"),
        }
    }
}

impl Flaw {
    /// `question` left undecided for the reason `why`.
    pub fn unproven(question: Question, why: Unsettled) -> Flaw {
        Flaw::Unproven { question, why }
    }
}

impl Flaw {
    /// A stable machine name.
    pub fn code(&self) -> &'static str {
        match self {
            Flaw::SetUp(_) => "setup",
            Flaw::NoMate => "nomate",
            Flaw::BadSolution { .. } => "bad-solution",
            Flaw::Length { .. } => "length",
            Flaw::LongerDefence { .. } => "henchou",
            Flaw::Leftover(_) => "leftover",
            Flaw::SecondSolution { .. } => "yozume",
            Flaw::Unnecessary(_) => "unnecessary-piece",
            Flaw::Unproven { .. } => "unproven",
        }
    }

    /// The ply the flaw is at, if it has one.
    pub fn ply(&self) -> Option<usize> {
        match self {
            Flaw::BadSolution { ply, .. }
            | Flaw::LongerDefence { ply }
            | Flaw::SecondSolution { ply, .. } => Some(*ply),
            _ => None,
        }
    }
}

impl fmt::Display for Flaw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Flaw::SetUp(why) => write!(f, "set-up: {why}"),
            Flaw::NoMate => write!(f, "no mate"),
            Flaw::BadSolution { ply, reason } => write!(f, "solution: ply {ply}: {reason}"),
            Flaw::Length { best, claimed } => write!(
                f,
                "length: best play is {best} plies, the solution has {claimed}"
            ),
            Flaw::LongerDefence { ply } => {
                write!(f, "変長 at ply {ply}: the defender has a longer defence")
            }
            Flaw::Leftover(hand) => write!(f, "駒余り: {}", hand.to_sfen(true)),
            Flaw::SecondSolution {
                ply,
                mv,
                promotion_choice,
            } => {
                write!(f, "余詰 at ply {ply}: {mv} also mates")?;
                if *promotion_choice {
                    write!(f, " (the other promotion choice: 成生非限定)")?;
                }
                Ok(())
            }
            Flaw::Unnecessary(piece) => write!(f, "不要駒: {piece}"),
            Flaw::Unproven {
                question,
                why: Unsettled::Limit(stop),
            } => write!(f, "budget exhausted ({question}: {})", stop_name(*stop)),
            Flaw::Unproven {
                question,
                why: Unsettled::Inconsistent,
            } => write!(
                f,
                "unproven ({question}: the searches contradicted each other)"
            ),
            Flaw::Unproven {
                question,
                why: Unsettled::CutShort,
            } => write!(
                f,
                "budget exhausted ({question}: equally long defences left untried)"
            ),
        }
    }
}

/// The verdict on one problem.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// What is wrong (empty: sound).
    pub flaws: Vec<Flaw>,
    /// The best-play value under tsume rules, when proven.
    pub length: Option<usize>,
    /// The solution checked: the claimed one, or the best-play line found.
    pub solution: Vec<Move>,
    /// Other mating last moves (accepted answers).
    pub final_alternatives: Vec<Move>,
    /// With [`VerifyOptions::allow_promotion_choice`]: (ply, move) of each tolerated
    /// non-final move whose other promotion choice also mates.
    ///
    /// [`VerifyOptions::allow_promotion_choice`]: super::VerifyOptions::allow_promotion_choice
    pub promotion_choices: Vec<(usize, Move)>,
    /// Nodes searched in all.
    pub nodes: u64,
}

impl Verdict {
    /// No flaw found: the problem is sound.
    pub fn is_sound(&self) -> bool {
        self.flaws.is_empty()
    }

    /// Some check ran out of budget (or time): the verdict is not known.
    pub fn is_unproven(&self) -> bool {
        self.flaws
            .iter()
            .any(|f| matches!(f, Flaw::Unproven { .. }))
    }
}

fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Nodes => "node budget",
        Stop::Time => "time",
        Stop::Requested => "stopped",
    }
}
