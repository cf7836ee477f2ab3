//! GTP through the real binary: byte-exact replies for every command and error case,
//! preprocessing, pipelining, `quit` after a search, end of input, passes and whole games.

use crate::protocol_io::{Engine, run_all, run_command, run_logged, with_memory_limit};
use iago::game::Game;
use iago::othello::{Move, Position};

/// Sends all `(line, reply)` commands in one write and checks the whole output byte for
/// byte. A reply of `None` means the line gets none (blank, comment).
fn transcript(args: &[&str], exchange: &[(&str, Option<&str>)]) {
    let mut input = String::new();
    let mut expected = String::new();
    for (line, reply) in exchange {
        input.push_str(line);
        input.push('\n');
        if let Some(reply) = reply {
            expected.push_str(reply);
            expected.push_str("\n\n");
        }
    }
    let (output, code) = run_all(args, input.as_bytes());
    assert_eq!(output, expected);
    assert_eq!(code, Some(0));
}

const RANDOM: &[&str] = &["--player", "random", "--seed", "1", "--book", "none"];

#[test]
fn every_command_byte_for_byte() {
    let board = "= \n  a b c d e f g h
1 - - - - - - - - 1  black to move
2 - - - - - . - - 2  black X: 3
3 - - - - O . - - 3  white O: 3
4 - - X X O . - - 4  empties: 58
5 - - - X O . - - 5
6 - - - - - . - - 6
7 - - - - - - - - 7
8 - - - - - - - - 8
  a b c d e f g h";
    let options: Vec<&str> = iago::options::ENGINE_OPTIONS
        .iter()
        .filter_map(|option| option.gtp)
        .collect();
    let commands = [
        iago::protocol::gtp::COMMANDS,
        &options,
        iago::protocol::gogui::COMMANDS,
    ]
    .concat()
    .join("\n");
    let list = format!("=4 {commands}");
    transcript(
        RANDOM,
        &[
            ("1 protocol_version", Some("=1 2")),
            ("2 name", Some("=2 iago")),
            (
                "3 version",
                Some(&format!("=3 {}", env!("CARGO_PKG_VERSION"))),
            ),
            ("known_command play", Some("= true")),
            ("known_command frobnicate", Some("= false")),
            ("4 list_commands", Some(&list)),
            ("boardsize 8", Some("= ")),
            ("boardsize 10", Some("? unacceptable size")),
            ("boardsize x", Some("? syntax error")),
            ("clear_board", Some("= ")),
            ("komi 6.5", Some("= ")),
            ("komi x", Some("? syntax error")),
            ("play b d3", Some("= ")),
            ("play b c3", Some("? illegal move")),
            ("play w c3", Some("= ")),
            ("play W PASS", Some("? illegal move")),
            ("play w", Some("? syntax error")),
            ("play b z9", Some("? syntax error")),
            ("play purple d3", Some("? syntax error")),
            ("5 undo", Some("=5 ")),
            ("undo", Some("= ")),
            ("undo", Some("? cannot undo")),
            ("genmove B", Some("= c4")),
            ("genmove white", Some("= e3")),
            ("reg_genmove b", Some("= f2")),
            ("showboard", Some(board)),
            ("final_score", Some("? cannot score")),
            ("time_settings 0 1 0", Some("= ")),
            ("time_settings 0 1", Some("? syntax error")),
            ("time_left b 10 0", Some("= ")),
            (
                "time_left b -1 0",
                Some("? time must be between 0 and 32000000 seconds"),
            ),
            ("list_games", Some("= Othello\nMill\nTicTacToe")),
            ("set_game Othello", Some("= ")),
            ("set_game Chess", Some("? unknown game \"Chess\"")),
            (
                "position",
                Some("= ---------------------------OX------XO--------------------------- X"),
            ),
            ("perft 3", Some("= 56")),
            ("perft 99", Some("? perft depth must be between 0 and 20")),
            ("perft 21", Some("? perft depth must be between 0 and 20")),
            ("perft x", Some("? syntax error")),
            ("frobnicate", Some("? unknown command")),
            ("8 frobnicate", Some("?8 unknown command")),
            ("", None),
            ("# comment", None),
            ("   \t ", None),
            ("\tname\t# trailing\r", Some("= iago")),
            ("9 na\u{1}me", Some("=9 iago")),
            (
                "12 set_position --------------------------------------------------------------XO X",
                Some("=12 "),
            ),
            ("13 genmove b", Some("=13 pass")),
            (
                "14 position",
                Some("=14 --------------------------------------------------------------XO O"),
            ),
            ("15 final_score", Some("?15 cannot score")),
            ("16 genmove w", Some("=16 f8")),
            ("17 final_score", Some("=17 W+64")),
            ("18 genmove b", Some("=18 pass")),
            (
                "set_position nonsense",
                Some(
                    "? not a game: \"nonsense\" is neither moves (f5d6...), a position string, a GGS board string ([8 ...]) nor a GGF record ((;...;))",
                ),
            ),
            ("set_depth 0", Some("= ")),
            (
                "set_depth 65",
                Some("? depth must be between 1 and 64, or 0 or none for no limit"),
            ),
            (
                "set_depth -1",
                Some("? depth must be between 1 and 64, or 0 or none for no limit"),
            ),
            ("set_depth x", Some("? syntax error")),
            ("set_nodes 1000", Some("= ")),
            ("set_movetime 100", Some("= ")),
            (
                "set_movetime 86400001",
                Some("? movetime must be between 1 and 86400000 ms, or 0 or none for no limit"),
            ),
            (
                "set_nodes -5",
                Some("? nodes must be at least 1, or 0 or none for no limit"),
            ),
            ("time_left b 0.734 0", Some("= ")),
            (
                "time_left b 1e308 0",
                Some("? time must be between 0 and 32000000 seconds"),
            ),
            (
                "time_settings -1 0 0",
                Some("? time must be between 0 and 32000000 seconds"),
            ),
            ("time_left b soon 0", Some("? syntax error")),
            ("hash 16", Some("= ")),
            ("hash 0", Some("? hash must be between 1 and 4096 MB")),
            ("hash 100000", Some("? hash must be between 1 and 4096 MB")),
            ("threads 1", Some("= ")),
            ("threads 0", Some("? threads must be between 1 and 1024")),
            ("seed 5", Some("= ")),
            ("seed none", Some("= ")),
            ("set_eval simple", Some("= ")),
            ("7 quit", Some("=7 ")),
            ("name", None),
        ],
    );
}

/// Address space for the engine with tables of tens of MiB, not for gigabytes.
const MEMORY_LIMIT_KIB: u64 = 2_000_000;

#[test]
fn a_hash_size_that_cannot_be_had_is_refused_and_the_table_kept() {
    let command = with_memory_limit(MEMORY_LIMIT_KIB, &["--book", "none", "--depth", "3"]);
    let input = "1 hash 16\n2 play b d3\n3 hash 4096\n4 genmove w\n5 hash 32\n6 hash 4096\n\
                 7 genmove b\n8 quit\n";
    let (output, code) = run_command(command, input.as_bytes());
    let replies: Vec<&str> = output.split("\n\n").collect();
    assert_eq!(replies.len(), 9, "{output}");
    assert_eq!(
        replies[..3],
        [
            "=1 ",
            "=2 ",
            "?3 cannot allocate 4096 MB for the hash table; keeping 16 MB"
        ]
    );
    let white = replies[3].strip_prefix("=4 ").expect(replies[3]);
    assert!(["c3", "c5", "e3"].contains(&white), "{output}");
    assert_eq!(
        replies[4..6],
        [
            "=5 ",
            "?6 cannot allocate 4096 MB for the hash table; keeping 32 MB"
        ]
    );
    assert!(
        replies[6].starts_with("=7 ") && replies[6].len() == 5,
        "{output}"
    );
    assert_eq!(replies[7..], ["=8 ", ""]);
    assert_eq!(code, Some(0));
}

#[test]
fn end_of_input_without_quit() {
    transcript(&[], &[("1 name", Some("=1 iago"))]);
    let (output, code) = run_all(&[], b"");
    assert_eq!((output.as_str(), code), ("", Some(0)));
}

#[test]
fn invalid_bytes_get_an_error_reply() {
    let mut input = b"1 name\n\xff\xfe\n".to_vec();
    input.extend(vec![b'y'; 1 << 20]);
    input.extend(b"\nnu\0l\n2 name\n");
    let (output, code) = run_all(&[], &input);
    let replies: Vec<&str> = output.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 5, "{output}");
    assert_eq!(replies[0], "=1 iago");
    assert!(replies[1].starts_with("? invalid input"), "{output}");
    assert!(
        replies[2].starts_with("? invalid input: line too long"),
        "{output}"
    );
    assert!(replies[3].starts_with("? invalid input"), "{output}");
    assert_eq!(replies[4], "=2 iago");
    assert_eq!(code, Some(0));
}

#[test]
fn quit_waits_for_the_search_before_it() {
    // One write: a search, then quit and a command after it. The search runs to its
    // depth (GTP has no interrupt), its move is answered, then quit, and nothing after.
    let (output, code, log) = run_logged(
        &["--book", "none", "--hash", "16"],
        b"1 set_depth 12\n2 genmove b\n3 quit\n4 name\n",
    );
    let replies: Vec<&str> = output.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 3, "{output}");
    assert_eq!(replies[0], "=1 ");
    let mv: Move = replies[1].strip_prefix("=2 ").unwrap().parse().unwrap();
    assert!(Position::start().try_play(mv).is_some(), "{output}");
    assert!(log.contains(" depth 12 "), "{log}");
    assert_eq!(replies[2], "=3 ");
    assert_eq!(code, Some(0));
}

#[test]
fn implicit_passes_are_accepted() {
    // Black has no move; White may move at once (an implicit pass), and after that the game
    // is over: every genmove answers pass.
    transcript(
        RANDOM,
        &[
            (
                "set_position --------------------------------------------------------------XO X",
                Some("= "),
            ),
            ("play b g1", Some("? illegal move")),
            ("play w f8", Some("= ")),
            ("genmove b", Some("= pass")),
            ("genmove w", Some("= pass")),
            ("play b pass", Some("= ")),
            ("final_score", Some("= W+64")),
            ("undo", Some("= ")),
            ("undo", Some("= ")),
            ("play b pass", Some("= ")),
            ("play w f8", Some("= ")),
            ("final_score", Some("= W+64")),
        ],
    );
}

/// Plays a whole game with genmove for both colours (one side searching, one side
/// random), checking every move, and the final score against the rules.
fn whole_game(args: &[&str]) {
    let mut engine = Engine::start(args);
    let mut pos = Position::start();
    let mut id = 0;
    let mut passes_in_a_row = 0;
    while passes_in_a_row < 2 {
        id += 1;
        let colour = if pos.side == iago::game::Color::Black {
            "b"
        } else {
            "w"
        };
        engine.send(&format!("{id} genmove {colour}"));
        let reply = engine.line();
        assert_eq!(engine.line(), "");
        let text = reply
            .strip_prefix(&format!("={id} "))
            .unwrap_or_else(|| panic!("{reply}"));
        let mv: Move = text.parse().unwrap();
        assert_eq!(text, mv.to_string(), "lower case");
        if mv.is_pass() {
            assert!(pos.has_no_move(), "pass with moves in {pos:?}");
            passes_in_a_row += 1;
            if !pos.is_game_over() {
                pos = pos.pass();
            }
        } else {
            passes_in_a_row = 0;
            pos = pos
                .try_play(mv)
                .unwrap_or_else(|| panic!("illegal {mv} in {pos:?}"));
        }
        assert!(id < 200, "game does not end");
    }
    assert!(pos.is_game_over());
    engine.send("final_score");
    let score = engine.line();
    let black = if pos.side == iago::game::Color::Black {
        pos.final_disc_difference()
    } else {
        -pos.final_disc_difference()
    };
    let expected = match black {
        0 => "= 0".to_string(),
        d if d > 0 => format!("= B+{d}"),
        d => format!("= W+{}", -d),
    };
    assert_eq!(score, expected);
    engine.send("quit");
    assert_eq!(engine.line(), "");
    assert_eq!(engine.line(), "= ");
    let (rest, code) = engine.finish();
    assert_eq!((rest, code), (vec!["".to_string()], Some(0)));
}

#[test]
fn whole_games_to_the_end() {
    whole_game(&["--depth", "2"]);
    whole_game(RANDOM);
}

/// GoGui's drawing of the start position: rows from the top, Othello's d4 and e5 white.
const GOGUI_START: &str = "= 
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . O X . . .
. . . X O . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .";

#[test]
fn gogui_rules_commands_byte_for_byte() {
    transcript(
        RANDOM,
        &[
            ("known_command gogui-rules_board", Some("= true")),
            ("known_command gogui-analyze_commands", Some("= true")),
            ("1 gogui-rules_game_id", Some("=1 Othello")),
            ("gogui-rules_board_size", Some("= 8")),
            ("gogui-rules_board", Some(GOGUI_START)),
            ("gogui-rules_legal_moves", Some("= C5 D6 E3 F4")),
            ("gogui-rules_side_to_move", Some("= black")),
            (
                "gogui-rules_board_gfx",
                Some("= CLEAR\nCIRCLE C5 D6 E3 F4\nTEXT Black 2, White 2; black to move"),
            ),
            ("gogui-rules_final_result", Some("? game not over")),
            (
                "gogui-analyze_commands",
                Some(
                    "= gfx/Legal Moves/gogui-rules_board_gfx\nstring/Evaluation/eval\n\
                     string/Final Result/gogui-rules_final_result\nstring/Position/position\n\
                     hstring/Board/showboard",
                ),
            ),
            // Arguments, bad points and illegal moves are refused and change nothing.
            ("gogui-rules_board x", Some("? syntax error")),
            ("gogui-rules_legal_moves all", Some("? syntax error")),
            ("play b D9", Some("? syntax error")),
            ("play b I4", Some("? syntax error")),
            ("play b J4", Some("? syntax error")),
            ("play b D", Some("? syntax error")),
            ("play b D4", Some("? illegal move")),
            ("play b C4", Some("? illegal move")),
            ("play w C4", Some("? illegal move")),
            ("gogui-rules_board", Some(GOGUI_START)),
            ("gogui-rules_side_to_move", Some("= black")),
            // GoGui's D6 is Othello's d3 (rows count from the bottom).
            ("play B D6", Some("= ")),
            (
                "position",
                Some("= -------------------X-------XX------XO--------------------------- O"),
            ),
            ("gogui-rules_side_to_move", Some("= white")),
            ("gogui-rules_legal_moves", Some("= C4 C6 E6")),
            ("undo", Some("= ")),
            ("gogui-rules_board", Some(GOGUI_START)),
        ],
    );
}

#[test]
fn gogui_points_only_after_a_gogui_command() {
    // Before any GoGui command, d3 is Othello's d3; after one, GoGui's D6 is the same move.
    let d3 = "= -------------------X-------XX------XO--------------------------- O";
    transcript(RANDOM, &[("play b d3", Some("= ")), ("position", Some(d3))]);
    transcript(
        RANDOM,
        &[
            ("gogui-rules_game_id", Some("= Othello")),
            ("play b d6", Some("= ")),
            ("position", Some(d3)),
        ],
    );
}

#[test]
fn gogui_genmove_answers_a_gogui_point() {
    let mut engine = Engine::start(&["--protocol", "gtp", "--depth", "2", "--book", "none"]);
    let mut ask = |line: &str| {
        engine.send(line);
        let mut reply = engine.until(str::is_empty);
        reply.pop();
        reply.join("\n")
    };
    assert_eq!(ask("gogui-rules_side_to_move"), "= black");
    let legal = ask("gogui-rules_legal_moves");
    let reply = ask("genmove b");
    let point = reply.strip_prefix("= ").expect("a move");
    assert!(
        legal.split(' ').any(|m| m == point),
        "{point} not in {legal}"
    );
    assert_eq!(ask("gogui-rules_side_to_move"), "= white");
}

#[test]
fn gogui_passes_and_the_final_result() {
    // White has no move here and Black has (e8): White passes.
    let pass = format!("{}{}---- O", "X".repeat(40), "O".repeat(20));
    let full = format!("{}{} X", "X".repeat(40), "O".repeat(24));
    transcript(
        RANDOM,
        &[
            ("gogui-rules_game_id", Some("= Othello")),
            (&format!("set_position {pass}"), Some("= ")),
            ("gogui-rules_side_to_move", Some("= white")),
            ("gogui-rules_legal_moves", Some("= pass")),
            (
                "gogui-rules_board_gfx",
                Some("= CLEAR\nTEXT Black 40, White 20; white has to pass"),
            ),
            ("play w A1", Some("? illegal move")),
            ("genmove w", Some("= pass")),
            ("gogui-rules_side_to_move", Some("= black")),
            ("gogui-rules_legal_moves", Some("= E1 F1 G1 H1")),
            (&format!("set_position {full}"), Some("= ")),
            ("gogui-rules_legal_moves", Some("= ")),
            // Nobody is to move once the game has ended (it answered `black` here).
            ("gogui-rules_side_to_move", Some("? game over")),
            (
                "gogui-rules_final_result",
                Some("= Black wins by 16: Black 40, White 24 discs."),
            ),
            (
                "gogui-rules_board_gfx",
                Some("= CLEAR\nTEXT Black wins by 16: Black 40, White 24 discs."),
            ),
            ("play b pass", Some("= ")),
            (
                "gogui-rules_final_result",
                Some("= Black wins by 16: Black 40, White 24 discs."),
            ),
        ],
    );
}

/// `showboard` of a finished game says the game is over, not whose move it is; one that
/// goes on says who is to move.
#[test]
fn showboard_says_when_the_game_is_over() {
    let finished = format!("{}{} O", "X".repeat(40), "O".repeat(24));
    let input = format!("set_position {finished}\nshowboard\nset_position f5\nshowboard\nquit\n");
    let (output, code) = run_all(RANDOM, input.as_bytes());
    assert_eq!(code, Some(0));
    let boards: Vec<&str> = output
        .split("\n\n")
        .filter(|r| r.contains("a b c"))
        .collect();
    assert_eq!(boards.len(), 2, "{output}");
    assert!(boards[0].contains("  game over"), "{output}");
    assert!(!boards[0].contains("to move"), "{output}");
    assert!(boards[1].contains("  white to move"), "{output}");
}
