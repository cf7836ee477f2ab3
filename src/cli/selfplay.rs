//! `iago selfplay`: games of iago against itself, written as compressed game records for
//! `iago train --games` (see `corpus`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Parser;

use super::args::{self, EngineOptions, Flags, number};
use super::out::{Failure, outln};
use iago_arena::openings::parse_openings;
use iago_core::files;
use iago_training::corpus::coded::{GameWriter, MAX_GAMES};
use iago_training::corpus::distinct::game_hash;
use iago_training::corpus::records::{self, GameRecord};
use iago_training::corpus::{SelfPlayConfig, play_games};

/// Plays N games of iago against itself and writes them to FILE as compressed game
/// records (IAGOGAM3, docs/selfplay.md) with their final results, for `iago train --games
/// FILE`. Each game opens with --random-plies random moves, or with an opening of
/// --openings (taken in turn) and then --random-plies random moves; then both sides search
/// --depth plies and solve exactly from --exact empties, so every position from the first
/// solved move on has the game's result as its exact value. Game i of a seed is always
/// the same game, whatever the number of threads (default: the number of cores); games
/// --first to --first + N - 1 are played. Games that would all be the same are refused:
/// --random-plies 0 without openings, or more games than openings with no random moves
/// after them. The file is rewritten (crash-safely) every --checkpoint games, so a run
/// cut short keeps what it had played. A FILE that already holds games is never replaced:
/// --append adds the new games after them. A run cut short at K games (numbers 0 to K -
/// 1) goes on with the same options and --first K --append.
#[derive(Parser, Debug)]
#[command(
    name = "iago selfplay",
    override_usage = "iago selfplay --games N --out FILE [OPTIONS]"
)]
struct SelfPlayArgs {
    /// Games to play (required)
    #[arg(long, value_name = "N", value_parser = number::<u64>)]
    games: Option<u64>,
    /// The record file to write (required)
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Midgame search depth
    #[arg(long, value_name = "D", default_value = "6", value_parser = number::<u32>)]
    depth: u32,
    /// Solve exactly at E empties or fewer
    #[arg(long, value_name = "E", default_value = "16", value_parser = number::<u32>)]
    exact: u32,
    /// Random first moves (default 10; with --openings, random moves after each
    /// opening, default 0)
    #[arg(long, value_name = "R", value_parser = number::<u32>)]
    random_plies: Option<u32>,
    /// Openings to start from (a file as `iago openings` writes, or transcripts such as
    /// f5d6c3, passes left out or not)
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    /// Number of the first game
    #[arg(long, value_name = "K", default_value = "0", value_parser = number::<u64>)]
    first: u64,
    /// Add the games to those FILE holds already
    #[arg(long)]
    append: bool,
    /// Games between rewrites of FILE
    #[arg(long, value_name = "C", default_value = "1000", value_parser = number::<usize>)]
    checkpoint: usize,
    #[command(flatten)]
    engine: EngineOptions<SelfPlayFlags>,
}

#[derive(Clone, Debug, Default)]
struct SelfPlayFlags;

impl Flags for SelfPlayFlags {
    const FLAGS: &'static [&'static str] = &["--eval", "--seed", "--threads"];
}

struct Options {
    games: usize,
    out: PathBuf,
    first: u64,
    threads: usize,
    checkpoint: usize,
    append: bool,
    config: SelfPlayConfig,
}

fn parse(args: &[String]) -> Result<Option<Options>, Failure> {
    let Some(given) = args::parse::<SelfPlayArgs>("selfplay", args)? else {
        return Ok(None);
    };
    let settings = &given.engine.settings;
    let defaults = SelfPlayConfig::default();
    let mut options = Options {
        games: 0,
        out: PathBuf::new(),
        first: given.first,
        threads: (settings.threads)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        checkpoint: given.checkpoint,
        append: given.append,
        config: SelfPlayConfig {
            depth: given.depth,
            exact: given.exact,
            eval: settings.eval.clone().unwrap_or(defaults.eval.clone()),
            seed: settings.seed.unwrap_or(defaults.seed),
            ..defaults
        },
    };
    let (games, out, openings, random_plies) =
        (given.games, given.out, given.openings, given.random_plies);
    let games = games.ok_or("selfplay: --games N is required (try --help)")?;
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(format!(
            "selfplay: --games must be between 1 and {MAX_GAMES} (the most games a record \
             file holds)"
        )
        .into());
    }
    options.games = games as usize;
    options.out = out.ok_or("selfplay: --out FILE is required (try --help)")?;
    let config = &mut options.config;
    if !(1..=60).contains(&config.depth) {
        return Err("selfplay: --depth must be between 1 and 60".into());
    }
    config.random_plies = random_plies.unwrap_or(if openings.is_some() { 0 } else { 10 });
    if config.exact > 60 || config.random_plies > 60 {
        return Err("selfplay: --exact and --random-plies must be between 0 and 60".into());
    }
    if options.checkpoint == 0 {
        return Err("selfplay: --checkpoint must be at least 1".into());
    }
    if let Some(path) = &openings {
        files::refuse_input_as_output("selfplay", &options.out, [Path::new(path)])?;
        let text = files::read_text(Path::new(path), files::OPENINGS).map_err(|e| e.to_string())?;
        let openings = parse_openings(&text).map_err(|e| format!("{path}: {e}"))?;
        config.openings = openings
            .iter()
            .map(|o| o.moves.iter().filter_map(|mv| mv.square()).collect())
            .collect();
    }
    if let Some(weights) = super::args::evaluator_file(&config.eval) {
        files::refuse_input_as_output("selfplay", &options.out, [weights.as_path()])?;
    }
    refuse_repeated_games(options.games, config)?;
    Ok(Some(options))
}

/// Games that would repeat one another, refused: a game is a function of its number
/// only through its random moves.
fn refuse_repeated_games(games: usize, config: &SelfPlayConfig) -> Result<(), String> {
    if config.random_plies > 0 {
        return Ok(());
    }
    match config.openings.len() {
        0 if games > 1 => Err(
            "selfplay: with --random-plies 0 and no --openings every game \
                               is the same game: give --random-plies R or --openings FILE"
                .into(),
        ),
        n if n > 0 && games > n => Err(format!(
            "selfplay: {games} games from {n} openings and no random moves after them: game \
             i + {n} would repeat game i; ask for at most {n} games, or give --random-plies R"
        )),
        _ => Ok(()),
    }
}

/// The games `out` holds already, which `--append` keeps; an error where it holds any
/// (or is a file that is not a record file) without `--append`. A device or a pipe is
/// written into and holds nothing.
fn games_already_there(options: &Options) -> Result<Vec<GameRecord>, String> {
    let out = &options.out;
    let meta = match std::fs::metadata(out) {
        Ok(meta) => meta,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(format!("selfplay: {}: {error}", out.display())),
    };
    if !meta.is_file() || meta.len() == 0 {
        return Ok(Vec::new());
    }
    let held = records::read(out).map_err(|e| {
        format!("selfplay: {e}; it is not replaced (name another --out, or remove it)")
    })?;
    if !options.append {
        return Err(format!(
            "selfplay: {} holds {} games already and is not replaced: --append adds the new \
             games after them (a run cut short at K games goes on with --first K --append), \
             or name another --out",
            out.display(),
            held.len()
        ));
    }
    if (held.len() + options.games) as u64 > MAX_GAMES {
        return Err(format!(
            "selfplay: {} holds {} games; {} more would pass the {MAX_GAMES} a record file \
             holds",
            out.display(),
            held.len(),
            options.games
        ));
    }
    Ok(held)
}

/// What the run wrote so far: the file's coder and what the summary line says.
#[derive(Default)]
struct Written {
    writer: GameWriter,
    games: usize,
    positions: usize,
    exact: usize,
    /// The hashes of every game of the file, and how many new ones it held already.
    seen: HashSet<u64>,
    repeated: usize,
}

impl Written {
    fn push(&mut self, game: &GameRecord, new: bool) -> Result<(), String> {
        self.writer.push(game)?;
        if !self.seen.insert(game_hash(game)) {
            self.repeated += 1;
        }
        if new {
            self.games += 1;
            self.positions += game.moves.len();
            self.exact += game
                .exact_from
                .map_or(0, |e| game.moves.len() - usize::from(e));
        }
        Ok(())
    }
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = parse(args)? else {
        return Ok(());
    };
    let held = games_already_there(&options)?;
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
    // Each game is coded once; a checkpoint writes the file of what there is.
    let mut written = Written::default();
    for game in &held {
        written.push(game, false)?;
    }
    drop(held);
    while written.games < options.games {
        let count = options.checkpoint.min(options.games - written.games);
        let first = options.first + written.games as u64;
        let before = written.games;
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
        let played = play_games(config, first, count, options.threads, &progress);
        for game in &played.games {
            written.push(game, true)?;
        }
        files::write(&options.out, &written.writer.file()).map_err(|e| e.to_string())?;
        if let Some(error) = played.error {
            return Err(format!(
                "selfplay: {error}; the {} games played before it are in {}",
                written.games,
                options.out.display()
            )
            .into());
        }
    }
    summary(&options, &written, start.elapsed().as_secs_f64().max(1e-9))
}

fn summary(options: &Options, written: &Written, seconds: f64) -> Result<(), Failure> {
    let file_games = written.writer.games();
    outln!(
        "selfplay: {} games, {} positions ({} with exact results) in {seconds:.1} s: \
         {:.2} games/s, {:.0} positions/s on {} threads; wrote {} ({file_games} games, {} \
         distinct)",
        written.games,
        written.positions,
        written.exact,
        written.games as f64 / seconds,
        written.positions as f64 / seconds,
        options.threads,
        options.out.display(),
        file_games - written.repeated,
    )?;
    if written.repeated > 0 {
        log::warn!(
            "selfplay: {} games of {} repeat games played before it (was --first right?)",
            written.repeated,
            options.out.display()
        );
    }
    Ok(())
}
