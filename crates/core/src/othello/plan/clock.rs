//! Othello's part of the time manager: how long an exact solve takes, and the clock's
//! schedule around it.

use std::time::Duration;

use crate::search::time::Schedule;

/// Estimated time of an exact solve with `empties` empties on `threads` threads, on the
/// high side: FFO #40-#59 (hard positions by choice) take 8 M nodes at 20 empties and
/// 0.6-2 G at 28, about 2 times more per empty, at about 15 M nodes/s on one core.
pub fn estimated_solve_time(empties: u32, threads: usize) -> Duration {
    let nodes = 1e7 * 2.1f64.powi(empties as i32 - 20);
    Duration::from_secs_f64((nodes / 15e6 / solve_speedup(threads)).min(1e6))
}

/// The time an exact solve with `empties` empties needs left before the hard limit to be
/// started (see `SOLVE_ESTIMATE_SHARE`); the clock's plan keeps it for the solve.
pub fn solve_start_time(empties: u32, threads: usize) -> Duration {
    estimated_solve_time(empties, threads).mul_f64(SOLVE_ESTIMATE_SHARE)
}

/// How many times faster than one thread a solve runs on `threads` threads (one per
/// core), as measured on FFO #40-#49 (20-26 empties; larger solves gain a little more):
/// 1.88 with two threads on the 2-core development machine; 2.7 with four, 4.3 with
/// eight and 5.4 with sixteen on a 16-core machine. Between the measured counts the
/// gain is interpolated; beyond sixteen threads none is counted.
pub(super) fn solve_speedup(threads: usize) -> f64 {
    const MEASURED: [(usize, f64); 5] = [(1, 1.0), (2, 1.8), (4, 2.7), (8, 4.3), (16, 5.4)];
    let threads = threads.max(1);
    for pair in MEASURED.windows(2) {
        let ((fewer, low), (more, high)) = (pair[0], pair[1]);
        if threads <= more {
            let share = (threads - fewer) as f64 / (more - fewer) as f64;
            return low + share * (high - low);
        }
    }
    MEASURED[MEASURED.len() - 1].1
}

/// The part of `estimated_solve_time` a solve must fit in to be started. The estimate is
/// high on purpose (about three times the 90th percentile of positions from real games),
/// so half of it is still a safe bet; on positions at 24 empties (30 from WTHOR games,
/// every move solved) with 0.5 s a move, the chosen move lost 0.27 discs against the
/// best with this share and 0.73 with twice the estimate.
const SOLVE_ESTIMATE_SHARE: f64 = 0.5;

/// The mover's remaining moves in a game with `empties` empty squares.
pub fn moves_left(empties: u32) -> u32 {
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
/// [`solve_start_time`]) is at most `SOLVE_AT_MOST_MOVES` midgame shares. Along
/// the plan (every move taking its share) both stay the same, so the plan made at one
/// move is the plan of the next; a move that takes more or less than its share moves
/// the solve later or earlier. A move solves where its hard limit (`SOLVE_MOST` of the
/// usable time) leaves the solve room to start; such a move may take most of the usable
/// time, since the solve ends the search as soon as it is done.
///
/// On a 1:00 game on one thread the solve comes at 24 empties and a midgame move gets
/// about 3.7 s (an equal share of the whole clock, kept for the solve included, was
/// 2.6 s); on 5:00 at 26 empties.
pub fn schedule(empties: u32, threads: usize, usable: Duration) -> Schedule {
    let moves_left = moves_left(empties);
    let usable = usable.as_secs_f64();
    let kept = |solve_at: u32| solve_start_time(solve_at, threads).as_secs_f64() * SOLVE_RESERVE;
    let solving = Schedule {
        this_move: SOLVE_PART,
        solve_most: Some(SOLVE_MOST),
    };
    let needed = solve_start_time(empties, threads).as_secs_f64();
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
                this_move: share / usable,
                solve_most: None,
            };
        }
    }
    // Too little time for any solve: equal shares to the end.
    Schedule {
        this_move: 1.0 / f64::from(moves_left),
        solve_most: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::{self, Budget, should_continue, usable};
    use crate::search::{Clock, Limits};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
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

    /// The budget of `limits` at `empties` on one thread.
    fn budget(limits: &Limits, empties: u32) -> Budget {
        time::budget(limits, Some(moves_left(empties)), |usable| {
            Some(schedule(empties, 1, usable))
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
            let b = budget(&clock(remaining), empties);
            let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
            let reserve = usable(remaining, moves_left(empties));
            assert!(
                soft <= hard && hard <= reserve,
                "{empties}: {b:?} of {remaining:?}"
            );
            budgets.push((empties, b));
            let fits = solve_start_time(empties, 1) <= hard;
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
            budget(&limits, 40)
        };
        // 200 ms a move on a 5:00 clock: the time per move is spent.
        let b = with_clock(200, 300_000);
        assert!(b.spend_all && b.hard.unwrap() <= ms(200), "{b:?}");
        assert!(should_continue(&b, ms(100), (ms(60), ms(20)), 0));
        // 10 s a move with 20 s left for 20 moves: the clock rules, and the midgame
        // move spends its share of it.
        let b = with_clock(10_000, 20_000);
        assert!(b.spend_all && b.hard.unwrap() < ms(2_000), "{b:?}");
        assert_eq!(b.soft, b.hard);
        // The solving move may run on past its share.
        let b = budget(&clock(ms(20_000)), 16);
        assert!(!b.spend_all && b.soft.unwrap() < b.hard.unwrap(), "{b:?}");
    }

    #[test]
    fn clock_spreads_time_over_the_moves_left() {
        let b = budget(&clock(Duration::from_secs(1)), 60);
        assert!(b.soft.unwrap() <= ms(50), "{b:?}");
        assert!(b.hard.unwrap() <= ms(350), "{b:?}");
        // Almost nothing left: still a positive budget below what is left.
        let b = budget(&clock(ms(3)), 40);
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
        assert!(hard_24 >= solve_start_time(24, 1), "{budgets:?}");
        assert!(budget(&clock(soft(26) * 4), 26).hard.unwrap() < solve_start_time(26, 1));
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
            .find(|(e, b)| solve_start_time(*e, 1) <= b.hard.unwrap())
            .unwrap()
            .0;
        assert!(first_solve >= 26, "{budgets:?}");
    }

    #[test]
    fn the_plan_made_at_one_move_is_the_plan_of_the_next() {
        let mut remaining = Duration::from_secs(60);
        let first = budget(&clock(remaining), 50).soft.unwrap();
        for empties in (30..=50).rev().step_by(2) {
            let soft = budget(&clock(remaining), empties).soft.unwrap();
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
                let b = budget(&clock(remaining), empties);
                let usable = usable(remaining, moves_left(empties));
                assert!(
                    b.hard.unwrap() <= usable.max(Duration::ZERO),
                    "{millis} ms {empties}: {b:?}"
                );
                assert!(b.soft.unwrap() <= b.hard.unwrap());
                assert!(remaining.is_zero() || b.hard.unwrap() < remaining);
                // A move still unsettled may take longer, within the same bound.
                let latest = time::latest_limit(&b).unwrap();
                assert!(latest >= b.hard.unwrap() && latest <= usable.max(b.hard.unwrap()));
            }
        }
    }
}
