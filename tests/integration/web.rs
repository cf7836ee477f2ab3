//! `iago web` over HTTP, as the page drives it: a whole game, undo and redo, hints that
//! deepen, exports read back, and every refusal of what another site, a wrong host name,
//! a flood or a dropped connection may send. The binary is spawned and spoken to over
//! plain sockets, each request a connection of its own.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::protocol_io::{Engine, IAGO};

/// Guards against a hang only; no test asserts on time.
const HANG: Duration = Duration::from_secs(120);

/// A running `iago web`, stopped when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(IAGO)
            .arg("web")
            .args(["--port", "0", "--book", "none"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("iago web starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the address line");
        let url = line
            .trim()
            .strip_prefix("iago web: http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("an address, got {line:?}"));
        Server {
            child,
            addr: url.parse().expect("an address"),
        }
    }

    fn host(&self) -> String {
        self.addr.to_string()
    }

    /// Sends `head` (the request line and headers, without the blank line) and `body`;
    /// the status and the body of the answer.
    fn raw(&self, head: &str, body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(self.addr).expect("a connection");
        stream.set_read_timeout(Some(HANG)).unwrap();
        let mut request = format!(
            "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body);
        stream.write_all(&request).expect("the request is sent");
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).expect("an answer");
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let status = answer
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("a status line in {answer:?}"));
        let body = answer
            .split_once("\r\n\r\n")
            .map(|(_, body)| body.to_string())
            .unwrap_or_default();
        (status, body)
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.raw(
            &format!("GET {path} HTTP/1.1\r\nHost: {}", self.host()),
            b"",
        )
    }

    /// Posts a request as the page does; the status and the JSON answer.
    fn post(&self, request: &Value) -> (u16, Value) {
        let (status, body) = self.raw(
            &format!(
                "POST /api/command HTTP/1.1\r\nHost: {}\r\nOrigin: http://{}\r\nContent-Type: application/json",
                self.host(),
                self.host()
            ),
            request.to_string().as_bytes(),
        );
        (status, serde_json::from_str(&body).expect("a JSON answer"))
    }

    /// A request that must be carried out.
    fn ok(&self, request: Value) -> Value {
        let (status, answer) = self.post(&request);
        assert_eq!(status, 200, "{request} answered {answer}");
        answer
    }

    fn state(&self) -> Value {
        let (status, body) = self.get("/api/state");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).expect("the state is JSON")
    }

    /// The state once `done` holds of it.
    fn wait_for(&self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            let state = self.state();
            if done(&state) {
                return state;
            }
            assert!(started.elapsed() < HANG, "waiting for {what}: {state}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A stream of the server's events.
    fn events(&self) -> Events {
        let mut stream = TcpStream::connect(self.addr).expect("a connection");
        stream.set_read_timeout(Some(HANG)).unwrap();
        write!(
            stream,
            "GET /api/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.host()
        )
        .unwrap();
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.contains(" 200 "), "{status}");
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).unwrap();
            if header == "\r\n" {
                break;
            }
        }
        Events {
            reader,
            pending: String::new(),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Server-sent events, read through HTTP's chunked framing.
struct Events {
    reader: BufReader<TcpStream>,
    pending: String,
}

impl Events {
    /// The next event: its kind and its data.
    fn next(&mut self) -> (String, Value) {
        self.next_or_end().expect("an event")
    }

    /// The next event, or `None` where the server ended the stream.
    fn next_or_end(&mut self) -> Option<(String, Value)> {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let block: String = self.pending.drain(..end + 2).collect();
                let (mut kind, mut data) = (String::new(), String::new());
                for line in block.lines() {
                    if let Some(k) = line.strip_prefix("event:") {
                        kind = k.trim().to_string();
                    } else if let Some(d) = line.strip_prefix("data:") {
                        data.push_str(d.trim_start());
                    }
                }
                if kind.is_empty() {
                    continue; // a keep-alive comment
                }
                let data = serde_json::from_str(&data).expect("event data is JSON");
                return Some((kind, data));
            }
            let mut size = String::new();
            self.reader.read_line(&mut size).expect("a chunk");
            let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
            if size == 0 {
                return None;
            }
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).expect("the chunk");
            self.pending
                .push_str(&String::from_utf8_lossy(&chunk[..size]).replace("\r\n", "\n"));
        }
    }
}

fn legal_moves(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_whole_game_is_played_and_exported_over_http() {
    let server = Server::start(&["--level", "1"]);
    let state = server.state();
    assert_eq!(state["to_move"], "black");
    assert_eq!(legal_moves(&state), ["d3", "c4", "f5", "e6"]);
    assert_eq!(state["players"]["white"]["kind"], "iago");
    let mut moves = 0;
    loop {
        let state = server.wait_for("Black's turn or the end", |s| {
            s["over"] == true || (s["to_move"] == "black" && s["job"].is_null())
        });
        if state["over"] == true {
            let (black, white) = (
                state["discs"]["black"].as_i64().unwrap(),
                state["discs"]["white"].as_i64().unwrap(),
            );
            let result = state["result"].as_str().unwrap();
            assert!(
                result.contains(&format!("Black {black}, White {white} discs")),
                "{result}"
            );
            assert!(state["legal"].as_array().unwrap().is_empty());
            assert!(state["to_move"].is_null());
            let (status, answer) = server.post(&json!({"op": "move", "move": "a1"}));
            assert_eq!(status, 422, "no move after the end: {answer}");
            // The exported game, read back, is the same game.
            let transcript = server.ok(json!({"op": "export", "format": "transcript"}));
            let ggf = server.ok(json!({"op": "export", "format": "ggf"}));
            let ggf = ggf["text"].as_str().unwrap().to_string();
            assert!(
                ggf.starts_with("(;GM[Othello]") && ggf.contains("RE["),
                "{ggf}"
            );
            for text in [transcript["text"].as_str().unwrap(), ggf.as_str()] {
                server.ok(json!({"op": "new", "from": "text", "text": text}));
                let again = server.state();
                assert_eq!(again["board"], state["board"], "{text}");
                assert_eq!(again["over"], true);
            }
            break;
        }
        let legal = legal_moves(&state);
        server.ok(json!({"op": "move", "move": legal[moves % legal.len()]}));
        moves += 1;
        assert!(moves <= 40, "Black plays at most 32 moves");
    }
}

#[test]
fn undo_goes_back_to_the_humans_turn_and_redo_replays() {
    let server = Server::start(&["--level", "1"]);
    server.ok(json!({"op": "move", "move": "f5"}));
    let replied = server.wait_for("White's reply", |s| s["cursor"] == 2);
    let line = replied["moves"].clone();
    server.ok(json!({"op": "undo"}));
    let state = server.state();
    assert_eq!(
        state["cursor"], 0,
        "back to Black's turn, over White's reply"
    );
    assert_eq!(state["moves"], line, "the moves stay to be replayed");
    assert_eq!(state["autoplay"], false);
    assert_eq!(state["legal"].as_array().unwrap().len(), 4);
    server.ok(json!({"op": "redo"}));
    server.ok(json!({"op": "redo"}));
    let state = server.state();
    assert_eq!(
        (state["cursor"].clone(), state["board"].clone()),
        (json!(2), replied["board"].clone())
    );
    let (status, _) = server.post(&json!({"op": "redo"}));
    assert_eq!(status, 422, "nothing more to replay");
    // A different move from an earlier position replaces the rest of the line.
    server.ok(json!({"op": "goto", "ply": 0}));
    server.ok(json!({"op": "move", "move": "d3"}));
    let state = server.wait_for("White's reply to d3", |s| s["cursor"] == 2);
    assert_eq!(state["moves"][0], "d3");
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    let (status, _) = server.post(&json!({"op": "goto", "ply": 3}));
    assert_eq!(status, 422);
}

#[test]
fn hints_deepen_and_end_with_the_engines_own_hint() {
    let level = 10;
    let server = Server::start(&["--level", "4"]);
    server.ok(json!({"op": "players", "black": {"kind": "human"}, "white": {"kind": "human"}}));
    let state = server.state();
    let mut events = server.events();
    server.ok(json!({"op": "hints", "on": true, "level": level}));
    let mut depths = Vec::new();
    let last = loop {
        let (kind, data) = events.next();
        if kind != "hints" || data["version"].as_u64() <= state["version"].as_u64() {
            continue;
        }
        let depth = data["depth"].as_u64().unwrap();
        if depths.last() != Some(&depth) {
            depths.push(depth);
        }
        for line in data["lines"].as_array().unwrap() {
            assert!(legal_moves(&state).contains(&line["move"].as_str().unwrap().to_string()));
        }
        if data["done"] == true {
            break data;
        }
    };
    assert!(depths.len() >= 3, "the hints deepen: {depths:?}");
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    let lines = last["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4, "every legal move scored: {last}");
    // The same hints as the engine's NBoard `hint` at that level.
    let mut engine = Engine::start(&["--book", "none"]);
    engine.send("nboard 2");
    engine.send(&format!("set depth {level}"));
    engine.send("hint 4");
    let said = engine.until(|line| line == "status");
    for line in lines {
        let mv = line["move"].as_str().unwrap().to_uppercase();
        let text = line["text"].as_str().unwrap().trim_start_matches('+');
        assert!(
            said.iter().rev().any(|l| {
                let words: Vec<&str> = l.split(' ').collect();
                words.len() == 5
                    && words[1].split('-').next() == Some(mv.as_str())
                    && words[2] == text
                    && words[4] == level.to_string()
            }),
            "{mv} {text} in {said:?}"
        );
    }
}

#[test]
fn requests_from_elsewhere_or_out_of_bounds_are_refused_and_change_nothing() {
    let server = Server::start(&["--level", "1"]);
    let host = server.host();
    let before = server.state();
    let json = "Content-Type: application/json";
    let body = br#"{"op":"move","move":"f5"}"#;
    for (head, why) in [
        (
            format!(
                "GET /api/state HTTP/1.1\r\nHost: evil.example:{}",
                server.addr.port()
            ),
            "a rebound name",
        ),
        (
            "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:1".to_string(),
            "another port",
        ),
        ("GET /api/state HTTP/1.1".to_string(), "no host"),
        (
            format!(
                "POST /api/command HTTP/1.1\r\nHost: {host}\r\nOrigin: http://evil.example\r\n{json}"
            ),
            "another origin",
        ),
        (
            format!(
                "POST /api/command HTTP/1.1\r\nHost: {host}\r\nSec-Fetch-Site: cross-site\r\n{json}"
            ),
            "cross-site",
        ),
        (
            format!(
                "POST /api/command HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-www-form-urlencoded"
            ),
            "a form",
        ),
        (
            format!("POST /api/command HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain"),
            "plain text",
        ),
    ] {
        let (status, answer) = server.raw(&head, body);
        assert_eq!(status, 403, "{why}: {answer}");
    }
    let post = format!("POST /api/command HTTP/1.1\r\nHost: {host}\r\n{json}");
    let (status, _) = server.raw(&post, &vec![b' '; 70 * 1024]);
    assert_eq!(status, 413, "a body over 64 KiB");
    for (body, status) in [
        (&b"{not json"[..], 400),
        (br#"{"op":"delete_files"}"#, 400),
        (br#"{"op":"move","move":"a1"}"#, 422),
        (br#"{"op":"move","move":"z9"}"#, 422),
        (br#"{"op":"goto","ply":99}"#, 422),
        (br#"{"op":"hints","on":true,"level":61}"#, 422),
        (
            br#"{"op":"players","black":{"kind":"iago","level":0},"white":{"kind":"human"}}"#,
            422,
        ),
        (br#"{"op":"clock","minutes":-1}"#, 422),
        (br#"{"op":"clock","minutes":1e300}"#, 422),
        (br#"{"op":"new","from":"text","text":"f5 f5"}"#, 422),
        (br#"{"op":"new","from":"xot","number":100000}"#, 422),
    ] {
        let (got, answer) = server.raw(&post, body);
        assert_eq!(got, status, "{}: {answer}", String::from_utf8_lossy(body));
    }
    let text = format!(
        r#"{{"op":"new","from":"text","text":"{}"}}"#,
        "f5".repeat(10_000)
    );
    assert_eq!(
        server.raw(&post, text.as_bytes()).0,
        400,
        "a text over 16 KiB"
    );
    assert_eq!(server.get("/etc/passwd").0, 404);
    assert_eq!(server.get("/../../etc/passwd").0, 404);
    assert_eq!(
        server
            .raw(
                &format!("PUT /api/command HTTP/1.1\r\nHost: {host}\r\n{json}"),
                body
            )
            .0,
        405
    );
    let after = server.state();
    assert_eq!(
        after["version"], before["version"],
        "nothing refused changed the game"
    );
    assert_eq!(after["board"], before["board"]);
}

#[test]
fn floods_and_dropped_connections_leave_the_server_answering() {
    let server = Server::start(&["--level", "1"]);
    // Connections that send half a request and wait: the others are still answered.
    let stalled: Vec<TcpStream> = (0..40)
        .map(|_| {
            let mut stream = TcpStream::connect(server.addr).unwrap();
            let _ = stream.write_all(b"GET /api/state HTTP/1.1\r\nHost: ");
            stream
        })
        .collect();
    for _ in 0..20 {
        assert_eq!(server.get("/api/state").0, 200);
    }
    drop(stalled);
    // Connections dropped at once, and requests abandoned before their answer.
    for _ in 0..100 {
        drop(TcpStream::connect(server.addr).unwrap());
        let mut stream = TcpStream::connect(server.addr).unwrap();
        let _ = write!(
            stream,
            "POST /api/command HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n{{\"op\"",
            server.host()
        );
    }
    // Every connection its client closed is let go: the server answers again (a new
    // connection may be closed at once until it has seen them all go).
    let started = Instant::now();
    while TcpStream::connect(server.addr)
        .and_then(|mut stream| {
            write!(
                stream,
                "GET /api/state HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                server.host()
            )?;
            let mut answer = String::new();
            stream.read_to_string(&mut answer)?;
            Ok(answer.starts_with("HTTP/1.1 200"))
        })
        .map_or(true, |ok| !ok)
    {
        assert!(started.elapsed() < HANG, "the server answers again");
        std::thread::sleep(Duration::from_millis(20));
    }
    // More pages following the game than the server keeps: the oldest are closed.
    let mut followers: Vec<Events> = (0..20).map(|_| server.events()).collect();
    let oldest = &mut followers[0];
    while oldest.next_or_end().is_some() {}
    drop(followers);
    // A thousand reloads: the page, its state and its stream of events each time, the
    // stream dropped as a reload drops it.
    for _ in 0..1000 {
        let mut stream = TcpStream::connect(server.addr).unwrap();
        write!(
            stream,
            "GET /api/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.host()
        )
        .unwrap();
        let mut status = String::new();
        let _ = BufReader::new(&stream).read_line(&mut status);
    }
    // A burst of requests, each answered.
    for _ in 0..200 {
        assert_eq!(server.get("/api/state").0, 200);
    }
    server.ok(json!({"op": "move", "move": "f5"}));
    server.wait_for("White's reply", |s| s["cursor"] == 2);
    // Following the game works again once the others have gone.
    let mut events = server.events();
    assert_eq!(events.next().0, "state");
}

#[test]
fn the_page_and_its_files_come_with_safety_headers() {
    let server = Server::start(&[]);
    for path in ["/", "/app.js", "/style.css", "/icon.svg"] {
        let (status, body) = server.get(path);
        assert_eq!(status, 200, "{path}");
        assert!(!body.is_empty(), "{path}");
    }
    let mut stream = TcpStream::connect(server.addr).unwrap();
    write!(
        stream,
        "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.host()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let head = answer
        .split("\r\n\r\n")
        .next()
        .unwrap()
        .to_ascii_lowercase();
    for header in [
        "content-security-policy: default-src 'self'",
        "x-frame-options: deny",
        "x-content-type-options: nosniff",
    ] {
        assert!(head.contains(header), "{header} in {head}");
    }
    // Nothing the page loads comes from elsewhere.
    let (_, page) = server.get("/");
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "{page}"
    );
}

#[test]
fn a_refused_address_or_port_is_an_error_not_a_panic() {
    let output = Command::new(IAGO)
        .args(["web", "--port", "70000"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--port 70000"));
    let server = Server::start(&[]);
    let taken = server.addr.port().to_string();
    let output = Command::new(IAGO)
        .args(["web", "--port", &taken])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot serve") && !stderr.contains("panicked"),
        "{stderr}"
    );
}

#[test]
fn the_analysis_rows_are_iago_analyzes_and_survive_looking_around() {
    let server = Server::start(&["--level", "1"]);
    server.ok(json!({"op": "players", "black": {"kind": "iago", "level": 1}, "white": {"kind": "iago", "level": 1}}));
    server.wait_for("the end of a game of iago against itself", |s| {
        s["over"] == true
    });
    let transcript = server.ok(json!({"op": "export", "format": "transcript"}));
    let transcript = transcript["text"].as_str().unwrap().to_string();
    let mut events = server.events();
    server.ok(json!({"op": "analyze", "depth": 6, "verify": 8, "solve": 12}));
    // Looking through the game does not stop the analysis.
    server.ok(json!({"op": "goto", "ply": 10}));
    let analysis = loop {
        let (kind, data) = events.next();
        if kind == "analysis" && data["done"] == true {
            break data;
        }
    };
    assert_eq!(server.state()["cursor"], 10);
    let rows = analysis["rows"].as_array().unwrap();
    let cli = crate::common::stdout_of(&crate::common::iago(&[
        "analyze",
        &transcript,
        "--depth",
        "6",
        "--verify",
        "8",
        "--solve",
        "12",
        "--json",
    ]));
    let cli: Value = serde_json::from_str(&cli).expect("analyze's JSON");
    let cli_rows = cli["moves"].as_array().unwrap();
    assert_eq!(rows.len(), cli_rows.len(), "{transcript}: {analysis}");
    for (web, cli) in rows.iter().zip(cli_rows) {
        for field in [
            "number",
            "color",
            "played",
            "played_score",
            "best",
            "best_score",
            "lost",
            "depth",
            "exact",
        ] {
            assert_eq!(web[field], cli[field], "{field} of {web} and {cli}");
        }
    }
    let points = analysis["points"].as_array().unwrap();
    assert_eq!(points.len(), rows.len(), "a graph point a move");
    // A move that changes the line ends its analysis.
    server.ok(json!({"op": "analyze", "depth": 12, "verify": 0}));
    server.ok(json!({"op": "players", "black": {"kind": "human"}, "white": {"kind": "human"}}));
    let state = server.state();
    let mv = legal_moves(&state)[0].clone();
    server.ok(json!({"op": "move", "move": mv}));
    let cleared = loop {
        let (kind, data) = events.next();
        if kind == "analysis"
            && data["rows"].as_array().unwrap().is_empty()
            && data["running"] == false
        {
            break data;
        }
    };
    assert_eq!(cleared["done"], false);
}

#[test]
fn another_address_than_the_loopback_is_served_only_when_asked_with_a_warning() {
    let mut child = Command::new(IAGO)
        .args(["web", "--port", "0", "--book", "none", "--bind", "0.0.0.0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let _ = child.wait();
    assert!(line.starts_with("iago web: http://0.0.0.0:"), "{line}");
    assert!(
        stderr.contains("anyone who can reach this address"),
        "{stderr}"
    );
    // By default: the loopback only, and no warning.
    let server = Server::start(&[]);
    assert!(server.addr.ip().is_loopback());
}
