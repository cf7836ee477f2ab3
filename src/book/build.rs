//! Building a book from game records: every position of the first plies that enough games
//! went through, each searched to a fixed depth, values backed up through the book.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Book, Entry, Key, key_of, position_of};
use crate::game::Game;
use crate::othello::{Move, Position};
use crate::search::Searcher;

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
    let mut book = Book::new();
    for (key, games) in count_positions(games, settings.plies) {
        if games >= settings.min_games {
            book.entries.insert(
                key,
                Entry {
                    games,
                    ..Entry::UNSEARCHED
                },
            );
        }
    }
    let mut keys: Vec<Key> = book.entries.keys().copied().collect();
    keys.sort_unstable();
    let total = keys.len();
    let next = AtomicUsize::new(0);
    let threads = settings.threads.max(1);
    let shared = &book;
    let results: Vec<Vec<(Key, super::Leaf)>> = std::thread::scope(|scope| {
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
        if let Some(entry) = book.entries.get_mut(&key) {
            *entry = leaf.apply(*entry);
        }
    }
    // A position with no leaf searched (a worker failed) would hold a made-up value.
    book.entries
        .retain(|key, entry| entry.depth > 0 || position_of(*key).is_game_over());
    book.back_up();
    progress(total, total);
    book
}
