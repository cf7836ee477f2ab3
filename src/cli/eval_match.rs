//! `iago eval-match`: in-process games between two evaluators from balanced openings, at
//! equal depth or equal time per move (see `arena::selfplay`).

use super::out::{Failure, outln};
use std::time::Duration;

use super::args::Args;
use iago_arena::openings::{default_openings, parse_openings};
use iago_arena::selfplay::{self, MoveBudget, SelfPlaySummary};

const HELP: &str = "usage: iago eval-match A B [--games N] [--depth D | --movetime MS]
                       [--openings FILE] [--threads T]

Plays evaluator A against evaluator B inside this process, both with iago's search:
each opening twice with colours swapped, N games in all (default 200) from the balanced
openings built in (or FILE). Every move is searched to depth D (default 4) or for MS
milliseconds. Prints A's wins, draws, losses, score and Elo with a 95% interval, and
each side's search effort. Progress is logged at RUST_LOG=info.";

/// Runs `iago eval-match` with `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let mut names = Vec::new();
    let mut games = 200usize;
    let mut budget = MoveBudget::Depth(4);
    let mut threads = 1usize;
    let mut openings_file = None;
    let mut args = Args::new("eval-match", args);
    while let Some(word) = args.next() {
        match word {
            "--help" | "-h" => {
                outln!("{HELP}")?;
                return Ok(());
            }
            "--games" => games = args.number::<u64>("--games")? as usize,
            "--depth" => {
                let depth = args.number::<u64>("--depth")?;
                if !(1..=60).contains(&depth) {
                    return Err("--depth must be 1..60".into());
                }
                budget = MoveBudget::Depth(depth as u32);
            }
            "--movetime" => {
                let ms = args.number::<u64>("--movetime")?;
                if ms == 0 {
                    return Err("--movetime must be positive".into());
                }
                budget = MoveBudget::Time(Duration::from_millis(ms));
            }
            "--threads" => threads = args.number::<u64>("--threads")?.clamp(1, 64) as usize,
            "--openings" => openings_file = Some(args.value("--openings")?),
            other if other.starts_with('-') => return Err(args.unknown(other).into()),
            name => names.push(name.to_string()),
        }
    }
    let [a, b] = names.as_slice() else {
        return Err(format!("eval-match: name two evaluators\n{HELP}").into());
    };
    if games < 2 || !games.is_multiple_of(2) {
        return Err("--games must be an even number of at least 2".into());
    }
    let openings = match openings_file {
        Some(path) => {
            let text = iago_core::files::read_text(
                std::path::Path::new(&path),
                iago_core::files::OPENINGS,
            )?;
            parse_openings(&text).map_err(|e| format!("{path}: {e}"))?
        }
        None => default_openings(),
    };
    if openings.len() < games / 2 {
        return Err(format!(
            "{} games need {} openings, the set has {}",
            games,
            games / 2,
            openings.len()
        )
        .into());
    }
    let openings = &openings[..games / 2];
    let limit = match budget {
        MoveBudget::Depth(d) => format!("depth {d}"),
        MoveBudget::Time(t) => format!("{} ms a move", t.as_millis()),
    };
    let start = std::time::Instant::now();
    let summary = selfplay::run([a, b], openings, budget, threads, &|s: &SelfPlaySummary| {
        log::info!(
            "eval-match: {} games, {a} +{} ={} -{}",
            s.tally.games(),
            s.tally.wins,
            s.tally.draws,
            s.tally.losses
        );
    })?;
    outln!(
        "{}",
        report(a, b, &summary, &limit, start.elapsed().as_secs_f64())
    )?;
    Ok(())
}

/// The result table.
fn report(a: &str, b: &str, s: &SelfPlaySummary, limit: &str, seconds: f64) -> String {
    let games = s.tally.games();
    let mut out = format!(
        "eval-match {a} vs {b}: {games} games ({} openings, colours swapped), {limit}, {:.0} s\n",
        games / 2,
        seconds
    );
    out += "side                 wins draws losses  score   discs/game  moves  mean-depth    nodes/s\n";
    let rows = [
        (a, s.tally, s.effort[0], 1.0),
        (b, s.tally.reversed(), s.effort[1], -1.0),
    ];
    for (name, tally, effort, sign) in rows {
        out += &format!(
            "{name:<20} {:4} {:5} {:6} {:5.1}%  {:+10.2}  {:5}  {:10.2}  {:9.0}\n",
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score().unwrap_or(0.0),
            sign * s.disc_sum as f64 / f64::from(games.max(1)),
            effort.moves,
            effort.mean_depth(),
            effort.nodes_per_second()
        );
    }
    match s.tally.elo() {
        Some(e) => out += &format!("Elo {a} - {b}: {} (95%)", e.text()),
        None => out += "Elo: no games",
    }
    out
}
