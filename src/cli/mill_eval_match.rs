//! `iago mill-eval-match A B [--games N] [--depth D | --movetime MS] [--plies P]`:
//! in-process games between two Mill evaluators, each opening (P seeded random plies)
//! played twice with colours swapped. Deterministic at a fixed depth.

use super::out::{Failure, outln};
use std::sync::atomic::AtomicBool;

use super::args::Args;
use iago_arena::Tally;
use iago_core::game::{Color, Game};
use iago_core::mill::MillPosition;
use iago_core::mill::eval::mill_evaluator;
use iago_core::search::{Limits, Searcher};

const HELP: &str =
    "usage: iago mill-eval-match A B [--games N] [--depth D | --movetime MS] [--plies P]

Plays Mill evaluator A against B with iago's search at depth D (default 4) or MS
milliseconds a move, N games (default 40, even) from seeded random openings of P plies
(default 2; each a distinct line), colours swapped per opening, and prints A's wins,
draws and losses with the score and its Elo. Evaluators are named as for --eval, and
`phased:KEY=VALUE,...` changes weights of the default (e.g. phased:m.mobility=30).";

pub fn run(args: &[String]) -> Result<(), Failure> {
    let (mut games, mut depth, mut names) = (40u32, 4u32, Vec::new());
    let (mut movetime, mut plies) = (None, 2u32);
    let mut args = Args::new("mill-eval-match", args);
    while let Some(word) = args.next() {
        match word {
            "-h" | "--help" => {
                outln!("{HELP}")?;
                return Ok(());
            }
            "--games" => games = args.number::<u32>("--games")?,
            "--depth" => depth = args.number::<u32>("--depth")?.clamp(1, 30),
            "--movetime" => movetime = Some(args.number::<u32>("--movetime")?.max(1)),
            "--plies" => plies = args.number::<u32>("--plies")?.min(18),
            _ if super::args::is_option(word) => return Err(args.unknown(word).into()),
            name => names.push(name.to_string()),
        }
    }
    let [a, b] = names.as_slice() else {
        return Err(format!("mill-eval-match: name two evaluators\n{HELP}").into());
    };
    if games < 2 || games % 2 != 0 {
        return Err("--games must be an even number of at least 2".into());
    }
    let mut searchers = [
        Searcher::new(mill_evaluator(a)?),
        Searcher::new(mill_evaluator(b)?),
    ];
    let limits = match movetime {
        Some(ms) => Limits {
            movetime: Some(std::time::Duration::from_millis(u64::from(ms))),
            ..Limits::default()
        },
        None => Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    };
    let openings = iago_arena::openings::random_openings(
        &MillPosition::start(),
        (games / 2) as usize,
        plies as usize,
        1,
    );
    let stop = AtomicBool::new(false);
    let (mut wins, mut draws, mut losses, mut played) = (0, 0, 0, 0u64);
    for opening in &openings {
        let opening = (opening.moves.iter()).fold(opening.start.clone(), |pos, &mv| pos.play(mv));
        for a_color in [Color::White, Color::Black] {
            for s in &mut searchers {
                s.clear();
            }
            let mut pos = opening.clone();
            while !pos.is_game_over() {
                let who = usize::from(pos.side_to_move() != a_color);
                let report = searchers[who].search(&pos, &limits, &stop, &mut |_| {});
                let Some(mv) = report.best_move else { break };
                pos = pos.play(mv);
                played += 1;
            }
            match pos.winner() {
                Some(c) if c == a_color => wins += 1,
                Some(_) => losses += 1,
                None => draws += 1,
            }
            log::info!("mill-eval-match: {a} +{wins} ={draws} -{losses}");
        }
    }
    let tally = Tally {
        wins,
        draws,
        losses,
    };
    let limit = movetime.map_or(format!("depth {depth}"), |ms| format!("{ms} ms a move"));
    let elo = iago_arena::report::elo_text(&tally);
    outln!(
        "mill-eval-match {a} vs {b}, {limit}: {} games, {a} +{wins} ={draws} -{losses} ({:.1}%, Elo {elo}), {played} plies",
        tally.games(),
        100.0 * tally.score().unwrap_or(0.0)
    )?;
    Ok(())
}
