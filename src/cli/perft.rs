//! `iago perft DEPTH`: counts the leaves of the game tree and prints the speed.

use std::time::Instant;

use iago::othello::{Position, perft};

pub fn run(args: &[String]) -> Result<(), String> {
    let depth: u32 = match args.first() {
        Some(text) => text
            .parse()
            .map_err(|_| format!("perft: bad depth {text:?}"))?,
        None => return Err("perft: missing DEPTH".into()),
    };
    let start = Instant::now();
    let leaves = perft::perft(&Position::start(), depth);
    let seconds = start.elapsed().as_secs_f64();
    println!("perft {depth}: {leaves}");
    println!(
        "time {seconds:.3} s, {:.1} M leaves/s",
        leaves as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}
