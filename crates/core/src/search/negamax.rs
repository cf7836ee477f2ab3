//! The midgame search: negamax principal-variation search with a transposition table.
//!
//! The first move of a node is searched with the full window, the others with a null
//! window that only asks "better than the best so far?", re-searched with the full
//! window when the answer is yes. Scores are fail-soft. Beside other threads, a node
//! puts off the moves (but the first) that another thread is searching at the time.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::game::{Evaluator, Game, INFINITY, Score, WIN_SCORE};

use super::busy::BusyMarks;
use super::ordering::{KeyedMoves, OrderingRules, Pick, Picker};
use super::plan::{Plan, PlanTables, SearchMut, SearchView, Searchable};
use super::tt::{Bound, Hit, Table};
use super::{Confidence, Observer, PROGRESS_NODES, SearchReport, shown};

/// What stops a search: the stop flag, the hard deadline and the node limit. Shared by
/// the midgame search and a plan's solver, which count nodes alike.
pub struct Watch<'a> {
    pub(crate) stop: &'a AtomicBool,
    /// A second flag that stops the search: another thread finished its work first.
    pub(crate) preempt: Option<&'a AtomicBool>,
    pub(crate) deadline: Option<Instant>,
    pub(crate) nodes: u64,
    node_limit: u64,
    /// Set by [`Watch::tick`] alone (which also stops counting then); read it freely.
    pub(crate) aborted: bool,
    /// The node count at which [`Watch::tick`] next looks beyond the count: the next
    /// clock reading or the node limit, whichever comes first; zero once aborted.
    next_check: u64,
    /// Told the node count every [`PROGRESS_NODES`] nodes (the driver's watch only).
    pub(crate) pulse: Option<Pulse<'a>>,
    /// A helper thread's watch: where it adds its nodes as it goes (every check), so
    /// that the driver's progress counts them while the iteration still runs; `tallied`
    /// of them are added already.
    pub(crate) tally: Option<&'a AtomicU64>,
    tallied: u64,
    /// The driver's watch beside helpers: their nodes added but not yet counted, which
    /// its progress reports include.
    pub(crate) helper_nodes: Option<&'a AtomicU64>,
}

/// A search's sign of life, given by node counts so that a search of fixed depth or
/// nodes says the same every run.
pub(crate) struct Pulse<'a> {
    sink: &'a dyn Fn(u64),
    next: u64,
}

impl<'a> Pulse<'a> {
    pub fn new(sink: &'a dyn Fn(u64)) -> Pulse<'a> {
        Pulse {
            sink,
            next: PROGRESS_NODES,
        }
    }
}

/// The clock and the flag are read every this many nodes (well under a millisecond).
const CHECK_EVERY: u64 = 2048;

impl<'a> Watch<'a> {
    /// A watch that has counted no node yet.
    pub(crate) fn new(
        stop: &'a AtomicBool,
        deadline: Option<Instant>,
        node_limit: u64,
    ) -> Watch<'a> {
        Watch {
            stop,
            preempt: None,
            deadline,
            nodes: 0,
            node_limit,
            aborted: false,
            next_check: node_limit.min(CHECK_EVERY),
            pulse: None,
            tally: None,
            tallied: 0,
            helper_nodes: None,
        }
    }

    /// Counts a node; true once the search must stop. The node limit is exact, so that
    /// node-limited searches are deterministic. One comparison on the common path.
    #[inline(always)]
    pub(crate) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes < self.next_check {
            return false;
        }
        self.check()
    }

    /// The slow path of [`Watch::tick`]: the limit, the flag and the clock.
    #[cold]
    #[inline(never)]
    fn check(&mut self) -> bool {
        if self.aborted {
            // A search unwinding after the stop visits no more nodes, so none are counted.
            self.nodes -= 1;
            return true;
        }
        if self.nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
            || self
                .preempt
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
            self.next_check = 0;
            return true;
        }
        self.next_check = self.node_limit.min((self.nodes | (CHECK_EVERY - 1)) + 1);
        self.add_to_tally();
        if let Some(pulse) = &mut self.pulse
            && self.nodes >= pulse.next
        {
            pulse.next = self.nodes + PROGRESS_NODES;
            let helpers = self.helper_nodes.map_or(0, |n| n.load(Ordering::Relaxed));
            (pulse.sink)(self.nodes + helpers);
        }
        false
    }

    /// Adds the nodes counted since the last time to [`Watch::tally`], if there is one.
    pub(crate) fn add_to_tally(&mut self) {
        if let Some(tally) = self.tally {
            tally.fetch_add(self.nodes - self.tallied, Ordering::Relaxed);
            self.tallied = self.nodes;
        }
    }

    /// Counts `nodes` that other threads searched for this one (a driver that searches
    /// none itself), telling the progress when it is due.
    pub(crate) fn count_others(&mut self, nodes: u64) {
        self.nodes += nodes;
        if let Some(pulse) = &mut self.pulse
            && self.nodes >= pulse.next
        {
            pulse.next = self.nodes + PROGRESS_NODES;
            (pulse.sink)(self.nodes);
        }
    }

    /// Whether the flags or the clock say stop (the node count aside).
    pub(crate) fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self
                .preempt
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Stops the search this watch counts for, as a check that found it due would.
    pub(crate) fn abort(&mut self) {
        self.aborted = true;
        self.next_check = 0;
    }

    /// Whether no node limit is set (a search whose node count decides its result).
    pub(crate) fn unlimited(&self) -> bool {
        self.node_limit == u64::MAX
    }

    /// Goes on counting after a stop that `preempt` alone caused (the search it ended
    /// is given up; the flags and the clock are read again at the next check).
    pub(crate) fn resume(&mut self) {
        self.aborted = false;
        self.next_check = self.nodes + 1;
    }
}

/// One search in progress: the searcher's tables borrowed for its duration. A plan's
/// hooks ([`Plan::solve`]) get it to search on with.
pub struct Run<'a, G: Searchable> {
    pub(super) evaluator: &'a dyn Evaluator<G>,
    pub(super) table: &'a Table<G::Move>,
    pub(super) rules: OrderingRules,
    pub(super) watch: Watch<'a>,
    /// Static evaluations made (zero in a search that saw only ended games).
    pub(super) evals: u64,
    /// Whether ProbCut may prune (selective search).
    pub(super) selective: bool,
    /// `Some(level)`: the plan's solves are selective, at that level.
    pub(super) end_selectivity: Option<usize>,
    /// The plan's solves begin as midgame searches to the end ([`Plan::solves_in_midgame`]).
    pub(super) solve_in_midgame: bool,
    /// The plan's tables (Othello's endgame solver's); none in helper threads, which
    /// leave the solves to the driver.
    pub(super) plan_tables: Option<&'a PlanTables<G>>,
    /// Threads the plan's solver may use.
    pub(super) threads: usize,
    /// Where other threads search beside this one: the positions being searched now.
    pub(super) busy: Option<&'a BusyMarks>,
    /// Two killer moves per ply (games with move hints).
    pub(super) killers: Vec<[Option<G::Move>; 2]>,
    /// History scores by [`Game::history_slot`] (games with move hints).
    pub(super) history: Vec<i32>,
    /// Buffers of finished move pickers, for the next ones.
    pub(super) spare_keyed: Vec<KeyedMoves<G::Move>>,
    /// Where the root moves' values go as they are found (the driver's run only).
    pub(super) lines: Option<LineSink<'a, G::Move>>,
    /// The surest level of a selective solve that the node under way's result holds at
    /// so far: the least sure of the probable cuts, table entries and solver results it
    /// rests on, in table levels ([`EXACT_TABLE_LEVEL`]: none, the result is exact). A
    /// cut made with more margin than its level asks holds at surer levels too, so the
    /// node's entry serves them: the next level searches again only where a cut was
    /// close (see [`Run::pvs`]).
    pub(super) holds_to: u32,
}

/// Where the values of a search's root moves go as an iteration finds them.
pub(super) struct LineSink<'a, M> {
    pub observer: &'a dyn Observer<M>,
    start: Instant,
    /// The iteration under way, and how sure its values are.
    depth: u32,
    confidence: Confidence,
}

impl<'a, M> LineSink<'a, M> {
    pub fn new(observer: &'a dyn Observer<M>, start: Instant) -> LineSink<'a, M> {
        LineSink {
            observer,
            start,
            depth: 0,
            confidence: Confidence::Heuristic,
        }
    }

    /// An iteration of `depth` begins, whose values are that sure.
    pub fn begin(&mut self, depth: u32, confidence: Confidence) {
        (self.depth, self.confidence) = (depth, confidence);
    }
}

/// What the search of one root move among the lines asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineAim {
    /// Its value, searched around the guess where there is one.
    Value(Option<Score>),
    /// Whether it is better than this threshold (its value if so).
    Above(Score),
}

/// The last iteration's value of `mv` among its lines `values`, if it had one.
pub(super) fn guess_of<M: Copy + PartialEq>(values: &[(M, Score)], mv: M) -> Option<Score> {
    values
        .iter()
        .find(|&&(other, _)| other == mv)
        .map(|&(_, value)| value)
}

/// The table depth of a node a solve's midgame search searches to the end of the game:
/// this plus the solve's level ([`EXACT_TABLE_LEVEL`] for an exact solve).
const END_TABLE_DEPTH: u32 = 200;
pub(super) const EXACT_TABLE_LEVEL: u32 = 50;

/// Plies of captures searched beyond the nominal depth.
const QUIESCENCE_PLIES: i32 = 4;
/// Captures searched at a horizon node, best hints first.
const QUIESCENCE_MOVES: usize = 3;

/// Moves from this index on (in search order) may be searched with less depth.
const LATE_MOVE: usize = 3;
/// From this index on, two plies less.
const VERY_LATE_MOVE: usize = 10;
/// Beside other threads, a move another is searching is put off at nodes of this depth
/// or more (below, the subtrees are too small to be worth sharing out).
const DEFER_DEPTH: i32 = 4;

/// A move hint of at least this marks a tactical move, which is never reduced.
pub const TACTICAL_HINT: Score = 1_000;

/// Scores at least this far from zero are wins or losses of games without a margin.
const WIN_ZONE: Score = WIN_SCORE - 1000;

/// The score of an ended game, `ply` plies below the root: quicker wins score higher.
pub(super) fn terminal_score<G: Game>(pos: &G, ply: u32) -> Score {
    let score = pos.final_score();
    if score >= WIN_ZONE {
        score - ply as Score
    } else if score <= -WIN_ZONE {
        score + ply as Score
    } else {
        score
    }
}

/// The moves of a node in the order they are searched (see [`Run::next_move`]).
struct NodeMoves<'a, M> {
    /// The table's move, legal here, searched first.
    hash_move: Option<M>,
    /// The other moves, ordered when the hash move did not cut.
    picker: Option<Picker<M>>,
    /// Where other threads search now, if this node puts off their moves.
    defer: Option<&'a BusyMarks>,
    /// The moves put off, and how many of them were handed out again.
    deferred: Vec<Pick<M>>,
    replayed: usize,
}

/// The outcome of one root iteration (possibly cut short).
pub(super) struct RootOutcome<M> {
    /// The best move whose result is known (`None` if none finished).
    pub best: Option<M>,
    pub score: Score,
}

impl<G: Searchable> Run<'_, G> {
    /// Searches the root moves in the given order within (`alpha`, `beta`) and moves
    /// the best to the front. A move that proved better than the first is kept as the
    /// best even if its re-search is cut short.
    pub(super) fn root(
        &mut self,
        pos: &G,
        moves: &mut [G::Move],
        depth: i32,
        mut alpha: Score,
        beta: Score,
    ) -> RootOutcome<G::Move> {
        let mut outcome = RootOutcome {
            best: None,
            score: -INFINITY,
        };
        let mut best_index = 0;
        #[allow(clippy::needless_range_loop)] // `moves` is reordered after the loop
        for i in 0..moves.len() {
            let child = pos.play(moves[i]);
            // The low end of the full window the move was searched with, if it was.
            let mut searched_above = None;
            let score = if i == 0 {
                searched_above = Some(alpha);
                -self.pvs(&child, depth - 1, -beta, -alpha, 1, None)
            } else {
                let probe = -self.pvs(&child, depth - 1, -alpha - 1, -alpha, 1, None);
                if self.watch.aborted {
                    break;
                }
                if probe > alpha && probe < beta {
                    outcome.best = Some(moves[i]);
                    outcome.score = probe;
                    best_index = i;
                    searched_above = Some(alpha);
                    -self.pvs(&child, depth - 1, -beta, -alpha, 1, None)
                } else {
                    probe
                }
            };
            if self.watch.aborted {
                break;
            }
            // Inside the window, the move's value is known: a new best move.
            if searched_above.is_some_and(|low| low < score && score < beta) {
                self.report_line(pos, moves[i], score);
            }
            if score > outcome.score || outcome.best.is_none() || best_index == i {
                outcome.best = Some(moves[i]);
                outcome.score = score;
                best_index = i;
            }
            if outcome.score > alpha {
                alpha = outcome.score;
                if alpha >= beta {
                    break;
                }
            }
        }
        moves[..=best_index].rotate_right(1);
        outcome
    }

    /// The negamax value of `pos` searched `depth` plies deep, `ply` plies below the root.
    /// `static_eval` is the evaluation of `pos` where the caller has already made it.
    ///
    /// What can end a node before its moves are searched comes first (the leaf, the
    /// ended game, the plan's solver, the horizon, the table's bound, ProbCut); then the
    /// moves ([`Run::search_moves`]) and the table's new entry.
    ///
    /// The node's result holds at the level its own search found ([`Run::holds_to`]),
    /// and its parent's at no surer one.
    pub(super) fn pvs(
        &mut self,
        pos: &G,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: u32,
        static_eval: Option<Score>,
    ) -> Score {
        let outer = std::mem::replace(&mut self.holds_to, EXACT_TABLE_LEVEL);
        let score = self.pvs_node(pos, depth, alpha, beta, ply, static_eval);
        self.holds_to = self.holds_to.min(outer);
        score
    }

    /// The body of [`Run::pvs`].
    #[inline(always)]
    fn pvs_node(
        &mut self,
        pos: &G,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: u32,
        static_eval: Option<Score>,
    ) -> Score {
        if self.watch.tick() {
            return 0;
        }
        if pos.repeats() {
            return 0;
        }
        // Interior nodes probe the table: its memory loads while the moves are generated.
        let key = if depth > 0 {
            let key = pos.hash();
            self.table.prefetch(key);
            key
        } else {
            0
        };
        if depth <= 0 && !(G::HAS_CAPTURES && self.rules.quiescence) {
            // A leaf without quiescence: the evaluation, unless the game is over.
            if pos.is_game_over() {
                return terminal_score(pos, ply);
            }
            return self.static_value(pos, static_eval);
        }
        let moves = pos.legal_moves();
        let moves = moves.as_ref();
        if moves.is_empty() {
            return terminal_score(pos, ply);
        }
        if let Some(score) = G::Plan::solve(SearchMut::of(self), pos, depth, alpha, beta) {
            return score;
        }
        if depth <= 0 {
            if self.rules.quiescence
                && depth > -QUIESCENCE_PLIES
                && let Some(score) = self.quiesce(pos, moves, alpha, beta, depth, ply)
            {
                return score;
            }
            return self.static_value(pos, static_eval);
        }
        let pv_node = beta - alpha > 1;
        let table_depth = self.table_depth(pos, depth);
        let mut hash_move = None;
        if let Some(hit) = self.table.probe(key) {
            hash_move = hit.mv;
            if let Some(score) = hit.cutoff(alpha, beta)
                && !pv_node
                && u32::from(hit.depth) >= table_depth
            {
                self.rest_on_entry(table_depth, u32::from(hit.depth));
                return score;
            }
        }
        if let Some(score) = self.probcut(pos, depth, alpha, beta, ply, static_eval) {
            return score;
        }
        let hash_move = hash_move.filter(|mv| self.rules.hash_move && moves.contains(mv));
        let (best, best_move) = self.search_moves(pos, moves, hash_move, depth, alpha, beta, ply);
        if self.watch.aborted {
            return 0;
        }
        let stored_depth = if table_depth >= END_TABLE_DEPTH {
            table_depth.max(END_TABLE_DEPTH + self.holds_to)
        } else {
            table_depth
        };
        self.store_node(key, stored_depth, best, best_move, alpha, beta);
        best
    }

    /// A node searched to the end of the game (its `table_depth` says) rests on a table
    /// entry stored at `entry_depth`: the node holds at no surer level than the entry.
    #[inline(always)]
    fn rest_on_entry(&mut self, table_depth: u32, entry_depth: u32) {
        if table_depth >= END_TABLE_DEPTH {
            self.rest_on(entry_depth.saturating_sub(END_TABLE_DEPTH));
        }
    }

    /// The node under way rests on a result that holds up to `level` (table levels).
    #[inline(always)]
    pub(super) fn rest_on(&mut self, level: u32) {
        self.holds_to = self.holds_to.min(level);
    }

    /// The depth a node of `pos` searched `depth` plies deep is stored with and needs
    /// of the table's entries: its depth, or where a solve's midgame search reaches the
    /// end of the game, a depth beyond every midgame one that grows with the solve's
    /// level (an entry of a less sure solve serves no surer one; any serves a midgame
    /// search).
    #[inline(always)]
    fn table_depth(&self, pos: &G, depth: i32) -> u32 {
        if self.solve_in_midgame && G::Plan::reaches_end(pos, depth) {
            END_TABLE_DEPTH
                + self
                    .end_selectivity
                    .map_or(EXACT_TABLE_LEVEL, |level| level as u32)
        } else {
            depth.max(0) as u32
        }
    }

    /// The static evaluation of a node searched no deeper (`static_eval` where the
    /// caller made it already).
    #[inline(always)]
    fn static_value(&mut self, pos: &G, static_eval: Option<Score>) -> Score {
        self.evals += 1;
        static_eval.unwrap_or_else(|| self.evaluator.evaluate(pos))
    }

    /// Searches the `moves` of an interior node in order until one cuts: the best
    /// score found (fail-soft) and its move. Meaningless once the search is aborted.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        hash_move: Option<G::Move>,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        ply: u32,
    ) -> (Score, Option<G::Move>) {
        let mut order = NodeMoves {
            hash_move,
            picker: None,
            // Beside other threads: moves (but the first) another thread is searching
            // now are put off until the others are searched.
            defer: self.busy.filter(|_| depth >= DEFER_DEPTH),
            deferred: Vec::new(),
            replayed: 0,
        };
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        while let Some(pick) = self.next_move(&mut order, searched, pos, moves, depth, ply) {
            let child = pos.play(pick.mv);
            let busy_key = order.defer.map(|busy| (busy, child.hash()));
            if let Some((busy, key)) = busy_key {
                if searched > 0 && order.replayed == 0 && busy.is_busy(key) {
                    order.deferred.push(pick);
                    continue;
                }
                busy.enter(key);
            }
            let reduction = if searched > 0 && order.picker.as_ref().is_some_and(|p| p.hinted) {
                self.reduction(depth, searched, pick.hint)
            } else {
                0
            };
            let score =
                self.search_child(&child, searched, reduction, pick, depth, alpha, beta, ply);
            if let Some((busy, key)) = busy_key {
                busy.leave(key);
            }
            if self.watch.aborted {
                break;
            }
            searched += 1;
            if score > best {
                best = score;
                best_move = Some(pick.mv);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.record_cut(pos, pick.mv, depth, ply);
                        break;
                    }
                }
            }
        }
        if let Some(picker) = order.picker {
            self.recycle(picker);
        }
        (best, best_move)
    }

    /// The next move of a node to search, `searched` moves searched so far: the hash
    /// move first (searched before the others are ordered: it often cuts alone, and
    /// ordering evaluates every other move), then the picker's order, then the moves
    /// put off.
    #[inline(always)]
    fn next_move(
        &mut self,
        order: &mut NodeMoves<'_, G::Move>,
        searched: usize,
        pos: &G,
        moves: &[G::Move],
        depth: i32,
        ply: u32,
    ) -> Option<Pick<G::Move>> {
        let hash_move = order.hash_move;
        let next = match (searched, hash_move) {
            (0, Some(mv)) => Some(Pick {
                mv,
                hint: Score::MAX,
                child_eval: None,
            }),
            _ => order
                .picker
                .get_or_insert_with(|| {
                    let mut picker = self.picker(pos, moves, hash_move, depth, ply);
                    if hash_move.is_some() {
                        // Ordered first, and searched already.
                        picker.next();
                    }
                    picker
                })
                .next(),
        };
        next.or_else(|| {
            let pick = order.deferred.get(order.replayed).copied();
            order.replayed += 1;
            pick
        })
    }

    /// The value of `child`, the move `pick` of a node, searched after `index` others:
    /// the first with the full window; the others with a null window, `reduction` plies
    /// shallower, then at full depth if that beats alpha, then with the full window if
    /// the value falls inside it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_child(
        &mut self,
        child: &G,
        index: usize,
        reduction: i32,
        pick: Pick<G::Move>,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: u32,
    ) -> Score {
        let child_eval = pick.child_eval;
        if index == 0 {
            return -self.pvs(child, depth - 1, -beta, -alpha, ply + 1, child_eval);
        }
        let mut probe = -self.pvs(
            child,
            depth - 1 - reduction,
            -alpha - 1,
            -alpha,
            ply + 1,
            child_eval,
        );
        if reduction > 0 && probe > alpha && !self.watch.aborted {
            probe = -self.pvs(child, depth - 1, -alpha - 1, -alpha, ply + 1, child_eval);
        }
        if probe > alpha && probe < beta && !self.watch.aborted {
            -self.pvs(child, depth - 1, -beta, -alpha, ply + 1, child_eval)
        } else {
            probe
        }
    }

    /// Stores a searched node's value in the table: a bound by where `best` fell
    /// against the window (`alpha`, `beta`) it was searched with, and the move that
    /// made it unless no move reached `alpha`.
    #[inline(always)]
    fn store_node(
        &mut self,
        key: u64,
        depth: u32,
        best: Score,
        best_move: Option<G::Move>,
        alpha: Score,
        beta: Score,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = if bound == Bound::Upper {
            None
        } else {
            best_move
        };
        self.table.store(key, depth, best, bound, stored_move);
    }

    /// The value of a horizon node whose mover can capture: the better of the static
    /// evaluation (the mover need not capture) and the best few captures searched on.
    /// `None` when there is no capture (the caller evaluates).
    fn quiesce(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        mut alpha: Score,
        beta: Score,
        depth: i32,
        ply: u32,
    ) -> Option<Score> {
        let mut captures: Vec<(Score, G::Move)> = moves
            .iter()
            .filter(|&&mv| pos.is_capture(mv))
            .map(|&mv| (pos.move_hint(mv).unwrap_or(0), mv))
            .collect();
        if captures.is_empty() {
            return None;
        }
        captures.sort_by_key(|&(hint, _)| std::cmp::Reverse(hint));
        self.evals += 1;
        let mut best = self.evaluator.evaluate(pos);
        if best >= beta {
            return Some(best);
        }
        alpha = alpha.max(best);
        for &(_, mv) in captures.iter().take(QUIESCENCE_MOVES) {
            let score = -self.pvs(&pos.play(mv), depth - 1, -beta, -alpha, ply + 1, None);
            if self.watch.aborted {
                return Some(0);
            }
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
        Some(best)
    }

    /// How many plies less the `index`-th move of a node `depth` deep, ordered by a
    /// `hint` (killer bonus included), is searched first (a null-window probe, searched
    /// again in full if it beats alpha): late quiet moves, never a tactical one or a
    /// killer.
    fn reduction(&self, depth: i32, index: usize, hint: Score) -> i32 {
        if !self.rules.reductions || depth < 3 || index < LATE_MOVE || hint >= TACTICAL_HINT {
            return 0;
        }
        if index >= VERY_LATE_MOVE && depth >= 5 {
            2
        } else {
            1
        }
    }

    /// Tells the observer, if any, the value `score` of the root move `mv` found by the
    /// iteration under way, with its line.
    pub(super) fn report_line(&self, pos: &G, mv: G::Move, score: Score) {
        let Some(lines) = &self.lines else {
            return;
        };
        let ended = pos.play(mv).is_game_over();
        let confidence = if ended {
            Confidence::Exact
        } else {
            lines.confidence
        };
        let report = SearchReport {
            best_move: Some(mv),
            score,
            depth: lines.depth,
            confidence,
            pv: self.line(pos, mv, lines.depth, score, confidence),
            nodes: self.watch.nodes,
            elapsed: lines.start.elapsed(),
        };
        lines.observer.line(&shown::<G>(&report));
    }

    /// [`Run::report_line`] of a value found a level ahead of the iteration's: told as
    /// sure as that level, its line read at that level.
    pub(super) fn report_line_ahead(&mut self, pos: &G, mv: G::Move, score: Score, level: usize) {
        let sure = Confidence::Probable(G::Plan::selective_confidence(level));
        let Some(lines) = &mut self.lines else {
            return;
        };
        let confidence = std::mem::replace(&mut lines.confidence, sure);
        let selectivity = self.end_selectivity.replace(level);
        self.report_line(pos, mv, score);
        self.end_selectivity = selectivity;
        if let Some(lines) = &mut self.lines {
            lines.confidence = confidence;
        }
    }

    /// The line of the root move `first` of `pos` whose value is `score`, as sure as
    /// `confidence`: a solve's line where the plan has one (an exact value's to the end
    /// of the game, passes included), else the table's line of at most `depth` moves.
    pub(super) fn line(
        &self,
        pos: &G,
        first: G::Move,
        depth: u32,
        score: Score,
        confidence: Confidence,
    ) -> Vec<G::Move> {
        G::Plan::solve_line(SearchView::of(self), pos, first, score, confidence)
            .unwrap_or_else(|| self.principal_variation(pos, first, depth))
    }

    /// What an exact solve searched in the midgame left in the table about `pos` (a
    /// bound, or its value), if it did.
    pub(super) fn solved_hit(&self, pos: &G) -> Option<Hit<G::Move>> {
        self.table
            .probe(pos.hash())
            .filter(|hit| u32::from(hit.depth) >= END_TABLE_DEPTH + EXACT_TABLE_LEVEL)
    }

    /// Searches the root moves in the given order within (`low`, `high`) so that the
    /// best `lines` of them get their value (multi-PV): the first `lines` moves with the
    /// whole window (or, where `values` holds a move's value of an earlier iteration,
    /// with a window around it, widened until the value falls inside), each later one
    /// with a null window at the `lines`-th best value so far, and again with the window
    /// above it where it beats that value. Each value found goes to the observer at
    /// once; the moves are reordered best first, and `values` becomes the best `lines`
    /// values. Cut short, no move is the best.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn root_lines(
        &mut self,
        pos: &G,
        moves: &mut [G::Move],
        depth: i32,
        lines: usize,
        low: Score,
        high: Score,
        values: &mut Vec<(G::Move, Score)>,
    ) -> RootOutcome<G::Move> {
        // The values found, best first: exact for the best `lines`, bounds below.
        let mut found: Vec<(Score, G::Move)> = Vec::with_capacity(moves.len());
        for &mv in moves.iter() {
            let child = pos.play(mv);
            let threshold = match found.get(lines - 1) {
                Some(&(value, _)) => value.max(low),
                None => low,
            };
            let aim = if found.len() < lines {
                LineAim::Value(guess_of(values, mv))
            } else {
                LineAim::Above(threshold)
            };
            let (score, _) = self.line_value(&child, depth - 1, aim, (low, high), false);
            if self.watch.aborted {
                return RootOutcome {
                    best: None,
                    score: -INFINITY,
                };
            }
            // Among the best `lines` so far: its value, or its bound where the window
            // ends (a win or a loss in a win/loss/draw window).
            if found.len() < lines || score > threshold {
                self.report_line(pos, mv, score);
            }
            let at = found.partition_point(|&(value, _)| value >= score);
            found.insert(at, (score, mv));
        }
        for (slot, &(_, mv)) in moves.iter_mut().zip(&found) {
            *slot = mv;
        }
        *values = found
            .iter()
            .take(lines)
            .map(|&(value, mv)| (mv, value))
            .collect();
        RootOutcome {
            best: found.first().map(|&(_, mv)| mv),
            score: found.first().map_or(-INFINITY, |&(value, _)| value),
        }
    }

    /// The value (for the root's mover) of the root move that leads to `child`, searched
    /// `depth` plies deep within (`low`, `high`) as `aim` asks, and whether it is the
    /// move's value (else a bound at or below the aim's threshold). A value above a
    /// threshold is searched again in the window above it, or, where the threshold was
    /// only a guess (`guessed`), in a window around the probe's bound, widened as needed.
    pub(super) fn line_value(
        &mut self,
        child: &G,
        depth: i32,
        aim: LineAim,
        (low, high): (Score, Score),
        guessed: bool,
    ) -> (Score, bool) {
        match aim {
            LineAim::Value(Some(guess)) => (self.aspirated(child, depth, guess, low, high), true),
            LineAim::Value(None) => (-self.pvs(child, depth, -high, -low, 1, None), true),
            LineAim::Above(threshold) => {
                let probe = -self.pvs(child, depth, -threshold - 1, -threshold, 1, None);
                if probe <= threshold || probe >= high || self.watch.aborted {
                    return (probe, probe > threshold);
                }
                let score = if guessed {
                    self.aspirated(child, depth, probe, threshold, high)
                } else {
                    -self.pvs(child, depth, -high, -threshold, 1, None)
                };
                (score, score > threshold)
            }
        }
    }

    /// The value (for the root's mover) of the root move that leads to `child`, searched
    /// `depth` plies deep within (`low`, `high`) through a window around `guess`,
    /// widened until the value falls inside.
    fn aspirated(&mut self, child: &G, depth: i32, guess: Score, low: Score, high: Score) -> Score {
        let mut delta = super::ASPIRATION;
        let (mut alpha, mut beta) = ((guess - delta).max(low), (guess + delta).min(high));
        loop {
            let score = -self.pvs(child, depth, -beta, -alpha, 1, None);
            if self.watch.aborted {
                return score;
            }
            if score <= alpha && alpha > low {
                alpha = (score - delta).max(low);
            } else if score >= beta && beta < high {
                beta = (score + delta).min(high);
            } else {
                return score;
            }
            delta = delta.saturating_mul(2);
            if delta > 8 * super::ASPIRATION {
                (alpha, beta) = (low, high);
            }
        }
    }

    /// The principal variation from the table, starting with `first`, at most `depth`
    /// moves (every move checked for legality, so a stale entry cannot corrupt it).
    pub(super) fn principal_variation(&self, pos: &G, first: G::Move, depth: u32) -> Vec<G::Move> {
        let mut pv = vec![first];
        let mut pos = pos.play(first);
        while (pv.len() as u32) < depth.max(1) {
            let Some(mv) = self.table.probe(pos.hash()).and_then(|hit| hit.mv) else {
                break;
            };
            if !pos.legal_moves().as_ref().contains(&mv) {
                break;
            }
            pv.push(mv);
            pos = pos.play(mv);
        }
        pv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_limit_is_exact_and_stopped_searches_count_no_more() {
        let stop = AtomicBool::new(false);
        let mut watch = Watch::new(&stop, None, 5000);
        for node in 1..5000 {
            assert!(!watch.tick(), "stopped early at node {node}");
        }
        assert!(watch.tick());
        assert!(watch.aborted);
        for _ in 0..10 {
            assert!(watch.tick());
        }
        assert_eq!(watch.nodes, 5000);
    }

    #[test]
    fn a_helper_adds_its_nodes_as_it_goes_and_the_driver_reports_them() {
        let stop = AtomicBool::new(false);
        let shared = AtomicU64::new(0);
        let mut helper = Watch::new(&stop, None, u64::MAX);
        helper.tally = Some(&shared);
        for _ in 0..5000 {
            helper.tick();
        }
        // Added at each check (every CHECK_EVERY nodes), not only when it ends.
        assert_eq!(shared.load(Ordering::Relaxed), 2 * CHECK_EVERY);
        helper.add_to_tally();
        assert_eq!(shared.load(Ordering::Relaxed), 5000);
        helper.add_to_tally();
        assert_eq!(
            shared.load(Ordering::Relaxed),
            5000,
            "nothing is added twice"
        );

        let reports = std::cell::RefCell::new(Vec::new());
        let sink = |nodes| reports.borrow_mut().push(nodes);
        let mut driver = Watch::new(&stop, None, u64::MAX);
        driver.pulse = Some(Pulse::new(&sink));
        driver.helper_nodes = Some(&shared);
        for _ in 0..PROGRESS_NODES {
            driver.tick();
        }
        assert_eq!(*reports.borrow(), [PROGRESS_NODES + 5000]);
    }

    #[test]
    fn the_stop_flag_is_seen_within_one_check_interval() {
        let stop = AtomicBool::new(false);
        let mut watch = Watch::new(&stop, None, u64::MAX);
        for _ in 0..3000 {
            assert!(!watch.tick());
        }
        stop.store(true, Ordering::Relaxed);
        let mut more = 0;
        while !watch.tick() {
            more += 1;
            assert!(more < CHECK_EVERY, "the flag was not read");
        }
        // Read at the next multiple of the interval: node 4096.
        assert_eq!(watch.nodes, 2 * CHECK_EVERY);
        assert!(watch.tick());
        assert_eq!(watch.nodes, 2 * CHECK_EVERY);
    }

    #[test]
    fn a_passed_deadline_stops_the_search() {
        let stop = AtomicBool::new(false);
        let mut watch = Watch::new(&stop, Some(Instant::now()), u64::MAX);
        let stopped_at = (1..=CHECK_EVERY).find(|_| watch.tick());
        assert_eq!(stopped_at, Some(CHECK_EVERY));
    }
}
