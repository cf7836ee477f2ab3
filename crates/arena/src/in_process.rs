//! An engine in this process: iago's own controller ([`Engine`], the one every protocol
//! drives), with the settings its engine options give (`--eval discs --book none`, as
//! `iago` reads them on its command line), driven by the worker thread of the game
//! without a protocol in between: for comparing evaluators or settings quickly.
//!
//! It is told the game as an NBoard GUI tells one (the moves with the seconds each took,
//! and the clock) and searches on the worker's own thread (a job thread a move would
//! cost more than a shallow search): its limits end the search, and a move found after
//! the deadline an engine process is held to forfeits all the same, as does a search
//! that panics.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::driver::{Driver, Effort, EngineMove, Fault, FaultKind, MoveRequest, TimeControl};
use crate::record::ArenaRecord;
use iago_core::engine::{Engine, EngineGame, Job, Outcome, Played, Purpose, Record, Told};
use iago_core::options::{self, Settings};

/// Reads engine options as `iago [ENGINE OPTIONS]` does (`--eval discs --depth 4`, one
/// word a value); `--game` and `--protocol` are the match's, not an engine's.
pub fn engine_settings(words: &str) -> Result<Settings, String> {
    let mut settings = Settings::default();
    let mut words = words.split_whitespace();
    while let Some(flag) = words.next() {
        let option = options::by_flag(flag)
            .ok_or_else(|| format!("{flag:?} is not an engine option (see `iago --help`)"))?;
        let value = words
            .next()
            .ok_or_else(|| format!("{flag} needs {}", option.argument))?;
        (option.set)(&mut settings, value)
            .map_err(|refused| refused.on_command_line(flag, value))?;
    }
    Ok(settings)
}

/// The settings of an in-process engine of `G` from its options, checked as far as can
/// be before a game: the evaluator must be one of the game's.
pub fn checked_settings<G: EngineGame>(words: &str) -> Result<Settings, String> {
    let settings = engine_settings(words)?;
    if let Some(name) = &settings.eval {
        G::evaluator(name).map_err(|error| format!("--eval {name}: {error}"))?;
    }
    Ok(settings)
}

pub struct InProcessDriver<G: EngineGame> {
    engine: Engine<G>,
    /// A game clock, told the engine with the game.
    clock: Option<std::time::Duration>,
}

impl<G: EngineGame> InProcessDriver<G> {
    /// An engine with `settings`, limited as the match's `time_control` says: a fixed
    /// depth or time per move becomes its setting, a clock is told with each game.
    pub fn start(
        settings: &Settings,
        time_control: TimeControl,
    ) -> Result<InProcessDriver<G>, Fault> {
        let mut settings = settings.clone();
        let (flag, value) = match time_control {
            TimeControl::Depth(depth) => ("--depth", depth.to_string()),
            TimeControl::MoveTime(time) => ("--movetime", time.as_millis().to_string()),
            TimeControl::Clock(_) => ("", String::new()),
        };
        if let Some(option) = options::by_flag(flag) {
            (option.set)(&mut settings, &value).map_err(|refused| {
                Fault::new(FaultKind::Refused, refused.on_command_line(flag, &value))
            })?;
        }
        // Its jobs run on the caller's thread ([`Engine::run_here`]): nothing to wake.
        let engine = Engine::new(settings, Arc::new(|| {}))
            .map_err(|error| Fault::new(FaultKind::Crash, error))?;
        let clock = match time_control {
            TimeControl::Clock(clock) => Some(clock),
            _ => None,
        };
        Ok(InProcessDriver { engine, clock })
    }

    /// The game as the engine holds it: the moves with their seconds, and the clock.
    fn engine_record(&self, record: &ArenaRecord<G>) -> Record<G> {
        let mut game = Record::new(record.start.clone());
        game.moves = (record.moves.iter())
            .map(|recorded| Played {
                mv: recorded.mv,
                seconds: recorded.seconds,
            })
            .collect();
        game.clock = self.clock;
        game
    }
}

impl<G: EngineGame> Driver<G> for InProcessDriver<G> {
    fn new_game(&mut self, record: &ArenaRecord<G>, _deadline: Instant) -> Result<(), Fault> {
        // A new start (or fewer moves than the engine holds) clears its tables.
        self.engine.new_game(record.start.clone());
        Ok(())
    }

    fn request_move(&mut self, request: &MoveRequest<G>) -> Result<EngineMove<G::Move>, Fault> {
        self.engine.set_record(self.engine_record(request.record));
        let limits = self.engine.limits(Purpose::Move, &Told::default());
        let stop = AtomicBool::new(false);
        let engine = &mut self.engine;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            engine.run_here(Job::Go { limits }, &stop)
        }))
        .map_err(|_| Fault::new(FaultKind::Crash, "the search panicked"))?;
        if Instant::now() > request.deadline {
            return Err(Fault::new(FaultKind::Timeout, "no move in time"));
        }
        let choice = match outcome {
            Outcome::Move(choice) => choice,
            Outcome::Failed(why) => return Err(Fault::new(FaultKind::Crash, why)),
            other => {
                return Err(Fault::new(
                    FaultKind::Garbage,
                    format!("not a move: {other:?}"),
                ));
            }
        };
        let mv = choice
            .mv
            .ok_or_else(|| Fault::new(FaultKind::Refused, "no move in a game not over"))?;
        // The score as the protocols write it, in the game's units (Othello's discs).
        let eval = G::score_to_text(choice.score).parse::<f64>().ok();
        let searched = choice.nodes > 0 && !choice.is_book();
        Ok(EngineMove {
            mv,
            eval: eval.filter(|value| value.is_finite()),
            effort: searched.then(|| Effort {
                moves: 1,
                nodes: choice.nodes,
                depth_sum: u64::from(choice.depth),
                seconds: choice.elapsed.as_secs_f64(),
            }),
        })
    }

    fn engine_name(&self) -> Option<&str> {
        None
    }
}
