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
//! A file of games ([`GameFile`]) holds one game or many, read the same way by every
//! command (`analyze`, `book learn`):
//!
//! - a WTHOR database (binary: a name ending in `.wtb`, or bytes that are not text);
//! - GGF records, one or many, anywhere in the text (as `iago match --out` writes them,
//!   one a line, or as game servers archive them);
//! - otherwise one game a line in any of the forms above (transcripts, positions with
//!   moves), blank lines and lines starting with `#` skipped; a text whose lines are not
//!   games each but which is one game as a whole (a transcript or a position written over
//!   several lines) is that one game.
//!
//! Text may start with a UTF-8 byte order mark.

use std::path::Path;

use super::ggf::{parse_ggf, split_records};
use super::notation::{FormatError, parse_position};
use super::wthor::{read_bytes, wthor_count, wthor_game};
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
    /// How many of the first moves are an opening's, not the players' (a match's
    /// record: [`super::ggf::GgfGame::untimed_opening`]).
    pub opening: usize,
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
            opening: 0,
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
            opening: ggf.untimed_opening(),
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

/// The error for game `number` of a file that holds `count`.
pub fn no_such_game(number: usize, count: usize) -> FormatError {
    let held = match count {
        0 => "no game".to_string(),
        1 => "one game".to_string(),
        n => format!("games 1 to {n}"),
    };
    FormatError::new(format!("no game {number}: the file holds {held}"))
}

/// The games of a file (see the module documentation), each read when asked for.
#[derive(Clone, Debug)]
pub enum GameFile {
    /// The bytes of a WTHOR database.
    Wthor(Vec<u8>),
    /// Each game's text with the line it starts on.
    Text(Vec<(usize, String)>),
}

impl GameFile {
    /// The games of the file at `path` (at most [`crate::files::GAMES`] bytes); `wthor`
    /// reads it as a WTHOR database whatever its name.
    pub fn read(path: &Path, wthor: bool) -> Result<GameFile, FormatError> {
        let bytes = read_bytes(path)?;
        let named_wthor = path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("wtb"));
        GameFile::from_bytes(bytes, wthor || named_wthor).map_err(|e| e.context(path.display()))
    }

    /// The games of a file's bytes: a WTHOR database when `wthor` is set or the bytes
    /// are not text.
    pub fn from_bytes(bytes: Vec<u8>, wthor: bool) -> Result<GameFile, FormatError> {
        if wthor {
            wthor_count(&bytes)?;
            return Ok(GameFile::Wthor(bytes));
        }
        if bytes.contains(&0) {
            wthor_count(&bytes).map_err(|e| {
                FormatError::new(format!("neither UTF-8 text nor a WTHOR database ({e})"))
            })?;
            return Ok(GameFile::Wthor(bytes));
        }
        let text = crate::files::text(bytes).map_err(|e| {
            FormatError::new(format!("{e}; neither games as text nor a WTHOR database"))
        })?;
        GameFile::from_text(&text)
    }

    /// The games of a text: GGF records, or one game a line (or one game over several).
    pub fn from_text(text: &str) -> Result<GameFile, FormatError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim_start().starts_with('(') {
            return Ok(GameFile::Text(split_records(text)?));
        }
        let lines: Vec<(usize, String)> = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim().to_string()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
            .collect();
        if lines.len() > 1
            && lines.iter().any(|(_, line)| parse_game(line).is_err())
            && parse_game(text).is_ok()
        {
            let first = lines[0].0;
            return Ok(GameFile::Text(vec![(first, text.to_string())]));
        }
        Ok(GameFile::Text(lines))
    }

    /// How many games the file holds (WTHOR: as many as its header announces and it has
    /// records for).
    pub fn len(&self) -> usize {
        match self {
            GameFile::Wthor(bytes) => wthor_count(bytes).unwrap_or(0),
            GameFile::Text(games) => games.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `number`, from 1; its error says which game (and line) it is.
    pub fn game(&self, number: usize) -> Result<GameInput, FormatError> {
        match self {
            GameFile::Wthor(bytes) => {
                let game = wthor_game(bytes, number)?;
                GameInput::from_moves(Position::start(), &game.moves)
                    .map_err(|e| e.context(format!("game {number}")))
            }
            GameFile::Text(games) => {
                let (line, text) = games
                    .get(number.wrapping_sub(1))
                    .ok_or_else(|| no_such_game(number, games.len()))?;
                parse_game(text).map_err(|e| {
                    if games.len() == 1 {
                        e
                    } else {
                        e.context(format!("game {number} (line {line})"))
                    }
                })
            }
        }
    }
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
    fn a_games_file_is_records_lines_or_one_game() {
        let records = "(;GM[Othello]B[f5]W[d6];)\n(;GM[Othello]B[d3];)\n";
        let games = GameFile::from_text(records).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(
            games.game(2).unwrap().moves,
            parse_transcript("d3").unwrap()
        );
        let lines = "\u{feff}# two games\nf5d6c3\n\nd3c3\n";
        let games = GameFile::from_text(lines).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(
            games.game(1).unwrap().moves,
            parse_transcript("f5d6c3").unwrap()
        );
        let error = GameFile::from_text("f5d6\nzz\n")
            .unwrap()
            .game(2)
            .unwrap_err();
        assert!(
            error.to_string().starts_with("game 2 (line 2): "),
            "{error}"
        );
        // A position written over several lines, then its moves: one game.
        let board = START.replace(' ', "");
        let rows: Vec<&str> = (0..8).map(|row| &board[8 * row..8 * row + 8]).collect();
        let text = format!("{}\n{}\nf5d6", rows.join("\n"), &board[64..]);
        let games = GameFile::from_text(&text).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games.game(1).unwrap().moves.len(), 2);
        assert_eq!(
            games.game(2).unwrap_err().to_string(),
            "no game 2: the file holds one game"
        );
        assert_eq!(
            GameFile::from_text("\n# nothing\n")
                .unwrap()
                .game(1)
                .unwrap_err()
                .to_string(),
            "no game 1: the file holds no game"
        );
    }

    #[test]
    fn a_wthor_database_is_told_by_its_bytes() {
        let game = super::super::wthor::WthorGame {
            moves: parse_transcript("f5d6c3").unwrap(),
            black_discs: 0,
            theoretical_black: 0,
            year: 2026,
        };
        let bytes = super::super::wthor::encode_wthor(&[game.clone(), game], 2026).unwrap();
        let games = GameFile::from_bytes(bytes, false).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(
            games.game(2).unwrap().moves,
            parse_transcript("f5d6c3").unwrap()
        );
        assert_eq!(
            games.game(3).unwrap_err().to_string(),
            "WTHOR: no game 3: the file holds games 1 to 2"
        );
        let empty = super::super::wthor::encode_wthor(&[], 2026).unwrap();
        assert_eq!(
            GameFile::from_bytes(empty, true)
                .unwrap()
                .game(1)
                .unwrap_err()
                .to_string(),
            "WTHOR: no game 1: the file holds no game"
        );
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
