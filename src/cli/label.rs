//! `iago label`: scores positions from WTHOR games with iago's own searches (exact solves
//! near the end, fixed-depth searches before) and writes them for `iago train --samples`.

use super::out::{Failure, outln};
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;

use super::args::{self, EngineOptions, Flags, number};
use iago_core::game::{Color, mix64};
use iago_core::othello::Position;
use iago_core::othello::wthor::{WthorGame, read_wthor_dir};
use iago_training::label::{self, EXACT_DEPTH, LabelConfig};
use iago_training::train::Labels;

/// Takes positions from the WTHOR games in DIR, scores each with iago's search and writes
/// them to FILE (the format is in crates/training/src/label.rs), for `iago train --samples
/// FILE`. Each record also keeps what its game says of the position (for WTHOR games the
/// theoretical score down to 24 empties and the final result after; for self-play games
/// the final result), which training may blend in (`iago train --game-weight`).
/// Positions with at most --exact-empties empties are solved exactly, the others searched
/// --depth plies deep. Games are spread evenly over the database; from each, --per-game
/// positions with between --min-empties and --max-empties empties are taken (a seeded
/// choice). The labels are the same for any number of threads (default: the number of
/// cores).
#[derive(Parser, Debug)]
#[command(
    name = "iago label",
    override_usage = "iago label --wthor DIR --out FILE [OPTIONS]"
)]
struct LabelArgs {
    /// The WTHOR database's folder (required)
    #[arg(long, value_name = "DIR")]
    wthor: Option<PathBuf>,
    /// The labels' file (required)
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// WTHOR games to take positions from
    #[arg(long, value_name = "N", default_value = "10000", value_parser = number::<usize>)]
    games: usize,
    /// Also N games of iago against itself: random first moves, then searches of
    /// --selfplay-depth plies choosing among moves within two discs of the best
    #[arg(long, value_name = "N", default_value = "0", value_parser = number::<usize>)]
    selfplay: usize,
    /// The self-play games' search depth
    #[arg(long, value_name = "D", default_value = "4", value_parser = number::<u32>)]
    selfplay_depth: u32,
    /// Random first moves of the self-play games
    #[arg(long, value_name = "R", default_value = "10", value_parser = number::<u32>)]
    random_plies: u32,
    /// Positions per game (0 for all)
    #[arg(long, value_name = "K", default_value = "4", value_parser = number::<usize>)]
    per_game: usize,
    /// Fewest empties of a position taken
    #[arg(long, value_name = "A", default_value = "4", value_parser = number::<u32>)]
    min_empties: u32,
    /// Most empties of a position taken
    #[arg(long, value_name = "B", default_value = "56", value_parser = number::<u32>)]
    max_empties: u32,
    /// Solve exactly at E empties or fewer
    #[arg(long, value_name = "E", default_value = "18", value_parser = number::<u32>)]
    exact_empties: u32,
    /// Search depth elsewhere
    #[arg(long, value_name = "D", default_value = "8", value_parser = number::<u32>)]
    depth: u32,
    /// Seed of the position choice
    #[arg(long, value_name = "S", default_value = "1", value_parser = number::<u64>)]
    seed: u64,
    #[command(flatten)]
    engine: EngineOptions<LabelFlags>,
}

#[derive(Clone, Debug, Default)]
struct LabelFlags;

impl Flags for LabelFlags {
    const FLAGS: &'static [&'static str] = &["--eval", "--threads"];
}

struct Options {
    wthor: PathBuf,
    out: PathBuf,
    games: usize,
    selfplay: usize,
    selfplay_depth: u32,
    random_plies: u32,
    per_game: usize,
    min_empties: u32,
    max_empties: u32,
    seed: u64,
    config: LabelConfig,
}

fn parse(args: &[String]) -> Result<Option<Options>, Failure> {
    let Some(given) = args::parse::<LabelArgs>("label", args)? else {
        return Ok(None);
    };
    let settings = &given.engine.settings;
    let options = Options {
        wthor: given
            .wthor
            .ok_or("label: --wthor DIR is required (try --help)")?,
        out: given
            .out
            .ok_or("label: --out FILE is required (try --help)")?,
        games: given.games,
        selfplay: given.selfplay,
        selfplay_depth: given.selfplay_depth,
        random_plies: given.random_plies,
        per_game: given.per_game,
        min_empties: given.min_empties,
        max_empties: given.max_empties,
        seed: given.seed,
        config: LabelConfig {
            threads: (settings.threads)
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            exact_empties: given.exact_empties,
            depth: given.depth,
            eval: settings
                .eval
                .clone()
                .unwrap_or_else(|| LabelConfig::default().eval),
            ..LabelConfig::default()
        },
    };
    if options.min_empties > options.max_empties || options.max_empties > 60 {
        return Err("label: need --min-empties <= --max-empties <= 60".into());
    }
    if options.config.depth == 0 {
        return Err("label: --depth must be at least 1".into());
    }
    let mut inputs = super::args::wthor_files(&options.wthor);
    inputs.extend(super::args::evaluator_file(&options.config.eval));
    iago_core::files::refuse_input_as_output(
        "label",
        &options.out,
        inputs.iter().map(PathBuf::as_path),
    )?;
    Ok(Some(options))
}

/// The depth of the theoretical score in WTHOR files (byte 14 of every file header of
/// the database).
const WTHOR_THEORETICAL_DEPTH: u32 = 24;

/// A position and what its game says of it (discs for the side to move).
type Candidate = (Position, Option<i8>);

/// For the side to move: `black` or its negation.
fn for_mover(pos: &Position, black: i32) -> i8 {
    let value = if pos.side == Color::Black {
        black
    } else {
        -black
    };
    value.clamp(-64, 64) as i8
}

/// The positions of `game` (in order), each with the side to move able to move, with
/// the game's label: the theoretical score while at least its depth of empties remain,
/// the final result after (as `iago train --labels split`).
fn playable_positions(game: &WthorGame) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut pos = Position::start();
    let final_black = 2 * i32::from(game.black_discs) - 64;
    let theoretical_black = 2 * i32::from(game.theoretical_black) - 64;
    for &mv in &game.moves {
        if !pos.has_no_move() {
            let black = Labels::Split.black_label(
                pos.empty_count(),
                WTHOR_THEORETICAL_DEPTH,
                theoretical_black,
                final_black,
            );
            out.push((pos, Some(for_mover(&pos, black))));
        }
        match pos.try_play(mv) {
            Some(next) => pos = next,
            None => break,
        }
    }
    out
}

/// The sampled positions: `per_game` from each game (all if 0), empties in range.
fn sample(games: &[Vec<Candidate>], options: &Options) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (n, game) in games.iter().enumerate() {
        let mut candidates: Vec<Candidate> = game
            .iter()
            .copied()
            .filter(|(p, _)| (options.min_empties..=options.max_empties).contains(&p.empty_count()))
            .collect();
        if options.per_game == 0 {
            out.extend(candidates);
            continue;
        }
        let mut state = mix64(options.seed ^ mix64(n as u64 + 1));
        for _ in 0..options.per_game.min(candidates.len()) {
            state = mix64(state);
            let pick = (state % candidates.len() as u64) as usize;
            out.push(candidates.swap_remove(pick));
        }
    }
    out
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = parse(args)? else {
        return Ok(());
    };
    let start = Instant::now();
    let wthor = read_wthor_dir(&options.wthor).map_err(|e| e.to_string())?;
    let step = (wthor.len() / options.games.max(1)).max(1);
    let mut games: Vec<Vec<Candidate>> = wthor
        .iter()
        .step_by(step)
        .take(options.games)
        .map(playable_positions)
        .collect();
    let from_wthor = games.len();
    let selfplay = label::selfplay_games(
        &options.config.eval,
        options.selfplay,
        options.selfplay_depth,
        options.random_plies,
        options.seed,
        options.config.threads,
    )?;
    games.extend(selfplay.iter().map(|game| {
        game.positions
            .iter()
            .map(|pos| (*pos, Some(for_mover(pos, game.black_result))))
            .collect()
    }));
    let candidates = sample(&games, &options);
    let positions: Vec<Position> = candidates.iter().map(|(pos, _)| *pos).collect();
    let total = positions.len();
    outln!(
        "label: {total} positions from {from_wthor} of {} WTHOR games and {} self-play games; \
         exact at {} empties or fewer, depth {} elsewhere; {} threads; evaluator {}",
        wthor.len(),
        options.selfplay,
        options.config.exact_empties,
        options.config.depth,
        options.config.threads,
        options.config.eval
    )?;
    let progress = |done: usize| {
        let seconds = start.elapsed().as_secs_f64();
        eprintln!(
            "label: {done}/{total} positions, {seconds:.0} s, about {:.0} s to go",
            seconds / done as f64 * (total - done) as f64
        );
    };
    let mut records = label::label_positions(&positions, &options.config, &progress)?;
    for (record, (_, game)) in records.iter_mut().zip(&candidates) {
        record.game = *game;
    }
    label::write(&options.out, &records)?;
    let exact = records.iter().filter(|r| r.depth == EXACT_DEPTH).count();
    outln!(
        "label: wrote {} positions ({exact} solved exactly) to {} in {:.0} s",
        records.len(),
        options.out.display(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
