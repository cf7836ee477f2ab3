//! In-process games between two evaluators: each side a [`Searcher`] in this process, no
//! protocol in between. For comparing evaluators quickly at equal depth or equal time;
//! matches between engine processes go through [`crate::runner`].

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::openings::Opening;
use crate::stats::Tally;
use iago_core::eval::othello_evaluator;
use iago_core::game::{Color, Evaluator, Game};
use iago_core::othello::Position;
use iago_core::search::{Limits, Searcher};

/// What each move may use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveBudget {
    /// A fixed nominal depth: deterministic.
    Depth(u32),
    /// A fixed time per move.
    Time(Duration),
}

impl MoveBudget {
    fn limits(self) -> Limits {
        match self {
            MoveBudget::Depth(depth) => Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            MoveBudget::Time(time) => Limits {
                movetime: Some(time),
                ..Limits::default()
            },
        }
    }
}

/// Search effort of one side over its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Effort {
    pub moves: u64,
    pub nodes: u64,
    pub seconds: f64,
    /// Sum of the completed depths, for the mean depth reached.
    pub depth_sum: u64,
}

impl Effort {
    fn add(&mut self, other: &Effort) {
        self.moves += other.moves;
        self.nodes += other.nodes;
        self.seconds += other.seconds;
        self.depth_sum += other.depth_sum;
    }

    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }

    pub fn mean_depth(&self) -> f64 {
        self.depth_sum as f64 / self.moves.max(1) as f64
    }
}

/// The result of one game: Black's final disc difference and each side's effort
/// (Black first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelfPlayGame {
    pub black_discs: i32,
    pub effort: [Effort; 2],
}

/// Plays `opening` to the end, `black` and `white` searching within `budget`.
pub fn play(
    opening: &Opening<Position>,
    black: &mut Searcher<Position>,
    white: &mut Searcher<Position>,
    budget: MoveBudget,
) -> SelfPlayGame {
    let limits = budget.limits();
    let stop = AtomicBool::new(false);
    let mut effort = [Effort::default(); 2];
    black.clear();
    white.clear();
    let mut pos = opening.position();
    while !pos.is_game_over() {
        let (searcher, index) = match pos.side {
            Color::Black => (&mut *black, 0),
            Color::White => (&mut *white, 1),
        };
        let moves = pos.legal_moves();
        let mv = if moves.as_ref().len() == 1 {
            // A forced move (or pass) needs no search.
            moves.as_ref()[0]
        } else {
            let start = Instant::now();
            let report = searcher.search(&pos, &limits, &stop, &mut |_| {});
            let e = &mut effort[index];
            e.moves += 1;
            e.nodes += report.nodes;
            e.seconds += start.elapsed().as_secs_f64();
            e.depth_sum += u64::from(report.depth);
            match report.best_move {
                Some(mv) if moves.as_ref().contains(&mv) => mv,
                _ => moves.as_ref()[0],
            }
        };
        pos = pos.play(mv);
    }
    let black_discs = match pos.side {
        Color::Black => pos.final_disc_difference(),
        Color::White => -pos.final_disc_difference(),
    };
    SelfPlayGame {
        black_discs,
        effort,
    }
}

/// The summary of a match of evaluator A against evaluator B.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlaySummary {
    /// Results from A's side.
    pub tally: Tally,
    /// Sum of A's disc differences.
    pub disc_sum: i64,
    /// Effort of A, then B.
    pub effort: [Effort; 2],
}

impl SelfPlaySummary {
    fn record(&mut self, a_discs: i32, a: &Effort, b: &Effort) {
        match a_discs.cmp(&0) {
            std::cmp::Ordering::Greater => self.tally.wins += 1,
            std::cmp::Ordering::Equal => self.tally.draws += 1,
            std::cmp::Ordering::Less => self.tally.losses += 1,
        }
        self.disc_sum += i64::from(a_discs);
        self.effort[0].add(a);
        self.effort[1].add(b);
    }

    fn merge(&mut self, other: &SelfPlaySummary) {
        self.tally.wins += other.tally.wins;
        self.tally.draws += other.tally.draws;
        self.tally.losses += other.tally.losses;
        self.disc_sum += other.disc_sum;
        self.effort[0].add(&other.effort[0]);
        self.effort[1].add(&other.effort[1]);
    }
}

/// Plays each opening twice, A with Black then with White, on `threads` threads (each
/// with its own searchers). `progress` is called after each pair with the games so far.
pub fn run(
    evaluators: [&str; 2],
    openings: &[Opening<Position>],
    budget: MoveBudget,
    threads: usize,
    progress: &(dyn Fn(&SelfPlaySummary) + Sync),
) -> Result<SelfPlaySummary, String> {
    let make =
        |name: &str| -> Result<Box<dyn Evaluator<Position>>, String> { othello_evaluator(name) };
    // Check both names before starting any thread.
    make(evaluators[0])?;
    make(evaluators[1])?;
    let total = std::sync::Mutex::new(SelfPlaySummary::default());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| -> Result<(), String> {
        let mut handles = Vec::new();
        for _ in 0..threads.max(1) {
            let a = make(evaluators[0])?;
            let b = make(evaluators[1])?;
            let (total, next) = (&total, &next);
            handles.push(scope.spawn(move || {
                let mut a = Searcher::new(a);
                let mut b = Searcher::new(b);
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(opening) = openings.get(i) else {
                        break;
                    };
                    let mut pair = SelfPlaySummary::default();
                    let first = play(opening, &mut a, &mut b, budget);
                    pair.record(first.black_discs, &first.effort[0], &first.effort[1]);
                    let second = play(opening, &mut b, &mut a, budget);
                    pair.record(-second.black_discs, &second.effort[1], &second.effort[0]);
                    if let Ok(mut total) = total.lock() {
                        total.merge(&pair);
                        progress(&total);
                    }
                }
            }));
        }
        for handle in handles {
            handle
                .join()
                .map_err(|_| "a self-play thread failed".to_string())?;
        }
        Ok(())
    })?;
    total
        .into_inner()
        .map_err(|_| "self-play results were lost".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_decided_and_colour_swapped() {
        let openings = crate::openings::default_openings();
        let openings = &openings[..2];
        let summary = run(
            ["discs", "mobility"],
            openings,
            MoveBudget::Depth(1),
            1,
            &|_| {},
        )
        .unwrap();
        assert_eq!(summary.tally.games(), 4);
        assert!(summary.effort[0].moves > 0 && summary.effort[1].moves > 0);
        // Deterministic at fixed depth.
        let again = run(
            ["discs", "mobility"],
            openings,
            MoveBudget::Depth(1),
            2,
            &|_| {},
        )
        .unwrap();
        assert_eq!(summary.tally, again.tally);
        assert_eq!(summary.disc_sum, again.disc_sum);
    }

    #[test]
    fn the_same_evaluator_against_itself_is_symmetric() {
        // Each opening is played from both sides by identical players at fixed depth:
        // the two games are the same game, so the pair scores exactly one point.
        let openings = crate::openings::default_openings();
        let summary = run(
            ["cowthello", "cowthello"],
            &openings[..3],
            MoveBudget::Depth(2),
            1,
            &|_| {},
        )
        .unwrap();
        assert_eq!(summary.tally.wins, summary.tally.losses);
        assert_eq!(summary.disc_sum, 0);
    }

    #[test]
    fn unknown_evaluators_are_errors() {
        let openings = vec![Opening::standard()];
        assert!(
            run(
                ["discs", "nope"],
                &openings,
                MoveBudget::Depth(1),
                1,
                &|_| {}
            )
            .is_err()
        );
    }
}
