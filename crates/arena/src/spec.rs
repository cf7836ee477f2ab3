//! What the match runner is told about each engine: a name, a protocol and a command line.

use std::fmt;
use std::str::FromStr;

/// The text protocol an engine is driven with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    NBoard,
    Gtp,
    /// iago's controller in this process; the "command" is its engine options.
    InProcess,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::NBoard => "nboard",
            Protocol::Gtp => "gtp",
            Protocol::InProcess => "in-process",
        })
    }
}

impl FromStr for Protocol {
    type Err = String;

    fn from_str(text: &str) -> Result<Protocol, String> {
        match text.to_ascii_lowercase().as_str() {
            "nboard" => Ok(Protocol::NBoard),
            "gtp" => Ok(Protocol::Gtp),
            "in-process" => Ok(Protocol::InProcess),
            _ => Err(format!(
                "unknown protocol {text:?} (expected nboard, gtp or in-process)"
            )),
        }
    }
}

/// One engine of a match: `NAME=PROTOCOL:COMMAND`, the command being a shell command line,
/// or for an engine in this process (`in-process`) its engine options (`--eval discs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub protocol: Protocol,
    pub command: String,
}

impl FromStr for EngineSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<EngineSpec, String> {
        let usage = || format!("engine {text:?} is not NAME=PROTOCOL:COMMAND");
        let (name, rest) = text.split_once('=').ok_or_else(usage)?;
        let (protocol, command) = rest.split_once(':').ok_or_else(usage)?;
        let name = name.trim();
        // Names go into GGF fields and a table: keep them to one printable word.
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_graphic() && !"[]()\\".contains(c))
        {
            return Err(format!(
                "engine name {name:?} must be one word without brackets or backslashes"
            ));
        }
        let protocol = protocol.trim().parse()?;
        if command.trim().is_empty() && protocol != Protocol::InProcess {
            return Err(usage());
        }
        Ok(EngineSpec {
            name: name.to_string(),
            protocol,
            command: command.trim().to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_name_protocol_and_command() {
        let spec: EngineSpec = "ntest=nboard:cd /opt/ntest && ./ntest x".parse().unwrap();
        assert_eq!(spec.name, "ntest");
        assert_eq!(spec.protocol, Protocol::NBoard);
        assert_eq!(spec.command, "cd /opt/ntest && ./ntest x");
        let spec: EngineSpec = "a=GTP:iago --protocol gtp".parse().unwrap();
        assert_eq!(spec.protocol, Protocol::Gtp);
    }

    #[test]
    fn rejects_malformed_specs() {
        for bad in [
            "",
            "a",
            "a=gtp",
            "a=uci:x",
            "=gtp:x",
            "a b=gtp:x",
            "a=gtp: ",
            "a[=gtp:x",
        ] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad:?}");
        }
    }
}
