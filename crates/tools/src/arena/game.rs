//! One game between two engines, refereed with iago's own rules: every move is checked
//! with [`Position::try_play`]; the first fault of an engine ends the game as its loss.

use std::time::{Duration, Instant};

use super::driver::{Driver, Fault, FaultKind, MoveRequest, TimeControl};
use super::openings::Opening;
use super::record::{ArenaRecord, RecordedMove};
use iago_core::game::{Color, Game};
use iago_core::othello::Position;

/// The disc difference recorded for a game lost by forfeit: the largest possible loss.
pub const FORFEIT_DISCS: i32 = 64;

/// How much time each move may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveLimits {
    pub time_control: TimeControl,
    /// Longest wall-clock time for one move; over it the engine loses on time.
    pub move_cap: Duration,
    /// Tolerance over an exhausted game clock for process and pipe latency.
    pub clock_margin: Duration,
    /// The game clock the engine is held to: its clock limit, or the clock an NBoard
    /// engine is told for a fixed time per move.
    pub held_to_clock: Option<Duration>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// Final disc difference for Black (±[`FORFEIT_DISCS`] after a forfeit).
    pub black_discs: i32,
    /// The colour that forfeited, and why.
    pub forfeit: Option<(Color, Fault)>,
    pub record: ArenaRecord,
    /// (moves, seconds) the engines spent, Black then White; opening moves excluded.
    pub thinking: [(u32, f64); 2],
}

/// The index of a colour in per-colour arrays: Black 0, White 1.
pub fn colour_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Plays `opening` to the end between `black` and `white` (named `names`), each under its
/// own limits (Black's first).
pub fn play_game(
    opening: &Opening,
    names: [&str; 2],
    engines: [&mut dyn Driver; 2],
    limits: [&MoveLimits; 2],
) -> GameOutcome {
    let mut record = ArenaRecord::new(opening.start, names[0], names[1]);
    let clocks = limits.map(|l| match l.time_control {
        TimeControl::Clock(clock) => Some(clock),
        _ => None,
    });
    // GGF has one `TI` for both players: recorded when they share a clock.
    if clocks[0] == clocks[1] {
        record.time_control = clocks[0];
    }
    let mut pos = opening.start;
    for &mv in &opening.moves {
        // Openings are checked when they are read; a bad one is a bug, not an engine fault.
        pos = pos.try_play(mv).unwrap_or(pos);
        record.moves.push(RecordedMove {
            mv,
            eval: None,
            seconds: None,
        });
    }
    let [black, white] = engines;
    let mut engines: [&mut dyn Driver; 2] = [black, white];
    let mut thinking = [(0u32, 0.0f64); 2];
    let mut used = [Duration::ZERO; 2];
    for (index, engine) in engines.iter_mut().enumerate() {
        let start_deadline = Instant::now() + limits[index].move_cap;
        if let Err(fault) = engine.new_game(&record, start_deadline) {
            let color = if index == 0 {
                Color::Black
            } else {
                Color::White
            };
            return forfeited(record, color, fault, thinking);
        }
    }
    while !pos.is_game_over() {
        let mover = pos.side;
        let me = colour_index(mover);
        let remaining = [0, 1].map(|i| clocks[i].map(|clock| clock.saturating_sub(used[i])));
        let held_to = limits[me]
            .held_to_clock
            .map(|clock| clock.saturating_sub(used[me]));
        let allowed = match held_to {
            Some(left) => (left + limits[me].clock_margin).min(limits[me].move_cap),
            None => limits[me].move_cap,
        };
        let asked = Instant::now();
        let request = MoveRequest {
            record: &record,
            remaining,
            deadline: asked + allowed,
        };
        let reply = engines[me].request_move(&request);
        let elapsed = asked.elapsed();
        let reply = match reply {
            Ok(reply) => reply,
            Err(mut fault) => {
                if fault.kind == FaultKind::Timeout {
                    fault.detail = format!("no move within {:.3} s", allowed.as_secs_f64());
                }
                return forfeited(record, mover, fault, thinking);
            }
        };
        used[me] += elapsed;
        thinking[me].0 += 1;
        thinking[me].1 += elapsed.as_secs_f64();
        let Some(next) = pos.try_play(reply.mv) else {
            let fault = Fault::new(
                FaultKind::IllegalMove,
                format!("{} is not legal here", pos.format_move(reply.mv)),
            );
            return forfeited(record, mover, fault, thinking);
        };
        record.moves.push(RecordedMove {
            mv: reply.mv,
            eval: reply.eval,
            seconds: Some(elapsed.as_secs_f64()),
        });
        pos = next;
    }
    let black_discs = black_disc_difference(&pos);
    record.result = Some(black_discs);
    GameOutcome {
        black_discs,
        forfeit: None,
        record,
        thinking,
    }
}

fn forfeited(
    mut record: ArenaRecord,
    color: Color,
    fault: Fault,
    thinking: [(u32, f64); 2],
) -> GameOutcome {
    let black_discs = match color {
        Color::Black => -FORFEIT_DISCS,
        Color::White => FORFEIT_DISCS,
    };
    record.result = Some(black_discs);
    record.comment = Some(format!("{color} forfeits: {fault}"));
    GameOutcome {
        black_discs,
        forfeit: Some((color, fault)),
        record,
        thinking,
    }
}

/// The final disc difference from Black's point of view, empties to the winner.
pub fn black_disc_difference(pos: &Position) -> i32 {
    let diff = pos.final_disc_difference();
    match pos.side {
        Color::Black => diff,
        Color::White => -diff,
    }
}
