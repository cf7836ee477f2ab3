//! `iago mill-eval-match A B [--games N] [--depth D | --movetime MS] [--plies P]`: two
//! Mill evaluators against each other in this process, from seeded random openings, by
//! the one match runner (see `eval_match`). Deterministic at a fixed depth.

use super::out::Failure;
use std::time::Duration;

use clap::Parser;

use super::args::{self, number};
use super::eval_match::EvaluatorMatch;
use iago_arena::TimeControl;
use iago_arena::openings::random_openings;
use iago_core::engine::EngineGame;
use iago_core::games;
use iago_core::mill::MillPosition;

/// Plays Mill evaluator A against B with iago's search at depth D or MS milliseconds a
/// move, N games from seeded random openings of P plies (each a distinct line), colours
/// swapped per opening, and prints the match's report (`iago match`): A's wins, draws and
/// losses with the score and its Elo, how the games ended, and each side's time, mean
/// depth and nodes a second. Evaluators are named as for --eval, and
/// `phased:KEY=VALUE,...` changes weights of the default (e.g. phased:m.mobility=30).
#[derive(Parser, Debug)]
#[command(
    name = "iago mill-eval-match",
    override_usage = "iago mill-eval-match A B [--games N] [--depth D | --movetime MS] [--plies P] [--quiet]"
)]
struct Options {
    /// The evaluators
    #[arg(value_name = "A B")]
    evaluators: Vec<String>,
    /// Games, an even number
    #[arg(long, value_name = "N", default_value = "40", value_parser = number::<u32>)]
    games: u32,
    /// Search depth, 1 to 30
    #[arg(long, value_name = "D", default_value = "4", value_parser = number::<u32>)]
    depth: u32,
    /// Milliseconds a move instead
    #[arg(long, value_name = "MS", value_parser = number::<u64>)]
    movetime: Option<u64>,
    /// Plies of the random openings, at most 18
    #[arg(long, value_name = "P", default_value = "2", value_parser = number::<u32>)]
    plies: u32,
    /// No progress line on stderr
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = args::parse::<Options>("mill-eval-match", args)? else {
        return Ok(());
    };
    let names = options.evaluators;
    let (games, depth, plies) = (
        options.games,
        options.depth.clamp(1, 30),
        options.plies.min(18),
    );
    let (movetime, progress) = (options.movetime.map(|ms| ms.max(1)), !options.quiet);
    let [a, b] = names.as_slice() else {
        return Err("mill-eval-match: name two evaluators".into());
    };
    for name in [a, b] {
        MillPosition::evaluator(name)?;
    }
    if games < 2 || games % 2 != 0 {
        return Err("--games must be an even number of at least 2".into());
    }
    let time_control = match movetime {
        Some(ms) => TimeControl::MoveTime(Duration::from_millis(ms)),
        None => TimeControl::Depth(depth),
    };
    let start = MillPosition::start();
    let openings = random_openings(&start, (games / 2) as usize, plies as usize, 1);
    EvaluatorMatch::<MillPosition> {
        game: games::find("mill").ok_or("no Mill in the registry")?,
        evaluators: [a.clone(), b.clone()],
        time_control,
        games,
        openings,
        concurrency: 1,
        progress,
    }
    .run()
}
