//! `scripts/ntest-match` referees iago's matches against NTest with Othello rules of its
//! own, so that a bug in iago's rules cannot hide there. Its rules are held to iago's
//! here: the referee's game tree (`--perft`) against `iago perft` from the start, from
//! FFO endgames and from late positions of random games, where passes and the end of the
//! game come within the depth. Skipped, saying so, where there is no python3.

use std::process::Command;

use iago::game::Color;
use iago::othello::Position;
use iago::othello::notation::format_position;
use rand::RngExt;

use crate::common::{iago, random_game_positions, rng, stdout_of};

const REFEREE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/ntest-match");

/// The referee's count, or `None` without python3.
fn referee_perft(depth: u32, position: &str) -> Option<String> {
    let output = Command::new("python3")
        .arg(REFEREE)
        .args(["--perft", &depth.to_string(), "--position", position])
        .output()
        .ok()?;
    Some(stdout_of(&output).trim().to_string())
}

fn iago_perft(depth: u32, position: &str) -> String {
    let out = stdout_of(&iago(&["perft", &depth.to_string(), position]));
    out.lines().next().unwrap_or_default().trim().to_string()
}

#[test]
fn the_referees_rules_count_the_game_tree_as_iagos_do() {
    let start = format_position(&Position::start());
    let mut cases = vec![
        (6, start),
        // FFO #1 and #3 (20 and 16 empties).
        (
            4,
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X".to_string(),
        ),
        (
            5,
            "----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X".to_string(),
        ),
    ];
    // Late positions of random games, searched to the end: passes and early ends.
    let mut rng = rng(20261201);
    for _ in 0..8 {
        let positions = random_game_positions(&mut rng);
        let index = positions.len().saturating_sub(rng.random_range(6..10));
        let (player, opponent) = positions[index];
        let side = if index % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let pos = Position {
            player,
            opponent,
            side,
        };
        cases.push((12, format_position(&pos)));
    }
    for (depth, position) in &cases {
        let Some(referee) = referee_perft(*depth, position) else {
            println!("skipped: no python3 to run scripts/ntest-match");
            return;
        };
        assert_eq!(
            referee,
            iago_perft(*depth, position),
            "{position} at depth {depth}"
        );
    }
}
