//! `iago mill-eval-match A B [--games N] [--depth D | --movetime MS] [--plies P]`: two
//! Mill evaluators against each other in this process, from seeded random openings, by
//! the one match runner (see `eval_match`). Deterministic at a fixed depth.

use super::out::{Failure, outln};
use std::time::Duration;

use super::args::Args;
use super::eval_match::EvaluatorMatch;
use iago_arena::TimeControl;
use iago_arena::openings::random_openings;
use iago_core::engine::EngineGame;
use iago_core::games;
use iago_core::mill::MillPosition;

const HELP: &str = "usage: iago mill-eval-match A B [--games N] [--depth D | --movetime MS]
                            [--plies P] [--quiet]

Plays Mill evaluator A against B with iago's search at depth D (default 4) or MS
milliseconds a move, N games (default 40, even) from seeded random openings of P plies
(default 2; each a distinct line), colours swapped per opening, and prints the match's
report (`iago match`): A's wins, draws and losses with the score and its Elo, how the
games ended, and each side's time, mean depth and nodes a second. Evaluators are named
as for --eval, and `phased:KEY=VALUE,...` changes weights of the default (e.g.
phased:m.mobility=30).";

pub fn run(args: &[String]) -> Result<(), Failure> {
    let (mut games, mut depth, mut names) = (40u32, 4u32, Vec::new());
    let (mut movetime, mut plies, mut progress) = (None, 2u32, true);
    let mut args = Args::new("mill-eval-match", args);
    while let Some(word) = args.next() {
        match word {
            "-h" | "--help" => {
                outln!("{HELP}")?;
                return Ok(());
            }
            "--games" => games = args.number::<u32>("--games")?,
            "--depth" => depth = args.number::<u32>("--depth")?.clamp(1, 30),
            "--movetime" => movetime = Some(args.number::<u64>("--movetime")?.max(1)),
            "--plies" => plies = args.number::<u32>("--plies")?.min(18),
            "--quiet" => progress = false,
            _ if super::args::is_option(word) => return Err(args.unknown(word).into()),
            name => names.push(name.to_string()),
        }
    }
    let [a, b] = names.as_slice() else {
        return Err(format!("mill-eval-match: name two evaluators\n{HELP}").into());
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
