//! The opening book: evaluated positions, each stored once for its 8 symmetric images,
//! with minimax back-up through the book, move choice, learning from games, and a file
//! that is never left damaged.
//!
//! Each entry holds the search value of its best move *outside* the book (the "leaf"),
//! its depth and the number of games that went through it. The value of a position is the
//! best of its leaf and of its book children (negated): that is the minimax back-up, done
//! whenever the book changes. A book position whose leaf move has since led into the book
//! ignores that stale leaf until the next learn refreshes it.
//!
//! Keys are the canonical (player, opponent) discs; the colour to move is not part of the
//! key, since Othello is the same game for either colour.

mod file;

use std::collections::HashMap;
use std::collections::hash_map::Entry as Slot;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use rand::RngExt;

pub use file::{BookError, FORMAT_VERSION};

use crate::game::{Color, Game, Score};
use crate::options::BookChoice;
use crate::othello::symmetry::canonical;
use crate::othello::{Move, Position};
use crate::search::{Limits, Searcher};

/// The book shipped with iago, used when no other is named (see `src/othello/book/README.md` for
/// the command that made it).
pub static DEFAULT_BOOK: &[u8] = include_bytes!("book.bin");

/// Depth recorded for a value that is the exact game result.
pub const EXACT_DEPTH: u8 = 60;

/// Canonical (player, opponent) discs.
pub type Key = (u64, u64);

/// One book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Value of the best move that does not lead into the book, from the side to move's
    /// point of view, in hundredths of a disc; the game result for an ended game.
    pub leaf_value: Score,
    /// That move, in the canonical orientation; `None` when every move leads into the book
    /// or the game is over.
    pub leaf_move: Option<Move>,
    /// Depth of the search that gave `leaf_value` ([`EXACT_DEPTH`] for exact).
    pub depth: u8,
    /// Games that went through the position.
    pub games: u32,
    /// Minimax value through the book (computed, not stored).
    pub value: Score,
}

impl Entry {
    /// A position not searched yet.
    pub const UNSEARCHED: Entry = Entry {
        leaf_value: 0,
        leaf_move: None,
        depth: 0,
        games: 0,
        value: 0,
    };
}

/// A move out of a book position, in the orientation the position was asked in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// Value after the move from the mover's point of view, hundredths of a disc.
    pub value: Score,
    /// Games that went through the position after the move (0 for a move out of the book).
    pub games: u32,
    /// Search depth behind the value.
    pub depth: u8,
    /// True when the position after the move is itself in the book.
    pub in_book: bool,
}

/// When to play from the book and how much variety to allow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookPolicy {
    /// Leave the book when its best move is worth less than this (hundredths of a disc).
    pub min_value: Score,
    /// With a random generator, any move within this much of the best may be chosen.
    pub randomness: Score,
}

impl Default for BookPolicy {
    fn default() -> Self {
        BookPolicy {
            min_value: -400,
            randomness: 0,
        }
    }
}

/// What to do when learning a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnSettings {
    /// Depth of the searches of new positions.
    pub depth: u32,
    /// Only the first `plies` positions of a game are learned.
    pub plies: usize,
}

impl Default for LearnSettings {
    fn default() -> Self {
        LearnSettings {
            depth: 10,
            plies: 40,
        }
    }
}

/// What a learned game changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LearnReport {
    pub added: usize,
    pub searched: usize,
}

/// An opening book.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<Key, Entry>,
    /// The file learned games are saved to; `None` for a book held only in memory.
    path: Option<PathBuf>,
}

/// The canonical key of `pos`.
pub fn key_of(pos: &Position) -> Key {
    let (image, _) = canonical(pos);
    (image.player, image.opponent)
}

fn position_of(key: Key) -> Position {
    Position {
        player: key.0,
        opponent: key.1,
        side: Color::Black,
    }
}

impl Book {
    /// An empty book in memory.
    pub fn new() -> Book {
        Book::default()
    }

    /// The book shipped with iago.
    pub fn embedded() -> Book {
        match file::decode(DEFAULT_BOOK, Path::new("<embedded>")) {
            Ok(entries) => Book::from_entries(entries, None),
            Err(error) => {
                log::error!("{error}");
                Book::new()
            }
        }
    }

    /// The book at `path`. A missing file gives the embedded book, which learning will save
    /// to `path`. A damaged file is an error: the caller reports it and runs without.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        match file::read(path)? {
            Some(entries) => Ok(Book::from_entries(entries, Some(path.to_path_buf()))),
            None => Ok(Book {
                path: Some(path.to_path_buf()),
                ..Book::embedded()
            }),
        }
    }

    /// The book `choice` names (`None` for `--book none`), or why it cannot be used.
    pub fn open_choice(choice: &BookChoice) -> Result<Option<Book>, BookError> {
        match choice {
            BookChoice::None => Ok(None),
            BookChoice::Default => Ok(Some(Book::embedded())),
            BookChoice::File(path) => Book::open(path).map(Some),
        }
    }

    /// A book from the bytes of a book file (`name` only appears in errors).
    pub fn from_bytes(bytes: &[u8], name: &Path) -> Result<Book, BookError> {
        Ok(Book::from_entries(file::decode(bytes, name)?, None))
    }

    fn from_entries(entries: Vec<(Key, Entry)>, path: Option<PathBuf>) -> Book {
        let mut book = Book {
            entries: entries.into_iter().collect(),
            path,
        };
        book.back_up();
        book
    }

    /// The bytes of the book file.
    pub fn to_bytes(&self) -> Vec<u8> {
        file::encode(self.entries.iter())
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Makes learned games go to `path` from now on.
    pub fn set_path(&mut self, path: Option<PathBuf>) {
        self.path = path;
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of `pos` in any orientation.
    pub fn entry(&self, pos: &Position) -> Option<&Entry> {
        self.entries.get(&key_of(pos))
    }

    pub fn contains(&self, pos: &Position) -> bool {
        self.entries.contains_key(&key_of(pos))
    }

    /// The book moves of `pos` (any orientation), best first; `None` when `pos` is not in
    /// the book.
    pub fn moves(&self, pos: &Position) -> Option<Vec<BookMove>> {
        let (image, symmetry) = canonical(pos);
        let entry = self.entries.get(&(image.player, image.opponent))?;
        let back = symmetry.inverse();
        let mut moves: Vec<BookMove> = Vec::new();
        for &mv in image.legal_moves().as_ref() {
            if let Some(child) = self.entries.get(&key_of(&image.play(mv))) {
                moves.push(BookMove {
                    mv: mv.transformed(back),
                    value: -child.value,
                    games: child.games,
                    depth: child.depth,
                    in_book: true,
                });
            }
        }
        if let Some(leaf) = self.live_leaf(&image, entry) {
            moves.push(BookMove {
                mv: leaf.transformed(back),
                value: entry.leaf_value,
                games: 0,
                depth: entry.depth,
                in_book: false,
            });
        }
        moves.sort_by_key(|book_move| (-book_move.value, book_move.mv));
        Some(moves)
    }

    /// The principal line from `pos` starting with `first`, following the best book move
    /// while the positions stay in the book (at most `max_len` moves).
    pub fn line(&self, pos: &Position, first: Move, max_len: usize) -> Vec<Move> {
        let mut line = vec![first];
        let Some(mut current) = pos.try_play(first) else {
            return line;
        };
        while line.len() < max_len {
            let Some(best) = self
                .moves(&current)
                .and_then(|moves| moves.first().copied())
            else {
                break;
            };
            line.push(best.mv);
            match current.try_play(best.mv) {
                Some(next) if best.in_book => current = next,
                _ => break,
            }
        }
        line
    }

    /// The move to play from the book in `pos`, if the book knows it and its value is good
    /// enough. Without `rng` the choice is the best move (deterministic); with one, any
    /// move within `policy.randomness` of the best.
    pub fn choose(
        &self,
        pos: &Position,
        policy: &BookPolicy,
        rng: Option<&mut rand::rngs::StdRng>,
    ) -> Option<BookMove> {
        let moves = self.moves(pos)?;
        let best = *moves.first()?;
        if best.value < policy.min_value {
            return None;
        }
        let Some(rng) = rng else {
            return Some(best);
        };
        let near: Vec<BookMove> = moves
            .into_iter()
            .filter(|m| m.value >= best.value - policy.randomness && m.value >= policy.min_value)
            .collect();
        Some(near[rng.random_range(0..near.len())])
    }

    /// The leaf move of `entry` (canonical `image`) unless it now leads into the book.
    fn live_leaf(&self, image: &Position, entry: &Entry) -> Option<Move> {
        let leaf = entry.leaf_move?;
        let child = image.try_play(leaf)?;
        (!self.entries.contains_key(&key_of(&child))).then_some(leaf)
    }

    /// Recomputes every entry's minimax value through the book.
    fn back_up(&mut self) {
        let mut memo: HashMap<Key, Score> = HashMap::with_capacity(self.entries.len());
        let keys: Vec<Key> = self.entries.keys().copied().collect();
        for key in keys {
            self.value_of(key, &mut memo);
        }
        for (key, entry) in &mut self.entries {
            if let Some(&value) = memo.get(key) {
                entry.value = value;
            }
        }
    }

    /// Negamax over the book from `key` (which must be in the book). The book is acyclic:
    /// every move adds a disc, and a pass is never followed by another pass in a game
    /// that goes on.
    fn value_of(&self, key: Key, memo: &mut HashMap<Key, Score>) -> Score {
        if let Some(&value) = memo.get(&key) {
            return value;
        }
        let Some(entry) = self.entries.get(&key) else {
            return 0;
        };
        let image = position_of(key);
        let mut best: Option<Score> = None;
        for &mv in image.legal_moves().as_ref() {
            let child = key_of(&image.play(mv));
            if self.entries.contains_key(&child) {
                let value = -self.value_of(child, memo);
                best = Some(best.map_or(value, |b| b.max(value)));
            }
        }
        if best.is_none() || self.live_leaf(&image, entry).is_some() {
            best = Some(best.map_or(entry.leaf_value, |b| b.max(entry.leaf_value)));
        }
        let value = best.unwrap_or(entry.leaf_value);
        memo.insert(key, value);
        value
    }

    /// Searches the leaf of `key`: its best move that does not lead into the book.
    pub fn search_leaf(&self, key: Key, searcher: &mut Searcher<Position>, depth: u32) -> Leaf {
        let image = position_of(key);
        let excluded: Vec<Move> = image
            .legal_moves()
            .as_ref()
            .iter()
            .copied()
            .filter(|&mv| self.entries.contains_key(&key_of(&image.play(mv))))
            .collect();
        search_leaf(&image, &excluded, searcher, depth)
    }

    /// Adds the game's positions that are not in the book yet (its first
    /// `settings.plies`), searching each, counts the game in every position it went
    /// through, backs the values up, and saves the book if it has a file. The file is
    /// locked while it is reread, merged and rewritten, so games learned meanwhile by
    /// another iago process are kept.
    pub fn learn_game(
        &mut self,
        start: &Position,
        moves: &[Move],
        searcher: &mut Searcher<Position>,
        settings: &LearnSettings,
    ) -> Result<LearnReport, BookError> {
        let mut keys = vec![key_of(start)];
        let mut pos = *start;
        for (ply, &mv) in moves.iter().enumerate() {
            pos = pos.try_play(mv).ok_or_else(|| {
                BookError::InvalidGame(format!("move {} ({mv}) is illegal", ply + 1))
            })?;
            keys.push(key_of(&pos));
        }
        keys.truncate(settings.plies + 1);
        keys.dedup();

        // Positions new to the book, and the game's positions whose leaf move the game
        // itself played (that leaf now leads into the book): both need a (new) leaf search.
        let mut grown = self.clone();
        let mut report = LearnReport::default();
        for &key in &keys {
            if let Slot::Vacant(slot) = grown.entries.entry(key) {
                report.added += 1;
                slot.insert(Entry::UNSEARCHED);
            }
        }
        let mut searched: Vec<(Key, Entry)> = Vec::new();
        for &key in &keys {
            let Some(&entry) = grown.entries.get(&key) else {
                continue;
            };
            let is_new = !self.entries.contains_key(&key);
            let stale =
                grown.live_leaf(&position_of(key), &entry).is_none() && entry.leaf_move.is_some();
            if is_new || stale {
                let leaf = grown.search_leaf(key, searcher, settings.depth);
                searched.push((key, leaf.apply(entry)));
            }
        }
        report.searched = searched.len();

        // Under the lock: start again from what is on disk now, apply this game, save.
        let _lock = match &self.path {
            Some(path) => {
                let lock = file::WriteLock::acquire(path)?;
                if let Some(on_disk) = file::read(path)? {
                    self.entries = on_disk.into_iter().collect();
                }
                Some(lock)
            }
            None => None,
        };
        for (key, entry) in searched {
            let games = self.entries.get(&key).map_or(0, |old| old.games);
            self.entries.insert(key, Entry { games, ..entry });
        }
        for key in &keys {
            if let Some(entry) = self.entries.get_mut(key) {
                entry.games = entry.games.saturating_add(1);
            }
        }
        self.back_up();
        if let Some(path) = &self.path {
            crate::files::write(path, &self.to_bytes())?;
        }
        Ok(report)
    }

    /// Writes the book to `path` crash-safely, under the book's lock.
    pub fn save_to(&self, path: &Path) -> Result<(), BookError> {
        let _lock = file::WriteLock::acquire(path)?;
        Ok(crate::files::write(path, &self.to_bytes())?)
    }

    /// A book of the positions `counts` names, each with the number of games that went
    /// through it and no search yet: the start of a book build (`iago book build`),
    /// which then searches each leaf ([`Book::search_leaf`], [`Book::set_leaf`]) and
    /// ends with [`Book::finish_build`].
    pub fn unsearched(counts: impl IntoIterator<Item = (Key, u32)>) -> Book {
        Book {
            entries: counts
                .into_iter()
                .map(|(key, games)| {
                    let entry = Entry {
                        games,
                        ..Entry::UNSEARCHED
                    };
                    (key, entry)
                })
                .collect(),
            path: None,
        }
    }

    /// The keys of the book, in order.
    pub fn keys(&self) -> Vec<Key> {
        let mut keys: Vec<Key> = self.entries.keys().copied().collect();
        keys.sort_unstable();
        keys
    }

    /// Records the searched leaf of `key`.
    pub fn set_leaf(&mut self, key: Key, leaf: Leaf) {
        if let Some(entry) = self.entries.get_mut(&key) {
            *entry = leaf.apply(*entry);
        }
    }

    /// Drops the positions whose leaf was not searched (they would hold a made-up
    /// value) and backs the values up through the book.
    pub fn finish_build(&mut self) {
        self.entries
            .retain(|key, entry| entry.depth > 0 || position_of(*key).is_game_over());
        self.back_up();
    }

    /// Entries in key order (for tools and tests).
    pub fn entries(&self) -> Vec<(Key, Entry)> {
        let mut entries: Vec<(Key, Entry)> = self.entries.iter().map(|(k, e)| (*k, *e)).collect();
        entries.sort_unstable_by_key(|(key, _)| *key);
        entries
    }
}

/// The result of a leaf search.
#[derive(Clone, Copy, Debug)]
pub struct Leaf {
    mv: Option<Move>,
    value: Score,
    depth: u8,
}

impl Leaf {
    fn apply(self, entry: Entry) -> Entry {
        Entry {
            leaf_move: self.mv,
            leaf_value: self.value,
            depth: self.depth,
            value: self.value,
            ..entry
        }
    }
}

/// The best move of `pos` other than `excluded`, by a search of `depth` plies. Searches
/// start from a cleared searcher, so the result does not depend on what was searched before.
fn search_leaf(
    pos: &Position,
    excluded: &[Move],
    searcher: &mut Searcher<Position>,
    depth: u32,
) -> Leaf {
    let depth = depth.max(1);
    let stop = AtomicBool::new(false);
    let mut search = |pos: &Position, depth: u32| {
        searcher.clear();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        searcher.search(pos, &limits, &stop, &mut |_| {})
    };
    let moves = pos.legal_moves();
    let moves = moves.as_ref();
    if moves.is_empty() {
        return Leaf {
            mv: None,
            value: pos.final_score(),
            depth: EXACT_DEPTH,
        };
    }
    let candidates: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|mv| !excluded.contains(mv))
        .collect();
    if candidates.is_empty() {
        return Leaf {
            mv: None,
            value: 0,
            depth: depth as u8,
        };
    }
    if candidates.len() == moves.len() {
        let report = search(pos, depth);
        return Leaf {
            mv: report.best_move,
            value: report.score,
            depth: depth_of(&report.confidence, depth),
        };
    }
    let mut best = Leaf {
        mv: None,
        value: Score::MIN,
        depth: depth as u8,
    };
    for mv in candidates {
        let child = pos.play(mv);
        let (value, child_depth) = if child.is_game_over() {
            (-child.final_score(), EXACT_DEPTH)
        } else {
            let report = search(&child, (depth - 1).max(1));
            (-report.score, depth_of(&report.confidence, depth))
        };
        if value > best.value {
            best = Leaf {
                mv: Some(mv),
                value,
                depth: child_depth,
            };
        }
    }
    best
}

fn depth_of(confidence: &crate::search::Confidence, depth: u32) -> u8 {
    match confidence {
        crate::search::Confidence::Exact => EXACT_DEPTH,
        _ => depth.min(EXACT_DEPTH as u32 - 1) as u8,
    }
}

#[cfg(test)]
mod tests;
