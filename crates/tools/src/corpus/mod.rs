//! The self-play corpus: games of iago against itself at a fixed level, each played to the
//! end with an exact endgame, kept as compact records ([`records`]) whose final results
//! label every position for training (`iago train --games`).
//!
//! A game is a pure function of the seed, its number and the configuration: it opens
//! with random moves (or an opening of a list), then both sides search to a fixed depth
//! from cleared tables and solve exactly from a given number of empties, so from the
//! first solved move on the result is the exact value of every position. The number of
//! threads changes nothing but the speed.

pub mod coded;
pub mod range_coder;
pub mod records;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use iago_core::eval::othello_evaluator;
use iago_core::game::{Color, mix64};
use iago_core::othello::Position;
use iago_core::search::{Confidence, Endgame, Limits, Searcher};
use records::GameRecord;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// The evaluator's name (for [`othello_evaluator`]).
    pub eval: String,
    /// Midgame search depth.
    pub depth: u32,
    /// Solve exactly at this many empties or fewer.
    pub exact: u32,
    /// Random first moves (when no openings are given).
    pub random_plies: u32,
    /// Openings to start from instead (squares played), taken in turn.
    pub openings: Vec<Vec<u8>>,
    pub seed: u64,
    /// Transposition table per thread, MiB.
    pub hash_mb: usize,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            eval: "default".into(),
            depth: 6,
            exact: 16,
            random_plies: 10,
            openings: Vec::new(),
            seed: 1,
            hash_mb: 16,
        }
    }
}

/// Games `first..first + count`, in order, on `threads` threads; `progress(done)` is
/// called after each game from the thread that played it.
pub fn play_games(
    config: &SelfPlayConfig,
    first: u64,
    count: usize,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<GameRecord>, String> {
    let threads = threads.clamp(1, count.max(1));
    let done = AtomicUsize::new(0);
    let parts: Vec<Result<Vec<GameRecord>, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let done = &done;
                scope.spawn(move || {
                    let mut player = Player::new(config)?;
                    (t..count)
                        .step_by(threads)
                        .map(|i| {
                            let game = player.play(first + i as u64);
                            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                            game
                        })
                        .collect()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("a self-play thread panicked".into()))
            })
            .collect()
    });
    let parts: Vec<Vec<GameRecord>> = parts.into_iter().collect::<Result<_, _>>()?;
    // Game i was played by thread i % threads.
    let mut iters: Vec<_> = parts.into_iter().map(Vec::into_iter).collect();
    Ok((0..count)
        .filter_map(|i| iters[i % threads].next())
        .collect())
}

/// One thread's searcher and the configuration it plays by.
struct Player<'a> {
    config: &'a SelfPlayConfig,
    searcher: Searcher<Position>,
    stop: AtomicBool,
}

impl<'a> Player<'a> {
    fn new(config: &'a SelfPlayConfig) -> Result<Player<'a>, String> {
        let mut searcher = Searcher::new(othello_evaluator(&config.eval)?);
        searcher.set_hash_mb(config.hash_mb);
        searcher.allocate_tables().map_err(|e| e.to_string())?;
        Ok(Player {
            config,
            searcher,
            stop: AtomicBool::new(false),
        })
    }

    /// Game number `game`.
    fn play(&mut self, game: u64) -> Result<GameRecord, String> {
        let config = self.config;
        let limits = Limits {
            depth: Some(config.depth),
            endgame: Some(Endgame {
                exact: config.exact,
                win_loss_draw: config.exact,
            }),
            ..Limits::default()
        };
        let mut state = mix64(config.seed ^ mix64(game.wrapping_add(1)));
        let opening: &[u8] = match config.openings.len() {
            0 => &[],
            n => &config.openings[(game % n as u64) as usize],
        };
        let random_plies = if config.openings.is_empty() {
            config.random_plies as usize
        } else {
            0
        };
        self.searcher.clear();
        let mut pos = Position::start();
        let mut moves: Vec<u8> = Vec::with_capacity(60);
        let mut exact_from = None;
        loop {
            if pos.has_no_move() {
                if pos.pass().has_no_move() {
                    break;
                }
                pos = pos.pass();
            }
            let ply = moves.len();
            let square = if let Some(&square) = opening.get(ply) {
                if pos.moves() & (1u64 << (square & 63)) == 0 || square >= 64 {
                    return Err(format!("opening {}: move {} is not legal", game, ply + 1));
                }
                u32::from(square)
            } else if ply < random_plies {
                state = mix64(state);
                nth_square(pos.moves(), state % u64::from(pos.moves().count_ones()))
            } else {
                let report = self.searcher.search(&pos, &limits, &self.stop, &mut |_| {});
                let best = report
                    .best_move
                    .and_then(|mv| mv.square())
                    .ok_or("the search found no move in a position with moves")?;
                if report.confidence != Confidence::Exact {
                    exact_from = None;
                } else if exact_from.is_none() {
                    exact_from = Some(ply as u8);
                }
                u32::from(best)
            };
            moves.push(square as u8);
            pos = pos.play_square(square);
        }
        let final_black = match pos.side {
            Color::Black => pos.final_disc_difference(),
            Color::White => -pos.final_disc_difference(),
        };
        let opening = opening.len().max(random_plies).min(moves.len());
        Ok(GameRecord {
            moves,
            black_result: final_black as i8,
            exact_from,
            opening: opening as u8,
        })
    }
}

/// The `n`-th set square of `board` (counting from a1).
fn nth_square(mut board: u64, n: u64) -> u32 {
    for _ in 0..n {
        board &= board - 1;
    }
    board.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> SelfPlayConfig {
        SelfPlayConfig {
            depth: 2,
            exact: 8,
            random_plies: 6,
            hash_mb: 1,
            ..SelfPlayConfig::default()
        }
    }

    #[test]
    fn games_are_repeatable_whatever_the_threads_and_solved_at_the_end() {
        let config = small();
        let one = play_games(&config, 0, 4, 1, &|_| {}).unwrap();
        assert_eq!(one, play_games(&config, 0, 4, 2, &|_| {}).unwrap());
        assert_eq!(
            one[2..],
            play_games(&config, 2, 2, 1, &|_| {}).unwrap()[..],
            "a game depends on its number, not on the batch"
        );
        assert_ne!(one[0].moves, one[1].moves);
        for game in &one {
            let positions = game.replay().unwrap();
            assert_eq!(game.opening, 6);
            let from = usize::from(game.exact_from.expect("solved at the end"));
            // The solve starts at the first searched move with at most 8 empties.
            let first_small = positions
                .iter()
                .position(|p| p.position.empty_count() <= 8)
                .unwrap();
            assert_eq!(from, first_small.max(6));
        }
    }

    #[test]
    fn the_result_is_the_exact_value_from_the_solve_on() {
        let config = small();
        let game = &play_games(&config, 7, 1, 1, &|_| {}).unwrap()[0];
        let mut searcher = Searcher::new(othello_evaluator("default").unwrap());
        searcher.set_hash_mb(1);
        let stop = AtomicBool::new(false);
        for p in game.replay().unwrap().iter().filter(|p| p.exact) {
            searcher.clear();
            let limits = Limits {
                depth: Some(64),
                ..Limits::default()
            };
            let report = searcher.search(&p.position, &limits, &stop, &mut |_| {});
            assert_eq!(report.confidence, Confidence::Exact);
            assert_eq!(report.score, i32::from(p.result) * iago_core::othello::DISC);
        }
    }

    #[test]
    fn openings_are_played_as_given() {
        let opening = vec![37u8, 43, 34]; // f5 d6 c5
        let config = SelfPlayConfig {
            openings: vec![opening.clone()],
            ..small()
        };
        let games = play_games(&config, 0, 2, 1, &|_| {}).unwrap();
        for game in &games {
            assert_eq!(game.moves[..3], opening[..]);
            assert_eq!(game.opening, 3);
        }
        assert_eq!(games[0], games[1], "no randomness after a given opening");
        let illegal = SelfPlayConfig {
            openings: vec![vec![0]],
            ..small()
        };
        assert!(play_games(&illegal, 0, 1, 1, &|_| {}).is_err());
    }
}
