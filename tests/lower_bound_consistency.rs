//! The lower-bound game (`Defences::Tsume`) against itself and against an exhaustive
//! minimax: every answer of a fresh search must agree with the fresh answers of its
//! children, one step of the game's rule unfolded by hand, and (at small budgets) with a
//! plain minimax of that rule that shares no code with df-pn (issue 23 part 3: a wrong
//! disproof there can make the evaluator skip a shorter length).
//!
//! The rule, at a defender node with budget `r`: every evasion must be mate within `r − 1`,
//! except that an interposition on `s` is also excused when some check capturing on `s`
//! leads, with the captured piece taken out of the game, to a defender node mated within
//! `r`. At an attacker node: some check leads to a defender node mated within `r − 1`.
//!
//! Both lower-bound games are checked: the plain one (`Defences::Tsume`, a mated defender
//! node is mate within any `r ≥ 0`) and the two-ply one (`Defences::TsumeTwoPly`: budgets
//! are two-ply values plus 2, and a mated defender node is mate within `r ≥ 0` when the
//! attacker has pieces left in hand, within `r ≥ 2` when not).

mod common;

use std::cell::RefCell;
use std::collections::HashMap;

use tsume_solver::dfpn::search::{Defences, Limits, Search};
use tsume_solver::dfpn::table::{Kind, Table};
use tsume_solver::dfpn::MAX_LENGTH;
use tsume_solver::square::Square;
use tsume_solver::{movegen, Color, Move, MoveList, Plies, Position};

/// Nodes per search: an answer not found within them is skipped, not judged.
const SEARCH_NODES: u64 = 200_000;
/// Nodes of the exhaustive minimax per question (skipped beyond).
const BRUTE_NODES: u64 = 300_000;

/// Nodes of the raw first search that fills the raw table (see [`RAW`]).
const RAW_NODES: u64 = 20_000;

thread_local! {
    /// When set (by [`run`]), each lower-bound search reads the raw game's "no mate at all":
    /// a raw search for any mate from the same position runs first in this table and
    /// copies each one into the lower-bound table (as the tsume solver's raw searches do);
    /// both games read its proofs after evasions too (`Search::raw_proofs`).
    static RAW: RefCell<Option<Table>> = const { RefCell::new(None) };
}

/// A fresh search of the lower-bound game: `Some(mate within r)`, `None` if not settled
/// within [`SEARCH_NODES`].
fn lower_bound(
    game: Defences,
    table: &mut Table,
    pos: &Position,
    attacker: Color,
    r: i32,
) -> Option<bool> {
    if r < 0 {
        return Some(false);
    }
    table.clear();
    let mut root = pos.clone();
    root.clear_history();
    let limits = Limits {
        node_limit: Some(SEARCH_NODES),
        ..Limits::default()
    };
    RAW.with_borrow_mut(|raw| {
        if let Some(raw) = raw.as_mut() {
            raw.clear();
            let limits = Limits {
                node_limit: Some(RAW_NODES),
                ..Limits::default()
            };
            let mut search = Search::with_rules(raw, root.clone(), attacker, limits, Defences::All);
            search.no_mate_copies = Some(&*table);
            search.solve_current(MAX_LENGTH);
        }
        let mut search = Search::with_rules(table, root, attacker, limits, game);
        if game != Defences::All {
            search.raw_proofs = raw.as_ref();
            search.raw_proofs_above = 0;
        }
        match search.solve_current(Plies::of_value(r)).kind() {
            Kind::Proven => Some(true),
            Kind::Disproven => Some(false),
            Kind::Unknown => None,
        }
    })
}

/// "Some is true" over answers, `None` if none is true and some is unknown.
fn any(answers: impl IntoIterator<Item = Option<bool>>) -> Option<bool> {
    let mut unknown = false;
    for a in answers {
        match a {
            Some(true) => return Some(true),
            None => unknown = true,
            Some(false) => {}
        }
    }
    (!unknown).then_some(false)
}

/// The checks of `pos` capturing on `s`, each with the position after it and the captured
/// piece taken out of the attacker's hand.
fn unused_captures(pos: &Position, attacker: Color, s: Square) -> Vec<Position> {
    let mut checks = MoveList::new();
    movegen::generate_checks(pos, &mut checks);
    checks
        .iter()
        .filter(|m| m.to() == s)
        .filter_map(|&m| {
            let kind = pos.captured_piece(m)?.kind.unpromote();
            let mut p = pos.clone();
            p.do_move(m);
            p.take_from_hand(attacker, kind);
            Some(p)
        })
        .collect()
}

fn after(pos: &Position, m: Move) -> Position {
    let mut p = pos.clone();
    p.do_move(m);
    p
}

/// The answer at (`pos`, `r`) one step of the rule unfolded: from fresh answers of the
/// children. `None` if some needed answer is unknown.
fn from_children(
    game: Defences,
    table: &mut Table,
    pos: &Position,
    attacker: Color,
    r: i32,
) -> Option<bool> {
    let mut moves = MoveList::new();
    if pos.side_to_move() == attacker {
        if r < 1 {
            return Some(false);
        }
        movegen::generate_checks(pos, &mut moves);
        return any(moves
            .iter()
            .map(|&m| lower_bound(game, table, &after(pos, m), attacker, r - 1)));
    }
    movegen::generate_evasions(pos, &mut moves);
    if moves.is_empty() {
        return Some(mated_within(game, pos, attacker, r));
    }
    let squares = movegen::interposition_squares(pos);
    let mut unknown = false;
    for &m in moves.iter() {
        let child = after(pos, m);
        let mut ok = vec![lower_bound(game, table, &child, attacker, r - 1)];
        if movegen::is_interposition(pos, squares, m) && ok[0] != Some(true) {
            for p in unused_captures(&child, attacker, m.to()) {
                ok.push(lower_bound(game, table, &p, attacker, r));
            }
        }
        match any(ok) {
            Some(true) => {}
            Some(false) => return Some(false),
            None => unknown = true,
        }
    }
    (!unknown).then_some(true)
}

/// Whether a mated defender node (`pos`) is mate within `r` in `game`.
fn mated_within(game: Defences, pos: &Position, attacker: Color, r: i32) -> bool {
    match game {
        Defences::TsumeTwoPly => r >= 2 || (r >= 0 && !pos.hand(attacker).is_empty()),
        _ => r >= 0,
    }
}

/// An exhaustive minimax of the rule (memoised per position, budget and interposition
/// square), without df-pn, tables or hand superiority.
struct Brute {
    game: Defences,
    attacker: Color,
    memo: HashMap<(u64, i32, u8), bool>,
    nodes: u64,
}

impl Brute {
    fn new(game: Defences, attacker: Color) -> Brute {
        Brute {
            game,
            attacker,
            memo: HashMap::new(),
            nodes: 0,
        }
    }

    fn solve(&mut self, pos: &Position, r: i32) -> Option<bool> {
        let mut p = pos.clone();
        let v = if p.side_to_move() == self.attacker {
            self.or(&mut p, r, None)
        } else {
            self.and(&mut p, r)
        };
        (self.nodes <= BRUTE_NODES).then_some(v)
    }

    /// Attacker to move with `r` plies. `interposed`: just after an interposition on that
    /// square at a defender node of budget `r` (checks then have `r − 2` after them, and
    /// captures on the square with the piece out of the game `r`).
    fn or(&mut self, pos: &mut Position, r: i32, interposed: Option<Square>) -> bool {
        let key = (
            pos.full_key(),
            r,
            interposed.map_or(81, |s| s.index() as u8),
        );
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        self.nodes += 1;
        if self.nodes > BRUTE_NODES {
            return false;
        }
        let mut checks = MoveList::new();
        movegen::generate_checks(pos, &mut checks);
        let after_check = if interposed.is_some() { r - 2 } else { r - 1 };
        let mut v = false;
        for &m in checks.iter() {
            if after_check >= 0 {
                pos.do_move(m);
                v = self.and(pos, after_check);
                pos.undo_move();
            }
            if !v && interposed == Some(m.to()) {
                if let Some(c) = pos.captured_piece(m) {
                    let kind = c.kind.unpromote();
                    pos.do_move(m);
                    pos.take_from_hand(self.attacker, kind);
                    v = self.and(pos, r);
                    pos.return_to_hand(self.attacker, kind);
                    pos.undo_move();
                }
            }
            if v {
                break;
            }
        }
        self.memo.insert(key, v);
        v
    }

    /// Defender to move, in check, with `r` plies.
    fn and(&mut self, pos: &mut Position, r: i32) -> bool {
        let key = (pos.full_key(), r, 82);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        self.nodes += 1;
        let mut evasions = MoveList::new();
        movegen::generate_evasions(pos, &mut evasions);
        if evasions.is_empty() {
            let v = mated_within(self.game, pos, self.attacker, r);
            self.memo.insert(key, v);
            return v;
        }
        let squares = movegen::interposition_squares(pos);
        let mut v = true;
        for &m in evasions.iter() {
            let interposition = movegen::is_interposition(pos, squares, m);
            pos.do_move(m);
            v = if interposition {
                self.or(pos, r, Some(m.to()))
            } else {
                self.or(pos, r - 1, None)
            };
            pos.undo_move();
            if !v || self.nodes > BRUTE_NODES {
                break;
            }
        }
        self.memo.insert(key, v);
        v
    }
}

/// One disagreement found.
struct Finding {
    game: Defences,
    sfen: String,
    r: i32,
    search: bool,
    children: Option<bool>,
    brute: Option<bool>,
    hash_mb: usize,
}

#[derive(Default)]
struct Tally {
    questions: u64,
    judged_by_children: u64,
    judged_by_brute: u64,
    findings: Vec<Finding>,
}

/// Checks (`pos`, `r`) in a table of `hash_mb` MiB.
fn check(
    game: Defences,
    table: &mut Table,
    hash_mb: usize,
    at: &At,
    r: i32,
    brute: bool,
    t: &mut Tally,
) {
    let (pos, attacker) = (&at.pos, at.attacker);
    let Some(v) = lower_bound(game, table, pos, attacker, r) else {
        return;
    };
    t.questions += 1;
    let children = from_children(game, table, pos, attacker, r);
    let oracle = if brute {
        Brute::new(game, attacker).solve(pos, r)
    } else {
        None
    };
    t.judged_by_children += children.is_some() as u64;
    t.judged_by_brute += oracle.is_some() as u64;
    if children.is_some_and(|c| c != v) || oracle.is_some_and(|b| b != v) {
        eprintln!(
            "disagreement ({game:?}): {} within {r} ({hash_mb} MiB): search {v}, children {children:?}, minimax {oracle:?}",
            pos.to_sfen()
        );
        t.findings.push(Finding {
            game,
            sfen: pos.to_sfen(),
            r,
            search: v,
            children,
            brute: oracle,
            hash_mb,
        });
    }
}

/// A position to check: the attacker, and the plies its problem's line still has there.
struct At {
    pos: Position,
    attacker: Color,
    left: i32,
}

/// The positions along each line of a problem file (`<sfen> <len> [moves …]`): the root
/// alone when no moves are given, and 7 plies taken for a length that is not a number.
fn positions_along(text: &str, every: usize) -> Vec<At> {
    let mut out = Vec::new();
    for line in common::content_lines(text).step_by(every) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Ok(mut pos) = Position::from_sfen(&fields[..4].join(" ")) else {
            continue;
        };
        let attacker = pos.side_to_move();
        let len: i32 = fields.get(4).and_then(|l| l.parse().ok()).unwrap_or(7);
        let moves = fields.iter().skip_while(|&&f| f != "moves").skip(1);
        let at = |pos: &Position, left| At {
            pos: pos.clone(),
            attacker,
            left,
        };
        out.push(at(&pos, len));
        for (i, m) in moves.enumerate() {
            let Ok(m) = pos.parse_move(m) else { break };
            pos.do_move(m);
            out.push(at(&pos, len - 1 - i as i32));
        }
    }
    out
}

/// Every position at budgets around its line's remaining length (the lower-bound game's
/// length is at most the raw one), in each table size; the minimax (which has no table)
/// with the first size only. With `raw`, every lower-bound search also reads the "no mate at
/// all" of a raw search (see [`RAW`]).
fn run(game: Defences, positions: &[At], sizes: &[usize], brute_up_to: i32, raw: bool) -> Tally {
    let mut tally = Tally::default();
    tsume_solver::dfpn::on_search_thread(|| {
        RAW.set(raw.then(|| Table::new(1)));
        for (k, &hash_mb) in sizes.iter().enumerate() {
            let mut table = Table::new(hash_mb);
            for (i, at) in positions.iter().enumerate() {
                if i % 1000 == 999 {
                    eprintln!(
                        "{hash_mb} MiB: {} positions, {} answers",
                        i + 1,
                        tally.questions
                    );
                }
                let top = at.left.max(1);
                for r in (top - 4..=top + 2).step_by(2).filter(|&r| r >= 0) {
                    let brute = k == 0 && r <= brute_up_to;
                    check(game, &mut table, hash_mb, at, r, brute, &mut tally);
                }
            }
        }
    });
    tally
}

fn assert_consistent(t: &Tally) {
    assert!(
        t.findings.is_empty(),
        "{} of {} answers disagree:\n{}",
        t.findings.len(),
        t.questions,
        t.findings
            .iter()
            .map(|f| format!(
                "{:?}: {} within {} ({} MiB): search {}, children {:?}, minimax {:?}",
                f.game, f.sfen, f.r, f.hash_mb, f.search, f.children, f.brute
            ))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

const Q: &str = "6g2/3Sn4/5gkS1/4N3+R/5p3/6p+p1/8p/9/3L2+p2 b Lr2b2g2s2n2l13p 1";

/// Issue 23 part 3: at Q the interposition `L*3d` after `L*3e` was refuted as an ordinary
/// move through `3e3d 3c4d 3d3c 4d3c`, which repeats Q; that refutation depends on Q being
/// on the path, and was taken for the interposition itself repeating, so the capture `3e3d`
/// with the lance out of the game was never tried and Q was "no mate within 9".
#[test]
fn q_and_its_child_agree() {
    let q = positions_along(&format!("{Q} 9 moves L*3e"), 1);
    for game in GAMES {
        let t = run(game, &q, &[1, 16], 11, false);
        assert_consistent(&t);
        assert!(
            t.questions == 16 && t.judged_by_children == 16,
            "{} {}",
            t.questions,
            t.judged_by_children
        );
        assert!(
            t.judged_by_brute >= 6,
            "{} judged by the minimax",
            t.judged_by_brute
        );
    }
}

/// The two lower-bound games.
const GAMES: [Defences; 2] = [Defences::Tsume, Defences::TsumeTwoPly];

/// The CI-sized check: positions along raw solutions of mined mate-5…11 problems, the
/// interposition-heavy tricky-rules roots and the rules doc's examples, in a 1 MiB table
/// (entries get replaced) and a 32 MiB one.
#[test]
fn lower_bound_answers_agree_with_their_children() {
    let mut positions = positions_along(&common::read_data("lb_consistency.txt"), 1);
    positions.extend(positions_along(&common::read_data("tricky_rules.txt"), 1));
    for game in GAMES {
        let t = run(game, &positions, &[1, 32], 7, false);
        eprintln!(
            "{game:?}: {} positions, {} answers, {} judged by their children, {} by the minimax",
            positions.len(),
            t.questions,
            t.judged_by_children,
            t.judged_by_brute
        );
        assert_consistent(&t);
        assert!(t.judged_by_children > 1000 && t.judged_by_brute > 1000);
    }
}

/// The same positions, each lower-bound search reading the "no mate at all" (and, in the
/// plain game, the proofs after evasions) of a raw search from the same position first (as
/// the tsume solver's do), in a 1 MiB table.
#[test]
fn lower_bound_answers_reading_raw_no_mates_agree_with_their_children() {
    let mut positions = positions_along(&common::read_data("lb_consistency.txt"), 1);
    positions.extend(positions_along(&common::read_data("tricky_rules.txt"), 1));
    for game in GAMES {
        let t = run(game, &positions, &[1], 7, true);
        eprintln!(
            "{game:?} reading raw no-mates: {} answers, {} judged by their children, {} by the minimax",
            t.questions, t.judged_by_children, t.judged_by_brute
        );
        assert_consistent(&t);
        assert!(t.judged_by_children > 1000 && t.judged_by_brute > 1000);
    }
}

/// The bigger run (`cargo test --release --test lower_bound_consistency -- --ignored
/// --nocapture`): every `LB_EVERY`-th line (default 10) of the files in `LB_FILES`
/// (colon-separated, default the shared mate-3…11 solutions), the positions whose line has
/// at most `LB_MAX_LEFT` plies left (default all), in tables of `LB_SIZES` MiB (default
/// 1:256), the minimax up to budget `LB_BRUTE` (default 9), in the game `LB_GAME` (`plain`,
/// the default, or `two-ply`), reading a raw search's "no mate at all" as the CI-sized run
/// does when `LB_RAW=1`.

#[test]
#[ignore = "the bigger run: cargo test --release --test lower_bound_consistency -- --ignored --nocapture"]
fn lower_bound_answers_agree_with_their_children_big() {
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let every: usize = env("LB_EVERY", "10").parse().unwrap();
    let sizes: Vec<usize> = env("LB_SIZES", "1:256")
        .split(':')
        .map(|s| s.parse().unwrap())
        .collect();
    let brute: i32 = env("LB_BRUTE", "9").parse().unwrap();
    let max_left: i32 = env("LB_MAX_LEFT", &i32::MAX.to_string()).parse().unwrap();
    let default_files = (3..=11)
        .step_by(2)
        .map(|n| {
            common::shared_path(&format!("mate{n}_sample_solutions.txt"))
                .display()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(":");
    let mut positions = Vec::new();
    for f in env("LB_FILES", &default_files).split(':') {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        positions.extend(
            positions_along(&text, every)
                .into_iter()
                .filter(|at| at.left <= max_left),
        );
    }
    let game = match env("LB_GAME", "plain").as_str() {
        "two-ply" => Defences::TsumeTwoPly,
        _ => Defences::Tsume,
    };
    let t = run(game, &positions, &sizes, brute, env("LB_RAW", "0") == "1");
    eprintln!(
        "{} positions, {} answers, {} judged by their children, {} by the minimax, {} disagree",
        positions.len(),
        t.questions,
        t.judged_by_children,
        t.judged_by_brute,
        t.findings.len()
    );
    assert_consistent(&t);
}
