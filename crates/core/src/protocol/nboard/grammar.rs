//! NBoard's grammar: a line read into a [`Command`].

use super::super::lexer::{self, ParseError, syntax};
use crate::engine::EngineGame;
use crate::options::{self, EngineOption};

/// The most moves a hint reports.
const MAX_HINTS: usize = 64;

/// One parsed command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command<M> {
    NBoard(u32),
    /// A GGF game record, read by the game.
    SetGame(String),
    SetPosition(String),
    /// An engine option and its value (checked as the option reads it); NBoard's
    /// `set depth` is the level.
    Set(&'static EngineOption, String),
    Move {
        mv: M,
        seconds: Option<f64>,
    },
    Go,
    Hint(usize),
    Ping(u64),
    Learn,
    Analyze,
    Quit,
    Perft(u32),
    Solve,
    Eval,
    ShowBoard,
    Position,
}

/// Moves a hint reports: `hint N` with N 1..64, a larger N read as 64.
const HINT_COUNT: options::Range<usize> = options::Range {
    name: "hint count",
    default: None,
    min: 1,
    max: MAX_HINTS,
    unit: "",
};

fn hint_count(args: &str) -> Result<usize, ParseError> {
    let digits = args.trim().trim_start_matches('0');
    let above = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits.len() > 2 || digits.parse::<usize>().is_ok_and(|n| n > MAX_HINTS));
    if above {
        return Ok(MAX_HINTS);
    }
    lexer::option("hint", args, &HINT_COUNT)
}

/// `mv[/eval[/seconds]]`.
fn move_argument<G: EngineGame>(args: &str) -> Result<Command<G::Move>, ParseError> {
    let words = lexer::words(args);
    let [text] = words[..] else {
        return Err(syntax("move", "expects one move"));
    };
    let mut parts = text.split('/');
    let mv = G::parse_move_text(parts.next().unwrap_or("")).map_err(|e| syntax("move", e))?;
    let _eval = parts.next();
    let seconds = match parts.next() {
        None | Some("") => None,
        Some(time) => Some(lexer::seconds("move", time)?.as_secs_f64()),
    };
    if parts.next().is_some() {
        return Err(syntax("move", "too many fields"));
    }
    Ok(Command::Move { mv, seconds })
}

/// Reads one command line.
pub fn parse<G: EngineGame>(line: &str) -> Result<Command<G::Move>, ParseError> {
    let (name, args) =
        lexer::command_word(line).ok_or_else(|| ParseError::Unknown(String::new()))?;
    let none = |command| lexer::none(name, args).map(|()| command);
    match name {
        "nboard" => Ok(Command::NBoard(lexer::single(name, args, "a version")?)),
        "set" => {
            let (variable, value) = lexer::command_word(args)
                .ok_or_else(|| syntax(name, "expects a variable and a value"))?;
            let command = format!("set {variable}");
            let command = command.as_str();
            match variable {
                "game" => Ok(Command::SetGame(value.trim().to_string())),
                "position" => Ok(Command::SetPosition(value.trim().to_string())),
                _ => match options::by_nboard(variable) {
                    Some(option) => Ok(Command::Set(
                        option,
                        lexer::setting(command, value, option)?,
                    )),
                    None => Err(syntax(
                        name,
                        format!("unknown variable {:?}", lexer::shorten(variable)),
                    )),
                },
            }
        }
        "move" => move_argument::<G>(args),
        "go" => none(Command::Go),
        "hint" => Ok(Command::Hint(hint_count(args)?)),
        "ping" => Ok(Command::Ping(lexer::single(name, args, "a number")?)),
        "learn" => none(Command::Learn),
        "analyze" => none(Command::Analyze),
        "quit" => none(Command::Quit),
        "perft" => Ok(Command::Perft(lexer::option(
            name,
            args,
            &options::PERFT_DEPTH,
        )?)),
        "solve" => none(Command::Solve),
        "eval" => none(Command::Eval),
        "showboard" => none(Command::ShowBoard),
        "position" => none(Command::Position),
        _ => Err(ParseError::Unknown(name.to_string())),
    }
}
