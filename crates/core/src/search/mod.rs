//! The search: iterative-deepening alpha-beta over any [`Game`](crate::game::Game), stopped by limits or a
//! flag, reporting progress as values (the protocol layer formats them).
//!
//! Public API used by the engine controller and the protocols:
//! [`Limits`], [`SearchReport`], [`Confidence`], [`Searcher`].
//!
//! The driver here runs iterative deepening with aspiration windows around the midgame
//! search (`negamax`), which orders moves (`ordering`), keeps results in a transposition
//! table (`tt`) and prunes probable cuts (`probcut`). Which iterations come, how a clock
//! is shared out, which cuts are tried and where a node is solved instead is the plan
//! the game names (`plan`): Othello's, with its endgame solver, lives with Othello.
//! `time` turns limits into deadlines. With several threads, helper threads search each
//! midgame iteration beside the driver's (`helpers`); tables shared between threads are
//! made of `slot`s, and the threads share out the moves (`busy`). An iteration of
//! several lines shares out its root moves among the threads instead (`lines`).

mod busy;
mod helpers;
mod lines;
mod memory;
mod negamax;
mod ordering;
pub mod plan;
pub mod probcut;
mod slot;
pub mod time;
mod tt;

use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::game::{Evaluator, INFINITY, Score, mix64};

use busy::BusyMarks;
pub use memory::{OutOfMemory, available_mb as memory_available_mb};
pub use negamax::Watch;
use negamax::{EXACT_TABLE_LEVEL, LineSink, Pulse, Run};
pub use ordering::OrderingRules;
use plan::{Course, PlanTables, Step, Tables};
pub use plan::{Plan, Searchable};
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

/// The report as it is shown: a win/loss/draw solve's score is its bound (as the game's
/// plan gives it), other scores as found.
fn shown<G: Searchable>(report: &SearchReport<G::Move>) -> SearchReport<G::Move> {
    let mut shown = report.clone();
    if shown.confidence == Confidence::WinLossDraw {
        shown.score = G::Plan::win_loss_draw_bound(shown.score);
    }
    shown
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
    /// The search is alive: its nodes so far (with helper threads, theirs too, as they
    /// go), the time since it began.
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

/// The tables of a search that may run for minutes or more (an analysis beyond the
/// solver's reach, [`plan::Plan::lasts_long`]) where no size was set: a quarter of the memory
/// available, at most this. At 38 empties on two threads, `hint 4` with 1024 MiB
/// reached 83% in 144 s where 64 MiB reached 80% in 146 s (docs/experiments.md).
pub const LONG_SEARCH_HASH_MB: usize = 1024;

/// The deepest iteration when no depth limit is given.
const MAX_DEPTH: u32 = 64;

/// A forced move on the clock that its plan does not solve ([`Plan::forced_move_solve_depth`])
/// is searched this deep, in this part of the time a move would get.
const FORCED_MOVE_DEPTH: u32 = 8;
const FORCED_MOVE_TIME_SHARE: u32 = 4;

/// Half-width of the first aspiration window (half a unit of a hundred: an Othello disc,
/// a Mill stone); doubled on each failure.
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
pub struct Searcher<G: Searchable> {
    evaluator: Box<dyn Evaluator<G>>,
    /// Allocated at the first search (or by [`Searcher::allocate_tables`]).
    table: Option<Table<G::Move>>,
    table_mb: usize,
    /// The plan's own tables (Othello's endgame solver's), allocated with the table.
    plan_tables: Option<PlanTables<G>>,
    hash_mb: usize,
    /// Whether the size was set ([`Searcher::set_hash_mb`]); if not, a long search
    /// grows the tables.
    hash_set: bool,
    threads: usize,
    variety: Option<Variety>,
    rules: OrderingRules,
    selective: bool,
    /// What the threads of a midgame iteration are searching now.
    busy: BusyMarks,
}

/// How close to the end of the game (in Othello: how many empties) a game may be for
/// the search to solve it, apart from the midgame depth (a level's endgame:
/// `options::level`). A plan without solves has no use for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endgame {
    /// The exact solve, at this many empties or fewer.
    pub exact: u32,
    /// The win/loss/draw solve, at this many empties or fewer (at least `exact`).
    pub win_loss_draw: u32,
}

impl<G: Searchable> Searcher<G> {
    pub fn new(evaluator: Box<dyn Evaluator<G>>) -> Self {
        Searcher {
            evaluator,
            table: None,
            table_mb: 0,
            plan_tables: None,
            hash_mb: DEFAULT_HASH_MB,
            hash_set: false,
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
        if let Some(tables) = &mut self.plan_tables {
            tables.clear();
        }
    }

    /// Sets the transposition table size in MiB, allocated by the next
    /// [`Searcher::allocate_tables`] (or search).
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.hash_set = true;
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
        (self.table, self.plan_tables) = (None, None);
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

    /// How `megabytes` MiB are shared: the midgame table's part and the part of the
    /// plan's tables (half, where they take a share).
    fn shares(megabytes: usize) -> (usize, usize) {
        if PlanTables::<G>::SIZED {
            (megabytes.div_ceil(2), megabytes / 2)
        } else {
            (megabytes, 0)
        }
    }

    /// Whether tables of `megabytes` MiB could be allocated now, found without making
    /// them (quick even for gigabytes): for refusing a size before anything is read.
    pub fn can_allocate(megabytes: usize) -> Result<(), TableError> {
        let error = TableError {
            requested_mb: megabytes,
            kept_mb: None,
        };
        let (midgame_mb, plan_mb) = Self::shares(megabytes.max(1));
        let mut sizes = vec![Table::<G::Move>::bytes(midgame_mb).ok_or(error)?];
        sizes.extend(PlanTables::<G>::bytes(plan_mb).ok_or(error)?);
        memory::can_allocate(&sizes).map_err(|OutOfMemory| error)
    }

    /// Tables of `megabytes` MiB in all, replacing none (the caller dropped the old ones).
    fn build_tables(&mut self, megabytes: usize) -> Result<(), OutOfMemory> {
        let (midgame_mb, plan_mb) = Self::shares(megabytes);
        let table = Table::new(midgame_mb)?;
        let plan_tables = PlanTables::<G>::new(plan_mb)?;
        (self.table, self.plan_tables) = (Some(table), Some(plan_tables));
        (self.table_mb, self.hash_mb) = (megabytes, megabytes);
        Ok(())
    }

    /// Where no size was set, asks for [`LONG_SEARCH_HASH_MB`] (or a quarter of the
    /// memory available, if less) for the tables from now on: what a long analysis
    /// stores outgrows the default many times over, and a game's moves lose nothing by
    /// the larger tables. Logged (info), once.
    fn grow_for_long_search(&mut self) {
        let size = memory::available_mb().map_or(LONG_SEARCH_HASH_MB, |available| {
            LONG_SEARCH_HASH_MB.min(available / 4)
        });
        if self.hash_set || size <= self.hash_mb || Self::can_allocate(size).is_err() {
            return;
        }
        log::info!("a long search: hash tables of {size} MB from now on (--hash sets a size)");
        self.hash_mb = size;
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
    /// depth 6 and by the plan's solver (Othello's from 18 empties).
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

    pub fn variety(&self) -> Option<Variety> {
        self.variety
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
        let (course, plan) = self.course(pos, legal, limits, focus, start);
        let open_ended = course.budget.hard.is_none() && limits.nodes.is_none();
        if open_ended && plan.lasts_long(&course) {
            self.grow_for_long_search();
        }
        self.ensure_tables();
        let variety = self
            .variety
            .filter(|_| course.lines == 1 && focus.moves.is_none());
        let table = self.table.as_mut().expect("allocated above");
        table.new_search();
        let table = &*table;
        if let Some(tables) = &mut self.plan_tables {
            tables.new_search();
        }
        // Declared before the run, whose watch borrows its flag and its pulse.
        let shared = helpers::Shared::new(course.threads - 1);
        let pulse = |nodes| observer.progress(nodes, start.elapsed());
        let mut run = Run {
            evaluator: &*self.evaluator,
            table,
            rules: self.rules,
            watch: Watch::new(
                stop,
                course.budget.hard.map(|hard| start + hard),
                limits.nodes.unwrap_or(u64::MAX).max(1),
            ),
            evals: 0,
            selective: self.selective,
            end_selectivity: None,
            solve_in_midgame: false,
            plan_tables: self.plan_tables.as_ref(),
            threads: course.threads,
            busy: None,
            killers: vec![[None; 2]; ordering::KILLER_PLIES],
            history: vec![0; crate::game::HISTORY_SLOTS],
            spare_keyed: Vec::new(),
            lines: Some(LineSink::new(observer, start)),
            holds_to: EXACT_TABLE_LEVEL,
        };
        run.watch.pulse = Some(Pulse::new(&pulse));
        // Nothing can change where an earlier solve proved the root's value: its move
        // is played at once.
        if course.lines == 1
            && focus.moves.is_none()
            && plan.may_solve(&course)
            && let Some(found) = G::Plan::proven(plan::SearchView::of(&run), pos)
        {
            return proven_report(&run, pos, (&course, &plan), found);
        }
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
            (&course, &plan),
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
        shown::<G>(&best)
    }

    /// How a search of `pos` (with the `legal` moves) within `limits` goes: its course
    /// and the game's plan for it.
    fn course(
        &self,
        pos: &G,
        legal: &[G::Move],
        limits: &Limits,
        focus: &Focus<G::Move>,
        start: Instant,
    ) -> (Course, G::Plan) {
        let plan = G::Plan::new(pos, legal);
        let timed = limits.movetime.is_some() || limits.clock.is_some();
        // A forced move on the clock needs no choice, only a true score at little cost:
        // exact where the solve is quick, else a short search, in a part of the time.
        let forced = legal.len() == 1 && timed;
        // More threads than cores only slow a search down.
        let threads = self
            .threads
            .min(std::thread::available_parallelism().map_or(1, usize::from));
        let mut budget = time::budget(limits, plan.moves_left(), |usable| {
            plan.schedule(usable, threads)
        });
        if forced {
            budget = time::Budget {
                soft: budget.soft.map(|soft| soft / FORCED_MOVE_TIME_SHARE),
                hard: budget.hard.map(|hard| hard / FORCED_MOVE_TIME_SHARE),
                spend_all: true,
                may_save: false,
                unsettled: None,
            };
        }
        let max_depth = match plan.forced_move_solve_depth() {
            Some(depth) if forced => depth,
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
        let course = Course {
            start,
            max_depth,
            reach,
            selective: self.selective,
            threads,
            budget,
            lines: focus.lines.max(1),
            scores_only: focus.scores_only,
        };
        (course, plan)
    }
}

/// The answer of a search whose root's exact value `found` (a move that keeps it and
/// the value) an earlier solve left in the tables: nothing can change, so it is given
/// at once, as the completed exact solve, with its whole line.
fn proven_report<G: Searchable>(
    run: &Run<'_, G>,
    pos: &G,
    (course, plan): (&Course, &G::Plan),
    found: (G::Move, Score),
) -> SearchReport<G::Move> {
    let (mv, score) = found;
    let depth = plan.solve_depth().unwrap_or(course.max_depth);
    let report = SearchReport {
        best_move: Some(mv),
        score,
        depth,
        confidence: Confidence::Exact,
        pv: run.line(pos, mv, depth, score, Confidence::Exact),
        nodes: 0,
        elapsed: course.start.elapsed(),
    };
    log::debug!("proven before: {mv:?} score {score}");
    if let Some(lines) = &run.lines {
        lines.observer.iteration(&report);
    }
    report
}

/// What the completed iterations of a search tell the next ones.
struct Past<M> {
    /// The time the last iteration took, and the one before it.
    last: Duration,
    before: Duration,
    /// Completed iterations in a row whose best move was the one before's.
    stable: u32,
    /// Midgame scores by depth: the evaluation swings between odd and even depths,
    /// so the window is centred on the last score of the same parity.
    midgame_scores: Vec<Score>,
    /// The values of the best lines of the last iteration (several lines wanted).
    line_values: Vec<(M, Score)>,
    /// The values the last iteration found one level ahead, at that level.
    ahead: Option<(Step, Vec<(M, Score)>)>,
}

impl<M> Past<M> {
    fn new() -> Past<M> {
        Past {
            last: Duration::ZERO,
            before: Duration::ZERO,
            stable: 0,
            midgame_scores: Vec::new(),
            line_values: Vec::new(),
            ahead: None,
        }
    }

    /// The score the aspiration window of `step` is centred on.
    fn guess(&self, step: Step, best_score: Score) -> Score {
        match step {
            Step::Midgame(depth) if depth >= 3 => self
                .midgame_scores
                .get(depth as usize - 3)
                .copied()
                .unwrap_or(best_score),
            _ => best_score,
        }
    }
}

/// The iterations of one search, from the first to the last the plan and the limits
/// allow, each one's result in `best` and reported to the run's observer.
fn iterate<'run, G: Searchable>(
    run: &mut Run<'run, G>,
    (course, plan): (&Course, &G::Plan),
    pos: &'run G,
    ordered: &mut [G::Move],
    best: &mut SearchReport<G::Move>,
    shared: &'run helpers::Shared<G::Move>,
    busy: &'run BusyMarks,
) {
    let mut past = Past::new();
    let mut step = None;
    let deepest = plan.deepest_midgame(course.max_depth);
    std::thread::scope(|scope| {
        let latest = time::latest_limit(&course.budget).map(|limit| course.start + limit);
        let mut pool = helpers::Pool::new(scope, deepest, latest);
        loop {
            // Step 1. The next iteration, where the plan, the depth and the time allow one.
            step = match step {
                None => Some(Step::Midgame(1)),
                Some(previous) => plan.next_step(previous, course, past.last, best.score),
            };
            let Some(mut current) = step else {
                break;
            };
            let mut depth = match current {
                Step::Midgame(depth) => depth,
                _ => plan.solve_depth().unwrap_or(course.max_depth),
            };
            if !worth_starting(course, current, depth, best.best_move.is_some(), &past) {
                break;
            }
            // Step 2. The run set for it: its deadline and how its solves go.
            let iteration_start = Instant::now();
            let search_depth = begin_iteration(run, (course, plan), current, depth, best, &past);
            // Step 3. The search: several lines, beside helper threads, a win/loss/draw
            // solve or an aspiration search.
            let parallel = course.lines == 1
                && matches!(current, Step::Midgame(depth)
                if course.threads > 1 && depth >= PARALLEL_MIDGAME_FROM);
            if !parallel {
                // The solver runs threads of its own.
                run.watch.nodes += pool.finish(shared);
                run.busy = None;
            }
            let guess = past.guess(current, best.score);
            let outcome = if course.lines > 1 {
                let step = (current, search_depth);
                let lines = (course.lines, course.threads);
                let mut ahead = lines::Ahead {
                    level: level_ahead::<G>((course, plan), current, &past, best.score),
                    values: match past.ahead.take() {
                        Some((step, values)) if step == current => values,
                        _ => Vec::new(),
                    },
                };
                let values = (&mut past.line_values, &mut ahead);
                let outcome = lines_iteration(run, pos, ordered, step, lines, values);
                past.ahead = ahead
                    .level
                    .map(|level| (Step::Selective(level), ahead.values));
                outcome
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
                let window = G::Plan::WIN_LOSS_DRAW_WINDOW;
                run.root(pos, ordered, search_depth as i32, -window, window)
            } else {
                aspiration_search(run, pos, ordered, search_depth, guess)
            };
            // Step 4. Stopped: a move that proved better than the last iteration's best
            // is kept.
            if run.watch.aborted {
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
            // Step 5. The completed iteration recorded, until one is exact.
            let mv = outcome.best.unwrap_or(ordered[0]);
            past.stable = if Some(mv) == best.best_move {
                past.stable + 1
            } else {
                0
            };
            record(run, pos, course, current, depth, (mv, outcome.score), best);
            if let Step::Midgame(depth) = current {
                past.midgame_scores.resize(depth as usize, best.score);
                past.midgame_scores[depth as usize - 1] = best.score;
            }
            if best.confidence == Confidence::Exact {
                break;
            }
            past.before = std::mem::replace(&mut past.last, iteration_start.elapsed());
        }
        run.watch.nodes += pool.finish(shared);
        run.busy = None;
    });
}

/// The values of an iteration's lines, by move.
type LineValues<M> = Vec<(M, Score)>;

/// The selective level after `step`'s where the lines' threads may search ahead: a
/// selective step's in an analysis without a deadline, whose ladder goes on to the
/// next level whatever this one finds (`score`: the last iteration's).
fn level_ahead<G: Searchable>(
    (course, plan): (&Course, &G::Plan),
    step: Step,
    past: &Past<G::Move>,
    score: Score,
) -> Option<usize> {
    if course.budget.hard.is_some() || !matches!(step, Step::Selective(_)) {
        return None;
    }
    match plan.next_step(step, course, past.last, score) {
        Some(Step::Selective(level)) => Some(level),
        _ => None,
    }
}

/// Whether the iteration `step` of `depth` may start: a midgame one no deeper than the
/// course's depth and, once a move is found (`found`) past depth 1, where the time left
/// is likely to see it through.
fn worth_starting<M>(course: &Course, step: Step, depth: u32, found: bool, past: &Past<M>) -> bool {
    let Step::Midgame(_) = step else {
        return true;
    };
    if depth > course.max_depth {
        return false;
    }
    !found
        || depth <= 1
        || time::should_continue(
            &course.budget,
            course.start.elapsed(),
            (past.last, past.before),
            past.stable,
        )
}

/// Sets `run` for the iteration `step` of `depth`: its deadline, the level of its
/// solves and whether they are searched in the midgame, the lines it reports; the
/// depth it is searched to.
fn begin_iteration<G: Searchable>(
    run: &mut Run<'_, G>,
    (course, plan): (&Course, &G::Plan),
    step: Step,
    depth: u32,
    best: &SearchReport<G::Move>,
    past: &Past<G::Move>,
) -> u32 {
    // The driver's deadline: later for a move still unsettled on a clock.
    run.watch.deadline =
        time::hard_limit(&course.budget, past.stable).map(|limit| course.start + limit);
    run.evals = 0;
    run.end_selectivity = match step {
        Step::Selective(level) => Some(level),
        _ => None,
    };
    run.solve_in_midgame = !matches!(step, Step::Midgame(_)) && plan.solves_in_midgame(best.score);
    if let Some(lines) = &mut run.lines {
        lines.begin(depth, step_confidence::<G>(step));
    }
    // A solve searched in the midgame goes to the end whatever passes it meets.
    if run.solve_in_midgame {
        MAX_DEPTH
    } else {
        depth
    }
}

/// Takes the completed iteration `current` of `depth`, whose best move and score are
/// `found`, into `best` (its score as found: a win/loss/draw solve's centres the next
/// window as it is) and tells the observer (the score as shown).
fn record<G: Searchable>(
    run: &Run<'_, G>,
    pos: &G,
    course: &Course,
    current: Step,
    depth: u32,
    found: (G::Move, Score),
    best: &mut SearchReport<G::Move>,
) {
    let (mv, score) = found;
    best.best_move = Some(mv);
    best.score = score;
    best.depth = depth;
    best.confidence = match current {
        Step::Midgame(_) if run.evals == 0 => Confidence::Exact,
        _ => step_confidence::<G>(current),
    };
    best.pv = run.line(pos, mv, depth, score, best.confidence);
    best.nodes = run.watch.nodes;
    best.elapsed = course.start.elapsed();
    log::debug!(
        "{current:?} depth {depth} score {} {:?} nodes {} time {:?}",
        best.score,
        best.confidence,
        best.nodes,
        best.elapsed
    );
    if let Some(lines) = &run.lines {
        lines.observer.iteration(&shown::<G>(best));
    }
}

/// How sure the values of an iteration of `step` are (a midgame iteration that met
/// only ended games is exact too: the caller sees that).
fn step_confidence<G: Searchable>(step: Step) -> Confidence {
    match step {
        Step::Selective(level) => Confidence::Probable(G::Plan::selective_confidence(level)),
        Step::WinLossDraw => Confidence::WinLossDraw,
        Step::Exact => Confidence::Exact,
        Step::Midgame(_) => Confidence::Heuristic,
    }
}

/// One iteration that scores the best `lines` root moves exactly, within the step's
/// window: the whole range, or the plan's window around a draw for the win/loss/draw
/// solve. `values`: the best lines' values of the last iteration, and then of this one;
/// a solve searches each of them in a window around its last value (a solve's values
/// are close to the last iteration's, where a midgame depth's swing with its parity: at
/// 38 empties, the second move's search of the first selective level took 1.6 G nodes
/// with the whole window).
fn lines_iteration<G: Searchable>(
    run: &mut Run<'_, G>,
    pos: &G,
    ordered: &mut [G::Move],
    (step, depth): (Step, u32),
    (lines, threads): (usize, usize),
    (values, ahead): (&mut LineValues<G::Move>, &mut lines::Ahead<G::Move>),
) -> negamax::RootOutcome<G::Move> {
    let (low, high) = match step {
        Step::WinLossDraw => (
            -G::Plan::WIN_LOSS_DRAW_WINDOW,
            G::Plan::WIN_LOSS_DRAW_WINDOW,
        ),
        _ => (-INFINITY, INFINITY),
    };
    // Threads share out the root moves where each move's search is long enough and no
    // node limit asks for the same result every run; a solve below the midgame's
    // reach is the solver's, which runs threads of its own.
    let parallel = threads > 1
        && run.watch.unlimited()
        && match step {
            Step::Midgame(depth) => depth >= PARALLEL_MIDGAME_FROM,
            _ => run.solve_in_midgame,
        };
    let depth = depth as i32;
    // Midgame values swing with the depth's parity: no guesses, only values kept for the
    // solve after the last midgame iteration.
    let midgame = matches!(step, Step::Midgame(_));
    let mut kept = Vec::new();
    let found = if midgame { &mut kept } else { &mut *values };
    // The last solve's worst line guesses this one's threshold.
    let guess = found.iter().map(|&(_, value)| value).min();
    let outcome = if parallel {
        let window = (low, high);
        lines::root_lines(
            run,
            pos,
            ordered,
            depth,
            lines,
            window,
            found,
            (guess, threads),
            ahead,
        )
    } else {
        ahead.values.clear();
        run.root_lines(pos, ordered, depth, lines, low, high, found)
    };
    if midgame && !run.watch.aborted {
        *values = kept;
    }
    outcome
}

/// Midgame iterations of at least this depth are searched with helper threads; shallower
/// ones end before the helpers would have started.
const PARALLEL_MIDGAME_FROM: u32 = 6;

/// One iteration: a window around the last score, widened until the score falls inside.
fn aspiration_search<G: Searchable>(
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
fn choose_variety<G: Searchable>(
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
    let pick = mix64(variety.seed ^ pos.hash());
    let (mv, score) = candidates[(pick % candidates.len() as u64) as usize];
    if mv != best_move {
        best.best_move = Some(mv);
        best.score = score.min(best.score);
        best.pv = vec![mv];
    }
}
