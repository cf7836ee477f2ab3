//! The GPU self-play generator (gpu/selfplay.cu) built for the CPU with the system's C++
//! compiler, checked against iago itself: perft, the evaluation on played positions (the
//! shipped weights and weights that make every index count), exact solves, the features it
//! writes for training, and its game records replayed by iago's rules. The GPU build runs
//! the same source; gpu/device-run.sh compares the two on the device.
//!
//! The compiler is `c++` (or `$CXX`). Without one these tests fail and say so: a generator
//! left untested would let the GPU run use a broken one.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use iago::game::{Color, Game};
use iago::othello::Position;
use iago::othello::eval::features;
use iago::othello::eval::pattern::PatternWeights;

use crate::protocol_io::IAGO;
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn scratch() -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("iago-gpu-generator-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The generator's CPU build, compiled once per test run.
fn generator() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let compiler = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
        let binary = scratch().join("selfplay");
        let source = Path::new(ROOT).join("gpu/selfplay.cu");
        let output = Command::new(&compiler)
            .args(["-x", "c++", "-O2", "-std=c++17", "-pthread", "-Wall", "-o"])
            .arg(&binary)
            .arg(&source)
            .output()
            .unwrap_or_else(|e| {
                panic!(
                    "the C++ compiler `{compiler}` could not be run ({e}): the GPU generator's \
                     CPU build is not tested. Install g++ (or set CXX) to run these tests."
                )
            });
        assert!(
            output.status.success(),
            "{compiler} failed on {}:\n{}",
            source.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        binary
    })
}

fn weights_file() -> String {
    format!("{ROOT}/crates/core/src/othello/eval/weights/patterns.bin")
}

/// Runs the generator, feeding `stdin`.
fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(generator())
        .args(args)
        .current_dir(ROOT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn ok(output: Output) -> String {
    assert!(
        output.status.success(),
        "failed ({:?})\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn iago(args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(IAGO)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    ok(child.wait_with_output().unwrap())
}

/// Self-play records of a small level, played once: 40 games, depth 2, exact from 12
/// empties, 8 random moves.
fn games() -> &'static (PathBuf, Vec<Record>) {
    static GAMES: OnceLock<(PathBuf, Vec<Record>)> = OnceLock::new();
    GAMES.get_or_init(|| {
        let path = scratch().join("games.gam");
        let text = ok(run(
            &[
                "play",
                "--games",
                "40",
                "--depth",
                "2",
                "--exact",
                "12",
                "--random",
                "8",
                "--seed",
                "45",
                "--threads",
                "2",
                "--weights",
                &weights_file(),
                "--out",
                path.to_str().unwrap(),
            ],
            "",
        ));
        assert!(text.contains("played 40 games"), "{text}");
        assert!(text.contains(" 0 solve mismatches"), "{text}");
        let records = read_records(&std::fs::read(&path).unwrap());
        (path, records)
    })
}

/// One IAGOGAM1 record.
#[derive(Clone, Debug, PartialEq)]
struct Record {
    result: i8,
    exact_from: u8,
    opening: u8,
    moves: Vec<u8>,
}

fn read_records(bytes: &[u8]) -> Vec<Record> {
    assert_eq!(&bytes[..8], b"IAGOGAM1");
    let mut records = Vec::new();
    let mut rest = &bytes[8..];
    while !rest.is_empty() {
        let n = rest[0] as usize;
        records.push(Record {
            result: rest[1] as i8,
            exact_from: rest[2],
            opening: rest[3],
            moves: rest[4..4 + n].to_vec(),
        });
        rest = &rest[4 + n..];
    }
    records
}

/// The positions of a record before each move (with the count of moves before it), by
/// iago's rules, and the final position; panics on an illegal move.
fn replay(record: &Record) -> (Vec<(Position, usize)>, Position) {
    let mut pos = Position::start();
    let mut seen = Vec::new();
    for (i, &square) in record.moves.iter().enumerate() {
        if pos.has_no_move() {
            assert!(!pos.pass().has_no_move(), "move {i}: the game was over");
            pos = pos.pass();
        }
        assert!(
            pos.moves() & (1 << square) != 0,
            "move {i} ({square}) is illegal"
        );
        seen.push((pos, i));
        pos = pos.play_square(u32::from(square));
    }
    (seen, pos)
}

fn black_view(pos: &Position, value: i32) -> i32 {
    if pos.side == Color::Black {
        value
    } else {
        -value
    }
}

fn position_string(pos: &Position) -> String {
    let mut out = String::new();
    for square in 0..64 {
        let bit = 1u64 << square;
        out.push(if pos.black() & bit != 0 {
            'X'
        } else if pos.white() & bit != 0 {
            'O'
        } else {
            '-'
        });
    }
    out.push_str(if pos.side == Color::Black { " X" } else { " O" });
    out
}

/// Every `step`-th position of the shared games with empties in `empties`.
fn sample_positions(step: usize, empties: std::ops::RangeInclusive<u32>) -> Vec<Position> {
    games()
        .1
        .iter()
        .flat_map(|record| replay(record).0)
        .map(|(pos, _)| pos)
        .filter(|pos| empties.contains(&pos.empty_count()))
        .step_by(step)
        .collect()
}

/// iago's static evaluation of each position (GTP `set_position` + `eval`), in
/// hundredths of a disc.
fn iago_evaluations(positions: &[Position], eval: &str) -> Vec<i32> {
    let mut script = String::new();
    for (i, pos) in positions.iter().enumerate() {
        script.push_str(&format!(
            "{} set_position {}\n{} eval\n",
            2 * i,
            position_string(pos),
            2 * i + 1
        ));
    }
    script.push_str("quit\n");
    let text = iago(&["--protocol", "gtp", "--eval", eval], &script);
    let values: Vec<i32> = text
        .lines()
        .filter_map(|line| {
            let (id, value) = line.strip_prefix('=')?.split_once(' ')?;
            (id.parse::<usize>().ok()? % 2 == 1).then(|| hundredths(value))
        })
        .collect();
    assert_eq!(values.len(), positions.len(), "{text}");
    values
}

fn hundredths(text: &str) -> i32 {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap();
    sign * (whole.parse::<i32>().unwrap() * 100 + fraction.parse::<i32>().unwrap())
}

fn generator_evaluations(positions: &[Position], weights: &str) -> Vec<i32> {
    let input: String = positions
        .iter()
        .map(|pos| position_string(pos) + "\n")
        .collect();
    ok(run(&["eval", "--weights", weights], &input))
        .lines()
        .map(|line| line.parse().unwrap())
        .collect()
}

#[test]
fn perft_equals_iagos() {
    for depth in [1, 4, 7, 9] {
        let ours = ok(run(&["perft", &depth.to_string()], ""));
        let theirs = iago(&["perft", &depth.to_string()], "");
        let line = format!("perft {depth}: ");
        let count = |text: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&line).map(str::to_string))
                .unwrap_or_else(|| panic!("no count in {text}"))
        };
        assert_eq!(count(&ours), count(&theirs), "depth {depth}");
    }
}

#[test]
fn evaluation_equals_iagos_on_played_positions() {
    let positions = sample_positions(5, 0..=60);
    assert!(positions.len() >= 300, "{} positions", positions.len());
    let ours = generator_evaluations(&positions, &weights_file());
    let theirs = iago_evaluations(&positions, "pattern");
    let differ = ours.iter().zip(&theirs).filter(|(a, b)| a != b).count();
    assert_eq!(
        differ,
        0,
        "{differ} of {} evaluations differ",
        positions.len()
    );
    assert!(ours.iter().any(|&v| v != 0));
}

#[test]
fn evaluation_equals_iagos_with_weights_that_make_every_index_count() {
    // The shipped weights are zero for most configurations; with a distinct weight at
    // (nearly) every index, any misplaced digit or offset changes the sum. 15 stages and
    // 30 and 60 (a weight file says how many, the 60 moves spread evenly over them).
    let positions = sample_positions(7, 0..=60);
    for stages in [15, 30, 60] {
        let len = features::layout().stage_len as usize * stages;
        let values: Vec<f32> = (0..len)
            .map(|i| ((i * 7919) % 1999) as f32 - 999.0)
            .collect();
        let path = scratch().join(format!("dense-{stages}.bin"));
        std::fs::write(
            &path,
            PatternWeights::from_values(stages, &values)
                .unwrap()
                .encode(),
        )
        .unwrap();
        let path = path.to_str().unwrap();
        let ours = generator_evaluations(&positions, path);
        let theirs = iago_evaluations(&positions, &format!("pattern:{path}"));
        assert_eq!(ours, theirs, "{stages} stages");
        if stages == 15 {
            // The same weights in the older IAGOPAT1 layout: each weight an i16, a zero
            // as the run marker -32768 and a count of one.
            let mut old = b"IAGOPAT1".to_vec();
            old.extend_from_slice(&(stages as u32).to_le_bytes());
            old.extend_from_slice(&features::layout().stage_len.to_le_bytes());
            for &value in &values {
                if value == 0.0 {
                    old.extend_from_slice(&i16::MIN.to_le_bytes());
                    old.extend_from_slice(&1u16.to_le_bytes());
                } else {
                    old.extend_from_slice(&(value as i16).to_le_bytes());
                }
            }
            let old_path = scratch().join("dense-v1.bin");
            std::fs::write(&old_path, &old).unwrap();
            let old_path = old_path.to_str().unwrap();
            assert_eq!(generator_evaluations(&positions, old_path), ours);
            assert_eq!(
                iago_evaluations(&positions, &format!("pattern:{old_path}")),
                ours
            );
        }
    }
}

#[test]
fn exact_values_equal_iagos_solver() {
    let positions = sample_positions(3, 6..=14);
    assert!(positions.len() >= 40, "{} positions", positions.len());
    let obf: String = positions
        .iter()
        .map(|pos| position_string(pos) + ";\n")
        .collect();
    let path = scratch().join("endgames.obf");
    std::fs::write(&path, obf).unwrap();
    let path = path.to_str().unwrap();
    let ours: Vec<i32> = ok(run(&["solve", path, "--weights", &weights_file()], ""))
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    let theirs: Vec<i32> = iago(&["solve", path], "")
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        })
        .map(|l| l.split_whitespace().nth(3).unwrap().parse().unwrap())
        .collect();
    assert_eq!(ours.len(), positions.len());
    assert_eq!(ours, theirs);
}

#[test]
fn records_replay_by_iagos_rules_with_exact_results() {
    let records = &games().1;
    assert_eq!(records.len(), 40);
    let mut solve_points = Vec::new();
    for (number, record) in records.iter().enumerate() {
        let (positions, end) = replay(record);
        assert!(end.is_game_over(), "record {number} ends early");
        assert_eq!(
            i32::from(record.result),
            black_view(&end, end.final_disc_difference()),
            "record {number}"
        );
        assert_eq!(record.opening, 8, "record {number}");
        if record.exact_from != 255 {
            let (pos, ply) = positions[record.exact_from as usize];
            assert_eq!(ply, record.exact_from as usize);
            assert!(pos.empty_count() <= 12, "solved too soon: {number}");
            solve_points.push((pos, i32::from(record.result)));
        }
    }
    assert!(
        solve_points.len() >= 35,
        "{} games solved",
        solve_points.len()
    );
    // iago's solver agrees that the solve point is worth the recorded result.
    let obf: String = solve_points
        .iter()
        .map(|(pos, _)| position_string(pos) + ";\n")
        .collect();
    let path = scratch().join("solve-points.obf");
    std::fs::write(&path, obf).unwrap();
    let values: Vec<i32> = iago(&["solve", path.to_str().unwrap()], "")
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        })
        .map(|l| l.split_whitespace().nth(3).unwrap().parse().unwrap())
        .collect();
    let expected: Vec<i32> = solve_points
        .iter()
        .map(|(pos, result)| black_view(pos, *result))
        .collect();
    assert_eq!(values, expected);
    // The generator's own check agrees.
    let text = ok(run(
        &[
            "check",
            games().0.to_str().unwrap(),
            "--solve",
            "10",
            "--weights",
            &weights_file(),
        ],
        "",
    ));
    assert!(text.contains("40 records") && text.contains("10 solve points re-solved, 0 wrong"));
    // And iago's own reader takes them: `iago train --games` replays every record.
    let weights = scratch().join("from-games.bin");
    let text = iago(
        &[
            "train",
            "--games",
            games().0.to_str().unwrap(),
            "--epochs",
            "1",
            "--stages",
            "1",
            "--out",
            weights.to_str().unwrap(),
        ],
        "",
    );
    assert!(text.contains("40 games"), "{text}");
}

#[test]
fn the_same_seed_gives_the_same_games_whatever_the_threads() {
    let dir = scratch();
    let play = |name: &str, seed: &str, threads: &str, games: &str| {
        let path = dir.join(name);
        ok(run(
            &[
                "play",
                "--games",
                games,
                "--depth",
                "3",
                "--exact",
                "10",
                "--random",
                "6",
                "--seed",
                seed,
                "--threads",
                threads,
                "--weights",
                &weights_file(),
                "--out",
                path.to_str().unwrap(),
            ],
            "",
        ));
        std::fs::read(path).unwrap()
    };
    let one = play("one.gam", "7", "1", "24");
    assert_eq!(one, play("three.gam", "7", "3", "24"));
    assert_ne!(one, play("other.gam", "8", "2", "24"));
    // Game i does not depend on how many games are played.
    let fewer = read_records(&play("fewer.gam", "7", "2", "10"));
    assert_eq!(fewer[..], read_records(&one)[..10]);
}

#[test]
fn a_hard_deadline_keeps_every_finished_game_and_names_the_abandoned_ones() {
    let dir = scratch();
    let level = [
        "--depth",
        "4",
        "--exact",
        "16",
        "--random",
        "8",
        "--seed",
        "11",
        "--threads",
        "3",
    ];
    let play = |name: &str, games: &str, deadline: &[&str]| {
        let path = dir.join(name);
        let mut args = vec!["play", "--games", games, "--weights"];
        let weights = weights_file();
        args.push(&weights);
        args.extend_from_slice(&level);
        args.extend_from_slice(deadline);
        let out = path.to_str().unwrap().to_string();
        args.extend_from_slice(&["--out", &out]);
        let line = ok(run(&args, ""));
        (line, read_records(&std::fs::read(&path).unwrap()))
    };
    // Solves from 16 empties last about a tenth of a second on three threads: some games
    // are cut inside their searches, while others have ended, before and after them.
    let list = dir.join("abandoned.txt");
    let (line, kept) = play(
        "hurried.gam",
        "24",
        &[
            "--hard-seconds",
            "0.3",
            "--abandoned",
            list.to_str().unwrap(),
        ],
    );
    let counts: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    let (played, taken) = (counts[0], counts[counts.len() - 1]);
    let abandoned: Vec<usize> = std::fs::read_to_string(&list)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(played, kept.len(), "{line}");
    assert_eq!(played + abandoned.len(), taken, "{line}");
    assert!(
        line.contains(&format!("{} of {taken} abandoned", abandoned.len())),
        "{line}"
    );
    // Each kept game is the game of its number, as an unhurried run plays it.
    let (_, all) = play("unhurried.gam", &taken.to_string(), &[]);
    let expected: Vec<&Record> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| !abandoned.contains(i))
        .map(|(_, r)| r)
        .collect();
    assert_eq!(kept.iter().collect::<Vec<_>>(), expected);
}

#[test]
fn head_cuts_a_file_into_parts_in_game_order() {
    let (path, records) = games();
    let dir = scratch();
    let part = |name: &str, skip: &str, count: &str| {
        let out = dir.join(name);
        let text = ok(run(
            &[
                "head",
                path.to_str().unwrap(),
                "--skip",
                skip,
                "--games",
                count,
                "--out",
                out.to_str().unwrap(),
            ],
            "",
        ));
        assert!(text.is_empty(), "{text}");
        read_records(&std::fs::read(out).unwrap())
    };
    assert_eq!(part("first.gam", "0", "15")[..], records[..15]);
    assert_eq!(part("middle.gam", "15", "15")[..], records[15..30]);
    // The last part holds what is left; past the end, none.
    assert_eq!(part("last.gam", "30", "15")[..], records[30..]);
    assert!(part("none.gam", "50", "15").is_empty());
}

#[test]
fn compact_and_coded_parts_are_what_iago_writes() {
    let (path, _) = games();
    let plain = iago::corpus::records::read(path).unwrap();
    assert_eq!(plain.len(), 40);
    let iagogam2 = iago::corpus::records::encode_compact(&plain).unwrap();
    let iagogam3 = iago::corpus::records::compress(&plain).unwrap();
    for (flag, expected) in [("--compact", iagogam2), ("--coded", iagogam3)] {
        let out = scratch().join(format!("part{flag}.gam"));
        let text = ok(run(
            &[
                "head",
                path.to_str().unwrap(),
                "--games",
                "40",
                flag,
                "--out",
                out.to_str().unwrap(),
            ],
            "",
        ));
        assert!(text.is_empty(), "{text}");
        let written = std::fs::read(&out).unwrap();
        assert_eq!(written, expected, "{flag}");
        assert_eq!(
            iago::corpus::records::decode(&written).unwrap(),
            plain,
            "{flag}"
        );
    }
}

#[test]
fn opening_lines_come_first() {
    let dir = scratch();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "f5d6c3\nf5 f6 e6 f4\n").unwrap();
    let path = dir.join("openings.gam");
    ok(run(
        &[
            "play",
            "--games",
            "4",
            "--depth",
            "1",
            "--exact",
            "8",
            "--random",
            "2",
            "--openings",
            openings.to_str().unwrap(),
            "--weights",
            &weights_file(),
            "--out",
            path.to_str().unwrap(),
        ],
        "",
    ));
    let records = read_records(&std::fs::read(&path).unwrap());
    // f5 = 37, d6 = 43, c3 = 18; f6 = 45, e6 = 44, f4 = 29. Game i takes line i % 2.
    assert_eq!(records[0].moves[..3], [37, 43, 18]);
    assert_eq!(records[1].moves[..4], [37, 45, 44, 29]);
    assert_eq!(records[2].moves[..3], [37, 43, 18]);
    assert_eq!(
        records.iter().map(|r| r.opening).collect::<Vec<_>>(),
        [5, 6, 5, 6]
    );
    std::fs::write(&openings, "f5f5\n").unwrap();
    let output = run(
        &[
            "play",
            "--games",
            "1",
            "--openings",
            openings.to_str().unwrap(),
            "--out",
            "x",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 1: move 2 (f5) is illegal"));
}

/// The IAGOFEA1 file of the shared games, read back.
struct Features {
    stage_len: u32,
    indices: Vec<u32>,
    discs: Vec<u8>,
    labels: Vec<i8>,
    flags: Vec<u8>,
}

fn read_features(bytes: &[u8]) -> Features {
    assert_eq!(&bytes[..8], b"IAGOFEA1");
    let n = u64::from_le_bytes(bytes[8..16].try_into().unwrap()) as usize;
    let f = u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize;
    let stage_len = u32::from_le_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!(f, 51);
    let body = &bytes[24..];
    assert_eq!(body.len(), n * f * 4 + 3 * n, "the file's size");
    let indices = body[..n * f * 4]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let rest = &body[n * f * 4..];
    Features {
        stage_len,
        indices,
        discs: rest[..n].to_vec(),
        labels: rest[n..2 * n].iter().map(|&b| b as i8).collect(),
        flags: rest[2 * n..].to_vec(),
    }
}

#[test]
fn features_equal_iagos_tied_indices() {
    let dir = scratch();
    let out = dir.join("games.fea");
    let labels = dir.join("games.lbl");
    ok(run(
        &[
            "expand",
            "--in",
            games().0.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--labels",
            labels.to_str().unwrap(),
        ],
        "",
    ));
    let features = read_features(&std::fs::read(&out).unwrap());
    let layout = features::layout();
    assert_eq!(features.stage_len, layout.stage_len);
    let mut expected = Vec::new();
    let (mut discs, mut labels_expected, mut flags) = (Vec::new(), Vec::new(), Vec::new());
    for record in &games().1 {
        for (pos, ply) in replay(record).0 {
            if ply < record.opening as usize {
                continue;
            }
            let mut row = vec![0u32; layout.active()];
            features::indices(layout, &pos, &mut row);
            expected.extend(row.iter().map(|&i| layout.canonical[i as usize]));
            discs.push((pos.player | pos.opponent).count_ones() as u8);
            labels_expected.push(black_view(&pos, i32::from(record.result)) as i8);
            flags.push(u8::from(
                record.exact_from != 255 && ply >= record.exact_from as usize,
            ));
        }
    }
    assert!(discs.len() > 1000, "{} positions", discs.len());
    assert_eq!(features.indices, expected);
    assert_eq!(features.discs, discs);
    assert_eq!(features.labels, labels_expected);
    assert_eq!(features.flags, flags);
    assert!(flags.contains(&1) && flags.contains(&0));
    // The same positions as an `iago label` file, with the result as an exact score.
    let scored = iago::label::read(&labels).unwrap();
    assert_eq!(scored.len(), discs.len());
    assert!(
        scored
            .iter()
            .zip(&labels_expected)
            .all(|(s, &l)| s.score == i16::from(l) * 100
                && s.depth == iago::label::EXACT_DEPTH
                && s.game.is_none())
    );
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let output = run(
        &["eval", "--weights", &weights_file()],
        "XXO not a position\n",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("stdin: line 1: not a position"));
    let output = run(&["eval", "--weights", "/nonexistent.bin"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("/nonexistent.bin: cannot open"));
    // The shipped weights cut short, and with a stray byte after them.
    let shipped = std::fs::read(weights_file()).unwrap();
    let cut = scratch().join("cut.bin");
    for bytes in [
        &shipped[..shipped.len() - 1],
        &[&shipped[..], &[2]].concat()[..],
    ] {
        std::fs::write(&cut, bytes).unwrap();
        let output = run(&["eval", "--weights", cut.to_str().unwrap()], "");
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("expected"), "{stderr}");
    }
    // A record whose second move is illegal, and one cut short.
    let dir = scratch();
    let bad = dir.join("bad.gam");
    std::fs::write(&bad, b"IAGOGAM1\x02\x00\xff\x00\x25\x25").unwrap();
    let output = run(&["check", bad.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("record 1: move 2 (f5) is illegal"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::write(&bad, b"IAGOGAM1\x05\x00\xff\x00\x25").unwrap();
    let output = run(&["check", bad.to_str().unwrap()], "");
    assert!(String::from_utf8_lossy(&output.stderr).contains("record 1: 5 moves, truncated"));
    let output = run(&["play", "--games", "1", "--depth", "99", "--out", "x"], "");
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("--depth: 99 is not a number from 1 to 30")
    );
    // A midgame search of no plies has no move to play: refused, not a crash.
    let output = run(&["play", "--games", "1", "--depth", "0", "--out", "x"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("--depth: 0 is not a number from 1 to 30")
    );
}

/// The generator's writer, like iago's, never writes through a link planted beside its
/// output (it opened `OUT.tmp` with fopen, following a link there).
#[test]
fn a_link_planted_beside_the_output_is_not_followed() {
    let dir = scratch().join("planted");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let out = dir.join("games.gam");
    std::os::unix::fs::symlink(&victim, dir.join("games.gam.tmp")).unwrap();
    let weights = weights_file();
    ok(run(
        &[
            "play",
            "--games",
            "2",
            "--depth",
            "1",
            "--exact",
            "4",
            "--weights",
            &weights,
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    ));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(std::fs::symlink_metadata(&out).unwrap().is_file());
    assert!(
        std::fs::symlink_metadata(dir.join("games.gam.tmp"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
