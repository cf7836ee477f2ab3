//! `iago label`: scores positions from WTHOR games with iago's own searches (exact solves
//! near the end, fixed-depth searches before) and writes them for `iago train --samples`.

use std::path::PathBuf;
use std::time::Instant;

use iago::eval::label::{self, EXACT_DEPTH, LabelConfig};
use iago::othello::Position;
use iago::othello::position::mix64;
use iago::othello::wthor::{WthorGame, read_wthor_dir};

const HELP: &str = "usage: iago label --wthor DIR --out FILE [OPTIONS]

Takes positions from the WTHOR games in DIR, scores each with iago's search and writes
them to FILE (the format is in src/eval/label.rs), for `iago train --samples FILE`.
Positions with at most --exact-empties empties are solved exactly, the others searched
--depth plies deep. Games are spread evenly over the database; from each, --per-game
positions with between --min-empties and --max-empties empties are taken (a seeded
choice). The labels are the same for any number of threads.

Options:
  --games N           games to take positions from (default 10000)
  --per-game K        positions per game (default 4)
  --min-empties A     (default 4)
  --max-empties B     (default 56)
  --exact-empties E   solve exactly at E empties or fewer (default 18)
  --depth D           search depth elsewhere (default 8)
  --eval NAME         evaluator of the searches (default: the default; pattern:FILE)
  --threads T         worker threads (default: the number of cores)
  --seed S            seed of the position choice (default 1)
  -h, --help          print this help";

struct Options {
    wthor: PathBuf,
    out: PathBuf,
    games: usize,
    per_game: usize,
    min_empties: u32,
    max_empties: u32,
    seed: u64,
    config: LabelConfig,
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut wthor = None;
    let mut out = None;
    let mut options = Options {
        wthor: PathBuf::new(),
        out: PathBuf::new(),
        games: 10_000,
        per_game: 4,
        min_empties: 4,
        max_empties: 56,
        seed: 1,
        config: LabelConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ..LabelConfig::default()
        },
    };
    let mut words = args.iter();
    while let Some(option) = words.next() {
        let mut value = || {
            words
                .next()
                .cloned()
                .ok_or_else(|| format!("label: {option} needs a value"))
        };
        fn number<T: std::str::FromStr>(option: &str, text: String) -> Result<T, String> {
            text.parse()
                .map_err(|_| format!("label: {option}: {text:?} is not a valid number"))
        }
        match option.as_str() {
            "-h" | "--help" => return Ok(None),
            "--wthor" => wthor = Some(PathBuf::from(value()?)),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--games" => options.games = number(option, value()?)?,
            "--per-game" => options.per_game = number(option, value()?)?,
            "--min-empties" => options.min_empties = number(option, value()?)?,
            "--max-empties" => options.max_empties = number(option, value()?)?,
            "--exact-empties" => options.config.exact_empties = number(option, value()?)?,
            "--depth" => options.config.depth = number(option, value()?)?,
            "--eval" => options.config.eval = value()?,
            "--threads" => options.config.threads = number(option, value()?)?,
            "--seed" => options.seed = number(option, value()?)?,
            _ => return Err(format!("label: unknown option {option:?} (try --help)")),
        }
    }
    options.wthor = wthor.ok_or("label: --wthor DIR is required (try --help)")?;
    options.out = out.ok_or("label: --out FILE is required (try --help)")?;
    if options.min_empties > options.max_empties || options.max_empties > 60 {
        return Err("label: need --min-empties <= --max-empties <= 60".into());
    }
    if options.config.depth == 0 || options.config.threads == 0 {
        return Err("label: --depth and --threads must be at least 1".into());
    }
    Ok(Some(options))
}

/// The positions of `game` (in order), each with the side to move able to move.
fn playable_positions(game: &WthorGame) -> Vec<Position> {
    let mut out = Vec::new();
    let mut pos = Position::start();
    for &mv in &game.moves {
        if !pos.has_no_move() {
            out.push(pos);
        }
        match pos.try_play(mv) {
            Some(next) => pos = next,
            None => break,
        }
    }
    out
}

/// The sampled positions: `per_game` from each chosen game, empties in range.
fn sample(games: &[WthorGame], options: &Options) -> Vec<Position> {
    let step = (games.len() / options.games.max(1)).max(1);
    let mut out = Vec::new();
    for (n, game) in games.iter().step_by(step).take(options.games).enumerate() {
        let mut candidates: Vec<Position> = playable_positions(game)
            .into_iter()
            .filter(|p| (options.min_empties..=options.max_empties).contains(&p.empty_count()))
            .collect();
        let mut state = mix64(options.seed ^ mix64(n as u64 + 1));
        for _ in 0..options.per_game.min(candidates.len()) {
            state = mix64(state);
            let pick = (state % candidates.len() as u64) as usize;
            out.push(candidates.swap_remove(pick));
        }
    }
    out
}

pub fn run(args: &[String]) -> Result<(), String> {
    let Some(options) = parse(args)? else {
        println!("{HELP}");
        return Ok(());
    };
    let start = Instant::now();
    let games = read_wthor_dir(&options.wthor).map_err(|e| e.to_string())?;
    let positions = sample(&games, &options);
    let total = positions.len();
    println!(
        "label: {total} positions from {} of {} games; exact at {} empties or fewer, depth {} \
         elsewhere; {} threads; evaluator {}",
        options.games.min(games.len()),
        games.len(),
        options.config.exact_empties,
        options.config.depth,
        options.config.threads,
        options.config.eval
    );
    let progress = |done: usize| {
        let seconds = start.elapsed().as_secs_f64();
        eprintln!(
            "label: {done}/{total} positions, {seconds:.0} s, about {:.0} s to go",
            seconds / done as f64 * (total - done) as f64
        );
    };
    let records = label::label_positions(&positions, &options.config, &progress)?;
    label::write(&options.out, &records)?;
    let exact = records.iter().filter(|r| r.depth == EXACT_DEPTH).count();
    println!(
        "label: wrote {} positions ({exact} solved exactly) to {} in {:.0} s",
        records.len(),
        options.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
