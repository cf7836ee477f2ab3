//! The self-play corpus: games of iago against itself at a fixed level, each played to the
//! end with an exact endgame, kept as compact records ([`records`]) whose final results
//! label every position for training (`iago train --games`).
//!
//! A game is a pure function of the seed, its number and the configuration: it opens
//! with random moves (after an opening of a list, if there is one), then both sides search to a fixed depth
//! from cleared tables and solve exactly from a given number of empties, so from the
//! first solved move on the result is the exact value of every position. The number of
//! threads changes nothing but the speed.

pub mod coded;
pub mod distinct;
pub mod range_coder;
pub mod records;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use iago_core::game::{Color, mix64};
use iago_core::othello::Position;
use iago_core::othello::eval::othello_evaluator;
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
    /// Random moves at the start, after the opening where there is one.
    pub random_plies: u32,
    /// Openings to start from (squares played), taken in turn.
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

/// What [`play_games`] played: the games from the first on, in order, as far as they
/// go without a gap, and why the rest were not played, if they were not.
#[derive(Debug, Default)]
pub struct Played {
    pub games: Vec<GameRecord>,
    pub error: Option<String>,
}

/// Games `first..first + count`, in order, on up to `threads` threads; `progress(done)`
/// is called after each game from the thread that played it. Each thread takes the next
/// game not yet taken (a game is a function of its number alone, so the order they are
/// played in changes nothing). A thread that cannot be started (the system refuses, or
/// its tables cannot be allocated) leaves its share to the others; only when none
/// starts, or a game fails, are the rest not played, and the games before are kept.
pub fn play_games(
    config: &SelfPlayConfig,
    first: u64,
    count: usize,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Played {
    let threads = threads.clamp(1, count.max(1));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<(usize, Result<GameRecord, String>)>> = Mutex::new(Vec::new());
    let start_errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let started = std::thread::scope(|scope| {
        let worker = || {
            let mut player = match Player::new(config) {
                Ok(player) => player,
                Err(error) => return lock(&start_errors).push(error),
            };
            while !failed.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let game = player.play(first + i as u64);
                failed.fetch_or(game.is_err(), Ordering::Relaxed);
                lock(&results).push((i, game));
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            }
        };
        let mut started = 0;
        for t in 0..threads {
            let spawned = std::thread::Builder::new()
                .name(format!("selfplay-{t}"))
                .spawn_scoped(scope, worker);
            match spawned {
                Ok(_) => started += 1,
                Err(error) => {
                    log::warn!("selfplay: {error}: playing on {started} threads");
                    break;
                }
            }
        }
        started
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_unstable_by_key(|(i, _)| *i);
    let mut played = Played::default();
    for (expected, (i, game)) in results.into_iter().enumerate() {
        match game {
            Ok(game) if i == expected => played.games.push(game),
            Ok(_) => break,
            Err(error) => {
                played.error = Some(error);
                break;
            }
        }
    }
    if played.games.len() < count && played.error.is_none() {
        let why = lock(&start_errors).first().cloned();
        played.error = Some(match (started, why) {
            (0, None) => "no self-play thread could be started".to_string(),
            (_, Some(why)) => format!("no self-play thread could play: {why}"),
            (_, None) => "a self-play thread stopped".to_string(),
        });
    }
    played
}

/// The data behind `mutex`, even where a thread panicked while holding it.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
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
        let endgame = Some(Endgame {
            exact: config.exact,
            win_loss_draw: config.exact,
        });
        let midgame = Limits {
            depth: Some(config.depth),
            endgame,
            ..Limits::default()
        };
        // From --exact empties on, no depth limit: the search goes as deep as the solve
        // needs before it (Othello's plan searches a few plies first, up to 12, which a
        // depth of 6 would stop short of, and the solve would then start only at 16
        // empties). Where the depth reached that far already, the games are the same.
        let endgame = Limits {
            depth: None,
            endgame,
            ..Limits::default()
        };
        let mut state = mix64(config.seed ^ mix64(game.wrapping_add(1)));
        let opening: &[u8] = match config.openings.len() {
            0 => &[],
            n => &config.openings[(game % n as u64) as usize],
        };
        // Random moves follow the opening, if there is one.
        let random_plies = opening.len() + config.random_plies as usize;
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
                let limits = if pos.empty_count() <= config.exact {
                    &endgame
                } else {
                    &midgame
                };
                let report = self.searcher.search(&pos, limits, &self.stop, &mut |_| {});
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
        let opening = random_plies.min(moves.len());
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
        let one = games(&config, 0, 4, 1);
        assert_eq!(one, games(&config, 0, 4, 2));
        assert_eq!(
            one[2..],
            games(&config, 2, 2, 1)[..],
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
        let game = &games(&config, 7, 1, 1)[0];
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
    fn openings_are_played_as_given_then_the_random_moves() {
        let opening = vec![37u8, 43, 34]; // f5 d6 c5
        let config = SelfPlayConfig {
            openings: vec![opening.clone()],
            random_plies: 0,
            ..small()
        };
        let same = games(&config, 0, 2, 1);
        for game in &same {
            assert_eq!(game.moves[..3], opening[..]);
            assert_eq!(game.opening, 3);
        }
        assert_eq!(same[0], same[1], "no randomness after a given opening");
        // Random moves after it: game i and game i + 1 (of one opening) differ.
        let varied = SelfPlayConfig {
            random_plies: 4,
            ..config
        };
        let varied = games(&varied, 0, 2, 1);
        assert_eq!(varied[0].moves[..3], opening[..]);
        assert_eq!(varied[0].opening, 7);
        assert_ne!(varied[0].moves, varied[1].moves);
        let illegal = SelfPlayConfig {
            openings: vec![vec![0]],
            ..small()
        };
        let played = play_games(&illegal, 0, 3, 1, &|_| {});
        assert!(played.games.is_empty());
        assert!(played.error.is_some());
    }

    /// A solve asked from 20 empties at depth 2 starts at 20 empties, not at the 12 the
    /// depth reaches.
    #[test]
    fn the_exact_solve_starts_where_it_was_asked() {
        let config = SelfPlayConfig {
            exact: 20,
            ..small()
        };
        for game in games(&config, 0, 2, 1) {
            let positions = game.replay().unwrap();
            let from = usize::from(game.exact_from.expect("solved"));
            let first_20 = positions
                .iter()
                .position(|p| p.position.empty_count() <= 20)
                .unwrap();
            assert_eq!(from, first_20);
        }
    }

    /// The games of a run, which must all be played.
    fn games(config: &SelfPlayConfig, first: u64, count: usize, threads: usize) -> Vec<GameRecord> {
        let played = play_games(config, first, count, threads, &|_| {});
        assert_eq!(played.error, None);
        played.games
    }
}
