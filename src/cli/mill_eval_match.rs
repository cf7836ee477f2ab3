//! `iago mill-eval-match A B [--games N] [--depth D]`: in-process Mill games between two
//! evaluators at a fixed depth, each opening (two seeded random placements) played twice
//! with colours swapped. Deterministic for given arguments.

use std::sync::atomic::AtomicBool;

use iago::game::{Color, Game};
use iago::mill::MillPosition;
use iago::mill::eval::mill_evaluator;
use iago::search::{Limits, Searcher};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const HELP: &str = "usage: iago mill-eval-match A B [--games N] [--depth D]

Plays Mill evaluator A against B with iago's search at depth D (default 4), N games
(default 40, even) from seeded random two-ply openings, colours swapped per opening, and
prints A's wins, draws and losses.";

pub fn run(args: &[String]) -> Result<(), String> {
    let (mut games, mut depth, mut names) = (40u32, 4u32, Vec::new());
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let mut number = |name: &str| -> Result<u32, String> {
            let text = words.next().ok_or(format!("{name} needs a value"))?;
            text.parse()
                .map_err(|_| format!("{name}: {text:?} is not a whole number"))
        };
        match word.as_str() {
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(());
            }
            "--games" => games = number("--games")?,
            "--depth" => depth = number("--depth")?.clamp(1, 30),
            name => names.push(name.to_string()),
        }
    }
    let [a, b] = names.as_slice() else {
        return Err(format!("mill-eval-match: name two evaluators\n{HELP}"));
    };
    if games < 2 || games % 2 != 0 {
        return Err("--games must be an even number of at least 2".into());
    }
    let mut searchers = [
        Searcher::new(mill_evaluator(a)?),
        Searcher::new(mill_evaluator(b)?),
    ];
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut rng = StdRng::seed_from_u64(1);
    let (mut wins, mut draws, mut losses, mut plies) = (0, 0, 0, 0u64);
    for _ in 0..games / 2 {
        let mut opening = MillPosition::start();
        for _ in 0..2 {
            let moves = opening.legal_moves();
            let moves = moves.as_ref();
            opening = opening.play(moves[rng.random_range(0..moves.len())]);
        }
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
                plies += 1;
            }
            match pos.winner() {
                Some(c) if c == a_color => wins += 1,
                Some(_) => losses += 1,
                None => draws += 1,
            }
            log::info!("mill-eval-match: {a} +{wins} ={draws} -{losses}");
        }
    }
    println!(
        "mill-eval-match {a} vs {b}, depth {depth}: {games} games, {a} +{wins} ={draws} -{losses} ({:.1}%), {plies} plies",
        100.0 * (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games)
    );
    Ok(())
}
