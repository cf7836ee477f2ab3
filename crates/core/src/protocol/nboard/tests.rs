//! NBoard's unit tests: its grammar.

use super::*;
use crate::options;
use crate::othello::Position;
use crate::protocol::lexer::ParseError;

#[test]
fn commands() {
    assert_eq!(parse::<Position>("nboard 2"), Ok(Command::NBoard(2)));
    assert_eq!(
        parse::<Position>("set depth 12"),
        Ok(Command::Set(
            options::by_nboard("depth").unwrap(),
            "12".into()
        ))
    );
    assert_eq!(parse::<Position>("ping 7"), Ok(Command::Ping(7)));
    assert_eq!(
        parse::<Position>("move C3/3.00/0.01"),
        Ok(Command::Move {
            mv: "c3".parse().unwrap(),
            seconds: Some(0.01)
        })
    );
    assert_eq!(
        parse::<Position>("move D3//18.916"),
        Ok(Command::Move {
            mv: "d3".parse().unwrap(),
            seconds: Some(18.916)
        })
    );
    assert!(matches!(
        parse::<Position>("move PA"),
        Ok(Command::Move { .. })
    ));
    assert_eq!(parse::<Position>("hint 64"), Ok(Command::Hint(64)));
    assert_eq!(
        parse::<Position>("hint 99999999999999999999999"),
        Ok(Command::Hint(64))
    );
    assert!(matches!(
        parse::<Position>("bogus"),
        Err(ParseError::Unknown(_))
    ));
    for bad in [
        "set depth 61",
        "set hash 5000",
        "perft 21",
        "set movetime -1",
        "hint 0",
        "hint -1",
        "move d3//-1",
    ] {
        assert!(
            matches!(parse::<Position>(bad), Err(ParseError::OutOfRange { .. })),
            "{bad}"
        );
    }
    for bad in [
        "set depth x",
        "set colour 3",
        "ping",
        "move Z9",
        "hint x",
        "go now",
    ] {
        assert!(
            matches!(parse::<Position>(bad), Err(ParseError::Syntax { .. })),
            "{bad}"
        );
    }
}
