//! `iago analyze` through the real binary: a full game whose exact scores are checked
//! against separate solves, the input forms giving the same analysis, the table, JSON
//! and SVG outputs, and the errors bad input gets.

use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;

use crate::common::{ArrayBoard, iago, scratch, stderr, stdout};
use crate::protocol_io::IAGO;
use iago::game::Game;
use iago::othello::eval::othello_evaluator;
use iago::othello::game_input::parse_game;
use iago::othello::notation::format_position;
use iago::othello::wthor::{WthorGame, encode_wthor};
use iago::othello::{Move, Position};
use iago::search::{Focus, Limits, Searcher};

/// A full game (60 moves, Black wins 34-30).
const GAME: &str = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1";

/// One move of the JSON output, read back.
#[derive(Debug, PartialEq)]
struct Row {
    number: usize,
    color: String,
    empties: u32,
    depth: u32,
    played: String,
    played_score: i32,
    best: String,
    best_score: i32,
    lost: i32,
    exact: bool,
}

/// The value of `"key": ` in a one-line JSON object.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let start = line
        .find(&format!("\"{key}\": "))
        .unwrap_or_else(|| panic!("{key} in {line}"))
        + key.len()
        + 4;
    let rest = &line[start..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim_matches('"')
}

/// The rows of the JSON output (one move a line, as the command writes them).
fn rows(json: &str) -> Vec<Row> {
    json.lines()
        .filter(|line| line.trim_start().starts_with("{\"number\""))
        .map(|line| Row {
            number: field(line, "number").parse().unwrap(),
            color: field(line, "color").into(),
            empties: field(line, "empties").parse().unwrap(),
            depth: field(line, "depth").parse().unwrap(),
            played: field(line, "played").into(),
            played_score: field(line, "played_score").parse().unwrap(),
            best: field(line, "best").into(),
            best_score: field(line, "best_score").parse().unwrap(),
            lost: field(line, "lost").parse().unwrap(),
            exact: field(line, "exact") == "true",
        })
        .collect()
}

/// The position before each placed move of a transcript (passes skipped).
fn positions(game: &str) -> Vec<(Position, Move)> {
    let input = parse_game(game).expect("a legal game");
    input
        .positions()
        .into_iter()
        .filter(|(_, mv)| !mv.is_pass())
        .collect()
}

#[test]
fn a_full_game_exact_scores_agree_with_separate_solves() {
    let output = iago(&["analyze", GAME, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = stdout(&output);
    let rows = rows(&json);
    let positions = positions(GAME);
    assert_eq!(rows.len(), 60);
    let mut obf = String::new();
    let mut solved_here = 0;
    for (row, (pos, mv)) in rows.iter().zip(&positions) {
        assert_eq!(row.played, mv.to_string(), "{row:?}");
        assert_eq!(row.empties, pos.empty_count());
        // The loss is rounded once, the scores each: they may differ by a disc.
        assert!(
            (row.lost - (row.best_score - row.played_score).max(0)).abs() <= 1,
            "{row:?}"
        );
        assert!(pos.try_play(row.best.parse().unwrap()).is_some(), "{row:?}");
        // The default solves from 22 empty squares on, and only there.
        assert_eq!(row.exact, row.empties <= 22, "{row:?}");
        if !row.exact {
            continue;
        }
        assert!(row.best_score >= row.played_score, "{row:?}");
        if row.empties <= 11 {
            let board = ArrayBoard::from_position(pos);
            assert_eq!(board.solve(), row.best_score, "{row:?}");
            let child = ArrayBoard::from_position(&pos.play(*mv));
            let played = -child.solve();
            assert_eq!(played, row.played_score, "{row:?}");
            solved_here += 1;
        } else {
            obf.push_str(&format!("{};\n", format_position(pos)));
        }
    }
    assert_eq!(solved_here, 11);
    // The deeper ones through `iago solve`, a separate search with cleared tables.
    let dir = scratch("analyze", "full-game");
    let file = dir.join("exact.obf");
    std::fs::write(&file, &obf).unwrap();
    let solved = iago(&["solve", file.to_str().unwrap()]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    let scores: Vec<i32> = stdout(&solved)
        .lines()
        .skip(1)
        .filter(|line| !line.starts_with("total"))
        .map(|line| line.split_whitespace().nth(3).unwrap().parse().unwrap())
        .collect();
    let deep: Vec<i32> = rows
        .iter()
        .filter(|row| row.exact && row.empties > 11)
        .map(|row| row.best_score)
        .collect();
    assert_eq!(scores, deep);
    assert_eq!(deep.len(), 11);
    // The summary adds up the rows; the game ends 34-30.
    let lost = |color: &str| -> i32 {
        let rows = rows.iter().filter(|row| row.color == color);
        rows.map(|row| row.lost).sum()
    };
    assert!(
        json.contains(&format!(
            "\"players\": {{\"black\": {{\"moves\": 31, \"mistakes\": {}, \"lost\": {}, \"exact_from\": 39}}",
            rows.iter().filter(|r| r.color == "black" && r.lost > 0).count(),
            lost("black")
        )),
        "{json}"
    );
    assert!(
        json.contains("\"exact_from\": 40}},\n \"result\": 4}"),
        "{json}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_input_form_gives_the_same_analysis() {
    let moves = "f5d6c3d3c4f4f6f3e6e7";
    let args = ["--json", "--depth", "4"];
    let analysis = |game: &str| {
        let mut all = vec!["analyze", game];
        all.extend(args);
        let output = iago(&all);
        assert!(output.status.success(), "{game}: {}", stderr(&output));
        rows(&stdout(&output))
    };
    let expected = analysis(moves);
    assert_eq!(expected.len(), 10);
    let start = format_position(&Position::start());
    let ggs_squares = start[..64].replace('X', "*");
    let dir = scratch("analyze", "forms");
    let ggf = dir.join("game.ggf");
    std::fs::write(
        &ggf,
        "(;GM[Othello]PB[A]PW[B]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3]W[D3]B[C4]W[F4]B[F6]W[F3]B[E6]W[E7];)\n",
    )
    .unwrap();
    let transcript = dir.join("game.txt");
    std::fs::write(&transcript, "1. F5 d6 2. C3 d3\n3. c4 f4 f6 f3 e6 e7\n").unwrap();
    let wthor = dir.join("games.wtb");
    let game = WthorGame {
        moves: parse_game(moves).unwrap().moves,
        black_discs: 32,
        theoretical_black: 32,
        year: 2026,
    };
    std::fs::write(&wthor, encode_wthor(&[game.clone(), game], 2026).unwrap()).unwrap();
    let forms = [
        "F5 D6 C3 D3 C4 F4 F6 F3 E6 E7".to_string(),
        format!("{start} {moves}"),
        format!("[8 {ggs_squares} *] {moves}"),
        ggf.display().to_string(),
        transcript.display().to_string(),
        wthor.display().to_string(),
    ];
    for form in &forms {
        assert_eq!(analysis(form), expected, "{form}");
    }
    let output = iago(&[
        "analyze",
        "--wthor",
        wthor.to_str().unwrap(),
        "--game",
        "2",
        "--json",
        "--depth",
        "4",
    ]);
    assert_eq!(rows(&stdout(&output)), expected);
    // Stdin.
    let mut child = Command::new(IAGO)
        .args(["analyze", "-", "--json", "--depth", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(moves.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(rows(&stdout(&output)), expected);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_table_and_the_svg() {
    let dir = scratch("analyze", "table");
    let svg = dir.join("curve.svg");
    let output = iago(&[
        "analyze",
        GAME,
        "--depth",
        "6",
        "--solve",
        "12",
        "--verify",
        "0",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 1 + 60 + 3, "{text}");
    assert_eq!(
        lines[0],
        "Black: ?   White: ?   start: ---------------------------OX------XO--------------------------- X"
    );
    assert_eq!(
        lines[1],
        "  # color emp played score   best score lost  search"
    );
    let first: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(&first[..4], ["1", "black", "60", "f5"]);
    assert_eq!(first.last(), Some(&"d6"));
    // The game has two passes, counted as moves as NBoard counts them.
    assert!(lines[61].starts_with(" 62 white   1     h1    -4     h1    -4    0  exact"));
    assert!(lines[62].starts_with("Black: 31 moves, "), "{}", lines[62]);
    assert!(lines[62].ends_with("; exact from move 49"), "{}", lines[62]);
    assert!(lines[63].starts_with("White: 29 moves, "), "{}", lines[63]);
    assert_eq!(lines[64], "result: 34 - 30 (+4 for Black)");
    // A mistake's line ends with a marker.
    for line in &lines[2..62] {
        let lost: i32 = line.split_whitespace().nth(7).unwrap().parse().unwrap();
        assert_eq!(line.ends_with('<'), lost > 0, "{line}");
    }
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(picture.trim_end().ends_with("</svg>"));
    assert_eq!(picture.matches("<polyline").count(), 1);
    assert!(picture.contains("exact from move 49"));
    let mistakes = lines[2..62].iter().filter(|l| l.ends_with('<')).count();
    // One dot a mistake, and the two of the legend.
    assert_eq!(picture.matches("<circle").count(), mistakes + 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_unfinished_game_and_help() {
    let output = iago(&["analyze", "f5d6", "--depth", "2"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        text.ends_with("result: not over, 58 empty squares left\n"),
        "{text}"
    );
    assert!(text.contains("White: 1 move, "), "{text}");
    let help = stdout(&iago(&["analyze", "--help"]));
    assert!(help.starts_with("usage: iago analyze GAME [OPTIONS]"));
    assert!(help.contains("\"played_score\""));
}

#[test]
fn bad_input_is_a_clear_error_and_writes_nothing() {
    let dir = scratch("analyze", "errors");
    let svg = dir.join("never.svg");
    let svg = svg.to_str().unwrap();
    let bad_ggf = dir.join("bad.ggf");
    std::fs::write(&bad_ggf, "(;GM[Othello]B[f5]W[a1];)").unwrap();
    let bad_ggf = bad_ggf.to_str().unwrap().to_string();
    let cut_ggf = dir.join("cut.ggf");
    std::fs::write(&cut_ggf, "(;GM[Othello]B[f5]").unwrap();
    let cut_ggf = cut_ggf.to_str().unwrap().to_string();
    let missing = dir.join("missing.ggf");
    let missing = missing.to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["f5d6c3a1"],
            "iago: analyze: move 4 (a1): illegal for white\n".into(),
        ),
        (
            vec!["f5 d6 zz"],
            "iago: analyze: transcript: move 3: \"zz\" is not a square (a1..h8) or a pass (pa)\n"
                .into(),
        ),
        (
            vec![&bad_ggf],
            format!("iago: analyze: {bad_ggf}: GGF: move 2 (a1) is illegal\n"),
        ),
        (
            vec![&cut_ggf],
            format!(
                "iago: analyze: {cut_ggf}: GGF: expected `(;`, `KEY[value]` fields and `;)`, stuck at \"\"\n"
            ),
        ),
        (
            vec![&missing],
            format!("iago: analyze: {missing}: no such file\n"),
        ),
        (
            vec!["--wthor", &missing],
            format!("iago: analyze: {missing}: No such file or directory (os error 2)\n"),
        ),
        (
            vec!["[8 ---]"],
            "iago: analyze: GGS board string: position string too short: 3 squares, expected 64 and the side to move\n".into(),
        ),
        (vec![], "iago: analyze: missing GAME (try `iago analyze --help`)\n".into()),
        (
            vec!["f5", "--depth", "0"],
            "iago: analyze: --depth 0: ".into(),
        ),
        (
            vec!["f5", "--verify", "65"],
            "iago: analyze: --verify 65: verify must be between 0 and 64\n".into(),
        ),
        (
            vec!["f5", "--frobnicate"],
            "iago: analyze: unknown option \"--frobnicate\" (try `iago analyze --help`)\n".into(),
        ),
        (
            vec!["f5", "--game", "2"],
            "iago: analyze: no game 2: the file holds one game\n".into(),
        ),
        (
            vec!["f5", "f6"],
            "iago: analyze: unexpected argument \"f6\"\n".into(),
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["analyze"];
        all.extend(&args);
        all.extend(["--svg", svg]);
        let output = iago(&all);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let message = stderr(&output);
        assert!(message.starts_with(&expected), "{args:?}: {message}");
        assert!(!std::path::Path::new(svg).exists(), "{args:?}");
    }
    // A picture that cannot be written: an error, and no table.
    let nowhere = dir.join("no-such-dir").join("curve.svg");
    let nowhere = nowhere.to_str().unwrap();
    let output = iago(&["analyze", "f5", "--depth", "2", "--svg", nowhere]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let message = stderr(&output);
    assert!(
        message.starts_with(&format!("iago: analyze: --svg {nowhere}: ")),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn perft_reads_the_same_forms() {
    let start = format_position(&Position::start());
    let ggs = format!("[8 {}]", start.replace('X', "*"));
    for position in ["f5d6", &format!("{start} f5 d6"), &format!("{ggs} F5D6")] {
        let output = iago(&["perft", "2", position]);
        assert!(output.status.success(), "{position}: {}", stderr(&output));
        assert!(stdout(&output).starts_with("perft 2: 21\n"), "{position}");
    }
    let output = iago(&["perft", "1", "f5", "a1"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "iago: perft: move 2 (a1): illegal for white\n"
    );
}

/// Transcripts of random games (seeded), each with the move numbers NBoard gives its
/// placed moves (a pass counts as a move), for games that pass before their end.
fn random_games_with_passes(count: usize) -> Vec<(String, Vec<usize>)> {
    use rand::RngExt;
    let mut rng = crate::common::rng(48);
    let mut games = Vec::new();
    while games.len() < count {
        let mut board = ArrayBoard::from_position(&Position::start());
        let (mut transcript, mut numbers, mut ply) = (String::new(), Vec::new(), 0);
        let mut passed_before_end = false;
        while !board.is_game_over() {
            let moves = board.legal_moves();
            ply += 1;
            if moves.is_empty() {
                board = board.swapped();
                passed_before_end = true;
                continue;
            }
            let square = moves[rng.random_range(0..moves.len())];
            transcript += &Move::from_coords((square % 8) as u8, (square / 8) as u8).to_string();
            numbers.push(ply);
            board = board.play(square);
        }
        if passed_before_end {
            games.push((transcript, numbers));
        }
    }
    games
}

/// Moves are numbered as NBoard numbers them: a pass counts as a move.
#[test]
fn move_numbers_count_passes_as_nboard_does() {
    for (game, numbers) in random_games_with_passes(2) {
        let output = iago(&["analyze", &game, "--json", "--depth", "1", "--solve", "6"]);
        assert!(output.status.success(), "{}", stderr(&output));
        let rows = rows(&stdout(&output));
        let got: Vec<usize> = rows.iter().map(|row| row.number).collect();
        assert_eq!(got, numbers, "{game}");
    }
}

/// A WTHOR game shows its players' names, from the database's `WTHOR.JOU` beside it.
#[test]
fn wthor_player_names_come_from_the_players_file_beside_it() {
    let dir = scratch("analyze", "names");
    let game = WthorGame {
        moves: parse_game("f5d6c3d3c4").unwrap().moves,
        black_discs: 32,
        theoretical_black: 32,
        year: 2026,
    };
    let mut bytes = encode_wthor(&[game], 2026).unwrap();
    // Black is player 2, White player 1.
    bytes[16 + 2] = 2;
    bytes[16 + 4] = 1;
    let wthor = dir.join("WTH_2026.wtb");
    std::fs::write(&wthor, &bytes).unwrap();
    let mut players = vec![0u8; 16];
    players[8] = 3;
    for name in [&b"???"[..], b"Tastet Marc", b"M\xfcller Eric"] {
        let mut record = name.to_vec();
        record.resize(20, 0);
        players.extend(record);
    }
    std::fs::write(dir.join("WTHOR.JOU"), &players).unwrap();
    let output = iago(&["analyze", wthor.to_str().unwrap(), "--depth", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("Black: M\u{fc}ller Eric   White: Tastet Marc   start: "),
        "{text}"
    );
    let json = stdout(&iago(&[
        "analyze",
        wthor.to_str().unwrap(),
        "--depth",
        "2",
        "--json",
    ]));
    assert!(
        json.contains("\"black\": \"M\u{fc}ller Eric\", \"white\": \"Tastet Marc\""),
        "{json}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The boxes (left, top, right, bottom) of the mistakes' labels of an SVG curve (the
/// `font-size="11"` texts, centred at x, about 0.6 of the font size a character).
fn label_boxes(svg: &str) -> Vec<(f64, f64, f64, f64, String)> {
    svg.lines()
        .filter(|line| line.starts_with("<text") && line.contains("font-size=\"11\""))
        .map(|line| {
            let number = |key: &str| -> f64 {
                let start = line.find(&format!(" {key}=\"")).unwrap() + key.len() + 3;
                line[start..].split('"').next().unwrap().parse().unwrap()
            };
            let text = line.split('>').nth(1).unwrap().split('<').next().unwrap();
            let half = text.chars().count() as f64 * 6.6 / 2.0;
            let (x, y) = (number("x"), number("y"));
            (x - half, y - 11.0, x + half, y + 2.0, text.to_string())
        })
        .collect()
}

/// The frame (left, top, right, bottom) of an SVG curve's plot: its stroked `rect`.
fn plot_frame(svg: &str) -> (f64, f64, f64, f64) {
    let line = svg
        .lines()
        .find(|line| line.starts_with("<rect") && line.contains("stroke="))
        .unwrap();
    let number = |key: &str| -> f64 {
        let start = line.find(&format!(" {key}=\"")).unwrap() + key.len() + 3;
        line[start..].split('"').next().unwrap().parse().unwrap()
    };
    let (x, y) = (number("x"), number("y"));
    (x, y, x + number("width"), y + number("height"))
}

/// The mistakes' dots (x, y, radius) of an SVG curve: the circles with a title.
fn mistake_dots(svg: &str) -> Vec<(f64, f64, f64)> {
    svg.lines()
        .filter(|line| line.starts_with("<circle") && line.contains("<title>"))
        .map(|line| {
            let number = |key: &str| -> f64 {
                let start = line.find(&format!(" {key}=\"")).unwrap() + key.len() + 3;
                line[start..].split('"').next().unwrap().parse().unwrap()
            };
            (number("cx"), number("cy"), number("r"))
        })
        .collect()
}

/// The labels of the lopsided game of docs/nboard-gui.md stay inside the plot's frame
/// and over no mistake's dot: `18.d1 -9` crossed the frame's left side and `25.h6 -2`
/// sat under the next move's dot.
#[test]
fn labels_stay_inside_the_frame_and_off_the_dots() {
    let dir = scratch("analyze", "labels");
    let game =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/nboard-gui/lopsided.ggf");
    let svg = dir.join("lopsided.svg");
    let output = iago(&[
        "analyze",
        game.to_str().unwrap(),
        "--depth",
        "6",
        "--verify",
        "0",
        "--solve",
        "14",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let picture = std::fs::read_to_string(&svg).unwrap();
    let (left, top, right, bottom) = plot_frame(&picture);
    let boxes = label_boxes(&picture);
    let dots = mistake_dots(&picture);
    assert!(boxes.len() >= 5 && dots.len() >= boxes.len(), "{boxes:?}");
    for label in &boxes {
        let inside = left <= label.0 && label.2 <= right && top <= label.1 && label.3 <= bottom;
        assert!(
            inside,
            "{} outside the frame {:?}",
            label.4,
            (left, top, right, bottom)
        );
        for &(x, y, r) in &dots {
            let apart =
                label.2 <= x - r || x + r <= label.0 || label.3 <= y - r || y + r <= label.1;
            assert!(apart, "{} over the dot at {x},{y}", label.4);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The score curve of lopsided games: the grid has its zero line and label whatever the
/// scale, and no two mistake labels overlap.
#[test]
fn the_curve_has_its_zero_line_and_labels_apart() {
    let dir = scratch("analyze", "curves");
    for (index, (game, _)) in random_games_with_passes(6).into_iter().enumerate() {
        let svg = dir.join(format!("curve-{index}.svg"));
        let output = iago(&[
            "analyze",
            &game,
            "--depth",
            "1",
            "--solve",
            "6",
            "--svg",
            svg.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let picture = std::fs::read_to_string(&svg).unwrap();
        let axis: Vec<i32> = picture
            .lines()
            .filter(|line| line.contains("text-anchor=\"end\""))
            .map(|line| {
                let text = line.split('>').nth(1).unwrap().split('<').next().unwrap();
                text.trim_start_matches('+').parse().unwrap()
            })
            .collect();
        assert!(axis.contains(&0), "{game}: axis labels {axis:?}");
        let boxes = label_boxes(&picture);
        assert!(boxes.len() >= 5, "{game}: {boxes:?}");
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                assert!(apart, "{game}: labels {} and {} overlap", a.4, b.4);
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A move's loss compares like with like: the best move's score and the played move's
/// come from searches of the same position to the same depth, and every search of the
/// game ends at an even number of empty squares (the evaluation swings by about 3 discs
/// between the two parities), the second searches of the moves in doubt (`--verify`) as
/// the first. So on a balanced self-play game, Black's view after Black's moves and
/// after White's agree within a disc (a search of the position after the move one ply
/// shallower tilted them by 2 to 3 discs against each other).
#[test]
fn moves_are_scored_like_with_like() {
    // A self-play game (`--depth 10 --seed 3`), won by White by 2 discs.
    let game = "c4e3f6e6f5c5f4g6f7d3f3g5g3e7d6c3b4b6c6d7f8g4c7b3c2f2d2c1a5a6b5a4f1e2d1e1b1b7h3h5h7g2a2a3h1h2b2a1g1h6h4h8a8g8g7c8b8a7d8e8";
    for (depth, verify) in [(7, 0), (8, 0), (7, 12)] {
        let output = iago(&[
            "analyze",
            game,
            "--json",
            "--depth",
            &depth.to_string(),
            "--verify",
            &verify.to_string(),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let rows = rows(&stdout(&output));
        let searched: Vec<&Row> = rows.iter().filter(|row| !row.exact).collect();
        assert!(searched.len() >= 30, "{rows:?}");
        for row in &searched {
            let scan = row.depth == depth || row.depth == depth - 1;
            let second = verify > 0 && (row.depth == verify || row.depth + 1 == verify);
            assert!(scan || second, "{row:?}");
            assert_eq!((row.empties - row.depth) % 2, 0, "{row:?}");
        }
        let mean_for_black = |color: &str| {
            let own: Vec<i32> = searched
                .iter()
                .filter(|row| row.color == color)
                .map(|row| {
                    if color == "black" {
                        row.played_score
                    } else {
                        -row.played_score
                    }
                })
                .collect();
            f64::from(own.iter().sum::<i32>()) / own.len() as f64
        };
        let (after_black, after_white) = (mean_for_black("black"), mean_for_black("white"));
        assert!(
            (after_black - after_white).abs() < 1.0,
            "depth {depth}, verify {verify}: Black's view {after_black:.2} after Black's moves, {after_white:.2} after White's"
        );
    }
}

/// Which moves lose discs, and how many, does not move with the depth: the moves the
/// search of `--depth` leaves in doubt (a better move found, or the played one best by
/// less than 2 discs) are searched again to the `--verify` depth, so that searches of
/// one depth decide them. With searches of the depth alone, this game's moves that lost
/// 3 discs or more were 14.h6 35.c2 37.c1 46.d1 at depth 13, 14.h6 17.d7 35.c2 37.c1 46.d1
/// at 14 and 17.d7 32.b3 35.c2 37.c1 46.d1 at 15: searches of neighbouring depths
/// disagree by a disc or two on such moves.
#[test]
fn mistakes_are_the_same_at_neighbouring_depths() {
    // A self-play game (`--depth 10 --seed 2`), won by White by 22 discs.
    let game = "c4e3f5e6f6c5f4g6f7d6e7f3g5h6b6b5d7d3h4h5h7c3a5f8e8d8c6g8f2e2b4b3g4f1c2d2c1h3h2g3e1b2a4a2g1d1a3a1b1c7b8h1g2h8g7c8b7a8a7a6";
    let mut lists = Vec::new();
    for depth in ["13", "14", "15"] {
        let output = iago(&["analyze", game, "--json", "--depth", depth]);
        assert!(output.status.success(), "{}", stderr(&output));
        let rows = rows(&stdout(&output));
        for row in rows.iter().filter(|row| row.lost > 0 && !row.exact) {
            assert!(row.depth == 18 || row.depth == 17, "depth {depth}: {row:?}");
        }
        let lost_three: Vec<String> = rows
            .iter()
            .filter(|row| row.lost >= 3)
            .map(|row| format!("{}.{}-{}", row.number, row.played, row.lost))
            .collect();
        lists.push((depth, lost_three));
    }
    assert!(lists[0].1.len() >= 3, "{lists:?}");
    assert!(
        lists.iter().all(|(_, list)| *list == lists[0].1),
        "{lists:?}"
    );
}

/// A row's best move is never worse than the move played. On this self-play game
/// (`--depth 10 --seed 1`, won by White by 18 discs) the search of the position before
/// White's 38.f7 found a5 best at -4, and f7's own search (the same depth, after that
/// search in the same tables) scored it -2: the row said the best move was 2 discs worse
/// than the one played. The played move's search now has fresh tables too, and both of
/// the row's scores are what separate searches find; were they still to disagree, the
/// played move would be the best.
#[test]
fn a_rows_best_move_is_at_least_as_good_as_the_played_one() {
    let game = "d3c5e6f5f6e3c3d2c4b5f4c2f2d6c6c7b6f3b3e7d7a3f8b4c8g3e2e1a6g6g5g4f1d1a4g1h6f7h3a5b1h5b2a1c1a2h4a7h7g7g8b8a8d8e8b7h2g2h1";
    let output = iago(&["analyze", game, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = rows(&stdout(&output));
    for row in &rows {
        assert!(row.best_score >= row.played_score, "{row:?}");
    }
    let row = rows.iter().find(|row| row.number == 38).expect("move 38");
    let (pos, played) = positions(game)[37];
    assert_eq!(played.to_string(), row.played);
    let limits = Limits {
        depth: Some(row.depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(othello_evaluator("default").unwrap());
    let best = searcher.search(&pos, &limits, &stop, &mut |_| {});
    searcher.clear();
    let focus = Focus {
        moves: Some(vec![played]),
        ..Focus::default()
    };
    let alone = searcher.search_focused(&pos, &limits, &stop, &focus, &());
    assert_eq!(
        (
            best.best_move.map(|mv| mv.to_string()),
            rounded_discs(best.score)
        ),
        (Some(row.best.clone()), row.best_score),
        "{row:?}"
    );
    assert_eq!(rounded_discs(alone.score), row.played_score, "{row:?}");
    assert!(row.best_score > row.played_score, "{row:?}");
}

/// A score in whole discs, rounded half away from zero (as `iago analyze` rounds).
fn rounded_discs(score: i32) -> i32 {
    let half = iago::othello::DISC / 2;
    if score >= 0 {
        (score + half) / iago::othello::DISC
    } else {
        (score - half) / iago::othello::DISC
    }
}
