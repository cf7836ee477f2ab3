//! 20,000 random and mutated lines in each protocol: the engine keeps answering, and a
//! valid command afterwards gets the right reply.

use crate::protocol_io::{Engine, run_all};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const LINES: usize = 20_000;

const GTP_LINES: &[&str] = &[
    "1 play b d3",
    "play w c3",
    "genmove b",
    "reg_genmove w",
    "undo",
    "clear_board",
    "showboard",
    "boardsize 8",
    "komi 0.5",
    "time_left b 10 0",
    "time_settings 0 1 0",
    "known_command undo",
    "final_score",
    "list_games",
    "set_position ---------------------------OX------XO--------------------------- X",
    "position",
    "eval",
    "threads 1",
    "seed 3",
];

const NBOARD_LINES: &[&str] = &[
    "nboard 2",
    "set depth 2",
    "set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[D3//1.5]W[C3/3.00/0.01];)",
    "move C4/1.00/0.01",
    "move PA",
    "ping 3",
    "go",
    "hint 4",
    "analyze",
    "learn",
    "set contempt 100",
    "set position ---------------------------OX------XO--------------------------- X",
    "eval",
    "showboard",
];

const UGI_LINES: &[&str] = &[
    "ugi",
    "isready",
    "uginewgame",
    "position startpos moves d3 c5",
    "position fen 8/8/8/3ox3/3xo3/8/8/8 x moves f5 pass",
    "go depth 2",
    "go p1time 100 p2time 100 p1inc 1 p2inc 1",
    "go movetime 5",
    "go nodes 500",
    "stop",
    "query gameover",
    "query p1turn",
    "query result",
    "setoption name Hash value 8",
    "setoption name Seed value 3",
];

/// A line of random bytes, or a valid line with a few bytes changed, inserted or cut.
fn garbage(rng: &mut StdRng, valid: &[&str]) -> Vec<u8> {
    const ALPHABET: &[u8] = b" \t\r#-/()[];:.,0123456789abcdefghpswxBWOX*=?\\";
    match rng.random_range(0..10) {
        0..=2 => (0..rng.random_range(0..80))
            .map(|_| rng.random::<u8>())
            .filter(|&b| b != b'\n')
            .collect(),
        3..=5 => (0..rng.random_range(0..40))
            .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())])
            .collect(),
        _ => {
            let mut line = valid[rng.random_range(0..valid.len())].as_bytes().to_vec();
            for _ in 0..rng.random_range(1..4) {
                let at = rng.random_range(0..=line.len());
                match rng.random_range(0..3) {
                    0 if at < line.len() => {
                        line[at] = ALPHABET[rng.random_range(0..ALPHABET.len())]
                    }
                    1 => line.insert(at, rng.random::<u8>()),
                    _ => line.truncate(at),
                }
            }
            line.retain(|&b| b != b'\n');
            line
        }
    }
}

fn corpus(seed: u64, valid: &[&str]) -> Vec<u8> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut input = Vec::new();
    for index in 0..LINES {
        if index % 5000 == 17 {
            input.extend(vec![b'z'; 1 << 20]);
        } else if rng.random_bool(0.1) {
            input.extend(valid[rng.random_range(0..valid.len())].as_bytes());
        } else {
            input.extend(garbage(&mut rng, valid));
        }
        input.push(b'\n');
    }
    input
}

#[test]
fn gtp_survives_garbage() {
    let mut input = corpus(1, GTP_LINES);
    input.extend(b"424242 name\n");
    let (output, code) = run_all(&["--depth", "1", "--book", "none"], &input);
    assert_eq!(code, Some(0));
    assert!(
        output.ends_with("=424242 iago\n\n"),
        "{}",
        &output[output.len().saturating_sub(300)..]
    );
    // Every reply is well formed.
    for reply in output.split("\n\n").filter(|r| !r.is_empty()) {
        assert!(
            reply.starts_with('=') || reply.starts_with('?'),
            "{reply:?}"
        );
    }
}

#[test]
fn nboard_survives_garbage() {
    let mut engine = Engine::start(&["--protocol", "nboard", "--book", "none", "--depth", "1"]);
    engine.send_bytes(&corpus(2, NBOARD_LINES));
    engine.send("ping 424242");
    engine.until(|l| l == "pong 424242");
    engine.send("set position ---------------------------OX------XO--------------------------- X");
    engine.send("ping 424243");
    engine.send("go");
    let lines = engine.until(|l| l.starts_with("==="));
    let reply = lines.last().unwrap();
    assert!(
        ["=== D3", "=== C4", "=== F5", "=== E6"]
            .iter()
            .any(|m| reply.starts_with(m)),
        "{reply}"
    );
    let (_, code) = engine.finish();
    assert_eq!(code, Some(0));
}

#[test]
fn ugi_survives_garbage() {
    // Lines that would quit are taken out: the engine must read to the end.
    let input: Vec<u8> = corpus(3, UGI_LINES)
        .split(|&b| b == b'\n')
        .filter(|line| {
            !String::from_utf8_lossy(line)
                .trim_start()
                .starts_with("quit")
        })
        .flat_map(|line| line.iter().copied().chain([b'\n']))
        .collect();
    let mut engine = Engine::start(&["--protocol", "ugi", "--book", "none", "--depth", "1"]);
    engine.send_bytes(&input);
    engine.send("stop");
    engine.send("position startpos");
    // A seed no garbage line sets: its option line marks the end of the garbage's replies.
    engine.send("setoption name Seed value 424242");
    engine.send("ugi");
    let lines = engine.until(|l| l == "option name Seed type string default 424242");
    engine.until(|l| l == "ugiok");
    // Every line is a UGI reply: nothing else reaches stdout.
    let replies = [
        "id ",
        "option ",
        "ugiok",
        "readyok",
        "info ",
        "bestmove ",
        "response ",
    ];
    for line in engine.transcript.iter().chain(&lines) {
        assert!(
            replies.iter().any(|reply| line.starts_with(reply)),
            "{line:?}"
        );
    }
    engine.send("go depth 1");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let reply = lines.last().unwrap();
    assert!(
        ["bestmove d3", "bestmove c4", "bestmove f5", "bestmove e6"].contains(&reply.as_str()),
        "{reply}"
    );
    let (_, code) = engine.finish();
    assert_eq!(code, Some(0));
}
