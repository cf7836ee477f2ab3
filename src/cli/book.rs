//! `iago book`: build, inspect, check and teach opening books.
//!
//! ```text
//! iago book build [--wthor DIR] [--plies N] [--min-games N] [--depth N] [--threads N]
//!                 [--eval NAME] --out PATH
//! iago book learn --book PATH [--game N] [--depth N] [--plies N] [--eval NAME] GAMES_FILE
//! iago book show [--book PATH|none] [MOVES]
//! iago book check PATH
//! ```
//! A games file is read as `iago analyze` reads one
//! ([`iago_core::othello::game_input::GameFile`]): GGF records, one game a line, or WTHOR.

use super::out::{Failure, outln};
use std::path::{Path, PathBuf};
use std::time::Instant;

use iago_core::book::{Book, BookChoice, LearnSettings};
use iago_core::eval::othello_evaluator;
use iago_core::options::{self, Range};
use iago_core::othello::game_input::GameFile;
use iago_core::othello::{DISC, Move, Position};
use iago_core::search::Searcher;
use iago_training::book_build::{BuildSettings, build_book};

const USAGE: &str = "usage: iago book build [--wthor DIR] [--plies N] [--min-games N] [--depth N] [--threads N] [--eval NAME] --out PATH
       iago book learn --book PATH [--game N] [--depth N] [--plies N] [--eval NAME] GAMES_FILE
       iago book show [--book PATH|none] [MOVES]
       iago book check PATH

`iago book SUBCOMMAND --help` describes each one.";

const BUILD_HELP: &str = "usage: iago book build [--wthor DIR] [--plies N] [--min-games N] [--depth N] [--threads N] [--eval NAME] --out PATH

Builds a book from the games of the WTHOR files (`*.wtb`) of DIR: every position of
the first N plies that enough games went through, each searched to a depth, values
backed up by minimax. The book is written whole to PATH (a temporary file beside it,
renamed over it; through a symbolic link, to the file it names).

Options:
  --wthor DIR      the WTHOR files (default ../shared/data/wthor)
  --plies N        positions up to N plies from the start (1..60, default 16)
  --min-games N    positions at least N games went through (default 40)
  --depth N        search depth of each position (1..64, default 8)
  --threads N      searches at once (1..1024, default 1); the book does not depend on it
  --eval NAME      evaluator (default: the default)
  --out PATH       the book file to write";

const LEARN_HELP: &str =
    "usage: iago book learn --book PATH [--game N] [--depth N] [--plies N] [--eval NAME] GAMES_FILE

Adds the games of GAMES_FILE to the book at PATH (made from the built-in book if there
is no file yet) and saves it after each game. GAMES_FILE is read as `iago analyze`
reads a game file (up to 64 MiB): GGF records (as `iago match --out` writes them),
one game a line (transcripts like f5d6c3, positions with moves; `#` starts a comment
line), or a WTHOR database.

Options:
  --book PATH      the book file to learn into
  --game N         learn only game N of the file (from 1)
  --depth N        search depth of the positions new to the book (1..64, default 10)
  --plies N        learn the first N plies of each game (1..60, default 40)
  --eval NAME      evaluator (default: the default)";

const SHOW_HELP: &str = "usage: iago book show [--book PATH|none] [MOVES]

Prints the book's moves in the position after MOVES (a transcript from the start, e.g.
f5 d6), each with its value for the side to move, the games that went through it, the
depth of its value and the book's line. --book picks a book file (default: the built-in
book).";

const CHECK_HELP: &str = "usage: iago book check PATH

Reads the book file at PATH whole and says whether it is intact (its header, length,
checksum and entries) and how many positions it holds; a damaged file is an error.";

/// Plies of a game the book keeps.
const PLIES: Range<usize> = Range {
    name: "plies",
    default: None,
    min: 1,
    max: 60,
    unit: "",
};

/// The game of a games file, from 1.
const GAME: Range<usize> = Range {
    name: "game",
    default: None,
    min: 1,
    max: usize::MAX,
    unit: "",
};

/// A book subcommand, given the words after its name.
type Subcommand = fn(&[String]) -> Result<(), Failure>;

pub fn run(args: &[String]) -> Result<(), Failure> {
    let rest = args.get(1..).unwrap_or_default();
    let (help, run): (&str, Subcommand) = match args.first().map(String::as_str) {
        Some("build") => (BUILD_HELP, build),
        Some("learn") => (LEARN_HELP, learn),
        Some("show") => (SHOW_HELP, show),
        Some("check") => (CHECK_HELP, check),
        Some("help" | "--help" | "-h") => {
            outln!("{USAGE}")?;
            return Ok(());
        }
        _ => return Err(format!("book: expected a subcommand\n{USAGE}").into()),
    };
    if rest.iter().any(|arg| arg == "--help" || arg == "-h") {
        outln!("{help}")?;
        return Ok(());
    }
    run(rest)
}

/// `--name value` options and positional arguments.
struct Options {
    named: Vec<(String, String)>,
    positional: Vec<String>,
}

impl Options {
    fn parse(args: &[String], known: &[&str]) -> Result<Options, String> {
        let mut options = Options {
            named: Vec::new(),
            positional: Vec::new(),
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            if let Some(name) = arg.strip_prefix("--") {
                if !known.contains(&name) {
                    return Err(format!("book: unknown option {arg}\n{USAGE}"));
                }
                let value = args
                    .next()
                    .ok_or_else(|| format!("book: {arg} needs a value"))?;
                options.named.push((name.to_string(), value.clone()));
            } else {
                options.positional.push(arg.clone());
            }
        }
        Ok(options)
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.named
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn number<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.get(name) {
            None => Ok(default),
            Some(text) => text
                .parse()
                .map_err(|_| format!("book: --{name}: {text:?} is not a valid number")),
        }
    }

    /// The value of `--name`, in `range` (the error states it).
    fn ranged<T>(&self, name: &str, range: &Range<T>, default: T) -> Result<T, String>
    where
        T: Copy + PartialOrd + std::fmt::Display + std::str::FromStr,
    {
        match self.get(name) {
            None => Ok(default),
            Some(text) => super::args::ranged(&format!("--{name}"), text, range)
                .map_err(|error| format!("book: {error}")),
        }
    }
}

fn searcher(eval: &str) -> Result<Searcher<Position>, String> {
    Ok(Searcher::new(othello_evaluator(eval)?))
}

fn build(args: &[String]) -> Result<(), Failure> {
    let options = Options::parse(
        args,
        &[
            "wthor",
            "plies",
            "min-games",
            "depth",
            "threads",
            "eval",
            "out",
        ],
    )?;
    let wthor = PathBuf::from(options.get("wthor").unwrap_or("../shared/data/wthor"));
    let out = PathBuf::from(
        options
            .get("out")
            .ok_or("book build: --out PATH is required")?,
    );
    let eval = options.get("eval").unwrap_or("default").to_string();
    searcher(&eval)?;
    let mut inputs = super::args::wthor_files(&wthor);
    inputs.extend(super::args::evaluator_file(&eval));
    iago_core::files::refuse_input_as_output(
        "book build",
        &out,
        inputs.iter().map(PathBuf::as_path),
    )?;
    let settings = BuildSettings {
        plies: options.ranged("plies", &PLIES, 16)?,
        min_games: options.number("min-games", 40)?,
        depth: options.ranged("depth", &options::DEPTH, 8)?,
        threads: options.ranged("threads", &options::THREADS, 1)?,
    };
    let start = Instant::now();
    let games: Vec<Vec<_>> = iago_core::othello::wthor::read_wthor_dir(&wthor)
        .map_err(|e| format!("book build: {e}"))?
        .into_iter()
        .map(|game| game.moves)
        .collect();
    eprintln!(
        "book build: {} games read from {}",
        games.len(),
        wthor.display()
    );
    let make_searcher = || match searcher(&eval) {
        Ok(searcher) => searcher,
        Err(_) => Searcher::new(Box::new(iago_core::eval::SimpleOthello)),
    };
    let progress = |done: usize, total: usize| {
        eprint!("\rbook build: {done}/{total} positions searched");
    };
    let book = build_book(&games, &settings, &make_searcher, &progress);
    eprintln!();
    book.save_to(&out).map_err(|e| e.to_string())?;
    outln!(
        "book build: {} positions, {} bytes, written to {} in {:.1} s \
         (plies {}, min-games {}, depth {}, threads {}, eval {eval})",
        book.len(),
        book.to_bytes().len(),
        out.display(),
        start.elapsed().as_secs_f64(),
        settings.plies,
        settings.min_games,
        settings.depth,
        settings.threads,
    )?;
    Ok(())
}

/// Moves from the start position, passes inserted where the side to move has none.
fn parse_game(text: &str) -> Result<Vec<Move>, String> {
    let compact: String = text.split_whitespace().collect();
    let mut pos = Position::start();
    let mut moves = Vec::new();
    let mut rest = compact.as_str();
    while !rest.is_empty() {
        let (token, tail) = if rest.len() >= 4 && rest[..4].eq_ignore_ascii_case("pass") {
            rest.split_at(4)
        } else {
            rest.split_at(rest.char_indices().nth(2).map_or(rest.len(), |(i, _)| i))
        };
        rest = tail;
        let mv: Move = token.parse().map_err(|e| format!("{e}"))?;
        if mv.is_pass() {
            continue;
        }
        if pos.has_no_move() {
            pos = pos.pass();
            moves.push(Move::PASS);
        }
        pos = pos
            .try_play(mv)
            .ok_or_else(|| format!("illegal move {mv} after {} moves", moves.len()))?;
        moves.push(mv);
    }
    Ok(moves)
}

fn learn(args: &[String]) -> Result<(), Failure> {
    let options = Options::parse(args, &["book", "game", "depth", "plies", "eval"])?;
    let path = options
        .get("book")
        .ok_or("book learn: --book PATH is required")?;
    let games_file = match options.positional.as_slice() {
        [file] => file,
        [] => return Err("book learn: missing GAMES_FILE".into()),
        [_, extra, ..] => return Err(format!("book learn: unexpected argument {extra:?}").into()),
    };
    let defaults = LearnSettings::default();
    let settings = LearnSettings {
        depth: options.ranged("depth", &options::DEPTH, defaults.depth)?,
        plies: options.ranged("plies", &PLIES, defaults.plies)?,
    };
    let only = match options.get("game") {
        Some(_) => Some(options.ranged("game", &GAME, 1)?),
        None => None,
    };
    let eval = options.get("eval").unwrap_or("default");
    let mut searcher = searcher(eval)?;
    let inputs = [
        Some(PathBuf::from(games_file)),
        super::args::evaluator_file(eval),
    ];
    iago_core::files::refuse_input_as_output(
        "book learn",
        Path::new(path),
        inputs.iter().flatten().map(PathBuf::as_path),
    )?;
    let games =
        GameFile::read(Path::new(games_file), false).map_err(|e| format!("book learn: {e}"))?;
    if games.is_empty() {
        return Err(format!("book learn: {games_file} holds no game").into());
    }
    let numbers = match only {
        Some(number) => number..=number,
        None => 1..=games.len(),
    };
    let mut book = Book::open(Path::new(path)).map_err(|e| e.to_string())?;
    for number in numbers {
        let game = games
            .game(number)
            .map_err(|e| format!("book learn: {games_file}: {e}"))?;
        let report = book
            .learn_game(&game.start, &game.moves, &mut searcher, &settings)
            .map_err(|e| e.to_string())?;
        // Printed only once the game is safely on disk: the crash test relies on it.
        outln!(
            "learned game {number} added {} searched {} book {}",
            report.added,
            report.searched,
            book.len()
        )?;
    }
    Ok(())
}

fn show(args: &[String]) -> Result<(), Failure> {
    let options = Options::parse(args, &["book"])?;
    let choice = options
        .get("book")
        .map_or(BookChoice::Default, BookChoice::from_arg);
    let book = match &choice {
        BookChoice::File(path) => Book::open(path).map_err(|e| e.to_string())?,
        _ => Book::open_choice(&choice)
            .ok()
            .flatten()
            .unwrap_or_default(),
    };
    let moves = parse_game(&options.positional.join(""))?;
    let mut pos = Position::start();
    for &mv in &moves {
        pos = pos.try_play(mv).ok_or("illegal move")?;
    }
    outln!("book of {} positions", book.len())?;
    match book.moves(&pos) {
        None => outln!("position not in the book")?,
        Some(book_moves) => {
            for m in book_moves {
                let line: Vec<String> = book
                    .line(&pos, m.mv, 8)
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                outln!(
                    "{} {:+.2} games {} depth {}{}  {}",
                    m.mv,
                    m.value as f64 / DISC as f64,
                    m.games,
                    m.depth,
                    if m.in_book { "" } else { " (leaves the book)" },
                    line.join(" ")
                )?;
            }
        }
    }
    Ok(())
}

fn check(args: &[String]) -> Result<(), Failure> {
    let path = args.first().ok_or("book check: missing PATH")?;
    let book = Book::open(Path::new(path)).map_err(|e| e.to_string())?;
    if !Path::new(path).exists() {
        return Err(format!("book check: {path}: no such file").into());
    }
    outln!("{path}: intact book of {} positions", book.len())?;
    Ok(())
}
