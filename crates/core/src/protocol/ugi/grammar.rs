//! UGI's grammar: a line read into a [`Command`], or why it was refused.

use super::super::lexer;
use crate::options::{self, Range, Refused};

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    Fen(String),
}

/// The arguments of `go`, as given (times in milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub p1time: Option<u64>,
    pub p2time: Option<u64>,
    pub p1inc: Option<u64>,
    pub p2inc: Option<u64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    /// Parameters this engine does not know (`wtime 1000`), skipped: the search still
    /// answers, as a controller waits for its `bestmove`.
    pub ignored: Vec<String>,
}

/// The questions of `query`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    GameOver,
    P1Turn,
    Result,
}

/// One parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Ugi,
    IsReady,
    NewGame,
    Position { start: Start, moves: Vec<String> },
    Go(Go),
    Stop,
    Quit,
    Query(Query),
    SetOption { name: String, value: String },
}

/// Why a line was refused: the text after `info string error: `.
pub type Refusal = String;

/// Times are refused beyond this (about 31 years in milliseconds).
const MAX_MS: u64 = 1 << 40;

fn milliseconds(key: &str, text: &str) -> Result<u64, Refusal> {
    match text.parse::<u64>() {
        Ok(ms) if ms <= MAX_MS && text.bytes().all(|b| b.is_ascii_digit()) => Ok(ms),
        _ => Err(format!(
            "go: {key} expects milliseconds (a whole number from 0 to {MAX_MS}), got {:?}",
            lexer::shorten(text)
        )),
    }
}

fn ranged<T>(key: &str, text: &str, range: &Range<T>) -> Result<T, Refusal>
where
    T: Copy + PartialOrd + std::fmt::Display + std::str::FromStr,
{
    range.parse(text).map_err(|refused| match refused {
        Refused::OutOfRange(message) => format!("go: {message}"),
        Refused::NotANumber => {
            format!("go: {key} expects a number, got {:?}", lexer::shorten(text))
        }
        Refused::Expected(what) => {
            format!("go: {key} expects {what}, got {:?}", lexer::shorten(text))
        }
    })
}

/// The parameters of `go` that take a value.
const GO_PARAMETERS: [&str; 8] = [
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
];

fn parse_go(args: &str) -> Result<Go, Refusal> {
    let words = lexer::words(args);
    let mut go = Go::default();
    let mut seen: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key != "infinite" && !GO_PARAMETERS.contains(&key) {
            // Skipped with its value, if the next word is none of ours: another
            // engine's parameter (`wtime 1000`, `mate 3`) must not cost the `bestmove`.
            let value = words
                .get(i + 1)
                .filter(|next| !GO_PARAMETERS.contains(next) && **next != "infinite");
            let skipped = match value {
                Some(value) => format!("{key} {value}"),
                None => key.to_string(),
            };
            go.ignored.push(lexer::shorten(&skipped));
            i += 1 + usize::from(value.is_some());
            continue;
        }
        if seen.contains(&key) {
            return Err(format!("go: {key} given twice"));
        }
        seen.push(key);
        if key == "infinite" {
            go.infinite = true;
            i += 1;
            continue;
        }
        let Some(&value) = words.get(i + 1) else {
            return Err(format!("go: {key} needs a value"));
        };
        match key {
            "p1time" => go.p1time = Some(milliseconds(key, value)?),
            "p2time" => go.p2time = Some(milliseconds(key, value)?),
            "p1inc" => go.p1inc = Some(milliseconds(key, value)?),
            "p2inc" => go.p2inc = Some(milliseconds(key, value)?),
            "movestogo" => {
                go.movestogo = match value.parse::<u32>() {
                    Ok(n) if n >= 1 && value.bytes().all(|b| b.is_ascii_digit()) => Some(n),
                    _ => {
                        return Err(format!(
                            "go: movestogo expects a whole number from 1, got {:?}",
                            lexer::shorten(value)
                        ));
                    }
                }
            }
            "movetime" => go.movetime = Some(ranged(key, value, &options::MOVETIME_MS)?),
            "depth" => go.depth = Some(ranged(key, value, &options::DEPTH)?),
            _ => go.nodes = Some(ranged(key, value, &options::NODES)?),
        }
        i += 2;
    }
    Ok(go)
}

fn parse_position(args: &str) -> Result<Command, Refusal> {
    let words = lexer::words(args);
    let (start, rest) = match words.split_first() {
        Some((&"startpos", rest)) => (None, rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(rest.len());
            if end == 0 {
                return Err("position fen: the position is missing".into());
            }
            (Some(rest[..end].join(" ")), &rest[end..])
        }
        Some((other, _)) => {
            return Err(format!(
                "position: expected startpos or fen, got {:?}",
                lexer::shorten(other)
            ));
        }
        None => return Err("position: expected startpos or fen".into()),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.iter().map(|m| m.to_string()).collect(),
        Some((other, _)) => {
            return Err(format!(
                "position: expected moves after the position, got {:?}",
                lexer::shorten(other)
            ));
        }
    };
    Ok(Command::Position {
        start: start.map_or(Start::StartPos, Start::Fen),
        moves,
    })
}

fn parse_setoption(args: &str) -> Result<Command, Refusal> {
    let words = lexer::words(args);
    let Some((&"name", rest)) = words.split_first() else {
        return Err("setoption: expected setoption name NAME value VALUE".into());
    };
    let split = rest
        .iter()
        .position(|w| *w == "value")
        .unwrap_or(rest.len());
    let name = rest[..split].join(" ");
    if name.is_empty() {
        return Err("setoption: the option name is missing".into());
    }
    let value = rest.get(split + 1..).unwrap_or_default().join(" ");
    Ok(Command::SetOption { name, value })
}

/// Reads one command line (not blank).
pub fn parse(line: &str) -> Result<Command, Refusal> {
    let Some((name, args)) = lexer::command_word(line) else {
        return Err("empty line".into());
    };
    let none = |command: Command| {
        lexer::none(name, args)
            .map(|()| command)
            .map_err(|e| e.to_string())
    };
    match name {
        "ugi" => none(Command::Ugi),
        "isready" => none(Command::IsReady),
        "uginewgame" => none(Command::NewGame),
        "position" => parse_position(args),
        "go" => parse_go(args).map(Command::Go),
        "stop" => none(Command::Stop),
        "quit" => none(Command::Quit),
        "query" => match lexer::words(args)[..] {
            ["gameover"] => Ok(Command::Query(Query::GameOver)),
            ["p1turn"] => Ok(Command::Query(Query::P1Turn)),
            ["result"] => Ok(Command::Query(Query::Result)),
            _ => Err(format!(
                "query: expected gameover, p1turn or result, got {:?}",
                lexer::shorten(args.trim())
            )),
        },
        "setoption" => parse_setoption(args),
        _ => Err(format!("unknown command {:?}", lexer::shorten(name))),
    }
}
