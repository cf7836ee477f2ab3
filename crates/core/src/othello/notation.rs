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
