//! UGI, the Universal Game Interface of the cutegames match runner: UCI's commands made
//! game-neutral, plus `query` for the referee's questions (protocol.md for users).
//!
//! A `go` runs as a job: `info` lines follow its iterations and `bestmove` ends it. While
//! it runs, `stop` cuts it short, and `isready`, `query` and `ugi` are answered at once
//! (when nothing waits); any other command waits in a bounded queue and runs after the
//! `bestmove`, in order. `quit` and end of input wait their turn too, so that a piped
//! script at a fixed depth gives the same output on every run; only an infinite search,
//! which has no end of its own, is stopped by them. UGI has no error reply: a line that
//! cannot be carried out is answered with `info string error: ...` and changes nothing, so
//! stdout never carries anything a driver could take for a reply.

use std::sync::Arc;
use std::time::Duration;

use super::lexer::{self, InputError};
use super::{Arrival, Flow, Output, Session, TextLine};
use crate::engine::{
    Engine, EngineError, EngineGame, Job, Outcome, Played, Progress, Purpose, Record, SearchResult,
    Told,
};
use crate::game::{Color, Score};
use crate::options::{self, ENGINE_OPTIONS, Kind, Refused, Settings};
use crate::search::Clock;

mod grammar;

pub use grammar::{Command, Go, Query, Refusal, Start, parse};

/// The null move UCI drivers write; read as a pass.
const NULL_MOVE: &str = "0000";

/// The search in flight.
struct Search {
    infinite: bool,
    /// `stop` came: an infinite search answers as soon as it ends.
    stopped: bool,
    /// Whether an `info` line went out for it.
    reported: bool,
}

/// A UGI session over game `G`.
pub struct Ugi<G: EngineGame> {
    engine: Engine<G>,
    out: Output,
    search: Option<Search>,
    /// The answer of an infinite search that ended before `stop`.
    held: Option<String>,
    /// `quit` or end of input is on its way: an infinite search is stopped at once.
    quitting: bool,
}

impl<G: EngineGame> Ugi<G> {
    pub fn new(
        settings: Settings,
        wake: Arc<dyn Fn() + Send + Sync>,
        out: Output,
    ) -> Result<Ugi<G>, String> {
        Ok(Ugi {
            engine: Engine::new(settings, wake)?,
            out,
            search: None,
            held: None,
            quitting: false,
        })
    }

    fn error(&mut self, message: &str) {
        log::info!("refused: {message}");
        self.out.line(&format!("info string error: {message}"));
    }

    /// The player who moves first in the game's start position.
    fn p1() -> Color {
        G::start().side_to_move()
    }

    /// The `option` lines of `ugi`: every engine option UGI names, with its value now.
    fn options(&self) -> Vec<String> {
        let settings = self.engine.settings();
        ENGINE_OPTIONS
            .iter()
            .filter_map(|option| {
                let name = option.ugi?;
                let value = (option.get)(settings);
                let bounds = option.range.map(|range| range.bounds());
                let (min, max) = bounds.unwrap_or_default();
                let kind = match option.kind {
                    Kind::Number => format!("type spin default {value} min {min} max {max}"),
                    // 0 is none.
                    Kind::Limit => {
                        let value = if value == "none" { "0".into() } else { value };
                        format!("type spin default {value} min 0 max {max}")
                    }
                    Kind::Evaluator => {
                        let names = G::evaluator_names();
                        let value = if value.is_empty() {
                            names.first().copied().unwrap_or("default").to_string()
                        } else {
                            value
                        };
                        let vars: String =
                            names.iter().map(|name| format!(" var {name}")).collect();
                        format!("type combo default {value}{vars}")
                    }
                    Kind::Word => format!("type string default {value}"),
                };
                Some(format!("option name {name} {kind}"))
            })
            .collect()
    }

    /// `setoption name NAME value VALUE`: the engine option UGI calls `name`.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), Refusal> {
        let Some(option) = options::by_ugi(name) else {
            let names: Vec<&str> = ENGINE_OPTIONS
                .iter()
                .filter_map(|option| option.ugi)
                .collect();
            return Err(format!(
                "setoption: unknown option {:?} ({})",
                lexer::shorten(name),
                names.join(", ")
            ));
        };
        self.engine
            .set_option(option, value)
            .map_err(|error| match error {
                EngineError::Refused(Refused::OutOfRange(message)) => {
                    format!("setoption: {message}")
                }
                EngineError::Refused(Refused::NotANumber) => format!(
                    "setoption: {name} expects a number, got {:?}",
                    lexer::shorten(value)
                ),
                EngineError::Refused(Refused::Expected(what)) => format!(
                    "setoption: {} expects {what}, got {:?}",
                    option.name,
                    lexer::shorten(value)
                ),
                other => format!("setoption: {} {}: {other}", option.name, value.trim()),
            })
    }

    /// The game `position` describes, every move checked; a move by the other side where
    /// the mover has to pass gets the pass put in front of it.
    fn record(start: &Start, moves: &[String]) -> Result<Record<G>, Refusal> {
        let start = match start {
            Start::StartPos => G::start(),
            Start::Fen(text) => G::parse_fen(text).map_err(|e| format!("position: {e}"))?,
        };
        let mut record = Record::new(start.clone());
        let mut pos = start;
        let legal = |pos: &G, mv: G::Move| pos.legal_moves().as_ref().contains(&mv);
        for (index, text) in moves.iter().enumerate() {
            let word = if text == NULL_MOVE { "pass" } else { text };
            let mv = G::parse_move_text(word)
                .map_err(|e| format!("position: move {} {text:?}: {e}", index + 1))?;
            let mut played = vec![mv];
            if !legal(&pos, mv) {
                match pos.forced_pass() {
                    Some(pass) if pass != mv && legal(&pos.play(pass), mv) => {
                        played.insert(0, pass);
                    }
                    _ => {
                        return Err(format!("position: move {} {text:?} is illegal", index + 1));
                    }
                }
            }
            for mv in played {
                record.moves.push(Played { mv, seconds: None });
                pos = pos.play(mv);
            }
        }
        Ok(record)
    }

    /// What `go` tells of its limits: its own depth and nodes, the mover's clock or a
    /// time per move, or that it runs until stopped.
    fn told(&self, go: &Go) -> Told {
        let (time, inc) = if self.engine.position().side_to_move() == Self::p1() {
            (go.p1time, go.p1inc)
        } else {
            (go.p2time, go.p2inc)
        };
        Told {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime.map(Duration::from_millis),
            clock: time.map(|ms| Clock {
                remaining: Duration::from_millis(ms),
                increment: Duration::from_millis(inc.unwrap_or(0)),
                moves_to_go: go.movestogo,
            }),
            infinite: go.infinite,
        }
    }

    fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::Ugi => {
                self.out.line("id name iago");
                self.out.line("id author the iago authors");
                for option in self.options() {
                    self.out.line(&option);
                }
                self.out.line("ugiok");
            }
            Command::IsReady => self.out.line("readyok"),
            Command::Quit => {
                self.engine.stop();
                self.search = None;
                return Flow::Exit;
            }
            Command::Stop => {
                if let Some(search) = &mut self.search {
                    search.stopped = true;
                    self.engine.hurry();
                    if let Some(text) = self.held.take() {
                        self.search = None;
                        self.out.line(&text);
                    }
                }
            }
            Command::Query(query) => {
                let pos = self.engine.position();
                let answer = match query {
                    Query::GameOver => pos.is_game_over().to_string(),
                    Query::P1Turn => (pos.side_to_move() == Self::p1()).to_string(),
                    Query::Result => Self::result(&pos).to_string(),
                };
                self.out.line(&format!("response {answer}"));
            }
            Command::NewGame => self.engine.new_game(G::start()),
            Command::Position { start, moves } => match Self::record(&start, &moves) {
                Ok(record) => self.engine.set_record(record),
                Err(error) => self.error(&error),
            },
            Command::SetOption { name, value } => {
                if let Err(error) = self.set_option(&name, &value) {
                    self.error(&error);
                }
            }
            Command::Go(go) => self.go(&go),
        }
        Flow::Continue
    }

    /// `p1win`, `p2win`, `draw` or `none` (the game goes on).
    fn result(pos: &G) -> &'static str {
        if !pos.is_game_over() {
            return "none";
        }
        let mover = pos.final_score();
        let p1: Score = if pos.side_to_move() == Self::p1() {
            mover
        } else {
            -mover
        };
        match p1 {
            0 => "draw",
            s if s > 0 => "p1win",
            _ => "p2win",
        }
    }

    fn go(&mut self, go: &Go) {
        for ignored in &go.ignored {
            log::warn!("go: unknown parameter {ignored:?} ignored");
        }
        if self.engine.position().is_game_over() {
            self.out.line("info string the game is over");
            self.out.line(&format!("bestmove {NULL_MOVE}"));
            return;
        }
        let limits = self.engine.limits(Purpose::Move, &self.told(go));
        log::debug!("go: {limits:?}");
        self.search = Some(Search {
            infinite: go.infinite,
            stopped: false,
            reported: false,
        });
        self.held = None;
        self.engine.start(Job::Go { limits });
        if self.quitting && go.infinite {
            self.finish_search();
        }
    }

    /// Ends the search in flight and answers it: a search with an end of its own is waited
    /// for, an infinite one is stopped.
    fn finish_search(&mut self) {
        let Some(search) = &mut self.search else {
            return;
        };
        if let Some(text) = self.held.take() {
            self.search = None;
            self.out.line(&text);
            return;
        }
        if search.infinite && !search.stopped {
            search.stopped = true;
            self.engine.hurry();
        }
        let outcome = self.engine.wait();
        self.progress();
        self.complete(outcome);
    }

    fn info(pos: &G, found: &SearchResult<G::Move>) -> String {
        let mut text = format!(
            "info depth {} score cp {} nodes {} time {}",
            found.depth,
            found.score,
            found.nodes,
            found.elapsed.as_millis()
        );
        let pv = super::pv_text(pos, &found.pv, G::format_move, " ");
        if !pv.is_empty() {
            text.push_str(" pv ");
            text.push_str(&pv);
        }
        text
    }

    fn progress(&mut self) {
        let items = self.engine.take_progress();
        let Some(search) = &mut self.search else {
            return;
        };
        let pos = self.engine.position();
        for item in items {
            if let Progress::Iteration(iteration) = item {
                search.reported = true;
                self.out.line(&Self::info(&pos, &iteration));
            }
        }
    }

    fn complete(&mut self, outcome: Option<Outcome<G::Move>>) {
        let Some(search) = self.search.take() else {
            return;
        };
        let pos = self.engine.position();
        let text = match outcome {
            Some(Outcome::Move(choice)) => {
                if !search.reported {
                    self.final_info(&pos, &choice);
                }
                match choice.mv {
                    Some(mv) => format!("bestmove {}", pos.format_move(mv)),
                    None => format!("bestmove {NULL_MOVE}"),
                }
            }
            other => {
                let why = match other {
                    Some(Outcome::Failed(why)) => why,
                    other => format!("the search ended with {other:?}"),
                };
                log::error!("go: {why}");
                self.out.line(&format!("info string error: {why}"));
                format!("bestmove {NULL_MOVE}")
            }
        };
        if search.infinite && !search.stopped {
            // UCI's rule: an infinite search answers only once stopped.
            self.held = Some(text);
            self.search = Some(search);
        } else {
            self.out.line(&text);
        }
    }

    /// One `info` line for a move chosen without iterations (book, forced pass).
    fn final_info(&mut self, pos: &G, choice: &SearchResult<G::Move>) {
        if choice.is_book() {
            self.out.line("info string book move");
        }
        if choice.depth > 0 || choice.is_book() {
            self.out.line(&Self::info(pos, choice));
        }
    }
}

impl<G: EngineGame> Ugi<G> {
    /// Handles one line while no search runs.
    fn handle(&mut self, line: Result<String, InputError>) -> Flow {
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                self.error(&format!("input: {error}"));
                return Flow::Continue;
            }
        };
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match parse(&line) {
            Ok(command) => self.execute(command),
            Err(error) => {
                self.error(&error);
                // A controller waits for the `bestmove` of every `go`: a refused one
                // still answers, with the null move, rather than leave it waiting.
                if lexer::command_word(&line).is_some_and(|(name, _)| name == "go") {
                    self.out.line(&format!("bestmove {NULL_MOVE}"));
                }
                Flow::Continue
            }
        }
    }
}

impl<G: EngineGame> Session for Ugi<G> {
    type Line = TextLine;

    /// During a search: `stop` at once; `isready`, `query` and `ugi` at once when nothing
    /// waits before them; `quit` in its turn, but an infinite search, which would never
    /// come to an end, stops now; everything else in its turn.
    fn arrives(&mut self, line: &TextLine, queued: usize) -> Arrival {
        let command = line.as_ref().ok().and_then(|l| parse(l).ok());
        match command {
            Some(Command::Stop) => Arrival::Now,
            Some(Command::Quit) => {
                self.quitting = true;
                if self.search.as_ref().is_some_and(|search| search.infinite) {
                    self.execute(Command::Stop);
                }
                Arrival::InTurn
            }
            Some(Command::IsReady | Command::Query(_) | Command::Ugi) if queued == 0 => {
                Arrival::Now
            }
            _ => Arrival::InTurn,
        }
    }

    fn line(&mut self, line: TextLine) -> Flow {
        self.handle(line)
    }

    fn wake(&mut self) -> Flow {
        self.progress();
        if self.held.is_none()
            && self.search.is_some()
            && let Some(outcome) = self.engine.poll()
        {
            self.progress();
            self.complete(Some(outcome));
        }
        Flow::Continue
    }

    /// The search ends and is answered: one with an end of its own runs to it, an
    /// infinite one is stopped (input has ended, or too much waits behind it).
    fn finish(&mut self) -> Flow {
        self.finish_search();
        Flow::Continue
    }

    /// An infinite search ends only with `stop`: waiting for it would never end.
    fn may_wait(&mut self) -> bool {
        let until_stop = self.held.is_some()
            || self
                .search
                .as_ref()
                .is_some_and(|search| search.infinite && !search.stopped);
        if until_stop {
            self.error("too many commands wait for stop: line dropped");
        }
        !until_stop
    }

    /// What was read ran in its turn, each search to its own end (an infinite one
    /// stopped); the engine exits.
    fn end(&mut self) -> Flow {
        Flow::Exit
    }

    /// A search is in flight, or an infinite one ended and holds its answer until `stop`
    /// (lines wait behind it all the same).
    fn busy(&self) -> bool {
        self.search.is_some()
    }
}

#[cfg(test)]
mod tests;
