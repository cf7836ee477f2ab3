//! How a game is searched, beyond its rules: the [`Plan`] a game names ([`Searchable`]).
//!
//! The driver (`search/mod.rs`) runs one iteration after another; the plan says which
//! comes next (midgame depths and, for a game with a solver, its selective, win/loss/draw
//! and exact solves), how a clock is shared out over the game's moves, which probable
//! cuts the midgame search may make ([`ProbCut`]) and where a node is solved rather than
//! searched. The hooks the search calls at every node ([`Plan::probcut`], [`Plan::solve`])
//! are static, so that a plan without them costs nothing. They see the search under
//! way through a narrow view ([`SearchView`]: its plan's tables, the evaluator, the
//! ordering rules, the step's solve settings, the midgame table's moves; [`SearchMut`]
//! adds the watch its nodes are counted on), and a plan's tables are built from the
//! parts re-exported here, so that a plan needs nothing else of the search.
//!
//! [`Plain`] is plain iterative deepening: every midgame depth in turn, equal shares of a
//! clock, no probable cuts, no solver (Nine Men's Morris). Othello's plan, with its
//! endgame solver, its fitted ProbCut values and its clock schedule, lives with Othello.

use std::time::{Duration, Instant};

use crate::game::{Evaluator, Game, Score};

use super::negamax::{EXACT_TABLE_LEVEL, Run, Watch};
use super::ordering::OrderingRules;
use super::probcut::Fit;
use super::time::{Budget, Schedule};
use super::{Confidence, Endgame};

// The parts a plan's tables are built from, as the search's own tables are: lock-free
// slots shared by threads, large zeroed arrays, the marks of positions other threads are
// searching, and a table entry's bound.
pub use super::busy::BusyMarks;
pub use super::memory::{LargeArray, OutOfMemory, power_of_two_fitting};
pub use super::slot::Slot;
pub use super::tt::{Bound, Hit};

/// A game the search can play: its rules ([`Game`]) and the plan it is searched with.
pub trait Searchable: Game {
    type Plan: Plan<Self>;
}

/// How a game is searched. A value is made for each search from its root position
/// ([`Plan::new`]); the associated functions are the hooks of the search's inner loop.
pub trait Plan<G: Searchable>: Sized {
    /// Tables the plan keeps beside the midgame table (an endgame solver's), sized from
    /// the same hash setting; `()` for none.
    type Tables: Tables;

    /// The plan of a search of `pos`, whose legal moves are `legal` (at least one).
    fn new(pos: &G, legal: &[G::Move]) -> Self;

    /// The depth at which a search of the root reaches the end of the game, where the
    /// plan solves it; `None` for a plan without solves.
    fn solve_depth(&self) -> Option<u32> {
        None
    }

    /// The depth near `depth` of a search of this position to compare with searches of
    /// the game's other positions (an analysis of a game): `depth` where the evaluation
    /// has no bias between positions, else the depth that ends every search alike.
    fn comparable_depth(&self, depth: u32) -> u32 {
        depth
    }

    /// The depth a forced move on the clock is solved to, where its exact solve costs
    /// little (a forced move needs no choice, only a true score); `None`: the search
    /// gives it a short midgame search instead.
    fn forced_move_solve_depth(&self) -> Option<u32> {
        None
    }

    /// The deepest midgame iteration worth searching within `max_depth` (helper threads
    /// go no deeper): short of the solve, which is not a midgame iteration.
    fn deepest_midgame(&self, max_depth: u32) -> u32 {
        max_depth
    }

    /// The iteration after `previous` (the first is always [`Step::Midgame`] 1) in the
    /// search `course` describes, or `None` to stop; `last` is the time `previous` took
    /// and `score` the score it found. The driver stops midgame iterations past the
    /// course's depth and the soft time limit itself.
    fn next_step(
        &self,
        previous: Step,
        _course: &Course,
        _last: Duration,
        _score: Score,
    ) -> Option<Step> {
        match previous {
            Step::Midgame(depth) => Some(Step::Midgame(depth + 1)),
            _ => None,
        }
    }

    /// The mover's moves still to play, where the game can tell (the clock is shared
    /// out over them); `None`: the time manager assumes a typical game.
    fn moves_left(&self) -> Option<u32> {
        None
    }

    /// How this move's part of a clock with `usable` time to spend is found, on
    /// `threads` threads; `None`: an equal share of the moves left.
    fn schedule(&self, _usable: Duration, _threads: usize) -> Option<Schedule> {
        None
    }

    /// Percent of selective solves of `level` expected to be right.
    fn selective_confidence(_level: usize) -> u8 {
        0
    }

    /// The surest selective level, at least `asked`, whose cuts ask at most `margin`
    /// standard deviations: a cut made with that much to spare holds at each level to it.
    fn surest_level(_margin: f32, asked: usize) -> usize {
        asked
    }

    /// The half-width of a win/loss/draw solve's window around a draw: scores inside it
    /// are draws, beyond it wins or losses.
    const WIN_LOSS_DRAW_WINDOW: Score = 1;

    /// The score a win/loss/draw solve's value is shown as: its bound.
    fn win_loss_draw_bound(score: Score) -> Score {
        score.signum()
    }

    /// A probable cut the midgame search may try at a node of `pos` searched `depth`
    /// plies deep (a null window). `end`: the level of the selective solve under way
    /// where the midgame search searches it ([`Plan::solves_in_midgame`]), for a cut
    /// against the end of the game at a node whose depth reaches it.
    #[inline(always)]
    fn probcut(_pos: &G, _depth: i32, _end: Option<usize>) -> Option<ProbCut> {
        None
    }

    /// Whether a node of `pos` searched `depth` plies deep reaches the end of the game.
    #[inline(always)]
    fn reaches_end(_pos: &G, _depth: i32) -> bool {
        false
    }

    /// Whether this search's solves are midgame searches to the end of the game (the
    /// midgame table, probable cuts against the end) down to where the plan's solver
    /// takes over, rather than the solver's from the root's moves on: where the solver
    /// alone would take hours even at its least sure level. `score`: the last step's.
    fn solves_in_midgame(&self, _score: Score) -> bool {
        false
    }

    /// The exact value of the root `pos`, and a move that keeps it, where an earlier
    /// solve left them in the search's tables.
    fn proven(_search: SearchView<'_, '_, G>, _pos: &G) -> Option<(G::Move, Score)> {
        None
    }

    /// Whether the search `course` describes, without a deadline or a node limit, may
    /// run for minutes or more unless stopped (its tables then grow where no size was
    /// set).
    fn lasts_long(&self, _course: &Course) -> bool {
        false
    }

    /// Whether this search may come to the exact solve of its root (the level's reach).
    fn may_solve(&self, _course: &Course) -> bool {
        false
    }

    /// The line of the root move `first` of `pos` whose value `score` a solve found,
    /// as sure as `confidence`: an exact value's whole line, to the end of the game,
    /// each move one that keeps the value (it stops where finding its next move would
    /// cost too much), or a selective solve's from its tables; `None` for a plan
    /// without a solver, or a value no solve found (the midgame table's line is shown).
    fn solve_line(
        _search: SearchView<'_, '_, G>,
        _pos: &G,
        _first: G::Move,
        _score: Score,
        _confidence: Confidence,
    ) -> Option<Vec<G::Move>> {
        None
    }

    /// The value of `pos`, fail-soft within (`alpha`, `beta`), where the search at
    /// `depth` reaches the end of the game and the plan solves it instead.
    #[inline(always)]
    fn solve(
        _search: SearchMut<'_, '_, G>,
        _pos: &G,
        _depth: i32,
        _alpha: Score,
        _beta: Score,
    ) -> Option<Score> {
        None
    }
}

/// The tables of `G`'s plan.
pub type PlanTables<G> = <<G as Searchable>::Plan as Plan<G>>::Tables;

/// The search under way as a plan's hooks see it: what they may read of it. The rest of
/// the search (its move ordering, its threads, the root's lines) is its own.
pub struct SearchView<'r, 'a, G: Searchable> {
    run: &'r Run<'a, G>,
}

// Derived, these would ask `G: Copy`.
impl<G: Searchable> Clone for SearchView<'_, '_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Searchable> Copy for SearchView<'_, '_, G> {}

impl<'r, 'a, G: Searchable> SearchView<'r, 'a, G> {
    pub(super) fn of(run: &'r Run<'a, G>) -> Self {
        SearchView { run }
    }

    /// The plan's tables; `None` in a helper thread, which leaves the solves to the
    /// driver.
    #[inline(always)]
    pub fn tables(self) -> Option<&'a PlanTables<G>> {
        self.run.plan_tables
    }

    #[inline(always)]
    pub fn evaluator(self) -> &'a dyn Evaluator<G> {
        self.run.evaluator
    }

    /// The move ordering rules in force (the same for a solver's own ordering).
    #[inline(always)]
    pub fn rules(self) -> OrderingRules {
        self.run.rules
    }

    /// `Some(level)`: the step under way is a selective solve of that level.
    #[inline(always)]
    pub fn end_selectivity(self) -> Option<usize> {
        self.run.end_selectivity
    }

    /// Whether the step under way is a solve searched in the midgame
    /// ([`Plan::solves_in_midgame`]).
    #[inline(always)]
    pub fn solves_in_midgame(self) -> bool {
        self.run.solve_in_midgame
    }

    /// The threads the plan's solver may use.
    #[inline(always)]
    pub fn threads(self) -> usize {
        self.run.threads
    }

    /// A watch for a search of the plan's own beside this one (a line's solves): at
    /// most `nodes` nodes, stopped when this search is.
    pub fn side_watch(self, nodes: u64) -> Watch<'a> {
        Watch::new(self.run.watch.stop, None, nodes)
    }

    /// The move the midgame table holds for `pos`, if any.
    pub fn table_move(self, pos: &G) -> Option<G::Move> {
        self.run.table.probe(pos.hash()).and_then(|hit| hit.mv)
    }

    /// What an exact solve searched in the midgame left in the midgame table about
    /// `pos` (a bound, or its value), if it did.
    pub fn solved_in_midgame(self, pos: &G) -> Option<Hit<G::Move>> {
        self.run.solved_hit(pos)
    }
}

/// The search under way as the plan's solve sees it: what it may read
/// ([`SearchMut::view`]) and the watch its nodes are counted on and stopped by.
pub struct SearchMut<'r, 'a, G: Searchable> {
    run: &'r mut Run<'a, G>,
}

impl<'r, 'a, G: Searchable> SearchMut<'r, 'a, G> {
    pub(super) fn of(run: &'r mut Run<'a, G>) -> Self {
        SearchMut { run }
    }

    #[inline(always)]
    pub fn view(&self) -> SearchView<'_, 'a, G> {
        SearchView::of(self.run)
    }

    #[inline(always)]
    pub fn watch(&mut self) -> &mut Watch<'a> {
        &mut self.run.watch
    }

    /// The plan's solve that ends this node holds up to selective `level` (`None`:
    /// it is exact), and so does the node (see [`Plan::surest_level`]).
    #[inline(always)]
    pub fn rest_on(&mut self, level: Option<usize>) {
        self.run
            .rest_on(level.map_or(EXACT_TABLE_LEVEL, |level| level as u32));
    }
}

/// Tables a plan keeps beside the midgame table.
pub trait Tables: Send + Sync + Sized + 'static {
    /// Whether the tables take half of the hash size (the midgame table the rest).
    const SIZED: bool;
    /// Tables of `megabytes` MiB.
    fn new(megabytes: usize) -> Result<Self, OutOfMemory>;
    /// The sizes of the allocations of [`Tables::new`], `None` where too large.
    fn bytes(megabytes: usize) -> Option<Vec<usize>>;
    /// Forgets everything (a new game).
    fn clear(&mut self);
    /// A new search begins.
    fn new_search(&mut self);
}

/// No tables.
impl Tables for () {
    const SIZED: bool = false;

    fn new(_megabytes: usize) -> Result<(), OutOfMemory> {
        Ok(())
    }

    fn bytes(_megabytes: usize) -> Option<Vec<usize>> {
        Some(Vec::new())
    }

    fn clear(&mut self) {}

    fn new_search(&mut self) {}
}

/// Plain iterative deepening: each midgame depth in turn, no solver, no probable cuts,
/// a clock shared out in equal parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Plain;

impl<G: Searchable> Plan<G> for Plain {
    type Tables = ();

    fn new(_pos: &G, _legal: &[G::Move]) -> Plain {
        Plain
    }
}

/// One iteration of the driver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// A midgame search this deep.
    Midgame(u32),
    /// A selective solve of this level (the plan's margins, least sure first).
    Selective(usize),
    /// A solve with the window of [`Plan::WIN_LOSS_DRAW_WINDOW`] around a draw: win,
    /// loss or draw, where the exact solve does not fit in the time.
    WinLossDraw,
    /// The exact solve.
    Exact,
}

/// How one search goes, fixed when it starts: what the plan's step rule reads.
#[derive(Clone, Debug)]
pub struct Course {
    pub start: Instant,
    /// The deepest midgame iteration.
    pub max_depth: u32,
    /// Where the solves may start.
    pub reach: Endgame,
    /// Whether the search is selective (ProbCut, and the selective solves).
    pub selective: bool,
    pub threads: usize,
    pub budget: Budget,
    /// How many root moves get their exact value (multi-PV); 1: the best only.
    pub lines: usize,
    /// No win/loss/draw solve: every value found is a score.
    pub scores_only: bool,
}

/// A probable cut (Multi-ProbCut): a search `shallow` plies deep predicts the node's
/// value by the line `fit`; where it lies outside the window with `margin` standard
/// deviations to spare, the node is cut. A probe for the upper bound is searched only
/// where the static evaluation is at most `probe_below_high` below it, one for the lower
/// bound only where it is at most `probe_above_low` above (further away, few probes cut).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCut {
    pub shallow: i32,
    pub fit: Fit,
    pub margin: f32,
    pub probe_below_high: Score,
    pub probe_above_low: Score,
}
