//! `iago book`: build, inspect, check and teach opening books.
//!
//! ```text
//! iago book build [--wthor DIR] [--plies N] [--min-games N] [--depth N] [--threads N]
//!                 [--eval NAME] --out PATH
//! iago book learn --book PATH [--depth N] [--plies N] [--eval NAME] GAMES_FILE
//! iago book show [--book PATH|none] [MOVES]
//! iago book check PATH
//! ```
//! A games file holds one game a line as moves from the start position (`f5d6c3d3c4`,
//! spaces allowed, passes optional); `#` starts a comment line.

use super::out::{Failure, outln};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::book_build::{BuildSettings, build_book};
use iago_core::book::{Book, BookChoice, LearnSettings};
use iago_core::eval::othello_evaluator;
use iago_core::othello::{DISC, Move, Position};
use iago_core::search::Searcher;

const USAGE: &str = "usage: iago book build [--wthor DIR] [--plies N] [--min-games N] [--depth N] [--threads N] [--eval NAME] --out PATH
       iago book learn --book PATH [--depth N] [--plies N] [--eval NAME] GAMES_FILE
       iago book show [--book PATH|none] [MOVES]
       iago book check PATH";

pub fn run(args: &[String]) -> Result<(), Failure> {
    let rest = args.get(1..).unwrap_or_default();
    match args.first().map(String::as_str) {
        Some("build") => build(rest),
        Some("learn") => learn(rest),
        Some("show") => show(rest),
        Some("check") => check(rest),
        Some("help" | "--help" | "-h") => {
            outln!("{USAGE}")?;
            Ok(())
        }
        _ => Err(format!("book: expected a subcommand\n{USAGE}").into()),
    }
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
                .map_err(|_| format!("book: bad --{name} value {text:?}")),
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
    let settings = BuildSettings {
        plies: options.number("plies", 16)?,
        min_games: options.number("min-games", 40)?,
        depth: options.number("depth", 8)?,
        threads: options.number("threads", 1)?,
    };
    let start = Instant::now();
    let games: Vec<Vec<_>> = iago_core::othello::wthor::read_wthor_dir(&wthor)
        .map_err(|e| format!("book build: {}: {e}", wthor.display()))?
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
    let options = Options::parse(args, &["book", "depth", "plies", "eval"])?;
    let path = options
        .get("book")
        .ok_or("book learn: --book PATH is required")?;
    let games_file = options
        .positional
        .first()
        .ok_or("book learn: missing GAMES_FILE")?;
    let defaults = LearnSettings::default();
    let settings = LearnSettings {
        depth: options.number("depth", defaults.depth)?,
        plies: options.number("plies", defaults.plies)?,
    };
    let mut searcher = searcher(options.get("eval").unwrap_or("default"))?;
    let text = std::fs::read_to_string(games_file)
        .map_err(|e| format!("book learn: {games_file}: {e}"))?;
    let mut book = Book::open(Path::new(path)).map_err(|e| e.to_string())?;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves = parse_game(line).map_err(|e| format!("{games_file}:{}: {e}", number + 1))?;
        let report = book
            .learn_game(&Position::start(), &moves, &mut searcher, &settings)
            .map_err(|e| e.to_string())?;
        // Printed only once the game is safely on disk: the crash test relies on it.
        outln!(
            "learned game {} added {} searched {} book {}",
            number + 1,
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
        _ => Book::open_choice(&choice).unwrap_or_default(),
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
