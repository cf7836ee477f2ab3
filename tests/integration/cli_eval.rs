//! The evaluation tools run as a user runs them: `iago eval-match`, `iago accuracy` and
//! `iago train` through the real binary.

use std::path::PathBuf;

use crate::common::{iago, scratch, stdout_of};

use iago::game::Game;
use iago::othello::Position;
use iago::othello::wthor::{WthorGame, encode_wthor};

use crate::protocol_io::IAGO;

/// Wins, draws and losses in the report's row of the pairing `a vs b`.
fn results(table: &str, pairing: &str) -> [u32; 3] {
    let row = table
        .lines()
        .find(|l| l.starts_with(pairing))
        .unwrap_or_else(|| panic!("no row {pairing} in\n{table}"));
    let numbers: Vec<u32> = row[pairing.len()..]
        .split_whitespace()
        .skip(1)
        .take(3)
        .map(|n| n.parse().unwrap())
        .collect();
    [numbers[0], numbers[1], numbers[2]]
}

#[test]
fn eval_match_plays_colour_swapped_pairs_deterministically() {
    let args = [
        "eval-match",
        "discs",
        "pattern",
        "--games",
        "4",
        "--depth",
        "2",
        "--threads",
        "2",
    ];
    let first = stdout_of(&iago(&args));
    let [w, d, l] = results(&first, "discs vs pattern");
    assert_eq!(w + d + l, 4);
    // The match's report, with each side's search: the in-process engines say theirs.
    assert!(first.contains("Depth    Nodes/s"), "{first}");
    let second = stdout_of(&iago(&args));
    assert_eq!(results(&second, "discs vs pattern"), [w, d, l]);
    // The same evaluator against itself at a fixed depth: each opening's two games are
    // the same game, so the pair scores exactly one point.
    let same = stdout_of(&iago(&[
        "eval-match",
        "cowthello",
        "cowthello",
        "--games",
        "6",
        "--depth",
        "2",
        "--quiet",
    ]));
    let [w, _, l] = results(&same, "cowthello-A vs cowthello-B");
    assert_eq!(w, l, "{same}");
}

#[test]
fn eval_match_rejects_bad_requests() {
    for args in [
        &["eval-match", "discs", "no-such-eval", "--games", "2"][..],
        &["eval-match", "discs", "--games", "2"],
        &["eval-match", "discs", "mobility", "--games", "3"],
        &["eval-match", "discs", "mobility", "--depth", "x"],
    ] {
        let output = iago(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
    }
}

const TWO_PROBLEMS: &str = "\
-OOO------OOOO--XXXOOXXX-XOOOXX-XXXXOOOOOXXOOOO---OXOO---OOOO--- X; E1:+0; F8:-2; H6:-6; F1:-6; G8:-6; A7:-6; G1:-8; B7:-10; G7:-20; --:-127;
--XO------XOOO-OX-XOXOOOOXOOXXXO-OXOOXXOOOXOOXOO--XXXX-O--XX---- X; E1:-10; B3:-12; G7:-12; F1:-12; G1:-12; A5:-18; A7:-22; B7:-24; G2:-26; --:-127;
";

/// A scratch directory holding [`TWO_PROBLEMS`] as `two.obf`: (directory, file).
fn two_problems(test: &str) -> (PathBuf, PathBuf) {
    let dir = scratch("eval", test);
    let file = dir.join("two.obf");
    std::fs::write(&file, TWO_PROBLEMS).unwrap();
    (dir, file)
}

#[test]
fn accuracy_reports_every_evaluator_and_depth() {
    let (dir, file) = two_problems("accuracy");
    let out = stdout_of(&iago(&[
        "accuracy",
        "--file",
        file.to_str().unwrap(),
        "--eval",
        "discs,pattern",
        "--depths",
        "1,2",
    ]));
    std::fs::remove_dir_all(&dir).ok();
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("discs") || l.starts_with("pattern"))
        .collect();
    assert_eq!(rows.len(), 4, "{out}");
    for row in rows {
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields[2], "2", "both problems counted: {row}");
        let error: f64 = fields[3].parse().unwrap();
        // Errors are best minus chosen: never negative, at most the worst move's loss.
        assert!((0.0..=24.0).contains(&error), "{row}");
    }
}

#[test]
fn accuracy_measures_an_nboard_engine_like_the_same_search_in_process() {
    let (dir, file) = two_problems("accuracy-engine");
    let engine = format!("self=nboard:{IAGO} --book none");
    let out = stdout_of(&iago(&[
        "accuracy",
        "--file",
        file.to_str().unwrap(),
        "--eval",
        "pattern",
        "--engine",
        &engine,
        "--depths",
        "3",
    ]));
    std::fs::remove_dir_all(&dir).ok();
    // Problems, mean error, best-move share and score RMSE: the same search gives the
    // same figures whether it runs in process or behind the protocol.
    let figures = |name: &str| -> Vec<String> {
        let row = out
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row {name} in\n{out}"));
        row.split_whitespace()
            .skip(2)
            .take(4)
            .map(String::from)
            .collect()
    };
    assert_eq!(figures("pattern")[0], "2", "{out}");
    assert_eq!(figures("self"), figures("pattern"), "{out}");
}

#[test]
fn accuracy_refuses_an_engine_it_cannot_drive() {
    for bad in ["x=gtp:iago", "nonsense"] {
        let output = iago(&["accuracy", "--engine", bad]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn accuracy_rejects_a_missing_file() {
    let output = iago(&["accuracy", "--file", "/nonexistent/problems.obf"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn train_fits_and_writes_a_loadable_file() {
    let dir = scratch("eval", "train");
    // Twenty copies of a short game in which Black wins: enough to train on and hold out.
    let mut pos = Position::start();
    let mut moves = Vec::new();
    for name in ["f5", "d6", "c3", "d3", "c4", "f4"] {
        let mv = pos.parse_move(name).unwrap();
        pos = pos.play(mv);
        moves.push(mv);
    }
    let game = WthorGame {
        moves,
        black_discs: 40,
        theoretical_black: 38,
        year: 2001,
    };
    let mut bytes = encode_wthor(&vec![game; 20], 2001).unwrap();
    bytes[14] = 24;
    std::fs::write(dir.join("WTH_2001.wtb"), bytes).unwrap();
    let out_file = dir.join("weights.bin");
    let out = stdout_of(&iago(&[
        "train",
        "--wthor",
        dir.to_str().unwrap(),
        "--out",
        out_file.to_str().unwrap(),
        "--epochs",
        "2",
    ]));
    let written = std::fs::read(&out_file).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.contains("data: 20 games"), "{out}");
    assert!(out.contains("overall:"), "{out}");
    assert!(iago::othello::eval::pattern::PatternWeights::decode(&written).is_ok());
    let missing = iago(&["train"]);
    assert_eq!(missing.status.code(), Some(2));
}

/// Games of pseudo-random legal moves to the end (a fixed generator: same games every run).
fn random_games(count: usize) -> Vec<WthorGame> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    (0..count)
        .map(|_| {
            let mut pos = Position::start();
            let mut moves = Vec::new();
            while !pos.is_game_over() {
                let legal = pos.legal_moves();
                let legal = legal.as_ref();
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let mv = legal[(state >> 33) as usize % legal.len()];
                pos = pos.play(mv);
                moves.push(mv);
            }
            WthorGame {
                moves,
                black_discs: 32,
                theoretical_black: 32,
                year: 2001,
            }
        })
        .collect()
}

#[test]
fn fit_probcut_writes_a_fit_for_every_depth_asked() {
    let dir = scratch("eval", "fit-probcut");
    std::fs::write(
        dir.join("WTH_2001.wtb"),
        encode_wthor(&random_games(30), 2001).unwrap(),
    )
    .unwrap();
    let wthor = dir.to_str().unwrap();
    let source = stdout_of(&iago(&[
        "fit-probcut",
        "--wthor",
        wthor,
        "--games",
        "30",
        "--deep",
        "10",
    ]));
    let too_deep = iago(&["fit-probcut", "--wthor", wthor, "--deep", "19"]);
    std::fs::remove_dir_all(&dir).ok();
    // Depths 3 to 10: eight fits in each of the six phase rows.
    assert!(
        source.contains("pub const MIDGAME: [[Fit; 8]; 6]"),
        "{source}"
    );
    // Beside them, the endgame's fit and the end cut's.
    assert_eq!(source.matches("Fit { a:").count(), 6 * 8 + 2, "{source}");
    assert!(
        source.contains("full-width searches to 8 plies"),
        "{source}"
    );
    // The file it writes compiles where it lives: its imports are the committed file's.
    let committed = include_str!("../../crates/core/src/othello/plan/probcut_params.rs");
    let imports = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| line.starts_with("use "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(imports(&source), imports(committed));
    assert_eq!(too_deep.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&too_deep.stderr).contains("--deep must be 8 to 16"),
        "{}",
        String::from_utf8_lossy(&too_deep.stderr)
    );
}
