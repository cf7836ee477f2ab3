//! The browser board's session: the page's requests as a protocol over the one engine
//! controller, on the event loop every protocol runs on (`iago_core::protocol`). It
//! keeps what only a board has (the players of each side, the redo moves, the clock as
//! it runs, the hints and the graph) and tells the page every change through the
//! [`Publisher`].

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use serde_json::json;
use tokio::sync::broadcast;

use iago_core::engine::review::{Review, Row};
use iago_core::engine::{
    Engine, EngineGame, Job, Outcome, Progress, Purpose, SearchResult, Told, write_record,
};
use iago_core::game::Color;
use iago_core::games::GameEntry;
use iago_core::options::{self, EngineOption, LEVEL, Settings};
use iago_core::protocol::{Arrival, Flow, Session};
use iago_core::search::Confidence;

use crate::line::{ClockSetting, Line};
use crate::request::{Answer, ExportFormat, GameSource, PlayerKind, PlayerSpec, Request, WebLine};
use crate::view::{
    AnalysisView, ClockView, Discs, EvalPoint, Features, HintSettingView, HintsView, LineView,
    MoveView, PlayerView, Players, RowView, StateView, ThinkingView, line_moves, score_text, whole,
};

/// A message to the pages: its kind (`state`, `hints`, `thinking`, `analysis`) and JSON.
#[derive(Clone, Debug)]
pub struct Message {
    pub kind: &'static str,
    pub data: Arc<str>,
}

/// Messages a page that falls this far behind misses (it then reloads the state).
const BACKLOG: usize = 256;

/// Where the session tells the pages what changed: the latest message of each kind, for
/// a page that connects now, and a broadcast of each new one.
pub struct Publisher {
    latest: Mutex<Vec<Message>>,
    sender: broadcast::Sender<Message>,
}

impl Publisher {
    pub fn new() -> Arc<Publisher> {
        Arc::new(Publisher {
            latest: Mutex::new(Vec::new()),
            sender: broadcast::channel(BACKLOG).0,
        })
    }

    fn publish(&self, kind: &'static str, value: &impl Serialize) {
        let data: Arc<str> = match serde_json::to_string(value) {
            Ok(text) => text.into(),
            Err(error) => {
                log::error!("web: {kind} not written: {error}");
                return;
            }
        };
        let message = Message { kind, data };
        if let Ok(mut latest) = self.latest.lock() {
            latest.retain(|other| other.kind != kind);
            latest.push(message.clone());
        }
        // No page listening is no error.
        let _ = self.sender.send(message);
    }

    /// The latest message of each kind, and the messages from now on. (A message may come
    /// in both: the page goes by the versions.)
    pub fn subscribe(&self) -> (Vec<Message>, broadcast::Receiver<Message>) {
        let receiver = self.sender.subscribe();
        let latest = self.latest.lock().map(|l| l.clone()).unwrap_or_default();
        (latest, receiver)
    }

    /// The latest message of `kind`.
    pub fn latest(&self, kind: &str) -> Option<Arc<str>> {
        let latest = self.latest.lock().ok()?;
        latest
            .iter()
            .find(|message| message.kind == kind)
            .map(|message| message.data.clone())
    }
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seat {
    kind: PlayerKind,
    level: u32,
}

impl Seat {
    fn view(self) -> PlayerView {
        PlayerView {
            kind: match self.kind {
                PlayerKind::Human => "human",
                PlayerKind::Iago => "iago",
                PlayerKind::Random => "random",
            },
            level: self.level,
        }
    }
}

/// What the engine's job is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Running {
    /// The move of the side to move.
    Move,
    /// Hints for the side to move.
    Hint,
    /// The analysis of the line.
    Review,
}

/// The level of searches nothing else sets (`--level`, else this).
const DEFAULT_LEVEL: u32 = 10;

/// The most moves before the end an analysis solves from (the engine's levels solve
/// no earlier).
const MAX_SOLVE: u32 = 60;

/// A clock of at most a day for each side.
const MAX_CLOCK_MINUTES: f64 = 24.0 * 60.0;

fn level_option() -> &'static EngineOption {
    options::by_flag("--level").expect("the options table has --level")
}

fn color_name(color: Color) -> &'static str {
    color.name()
}

/// The board session over game `G` (a game drawn on a grid).
pub struct WebSession<G: EngineGame> {
    engine: Engine<G>,
    entry: &'static GameEntry,
    line: Line<G>,
    /// Black's seat, then White's.
    seats: [Seat; 2],
    hints_on: bool,
    hint_level: u32,
    /// The engine plays its sides' moves by itself (off after an undo or a stop).
    autoplay: bool,
    running: Option<Running>,
    version: u64,
    /// When the side to move began its turn (its seconds, for the clock).
    turn_started: Instant,
    /// The graph's points, by ply.
    evals: Vec<Option<EvalPoint>>,
    hints: HintsView,
    /// The latest hint line of each move, in the order found.
    hint_lines: Vec<SearchResult<G::Move>>,
    thinking: ThinkingView,
    notice: Option<String>,
    /// The analysis of the line, and the line's number: it changes with every move that
    /// changes the line, so that an analysis names the line it is of.
    analysis: AnalysisView,
    line_id: u64,
    publisher: Arc<Publisher>,
    /// Chooses the balanced opening of a new `xot` game.
    rng: StdRng,
}

impl<G: EngineGame> WebSession<G> {
    pub fn new(
        entry: &'static GameEntry,
        settings: Settings,
        wake: Arc<dyn Fn() + Send + Sync>,
        publisher: Arc<Publisher>,
    ) -> Result<WebSession<G>, String> {
        if G::GOGUI_GRID.is_none() {
            return Err(format!(
                "the board draws games played on a grid; {} is not one",
                entry.id
            ));
        }
        let level = settings.level.unwrap_or(DEFAULT_LEVEL);
        let seed = settings.seed.unwrap_or(0);
        let mut session = WebSession {
            engine: Engine::new(settings, wake)?,
            entry,
            line: Line::new(G::start()),
            seats: [
                Seat {
                    kind: PlayerKind::Human,
                    level,
                },
                Seat {
                    kind: PlayerKind::Iago,
                    level,
                },
            ],
            hints_on: false,
            hint_level: level,
            autoplay: true,
            running: None,
            version: 0,
            turn_started: Instant::now(),
            evals: Vec::new(),
            hints: HintsView::default(),
            hint_lines: Vec::new(),
            thinking: ThinkingView::default(),
            notice: None,
            analysis: AnalysisView::default(),
            line_id: 0,
            publisher,
            rng: StdRng::seed_from_u64(seed),
        };
        session.changed();
        Ok(session)
    }

    fn seat(&self, color: Color) -> Seat {
        match color {
            Color::Black => self.seats[0],
            Color::White => self.seats[1],
        }
    }

    /// Runs one request.
    fn request(&mut self, request: Request) -> Answer {
        match request {
            Request::New { from, text, number } => self.new_game(from, text, number)?,
            Request::Move { text } => self.human_move(&text)?,
            Request::Undo => self.undo()?,
            Request::Redo => self.redo()?,
            Request::Goto { ply } => {
                if ply > self.line.moves().len() {
                    return Err(format!(
                        "ply {ply}: the line has {} moves",
                        self.line.moves().len()
                    ));
                }
                self.line.go_to(ply);
                self.autoplay = false;
                self.notice = None;
            }
            Request::Players { black, white } => {
                self.seats = [self.seat_of(black)?, self.seat_of(white)?];
                self.autoplay = true;
            }
            Request::Go => self.autoplay = true,
            Request::Stop => {
                if self.running == Some(Running::Review) {
                    self.stop_job();
                    self.analysis.running = false;
                    self.publisher.publish("analysis", &self.analysis);
                } else if self.running == Some(Running::Move) {
                    // The move comes with what the search found; then the engine waits.
                    self.engine.hurry();
                } else {
                    self.stop_job();
                }
                self.autoplay = false;
            }
            Request::Hints { on, level } => {
                if let Some(level) = level {
                    self.hint_level = LEVEL.check(level)?;
                }
                self.hints_on = on;
            }
            Request::Clock { minutes, increment } => self.set_clock(minutes, increment)?,
            Request::Analyze {
                depth,
                verify,
                solve,
            } => self.analyze(depth, verify, solve)?,
            Request::Export { format } => return Ok(json!({ "text": self.export(format) })),
        }
        self.changed();
        Ok(json!({ "version": self.version }))
    }

    fn seat_of(&self, spec: PlayerSpec) -> Result<Seat, String> {
        let level = match spec.level {
            Some(level) => LEVEL.check(level)?,
            None => DEFAULT_LEVEL,
        };
        Ok(Seat {
            kind: spec.kind,
            level,
        })
    }

    fn new_game(
        &mut self,
        from: GameSource,
        text: Option<String>,
        number: Option<usize>,
    ) -> Result<(), String> {
        let record = match from {
            GameSource::Start => iago_core::engine::Record::new(G::start()),
            GameSource::Text => {
                let text = text.unwrap_or_default();
                G::read_game(text.trim())
                    .map_err(|error| format!("cannot read the game: {error}"))?
            }
            GameSource::Xot => {
                let openings = iago_arena::openings::default_openings_of(
                    &G::start(),
                    1000,
                    None,
                    self.rng.random(),
                );
                let index = match number {
                    Some(n) if (1..=openings.len()).contains(&n) => n - 1,
                    Some(n) => {
                        return Err(format!(
                            "opening {n}: there are {} (1 to {})",
                            openings.len(),
                            openings.len()
                        ));
                    }
                    None => self.rng.random_range(0..openings.len()),
                };
                let opening = &openings[index];
                let mut record = iago_core::engine::Record::new(opening.start.clone());
                let mut pos = opening.start.clone();
                for &mv in &opening.moves {
                    record
                        .moves
                        .push(iago_core::engine::Played { mv, seconds: None });
                    pos = pos.play(mv);
                }
                record
            }
        };
        let clock = self.line.clock;
        self.line_changed();
        self.line = Line::from_record(record);
        self.line.clock = self.line.clock.or(clock);
        self.evals.clear();
        self.autoplay = true;
        self.notice = None;
        Ok(())
    }

    /// A move of the side to move, typed or clicked.
    fn human_move(&mut self, text: &str) -> Result<(), String> {
        if self.line.is_over() {
            return Err("the game is over".into());
        }
        let pos = self.line.current().clone();
        let mv = pos.parse_move(text.trim())?;
        self.play(mv, None);
        self.autoplay = true;
        Ok(())
    }

    /// Plays `mv` at the cursor; `seconds` where the engine measured them, else the time
    /// since the turn began (on the clock, at the end of the line).
    fn play(&mut self, mv: G::Move, seconds: Option<f64>) {
        let mover = self.line.current().side_to_move();
        let at_end = self.line.cursor() == self.line.moves().len();
        let seconds = seconds.or_else(|| {
            (self.line.clock.is_some() && at_end).then(|| self.turn_started.elapsed().as_secs_f64())
        });
        let ply = self.line.cursor();
        if self.line.play(mv, seconds) {
            self.evals.truncate(ply + 1);
            self.line_changed();
        }
        self.notice = None;
        if self.line.time_left(mover).is_some_and(|left| left < 0.0) {
            self.line.flagged = Some(mover);
            self.notice = Some(format!("{} lost on time", capitalised(mover)));
        }
        self.pass_if_forced();
    }

    /// Plays the pass of a side that has no move, and says so.
    fn pass_if_forced(&mut self) {
        if self.line.is_over() {
            return;
        }
        let pos = self.line.current().clone();
        if let Some(pass) = pos.forced_pass() {
            let passer = pos.side_to_move();
            self.line.play(pass, Some(0.0));
            self.notice = Some(format!("{} has no move and passes", capitalised(passer)));
        }
    }

    fn undo(&mut self) -> Result<(), String> {
        if self.line.cursor() == 0 {
            return Err("no move to take back".into());
        }
        let any_human = self.seats.iter().any(|seat| seat.kind == PlayerKind::Human);
        let mut ply = self.line.cursor() - 1;
        while ply > 0 {
            let pos = self.line.position(ply);
            let human_to_move = self.seat(pos.side_to_move()).kind == PlayerKind::Human;
            if pos.forced_pass().is_none() && (human_to_move || !any_human) {
                break;
            }
            ply -= 1;
        }
        self.line.go_to(ply);
        self.autoplay = false;
        self.notice = None;
        Ok(())
    }

    fn redo(&mut self) -> Result<(), String> {
        let mut ply = self.line.cursor();
        if ply == self.line.moves().len() {
            return Err("no move to replay".into());
        }
        ply += 1;
        while ply < self.line.moves().len() && self.line.position(ply).forced_pass().is_some() {
            ply += 1;
        }
        self.line.go_to(ply);
        self.autoplay = false;
        self.notice = None;
        Ok(())
    }

    fn set_clock(&mut self, minutes: Option<f64>, increment: Option<f64>) -> Result<(), String> {
        let seconds = |value: f64, max: f64, what: &str| {
            if value.is_finite() && (0.0..=max).contains(&value) {
                Ok(Duration::from_secs_f64(value))
            } else {
                Err(format!("{what} must be between 0 and {max}"))
            }
        };
        self.line.clock = match minutes {
            None => None,
            Some(minutes) => Some(ClockSetting {
                main: seconds(minutes, MAX_CLOCK_MINUTES, "minutes")? * 60,
                increment: seconds(increment.unwrap_or(0.0), 3600.0, "increment")?,
            }),
        };
        Ok(())
    }

    fn export(&self, format: ExportFormat) -> String {
        let record = self.line.whole_record();
        match format {
            ExportFormat::Ggf => write_record(&record).unwrap_or_default(),
            ExportFormat::Transcript => G::transcript(&record),
            ExportFormat::Position => self.line.current().format_position(),
        }
    }

    /// The moves of the line changed: its analysis is of another line.
    fn line_changed(&mut self) {
        self.line_id += 1;
        if self.running == Some(Running::Review) {
            self.stop_job();
        }
        if !self.analysis.rows.is_empty() || self.analysis.running {
            self.analysis = AnalysisView {
                line: self.line_id,
                ..AnalysisView::default()
            };
            self.publisher.publish("analysis", &self.analysis);
        }
    }

    /// Starts the analysis of the whole line (the moves after the cursor too); it runs
    /// until it ends, a move changes the line or Stop, the position shown free to move.
    fn analyze(
        &mut self,
        depth: Option<u32>,
        verify: Option<u32>,
        solve: Option<u32>,
    ) -> Result<(), String> {
        let defaults = Review::DEFAULT;
        let depth = options::DEPTH.check(depth.unwrap_or(defaults.depth))?;
        let verify = match verify.unwrap_or(defaults.verify) {
            0 => 0,
            verify => options::DEPTH.check(verify)?,
        };
        let solve = solve.unwrap_or(defaults.solve);
        if solve > MAX_SOLVE {
            return Err(format!("solve must be between 0 and {MAX_SOLVE}"));
        }
        if self.line.moves().is_empty() {
            return Err("no move to analyse".into());
        }
        self.stop_job();
        self.engine.set_record(self.line.whole_record());
        self.engine.start(Job::Review(Review {
            depth,
            verify,
            solve,
        }));
        self.running = Some(Running::Review);
        self.analysis = AnalysisView {
            line: self.line_id,
            depth,
            verify,
            running: true,
            ..AnalysisView::default()
        };
        self.publisher.publish("analysis", &self.analysis);
        Ok(())
    }

    /// After every change: a new version, the state told, and the job the new state
    /// asks for started.
    fn changed(&mut self) {
        self.version += 1;
        self.turn_started = Instant::now();
        self.hints = HintsView {
            version: self.version,
            ..HintsView::default()
        };
        self.hint_lines.clear();
        self.thinking = ThinkingView {
            version: self.version,
            ..ThinkingView::default()
        };
        self.schedule();
        self.publish_state();
        self.publisher.publish("hints", &self.hints);
        self.publisher.publish("thinking", &self.thinking);
    }

    /// Starts what the position asks for: the engine's move, where the engine plays the
    /// side to move and plays by itself; else hints, where they are on; else nothing.
    fn schedule(&mut self) {
        // The analysis goes on while the player looks through the game.
        if self.running == Some(Running::Review) {
            return;
        }
        self.stop_job();
        if self.line.is_over() {
            return;
        }
        self.play_random_moves();
        if self.line.is_over() {
            return;
        }
        let seat = self.seat(self.line.current().side_to_move());
        if seat.kind == PlayerKind::Iago && self.autoplay {
            self.start(Running::Move, seat.level, |engine| Job::Go {
                limits: engine.limits(Purpose::Move, &Told::default()),
            });
        } else if self.hints_on {
            let count = self.line.current().legal_moves().as_ref().len().max(1);
            self.start(Running::Hint, self.hint_level, |engine| Job::Hint {
                count,
                limits: engine.limits(Purpose::Analysis, &Told::default()),
            });
        }
    }

    /// Starts a job at `level` on the game up to the cursor.
    fn start(&mut self, running: Running, level: u32, job: impl FnOnce(&Engine<G>) -> Job) {
        self.engine.set_record(self.line.record());
        if let Err(error) = self.engine.set_option(level_option(), &level.to_string()) {
            self.notice = Some(error.to_string());
            return;
        }
        let job = job(&self.engine);
        self.engine.start(job);
        self.running = Some(running);
    }

    /// The random player's moves, played at once (seeded by `--seed` and the position).
    fn play_random_moves(&mut self) {
        while self.autoplay
            && !self.line.is_over()
            && self.seat(self.line.current().side_to_move()).kind == PlayerKind::Random
        {
            self.engine.set_record(self.line.record());
            let Some(mv) = self.engine.random_reply() else {
                return;
            };
            self.play(mv, Some(0.0));
        }
    }

    fn stop_job(&mut self) {
        self.engine.stop();
        self.running = None;
    }

    /// The job's news: its progress told, its outcome applied.
    fn news(&mut self) {
        // The outcome first: the progress taken after it is all the job reported.
        let outcome = self.engine.poll();
        let progress = self.engine.take_progress();
        if !progress.is_empty() {
            self.progress(progress);
        }
        if let Some(outcome) = outcome {
            let running = self.running.take();
            self.outcome(running, outcome);
        }
    }

    fn progress(&mut self, items: Vec<Progress<G::Move>>) {
        let pos = self.line.current().clone();
        let (mut hints, mut thinking) = (false, false);
        for item in items {
            match item {
                Progress::Hint(line) => {
                    self.hint_lines
                        .retain(|other| other.pv.first() != line.pv.first());
                    self.hint_lines.push(line);
                    hints = true;
                }
                Progress::Iteration(SearchResult {
                    depth,
                    score,
                    confidence,
                    pv,
                    nodes,
                    elapsed,
                    ..
                }) => {
                    self.hints.depth = depth;
                    self.hints.nodes = nodes;
                    self.hints.ms = millis(elapsed);
                    self.thinking.depth = depth;
                    self.thinking.text = score_text::<G>(score, confidence);
                    self.thinking.kind = crate::view::kind(confidence, false);
                    self.thinking.pv = line_moves(&pos, &pv);
                    self.thinking.nodes = nodes;
                    self.thinking.ms = millis(elapsed);
                    if self.running == Some(Running::Hint) {
                        self.graph_point(score, confidence, false, "hint");
                    }
                    (hints, thinking) = (true, true);
                }
                Progress::Nodes { nodes, elapsed } => {
                    self.hints.nodes = nodes;
                    self.hints.ms = millis(elapsed);
                    self.thinking.nodes = nodes;
                    self.thinking.ms = millis(elapsed);
                    (hints, thinking) = (true, true);
                }
                Progress::Reviewed(row) => self.reviewed(&row),
                Progress::Analysis { .. } => {}
            }
        }
        match self.running {
            Some(Running::Hint) if hints => self.publish_hints(&pos),
            Some(Running::Move) if thinking => {
                self.publisher.publish("thinking", &self.thinking);
            }
            _ => {}
        }
    }

    fn outcome(&mut self, running: Option<Running>, outcome: Outcome<G::Move>) {
        match outcome {
            Outcome::Move(choice) if running == Some(Running::Move) => self.engine_move(choice),
            Outcome::Hints(lines) if running == Some(Running::Hint) => {
                let pos = self.line.current().clone();
                for line in lines {
                    self.hint_lines
                        .retain(|other| other.pv.first() != line.pv.first());
                    self.hint_lines.push(line);
                }
                self.hints.done = true;
                let deepest = self.hint_lines.iter().map(|line| line.depth).max();
                self.hints.depth = self.hints.depth.max(deepest.unwrap_or(0));
                self.publish_hints(&pos);
                self.publish_state();
            }
            Outcome::Reviewed if running == Some(Running::Review) => {
                self.analysis.running = false;
                self.analysis.done = true;
                self.analysis.summary = self.summary();
                self.publisher.publish("analysis", &self.analysis);
                self.schedule();
                self.publish_state();
            }
            Outcome::Failed(why) => {
                self.notice = Some(format!("the engine failed: {why}"));
                self.autoplay = false;
                self.publish_state();
            }
            _ => {}
        }
    }

    fn reviewed(&mut self, row: &Row<G::Move>) {
        let ply = row.number - 1;
        if ply >= self.line.moves().len() {
            return;
        }
        let pos = self.line.position(ply);
        self.analysis.rows.push(RowView {
            number: row.number,
            color: color_name(row.color),
            played: pos.format_move(row.played),
            played_score: whole::<G>(row.played_score),
            best: pos.format_move(row.best),
            best_score: whole::<G>(row.best_score),
            lost: whole::<G>(row.lost()),
            depth: row.depth,
            exact: row.exact,
        });
        let confidence = if row.exact {
            Confidence::Exact
        } else {
            Confidence::Heuristic
        };
        self.analysis.points.push(EvalPoint::new::<G>(
            ply,
            row.color,
            row.best_score,
            confidence,
            false,
            "analysis",
        ));
        self.analysis.summary = self.summary();
        self.publisher.publish("analysis", &self.analysis);
    }

    /// Each player's moves, mistakes and losses in the analysis.
    fn summary(&self) -> String {
        let part = |color: &str| {
            let own: Vec<&RowView> = self
                .analysis
                .rows
                .iter()
                .filter(|row| row.color == color)
                .collect();
            let mistakes = own.iter().filter(|row| row.lost > 0).count();
            let lost: i64 = own.iter().map(|row| row.lost).sum();
            format!(
                "{}: {} moves, {mistakes} with a loss, {lost} lost",
                if color == "black" { "Black" } else { "White" },
                own.len()
            )
        };
        format!("{}; {}", part("black"), part("white"))
    }

    fn engine_move(&mut self, choice: SearchResult<G::Move>) {
        let Some(mv) = choice.mv else {
            return;
        };
        self.graph_point(choice.score, choice.confidence, choice.is_book(), "move");
        self.play(mv, Some(choice.elapsed.as_secs_f64()));
        self.changed();
    }

    /// The graph's point of the position shown, from a search of it.
    fn graph_point(
        &mut self,
        score: iago_core::game::Score,
        confidence: Confidence,
        from_book: bool,
        source: &'static str,
    ) {
        let ply = self.line.cursor();
        let mover = self.line.current().side_to_move();
        if self.evals.len() <= ply {
            self.evals.resize(ply + 1, None);
        }
        // A win/loss/draw bound is no value to draw.
        if confidence == Confidence::WinLossDraw {
            return;
        }
        self.evals[ply] = Some(EvalPoint::new::<G>(
            ply, mover, score, confidence, from_book, source,
        ));
    }

    fn publish_hints(&mut self, pos: &G) {
        let mut lines: Vec<LineView> = self
            .hint_lines
            .iter()
            .filter_map(|line| LineView::of(pos, line))
            .collect();
        lines.sort_by(|a, b| b.value.total_cmp(&a.value));
        self.hints.lines = lines;
        self.publisher.publish("hints", &self.hints);
    }

    fn publish_state(&mut self) {
        let state = self.state();
        self.publisher.publish("state", &state);
    }

    fn state(&self) -> StateView {
        let pos = self.line.current();
        let size = self.entry.board_size;
        let board = (0..size)
            .map(|row| {
                (0..size)
                    .map(|col| match stone(pos, col, row) {
                        Some(Color::Black) => 'x',
                        Some(Color::White) => 'o',
                        None => '-',
                    })
                    .collect()
            })
            .collect();
        let cursor = self.line.cursor();
        let (last, flipped) = if cursor == 0 {
            (None, Vec::new())
        } else {
            let before = self.line.position(cursor - 1);
            let mv = self.line.moves()[cursor - 1].mv;
            let mut flipped = Vec::new();
            for row in 0..size {
                for col in 0..size {
                    let (was, is) = (stone(before, col, row), stone(pos, col, row));
                    if was.is_some() && is.is_some() && was != is {
                        flipped.push([col, row]);
                    }
                }
            }
            (Some(MoveView::of(before, mv)), flipped)
        };
        let count = |color| {
            (0..size)
                .flat_map(|row| (0..size).map(move |col| (col, row)))
                .filter(|&(col, row)| stone(pos, col, row) == Some(color))
                .count() as u32
        };
        let over = self.line.is_over();
        let mut moves = Vec::with_capacity(self.line.moves().len());
        for (ply, played) in self.line.moves().iter().enumerate() {
            moves.push(self.line.position(ply).format_move(played.mv));
        }
        StateView {
            version: self.version,
            game: self.entry.id,
            size,
            board,
            to_move: (!over).then(|| color_name(pos.side_to_move())),
            legal: if over {
                Vec::new()
            } else {
                pos.legal_moves()
                    .as_ref()
                    .iter()
                    .map(|&mv| MoveView::of(pos, mv))
                    .collect()
            },
            last,
            flipped,
            discs: Discs {
                black: count(Color::Black),
                white: count(Color::White),
            },
            moves,
            cursor,
            players: Players {
                black: self.seats[0].view(),
                white: self.seats[1].view(),
            },
            hints: HintSettingView {
                on: self.hints_on,
                level: self.hint_level,
            },
            clock: self.line.clock.map(|clock| ClockView {
                main_s: clock.main.as_secs_f64(),
                increment_s: clock.increment.as_secs_f64(),
                black_s: self.line.time_left(Color::Black).unwrap_or(0.0),
                white_s: self.line.time_left(Color::White).unwrap_or(0.0),
                running: (!over && cursor == self.line.moves().len())
                    .then(|| color_name(pos.side_to_move())),
            }),
            over,
            result: match self.line.flagged {
                Some(color) => Some(format!("{} wins on time.", capitalised(color.opponent()))),
                None => over.then(|| pos.result_text()),
            },
            notice: self.notice.clone(),
            job: self.running.map(|running| match running {
                Running::Move => "move",
                Running::Hint => "hint",
                Running::Review => "analysis",
            }),
            autoplay: self.autoplay,
            evals: self.evals.iter().flatten().cloned().collect(),
            position: pos.format_position(),
            features: Features {
                records: G::GGF.is_some(),
                openings: true,
                analysis: true,
            },
        }
    }
}

fn capitalised(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn millis(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)
}

impl<G: EngineGame> Session for WebSession<G> {
    type Line = WebLine;

    /// Every request acts at once: a move, an undo or new settings stop the search they
    /// make useless, and the page never waits behind a search.
    fn arrives(&mut self, _line: &WebLine, _queued: usize) -> Arrival {
        Arrival::Now
    }

    fn line(&mut self, line: WebLine) -> Flow {
        let answer = self.request(line.request);
        // The page may have gone: nobody to tell.
        let _ = line.reply.send(answer);
        Flow::Continue
    }

    fn wake(&mut self) -> Flow {
        self.news();
        Flow::Continue
    }

    fn finish(&mut self) -> Flow {
        self.stop_job();
        Flow::Exit
    }

    fn end(&mut self) -> Flow {
        Flow::Exit
    }

    fn busy(&self) -> bool {
        self.engine.is_busy()
    }
}

/// The stone on a square of the board's grid (every game the board plays has one).
fn stone<G: EngineGame>(pos: &G, col: u32, row: u32) -> Option<Color> {
    G::GOGUI_GRID.and_then(|grid| (grid.stone)(pos, col, row))
}
