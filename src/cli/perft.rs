//! `iago perft [OPTIONS] DEPTH [POSITION]`: counts the leaves of the game tree and prints
//! the time and speed.
//!
//! The options are read into a game-neutral `Options` first; `run_othello` then does
//! the counting with Othello's fast code paths, and `Count` any other game of the
//! registry through its [`EngineGame`].

use super::out::{Failure, outln};
use std::time::Instant;

use clap::Parser;

use super::args;
use iago_core::engine::EngineGame;
use iago_core::game::Game;
use iago_core::games::{self, GameEntry, GameVisitor};
use iago_core::options::{PERFT_DEPTH, Refused};
use iago_core::othello::game_input::parse_game;
use iago_core::othello::{Position, perft};

/// Counts the leaves of the game tree DEPTH plies deep (a pass is a ply; a game that
/// ends earlier is one leaf) and prints the count, the time and leaves per second.
///
/// POSITION: a position string, default the start position: 64 squares a1..h8 row by
/// row (X x * B b black, O o 0 W w white, - . _ empty) then the side to move (X or O);
/// spaces are ignored, so it may be one quoted argument or several. Also the GGS board
/// string `[8 <64> <side>]`, a GGF record, or moves (`f5d6c3`) from the start or after
/// either position form: the position after them. Other games: their position string
/// (see protocol.md; mill: `BOARD SIDE WHITE_HAND BLACK_HAND [QUIET_PLIES]`, a move with
/// its removals is one ply).
#[derive(Parser, Debug)]
#[command(
    name = "iago perft",
    override_usage = "iago perft [OPTIONS] DEPTH [POSITION]"
)]
struct PerftArgs {
    /// The game (othello, mill, tictactoe; default: the first)
    #[arg(long, value_name = "NAME")]
    game: Option<String>,
    /// The game's rule settings, as its `set_rules` reads them (repeatable)
    #[arg(long, value_name = "RULES")]
    rules: Vec<String>,
    /// Mill: one removal per mill closed (the seed's variant)
    #[arg(long)]
    removal_per_mill: bool,
    /// Also print the leaf count below each legal move
    #[arg(long)]
    divide: bool,
    /// Code path: portable, bmi or avx2 (default: the fastest this CPU runs)
    #[arg(long, value_name = "NAME")]
    path: Option<String>,
    /// The depth (0 to 20), then the position's words
    #[arg(value_name = "DEPTH [POSITION]")]
    words: Vec<String>,
}

#[derive(Debug)]
struct Options {
    depth: u32,
    divide: bool,
    path: Option<String>,
    game: &'static GameEntry,
    rules: Vec<String>,
    position: Option<String>,
}

fn parse_args(args: &[String]) -> Result<Option<Options>, Failure> {
    // A position's words may start with dashes (its empty squares): only a word meant as
    // an option that is not made of a position's characters is taken for one.
    let is_argument = |word: &str| !args::is_option(word) || word.chars().all(is_position_char);
    let Some(given) = args::parse_mixed::<PerftArgs>("perft", args, is_argument)? else {
        return Ok(None);
    };
    let game = match &given.game {
        Some(name) => {
            games::find(name).ok_or_else(|| format!("perft: {}", games::unknown(name)))?
        }
        None => &games::GAMES[0],
    };
    let mut rules = given.rules;
    if given.removal_per_mill {
        rules.push("removal=per-mill".into());
    }
    let mut words = given.words.iter();
    let depth = words
        .next()
        .ok_or("perft: missing DEPTH (try `iago perft --help`)")?;
    let depth = PERFT_DEPTH.parse(depth).map_err(|refused| match refused {
        Refused::OutOfRange(message) => format!("perft: DEPTH {depth}: {message}"),
        Refused::NotANumber | Refused::Expected(_) => {
            format!("perft: bad DEPTH {depth:?} (a whole number; try `iago perft --help`)")
        }
    })?;
    let position: Vec<&str> = words.map(String::as_str).collect();
    Ok(Some(Options {
        depth,
        divide: given.divide,
        path: given.path,
        game,
        rules,
        position: (!position.is_empty()).then(|| position.join(" ")),
    }))
}

/// A character that may appear in a position string.
fn is_position_char(c: char) -> bool {
    "XxBb*OoWw0-._/ ".contains(c)
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    match parse_args(args)? {
        None => Ok(()),
        Some(options) if options.game == &games::GAMES[0] => {
            if !options.rules.is_empty() {
                return Err(format!("perft: {} has no rule variants", options.game.name).into());
            }
            run_othello(&options)
        }
        Some(options) => games::visit(options.game.id, Count(&options)).unwrap_or(Ok(())),
    }
}

fn run_othello(options: &Options) -> Result<(), Failure> {
    let pos = match &options.position {
        Some(text) => parse_game(text)
            .map(|game| game.final_position())
            .map_err(|e| format!("perft: {e}"))?,
        None => Position::start(),
    };
    let path = options.path.as_deref().unwrap_or(perft::best_path());
    let count = |pos: &Position, depth: u32| {
        perft::perft_with(path, pos, depth).map_err(|e| format!("perft: {e}"))
    };
    let start = Instant::now();
    let leaves = if options.divide && options.depth > 0 {
        let mut total = 0;
        for mv in pos.legal_moves().as_ref() {
            let leaves = count(&pos.play(*mv), options.depth - 1)?;
            outln!("{mv}: {leaves}")?;
            total += leaves;
        }
        // A finished game is one leaf.
        total.max(1)
    } else {
        count(&pos, options.depth)?
    };
    let seconds = start.elapsed().as_secs_f64();
    outln!("perft {}: {leaves}", options.depth)?;
    outln!(
        "time {seconds:.3} s, {:.1} M leaves/s ({path} code path)",
        leaves as f64 / seconds.max(1e-9) / 1e6
    )?;
    Ok(())
}

/// Perft of a game other than Othello, through what the engine knows of it.
struct Count<'a>(&'a Options);

impl GameVisitor for Count<'_> {
    type Output = Result<(), Failure>;

    fn visit<G: EngineGame>(self, _game: &'static GameEntry) -> Result<(), Failure> {
        run_game::<G>(self.0)
    }
}

fn run_game<G: EngineGame>(options: &Options) -> Result<(), Failure> {
    let mut pos = match &options.position {
        Some(text) => G::parse_position(text).map_err(|e| format!("perft: {e}"))?,
        None => G::start(),
    };
    for rules in &options.rules {
        pos = pos.with_rules(rules).map_err(|e| format!("perft: {e}"))?;
    }
    let start = Instant::now();
    let leaves = if options.divide && options.depth > 0 {
        let mut total = 0;
        for &mv in pos.legal_moves().as_ref() {
            let leaves = pos.play(mv).perft(options.depth - 1);
            outln!("{}: {leaves}", pos.format_move(mv))?;
            total += leaves;
        }
        total.max(1)
    } else {
        pos.perft(options.depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    outln!("perft {}: {leaves}", options.depth)?;
    outln!(
        "time {seconds:.3} s, {:.1} M leaves/s",
        leaves as f64 / seconds.max(1e-9) / 1e6
    )?;
    Ok(())
}
