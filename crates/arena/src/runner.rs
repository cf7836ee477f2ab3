//! The match, for any game of the registry: a schedule of games between every pair of
//! engines, played by worker threads that each own their engine processes, with results
//! gathered, written and tallied on the calling thread.

use std::collections::{BTreeMap, VecDeque};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use crate::driver::{Driver, Effort, Fault, FaultKind, TimeControl};
use crate::game::{self, GameOutcome, GameSetup, MoveLimits, Seat, Thinking};
use crate::gtp::GtpDriver;
use crate::in_process::{InProcessDriver, checked_settings};
use crate::nboard::{NBoardDriver, NBoardOptions};
use crate::openings::Opening;
use crate::record;
use crate::spec::{EngineSpec, Protocol};
use crate::stats::{Sprt, SprtVerdict, Tally};
use iago_core::engine::EngineGame;
use iago_core::files::Replacement;
use iago_core::game::{Color, Game};
use iago_core::games::{self, GameEntry};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig<G: Game> {
    /// The game's registry entry.
    pub game: &'static GameEntry,
    /// The position every game starts from: the game's start under the match's rules.
    pub start: G,
    pub engines: Vec<EngineSpec>,
    /// Games for each pair of engines.
    pub games: u32,
    /// The limits of each engine, in the order of `engines`.
    pub limits: Vec<MoveLimits>,
    /// Games played at once.
    pub concurrency: usize,
    /// Played in order, each twice with colours swapped, starting again when used up.
    pub openings: Vec<Opening<G>>,
    /// Where the records go, one per line: GGF where the game has it ([`record::record_text`]).
    pub out: Option<PathBuf>,
    /// Stop as soon as this test decides (two engines only).
    pub sprt: Option<Sprt>,
    /// How long an engine may take to start and answer its first command.
    pub startup_timeout: Duration,
    /// Show the progress line on stderr.
    pub progress: bool,
    /// How NBoard engines are told the game: the NBoard GUI's ways where asked.
    pub nboard: NBoardOptions,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Job {
    number: u32,
    pairing: usize,
    black: usize,
    white: usize,
    opening: usize,
}

/// Results of the games between two engines, from the first one's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairingStats {
    pub first: usize,
    pub second: usize,
    pub tally: Tally,
    /// Sum of the first engine's results ([`EngineGame::black_result`] from its side:
    /// Othello's disc differences) in games that were played out.
    pub disc_sum: i64,
    /// Games played out (not forfeited).
    pub finished: u32,
}

impl PairingStats {
    /// Mean disc difference of the games played out, first engine's side.
    pub fn mean_discs(&self) -> Option<f64> {
        (self.finished > 0).then(|| self.disc_sum as f64 / f64::from(self.finished))
    }
}

/// One engine's totals over the match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineStats {
    pub games: u32,
    pub points: f64,
    pub moves: u64,
    pub seconds: f64,
    pub forfeits: BTreeMap<FaultKind, u32>,
    /// The longest move, in seconds.
    pub slowest: f64,
    /// Moves longer than [`game::SEARCHED_MOVE`], and their seconds.
    pub searched_moves: u64,
    pub searched_seconds: f64,
    /// What the engine said its searches cost (an engine in this process).
    pub effort: Effort,
    /// The clock the engine was held to, and what was left of it at the end of each
    /// game it did not forfeit.
    pub clock: Option<Duration>,
    pub clock_left: Vec<Duration>,
    /// The engine's own time per move, if it had one.
    pub move_time: Option<Duration>,
}

impl EngineStats {
    fn new(limits: &MoveLimits) -> EngineStats {
        EngineStats {
            clock: limits.held_to_clock,
            move_time: match limits.time_control {
                TimeControl::MoveTime(time) => Some(time),
                _ => None,
            },
            ..EngineStats::default()
        }
    }

    pub fn seconds_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.seconds / self.moves as f64)
    }

    fn add(&mut self, thinking: &Thinking, forfeited: bool) {
        self.moves += u64::from(thinking.moves);
        self.seconds += thinking.seconds;
        self.slowest = self.slowest.max(thinking.slowest);
        self.searched_moves += u64::from(thinking.searched_moves);
        self.searched_seconds += thinking.searched_seconds;
        self.effort.add(&thinking.effort);
        if let Some(left) = thinking.clock_left
            && !forfeited
        {
            self.clock_left.push(left);
        }
    }
}

/// The state of the SPRT when the match ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    pub test: Sprt,
    pub llr: f64,
    pub verdict: Option<SprtVerdict>,
}

/// What a match produced.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// The game's name, for games other than the registry's first (Othello); `None` for it.
    pub game: Option<&'static str>,
    /// The rule settings played by, for games with variants.
    pub rules: Option<String>,
    /// Whether results have a margin (Othello's discs), shown as the mean per pairing.
    pub margins: bool,
    pub names: Vec<String>,
    pub pairings: Vec<PairingStats>,
    pub engines: Vec<EngineStats>,
    pub games_played: u32,
    pub games_scheduled: u32,
    pub sprt: Option<SprtState>,
    /// How many games ended each way, for games that name their endings
    /// ([`EngineGame::ending`]), with `forfeit` and `ply limit`.
    pub endings: BTreeMap<&'static str, u32>,
    pub wall_seconds: f64,
}

/// Plays the match. Errors are about the setup (no engines, an unwritable output file);
/// engine failures are forfeits inside the match.
pub fn run_match<G: EngineGame>(config: &MatchConfig<G>) -> Result<MatchSummary, String> {
    validate(config)?;
    let started = Instant::now();
    let jobs = schedule(config);
    let games_scheduled = jobs.len() as u32;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let default_game = games::GAMES.first() == Some(config.game);
    let mut summary = MatchSummary {
        game: (!default_game).then_some(config.game.name),
        rules: config.start.rules_text(),
        margins: G::MAX_RESULT > 1,
        names: names.clone(),
        pairings: pairings(config.engines.len()),
        engines: config.limits.iter().map(EngineStats::new).collect(),
        games_played: 0,
        games_scheduled,
        sprt: config.sprt.map(|test| SprtState {
            test,
            llr: 0.0,
            verdict: None,
        }),
        endings: BTreeMap::new(),
        wall_seconds: 0.0,
    };
    let mut output = match &config.out {
        Some(path) => Some(RecordFile::create(path)?),
        None => None,
    };
    let queue = Mutex::new(VecDeque::from(jobs));
    let stop = AtomicBool::new(false);
    let workers = config.concurrency.clamp(1, games_scheduled.max(1) as usize);
    let (sender, results) = mpsc::channel::<(Job, GameOutcome<G>)>();
    let mut progress = Progress::new(config.progress);
    let mut write_error = None;
    thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || worker(config, queue, stop, sender));
        }
        drop(sender);
        for (job, outcome) in results {
            summary.add(&job, &outcome);
            let ending = ending(&outcome);
            if let Some(ending) = ending {
                *summary.endings.entry(ending).or_default() += 1;
            }
            let fault = outcome.forfeit.as_ref().map(|(_, fault)| fault);
            let line = record::record_text(job.number + 1, &outcome.record, ending, fault);
            if let Some(file) = output.as_mut()
                && let Err(e) = file.add(job.number, line)
            {
                // Stop the match: games whose records cannot be kept are wasted.
                write_error = Some(e);
                stop.store(true, Ordering::Relaxed);
            }
            if let Some(state) = summary.sprt.as_mut() {
                let tally = summary.pairings[0].tally;
                state.llr = state.test.llr(&tally);
                if state.verdict.is_none() {
                    state.verdict = state.test.verdict(&tally);
                    if state.verdict.is_some() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            if let Some((color, fault)) = &outcome.forfeit {
                let loser = if *color == Color::Black {
                    job.black
                } else {
                    job.white
                };
                progress.note(&format!(
                    "game {}: {} forfeits ({fault})",
                    job.number + 1,
                    names[loser]
                ));
            }
            progress.update(&summary);
        }
    });
    progress.finish();
    if let Some(error) = write_error {
        return Err(error);
    }
    if let Some(file) = output {
        file.finish()?;
    }
    summary.wall_seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

fn validate<G: EngineGame>(config: &MatchConfig<G>) -> Result<(), String> {
    if config.engines.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    let mut names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        return Err("engine names must differ".into());
    }
    if config.limits.len() != config.engines.len() {
        return Err("one set of limits per engine is needed".into());
    }
    if config.openings.is_empty() {
        return Err("no openings".into());
    }
    if config.sprt.is_some() && config.engines.len() != 2 {
        return Err("the SPRT compares exactly two engines".into());
    }
    if G::GGF.is_none()
        && config
            .engines
            .iter()
            .any(|e| e.protocol == Protocol::NBoard)
    {
        return Err(format!(
            "NBoard engines play Othello only: give {} engines as NAME=gtp:COMMAND",
            config.game.name
        ));
    }
    for engine in &config.engines {
        if engine.protocol == Protocol::InProcess {
            checked_settings::<G>(&engine.command)
                .map_err(|error| format!("engine {}: {error}", engine.name))?;
        }
    }
    let gtp = config.engines.iter().any(|e| e.protocol == Protocol::Gtp);
    if gtp && config.openings.iter().any(|o| o.start != config.start) {
        return Err(
            "GTP engines can only be given openings reached by moves from the start".into(),
        );
    }
    Ok(())
}

fn pairings(engines: usize) -> Vec<PairingStats> {
    let mut list = Vec::new();
    for first in 0..engines {
        for second in first + 1..engines {
            list.push(PairingStats {
                first,
                second,
                ..PairingStats::default()
            });
        }
    }
    list
}

/// Game 2k and 2k+1 of a pairing share opening k with colours swapped; pairings take turns
/// so that a round robin stopped early is still even.
fn schedule<G: Game>(config: &MatchConfig<G>) -> Vec<Job> {
    let pairs = pairings(config.engines.len());
    let mut jobs = Vec::new();
    for game in 0..config.games {
        for (index, pair) in pairs.iter().enumerate() {
            let (black, white) = if game % 2 == 0 {
                (pair.first, pair.second)
            } else {
                (pair.second, pair.first)
            };
            jobs.push(Job {
                number: jobs.len() as u32,
                pairing: index,
                black,
                white,
                opening: (game / 2) as usize % config.openings.len(),
            });
        }
    }
    jobs
}

/// How a game ended: [`FORFEIT`], [`PLY_LIMIT`] or the game's word for its final
/// position (`None` for games that end one way only: [`EngineGame::ending`]).
fn ending<G: EngineGame>(outcome: &GameOutcome<G>) -> Option<&'static str> {
    let record = &outcome.record;
    let end =
        (record.moves.iter()).fold(record.start.clone(), |pos, recorded| pos.play(recorded.mv));
    if outcome.forfeit.is_some() {
        Some(FORFEIT)
    } else if !end.is_game_over() {
        Some(PLY_LIMIT)
    } else {
        end.ending()
    }
}

/// The ending of a game lost by forfeit.
pub const FORFEIT: &str = "forfeit";
/// The ending of a game stopped at [`game::MAX_PLIES`].
pub const PLY_LIMIT: &str = "ply limit";

fn start_engine<G: EngineGame>(
    spec: &EngineSpec,
    limits: &MoveLimits,
    config: &MatchConfig<G>,
    setup: &GameSetup,
) -> Result<Box<dyn Driver<G>>, Fault> {
    let deadline = Instant::now() + config.startup_timeout;
    let time_control = limits.time_control;
    let started: Result<Box<dyn Driver<G>>, Fault> = match spec.protocol {
        Protocol::NBoard => {
            NBoardDriver::start(&spec.command, time_control, config.nboard, deadline)
                .map(|d| Box::new(d) as Box<dyn Driver<G>>)
        }
        Protocol::InProcess => checked_settings::<G>(&spec.command)
            .map_err(|error| Fault::new(FaultKind::Refused, error))
            .and_then(|settings| InProcessDriver::start(&settings, time_control))
            .map(|d| Box::new(d) as Box<dyn Driver<G>>),
        Protocol::Gtp => GtpDriver::start(
            &spec.command,
            time_control,
            config.start.clone(),
            setup,
            deadline,
        )
        .map(|d| Box::new(d) as Box<dyn Driver<G>>),
    };
    started.map_err(|mut fault| {
        if fault.kind == FaultKind::Timeout {
            fault.detail = format!(
                "not ready within {:.1} s of starting",
                config.startup_timeout.as_secs_f64()
            );
        }
        fault
    })
}

/// Plays games from the queue until it is empty or the match is stopped. Each worker keeps
/// its own process of each engine between games and restarts one after it forfeits.
fn worker<G: EngineGame>(
    config: &MatchConfig<G>,
    queue: &Mutex<VecDeque<Job>>,
    stop: &AtomicBool,
    results: mpsc::Sender<(Job, GameOutcome<G>)>,
) {
    let setup = GameSetup::new(config.game, &config.start);
    let mut seats: Vec<Seat<G>> = config.engines.iter().map(|_| None).collect();
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Some(job) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            break;
        };
        let names = [
            config.engines[job.black].name.as_str(),
            config.engines[job.white].name.as_str(),
        ];
        let outcome = game::play_seated(
            &mut seats,
            [job.black, job.white],
            &config.openings[job.opening],
            names,
            [&config.limits[job.black], &config.limits[job.white]],
            |index| {
                start_engine(
                    &config.engines[index],
                    &config.limits[index],
                    config,
                    &setup,
                )
            },
        );
        if results.send((job, outcome)).is_err() {
            break;
        }
    }
}

impl MatchSummary {
    fn add<G: Game>(&mut self, job: &Job, outcome: &GameOutcome<G>) {
        self.games_played += 1;
        let pairing = &mut self.pairings[job.pairing];
        let first_is_black = pairing.first == job.black;
        let first_discs = if first_is_black {
            outcome.black_result
        } else {
            -outcome.black_result
        };
        match first_discs.signum() {
            1 => pairing.tally.wins += 1,
            -1 => pairing.tally.losses += 1,
            _ => pairing.tally.draws += 1,
        }
        if outcome.forfeit.is_none() {
            pairing.finished += 1;
            pairing.disc_sum += i64::from(first_discs);
        }
        for (color, index) in [(Color::Black, job.black), (Color::White, job.white)] {
            let stats = &mut self.engines[index];
            let forfeited = matches!(&outcome.forfeit, Some((loser, _)) if *loser == color);
            stats.games += 1;
            stats.add(&outcome.thinking[game::colour_index(color)], forfeited);
            let discs = if color == Color::Black {
                outcome.black_result
            } else {
                -outcome.black_result
            };
            stats.points += match discs.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            if let Some((loser, fault)) = &outcome.forfeit
                && *loser == color
            {
                *stats.forfeits.entry(fault.kind).or_default() += 1;
            }
        }
    }
}

/// The output file: records are appended to `NAME.partial-RANDOM` beside the file (the
/// one a symbolic link names; made new, never through a link planted there) in game
/// order as games end, so that a crash keeps what was played, and it is synced and
/// renamed over the file at the end; a device or a pipe is written into directly
/// ([`iago_core::files::Replacement`]). An error removes the partial file.
struct RecordFile {
    file: Replacement,
    /// The game whose record is written next; later ones wait in `pending`.
    next: u32,
    pending: BTreeMap<u32, String>,
}

impl RecordFile {
    fn create(path: &Path) -> Result<RecordFile, String> {
        let file =
            Replacement::create(path, "partial").map_err(|e| format!("cannot create {e}"))?;
        Ok(RecordFile {
            file,
            next: 0,
            pending: BTreeMap::new(),
        })
    }

    /// Adds game `number`'s record line, writing every record that is now in order.
    fn add(&mut self, number: u32, line: String) -> Result<(), String> {
        self.pending.insert(number, line);
        while let Some(line) = self.pending.remove(&self.next) {
            self.write(&line)?;
            self.next += 1;
        }
        Ok(())
    }

    fn write(&mut self, line: &str) -> Result<(), String> {
        self.file
            .write_all(format!("{line}\n").as_bytes())
            .map_err(|e| format!("cannot write {e}"))
    }

    /// Writes the records still waiting (games skipped after an early stop leave gaps),
    /// syncs and renames.
    fn finish(mut self) -> Result<(), String> {
        for line in std::mem::take(&mut self.pending).into_values() {
            self.write(&line)?;
        }
        let target = self.file.target().to_path_buf();
        self.file
            .commit()
            .map_err(|e| format!("cannot finish {}: {}", target.display(), e.error))
    }
}

/// The live progress line on stderr: rewritten in place on a terminal, one line per game
/// otherwise.
struct Progress {
    enabled: bool,
    terminal: bool,
    shown: bool,
}

impl Progress {
    fn new(enabled: bool) -> Progress {
        Progress {
            enabled,
            terminal: std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    fn update(&mut self, summary: &MatchSummary) {
        if !self.enabled {
            return;
        }
        let line = crate::report::progress_line(summary);
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal {
            write!(err, "\r\x1b[2K{line}")
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
        self.shown = true;
    }

    /// A message on its own line, above the progress line.
    fn note(&mut self, text: &str) {
        if !self.enabled {
            log::info!("{text}");
            return;
        }
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal && self.shown {
            writeln!(err, "\r\x1b[2K{text}")
        } else {
            writeln!(err, "{text}")
        };
    }

    fn finish(&mut self) {
        if self.enabled && self.terminal && self.shown {
            let _ = writeln!(std::io::stderr());
        }
    }
}
