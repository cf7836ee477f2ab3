//! Reading a subcommand's command line: every subcommand reports a missing value, a bad
//! number or an unknown option in the same words.

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use iago_core::options::{Range, Refused};

/// The value `text` of `option`, one of the engine's options (see [`iago_core::options`]):
/// out of range, the error states the range in the words the protocols use.
pub fn ranged<T>(option: &str, text: &str, range: &Range<T>) -> Result<T, String>
where
    T: Copy + PartialOrd + Display + FromStr,
{
    range
        .parse(text)
        .map_err(|refused| refused_text(option, text, refused))
}

/// The error of a command-line `option` whose value `text` was refused.
pub fn refused_text(option: &str, text: &str, refused: Refused) -> String {
    refused.on_command_line(option, text)
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

/// The words after a subcommand's name, taken one at a time.
pub struct Args<'a> {
    command: &'static str,
    words: std::slice::Iter<'a, String>,
}

impl<'a> Args<'a> {
    /// The words of `iago COMMAND WORDS...`.
    pub fn new(command: &'static str, words: &'a [String]) -> Args<'a> {
        Args {
            command,
            words: words.iter(),
        }
    }

    /// The value that follows `option`.
    pub fn value(&mut self, option: &str) -> Result<String, String> {
        self.words
            .next()
            .cloned()
            .ok_or_else(|| format!("{}: {option} needs a value", self.command))
    }

    /// The value that follows `option`, as a number.
    pub fn number<T: FromStr>(&mut self, option: &str) -> Result<T, String> {
        let text = self.value(option)?;
        text.parse()
            .map_err(|_| format!("{}: {option}: {text:?} is not a valid number", self.command))
    }

    /// The value that follows `option`, one of the engine's options: out of range, the
    /// error states the range.
    pub fn ranged<T>(&mut self, option: &str, range: &Range<T>) -> Result<T, String>
    where
        T: Copy + PartialOrd + Display + FromStr,
    {
        let text = self.value(option)?;
        ranged(option, &text, range).map_err(|error| format!("{}: {error}", self.command))
    }

    /// The error for an option the subcommand does not have.
    pub fn unknown(&self, option: &str) -> String {
        format!(
            "{0}: unknown option {option:?} (try `iago {0} --help`)",
            self.command
        )
    }
}

impl<'a> Iterator for Args<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        self.words.next().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::Args;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn values_numbers_and_errors_name_the_command_and_the_option() {
        let line = words(&[
            "--depth", "12", "--eval", "pattern", "--nodes", "x", "--hash",
        ]);
        let mut args = Args::new("bench", &line);
        assert_eq!(args.next(), Some("--depth"));
        assert_eq!(args.number::<u32>("--depth"), Ok(12));
        assert_eq!(args.next(), Some("--eval"));
        assert_eq!(args.value("--eval").as_deref(), Ok("pattern"));
        assert_eq!(args.next(), Some("--nodes"));
        assert_eq!(
            args.number::<u64>("--nodes"),
            Err("bench: --nodes: \"x\" is not a valid number".to_string())
        );
        assert_eq!(args.next(), Some("--hash"));
        assert_eq!(
            args.value("--hash"),
            Err("bench: --hash needs a value".to_string())
        );
        assert_eq!(args.next(), None);
        let line = words(&["--depth", "200", "--depth", "x", "--hash", "64"]);
        let mut args = Args::new("bench", &line);
        args.next();
        assert_eq!(
            args.ranged("--depth", &iago_core::options::DEPTH),
            Err("bench: --depth 200: depth must be between 1 and 64".to_string())
        );
        args.next();
        assert_eq!(
            args.ranged("--depth", &iago_core::options::DEPTH),
            Err("bench: --depth: \"x\" is not a valid number".to_string())
        );
        args.next();
        assert_eq!(args.ranged("--hash", &iago_core::options::HASH_MB), Ok(64));
        assert_eq!(
            args.unknown("--fast"),
            "bench: unknown option \"--fast\" (try `iago bench --help`)"
        );
    }

    #[test]
    fn options_and_position_strings_starting_with_dashes() {
        for option in ["-h", "--depth", "--no-such-thing", "-x"] {
            assert!(super::is_option(option), "{option}");
        }
        let start = "---------------------------OX------XO--------------------------- X";
        for game in [
            start,
            "-",
            "---",
            "f5d6",
            &start.to_lowercase().replace(' ', ""),
        ] {
            assert!(!super::is_option(game), "{game}");
        }
    }
}
