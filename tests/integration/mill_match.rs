//! `iago match --game mill` run as a user runs it: two GTP engines playing Mill under the
//! referee of the one match runner, every move checked, with the table and the game
//! records.

use std::process::Command;

use iago::game::Game;
use iago::mill::MillPosition;

use crate::protocol_io::IAGO;

fn run(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(IAGO)
        .args(["match", "--game", "mill"])
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_searching_engine_beats_a_random_one_and_every_game_replays() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("iago-mill-match-{}.txt", std::process::id()));
    let search = format!("search=gtp:{IAGO} --game mill");
    let random = format!("random=gtp:{IAGO} --game mill --player random --seed 5");
    let (ok, table, stderr) = run(&[
        "--games",
        "4",
        "--depth",
        "2",
        "--rules",
        "draw-plies=30",
        "--quiet",
        "--engine",
        &search,
        "--engine",
        &random,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{table}\n{stderr}");
    assert!(table.contains("4 of 4 Mill games"), "{table}");
    assert!(table.contains("rules: draw-plies=30"), "{table}");
    let row = table
        .lines()
        .find(|l| l.starts_with("search vs random "))
        .unwrap_or_else(|| panic!("{table}"));
    let words: Vec<&str> = row.split_whitespace().collect();
    // The pairing (three words), games, W, D, L.
    assert_eq!(words[3], "4", "{row}");
    let wins: u32 = words[4].parse().unwrap();
    assert!(wins >= 3, "{table}");
    let engine = (table.lines())
        .find(|l| l.starts_with("search ") && !l.contains(" vs "))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(engine.ends_with("none"), "no forfeits: {engine}");
    // Every game ended by the rules, each way counted.
    let endings = (table.lines())
        .find_map(|l| l.strip_prefix("Endings: "))
        .unwrap_or_else(|| panic!("{table}"));
    let counted: u32 = (endings.split(", "))
        .map(|e| e.rsplit(' ').next().unwrap().parse::<u32>().unwrap())
        .sum();
    assert_eq!(counted, 4, "{endings}");
    assert!(!endings.contains("forfeit"), "{endings}");
    let records = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).ok();
    let lines: Vec<&str> = records.lines().collect();
    assert_eq!(lines.len(), 4);
    for (i, line) in lines.iter().enumerate() {
        // Colours alternate (the first engine is Black in each opening's first game, as
        // in every match), and every game replays legally to the recorded result.
        let white = if i % 2 == 0 { "random" } else { "search" };
        assert!(line.contains(&format!("white={white} ")), "{line}");
        let moves = line.split("moves=").nth(1).unwrap();
        let rules = iago::mill::notation::parse_rules("draw-plies=30", Default::default()).unwrap();
        let mut pos = MillPosition::with_rules(rules);
        for text in moves.split(',') {
            let mv = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            pos = pos.play(mv);
        }
        assert!(pos.is_game_over(), "{line}");
        let result = match pos.winner() {
            Some(iago::game::Color::White) => "result=1-0",
            Some(iago::game::Color::Black) => "result=0-1",
            None => "result=1/2-1/2",
        };
        assert!(line.contains(result), "{line}");
    }
}

#[test]
fn an_engine_that_cannot_play_mill_forfeits_and_bad_options_are_refused() {
    let search = format!("search=gtp:{IAGO} --game mill");
    let (ok, table, stderr) = run(&[
        "--games",
        "2",
        "--depth",
        "1",
        "--move-cap",
        "2",
        "--quiet",
        "--engine",
        &search,
        "--engine",
        "mute=gtp:true",
    ]);
    assert!(ok, "{table}\n{stderr}");
    let row = table.lines().find(|l| l.starts_with("mute ")).unwrap();
    assert!(row.contains("crash 2"), "{table}");
    for bad in [
        vec!["--engine", "a=gtp:x"],
        vec!["--engine", "a=gtp:x", "--engine", "b=nboard:y"],
        vec![
            "--engine",
            "a=gtp:x",
            "--engine",
            "b=gtp:y",
            "--rules",
            "removal=all",
        ],
        vec![
            "--engine",
            "a=gtp:x",
            "--engine",
            "b=gtp:y",
            "--opening-plies",
            "x",
        ],
        vec![
            "--engine", "a=gtp:x", "--engine", "b=gtp:y", "--start", "d6 d6",
        ],
    ] {
        let (ok, _, stderr) = run(&bad);
        assert!(!ok, "{bad:?} accepted");
        assert!(!stderr.is_empty());
    }
}
