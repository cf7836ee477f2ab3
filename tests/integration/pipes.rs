//! Command files piped through the engine, as regression scripts run it: every command
//! answered in order, the same output on every run whatever the load of the machine and
//! whatever follows in the pipe, and game switches that lose nothing.

use std::process::{Child, Command, Stdio};

use crate::protocol_io::{Engine, run_logged};

/// Processes that keep every core busy while they live, so that the engine's threads are
/// scheduled late and often interrupted.
struct BusyCores(Vec<Child>);

impl BusyCores {
    fn start() -> BusyCores {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        BusyCores(
            (0..cores)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .stdin(Stdio::null())
                        .spawn()
                        .expect("start a busy loop")
                })
                .collect(),
        )
    }
}

impl Drop for BusyCores {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

const RUNS: usize = 20;
const DEPTH: u32 = 12;

/// The depths of the searches the GTP session logged (`f6: score ... depth 12 ...`).
fn logged_depths(log: &str) -> Vec<u32> {
    log.lines()
        .filter_map(|line| line.split(" depth ").nth(1))
        .filter_map(|rest| rest.split(' ').next()?.parse().ok())
        .collect()
}

#[test]
fn a_piped_gtp_script_gives_the_same_replies_every_run_under_load() {
    let _busy = BusyCores::start();
    let depth = DEPTH.to_string();
    let args = ["--depth", &depth, "--book", "none", "--hash", "16"];
    let script = "boardsize 8\nplay b f5\ngenmove w\ngenmove b\nreg_genmove w\n\
                  showboard\nset_depth 9\ngenmove w\n";
    let mut first: Option<String> = None;
    for run in 0..RUNS {
        // Half the runs end with `quit`, half with the end of input: neither cuts the
        // last search short.
        let input = if run % 2 == 0 {
            format!("{script}quit\n")
        } else {
            script.to_string()
        };
        let (output, code, log) = run_logged(&args, input.as_bytes());
        assert_eq!(code, Some(0), "{log}");
        assert_eq!(
            logged_depths(&log),
            [DEPTH, DEPTH, DEPTH, 9],
            "run {run}: a search stopped before its depth\n{log}"
        );
        let output = output
            .strip_suffix("= \n\n")
            .filter(|_| run % 2 == 0)
            .map_or(output.clone(), str::to_string);
        match &first {
            None => first = Some(output),
            Some(first) => assert_eq!(&output, first, "run {run} differs"),
        }
    }
}

/// UGI output with the times, which vary, masked.
fn without_times(output: &str) -> String {
    output
        .lines()
        .map(|line| match line.split_once(" time ") {
            Some((before, after)) => {
                let rest = after.split_once(' ').map_or("", |(_, rest)| rest);
                format!("{before} time T {rest}\n")
            }
            None => format!("{line}\n"),
        })
        .collect()
}

#[test]
fn a_piped_ugi_script_gives_the_same_output_every_run_under_load() {
    let _busy = BusyCores::start();
    let args = ["--protocol", "ugi", "--book", "none", "--hash", "16"];
    let script = format!(
        "uginewgame\nposition startpos moves f5\ngo depth {DEPTH}\n\
         position startpos moves f5 d6\ngo nodes 20000\nquery p1turn\n\
         position startpos moves f5 d6 c3\ngo depth {DEPTH}\n"
    );
    let mut first: Option<String> = None;
    for run in 0..RUNS {
        let input = if run % 2 == 0 {
            format!("{script}quit\n")
        } else {
            script.clone()
        };
        let (output, code, log) = run_logged(&args, input.as_bytes());
        assert_eq!(code, Some(0), "{log}");
        let lines: Vec<&str> = output.lines().collect();
        let answers: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("bestmove"))
            .collect();
        assert_eq!(answers.len(), 3, "run {run}: {output}");
        for &index in [answers[0], answers[2]].iter() {
            let depth = format!("info depth {DEPTH} ");
            assert!(
                lines[index - 1].starts_with(&depth),
                "run {run}: a search stopped before depth {DEPTH}\n{output}"
            );
        }
        let output = without_times(&output);
        match &first {
            None => first = Some(output),
            Some(first) => assert_eq!(&output, first, "run {run} differs"),
        }
    }
}

#[test]
fn a_queued_game_switch_answers_every_command_after_it() {
    // Sent in one write with stdin left open, as a controller that pipelines does: the
    // lines after the switch wait in the queue of the game switched from.
    let mut engine = Engine::start(&["--book", "none", "--hash", "16"]);
    engine.send_bytes(b"1 set_depth 9\n2 genmove b\n3 set_game mill\n4 name\n5 quit\n");
    let replies = engine.until(|line| line == "=5 ");
    let replies: Vec<&String> = replies.iter().filter(|l| !l.is_empty()).collect();
    assert_eq!(replies.len(), 5, "{replies:?}");
    assert_eq!(replies[0], "=1 ");
    assert!(replies[1].starts_with("=2 "), "{replies:?}");
    assert_eq!(replies[2..], ["=3 ", "=4 iago", "=5 "]);
    let (rest, code) = engine.exit_with_stdin_open();
    assert_eq!(rest, [""]);
    assert_eq!(code, Some(0));
}

#[test]
fn a_game_switch_at_the_end_of_input_still_answers_what_follows() {
    let (output, code, _) = run_logged(
        &["--book", "none", "--hash", "16"],
        b"1 set_depth 6\n2 genmove b\n3 set_game mill\n4 genmove white\n5 set_game othello\n6 name\n",
    );
    let replies: Vec<&str> = output.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 6, "{output}");
    assert!(replies[3].starts_with("=4 "), "{output}");
    assert_eq!(replies[5], "=6 iago");
    assert_eq!(code, Some(0));
}

#[test]
fn settings_given_over_gtp_survive_a_game_switch() {
    // Depth and evaluator set in Othello, the Mill game's own evaluator: each comes back
    // with its game.
    let (output, code, log) = run_logged(
        &["--book", "none", "--hash", "16"],
        b"1 set_depth 3\n2 set_eval discs\n3 play b f5\n4 eval\n5 set_game mill\n\
          6 set_eval material\n7 genmove white\n8 set_game othello\n9 play b f5\n10 eval\n\
          11 genmove w\n",
    );
    assert_eq!(code, Some(0), "{log}");
    let replies: Vec<&str> = output.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 11, "{output}");
    let discs = replies[3].strip_prefix("=4 ").unwrap();
    assert_eq!(replies[9], format!("=10 {discs}"), "{output}");
    assert_eq!(logged_depths(&log), [3, 3], "{log}");
    assert!(
        log.contains("Mill: no evaluator \"discs\""),
        "the Othello evaluator was offered to Mill\n{log}"
    );
}
