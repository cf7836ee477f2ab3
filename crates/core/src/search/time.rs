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

/// Kept back from a clock or a byo-yomi period told over GTP before the time manager's
/// own margins: the controller's latency on top of the engine's.
const GTP_LATENCY: Duration = Duration::from_millis(50);

/// The time of a move with nothing left on the clock or in the period.
pub const LAST_MOVE_TIME: Duration = Duration::from_millis(5);

/// The time for one move of a byo-yomi period of `total` for `moves` moves (GTP): an
/// equal part, less a tenth and the controller's latency.
pub fn period_move_time(total: Duration, moves: u32) -> Duration {
    (total / moves.max(1))
        .mul_f64(0.9)
        .saturating_sub(GTP_LATENCY)
        .max(LAST_MOVE_TIME)
}

/// A clock as a GTP controller tells it, less the controller's latency.
pub fn told_clock(remaining: Duration) -> Duration {
    remaining.saturating_sub(GTP_LATENCY)
}

/// How a game clock is shared out over the mover's remaining moves, where the game can
/// tell: how many there are, this move's part of the usable time (0 to 1), and for the
/// move that solves the endgame, the largest part of it its hard limit may take (the
/// other moves spend their part, no more).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub moves_left: u32,
    pub this_move: f64,
    pub solve_most: Option<f64>,
}

/// What the time manager knows of an Othello position: its empty squares, and the
/// search threads (they make the exact solve faster).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Othello {
    pub empties: u32,
    pub threads: usize,
}

/// The budget for `limits`; the clock is shared out by Othello's plan where `othello`
/// is given (else: equal parts).
pub fn budget(limits: &Limits, othello: Option<Othello>) -> Budget {
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
        let from_clock = clock_budget(&clock, othello);
        // A time per move the clock's share affords is spent in full (NBoard always
        // sends a clock, also to an engine told a time per move); else the clock rules,
        // whose midgame share is spent in full too.
        let affordable = result.spend_all && result.hard <= from_clock.soft;
        result = Budget {
            soft: min_option(result.soft, from_clock.soft),
            hard: min_option(result.hard, from_clock.hard),
            spend_all: affordable || from_clock.spend_all,
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

/// A share of the clock: the usable time (see [`usable`]) shared out by Othello's plan
/// (else: equally over the moves still to play, the last few, solved cheaply, excepted),
/// plus most of the increment. A midgame move spends its share in full, its last
/// iteration cut short where the share ends (an unfinished iteration may still find a
/// better move): in self-play on 2 s clocks that beat stopping at the first iteration
/// predicted to overrun and letting a started one run to twice the share by +29 ± 33
/// Elo, with a quarter less time a move (docs/experiments.md). The solving move's hard
/// limit allows up to twice its share, but never more than the schedule's largest part
/// of the usable time.
fn clock_budget(clock: &Clock, othello: Option<Othello>) -> Budget {
    let moves_left = clock
        .moves_to_go
        .or(othello.map(|o| othello_moves_left(o.empties)))
        .unwrap_or(30)
        .clamp(1, 60);
    let usable = usable(clock.remaining, moves_left);
    let (part, solve_most) = match (clock.moves_to_go, othello) {
        (None, Some(othello)) => {
            let schedule = othello_schedule(othello, usable);
            (schedule.this_move.clamp(0.0, 1.0), schedule.solve_most)
        }
        (Some(_), _) => (1.0 / f64::from(moves_left), None),
        (None, None) => (1.0 / f64::from(moves_left.saturating_sub(4).max(2)), None),
    };
    let increment = clock.increment.mul_f64(0.9);
    let share = (usable.mul_f64(part) + increment).min(usable);
    let Some(most) = solve_most else {
        return Budget {
            soft: Some(share),
            hard: Some(share),
            spend_all: true,
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
    }
}

/// The mover's remaining moves in an Othello game with `empties` empty squares.
pub fn othello_moves_left(empties: u32) -> u32 {
    empties.div_ceil(2).max(1)
}

/// The time kept on the clock for the exact solve, as a multiple of the time it needs
/// left before the hard limit to be started: the hard limit of the solving move takes
/// `SOLVE_MOST` of it, which must leave the solve room to start, and the rest is left
/// for the moves after, should the solve not finish.
const SOLVE_RESERVE: f64 = 1.3;

/// The largest part of the usable clock the hard limit of a solving move may take.
const SOLVE_MOST: f64 = 0.8;

/// The soft part of a solving move (its midgame iterations before the solve stop there;
/// the solve itself runs to the hard limit).
const SOLVE_PART: f64 = 0.6;

/// A solve is planned no earlier than where the time kept for it is at most this many
/// midgame moves' shares: the midgame moves before it need their time too.
const SOLVE_AT_MOST_MOVES: f64 = 4.0;

/// Othello's plan for a clock: time left on the clock after the exact solve is lost (the
/// moves after it are played from the solver's tables in no time), so the plan picks the
/// move where the solve starts, keeps the time that solve needs for it, and shares the
/// rest equally over the midgame moves before it.
///
/// The solving move is the earliest (most empties, of the mover's parity) at which the
/// time kept for the solve (`SOLVE_RESERVE` times what it needs, see
/// [`super::solve_start_time`]) is at most `SOLVE_AT_MOST_MOVES` midgame shares. Along
/// the plan (every move taking its share) both stay the same, so the plan made at one
/// move is the plan of the next; a move that takes more or less than its share moves
/// the solve later or earlier. A move solves where its hard limit (`SOLVE_MOST` of the
/// usable time) leaves the solve room to start; such a move may take most of the usable
/// time, since the solve ends the search as soon as it is done.
///
/// On a 1:00 game on one thread the solve comes at 24 empties and a midgame move gets
/// about 3.7 s (an equal share of the whole clock, kept for the solve included, was
/// 2.6 s); on 5:00 at 26 empties.
pub fn othello_schedule(othello: Othello, usable: Duration) -> Schedule {
    let Othello { empties, threads } = othello;
    let moves_left = othello_moves_left(empties);
    let usable = usable.as_secs_f64();
    let kept =
        |solve_at: u32| super::solve_start_time(solve_at, threads).as_secs_f64() * SOLVE_RESERVE;
    let solving = Schedule {
        moves_left,
        this_move: SOLVE_PART,
        solve_most: Some(SOLVE_MOST),
    };
    let needed = super::solve_start_time(empties, threads).as_secs_f64();
    if needed <= SOLVE_MOST * usable || empties <= 2 {
        return solving;
    }
    // The solve at `solve_at`, after `moves` midgame moves of the mover, each getting
    // `share`.
    let mut solve_at = empties;
    while solve_at > 2 {
        solve_at -= 2;
        let moves = f64::from((empties - solve_at) / 2);
        let share = (usable - kept(solve_at)) / moves;
        if share > 0.0 && kept(solve_at) <= SOLVE_AT_MOST_MOVES * share {
            return Schedule {
                moves_left,
                this_move: share / usable,
                solve_most: None,
            };
        }
    }
    // Too little time for any solve: equal shares to the end.
    Schedule {
        moves_left,
        this_move: 1.0 / f64::from(moves_left),
        solve_most: None,
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
    if budget.spend_all {
        // Time left over is lost: any iteration that starts before the limits may run.
        return budget.soft.is_none_or(|soft| elapsed < soft)
            && budget.hard.is_none_or(|hard| elapsed < hard);
    }
    let growth = if before.is_zero() {
        4.0
    } else {
        (last.as_secs_f64() / before.as_secs_f64()).clamp(1.5, 8.0)
    };
    next_fits(budget, elapsed, last.mul_f64(growth))
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

    fn clock(remaining: Duration) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining,
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        }
    }

    fn one_thread(empties: u32) -> Option<Othello> {
        Some(Othello {
            empties,
            threads: 1,
        })
    }

    /// A game on `clock` from `from` empties in which every midgame move takes its soft
    /// share and the solve `solve` of its hard limit (then the moves after take nothing):
    /// the budgets by empties and the time left at the end.
    fn play_a_game(main: Duration, from: u32, solve: f64) -> (Vec<(u32, Budget)>, Duration) {
        let mut remaining = main;
        let mut budgets = Vec::new();
        let mut solved = false;
        for empties in (1..=from).rev().step_by(2) {
            let b = budget(&clock(remaining), one_thread(empties));
            let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
            let reserve = usable(remaining, othello_moves_left(empties));
            assert!(
                soft <= hard && hard <= reserve,
                "{empties}: {b:?} of {remaining:?}"
            );
            budgets.push((empties, b));
            let fits = crate::search::solve_start_time(empties, 1) <= hard;
            let spent = match (solved, fits) {
                (true, _) => Duration::ZERO,
                (false, true) => {
                    solved = true;
                    hard.mul_f64(solve)
                }
                (false, false) => soft,
            };
            remaining -= spent;
        }
        (budgets, remaining)
    }

    #[test]
    fn a_move_time_within_the_clock_is_spent_in_full() {
        let with_clock = |movetime: u64, remaining: u64| {
            let limits = Limits {
                movetime: Some(ms(movetime)),
                ..clock(ms(remaining))
            };
            budget(&limits, one_thread(40))
        };
        // 200 ms a move on a 5:00 clock: the time per move is spent.
        let b = with_clock(200, 300_000);
        assert!(b.spend_all && b.hard.unwrap() <= ms(200), "{b:?}");
        assert!(should_continue(&b, ms(100), ms(60), ms(20)));
        // 10 s a move with 20 s left for 20 moves: the clock rules, and the midgame
        // move spends its share of it.
        let b = with_clock(10_000, 20_000);
        assert!(b.spend_all && b.hard.unwrap() < ms(2_000), "{b:?}");
        assert_eq!(b.soft, b.hard);
        // The solving move may run on past its share.
        let b = budget(&clock(ms(20_000)), one_thread(16));
        assert!(!b.spend_all && b.soft.unwrap() < b.hard.unwrap(), "{b:?}");
    }

    #[test]
    fn clock_spreads_time_over_the_moves_left() {
        let b = budget(&clock(Duration::from_secs(1)), one_thread(60));
        assert!(b.soft.unwrap() <= ms(50), "{b:?}");
        assert!(b.hard.unwrap() <= ms(350), "{b:?}");
        // Almost nothing left: still a positive budget below what is left.
        let b = budget(&clock(ms(3)), one_thread(40));
        assert!(b.hard.unwrap() < ms(3));
    }

    #[test]
    fn a_one_minute_game_spends_most_of_its_clock_before_and_on_the_solve() {
        let minute = Duration::from_secs(60);
        // The solve taking a third of its hard limit (a typical position).
        let (budgets, left) = play_a_game(minute, 52, 0.33);
        assert!(left < minute / 5, "{left:?} left: {budgets:?}");
        // The midgame moves share the time equally, far more than an equal share of
        // the whole clock over all 26 moves.
        let soft = |empties: u32| {
            budgets
                .iter()
                .find(|(e, _)| *e == empties)
                .unwrap()
                .1
                .soft
                .unwrap()
        };
        assert!(soft(52) > Duration::from_secs(3), "{budgets:?}");
        assert!(soft(52).abs_diff(soft(30)) < ms(100), "{budgets:?}");
        // The solve comes at 24 empties, with room to start (its hard limit).
        let hard_24 = budgets
            .iter()
            .find(|(e, _)| *e == 24)
            .unwrap()
            .1
            .hard
            .unwrap();
        assert!(
            hard_24 >= crate::search::solve_start_time(24, 1),
            "{budgets:?}"
        );
        assert!(
            budget(&clock(soft(26) * 4), one_thread(26)).hard.unwrap()
                < crate::search::solve_start_time(26, 1)
        );
        // A solve running to its hard limit still leaves time for the moves after.
        let (_, left) = play_a_game(minute, 52, 1.0);
        assert!(left > Duration::from_millis(500), "{left:?}");
    }

    #[test]
    fn a_longer_clock_solves_earlier() {
        let five = Duration::from_secs(300);
        let (budgets, left) = play_a_game(five, 52, 0.33);
        assert!(left < five / 5, "{left:?} left: {budgets:?}");
        let first_solve = budgets
            .iter()
            .find(|(e, b)| crate::search::solve_start_time(*e, 1) <= b.hard.unwrap())
            .unwrap()
            .0;
        assert!(first_solve >= 26, "{budgets:?}");
    }

    #[test]
    fn the_plan_made_at_one_move_is_the_plan_of_the_next() {
        let mut remaining = Duration::from_secs(60);
        let first = budget(&clock(remaining), one_thread(50)).soft.unwrap();
        for empties in (30..=50).rev().step_by(2) {
            let soft = budget(&clock(remaining), one_thread(empties)).soft.unwrap();
            assert!(
                soft.abs_diff(first) < first / 20,
                "{empties}: {soft:?} {first:?}"
            );
            remaining -= soft;
        }
    }

    #[test]
    fn the_budget_never_exceeds_the_clock_less_its_reserve() {
        for millis in [
            1, 5, 20, 100, 700, 3_000, 20_000, 60_000, 300_000, 3_600_000,
        ] {
            let remaining = ms(millis);
            for empties in 1..=60 {
                let b = budget(&clock(remaining), one_thread(empties));
                let usable = usable(remaining, othello_moves_left(empties));
                assert!(
                    b.hard.unwrap() <= usable.max(Duration::ZERO),
                    "{millis} ms {empties}: {b:?}"
                );
                assert!(b.soft.unwrap() <= b.hard.unwrap());
                assert!(remaining.is_zero() || b.hard.unwrap() < remaining);
            }
        }
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
