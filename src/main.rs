//! The `iago` command: engine mode (a protocol on stdin/stdout) by default, or one of the
//! subcommands below, each in its own module of `src/cli/`.

mod engine_mode;

use iago::cli;

use std::process::ExitCode;

use cli::out::{Failure, write};

const USAGE: &str = "usage: iago [ENGINE OPTIONS]          run the engine on stdin/stdout
       iago perft [OPTIONS] DEPTH [POSITION]
       iago match --engine NAME=PROTOCOL:COMMAND --engine ... [OPTIONS]
       iago openings [--plies N] [--depth D] [--max-eval DISCS]
       iago book build|learn|show|check ...  opening book tools
       iago bench [--depth N] [OPTIONS]   fixed-depth search signature and speed
       iago train --wthor DIR [OPTIONS]   fit the pattern evaluation's weights
       iago label --wthor DIR --out FILE  score positions for training by search
       iago selfplay --games N --out FILE self-play games for training, with results
       iago pack-games FILE... --out FILE game records into one compact file
       iago features FILE... --out FILE   game records' positions as training features
       iago solve FILE.obf [OPTIONS]      solve endgame problems exactly
       iago analyze GAME [OPTIONS]        every move of a game against the best move
       iago accuracy [OPTIONS]            move accuracy per evaluator on exact problems
       iago eval-match A B [OPTIONS]      a match of two evaluators in this process
       iago mill-eval-match A B [OPTIONS] the same for Mill
       iago fit-probcut --wthor DIR [OPTIONS]  fit the ProbCut parameters
       iago web [--port N] [--open] [ENGINE OPTIONS]  a board in the browser
       iago help [SUBCOMMAND]
       iago version                       print the version

Run `iago SUBCOMMAND --help` (or `iago help SUBCOMMAND`) for a subcommand's options.";

/// The subcommands (the words `main` dispatches on).
const SUBCOMMANDS: &[&str] = &[
    "perft",
    "match",
    "openings",
    "book",
    "bench",
    "solve",
    "analyze",
    "fit-probcut",
    "train",
    "label",
    "selfplay",
    "pack-games",
    "features",
    "accuracy",
    "eval-match",
    "mill-eval-match",
    "web",
];

fn main() -> ExitCode {
    // Logs go to stderr only: stdout belongs to the protocol.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `iago help SUBCOMMAND` is `iago SUBCOMMAND --help`.
    if args.len() >= 2 && args[0] == "help" && SUBCOMMANDS.contains(&args[1].as_str()) {
        args = vec![args[1].clone(), "--help".into()];
    }
    let rest = args.get(1..).unwrap_or_default();
    let result = match args.first().map(String::as_str) {
        Some("perft") => cli::perft::run(rest),
        Some("match") => cli::match_cmd::run(rest),
        Some("openings") => cli::openings::run(rest),
        Some("book") => cli::book::run(rest),
        Some("bench") => cli::bench::run(rest),
        Some("solve") => cli::solve::run(rest),
        Some("analyze") => cli::analyze::run(rest),
        Some("fit-probcut") => cli::fit_probcut::run(rest),
        Some("train") => cli::train::run(rest),
        Some("label") => cli::label::run(rest),
        Some("selfplay") => cli::selfplay::run(rest),
        Some("pack-games") => cli::pack_games::run(rest),
        Some("features") => cli::features::run(rest),
        Some("accuracy") => cli::accuracy::run(rest),
        Some("eval-match") => cli::eval_match::run(rest),
        Some("mill-eval-match") => cli::mill_eval_match::run(rest),
        Some("web") => iago_web::run(rest).map_err(Failure::from),
        Some("help" | "--help" | "-h") => {
            write(format_args!("{USAGE}\n\n{}\n", engine_mode::options_help()))
        }
        Some("version" | "--version" | "-V") => {
            write(format_args!("iago {}\n", env!("CARGO_PKG_VERSION")))
        }
        _ => engine_mode::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Error(message)) => {
            eprintln!("iago: {message}");
            ExitCode::from(2)
        }
        // The reader of stdout went away (`iago bench | head -1`): end quietly, with the
        // status a shell shows for a program ended by SIGPIPE.
        Err(Failure::Closed) => ExitCode::from(141),
    }
}
