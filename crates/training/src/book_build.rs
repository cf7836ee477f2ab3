//! Building a book from game records: every position of the first plies that enough games
//! went through, each searched to a fixed depth, values backed up through the book.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use iago_core::othello::book::{Book, Key, Leaf, key_of};
use iago_core::othello::{Move, Position};
use iago_core::search::Searcher;

/// What goes into a built book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildSettings {
    /// Positions up to this many plies from the start.
    pub plies: usize,
    /// Positions at least this many games went through.
    pub min_games: u32,
    /// Depth of the search of each position.
    pub depth: u32,
    /// Worker threads for the searches.
    pub threads: usize,
}

/// How many games went through each position of their first `plies` plies.
pub fn count_positions(games: &[Vec<Move>], plies: usize) -> HashMap<Key, u32> {
    let mut counts: HashMap<Key, u32> = HashMap::new();
    for game in games {
        let mut pos = Position::start();
        *counts.entry(key_of(&pos)).or_default() += 1;
        for &mv in game.iter().take(plies) {
            match pos.try_play(mv) {
                Some(next) => pos = next,
                None => break,
            }
            *counts.entry(key_of(&pos)).or_default() += 1;
        }
    }
    counts
}

/// Builds a book from `games`. Each worker gets its own searcher from `make_searcher`;
/// `progress(done, total)` is called now and then. The result does not depend on the
/// number of threads.
pub fn build_book(
    games: &[Vec<Move>],
    settings: &BuildSettings,
    make_searcher: &(dyn Fn() -> Searcher<Position> + Sync),
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Book {
    let counts = count_positions(games, settings.plies)
        .into_iter()
        .filter(|&(_, games)| games >= settings.min_games);
    let mut book = Book::unsearched(counts);
    let keys = book.keys();
    let total = keys.len();
    let next = AtomicUsize::new(0);
    let threads = settings.threads.max(1);
    let shared = &book;
    let results: Vec<Vec<(Key, Leaf)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut searcher = make_searcher();
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&key) = keys.get(index) else {
                            break;
                        };
                        done.push((key, shared.search_leaf(key, &mut searcher, settings.depth)));
                        if index.is_multiple_of(64) {
                            progress(index, total);
                        }
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap_or_default())
            .collect()
    });
    for (key, leaf) in results.into_iter().flatten() {
        book.set_leaf(key, leaf);
    }
    book.finish_build();
    progress(total, total);
    book
}
