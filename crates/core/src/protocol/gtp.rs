//! GTP 2 (the Go Text Protocol, as Othello tools use it): `[id] name args` lines in,
//! `=[id] result` / `?[id] message` replies out, each ended by an empty line.
//!
//! Replies are written in command order. A `genmove` runs as a job; commands that arrive
//! meanwhile wait in a bounded queue and run after it, `quit` and end of input included
//! (GTP has no interrupt): a piped script at a fixed depth gives the same replies on every
//! run, whatever follows it.

use std::sync::Arc;
use std::time::Duration;

use super::gogui::{self, GoguiCommand};
use super::lexer::{self, InputError, ParseError, syntax};
use super::{Arrival, Flow, Output, Session};
use crate::engine::{Engine, EngineGame, Job, Outcome};
use crate::game::Color;
use crate::games::{self, GameEntry};
use crate::options::{self, EngineOption, Settings};
use crate::search::{Clock, Confidence, time};

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

/// The result of a game as `final_score` gives it: `B+n`, `W+n` or `0`, from the result
/// for Black ([`EngineGame::black_result`]).
pub fn score_text(black_result: i32) -> String {
    match black_result {
        0 => "0".into(),
        n if n > 0 => format!("B+{n}"),
        n => format!("W+{}", -n),
    }
}

/// The clock as GTP set it.
#[derive(Clone, Copy, Debug, Default)]
struct TimeState {
    main: Duration,
    byo_yomi: Duration,
    stones: u32,
    settings_given: bool,
    /// `time_left` per colour (Black, White): seconds and stones.
    left: [Option<(Duration, u32)>; 2],
}

impl TimeState {
    /// A per-move budget or a clock for `color` (the time module does the arithmetic).
    fn budget(&self, color: Color) -> (Option<Duration>, Option<Clock>) {
        let per_move = |total: Duration, stones: u32| Some(time::period_move_time(total, stones));
        let clock = |remaining: Duration| {
            Some(Clock {
                remaining,
                increment: Duration::ZERO,
                moves_to_go: None,
            })
        };
        let index = match color {
            Color::Black => 0,
            Color::White => 1,
        };
        if let Some((left, stones)) = self.left[index] {
            return if stones > 0 {
                (per_move(left, stones), None)
            } else if !left.is_zero() {
                (None, clock(left))
            } else if !self.byo_yomi.is_zero() {
                (per_move(self.byo_yomi, self.stones), None)
            } else {
                (Some(time::LAST_MOVE_TIME), None)
            };
        }
        if !self.settings_given {
            return (None, None);
        }
        if !self.main.is_zero() {
            (None, clock(self.main))
        } else if !self.byo_yomi.is_zero() {
            // `0 N 0`: N seconds per move (the spec reads it as no limit; a time per move
            // keeps both readings safe).
            (per_move(self.byo_yomi, self.stones), None)
        } else {
            (None, None)
        }
    }
}

/// What a running job will answer.
#[derive(Clone, Debug)]
enum Waiting {
    Move {
        id: Option<String>,
        play: bool,
        /// The implicit pass made to search for the other colour: taken back after a
        /// `reg_genmove`, or after any search that failed.
        passes: usize,
    },
    Solve {
        id: Option<String>,
        /// No limit and no end within reach: `quit` and end of input stop it.
        endless: bool,
    },
    Perft {
        id: Option<String>,
    },
}

/// What a session keeps across `set_game`: the settings GTP commands gave (depth, limits,
/// hash, threads, seed), the clock of `time_settings`/`time_left`, the GoGui mode, and per
/// game its `set_rules` and evaluator (a game not played yet takes the last evaluator
/// named where it has one of that name, else its default).
#[derive(Clone, Debug)]
pub struct Carry {
    settings: Settings,
    time: TimeState,
    /// What each game played so far had, by [`GameEntry::id`].
    games: Vec<(&'static str, GameSettings)>,
    gogui: bool,
}

/// The settings that belong to one game.
#[derive(Clone, Debug, Default)]
struct GameSettings {
    rules: String,
    eval: Option<String>,
}

impl Carry {
    /// A session's start: the command line's settings.
    pub fn new(settings: Settings) -> Carry {
        Carry {
            settings,
            time: TimeState::default(),
            games: Vec::new(),
            gogui: false,
        }
    }
}

/// A GTP session over game `G`.
pub struct Gtp<G: EngineGame> {
    /// The game's names and board size.
    game: &'static GameEntry,
    engine: Engine<G>,
    out: Output,
    waiting: Option<Waiting>,
    time: TimeState,
    /// The rule settings of `set_rules` so far, applied to every new game.
    rules: String,
    /// The settings of the other games played, for a switch back.
    other_games: Vec<(&'static str, GameSettings)>,
    /// A GoGui command was used: moves are GoGui's points from then on.
    gogui: bool,
}

impl<G: EngineGame> Gtp<G> {
    /// A session of `game` that starts where `carry` leaves off: the command line's
    /// settings, or another game's session (`set_game`).
    pub fn resume(
        game: &'static GameEntry,
        carry: Carry,
        wake: Arc<dyn Fn() + Send + Sync>,
        out: Output,
    ) -> Result<Gtp<G>, String> {
        let Carry {
            mut settings,
            time,
            games,
            gogui,
        } = carry;
        let (mine, other_games): (Vec<_>, Vec<_>) =
            games.into_iter().partition(|(id, _)| *id == game.id);
        let mine = mine.into_iter().next().map(|(_, mine)| mine);
        if let Some(GameSettings { eval, .. }) = &mine {
            settings.eval = eval.clone();
        } else if let Some(name) = &settings.eval
            && G::evaluator(name).is_err()
        {
            log::info!("{}: no evaluator {name:?}, using its default", game.name);
            settings.eval = None;
        }
        Ok(Gtp {
            game,
            engine: Engine::new(settings, wake)?,
            out,
            waiting: None,
            time,
            rules: mine.map(|mine| mine.rules).unwrap_or_default(),
            other_games,
            gogui,
        })
    }

    /// What the next game's session keeps of this one.
    pub fn carry(&self) -> Carry {
        let settings = self.engine.settings().clone();
        let mut games = self.other_games.clone();
        games.push((
            self.game.id,
            GameSettings {
                rules: self.rules.clone(),
                eval: settings.eval.clone(),
            },
        ));
        Carry {
            settings,
            time: self.time,
            games,
            gogui: self.gogui,
        }
    }

    fn reply(&mut self, id: &Option<String>, result: Result<String, String>) {
        let (mark, text) = match result {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        // No empty line inside a reply: it would end the reply early. (The first line may
        // be empty: a drawing starts on the line after `= `.)
        let text: Vec<&str> = text
            .split('\n')
            .enumerate()
            .filter(|(i, l)| *i == 0 || !l.trim().is_empty())
            .map(|(_, l)| l)
            .collect();
        let id = id.as_deref().unwrap_or("");
        self.out
            .write(&format!("{mark}{id} {}\n\n", text.join("\n")));
    }

    /// Handles one line while no job is running.
    fn handle(&mut self, line: Result<String, InputError>) -> Flow {
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                log::warn!("input: {error}");
                self.reply(&None, Err(format!("invalid input: {error}")));
                return Flow::Continue;
            }
        };
        let line = preprocess(&line);
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        let (id, rest) = split_id(&line);
        let points = self.gogui.then_some(self.game.board_size);
        let command = match parse_with::<G>(rest, points) {
            Ok(command) => command,
            Err(ParseError::Unknown(name)) => {
                log::info!("unknown command {name:?}");
                self.reply(&id, Err("unknown command".into()));
                return Flow::Continue;
            }
            Err(error @ ParseError::Syntax { .. }) => {
                log::info!("{error}");
                self.reply(&id, Err("syntax error".into()));
                return Flow::Continue;
            }
            Err(ParseError::OutOfRange { message, .. }) => {
                log::info!("{message}");
                self.reply(&id, Err(message));
                return Flow::Continue;
            }
        };
        self.execute(id, command)
    }

    fn execute(&mut self, id: Option<String>, command: Command<G::Move>) -> Flow {
        let ok = |text: &str| Ok(text.to_string());
        let result: Result<String, String> = match command {
            Command::ProtocolVersion => ok("2"),
            Command::Name => ok("iago"),
            Command::Version => ok(env!("CARGO_PKG_VERSION")),
            Command::KnownCommand(name) => ok(if Self::commands().contains(&name.as_str()) {
                "true"
            } else {
                "false"
            }),
            Command::ListCommands => Ok(Self::commands().join("\n")),
            Command::Quit => {
                self.reply(&id, ok(""));
                return Flow::Exit;
            }
            Command::BoardSize(size) => {
                if size == self.game.board_size {
                    ok("")
                } else {
                    Err("unacceptable size".into())
                }
            }
            Command::ClearBoard => {
                let start = self.with_rules(G::start());
                self.engine.new_game(start);
                ok("")
            }
            Command::Komi => ok(""),
            Command::Play(color, mv) => self.play(color, mv).map(|()| String::new()),
            Command::Genmove(color) => return self.genmove(id, color, true),
            Command::RegGenmove(color) => return self.genmove(id, color, false),
            Command::Undo => self
                .engine
                .undo()
                .map(|()| String::new())
                .map_err(|_| "cannot undo".to_string()),
            Command::ShowBoard => Ok(format!("\n{}", self.engine.position().board_text())),
            Command::FinalScore => {
                let pos = self.engine.position();
                if pos.is_game_over() {
                    Ok(score_text(pos.black_result()))
                } else {
                    Err("cannot score".into())
                }
            }
            command @ (Command::TimeSettings { .. }
            | Command::TimeLeft { .. }
            | Command::Set(..)) => self.setting(command),
            Command::ListGames => Ok(games::GAMES
                .iter()
                .map(|game| game.name)
                .collect::<Vec<_>>()
                .join("\n")),
            Command::SetGame(name) => match games::find(&name) {
                Some(game) if game.id == self.game.id => {
                    let start = self.with_rules(G::start());
                    self.engine.new_game(start);
                    ok("")
                }
                Some(game) => {
                    self.reply(&id, ok(""));
                    return Flow::SwitchGame(game);
                }
                None => Err(format!("unknown game {:?}", lexer::shorten(&name))),
            },
            Command::SetRules(text) => {
                let rules = format!("{} {text}", self.rules);
                match G::start().with_rules(&rules) {
                    Ok(start) => {
                        self.rules = rules.trim().to_string();
                        self.engine.new_game(start);
                        ok("")
                    }
                    Err(error) => Err(error),
                }
            }
            Command::SetPosition(text) => match G::parse_position(&text) {
                Ok(pos) => {
                    let pos = self.with_rules(pos);
                    self.engine.new_game(pos);
                    ok("")
                }
                Err(error) => Err(error),
            },
            Command::Position => Ok(self.engine.position().format_position()),
            Command::Perft(depth) => {
                self.waiting = Some(Waiting::Perft { id });
                self.engine.start(Job::Perft { depth });
                return Flow::Continue;
            }
            Command::Solve => {
                let limits = self.engine.limited_solve_limits();
                let endless = !self.engine.search_ends(&limits);
                self.waiting = Some(Waiting::Solve { id, endless });
                self.engine.start(Job::Solve { limits });
                return Flow::Continue;
            }
            Command::Eval => Ok(G::score_to_text(self.engine.evaluate())),
            Command::Gogui(command) => self.gogui(command),
        };
        self.reply(&id, result);
        Flow::Continue
    }

    /// A command that changes a setting: the clock, a search limit or the searcher.
    fn setting(&mut self, command: Command<G::Move>) -> Result<String, String> {
        match command {
            Command::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => {
                self.time = TimeState {
                    main,
                    byo_yomi,
                    stones,
                    settings_given: true,
                    left: [None, None],
                };
            }
            Command::TimeLeft {
                color,
                left,
                stones,
            } => {
                let index = usize::from(color == Color::White);
                self.time.left[index] = Some((left, stones));
            }
            Command::Set(option, value) => self
                .engine
                .set_option(option, &value)
                .map_err(|error| error.to_string())?,
            other => {
                log::error!("{other:?} is not a setting");
                return Err("internal error".into());
            }
        }
        Ok(String::new())
    }

    /// The commands of this game: GoGui's only where GoGui can show the game.
    fn commands() -> Vec<&'static str> {
        let mut commands = COMMANDS.to_vec();
        commands.extend(
            options::ENGINE_OPTIONS
                .iter()
                .filter_map(|option| option.gtp),
        );
        if G::GRID {
            commands.extend_from_slice(gogui::COMMANDS);
        }
        commands
    }

    /// A GoGui command. The first one switches the session's moves to GoGui's points.
    fn gogui(&mut self, command: GoguiCommand) -> Result<String, String> {
        if !G::GRID {
            return Err(format!(
                "GoGui cannot show {}: its moves are not single points",
                self.game.name
            ));
        }
        if !self.gogui {
            log::info!("GoGui command seen: moves are GoGui points from now on");
            self.gogui = true;
        }
        let pos = self.engine.position();
        let size = self.game.board_size;
        match command {
            GoguiCommand::AnalyzeCommands => Ok(gogui::ANALYZE_COMMANDS.into()),
            GoguiCommand::GameId => Ok(self.game.name.into()),
            GoguiCommand::BoardSize => Ok(size.to_string()),
            GoguiCommand::Board => Ok(gogui::board(&pos, size)),
            GoguiCommand::BoardGfx => Ok(gogui::board_gfx(&pos, size)),
            GoguiCommand::LegalMoves => Ok(gogui::legal_moves(&pos, size)),
            GoguiCommand::SideToMove => gogui::side_to_move(&pos),
            GoguiCommand::FinalResult => gogui::final_result(&pos),
        }
    }

    /// A move as this session writes it: GoGui's point once GoGui is in use.
    fn move_text(&self, pos: &G, mv: G::Move) -> String {
        if self.gogui {
            gogui::move_text::<G>(mv, self.game.board_size)
        } else {
            pos.format_move(mv)
        }
    }

    /// `pos` under the rules `set_rules` chose (checked when they were set).
    fn with_rules(&self, pos: G) -> G {
        if self.rules.is_empty() {
            return pos;
        }
        pos.with_rules(&self.rules).unwrap_or_else(|error| {
            log::warn!("rules {:?} no longer apply: {error}", self.rules);
            G::start()
        })
    }

    /// `play`: a move by the side to move, or by the other side when the side to move has
    /// to pass (an implicit pass).
    fn play(&mut self, color: Color, mv: G::Move) -> Result<(), String> {
        let illegal = || "illegal move".to_string();
        let pos = self.engine.position();
        if pos.is_game_over() {
            return if Some(mv) == pos.forced_pass() || self.is_pass_text(mv) {
                Ok(())
            } else {
                Err(illegal())
            };
        }
        if color == pos.side_to_move() {
            return self.engine.play(mv, None).map_err(|_| illegal());
        }
        let pass = pos.forced_pass().ok_or_else(illegal)?;
        let after = pos.play(pass);
        if !after.legal_moves().as_ref().contains(&mv) {
            return Err(illegal());
        }
        self.engine.play(pass, None).map_err(|_| illegal())?;
        self.engine.play(mv, None).map_err(|_| illegal())
    }

    /// True for the move that reads as a pass.
    fn is_pass_text(&self, mv: G::Move) -> bool {
        G::parse_move_text("pass").ok() == Some(mv)
    }

    fn genmove(&mut self, id: Option<String>, color: Color, play: bool) -> Flow {
        let pos = self.engine.position();
        if pos.is_game_over() {
            self.reply(&id, Ok("pass".into()));
            return Flow::Continue;
        }
        let mut passes = 0;
        if color != pos.side_to_move() {
            match pos.forced_pass() {
                Some(pass) => {
                    let _ = self.engine.play(pass, None);
                    passes += 1;
                }
                None => {
                    self.reply(&id, Err("illegal move".into()));
                    return Flow::Continue;
                }
            }
        }
        let pos = self.engine.position();
        if let Some(pass) = pos.forced_pass() {
            if play {
                let _ = self.engine.play(pass, None);
            }
            for _ in 0..passes {
                let _ = self.engine.undo();
            }
            let text = self.move_text(&pos, pass);
            self.reply(&id, Ok(text));
            return Flow::Continue;
        }
        let (movetime, clock) = self.time.budget(color);
        let limits = self.engine.limits_with(movetime, clock);
        self.waiting = Some(Waiting::Move { id, play, passes });
        self.engine.start(Job::Go { limits });
        Flow::Continue
    }

    /// Answers the job that finished with `outcome`.
    fn complete(&mut self, outcome: Option<Outcome<G::Move>>) {
        let Some(waiting) = self.waiting.take() else {
            return;
        };
        let pos = self.engine.position();
        match (waiting, outcome) {
            (Waiting::Move { id, play, passes }, Some(Outcome::Move(choice))) => {
                let undo = if play { 0 } else { passes };
                let text = match choice.mv {
                    Some(mv) => {
                        let text = self.move_text(&pos, mv);
                        if play && let Err(error) = self.engine.play(mv, None) {
                            log::error!("the search chose {error}");
                        }
                        text
                    }
                    None => "pass".into(),
                };
                for _ in 0..undo {
                    let _ = self.engine.undo();
                }
                log::info!(
                    "{text}: score {} depth {} nodes {} in {:?}{}",
                    G::score_to_text(choice.score),
                    choice.depth,
                    choice.nodes,
                    choice.elapsed,
                    if choice.from_book { " (book)" } else { "" }
                );
                self.reply(&id, Ok(text));
            }
            (Waiting::Solve { id, .. }, Some(Outcome::Move(choice))) => {
                let mv = choice
                    .mv
                    .map_or_else(|| "pass".to_string(), |mv| self.move_text(&pos, mv));
                let how = match choice.confidence {
                    Confidence::Exact => "exact".to_string(),
                    Confidence::WinLossDraw => "wld".to_string(),
                    Confidence::Probable(p) => format!("{p}%"),
                    Confidence::Heuristic => format!("depth {}", choice.depth),
                };
                self.reply(
                    &id,
                    Ok(format!("{mv} {} {how}", G::score_to_text(choice.score))),
                );
            }
            (Waiting::Perft { id }, Some(Outcome::Perft { leaves, elapsed })) => {
                let result = match leaves {
                    Some(leaves) => {
                        log::info!("perft: {leaves} leaves in {elapsed:?}");
                        Ok(leaves.to_string())
                    }
                    None => Err("perft stopped".into()),
                };
                self.reply(&id, result);
            }
            (waiting, outcome) => {
                // The state is as before the command: an implicit pass is taken back.
                let id = match waiting {
                    Waiting::Move { id, passes, .. } => {
                        for _ in 0..passes {
                            let _ = self.engine.undo();
                        }
                        id
                    }
                    Waiting::Solve { id, .. } | Waiting::Perft { id } => id,
                };
                let why = match outcome {
                    Some(Outcome::Failed(why)) => why,
                    other => format!("internal error: the search ended with {other:?}"),
                };
                self.reply(&id, Err(why));
            }
        }
    }
}

impl<G: EngineGame> Gtp<G> {
    /// Stops the `solve` in flight if nothing else would end it.
    fn stop_endless_solve(&mut self) {
        if matches!(self.waiting, Some(Waiting::Solve { endless: true, .. })) {
            log::info!("solve: stopped by the end of the session");
            self.engine.hurry();
        }
    }
}

impl<G: EngineGame> Session for Gtp<G> {
    /// GTP has no interrupt: every line waits its turn. But `quit` stops a `solve` that
    /// has no limit and no end within reach (it would never come to its turn), which
    /// then answers with what it found (`depth D`), and `quit` runs after it.
    fn arrives(&mut self, line: &Result<String, InputError>, _queued: usize) -> Arrival {
        if let Ok(line) = line
            && split_id(&preprocess(line)).1.trim() == "quit"
        {
            self.stop_endless_solve();
        }
        Arrival::InTurn
    }

    fn line(&mut self, line: Result<String, InputError>) -> Flow {
        self.handle(line)
    }

    fn wake(&mut self) -> Flow {
        let _ = self.engine.take_progress();
        if self.waiting.is_some()
            && let Some(outcome) = self.engine.poll()
        {
            self.complete(Some(outcome));
        }
        Flow::Continue
    }

    /// The job runs to its own end and is answered (a `solve` without an end is stopped).
    fn finish(&mut self) -> Flow {
        self.stop_endless_solve();
        let outcome = self.engine.wait();
        self.complete(outcome);
        Flow::Continue
    }

    /// Every command read was answered in its turn, each search run to its own end.
    fn end(&mut self) -> Flow {
        Flow::Exit
    }

    fn busy(&self) -> bool {
        self.waiting.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::BookChoice;
    use crate::othello::Position;
    use std::sync::Mutex;

    /// What a session wrote, shared with the test.
    #[derive(Clone, Default)]
    struct Written(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Written {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_search_that_cannot_start_is_an_error_reply_and_the_next_one_plays() {
        let written = Written::default();
        let settings = Settings {
            book: BookChoice::None,
            depth: Some(2),
            ..Settings::default()
        };
        let mut session = Gtp::<Position>::resume(
            games::find("othello").unwrap(),
            Carry::new(settings),
            Arc::new(|| {}),
            Output::new(Box::new(written.clone())),
        )
        .unwrap();
        // No system gives a thread a petabyte of stack.
        session.engine.job_stack = Some(1 << 50);
        session.line(Ok("1 genmove b".into()));
        assert!(session.busy(), "the reply is the event loop's to take");
        session.wake();
        assert!(!session.busy());
        session.engine.job_stack = None;
        session.line(Ok("2 genmove b".into()));
        session.finish();
        let text = String::from_utf8(written.0.lock().unwrap().clone()).unwrap();
        assert!(
            text.starts_with("?1 cannot start the search thread: "),
            "{text}"
        );
        assert!(text.contains("\n\n=2 "), "{text}");
        assert_eq!(session.engine.record().moves.len(), 1, "{text}");
    }

    #[test]
    fn preprocessing_and_ids() {
        assert_eq!(preprocess("1 play\tb d3 # comment\r"), "1 play b d3 ");
        assert_eq!(split_id("12 name"), (Some("12".into()), " name"));
        assert_eq!(split_id("name"), (None, "name"));
    }

    #[test]
    fn unknown_and_syntax_errors_differ() {
        assert!(matches!(
            parse::<Position>("frobnicate"),
            Err(ParseError::Unknown(_))
        ));
        assert!(matches!(
            parse::<Position>("play x d3"),
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(
            parse::<Position>("play b z9"),
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(
            parse::<Position>("boardsize"),
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(
            parse::<Position>("set_depth 99"),
            Err(ParseError::OutOfRange { .. })
        ));
        assert_eq!(
            parse::<Position>("play BLACK D3"),
            Ok(Command::Play(Color::Black, "d3".parse().unwrap()))
        );
        assert_eq!(
            parse::<Position>("set_depth none"),
            Ok(Command::Set(
                options::by_gtp("set_depth").unwrap(),
                "none".into()
            ))
        );
    }
}
