//! How Othello is searched: its plan for the generic search ([`OthelloPlan`]), the
//! exact endgame solver with its stable discs (`endgame`, `stability`), the fitted
//! ProbCut values (`probcut`, `probcut_params`) and the clock's schedule around the
//! solve (`clock`).
//!
//! The search hands over to the exact endgame solver once it can reach the end of the
//! game: after a short midgame search, selective solves (reported as `Probable`), then
//! the exact solve (`Exact`); where the time (estimated from the empties) does not allow
//! the exact solve, a win/loss/draw solve (a window of one disc around 0) comes first.

mod clock;
mod endgame;
pub mod probcut;
mod probcut_params;
mod stability;

use std::time::Duration;

use crate::game::{Game, Score};
use crate::search::Confidence;
use crate::search::plan::{Course, Plan, ProbCut, SearchMut, SearchView, Searchable, Step};
use crate::search::probcut::confidence_percent;
use crate::search::time::{self, Schedule};

use super::{DISC, Move, Position};
use clock::solve_start_time;
pub use endgame::Solver;
use probcut::{LEVEL_73, LEVEL_89, SELECTIVE_T};

impl Searchable for Position {
    type Plan = OthelloPlan;
}

/// Othello's plan for one search: the root's empty squares and the depth of its solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OthelloPlan {
    empties: u32,
    /// The empties, and one ply more for a pass at the root, which fills none (below
    /// the root the solver plays passes itself).
    solve_depth: u32,
}

impl Plan<Position> for OthelloPlan {
    type Tables = Solver;

    fn new(pos: &Position, legal: &[Move]) -> OthelloPlan {
        let empties = pos.empty_count();
        let root_pass = legal.len() == 1 && pos.play(legal[0]).empty_count() == empties;
        OthelloPlan {
            empties,
            solve_depth: empties + u32::from(root_pass),
        }
    }

    /// `depth`, or one ply less where that would end the search at an odd number of
    /// empties: every search of a game then ends with the same side to move (but for
    /// passes), since the evaluation swings by about 3 discs between the two and would
    /// otherwise tilt one player's scores against the other's.
    fn comparable_depth(&self, depth: u32) -> u32 {
        if (self.empties + depth).is_multiple_of(2) || depth == 1 {
            depth
        } else {
            depth - 1
        }
    }

    fn solve_depth(&self) -> Option<u32> {
        Some(self.solve_depth)
    }

    /// A solve this shallow is a matter of milliseconds.
    fn forced_move_solve_depth(&self) -> Option<u32> {
        (self.solve_depth <= FORCED_MOVE_SOLVE_DEPTH).then_some(self.solve_depth)
    }

    /// A midgame iteration this close to the end is no cheaper than the solve.
    fn deepest_midgame(&self, max_depth: u32) -> u32 {
        max_depth.min(self.empties.saturating_sub(2))
    }

    fn next_step(
        &self,
        previous: Step,
        course: &Course,
        last: Duration,
        score: Score,
    ) -> Option<Step> {
        step_after(previous, self.empties, course, last, score)
    }

    fn moves_left(&self) -> Option<u32> {
        Some(clock::moves_left(self.empties))
    }

    fn schedule(&self, usable: Duration, threads: usize) -> Option<Schedule> {
        Some(clock::schedule(self.empties, threads, usable))
    }

    fn selective_confidence(level: usize) -> u8 {
        confidence_percent(SELECTIVE_T[level])
    }

    fn surest_level(margin: f32, asked: usize) -> usize {
        probcut::surest_level(margin, asked)
    }

    /// Scores are whole discs: inside (-1, +1) is a draw, a bound outside proves the win
    /// or the loss.
    const WIN_LOSS_DRAW_WINDOW: Score = DISC;

    /// +2 discs for a win (any win is by 2 discs or more: the discs and the empties
    /// given to the winner make 64), -2 for a loss, 0 for a draw.
    fn win_loss_draw_bound(score: Score) -> Score {
        match score {
            score if score >= DISC => 2 * DISC,
            score if score <= -DISC => -2 * DISC,
            _ => 0,
        }
    }

    #[inline(always)]
    fn probcut(pos: &Position, depth: i32, end: Option<usize>) -> Option<ProbCut> {
        if depth >= pos.empty_count() as i32 {
            end.map(|level| probcut::end_cut(pos, level))
        } else {
            probcut::midgame_cut(pos, depth)
        }
    }

    #[inline(always)]
    fn reaches_end(pos: &Position, depth: i32) -> bool {
        depth >= pos.empty_count() as i32
    }

    fn solves_in_midgame(&self, score: Score) -> bool {
        solves_in_midgame(self.empties, score)
    }

    fn proven(search: SearchView<'_, '_, Position>, pos: &Position) -> Option<(Move, Score)> {
        endgame::proven(search, pos)
    }

    /// Beyond the solver's reach a solve is hours, searched level after level.
    fn lasts_long(&self, course: &Course) -> bool {
        self.empties > SOLVER_ROOTS
            && course.reach.win_loss_draw.max(course.reach.exact) >= self.empties
    }

    fn may_solve(&self, course: &Course) -> bool {
        course.reach.exact >= self.empties
    }

    fn solve_line(
        search: SearchView<'_, '_, Position>,
        pos: &Position,
        first: Move,
        score: Score,
        confidence: Confidence,
    ) -> Option<Vec<Move>> {
        match confidence {
            Confidence::Exact => endgame::exact_line(search, pos, first, score),
            Confidence::Probable(_) => endgame::table_line(search, pos, first),
            _ => None,
        }
    }

    #[inline(always)]
    fn solve(
        search: SearchMut<'_, '_, Position>,
        pos: &Position,
        depth: i32,
        alpha: Score,
        beta: Score,
    ) -> Option<Score> {
        endgame::solve_if_reachable(search, pos, depth, alpha, beta)
    }
}

/// The midgame depth an Othello search reaches before it tries the exact solve: enough
/// to order the root moves well, a small part of the solve's cost. Beyond 30 empties,
/// where a solve takes hours (if the time allows it at all), empties - 10 plies, still
/// about a hundredth of the selective solve's estimated nodes: the deeper midgame lines
/// come first, each in seconds to minutes, rather than none for hours.
fn pre_solve_depth(empties: u32) -> u32 {
    let depth = empties.saturating_sub(10).max(1);
    if empties > 30 { depth } else { depth.min(12) }
}

/// A forced move on the clock is solved exactly up to this depth (a matter of
/// milliseconds), and otherwise searched a few plies.
const FORCED_MOVE_SOLVE_DEPTH: u32 = 20;

/// A midgame score this far from even (63.99 discs, where the pattern evaluation stops
/// short of a wipeout) sends the search to its solve at once: where the evaluation is at
/// the end of its scale, deeper midgame iterations no longer order the moves but try to
/// prove the wipeout move by move. FFO #59 (34 empties, a wipeout) took 1.2 billion
/// nodes in midgame iterations 19 to 24 with the weights of 2026-11-28, and 13 million
/// in its solves.
const SATURATED: Score = crate::othello::eval::pattern::LIMIT;

/// Beyond this many empties, where the solver alone takes hours even at its least sure
/// level (at 38 empties, no result of level 0 in 90 s), a solve is a midgame search to
/// the end of the game (the midgame table, probable cuts against the end predicted by
/// searches of about half the empties) down to where the solver takes over: 12 s for
/// level 0 at 38 empties.
const SOLVER_ROOTS: u32 = 30;

/// A score this near a wipe-out is the solver's fastest case, whatever the empties.
const NEAR_WIPE_OUT: Score = 60 * DISC;

/// Whether a solve at `empties` after a step that scored `score` is searched in the
/// midgame: beyond [`SOLVER_ROOTS`], unless the score is near a wipe-out, where the
/// solver's stability and mobility cuts end the solve at once (FFO #59, 34 empties,
/// +64: 24 M nodes from the solver's levels, 360 M from the midgame ones; #79, 36
/// empties, +64: solved in 149 M nodes, where the midgame levels had not passed 82%
/// after 165 M). The bound is below the midgame's saturated score, so that a solve that
/// starts on the solver's levels (a level scoring +62 on the way to +64) stays there.
fn solves_in_midgame(empties: u32, score: Score) -> bool {
    empties > SOLVER_ROOTS && score.abs() < NEAR_WIPE_OUT
}

/// The selective levels (of [`SELECTIVE_T`]) a solve at `empties` steps through before
/// the exact one: within the solver's reach, 73% and 89% (they order the exact solve at
/// a hundredth of its cost; more levels would cost more than they save: 50% more nodes
/// on FFO #45-#53 with four); beyond, each level a result the exact solve may never
/// bring, in steps small enough that each comes soon after the one before: every level
/// without a deadline (an analysis, where each is a line), on a clock the
/// [`TIMED_LEVELS`] (the finer ones between 73% and 89% cost a move's time and are not
/// measured in games).
fn selective_levels(empties: u32, score: Score, timed: bool) -> &'static [usize] {
    if !solves_in_midgame(empties, score) {
        &[LEVEL_73, LEVEL_89]
    } else if timed {
        &TIMED_LEVELS
    } else {
        &EVERY_LEVEL
    }
}

/// The levels a solve beyond the solver's reach steps through on a clock: every one but
/// those of 74, 75, 77, 79, 81, 83, 85 and 87%.
const TIMED_LEVELS: [usize; 28] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 14, 16, 18, 20, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
    34, 35,
];

/// Every selective level, the least sure first.
const EVERY_LEVEL: [usize; SELECTIVE_T.len()] = {
    let mut levels = [0; SELECTIVE_T.len()];
    let mut level = 0;
    while level < levels.len() {
        levels[level] = level;
        level += 1;
    }
    levels
};

/// Time of a selective solve (by level) relative to the exact one (a rough guess).
const SELECTIVE_COST: [f64; SELECTIVE_T.len()] = [
    0.01, 0.012, 0.014, 0.016, 0.018, 0.02, 0.028, 0.035, 0.044, 0.05, 0.052, 0.054, 0.056, 0.058,
    0.06, 0.062, 0.064, 0.067, 0.07, 0.073, 0.076, 0.081, 0.086, 0.09, 0.094, 0.1, 0.112, 0.125,
    0.137, 0.152, 0.17, 0.19, 0.208, 0.228, 0.255, 0.3,
];

/// How many times the last iteration's time the next selective level is expected to take
/// (from the midgame's last iteration to level 0, and from one level to the next). The
/// estimate from the empties alone is far too high for them: at 28 empties on a 1:00
/// clock, level 0 took 0.3 s and level 1 0.8 s where it asked 6 s and 13 s, so that the
/// moves there stopped after their midgame iterations with most of their share unspent.
const SELECTIVE_GROWTH: f64 = 4.0;

/// Time of a win/loss/draw solve relative to the exact one (a rough guess: its window
/// of two discs cuts far more than the exact solve's search for the score).
const WIN_LOSS_DRAW_COST: f64 = 0.4;

/// The iteration after `previous`: midgame iterations until a solve is allowed
/// (by the depth limit) and reachable in time, then the selective solves (which also
/// order the exact one's moves) and the exact solve, or the win/loss/draw solve first
/// where the exact one does not fit (never where the plan wants scores only). A
/// selective level the estimate says does not fit is still started where the last
/// iteration's time says it ends within the move's share (`SELECTIVE_GROWTH`). `None`:
/// stop. `last`: the time of the iteration `previous`, `score` its score.
fn step_after(
    previous: Step,
    empties: u32,
    plan: &Course,
    last: Duration,
    score: Score,
) -> Option<Step> {
    let (reach, budget, start) = (plan.reach, &plan.budget, plan.start);
    let fits = |fraction: f64| {
        budget.hard.is_none_or(|hard| {
            solve_start_time(empties, plan.threads).mul_f64(fraction)
                <= hard.saturating_sub(start.elapsed())
        })
    };
    let exact_allowed = reach.exact >= empties;
    // The selective levels this solve steps through, by rank.
    let levels = selective_levels(empties, score, budget.hard.is_some());
    let level_at = |rank: usize| levels.get(rank).copied();
    let win_loss_draw_fits = || !plan.scores_only && fits(WIN_LOSS_DRAW_COST);
    let solve_from = |rank: usize| {
        if !exact_allowed {
            // Only the win/loss/draw solve is within the level's reach.
            (rank == 0 && win_loss_draw_fits()).then_some(Step::WinLossDraw)
        } else if let Some(level) =
            level_at(rank).filter(|&level| plan.selective && fits(SELECTIVE_COST[level]))
        {
            Some(Step::Selective(level))
        } else if fits(1.0) {
            Some(Step::Exact)
        } else if win_loss_draw_fits() {
            Some(Step::WinLossDraw)
        } else {
            None
        }
    };
    // The selective level of `rank`, where the time of the last iteration says it ends
    // within the move's time.
    let measured_selective = |rank: usize| {
        level_at(rank)
            .filter(|_| {
                exact_allowed
                    && plan.selective
                    && time::next_fits(budget, start.elapsed(), last.mul_f64(SELECTIVE_GROWTH))
            })
            .map(Step::Selective)
    };
    match previous {
        Step::Midgame(depth) => {
            let solvable = reach.win_loss_draw.max(reach.exact) >= empties
                && (depth >= pre_solve_depth(empties) || score.abs() >= SATURATED);
            if solvable && let Some(step) = solve_from(0) {
                return Some(step);
            }
            if depth + 1 < empties && depth < plan.max_depth {
                return Some(Step::Midgame(depth + 1));
            }
            // No deeper midgame search: time left goes to the selective solve.
            solvable.then(|| measured_selective(0)).flatten()
        }
        // With a fixed time per move, time left over is lost: the next level is tried
        // even where it may not finish (an unfinished one keeps a move it proved better).
        Step::Selective(level) => {
            let next = levels
                .iter()
                .position(|&other| other == level)
                .map_or(levels.len(), |rank| rank + 1);
            solve_from(next)
                .or_else(|| measured_selective(next))
                .or_else(|| {
                    budget
                        .spend_all
                        .then(|| level_at(next).map_or(Step::Exact, Step::Selective))
                })
        }
        Step::WinLossDraw => {
            (exact_allowed && (fits(1.0) || budget.spend_all)).then_some(Step::Exact)
        }
        Step::Exact => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Endgame, time};
    use clock::{estimated_solve_time, solve_speedup};
    use std::time::Instant;

    /// Solves wherever the depth (60) reaches.
    const FULL: Endgame = Endgame {
        exact: 60,
        win_loss_draw: 60,
    };

    /// The plan of a search of `max_depth` within `reach` (selective or not) on
    /// `threads` threads with `budget`, started now, for one line of any score.
    fn plan(
        max_depth: u32,
        reach: Endgame,
        selective: bool,
        threads: usize,
        budget: &time::Budget,
    ) -> Course {
        Course {
            start: Instant::now(),
            max_depth,
            reach,
            selective,
            threads,
            budget: *budget,
            lines: 1,
            scores_only: false,
        }
    }

    /// The step after `previous` on one thread, depth 60, every solve within reach and
    /// the selective levels on.
    fn next_step(
        previous: Step,
        empties: u32,
        budget: &time::Budget,
        last: Duration,
    ) -> Option<Step> {
        step_after(previous, empties, &plan(60, FULL, true, 1, budget), last, 0)
    }

    fn budget(hard: Duration) -> time::Budget {
        time::Budget {
            soft: Some(hard / 2),
            hard: Some(hard),
            spend_all: false,
            may_save: false,
            unsettled: None,
        }
    }

    fn budget_ms(soft: u64, hard: u64, spend_all: bool) -> time::Budget {
        time::Budget {
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
            spend_all,
            may_save: false,
            unsettled: None,
        }
    }

    #[test]
    fn a_forced_move_is_solved_up_to_twenty_empties() {
        let plan = |solve_depth| OthelloPlan {
            empties: solve_depth,
            solve_depth,
        };
        assert_eq!(
            plan(FORCED_MOVE_SOLVE_DEPTH).forced_move_solve_depth(),
            Some(20)
        );
        assert_eq!(
            plan(FORCED_MOVE_SOLVE_DEPTH + 1).forced_move_solve_depth(),
            None
        );
    }

    #[test]
    fn the_exact_solve_comes_when_it_fits_in_the_time() {
        let empties = 24;
        let plenty = estimated_solve_time(empties, 1) * 3;
        let step = next_step(
            Step::Selective(LEVEL_89),
            empties,
            &budget(plenty),
            Duration::ZERO,
        );
        assert_eq!(step, Some(Step::Exact));
    }

    #[test]
    fn two_threads_start_the_exact_solve_with_less_time() {
        let empties = 24;
        // Room for the exact solve on two threads (half their estimate) but not on one.
        let time = estimated_solve_time(empties, 1).mul_f64(0.4);
        assert!(estimated_solve_time(empties, 2).mul_f64(0.5) < time);
        let next = |threads| {
            step_after(
                Step::Selective(LEVEL_89),
                empties,
                &plan(60, FULL, true, threads, &budget(time)),
                Duration::ZERO,
                0,
            )
        };
        assert_eq!(next(1), Some(Step::WinLossDraw));
        assert_eq!(next(2), Some(Step::Exact));
    }

    #[test]
    fn more_threads_make_a_solve_faster_up_to_the_measured_sixteen() {
        let speedups: Vec<f64> = (1..=20).map(solve_speedup).collect();
        assert!(speedups.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!((solve_speedup(1), solve_speedup(2)), (1.0, 1.8));
        assert!(solve_speedup(3) > 1.8 && solve_speedup(3) < 2.7);
        assert_eq!(solve_speedup(16), solve_speedup(64));
        assert!(estimated_solve_time(24, 16) < estimated_solve_time(24, 8));
    }

    #[test]
    fn win_loss_draw_comes_first_where_the_exact_solve_does_not_fit() {
        let empties = 24;
        // Room for the win/loss/draw solve (0.4 of the estimate, half of it needed) but
        // not for the exact one (half an estimate).
        let some = estimated_solve_time(empties, 1).mul_f64(0.3);
        let step = next_step(
            Step::Selective(LEVEL_89),
            empties,
            &budget(some),
            Duration::ZERO,
        );
        assert_eq!(step, Some(Step::WinLossDraw));
        let after = next_step(Step::WinLossDraw, empties, &budget(some), Duration::ZERO);
        assert_eq!(after, None);
        let none = next_step(
            Step::Selective(LEVEL_89),
            empties,
            &budget(Duration::from_millis(1)),
            Duration::ZERO,
        );
        assert_eq!(none, None);
    }

    #[test]
    fn with_a_fixed_move_time_the_solve_levels_go_on_where_they_may_not_fit() {
        let empties = 26;
        let movetime = budget_ms(100, 100, true);
        let after = |step| next_step(step, empties, &movetime, Duration::ZERO);
        assert_eq!(
            after(Step::Selective(LEVEL_73)),
            Some(Step::Selective(LEVEL_89))
        );
        assert_eq!(after(Step::Selective(LEVEL_89)), Some(Step::Exact));
        // On a clock, time saved is kept for later moves.
        let clock = time::Budget {
            spend_all: false,
            ..movetime
        };
        let step = next_step(
            Step::Selective(LEVEL_73),
            empties,
            &clock,
            Duration::from_millis(60),
        );
        // (Level 0 took 60 ms: level 1 is expected to overrun the 100 ms.)
        assert_eq!(step, None);
    }

    #[test]
    fn on_a_clock_the_selective_levels_start_where_the_last_iteration_says_they_fit() {
        // A move at 28 empties whose clock budget lets a started step run past its
        // share (as the solving move's does): the estimate puts even level 0 beyond the
        // hard limit, the midgame iterations have reached their deepest.
        let empties = 28;
        let clock = budget_ms(3000, 6000, false);
        assert!(
            solve_start_time(empties, 1).mul_f64(SELECTIVE_COST[LEVEL_73]) > clock.hard.unwrap()
        );
        let after = |step, last| next_step(step, empties, &clock, Duration::from_millis(last));
        assert_eq!(after(Step::Midgame(26), 70), Some(Step::Midgame(27)));
        assert_eq!(
            after(Step::Midgame(27), 70),
            Some(Step::Selective(LEVEL_73))
        );
        assert_eq!(
            after(Step::Selective(LEVEL_73), 300),
            Some(Step::Selective(LEVEL_89))
        );
        // The exact solve still needs its estimate.
        assert_eq!(after(Step::Selective(LEVEL_89), 800), None);
        // A level expected to end past twice the share is not started.
        assert_eq!(after(Step::Midgame(27), 2000), None);
        assert_eq!(after(Step::Selective(LEVEL_73), 2000), None);
        // Without the selective solves, nothing follows the midgame.
        let plain = step_after(
            Step::Midgame(27),
            empties,
            &plan(60, FULL, false, 1, &clock),
            Duration::from_millis(70),
            0,
        );
        assert_eq!(plain, None);
    }

    #[test]
    fn a_level_solves_only_within_its_reach() {
        let unlimited = time::Budget::default();
        let level = Endgame {
            exact: 16,
            win_loss_draw: 18,
        };
        let next = |previous, empties| {
            step_after(
                previous,
                empties,
                &plan(8, level, true, 1, &unlimited),
                Duration::ZERO,
                0,
            )
        };
        // 16 empties: the selective solves lead to the exact one, from depth 6.
        assert_eq!(next(Step::Midgame(6), 16), Some(Step::Selective(LEVEL_73)));
        // 18 empties: only the sign is within reach, and nothing follows it.
        assert_eq!(next(Step::Midgame(8), 18), Some(Step::WinLossDraw));
        assert_eq!(next(Step::WinLossDraw, 18), None);
        // 20 empties: midgame up to the level's depth, then nothing.
        assert_eq!(next(Step::Midgame(7), 20), Some(Step::Midgame(8)));
        assert_eq!(next(Step::Midgame(8), 20), None);
    }

    #[test]
    fn scores_only_never_solve_for_win_loss_or_draw() {
        let unlimited = time::Budget::default();
        let level = Endgame {
            exact: 16,
            win_loss_draw: 18,
        };
        let scores_only = Course {
            scores_only: true,
            ..plan(8, level, true, 1, &unlimited)
        };
        // 18 empties, in the level's win/loss/draw window: the midgame depth and no more.
        assert_eq!(
            step_after(Step::Midgame(7), 18, &scores_only, Duration::ZERO, 0),
            Some(Step::Midgame(8))
        );
        assert_eq!(
            step_after(Step::Midgame(8), 18, &scores_only, Duration::ZERO, 0),
            None
        );
        // Where the exact solve does not fit in the time, no win/loss/draw solve instead.
        let some = estimated_solve_time(24, 1).mul_f64(0.3);
        let timed = Course {
            scores_only: true,
            ..plan(60, FULL, true, 1, &budget(some))
        };
        assert_eq!(
            step_after(Step::Selective(LEVEL_89), 24, &timed, Duration::ZERO, 0),
            None
        );
    }

    #[test]
    fn beyond_30_empties_the_midgame_goes_deeper_before_a_solve() {
        let unlimited = time::Budget::default();
        assert_eq!(
            next_step(Step::Midgame(12), 30, &unlimited, Duration::ZERO),
            Some(Step::Selective(LEVEL_73))
        );
        assert_eq!(
            next_step(Step::Midgame(12), 38, &unlimited, Duration::ZERO),
            Some(Step::Midgame(13))
        );
        assert_eq!(
            next_step(Step::Midgame(28), 38, &unlimited, Duration::ZERO),
            Some(Step::Selective(0))
        );
    }

    /// Without a deadline, a solve within the solver's reach steps through 73% and 89%;
    /// one beyond 30 empties through every level, from 38% to 99%, then the exact one.
    #[test]
    fn the_selective_levels_of_a_solve_by_its_empties() {
        let unlimited = time::Budget::default();
        let ladder = |empties, first| {
            let mut steps = vec![first];
            while let Some(step) =
                next_step(*steps.last().unwrap(), empties, &unlimited, Duration::ZERO)
            {
                steps.push(step);
            }
            steps
        };
        let solver: Vec<Step> = [LEVEL_73, LEVEL_89]
            .map(Step::Selective)
            .into_iter()
            .chain([Step::Exact])
            .collect();
        assert_eq!(ladder(24, Step::Selective(LEVEL_73)), solver);
        let beyond: Vec<Step> = EVERY_LEVEL
            .map(Step::Selective)
            .into_iter()
            .chain([Step::Exact])
            .collect();
        assert_eq!(ladder(38, Step::Selective(0)), beyond);
        let percents = EVERY_LEVEL.map(OthelloPlan::selective_confidence);
        let every_percent_from_73 = (73..=99).collect::<Vec<u8>>();
        assert_eq!(percents[..9], [38, 42, 46, 50, 54, 58, 62, 66, 70]);
        assert_eq!(percents[9..], every_percent_from_73);
        let timed = TIMED_LEVELS.map(OthelloPlan::selective_confidence);
        assert_eq!(
            timed,
            [
                38, 42, 46, 50, 54, 58, 62, 66, 70, 73, 76, 78, 80, 82, 84, 86, 88, 89, 90, 91, 92,
                93, 94, 95, 96, 97, 98, 99
            ]
        );
    }

    /// A midgame score at the end of the evaluation's scale goes to the solve at once,
    /// where a solve is within reach, and to the solver's own levels even beyond 30
    /// empties (a wipe-out is the solver's fastest case); short of it, or out of reach,
    /// the midgame goes on.
    #[test]
    fn a_saturated_midgame_score_goes_to_the_solve() {
        let unlimited = time::Budget::default();
        let full = plan(60, FULL, true, 1, &unlimited);
        for score in [SATURATED, -SATURATED, 64 * DISC, -64 * DISC] {
            assert_eq!(
                step_after(Step::Midgame(5), 34, &full, Duration::ZERO, score),
                Some(Step::Selective(LEVEL_73)),
                "{score}"
            );
            let after = |step| step_after(step, 34, &full, Duration::ZERO, score);
            assert_eq!(
                after(Step::Selective(LEVEL_73)),
                Some(Step::Selective(LEVEL_89)),
                "{score}"
            );
            assert_eq!(
                after(Step::Selective(LEVEL_89)),
                Some(Step::Exact),
                "{score}"
            );
        }
        // A level of the solver's that finds a little less than a wipe-out (FFO #79's
        // +62 on the way to +64) keeps to the solver's levels.
        for score in [NEAR_WIPE_OUT, 62 * DISC, -62 * DISC] {
            let after = |step| step_after(step, 36, &full, Duration::ZERO, score);
            assert_eq!(
                after(Step::Selective(LEVEL_73)),
                Some(Step::Selective(LEVEL_89)),
                "{score}"
            );
        }
        assert_eq!(
            step_after(Step::Midgame(5), 34, &full, Duration::ZERO, SATURATED - 1),
            Some(Step::Midgame(6))
        );
        let within_24 = Endgame {
            exact: 24,
            win_loss_draw: 24,
        };
        let out_of_reach = plan(60, within_24, true, 1, &unlimited);
        assert_eq!(
            step_after(
                Step::Midgame(5),
                34,
                &out_of_reach,
                Duration::ZERO,
                SATURATED
            ),
            Some(Step::Midgame(6))
        );
    }

    #[test]
    fn without_a_deadline_the_solve_is_exact() {
        let unlimited = time::Budget {
            soft: None,
            hard: None,
            spend_all: false,
            may_save: false,
            unsettled: None,
        };
        let step = next_step(Step::Selective(LEVEL_89), 30, &unlimited, Duration::ZERO);
        assert_eq!(step, Some(Step::Exact));
    }
}
