//! Perft: the leaf counts of the published table from the start position, and counts from
//! positions full of passes and early game ends checked against the slow array-board
//! reference in `common`, on every code path this CPU runs.

use crate::common::{ArrayBoard, TreeStats, reference_perft};
use iago::game;
use iago::othello::Position;
use iago::othello::notation::parse_position;
use iago::othello::perft::{PATHS, perft, perft_with};

/// Leaves from the start position, depths 0..=11 (the reference notes' table).
const START_COUNTS: [u64; 12] = [
    1,
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
];

/// (position, depth, leaves). Leaves were computed with the array-board reference and are
/// checked against it again below. Most are endgames searched to the end, so their trees
/// are full of passes and of games that end before the depth; the first is a position
/// whose side to move must pass, the second a finished game.
const POSITIONS: [(&str, u32, u64); 17] = [
    (
        "OX-------------------------------------------------------------- X",
        3,
        1,
    ),
    (
        "X--------------------------------------------------------------- O",
        4,
        1,
    ),
    (
        "------------------X---X----XXX----OOXOO---XXX------------------- O",
        5,
        66_272,
    ),
    (
        "---------------O---OOOOO--OXXOO--OXXOOO--X-X-------X------------ X",
        4,
        15_580,
    ),
    (
        "--X--------X--O--OOXXXX---OXOXXX--XXXOO--X-XXXOO----X--O----X--- O",
        4,
        17_097,
    ),
    (
        "-XXX--O--XXX--O-XXXXXXXXXOXXXXX-XXOOXXXXXOOOOOXXOXXXOOXXOXOOOOX- X",
        11,
        11_996,
    ),
    (
        "XXOOOOOXXXOOO-OXXXOOOXOOXXOXXOO-XXXXOO-OXXXOXO--XXOOXXX--OOOOOX- X",
        8,
        5_404,
    ),
    (
        "O-XXXXXX-OXXX-XXO-OOOOOXOOXOOOOX-XXOXOXX-XXOXOXXX-XXOOX---XXXOOO X",
        11,
        50_858,
    ),
    (
        "--XXXXXO-OOOOOOOXOOXXOOOXOXOOOXOOXXXOXOO--XXXOOO-OXXXXXXOXO-OOO- X",
        8,
        10_382,
    ),
    (
        "--XXO-X-O-OOOOXOXOXOXXXO-XOXXOXOOOOOOOOOXXXXXXXO-OXOXOXOOOOOOO-O X",
        9,
        15_496,
    ),
    (
        "XXXXXXOOXOOX--O-XXXOOOOXXXXXXOO-XOXXXOO-XOOOXOO-XXXOOOX-XXXOOOX- X",
        9,
        9_060,
    ),
    (
        "X-OO----OO-O----OOOOOXXXOXXXXXXX-XXOXXXXXXOXXXXXXXXXOXXXXXXXXXXX O",
        11,
        52_297,
    ),
    (
        "-X-XXXXX-OXXX-XX-OOXOXOX-OOOOXOOOOOOOXOXXOXOOOO--XXXOOOOX-XXXXXX O",
        9,
        31_247,
    ),
    (
        "XXXOXXO-XXXOXXXXXXXXXXXXXXXOO-X-XXOXOXX-OOOOXX----OOOXO-OOOOOXXO O",
        9,
        29_195,
    ),
    (
        "--XX--O---XXOOOOXXXXXXOXXXXXOOXXXOOOXXXXXOOOOXXX-OOOXXXX-OOOOXXX O",
        9,
        6_118,
    ),
    (
        "-O-X-OOXOXXXXXXO-XOOOOXO-XOOOXOOXXOOOOOOXXOXOOOOXXXOXOO-X-O-O-XO O",
        9,
        37_421,
    ),
    (
        "XXXXXX-XXXXOXXX-OXOXXXX-OOXXOXX-OOOXXXX-OOOXOX-XOOOOOOOO-OOX-X-O O",
        9,
        33_291,
    ),
];

/// The code paths this CPU can run.
fn runnable_paths() -> Vec<&'static str> {
    let pos = Position::start();
    PATHS
        .into_iter()
        .filter(|path| perft_with(path, &pos, 1).is_ok())
        .collect()
}

#[test]
fn start_position_depths_0_to_11() {
    let pos = Position::start();
    for (depth, &leaves) in START_COUNTS.iter().enumerate() {
        assert_eq!(perft(&pos, depth as u32), leaves, "depth {depth}");
    }
}

#[test]
fn every_code_path_matches_the_start_table() {
    let pos = Position::start();
    let paths = runnable_paths();
    assert!(paths.contains(&"portable"));
    for path in paths {
        for (depth, &leaves) in START_COUNTS.iter().enumerate().take(10) {
            assert_eq!(
                perft_with(path, &pos, depth as u32),
                Ok(leaves),
                "{path} path, depth {depth}"
            );
        }
    }
}

#[test]
fn generic_game_perft_matches_the_start_table() {
    let pos = Position::start();
    for (depth, &leaves) in START_COUNTS.iter().enumerate().take(8) {
        assert_eq!(game::perft(&pos, depth as u32), leaves, "depth {depth}");
    }
}

#[test]
fn unknown_code_path_is_an_error() {
    assert!(perft_with("quantum", &Position::start(), 3).is_err());
}

#[test]
fn other_positions_match_the_array_board_reference() {
    let mut total = TreeStats::default();
    let paths = runnable_paths();
    for (text, depth, expected) in POSITIONS {
        let pos = parse_position(text).unwrap();
        let mut stats = TreeStats::default();
        reference_perft(&ArrayBoard::from_position(&pos), depth, &mut stats);
        assert_eq!(stats.leaves, expected, "reference, {text} depth {depth}");
        for path in &paths {
            assert_eq!(
                perft_with(path, &pos, depth),
                Ok(stats.leaves),
                "{path} path, {text} depth {depth}"
            );
        }
        assert_eq!(game::perft(&pos, depth), stats.leaves, "generic, {text}");
        total.passes += stats.passes;
        total.early_ends += stats.early_ends;
    }
    // The set must exercise the rules it is meant to test.
    assert!(total.passes > 10_000, "{total:?}");
    assert!(total.early_ends > 10_000, "{total:?}");
}

#[test]
fn shallow_depths_match_the_reference_along_the_way() {
    // Every depth below the listed one too: a path that is only right at the leaves'
    // depth would slip through the test above.
    let paths = runnable_paths();
    for (text, depth, _) in POSITIONS {
        let pos = parse_position(text).unwrap();
        for shallow in 0..depth.min(7) {
            let mut stats = TreeStats::default();
            reference_perft(&ArrayBoard::from_position(&pos), shallow, &mut stats);
            for path in &paths {
                assert_eq!(
                    perft_with(path, &pos, shallow),
                    Ok(stats.leaves),
                    "{path} path, {text} depth {shallow}"
                );
            }
        }
    }
}
