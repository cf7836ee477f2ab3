fn main() {
    env_logger::init();
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(11);
    let t = std::time::Instant::now();
    let n = iago::othello::perft::perft(&iago::othello::Position::start(), depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} {s:.3}s {:.1} M/s", n as f64 / s / 1e6);
}
