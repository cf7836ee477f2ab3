//! Helper threads of a parallel midgame search (the "lazy" parallel search): they search
//! the driver's position beside it and share its table, so that the results each stores
//! cut the others' searches short. They live through the midgame iterations of one
//! search. Each starts one ply ahead of the driver (the second of each pair at its depth)
//! and goes a ply deeper whenever it completes an iteration; one the driver has passed is
//! restarted at the driver's new depth, but one at the driver's depth keeps its head start.
//! Whichever thread completes an iteration first ends it: a helper that completes the
//! driver's depth or a deeper one stops the driver's search, and its result stands in for
//! the driver's.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Instant;

use crate::game::Score;

use super::aspiration_search;
use super::negamax::{EXACT_TABLE_LEVEL, RootOutcome, Run, Watch};
use super::ordering;
use super::plan::Searchable;

/// What the driver and its helpers share.
pub(super) struct Shared<M> {
    /// Set to end the helpers.
    stop: AtomicBool,
    /// The driver's iteration depth, and the centre of its first window.
    target: AtomicU32,
    guess: AtomicI32,
    /// Set by a helper that completed an iteration at least as deep as the driver's: it
    /// stops the driver's search (its [`Watch::preempt`]).
    preempt: AtomicBool,
    /// The deepest iteration a helper completed and the driver has not taken yet.
    completed: Mutex<Option<(u32, RootOutcome<M>)>>,
    /// Per helper: the depth it searches now, and the flag that restarts it.
    depths: Vec<AtomicU32>,
    restarts: Vec<AtomicBool>,
    /// Nodes the helpers searched that the driver has not counted yet, added as they go
    /// (every [`Watch`] check) so that the driver's progress reports include them.
    nodes: AtomicU64,
}

impl<M: Copy> Shared<M> {
    pub fn new(helpers: usize) -> Self {
        Shared {
            stop: AtomicBool::new(false),
            target: AtomicU32::new(0),
            guess: AtomicI32::new(0),
            preempt: AtomicBool::new(false),
            completed: Mutex::new(None),
            depths: (0..helpers).map(|_| AtomicU32::new(0)).collect(),
            restarts: (0..helpers).map(|_| AtomicBool::new(false)).collect(),
            nodes: AtomicU64::new(0),
        }
    }

    /// The flag a helper sets to stop the driver's iteration.
    pub fn preempt(&self) -> &AtomicBool {
        &self.preempt
    }

    /// The driver starts an iteration of `depth`: helpers it passes restart there. A
    /// helper's iteration of that depth or deeper, completed since the driver's last,
    /// stops the driver's at once.
    pub fn begin(&self, depth: u32, guess: Score) {
        self.guess.store(guess, Relaxed);
        {
            let mut completed = self.completed.lock().unwrap_or_else(|e| e.into_inner());
            self.target.store(depth, Relaxed);
            if completed.as_ref().is_some_and(|(done, _)| *done < depth) {
                *completed = None;
            }
            self.preempt.store(completed.is_some(), Relaxed);
        }
        for (searching, restart) in self.depths.iter().zip(&self.restarts) {
            if searching.load(Relaxed) < depth {
                restart.store(true, Relaxed);
            }
        }
    }

    /// A helper's completed iteration of at least `depth`, if one came, taken (the
    /// deepest such); and the helpers' nodes since the last call.
    pub fn end(&self, depth: u32) -> (Option<(u32, RootOutcome<M>)>, u64) {
        let mut completed = self.completed.lock().unwrap_or_else(|e| e.into_inner());
        let taken = match *completed {
            Some((done, _)) if done >= depth => completed.take(),
            _ => None,
        };
        self.preempt.store(false, Relaxed);
        (taken, self.nodes.swap(0, Relaxed))
    }

    fn publish(&self, depth: u32, outcome: RootOutcome<M>) {
        let mut completed = self.completed.lock().unwrap_or_else(|e| e.into_inner());
        if completed.as_ref().is_none_or(|(done, _)| *done < depth) {
            *completed = Some((depth, outcome));
        }
        if depth >= self.target.load(Relaxed) {
            self.preempt.store(true, Relaxed);
        }
    }
}

/// The helper threads of one search, started at its first parallel iteration.
pub(super) struct Pool<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    /// The deepest iteration a helper may search.
    deepest: u32,
    /// The helpers' deadline: the latest the driver's may become (the driver stops them
    /// when its own comes).
    deadline: Option<Instant>,
    threads: Vec<ScopedJoinHandle<'scope, ()>>,
    started: bool,
}

impl<'scope, 'env> Pool<'scope, 'env> {
    pub fn new(
        scope: &'scope Scope<'scope, 'env>,
        deepest: u32,
        deadline: Option<Instant>,
    ) -> Self {
        Pool {
            scope,
            deepest,
            deadline,
            threads: Vec::new(),
            started: false,
        }
    }

    /// Starts `shared`'s helpers on `pos`, searching with the driver's evaluator, table
    /// and rules. A helper the system cannot start is done without: it only speeds the
    /// search.
    fn start<G: Searchable>(
        &mut self,
        shared: &'scope Shared<G::Move>,
        driver: &Run<'scope, G>,
        pos: &'scope G,
        ordered: &[G::Move],
    ) {
        self.started = true;
        shared.stop.store(false, Relaxed);
        let (evaluator, table, rules, selective) = (
            driver.evaluator,
            driver.table,
            driver.rules,
            driver.selective,
        );
        let (deadline, busy, deepest) = (self.deadline, driver.busy, self.deepest);
        self.threads = (0..shared.depths.len())
            .filter_map(|index| {
                let order = ordered.to_vec();
                std::thread::Builder::new()
                    .name("search".into())
                    .spawn_scoped(self.scope, move || {
                        let mut helper = Run {
                            evaluator,
                            table,
                            rules,
                            watch: Watch::new(&shared.stop, deadline, u64::MAX),
                            evals: 0,
                            selective,
                            end_selectivity: None,
                            solve_in_midgame: false,
                            plan_tables: None,
                            threads: 1,
                            busy,
                            killers: vec![[None; 2]; ordering::KILLER_PLIES],
                            history: vec![0; crate::game::HISTORY_SLOTS],
                            spare_keyed: Vec::new(),
                            lines: None,
                            holds_to: EXACT_TABLE_LEVEL,
                        };
                        helper.watch.preempt = Some(&shared.restarts[index]);
                        helper.watch.tally = Some(&shared.nodes);
                        search(&mut helper, shared, index, pos, order, deepest);
                    })
                    .map_err(|e| log::warn!("search thread not started: {e}"))
                    .ok()
            })
            .collect();
    }

    /// Stops the helpers, if they run, and waits for them; their nodes not yet counted.
    pub fn finish<M: Copy>(&mut self, shared: &Shared<M>) -> u64 {
        if !std::mem::take(&mut self.started) {
            return 0;
        }
        shared.stop.store(true, Relaxed);
        for thread in self.threads.drain(..) {
            if let Err(panic) = thread.join() {
                std::panic::resume_unwind(panic);
            }
        }
        shared.nodes.swap(0, Relaxed)
    }
}

/// One midgame iteration of `depth` on the driver's thread beside the helpers (started at
/// the first): the driver's outcome, or that of a helper that completed this depth or a
/// deeper one first, with its depth (the root moves then put its best move first).
pub(super) fn iteration<'run: 'scope, 'scope, G: Searchable>(
    pool: &mut Pool<'scope, '_>,
    shared: &'run Shared<G::Move>,
    run: &mut Run<'run, G>,
    pos: &'scope G,
    ordered: &mut [G::Move],
    depth: u32,
    guess: Score,
) -> (RootOutcome<G::Move>, Option<u32>) {
    if !pool.started {
        pool.start(shared, run, pos, ordered);
    }
    shared.begin(depth, guess);
    run.watch.preempt = Some(shared.preempt());
    run.watch.helper_nodes = Some(&shared.nodes);
    let outcome = aspiration_search(run, pos, ordered, depth, guess);
    run.watch.preempt = None;
    run.watch.helper_nodes = None;
    let (completed, nodes) = shared.end(depth);
    run.watch.nodes += nodes;
    let Some((done, outcome)) = completed else {
        return (outcome, None);
    };
    log::debug!("depth {done}: a helper completed it first");
    // The driver's search was given up; a stop or the deadline that came meanwhile is
    // seen at the next check.
    run.watch.resume();
    if let Some(index) = ordered.iter().position(|&mv| Some(mv) == outcome.best) {
        ordered[..=index].rotate_right(1);
    }
    (outcome, Some(done))
}

/// One helper's iterations, until the pool stops or no deeper one is left.
fn search<G: Searchable>(
    helper: &mut Run<'_, G>,
    shared: &Shared<G::Move>,
    index: usize,
    pos: &G,
    mut order: Vec<G::Move>,
    deepest: u32,
) {
    // The first helper of each pair one ply ahead of the driver.
    let ahead = ((index + 1) % 2) as u32;
    let mut completed = 0;
    loop {
        shared.restarts[index].store(false, Relaxed);
        let target = shared.target.load(Relaxed);
        let depth = (completed + 1).max(target + ahead).min(deepest);
        if depth <= completed || shared.stop.load(Relaxed) {
            break;
        }
        shared.depths[index].store(depth, Relaxed);
        let outcome = aspiration_search(helper, pos, &mut order, depth, shared.guess.load(Relaxed));
        helper.watch.add_to_tally();
        if helper.watch.aborted {
            let late = helper.watch.deadline.is_some_and(|d| Instant::now() >= d);
            if late || shared.stop.load(Relaxed) {
                break;
            }
            helper.watch.resume();
            continue;
        }
        completed = depth;
        shared.publish(depth, outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(best: u8, score: Score) -> RootOutcome<u8> {
        RootOutcome {
            best: Some(best),
            score,
        }
    }

    #[test]
    fn a_helper_that_completes_the_drivers_depth_or_deeper_stops_it_and_stands_for_it() {
        let shared = Shared::new(1);
        shared.begin(8, 0);
        assert!(!shared.preempt().load(Relaxed));
        // Shallower than the driver: kept for nothing, no stop.
        shared.publish(7, outcome(1, 10));
        assert!(!shared.preempt().load(Relaxed));
        shared.publish(9, outcome(2, 20));
        assert!(shared.preempt().load(Relaxed));
        let (taken, _) = shared.end(8);
        let (depth, taken) = taken.expect("the helper's depth 9");
        assert_eq!((depth, taken.best, taken.score), (9, Some(2), 20));
        assert!(!shared.preempt().load(Relaxed));
        assert!(shared.end(8).0.is_none(), "taken once");
    }

    #[test]
    fn a_result_the_driver_has_passed_is_dropped_and_a_deeper_one_stops_the_next_iteration() {
        let shared = Shared::new(1);
        shared.begin(8, 0);
        assert!(shared.end(8).0.is_none());
        // Completed after the driver's iteration 8 ended: as deep as its next one.
        shared.publish(9, outcome(3, 5));
        shared.begin(9, 0);
        assert!(
            shared.preempt().load(Relaxed),
            "the next iteration stops at once"
        );
        assert_eq!(shared.end(9).0.map(|(depth, _)| depth), Some(9));
        // Completed too late to count: the driver is deeper by then.
        shared.publish(10, outcome(4, 5));
        shared.begin(11, 0);
        assert!(!shared.preempt().load(Relaxed));
        assert!(shared.end(11).0.is_none());
    }

    #[test]
    fn helpers_the_driver_passes_are_restarted_and_one_at_its_depth_keeps_going() {
        let shared: Shared<u8> = Shared::new(2);
        shared.depths[0].store(9, Relaxed);
        shared.depths[1].store(8, Relaxed);
        shared.begin(9, 0);
        assert!(!shared.restarts[0].load(Relaxed));
        assert!(shared.restarts[1].load(Relaxed));
    }
}
