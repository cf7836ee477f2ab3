//! Position strings: the 64 squares a1..h8 row by row, then the side to move.
//!
//! Black discs are any of `X x * B b`, white discs any of `O o 0 W w`, empty squares any of
//! `- . _`; whitespace anywhere is ignored, so `"---...--- X"` and a board laid out in
//! eight lines both read. [`format_position`] writes the canonical form: 64 characters of
//! `X`, `O`, `-`, a space, then `X` or `O`.

use std::fmt;

use super::position::Position;
use super::square::NotationError;
use crate::game::Color;

/// Why a text in one of the Othello formats (position strings, OBF, GGF, WTHOR) could not
/// be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    message: String,
}

impl FormatError {
    pub fn new(message: impl Into<String>) -> FormatError {
        FormatError {
            message: message.into(),
        }
    }

    /// The same error with where it happened in front (`"line 3: ..."`).
    pub fn context(self, place: impl fmt::Display) -> FormatError {
        FormatError::new(format!("{place}: {}", self.message))
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FormatError {}

impl From<NotationError> for FormatError {
    fn from(error: NotationError) -> FormatError {
        FormatError::new(error.0)
    }
}

/// What one character of a position string stands for.
fn disc(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | '*' | 'B' | 'b' => Some(Some(Color::Black)),
        'O' | 'o' | '0' | 'W' | 'w' => Some(Some(Color::White)),
        '-' | '.' | '_' => Some(None),
        _ => None,
    }
}

/// Reads a position string (see the module documentation).
pub fn parse_position(text: &str) -> Result<Position, FormatError> {
    let mut chars = text.chars().filter(|c| !c.is_whitespace());
    let (mut black, mut white) = (0u64, 0u64);
    for square in 0..64u32 {
        let name = square_name(square);
        let c = chars.next().ok_or_else(|| {
            FormatError::new(format!(
                "position string too short: {square} squares, expected 64 and the side to move"
            ))
        })?;
        match disc(c) {
            Some(Some(Color::Black)) => black |= 1 << square,
            Some(Some(Color::White)) => white |= 1 << square,
            Some(None) => {}
            None => {
                return Err(FormatError::new(format!(
                    "position string: {c:?} on {name} is not a disc (X O) or an empty square (-)"
                )));
            }
        }
    }
    let side = match chars.next() {
        None => {
            return Err(FormatError::new(
                "position string: the side to move (X or O) is missing after the 64 squares",
            ));
        }
        Some(c) => match disc(c) {
            Some(Some(color)) => color,
            _ => {
                return Err(FormatError::new(format!(
                    "position string: side to move {c:?} is neither X nor O"
                )));
            }
        },
    };
    if let Some(extra) = chars.next() {
        return Err(FormatError::new(format!(
            "position string: unexpected {extra:?} after the side to move"
        )));
    }
    Position::from_colors(black, white, side).map_err(FormatError::new)
}

/// Writes `pos` as 64 characters of `X`, `O`, `-`, a space and the side to move.
pub fn format_position(pos: &Position) -> String {
    let (black, white) = (pos.black(), pos.white());
    let mut text: String = (0..64)
        .map(|square| {
            let bit = 1u64 << square;
            if black & bit != 0 {
                'X'
            } else if white & bit != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    text.push(' ');
    text.push(match pos.side {
        Color::Black => 'X',
        Color::White => 'O',
    });
    text
}

/// The Othello start position in [`parse_fen`]'s format.
pub const START_FEN: &str = "8/8/8/3ox3/3xo3/8/8/8 x";

/// Reads a FEN-style position, the format UGI match runners pass to `position fen` (laid
/// out like the Ataxx FEN they also use): the eight rows as drawn, row 1 first, separated
/// by `/`, each from column a to h with `x` for Black, `o` for White and a digit 1-8 for
/// that many empty squares; then the side to move, `x` or `o`. Upper case reads too.
/// Ataxx-style move counters after the side to move (two whole numbers) are accepted and
/// ignored: Othello needs neither.
pub fn parse_fen(text: &str) -> Result<Position, FormatError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board, side, counters) = match fields[..] {
        [] => return Err(FormatError::new("fen: empty")),
        [_] => {
            return Err(FormatError::new(
                "fen: the side to move (x or o) is missing after the board",
            ));
        }
        [board, side, ref counters @ ..] => (board, side, counters),
    };
    if !counters.is_empty()
        && (counters.len() != 2 || !counters.iter().all(|c| c.parse::<u32>().is_ok()))
    {
        return Err(FormatError::new(
            "fen: after the side to move only two move counters may follow",
        ));
    }
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 8 {
        return Err(FormatError::new(format!(
            "fen: {} rows, expected 8 separated by /",
            rows.len()
        )));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (row, text) in rows.iter().enumerate() {
        let mut column = 0u32;
        let mut last_digit = false;
        for c in text.chars() {
            let square = row as u32 * 8 + column;
            match c {
                '1'..='8' => {
                    if last_digit {
                        return Err(FormatError::new(format!(
                            "fen: row {} has two digits in a row",
                            row + 1
                        )));
                    }
                    column += c as u32 - '0' as u32;
                    last_digit = true;
                    continue;
                }
                'x' | 'X' if column < 8 => black |= 1 << square,
                'o' | 'O' if column < 8 => white |= 1 << square,
                'x' | 'X' | 'o' | 'O' => column += 1,
                _ => {
                    return Err(FormatError::new(format!(
                        "fen: {c:?} in row {} is not x, o or a digit 1-8",
                        row + 1
                    )));
                }
            }
            column += 1;
            last_digit = false;
        }
        if column != 8 {
            return Err(FormatError::new(format!(
                "fen: row {} has {column} squares, expected 8",
                row + 1
            )));
        }
    }
    let side = match side {
        "x" | "X" => Color::Black,
        "o" | "O" => Color::White,
        other => {
            return Err(FormatError::new(format!(
                "fen: side to move {:?} is neither x nor o",
                crate::text::shorten(other, 20)
            )));
        }
    };
    Position::from_colors(black, white, side).map_err(FormatError::new)
}

/// Writes `pos` in [`parse_fen`]'s format (lower case, no move counters).
pub fn format_fen(pos: &Position) -> String {
    let (black, white) = (pos.black(), pos.white());
    let mut text = String::new();
    for row in 0..8 {
        if row > 0 {
            text.push('/');
        }
        let mut empty = 0;
        for column in 0..8 {
            let bit = 1u64 << (row * 8 + column);
            let c = if black & bit != 0 {
                'x'
            } else if white & bit != 0 {
                'o'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                text.push_str(&empty.to_string());
                empty = 0;
            }
            text.push(c);
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
    }
    text.push(' ');
    text.push(match pos.side {
        Color::Black => 'x',
        Color::White => 'o',
    });
    text
}

/// `a1`..`h8` for a square index.
fn square_name(square: u32) -> String {
    format!(
        "{}{}",
        (b'a' + (square % 8) as u8) as char,
        square / 8 % 8 + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_reads_and_writes_the_start_and_other_positions() {
        use crate::game::Game;
        assert_eq!(parse_fen(START_FEN), Ok(Position::start()));
        assert_eq!(format_fen(&Position::start()), START_FEN);
        assert_eq!(
            parse_fen("8/8/8/3OX3/3XO3/8/8/8 X 0 1"),
            Ok(Position::start())
        );
        let pos = Position::start().play("d3".parse().unwrap());
        assert_eq!(format_fen(&pos), "8/8/3x4/3xx3/3xo3/8/8/8 o");
        assert_eq!(parse_fen(&format_fen(&pos)), Ok(pos));
        for bad in [
            "",
            "8/8/8/3ox3/3xo3/8/8/8",
            "8/8/8/3ox3/3xo3/8/8 x",
            "8/8/8/3ox3/3xo3/8/8/8/8 x",
            "8/8/8/3ox4/3xo3/8/8/8 x",
            "8/8/8/3ox2/3xo3/8/8/8 x",
            "8/8/8/3oy3/3xo3/8/8/8 x",
            "8/8/8/3ox3/3xo3/8/8/44 x",
            "8/8/8/3ox3/3xo3/8/8/8 b",
            "8/8/8/3ox3/3xo3/8/8/8 x 0",
            "8/8/8/3ox3/3xo3/8/8/8 x a b",
            "8/8/8/3-x3/3xo3/8/8/8 x",
        ] {
            assert!(parse_fen(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn start_position_round_trip() {
        let text = "---------------------------OX------XO--------------------------- X";
        let pos = parse_position(text).unwrap();
        assert_eq!(pos, Position::start());
        assert_eq!(format_position(&pos), text);
    }

    #[test]
    fn lenient_spellings() {
        let rows = "........ ........ ........ ...wb... ...bw... ........ ........ ........ b";
        assert_eq!(parse_position(rows).unwrap(), Position::start());
        let white = parse_position(&format!("{}*0", "_".repeat(63))).unwrap();
        assert_eq!(white.side, Color::White);
        assert_eq!(white.opponent, 1 << 63);
    }
}
