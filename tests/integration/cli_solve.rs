//! `iago solve` and `iago bench` through the real binary, the option errors every
//! subcommand shares, and `iago --version`.

use std::process::{Command, Output, Stdio};

use crate::common::iago;
use crate::protocol_io::IAGO;

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

/// `iago ARGS` with at most 2 GB of address space (`ulimit -v` in a shell that then
/// becomes iago): room for tables of tens of MiB, not for 4 GiB, on any machine.
fn iago_in_2_gb(args: &[&str]) -> Output {
    Command::new("bash")
        .arg("-c")
        .arg("ulimit -v 2000000 && exec \"$0\" \"$@\"")
        .arg(IAGO)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("bash runs")
}

#[test]
fn a_hash_size_that_cannot_be_had_is_refused_at_start() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--hash", "4096"],
            "iago: --hash 4096: cannot allocate 4096 MB for the hash table\n",
        ),
        (
            &["--hash", "4096", "--protocol", "gtp"],
            "iago: --hash 4096: cannot allocate 4096 MB for the hash table\n",
        ),
        (
            &["bench", "--hash", "4096"],
            "iago: bench: --hash 4096: cannot allocate 4096 MB for the hash table\n",
        ),
        (
            &["solve", "tests/data/fforum-1-19.obf", "--hash", "4096"],
            "iago: solve: --hash 4096: cannot allocate 4096 MB for the hash table\n",
        ),
    ];
    for (args, message) in cases {
        let output = iago_in_2_gb(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr, message, "{args:?}");
    }
    // A size that can be had is accepted.
    let output = iago_in_2_gb(&["--hash", "16"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn out_of_range_options_are_refused_with_the_range_stated() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["--depth", "100"],
            "--depth 100: depth must be between 1 and 64, or 0 or none for no limit",
        ),
        (
            &["--hash", "0"],
            "--hash 0: hash must be between 1 and 4096 MB",
        ),
        (
            &["--hash", "18446744073709551615"],
            "--hash 18446744073709551615: hash must be between 1 and 4096 MB",
        ),
        (
            &["--threads", "5000"],
            "--threads 5000: threads must be between 1 and 1024",
        ),
        (
            &["--movetime", "86400001"],
            "--movetime 86400001: movetime must be between 1 and 86400000 ms, or 0 or none for \
             no limit",
        ),
        (
            &["perft", "30"],
            "perft: DEPTH 30: perft depth must be between 0 and 20",
        ),
        (
            &["bench", "--depth", "200"],
            "bench: --depth 200: depth must be between 1 and 64",
        ),
        (
            &["solve", "x.obf", "--threads", "0"],
            "solve: --threads 0: threads must be between 1 and 1024",
        ),
    ];
    for (args, message) in cases {
        let output = Command::new(IAGO)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("the iago binary runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            format!("iago: {message}\n"),
            "{args:?}"
        );
    }
}

#[test]
fn a_closed_stdout_ends_every_subcommand_quietly() {
    // Stdout is a pipe whose reader is gone before iago writes anything, as with
    // `iago bench | head -1` once head has its line: every write fails (EPIPE).
    let problems = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fforum-1-19.obf");
    let cases: [&[&str]; 10] = [
        &["bench", "--depth", "3"],
        &["solve", problems],
        &["book", "show"],
        &["book", "check", "crates/core/src/othello/book/book.bin"],
        &["perft", "3", "--divide"],
        &["perft", "--game", "mill", "2"],
        &["help"],
        &["version"],
        &["--help"],
        &["openings", "--help"],
    ];
    for args in cases {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let output = Command::new(IAGO)
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(writer)
            .output()
            .expect("the iago binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr, "", "{args:?}");
        assert_eq!(output.status.code(), Some(141), "{args:?}");
    }
}

/// The option ranges `iago --help` and protocol.md state are the ones the engine checks
/// (one table, `options.rs`).
#[test]
fn help_and_protocol_md_state_the_option_ranges_the_engine_checks() {
    let help = std::process::Command::new(IAGO)
        .arg("--help")
        .output()
        .expect("run iago --help");
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let manual = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md"))
        .expect("protocol.md");
    for (flag, span) in iago::options::engine_option_ranges() {
        let in_help = help
            .split("\n  -")
            .find(|entry| entry.starts_with(&flag[1..]))
            .unwrap_or_else(|| panic!("{flag} missing from --help"));
        assert!(
            in_help.contains(&span),
            "--help: {flag} without {span}: {in_help}"
        );
        let row = manual
            .lines()
            .find(|line| line.starts_with(&format!("| `{flag} ")))
            .unwrap_or_else(|| panic!("{flag} missing from protocol.md's option table"));
        assert!(
            row.contains(&span),
            "protocol.md: {flag} without {span}: {row}"
        );
    }
}

/// Every name an option has in a protocol (options::ENGINE_OPTIONS) is in protocol.md,
/// and an option the engine accepts and ignores is said to be ignored wherever it is.
#[test]
fn protocol_md_names_every_option_as_each_protocol_sets_it() {
    use iago::options::{Applies, ENGINE_OPTIONS};
    let manual = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md"))
        .expect("protocol.md");
    let rows: Vec<&str> = manual
        .lines()
        .filter(|line| line.starts_with("| `"))
        .collect();
    for option in ENGINE_OPTIONS {
        let names = [
            option.gtp.map(|command| format!("`{command} ")),
            option.nboard.map(|variable| format!("`set {variable} ")),
        ];
        for name in names.into_iter().flatten() {
            assert!(
                rows.iter().any(|row| row.contains(&name)),
                "protocol.md has no table row for {name}"
            );
        }
        if let Some(name) = option.ugi {
            assert!(
                manual.contains(&format!("`{name}` (")),
                "protocol.md's UGI options lack `{name}`"
            );
        }
        if matches!(option.applies, Applies::Ignored) {
            for row in rows.iter().filter(|row| row.contains(option.name)) {
                assert!(row.contains("ignored"), "{} is ignored: {row}", option.name);
            }
        }
    }
}
