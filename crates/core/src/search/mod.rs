//! The search: iterative-deepening alpha-beta over any [`Game`], stopped by limits or a
//! flag, reporting progress as values (the protocol layer formats them).
//!
//! Public API used by the engine controller and the protocols:
//! [`Limits`], [`SearchReport`], [`Confidence`], [`Searcher`].
//!
//! The driver here runs iterative deepening with aspiration windows around the midgame
//! search (`negamax`), which orders moves (`ordering`), keeps results in a transposition
//! table (`tt`) and prunes probable cuts (`probcut`). For Othello, the exact solver
//! (`endgame`) takes over where the search reaches the end of the game. `time` turns
//! limits into deadlines. With several threads, helper threads search each midgame
//! iteration beside the driver's (`helpers`) and the solver runs its own; both
//! share their tables (`slot`) and share out the moves (`busy`).

mod busy;
mod endgame;
mod helpers;
mod memory;
mod negamax;
mod ordering;
pub mod probcut;
mod probcut_params;
mod slot;
mod stability;
pub mod time;
mod tt;

use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::game::{Evaluator, Game, INFINITY, Score};
use crate::othello::DISC;

use busy::BusyMarks;
use memory::OutOfMemory;
use negamax::{LineSink, Pulse, Run, Watch};
pub use ordering::OrderingRules;
use tt::Table;

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
    /// Where solves start when a level sets it apart from the depth; `None`: where the
    /// depth reaches the end of the game.
    pub endgame: Option<Endgame>,
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

impl<M: Clone> SearchReport<M> {
    /// The report as it is shown: a win/loss/draw solve's score is its bound, +2 discs
    /// for a win (any win is by 2 discs or more: the discs and the empties given to the
    /// winner make 64), -2 for a loss, 0 for a draw; other scores as found.
    fn shown(&self) -> SearchReport<M> {
        let mut shown = self.clone();
        if shown.confidence == Confidence::WinLossDraw {
            shown.score = match shown.score {
                score if score >= DISC => 2 * DISC,
                score if score <= -DISC => -2 * DISC,
                _ => 0,
            };
        }
        shown
    }
}

/// What a search looks at beyond its limits ([`Searcher::search_focused`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Focus<M> {
    /// The root moves searched; `None`: every legal move (moves that are not legal are
    /// left out; where none is legal, all are searched).
    pub moves: Option<Vec<M>>,
    /// How many of the best root moves get their value in each iteration (multi-PV),
    /// each told to the observer as an [`Observer::line`] when found; 1: the best only.
    pub lines: usize,
    /// Scores only: no win/loss/draw solve, whose value is a bound and not a score.
    /// Where a level's endgame allows only that solve, the midgame search goes on.
    pub scores_only: bool,
}

impl<M> Default for Focus<M> {
    fn default() -> Self {
        Focus {
            moves: None,
            lines: 1,
            scores_only: false,
        }
    }
}

/// What a search tells its caller while it runs ([`Searcher::search_focused`]). Each
/// method does nothing unless implemented.
pub trait Observer<M> {
    /// An iteration completed: its best move, score and line.
    fn iteration(&self, _report: &SearchReport<M>) {}
    /// A root move's value became known inside an iteration: its `best_move`, `score`
    /// and `pv`, with the iteration's `depth` and `confidence`. With one line wanted,
    /// each new best move as it is found; with several, each of the best ones.
    fn line(&self, _report: &SearchReport<M>) {}
    /// The search is alive: the nodes of its thread so far, the time since it began.
    fn progress(&self, _nodes: u64, _elapsed: Duration) {}
}

/// An observer that wants to know nothing.
impl<M> Observer<M> for () {}

/// What [`Searcher::search`] calls after each completed iteration.
type IterationReport<'f, M> = &'f mut dyn FnMut(&SearchReport<M>);

/// Tells a closure the iterations (for [`Searcher::search`]).
struct Iterations<'f, M>(RefCell<IterationReport<'f, M>>);

impl<M> Observer<M> for Iterations<'_, M> {
    fn iteration(&self, report: &SearchReport<M>) {
        (self.0.borrow_mut())(report);
    }
}

/// A search tells its [`Observer::progress`] every this many nodes (under a second in
/// the midgame search, a fifth of one in the endgame solver, on one core of the
/// development machine): counted in nodes, so that a search of fixed depth or nodes
/// says the same every run.
pub const PROGRESS_NODES: u64 = 1 << 22;

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;

/// The deepest iteration when no depth limit is given.
const MAX_DEPTH: u32 = 64;

/// A forced move on the clock is solved exactly up to this depth (a matter of
/// milliseconds), and otherwise searched this deep, in this part of the time a move
/// would get.
const FORCED_MOVE_SOLVE_DEPTH: u32 = 20;
const FORCED_MOVE_DEPTH: u32 = 8;
const FORCED_MOVE_TIME_SHARE: u32 = 4;

/// Half-width of the first aspiration window (half an Othello disc); doubled on each
/// failure.
const ASPIRATION: Score = 50;

/// Opening variety: play a random move among those within `tolerance` of the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variety {
    /// Largest score loss accepted, in the game's score unit.
    pub tolerance: Score,
    /// Seed of the random generator, so that a run can be repeated.
    pub seed: u64,
}

/// A hash table size that could not be allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableError {
    pub requested_mb: usize,
    /// The size of the tables kept instead, if the searcher had any.
    pub kept_mb: Option<usize>,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate {} MB for the hash table",
            self.requested_mb
        )?;
        match self.kept_mb {
            Some(kept) => write!(f, "; keeping {kept} MB"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for TableError {}

/// A search engine for one game: owns the evaluator and the tables reused between moves.
pub struct Searcher<G: Game> {
    evaluator: Box<dyn Evaluator<G>>,
    /// Allocated at the first search (or by [`Searcher::allocate_tables`]).
    table: Option<Table<G::Move>>,
    table_mb: usize,
    solver: Option<endgame::Solver>,
    hash_mb: usize,
    threads: usize,
    variety: Option<Variety>,
    rules: OrderingRules,
    selective: bool,
    /// What the threads of a midgame iteration are searching now.
    busy: BusyMarks,
}

/// How many empties a game may still have for the search to solve it, apart from the
/// midgame depth (a level's endgame: `options::level`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endgame {
    /// The exact solve, at this many empties or fewer.
    pub exact: u32,
    /// The win/loss/draw solve, at this many empties or fewer (at least `exact`).
    pub win_loss_draw: u32,
}

impl<G: Game> Searcher<G> {
    pub fn new(evaluator: Box<dyn Evaluator<G>>) -> Self {
        Searcher {
            evaluator,
            table: None,
            table_mb: 0,
            solver: None,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            variety: None,
            rules: OrderingRules::default(),
            selective: true,
            busy: BusyMarks::default(),
        }
    }

    pub fn set_evaluator(&mut self, evaluator: Box<dyn Evaluator<G>>) {
        self.evaluator = evaluator;
        // Stored scores came from the old evaluator.
        self.clear();
    }

    /// Forgets everything learned in earlier searches (new game). Cheap: the tables are
    /// marked empty, not rewritten.
    pub fn clear(&mut self) {
        if let Some(table) = &mut self.table {
            table.clear();
        }
        if let Some(solver) = &mut self.solver {
            solver.clear();
        }
    }

    /// Sets the transposition table size in MiB, allocated by the next
    /// [`Searcher::allocate_tables`] (or search).
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.hash_mb = megabytes.max(1);
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Allocates the tables now (at the configured size) rather than at the first
    /// search, so that the first move's time is not spent on it. When that much memory
    /// cannot be had, the searcher keeps tables of the size it had (what they held is
    /// lost) and its size setting goes back to that size.
    pub fn allocate_tables(&mut self) -> Result<(), TableError> {
        if self.table.is_some() && self.table_mb == self.hash_mb {
            return Ok(());
        }
        let requested_mb = self.hash_mb;
        let had = self.table.is_some().then_some(self.table_mb);
        // The old tables go first: both at once could need twice the memory.
        (self.table, self.solver) = (None, None);
        match self.build_tables(requested_mb) {
            Ok(()) => Ok(()),
            Err(OutOfMemory) => {
                // The old size was just given back, so it can normally be had again.
                let kept_mb = had.filter(|&mb| self.build_tables(mb).is_ok());
                self.hash_mb = kept_mb.unwrap_or(DEFAULT_HASH_MB);
                Err(TableError {
                    requested_mb,
                    kept_mb,
                })
            }
        }
    }

    /// How `megabytes` MiB are shared: the midgame table's part and, for a game with
    /// the endgame solver, the solver's.
    fn shares(megabytes: usize) -> (usize, Option<usize>) {
        if G::DISC_SOLVER {
            (megabytes.div_ceil(2), Some(megabytes / 2))
        } else {
            (megabytes, None)
        }
    }

    /// Whether tables of `megabytes` MiB could be allocated now, found without making
    /// them (quick even for gigabytes): for refusing a size before anything is read.
    pub fn can_allocate(megabytes: usize) -> Result<(), TableError> {
        let error = TableError {
            requested_mb: megabytes,
            kept_mb: None,
        };
        let (midgame_mb, solver_mb) = Self::shares(megabytes.max(1));
        let mut sizes = vec![Table::<G::Move>::bytes(midgame_mb).ok_or(error)?];
        if let Some(solver_mb) = solver_mb {
            sizes.extend(endgame::Solver::bytes(solver_mb).ok_or(error)?);
        }
        memory::can_allocate(&sizes).map_err(|OutOfMemory| error)
    }

    /// Tables of `megabytes` MiB in all, replacing none (the caller dropped the old ones).
    fn build_tables(&mut self, megabytes: usize) -> Result<(), OutOfMemory> {
        let (midgame_mb, solver_mb) = Self::shares(megabytes);
        let table = Table::new(midgame_mb)?;
        let solver = match solver_mb {
            Some(solver_mb) => Some(endgame::Solver::new(solver_mb)?),
            None => None,
        };
        (self.table, self.solver) = (Some(table), solver);
        (self.table_mb, self.hash_mb) = (megabytes, megabytes);
        Ok(())
    }

    /// The tables a search needs: those of the configured size, else those kept, else
    /// the smallest ones (a search must not fail for want of a table).
    fn ensure_tables(&mut self) {
        if let Err(error) = self.allocate_tables() {
            log::error!("{error}");
        }
        if self.table.is_none() {
            self.set_hash_mb(1);
            if self.allocate_tables().is_err() {
                // Not even 1 MiB: out of memory like any other allocation that fails.
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[u8; 1 << 20]>());
            }
        }
    }

    /// Number of search threads (1 = single-threaded), used up to the number of CPU
    /// cores (more only slow the search down): by the midgame search's iterations from
    /// depth 6 and by the Othello endgame solver from 18 empties.
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

    /// Switches the selective search (Multi-ProbCut) on or off; on by default. Off, a
    /// fixed-depth search is a full-width alpha-beta search.
    pub fn set_selectivity(&mut self, selective: bool) {
        self.selective = selective;
    }

    /// Which move-ordering rules to apply (all by default; for measurements).
    pub fn set_ordering(&mut self, rules: OrderingRules) {
        self.rules = rules;
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
        let observer = Iterations(RefCell::new(report));
        self.search_focused(pos, limits, stop, &Focus::default(), &observer)
    }

    /// Searches `pos` as [`Searcher::search`] does, on the root moves and for the lines
    /// `focus` asks, telling `observer` what it finds as it goes: each completed iteration,
    /// root moves' values inside an iteration, and its progress every
    /// [`PROGRESS_NODES`] nodes. The report is the best move's (a win/loss/draw solve's
    /// score is its bound: +2, 0 or -2 discs).
    pub fn search_focused(
        &mut self,
        pos: &G,
        limits: &Limits,
        stop: &AtomicBool,
        focus: &Focus<G::Move>,
        observer: &dyn Observer<G::Move>,
    ) -> SearchReport<G::Move> {
        let start = Instant::now();
        let legal = pos.legal_moves();
        let legal = legal.as_ref();
        if legal.is_empty() {
            return SearchReport {
                best_move: None,
                score: pos.final_score(),
                depth: 0,
                confidence: Confidence::Exact,
                pv: Vec::new(),
                nodes: 0,
                elapsed: start.elapsed(),
            };
        }
        let mut moves: Vec<G::Move> = legal
            .iter()
            .copied()
            .filter(|mv| {
                focus
                    .moves
                    .as_ref()
                    .is_none_or(|wanted| wanted.contains(mv))
            })
            .collect();
        if moves.is_empty() {
            moves = legal.to_vec();
        }
        let plan = self.plan(pos, legal, limits, focus, start);
        self.ensure_tables();
        let variety = self
            .variety
            .filter(|_| plan.lines == 1 && focus.moves.is_none());
        let table = self.table.as_mut().expect("allocated above");
        table.new_search();
        let table = &*table;
        if let Some(solver) = &mut self.solver {
            solver.new_search();
        }
        // Declared before the run, whose watch borrows its flag and its pulse.
        let shared = helpers::Shared::new(plan.threads - 1);
        let pulse = |nodes| observer.progress(nodes, start.elapsed());
        let mut run = Run {
            evaluator: &*self.evaluator,
            table,
            rules: self.rules,
            watch: Watch::new(
                stop,
                plan.budget.hard.map(|hard| start + hard),
                limits.nodes.unwrap_or(u64::MAX).max(1),
            ),
            evals: 0,
            selective: self.selective,
            end_selectivity: None,
            solver: self.solver.as_ref(),
            threads: plan.threads,
            busy: None,
            killers: vec![[None; 2]; ordering::KILLER_PLIES],
            history: vec![0; crate::game::HISTORY_SLOTS],
            spare_keyed: Vec::new(),
            lines: Some(LineSink::new(observer, start)),
        };
        run.watch.pulse = Some(Pulse::new(&pulse));
        let mut ordered = run.order(pos, &moves, None, 4, 0);
        let mut best = SearchReport {
            best_move: Some(ordered[0]),
            score: 0,
            depth: 0,
            confidence: Confidence::Heuristic,
            pv: vec![ordered[0]],
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        iterate(
            &mut run,
            &plan,
            pos,
            &mut ordered,
            &mut best,
            &shared,
            &self.busy,
        );
        if let Some(variety) = variety
            && best.depth >= 1
            && moves.len() > 1
            && !run.watch.aborted
        {
            choose_variety(&mut run, pos, &mut best, &ordered, variety);
        }
        best.nodes = run.watch.nodes;
        best.elapsed = start.elapsed();
        best.shown()
    }

    /// How a search of `pos` (with the `legal` moves) within `limits` goes.
    fn plan(
        &self,
        pos: &G,
        legal: &[G::Move],
        limits: &Limits,
        focus: &Focus<G::Move>,
        start: Instant,
    ) -> Plan {
        let empties = pos.empties();
        // The depth of a solve: every empty square, and one ply more for a pass at the
        // root, which fills none (below the root the solver plays passes itself).
        let root_pass = legal.len() == 1 && pos.play(legal[0]).empties() == empties;
        let solve_depth = empties.map(|empties| empties + u32::from(root_pass));
        let timed = limits.movetime.is_some() || limits.clock.is_some();
        // A forced move on the clock needs no choice, only a true score at little cost:
        // exact where the solve is quick, else a short search, in a part of the time.
        let forced = legal.len() == 1 && timed;
        // More threads than cores only slow a search down.
        let threads = self
            .threads
            .min(std::thread::available_parallelism().map_or(1, usize::from));
        let mut budget = time::budget(
            limits,
            empties.map(|empties| time::Othello { empties, threads }),
        );
        if forced {
            budget = time::Budget {
                soft: budget.soft.map(|soft| soft / FORCED_MOVE_TIME_SHARE),
                hard: budget.hard.map(|hard| hard / FORCED_MOVE_TIME_SHARE),
                spend_all: true,
            };
        }
        let max_depth = match solve_depth {
            Some(depth) if forced && depth <= FORCED_MOVE_SOLVE_DEPTH => depth,
            _ if forced => FORCED_MOVE_DEPTH,
            _ => limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH),
        };
        // Where solves may start: a level's endgame, else where the depth reaches the end.
        let reach = match limits.endgame {
            Some(endgame) if !forced => endgame,
            _ => Endgame {
                exact: max_depth,
                win_loss_draw: max_depth,
            },
        };
        Plan {
            start,
            empties,
            solve_depth,
            max_depth,
            reach,
            selective: self.selective,
            threads,
            budget,
            lines: focus.lines.max(1),
            scores_only: focus.scores_only,
        }
    }
}

/// How one search goes, fixed when it starts.
struct Plan {
    start: Instant,
    empties: Option<u32>,
    /// The depth of a solve: the empties, one more for a pass at the root.
    solve_depth: Option<u32>,
    max_depth: u32,
    /// Where the solves may start.
    reach: Endgame,
    selective: bool,
    threads: usize,
    budget: time::Budget,
    /// How many root moves get their exact value (multi-PV); 1: the best only.
    lines: usize,
    /// No win/loss/draw solve: every value found is a score.
    scores_only: bool,
}

impl Plan {
    /// The iteration after `previous` (`None`: the first), or `None` to stop.
    /// `last`: the time of the iteration `previous`.
    fn next_step(&self, previous: Option<Step>, last: Duration) -> Option<Step> {
        match (previous, self.empties) {
            (None, _) => Some(Step::Midgame(1)),
            (Some(previous), Some(empties)) => othello_next_step(previous, empties, self, last),
            (Some(Step::Midgame(depth)), None) => Some(Step::Midgame(depth + 1)),
            (Some(_), None) => None,
        }
    }
}

/// The iterations of one search, from the first to the last the plan and the limits
/// allow, each one's result in `best` and reported to the run's observer.
fn iterate<'run, G: Game>(
    run: &mut Run<'run, G>,
    plan: &Plan,
    pos: &'run G,
    ordered: &mut [G::Move],
    best: &mut SearchReport<G::Move>,
    shared: &'run helpers::Shared<G::Move>,
    busy: &'run BusyMarks,
) {
    let (mut last, mut before) = (Duration::ZERO, Duration::ZERO);
    let mut step = None;
    // Midgame scores by depth: the evaluation swings between odd and even depths,
    // so the window is centred on the last score of the same parity.
    let mut midgame_scores: Vec<Score> = Vec::new();
    let deepest = plan.empties.map_or(plan.max_depth, |empties| {
        plan.max_depth.min(empties.saturating_sub(2))
    });
    std::thread::scope(|scope| {
        let mut pool = helpers::Pool::new(scope, deepest);
        loop {
            step = plan.next_step(step, last);
            let Some(mut current) = step else {
                break;
            };
            let mut depth = match current {
                Step::Midgame(depth) => depth,
                _ => plan.solve_depth.unwrap_or(plan.max_depth),
            };
            if matches!(current, Step::Midgame(_)) && depth > plan.max_depth {
                break;
            }
            if let (Step::Midgame(_), Some(_)) = (current, best.best_move)
                && depth > 1
                && !time::should_continue(&plan.budget, plan.start.elapsed(), last, before)
            {
                break;
            }
            let iteration_start = Instant::now();
            run.evals = 0;
            run.end_selectivity = match current {
                Step::Selective(level) => Some(level),
                _ => None,
            };
            let guess = match current {
                Step::Midgame(depth) if depth >= 3 => midgame_scores
                    .get(depth as usize - 3)
                    .copied()
                    .unwrap_or(best.score),
                _ => best.score,
            };
            let parallel = plan.lines == 1
                && matches!(current, Step::Midgame(depth)
                if plan.threads > 1 && depth >= PARALLEL_MIDGAME_FROM);
            if !parallel {
                // The solver runs threads of its own.
                run.watch.nodes += pool.finish(shared);
                run.busy = None;
            }
            if let Some(lines) = &mut run.lines {
                lines.begin(depth, step_confidence(current));
            }
            let outcome = if plan.lines > 1 {
                lines_iteration(run, pos, ordered, current, depth, plan.lines)
            } else if parallel {
                // Moves are put off only while other threads search beside this one.
                run.busy = Some(busy);
                let (outcome, helper_depth) =
                    helpers::iteration(&mut pool, shared, run, pos, ordered, depth, guess);
                if let Some(done) = helper_depth {
                    (current, depth) = (Step::Midgame(done), done);
                    step = Some(current);
                }
                outcome
            } else if current == Step::WinLossDraw {
                // Scores are whole discs: inside (-1, +1) is a draw, a bound outside
                // proves the win or the loss.
                run.root(pos, ordered, depth as i32, -DISC, DISC)
            } else {
                aspiration_search(run, pos, ordered, depth, guess)
            };
            if run.watch.aborted {
                // A move that proved better than the last iteration's best is kept.
                if let Some(mv) = outcome.best
                    && depth > 1
                    && Some(mv) != best.best_move
                {
                    best.best_move = Some(mv);
                    best.score = outcome.score;
                    best.pv = vec![mv];
                }
                break;
            }
            let mv = outcome.best.unwrap_or(ordered[0]);
            record(run, pos, plan, current, depth, (mv, outcome.score), best);
            if let Step::Midgame(depth) = current {
                midgame_scores.resize(depth as usize, best.score);
                midgame_scores[depth as usize - 1] = best.score;
            }
            if best.confidence == Confidence::Exact {
                break;
            }
            before = std::mem::replace(&mut last, iteration_start.elapsed());
        }
        run.watch.nodes += pool.finish(shared);
        run.busy = None;
    });
}

/// Takes the completed iteration `current` of `depth`, whose best move and score are
/// `found`, into `best` (its score as found: a win/loss/draw solve's centres the next
/// window as it is) and tells the observer (the score as shown).
fn record<G: Game>(
    run: &Run<'_, G>,
    pos: &G,
    plan: &Plan,
    current: Step,
    depth: u32,
    found: (G::Move, Score),
    best: &mut SearchReport<G::Move>,
) {
    let (mv, score) = found;
    best.best_move = Some(mv);
    best.score = score;
    best.depth = depth;
    best.pv = run.principal_variation(pos, mv, depth);
    best.confidence = match current {
        Step::Midgame(_) if run.evals == 0 => Confidence::Exact,
        _ => step_confidence(current),
    };
    best.nodes = run.watch.nodes;
    best.elapsed = plan.start.elapsed();
    log::debug!(
        "{current:?} depth {depth} score {} {:?} nodes {} time {:?}",
        best.score,
        best.confidence,
        best.nodes,
        best.elapsed
    );
    if let Some(lines) = &run.lines {
        lines.observer.iteration(&best.shown());
    }
}

/// How sure the values of an iteration of `step` are (a midgame iteration that met
/// only ended games is exact too: the caller sees that).
fn step_confidence(step: Step) -> Confidence {
    match step {
        Step::Selective(level) => {
            Confidence::Probable(probcut::confidence_percent(probcut::SELECTIVE_T[level]))
        }
        Step::WinLossDraw => Confidence::WinLossDraw,
        Step::Exact => Confidence::Exact,
        Step::Midgame(_) => Confidence::Heuristic,
    }
}

/// One iteration that scores the best `lines` root moves exactly, within the step's
/// window: the whole range, or (-1, +1) disc for the win/loss/draw solve.
fn lines_iteration<G: Game>(
    run: &mut Run<'_, G>,
    pos: &G,
    ordered: &mut [G::Move],
    step: Step,
    depth: u32,
    lines: usize,
) -> negamax::RootOutcome<G::Move> {
    let (low, high) = match step {
        Step::WinLossDraw => (-DISC, DISC),
        _ => (-INFINITY, INFINITY),
    };
    run.root_lines(pos, ordered, depth as i32, lines, low, high)
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

/// Estimated time of an exact solve with `empties` empties on `threads` threads, on the
/// high side: FFO #40-#59 (hard positions by choice) take 8 M nodes at 20 empties and
/// 0.6-2 G at 28, about 2 times more per empty, at about 15 M nodes/s on one core.
pub fn estimated_solve_time(empties: u32, threads: usize) -> Duration {
    let nodes = 1e7 * 2.1f64.powi(empties as i32 - 20);
    Duration::from_secs_f64((nodes / 15e6 / solve_speedup(threads)).min(1e6))
}

/// The time an exact solve with `empties` empties needs left before the hard limit to be
/// started (see `SOLVE_ESTIMATE_SHARE`); the clock's plan keeps it for the solve.
pub fn solve_start_time(empties: u32, threads: usize) -> Duration {
    estimated_solve_time(empties, threads).mul_f64(SOLVE_ESTIMATE_SHARE)
}

/// How many times faster than one thread a solve runs on `threads` threads (one per
/// core), as measured on FFO #40-#49 (20-26 empties; larger solves gain a little more):
/// 1.88 with two threads on the 2-core development machine; 2.7 with four, 4.3 with
/// eight and 5.4 with sixteen on a 16-core machine. Between the measured counts the
/// gain is interpolated; beyond sixteen threads none is counted.
fn solve_speedup(threads: usize) -> f64 {
    const MEASURED: [(usize, f64); 5] = [(1, 1.0), (2, 1.8), (4, 2.7), (8, 4.3), (16, 5.4)];
    let threads = threads.max(1);
    for pair in MEASURED.windows(2) {
        let ((fewer, low), (more, high)) = (pair[0], pair[1]);
        if threads <= more {
            let share = (threads - fewer) as f64 / (more - fewer) as f64;
            return low + share * (high - low);
        }
    }
    MEASURED[MEASURED.len() - 1].1
}

/// One iteration of the driver.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    /// A midgame search this deep.
    Midgame(u32),
    /// A selective solve with margin `probcut::SELECTIVE_T[level]`.
    Selective(usize),
    /// An exact solve with the window (-1, +1) disc: win, loss or draw, where the full
    /// solve does not fit in the time.
    WinLossDraw,
    /// The exact solve.
    Exact,
}

/// The part of `estimated_solve_time` a solve must fit in to be started. The estimate is
/// high on purpose (about three times the 90th percentile of positions from real games),
/// so half of it is still a safe bet; on positions at 24 empties (30 from WTHOR games,
/// every move solved) with 0.5 s a move, the chosen move lost 0.27 discs against the
/// best with this share and 0.73 with twice the estimate.
const SOLVE_ESTIMATE_SHARE: f64 = 0.5;

/// Time of a selective solve (by level) relative to the exact one (a rough guess).
const SELECTIVE_COST: [f64; 2] = [0.05, 0.1];

/// How many times the last iteration's time the next selective level is expected to take
/// (from the midgame's last iteration to level 0, and from one level to the next). The
/// estimate from the empties alone is far too high for them: at 28 empties on a 1:00
/// clock, level 0 took 0.3 s and level 1 0.8 s where it asked 6 s and 13 s, so that the
/// moves there stopped after their midgame iterations with most of their share unspent.
const SELECTIVE_GROWTH: f64 = 4.0;

/// Time of a win/loss/draw solve relative to the exact one (a rough guess: its window
/// of two discs cuts far more than the exact solve's search for the score).
const WIN_LOSS_DRAW_COST: f64 = 0.4;

/// The Othello iteration after `previous`: midgame iterations until a solve is allowed
/// (by the depth limit) and reachable in time, then the selective solves (which also
/// order the exact one's moves) and the exact solve, or the win/loss/draw solve first
/// where the exact one does not fit (never where the plan wants scores only). A
/// selective level the estimate says does not fit is still started where the last
/// iteration's time says it ends within the move's share (`SELECTIVE_GROWTH`). `None`:
/// stop. `last`: the time of the iteration `previous`.
fn othello_next_step(previous: Step, empties: u32, plan: &Plan, last: Duration) -> Option<Step> {
    let (reach, budget, start) = (plan.reach, &plan.budget, plan.start);
    let fits = |fraction: f64| {
        budget.hard.is_none_or(|hard| {
            solve_start_time(empties, plan.threads).mul_f64(fraction)
                <= hard.saturating_sub(start.elapsed())
        })
    };
    let exact_allowed = reach.exact >= empties;
    let win_loss_draw_fits = || !plan.scores_only && fits(WIN_LOSS_DRAW_COST);
    let solve_from = |level: usize| {
        if !exact_allowed {
            // Only the win/loss/draw solve is within the level's reach.
            (level == 0 && win_loss_draw_fits()).then_some(Step::WinLossDraw)
        } else if plan.selective && level < SELECTIVE_COST.len() && fits(SELECTIVE_COST[level]) {
            Some(Step::Selective(level))
        } else if fits(1.0) {
            Some(Step::Exact)
        } else if win_loss_draw_fits() {
            Some(Step::WinLossDraw)
        } else {
            None
        }
    };
    // The selective level `level`, where the time of the last iteration says it ends
    // within the move's time.
    let measured_selective = |level: usize| {
        (exact_allowed
            && plan.selective
            && level < SELECTIVE_COST.len()
            && time::next_fits(budget, start.elapsed(), last.mul_f64(SELECTIVE_GROWTH)))
        .then_some(Step::Selective(level))
    };
    match previous {
        Step::Midgame(depth) => {
            let solvable = reach.win_loss_draw.max(reach.exact) >= empties
                && depth >= pre_solve_depth(empties);
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
        Step::Selective(level) => solve_from(level + 1)
            .or_else(|| measured_selective(level + 1))
            .or_else(|| {
                budget
                    .spend_all
                    .then_some(if level + 1 < SELECTIVE_COST.len() {
                        Step::Selective(level + 1)
                    } else {
                        Step::Exact
                    })
            }),
        Step::WinLossDraw => {
            (exact_allowed && (fits(1.0) || budget.spend_all)).then_some(Step::Exact)
        }
        Step::Exact => None,
    }
}

/// Midgame iterations of at least this depth are searched with helper threads; shallower
/// ones end before the helpers would have started.
const PARALLEL_MIDGAME_FROM: u32 = 6;

/// One iteration: a window around the last score, widened until the score falls inside.
fn aspiration_search<G: Game>(
    run: &mut Run<'_, G>,
    pos: &G,
    ordered: &mut [G::Move],
    depth: u32,
    guess: Score,
) -> negamax::RootOutcome<G::Move> {
    let depth = depth as i32;
    let mut delta = ASPIRATION;
    let (mut alpha, mut beta) = if depth >= 3 {
        (guess - delta, guess + delta)
    } else {
        (-INFINITY, INFINITY)
    };
    loop {
        let outcome = run.root(pos, ordered, depth, alpha, beta);
        log::trace!(
            "depth {depth} window ({alpha}, {beta}) score {} nodes {}",
            outcome.score,
            run.watch.nodes
        );
        if run.watch.aborted {
            return outcome;
        }
        if outcome.score <= alpha && alpha > -INFINITY {
            alpha = (outcome.score - delta).max(-INFINITY);
        } else if outcome.score >= beta && beta < INFINITY {
            beta = (outcome.score + delta).min(INFINITY);
        } else {
            return outcome;
        }
        delta = delta.saturating_mul(2);
        if delta > 8 * ASPIRATION {
            (alpha, beta) = (-INFINITY, INFINITY);
        }
    }
}

/// Replaces the best move by a seeded random choice among the moves that score within
/// the tolerance of it at the last completed depth (each checked by a null-window search).
fn choose_variety<G: Game>(
    run: &mut Run<'_, G>,
    pos: &G,
    best: &mut SearchReport<G::Move>,
    ordered: &[G::Move],
    variety: Variety,
) {
    let Some(best_move) = best.best_move else {
        return;
    };
    let threshold = best.score - variety.tolerance.max(0);
    let mut candidates = vec![(best_move, best.score)];
    for &mv in ordered.iter().filter(|&&mv| mv != best_move) {
        let score = -run.pvs(
            &pos.play(mv),
            best.depth as i32 - 1,
            -threshold,
            -threshold + 1,
            1,
            None,
        );
        if run.watch.aborted {
            break;
        }
        if score >= threshold {
            candidates.push((mv, score));
        }
    }
    let pick = crate::game::mix64(variety.seed ^ pos.hash());
    let (mv, score) = candidates[(pick % candidates.len() as u64) as usize];
    if mv != best_move {
        best.best_move = Some(mv);
        best.score = score.min(best.score);
        best.pv = vec![mv];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    ) -> Plan {
        Plan {
            start: Instant::now(),
            empties: None,
            solve_depth: None,
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
        othello_next_step(previous, empties, &plan(60, FULL, true, 1, budget), last)
    }

    fn budget(hard: Duration) -> time::Budget {
        time::Budget {
            soft: Some(hard / 2),
            hard: Some(hard),
            spend_all: false,
        }
    }

    fn budget_ms(soft: u64, hard: u64, spend_all: bool) -> time::Budget {
        time::Budget {
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
            spend_all,
        }
    }

    #[test]
    fn the_exact_solve_comes_when_it_fits_in_the_time() {
        let empties = 24;
        let plenty = estimated_solve_time(empties, 1) * 3;
        let step = next_step(Step::Selective(2), empties, &budget(plenty), Duration::ZERO);
        assert_eq!(step, Some(Step::Exact));
    }

    #[test]
    fn two_threads_start_the_exact_solve_with_less_time() {
        let empties = 24;
        // Room for the exact solve on two threads (half their estimate) but not on one.
        let time = estimated_solve_time(empties, 1).mul_f64(0.4);
        assert!(estimated_solve_time(empties, 2).mul_f64(0.5) < time);
        let next = |threads| {
            othello_next_step(
                Step::Selective(1),
                empties,
                &plan(60, FULL, true, threads, &budget(time)),
                Duration::ZERO,
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
        let step = next_step(Step::Selective(2), empties, &budget(some), Duration::ZERO);
        assert_eq!(step, Some(Step::WinLossDraw));
        let after = next_step(Step::WinLossDraw, empties, &budget(some), Duration::ZERO);
        assert_eq!(after, None);
        let none = next_step(
            Step::Selective(2),
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
        assert_eq!(after(Step::Selective(0)), Some(Step::Selective(1)));
        assert_eq!(after(Step::Selective(2)), Some(Step::Exact));
        // On a clock, time saved is kept for later moves.
        let clock = time::Budget {
            spend_all: false,
            ..movetime
        };
        let step = next_step(
            Step::Selective(0),
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
        assert!(solve_start_time(empties, 1).mul_f64(SELECTIVE_COST[0]) > clock.hard.unwrap());
        let after = |step, last| next_step(step, empties, &clock, Duration::from_millis(last));
        assert_eq!(after(Step::Midgame(26), 70), Some(Step::Midgame(27)));
        assert_eq!(after(Step::Midgame(27), 70), Some(Step::Selective(0)));
        assert_eq!(after(Step::Selective(0), 300), Some(Step::Selective(1)));
        // The exact solve still needs its estimate.
        assert_eq!(after(Step::Selective(1), 800), None);
        // A level expected to end past twice the share is not started.
        assert_eq!(after(Step::Midgame(27), 2000), None);
        assert_eq!(after(Step::Selective(0), 2000), None);
        // Without the selective solves, nothing follows the midgame.
        let plain = othello_next_step(
            Step::Midgame(27),
            empties,
            &plan(60, FULL, false, 1, &clock),
            Duration::from_millis(70),
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
            othello_next_step(
                previous,
                empties,
                &plan(8, level, true, 1, &unlimited),
                Duration::ZERO,
            )
        };
        // 16 empties: the selective solves lead to the exact one, from depth 6.
        assert_eq!(next(Step::Midgame(6), 16), Some(Step::Selective(0)));
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
        let scores_only = Plan {
            scores_only: true,
            ..plan(8, level, true, 1, &unlimited)
        };
        // 18 empties, in the level's win/loss/draw window: the midgame depth and no more.
        assert_eq!(
            othello_next_step(Step::Midgame(7), 18, &scores_only, Duration::ZERO),
            Some(Step::Midgame(8))
        );
        assert_eq!(
            othello_next_step(Step::Midgame(8), 18, &scores_only, Duration::ZERO),
            None
        );
        // Where the exact solve does not fit in the time, no win/loss/draw solve instead.
        let some = estimated_solve_time(24, 1).mul_f64(0.3);
        let timed = Plan {
            scores_only: true,
            ..plan(60, FULL, true, 1, &budget(some))
        };
        assert_eq!(
            othello_next_step(Step::Selective(2), 24, &timed, Duration::ZERO),
            None
        );
    }

    #[test]
    fn beyond_30_empties_the_midgame_goes_deeper_before_a_solve() {
        let unlimited = time::Budget::default();
        assert_eq!(
            next_step(Step::Midgame(12), 30, &unlimited, Duration::ZERO),
            Some(Step::Selective(0))
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

    #[test]
    fn without_a_deadline_the_solve_is_exact() {
        let unlimited = time::Budget {
            soft: None,
            hard: None,
            spend_all: false,
        };
        let step = next_step(Step::Selective(2), 30, &unlimited, Duration::ZERO);
        assert_eq!(step, Some(Step::Exact));
    }
}
