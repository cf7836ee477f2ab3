//! Reading a subcommand's command line, with clap: each subcommand declares its options
//! as a struct (`#[derive(Parser)]`), its help is `iago SUBCOMMAND --help` (or `iago help
//! SUBCOMMAND`) on stdout, and every subcommand reports a missing value, a bad number or
//! an unknown option in the same words, on stderr with exit status 2. The engine's
//! options (`--hash`, `--threads`, `--eval`, ...) come from the one options table
//! (`iago_core::options::ENGINE_OPTIONS`): their flags, help lines and readers.

use std::error::Error;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, Parser};

use super::out::{Failure, write};
use iago_core::engine::EngineGame;
use iago_core::options::{self, EngineOption, Range, Refused, Settings};
use iago_core::search::{OrderingRules, Searcher};

/// The options of `iago COMMAND ARGS...`; `None` when help was asked for (and printed).
pub fn parse<T: Parser>(command: &str, args: &[String]) -> Result<Option<T>, Failure> {
    let words = std::iter::once(format!("iago {command}")).chain(args.iter().cloned());
    let matches = T::command()
        .bin_name(format!("iago {command}"))
        .help_template(HELP_TEMPLATE)
        .term_width(HELP_WIDTH)
        .args_override_self(true)
        .allow_negative_numbers(true)
        .try_get_matches_from(words);
    let parsed = matches.and_then(|matches| T::from_arg_matches(&matches));
    match parsed {
        Ok(options) => Ok(Some(options)),
        Err(error) if error.kind() == ErrorKind::DisplayHelp => {
            write(format_args!("{}", error.render()))?;
            Ok(None)
        }
        Err(error) => Err(Failure::Error(error_text(command, &error))),
    }
}

/// How wide the help's lines are, as the engine's own help.
const HELP_WIDTH: usize = 89;

/// Every subcommand's help: the usage line first, as the engine's own help has it.
pub const HELP_TEMPLATE: &str = "usage: {usage}\n\n{about-with-newline}\n{all-args}{after-help}";

/// [`parse`] for a subcommand whose arguments may start with dashes (a position string's
/// empty squares, `-` for stdin) and may come between its options: the words that are
/// not its options and that `is_argument` takes for one are its arguments, in order.
pub fn parse_mixed<T: Parser>(
    command: &str,
    args: &[String],
    is_argument: impl Fn(&str) -> bool,
) -> Result<Option<T>, Failure> {
    let known = T::command();
    let mut options = Vec::new();
    let mut arguments = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let option = (word.strip_prefix("--")).and_then(|long| {
            known
                .get_arguments()
                .find(|arg| arg.get_long() == Some(long))
        });
        match option {
            Some(option) => {
                options.push(word.clone());
                if option.get_action().takes_values() {
                    options.extend(words.next().cloned());
                }
            }
            None if is_argument(word) => arguments.push(word.clone()),
            None => options.push(word.clone()),
        }
    }
    options.push("--".into());
    options.extend(arguments);
    parse::<T>(command, &options)
}

/// A refused value, as a value parser reports it: the option and the value are added
/// when the error is worded ([`error_text`]).
#[derive(Debug)]
pub enum Refusal {
    /// As the options table refuses a value.
    Refused(Refused),
    /// Not a value of this kind: `"x" is not a positive number of seconds`.
    Not(&'static str),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Refused(refused) => write!(f, "{refused:?}"),
            Refusal::Not(what) => write!(f, "not {what}"),
        }
    }
}

impl Error for Refusal {}

/// clap's error in the words of every subcommand: `bench: --depth: "x" is not a valid
/// number`, `solve: --hash needs a value`, `openings: unknown option "--bogus" (try
/// `iago openings --help`)`.
fn error_text(command: &str, error: &clap::Error) -> String {
    let context = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.clone()),
        Some(ContextValue::Strings(list)) => Some(list.join(", ")),
        _ => None,
    };
    // `--depth <N>` is the option `--depth`; `<DEPTH>` the argument `DEPTH`.
    let arg = context(ContextKind::InvalidArg).map(|arg| {
        let name = arg.split([' ', '=']).next().unwrap_or(&arg);
        name.trim_matches(['<', '>', '.']).to_string()
    });
    let value = context(ContextKind::InvalidValue).unwrap_or_default();
    let refusal = error
        .source()
        .and_then(|source| source.downcast_ref::<Refusal>());
    let text = match (error.kind(), arg, refusal) {
        (ErrorKind::UnknownArgument, Some(arg), _) if arg.starts_with('-') => {
            format!("unknown option {arg:?} (try `iago {command} --help`)")
        }
        (ErrorKind::UnknownArgument, Some(arg), _) => format!("unexpected argument {arg:?}"),
        (ErrorKind::InvalidValue, Some(arg), _) if value.is_empty() => {
            format!("{arg} needs a value")
        }
        (ErrorKind::MissingRequiredArgument, Some(arg), _) => {
            format!("missing {arg} (try `iago {command} --help`)")
        }
        (
            ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand,
            ..,
        ) => {
            format!("expected a subcommand (try `iago {command} --help`)")
        }
        (ErrorKind::InvalidSubcommand, ..) => {
            let name = context(ContextKind::InvalidSubcommand).unwrap_or_default();
            format!("unknown subcommand {name:?} (try `iago {command} --help`)")
        }
        (_, Some(arg), Some(Refusal::Refused(refused))) => refused.on_command_line(&arg, &value),
        (_, Some(arg), Some(Refusal::Not(what))) => format!("{arg}: {value:?} is not {what}"),
        (ErrorKind::ValueValidation, Some(arg), None) => match error.source() {
            Some(source) => format!("{arg} {value}: {source}"),
            None => format!("{arg}: {value:?} is refused"),
        },
        _ => {
            // clap's own words for the rest (a missing argument, two that conflict), on
            // one line.
            let rendered = error.render().to_string();
            let first = rendered.lines().next().unwrap_or_default();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            format!("{first} (try `iago {command} --help`)")
        }
    };
    format!("{command}: {text}")
}

/// A value parser of numbers of type `T`.
pub fn number<T: FromStr>(text: &str) -> Result<T, Refusal> {
    text.trim()
        .parse()
        .map_err(|_| Refusal::Refused(Refused::NotANumber))
}

/// A value parser of numbers of `range` (one of the options table's): out of it, the
/// error states the range.
pub fn ranged<T>(range: &'static Range<T>) -> impl Fn(&str) -> Result<T, Refusal> + Clone
where
    T: Copy + PartialOrd + fmt::Display + FromStr + Send + Sync + 'static,
{
    move |text| range.parse(text).map_err(Refusal::Refused)
}

/// A value parser of a positive number of seconds (`2.5`).
pub fn seconds(text: &str) -> Result<std::time::Duration, Refusal> {
    let value: f64 = number(text)?;
    std::time::Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or(Refusal::Not("a positive number of seconds"))
}

/// The engine options a subcommand takes, each a row of the options table: its flag,
/// argument and help line, and its reader into the [`Settings`]. `FLAGS` names the rows.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions<F: Flags> {
    pub settings: Settings,
    flags: std::marker::PhantomData<F>,
}

/// Which rows of the options table a subcommand takes (`--hash`, `--threads`, ...).
pub trait Flags: Clone + Default + Send + Sync + 'static {
    const FLAGS: &'static [&'static str];
}

fn row(flag: &str) -> &'static EngineOption {
    options::by_flag(flag).unwrap_or_else(|| panic!("{flag} is no engine option"))
}

/// The argument of a row: its value is checked by the row's reader.
pub fn engine_arg(option: &'static EngineOption) -> Arg {
    let long = option.flag.trim_start_matches('-');
    Arg::new(option.name)
        .long(long)
        .value_name(option.argument)
        .help(option.help)
        .action(ArgAction::Set)
        .value_parser(move |text: &str| {
            (option.set)(&mut Settings::default(), text)
                .map(|()| text.to_string())
                .map_err(Refusal::Refused)
        })
}

impl<F: Flags> Args for EngineOptions<F> {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.args(F::FLAGS.iter().map(|flag| engine_arg(row(flag))))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// The settings the rows `options` give in `matches` ([`engine_arg`]'s), read in the
/// order given: a later `--depth` replaces an earlier `--level`.
pub fn settings_of<'a>(
    matches: &ArgMatches,
    options: impl Iterator<Item = &'a EngineOption>,
) -> Settings {
    let mut given: Vec<(usize, &EngineOption, &String)> = Vec::new();
    for option in options {
        if let (Some(index), Some(value)) = (
            matches.index_of(option.name),
            matches.get_one::<String>(option.name),
        ) {
            given.push((index, option, value));
        }
    }
    given.sort_by_key(|(index, _, _)| *index);
    let mut settings = Settings::default();
    for (_, option, value) in given {
        // Checked when parsed.
        let _ = (option.set)(&mut settings, value);
    }
    settings
}

impl<F: Flags> FromArgMatches for EngineOptions<F> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(EngineOptions {
            settings: settings_of(matches, F::FLAGS.iter().map(|flag| row(flag))),
            flags: std::marker::PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// A searcher of `G` for a subcommand, as the engine options `settings` ask: the
/// evaluator (the game's default for none), the table size and the threads; its tables
/// allocated now, so that a size that cannot be had is an error before any search.
pub fn searcher<G: EngineGame>(
    command: &str,
    settings: &Settings,
    rules: OrderingRules,
) -> Result<Searcher<G>, String> {
    let default = G::evaluator_names().first().copied().unwrap_or("default");
    let eval = settings.eval.as_deref().unwrap_or(default);
    let mut searcher = Searcher::new(G::evaluator(eval)?);
    let hash_mb = settings
        .hash_mb
        .unwrap_or(iago_core::search::DEFAULT_HASH_MB);
    searcher.set_hash_mb(hash_mb);
    searcher.set_ordering(rules);
    searcher.set_threads(settings.threads.unwrap_or(1));
    searcher
        .allocate_tables()
        .map_err(|e| format!("{command}: --hash {hash_mb}: {e}"))?;
    Ok(searcher)
}

/// Whether `arg` is meant as an option (`-h`, `--depth`): a position string may start
/// with dashes too, its empty squares, but it is longer and has discs or spaces.
pub fn is_option(arg: &str) -> bool {
    let name = arg.trim_start_matches('-');
    let dashes = arg.len() - name.len();
    (1..=2).contains(&dashes)
        && arg.len() < 30
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The files a tool reads besides the ones it is named, for [`refuse_input_as_output`]:
/// the weights of an evaluator `pattern:FILE`.
///
/// [`refuse_input_as_output`]: iago_core::files::refuse_input_as_output
pub fn evaluator_file(name: &str) -> Option<PathBuf> {
    name.strip_prefix("pattern:").map(PathBuf::from)
}

/// The files of a WTHOR folder that a tool reads (`*.wtb`), for the same check.
pub fn wthor_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("wtb"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A subcommand of a test: a number, a ranged number and two engine options.
    #[derive(Parser, Debug)]
    struct Bench {
        #[arg(long, value_parser = number::<u32>)]
        games: Option<u32>,
        #[arg(long, value_parser = ranged(&options::DEPTH))]
        depth: Option<u32>,
        #[command(flatten)]
        engine: EngineOptions<HashThreads>,
    }

    #[derive(Clone, Debug, Default)]
    struct HashThreads;

    impl Flags for HashThreads {
        const FLAGS: &'static [&'static str] = &["--hash", "--threads", "--level", "--nodes"];
    }

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    fn error(text: &str) -> String {
        match parse::<Bench>("bench", &words(text)) {
            Err(Failure::Error(message)) => message,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn values_numbers_and_errors_name_the_command_and_the_option() {
        let bench = parse::<Bench>("bench", &words("--games 3 --hash 16 --level 4 --depth 9"))
            .unwrap()
            .unwrap();
        assert_eq!((bench.games, bench.depth), (Some(3), Some(9)));
        assert_eq!(bench.engine.settings.hash_mb, Some(16));
        assert_eq!(bench.engine.settings.depth(), Some(4));
        // The last of an option given twice counts.
        let again = parse::<Bench>("bench", &words("--games 3 --games 4"))
            .unwrap()
            .unwrap();
        assert_eq!(again.games, Some(4));
        assert_eq!(
            error("--games x"),
            "bench: --games: \"x\" is not a valid number"
        );
        assert_eq!(error("--hash"), "bench: --hash needs a value");
        assert_eq!(
            error("--depth 200"),
            "bench: --depth 200: depth must be between 1 and 64"
        );
        assert_eq!(
            error("--threads 0"),
            "bench: --threads 0: threads must be between 1 and 1024"
        );
        assert_eq!(
            error("--fast"),
            "bench: unknown option \"--fast\" (try `iago bench --help`)"
        );
        assert!(parse::<Bench>("bench", &words("--help")).unwrap().is_none());
    }

    #[test]
    fn options_and_position_strings_starting_with_dashes() {
        for option in ["-h", "--depth", "--no-such-thing", "-x"] {
            assert!(is_option(option), "{option}");
        }
        let start = "---------------------------OX------XO--------------------------- X";
        for game in [
            start,
            "-",
            "---",
            "f5d6",
            &start.to_lowercase().replace(' ', ""),
        ] {
            assert!(!is_option(game), "{game}");
        }
    }
}
