//! Time management: how long a search may run.
//!
//! Two limits. The hard deadline is polled inside the search every few thousand nodes
//! and aborts it; it stays a safety margin short of what the mover really has, for the
//! latency of process start-up, pipes and the protocol layer. The soft limit is checked
//! between iterations: no new iteration starts after it, nor one predicted (from the
//! growth of the last iterations) to end after the hard deadline.

use std::time::Duration;

use super::{Clock, Limits};
use crate::game::Color;

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
    /// Time not used goes back to a clock for later moves: a move whose best move has
    /// stayed the same for several iterations may stop before its share is spent.
    pub may_save: bool,
    /// Where time saved goes back to a clock (only with `may_save`; never before `hard`):
    /// the hard limit of a move whose best move changed at its last completed iteration
    /// (the next iteration may run on to it).
    pub unsettled: Option<Duration>,
}

/// Time kept back from any limit: a fixed part for process and pipe latency, and a part
/// growing with the time left (capped), so that long games keep a comfortable reserve.
pub fn safety_margin(available: Duration) -> Duration {
    let fixed = Duration::from_millis(12);
    let relative = (available / 25).min(Duration::from_millis(500));
    (fixed + relative).min(available / 2)
}

/// Kept back from every time a controller tells the engine (a clock, the time left, a
/// time for this move, in any protocol) before the time manager's own margins: the
/// controller's latency on top of the engine's.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(50);

/// The time of a move with nothing left on the clock or in the period.
pub const LAST_MOVE_TIME: Duration = Duration::from_millis(5);

/// The time for one move of a byo-yomi period of `total` for `moves` moves (GTP): an
/// equal part, less a tenth (the controller's latency comes off later, with every told
/// time's).
pub fn period_move_time(total: Duration, moves: u32) -> Duration {
    (total / moves.max(1)).mul_f64(0.9)
}

/// A time for this move as a controller tells it, less [`MOVE_OVERHEAD`] (never below
/// [`LAST_MOVE_TIME`]).
pub fn told_move_time(time: Duration) -> Duration {
    time.saturating_sub(MOVE_OVERHEAD).max(LAST_MOVE_TIME)
}

/// A clock as a controller tells it, less [`MOVE_OVERHEAD`].
pub fn told_clock(remaining: Duration) -> Duration {
    remaining.saturating_sub(MOVE_OVERHEAD)
}

/// How a game's plan shares out a clock ([`super::plan::Plan::schedule`]): this move's
/// part of the usable time (0 to 1) and, for a move that solves the endgame, the largest
/// part of it its hard limit may take (the other moves spend their part, no more).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub this_move: f64,
    pub solve_most: Option<f64>,
}

/// The budget for `limits`. A clock is shared out over the mover's `moves_left` (where
/// the game's plan can tell) by the plan's `schedule` of the usable time, else in equal
/// parts.
pub fn budget(
    limits: &Limits,
    moves_left: Option<u32>,
    schedule: impl FnOnce(Duration) -> Option<Schedule>,
) -> Budget {
    let mut result = Budget::default();
    if let Some(movetime) = limits.movetime {
        let hard = movetime.saturating_sub(safety_margin(movetime));
        result = Budget {
            soft: Some(hard),
            hard: Some(hard),
            spend_all: true,
            may_save: false,
            unsettled: None,
        };
    }
    if let Some(clock) = limits.clock {
        let from_clock = clock_budget(&clock, moves_left, schedule);
        let told = result.hard;
        // A time per move the clock's share affords is spent in full (NBoard always
        // sends a clock, also to an engine told a time per move); else the clock rules,
        // whose midgame share is spent in full too.
        let affordable = result.spend_all && result.hard <= from_clock.soft;
        result = Budget {
            soft: min_option(result.soft, from_clock.soft),
            hard: min_option(result.hard, from_clock.hard),
            spend_all: affordable || from_clock.spend_all,
            may_save: !affordable && from_clock.spend_all,
            unsettled: from_clock
                .unsettled
                .filter(|_| !affordable)
                .and_then(|unsettled| min_option(Some(unsettled), told)),
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

/// What may be spent of a clock with `remaining` on it when `moves_left` moves are still
/// to play: all but a safety margin and a latency reserve for each of those moves.
pub fn usable(remaining: Duration, moves_left: u32) -> Duration {
    let reserve = safety_margin(remaining) + PER_MOVE_RESERVE * moves_left.clamp(1, 60);
    remaining.saturating_sub(reserve)
}

/// A share of the clock: the usable time (see [`usable`]) shared out by the game's plan
/// (else: equally over the moves still to play, the last few, solved cheaply, excepted),
/// plus most of the increment. A midgame move spends its share in full, its last
/// iteration cut short where the share ends (an unfinished iteration may still find a
/// better move): in self-play on 2 s clocks that beat stopping at the first iteration
/// predicted to overrun and letting a started one run to twice the share by +29 ± 33
/// Elo, with a quarter less time a move (docs/experiments.md). An easy move may stop
/// sooner ([`easy_part`]), an unsettled one later ([`UNSETTLED_PART`]). The solving
/// move's hard limit allows up to twice its share, but never more than the schedule's
/// largest part of the usable time.
fn clock_budget(
    clock: &Clock,
    game_moves_left: Option<u32>,
    schedule: impl FnOnce(Duration) -> Option<Schedule>,
) -> Budget {
    let moves_left = clock
        .moves_to_go
        .or(game_moves_left)
        .unwrap_or(30)
        .clamp(1, 60);
    let usable = usable(clock.remaining, moves_left);
    let schedule = match clock.moves_to_go {
        None => schedule(usable),
        Some(_) => None,
    };
    let (part, solve_most) = match (clock.moves_to_go, schedule) {
        (None, Some(schedule)) => (schedule.this_move.clamp(0.0, 1.0), schedule.solve_most),
        (Some(_), _) => (1.0 / f64::from(moves_left), None),
        (None, None) => (1.0 / f64::from(moves_left.saturating_sub(4).max(2)), None),
    };
    let increment = clock.increment.mul_f64(0.9);
    let share = (usable.mul_f64(part) + increment).min(usable);
    let Some(most) = solve_most else {
        let unsettled = share.mul_f64(UNSETTLED_PART).min(usable / 4).max(share);
        return Budget {
            soft: Some(share),
            hard: Some(share),
            spend_all: true,
            may_save: true,
            unsettled: Some(unsettled),
        };
    };
    let hard = (share * 2)
        .min(usable.mul_f64(most) + increment)
        .min(usable)
        .max(share);
    Budget {
        soft: Some(share),
        hard: Some(hard),
        spend_all: false,
        may_save: false,
        unsettled: None,
    }
}

/// Whether to start another iteration, given the time used so far, the durations of
/// the last two completed iterations (for the growth factor) and how many completed
/// iterations in a row kept the best move (`stable`, for an easy move on a clock).
pub fn should_continue(
    budget: &Budget,
    elapsed: Duration,
    (last, before): (Duration, Duration),
    stable: u32,
) -> bool {
    if budget.spend_all {
        // Any iteration that starts before the limits may run; where time left goes back
        // to a clock, an easy move's limit comes sooner, an unsettled move's later.
        if budget.unsettled.is_some() && stable == 0 {
            return hard_limit(budget, stable).is_none_or(|hard| elapsed < hard);
        }
        let part = if budget.may_save {
            easy_part(stable)
        } else {
            1.0
        };
        return budget.soft.is_none_or(|soft| elapsed < soft.mul_f64(part))
            && budget.hard.is_none_or(|hard| elapsed < hard);
    }
    let growth = if before.is_zero() {
        4.0
    } else {
        (last.as_secs_f64() / before.as_secs_f64()).clamp(1.5, 8.0)
    };
    next_fits(budget, elapsed, last.mul_f64(growth))
}

/// Completed iterations in a row with the same best move after which a move on a clock
/// counts as easy: it may stop once three quarters of its share are spent, and after
/// [`EASY_FROM`] + 3 such iterations once half is. The time saved goes back to the
/// clock, to the moves whose best move still changes (docs/experiments.md, "easy moves").
pub const EASY_FROM: u32 = 4;

/// The part of its share after which a move may stop when its best move has been the
/// same for `stable` completed iterations in a row (see [`EASY_FROM`]).
pub fn easy_part(stable: u32) -> f64 {
    if stable >= EASY_FROM + 3 {
        0.5
    } else if stable >= EASY_FROM {
        0.75
    } else {
        1.0
    }
}

/// How much longer than its share a move on a clock whose best move changed at its last
/// completed iteration may run (see [`Budget::unsettled`]): the time easy moves leave goes
/// to the moves still undecided.
pub const UNSETTLED_PART: f64 = 1.5;

/// The hard limit of the next iteration of a search within `budget` whose best move has
/// been the same for `stable` completed iterations in a row: an unsettled move's where it
/// has one, else the budget's.
pub fn hard_limit(budget: &Budget, stable: u32) -> Option<Duration> {
    budget.unsettled.filter(|_| stable == 0).or(budget.hard)
}

/// The latest hard limit any iteration of a search within `budget` may have (the helper
/// threads' deadline: the driver's may move between iterations, up to this).
pub fn latest_limit(budget: &Budget) -> Option<Duration> {
    budget.unsettled.or(budget.hard)
}

/// Whether an iteration expected to take `expected` should start now: it runs on to the
/// hard limit once started, so start it only if it should end well before, so that
/// moves average about the soft limit.
pub fn next_fits(budget: &Budget, elapsed: Duration, expected: Duration) -> bool {
    if budget.soft.is_some_and(|soft| elapsed >= soft) {
        return false;
    }
    let Some(hard) = budget.hard else {
        return true;
    };
    let finish_by = budget.soft.map_or(hard, |soft| hard.min(soft * 2));
    elapsed + expected < finish_by
}

/// A game's time control as a controller sets it (GTP's `time_settings` and
/// `time_left`): a main time, then byo-yomi periods of `stones` moves each, and the time
/// each side was last told it has left. Until one is set there is none.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeControl {
    main: Duration,
    byo_yomi: Duration,
    stones: u32,
    /// Set by a controller.
    given: bool,
    /// The time left per side (Black, White), with the moves of the period it is for
    /// (0: the main time).
    left: [Option<(Duration, u32)>; 2],
}

/// What a time control allows the next move: a time for it, or a clock to share out.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Allowance {
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
}

impl TimeControl {
    /// `main` time, then periods of `byo_yomi` for `stones` moves (no period: 0 stones
    /// or no time); the time left of both sides forgotten.
    pub fn new(main: Duration, byo_yomi: Duration, stones: u32) -> TimeControl {
        TimeControl {
            main,
            byo_yomi,
            stones,
            given: true,
            left: [None, None],
        }
    }

    /// `color` has `left`, for the next `stones` moves (0: in the main time).
    pub fn time_left(&mut self, color: Color, left: Duration, stones: u32) {
        self.left[usize::from(color == Color::White)] = Some((left, stones));
    }

    /// What the next move of `color` may take (the time module does the arithmetic).
    pub fn allowance(&self, color: Color) -> Allowance {
        let per_move = |total: Duration, stones: u32| Allowance {
            movetime: Some(period_move_time(total, stones)),
            clock: None,
        };
        let clock = |remaining: Duration| Allowance {
            movetime: None,
            clock: Some(Clock {
                remaining,
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
        };
        if let Some((left, stones)) = self.left[usize::from(color == Color::White)] {
            return if stones > 0 {
                per_move(left, stones)
            } else if !left.is_zero() {
                clock(left)
            } else if !self.byo_yomi.is_zero() {
                per_move(self.byo_yomi, self.stones)
            } else {
                Allowance {
                    movetime: Some(LAST_MOVE_TIME),
                    clock: None,
                }
            };
        }
        if !self.given {
            Allowance::default()
        } else if !self.main.is_zero() {
            clock(self.main)
        } else if !self.byo_yomi.is_zero() {
            // `0 N 0`: N seconds per move (the spec reads it as no limit; a time per move
            // keeps both readings safe).
            per_move(self.byo_yomi, self.stones)
        } else {
            Allowance::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_time_control_allows_its_main_time_then_its_period_shared_out() {
        let none = TimeControl::default();
        assert_eq!(none.allowance(Color::Black), Allowance::default());
        let mut control = TimeControl::new(ms(60_000), ms(10_000), 5);
        let clock = control.allowance(Color::Black).clock.unwrap();
        assert_eq!(clock.remaining, ms(60_000));
        control.time_left(Color::White, ms(4_000), 2);
        assert_eq!(
            control.allowance(Color::White).movetime,
            Some(period_move_time(ms(4_000), 2))
        );
        control.time_left(Color::Black, Duration::ZERO, 0);
        assert_eq!(
            control.allowance(Color::Black).movetime,
            Some(period_move_time(ms(10_000), 5)),
            "the main time spent: the next period"
        );
        let per_move = TimeControl::new(Duration::ZERO, ms(3_000), 0);
        assert_eq!(
            per_move.allowance(Color::White).movetime,
            Some(period_move_time(ms(3_000), 1))
        );
    }

    /// The budget of `limits` for a game whose plan has nothing to say.
    fn plain(limits: &Limits) -> Budget {
        budget(limits, None, |_| None)
    }

    #[test]
    fn movetime_keeps_a_margin() {
        let b = plain(&Limits {
            movetime: Some(ms(50)),
            ..Limits::default()
        });
        assert!(
            b.hard.unwrap() < ms(50) && b.hard.unwrap() >= ms(35),
            "{b:?}"
        );
        // Time not spent on this move is lost: iterations go on to the hard limit.
        assert!(b.spend_all);
        assert!(should_continue(&b, ms(30), (ms(20), ms(5)), 0));
        // Nor is it saved: an easy move spends it too.
        assert!(!b.may_save);
    }

    #[test]
    fn without_a_plan_a_clock_is_shared_equally_and_spent() {
        let limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(60),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let b = plain(&limits);
        // 30 moves assumed, the last four solved cheaply: a 26th of the usable time.
        let share = usable(Duration::from_secs(60), 30) / 26;
        assert!(b.hard.unwrap().abs_diff(share) < ms(1), "{b:?}");
        assert!(b.spend_all && b.soft == b.hard);
        // What an easy move leaves goes back to the clock.
        assert!(b.may_save);
        let half = b.soft.unwrap() / 2;
        assert!(should_continue(&b, half, (ms(1), ms(1)), EASY_FROM - 1));
        assert!(!should_continue(&b, half, (ms(1), ms(1)), EASY_FROM + 3));
        // Also with a time per move the clock cannot afford: the clock rules.
        let b = plain(&Limits {
            movetime: Some(Duration::from_secs(10)),
            ..limits.clone()
        });
        assert!(b.may_save, "{b:?}");
        // Not with one it can: that time is lost if not spent.
        let b = plain(&Limits {
            movetime: Some(ms(500)),
            ..limits
        });
        assert!(!b.may_save, "{b:?}");
    }

    #[test]
    fn an_unsettled_move_on_a_clock_may_run_past_its_share() {
        let clock = Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let limits = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        let b = plain(&limits);
        let (share, unsettled) = (b.hard.unwrap(), b.unsettled.unwrap());
        assert!(unsettled > share && unsettled <= share.mul_f64(UNSETTLED_PART));
        // The best move just changed: the next iteration may start past the share and
        // run on to the later limit; once settled, the share rules again.
        let past = share + (unsettled - share) / 2;
        assert!(should_continue(&b, past, (ms(1), ms(1)), 0));
        assert!(!should_continue(&b, past, (ms(1), ms(1)), 1));
        assert!(!should_continue(&b, unsettled, (ms(1), ms(1)), 0));
        assert_eq!(hard_limit(&b, 0), Some(unsettled));
        assert_eq!(hard_limit(&b, 1), Some(share));
        assert_eq!(latest_limit(&b), Some(unsettled));
        let short = plain(&Limits {
            clock: Some(Clock {
                remaining: ms(400),
                moves_to_go: Some(2),
                ..clock
            }),
            ..Limits::default()
        });
        // A share of more than a quarter of the usable time is not stretched.
        assert_eq!(short.unsettled, short.hard, "{short:?}");
        // A time per move the clock affords keeps its one limit; one it cannot afford
        // stretches no further than the time told.
        let told = plain(&Limits {
            movetime: Some(ms(500)),
            ..limits.clone()
        });
        assert_eq!(told.unsettled, None);
        assert_eq!(hard_limit(&told, 0), told.hard);
        let long = plain(&Limits {
            movetime: Some(ms(3_000)),
            ..limits
        });
        assert!(long.may_save && long.unsettled.unwrap() > long.hard.unwrap());
        assert!(long.unsettled.unwrap() < ms(3_000), "{long:?}");
    }

    #[test]
    fn easy_moves_stop_early_the_steadier_the_sooner() {
        assert_eq!(easy_part(0), 1.0);
        assert_eq!(easy_part(EASY_FROM - 1), 1.0);
        assert!(easy_part(EASY_FROM) < 1.0);
        assert!(easy_part(EASY_FROM + 3) < easy_part(EASY_FROM));
        assert!(easy_part(60) > 0.0);
    }

    #[test]
    fn iterations_stop_when_the_next_would_overrun() {
        let b = Budget {
            soft: Some(ms(500)),
            hard: Some(ms(1000)),
            spend_all: false,
            may_save: false,
            unsettled: None,
        };
        assert!(should_continue(&b, ms(100), (ms(50), ms(20)), 0));
        assert!(!should_continue(&b, ms(600), (ms(10), ms(5)), 0));
        assert!(!should_continue(&b, ms(400), (ms(300), ms(100)), 0));
    }
}
