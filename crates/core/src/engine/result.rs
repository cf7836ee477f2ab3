//! What the engine hands the protocols: one [`SearchResult`] for whatever a search (or the
//! book) found, a move chosen, a line of a hint or an iteration, which each protocol
//! formats its way; the [`Progress`] of a job as it runs; and its [`Outcome`].

use std::time::Duration;

use crate::game::Score;
use crate::search::{Confidence, SearchReport};

use super::BookHint;
use super::review;

/// What a search or the book found for a position, or for one of its moves (a line of a
/// hint): the move, its score and how sure that score is, the depth, the line and what
/// it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// `None` only when the game is over.
    pub mv: Option<M>,
    /// For the mover, in the game's unit.
    pub score: Score,
    pub confidence: Confidence,
    pub depth: u32,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<M>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// `Some(games)` for a book move: the games of the book it is played in.
    pub book_games: Option<u32>,
}

impl<M: Clone> SearchResult<M> {
    /// A move made without a search or the book (a forced pass, the random player's).
    pub(super) fn unsearched(mv: Option<M>) -> SearchResult<M> {
        SearchResult {
            pv: mv.clone().into_iter().collect(),
            mv,
            score: 0,
            confidence: Confidence::Heuristic,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            book_games: None,
        }
    }

    /// A move of the book.
    pub(super) fn book(hint: BookHint<M>) -> SearchResult<M> {
        SearchResult {
            confidence: hint.confidence(),
            mv: Some(hint.mv),
            score: hint.score,
            depth: hint.depth,
            pv: hint.pv,
            nodes: 0,
            elapsed: Duration::ZERO,
            book_games: Some(hint.games),
        }
    }

    /// Whether the move is the book's.
    pub fn is_book(&self) -> bool {
        self.book_games.is_some()
    }
}

impl<M: Clone> From<&SearchReport<M>> for SearchResult<M> {
    fn from(report: &SearchReport<M>) -> SearchResult<M> {
        SearchResult {
            mv: report.best_move.clone(),
            score: report.score,
            confidence: report.confidence,
            depth: report.depth,
            pv: report.pv.clone(),
            nodes: report.nodes,
            elapsed: report.elapsed,
            book_games: None,
        }
    }
}

/// Something a job reports while it runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Progress<M> {
    /// A search iteration finished: what it found and what it cost so far.
    Iteration(SearchResult<M>),
    /// Position after `moves_made` moves scored `score` for its mover.
    Analysis { moves_made: usize, score: Score },
    /// A move of the game reviewed ([`super::Job::Review`]), in the game's order.
    Reviewed(review::Row<M>),
    /// A hint line as far as it is searched: a later one for the same first move
    /// replaces it.
    Hint(SearchResult<M>),
    /// A search is alive: its nodes so far and the time since it began (every
    /// `search::PROGRESS_NODES` nodes, also inside an iteration).
    Nodes { nodes: u64, elapsed: Duration },
}

/// What a finished job gives back.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome<M> {
    /// The move of a `Go` or a `Solve`.
    Move(SearchResult<M>),
    /// The lines of a `Hint`, one a move, best first.
    Hints(Vec<SearchResult<M>>),
    Analyzed,
    /// Every move of the game reviewed (or the review stopped).
    Reviewed,
    Learned(Result<String, String>),
    /// `None` when stopped before the count was complete.
    Perft {
        leaves: Option<u64>,
        elapsed: Duration,
    },
    /// The job gave no result: its thread could not be started, or it panicked. The
    /// text says which; the engine has a searcher again, with the same settings.
    Failed(String),
}
