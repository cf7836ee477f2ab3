//! Squares and moves in Othello notation: `a1`..`h8` (a1 the top-left corner, row 1 at
//! the top), case-insensitive; a pass is `PA` or `pass`.

use std::fmt;
use std::str::FromStr;

/// A square index (0 = a1 .. 63 = h8) or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The pass move.
    pub const PASS: Move = Move(64);

    /// The move on square `index` (0..64).
    pub fn from_index(index: u8) -> Move {
        debug_assert!(index < 64);
        Move(index)
    }

    /// The move at `column` (0 = a) and `row` (0 = row 1, the top).
    pub fn from_coords(column: u8, row: u8) -> Move {
        Move(row * 8 + column)
    }

    /// The square index, or `None` for a pass.
    pub fn square(self) -> Option<u8> {
        (self.0 < 64).then_some(self.0)
    }

    pub fn is_pass(self) -> bool {
        self.0 == 64
    }

    /// The NBoard form: upper case (`F5`, `PA`).
    pub fn to_upper(self) -> String {
        self.to_string().to_ascii_uppercase()
    }
}

impl crate::game::MoveBits for Move {
    fn to_bits(self) -> u32 {
        u32::from(self.0)
    }

    fn from_bits(bits: u32) -> Move {
        // A square or the pass, never another index.
        Move((bits % 65) as u8)
    }
}

/// Why a square or move could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

impl FromStr for Move {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Move, NotationError> {
        if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("pass") {
            return Ok(Move::PASS);
        }
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return Err(NotationError(format!("not a square: {text:?}")));
        }
        let column = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        if column < 8 && row < 8 {
            Ok(Move::from_coords(column, row))
        } else {
            Err(NotationError(format!("not a square: {text:?}")))
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.square() {
            None => f.write_str("pass"),
            Some(square) => write!(f, "{}{}", (b'a' + square % 8) as char, square / 8 + 1),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_square() {
        for index in 0..64 {
            let mv = Move::from_index(index);
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
            assert_eq!(mv.to_upper().parse::<Move>(), Ok(mv));
        }
        assert_eq!("a1".parse::<Move>().unwrap().square(), Some(0));
        assert_eq!("H8".parse::<Move>().unwrap().square(), Some(63));
        assert_eq!("d3".parse::<Move>().unwrap().square(), Some(19));
        assert_eq!("PA".parse::<Move>(), Ok(Move::PASS));
        assert_eq!("Pass".parse::<Move>(), Ok(Move::PASS));
    }

    #[test]
    fn bad_squares() {
        for bad in ["", "a", "a0", "a9", "i1", "1a", "a10", "é1", "pas", "--"] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?}");
        }
    }
}
