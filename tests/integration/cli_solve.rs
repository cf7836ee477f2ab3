//! `iago solve` and `iago bench` through the real binary, the option errors every
//! subcommand shares, and `iago --version`.

use std::process::{Command, Output};

fn iago(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iago"))
        .args(args)
        .output()
        .expect("the iago binary runs")
}

#[test]
fn solve_prints_a_table_and_totals() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fforum-1-19.obf");
    let output = iago(&["solve", file]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("19 positions, 19 right, 0 wrong, 0 unsolved"),
        "{text}"
    );
    // Position 1: g8 scores +18 (the file's number is taken from its name).
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().take(5).collect::<Vec<_>>()
                == ["1", "14", "g8", "+18", "+18"]),
        "{text}"
    );
}

#[test]
fn solve_with_two_threads_is_exact() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hard-20-sample.obf");
    let output = iago(&["solve", file, "--threads", "2"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("4 positions, 4 right, 0 wrong, 0 unsolved"),
        "{text}"
    );
    let output = iago(&["solve", file, "--threads", "0"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--threads"));
}

#[test]
fn solve_rejects_bad_input() {
    let output = iago(&["solve", "/nonexistent.obf"]);
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    let output = iago(&["solve", "x.obf", "--max-nodes", "many"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--max-nodes"));
}

#[test]
fn bench_signature_repeats() {
    let signature = |output: Output| {
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        let last = text.lines().last().unwrap_or_default().to_string();
        assert!(last.starts_with("bench depth 5: "), "{text}");
        last.split_whitespace().nth(3).unwrap().to_string()
    };
    let a = signature(iago(&["bench", "--depth", "5"]));
    let b = signature(iago(&["bench", "--depth", "5"]));
    assert_eq!(a, b);
}

#[test]
fn version_is_printed_in_each_usual_spelling() {
    for flag in ["--version", "-V", "version"] {
        let output = iago(&[flag]);
        assert!(output.status.success(), "{flag}");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            format!("iago {}\n", env!("CARGO_PKG_VERSION")),
            "{flag}"
        );
    }
}

#[test]
fn subcommands_report_bad_options_in_one_form() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["bench", "--depth", "x"],
            "bench: --depth: \"x\" is not a valid number",
        ),
        (&["solve", "x.obf", "--hash"], "solve: --hash needs a value"),
        (
            &["match", "--games", "2x"],
            "match: --games: \"2x\" is not a valid number",
        ),
        (
            &["openings", "--bogus"],
            "openings: unknown option \"--bogus\" (try `iago openings --help`)",
        ),
        (&["train", "--epochs"], "train: --epochs needs a value"),
        (
            &["label", "--games", "z"],
            "label: --games: \"z\" is not a valid number",
        ),
        (
            &["eval-match", "--fast"],
            "eval-match: unknown option \"--fast\" (try `iago eval-match --help`)",
        ),
    ];
    for (args, message) in cases {
        let output = iago(args);
        assert!(!output.status.success(), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
