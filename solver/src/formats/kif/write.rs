//! Writing KIF records: [`write`] and [`write_position`].

use super::*;
use crate::color::Color;
use crate::notation;
use crate::setup::STARTPOS_SFEN;
use crate::square::Square;

const WRITE_HEADER: &str = "#KIF version=2.0 encoding=UTF-8";
const COLUMNS: &str = "  ９ ８ ７ ６ ５ ４ ３ ２ １";
const BORDER: &str = "+---------------------------+";

/// How a written record ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// No terminal line.
    None,
    /// The last move mates: a `詰み` line and `まで N 手で詰み`.
    Mate,
    /// No mate exists: a `不詰` line.
    NoMate,
    /// The search was given up: a `中断` line.
    Interrupt,
}

fn hand_line(counts: &[u8; 7]) -> String {
    let items: Vec<String> = PieceKind::HAND_SFEN_ORDER
        .iter()
        .filter(|k| counts[k.index()] > 0)
        .map(|k| {
            let n = counts[k.index()] as u32;
            if n == 1 {
                k.japanese().to_string()
            } else {
                format!("{}{}", k.japanese(), kanji_count(n))
            }
        })
        .collect();
    if items.is_empty() {
        "なし".to_string()
    } else {
        items.join("　")
    }
}

/// The header of a record: `手合割：平手` for the start position, otherwise the hands, the
/// board diagram and `後手番` when White moves first. The move number is not written.
pub fn write_position(setup: &Setup) -> String {
    let mut out = String::new();
    let start = Setup::from_sfen(STARTPOS_SFEN).expect("start position");
    if setup.board == start.board
        && setup.hands == start.hands
        && setup.side_to_move == start.side_to_move
    {
        out += "手合割：平手\n";
        return out;
    }
    out += &format!("後手の持駒：{}\n", hand_line(&setup.hands[1]));
    out += COLUMNS;
    out += "\n";
    out += BORDER;
    out += "\n";
    for rank in 0..9u8 {
        out.push('|');
        for file in (0..9u8).rev() {
            match setup.piece_at(Square::new(file, rank)) {
                None => out += " ・",
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(diagram_char(p.kind));
                }
            }
        }
        out.push('|');
        out.push(KANJI_DIGITS[rank as usize]);
        out.push('\n');
    }
    out += BORDER;
    out += "\n";
    out += &format!("先手の持駒：{}\n", hand_line(&setup.hands[0]));
    if setup.side_to_move == Color::White {
        out += "後手番\n";
    }
    out
}

/// A complete KIF record (UTF-8 text) of `moves` played from `pos`. The moves must be legal
/// in turn (as a solver's line is).
pub fn write(pos: &Position, moves: &[Move], ending: Ending) -> String {
    write_with_headers(pos, moves, ending, &[])
}

/// [`write()`] with `headers` (`key：value` lines, as [`KifRecord::headers`] holds them:
/// `表題`, `作者`, `作品番号` …) before the position, in their order, keys and values
/// trimmed. A header that would not be read back as itself (a key that is empty, names a
/// hand or `手合割`, starts a comment or ends the main line; a key or value of more than one
/// line) is left out.
pub fn write_with_headers(
    pos: &Position,
    moves: &[Move],
    ending: Ending,
    headers: &[(String, String)],
) -> String {
    let mut out = String::new();
    out += WRITE_HEADER;
    out += "\n";
    out += &format!(
        "# ---- tsume {} ----\n",
        option_env!("CARGO_PKG_VERSION").unwrap_or("")
    );
    for (key, value) in headers {
        let (key, value) = (key.trim(), value.trim());
        if super::read::reads_back_as_header(key, value) {
            out += &format!("{key}：{value}\n");
        }
    }
    out += &write_position(&pos.to_setup());
    out += MOVES_HEADER;
    out += "\n";
    let mut p = pos.clone();
    let mut prev = None;
    for (i, &m) in moves.iter().enumerate() {
        out += &format!("{:>4} {}\n", i + 1, notation::kif_move(&p, m, prev));
        prev = Some(m.to());
        p.do_move(m);
    }
    match ending {
        Ending::None => {}
        Ending::Mate => {
            out += &format!("{:>4} 詰み\n", moves.len() + 1);
            out += &format!("まで{}手で詰み\n", moves.len());
        }
        Ending::NoMate => out += &format!("{:>4} 不詰\n", moves.len() + 1),
        Ending::Interrupt => {
            out += &format!("{:>4} 中断\n", moves.len() + 1);
            out += &format!("まで{}手で中断\n", moves.len());
        }
    }
    out
}
