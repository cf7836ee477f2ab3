//! GTP 2 (the Go Text Protocol, as Othello tools use it): `[id] name args` lines in,
//! `=[id] result` / `?[id] message` replies out, each ended by an empty line.
//!
//! Replies are written in command order. A `genmove` runs as a job; commands that arrive
//! meanwhile wait in a bounded queue and run after it, `quit` and end of input included
//! (GTP has no interrupt): a piped script at a fixed depth gives the same replies on every
//! run, whatever follows it.

use std::sync::Arc;

use super::gogui::{self, GoguiCommand};
use super::lexer::{self, InputError, ParseError};
use super::{Arrival, Flow, Output, Session, TextLine};
use crate::engine::{self, Engine, EngineGame, Job, Outcome, Purpose, Told};
use crate::game::Color;
use crate::games::{self, GameEntry};
use crate::options::{self, Settings};
use crate::search::Confidence;
use crate::search::time::TimeControl;

mod grammar;

pub use grammar::{COMMANDS, Command, parse, parse_with, preprocess, split_id};

/// The result of a game as `final_score` gives it: `B+n`, `W+n` or `0`, from the result
/// for Black ([`EngineGame::black_result`]).
pub fn score_text(black_result: i32) -> String {
    match black_result {
        0 => "0".into(),
        n if n > 0 => format!("B+{n}"),
        n => format!("W+{}", -n),
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

/// What a session keeps across `set_game`: the engine's settings ([`engine::Carry`]) and
/// the GoGui mode.
pub struct Carry {
    engine: engine::Carry,
    gogui: bool,
}

impl Carry {
    /// A session's start: the command line's settings.
    pub fn new(settings: Settings) -> Carry {
        Carry {
            engine: engine::Carry::new(settings),
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
        Ok(Gtp {
            game,
            engine: Engine::resume(game, carry.engine, wake)?,
            out,
            waiting: None,
            gogui: carry.gogui,
        })
    }

    /// What the next game's session keeps of this one.
    pub fn carry(&self) -> Carry {
        Carry {
            engine: self.engine.carry(self.game),
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
                self.engine.new_game(G::start());
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
                    self.engine.new_game(G::start());
                    ok("")
                }
                Some(game) => {
                    self.reply(&id, ok(""));
                    return Flow::SwitchGame(game);
                }
                None => Err(format!("unknown game {:?}", lexer::shorten(&name))),
            },
            Command::SetRules(text) => self.engine.set_rules(&text).map(|()| String::new()),
            Command::SetPosition(text) => G::parse_position(&text).map(|pos| {
                self.engine.new_game(pos);
                String::new()
            }),
            Command::Position => Ok(self.engine.position().format_position()),
            Command::Perft(depth) => {
                self.waiting = Some(Waiting::Perft { id });
                self.engine.start(Job::Perft { depth });
                return Flow::Continue;
            }
            Command::Solve => {
                let limits = self.engine.limits(Purpose::BoundedSolve, &Told::default());
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
            } => self
                .engine
                .set_time_control(TimeControl::new(main, byo_yomi, stones)),
            Command::TimeLeft {
                color,
                left,
                stones,
            } => self.engine.time_left(color, left, stones),
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
        if G::GOGUI_GRID.is_some() {
            commands.extend_from_slice(gogui::COMMANDS);
        }
        commands
    }

    /// A GoGui command. The first one switches the session's moves to GoGui's points.
    fn gogui(&mut self, command: GoguiCommand) -> Result<String, String> {
        if G::GOGUI_GRID.is_some() && !self.gogui {
            log::info!("GoGui command seen: moves are GoGui points from now on");
            self.gogui = true;
        }
        gogui::answer(command, &self.engine.position(), self.game)
    }

    /// A move as this session writes it: GoGui's point once GoGui is in use.
    fn move_text(&self, pos: &G, mv: G::Move) -> String {
        if self.gogui {
            gogui::move_text::<G>(mv, self.game.board_size)
        } else {
            pos.format_move(mv)
        }
    }

    /// `play`: a move by the side to move, or by the other side when the side to move has
    /// to pass (an implicit pass).
    fn play(&mut self, color: Color, mv: G::Move) -> Result<(), String> {
        let illegal = || "illegal move".to_string();
        let pos = self.engine.position();
        if pos.is_game_over() {
            return if Some(mv) == pos.forced_pass() || G::parse_move_text("pass") == Ok(mv) {
                Ok(())
            } else {
                Err(illegal())
            };
        }
        self.engine.play_for(color, mv).map_err(|_| illegal())
    }

    fn genmove(&mut self, id: Option<String>, color: Color, play: bool) -> Flow {
        let pos = self.engine.position();
        if pos.is_game_over() {
            self.reply(&id, Ok("pass".into()));
            return Flow::Continue;
        }
        let Ok(passes) = self.engine.turn_to(color) else {
            self.reply(&id, Err("illegal move".into()));
            return Flow::Continue;
        };
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
        let limits = self.engine.limits(Purpose::Move, &Told::default());
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
                    if choice.is_book() { " (book)" } else { "" }
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
    type Line = TextLine;

    /// GTP has no interrupt: every line waits its turn. But `quit` stops a `solve` that
    /// has no limit and no end within reach (it would never come to its turn), which
    /// then answers with what it found (`depth D`), and `quit` runs after it.
    fn arrives(&mut self, line: &TextLine, _queued: usize) -> Arrival {
        if let Ok(line) = line
            && split_id(&preprocess(line)).1.trim() == "quit"
        {
            self.stop_endless_solve();
        }
        Arrival::InTurn
    }

    fn line(&mut self, line: TextLine) -> Flow {
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
mod tests;
