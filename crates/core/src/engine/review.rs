//! Every move of a game against the best move: the rows of `iago analyze` and of the
//! browser board's analysis, one computation for both.
//!
//! Each position before a move (passes have no row) is searched for its best move and,
//! where another move was played, for the played move alone, both to the same depth and
//! each with fresh tables, so that a separate search finds the row's scores again. The
//! depth is the game's comparable depth ([`Plan::comparable_depth`]: Othello's searches
//! all end with the same side to move, as its evaluation swings by about 3 discs between
//! the two). A move that search finds short of the best, or best by less than
//! [`CLOSE_BEST`], is searched again the same way to the verifying depth, so that which
//! moves lose, and how much, is decided by searches of one depth whatever the first
//! depth is. Positions the game's plan can solve within `solve` plies are solved.

use std::sync::atomic::{AtomicBool, Ordering};

use super::EngineGame;
use crate::game::{Color, Score};
use crate::search::{Confidence, Focus, Limits, Plan, Searchable, Searcher};

/// How a game is reviewed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Review {
    /// The depth of the first searches of each position.
    pub depth: u32,
    /// The depth moves in doubt are searched again to (0: none).
    pub verify: u32,
    /// Positions whose end is at most this many plies away are solved exactly.
    pub solve: u32,
}

impl Review {
    /// The defaults of `iago analyze` and of the board: a first search of 14 plies, the
    /// moves in doubt searched again to 18, solved from 22 moves before the end.
    pub const DEFAULT: Review = Review {
        depth: 14,
        verify: 18,
        solve: 22,
    };
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq)]
pub struct Row<M> {
    /// The move's number in the game, passes counted (as NBoard numbers them).
    pub number: usize,
    pub color: Color,
    /// The depth of the searches that scored it.
    pub depth: u32,
    pub played: M,
    /// Scores for the mover, in the game's unit.
    pub played_score: Score,
    pub best: M,
    pub best_score: Score,
    /// Both scores exact.
    pub exact: bool,
}

impl<M> Row<M> {
    /// What the move lost against the best, before any rounding.
    pub fn lost(&self) -> Score {
        (self.best_score - self.played_score).max(0)
    }

    /// A score of this row from Black's view.
    pub fn for_black(&self, score: Score) -> Score {
        match self.color {
            Color::Black => score,
            Color::White => -score,
        }
    }
}

/// A played move best by less than this (2 units: discs) is in doubt too: a deeper
/// search may rank another move above it.
pub const CLOSE_BEST: Score = 200;

/// A search's best move and its score.
struct Best<M> {
    mv: M,
    score: Score,
    exact: bool,
}

fn to_depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

/// The best move by a search of `pos` within `limits`, with fresh tables.
fn search_best<G: Searchable>(
    searcher: &mut Searcher<G>,
    pos: &G,
    played: G::Move,
    limits: &Limits,
    stop: &AtomicBool,
) -> Best<G::Move> {
    searcher.clear();
    let report = searcher.search(pos, limits, stop, &mut |_| {});
    Best {
        mv: report.best_move.unwrap_or(played),
        score: report.score,
        exact: report.confidence == Confidence::Exact,
    }
}

/// Whether the played move is in doubt after a search within `limits` found `best`:
/// that is another move, or the played one best by less than [`CLOSE_BEST`] (the best of
/// the other moves is searched to tell).
fn in_doubt<G: Searchable>(
    searcher: &mut Searcher<G>,
    pos: &G,
    played: G::Move,
    best: &Best<G::Move>,
    limits: &Limits,
    stop: &AtomicBool,
) -> bool {
    if best.mv != played {
        return true;
    }
    let legal = pos.legal_moves();
    let others: Vec<G::Move> = legal
        .as_ref()
        .iter()
        .copied()
        .filter(|&mv| mv != played)
        .collect();
    if others.is_empty() {
        return false;
    }
    let focus = Focus {
        moves: Some(others),
        ..Focus::default()
    };
    let runner_up = searcher.search_focused(pos, limits, stop, &focus, &());
    best.score - runner_up.score < CLOSE_BEST
}

/// The row of `played` in `pos`: the best move's scores where it is the best, else a
/// search within the same `limits` restricted to the played move, with fresh tables.
fn scored<G: Searchable>(
    searcher: &mut Searcher<G>,
    pos: &G,
    played: G::Move,
    best: Best<G::Move>,
    limits: &Limits,
    stop: &AtomicBool,
) -> (G::Move, Score, Score, bool) {
    if best.mv == played {
        return (played, best.score, best.score, best.exact);
    }
    let focus = Focus {
        moves: Some(vec![played]),
        ..Focus::default()
    };
    // Fresh tables, as for the best move: the first search's bounds on the played move's
    // subtree, met again with other windows, can move its score by discs.
    searcher.clear();
    let reply = searcher.search_focused(pos, limits, stop, &focus, &());
    let exact = best.exact && reply.confidence == Confidence::Exact;
    // Selective searches of the whole position and of the played move alone may
    // disagree: where the played move's own search scores it above the best move's, the
    // search found no better move, and the played one is the row's best.
    if reply.score > best.score {
        return (played, reply.score, reply.score, exact);
    }
    (best.mv, best.score, reply.score, exact)
}

/// The row of move `number`, `played` in `pos`.
pub fn review_move<G: Searchable>(
    searcher: &mut Searcher<G>,
    pos: &G,
    played: G::Move,
    number: usize,
    review: &Review,
    stop: &AtomicBool,
) -> Row<G::Move> {
    let legal = pos.legal_moves();
    let plan = G::Plan::new(pos, legal.as_ref());
    let mut depth = plan.comparable_depth(review.depth);
    let solve = plan.solve_depth().is_some_and(|end| end <= review.solve);
    let limits = to_depth(if solve { 64 } else { depth });
    let mut best = search_best(searcher, pos, played, &limits, stop);
    // The moves in doubt are decided by searches of one depth, whatever the first is.
    let verify = (review.verify > 0 && !solve && !best.exact)
        .then(|| plan.comparable_depth(review.verify))
        .filter(|&verify| verify > depth);
    let mut scored_at = limits;
    if let Some(verify) = verify
        && in_doubt(searcher, pos, played, &best, &scored_at, stop)
    {
        log::info!("review: move {number} again at depth {verify}");
        depth = verify;
        scored_at = to_depth(verify);
        best = search_best(searcher, pos, played, &scored_at, stop);
    }
    let (best, best_score, played_score, exact) =
        scored(searcher, pos, played, best, &scored_at, stop);
    Row {
        number,
        color: pos.side_to_move(),
        depth,
        played,
        played_score,
        best,
        best_score,
        exact,
    }
}

/// The rows of the game from `start` with `moves` (passes explicit), each told to `row`
/// as it is found; ends early when `stop` is raised.
pub fn review_game<G: EngineGame>(
    searcher: &mut Searcher<G>,
    start: &G,
    moves: &[G::Move],
    review: &Review,
    stop: &AtomicBool,
    mut row: impl FnMut(Row<G::Move>),
) {
    let mut pos = start.clone();
    for (index, &played) in moves.iter().enumerate() {
        if pos.forced_pass() != Some(played) {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            row(review_move(searcher, &pos, played, index + 1, review, stop));
        }
        pos = pos.play(played);
    }
}
