//! Every engine option once ([`ENGINE_OPTIONS`]): its names on the command line, in GTP,
//! NBoard and UGI, its range, its help line, how a value is read into the [`Settings`]
//! and what the engine does when it changes ([`Applies`]). The command line, the three
//! protocols, `iago --help` and UGI's option list all read this table, so that a value
//! one of them accepts is accepted by all, a value out of range is refused by all in the
//! same words (`depth must be between 1 and 64`), and a new option is one row.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

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

/// Which opening book to use: `--book PATH`, `--book none`, or the game's own (for a game
/// with a book; the others have none whatever is chosen).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BookChoice {
    #[default]
    Default,
    None,
    File(PathBuf),
}

impl BookChoice {
    /// Reads a `--book` argument: `none` disables the book, anything else is a path.
    pub fn from_arg(arg: &str) -> BookChoice {
        if arg.eq_ignore_ascii_case("none") {
            BookChoice::None
        } else {
            BookChoice::File(PathBuf::from(arg))
        }
    }
}

/// Depth used when nothing else bounds a search, so that no request runs forever.
pub const DEFAULT_DEPTH: u32 = 10;

/// Search depth in plies.
pub const DEPTH: Range<u32> = Range {
    name: "depth",
    default: Some(DEFAULT_DEPTH),
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

/// Draw value for Black in hundredths of a disc (NBoard's `set contempt`): accepted and
/// ignored, draws score 0.
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
    /// Not a value of this kind: what one would be (`a whole number or none`).
    Expected(&'static str),
}

impl Refused {
    /// The error of a command-line `flag` whose value `text` was refused, in the words
    /// every subcommand uses: `--depth 100: depth must be between 1 and 64, ...`.
    pub fn on_command_line(&self, flag: &str, text: &str) -> String {
        match self {
            Refused::NotANumber => format!("{flag}: {text:?} is not a valid number"),
            Refused::OutOfRange(message) => format!("{flag} {text}: {message}"),
            Refused::Expected(what) => format!("{flag}: expected {what}, got {text:?}"),
        }
    }
}

/// How the engine chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Player {
    /// Search (and book).
    #[default]
    Search,
    /// A random legal move (seeded by `--seed`), for tests and arenas.
    Random,
}

/// The engine's settings: the command line's, changed later by protocol commands, each
/// through its row of [`ENGINE_OPTIONS`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// A plain depth; a level, when one is set, stands for it ([`Settings::depth`]).
    pub depth: Option<u32>,
    /// A level sets the depth and where solves start ([`level`]).
    pub level: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub hash_mb: Option<usize>,
    pub threads: Option<usize>,
    /// Variety seed: `Some` makes the engine pick among near-best moves (and is the seed of
    /// the random player).
    pub seed: Option<u64>,
    pub eval: Option<String>,
    pub book: BookChoice,
    pub player: Player,
}

impl Settings {
    /// The depth searches go to: the level's where a level is set, else the plain one.
    pub fn depth(&self) -> Option<u32> {
        self.level.map(|n| level(n).depth).or(self.depth)
    }

    /// Where the level, if one is set, starts the solves.
    pub fn endgame(&self) -> Option<crate::search::Endgame> {
        self.level.map(|n| level(n).endgame)
    }
}

/// What the engine does when an option changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    /// A limit of the next searches: kept in the settings.
    Limits,
    /// The transposition table's size: the tables are allocated at once.
    Hash,
    /// The searcher's threads.
    Threads,
    /// The variety seed (and the random player's).
    Seed,
    /// The evaluation.
    Eval,
    /// Read once, when the engine starts (the command line only).
    StartUp,
    /// Accepted (its value checked) and otherwise ignored.
    Ignored,
}

impl Applies {
    /// Whether the change reaches the searcher: a search in flight is stopped first.
    pub fn stops_search(self) -> bool {
        matches!(
            self,
            Applies::Hash | Applies::Threads | Applies::Seed | Applies::Eval
        )
    }
}

/// What a value of an option is, as UGI's `option` lines describe it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number of the option's range.
    Number,
    /// A limit: a whole number of the option's range, or 0 or `none` for none.
    Limit,
    /// The name of one of the game's evaluators.
    Evaluator,
    /// Any word.
    Word,
}

/// A range as the documents and UGI state it.
pub trait Bounds: Sync {
    /// `1..64`.
    fn span(&self) -> String;
    /// The least and the largest value, as text.
    fn bounds(&self) -> (String, String);
}

impl<T: Copy + PartialOrd + fmt::Display + FromStr + Sync> Bounds for Range<T> {
    fn span(&self) -> String {
        Range::span(self)
    }

    fn bounds(&self) -> (String, String) {
        (self.min.to_string(), self.max.to_string())
    }
}

/// One engine option: declared once, read everywhere.
pub struct EngineOption {
    /// Its name in messages and in the settings (`hash`).
    pub name: &'static str,
    /// The command-line flag (`--hash`) and its argument in the help (`MB`).
    pub flag: &'static str,
    pub argument: &'static str,
    /// The GTP command that sets it (`hash`), if GTP has one.
    pub gtp: Option<&'static str>,
    /// The NBoard variable of `set NAME VALUE` (`hash`), if NBoard has one.
    pub nboard: Option<&'static str>,
    /// The UGI option of `setoption name NAME value VALUE` (`Hash`), if UGI has one.
    pub ugi: Option<&'static str>,
    pub kind: Kind,
    /// The range a number is checked against, stated in the help and protocol.md.
    pub range: Option<&'static dyn Bounds>,
    /// `--help`'s line.
    pub help: &'static str,
    /// Reads a value into the settings.
    pub set: fn(&mut Settings, &str) -> Result<(), Refused>,
    /// The value the settings hold, as text (`none` for none).
    pub get: fn(&Settings) -> String,
    pub applies: Applies,
}

/// Options are told apart by their names.
impl PartialEq for EngineOption {
    fn eq(&self, other: &EngineOption) -> bool {
        self.name == other.name
    }
}

impl fmt::Debug for EngineOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EngineOption({})", self.name)
    }
}

/// A number of `range`.
fn number<T>(range: &Range<T>, text: &str) -> Result<T, Refused>
where
    T: Copy + PartialOrd + fmt::Display + FromStr,
{
    range.parse(text.trim())
}

/// A limit of `range`, or 0 or `none` for none (which its range error says too).
fn limit<T>(range: &Range<T>, text: &str) -> Result<Option<T>, Refused>
where
    T: Copy + PartialOrd + fmt::Display + FromStr + Default,
{
    let text = text.trim();
    if text.eq_ignore_ascii_case("none") || text.parse::<T>().is_ok_and(|v| v == T::default()) {
        return Ok(None);
    }
    match range.parse(text) {
        Ok(value) => Ok(Some(value)),
        Err(Refused::OutOfRange(message)) => Err(Refused::OutOfRange(format!(
            "{message}, or 0 or none for no limit"
        ))),
        Err(other) => Err(other),
    }
}

/// One word (a name, a path without spaces).
fn one_word(text: &str, what: &'static str) -> Result<String, Refused> {
    let text = text.trim();
    if text.is_empty() || text.contains(char::is_whitespace) {
        return Err(Refused::Expected(what));
    }
    Ok(text.to_string())
}

/// An optional value as text: `none` for none.
fn shown<T: fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "none".to_string(), |value| value.to_string())
}

/// Every engine option, in the order of `iago --help` and GTP's `list_commands`.
pub const ENGINE_OPTIONS: &[EngineOption] = &[
    EngineOption {
        name: "depth",
        flag: "--depth",
        argument: "N",
        gtp: Some("set_depth"),
        nboard: None,
        ugi: None,
        kind: Kind::Limit,
        range: Some(&DEPTH),
        help: "search depth in plies (1..64; 0 or none: no limit)",
        set: |settings, text| {
            settings.depth = limit(&DEPTH, text)?;
            settings.level = None;
            Ok(())
        },
        get: |settings| shown(settings.depth),
        applies: Applies::Limits,
    },
    EngineOption {
        name: "level",
        flag: "--level",
        argument: "N",
        gtp: Some("set_level"),
        // The NBoard GUI's levels.
        nboard: Some("depth"),
        ugi: Some("Level"),
        kind: Kind::Limit,
        range: Some(&LEVEL),
        help: "level (1..60): depth N, and the endgame solved from 2N empties (up to \
               level 8), then from N + 8 (protocol.md, Levels); none: back to the depth",
        set: |settings, text| {
            settings.level = limit(&LEVEL, text)?;
            Ok(())
        },
        get: |settings| shown(settings.level),
        applies: Applies::Limits,
    },
    EngineOption {
        name: "nodes",
        flag: "--nodes",
        argument: "N",
        gtp: Some("set_nodes"),
        nboard: Some("nodes"),
        ugi: None,
        kind: Kind::Limit,
        range: None,
        help: "node limit per search (deterministic; 0 or none: no limit)",
        set: |settings, text| {
            settings.nodes = limit(&NODES, text)?;
            Ok(())
        },
        get: |settings| shown(settings.nodes),
        applies: Applies::Limits,
    },
    EngineOption {
        name: "movetime",
        flag: "--movetime",
        argument: "MS",
        gtp: Some("set_movetime"),
        nboard: Some("movetime"),
        ugi: None,
        kind: Kind::Limit,
        range: Some(&MOVETIME_MS),
        help: "time per move in milliseconds (1..86400000; 0 or none: no limit)",
        set: |settings, text| {
            settings.movetime = limit(&MOVETIME_MS, text)?.map(Duration::from_millis);
            Ok(())
        },
        get: |settings| shown(settings.movetime.map(|time| time.as_millis())),
        applies: Applies::Limits,
    },
    EngineOption {
        name: "eval",
        flag: "--eval",
        argument: "NAME",
        gtp: Some("set_eval"),
        nboard: Some("eval"),
        ugi: Some("Eval"),
        kind: Kind::Evaluator,
        range: None,
        help: "evaluation: pattern (default), simple, discs, mobility, ... (GTP set_eval \
               with a wrong name lists them all)",
        set: |settings, text| {
            settings.eval = Some(one_word(text, "an evaluator name")?);
            Ok(())
        },
        get: |settings| settings.eval.clone().unwrap_or_default(),
        applies: Applies::Eval,
    },
    EngineOption {
        name: "hash",
        flag: "--hash",
        argument: "MB",
        gtp: Some("hash"),
        nboard: Some("hash"),
        ugi: Some("Hash"),
        kind: Kind::Number,
        range: Some(&HASH_MB),
        help: "transposition table size (1..4096, default 64)",
        set: |settings, text| {
            settings.hash_mb = Some(number(&HASH_MB, text)?);
            Ok(())
        },
        get: |settings| {
            settings
                .hash_mb
                .unwrap_or(crate::search::DEFAULT_HASH_MB)
                .to_string()
        },
        applies: Applies::Hash,
    },
    EngineOption {
        name: "threads",
        flag: "--threads",
        argument: "N",
        gtp: Some("threads"),
        nboard: Some("threads"),
        ugi: Some("Threads"),
        kind: Kind::Number,
        range: Some(&THREADS),
        help: "search threads (1..1024; midgame and endgame solver, up to one per core)",
        set: |settings, text| {
            settings.threads = Some(number(&THREADS, text)?);
            Ok(())
        },
        get: |settings| settings.threads.unwrap_or(1).to_string(),
        applies: Applies::Threads,
    },
    EngineOption {
        name: "seed",
        flag: "--seed",
        argument: "N",
        gtp: Some("seed"),
        nboard: Some("seed"),
        ugi: Some("Seed"),
        kind: Kind::Word,
        range: None,
        help: "variety: play randomly among moves near the best (and seed of the random \
               player); without it (or with none) play is deterministic",
        set: |settings, text| {
            let text = text.trim();
            settings.seed = if text.eq_ignore_ascii_case("none") {
                None
            } else {
                Some(
                    text.parse()
                        .map_err(|_| Refused::Expected("a whole number or none"))?,
                )
            };
            Ok(())
        },
        get: |settings| shown(settings.seed),
        applies: Applies::Seed,
    },
    EngineOption {
        name: "contempt",
        flag: "--contempt",
        argument: "N",
        gtp: None,
        nboard: Some("contempt"),
        ugi: None,
        kind: Kind::Number,
        range: Some(&CONTEMPT),
        help: "draw value for Black in hundredths of a disc (-6400..6400): accepted for \
               NBoard's sake and ignored, draws score 0",
        set: |_, text| number(&CONTEMPT, text).map(drop),
        get: |_| "0".into(),
        applies: Applies::Ignored,
    },
    EngineOption {
        name: "book",
        flag: "--book",
        argument: "PATH|none",
        gtp: None,
        nboard: None,
        ugi: None,
        kind: Kind::Word,
        range: None,
        help: "opening book file, or none (default: the embedded book)",
        set: |settings, text| {
            settings.book = BookChoice::from_arg(text);
            Ok(())
        },
        get: |settings| format!("{:?}", settings.book),
        applies: Applies::StartUp,
    },
    EngineOption {
        name: "player",
        flag: "--player",
        argument: "search|random",
        gtp: None,
        nboard: None,
        ugi: None,
        kind: Kind::Word,
        range: None,
        help: "how moves are chosen (random: any legal move, for tests)",
        set: |settings, text| {
            settings.player = match text.trim() {
                "search" => Player::Search,
                "random" => Player::Random,
                _ => return Err(Refused::Expected("search or random")),
            };
            Ok(())
        },
        get: |settings| format!("{:?}", settings.player).to_lowercase(),
        applies: Applies::StartUp,
    },
];

/// The option whose command-line flag is `flag`.
pub fn by_flag(flag: &str) -> Option<&'static EngineOption> {
    ENGINE_OPTIONS.iter().find(|option| option.flag == flag)
}

/// The option GTP sets with `command`.
pub fn by_gtp(command: &str) -> Option<&'static EngineOption> {
    ENGINE_OPTIONS
        .iter()
        .find(|option| option.gtp == Some(command))
}

/// The option NBoard sets with `set VARIABLE`.
pub fn by_nboard(variable: &str) -> Option<&'static EngineOption> {
    ENGINE_OPTIONS
        .iter()
        .find(|option| option.nboard == Some(variable))
}

/// The option UGI sets with `setoption name NAME` (any case).
pub fn by_ugi(name: &str) -> Option<&'static EngineOption> {
    ENGINE_OPTIONS
        .iter()
        .find(|option| option.ugi.is_some_and(|ugi| ugi.eq_ignore_ascii_case(name)))
}

/// The engine options with a range, by their command-line flag: `iago --help` and
/// protocol.md's option table state these ranges, and a test holds them to it.
pub fn engine_option_ranges() -> Vec<(&'static str, String)> {
    ENGINE_OPTIONS
        .iter()
        .filter_map(|option| option.range.map(|range| (option.flag, range.span())))
        .collect()
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
