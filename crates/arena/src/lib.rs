//! The match runner, for every game of the registry (`iago_core::games`): engines as
//! subprocesses driven over NBoard or GTP exactly as a GUI or an arena drives them, or
//! iago's own controller in this process; games refereed with iago's own rules, openings
//! played with colours swapped, statistics (Elo with a 95% interval, SPRT, cross-table,
//! time use) and records (GGF where the game has it). `iago match`, `iago eval-match`,
//! `iago mill-eval-match` and `scripts/tournament` are its command lines. What only some
//! games have (NBoard, GGF, an opening notation and set) is what the game declares
//! (`EngineGame::GGF`, `EngineGame::OPENINGS`), never asked of its type.
//!
//! Layers, from the bottom: [`process`] (lines in and out of a subprocess, with deadlines),
//! [`nboard`], [`gtp`] and [`in_process`] (the engines behind the [`driver::Driver`]
//! trait), [`game`] (one refereed game, generic over the game, and the
//! [`game::GameSetup`] an engine is told before it), [`runner`] (the schedule and the
//! worker threads), [`stats`] and [`report`] (numbers and tables).

pub mod driver;
pub mod game;
pub mod gtp;
pub mod in_process;
pub mod nboard;
pub mod openings;
pub mod process;
pub mod record;
pub mod report;
pub mod runner;
pub mod spec;
pub mod stats;

pub use driver::{FaultKind, TimeControl};
pub use game::{GameSetup, MoveLimits};
pub use openings::Opening;
pub use runner::{MatchConfig, MatchSummary, run_match};
pub use spec::{EngineSpec, Protocol};
pub use stats::{Sprt, Tally};
