//! The engine's numeric options in one table: each one's name, default and range, read
//! by the command line, GTP and NBoard alike, so that a value one of them accepts is
//! accepted by all and a value out of range is refused by all in the same words
//! (`depth must be between 1 and 64`).

use std::fmt;
use std::str::FromStr;

/// A numeric option: what a value must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range<T> {
    /// The option's name in errors.
    pub name: &'static str,
    /// The value used when none is given (`None`: no limit).
    pub default: Option<T>,
    pub min: T,
    pub max: T,
    /// The unit the value counts, after the range in errors ("" for a plain count).
    pub unit: &'static str,
}

/// Search depth in plies.
pub const DEPTH: Range<u32> = Range {
    name: "depth",
    default: Some(crate::engine::DEFAULT_DEPTH),
    min: 1,
    max: 64,
    unit: "",
};

/// Nodes per search.
pub const NODES: Range<u64> = Range {
    name: "nodes",
    default: None,
    min: 1,
    max: u64::MAX,
    unit: "",
};

/// Time per move in milliseconds (at most a day).
pub const MOVETIME_MS: Range<u64> = Range {
    name: "movetime",
    default: None,
    min: 1,
    max: 86_400_000,
    unit: " ms",
};

/// Transposition table size (the midgame and endgame tables together).
pub const HASH_MB: Range<usize> = Range {
    name: "hash",
    default: Some(crate::search::DEFAULT_HASH_MB),
    min: 1,
    max: 4096,
    unit: " MB",
};

/// Search threads.
pub const THREADS: Range<usize> = Range {
    name: "threads",
    default: Some(1),
    min: 1,
    max: 1024,
    unit: "",
};

/// Draw value for Black in hundredths of a disc (NBoard's `set contempt`).
pub const CONTEMPT: Range<i32> = Range {
    name: "contempt",
    default: Some(0),
    min: -6400,
    max: 6400,
    unit: "",
};

/// Depth of a move-path count (`perft`).
pub const PERFT_DEPTH: Range<u32> = Range {
    name: "perft depth",
    default: None,
    min: 0,
    max: 20,
    unit: "",
};

/// The engine options with a range, by their command-line flag: `iago --help` and
/// protocol.md's option table state these ranges, and a test holds them to it.
pub fn engine_option_ranges() -> Vec<(&'static str, String)> {
    vec![
        ("--depth", DEPTH.span()),
        ("--level", LEVEL.span()),
        ("--movetime", MOVETIME_MS.span()),
        ("--hash", HASH_MB.span()),
        ("--threads", THREADS.span()),
        ("--contempt", CONTEMPT.span()),
    ]
}

/// Levels, as users of other engines know them (`--level N`, GTP `set_level N`,
/// NBoard's `set depth N`).
pub const LEVEL: Range<u32> = Range {
    name: "level",
    default: None,
    min: 1,
    max: 60,
    unit: "",
};

/// What a level sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The midgame search depth.
    pub depth: u32,
    /// Where the win/loss/draw and exact solves start, in moves to the end of the game
    /// (Othello's empties); a game whose plan has no solves (Mill) has no use for it, and
    /// its level is its depth alone.
    pub endgame: crate::search::Endgame,
}

/// Level `n` (1..60): midgame depth n; the exact solve from 2n moves before the end up to
/// level 8, then from n + 8 (the solver is cheap next to a midgame search of the same
/// depth), the win/loss/draw solve two moves earlier. Nothing here knows the board: in
/// Othello, from level 52 on, every position the depth reaches is solved.
pub fn level(n: u32) -> Level {
    let n = n.max(1);
    let exact = (2 * n).min(n + 8);
    Level {
        depth: n,
        endgame: crate::search::Endgame {
            exact,
            win_loss_draw: exact + 2,
        },
    }
}

/// Why a value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not a whole number at all.
    NotANumber,
    /// A whole number outside the range; the message states the range.
    OutOfRange(String),
}

impl<T: Copy + PartialOrd + fmt::Display + FromStr> Range<T> {
    /// `value` if it is in the range, else the error that states the range.
    pub fn check(&self, value: T) -> Result<T, String> {
        if value < self.min || value > self.max {
            Err(self.error())
        } else {
            Ok(value)
        }
    }

    /// The value written `text` (a whole number in decimal). A number too large or too
    /// small for the type, or with a sign the option cannot take, is out of range too.
    pub fn parse(&self, text: &str) -> Result<T, Refused> {
        let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Refused::NotANumber);
        }
        let value = text
            .parse::<T>()
            .map_err(|_| Refused::OutOfRange(self.error()))?;
        self.check(value).map_err(Refused::OutOfRange)
    }

    /// The range as the documents write it: `1..64`.
    pub fn span(&self) -> String {
        format!("{}..{}", self.min, self.max)
    }

    /// `depth must be between 1 and 64`; `nodes must be at least 1` where the maximum
    /// is the type's own (19 digits or more), no limit worth stating.
    pub fn error(&self) -> String {
        let max = self.max.to_string();
        if max.len() >= 19 {
            return format!("{} must be at least {}{}", self.name, self.min, self.unit);
        }
        format!(
            "{} must be between {} and {max}{}",
            self.name, self.min, self.unit
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_in_range_pass_and_others_get_the_range_stated() {
        assert_eq!(DEPTH.parse("1"), Ok(1));
        assert_eq!(DEPTH.parse("64"), Ok(64));
        let depth = Err(Refused::OutOfRange("depth must be between 1 and 64".into()));
        for text in ["0", "65", "-1", "+100", "99999999999999999999"] {
            assert_eq!(DEPTH.parse(text), depth, "{text}");
        }
        for text in ["", "x", "1.5", "-", "1e3", " 3"] {
            assert_eq!(DEPTH.parse(text), Err(Refused::NotANumber), "{text}");
        }
        assert_eq!(CONTEMPT.parse("-6400"), Ok(-6400));
        assert_eq!(
            HASH_MB.check(0),
            Err("hash must be between 1 and 4096 MB".into())
        );
        assert_eq!(
            MOVETIME_MS.error(),
            "movetime must be between 1 and 86400000 ms"
        );
        assert_eq!(PERFT_DEPTH.error(), "perft depth must be between 0 and 20");
    }

    #[test]
    fn levels_solve_earlier_than_their_depth() {
        let at = |n| {
            let level = level(n);
            (
                level.depth,
                level.endgame.exact,
                level.endgame.win_loss_draw,
            )
        };
        assert_eq!(at(1), (1, 2, 4));
        assert_eq!(at(8), (8, 16, 18));
        assert_eq!(at(16), (16, 24, 26));
        // Beyond Othello's 60 empties: every position is solved.
        assert_eq!(at(52), (52, 60, 62));
        for n in 1..=64 {
            let (depth, exact, wld) = at(n);
            assert!(depth == n && exact > depth && wld == exact + 2, "{n}");
        }
    }

    #[test]
    fn defaults_lie_in_their_ranges() {
        assert_eq!(DEPTH.default.map(|d| DEPTH.check(d).is_ok()), Some(true));
        assert_eq!(
            HASH_MB.default.map(|d| HASH_MB.check(d).is_ok()),
            Some(true)
        );
        assert_eq!(
            THREADS.default.map(|d| THREADS.check(d).is_ok()),
            Some(true)
        );
        assert_eq!(
            CONTEMPT.default.map(|d| CONTEMPT.check(d).is_ok()),
            Some(true)
        );
    }
}
