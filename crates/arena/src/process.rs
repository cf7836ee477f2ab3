//! An engine subprocess seen as lines: write commands to its stdin, read its stdout lines
//! with a deadline. A reader thread per pipe keeps the runner from ever blocking on an
//! engine that hangs; the last lines of stderr are kept to explain a crash.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Lines longer than this are cut, and at most `MAX_QUEUED` lines wait to be read (then
/// the engine blocks on its output): an engine flooding its output cannot exhaust memory.
const MAX_LINE: usize = 8 * 1024;
const MAX_QUEUED: usize = 1024;
/// Lines of stderr kept for error messages.
const STDERR_TAIL: usize = 4;

/// Why talking to an engine process failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessError {
    /// The process could not be started.
    Spawn(String),
    /// The process closed its output or its input (it exited or crashed).
    Exited(String),
    /// Nothing arrived before the deadline.
    Timeout,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Ends when the engine's stderr closes, that is when it has said its last words.
    stderr_reader: thread::JoinHandle<()>,
}

impl EngineProcess {
    /// Starts `command` with `sh -c` in its own process group, so that a shell wrapper and
    /// everything it started can be stopped together.
    pub fn spawn(command: &str) -> Result<EngineProcess, ProcessError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| ProcessError::Spawn(format!("cannot run {command:?}: {e}")))?;
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            return Err(ProcessError::Spawn("no pipes to the engine".into()));
        };
        let (sender, lines) = mpsc::sync_channel(MAX_QUEUED);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(line) = read_line_bounded(&mut reader) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let stderr_reader = thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            while let Some(line) = read_line_bounded(&mut reader) {
                if let Ok(mut tail) = tail.lock() {
                    if tail.len() == STDERR_TAIL {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            stderr_tail,
            stderr_reader,
        })
    }

    /// Sends one line (a newline is added) and flushes, as a GUI does.
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        log::trace!("> {line}");
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.exited());
        };
        match stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
        {
            Ok(()) => Ok(()),
            Err(_) => Err(self.exited()),
        }
    }

    /// The next output line, waiting until `deadline` at most.
    pub fn receive(&mut self, deadline: Instant) -> Result<String, ProcessError> {
        // Checked first: an engine that floods its output must still run out of time.
        let now = Instant::now();
        if now >= deadline {
            return Err(ProcessError::Timeout);
        }
        let wait = deadline - now;
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                log::trace!("< {line}");
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ProcessError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
        }
    }

    /// Describes how the process ended: its exit status and last words on stderr.
    fn exited(&mut self) -> ProcessError {
        // The output closed: give the process a moment to be reaped for its status.
        let start = Instant::now();
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if start.elapsed() < Duration::from_millis(500) => {
                    thread::sleep(Duration::from_millis(10))
                }
                _ => break None,
            }
        };
        let mut text = match status {
            Some(status) => format!("engine exited ({status})"),
            None => "engine closed its pipes".to_string(),
        };
        // Let the stderr reader collect the last words: it ends when stderr closes (unless
        // a child of the engine still holds it open, hence the bound).
        let start = Instant::now();
        while !self.stderr_reader.is_finished() && start.elapsed() < Duration::from_millis(500) {
            thread::sleep(Duration::from_millis(5));
        }
        if let Ok(tail) = self.stderr_tail.lock()
            && !tail.is_empty()
        {
            let words: Vec<&str> = tail.iter().map(String::as_str).collect();
            text.push_str(&format!("; stderr: {}", words.join(" | ")));
        }
        ProcessError::Exited(text)
    }

    /// Stops the engine: closes its input (which is how GUIs end an engine), waits
    /// briefly, then kills its whole process group.
    pub fn shut_down(&mut self, grace: Duration) {
        self.stdin = None;
        let start = Instant::now();
        while start.elapsed() < grace {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill_group();
        let _ = self.child.wait();
    }

    fn kill_group(&mut self) {
        // The engine runs in its own process group whose id is its pid; `kill -- -pgid`
        // reaches the shell and whatever it started, and no other process.
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.shut_down(Duration::from_millis(200));
        } else {
            self.kill_group();
        }
    }
}

/// Reads one line (without its end of line), cutting it at `MAX_LINE` bytes; `None` at the
/// end of input. Invalid UTF-8 is replaced, not rejected: the protocol layer judges it.
fn read_line_bounded(reader: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    let mut reached_end = true;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if buffer.is_empty() {
            break;
        }
        reached_end = false;
        let (chunk, found_newline) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..end], true),
            None => (buffer, false),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len() + usize::from(found_newline);
        reader.consume(used);
        if found_newline {
            break;
        }
    }
    if reached_end && line.is_empty() {
        return None;
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(String::from_utf8_lossy(&line).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_lines() {
        let long = "x".repeat(MAX_LINE + 10);
        let text = format!("a\r\nb\n{long}\nlast");
        let mut reader = BufReader::new(text.as_bytes());
        assert_eq!(read_line_bounded(&mut reader).as_deref(), Some("a"));
        assert_eq!(read_line_bounded(&mut reader).as_deref(), Some("b"));
        assert_eq!(
            read_line_bounded(&mut reader).map(|l| l.len()),
            Some(MAX_LINE)
        );
        assert_eq!(read_line_bounded(&mut reader).as_deref(), Some("last"));
        assert_eq!(read_line_bounded(&mut reader), None);
    }

    #[test]
    fn talks_to_a_process_and_sees_it_exit() {
        let mut process =
            EngineProcess::spawn("read x; echo got $x; echo bye >&2; exit 3").unwrap();
        process.send("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        assert_eq!(process.receive(deadline).unwrap(), "got hello");
        match process.receive(deadline) {
            Err(ProcessError::Exited(text)) => {
                assert!(text.contains('3'), "{text}");
                assert!(text.contains("bye"), "{text}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_flooding_process_times_out() {
        let mut process = EngineProcess::spawn("yes").unwrap();
        // The first line may take a while on a loaded machine; after it the flood never
        // stops, and only the deadline ends the reading.
        assert_eq!(
            process.receive(Instant::now() + Duration::from_secs(30)),
            Ok("y".to_string())
        );
        let deadline = Instant::now() + Duration::from_millis(50);
        let error = loop {
            if let Err(error) = process.receive(deadline) {
                break error;
            }
        };
        assert_eq!(error, ProcessError::Timeout);
    }

    #[test]
    fn a_silent_process_times_out() {
        let mut process = EngineProcess::spawn("sleep 30").unwrap();
        let deadline = Instant::now() + Duration::from_millis(50);
        assert_eq!(process.receive(deadline), Err(ProcessError::Timeout));
    }
}
