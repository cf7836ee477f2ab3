//! Time management: how long a search may run.
//!
//! Two limits. The hard deadline is polled inside the search every few thousand nodes
//! and aborts it; it stays a safety margin short of what the mover really has, for the
//! latency of process start-up, pipes and the protocol layer. The soft limit is checked
//! between iterations: no new iteration starts after it, nor one predicted (from the
//! growth of the last iterations) to end after the hard deadline.

use std::time::Duration;

use super::{Clock, Limits};

/// The time limits of one search, measured from its start.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    /// No new iteration starts after this.
    pub soft: Option<Duration>,
    /// The search is aborted at this point.
    pub hard: Option<Duration>,
    /// Time not used now is lost (a fixed time per move): iterate until the hard limit,
    /// since even an unfinished iteration may find a better move.
    pub spend_all: bool,
}

/// Time kept back from any limit: a fixed part for process and pipe latency, and a part
/// growing with the time left (capped), so that long games keep a comfortable reserve.
pub fn safety_margin(available: Duration) -> Duration {
    let fixed = Duration::from_millis(12);
    let relative = (available / 25).min(Duration::from_millis(500));
    (fixed + relative).min(available / 2)
}

/// How a game clock is shared out over the mover's remaining moves, where the game can
/// tell: how many there are and this move's part of the time (0 to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub moves_left: u32,
    pub this_move: f64,
}

/// The budget for `limits`; `schedule` shares a clock out (else: equal parts).
pub fn budget(limits: &Limits, schedule: Option<Schedule>) -> Budget {
    let mut result = Budget::default();
    if let Some(movetime) = limits.movetime {
        let hard = movetime.saturating_sub(safety_margin(movetime));
        result = Budget {
            soft: Some(hard),
            hard: Some(hard),
            spend_all: true,
        };
    }
    if let Some(clock) = limits.clock {
        let from_clock = clock_budget(&clock, schedule);
        result = Budget {
            soft: min_option(result.soft, from_clock.soft),
            hard: min_option(result.hard, from_clock.hard),
            spend_all: false,
        };
    }
    result
}

fn min_option(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Latency of one move (process wake-up, pipes, protocol) kept in reserve for each move
/// still to play on a clock: the last moves must not find the clock empty.
const PER_MOVE_RESERVE: Duration = Duration::from_millis(15);

/// A share of the clock: what is left (less a reserve for the latency of every move
/// still to play) shared out by the schedule (else: equally over the moves still to play,
/// the last few, solved cheaply, excepted), plus most of the increment. The hard limit
/// allows up to twice that share for a hard iteration, but never more than a third of
/// what is left: on short clocks the overhead outside the search (scheduling, pipes) is
/// what runs a clock out.
fn clock_budget(clock: &Clock, schedule: Option<Schedule>) -> Budget {
    let moves_left = clock
        .moves_to_go
        .or(schedule.map(|s| s.moves_left))
        .unwrap_or(30)
        .clamp(1, 60);
    let reserve = safety_margin(clock.remaining) + PER_MOVE_RESERVE * moves_left;
    let usable = clock.remaining.saturating_sub(reserve);
    let part = match (clock.moves_to_go, schedule) {
        (None, Some(schedule)) => schedule.this_move.clamp(0.0, 1.0),
        (Some(_), _) => 1.0 / f64::from(moves_left),
        (None, None) => 1.0 / f64::from(moves_left.saturating_sub(4).max(2)),
    };
    let increment = clock.increment.mul_f64(0.9);
    let share = (usable.mul_f64(part) + increment).min(usable);
    let hard = (share * 2)
        .min(usable / 3 + increment)
        .min(usable)
        .max(share);
    Budget {
        soft: Some(share),
        hard: Some(hard),
        spend_all: false,
    }
}

/// The mover's remaining moves in an Othello game with `empties` empty squares.
pub fn othello_moves_left(empties: u32) -> u32 {
    empties.div_ceil(2).max(1)
}

/// Othello's clock schedule: the mover plays at `empties`, `empties - 2`, ..., and the
/// moves where an exact solve comes within reach (23 to 28 empties) weigh most: there a
/// few tenths of a second decide between a guess and a proven result (on positions at 24
/// empties from real games, the chosen move loses 0.47 discs on average with 0.2 s and
/// 0.07 with 1.2 s). The exact solve usually ends by 21-22 empties, and time still on the
/// clock after it is lost, so the moves from there weigh little.
pub fn othello_schedule(empties: u32) -> Schedule {
    let weight = |empties: u32| match empties {
        29.. => 1.0,
        27..=28 => 2.0,
        23..=26 => 3.0,
        21..=22 => 1.5,
        15..=20 => 0.25,
        _ => 0.05,
    };
    let total: f64 = (1..=empties.max(1)).rev().step_by(2).map(weight).sum();
    Schedule {
        moves_left: othello_moves_left(empties),
        this_move: weight(empties) / total,
    }
}

/// Whether to start another iteration, given the time used so far and the durations of
/// the last two completed iterations (for the growth factor).
pub fn should_continue(
    budget: &Budget,
    elapsed: Duration,
    last: Duration,
    before: Duration,
) -> bool {
    if budget.soft.is_some_and(|soft| elapsed >= soft) {
        return false;
    }
    let Some(hard) = budget.hard else {
        return true;
    };
    if budget.spend_all {
        return elapsed < hard;
    }
    let growth = if before.is_zero() {
        4.0
    } else {
        (last.as_secs_f64() / before.as_secs_f64()).clamp(1.5, 8.0)
    };
    // An iteration runs on to the hard limit once started: start it only if it should
    // end well before, so that moves average about the soft limit.
    let finish_by = budget.soft.map_or(hard, |soft| hard.min(soft * 2));
    elapsed + last.mul_f64(growth) < finish_by
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_keeps_a_margin() {
        let b = budget(
            &Limits {
                movetime: Some(ms(50)),
                ..Limits::default()
            },
            None,
        );
        assert!(
            b.hard.unwrap() < ms(50) && b.hard.unwrap() >= ms(35),
            "{b:?}"
        );
        // Time not spent on this move is lost: iterations go on to the hard limit.
        assert!(b.spend_all);
        assert!(should_continue(&b, ms(30), ms(20), ms(5)));
    }

    #[test]
    fn clock_spreads_time_over_the_moves_left() {
        let clock = Clock {
            remaining: Duration::from_secs(1),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let limits = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        let b = budget(&limits, Some(othello_schedule(60)));
        assert!(b.soft.unwrap() <= ms(50), "{b:?}");
        assert!(b.hard.unwrap() <= ms(350), "{b:?}");
        // Almost nothing left: still a positive budget below what is left.
        let low = Limits {
            clock: Some(Clock {
                remaining: ms(3),
                ..clock
            }),
            ..Limits::default()
        };
        let b = budget(&low, Some(othello_schedule(40)));
        assert!(b.hard.unwrap() < ms(3));
    }

    #[test]
    fn the_clock_weighs_the_moves_where_a_solve_comes_within_reach() {
        // A game on a 4 s clock in which every move takes its soft share.
        let mut remaining = Duration::from_secs(4);
        let mut spent = std::collections::HashMap::new();
        for empties in (1..=60).rev().step_by(2) {
            let limits = Limits {
                clock: Some(Clock {
                    remaining,
                    increment: Duration::ZERO,
                    moves_to_go: None,
                }),
                ..Limits::default()
            };
            let soft = budget(&limits, Some(othello_schedule(empties)))
                .soft
                .unwrap();
            assert!(soft < remaining, "{empties}: {soft:?} of {remaining:?}");
            remaining -= soft;
            spent.insert(empties, soft);
        }
        assert!(spent[&24] > spent[&40] * 2, "{spent:?}");
        assert!(spent[&12] < spent[&24] / 4, "{spent:?}");
        // The last move may use everything.
        assert_eq!(othello_schedule(1).this_move, 1.0);
        assert_eq!(othello_schedule(2).this_move, 1.0);
    }

    #[test]
    fn iterations_stop_when_the_next_would_overrun() {
        let b = Budget {
            soft: Some(ms(500)),
            hard: Some(ms(1000)),
            spend_all: false,
        };
        assert!(should_continue(&b, ms(100), ms(50), ms(20)));
        assert!(!should_continue(&b, ms(600), ms(10), ms(5)));
        assert!(!should_continue(&b, ms(400), ms(300), ms(100)));
    }
}
