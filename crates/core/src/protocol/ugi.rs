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
use super::{Arrival, Flow, Output, Session};
use crate::engine::{
    Engine, EngineError, EngineGame, Job, Outcome, Played, Progress, Purpose, Record, SearchResult,
    Told,
};
use crate::game::{Color, Score};
use crate::options::{self, ENGINE_OPTIONS, Kind, Range, Refused, Settings};
use crate::search::Clock;

/// The null move UCI drivers write; read as a pass.
const NULL_MOVE: &str = "0000";

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

    /// Moves as UGI writes them, stopping at one that is not legal (never print one).
    fn pv_text(pos: &G, pv: &[G::Move]) -> String {
        let mut pos = pos.clone();
        let mut words = Vec::new();
        for &mv in pv {
            if !pos.legal_moves().as_ref().contains(&mv) {
                break;
            }
            words.push(pos.format_move(mv));
            pos = pos.play(mv);
        }
        words.join(" ")
    }

    fn info(pos: &G, found: &SearchResult<G::Move>) -> String {
        let mut text = format!(
            "info depth {} score cp {} nodes {} time {}",
            found.depth,
            found.score,
            found.nodes,
            found.elapsed.as_millis()
        );
        let pv = Self::pv_text(pos, &found.pv);
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
    /// During a search: `stop` at once; `isready`, `query` and `ugi` at once when nothing
    /// waits before them; `quit` in its turn, but an infinite search, which would never
    /// come to an end, stops now; everything else in its turn.
    fn arrives(&mut self, line: &Result<String, InputError>, queued: usize) -> Arrival {
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

    fn line(&mut self, line: Result<String, InputError>) -> Flow {
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
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert_eq!(parse("ugi"), Ok(Command::Ugi));
        assert_eq!(
            parse("position startpos moves d3 c5"),
            Ok(Command::Position {
                start: Start::StartPos,
                moves: vec!["d3".into(), "c5".into()]
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/3ox3/3xo3/8/8/8 x moves d3"),
            Ok(Command::Position {
                start: Start::Fen("8/8/8/3ox3/3xo3/8/8/8 x".into()),
                moves: vec!["d3".into()]
            })
        );
        assert_eq!(
            parse("go p1time 1000 p2time 900 p1inc 10 p2inc 20"),
            Ok(Command::Go(Go {
                p1time: Some(1000),
                p2time: Some(900),
                p1inc: Some(10),
                p2inc: Some(20),
                ..Go::default()
            }))
        );
        assert_eq!(
            parse("go wtime 1000 depth 3 mate infinite"),
            Ok(Command::Go(Go {
                depth: Some(3),
                infinite: true,
                ignored: vec!["wtime 1000".into(), "mate".into()],
                ..Go::default()
            }))
        );
        assert_eq!(
            parse("setoption name Hash value 16"),
            Ok(Command::SetOption {
                name: "Hash".into(),
                value: "16".into()
            })
        );
        for bad in [
            "go depth 0",
            "go depth x",
            "go p1time -5",
            "go p1time",
            "go depth 3 depth 4",
            "position",
            "position fen",
            "position fen moves d3",
            "position startpos d3",
            "query",
            "query turn",
            "setoption Hash 16",
            "setoption name",
            "isready now",
            "uci",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
