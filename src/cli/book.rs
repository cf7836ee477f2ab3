use super::out::{Failure, outln};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Parser, Subcommand};

use super::args::{self, EngineOptions, Flags, HELP_TEMPLATE, number, ranged};
use iago_core::options::BookChoice;
use iago_core::options::{self, Range};
use iago_core::othello::book::{Book, LearnSettings};
use iago_core::othello::eval::othello_evaluator;
use iago_core::othello::game_input::GameFile;
use iago_core::othello::{DISC, Move, Position};
use iago_core::search::Searcher;
use iago_training::book_build::{BuildSettings, build_book};

/// Opening book tools: build a book from game records, teach it games, show its moves in
/// a position, check a book file. `iago book SUBCOMMAND --help` describes each one.
#[derive(Parser, Debug)]
#[command(name = "iago book", subcommand_required = true)]
struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    Build(BuildArgs),
    Learn(LearnArgs),
    Show(ShowArgs),
    Check(CheckArgs),
}

/// Builds a book from the games of the WTHOR files (`*.wtb`) of DIR: every position of
/// the first N plies that enough games went through, each searched to a depth, values
/// backed up by minimax. The book is written whole to PATH (a temporary file beside it,
/// renamed over it; through a symbolic link, to the file it names). The book does not
/// depend on the number of threads (searches at once, default 1).
#[derive(clap::Args, Debug)]
#[command(help_template = HELP_TEMPLATE)]
struct BuildArgs {
    /// The WTHOR files
    #[arg(long, value_name = "DIR", default_value = "../shared/data/wthor")]
    wthor: PathBuf,
    /// Positions up to N plies from the start (1..60)
    #[arg(long, value_name = "N", default_value = "16", value_parser = ranged(&PLIES))]
    plies: usize,
    /// Positions at least N games went through
    #[arg(long, value_name = "N", default_value = "40", value_parser = number::<u32>)]
    min_games: u32,
    /// Search depth of each position (1..64)
    #[arg(long, value_name = "N", default_value = "8", value_parser = ranged(&options::DEPTH))]
    depth: u32,
    #[command(flatten)]
    engine: EngineOptions<EvalThreads>,
    /// The book file to write (required)
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
}

/// Adds the games of GAMES_FILE to the book at PATH (made from the built-in book if there
/// is no file yet) and saves it after each game. GAMES_FILE is read as `iago analyze`
/// reads a game file (up to 64 MiB): GGF records (as `iago match --out` writes them), one
/// game a line (transcripts like f5d6c3, positions with moves; `#` starts a comment
/// line), or a WTHOR database.
#[derive(clap::Args, Debug)]
#[command(help_template = HELP_TEMPLATE)]
struct LearnArgs {
    /// The book file to learn into (required)
    #[arg(long, value_name = "PATH")]
    book: Option<PathBuf>,
    /// Learn only game N of the file (from 1)
    #[arg(long, value_name = "N", value_parser = ranged(&GAME))]
    game: Option<usize>,
    /// Search depth of the positions new to the book (1..64, default 10)
    #[arg(long, value_name = "N", value_parser = ranged(&options::DEPTH))]
    depth: Option<u32>,
    /// Learn the first N plies of each game (1..60, default 40)
    #[arg(long, value_name = "N", value_parser = ranged(&PLIES))]
    plies: Option<usize>,
    #[command(flatten)]
    engine: EngineOptions<Eval>,
    /// The games
    #[arg(value_name = "GAMES_FILE")]
    games_file: Option<PathBuf>,
}

/// Prints the book's moves in the position after MOVES (a transcript from the start,
/// e.g. f5 d6), each with its value for the side to move, the games that went through
/// it, the depth of its value and the book's line.
#[derive(clap::Args, Debug)]
#[command(help_template = HELP_TEMPLATE)]
struct ShowArgs {
    #[command(flatten)]
    engine: EngineOptions<BookFlag>,
    /// Moves from the start
    #[arg(value_name = "MOVES")]
    moves: Vec<String>,
}

/// Reads the book file at PATH whole and says whether it is intact (its header, length,
/// checksum and entries) and how many positions it holds; a damaged file is an error.
#[derive(clap::Args, Debug)]
#[command(help_template = HELP_TEMPLATE)]
struct CheckArgs {
    #[arg(value_name = "PATH")]
    path: String,
}

#[derive(Clone, Debug, Default)]
struct EvalThreads;

impl Flags for EvalThreads {
    const FLAGS: &'static [&'static str] = &["--eval", "--threads"];
}

#[derive(Clone, Debug, Default)]
struct Eval;

impl Flags for Eval {
    const FLAGS: &'static [&'static str] = &["--eval"];
}

#[derive(Clone, Debug, Default)]
struct BookFlag;

impl Flags for BookFlag {
    const FLAGS: &'static [&'static str] = &["--book"];
}

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

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = args::parse::<BookArgs>("book", args)? else {
        return Ok(());
    };
    match options.command {
        BookCommand::Build(options) => build(options),
        BookCommand::Learn(options) => learn(options),
        BookCommand::Show(options) => show(options),
        BookCommand::Check(options) => check(&options.path),
    }
}

fn searcher(eval: &str) -> Result<Searcher<Position>, String> {
    Ok(Searcher::new(othello_evaluator(eval)?))
}

fn build(options: BuildArgs) -> Result<(), Failure> {
    let wthor = options.wthor;
    let out = options.out.ok_or("book build: --out PATH is required")?;
    let settings = &options.engine.settings;
    let eval = settings.eval.clone().unwrap_or_else(|| "default".into());
    searcher(&eval)?;
    let mut inputs = super::args::wthor_files(&wthor);
    inputs.extend(super::args::evaluator_file(&eval));
    iago_core::files::refuse_input_as_output(
        "book build",
        &out,
        inputs.iter().map(PathBuf::as_path),
    )?;
    let settings = BuildSettings {
        plies: options.plies,
        min_games: options.min_games,
        depth: options.depth,
        threads: settings.threads.unwrap_or(1),
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
        Err(_) => Searcher::new(Box::new(iago_core::othello::eval::SimpleOthello)),
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

fn learn(options: LearnArgs) -> Result<(), Failure> {
    let path = options.book.ok_or("book learn: --book PATH is required")?;
    let games_file = (options.games_file).ok_or("book learn: missing GAMES_FILE")?;
    let games_file = games_file.to_string_lossy().into_owned();
    let defaults = LearnSettings::default();
    let settings = LearnSettings {
        depth: options.depth.unwrap_or(defaults.depth),
        plies: options.plies.unwrap_or(defaults.plies),
    };
    let only = options.game;
    let eval = options.engine.settings.eval.as_deref().unwrap_or("default");
    let mut searcher = searcher(eval)?;
    let inputs = [
        Some(PathBuf::from(&games_file)),
        super::args::evaluator_file(eval),
    ];
    iago_core::files::refuse_input_as_output(
        "book learn",
        &path,
        inputs.iter().flatten().map(PathBuf::as_path),
    )?;
    let games =
        GameFile::read(Path::new(&games_file), false).map_err(|e| format!("book learn: {e}"))?;
    if games.is_empty() {
        return Err(format!("book learn: {games_file} holds no game").into());
    }
    let numbers = match only {
        Some(number) => number..=number,
        None => 1..=games.len(),
    };
    let mut book = Book::open(&path).map_err(|e| e.to_string())?;
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

fn show(options: ShowArgs) -> Result<(), Failure> {
    let choice = options.engine.settings.book.clone();
    let book = match &choice {
        BookChoice::File(path) => Book::open(path).map_err(|e| e.to_string())?,
        _ => Book::open_choice(&choice)
            .ok()
            .flatten()
            .unwrap_or_default(),
    };
    let moves = parse_game(&options.moves.join(""))?;
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

fn check(path: &str) -> Result<(), Failure> {
    let book = Book::open(Path::new(path)).map_err(|e| e.to_string())?;
    if !Path::new(path).exists() {
        return Err(format!("book check: {path}: no such file").into());
    }
    outln!("{path}: intact book of {} positions", book.len())?;
    Ok(())
}
