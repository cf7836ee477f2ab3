//! GTP's grammar: a line, its id split off, read into a [`Command`].

use std::time::Duration;

use super::super::gogui::{self, GoguiCommand};
use super::super::lexer::{self, ParseError, syntax};
use crate::engine::EngineGame;
use crate::game::Color;
use crate::options::{self, EngineOption};

/// Every command but the engine options' (which follow them, from
/// [`options::ENGINE_OPTIONS`]), standard ones first, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "help",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "list_games",
    "set_game",
    "set_rules",
    "set_position",
    "position",
    "perft",
    "solve",
    "eval",
];

/// One parsed command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command<M> {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    BoardSize(u32),
    ClearBoard,
    Komi,
    Play(Color, M),
    Genmove(Color),
    RegGenmove(Color),
    Undo,
    ShowBoard,
    FinalScore,
    TimeSettings {
        main: Duration,
        byo_yomi: Duration,
        stones: u32,
    },
    TimeLeft {
        color: Color,
        left: Duration,
        stones: u32,
    },
    ListGames,
    SetGame(String),
    SetRules(String),
    SetPosition(String),
    Position,
    Perft(u32),
    Solve,
    Eval,
    /// An engine option and its value (checked as the option reads it).
    Set(&'static EngineOption, String),
    /// One of GoGui's commands (see [`gogui`]).
    Gogui(GoguiCommand),
}

/// GTP's preprocessing: control characters other than HT dropped, HT made a space,
/// everything from `#` cut.
pub fn preprocess(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    line.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

/// Splits the optional numeric id from a preprocessed, non-empty line.
pub fn split_id(line: &str) -> (Option<String>, &str) {
    if let Some((first, rest)) = lexer::command_word(line)
        && first.chars().all(|c| c.is_ascii_digit())
    {
        return (Some(first.to_string()), rest);
    }
    (None, line)
}

fn color(command: &str, text: &str) -> Result<Color, ParseError> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(syntax(
            command,
            format!("not a colour: {:?}", lexer::shorten(text)),
        )),
    }
}

/// Reads a command line (id already split off) into a command.
pub fn parse<G: EngineGame>(line: &str) -> Result<Command<G::Move>, ParseError> {
    parse_with::<G>(line, None)
}

/// [`parse`], reading the moves of `play` as GoGui's points on a board of `gogui` size
/// when it is given.
pub fn parse_with<G: EngineGame>(
    line: &str,
    gogui: Option<u32>,
) -> Result<Command<G::Move>, ParseError> {
    let (name, args) =
        lexer::command_word(line).ok_or_else(|| ParseError::Unknown(String::new()))?;
    if let Some(command) = gogui::parse(name, args) {
        return command.map(Command::Gogui);
    }
    let words = lexer::words(args);
    let arity = |n: usize| -> Result<(), ParseError> {
        if words.len() == n {
            Ok(())
        } else {
            Err(syntax(
                name,
                format!("expects {n} arguments, got {}", words.len()),
            ))
        }
    };
    let command = match name {
        "protocol_version" => lexer::none(name, args).map(|()| Command::ProtocolVersion)?,
        "name" => lexer::none(name, args).map(|()| Command::Name)?,
        "version" => lexer::none(name, args).map(|()| Command::Version)?,
        "known_command" => {
            arity(1)?;
            Command::KnownCommand(words[0].to_string())
        }
        // `help` as GNU Go and other GTP engines answer it: the command list.
        "list_commands" | "help" => lexer::none(name, args).map(|()| Command::ListCommands)?,
        "quit" => lexer::none(name, args).map(|()| Command::Quit)?,
        "boardsize" => Command::BoardSize(lexer::single(name, args, "a board size")?),
        "clear_board" => lexer::none(name, args).map(|()| Command::ClearBoard)?,
        "komi" => {
            let komi: f64 = lexer::single(name, args, "a number")?;
            if !komi.is_finite() {
                return Err(syntax(name, "komi must be finite"));
            }
            Command::Komi
        }
        "play" => {
            arity(2)?;
            let c = color(name, words[0])?;
            let mv = match gogui {
                Some(size) => gogui::parse_move::<G>(words[1], size),
                None => G::parse_move_text(words[1]),
            }
            .map_err(|e| syntax(name, e))?;
            Command::Play(c, mv)
        }
        "genmove" | "reg_genmove" => {
            arity(1)?;
            let c = color(name, words[0])?;
            if name == "genmove" {
                Command::Genmove(c)
            } else {
                Command::RegGenmove(c)
            }
        }
        "undo" => lexer::none(name, args).map(|()| Command::Undo)?,
        "showboard" => lexer::none(name, args).map(|()| Command::ShowBoard)?,
        "final_score" => lexer::none(name, args).map(|()| Command::FinalScore)?,
        "time_settings" => {
            arity(3)?;
            Command::TimeSettings {
                main: lexer::seconds(name, words[0])?,
                byo_yomi: lexer::seconds(name, words[1])?,
                stones: words[2]
                    .parse()
                    .map_err(|_| syntax(name, "stones must be a whole number"))?,
            }
        }
        "time_left" => {
            arity(3)?;
            Command::TimeLeft {
                color: color(name, words[0])?,
                left: lexer::seconds(name, words[1])?,
                stones: words[2]
                    .parse()
                    .map_err(|_| syntax(name, "stones must be a whole number"))?,
            }
        }
        "list_games" => lexer::none(name, args).map(|()| Command::ListGames)?,
        "set_game" => {
            let game = args.trim();
            if game.is_empty() {
                return Err(syntax(name, "expects a game name"));
            }
            Command::SetGame(game.to_string())
        }
        "set_rules" => Command::SetRules(args.trim().to_string()),
        "set_position" => Command::SetPosition(args.trim().to_string()),
        "position" => lexer::none(name, args).map(|()| Command::Position)?,
        "perft" => Command::Perft(lexer::option(name, args, &options::PERFT_DEPTH)?),
        "solve" => lexer::none(name, args).map(|()| Command::Solve)?,
        "eval" => lexer::none(name, args).map(|()| Command::Eval)?,
        _ => match options::by_gtp(name) {
            Some(option) => Command::Set(option, lexer::setting(name, args, option)?),
            None => return Err(ParseError::Unknown(name.to_string())),
        },
    };
    Ok(command)
}
