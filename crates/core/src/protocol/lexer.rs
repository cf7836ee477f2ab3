//! Reading command lines: the input thread (bounded lines, checked UTF-8) and the nom
//! token parsers every protocol builds its command grammar from.

use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::str::FromStr;
use std::sync::mpsc::SyncSender;

use nom::IResult;
use nom::Parser;
use nom::bytes::complete::take_till1;
use nom::character::complete::space0;
use nom::combinator::{all_consuming, map_res};
use nom::sequence::preceded;

use super::Event;
use crate::options::{EngineOption, Range, Refused, Settings};

/// Longest accepted line in bytes; a game record of 60 moves with evals and times is
/// about 3 KB, so this leaves ample room while bounding memory.
pub const MAX_LINE: usize = 64 * 1024;

/// A line that could not be read as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Longer than [`MAX_LINE`] bytes (the whole line is dropped).
    TooLong(usize),
    InvalidUtf8,
    /// A NUL byte: never part of a command.
    Nul,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::TooLong(bytes) => {
                write!(f, "line too long ({bytes} bytes, at most {MAX_LINE})")
            }
            InputError::InvalidUtf8 => f.write_str("line is not valid UTF-8"),
            InputError::Nul => f.write_str("line contains a NUL byte"),
        }
    }
}

/// Reads `input` line by line on the calling thread, sending each line (or why it could
/// not be read) and finally [`Event::End`]. Stops when the receiver is gone.
pub fn read_lines(input: impl Read, events: SyncSender<Event>) {
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut line: Vec<u8> = Vec::new();
    let mut dropped = 0usize;
    loop {
        let (done, used) = match reader.fill_buf() {
            Ok([]) => (true, 0),
            Ok(buffer) => match buffer.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    take(&mut line, &mut dropped, &buffer[..end]);
                    let item = finish_line(&mut line, &mut dropped);
                    if events.send(Event::Line(item)).is_err() {
                        return;
                    }
                    (false, end + 1)
                }
                None => {
                    take(&mut line, &mut dropped, buffer);
                    (false, buffer.len())
                }
            },
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => (false, 0),
            Err(error) => {
                log::warn!("reading input: {error}");
                (true, 0)
            }
        };
        reader.consume(used);
        if done {
            if !line.is_empty() || dropped > 0 {
                let item = finish_line(&mut line, &mut dropped);
                let _ = events.send(Event::Line(item));
            }
            let _ = events.send(Event::End);
            return;
        }
    }
}

/// Appends `bytes` to the line, or counts them once the line is over the limit.
fn take(line: &mut Vec<u8>, dropped: &mut usize, bytes: &[u8]) {
    if *dropped == 0 && line.len() + bytes.len() <= MAX_LINE {
        line.extend_from_slice(bytes);
    } else {
        *dropped += line.len() + bytes.len();
        line.clear();
    }
}

fn finish_line(line: &mut Vec<u8>, dropped: &mut usize) -> Result<String, InputError> {
    let bytes = std::mem::take(line);
    let too_long = std::mem::take(dropped);
    if too_long > 0 {
        return Err(InputError::TooLong(too_long));
    }
    if bytes.contains(&0) {
        return Err(InputError::Nul);
    }
    let mut text = String::from_utf8(bytes).map_err(|_| InputError::InvalidUtf8)?;
    if text.ends_with('\r') {
        text.pop();
    }
    Ok(text)
}

/// Why a command line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The command name is not known.
    Unknown(String),
    /// A known command with bad arguments.
    Syntax { command: String, message: String },
    /// A number outside its option's range; the message states the range.
    OutOfRange { command: String, message: String },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(name) => write!(f, "unknown command {:?}", shorten(name)),
            ParseError::Syntax { command, message }
            | ParseError::OutOfRange { command, message } => write!(f, "{command}: {message}"),
        }
    }
}

/// A syntax error of `command`.
pub fn syntax(command: &str, message: impl Into<String>) -> ParseError {
    ParseError::Syntax {
        command: command.to_string(),
        message: message.into(),
    }
}

/// One whitespace-separated word.
pub fn word(input: &str) -> IResult<&str, &str> {
    preceded(space0, take_till1(|c: char| c.is_whitespace())).parse(input)
}

/// Splits a line into its first word and the rest.
pub fn command_word(line: &str) -> Option<(&str, &str)> {
    match word(line) {
        Ok((rest, name)) => Some((name, rest)),
        Err(_) => None,
    }
}

/// A word read with `FromStr`.
pub fn value<T: FromStr>(input: &str) -> IResult<&str, T> {
    map_res(word, str::parse::<T>).parse(input)
}

/// Exactly one value of type `T` and nothing else.
pub fn single<T: FromStr>(command: &str, args: &str, what: &str) -> Result<T, ParseError> {
    all_consuming(preceded(space0, (value::<T>, space0)))
        .parse(args)
        .map(|(_, (v, _))| v)
        .map_err(|_| {
            syntax(
                command,
                format!("expected {what}, got {:?}", shorten(args.trim())),
            )
        })
}

/// The one value of an option (see [`crate::options`]): out of its range, the error
/// states the range; not a single number, it is a syntax error.
pub fn option<T>(command: &str, args: &str, range: &Range<T>) -> Result<T, ParseError>
where
    T: Copy + PartialOrd + fmt::Display + FromStr,
{
    let words = words(args);
    let refused = match words[..] {
        [word] => match range.parse(word) {
            Ok(value) => return Ok(value),
            Err(refused) => refused,
        },
        _ => Refused::NotANumber,
    };
    Err(match refused {
        Refused::OutOfRange(message) => ParseError::OutOfRange {
            command: command.to_string(),
            message,
        },
        Refused::NotANumber => syntax(
            command,
            format!("expected a number, got {:?}", shorten(args.trim())),
        ),
        Refused::Expected(what) => syntax(
            command,
            format!("expected {what}, got {:?}", shorten(args.trim())),
        ),
    })
}

/// An optional limit: a value of the option, or `0` or `none` for no limit (which its
/// range error says too).
pub fn optional<T>(command: &str, args: &str, range: &Range<T>) -> Result<Option<T>, ParseError>
where
    T: Copy + PartialOrd + fmt::Display + FromStr + Default,
{
    let text = args.trim();
    if text.eq_ignore_ascii_case("none") || text.parse::<T>().is_ok_and(|v| v == T::default()) {
        return Ok(None);
    }
    option(command, args, range)
        .map(Some)
        .map_err(|error| match error {
            ParseError::OutOfRange { command, message } => ParseError::OutOfRange {
                command,
                message: format!("{message}, or 0 or none for no limit"),
            },
            other => other,
        })
}

/// The value of an engine option as `command` gives it, checked as the option reads it
/// (against a default setting; the engine applies it later): a value that is not one is
/// a syntax error, one out of the option's range an error that states the range.
pub fn setting(command: &str, args: &str, option: &EngineOption) -> Result<String, ParseError> {
    let value = args.trim();
    match (option.set)(&mut Settings::default(), value) {
        Ok(()) => Ok(value.to_string()),
        Err(Refused::OutOfRange(message)) => Err(ParseError::OutOfRange {
            command: command.to_string(),
            message,
        }),
        Err(Refused::NotANumber) => Err(syntax(
            command,
            format!("expected a number, got {:?}", shorten(value)),
        )),
        Err(Refused::Expected(what)) => Err(syntax(
            command,
            format!("expected {what}, got {:?}", shorten(value)),
        )),
    }
}

/// No arguments at all.
pub fn none(command: &str, args: &str) -> Result<(), ParseError> {
    if args.trim().is_empty() {
        Ok(())
    } else {
        Err(syntax(
            command,
            format!("takes no arguments, got {:?}", shorten(args.trim())),
        ))
    }
}

/// All the words of `args`.
pub fn words(args: &str) -> Vec<&str> {
    nom::multi::many0(word)
        .parse(args)
        .map(|(_, words)| words)
        .unwrap_or_default()
}

/// The longest time read, in seconds (about a year).
pub const MAX_SECONDS: f64 = 3.2e7;

/// A time in seconds, fractions allowed (`1.5`, `0.734`): not a number, it is a syntax
/// error; negative or over [`MAX_SECONDS`], an error that states the range.
pub fn seconds(command: &str, text: &str) -> Result<std::time::Duration, ParseError> {
    let value: f64 = text
        .parse()
        .ok()
        .filter(|value: &f64| !value.is_nan())
        .ok_or_else(|| syntax(command, format!("not a time: {:?}", shorten(text))))?;
    if !(0.0..=MAX_SECONDS).contains(&value) {
        return Err(ParseError::OutOfRange {
            command: command.to_string(),
            message: format!("time must be between 0 and {MAX_SECONDS} seconds"),
        });
    }
    Ok(std::time::Duration::from_secs_f64(value))
}

/// `text` cut for an error message.
pub fn shorten(text: &str) -> String {
    crate::text::shorten(text, 40)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::sync_channel;

    fn lines_of(bytes: &[u8]) -> Vec<Event> {
        let (tx, rx) = sync_channel(1024);
        read_lines(bytes, tx);
        rx.into_iter().collect()
    }

    #[test]
    fn lines_errors_and_end() {
        let mut input = b"ping 1\r\nbad \xff\nnul\0\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend(b"\nlast");
        let events = lines_of(&input);
        assert_eq!(
            events,
            vec![
                Event::Line(Ok("ping 1".into())),
                Event::Line(Err(InputError::InvalidUtf8)),
                Event::Line(Err(InputError::Nul)),
                Event::Line(Err(InputError::TooLong(MAX_LINE + 10))),
                Event::Line(Ok("last".into())),
                Event::End,
            ]
        );
    }

    #[test]
    fn tokens() {
        assert_eq!(command_word("  go  now"), Some(("go", "  now")));
        assert_eq!(command_word("   "), None);
        assert_eq!(single::<u32>("hint", " 4 ", "a number"), Ok(4));
        assert!(single::<u32>("hint", " 4 5", "a number").is_err());
        assert!(single::<u32>("hint", "", "a number").is_err());
        assert_eq!(words(" a  b\tc "), vec!["a", "b", "c"]);
        assert_eq!(
            seconds("time_left", "1.5"),
            Ok(std::time::Duration::from_millis(1500))
        );
        assert_eq!(seconds("time_left", "-0"), Ok(std::time::Duration::ZERO));
        let range = Err(ParseError::OutOfRange {
            command: "time_left".into(),
            message: "time must be between 0 and 32000000 seconds".into(),
        });
        for text in ["-1", "-0.5", "1e308", "inf", "32000000.5"] {
            assert_eq!(seconds("time_left", text), range, "{text}");
        }
        for text in ["x", "", "nan", "1.5s"] {
            assert!(
                matches!(seconds("time_left", text), Err(ParseError::Syntax { .. })),
                "{text}"
            );
        }
    }

    #[test]
    fn options_state_their_range() {
        use crate::options::{DEPTH, NODES};
        assert_eq!(option("set_depth", " 12 ", &DEPTH), Ok(12));
        let range = |message: &str| {
            Err(ParseError::OutOfRange {
                command: "set_depth".into(),
                message: message.into(),
            })
        };
        assert_eq!(
            option("set_depth", "65", &DEPTH),
            range("depth must be between 1 and 64")
        );
        assert_eq!(
            option("set_depth", "-1", &DEPTH),
            range("depth must be between 1 and 64")
        );
        assert!(matches!(
            option("set_depth", "x", &DEPTH),
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(
            option("set_depth", "3 4", &DEPTH),
            Err(ParseError::Syntax { .. })
        ));
        assert_eq!(optional("set_nodes", "none", &NODES), Ok(None));
        assert_eq!(optional("set_nodes", "0", &NODES), Ok(None));
        assert_eq!(optional("set_nodes", "7", &NODES), Ok(Some(7)));
    }
}
