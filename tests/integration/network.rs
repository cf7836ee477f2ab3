//! The evaluation network's pieces as a user runs them: `iago features` (the trainers'
//! input), the trainers' self-tests (`gpu/net.py` and the pattern fit `gpu/fit.py`, where
//! Python and NumPy are), and network files through `--eval network:FILE`.

use std::path::Path;
use std::process::Command;

use crate::common::{iago, scratch, stderr, stdout_of};

use iago::othello::eval::features;
use iago::othello::notation::parse_position;

const TEST_GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/test/d6e20-s99.gam");
const NET_PY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/gpu/net.py");
const FIT_PY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/gpu/fit.py");

/// Whether `python3` runs and imports `module`.
fn python_with(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

#[test]
fn features_are_the_engines_tied_indices_of_each_position() {
    let dir = scratch("network", "features");
    let (fea, can, pos) = (dir.join("f.fea"), dir.join("c.can"), dir.join("p.txt"));
    let args = [
        "features",
        TEST_GAMES,
        "--games",
        "4",
        "--out",
        fea.to_str().unwrap(),
        "--canonical",
        can.to_str().unwrap(),
        "--positions",
        pos.to_str().unwrap(),
    ];
    let out = stdout_of(&iago(&args));
    let bytes = std::fs::read(&fea).unwrap();
    let positions: Vec<_> = std::fs::read_to_string(&pos)
        .unwrap()
        .lines()
        .map(|l| parse_position(l).unwrap())
        .collect();
    assert_eq!(&bytes[..8], b"IAGOFEA1");
    let n = u64::from_le_bytes(bytes[8..16].try_into().unwrap()) as usize;
    assert!(out.contains(&format!("{n} positions")), "{out}");
    // Four games less their 10 opening moves each.
    assert!((4 * 30..4 * 51).contains(&n), "{n} positions");
    assert_eq!(positions.len(), n);
    let layout = features::layout();
    let active = layout.active();
    assert_eq!(u32_at(&bytes, 16) as usize, active);
    assert_eq!(u32_at(&bytes, 20), layout.stage_len);
    assert_eq!(bytes.len(), 24 + n * active * 4 + 3 * n);
    let tail = 24 + n * active * 4;
    let mut indices = vec![0u32; active];
    for (k, position) in positions.iter().enumerate() {
        features::indices(layout, position, &mut indices);
        for (f, &index) in indices.iter().enumerate() {
            let at = 24 + (k * active + f) * 4;
            assert_eq!(u32_at(&bytes, at), layout.canonical[index as usize]);
        }
        let discs = (position.player | position.opponent).count_ones();
        assert_eq!(u32::from(bytes[tail + k]), discs);
        // Labels are results: within the board's 64 discs, and the exact flag is 0 or 1.
        assert!((bytes[tail + n + k] as i8).unsigned_abs() <= 64);
        assert!(bytes[tail + 2 * n + k] <= 1);
    }
    let canonical = std::fs::read(&can).unwrap();
    assert_eq!(&canonical[..8], b"IAGOCAN1");
    assert_eq!(canonical.len(), 12 + 4 * layout.stage_len as usize);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn features_refuses_bad_requests() {
    let dir = scratch("network", "refuses");
    let out = dir.join("f.fea");
    for args in [
        vec!["features"],
        vec!["features", TEST_GAMES],
        vec!["features", TEST_GAMES, "--out", TEST_GAMES],
        vec!["features", "/no/such/file", "--out", out.to_str().unwrap()],
        vec!["features", TEST_GAMES, "--bogus"],
    ] {
        let output = iago(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    assert!(std::fs::read(TEST_GAMES).unwrap().starts_with(b"IAGOGAM3"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_network_files_are_refused_with_a_message() {
    let dir = scratch("network", "bad");
    let garbage = dir.join("garbage.bin");
    std::fs::write(&garbage, b"IAGONET1 and then nothing useful").unwrap();
    for eval in [
        "network:/no/such/file".to_string(),
        format!("network:{}", garbage.display()),
    ] {
        let output = iago(&["bench", "--depth", "2", "--eval", &eval]);
        assert_eq!(output.status.code(), Some(2), "{eval}");
        assert!(stderr(&output).contains("network"), "{}", stderr(&output));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs a trainer's `--self-test` where python3 has NumPy (saying what is skipped).
fn trainer_self_test(script: &str) {
    if !python_with("numpy") {
        eprintln!("skipped: python3 with NumPy is not installed, so {script} is not tested");
        return;
    }
    if !python_with("torch") {
        eprintln!("note: PyTorch is not installed: {script}'s PyTorch path is not tested");
    }
    let output = Command::new("python3")
        .args([script, "--self-test"])
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains("self-test passed"), "{text}");
}

#[test]
fn the_trainers_self_test_passes_where_python_and_numpy_are() {
    trainer_self_test(NET_PY);
}

#[test]
fn the_pattern_fits_self_test_passes_where_python_and_numpy_are() {
    trainer_self_test(FIT_PY);
}

#[test]
fn a_network_file_from_the_trainer_searches_where_python_and_numpy_are() {
    if !python_with("numpy") {
        eprintln!("skipped: python3 with NumPy is not installed, so no network file is made");
        return;
    }
    let dir = scratch("network", "search");
    let (can, net) = (dir.join("c.can"), dir.join("net.bin"));
    let fea = dir.join("f.fea");
    let args = ["features", TEST_GAMES, "--games", "1"];
    let mut args: Vec<&str> = args.to_vec();
    args.extend([
        "--out",
        fea.to_str().unwrap(),
        "--canonical",
        can.to_str().unwrap(),
    ]);
    stdout_of(&iago(&args));
    let written = Command::new("python3")
        .args([NET_PY, "--canonical", can.to_str().unwrap(), "--seeded-net"])
        .arg(&net)
        .args(["--width", "32", "--hidden", "8", "--buckets", "6"])
        .output()
        .expect("python3 runs");
    assert!(written.status.success(), "{:?}", written);
    let eval = format!("network:{}", net.display());
    let first = stdout_of(&iago(&["bench", "--depth", "6", "--eval", &eval]));
    let again = stdout_of(&iago(&["bench", "--depth", "6", "--eval", &eval]));
    let nodes = |text: &str| {
        let total = text.lines().last().unwrap().to_string();
        total.split("nodes").next().unwrap().to_string()
    };
    assert!(first.contains("bench depth 6"), "{first}");
    assert_eq!(nodes(&first), nodes(&again), "deterministic");
    assert!(Path::new(&net).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--eval network` is the embedded network: the same searches as the file it was built
/// from, and other ones than the pattern evaluation's.
#[test]
fn the_embedded_network_is_its_weight_file() {
    const SHIPPED: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/core/src/othello/eval/weights/network.bin"
    );
    let nodes = |eval: &str| {
        let text = stdout_of(&iago(&["bench", "--depth", "6", "--eval", eval]));
        let total = text.lines().last().unwrap().to_string();
        assert!(total.starts_with("bench depth 6"), "{text}");
        total.split("nodes").next().unwrap().to_string()
    };
    let embedded = nodes("network");
    assert_eq!(embedded, nodes(&format!("network:{SHIPPED}")));
    assert_ne!(embedded, nodes("pattern"));
}
