//! UGI's unit tests: its grammar.

use super::*;

#[test]
fn commands() {
    assert_eq!(parse("ugi"), Ok(Command::Ugi));
    assert_eq!(
        parse("position startpos moves d3 c5"),
        Ok(Command::Position {
            start: Start::StartPos,
            moves: vec!["d3".into(), "c5".into()]
        })
    );
    assert_eq!(
        parse("position fen 8/8/8/3ox3/3xo3/8/8/8 x moves d3"),
        Ok(Command::Position {
            start: Start::Fen("8/8/8/3ox3/3xo3/8/8/8 x".into()),
            moves: vec!["d3".into()]
        })
    );
    assert_eq!(
        parse("go p1time 1000 p2time 900 p1inc 10 p2inc 20"),
        Ok(Command::Go(Go {
            p1time: Some(1000),
            p2time: Some(900),
            p1inc: Some(10),
            p2inc: Some(20),
            ..Go::default()
        }))
    );
    assert_eq!(
        parse("go wtime 1000 depth 3 mate infinite"),
        Ok(Command::Go(Go {
            depth: Some(3),
            infinite: true,
            ignored: vec!["wtime 1000".into(), "mate".into()],
            ..Go::default()
        }))
    );
    assert_eq!(
        parse("setoption name Hash value 16"),
        Ok(Command::SetOption {
            name: "Hash".into(),
            value: "16".into()
        })
    );
    for bad in [
        "go depth 0",
        "go depth x",
        "go p1time -5",
        "go p1time",
        "go depth 3 depth 4",
        "position",
        "position fen",
        "position fen moves d3",
        "position startpos d3",
        "query",
        "query turn",
        "setoption Hash 16",
        "setoption name",
        "isready now",
        "uci",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
}
