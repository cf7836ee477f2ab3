//! The protocol-neutral engine controller: it owns the game record, the searcher and the
//! book, runs every long request (search, hint, analysis, learning, perft) as a job on its
//! own thread with a stop flag, and hands results back as values. The protocols
//! (`crate::protocol`) turn text into calls here and values into text. What each job
//! does on that thread is in `jobs.rs`.
//!
//! Everything game-specific the protocols need goes through [`EngineGame`]; Othello is its
//! first implementation (`othello.rs`).

mod capabilities;
mod carry;
mod jobs;
mod limits;
mod result;
pub mod review;

pub use capabilities::{GgfFormat, GoguiGrid, OpeningFormat};
pub use carry::Carry;
pub use limits::{Purpose, Told};
pub use result::{Outcome, Progress, SearchResult};

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::game::{Color, Evaluator, Score};
use crate::options::BookChoice;
use crate::options::{Applies, EngineOption, Player, Refused, Settings};
use crate::search::time::TimeControl;
use crate::search::{Confidence, Limits, Searchable, Searcher, Variety};

use carry::GameSettings;
use jobs::{JobContext, JobInput};

/// A score as a count of `unit`s with two decimals (`-1.50`): how a game whose scores
/// are hundredths of its unit (a disc, a stone, a line) shows them.
pub fn units_text(score: Score, unit: Score) -> String {
    let sign = if score < 0 { "-" } else { "" };
    let (magnitude, unit) = (score.unsigned_abs(), unit.unsigned_abs());
    format!(
        "{sign}{}.{:02}",
        magnitude / unit,
        magnitude % unit * 100 / unit
    )
}

/// What the engine and the protocols need to know about a game beyond what the search
/// needs. Its names and board size are its registry entry's (`crate::games`).
pub trait EngineGame: Searchable + PartialEq {
    /// The position a new game starts from.
    fn start() -> Self;

    /// Reads a position string (the game's own format, see protocol.md).
    fn parse_position(text: &str) -> Result<Self, String>;

    /// Writes the position string that [`EngineGame::parse_position`] reads back.
    fn format_position(&self) -> String;

    /// Reads a position in the FEN-style format of UGI's `position fen` (see protocol.md);
    /// games without one read their own position string.
    fn parse_fen(text: &str) -> Result<Self, String> {
        Self::parse_position(text)
    }

    /// Writes the position that [`EngineGame::parse_fen`] reads back.
    fn format_fen(&self) -> String {
        self.format_position()
    }

    /// Reads a move's notation without checking it is legal here.
    fn parse_move_text(text: &str) -> Result<Self::Move, String>;

    /// The pass move, when the side to move has to pass.
    fn forced_pass(&self) -> Option<Self::Move>;

    /// The board drawn in text lines (no empty line), for `showboard`.
    fn board_text(&self) -> String;

    /// The result of an ended game for Black: the margin of Black's win (Othello's disc
    /// difference, the empties to the winner), negative for a loss, 0 for a draw; 1 or
    /// -1 in games without a margin. GTP's `final_score` writes it `B+n` or `W+n`.
    fn black_result(&self) -> i32;

    /// Whether a search of this position with no limit at all comes to an end in
    /// minutes, so that a command may wait for it: a tree small enough to exhaust, or a
    /// solve within reach (Othello at 30 empties or fewer); `false` for a game whose
    /// unlimited search deepens for ever (Nine Men's Morris).
    fn unlimited_search_ends(&self) -> bool {
        false
    }

    /// The largest [`EngineGame::black_result`] there is: the result of a game lost by
    /// forfeit in a match.
    const MAX_RESULT: i32 = 1;

    /// A score (the game's unit, the mover's view) as the protocols print it: discs for
    /// Othello, with two decimals and never an exponent.
    fn score_to_text(score: Score) -> String;

    /// Evaluator names accepted by [`EngineGame::evaluator`], the default first.
    fn evaluator_names() -> &'static [&'static str];

    /// The evaluator called `name`.
    fn evaluator(name: &str) -> Result<Box<dyn Evaluator<Self>>, String>;

    /// The same position under the rule settings `text` (the game's own words, see
    /// protocol.md); an error for games without rule variants.
    fn with_rules(&self, _text: &str) -> Result<Self, String> {
        Err("the game has no rule variants".into())
    }

    /// The rule settings of this position in the words [`EngineGame::with_rules`] reads,
    /// for telling another engine which rules a game is played by; `None` for games
    /// without rule variants.
    fn rules_text(&self) -> Option<String> {
        None
    }

    /// How this ended game ended, in a word or two (Mill's `blocked`, `repetition`), for
    /// a match's count of endings; `None` for games that end one way only.
    fn ending(&self) -> Option<&'static str> {
        None
    }

    /// The game's own opening notation and default set for matches; `None` where an
    /// opening is its moves written apart (`d6 d5`) and matches play random openings.
    const OPENINGS: Option<OpeningFormat<Self>> = None;

    /// How the game's records are read and written in GGF; `None` for games without
    /// GGF records, which NBoard engines (told their games as GGF) do not play.
    const GGF: Option<GgfFormat<Self>> = None;

    /// Reads a game in any form a user may paste: a game record, a move list or a
    /// position string (the game's own forms; a position is a game without moves).
    fn read_game(text: &str) -> Result<Record<Self>, String> {
        read_record::<Self>(text).or_else(|_| Self::parse_position(text).map(Record::new))
    }

    /// The moves of a game as one short text (Othello's `f5d6c3`, passes left out), for
    /// a user to copy; the moves' notations joined by spaces in games without one.
    fn transcript(record: &Record<Self>) -> String {
        let mut pos = record.start.clone();
        let mut words = Vec::with_capacity(record.moves.len());
        for played in &record.moves {
            words.push(pos.format_move(played.mv));
            pos = pos.play(played.mv);
        }
        words.join(" ")
    }

    /// The opening book `choice` names: `Ok(None)` when it names none (or the game has
    /// no books), an error when it names one that cannot be used.
    fn open_book(_choice: &BookChoice) -> Result<Option<Box<dyn EngineBook<Self>>>, String> {
        Ok(None)
    }

    /// The grid GoGui draws the game on; `None` for a game whose moves are not single
    /// points, which GoGui cannot show.
    const GOGUI_GRID: Option<GoguiGrid<Self>> = None;

    /// The end of the game in words (`Black wins 40-24.`), for a GUI's result dialog.
    fn result_text(&self) -> String {
        match self.black_result() {
            0 => "Draw.".into(),
            n if n > 0 => format!("Black wins by {n}."),
            n => format!("White wins by {}.", -n),
        }
    }

    /// The depth an analysis of this position searches for `depth`: where the game's
    /// evaluation swings between odd and even depths, one of the same parity for every
    /// position of a game, so that a game's scores compare like with like.
    fn analysis_depth(&self, depth: u32) -> u32 {
        depth
    }

    /// Leaves of the game tree `depth` plies deep (a fast game-specific version may
    /// replace this one).
    fn perft(&self, depth: u32) -> u64 {
        crate::game::perft(self, depth)
    }
}

/// A book move as the engine reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct BookHint<M> {
    pub mv: M,
    /// The book's line starting with `mv`.
    pub pv: Vec<M>,
    /// Value for the mover, in the game's unit.
    pub score: Score,
    pub games: u32,
    pub depth: u32,
    pub exact: bool,
}

impl<M> BookHint<M> {
    /// How sure the book's score is.
    pub fn confidence(&self) -> Confidence {
        if self.exact {
            Confidence::Exact
        } else {
            Confidence::Heuristic
        }
    }
}

/// What the engine needs from an opening book.
pub trait EngineBook<G: Searchable>: Send {
    /// The move to play from the book, if any (a seeded `rng` allows variety).
    fn choose(&self, pos: &G, rng: Option<&mut StdRng>) -> Option<BookHint<G::Move>>;
    /// All book moves of `pos`, best first.
    fn hints(&self, pos: &G) -> Vec<BookHint<G::Move>>;
    /// The book's value of `pos` for its mover (that of its best move, backed up through
    /// the book), where `pos` is in the book.
    fn value(&self, _pos: &G) -> Option<Score> {
        None
    }
    /// Adds a finished game; returns a line describing what changed.
    fn learn(
        &mut self,
        start: &G,
        moves: &[G::Move],
        searcher: &mut Searcher<G>,
    ) -> Result<String, String>;
}

/// Score tolerance of `--seed` variety: moves within a disc of the best may be played.
const VARIETY_TOLERANCE: Score = 100;

/// The variety a seed asks for (none without a seed).
fn variety(seed: Option<u64>) -> Option<Variety> {
    seed.map(|seed| Variety {
        tolerance: VARIETY_TOLERANCE,
        seed,
    })
}

/// The name of `G`'s default evaluator.
fn default_evaluator<G: EngineGame>() -> &'static str {
    G::evaluator_names().first().copied().unwrap_or("default")
}

/// A searcher as `settings` ask for it: evaluator, table size, threads and variety. The
/// tables are allocated now (for a player that searches) rather than inside the first
/// timed move, and a size that cannot be had is refused now.
fn new_searcher<G: EngineGame>(settings: &Settings) -> Result<Searcher<G>, String> {
    let eval_name = settings
        .eval
        .as_deref()
        .unwrap_or_else(|| default_evaluator::<G>());
    let mut searcher = Searcher::new(G::evaluator(eval_name)?);
    if let Some(mb) = settings.hash_mb {
        searcher.set_hash_mb(mb);
    }
    if let Some(threads) = settings.threads {
        searcher.set_threads(threads);
    }
    searcher.set_variety(variety(settings.seed));
    if settings.player == Player::Search {
        searcher
            .allocate_tables()
            .map_err(|error| match settings.hash_mb {
                Some(mb) => format!("--hash {mb}: {error}"),
                None => error.to_string(),
            })?;
    }
    Ok(searcher)
}

/// One move of the game the engine holds, with the seconds its player used if known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played<M> {
    pub mv: M,
    pub seconds: Option<f64>,
}

/// The game: a start position and the moves since (passes explicit).
#[derive(Clone, Debug, PartialEq)]
pub struct Record<G: EngineGame> {
    pub start: G,
    pub moves: Vec<Played<G::Move>>,
    /// Main time per player, if the game has a clock.
    pub clock: Option<Duration>,
    pub increment: Duration,
}

impl<G: EngineGame> Record<G> {
    pub fn new(start: G) -> Record<G> {
        Record {
            start,
            moves: Vec::new(),
            clock: None,
            increment: Duration::ZERO,
        }
    }

    /// The position after the first `count` moves.
    pub fn position_after(&self, count: usize) -> G {
        self.moves
            .iter()
            .take(count)
            .fold(self.start.clone(), |pos, played| pos.play(played.mv))
    }

    pub fn current(&self) -> G {
        self.position_after(self.moves.len())
    }

    /// Time left on the clock of the side to move: the main time minus the seconds
    /// recorded for that side's moves, plus its increments.
    pub fn remaining_for_mover(&self) -> Option<Duration> {
        let main = self.clock?;
        let mover = self.current().side_to_move();
        let mut pos = self.start.clone();
        let mut used = 0.0;
        let mut moves_made = 0u32;
        for played in &self.moves {
            if pos.side_to_move() == mover {
                used += played.seconds.unwrap_or(0.0);
                moves_made += 1;
            }
            pos = pos.play(played.mv);
        }
        let total = main.as_secs_f64() + self.increment.as_secs_f64() * moves_made as f64;
        Some(Duration::from_secs_f64((total - used).max(0.0)))
    }
}

/// A request the engine runs on its job thread.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// Choose a move for the current position (book first, then search).
    Go { limits: Limits },
    /// Score the best `count` moves of the current position.
    Hint { count: usize, limits: Limits },
    /// Score every position of the game, last first.
    Analyze { limits: Limits },
    /// Every move of the game against the best move ([`review`]).
    Review(review::Review),
    /// Add the game to the book.
    Learn,
    /// Search the current position to the end of the game (no book).
    Solve { limits: Limits },
    /// Count leaves.
    Perft { depth: u32 },
}

/// The book as the engine and its job thread share it.
type SharedBook<G> = Arc<Mutex<Box<dyn EngineBook<G>>>>;

/// Reads a game record of `G` (NBoard's `set game`): GGF, where the game has it.
pub fn read_record<G: EngineGame>(text: &str) -> Result<Record<G>, String> {
    let ggf = G::GGF.ok_or("the game has no game record format")?;
    (ggf.read)(text)
}

/// `record` as the game's GGF record, `None` for a game without one.
pub fn write_record<G: EngineGame>(record: &Record<G>) -> Option<String> {
    G::GGF.map(|ggf| (ggf.write)(record))
}

/// The job in flight.
struct Running<G: EngineGame> {
    id: u64,
    stop: Arc<AtomicBool>,
    progress: Arc<Mutex<Vec<Progress<G::Move>>>>,
    /// Raised by the job thread just before its last wake-up, so that the wake-up finds
    /// the job finished even if the thread has not returned yet.
    done: Arc<AtomicBool>,
    handle: JoinHandle<(Searcher<G>, Outcome<G::Move>)>,
}

/// Why a request could not be carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    IllegalMove(String),
    CannotUndo,
    /// An option's value that could not be read (each front end words it its way).
    Refused(Refused),
    /// A value read but not usable (an evaluator the game has not, a table too large).
    BadValue(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::IllegalMove(text) => write!(f, "illegal move: {text}"),
            EngineError::CannotUndo => f.write_str("cannot undo"),
            EngineError::Refused(Refused::OutOfRange(text)) => f.write_str(text),
            EngineError::Refused(Refused::NotANumber) => f.write_str("not a number"),
            EngineError::Refused(Refused::Expected(what)) => write!(f, "expected {what}"),
            EngineError::BadValue(text) => f.write_str(text),
        }
    }
}

/// The engine controller.
pub struct Engine<G: EngineGame> {
    record: Record<G>,
    settings: Settings,
    /// `None` while a job has it.
    searcher: Option<Searcher<G>>,
    evaluator: Box<dyn Evaluator<G>>,
    /// The book, or why there is none (for `learn`'s error).
    book: Result<SharedBook<G>, String>,
    rng: StdRng,
    running: Option<Running<G>>,
    /// Why the last job could not start: the outcome that the next [`Engine::poll`] or
    /// [`Engine::wait`] gives, as if the job had run.
    not_started: Option<String>,
    /// The stack size of job threads (`None`: the system's). Tests ask for one no
    /// system gives, to see a job fail to start.
    pub(crate) job_stack: Option<usize>,
    /// Progress of the last job that was not taken before it finished.
    finished_progress: Vec<Progress<G::Move>>,
    next_id: u64,
    /// Called from the job thread when it has news (progress or done).
    wake: Arc<dyn Fn() + Send + Sync>,
    /// The time control a controller set (GTP's), if any.
    time_control: TimeControl,
    /// This game's own settings (its rules).
    game_settings: GameSettings,
    /// The settings of the other games of the session, for a switch back.
    other_games: Vec<(&'static str, GameSettings)>,
}

impl<G: EngineGame> Engine<G> {
    /// An engine for a new game at the start position. `wake` is called from the job
    /// thread whenever [`Engine::take_progress`] or [`Engine::poll`] has something new.
    pub fn new(settings: Settings, wake: Arc<dyn Fn() + Send + Sync>) -> Result<Engine<G>, String> {
        let searcher = new_searcher(&settings)?;
        let evaluator = G::evaluator(
            settings
                .eval
                .as_deref()
                .unwrap_or_else(|| default_evaluator::<G>()),
        )?;
        let book = match settings.player {
            Player::Search => match G::open_book(&settings.book) {
                Ok(Some(book)) => Ok(Arc::new(Mutex::new(book))),
                Ok(None) => Err("no book to learn into (--book none)".to_string()),
                Err(error) => {
                    log::error!("{error}; playing without a book");
                    Err(format!("no book to learn into: {error}"))
                }
            },
            Player::Random => Err("the random player has no book".to_string()),
        };
        Ok(Engine {
            record: Record::new(G::start()),
            rng: StdRng::seed_from_u64(settings.seed.unwrap_or(0)),
            settings,
            searcher: Some(searcher),
            evaluator,
            book,
            running: None,
            not_started: None,
            job_stack: None,
            finished_progress: Vec::new(),
            next_id: 0,
            wake,
            time_control: TimeControl::default(),
            game_settings: GameSettings::default(),
            other_games: Vec::new(),
        })
    }

    pub fn record(&self) -> &Record<G> {
        &self.record
    }

    pub fn position(&self) -> G {
        self.record.current()
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Whether a job is in flight, or failed to start and is yet to be answered.
    pub fn is_busy(&self) -> bool {
        self.running.is_some() || self.not_started.is_some()
    }

    /// Replaces the game (stops any job first).
    pub fn set_record(&mut self, record: Record<G>) {
        self.stop();
        let new_game = record.start != self.record.start
            || record.moves.len() < self.record.moves.len()
            || record.moves[..self.record.moves.len()] != self.record.moves[..];
        self.record = record;
        if new_game && let Some(searcher) = &mut self.searcher {
            searcher.clear();
        }
    }

    /// The time control a controller sets (GTP's `time_settings`), for the games from
    /// now on.
    pub fn set_time_control(&mut self, control: TimeControl) {
        self.time_control = control;
    }

    /// `color` has `left` on its clock for the next `stones` moves (0: the main time).
    pub fn time_left(&mut self, color: Color, left: Duration, stones: u32) {
        self.time_control.time_left(color, left, stones);
    }

    /// A new game from `start`, under the game's rules ([`Engine::set_rules`]).
    pub fn new_game(&mut self, start: G) {
        let start = self.with_rules(start);
        self.start_game(start);
    }

    /// A new game from `start` as it is.
    fn start_game(&mut self, start: G) {
        let clock = (self.record.clock, self.record.increment);
        let mut record = Record::new(start);
        (record.clock, record.increment) = clock;
        self.set_record(record);
    }

    /// Plays `mv` (checked for legality) in the current position.
    pub fn play(&mut self, mv: G::Move, seconds: Option<f64>) -> Result<(), EngineError> {
        self.stop();
        let pos = self.position();
        if !pos.legal_moves().as_ref().contains(&mv) {
            return Err(EngineError::IllegalMove(pos.format_move(mv)));
        }
        self.record.moves.push(Played { mv, seconds });
        Ok(())
    }

    /// Plays `mv` for `color`: the side to move's, or the other side's where the side to
    /// move has to pass (the pass is played first).
    pub fn play_for(&mut self, color: Color, mv: G::Move) -> Result<(), EngineError> {
        let pos = self.position();
        if color == pos.side_to_move() {
            return self.play(mv, None);
        }
        let illegal = || EngineError::IllegalMove(pos.format_move(mv));
        let pass = pos.forced_pass().ok_or_else(illegal)?;
        if !pos.play(pass).legal_moves().as_ref().contains(&mv) {
            return Err(illegal());
        }
        self.play(pass, None)?;
        self.play(mv, None)
    }

    /// Makes `color` the side to move, for a search of its move: where the other side
    /// is to move and has to pass, its pass is played. Returns the passes played (0 or
    /// 1); an error where the other side has a move.
    pub fn turn_to(&mut self, color: Color) -> Result<usize, EngineError> {
        let pos = self.position();
        if color == pos.side_to_move() {
            return Ok(0);
        }
        let pass = pos
            .forced_pass()
            .ok_or_else(|| EngineError::IllegalMove(format!("{color:?} is not to move")))?;
        self.play(pass, None).map(|()| 1)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<(), EngineError> {
        self.stop();
        self.record
            .moves
            .pop()
            .map(|_| ())
            .ok_or(EngineError::CannotUndo)
    }

    /// Sets `option` to `value` (as each front end reads it: [`crate::options`]) and
    /// applies it: a limit for the next searches, or a change of the searcher, which stops
    /// the job in flight first. A value that cannot be applied (an evaluator the game has
    /// not, a table that cannot be allocated) leaves the settings as they were.
    pub fn set_option(&mut self, option: &EngineOption, value: &str) -> Result<(), EngineError> {
        let mut settings = self.settings.clone();
        (option.set)(&mut settings, value).map_err(EngineError::Refused)?;
        match option.applies {
            Applies::Limits => {}
            Applies::Ignored => {
                log::info!("{} {}: accepted and ignored", option.name, value.trim());
                return Ok(());
            }
            Applies::StartUp => {
                return Err(EngineError::BadValue(format!(
                    "{} is set on the command line only",
                    option.name
                )));
            }
            Applies::Hash => self.apply_hash(settings.hash_mb)?,
            Applies::Threads => {
                self.stop();
                if let (Some(searcher), Some(threads)) = (&mut self.searcher, settings.threads) {
                    searcher.set_threads(threads);
                }
            }
            Applies::Seed => {
                self.stop();
                self.rng = StdRng::seed_from_u64(settings.seed.unwrap_or(0));
                if let Some(searcher) = &mut self.searcher {
                    searcher.set_variety(variety(settings.seed));
                }
            }
            Applies::Eval => self.apply_evaluator(settings.eval.as_deref())?,
        }
        self.settings = settings;
        Ok(())
    }

    /// A new table size, allocated at once: a size that cannot be had is an error, and the
    /// engine keeps the size it had.
    fn apply_hash(&mut self, hash_mb: Option<usize>) -> Result<(), EngineError> {
        self.stop();
        let (Some(searcher), Some(mb)) = (&mut self.searcher, hash_mb) else {
            return Ok(());
        };
        searcher.set_hash_mb(mb);
        if self.settings.player == Player::Search {
            // Backing a new table with memory takes time (seconds for gigabytes): spent
            // on this command rather than inside the next timed move.
            searcher
                .allocate_tables()
                .map_err(|error| EngineError::BadValue(error.to_string()))?;
        }
        Ok(())
    }

    /// The evaluator called `name` (the game's default for none), for the searcher and for
    /// `eval`.
    fn apply_evaluator(&mut self, name: Option<&str>) -> Result<(), EngineError> {
        self.stop();
        let name = name.unwrap_or_else(|| default_evaluator::<G>());
        let for_search = G::evaluator(name).map_err(EngineError::BadValue)?;
        self.evaluator = G::evaluator(name).map_err(EngineError::BadValue)?;
        if let Some(searcher) = &mut self.searcher {
            searcher.set_evaluator(for_search);
        }
        Ok(())
    }

    /// The static evaluation of the current position, for its mover.
    pub fn evaluate(&self) -> Score {
        let pos = self.position();
        if pos.is_game_over() {
            pos.final_score()
        } else {
            self.evaluator.evaluate(&pos)
        }
    }

    /// Whether a search within `limits` from the current position ends by itself in
    /// reasonable time: it has a limit, or the game says an unlimited one ends
    /// ([`EngineGame::unlimited_search_ends`]).
    pub fn search_ends(&self, limits: &Limits) -> bool {
        *limits != Limits::default() || self.position().unlimited_search_ends()
    }

    /// Starts `job` on the current game, stopping any job in flight. A job that cannot
    /// start is answered all the same: [`Engine::poll`] and [`Engine::wait`] give
    /// [`Outcome::Failed`] with the reason.
    pub fn start(&mut self, job: Job) {
        self.stop();
        let mut searcher = match self
            .searcher
            .take()
            .map_or_else(|| self.fresh_searcher(), Ok)
        {
            Ok(searcher) => searcher,
            Err(error) => return self.fail_to_start(format!("no searcher: {error}")),
        };
        self.next_id += 1;
        let id = self.next_id;
        let stop = Arc::new(AtomicBool::new(false));
        let progress: Arc<Mutex<Vec<Progress<G::Move>>>> = Arc::new(Mutex::new(Vec::new()));
        let done = Arc::new(AtomicBool::new(false));
        let input = self.job_input(&job);
        let (thread_stop, thread_progress, thread_done, wake) = (
            stop.clone(),
            progress.clone(),
            done.clone(),
            self.wake.clone(),
        );
        let mut builder = std::thread::Builder::new().name("search".into());
        if let Some(size) = self.job_stack {
            builder = builder.stack_size(size);
        }
        let spawned = builder.spawn(move || {
            let context = JobContext {
                stop: &thread_stop,
                progress: &thread_progress,
                wake: &*wake,
            };
            let outcome = jobs::run(job, input, &mut searcher, &context);
            thread_done.store(true, Ordering::Release);
            wake();
            (searcher, outcome)
        });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    id,
                    stop,
                    progress,
                    done,
                    handle,
                });
            }
            Err(error) => {
                // The thread's closure, and the searcher with it, is gone.
                self.searcher = self.fresh_searcher().ok();
                self.fail_to_start(format!("cannot start the search thread: {error}"));
            }
        }
    }

    /// What `job` works on: the game, the book and the random choices made here.
    fn job_input(&mut self, job: &Job) -> JobInput<G> {
        JobInput {
            record: self.record.clone(),
            book: self.book.clone(),
            book_rng: self
                .settings
                .seed
                .map(|_| StdRng::seed_from_u64(self.rng.random())),
            player: self.settings.player,
            random_move: self.random_move(job),
        }
    }

    /// Runs `job` on the calling thread to its outcome, for a caller that is a thread of
    /// its own (a match's worker): no job thread is started, its progress is dropped, and
    /// only the job's limits (or `stop`) end it. The job in flight, if any, is stopped.
    pub fn run_here(&mut self, job: Job, stop: &AtomicBool) -> Outcome<G::Move> {
        self.stop();
        let mut searcher = match self
            .searcher
            .take()
            .map_or_else(|| self.fresh_searcher(), Ok)
        {
            Ok(searcher) => searcher,
            Err(error) => return Outcome::Failed(format!("no searcher: {error}")),
        };
        let input = self.job_input(&job);
        let progress = Mutex::new(Vec::new());
        let context = JobContext {
            stop,
            progress: &progress,
            wake: &|| {},
        };
        let outcome = jobs::run(job, input, &mut searcher, &context);
        self.searcher = Some(searcher);
        outcome
    }

    /// The random player's move for `job` (`--player random`), chosen here, seeded by
    /// the position too, so that a game does not depend on which games the same process
    /// played before; `None` for any other job or player, or without a legal move.
    fn random_move(&self, job: &Job) -> Option<G::Move> {
        if self.settings.player != Player::Random || !matches!(job, Job::Go { .. }) {
            return None;
        }
        self.random_reply()
    }

    /// The random player's move in the current position, seeded by `--seed` and the
    /// position; `None` without a legal move.
    pub fn random_reply(&self) -> Option<G::Move> {
        let pos = self.record.current();
        let moves = pos.legal_moves();
        let moves = moves.as_ref();
        let mut rng = StdRng::seed_from_u64(self.settings.seed.unwrap_or(0) ^ pos.hash());
        (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
    }

    /// Records why a job could not start, for the next poll or wait, and wakes the
    /// event loop to take it.
    fn fail_to_start(&mut self, why: String) {
        log::error!("{why}");
        self.not_started = Some(why);
        (self.wake)();
    }

    /// A searcher in place of one lost, with the settings it had: the table size,
    /// threads, variety and evaluator that the options set.
    fn fresh_searcher(&self) -> Result<Searcher<G>, String> {
        new_searcher(&self.settings).inspect_err(|error| log::error!("no fresh searcher: {error}"))
    }

    /// Stops the job in flight, if any, and drops its results: nothing it found is
    /// reported after this returns.
    pub fn stop(&mut self) {
        self.finished_progress.clear();
        self.not_started = None;
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            self.finish(running.id, running.handle);
        }
    }

    /// Asks the job in flight to stop, keeping what it found: [`Engine::wait`] then returns
    /// its outcome (a move search still gives a legal move).
    pub fn hurry(&self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Progress reports since the last call (of the finished job too, until the next
    /// job starts or a stop drops them).
    pub fn take_progress(&mut self) -> Vec<Progress<G::Move>> {
        let mut items = std::mem::take(&mut self.finished_progress);
        if let Some(running) = &self.running
            && let Ok(mut progress) = running.progress.lock()
        {
            items.append(&mut progress);
        }
        items
    }

    /// The outcome of the job if it has finished.
    pub fn poll(&mut self) -> Option<Outcome<G::Move>> {
        if let Some(why) = self.not_started.take() {
            return Some(Outcome::Failed(why));
        }
        let running = self.running.as_ref()?;
        // Once `done` is raised the thread only has to return: joining it is immediate.
        if running.done.load(Ordering::Acquire) || running.handle.is_finished() {
            self.wait()
        } else {
            None
        }
    }

    /// Waits for the job in flight and returns its outcome.
    pub fn wait(&mut self) -> Option<Outcome<G::Move>> {
        if let Some(why) = self.not_started.take() {
            return Some(Outcome::Failed(why));
        }
        let running = self.running.take()?;
        let outcome = self.finish(running.id, running.handle);
        if let Ok(mut progress) = running.progress.lock() {
            self.finished_progress.append(&mut progress);
        }
        Some(outcome)
    }

    /// Joins the job's thread and takes the searcher back.
    fn finish(
        &mut self,
        id: u64,
        handle: JoinHandle<(Searcher<G>, Outcome<G::Move>)>,
    ) -> Outcome<G::Move> {
        log::trace!("job {id} finished");
        match handle.join() {
            Ok((searcher, outcome)) => {
                self.searcher = Some(searcher);
                outcome
            }
            Err(_) => {
                log::error!("the search thread panicked; starting a fresh searcher");
                self.searcher = self.fresh_searcher().ok();
                Outcome::Failed("the search thread panicked".into())
            }
        }
    }
}

impl<G: EngineGame> Drop for Engine<G> {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::DEFAULT_DEPTH;
    use crate::othello::Position;
    use crate::search::time;

    #[test]
    fn the_clock_is_the_main_time_minus_the_movers_recorded_seconds() {
        let record = read_record::<Position>(
            "(;GM[Othello]TI[5:00]BO[8 ---------------------------O*------*O--------------------------- *]B[d3//10]W[c3/0/20.5]B[c4//5];)",
        )
        .unwrap();
        // White to move: 300 s minus its 20.5 s.
        assert_eq!(
            record.remaining_for_mover(),
            Some(Duration::from_millis(279_500))
        );
        let with_increment = read_record::<Position>(
            "(;GM[Othello]TI[1:00/0:02/0]BO[8 ---------------------------O*------*O--------------------------- *]B[d3//10]W[c3//3];)",
        )
        .unwrap();
        // Black to move: 60 s plus one increment of 2 s minus 10 s.
        assert_eq!(
            with_increment.remaining_for_mover(),
            Some(Duration::from_secs(52))
        );
        let untimed = read_record::<Position>(
            "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)",
        )
        .unwrap();
        assert_eq!(untimed.remaining_for_mover(), None);
    }

    /// An Othello engine with `settings` and no book, its wake-ups going nowhere.
    fn bookless_engine(settings: Settings) -> Engine<Position> {
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(|| {});
        let settings = Settings {
            book: BookChoice::None,
            ..settings
        };
        Engine::new(settings, wake).unwrap()
    }

    /// No system gives a thread a petabyte of stack: the job's thread cannot start.
    const NO_STACK: usize = 1 << 50;

    #[test]
    fn a_job_that_cannot_start_is_answered_and_the_searcher_keeps_its_settings() {
        let mut engine = bookless_engine(Settings::default());
        for (flag, value) in [("--hash", "2"), ("--threads", "3"), ("--seed", "7")] {
            let option = crate::options::by_flag(flag).unwrap();
            engine.set_option(option, value).unwrap();
        }
        engine
            .set_option(crate::options::by_flag("--depth").unwrap(), "3")
            .unwrap();
        engine.job_stack = Some(NO_STACK);
        engine.start(Job::Go {
            limits: engine.limits(Purpose::Move, &Told::default()),
        });
        assert!(engine.is_busy(), "the failure waits to be answered");
        match engine.poll() {
            Some(Outcome::Failed(why)) => {
                assert!(why.contains("cannot start the search thread"), "{why}")
            }
            other => panic!("expected a failed job, got {other:?}"),
        }
        assert!(!engine.is_busy());
        let searcher = engine.searcher.as_ref().expect("a searcher again");
        assert_eq!(searcher.hash_mb(), 2);
        assert_eq!(searcher.threads(), 3);
        assert_eq!(searcher.variety().map(|variety| variety.seed), Some(7));
        // The next job starts, with those settings.
        engine.job_stack = None;
        engine.start(Job::Go {
            limits: engine.limits(Purpose::Move, &Told::default()),
        });
        match engine.wait() {
            Some(Outcome::Move(choice)) => assert!(choice.mv.is_some()),
            other => panic!("expected a move, got {other:?}"),
        }
        assert_eq!(engine.searcher.as_ref().map(Searcher::threads), Some(3));
    }

    /// A job run on the caller's thread finds what the job thread finds, and leaves the
    /// engine its searcher for the next one.
    #[test]
    fn a_job_run_here_is_the_job_run_on_its_thread() {
        let mut engine = bookless_engine(Settings {
            depth: Some(5),
            ..Settings::default()
        });
        engine.play("f5".parse().unwrap(), None).unwrap();
        let go = || Job::Go {
            limits: Limits {
                depth: Some(5),
                ..Limits::default()
            },
        };
        engine.start(go());
        let threaded = engine.wait();
        engine.set_record(Record::new(Position::start()));
        engine.play("f5".parse().unwrap(), None).unwrap();
        let stop = AtomicBool::new(false);
        let here = engine.run_here(go(), &stop);
        let (Some(Outcome::Move(threaded)), Outcome::Move(here)) = (threaded, here) else {
            panic!("no moves");
        };
        assert_eq!(
            (here.mv, here.score, here.depth),
            (threaded.mv, threaded.score, 5)
        );
        assert!(!engine.is_busy());
        assert!(matches!(engine.run_here(go(), &stop), Outcome::Move(_)));
    }

    #[test]
    fn limits_default_to_a_depth_only_when_nothing_else_bounds_the_search() {
        let mut engine = bookless_engine(Settings::default());
        let move_limits =
            |engine: &Engine<Position>, told: &Told| engine.limits(Purpose::Move, told);
        assert_eq!(
            move_limits(&engine, &Told::default()).depth,
            Some(DEFAULT_DEPTH)
        );
        assert_eq!(
            engine.limits(Purpose::BoundedSolve, &Told::default()),
            Limits::default(),
            "a bounded solve has no default depth"
        );
        let nodes = crate::options::by_flag("--nodes").unwrap();
        engine.set_option(nodes, "1000").unwrap();
        assert_eq!(move_limits(&engine, &Told::default()).depth, None);
        let one_second = Told {
            movetime: Some(Duration::from_secs(1)),
            ..Told::default()
        };
        assert_eq!(
            move_limits(&engine, &one_second).movetime,
            Some(Duration::from_secs(1) - time::MOVE_OVERHEAD),
            "a told time loses the controller's latency"
        );
        assert_eq!(
            engine.limits(Purpose::Analysis, &one_second).movetime,
            None,
            "an analysis takes no clock"
        );
        engine.set_time_control(TimeControl::new(Duration::from_secs(60), Duration::ZERO, 0));
        assert_eq!(
            move_limits(&engine, &Told::default())
                .clock
                .map(|clock| clock.remaining),
            Some(Duration::from_secs(60) - time::MOVE_OVERHEAD),
            "the time control's clock"
        );
        let infinite = Told {
            depth: Some(3),
            infinite: true,
            ..Told::default()
        };
        assert_eq!(
            move_limits(&engine, &infinite),
            Limits {
                depth: Some(3),
                ..Limits::default()
            },
            "an infinite search has only its own limits"
        );
    }

    #[test]
    fn a_move_for_the_side_not_to_move_follows_its_forced_pass() {
        let mut engine = bookless_engine(Settings::default());
        assert!(engine.turn_to(Color::White).is_err(), "Black has moves");
        // White to move and without a move; Black has e8.
        let white_passes = format!("{}{}---- O", "X".repeat(40), "O".repeat(20));
        engine.new_game(Position::parse_position(&white_passes).unwrap());
        let a1: crate::othello::Move = "a1".parse().unwrap();
        assert!(engine.play_for(Color::Black, a1).is_err());
        assert!(engine.record().moves.is_empty(), "nothing played");
        assert_eq!(engine.turn_to(Color::Black), Ok(1));
        engine.undo().unwrap();
        engine
            .play_for(Color::Black, "e8".parse().unwrap())
            .unwrap();
        let moves: Vec<String> = engine
            .record()
            .moves
            .iter()
            .map(|played| played.mv.to_string())
            .collect();
        assert_eq!(moves, ["pass", "e8"]);
    }

    #[test]
    fn a_game_switched_away_from_and_back_keeps_its_rules_and_the_clock() {
        use crate::mill::MillPosition;
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(|| {});
        let (othello, mill) = (
            crate::games::find("othello").unwrap(),
            crate::games::find("mill").unwrap(),
        );
        let settings = Settings {
            book: BookChoice::None,
            ..Settings::default()
        };
        let mut engine =
            Engine::<MillPosition>::resume(mill, Carry::new(settings), wake.clone()).unwrap();
        engine.set_rules("draw-plies=4").unwrap();
        assert!(engine.set_rules("draw-plies=x").is_err());
        engine.set_time_control(TimeControl::new(Duration::from_secs(60), Duration::ZERO, 0));
        let ruled = engine.position();
        assert_ne!(ruled, MillPosition::start());
        let away = Engine::<Position>::resume(othello, engine.carry(mill), wake.clone()).unwrap();
        assert_eq!(
            away.position(),
            Position::start(),
            "Othello has no rules set"
        );
        let mut back = Engine::<MillPosition>::resume(mill, away.carry(othello), wake).unwrap();
        back.new_game(MillPosition::start());
        assert_eq!(back.position(), ruled);
        assert!(
            back.limits(Purpose::Move, &Told::default()).clock.is_some(),
            "the time control came along"
        );
    }

    #[test]
    fn illegal_moves_and_undo_leave_the_game_alone() {
        let mut engine = bookless_engine(Settings::default());
        assert_eq!(engine.undo(), Err(EngineError::CannotUndo));
        let a1: crate::othello::Move = "a1".parse().unwrap();
        assert!(engine.play(a1, None).is_err());
        assert_eq!(engine.position(), Position::start());
        engine.play("d3".parse().unwrap(), None).unwrap();
        engine.undo().unwrap();
        assert_eq!(engine.position(), Position::start());
    }
}
