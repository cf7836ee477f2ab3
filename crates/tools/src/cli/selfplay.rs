//! `iago selfplay`: games of iago against itself, written as compressed game records for
//! `iago train --games` (see `corpus`).

use std::path::PathBuf;
use std::time::Instant;

use super::args::Args;
use super::out::{Failure, outln};
use crate::arena::openings::parse_openings;
use crate::corpus::coded::GameWriter;
use crate::corpus::records::GameRecord;
use crate::corpus::{SelfPlayConfig, play_games};

const HELP: &str = "usage: iago selfplay --games N --out FILE [OPTIONS]

Plays N games of iago against itself and writes them to FILE as compressed game records
(IAGOGAM3, docs/selfplay.md) with their final results, for `iago train --games FILE`.
Each game opens with --random-plies random moves (or an opening of --openings, taken in
turn), then both sides search --depth plies and solve exactly from --exact empties, so
every position from the first solved move on has the game's result as its exact value.
Game i of a seed is always the same game, whatever the number of threads; games
--first to --first + N - 1 are played. The file is rewritten (crash-safely) every
--checkpoint games, so a run cut short keeps what it had played.

Options:
  --depth D          midgame search depth (default 6)
  --exact E          solve exactly at E empties or fewer (default 16)
  --random-plies R   random first moves (default 10)
  --openings FILE    openings to start from instead (a file as `iago openings` writes)
  --eval NAME        evaluator (default: the default; pattern:FILE for other weights)
  --seed S           (default 1)
  --first K          number of the first game (default 0)
  --threads T        (default: the number of cores)
  --checkpoint C     games between rewrites of FILE (default 1000)
  -h, --help         print this help";

struct Options {
    games: usize,
    out: PathBuf,
    first: u64,
    threads: usize,
    checkpoint: usize,
    config: SelfPlayConfig,
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut games = None;
    let mut out = None;
    let mut openings = None;
    let mut options = Options {
        games: 0,
        out: PathBuf::new(),
        first: 0,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        checkpoint: 1000,
        config: SelfPlayConfig::default(),
    };
    let mut args = Args::new("selfplay", args);
    while let Some(option) = args.next() {
        match option {
            "-h" | "--help" => return Ok(None),
            "--games" => games = Some(args.number(option)?),
            "--out" => out = Some(PathBuf::from(args.value(option)?)),
            "--depth" => options.config.depth = args.number(option)?,
            "--exact" => options.config.exact = args.number(option)?,
            "--random-plies" => options.config.random_plies = args.number(option)?,
            "--openings" => openings = Some(args.value(option)?),
            "--eval" => options.config.eval = args.value(option)?,
            "--seed" => options.config.seed = args.number(option)?,
            "--first" => options.first = args.number(option)?,
            "--threads" => options.threads = args.number(option)?,
            "--checkpoint" => options.checkpoint = args.number(option)?,
            _ => return Err(args.unknown(option)),
        }
    }
    options.games = games.ok_or("selfplay: --games N is required (try --help)")?;
    options.out = out.ok_or("selfplay: --out FILE is required (try --help)")?;
    let config = &mut options.config;
    if !(1..=60).contains(&config.depth) {
        return Err("selfplay: --depth must be between 1 and 60".into());
    }
    if config.exact > 60 || config.random_plies > 60 {
        return Err("selfplay: --exact and --random-plies must be between 0 and 60".into());
    }
    if options.threads == 0 || options.checkpoint == 0 {
        return Err("selfplay: --threads and --checkpoint must be at least 1".into());
    }
    if let Some(path) = openings {
        let text =
            iago_core::files::read_text(std::path::Path::new(&path), iago_core::files::OPENINGS)
                .map_err(|e| e.to_string())?;
        let openings = parse_openings(&text).map_err(|e| format!("{path}: {e}"))?;
        config.openings = openings
            .iter()
            .map(|o| o.moves.iter().filter_map(|mv| mv.square()).collect())
            .collect();
    }
    Ok(Some(options))
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = parse(args)? else {
        outln!("{HELP}")?;
        return Ok(());
    };
    let start = Instant::now();
    let config = &options.config;
    log::info!(
        "selfplay: {} games from number {}, depth {}, exact from {} empties, {} threads",
        options.games,
        options.first,
        config.depth,
        config.exact,
        options.threads
    );
    let mut games: Vec<GameRecord> = Vec::with_capacity(options.games);
    // Each game is coded once; a checkpoint writes the file of what there is.
    let mut writer = GameWriter::default();
    while games.len() < options.games {
        let count = options.checkpoint.min(options.games - games.len());
        let first = options.first + games.len() as u64;
        let before = games.len();
        let progress = |done: usize| {
            if (before + done).is_multiple_of(100) {
                let seconds = start.elapsed().as_secs_f64();
                eprintln!(
                    "selfplay: {}/{} games, {seconds:.0} s, {:.2} games/s",
                    before + done,
                    options.games,
                    (before + done) as f64 / seconds
                );
            }
        };
        let played = play_games(config, first, count, options.threads, &progress)?;
        for game in &played {
            writer.push(game)?;
        }
        games.extend(played);
        iago_core::files::write(&options.out, &writer.file()).map_err(|e| e.to_string())?;
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let positions: usize = games.iter().map(|g| g.moves.len()).sum();
    let exact: usize = games
        .iter()
        .map(|g| g.exact_from.map_or(0, |e| g.moves.len() - usize::from(e)))
        .sum();
    outln!(
        "selfplay: {} games, {positions} positions ({exact} with exact results) in {seconds:.1} s: \
         {:.2} games/s, {:.0} positions/s on {} threads; wrote {}",
        games.len(),
        games.len() as f64 / seconds,
        positions as f64 / seconds,
        options.threads,
        options.out.display()
    )?;
    Ok(())
}
