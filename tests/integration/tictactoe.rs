//! Tic-tac-toe, the game added as one module and one registry line, through the real
//! binary: a whole game over GTP, UGI's position and go, perfect play (the game is a draw,
//! and the engine never loses to a random player) and `iago match`.

use std::process::Command;

use crate::protocol_io::{Engine, run_all};
use iago::engine::EngineGame;
use iago::game::{Color, Game};
use iago_core::tictactoe::TicTacToe;

use crate::protocol_io::IAGO;

/// Sends one GTP command and returns its reply without the `= ` and the blank line.
fn ask(engine: &mut Engine, command: &str) -> String {
    engine.send(command);
    let mut lines = engine.until(|line| line.is_empty());
    lines.pop();
    let reply = lines.join("\n");
    assert!(reply.starts_with('='), "{command}: {reply}");
    reply[1..].trim().to_string()
}

/// The position after `moves` from the start, each checked.
fn replay(moves: &[String]) -> TicTacToe {
    moves.iter().fold(TicTacToe::start(), |pos, text| {
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{moves:?}: {e}"));
        pos.play(mv)
    })
}

#[test]
fn a_whole_game_over_gtp_ends_with_the_rules_result() {
    // The engine plays X through `genmove b`; O is the first empty square each time, a
    // player the engine must beat.
    let mut engine = Engine::start(&["--depth", "9"]);
    ask(&mut engine, "set_game tictactoe");
    assert_eq!(ask(&mut engine, "boardsize 3"), "");
    let mut moves: Vec<String> = Vec::new();
    while !replay(&moves).is_game_over() {
        let pos = replay(&moves);
        if pos.side_to_move() == Color::Black {
            moves.push(ask(&mut engine, "genmove b"));
        } else {
            let first = pos.legal_moves().as_ref()[0];
            let text = pos.format_move(first);
            ask(&mut engine, &format!("play w {text}"));
            moves.push(text);
        }
        // Every genmove was legal: replay panics otherwise.
        replay(&moves);
    }
    let end = replay(&moves);
    assert_eq!(end.winner(), Some(Color::Black), "{moves:?}");
    assert_eq!(ask(&mut engine, "final_score"), "B+1");
    let board = ask(&mut engine, "showboard");
    assert_eq!(
        board.matches('X').count(),
        moves.len().div_ceil(2),
        "{board}"
    );
    // The game is over: the engine has no move to give.
    assert_eq!(ask(&mut engine, "genmove w"), "pass");
}

#[test]
fn the_engine_against_itself_draws_and_gogui_sees_a_grid() {
    let mut engine = Engine::start(&["--game", "tictactoe", "--depth", "9"]);
    let mut moves = Vec::new();
    for ply in 0..9 {
        let colour = if ply % 2 == 0 { "b" } else { "w" };
        moves.push(ask(&mut engine, &format!("genmove {colour}")));
    }
    let end = replay(&moves);
    assert!(end.is_game_over() && end.winner().is_none(), "{moves:?}");
    assert_eq!(ask(&mut engine, "final_score"), "0");
    // GoGui sees a 3x3 grid, its points' rows counted from the bottom.
    assert_eq!(ask(&mut engine, "gogui-rules_board_size"), "3");
    ask(&mut engine, "clear_board");
    ask(&mut engine, "play b A3");
    assert_eq!(
        ask(&mut engine, "showboard").lines().nth(1),
        Some("1 X . .")
    );
}

#[test]
fn ugi_position_and_go_give_the_winning_move() {
    let (out, code) = run_all(
        &["--game", "tictactoe", "--protocol", "ugi"],
        b"ugi\nisready\nposition fen xx.oo....\ngo depth 9\n\
          position startpos moves b2 a1\ngo depth 9\nquery result\nquit\n",
    );
    assert_eq!(code, Some(0), "{out}");
    let best: Vec<&str> = (out.lines())
        .filter_map(|line| line.strip_prefix("bestmove "))
        .collect();
    // X completes its top row.
    assert_eq!(best[0], "c1", "{out}");
    let after = replay(&["b2".into(), "a1".into()]);
    assert!(after.parse_move(best[1]).is_ok(), "{out}");
    assert!(out.lines().any(|line| line == "response none"), "{out}");
}

#[test]
fn solved_from_the_start_the_game_is_a_draw() {
    let (out, code) = run_all(
        &["--game", "tictactoe", "--protocol", "ugi"],
        b"ugi\nisready\nposition startpos\ngo depth 9\nquit\n",
    );
    assert_eq!(code, Some(0), "{out}");
    let last = (out.lines())
        .rfind(|line| line.starts_with("info depth 9 "))
        .unwrap_or_else(|| panic!("no depth 9: {out}"));
    assert!(last.contains(" score cp 0 "), "{last}");
}

/// Runs `iago match --game tictactoe ARGS`; returns its table and the records.
fn tictactoe_match(test: &str, args: &[&str]) -> (String, String) {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("iago-ttt-{test}-{}.txt", std::process::id()));
    let output = Command::new(IAGO)
        .args(["match", "--game", "tictactoe", "--quiet", "--out"])
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{table}\n{stderr}");
    let records = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).ok();
    (table, records)
}

#[test]
fn in_a_match_the_engine_never_loses_to_a_random_player() {
    let search = format!("search=gtp:{IAGO} --game tictactoe");
    let random = format!("random=gtp:{IAGO} --game tictactoe --player random --seed 3");
    let (table, records) = tictactoe_match(
        "random",
        &[
            "--games", "20", "--depth", "9", "--start", "start", "--engine", &search, "--engine",
            &random,
        ],
    );
    assert!(table.contains("20 of 20 TicTacToe games"), "{table}");
    let row = (table.lines())
        .find(|l| l.starts_with("search vs random "))
        .unwrap_or_else(|| panic!("{table}"));
    let words: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(words[3..7], ["20", words[4], words[5], "0"], "{table}");
    let lines: Vec<&str> = records.lines().collect();
    assert_eq!(lines.len(), 20, "{records}");
    for line in lines {
        let moves: Vec<String> = (line.split("moves=").nth(1).unwrap().split(','))
            .map(str::to_string)
            .collect();
        let end = replay(&moves);
        assert!(end.is_game_over(), "{line}");
        let search_colour = if line.contains("white=search") {
            Color::White
        } else {
            Color::Black
        };
        assert_ne!(end.winner(), Some(search_colour.opponent()), "{line}");
    }
}

#[test]
fn a_match_between_two_searchers_is_all_draws_with_a_report() {
    let engine = |name: &str| format!("{name}=gtp:{IAGO} --game tictactoe");
    let (table, records) = tictactoe_match(
        "draws",
        &[
            "--games",
            "4",
            "--depth",
            "9",
            "--start",
            "start",
            "--engine",
            &engine("a"),
            "--engine",
            &engine("b"),
        ],
    );
    assert!(table.contains("a vs b"), "{table}");
    assert!(table.contains("Endings: full board 4"), "{table}");
    assert_eq!(records.matches("result=1/2-1/2").count(), 4, "{records}");
}

#[test]
fn perft_reads_the_game_from_the_registry() {
    let output = Command::new(IAGO)
        .args(["perft", "--game", "tictactoe", "9"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    // Every possible game is one leaf.
    assert!(text.starts_with("perft 9: 255168\n"), "{text}");
}

/// The game's value of `pos` for its mover, by plain negamax over every move.
fn negamax(pos: &TicTacToe) -> i32 {
    if pos.is_game_over() {
        return match pos.winner() {
            Some(winner) if winner == pos.side_to_move() => 1,
            Some(_) => -1,
            None => 0,
        };
    }
    let moves = pos.legal_moves();
    moves
        .as_ref()
        .iter()
        .map(|&mv| -negamax(&pos.play(mv)))
        .max()
        .unwrap()
}

/// The best lines of a search on two threads, where the threads share out the root
/// moves, are each their move's value: at depth 7 from seven empties every line is
/// searched to the game's end, and its sign is the game's value (plain negamax) after
/// its move. Each position has won, drawn and lost moves, so a line that took a bound
/// for a value would show.
#[test]
fn lines_on_two_threads_are_each_their_moves_value() {
    use iago::search::{Focus, Limits, SearchReport, Searcher};
    use std::cell::RefCell;
    use std::sync::atomic::AtomicBool;
    #[derive(Default)]
    struct Seen(RefCell<Vec<SearchReport<<TicTacToe as Game>::Move>>>);
    impl iago::search::Observer<<TicTacToe as Game>::Move> for Seen {
        fn line(&self, report: &SearchReport<<TicTacToe as Game>::Move>) {
            self.0.borrow_mut().push(report.clone());
        }
    }
    // Every position after two moves, and two or three lines.
    let names: Vec<String> = (1..=3)
        .flat_map(|row| ["a", "b", "c"].map(|column| format!("{column}{row}")))
        .collect();
    let openings = names.iter().flat_map(|first| {
        let names = &names;
        names
            .iter()
            .filter(move |second| *second != first)
            .map(move |second| vec![first.clone(), second.clone()])
    });
    for (index, moves) in openings.enumerate() {
        let opening = &moves;
        let pos = replay(&moves);
        let value = |mv| -negamax(&pos.play(mv));
        let lines = 2 + index % 2;
        let mut searcher = Searcher::new(Box::new(iago_core::tictactoe::Lines));
        searcher.set_threads(2);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let focus = Focus {
            lines,
            ..Focus::default()
        };
        let seen = Seen::default();
        let report = searcher.search_focused(&pos, &limits, &stop, &focus, &seen);
        let seen = seen.0.borrow();
        let last: Vec<_> = seen.iter().filter(|line| line.depth == 7).collect();
        assert!(last.len() >= lines, "{opening:?}: {seen:?}");
        for line in &last {
            let mv = line.best_move.unwrap();
            assert_eq!(line.score.signum(), value(mv), "{opening:?}: {line:?}");
        }
        let best = pos.legal_moves().as_ref().iter().map(|&mv| value(mv)).max();
        assert_eq!(Some(report.score.signum()), best, "{opening:?}");
    }
}
