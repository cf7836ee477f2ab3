//! Regression transcripts: each `tests/regress/NAME.in` is run through the engine and its
//! output compared with `NAME.out`. A first line `#! ARGS` gives the engine's options.
//! Searches are at fixed depth, so the output is deterministic once times are masked.
//! `scripts/regress --bless` rewrites the `.out` files (review the diff).

use std::path::Path;

use crate::protocol_io::{Engine, run_all};

/// Masks what depends on the clock: the time of `=== mv/eval/time`, of `nodestats` and of
/// `perft`.
fn mask_times(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    match words.as_slice() {
        ["===", reply] => {
            let mut fields: Vec<&str> = reply.split('/').collect();
            if fields.len() == 3 {
                fields[2] = "T";
            }
            format!("=== {}", fields.join("/"))
        }
        ["nodestats", nodes, _] => format!("nodestats {nodes} T"),
        ["perft", depth, leaves, _] => format!("perft {depth} {leaves} T"),
        _ => line.to_string(),
    }
}

/// Recognises the last line of a reply.
type ReplyEnd = Box<dyn Fn(&str) -> bool>;

/// NBoard: one line at a time, waiting for the reply of each request (as the GUI does),
/// since a new line would cancel it.
fn run_nboard(args: &[&str], lines: &[&str]) -> String {
    let mut engine = Engine::start(args);
    for line in lines {
        engine.send(line);
        let word = line.split_whitespace().next().unwrap_or("");
        let done: Option<ReplyEnd> = match word {
            "nboard" => Some(Box::new(|l| l.starts_with("set myname"))),
            "ping" => {
                let pong = line.replacen("ping", "pong", 1);
                Some(Box::new(move |l| l == pong))
            }
            "go" => Some(Box::new(|l| l.starts_with("==="))),
            "hint" | "analyze" => Some(Box::new(|l| l == "status")),
            "learn" => Some(Box::new(|l| {
                l == "learned" || l.starts_with("status learning failed")
            })),
            "solve" | "perft" | "eval" | "position" => {
                let word = word.to_string();
                Some(Box::new(move |l| l.starts_with(&word)))
            }
            _ => None,
        };
        if let Some(done) = done {
            engine.until(done);
        }
    }
    let mut lines = engine.transcript.clone();
    let (rest, code) = engine.finish();
    assert_eq!(code, Some(0));
    lines.extend(rest);
    lines
        .iter()
        .map(|l| format!("{}\n", mask_times(l)))
        .collect()
}

fn run_case(input: &str) -> String {
    let mut lines: Vec<&str> = input.lines().collect();
    let mut args: Vec<&str> = Vec::new();
    if let Some(first) = lines.first()
        && let Some(rest) = first.strip_prefix("#!")
    {
        args = rest.split_whitespace().collect();
        lines.remove(0);
    }
    let nboard = args.windows(2).any(|w| w == ["--protocol", "nboard"])
        || lines.first().is_some_and(|l| l.starts_with("nboard"));
    if nboard {
        run_nboard(&args, &lines)
    } else {
        let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let (output, code) = run_all(&args, input.as_bytes());
        assert_eq!(code, Some(0));
        output
            .lines()
            .map(|l| format!("{}\n", mask_times(l)))
            .collect()
    }
}

#[test]
fn transcripts_match() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regress");
    let bless = std::env::var_os("REGRESS_BLESS").is_some();
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/regress")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "in"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for case in &cases {
        let input = std::fs::read_to_string(case).expect("read .in");
        let output = run_case(&input);
        let expected_path = case.with_extension("out");
        if bless {
            std::fs::write(&expected_path, &output).expect("write .out");
            eprintln!("blessed {}", expected_path.display());
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if output != expected {
            failures.push(format!(
                "{}: output differs\n--- expected\n{expected}--- got\n{output}",
                case.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
