//! `iago eval-match`: two evaluators against each other, each an engine in this process
//! (`NAME=in-process:--eval A --book none`), played by the one match runner from the
//! balanced openings at equal depth or equal time per move: `iago match` with in-process
//! engines, its statistics and its report.

use super::out::{Failure, out};
use std::time::Duration;

use clap::Parser;

use super::args::{self, number};
use iago_arena::openings::read_openings;
use iago_arena::{EngineSpec, MatchConfig, MoveLimits, Opening, Protocol, TimeControl, report};
use iago_core::engine::EngineGame;
use iago_core::games::GameEntry;
use iago_core::othello::Position;

/// Plays evaluator A against evaluator B inside this process, both with iago's search and
/// no book: each opening twice with colours swapped, N games in all from the balanced
/// openings built in (or FILE). Every move is searched to depth D or for MS
/// milliseconds. Prints the match's report (`iago match`): A's wins, draws, losses,
/// score and Elo with a 95% interval, the mean disc difference, and each side's time,
/// mean depth and nodes a second. The progress line goes to stderr unless --quiet.
#[derive(Parser, Debug)]
#[command(
    name = "iago eval-match",
    override_usage = "iago eval-match A B [--games N] [--depth D | --movetime MS] [--openings FILE] [--threads T] [--quiet]"
)]
struct Options {
    /// The evaluators, as --eval names them
    #[arg(value_name = "A B")]
    evaluators: Vec<String>,
    /// Games in all, an even number
    #[arg(long, value_name = "N", default_value = "200", value_parser = number::<u32>)]
    games: u32,
    /// Search depth of every move, 1 to 60 (default 4)
    #[arg(long, value_name = "D", value_parser = number::<u32>, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Milliseconds a move
    #[arg(long, value_name = "MS", value_parser = number::<u64>)]
    movetime: Option<u64>,
    /// Opening file (default: the balanced openings built in)
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    /// Games played at once
    #[arg(long, value_name = "T", default_value = "1", value_parser = number::<usize>)]
    threads: usize,
    /// No progress line on stderr
    #[arg(long)]
    quiet: bool,
}

/// A match between two evaluators of `G`, each an engine in this process without a book.
pub struct EvaluatorMatch<G: EngineGame> {
    pub game: &'static GameEntry,
    pub evaluators: [String; 2],
    pub time_control: TimeControl,
    pub games: u32,
    pub openings: Vec<Opening<G>>,
    pub concurrency: usize,
    pub progress: bool,
}

impl<G: EngineGame> EvaluatorMatch<G> {
    /// Plays the match and prints its report.
    pub fn run(self) -> Result<(), Failure> {
        let [a, b] = &self.evaluators;
        // Engine names must differ: an evaluator against itself gets two.
        let names = if a == b {
            [format!("{a}-A"), format!("{b}-B")]
        } else {
            [a.clone(), b.clone()]
        };
        let engines: Vec<EngineSpec> = (names.iter().zip(&self.evaluators))
            .map(|(name, eval)| EngineSpec {
                name: name.clone(),
                protocol: Protocol::InProcess,
                command: format!("--eval {eval} --book none"),
            })
            .collect();
        let limits = MoveLimits::new(
            Protocol::InProcess,
            self.time_control,
            None,
            Duration::from_millis(500),
        );
        let config = MatchConfig {
            game: self.game,
            start: G::start(),
            limits: vec![limits; engines.len()],
            engines,
            games: self.games,
            concurrency: self.concurrency,
            openings: self.openings,
            out: None,
            sprt: None,
            startup_timeout: Duration::from_secs(30),
            progress: self.progress,
            nboard: Default::default(),
        };
        let summary = iago_arena::run_match(&config)?;
        out!("{}", report::final_report(&summary))?;
        Ok(())
    }
}

/// Runs `iago eval-match` with `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = args::parse::<Options>("eval-match", args)? else {
        return Ok(());
    };
    let [a, b] = options.evaluators.as_slice() else {
        return Err("eval-match: name two evaluators (try `iago eval-match --help`)".into());
    };
    for name in [a, b] {
        Position::evaluator(name)?;
    }
    let time_control = match (options.depth, options.movetime) {
        (_, Some(0)) => return Err("--movetime must be positive".into()),
        (_, Some(ms)) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (Some(depth), None) if !(1..=60).contains(&depth) => {
            return Err("--depth must be 1..60".into());
        }
        (depth, None) => TimeControl::Depth(depth.unwrap_or(4)),
    };
    let (games, threads, progress) = (options.games, options.threads.clamp(1, 64), !options.quiet);
    let openings_file = options.openings;
    if games < 2 || !games.is_multiple_of(2) {
        return Err("--games must be an even number of at least 2".into());
    }
    let mut openings = match openings_file {
        Some(path) => {
            let text = iago_core::files::read_text(
                std::path::Path::new(&path),
                iago_core::files::OPENINGS,
            )?;
            read_openings(&Position::start(), &text).map_err(|e| format!("{path}: {e}"))?
        }
        None => iago_arena::openings::default_openings(),
    };
    let pairs = (games / 2) as usize;
    if openings.len() < pairs {
        return Err(format!(
            "{games} games need {pairs} openings, the set has {}",
            openings.len()
        )
        .into());
    }
    openings.truncate(pairs);
    EvaluatorMatch::<Position> {
        game: &iago_core::games::GAMES[0],
        evaluators: [a.clone(), b.clone()],
        time_control,
        games,
        openings,
        concurrency: threads,
        progress,
    }
    .run()
}
