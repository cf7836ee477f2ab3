//! Engine mode: reads protocol commands on stdin and answers on stdout.

use std::io::IsTerminal;

use iago::cli::out::{Failure, write};

use std::error::Error as _;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, Command};

use iago::cli::args;
use iago_core::games;
use iago_core::options::{self, ENGINE_OPTIONS, Settings};
use iago_core::protocol::{self, Protocol};

const HELP: &str = "usage: iago [ENGINE OPTIONS]

Runs the engine on stdin/stdout. The protocol is NBoard when the first command is
`nboard ...`, UGI when it is `ugi`, GTP otherwise (see protocol.md). Logs go to stderr (RUST_LOG=info).
";

/// Where the help's descriptions start, and how wide its lines are.
const HELP_COLUMN: usize = 25;
const HELP_WIDTH: usize = 89;

/// The engine's options, for `iago --help` and `iago help`: the protocol and the game,
/// then every engine option of the table in `options.rs`.
pub fn options_help() -> String {
    let mut entries = vec![
        (
            "--protocol nboard|gtp|ugi".to_string(),
            "speak this protocol whatever the first command".to_string(),
        ),
        (
            "--game NAME".to_string(),
            format!("the game: {} (the first is the default)", games::ids()),
        ),
    ];
    entries.extend(ENGINE_OPTIONS.iter().map(|option| {
        (
            format!("{} {}", option.flag, option.argument),
            option.help.to_string(),
        )
    }));
    entries.push(("-h, --help".into(), "print this help".into()));
    let mut text = String::from("Engine options:");
    for (usage, help) in entries {
        text.push_str(&format!("\n  {usage:<width$}", width = HELP_COLUMN - 3));
        if usage.len() > HELP_COLUMN - 3 {
            text.push_str(&format!("\n{:HELP_COLUMN$}", ""));
        } else {
            text.push(' ');
        }
        let mut column = HELP_COLUMN;
        for (index, word) in help.split_whitespace().enumerate() {
            if index > 0 && column + 1 + word.len() > HELP_WIDTH {
                text.push_str(&format!("\n{:HELP_COLUMN$}", ""));
                column = HELP_COLUMN;
            } else if index > 0 {
                text.push(' ');
                column += 1;
            }
            text.push_str(word);
            column += word.len();
        }
    }
    text
}

/// The line on stderr for a person who started the engine at a terminal.
fn greeting(options: &Options) -> String {
    let protocols = match options.protocol {
        Some(Protocol::NBoard) => "NBoard commands (see protocol.md)".to_string(),
        Some(Protocol::Ugi) => "UGI commands (`ugi` first; see protocol.md)".to_string(),
        _ => "GTP commands (`help` lists them, `quit` ends), or `nboard 2` or `ugi` first \
              for those protocols (protocol.md)"
            .to_string(),
    };
    format!(
        "iago {} plays {}: type {protocols}; `iago help` lists the subcommands",
        env!("CARGO_PKG_VERSION"),
        options.game
    )
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
struct Options {
    protocol: Option<Protocol>,
    game: String,
    settings: Settings,
}

/// The engine's command line: the protocol, the game and every option of the table.
fn command() -> Command {
    Command::new("iago")
        .no_binary_name(true)
        .disable_help_flag(true)
        .disable_version_flag(true)
        .args_override_self(true)
        .arg(
            Arg::new("help")
                .short('h')
                .long("help")
                .action(ArgAction::SetTrue),
        )
        .arg(Arg::new("protocol").long("protocol"))
        .arg(Arg::new("game").long("game"))
        .args(ENGINE_OPTIONS.iter().map(args::engine_arg))
}

/// The command line's options; `None` when help was asked for.
fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let matches = command()
        .try_get_matches_from(args)
        .map_err(|error| error_text(&error))?;
    if matches.get_flag("help") {
        return Ok(None);
    }
    let protocol = match matches.get_one::<String>("protocol") {
        Some(name) => Some(Protocol::from_name(name)?),
        None => None,
    };
    let game =
        (matches.get_one::<String>("game").cloned()).unwrap_or_else(|| games::GAMES[0].id.into());
    Ok(Some(Options {
        protocol,
        game,
        settings: args::settings_of(&matches, ENGINE_OPTIONS.iter()),
    }))
}

/// The errors of the engine's command line, in the words the options table gives.
fn error_text(error: &clap::Error) -> String {
    let context = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => text.clone(),
        _ => String::new(),
    };
    let arg = context(ContextKind::InvalidArg);
    let flag = arg.split(' ').next().unwrap_or_default();
    let value = context(ContextKind::InvalidValue);
    let refused = (error.source()).and_then(|source| source.downcast_ref::<args::Refusal>());
    match (error.kind(), refused) {
        (ErrorKind::InvalidValue, _) if value.is_empty() => {
            let what = options::by_flag(flag).map_or("a value", |option| option.argument);
            format!("{flag} needs {what}")
        }
        (_, Some(args::Refusal::Refused(refused))) => refused.on_command_line(flag, &value),
        _ => format!("unknown option or subcommand {flag:?} (try `iago help`)"),
    }
}

/// Runs the engine with command-line options `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = parse_args(args)? else {
        write(format_args!("{HELP}\n{}\n", options_help()))?;
        return Ok(());
    };
    // A person at a terminal gets a word of what to type; a GUI or a pipe sees nothing
    // new (and stdout, the protocol's, nothing at all).
    if std::io::stdin().is_terminal() {
        eprintln!("{}", greeting(&options));
    }
    Ok(protocol::run(
        options.protocol,
        &options.game,
        options.settings,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use iago_core::options::BookChoice;
    use iago_core::options::Player;

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
        // A limit of 0 or none is no limit, as in every protocol.
        let none = parse_args(&args("--depth 0 --movetime none --level 0"))
            .unwrap()
            .unwrap();
        assert_eq!(none.settings, Settings::default());
        // A level stands for the depth; a later plain depth replaces it.
        let level = parse_args(&args("--depth 4 --level 8")).unwrap().unwrap();
        assert_eq!(level.settings.depth(), Some(8));
        let depth = parse_args(&args("--level 8 --depth 4")).unwrap().unwrap();
        assert_eq!(
            (depth.settings.depth(), depth.settings.level),
            (Some(4), None)
        );
        for (bad, message) in [
            (
                "--depth 100",
                "--depth 100: depth must be between 1 and 64, or 0 or none for no limit",
            ),
            (
                "--hash 5000",
                "--hash 5000: hash must be between 1 and 4096 MB",
            ),
            (
                "--threads 0",
                "--threads 0: threads must be between 1 and 1024",
            ),
            (
                "--movetime 100000000",
                "--movetime 100000000: movetime must be between 1 and 86400000 ms, or 0 or none \
                 for no limit",
            ),
            (
                "--contempt 7000",
                "--contempt 7000: contempt must be between -6400 and 6400",
            ),
            ("--depth x", "--depth: \"x\" is not a valid number"),
            (
                "--seed x",
                "--seed: expected a whole number or none, got \"x\"",
            ),
        ] {
            assert_eq!(parse_args(&args(bad)), Err(message.to_string()), "{bad}");
        }
        for bad in [
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

    #[test]
    fn the_help_lists_every_option_of_the_table() {
        let help = options_help();
        for option in ENGINE_OPTIONS {
            assert!(
                help.contains(&format!("  {} {}", option.flag, option.argument)),
                "{}",
                option.flag
            );
        }
        assert!(help.lines().all(|line| line.len() <= HELP_WIDTH), "{help}");
    }
}
