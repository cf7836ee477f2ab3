//! Drives the real `iago` binary as a protocol client would: lines in on stdin, lines out
//! on stdout read on their own thread.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::Duration;

pub const IAGO: &str = env!("CARGO_BIN_EXE_iago");

/// The command for `iago ARGS` run with at most `kib` KiB of address space (`ulimit -v`
/// in a shell that then becomes iago), so that a large allocation fails alike on every
/// machine, however much memory it has.
pub fn with_memory_limit(kib: u64, args: &[&str]) -> Command {
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(IAGO)
        .args(args);
    command
}

/// Guards against a hang only; no test asserts on time.
const HANG: Duration = Duration::from_secs(120);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far.
    pub transcript: Vec<String>,
    /// Reads what the engine writes on stderr (its logs), all of it once it ends.
    stderr: Option<JoinHandle<String>>,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut command = Command::new(IAGO);
        command.args(args);
        Engine::spawn(command)
    }

    /// Starts `command` (iago, perhaps in a shell that sets limits first).
    pub fn spawn(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start iago");
        let mut errors = child.stderr.take().expect("stderr");
        let stderr = Some(std::thread::spawn(move || {
            let mut log = Vec::new();
            let _ = errors.read_to_end(&mut log);
            String::from_utf8_lossy(&log).into_owned()
        }));
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            stderr,
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to iago");
        stdin.flush().expect("flush");
    }

    /// The next output line; panics if the engine ended or hangs.
    pub fn line(&mut self) -> String {
        let line = self
            .lines
            .recv_timeout(HANG)
            .unwrap_or_else(|e| panic!("no output ({e:?}); so far: {:#?}", self.transcript));
        self.transcript.push(line.clone());
        line
    }

    /// Lines up to and including the first one `done` accepts.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let stop = done(&line);
            lines.push(line);
            if stop {
                return lines;
            }
        }
    }

    /// Waits for the engine to exit by itself, stdin still open; returns the rest of the
    /// output and the exit code. Panics if it goes on (a hang guard, not a timing test).
    pub fn exit_with_stdin_open(mut self) -> (Vec<String>, Option<i32>) {
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for iago") {
                break status;
            }
            assert!(
                started.elapsed() < HANG,
                "iago did not exit; so far: {:#?}",
                self.transcript
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let rest: Vec<String> = self.lines.iter().collect();
        drop(self.stdin.take());
        (rest, status.code())
    }

    /// Closes stdin and returns the rest of the output and the exit code.
    pub fn finish(self) -> (Vec<String>, Option<i32>) {
        let (rest, code, _) = self.finish_logged();
        (rest, code)
    }

    /// Closes stdin and returns the rest of the output, the exit code and everything
    /// the engine wrote on stderr.
    pub fn finish_logged(mut self) -> (Vec<String>, Option<i32>, String) {
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait for iago");
        let rest: Vec<String> = self.lines.iter().collect();
        let log = self
            .stderr
            .take()
            .map(|thread| thread.join().expect("stderr"));
        (rest, status.code(), log.unwrap_or_default())
    }
}

/// Runs iago on `input` all at once; returns stdout and the exit code.
pub fn run_all(args: &[&str], input: &[u8]) -> (String, Option<i32>) {
    let mut command = Command::new(IAGO);
    command.args(args);
    run_command(command, input)
}

/// Runs `command` (iago, perhaps in a shell that sets limits first) on `input` all at
/// once; returns stdout and the exit code.
pub fn run_command(command: Command, input: &[u8]) -> (String, Option<i32>) {
    let (stdout, code, _) = run_command_logged(command, input, false);
    (stdout, code)
}

/// Runs iago on `input` all at once with its logs at level info; returns stdout, the exit
/// code and the logs.
pub fn run_logged(args: &[&str], input: &[u8]) -> (String, Option<i32>, String) {
    let mut command = Command::new(IAGO);
    command.args(args).env("RUST_LOG", "info");
    run_command_logged(command, input, true)
}

fn run_command_logged(
    mut command: Command,
    input: &[u8],
    logged: bool,
) -> (String, Option<i32>, String) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(if logged {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .spawn()
        .expect("start iago");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The engine may exit (quit) before reading everything.
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("wait for iago");
    let _ = writer.join();
    (
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
