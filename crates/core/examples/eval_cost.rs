//! What one pattern evaluation costs, and how much of it is finding the weights' indices
//! rather than reading the weights: an incremental update of the indices as moves are
//! made (as some engines do) could save at most the first part.
//!
//! `cargo run --release --example eval_cost -p iago-core [POSITIONS [NETWORK.bin...]]`
//!
//! Each network file given (IAGONET1, `gpu/net.py`) is timed on the same positions after
//! the pattern evaluation, its accumulator computed from scratch as the engine does.
//!
//! The positions come from random games (a fixed seed), those with 5 to 49 discs, in the
//! order of their disc count, so that consecutive evaluations share a stage as they do
//! in a search. Each pass over them is timed three times; figures are nanoseconds per
//! position.

use std::hint::black_box;
use std::time::Instant;

use iago_core::game::Evaluator;
use iago_core::othello::Position;
use iago_core::othello::eval::features::{self, MAX_MOBILITY};
use iago_core::othello::eval::network::NetworkEval;
use iago_core::othello::eval::pattern::PatternWeights;

fn random_positions(count: usize) -> Vec<Position> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut pos = Position::start();
        loop {
            let moves = pos.moves();
            if moves == 0 {
                if pos.pass().moves() == 0 {
                    break;
                }
                pos = pos.pass();
                continue;
            }
            let mut pick = moves;
            for _ in 0..next() % u64::from(moves.count_ones()) {
                pick &= pick - 1;
            }
            pos = pos.play_square(pick.trailing_zeros());
            if (pos.player | pos.opponent).count_ones() < 50 && positions.len() < count {
                positions.push(pos);
            }
        }
    }
    positions.sort_by_key(|p| (p.player | p.opponent).count_ones());
    positions
}

fn nanoseconds_each(count: usize, pass: impl FnOnce() -> i64) -> f64 {
    let start = Instant::now();
    black_box(pass());
    start.elapsed().as_secs_f64() * 1e9 / count as f64
}

fn main() {
    let count = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(300_000);
    let layout = features::layout();
    let weights = PatternWeights::embedded().expect("the embedded weights");
    let positions = random_positions(count);
    // The indices found beforehand, as an incremental update would keep them.
    let placements = layout.placements.len();
    let mut indices = vec![0u32; layout.active()];
    let known: Vec<u32> = positions
        .iter()
        .flat_map(|pos| {
            features::indices(layout, pos, &mut indices);
            indices[..placements].to_vec()
        })
        .collect();
    println!("{count} positions; nanoseconds a position");
    println!(
        "{:>10} {:>22} {:>10}",
        "full", "known indices+mobility", "mobility"
    );
    for _ in 0..3 {
        let full = nanoseconds_each(count, || {
            let mut sum = 0i64;
            for pos in &positions {
                let stage = weights.stage(weights.stage_of(pos));
                sum += i64::from(features::weighted_sum(layout, black_box(pos), stage));
            }
            sum
        });
        let mobility_of = |pos: &Position| {
            (
                (pos.moves().count_ones() as usize).min(MAX_MOBILITY),
                (pos.pass().moves().count_ones() as usize).min(MAX_MOBILITY),
            )
        };
        let lookups = nanoseconds_each(count, || {
            let mut sum = 0i64;
            for (pos, indices) in positions.iter().zip(known.chunks_exact(placements)) {
                let pos = black_box(pos);
                let stage = weights.stage(weights.stage_of(pos));
                let mut value: i32 = indices.iter().map(|&i| i32::from(stage[i as usize])).sum();
                let (mine, theirs) = mobility_of(pos);
                value += i32::from(stage[layout.mobility_offset as usize + mine]);
                value += i32::from(stage[layout.opponent_mobility_offset as usize + theirs]);
                let parity = (!(pos.player | pos.opponent)).count_ones() as usize & 1;
                value += i32::from(stage[layout.parity_offset as usize + parity]);
                sum += i64::from(value);
            }
            sum
        });
        let mobility = nanoseconds_each(count, || {
            let mut sum = 0i64;
            for pos in &positions {
                let (mine, theirs) = mobility_of(black_box(pos));
                sum += (mine + theirs) as i64;
            }
            sum
        });
        println!("{full:>10.1} {lookups:>22.1} {mobility:>10.1}");
    }
    for path in std::env::args().skip(2) {
        let network = NetworkEval::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let times: Vec<String> = (0..3)
            .map(|_| {
                let each = nanoseconds_each(count, || {
                    let mut sum = 0i64;
                    for pos in &positions {
                        sum += i64::from(network.evaluate(black_box(pos)));
                    }
                    sum
                });
                format!("{each:.1}")
            })
            .collect();
        println!("{path}: {} ns a position", times.join(", "));
    }
}
