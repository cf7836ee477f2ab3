//! Nine Men's Morris through the real binary over GTP: a whole game of genmoves checked
//! move by move against the library's rules, and error replies for bad input.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::protocol_io::IAGO;
use iago::engine::EngineGame;
use iago::game::Game;
use iago::mill::MillPosition;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(IAGO)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start iago");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends a command and returns the reply (`= ...` or `? ...`) without the blank line.
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.stdin, "{command}").expect("write");
        self.stdin.flush().expect("flush");
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read");
            assert!(n > 0, "engine closed its output after {command:?}");
            if line.trim().is_empty() && !reply.is_empty() {
                break;
            }
            reply.push_str(&line);
        }
        reply.trim_end().to_string()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn a_whole_game_of_genmoves_is_legal_to_the_end() {
    let mut engine = Engine::start(&["--game", "mill", "--protocol", "gtp", "--depth", "3"]);
    assert_eq!(engine.ask("list_games"), "= Othello\nMill\nTicTacToe");
    let mut pos = MillPosition::start();
    let mut plies = 0;
    while !pos.is_game_over() {
        assert!(plies < 600, "the draw rules end a game");
        let color = pos.side_to_move().name();
        let reply = engine.ask(&format!("genmove {color}"));
        let text = reply
            .strip_prefix("= ")
            .unwrap_or_else(|| panic!("{reply}"));
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("ply {plies}: {text} in {pos:?}: {e}"));
        pos = pos.play(mv);
        plies += 1;
    }
    assert_eq!(
        engine.ask("final_score"),
        format!(
            "= {}",
            iago_core::protocol::gtp::score_text(pos.black_result())
        )
    );
    assert_eq!(engine.ask("genmove white"), "= pass");
    // The engine's position string is ours.
    let position = engine.ask("position");
    assert_eq!(position, format!("= {}", EngineGame::format_position(&pos)));
    // Undo goes back one ply: the game is on again.
    assert_eq!(engine.ask("undo"), "=");
    assert_eq!(engine.ask("final_score"), "? cannot score");
}

#[test]
fn moves_with_removals_and_error_replies() {
    let mut engine = Engine::start(&["--protocol", "gtp", "--depth", "2"]);
    assert_eq!(engine.ask("set_game mill"), "=");
    for mv in ["a7", "b4", "d7", "b6"] {
        let color = if engine.ask("position").contains(" w ") {
            "white"
        } else {
            "black"
        };
        assert_eq!(engine.ask(&format!("play {color} {mv}")), "=", "{mv}");
    }
    // Closing a mill needs its removal; a protected or absent stone cannot be taken.
    assert!(engine.ask("play white g7").starts_with('?'));
    assert!(engine.ask("play white g7xa7").starts_with('?'));
    assert!(engine.ask("play white g7xc3").starts_with('?'));
    assert!(
        engine.ask("play black a1").starts_with('?'),
        "not Black's turn"
    );
    assert!(engine.ask("play white h9").starts_with('?'));
    assert!(
        engine.ask("play white a7-a4").starts_with('?'),
        "still placing"
    );
    assert_eq!(engine.ask("play white g7xb4"), "=");
    let board = engine.ask("showboard");
    assert!(
        board.contains("White (O) in hand 6, Black (X) in hand 7; black to move"),
        "{board}"
    );
    // A position string with a move-count, then a slide with a removal.
    let set = "W-W---W-/--------/B-----BB w 0 0 5";
    assert!(engine.ask(&format!("set_position {set}")).starts_with('='));
    assert!(engine.ask("set_position WWW w 0 0").starts_with('?'));
    let pos = <MillPosition as EngineGame>::parse_position(set).expect("valid");
    assert_eq!(pos.legal_moves().as_ref().len(), 58);
    assert_eq!(engine.ask("perft 1"), "= 58");
    assert_eq!(engine.ask("play white a1-d7xc4"), "=");
    assert_eq!(engine.ask("final_score"), "= W+1");
}

#[test]
fn rules_set_over_gtp_apply_to_every_new_game() {
    let mut engine = Engine::start(&["--game", "mill", "--protocol", "gtp", "--depth", "1"]);
    assert!(engine.ask("list_commands").contains("set_rules"));
    assert!(engine.ask("set_rules draw-plies=x").starts_with('?'));
    assert!(engine.ask("set_rules colour=red").starts_with('?'));
    assert!(engine.ask("set_rules draw-plies=101").starts_with('?'));
    // Four plies of sliding without a mill end the game under draw-plies=4.
    assert_eq!(engine.ask("set_rules draw-plies=4 repetitions=0"), "=");
    let set = "W-W-----/B-B-----/W-B----- w 0 0 3";
    assert_eq!(engine.ask(&format!("set_position {set}")), "=");
    assert_eq!(engine.ask("play white a7-a4"), "=");
    assert_eq!(engine.ask("final_score"), "= 0");
    // The same position under the standard rules goes on.
    assert_eq!(engine.ask("set_rules standard"), "=");
    assert_eq!(engine.ask(&format!("set_position {set}")), "=");
    assert_eq!(engine.ask("play white a7-a4"), "=");
    assert_eq!(engine.ask("final_score"), "? cannot score");
    // A placement closing two mills removes one stone, or two under removal=per-mill.
    let double = "WW-WW---/---B-B-B/-B------ w 5 5";
    assert_eq!(engine.ask(&format!("set_position {double}")), "=");
    assert!(engine.ask("play white g7xd5xf4").starts_with('?'));
    assert_eq!(engine.ask("set_rules removal=per-mill"), "=");
    assert_eq!(engine.ask("clear_board"), "=");
    assert_eq!(engine.ask(&format!("set_position {double}")), "=");
    assert_eq!(engine.ask("play white g7xd5xf4"), "=");
}

#[test]
fn gogui_commands_are_refused_for_mill() {
    let mut engine = Engine::start(&["--game", "mill", "--protocol", "gtp", "--depth", "1"]);
    assert!(!engine.ask("list_commands").contains("gogui"));
    assert_eq!(engine.ask("known_command gogui-rules_game_id"), "= false");
    let refusal = "? GoGui cannot show Mill: its moves are not single points";
    assert_eq!(engine.ask("gogui-rules_game_id"), refusal);
    assert_eq!(engine.ask("gogui-rules_legal_moves"), refusal);
    // The refusal switches nothing: moves keep Mill's notation.
    assert_eq!(engine.ask("play white d6"), "=");
}
