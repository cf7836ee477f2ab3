//! Text forms: moves (`d6`, `d6-d5`, `d6xa1`, `d6-d5xa1`, `g7xa1xb2` for two removals),
//! the position string and the ASCII board.
//!
//! Position string: `BOARD SIDE WHITE_HAND BLACK_HAND [QUIET_PLIES]`, where BOARD is the
//! 24 points in the seed's order (outer ring a7 d7 g7 g4 g1 d1 a1 a4, middle ring b6 d6
//! f6 f4 f2 d2 b2 b4, inner ring c5 d5 e5 e4 e3 d3 c3 c4), each `W` (white), `B` (black)
//! or `-` (empty), with optional `/` between rings; SIDE is `w` or `b`; the hands are the
//! stones still to place (0..9); QUIET_PLIES counts the plies of sliding or flying since
//! the last mill (default 0). The start position is
//! `--------/--------/-------- w 9 9 0`.

use super::board::{NAMES, POINTS, point_by_name};
use super::moves::{Move, NONE};
use super::position::{MillPosition, Rules};
use crate::game::{Color, Game};

pub fn format_move(mv: Move) -> String {
    let mut text = String::new();
    if mv.from != NONE {
        text.push_str(NAMES[usize::from(mv.from)]);
        text.push('-');
    }
    if mv.to != NONE {
        text.push_str(NAMES[usize::from(mv.to)]);
    }
    for r in mv.removals() {
        text.push('x');
        text.push_str(NAMES[r]);
    }
    text
}

/// Reads a move's notation without checking it is legal anywhere; two removals are put
/// in point order.
pub fn parse_move_text(text: &str) -> Result<Move, String> {
    let text = text.trim().to_ascii_lowercase();
    let mut parts = text.split('x');
    let action = parts.next().unwrap_or_default();
    let (from, to) = match action.split_once('-') {
        Some((from, to)) => (Some(point(from)?), point(to)?),
        None => (None, point(action)?),
    };
    let mut removals = parts.map(point).collect::<Result<Vec<_>, _>>()?;
    if removals.len() > 2 {
        return Err(format!("{text:?}: at most two removals"));
    }
    removals.sort_unstable();
    Ok(Move {
        from: from.unwrap_or(NONE),
        to,
        remove: [
            removals.first().copied().unwrap_or(NONE),
            removals.get(1).copied().unwrap_or(NONE),
        ],
    })
}

/// Reads a move and checks it is legal in `pos`. Two removals may come in either order.
pub fn parse_move(pos: &MillPosition, text: &str) -> Result<Move, String> {
    let wanted = parse_move_text(text)?;
    let text = text.trim().to_ascii_lowercase();
    let moves = pos.legal_moves();
    if moves.as_ref().contains(&wanted) {
        return Ok(wanted);
    }
    // Say what is wrong with the closest legal move, if any.
    let same_action = moves
        .as_ref()
        .iter()
        .any(|m| m.from == wanted.from && m.to == wanted.to);
    if pos.is_game_over() {
        Err("the game is over".into())
    } else if same_action && wanted.remove[0] == NONE {
        Err(format!(
            "{text:?} closes a mill: add the removal, e.g. {text}xa1"
        ))
    } else if same_action {
        Err(format!("{text:?}: that stone may not be removed"))
    } else {
        Err(format!("illegal move {text:?}"))
    }
}

/// Reads rule settings, words `KEY=VALUE` applied in turn to `base`: `draw-plies=N` (the
/// move-count rule in plies, 0 for none, at most 100), `repetitions=N` (occurrences that
/// draw, 0 for none), `removal=one|per-mill`, `flying=on|off`, and the word `standard`
/// for the default rules.
pub fn parse_rules(text: &str, base: Rules) -> Result<Rules, String> {
    let mut rules = base;
    for word in text.split_whitespace() {
        let word = word.to_ascii_lowercase();
        if word == "standard" {
            rules = Rules::default();
            continue;
        }
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("rule {word:?} is not KEY=VALUE"))?;
        let number = |max: u32| {
            value
                .parse::<u32>()
                .ok()
                .filter(|&n| n <= max)
                .ok_or_else(|| format!("{key}: {value:?} is not a whole number 0..{max}"))
        };
        let switch = || match value {
            "on" | "true" | "yes" => Ok(true),
            "off" | "false" | "no" => Ok(false),
            _ => Err(format!("{key}: {value:?} is not on or off")),
        };
        match key {
            "draw-plies" => rules.draw_plies = number(super::position::MAX_DRAW_PLIES)?,
            "repetitions" => rules.repetitions = number(100)?,
            "removal" => {
                rules.removal_per_mill = match value {
                    "one" => false,
                    "per-mill" => true,
                    _ => return Err(format!("removal: {value:?} is not one or per-mill")),
                }
            }
            "flying" => rules.flying = switch()?,
            _ => {
                return Err(format!(
                    "unknown rule {key:?} (draw-plies, repetitions, removal, flying)"
                ));
            }
        }
    }
    Ok(rules)
}

/// The rules as [`parse_rules`] reads them back.
pub fn format_rules(rules: Rules) -> String {
    format!(
        "draw-plies={} repetitions={} removal={} flying={}",
        rules.draw_plies,
        rules.repetitions,
        if rules.removal_per_mill {
            "per-mill"
        } else {
            "one"
        },
        if rules.flying { "on" } else { "off" }
    )
}

fn point(name: &str) -> Result<u8, String> {
    point_by_name(name).ok_or_else(|| format!("{name:?} is not a point of the board"))
}

pub fn format_position(pos: &MillPosition) -> String {
    let white = pos.stones(Color::White);
    let black = pos.stones(Color::Black);
    let mut text = String::new();
    for p in 0..POINTS {
        if p > 0 && p % 8 == 0 {
            text.push('/');
        }
        text.push(if white & (1 << p) != 0 {
            'W'
        } else if black & (1 << p) != 0 {
            'B'
        } else {
            '-'
        });
    }
    let side = if pos.side_to_move() == Color::White {
        'w'
    } else {
        'b'
    };
    format!(
        "{text} {side} {} {} {}",
        pos.hand(Color::White),
        pos.hand(Color::Black),
        pos.quiet_plies()
    )
}

/// Reads a position string (see the module comment) under the given rules; `start` is
/// the start position.
pub fn parse_position(text: &str, rules: Rules) -> Result<MillPosition, String> {
    if text.trim() == "start" {
        return Ok(MillPosition::with_rules(rules));
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    if !(4..=5).contains(&words.len()) {
        return Err(format!(
            "position {text:?}: expected BOARD SIDE WHITE_HAND BLACK_HAND [QUIET_PLIES]"
        ));
    }
    let mut stones = [0u32; 2];
    let cells: Vec<char> = words[0].chars().filter(|&c| c != '/').collect();
    if cells.len() != POINTS {
        return Err(format!(
            "board {:?}: expected 24 points, found {}",
            words[0],
            cells.len()
        ));
    }
    for (p, c) in cells.iter().enumerate() {
        match c {
            'W' | 'w' => stones[0] |= 1 << p,
            'B' | 'b' => stones[1] |= 1 << p,
            '-' | '.' => {}
            _ => return Err(format!("board: bad point {c:?} (W, B or -)")),
        }
    }
    let side = match words[1] {
        "w" | "W" | "white" => Color::White,
        "b" | "B" | "black" => Color::Black,
        other => return Err(format!("side to move {other:?}: w or b")),
    };
    let hand = |word: &str| -> Result<u8, String> {
        word.parse::<u8>()
            .ok()
            .filter(|&h| h <= 9)
            .ok_or_else(|| format!("stones in hand {word:?}: 0..9"))
    };
    let mut pos = MillPosition::setup(stones, [hand(words[2])?, hand(words[3])?], side, rules)?;
    if let Some(word) = words.get(4) {
        let quiet = word
            .parse::<u32>()
            .map_err(|_| format!("move counter {word:?}: a whole number"))?;
        pos.set_quiet_plies(quiet)?;
    }
    Ok(pos)
}

/// The board as ASCII art with coordinates, then hands and the side to move.
pub fn board_text(pos: &MillPosition) -> String {
    const ART: [&str; 13] = [
        "7 A-----------B-----------C",
        "  |           |           |",
        "6 |   D-------E-------F   |",
        "  |   |       |       |   |",
        "5 |   |   G---H---I   |   |",
        "  |   |   |       |   |   |",
        "4 J---K---L       M---N---O",
        "  |   |   |       |   |   |",
        "3 |   |   P---Q---R   |   |",
        "  |   |       |       |   |",
        "2 |   S-------T-------U   |",
        "  |           |           |",
        "1 V-----------W-----------X",
    ];
    // Points in reading order (top row left to right, then down).
    const ORDER: [&str; POINTS] = [
        "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4",
        "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
    ];
    let white = pos.stones(Color::White);
    let black = pos.stones(Color::Black);
    let mut out = String::new();
    for line in ART {
        for c in line.chars() {
            if c.is_ascii_uppercase() {
                let name = ORDER[usize::from(c as u8 - b'A')];
                let p = point_by_name(name).map_or(0, u32::from);
                out.push(if white & (1 << p) != 0 {
                    'O'
                } else if black & (1 << p) != 0 {
                    'X'
                } else {
                    '+'
                });
            } else {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out.push_str("  a   b   c   d   e   f   g\n");
    out.push_str(&format!(
        "White (O) in hand {}, Black (X) in hand {}; {} to move",
        pos.hand(Color::White),
        pos.hand(Color::Black),
        pos.side_to_move()
    ));
    out
}
