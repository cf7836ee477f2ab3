//! `iago match` run as a user runs it: the real binary driving engines as subprocesses.

use std::process::Command;

use crate::common::scratch;

use crate::protocol_io::IAGO;

fn broken(protocol: &str, behaviour: &str) -> String {
    format!(
        "{}/tests/engines/broken-engine {protocol} {behaviour}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Runs `iago match ARGS`; returns stdout, checking it succeeded.
fn run_match(args: &[&str]) -> String {
    let output = Command::new(IAGO).arg("match").args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "iago match failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    stdout
}

/// The engine table's row for `name`.
fn engine_row<'a>(table: &'a str, name: &str) -> &'a str {
    let after = table
        .split_once("\nEngine ")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no engine table in\n{table}"));
    after
        .lines()
        .find(|line| line.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no row for {name} in\n{table}"))
}

/// Two broken engines, each Black once from the start position: Black moves first, so
/// each fails once, with its own reason, and the match still completes.
fn broken_pair(test: &str, first: (&str, &str), second: (&str, &str)) -> (String, Vec<String>) {
    let dir = scratch("arena", test);
    let out = dir.join("games.ggf");
    let engines = [
        format!("x={}:{}", first.0, broken(first.0, first.1)),
        format!("y={}:{}", second.0, broken(second.0, second.1)),
    ];
    let table = run_match(&[
        "--games",
        "2",
        "--start",
        "start",
        "--depth",
        "1",
        "--move-cap",
        "1",
        "--quiet",
        "--engine",
        &engines[0],
        "--engine",
        &engines[1],
        "--out",
        out.to_str().unwrap(),
    ]);
    let records: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    (table, records)
}

#[test]
fn illegal_move_and_hang_lose_by_forfeit() {
    let (table, records) = broken_pair("illegal-hang", ("nboard", "illegal"), ("gtp", "hang"));
    assert!(table.starts_with("2 of 2 games played"), "{table}");
    assert!(
        engine_row(&table, "x").ends_with("illegal move 1"),
        "{table}"
    );
    assert!(engine_row(&table, "y").ends_with("timeout 1"), "{table}");
    assert_eq!(records.len(), 2);
    // Black forfeits both games: Black's disc difference is the full loss.
    assert!(records[0].contains("PB[x]PW[y]RE[-64]"), "{}", records[0]);
    assert!(
        records[0].contains("C[black forfeits: illegal move: d4 is not legal here]"),
        "{}",
        records[0]
    );
    assert!(records[1].contains("PB[y]PW[x]RE[-64]"), "{}", records[1]);
    assert!(
        records[1].contains("C[black forfeits: timeout: no move within 1.000 s]"),
        "{}",
        records[1]
    );
}

#[test]
fn crash_and_garbage_lose_by_forfeit() {
    let (table, records) = broken_pair("exit-garbage", ("gtp", "exit"), ("nboard", "garbage"));
    assert!(engine_row(&table, "x").ends_with("crash 1"), "{table}");
    assert!(engine_row(&table, "y").ends_with("garbage 1"), "{table}");
    assert!(
        records[0].contains("C[black forfeits: crash: engine exited (exit status: 3)"),
        "{}",
        records[0]
    );
    assert!(
        records[0].contains("broken-engine: exiting on purpose"),
        "the crash reason quotes the engine's last words: {}",
        records[0]
    );
    assert!(
        records[1].contains("C[black forfeits: garbage: unreadable move reply"),
        "{}",
        records[1]
    );
}

#[test]
fn a_flood_of_output_is_a_timeout_in_nboard_and_garbage_in_gtp() {
    // NBoard ignores lines it does not know, so the flood only runs out the clock; in GTP
    // the first line where a reply is due is already wrong.
    let (table, _) = broken_pair("flood", ("nboard", "flood"), ("gtp", "flood"));
    assert!(engine_row(&table, "x").ends_with("timeout 1"), "{table}");
    assert!(engine_row(&table, "y").ends_with("garbage 1"), "{table}");
}

#[test]
fn an_engine_that_never_starts_forfeits_every_game() {
    let table = run_match(&[
        "--games",
        "2",
        "--start",
        "start",
        "--startup",
        "0.5",
        "--quiet",
        "--engine",
        &format!("x=gtp:{}", broken("gtp", "silent-start")),
        "--engine",
        &format!("y=nboard:{}", broken("nboard", "illegal")),
    ]);
    assert!(engine_row(&table, "x").ends_with("timeout 2"), "{table}");
    assert!(engine_row(&table, "y").ends_with("none"), "{table}");
}

#[test]
fn bad_command_lines_are_refused_with_a_message() {
    for args in [
        vec!["--engine", "a=gtp:x"],
        vec!["--engine", "a=uci:x", "--engine", "b=gtp:y"],
        vec!["--engine", "a=gtp:x", "--engine", "a=gtp:y"],
        vec![
            "--engine", "a=gtp:x", "--engine", "b=gtp:y", "--depth", "2", "--clock", "5",
        ],
        vec![
            "--engine", "a=gtp:x", "--engine", "b=gtp:y", "--games", "many",
        ],
        vec![
            "--engine", "a=gtp:x", "--engine", "b=gtp:y", "--start", "z9",
        ],
        vec![
            "--engine",
            "a=gtp:x",
            "--engine",
            "b=gtp:y",
            "--openings",
            "/nonexistent",
        ],
    ] {
        let output = Command::new(IAGO)
            .arg("match")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).starts_with("iago: "),
            "{args:?}"
        );
    }
}

/// Replays a GGF record's moves with iago's rules; returns (Black disc difference of the
/// final position, whether the game is over, RE).
fn replay(record: &str) -> (i32, bool, i32) {
    use iago::game::{Color, Game};
    use iago::othello::{Move, Position};
    let field = |tag: &str| -> String {
        let start = record.find(&format!("{tag}[")).unwrap() + tag.len() + 1;
        record[start..].split(']').next().unwrap().to_string()
    };
    assert!(field("BO").starts_with("8 ---------------------------O*------*O---"));
    let result: i32 = field("RE").parse().unwrap();
    let mut pos = Position::start();
    let moves_text = record
        .split_once("BO[")
        .unwrap()
        .1
        .split_once(']')
        .unwrap()
        .1;
    for item in moves_text.split(']') {
        let Some((tag, value)) = item.split_once('[') else {
            continue;
        };
        if tag != "B" && tag != "W" {
            continue;
        }
        let expected = if tag == "B" {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(pos.side, expected, "{record}");
        let mv: Move = value.split('/').next().unwrap().parse().unwrap();
        pos = pos
            .try_play(mv)
            .unwrap_or_else(|| panic!("illegal {mv} in {record}"));
    }
    let diff = pos.final_disc_difference();
    let black = if pos.side == Color::Black {
        diff
    } else {
        -diff
    };
    (black, pos.is_game_over(), result)
}

/// iago at depth 1 against its random mover, both over `protocol`: every game is played
/// to the end, every record replays to its result, the points add up, and the search
/// wins most games.
fn iago_against_random(protocol: &str) {
    let dir = scratch("arena", &format!("random-{protocol}"));
    let out = dir.join("games.ggf");
    let games = 10;
    let table = run_match(&[
        "--games",
        &games.to_string(),
        "--depth",
        "1",
        "--concurrency",
        "2",
        "--quiet",
        "--engine",
        &format!("iago={protocol}:{IAGO}"),
        "--engine",
        &format!("random={protocol}:{IAGO} --player random"),
        "--out",
        out.to_str().unwrap(),
    ]);
    let records: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        table.starts_with(&format!("{games} of {games} games played")),
        "{table}"
    );
    assert_eq!(records.len(), games);
    let mut iago_points = 0.0;
    for record in &records {
        assert!(!record.contains("]C["), "no forfeit expected: {record}");
        let (final_diff, over, result) = replay(record);
        assert!(over, "{record}");
        assert_eq!(final_diff, result, "{record}");
        let iago_black = record.contains("PB[iago]PW[random]");
        assert!(
            iago_black || record.contains("PB[random]PW[iago]"),
            "{record}"
        );
        let iago_diff = if iago_black { result } else { -result };
        iago_points += match iago_diff.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
    }
    let row = engine_row(&table, "iago");
    let fields: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(fields[1], games.to_string(), "{row}");
    assert_eq!(fields[2].parse::<f64>().unwrap(), iago_points, "{table}");
    let random_points: f64 = engine_row(&table, "random")
        .split_whitespace()
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(iago_points + random_points, games as f64, "{table}");
    assert!(
        row.ends_with("none") && engine_row(&table, "random").ends_with("none"),
        "{table}"
    );
    assert!(
        iago_points > 0.7 * games as f64,
        "iago should beat a random mover:\n{table}"
    );
}

#[test]
fn iago_beats_random_over_nboard() {
    iago_against_random("nboard");
}

#[test]
fn iago_beats_random_over_gtp() {
    iago_against_random("gtp");
}

#[test]
fn an_engine_with_its_own_clock_is_told_that_clock() {
    // Each engine under its own limit: the GGF record has no shared `TI`, yet the engine
    // on a clock must see its clock, or it would search without any time limit.
    let dir = scratch("arena", "own-clock");
    let heard = dir.join("heard.txt");
    let listener = format!("tee {} | {IAGO} --book none", heard.display());
    let engines = [
        format!("clocked=nboard:{listener}"),
        format!("fixed=nboard:{IAGO} --book none"),
    ];
    run_match(&[
        "--games",
        "2",
        "--start",
        "start",
        "--limit",
        "clocked=clock:4",
        "--limit",
        "fixed=depth:1",
        "--concurrency",
        "1",
        "--quiet",
        "--engine",
        &engines[0],
        "--engine",
        &engines[1],
    ]);
    let heard = std::fs::read_to_string(&heard).unwrap();
    let games: Vec<&str> = heard
        .lines()
        .filter(|line| line.starts_with("set game"))
        .collect();
    assert!(!games.is_empty(), "no `set game` in\n{heard}");
    for game in games {
        assert!(game.contains("TI[0:04]"), "no clock in {game}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_gtp_engine_on_a_clock_is_told_its_time_to_the_millisecond() {
    // The engine's input is copied to a log on its way in (the engine is a shell command).
    let dir = scratch("arena", "clock");
    let log = dir.join("gtp.log");
    let player = format!(
        "tee -a {} | {IAGO} --protocol gtp --player random --book none --hash 1",
        log.display()
    );
    run_match(&[
        "--games",
        "2",
        "--start",
        "start",
        "--clock",
        "1",
        "--quiet",
        "--engine",
        &format!("g=gtp:{player}"),
        "--engine",
        &format!("n=nboard:{IAGO} --player random --book none --hash 1"),
    ]);
    let sent = std::fs::read_to_string(&log).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(sent.contains(" time_settings 1.000 0 0\n"), "{sent}");
    let times: Vec<f64> = sent
        .lines()
        .filter_map(|line| line.split_once(" time_left ")?.1.split(' ').nth(1))
        .map(|seconds| seconds.parse().unwrap())
        .collect();
    assert!(times.len() > 20, "{sent}");
    // On a one-second clock every time told is under a second and above zero, with its
    // milliseconds: whole seconds would read 0.
    assert!(
        times.iter().all(|&t| t > 0.0 && t <= 1.0),
        "{times:?}\n{sent}"
    );
    assert!(times.iter().any(|&t| t < 1.0), "{times:?}");
}

/// An engine in this process and one over GTP play the same match: the in-process one
/// gives its depth and speed, and its evaluations in the records.
#[test]
fn an_engine_in_this_process_plays_one_over_a_protocol() {
    let dir = scratch("arena", "in-process");
    let out = dir.join("games.ggf");
    let gtp = format!("gtp=gtp:{IAGO} --protocol gtp --book none");
    let table = run_match(&[
        "--games",
        "2",
        "--depth",
        "2",
        "--quiet",
        "--engine",
        "here=in-process:--eval discs --book none",
        "--engine",
        &gtp,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(table.contains("Depth    Nodes/s"), "{table}");
    let here = engine_row(&table, "here");
    assert!(here.ends_with("none"), "{table}");
    assert!(
        engine_row(&table, "gtp").contains(" - "),
        "no depth of its own: {table}"
    );
    let records = std::fs::read_to_string(&out).unwrap();
    assert_eq!(records.lines().count(), 2);
    // The in-process engine's moves carry its evaluation, as an NBoard engine's do.
    assert!(records.lines().all(|l| l.contains("/0.")), "{records}");
    std::fs::remove_dir_all(&dir).ok();
    // Its options are read as the engine's command line reads them, before any game.
    for (engine, error) in [
        ("x=in-process:--eval nope", "engine x: --eval nope"),
        (
            "x=in-process:--depth 100",
            "--depth 100: depth must be between 1 and 64",
        ),
        ("x=in-process:--fast", "\"--fast\" is not an engine option"),
    ] {
        let output = Command::new(IAGO)
            .args([
                "match", "--games", "2", "--engine", engine, "--engine", &gtp,
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{engine}: {stderr}");
        assert!(stderr.contains(error), "{engine}: {stderr}");
        assert!(output.stdout.is_empty());
    }
}

/// What scripts/clock-match did, as iago match options: NBoard engines told the whole
/// game before every move and the GUI's level, on a clock; the report says how much of
/// the clock each engine left and its slowest move.
#[test]
fn nboard_engines_are_told_the_game_as_the_gui_tells_it_and_the_clock_use_is_reported() {
    let dir = scratch("arena", "whole-game");
    let told = |name: &str| dir.join(format!("{name}.log"));
    // Each engine's input is kept by `tee` on its way to the engine.
    let engine = |name: &str| format!("{name}=nboard:tee -a {} | {IAGO}", told(name).display());
    let table = |whole: bool| {
        let mut args = vec![
            "--games",
            "2",
            "--clock",
            "20",
            "--nboard-depth",
            "3",
            "--quiet",
        ];
        if whole {
            args.push("--whole-game");
        }
        let (a, b) = (engine(if whole { "a" } else { "c" }), engine("b"));
        args.extend(["--engine", &a, "--engine", &b]);
        run_match(&args)
    };
    let report = table(true);
    let input = std::fs::read_to_string(told("a")).unwrap();
    assert!(input.contains("set depth 3"), "{input}");
    let games_told = input.matches("set game ").count();
    let moves_told = input.lines().filter(|l| l.starts_with("move ")).count();
    let goes = input.matches("\ngo\n").count();
    assert_eq!((games_told, moves_told), (goes, 0), "{input}");
    let time = report
        .split("\nTime use\n")
        .nth(1)
        .expect("a time use section");
    let line = time.lines().find(|l| l.starts_with("a: ")).unwrap();
    assert!(
        line.contains("clock left ") && line.contains("of 0:20"),
        "{report}"
    );
    assert!(line.contains("slowest move "), "{report}");
    // Without --whole-game a game grows by `move` lines.
    table(false);
    let input = std::fs::read_to_string(told("c")).unwrap();
    assert!(input.lines().any(|l| l.starts_with("move ")), "{input}");
    std::fs::remove_dir_all(&dir).ok();
}
