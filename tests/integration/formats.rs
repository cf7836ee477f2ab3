//! Squares, position strings, OBF and WTHOR: every writer's output reads back the same,
//! every malformed input of a corpus is an error, and random input never panics.

use crate::common::{random_board, random_game_positions, rng, shared_data_dir};
use iago::game::{Color, Game};
use iago::othello::notation::{format_position, parse_position};
use iago::othello::obf::{ObfProblem, parse_obf_line, read_obf_file};
use iago::othello::wthor::{WthorGame, encode_wthor, parse_wthor, read_wthor_dir};
use iago::othello::{Move, Position};
use rand::RngExt;
use rand::rngs::StdRng;

const START: &str = "---------------------------OX------XO--------------------------- X";

fn random_position(rng: &mut StdRng) -> Position {
    let (player, opponent) = random_board(rng);
    let side = if rng.random_bool(0.5) {
        Color::Black
    } else {
        Color::White
    };
    Position {
        player,
        opponent,
        side,
    }
}

/// A random legal game from the start, passes included, as a move list.
fn random_game(rng: &mut StdRng, max_moves: usize) -> Vec<Move> {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    while moves.len() < max_moves && !pos.is_game_over() {
        let legal = pos.legal_moves();
        let legal = legal.as_ref();
        let mv = legal[rng.random_range(0..legal.len())];
        pos = pos.play(mv);
        moves.push(mv);
    }
    moves
}

#[test]
fn squares_round_trip() {
    for index in 0..64 {
        let mv = Move::from_index(index);
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        assert_eq!(mv.to_upper().parse::<Move>(), Ok(mv));
    }
    for pass in ["pass", "PA", "pa", "PASS"] {
        assert_eq!(pass.parse::<Move>(), Ok(Move::PASS));
    }
    assert_eq!(Move::PASS.to_string().parse::<Move>(), Ok(Move::PASS));
    assert_eq!(Move::PASS.to_upper().parse::<Move>(), Ok(Move::PASS));
}

#[test]
fn position_strings_round_trip_in_every_spelling() {
    let mut rng = rng(11);
    let black = ['X', 'x', '*', 'B', 'b'];
    let white = ['O', 'o', '0', 'W', 'w'];
    let empty = ['-', '.', '_'];
    for _ in 0..2_000 {
        let pos = random_position(&mut rng);
        let text = format_position(&pos);
        assert_eq!(text.len(), 66);
        assert_eq!(parse_position(&text), Ok(pos));
        // The same position spelt with random synonyms and random whitespace.
        let mut lenient = String::new();
        for c in text.chars() {
            let choices: &[char] = match c {
                'X' => &black,
                'O' => &white,
                '-' => &empty,
                _ => &[' '],
            };
            lenient.push(choices[rng.random_range(0..choices.len())]);
            if rng.random_bool(0.1) {
                lenient.push([' ', '\t', '\n'][rng.random_range(0..3)]);
            }
        }
        assert_eq!(parse_position(&lenient), Ok(pos), "{lenient:?}");
    }
    assert_eq!(parse_position(START), Ok(Position::start()));
}

#[test]
fn obf_lines_round_trip() {
    let mut rng = rng(12);
    for _ in 0..200 {
        for (player, opponent) in random_game_positions(&mut rng).into_iter().step_by(5) {
            let position = Position {
                player,
                opponent,
                side: Color::White,
            };
            let moves = position
                .legal_moves()
                .as_ref()
                .iter()
                .map(|&mv| (mv, rng.random_range(-64..=64)))
                .collect();
            let problem = ObfProblem { position, moves };
            assert_eq!(parse_obf_line(&problem.to_line()), Ok(problem));
        }
    }
}

#[test]
fn wthor_games_round_trip_with_passes() {
    let mut rng = rng(13);
    let games: Vec<WthorGame> = (0..500)
        .map(|_| WthorGame {
            moves: random_game(&mut rng, 70),
            black_discs: rng.random_range(0..=64),
            theoretical_black: rng.random_range(0..=64),
            year: 1999,
        })
        .collect();
    assert!(
        games.iter().any(|g| g.moves.contains(&Move::PASS)),
        "no pass among the random games"
    );
    let bytes = encode_wthor(&games, 1999).unwrap();
    assert_eq!(parse_wthor(&bytes), Ok(games));
}

#[test]
fn wthor_errors_and_skipped_games() {
    let game = WthorGame {
        moves: ["f5", "f6", "e6"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect(),
        black_discs: 40,
        theoretical_black: 40,
        year: 2000,
    };
    let bytes = encode_wthor(std::slice::from_ref(&game), 2000).unwrap();
    // Truncated anywhere: an error, never a panic.
    for len in 0..bytes.len() {
        assert!(parse_wthor(&bytes[..len]).is_err(), "length {len}");
    }
    // A 10x10 board is not ours.
    let mut other_size = bytes.clone();
    other_size[12] = 10;
    assert!(parse_wthor(&other_size).is_err());
    // An illegal move or a byte that is not a square: the game is skipped.
    for bad_move in [11u8, 19, 90, 255] {
        let mut bad = bytes.clone();
        bad[16 + 8 + 1] = bad_move;
        assert_eq!(parse_wthor(&bad), Ok(vec![]), "move byte {bad_move}");
    }
}

#[test]
fn malformed_squares_are_errors() {
    let corpus = [
        "", " ", "a", "a0", "a9", "i1", "j5", "1a", "11", "aa", "a10", "a1 ", " a1", "é1", "a١",
        "pas", "passs", "p", "--", "PA ", "z9", "@1", "`1", "a:", "a/", "\0\0",
    ];
    for bad in corpus {
        assert!(bad.parse::<Move>().is_err(), "{bad:?} parsed");
    }
}

#[test]
fn malformed_position_strings_are_errors() {
    let long = format!("{START} X");
    let short = &START[..40];
    let no_side = &START[..64];
    let corpus = [
        "",
        " ",
        "X",
        short,
        no_side,
        long.as_str(),
        "---------------------------OX------XO--------------------------- Y",
        "---------------------------OX------XO--------------------------- -",
        "---------------------------OX------XO---------------------------?X",
        "---------------------------OX------XQ--------------------------- X",
        "---------------------------OX------XO--------------------------- X;",
        "---------------------------OX------XO-------------------------- X",
        "---------------------------OX------XO---------------------------- X",
        "---------------------------OX------XO---------------------------é X",
    ];
    for bad in corpus {
        let error = parse_position(bad);
        assert!(error.is_err(), "{bad:?} parsed");
        // Errors explain themselves.
        assert!(!error.unwrap_err().to_string().is_empty());
    }
}

#[test]
fn malformed_obf_lines_are_errors() {
    let corpus = [
        "",
        "   ",
        ";",
        "; D3:+2;",
        "---------------------------OX------XO---------------------------",
        "---------------------------OX------XO--------------------------- X D3:+2",
        "---------------------------OX------XO--------------------------- X; D3",
        "---------------------------OX------XO--------------------------- X; D3:",
        "---------------------------OX------XO--------------------------- X; D3:two",
        "---------------------------OX------XO--------------------------- X; D3:+2:+2;",
        "---------------------------OX------XO--------------------------- X; D3:+99;",
        "---------------------------OX------XO--------------------------- X; D3:-65;",
        "---------------------------OX------XO--------------------------- X; A1:+0;",
        "---------------------------OX------XO--------------------------- X; PA:+0;",
        "---------------------------OX------XO--------------------------- X; Z9:+0;",
        "---------------------------OX------XO--------------------------- X; D3:+2; D3:+2;",
        "---------------------------OX------XO--------------------------- X; :+2;",
        "---------------------------OX------XO--------------------------- X; --:x;",
        "---------------------------OX------XO--------------------------- X; D3:99999999999;",
        "---------------------------OX------XO--------------------------- Q; D3:+2;",
    ];
    for bad in corpus {
        assert!(parse_obf_line(bad).is_err(), "{bad:?} parsed");
    }
}

/// Random text: mostly characters the parsers look for, some arbitrary ones.
fn random_text(rng: &mut StdRng) -> String {
    const ALPHABET: &[char] = &[
        'X',
        'O',
        '-',
        'x',
        'o',
        '.',
        '_',
        '*',
        '0',
        'b',
        'w',
        ' ',
        ';',
        ':',
        '+',
        '-',
        '1',
        '2',
        '8',
        '9',
        'a',
        'h',
        'i',
        'P',
        'A',
        's',
        '\t',
        '\n',
        'é',
        '\u{0}',
        '\u{10FFFF}',
    ];
    let len = rng.random_range(0..120);
    (0..len)
        .map(|_| {
            if rng.random_bool(0.9) {
                ALPHABET[rng.random_range(0..ALPHABET.len())]
            } else {
                rng.random::<char>()
            }
        })
        .collect()
}

/// A valid line with a few characters changed, deleted or inserted, or cut short: inputs
/// that get deep into a parser.
fn mutated(rng: &mut StdRng, valid: &str) -> String {
    let mut chars: Vec<char> = valid.chars().collect();
    for _ in 0..rng.random_range(1..4) {
        if chars.is_empty() {
            break;
        }
        let at = rng.random_range(0..chars.len());
        match rng.random_range(0..4) {
            0 => chars[at] = random_text(rng).chars().next().unwrap_or('?'),
            1 => {
                chars.remove(at);
            }
            2 => chars.insert(at, [';', ':', ' ', '-', 'X'][rng.random_range(0..5)]),
            _ => chars.truncate(at),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn random_inputs_never_panic() {
    let mut rng = rng(14);
    let obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; \
               G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24; --:-127;";
    assert!(parse_obf_line(obf).is_ok());
    for _ in 0..20_000 {
        let text = random_text(&mut rng);
        let _ = text.parse::<Move>();
        let _ = parse_position(&text);
        let _ = parse_obf_line(&text);
        let _ = parse_obf_line(&mutated(&mut rng, obf));
        let _ = parse_position(&mutated(&mut rng, START));
        let _ = mutated(&mut rng, "h8").parse::<Move>();
    }
    let game = WthorGame {
        moves: random_game(&mut rng, 60),
        black_discs: 32,
        theoretical_black: 32,
        year: 2020,
    };
    let valid = encode_wthor(&[game], 2020).unwrap();
    for _ in 0..5_000 {
        let len = rng.random_range(0..200);
        let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let _ = parse_wthor(&bytes);
        let mut flipped = valid.clone();
        for _ in 0..rng.random_range(1..6) {
            let at = rng.random_range(0..flipped.len());
            flipped[at] = rng.random();
        }
        let _ = parse_wthor(&flipped);
    }
}

#[test]
fn shared_problem_files_read_and_round_trip() {
    let Some(dir) = shared_data_dir() else {
        eprintln!("shared data not found: skipping the FFO files");
        return;
    };
    let mut total = 0;
    for (name, count) in [
        ("fforum-1-19.obf", 19),
        ("fforum-20-39.obf", 20),
        ("fforum-40-59.obf", 20),
        ("fforum-60-79.obf", 20),
        ("hard-20.obf", 276),
    ] {
        let problems = read_obf_file(dir.join("problems").join(name)).unwrap();
        assert_eq!(problems.len(), count, "{name}");
        for problem in &problems {
            assert_eq!(parse_obf_line(&problem.to_line()).as_ref(), Ok(problem));
            // The best move comes first (later ones are not always in order).
            if let Some(&(_, first)) = problem.moves.first() {
                assert_eq!(problem.best_score(), Some(first), "{name}");
            }
        }
        total += problems.len();
    }
    assert_eq!(total, 355);
}

#[test]
fn shared_wthor_games_all_replay() {
    let Some(dir) = shared_data_dir() else {
        eprintln!("shared data not found: skipping the WTHOR files");
        return;
    };
    let games = read_wthor_dir(dir.join("wthor")).unwrap();
    // Every game of the database replays, so none is skipped.
    assert_eq!(games.len(), 124_106);
    let passes = games
        .iter()
        .filter(|g| g.moves.contains(&Move::PASS))
        .count();
    assert!(passes > 1_000, "{passes} games with a pass");
    // The recorded result matches the board in the great majority of games (about 1%
    // were stopped early and carry the agreed result).
    let matching = games
        .iter()
        .filter(|g| {
            let end = g.final_position();
            let (black, white) = (end.black().count_ones(), end.white().count_ones());
            let empties = 64 - black - white;
            let black_discs = match black.cmp(&white) {
                std::cmp::Ordering::Greater => black + empties,
                std::cmp::Ordering::Less => black,
                std::cmp::Ordering::Equal => 32,
            };
            u32::from(g.black_discs) == black_discs
        })
        .count();
    assert!(matching * 100 > games.len() * 98, "{matching}");
}

#[test]
fn missing_files_are_errors() {
    assert!(read_obf_file("/nonexistent/problems.obf").is_err());
    assert!(read_wthor_dir("/nonexistent/wthor").is_err());
    assert!(iago::othello::wthor::read_wthor_file("/nonexistent/WTH_2000.wtb").is_err());
}
