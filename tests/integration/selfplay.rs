//! The self-play corpus as a user makes and uses it: `iago selfplay` writes game records,
//! `iago train --games` fits on them. The records' exact results are checked against a
//! solve that shares no code with the engine.

use std::path::Path;

use crate::common::{ArrayBoard, iago, scratch, stdout_of};
use iago::corpus::records;
use iago::othello::eval::pattern::PatternWeights;

fn selfplay(out: &Path, threads: &str) -> String {
    stdout_of(&iago(&[
        "selfplay",
        "--games",
        "6",
        "--depth",
        "2",
        "--exact",
        "10",
        "--seed",
        "3",
        "--threads",
        threads,
        "--checkpoint",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]))
}

#[test]
fn selfplay_games_are_the_same_on_any_threads_and_their_exact_results_are_exact() {
    let dir = scratch("selfplay", "exact");
    let (one, two) = (dir.join("one.gam"), dir.join("two.gam"));
    let summary = selfplay(&one, "1");
    assert!(summary.contains("selfplay: 6 games"), "{summary}");
    selfplay(&two, "2");
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    let games = records::read(&one).unwrap();
    assert_eq!(games.len(), 6);
    for (n, game) in games.iter().enumerate() {
        let positions = game.replay().unwrap();
        assert_eq!(game.opening, 10, "the default random plies");
        let first_exact = positions
            .iter()
            .find(|p| p.exact)
            .unwrap_or_else(|| panic!("game {n} was never solved"));
        assert!(first_exact.position.empty_count() <= 10);
        let board =
            ArrayBoard::from_bitboards(first_exact.position.player, first_exact.position.opponent);
        assert_eq!(board.solve(), i32::from(first_exact.result), "game {n}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn training_on_game_records_reports_self_play_and_exact_errors() {
    let dir = scratch("selfplay", "train");
    let games = dir.join("games.gam");
    selfplay(&games, "2");
    let weights = dir.join("w.bin");
    let report = stdout_of(&iago(&[
        "train",
        "--games",
        games.to_str().unwrap(),
        "--test-games",
        games.to_str().unwrap(),
        "--epochs",
        "2",
        "--stages",
        "30",
        "--out",
        weights.to_str().unwrap(),
    ]));
    assert!(report.contains("data: 6 games"), "{report}");
    assert!(report.contains("held-out self-play positions"), "{report}");
    assert!(report.contains("exact at 13-16 empties"), "{report}");
    let stored = PatternWeights::decode(&std::fs::read(&weights).unwrap()).unwrap();
    assert_eq!(stored.stages(), 30);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn damaged_or_missing_records_are_clear_errors() {
    let dir = scratch("selfplay", "damaged");
    let out = dir.join("w.bin");
    // The stderr of a failed one-epoch fit on `games`.
    let refused = |games: &Path| {
        let output = iago(&[
            "train",
            "--games",
            games.to_str().unwrap(),
            "--epochs",
            "1",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(2));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let path = dir.join("bad.gam");
    std::fs::write(&path, b"IAGOGAM1\x05\x00").unwrap();
    let stderr = refused(&path);
    assert!(stderr.contains("record 1"), "{stderr}");
    // A coded file cut short.
    let games = dir.join("games.gam");
    selfplay(&games, "1");
    let bytes = std::fs::read(&games).unwrap();
    let cut = dir.join("cut.gam");
    std::fs::write(&cut, &bytes[..bytes.len() - 10]).unwrap();
    let stderr = refused(&cut);
    assert!(
        stderr.contains("cut.gam: IAGOGAM3: the coded games are damaged"),
        "{stderr}"
    );
    assert!(!out.exists(), "no weights written");
    let output = iago(&["selfplay", "--games", "1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--out FILE is required"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn packed_games_are_the_same_games_in_fewer_bytes() {
    let dir = scratch("selfplay", "pack");
    let compact = dir.join("compact.gam");
    selfplay(&compact, "2");
    let bytes = std::fs::read(&compact).unwrap();
    let games = records::decode(&bytes).unwrap();
    // The same games in the older format, as the GPU generator writes it.
    let plain = dir.join("plain.gam");
    std::fs::write(&plain, records::encode(&games)).unwrap();
    let packed = dir.join("packed.gam");
    let summary = stdout_of(&iago(&[
        "pack-games",
        plain.to_str().unwrap(),
        compact.to_str().unwrap(),
        "--out",
        packed.to_str().unwrap(),
    ]));
    assert!(summary.contains("pack-games: 12 games"), "{summary}");
    let packed_bytes = std::fs::read(&packed).unwrap();
    assert_eq!(&packed_bytes[..8], b"IAGOGAM3");
    let both = records::read(&packed).unwrap();
    assert_eq!(both[..6], games[..]);
    assert_eq!(both[6..], games[..]);
    assert_eq!(
        &records::decode(&std::fs::read(&packed).unwrap()[..]).unwrap(),
        &both
    );
    // Packing the packed file again changes nothing.
    let again = dir.join("again.gam");
    stdout_of(&iago(&[
        "pack-games",
        compact.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]));
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn packing_refuses_damaged_games_and_its_own_input() {
    let dir = scratch("selfplay", "pack-errors");
    let games = dir.join("games.gam");
    selfplay(&games, "1");
    let before = std::fs::read(&games).unwrap();
    let output = iago(&[
        "pack-games",
        games.to_str().unwrap(),
        "--out",
        games.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("is an input too"));
    assert_eq!(
        std::fs::read(&games).unwrap(),
        before,
        "the input is untouched"
    );
    // A record whose result is not the final position's.
    let mut wrong = records::read(&games).unwrap();
    wrong[1].black_result = wrong[1].black_result.wrapping_add(2);
    let bad = dir.join("bad.gam");
    std::fs::write(&bad, records::encode(&wrong)).unwrap();
    let out = dir.join("out.gam");
    let output = iago(&[
        "pack-games",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("record 2: result"), "{stderr}");
    assert!(!out.exists(), "nothing written");
    let output = iago(&["pack-games", games.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--out FILE is required"));
    std::fs::remove_dir_all(&dir).ok();
}
