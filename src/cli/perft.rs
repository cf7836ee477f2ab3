//! `iago perft [OPTIONS] DEPTH [POSITION]`: counts the leaves of the game tree and prints
//! the time and speed.
//!
//! The options are read into a game-neutral `Options` first; `run_othello` then does
//! the counting with Othello's fast code paths, and `Count` any other game of the
//! registry through its [`EngineGame`].

use super::out::{Failure, outln};
use std::time::Instant;

use iago_core::engine::EngineGame;
use iago_core::game::Game;
use iago_core::games::{self, GameEntry, GameVisitor};
use iago_core::options::{PERFT_DEPTH, Refused};
use iago_core::othello::game_input::parse_game;
use iago_core::othello::{Position, perft};

const HELP: &str = "usage: iago perft [OPTIONS] DEPTH [POSITION]

Counts the leaves of the Othello game tree DEPTH plies deep (a pass is a ply; a game
that ends earlier is one leaf) and prints the count, the time and leaves per second.

POSITION  a position string, default the start position: 64 squares a1..h8 row by row
          (X x * B b black, O o 0 W w white, - . _ empty) then the side to move (X or O);
          spaces are ignored, so it may be one quoted argument or several. Also the GGS
          board string `[8 <64> <side>]`, a GGF record, or moves (`f5d6c3`) from the
          start or after either position form: the position after them.
          Other games: their position string (see protocol.md; mill:
          `BOARD SIDE WHITE_HAND BLACK_HAND [QUIET_PLIES]`, a move with its removals
          is one ply).

Options:
  --game NAME    the game: GAMES (default: the first)
  --rules RULES  the game's rule settings, as its `set_rules` reads them
  --removal-per-mill   mill: one removal per mill closed (the seed's variant)
  --divide       also print the leaf count below each legal move
  --path NAME    code path: portable, bmi or avx2 (default: the fastest this CPU runs)
  -h, --help     print this help";

/// The command line, read without knowing the game.
#[derive(Debug)]
struct Options {
    depth: u32,
    divide: bool,
    path: Option<String>,
    game: &'static GameEntry,
    rules: Vec<String>,
    /// The position's words, joined back with spaces.
    position: Option<String>,
}

/// What the command line asks for.
enum Request {
    Help,
    Count(Options),
}

fn parse_args(args: &[String]) -> Result<Request, String> {
    let mut options = Options {
        depth: 0,
        divide: false,
        path: None,
        game: &games::GAMES[0],
        rules: Vec::new(),
        position: None,
    };
    let mut depth = None;
    let mut position_words = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(Request::Help),
            "--divide" => options.divide = true,
            "--removal-per-mill" => options.rules.push("removal=per-mill".into()),
            "--rules" => options
                .rules
                .push(args.next().ok_or("perft: --rules needs RULES")?.clone()),
            "--game" => {
                let name = args.next().ok_or("perft: --game needs a NAME")?;
                options.game =
                    games::find(name).ok_or_else(|| format!("perft: {}", games::unknown(name)))?;
            }
            "--path" => {
                let name = args.next().ok_or("perft: --path needs a NAME")?;
                options.path = Some(name.clone());
            }
            _ if depth.is_none() => {
                depth = Some(PERFT_DEPTH.parse(arg).map_err(|refused| match refused {
                    Refused::OutOfRange(message) => format!("perft: DEPTH {arg}: {message}"),
                    Refused::NotANumber | Refused::Expected(_) => format!(
                        "perft: bad DEPTH {arg:?} (a whole number; try `iago perft --help`)"
                    ),
                })?);
            }
            // Position strings often start with `--` (empty squares): only a word with
            // other characters, and shaped like an option, is taken for a misspelt one.
            _ if arg.starts_with("--")
                && !arg.chars().all(is_position_char)
                && super::args::is_option(arg) =>
            {
                return Err(format!(
                    "perft: unknown option {arg:?} (try `iago perft --help`)"
                ));
            }
            _ => position_words.push(arg.as_str()),
        }
    }
    options.depth = depth.ok_or("perft: missing DEPTH (try `iago perft --help`)")?;
    if !position_words.is_empty() {
        options.position = Some(position_words.join(" "));
    }
    Ok(Request::Count(options))
}

/// A character that may appear in a position string.
fn is_position_char(c: char) -> bool {
    "XxBb*OoWw0-._/ ".contains(c)
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    match parse_args(args)? {
        Request::Help => {
            outln!("{}", HELP.replace("GAMES", &games::ids()))?;
            Ok(())
        }
        Request::Count(options) if options.game == &games::GAMES[0] => {
            if !options.rules.is_empty() {
                return Err(format!("perft: {} has no rule variants", options.game.name).into());
            }
            run_othello(&options)
        }
        Request::Count(options) => games::visit(options.game.id, Count(&options)).unwrap_or(Ok(())),
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
