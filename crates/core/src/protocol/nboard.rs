//! NBoard 2, as the NBoard GUI speaks it (`shared/reference/nboard.md` in the project's
//! notes; protocol.md for users).
//!
//! Every request is answered from the game state at the time it arrived; a `ping` stops
//! whatever runs and drops its results, so nothing older than a `pong` follows it. Lines
//! that cannot be read are logged to stderr and otherwise ignored, as the GUI expects.

use std::collections::VecDeque;
use std::sync::Arc;

use super::{Arrival, Flow, Output, Session, TextLine};
use crate::engine::{
    self, Engine, EngineGame, Job, Outcome, Progress, Purpose, SearchResult, Told,
};
use crate::game::Color;
use crate::options::Settings;
use crate::search::Confidence;

mod board;
mod grammar;

use board::HintBoard;

pub use grammar::{Command, parse};

/// What the running job answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Request {
    Go,
    Hint,
    Analyze,
    Learn,
    Solve,
    Perft(u32),
}

/// An NBoard session over game `G` (whose position records are GGF).
pub struct NBoard<G: EngineGame> {
    engine: Engine<G>,
    out: Output,
    /// What the running job answers.
    request: Option<Request>,
    /// Requests that came while one was running, in order, each with the limits of the
    /// time it came.
    waiting: VecDeque<(Request, Job)>,
    /// The running `hint`'s lines: those printed (its final answer repeats none of
    /// them) and the order the GUI gets them in.
    hints: HintBoard,
}

impl<G: EngineGame> NBoard<G> {
    pub fn new(
        settings: Settings,
        wake: Arc<dyn Fn() + Send + Sync>,
        out: Output,
    ) -> Result<NBoard<G>, String> {
        Ok(NBoard {
            engine: Engine::new(settings, wake)?,
            out,
            request: None,
            waiting: VecDeque::new(),
            hints: HintBoard::default(),
        })
    }

    /// Starts `request`, or lets it wait its turn behind the one running: requests are
    /// answered in the order they came.
    fn start(&mut self, request: Request, job: Job) {
        if self.request.is_some() {
            self.waiting.push_back((request, job));
            return;
        }
        self.request = Some(request);
        self.hints.clear();
        self.engine.start(job);
    }

    /// Starts the next waiting request, if any.
    fn start_next(&mut self) {
        if self.request.is_none()
            && let Some((request, job)) = self.waiting.pop_front()
        {
            self.start(request, job);
        }
    }

    /// Stops what runs and forgets it and the waiting requests: nothing of them is
    /// printed later. Learning is short and changes the book: a running or waiting
    /// `learn` is finished and answered first.
    fn cancel(&mut self) {
        loop {
            if self.request == Some(Request::Learn)
                && let Some(outcome) = self.engine.wait()
            {
                self.complete(outcome);
            }
            self.engine.stop();
            self.request = None;
            // Waiting requests are dropped, but for learning.
            match self.waiting.pop_front() {
                Some((Request::Learn, job)) => self.start(Request::Learn, job),
                Some(_) => {}
                None => return,
            }
        }
    }

    fn execute(&mut self, command: Command<G::Move>) -> Flow {
        match command {
            Command::NBoard(version) => {
                if version != 2 {
                    log::warn!("nboard version {version}: speaking version 2");
                }
                self.out.line(&self.name_line());
            }
            Command::Ping(n) => {
                self.cancel();
                self.out.line(&format!("pong {n}"));
            }
            Command::Set(option, value) => {
                if option.applies.stops_search() {
                    self.cancel();
                }
                if let Err(error) = self.engine.set_option(option, &value) {
                    let variable = option.nboard.unwrap_or(option.name);
                    log::warn!("set {variable} {value}: {error}");
                }
                if option.nboard == Some("depth") {
                    // As NTest and Edax do: some drivers wait for this line after `set
                    // depth`, and the GUI shows the name (with the level) in its title.
                    self.out.line(&self.name_line());
                }
            }
            Command::SetGame(text) => match engine::read_record::<G>(&text) {
                Ok(record) => {
                    self.cancel();
                    self.engine.set_record(record);
                }
                Err(error) => log::warn!("set game ignored: {error}"),
            },
            Command::SetPosition(text) => match G::parse_position(&text) {
                Ok(pos) => {
                    self.cancel();
                    self.engine.new_game(pos);
                }
                Err(error) => log::warn!("set position ignored: {error}"),
            },
            Command::Move { mv, seconds } => {
                self.cancel();
                if let Err(error) = self.engine.play(mv, seconds) {
                    log::warn!("move ignored: {error}");
                }
            }
            Command::Go => {
                let limits = self.engine.limits(Purpose::Move, &Told::default());
                self.start(Request::Go, Job::Go { limits });
            }
            Command::Hint(count) => {
                let limits = self.engine.limits(Purpose::Analysis, &Told::default());
                self.start(Request::Hint, Job::Hint { count, limits });
            }
            Command::Analyze => {
                let limits = self.engine.limits(Purpose::Analysis, &Told::default());
                self.start(Request::Analyze, Job::Analyze { limits });
            }
            Command::Learn => self.start(Request::Learn, Job::Learn),
            Command::Solve => {
                let limits = self.engine.limits(Purpose::Solve, &Told::default());
                self.start(Request::Solve, Job::Solve { limits });
            }
            Command::Perft(depth) => self.start(Request::Perft(depth), Job::Perft { depth }),
            Command::Quit => {
                self.cancel();
                return Flow::Exit;
            }
            Command::Eval => {
                let text = G::score_to_text(self.engine.evaluate());
                self.out.line(&format!("eval {text}"));
            }
            Command::ShowBoard => {
                let board = self.engine.position().board_text();
                self.out.line(&board);
            }
            Command::Position => {
                let text = self.engine.position().format_position();
                self.out.line(&format!("position {text}"));
            }
        }
        Flow::Continue
    }

    /// `set myname iago16` at level 16 (as NTest names itself `Ntest16`), `set myname
    /// iago` without a level: the GUI shows the name, so the player sees the level.
    fn name_line(&self) -> String {
        match self.engine.settings().level {
            Some(level) => format!("set myname iago{level}"),
            None => "set myname iago".into(),
        }
    }

    /// A move in NBoard's notation: upper case, `PA` for a pass.
    fn move_text(pos: &G, mv: G::Move) -> String {
        if pos.forced_pass() == Some(mv) || G::parse_move_text("pass").ok() == Some(mv) {
            "PA".into()
        } else {
            pos.format_move(mv).to_ascii_uppercase()
        }
    }

    fn depth_text(depth: u32, confidence: Confidence) -> String {
        match confidence {
            Confidence::Exact => "100%".into(),
            Confidence::WinLossDraw => "100%W".into(),
            Confidence::Probable(p) => format!("{p}%"),
            Confidence::Heuristic => depth.to_string(),
        }
    }

    fn hint_line(pos: &G, line: &SearchResult<G::Move>) -> String {
        // Without spaces: `F5-D6-C3`.
        let pv = super::pv_text(pos, &line.pv, Self::move_text, "-");
        let eval = G::score_to_text(line.score);
        let depth = Self::depth_text(line.depth, line.confidence);
        match line.book_games {
            Some(games) => format!("book {pv} {eval} {games} {depth}"),
            None => format!("search {pv} {eval} 0 {depth}"),
        }
    }

    /// The lines to print for a hint's `line`: each line once, in an order that keeps
    /// every square the GUI shows ([`HintBoard`]).
    fn tell_hint(&mut self, pos: &G, line: &SearchResult<G::Move>) -> Vec<String> {
        let text = Self::hint_line(pos, line);
        if line.book_games.is_some() {
            return self.hints.tell_book(text).into_iter().collect();
        }
        let square = line.pv.first().map(|&mv| Self::move_text(pos, mv));
        let depth = Self::depth_text(line.depth, line.confidence);
        let rank = Self::depth_rank(line.depth, line.confidence);
        self.hints
            .tell(&square.unwrap_or_default(), &depth, rank, text)
    }

    /// The order of the depths a hint's lines go through: the midgame's plies, then the
    /// probable solves by their percent, the win/loss/draw solve and the exact one.
    fn depth_rank(depth: u32, confidence: Confidence) -> u32 {
        match confidence {
            Confidence::Heuristic => depth,
            Confidence::Probable(percent) => 1000 + u32::from(percent),
            Confidence::WinLossDraw => 1200,
            Confidence::Exact => 1300,
        }
    }

    /// The GUI's status bar shows these: the search is alive.
    fn nodestats(&mut self, nodes: u64, elapsed: std::time::Duration) {
        if matches!(
            self.request,
            Some(Request::Go | Request::Hint | Request::Solve | Request::Analyze)
        ) {
            self.out
                .line(&format!("nodestats {nodes} {:.3}", elapsed.as_secs_f64()));
        }
    }

    fn progress(&mut self) {
        for item in self.engine.take_progress() {
            match item {
                Progress::Iteration(SearchResult {
                    nodes,
                    elapsed,
                    depth,
                    confidence,
                    ..
                }) => {
                    if self.request == Some(Request::Hint) {
                        let lines = self
                            .hints
                            .iteration_done(Self::depth_rank(depth, confidence));
                        lines.iter().for_each(|text| self.out.line(text));
                    }
                    self.nodestats(nodes, elapsed);
                }
                Progress::Nodes { nodes, elapsed } => self.nodestats(nodes, elapsed),
                Progress::Analysis { moves_made, score } => {
                    // The GUI plots the value as it comes, from Black's point of view.
                    let mover = self
                        .engine
                        .record()
                        .position_after(moves_made)
                        .side_to_move();
                    let black_view = if mover == Color::Black { score } else { -score };
                    self.out.line(&format!(
                        "analysis {moves_made} {}",
                        G::score_to_text(black_view)
                    ));
                }
                Progress::Hint(line) => {
                    if self.request == Some(Request::Hint) {
                        let lines = self.tell_hint(&self.engine.position(), &line);
                        lines.iter().for_each(|text| self.out.line(text));
                    }
                }
                // NBoard asks for no review of a game.
                Progress::Reviewed(_) => {}
            }
        }
    }

    fn complete(&mut self, outcome: Outcome<G::Move>) {
        let Some(request) = self.request.take() else {
            return;
        };
        let pos = self.engine.position();
        match (request, outcome) {
            (Request::Go, Outcome::Move(choice)) => {
                let text = match choice.mv {
                    None => "PA".to_string(),
                    Some(mv) => {
                        let mv = Self::move_text(&pos, mv);
                        if choice.depth > 0 || choice.is_book() {
                            format!(
                                "{mv}/{}/{:.3}",
                                G::score_to_text(choice.score),
                                choice.elapsed.as_secs_f64()
                            )
                        } else {
                            mv
                        }
                    }
                };
                self.out.line(&format!("=== {text}"));
            }
            (Request::Solve, Outcome::Move(choice)) => {
                let mv = choice
                    .mv
                    .map_or_else(|| "PA".to_string(), |mv| Self::move_text(&pos, mv));
                let how = Self::depth_text(choice.depth, choice.confidence);
                self.out.line(&format!(
                    "solve {mv} {} {how}",
                    G::score_to_text(choice.score)
                ));
            }
            (Request::Hint, Outcome::Hints(lines)) => {
                let mut texts: Vec<String> = Vec::new();
                for line in &lines {
                    texts.extend(self.tell_hint(&pos, line));
                }
                texts.extend(self.hints.finish());
                texts.iter().for_each(|text| self.out.line(text));
                self.hints.clear();
                self.out.line("status");
            }
            (Request::Analyze, Outcome::Analyzed) => self.out.line("status"),
            (Request::Learn, Outcome::Learned(Ok(text))) => {
                log::info!("learned: {text}");
                self.out.line("learned");
            }
            (Request::Learn, Outcome::Learned(Err(error))) => {
                // Not a warning: NBoard reads the engine's stderr as protocol input, and
                // the status line already tells the GUI.
                log::info!("learn: {error}");
                // `learned` would claim success (and clear the GUI's status bar): the
                // status bar shows the failure instead.
                let cause = error.replace(['\r', '\n'], " ");
                self.out.line(&format!("status learning failed: {cause}"));
            }
            (Request::Perft(depth), Outcome::Perft { leaves, elapsed }) => match leaves {
                Some(leaves) => self.out.line(&format!(
                    "perft {depth} {leaves} {:.3}",
                    elapsed.as_secs_f64()
                )),
                None => log::warn!("perft stopped"),
            },
            (request, Outcome::Failed(why)) => {
                // NBoard has no error reply: the status bar says why nothing comes.
                log::error!("{request:?}: {why}");
                self.out
                    .line(&format!("status {}", why.replace(['\r', '\n'], " ")));
            }
            (request, outcome) => log::error!("{request:?} ended with {outcome:?}"),
        }
    }
}

impl<G: EngineGame> Session for NBoard<G> {
    type Line = TextLine;

    /// Every line is read when it arrives: a request that comes while another runs waits
    /// for it with the limits of its time (`NBoard::start`), and `ping` stops it.
    fn arrives(&mut self, _line: &TextLine, _queued: usize) -> Arrival {
        Arrival::Now
    }

    fn line(&mut self, line: TextLine) -> Flow {
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                log::warn!("input ignored: {error}");
                return Flow::Continue;
            }
        };
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match parse::<G>(&line) {
            Ok(command) => self.execute(command),
            Err(error) => {
                log::warn!("ignored: {error}");
                Flow::Continue
            }
        }
    }

    fn wake(&mut self) -> Flow {
        self.progress();
        if self.request.is_some()
            && let Some(outcome) = self.engine.poll()
        {
            self.progress();
            self.complete(outcome);
            self.start_next();
        }
        Flow::Continue
    }

    /// The GUI closes the pipe to end the engine, also during a search: stop at once.
    fn finish(&mut self) -> Flow {
        self.cancel();
        Flow::Exit
    }

    fn end(&mut self) -> Flow {
        self.cancel();
        Flow::Exit
    }

    fn busy(&self) -> bool {
        self.request.is_some()
    }
}

#[cfg(test)]
mod tests;
