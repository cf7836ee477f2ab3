//! Engine mode: reads protocol commands on stdin and answers on stdout.

use iago_tools::cli::out::{Failure, write};
use std::time::Duration;

use iago_core::book::BookChoice;
use iago_core::engine::{Player, Settings};
use iago_core::options::{self, CONTEMPT, DEPTH, HASH_MB, LEVEL, MOVETIME_MS, NODES, THREADS};
use iago_core::protocol::{self, Protocol};

use iago_tools::cli::args::ranged;

const HELP: &str = "usage: iago [ENGINE OPTIONS]

Runs the engine on stdin/stdout. The protocol is NBoard when the first command is
`nboard ...`, UGI when it is `ugi`, GTP otherwise (see protocol.md). Logs go to stderr (RUST_LOG=info).
";

/// The engine's options, for `iago --help` and `iago help`.
pub const OPTIONS_HELP: &str = "Engine options:
  --protocol nboard|gtp|ugi  speak this protocol whatever the first command
  --game NAME            the game: othello (default) or mill
  --depth N              search depth in plies (1..64)
  --level N              level (1..60): depth N, and the endgame solved from 2N empties
                         (up to level 8), then from N + 8 (protocol.md, Levels)
  --nodes N              node limit per search (deterministic)
  --movetime MS          time per move in milliseconds (1..86400000)
  --hash MB              transposition table size (1..4096, default 64)
  --threads N            search threads (1..1024; midgame and endgame solver, up to
                         one per core)
  --seed N               variety: play randomly among moves near the best (and seed of
                         the random player); without it play is deterministic
  --eval NAME            evaluation: pattern (default), simple, discs, mobility, ...
                         (GTP set_eval with a wrong name lists them all)
  --contempt N           draw value for Black in hundredths of a disc (-6400..6400)
  --book PATH|none       opening book file, or none (default: the embedded book)
  --player search|random how moves are chosen (random: any legal move, for tests)
  -h, --help             print this help";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
struct Options {
    protocol: Option<Protocol>,
    game: String,
    settings: Settings,
}

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut options = Options {
        protocol: None,
        game: "othello".into(),
        settings: Settings::default(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |what: &str| {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs {what}"))
        };
        fn number<T: std::str::FromStr>(option: &str, text: &str) -> Result<T, String> {
            text.parse()
                .map_err(|_| format!("{option}: bad number {text:?}"))
        }
        let settings = &mut options.settings;
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--protocol" => {
                options.protocol = Some(Protocol::from_name(&value("nboard, gtp or ugi")?)?)
            }
            "--game" => options.game = value("a game name")?,
            "--depth" => {
                settings.depth = Some(ranged(arg, &value("a depth")?, &DEPTH)?);
                settings.level = None;
            }
            "--level" => {
                let level = ranged(arg, &value("a level")?, &LEVEL)?;
                settings.depth = Some(options::level(level).depth);
                settings.level = Some(level);
            }
            "--nodes" => settings.nodes = Some(ranged(arg, &value("a node count")?, &NODES)?),
            "--movetime" => {
                let ms = ranged(arg, &value("milliseconds")?, &MOVETIME_MS)?;
                settings.movetime = Some(Duration::from_millis(ms));
            }
            "--hash" => settings.hash_mb = Some(ranged(arg, &value("megabytes")?, &HASH_MB)?),
            "--threads" => {
                settings.threads = Some(ranged(arg, &value("a thread count")?, &THREADS)?)
            }
            "--seed" => settings.seed = Some(number(arg, &value("a number")?)?),
            "--eval" => settings.eval = Some(value("an evaluator name")?),
            "--contempt" => settings.contempt = ranged(arg, &value("a number")?, &CONTEMPT)?,
            "--book" => settings.book = BookChoice::from_arg(&value("a path or none")?),
            "--player" => {
                settings.player = match value("search or random")?.as_str() {
                    "search" => Player::Search,
                    "random" => Player::Random,
                    other => {
                        return Err(format!(
                            "--player: unknown player {other:?} (search or random)"
                        ));
                    }
                }
            }
            _ => {
                return Err(format!(
                    "unknown option or subcommand {arg:?} (try `iago help`)"
                ));
            }
        }
    }
    Ok(Some(options))
}

/// Runs the engine with command-line options `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = parse_args(args)? else {
        write(format_args!("{HELP}\n{OPTIONS_HELP}\n"))?;
        return Ok(());
    };
    Ok(protocol::run(
        options.protocol,
        &options.game,
        options.settings,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn options() {
        let options = parse_args(&args(
            "--protocol gtp --depth 4 --book none --player random --seed 3",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(options.protocol, Some(Protocol::Gtp));
        let ugi = parse_args(&args("--protocol ugi")).unwrap().unwrap();
        assert_eq!(ugi.protocol, Some(Protocol::Ugi));
        assert_eq!(options.settings.depth, Some(4));
        assert_eq!(options.settings.book, BookChoice::None);
        assert_eq!(options.settings.player, Player::Random);
        assert_eq!(options.settings.seed, Some(3));
        for (bad, message) in [
            ("--depth 100", "--depth 100: depth must be between 1 and 64"),
            (
                "--hash 5000",
                "--hash 5000: hash must be between 1 and 4096 MB",
            ),
            (
                "--threads 0",
                "--threads 0: threads must be between 1 and 1024",
            ),
            (
                "--movetime 0",
                "--movetime 0: movetime must be between 1 and 86400000 ms",
            ),
            (
                "--contempt 7000",
                "--contempt 7000: contempt must be between -6400 and 6400",
            ),
            ("--depth x", "--depth: \"x\" is not a valid number"),
        ] {
            assert_eq!(parse_args(&args(bad)), Err(message.to_string()), "{bad}");
        }
        for bad in [
            "--depth 0",
            "--depth",
            "--protocol uci",
            "--protocol",
            "--player god",
            "--nodes x",
            "extra",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }
}
