//! The search: iterative-deepening alpha-beta over any [`Game`], stopped by limits or a
//! flag, reporting progress as values (the protocol layer formats them).
//!
//! Public API used by the engine controller and the protocols:
//! [`Limits`], [`SearchReport`], [`Confidence`], [`Searcher`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::eval::Evaluator;
use crate::game::{Game, INFINITY, Score};

/// What bounds a search. All `None` means: search until stopped (or the game tree is
/// exhausted). Several limits may be combined; the first reached stops the search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes (deterministic).
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// The mover's game clock; the time manager derives a budget from it.
    pub clock: Option<Clock>,
}

/// A game clock as seen by the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if known.
    pub moves_to_go: Option<u32>,
}

/// How sure a reported score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confidence {
    /// A heuristic search value at the reported depth.
    Heuristic,
    /// A selective solve, right with about this probability (percent).
    Probable(u8),
    /// Only win, loss or draw is proven (score sign is exact).
    WinLossDraw,
    /// The exact game-theoretic value.
    Exact,
}

/// One progress report or the final result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport<M> {
    /// Best move found; `None` only when the game is over.
    pub best_move: Option<M>,
    /// Score of `best_move` from the mover's point of view, in the game's unit.
    pub score: Score,
    /// Nominal depth completed.
    pub depth: u32,
    pub confidence: Confidence,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A search engine for one game: owns the evaluator and the tables reused between moves.
pub struct Searcher<G: Game> {
    evaluator: Box<dyn Evaluator<G>>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    hash_mb: usize,
    threads: usize,
    variety: Option<Variety>,
}

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;

/// Opening variety: play a random move among those within `tolerance` of the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variety {
    /// Largest score loss accepted, in the game's score unit.
    pub tolerance: Score,
    /// Seed of the random generator, so that a run can be repeated.
    pub seed: u64,
}

impl<G: Game> Searcher<G> {
    pub fn new(evaluator: Box<dyn Evaluator<G>>) -> Self {
        Searcher {
            evaluator,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            variety: None,
        }
    }

    pub fn set_evaluator(&mut self, evaluator: Box<dyn Evaluator<G>>) {
        self.evaluator = evaluator;
    }

    /// Forgets everything learned in earlier searches (new game).
    pub fn clear(&mut self) {}

    /// Sets the transposition table size in MiB (takes effect at the next search).
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.hash_mb = megabytes;
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Number of search threads (1 = single-threaded).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Random choice among near-best root moves for opening variety; `None` (the default)
    /// keeps the search deterministic.
    pub fn set_variety(&mut self, variety: Option<Variety>) {
        self.variety = variety;
    }

    /// Searches `pos` within `limits` until done or `stop` is raised, calling `report`
    /// after each completed iteration. Always returns a legal move when one exists.
    pub fn search(
        &mut self,
        pos: &G,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchReport<G::Move>),
    ) -> SearchReport<G::Move> {
        let start = Instant::now();
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits
            .movetime
            .or(limits.clock.map(|c| c.remaining / 30))
            .map(|t| start + t);
        let moves = pos.legal_moves();
        let moves = moves.as_ref();
        let mut best = SearchReport {
            best_move: moves.first().copied(),
            score: 0,
            depth: 0,
            confidence: Confidence::Heuristic,
            pv: moves.first().copied().into_iter().collect(),
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if moves.is_empty() {
            best.score = pos.final_score();
            best.confidence = Confidence::Exact;
            return best;
        }
        let max_depth = limits.depth.unwrap_or(64).max(1);
        for depth in 1..=max_depth {
            let mut alpha = -INFINITY;
            let mut iteration_best = None;
            for &mv in moves {
                let score = -self.alphabeta(&pos.play(mv), depth - 1, -INFINITY, -alpha, stop);
                if self.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    iteration_best = Some(mv);
                }
            }
            if self.aborted {
                break;
            }
            best.best_move = iteration_best;
            best.pv = iteration_best.into_iter().collect();
            best.score = alpha;
            best.depth = depth;
            best.nodes = self.nodes;
            best.elapsed = start.elapsed();
            report(&best);
        }
        best.nodes = self.nodes;
        best.elapsed = start.elapsed();
        best
    }

    fn alphabeta(
        &mut self,
        pos: &G,
        depth: u32,
        mut alpha: Score,
        beta: Score,
        stop: &AtomicBool,
    ) -> Score {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes.is_multiple_of(1024)
                && (stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let moves = pos.legal_moves();
        let moves = moves.as_ref();
        if moves.is_empty() {
            return pos.final_score();
        }
        if depth == 0 {
            return self.evaluator.evaluate(pos);
        }
        let mut best = -INFINITY;
        for &mv in moves {
            let score = -self.alphabeta(&pos.play(mv), depth - 1, -beta, -alpha, stop);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
