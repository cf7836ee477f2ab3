//! How subcommands write on stdout and how they end: a closed stdout (`iago bench |
//! head -1`) is an error each write returns, not the panic of `println!`, and `main`
//! turns it into a quiet exit.

use std::fmt;
use std::io::{self, Write};

/// Why a subcommand stopped.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// An error to report on stderr (`iago: MESSAGE`, exit status 2).
    Error(String),
    /// Stdout was closed by its reader: there is nobody left to tell anything.
    Closed,
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Error(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure::Error(message.to_string())
    }
}

impl From<iago_core::files::FileError> for Failure {
    fn from(error: iago_core::files::FileError) -> Failure {
        Failure::Error(error.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Failure {
        if error.kind() == io::ErrorKind::BrokenPipe {
            Failure::Closed
        } else {
            Failure::Error(format!("writing the output: {error}"))
        }
    }
}

/// Writes on `out`, returning the error instead of panicking.
pub fn write_to(out: &mut impl Write, args: fmt::Arguments) -> Result<(), Failure> {
    out.write_fmt(args)?;
    Ok(())
}

/// Writes on stdout, returning the error instead of panicking.
pub fn write(args: fmt::Arguments) -> Result<(), Failure> {
    write_to(&mut io::stdout().lock(), args)
}

/// `print!` that returns an error (see [`Failure`]) instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!($($arg)*))
    };
}

/// `println!` that returns an error (see [`Failure`]) instead of panicking.
macro_rules! outln {
    () => {
        $crate::cli::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_reader_is_a_quiet_failure_not_a_panic() {
        let (reader, mut writer) = io::pipe().expect("a pipe");
        drop(reader);
        let result = write_to(&mut writer, format_args!("line\n"));
        assert_eq!(result, Err(Failure::Closed));
    }

    #[test]
    fn other_errors_are_reported() {
        let full = io::Error::from(io::ErrorKind::StorageFull);
        assert!(matches!(Failure::from(full), Failure::Error(_)));
        assert_eq!(Failure::from("bad"), Failure::Error("bad".into()));
    }
}
