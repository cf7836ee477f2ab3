//! One reader for the ways a game or a position is written down, so that every command
//! that reads one accepts the same texts:
//!
//! - a GGF record `(;GM[Othello]...BO[8 ... *]B[f5]W[d6]...;)`;
//! - a transcript from the standard start, `f5d6c3d3` (any case; spaces, commas and move
//!   numbers like `1.` between moves are allowed; passes may be written `pa` or left out);
//! - a position: the 64 squares and the side to move (see [`super::notation`]), or the
//!   GGS board string `[8 <64 squares> <side>]`, either one optionally followed by a
//!   transcript from that position.
//!
//! A WTHOR game is binary: [`super::wthor::read_wthor_game`] reads one, and
//! [`GameInput::from_moves`] makes it a game like the others.

use super::ggf::parse_ggf;
use super::notation::{FormatError, parse_position};
use super::{Move, Position};
use crate::game::Game;

/// A game as read: where it starts, and its moves with every pass explicit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInput {
    pub start: Position,
    /// The moves in order, a [`Move::PASS`] wherever the side to move had no move.
    pub moves: Vec<Move>,
    /// The players' names, where the record gives them.
    pub black: Option<String>,
    pub white: Option<String>,
}

impl GameInput {
    /// A game from `start` with `moves` (passes may be left out); an illegal move is an
    /// error that names it and its number.
    pub fn from_moves(start: Position, moves: &[Move]) -> Result<GameInput, FormatError> {
        let mut game = GameInput {
            start,
            moves: Vec::with_capacity(moves.len() + 2),
            black: None,
            white: None,
        };
        let mut pos = start;
        for (index, &mv) in moves.iter().enumerate() {
            pos = game.push(pos, mv, index + 1)?;
        }
        Ok(game)
    }

    /// Plays `mv` (number `number` as written) on `pos`, putting in a pass first when the
    /// side to move has none and the move is the opponent's.
    fn push(&mut self, pos: Position, mv: Move, number: usize) -> Result<Position, FormatError> {
        if let Some(next) = pos.try_play(mv) {
            self.moves.push(mv);
            return Ok(next);
        }
        if !mv.is_pass()
            && pos.has_no_move()
            && let Some(next) = pos.pass().try_play(mv)
        {
            self.moves.extend([Move::PASS, mv]);
            return Ok(next);
        }
        let why = if pos.has_no_move() && pos.pass().has_no_move() {
            "the game is over".to_string()
        } else if mv.is_pass() {
            format!("{} has a move and cannot pass", pos.side)
        } else {
            format!("illegal for {}", pos.side)
        };
        Err(FormatError::new(format!("move {number} ({mv}): {why}")))
    }

    /// The position after every move.
    pub fn final_position(&self) -> Position {
        self.moves.iter().fold(self.start, |pos, &mv| pos.play(mv))
    }

    /// The positions before each move, with the move played there.
    pub fn positions(&self) -> Vec<(Position, Move)> {
        let mut pos = self.start;
        self.moves
            .iter()
            .map(|&mv| {
                let before = pos;
                pos = pos.play(mv);
                (before, mv)
            })
            .collect()
    }
}

/// Reads a game or a position in any of the forms the module documentation lists.
pub fn parse_game(text: &str) -> Result<GameInput, FormatError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(FormatError::new(
            "empty game: expected a GGF record, a transcript like f5d6c3 or a position",
        ));
    }
    if text.starts_with('(') {
        let ggf = parse_ggf(text)?;
        return Ok(GameInput {
            start: ggf.start,
            moves: ggf.played_moves(),
            black: ggf.black,
            white: ggf.white,
        });
    }
    let (start, rest) = if let Some(inner) = text.strip_prefix('[') {
        let (board, rest) = inner.split_once(']').ok_or_else(|| {
            FormatError::new("GGS board string: `]` missing after `[8 <64 squares> <side>`")
        })?;
        let squares = board
            .trim()
            .strip_prefix('8')
            .filter(|rest| rest.starts_with(char::is_whitespace))
            .ok_or_else(|| {
                FormatError::new("GGS board string: expected `[8 <64 squares> <side>]`")
            })?;
        let start = parse_position(squares).map_err(|e| e.context("GGS board string"))?;
        (start, rest)
    } else if let Some(split) = position_prefix(text) {
        (parse_position(&text[..split])?, &text[split..])
    } else if text.starts_with(|c| {
        matches!(
            c,
            'X' | 'x' | '*' | 'O' | 'o' | '0' | 'W' | 'w' | '-' | '.' | '_'
        )
    }) {
        // A position string with a mistake (no transcript starts so): its error says which.
        (parse_position(text)?, "")
    } else {
        (Position::start(), text)
    };
    let moves = parse_transcript(rest).map_err(|e| {
        if start == Position::start() && !text.starts_with(|c: char| c.is_ascii_alphabetic() && c.to_ascii_lowercase() <= 'h') {
            FormatError::new(format!(
                "not a game: {:?} is neither moves (f5d6...), a position string, a GGS board string ([8 ...]) nor a GGF record ((;...;))",
                crate::text::shorten(text, 20)
            ))
        } else {
            e
        }
    })?;
    GameInput::from_moves(start, &moves)
}

/// Where a leading position string (64 squares and the side, whitespace allowed) ends,
/// if the text starts with one. A transcript never does: its second character is a
/// digit from 1 to 8, which no square of a position string is.
fn position_prefix(text: &str) -> Option<usize> {
    let mut count = 0;
    for (index, c) in text.char_indices() {
        if c.is_whitespace() {
            continue;
        }
        if !matches!(
            c,
            'X' | 'x' | '*' | 'B' | 'b' | 'O' | 'o' | '0' | 'W' | 'w' | '-' | '.' | '_'
        ) {
            return None;
        }
        count += 1;
        if count == 65 {
            return Some(index + c.len_utf8());
        }
    }
    None
}

/// The moves of a transcript: squares like `f5` (any case) or `pa`, run together or
/// separated by spaces, commas, semicolons or move numbers (`1.`, `12`).
pub fn parse_transcript(text: &str) -> Result<Vec<Move>, FormatError> {
    let chars: Vec<char> = text.chars().collect();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || matches!(c, ',' | ';' | '.') {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            // A move number (`1.` or `12`) between moves.
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            continue;
        }
        let pair: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        let mv: Move = pair.parse().map_err(|_| {
            let shown: String = chars[i..(i + 6).min(chars.len())].iter().collect();
            FormatError::new(format!(
                "transcript: move {}: {shown:?} is not a square (a1..h8) or a pass (pa)",
                moves.len() + 1
            ))
        })?;
        moves.push(mv);
        i += 2;
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn the_forms_agree() {
        let moves = parse_transcript("f5d6c3").unwrap();
        let expected = GameInput::from_moves(Position::start(), &moves).unwrap();
        let ggs = START.replace('X', "*");
        for text in [
            "f5d6c3".to_string(),
            "F5 D6 c3".to_string(),
            "1. f5 2. d6, 3. c3".to_string(),
            format!("{START} f5d6c3"),
            format!("[8 {ggs}] f5 d6 c3"),
            "(;GM[Othello]B[f5]W[d6]B[c3];)".to_string(),
        ] {
            let game = parse_game(&text).unwrap();
            assert_eq!(game.start, expected.start, "{text}");
            assert_eq!(game.moves, expected.moves, "{text}");
        }
        let only_position = parse_game(&format!("[8 {ggs}]")).unwrap();
        assert_eq!(only_position.start, Position::start());
        assert!(only_position.moves.is_empty());
    }

    #[test]
    fn passes_may_be_left_out() {
        // Black has no move here, White has g8.
        let board = format!("{}*-- X", "O".repeat(61));
        let pos = parse_position(&board).unwrap();
        assert!(pos.has_no_move() && !pos.pass().has_no_move());
        let implicit = parse_game(&format!("{board} g8")).unwrap();
        let explicit = parse_game(&format!("{board} pa g8")).unwrap();
        assert_eq!(implicit.moves, vec![Move::PASS, "g8".parse().unwrap()]);
        assert_eq!(implicit, explicit);
        assert_eq!(implicit.final_position().side, Color::Black);
    }

    #[test]
    fn errors_name_the_move() {
        let error = parse_game("f5d6c3a1").unwrap_err().to_string();
        assert_eq!(error, "move 4 (a1): illegal for white");
        let error = parse_game("f5 zz").unwrap_err().to_string();
        assert!(
            error.contains("move 2") && error.contains("\"zz\""),
            "{error}"
        );
        assert!(parse_game("").is_err());
        let error = parse_game("nonsense").unwrap_err().to_string();
        assert!(
            error.starts_with("not a game: \"nonsense\" is neither"),
            "{error}"
        );
        let error = parse_game("XO-- X").unwrap_err().to_string();
        assert!(error.contains("too short: 5 squares"), "{error}");
        assert!(parse_game("[8 ---]").is_err());
        assert!(parse_game("(;GM[Othello]B[a1];)").is_err());
        assert!(
            parse_game("f5pa")
                .unwrap_err()
                .to_string()
                .contains("cannot pass")
        );
    }
}
