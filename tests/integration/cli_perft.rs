//! `iago perft` as a user runs it: the real binary, its output and its errors.

use crate::common::{iago, stdout};

const START: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn counts_from_the_start() {
    let output = iago(&["perft", "8"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("perft 8: 390216\n"), "{text}");
    assert!(text.contains("leaves/s"), "{text}");
}

#[test]
fn position_as_one_argument_or_several() {
    let split: Vec<&str> = vec![
        "perft", "5", "--------", "--------", "--------", "---OX---", "---XO---", "--------",
        "--------", "--------", "x",
    ];
    for args in [vec!["perft", "5", START], split] {
        let output = iago(&args);
        assert!(output.status.success(), "{args:?}");
        assert!(stdout(&output).contains("perft 5: 1396\n"), "{args:?}");
    }
}

#[test]
fn divide_lists_each_move_and_the_total() {
    let output = iago(&["perft", "--divide", "4", START]);
    assert!(output.status.success());
    let text = stdout(&output);
    for line in [
        "d3: 61\n",
        "c4: 61\n",
        "f5: 61\n",
        "e6: 61\n",
        "perft 4: 244\n",
    ] {
        assert!(text.contains(line), "{line:?} missing in {text}");
    }
    // A side that must pass: the pass is the only move.
    let pass = "OX-------------------------------------------------------------- X";
    let text = stdout(&iago(&["perft", "2", pass, "--divide"]));
    assert!(
        text.contains("pass: 1\n") && text.contains("perft 2: 1\n"),
        "{text}"
    );
}

#[test]
fn every_code_path_can_be_chosen() {
    let output = iago(&["perft", "6", "--path", "portable"]);
    assert!(stdout(&output).contains("perft 6: 8200\n"));
    // The others exist or are refused with a message, depending on the CPU.
    for path in ["bmi", "avx2"] {
        let output = iago(&["perft", "6", "--path", path]);
        if output.status.success() {
            assert!(stdout(&output).contains("perft 6: 8200\n"), "{path}");
        } else {
            assert!(!output.stderr.is_empty());
        }
    }
}

#[test]
fn help_is_printed() {
    let output = iago(&["perft", "--help"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("usage: iago perft"));
}

#[test]
fn bad_command_lines_are_errors_not_crashes() {
    let cases: [&[&str]; 9] = [
        &["perft"],
        &["perft", "x"],
        &["perft", "-1"],
        &["perft", "99999999999"],
        &["perft", "3", "--frobnicate"],
        &["perft", "3", "--path"],
        &["perft", "3", "--path", "quantum"],
        &["perft", "3", "XO"],
        &["perft", "3", &START[..65]],
    ];
    for args in cases {
        let output = iago(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(message.starts_with("iago: perft:"), "{args:?}: {message}");
        assert!(!message.contains("panicked"), "{args:?}: {message}");
    }
}
