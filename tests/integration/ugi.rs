//! UGI through the real binary: the replies of every command, every error (one
//! `info string error: ...` line that changes nothing), searches with their `info` lines,
//! `stop`, commands that wait behind a search, passes, FEN positions and a whole game.

use crate::protocol_io::{Engine, run_all};
use iago::game::Game;
use iago::othello::Position;
use iago::othello::eval::OTHELLO_EVALUATORS;

const RANDOM: &[&str] = &[
    "--protocol",
    "ugi",
    "--player",
    "random",
    "--seed",
    "1",
    "--book",
    "none",
];

/// Sends every line at once and checks the whole output byte for byte: each line's reply
/// lines, in order (none for a line with an empty list).
fn transcript(args: &[&str], exchange: &[(&str, &[&str])]) {
    let mut input = String::new();
    let mut expected = String::new();
    for (line, reply) in exchange {
        input.push_str(line);
        input.push('\n');
        for reply in *reply {
            expected.push_str(reply);
            expected.push('\n');
        }
    }
    let (output, code) = run_all(args, input.as_bytes());
    assert_eq!(output, expected);
    assert_eq!(code, Some(0));
}

fn header(seed: &str) -> Vec<String> {
    let vars: String = OTHELLO_EVALUATORS
        .iter()
        .map(|name| format!(" var {name}"))
        .collect();
    vec![
        "id name iago".into(),
        "id author the iago authors".into(),
        "option name Level type spin default 0 min 0 max 60".into(),
        format!(
            "option name Eval type combo default {}{vars}",
            OTHELLO_EVALUATORS[0]
        ),
        "option name Hash type spin default 64 min 1 max 4096".into(),
        "option name Threads type spin default 1 min 1 max 1024".into(),
        format!("option name Seed type string default {seed}"),
        "ugiok".into(),
    ]
}

/// Black (the first player) has no move; White's f8 ends the game with all 64 discs.
const PASS_FEN: &str = "8/8/8/8/8/8/8/6xo x";

#[test]
fn every_command_replies_byte_for_byte() {
    let header = header("1");
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let pass_moves = format!("position fen {PASS_FEN} moves f8");
    let pass_null = format!("position fen {PASS_FEN} moves 0000 f8");
    let pass_fen = format!("position fen {PASS_FEN}");
    transcript(
        RANDOM,
        &[
            ("ugi", &header),
            ("isready", &["readyok"]),
            ("uginewgame", &[]),
            ("position startpos", &[]),
            ("query p1turn", &["response true"]),
            ("query gameover", &["response false"]),
            ("query result", &["response none"]),
            ("go", &["bestmove c4"]),
            ("position startpos moves d3", &[]),
            ("query p1turn", &["response false"]),
            (
                "go p1time 1000 p2time 1000 p1inc 10 p2inc 10",
                &["bestmove c5"],
            ),
            ("position fen 8/8/8/3ox3/3xo3/8/8/8 x 0 1 moves d3 c5", &[]),
            ("query p1turn", &["response true"]),
            (&pass_fen, &[]),
            ("query gameover", &["response false"]),
            ("query p1turn", &["response true"]),
            ("go movetime 100", &["bestmove pass"]),
            // White's move right away: the pass is implied.
            (&pass_moves, &[]),
            ("query gameover", &["response true"]),
            ("query result", &["response p2win"]),
            (
                "go depth 3",
                &["info string the game is over", "bestmove 0000"],
            ),
            (&pass_null, &[]),
            ("query result", &["response p2win"]),
            ("position fen 8/8/8/8/8/8/8/7x o", &[]),
            ("query result", &["response p1win"]),
            ("position fen 8/8/8/8/8/8/8/6oo x", &[]),
            ("query result", &["response p2win"]),
            ("position fen xxxxxxxx/8/8/8/8/8/8/oooooooo o", &[]),
            ("query result", &["response draw"]),
            ("query p1turn", &["response false"]),
            ("setoption name Hash value 16", &[]),
            ("setoption name threads value 1", &[]),
            ("setoption name Eval value simple", &[]),
            ("setoption name Seed value none", &[]),
            ("setoption name Seed value 1", &[]),
            ("stop", &[]),
            ("quit", &[]),
            ("isready", &[]),
        ],
    );
}

#[test]
fn bad_input_gets_one_clear_error_and_changes_nothing() {
    // The game is at `position startpos moves d3` (White to move) before and after each
    // bad line: `query p1turn` says so, and the random player's move is the same.
    let errors: &[(&str, &str)] = &[
        ("frobnicate", "unknown command \"frobnicate\""),
        ("uci", "unknown command \"uci\""),
        ("isready now", "isready: takes no arguments, got \"now\""),
        ("position", "position: expected startpos or fen"),
        (
            "position middle",
            "position: expected startpos or fen, got \"middle\"",
        ),
        ("position fen", "position fen: the position is missing"),
        (
            "position fen moves d3",
            "position fen: the position is missing",
        ),
        (
            "position startpos d3",
            "position: expected moves after the position, got \"d3\"",
        ),
        (
            "position startpos moves d3 a1",
            "position: move 2 \"a1\" is illegal",
        ),
        (
            "position startpos moves d3 z9",
            "position: move 2 \"z9\": not a square: \"z9\"",
        ),
        (
            "position startpos moves pass",
            "position: move 1 \"pass\" is illegal",
        ),
        (
            "position fen 8/8/8/3ox3/3xo3/8/8 x",
            "position: fen: 7 rows, expected 8 separated by /",
        ),
        (
            "position fen 8/8/8/3ox3/3xo3/8/8/8 b",
            "position: fen: side to move \"b\" is neither x nor o",
        ),
        (
            "position fen 8/8/8/3oy3/3xo3/8/8/8 x",
            "position: fen: 'y' in row 4 is not x, o or a digit 1-8",
        ),
        (
            "position fen 8/8/8/3ox4/3xo3/8/8/8 x",
            "position: fen: row 4 has 9 squares, expected 8",
        ),
        (
            "position fen 8/8/8/3ox3/3xo3/8/8/8",
            "position: fen: the side to move (x or o) is missing after the board",
        ),
        ("go depth 0", "go: depth must be between 1 and 64"),
        ("go depth x", "go: depth expects a number, got \"x\""),
        ("go nodes 0", "go: nodes must be at least 1"),
        (
            "go movetime 0",
            "go: movetime must be between 1 and 86400000 ms",
        ),
        (
            "go p1time -5",
            "go: p1time expects milliseconds (a whole number from 0 to 1099511627776), got \"-5\"",
        ),
        ("go p1time", "go: p1time needs a value"),
        ("go depth 3 depth 4", "go: depth given twice"),
        (
            "go movestogo 0",
            "go: movestogo expects a whole number from 1, got \"0\"",
        ),
        (
            "query",
            "query: expected gameover, p1turn or result, got \"\"",
        ),
        (
            "query turn",
            "query: expected gameover, p1turn or result, got \"turn\"",
        ),
        (
            "setoption Hash 16",
            "setoption: expected setoption name NAME value VALUE",
        ),
        ("setoption name", "setoption: the option name is missing"),
        (
            "setoption name Hash value 0",
            "setoption: hash must be between 1 and 4096 MB",
        ),
        (
            "setoption name Hash value big",
            "setoption: Hash expects a number, got \"big\"",
        ),
        (
            "setoption name Threads value 0",
            "setoption: threads must be between 1 and 1024",
        ),
        (
            "setoption name Seed value -1",
            "setoption: seed expects a whole number or none, got \"-1\"",
        ),
        (
            "setoption name OwnBook value true",
            "setoption: unknown option \"OwnBook\" (Level, Eval, Hash, Threads, Seed)",
        ),
        (
            "setoption name Level value 61",
            "setoption: level must be between 1 and 60, or 0 or none for no limit",
        ),
    ];
    let mut exchange: Vec<(String, Vec<String>)> = vec![
        ("position startpos moves d3".into(), vec![]),
        ("go".into(), vec!["bestmove c5".into()]),
    ];
    for (line, error) in errors {
        let mut replies = vec![format!("info string error: {error}")];
        if line.starts_with("go ") {
            replies.push("bestmove 0000".into());
        }
        exchange.push((line.to_string(), replies));
        exchange.push(("query p1turn".into(), vec!["response false".into()]));
    }
    exchange.push(("go".into(), vec!["bestmove c5".into()]));
    let exchange: Vec<(&str, Vec<&str>)> = exchange
        .iter()
        .map(|(line, reply)| (line.as_str(), reply.iter().map(String::as_str).collect()))
        .collect();
    let exchange: Vec<(&str, &[&str])> = exchange
        .iter()
        .map(|(line, reply)| (*line, reply.as_slice()))
        .collect();
    transcript(RANDOM, &exchange);

    // An evaluator that does not exist is refused with the list of those that do.
    let (output, _) = run_all(RANDOM, b"setoption name Eval value nonsense\n");
    assert!(
        output.starts_with("info string error: setoption: ") && output.contains("pattern"),
        "{output}"
    );
    assert_eq!(output.lines().count(), 1, "{output}");
    // Lines that are not text.
    let (output, _) = run_all(RANDOM, b"bad \xff\nnul\0\nisready\n");
    assert_eq!(
        output,
        "info string error: input: line is not valid UTF-8\n\
         info string error: input: line contains a NUL byte\nreadyok\n"
    );
}

#[test]
fn the_first_line_ugi_chooses_the_protocol() {
    let (output, code) = run_all(
        &["--player", "random", "--book", "none"],
        b"ugi\nisready\nquery p1turn\n",
    );
    let mut expected = header("none").join("\n");
    expected.push_str("\nreadyok\nresponse true\n");
    assert_eq!(output, expected);
    assert_eq!(code, Some(0));
}

/// The words after `pv` in an `info` line.
fn pv(line: &str) -> Vec<&str> {
    line.split(" pv ")
        .nth(1)
        .map(|pv| pv.split(' ').collect())
        .unwrap_or_default()
}

#[test]
fn a_search_reports_each_iteration_then_its_move() {
    let mut engine = Engine::start(&["--protocol", "ugi", "--book", "none", "--hash", "8"]);
    engine.send("position startpos moves f5");
    engine.send("go depth 4");
    let lines = engine.until(|line| line.starts_with("bestmove"));
    assert_eq!(lines.len(), 5, "{lines:#?}");
    for (i, line) in lines[..4].iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            words[..3],
            ["info", "depth", &(i + 1).to_string()],
            "{line}"
        );
        assert_eq!(words[3..5], ["score", "cp"], "{line}");
        assert!(words[5].parse::<i32>().is_ok(), "{line}");
        assert_eq!(words[6], "nodes", "{line}");
        assert_eq!(words[8], "time", "{line}");
        assert_eq!(pv(line).len(), i + 1, "{line}");
    }
    // The move is the last iteration's first, and legal.
    let best = lines[4].strip_prefix("bestmove ").unwrap();
    assert_eq!(pv(&lines[3])[0], best);
    let pos = Position::start().play("f5".parse().unwrap());
    let mv = pos.parse_move(best).unwrap();
    assert!(pos.legal_moves().as_ref().contains(&mv));

    // isready and query are answered during a search; stop ends an infinite one.
    engine.send("go infinite");
    engine.send("isready");
    assert_eq!(
        engine
            .until(|line| !line.starts_with("info"))
            .last()
            .unwrap(),
        "readyok"
    );
    engine.send("query p1turn");
    assert_eq!(
        engine
            .until(|line| !line.starts_with("info"))
            .last()
            .unwrap(),
        "response false"
    );
    // A position sent during the search waits for it: the query after it sees it.
    engine.send("position startpos");
    engine.send("query p1turn");
    engine.send("stop");
    let lines = engine.until(|line| line.starts_with("response"));
    let replies: Vec<&String> = lines.iter().filter(|l| !l.starts_with("info")).collect();
    assert_eq!(replies.len(), 2, "{lines:#?}");
    assert!(replies[0].starts_with("bestmove "), "{lines:#?}");
    assert_eq!(replies[1], "response true");

    // A clock: the mover's time and increment.
    engine.send("go p1time 2000 p2time 2000 p1inc 20 p2inc 20");
    let lines = engine.until(|line| line.starts_with("bestmove"));
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    let mv = Position::start().parse_move(best).unwrap();
    assert!(Position::start().legal_moves().as_ref().contains(&mv));
    engine.send("quit");
    let (rest, code) = engine.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert_eq!(code, Some(0));
}

#[test]
fn end_of_input_cuts_a_search_short_and_answers_it() {
    let (output, code) = run_all(
        &["--protocol", "ugi", "--book", "none", "--hash", "8"],
        b"go infinite\nquery p1turn\n",
    );
    // The query is answered at once, during the search.
    let lines: Vec<&str> = output.lines().filter(|l| !l.starts_with("info")).collect();
    assert_eq!(lines.len(), 2, "{output}");
    assert_eq!(lines[0], "response true");
    assert!(lines[1].starts_with("bestmove "), "{output}");
    assert_eq!(code, Some(0));
}

#[test]
fn a_whole_game_against_itself_ends_with_a_result() {
    // The driver does what the cutegames runner does: it sends the game so far, asks
    // whose turn and whether the game is over, and plays the `bestmove`.
    let mut engine = Engine::start(RANDOM);
    let mut moves: Vec<String> = Vec::new();
    let mut pos = Position::start();
    loop {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        engine.send("query gameover");
        let over = engine.line();
        assert_eq!(over, format!("response {}", pos.is_game_over()));
        if pos.is_game_over() {
            break;
        }
        engine.send("go");
        let line = engine.line();
        let best = line.strip_prefix("bestmove ").unwrap().to_string();
        let mv = pos.parse_move(&best).unwrap();
        assert!(pos.legal_moves().as_ref().contains(&mv), "{best}");
        pos = pos.play(mv);
        moves.push(best);
    }
    engine.send("query result");
    let black = pos.final_score()
        * if pos.side_to_move() == iago::game::Color::Black {
            1
        } else {
            -1
        };
    let expected = match black {
        0 => "response draw",
        s if s > 0 => "response p1win",
        _ => "response p2win",
    };
    assert_eq!(engine.line(), expected);
    let (rest, code) = engine.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert_eq!(code, Some(0));
}

#[test]
fn an_infinite_search_keeps_reading_when_its_queue_is_full() {
    // 256 lines may wait; beyond that, lines are dropped with an error rather than the
    // engine waiting for a search that only stop can end.
    let mut engine = Engine::start(&["--protocol", "ugi", "--book", "none", "--hash", "8"]);
    engine.send("go infinite");
    let mut input = String::new();
    for _ in 0..300 {
        input.push_str("position startpos moves d3\n");
    }
    engine.send_bytes(input.as_bytes());
    engine.send("stop");
    engine.send("query p1turn");
    let lines = engine.until(|line| line.starts_with("response"));
    let replies: Vec<&String> = lines
        .iter()
        .filter(|line| !line.starts_with("info depth"))
        .collect();
    assert_eq!(replies.len(), 44 + 2, "{replies:#?}");
    for reply in &replies[..44] {
        assert_eq!(
            *reply,
            "info string error: too many commands wait for stop: line dropped"
        );
    }
    assert!(replies[44].starts_with("bestmove "), "{replies:#?}");
    assert_eq!(replies[45], "response false");
    let (_, code) = engine.finish();
    assert_eq!(code, Some(0));
}

/// A `go` with parameters of other protocols (UCI's `wtime`, `mate`) still answers its
/// `bestmove`, as a controller waits for it; each unknown parameter is a warning on
/// stderr, and the known ones still hold.
#[test]
fn a_go_with_unknown_parameters_still_answers() {
    let mut engine = Engine::start(&["--protocol", "ugi", "--book", "none"]);
    engine.send("position startpos");
    engine.send("go wtime 1000 btime 900 depth 2 mate");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let depths: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(depths, ["1", "2"], "{lines:?}");
    let mv = lines.last().unwrap()["bestmove ".len()..].to_string();
    assert!(
        Position::start().try_play(mv.parse().unwrap()).is_some(),
        "{lines:?}"
    );
    let (rest, code, log) = engine.finish_logged();
    assert_eq!((rest, code), (vec![], Some(0)));
    for parameter in ["\"wtime 1000\"", "\"btime 900\"", "\"mate\""] {
        assert!(
            log.contains(&format!("go: unknown parameter {parameter} ignored")),
            "{log}"
        );
    }
}

/// A `go` refused for its arguments still answers a `bestmove` (the null move) after its
/// error, as a controller waits for one; the position is untouched and the next `go`
/// searches as usual.
#[test]
fn a_refused_go_still_answers_a_bestmove() {
    let mut engine = Engine::start(&["--protocol", "ugi", "--book", "none"]);
    engine.send("position startpos moves f5");
    for bad in [
        "go movetime abc",
        "go depth 0",
        "go nodes",
        "go depth 2 depth 3",
    ] {
        engine.send(bad);
        let lines = engine.until(|l| l.starts_with("bestmove"));
        assert_eq!(lines.len(), 2, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: go: "),
            "{bad}: {lines:?}"
        );
        assert_eq!(lines[1], "bestmove 0000", "{bad}");
    }
    engine.send("go depth 2");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let mv = lines.last().unwrap()["bestmove ".len()..].to_string();
    let after_f5 = Position::start().try_play("f5".parse().unwrap()).unwrap();
    assert!(
        after_f5.try_play(mv.parse().unwrap()).is_some(),
        "{lines:?}"
    );
    let (rest, code) = engine.finish();
    assert_eq!((rest, code), (vec![], Some(0)));
}

/// FEN of a board seen from its mover (`black_to_move` or not).
fn fen_of(board: &crate::common::ArrayBoard, black_to_move: bool) -> String {
    use crate::common::Cell;
    let rows: Vec<String> = board
        .cells
        .chunks(8)
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for cell in row {
                let disc = match (cell, black_to_move) {
                    (Cell::Empty, _) => None,
                    (Cell::Mine, true) | (Cell::Theirs, false) => Some('x'),
                    _ => Some('o'),
                };
                match disc {
                    None => empty += 1,
                    Some(disc) => {
                        if empty > 0 {
                            text += &empty.to_string();
                            empty = 0;
                        }
                        text.push(disc);
                    }
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            text
        })
        .collect();
    format!(
        "{} {}",
        rows.join("/"),
        if black_to_move { 'x' } else { 'o' }
    )
}

/// The `Level` option sets protocol.md's levels, as `--level` does: the midgame depth,
/// and the endgame solved from where the level says (level 4: exact from 8 empties,
/// which depth 4 alone does not reach), as a separate solve finds it. 0 takes it back to
/// the command line's depth.
#[test]
fn the_level_option_sets_depth_and_endgame() {
    use rand::RngExt;
    let mut engine = Engine::start(&["--protocol", "ugi", "--book", "none", "--depth", "4"]);
    engine.send("setoption name Level value 3");
    engine.send("position startpos");
    engine.send("go");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.starts_with("info depth 3 "), "{lines:?}");
    // Positions with 8 empties along random games.
    let mut rng = crate::common::rng(48);
    let mut checked = 0;
    while checked < 6 {
        let mut board = crate::common::ArrayBoard::from_position(&Position::start());
        let mut black = true;
        let empties = |b: &crate::common::ArrayBoard| {
            b.cells
                .iter()
                .filter(|&&c| c == crate::common::Cell::Empty)
                .count()
        };
        while empties(&board) > 8 && !board.is_game_over() {
            let moves = board.legal_moves();
            board = if moves.is_empty() {
                board.swapped()
            } else {
                board.play(moves[rng.random_range(0..moves.len())])
            };
            black = !black;
        }
        if empties(&board) != 8 || board.legal_moves().is_empty() {
            continue;
        }
        engine.send("setoption name Level value 4");
        engine.send(&format!("position fen {}", fen_of(&board, black)));
        engine.send("go");
        let lines = engine.until(|l| l.starts_with("bestmove"));
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        let score: i32 = last.split(' ').nth(5).unwrap().parse().unwrap();
        assert!(last.starts_with("info depth 8 "), "{lines:?}");
        assert_eq!(score, 100 * board.solve(), "{lines:?}");
        // Without the level, depth 4 stops short of the end of the game.
        engine.send("setoption name Level value 0");
        engine.send("go");
        let lines = engine.until(|l| l.starts_with("bestmove"));
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        assert!(last.starts_with("info depth 4 "), "{lines:?}");
        checked += 1;
    }
    assert_eq!(engine.finish().1, Some(0));
}

/// The `info` line of a `go` that has a pv, and its nodes, score and moves.
fn last_info(lines: &[String]) -> (u64, i64, Vec<String>) {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" pv "))
        .unwrap_or_else(|| panic!("no info line: {lines:?}"));
    let words: Vec<&str> = info.split_whitespace().collect();
    let field = |key: &str| {
        let at = words.iter().position(|w| *w == key).unwrap();
        words[at + 1]
    };
    let pv_at = words.iter().position(|w| *w == "pv").unwrap();
    (
        field("nodes").parse().unwrap(),
        field("cp").parse().unwrap(),
        words[pv_at + 1..].iter().map(|w| w.to_string()).collect(),
    )
}

/// `go` with `ms` milliseconds on each clock after the moves `moves`, in `engine`: its
/// last info line's nodes, score and line, and the move played.
fn clock_go(engine: &mut Engine, moves: &[String], ms: u32) -> (u64, i64, Vec<String>, String) {
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    engine.send(&format!("go p1time {ms} p2time {ms}"));
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let (nodes, score, pv) = last_info(&lines);
    let best = lines.last().unwrap()["bestmove ".len()..].to_string();
    (nodes, score, pv, best)
}

/// Nothing is searched where nothing can change: once a solve has proven the game's
/// value, the next move after the reply its line expects is played from the solver's
/// table at once (0 nodes, the same value, the line's next move; it took the midgame
/// iterations and the solves again before). After another reply, the solve's table
/// serves the next one: fewer nodes than a fresh engine's.
#[test]
fn a_proven_game_plays_its_moves_at_once() {
    // A game at 24 empties, Black to move (no passes before).
    let game = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1";
    let moves: Vec<String> = (0..game.len() / 2)
        .map(|i| game[2 * i..2 * i + 2].to_string())
        .collect();
    let mut pos = Position::start();
    for mv in &moves {
        pos = pos.play(mv.parse().unwrap());
    }
    assert_eq!(pos.empty_count(), 24);
    let start = || {
        let mut engine = Engine::start(&["--protocol", "ugi", "--book", "none"]);
        engine.send("ugi");
        engine.until(|l| l == "ugiok");
        engine.send("uginewgame");
        engine
    };
    let mut engine = start();
    let (first_nodes, score, pv, best) = clock_go(&mut engine, &moves, 600_000);
    assert!(first_nodes > 0 && pv.len() >= 3 && pv[0] == best, "{pv:?}");
    // The reply the solve's line expects: the next move comes from the table.
    let mut expected = moves.clone();
    expected.extend(pv[..2].iter().cloned());
    let (nodes, next_score, next_pv, next) = clock_go(&mut engine, &expected, 60_000);
    assert_eq!(
        (nodes, next_score, next.as_str()),
        (0, score, pv[2].as_str()),
        "{next_pv:?}"
    );
    // Another reply: a solve of a position inside the first one.
    let after_best = pos.play(best.parse().unwrap());
    let other = after_best
        .legal_moves()
        .as_ref()
        .iter()
        .map(|&mv| after_best.format_move(mv))
        .find(|mv| *mv != pv[1])
        .expect("another reply");
    let mut deviated = moves.clone();
    deviated.extend([best.clone(), other]);
    // (Another engine: a position that does not follow the game is a new one, whose
    // tables are cleared.)
    let mut engine = start();
    clock_go(&mut engine, &moves, 600_000);
    let (carried, _, _, _) = clock_go(&mut engine, &deviated, 60_000);
    let (fresh, _, _, _) = clock_go(&mut start(), &deviated, 60_000);
    assert!(carried < fresh, "carried {carried} nodes, fresh {fresh}");
}
