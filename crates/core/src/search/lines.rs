//! An iteration of several lines on several threads: each thread searches one root move
//! at a time, the next not yet taken; once none is left, a thread joins a search still
//! running (the one with the fewest threads on it) instead of waiting, puts off the moves
//! the other is searching (ABDADA's busy marks) and ends it for both if it finishes
//! first. The threads share the table (and the plan's tables), so that what one stores
//! serves the others. The first `lines` moves are searched for their values; each later
//! one asks whether it beats the `lines`-th best value known, or while fewer are known a
//! guess of it, and a bound that a lower final threshold leaves in doubt is searched
//! again. The driver's thread searches nothing: it tells each line as it comes, counts
//! the threads' nodes for the progress reports and stops them when the search must stop.
//!
//! Why root moves rather than helpers beside one search: a solve at 38 empties spends
//! seconds to minutes on each root move, and the lines are its results; two threads on
//! two moves give each line in about half the time of one. Joining the last search
//! matters because a level's last search is often its longest (a move at its threshold,
//! proved not to beat it), which one thread alone made the longest wait for a line.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, mpsc};
use std::thread::ScopedJoinHandle;
use std::time::Duration;

use crate::game::{INFINITY, Score};

use super::busy::BusyMarks;
use super::negamax::{EXACT_TABLE_LEVEL, LineAim, RootOutcome, Run, Watch, guess_of};
use super::plan::Searchable;

/// One root move's result.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Found<M> {
    mv: M,
    score: Score,
    /// Its value (within the window); else a bound at or below its threshold.
    exact: bool,
}

/// One search of a root move: the move, what it asks, whether its threshold is a guess.
type Search<M> = (M, LineAim, bool);

/// A search running now, and the workers (by index) on it.
struct Active<M> {
    id: u64,
    search: Search<M>,
    workers: Vec<usize>,
}

/// What a thread searches next.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Job<M> {
    /// A search of this iteration, by id.
    Line(u64, Search<M>),
    /// The value of a move already among the lines at the next level (given), searched
    /// around its value now while this level's last searches run.
    Ahead(M, Score, usize),
}

/// Values one level ahead of an iteration's: while its last searches run, a thread with
/// nothing left searches the next level's value of a move already among its lines, a line
/// told at once and a search the next iteration need not make.
#[derive(Debug)]
pub(super) struct Ahead<M> {
    /// The level the search goes on to, where it is a selective one.
    pub level: Option<usize>,
    /// Coming in, this iteration's values found the last iteration; going out, those of
    /// `level` found in this one.
    pub values: Vec<(M, Score)>,
}

/// What the threads share of an iteration's root moves.
struct Board<M> {
    /// The index of the next root move no thread has taken.
    next: usize,
    /// The results so far, best first; of equal scores, values before bounds.
    found: Vec<Found<M>>,
    /// The searches running now, the oldest first.
    active: Vec<Active<M>>,
    /// How many searches were started (the next one's id).
    started: u64,
    /// The next level, where threads search ahead; the moves taken there, the values
    /// found there, the workers on it now.
    ahead_level: Option<usize>,
    ahead_taken: Vec<M>,
    ahead_found: Vec<(M, Score)>,
    ahead_workers: Vec<usize>,
}

impl<M: Copy + PartialEq> Board<M> {
    /// A board with the values `known` already (found ahead by the last iteration),
    /// whose threads search ahead at `ahead_level`.
    fn new(known: &[(M, Score)], ahead_level: Option<usize>) -> Self {
        let mut board = Board {
            next: 0,
            found: Vec::new(),
            active: Vec::new(),
            started: 0,
            ahead_level,
            ahead_taken: Vec::new(),
            ahead_found: Vec::new(),
            ahead_workers: Vec::new(),
        };
        for &(mv, score) in known {
            let exact = true;
            board.insert(Found { mv, score, exact }, usize::MAX);
        }
        board
    }

    /// The `lines`-th best value found, once that many are known.
    fn threshold(&self, lines: usize) -> Option<Score> {
        self.found
            .iter()
            .filter(|found| found.exact)
            .nth(lines - 1)
            .map(|found| found.score)
    }

    /// The next search a thread takes, if one is left now: a bound above the threshold
    /// known, searched again; else the next root move of `moves`. `values`: the last
    /// iteration's lines, whose values guess this one's; `guess`: the threshold's guess
    /// while it is unknown.
    fn take(
        &mut self,
        moves: &[M],
        lines: usize,
        values: &[(M, Score)],
        (low, guess): (Score, Option<Score>),
    ) -> Option<Search<M>> {
        let threshold = self.threshold(lines);
        if let Some(threshold) = threshold
            && let Some(index) = self
                .found
                .iter()
                .position(|found| !found.exact && found.score > threshold)
        {
            let mv = self.found.remove(index).mv;
            return Some((mv, LineAim::Above(threshold.max(low)), false));
        }
        // Moves whose values are known already are not searched again.
        let (index, mv) = loop {
            let (index, &mv) = (self.next, moves.get(self.next)?);
            self.next += 1;
            if !self.found.iter().any(|found| found.mv == mv) {
                break (index, mv);
            }
        };
        if index < lines {
            return Some((mv, LineAim::Value(guess_of(values, mv)), false));
        }
        let worst_known = self.found.iter().rfind(|found| found.exact);
        Some(match (threshold, guess, worst_known) {
            (Some(threshold), _, _) => (mv, LineAim::Above(threshold.max(low)), false),
            (None, Some(guess), _) => (mv, LineAim::Above(guess.max(low)), true),
            (None, None, Some(worst)) => (mv, LineAim::Above(worst.score.max(low)), true),
            (None, None, None) => (mv, LineAim::Value(None), false),
        })
    }

    /// What `worker` searches next: a search of its own ([`Board::take`]); else, while
    /// searches still run, the next level's value of a line not yet searched there;
    /// else a search running now with the fewest workers on it (the oldest of them),
    /// joined. `None`: nothing is left to search.
    fn start(
        &mut self,
        worker: usize,
        moves: &[M],
        lines: usize,
        values: &[(M, Score)],
        guess: (Score, Option<Score>),
    ) -> Option<Job<M>> {
        if let Some(search) = self.take(moves, lines, values, guess) {
            let id = self.started;
            self.started += 1;
            self.active.push(Active {
                id,
                search,
                workers: vec![worker],
            });
            return Some(Job::Line(id, search));
        }
        if let Some(level) = self.ahead_level.filter(|_| !self.active.is_empty())
            && let Some(line) = self
                .found
                .iter()
                .filter(|found| found.exact)
                .take(lines)
                .find(|found| !self.ahead_taken.contains(&found.mv))
        {
            let (mv, score) = (line.mv, line.score);
            self.ahead_taken.push(mv);
            self.ahead_workers.push(worker);
            return Some(Job::Ahead(mv, score, level));
        }
        let joined = self
            .active
            .iter_mut()
            .min_by_key(|active| active.workers.len())?;
        joined.workers.push(worker);
        Some(Job::Line(joined.id, joined.search))
    }

    /// Takes in `worker`'s value one level ahead, if it found one (else it gave up).
    fn finish_ahead(&mut self, worker: usize, value: Option<(M, Score)>) {
        self.ahead_workers.retain(|&other| other != worker);
        self.ahead_found.extend(value);
    }

    /// Takes in the result of search `id`, unless another worker on it finished first:
    /// whether it is a line to tell, and the other workers on it, whose searches are
    /// given up now.
    fn finish(&mut self, id: u64, found: Found<M>, lines: usize) -> (bool, Vec<usize>) {
        let Some(index) = self.active.iter().position(|active| active.id == id) else {
            return (false, Vec::new());
        };
        let active = self.active.remove(index);
        (self.insert(found, lines), active.workers)
    }

    /// Takes a search's result in; whether it is among the best `lines` values now (a
    /// line to tell).
    fn insert(&mut self, found: Found<M>, lines: usize) -> bool {
        let at = self.found.partition_point(|other| {
            other.score > found.score || other.score == found.score && other.exact
        });
        self.found.insert(at, found);
        found.exact && self.found[..=at].iter().filter(|f| f.exact).count() <= lines
    }

    /// Whether every move is searched and nothing is left in doubt.
    fn complete(&self, moves: usize, lines: usize) -> bool {
        let threshold = self.threshold(lines);
        self.next >= moves
            && self.active.is_empty()
            && self
                .found
                .iter()
                .all(|found| found.exact || threshold.is_some_and(|t| found.score <= t))
    }
}

/// A worker thread's share of the search: what it hands back when it ends.
struct Spent<M> {
    evals: u64,
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
    aborted: bool,
}

/// [`Run::root_lines`] on `threads` threads: the best `lines` root moves of `pos` among
/// `moves` scored within (`low`, `high`) at `depth`, each told as it is found; `values`
/// the last iteration's lines, then this one's; `guess`: the `lines`-th value's guess
/// (the last solve's, for a solve); `ahead`: the values found ahead for this iteration,
/// then those it found for the next.
#[allow(clippy::too_many_arguments)]
pub(super) fn root_lines<G: Searchable>(
    run: &mut Run<'_, G>,
    pos: &G,
    moves: &mut [G::Move],
    depth: i32,
    lines: usize,
    (low, high): (Score, Score),
    values: &mut Vec<(G::Move, Score)>,
    (guess, threads): (Option<Score>, usize),
    ahead: &mut Ahead<G::Move>,
) -> RootOutcome<G::Move> {
    let board = Mutex::new(Board::new(&ahead.values, ahead.level));
    let halt = AtomicBool::new(false);
    // Per worker: set to give up its search, which another worker finished (or on halt).
    let cancels: Vec<AtomicBool> = (0..threads).map(|_| AtomicBool::new(false)).collect();
    let marks = BusyMarks::default();
    let tally = AtomicU64::new(0);
    let (send, receive) = mpsc::channel();
    let order: &[G::Move] = moves;
    let last: &[(G::Move, Score)] = values;
    let spent: Vec<Spent<G::Move>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .filter_map(|index| {
                let send = send.clone();
                let (board, halt, tally) = (&board, &halt, &tally);
                let (cancels, marks): (&[AtomicBool], _) = (&cancels, &marks);
                let (evaluator, table, rules, plan_tables) =
                    (run.evaluator, run.table, run.rules, run.plan_tables);
                let (stop, deadline) = (run.watch.stop, run.watch.deadline);
                let (selective, end_selectivity, solve_in_midgame) =
                    (run.selective, run.end_selectivity, run.solve_in_midgame);
                let (killers, history) = (run.killers.clone(), run.history.clone());
                std::thread::Builder::new()
                    .name("search".into())
                    .spawn_scoped(scope, move || {
                        let mut worker = Run {
                            evaluator,
                            table,
                            rules,
                            watch: Watch::new(stop, deadline, u64::MAX),
                            evals: 0,
                            selective,
                            end_selectivity,
                            solve_in_midgame,
                            plan_tables,
                            threads: 1,
                            busy: Some(marks),
                            killers,
                            history,
                            spare_keyed: Vec::new(),
                            lines: None,
                            holds_to: EXACT_TABLE_LEVEL,
                        };
                        worker.watch.preempt = Some(&cancels[index]);
                        worker.watch.tally = Some(tally);
                        let task = Task {
                            pos,
                            order,
                            last,
                            depth,
                            lines,
                            window: (low, high),
                            guess,
                        };
                        let shared = Shared {
                            board,
                            halt,
                            cancels,
                        };
                        work(&mut worker, index, &task, &shared, &send);
                        worker.watch.add_to_tally();
                        Spent {
                            evals: worker.evals,
                            killers: worker.killers,
                            history: worker.history,
                            aborted: worker.watch.aborted,
                        }
                    })
                    .map_err(|e| log::warn!("search thread not started: {e}"))
                    .ok()
            })
            .collect();
        drop(send);
        if workers.is_empty() {
            halt.store(true, Relaxed);
        }
        drive(run, pos, &receive, (&halt, &cancels, &tally), workers)
    });
    run.watch.count_others(tally.swap(0, Relaxed));
    run.evals += spent.iter().map(|spent| spent.evals).sum::<u64>();
    let mut board = board.into_inner().unwrap_or_else(|e| e.into_inner());
    ahead.values = std::mem::take(&mut board.ahead_found);
    let aborted = spent.iter().any(|spent| spent.aborted);
    if let Some(first) = spent.into_iter().next() {
        (run.killers, run.history) = (first.killers, first.history);
    }
    if aborted || !board.complete(moves.len(), lines) {
        run.watch.abort();
        return RootOutcome {
            best: None,
            score: -INFINITY,
        };
    }
    for (slot, found) in moves.iter_mut().zip(&board.found) {
        *slot = found.mv;
    }
    *values = board
        .found
        .iter()
        .take(lines)
        .map(|found| (found.mv, found.score))
        .collect();
    RootOutcome {
        best: board.found.first().map(|found| found.mv),
        score: board.found.first().map_or(-INFINITY, |found| found.score),
    }
}

/// The driver's part while the `workers` search: each line told as it comes, their nodes
/// counted, a stop passed on to them (`halt`); then what each of them spent.
fn drive<G: Searchable>(
    run: &mut Run<'_, G>,
    pos: &G,
    receive: &mpsc::Receiver<(G::Move, Score, Option<usize>)>,
    (halt, cancels, tally): (&AtomicBool, &[AtomicBool], &AtomicU64),
    workers: Vec<ScopedJoinHandle<'_, Spent<G::Move>>>,
) -> Vec<Spent<G::Move>> {
    loop {
        match receive.recv_timeout(Duration::from_millis(10)) {
            Ok((mv, score, None)) => run.report_line(pos, mv, score),
            Ok((mv, score, Some(level))) => run.report_line_ahead(pos, mv, score, level),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        run.watch.count_others(tally.swap(0, Relaxed));
        if run.watch.halted() && !halt.swap(true, Relaxed) {
            for cancel in cancels {
                cancel.store(true, Relaxed);
            }
        }
    }
    workers
        .into_iter()
        .filter_map(|worker| match worker.join() {
            Ok(spent) => Some(spent),
            Err(panic) => std::panic::resume_unwind(panic),
        })
        .collect()
}

/// What every worker searches: the root, its moves in order, the last iteration's lines,
/// the depth, the number of lines, the window, the threshold's guess.
struct Task<'a, G: Searchable> {
    pos: &'a G,
    order: &'a [G::Move],
    last: &'a [(G::Move, Score)],
    depth: i32,
    lines: usize,
    window: (Score, Score),
    guess: Option<Score>,
}

/// What the workers share: the board, the halt, each one's cancel flag.
struct Shared<'a, M> {
    board: &'a Mutex<Board<M>>,
    halt: &'a AtomicBool,
    cancels: &'a [AtomicBool],
}

/// One worker's searches (it is the `index`-th), a move at a time, until none is left or
/// the search stops.
fn work<G: Searchable>(
    worker: &mut Run<'_, G>,
    index: usize,
    task: &Task<'_, G>,
    shared: &Shared<'_, G::Move>,
    send: &mpsc::Sender<(G::Move, Score, Option<usize>)>,
) {
    let lock = || shared.board.lock().unwrap_or_else(|e| e.into_inner());
    let halted = |worker: &Run<'_, G>| shared.halt.load(Relaxed) || worker.watch.halted();
    loop {
        let taken = {
            let mut board = lock();
            let guess = (task.window.0, task.guess);
            if halted(worker) {
                None
            } else {
                board.start(index, task.order, task.lines, task.last, guess)
            }
        };
        let (id, (mv, aim, guessed)) = match taken {
            None => return,
            Some(Job::Line(id, search)) => (id, search),
            Some(Job::Ahead(mv, score, level)) => {
                search_ahead(worker, index, task, shared, send, (mv, score, level));
                continue;
            }
        };
        let child = task.pos.play(mv);
        let nodes = worker.watch.nodes;
        let (score, exact) = worker.line_value(&child, task.depth - 1, aim, task.window, guessed);
        log::debug!(
            "lines: {mv:?} {aim:?} at {:?}: {score} ({}), {} nodes{}",
            worker.end_selectivity,
            if exact { "value" } else { "bound" },
            worker.watch.nodes - nodes,
            if worker.watch.aborted {
                ", given up"
            } else {
                ""
            }
        );
        let mut board = lock();
        // A cancel is read under the lock, where it is set, so that none outlives its
        // search.
        shared.cancels[index].store(false, Relaxed);
        if worker.watch.aborted {
            if halted(worker) {
                board.active.retain(|active| active.id != id);
                return;
            }
            // Another worker on this move finished it first.
            worker.watch.resume();
            continue;
        }
        let (line, others) = board.finish(id, Found { mv, score, exact }, task.lines);
        for other in others.into_iter().filter(|&other| other != index) {
            shared.cancels[other].store(true, Relaxed);
        }
        // The iteration is done: searches ahead stop where they are (what they stored
        // serves the next iteration).
        if board.complete(task.order.len(), task.lines) {
            for &other in &board.ahead_workers {
                shared.cancels[other].store(true, Relaxed);
            }
        }
        drop(board);
        if line {
            // The driver is gone only once every worker is.
            let _ = send.send((mv, score, None));
        }
    }
}

/// One search ahead by the `index`-th worker: the value of `mv` at `level`, around its
/// `value` now; told as a line and kept on the board unless given up.
fn search_ahead<G: Searchable>(
    worker: &mut Run<'_, G>,
    index: usize,
    task: &Task<'_, G>,
    shared: &Shared<'_, G::Move>,
    send: &mpsc::Sender<(G::Move, Score, Option<usize>)>,
    (mv, value, level): (G::Move, Score, usize),
) {
    let child = task.pos.play(mv);
    let selectivity = worker.end_selectivity.replace(level);
    let aim = LineAim::Value(Some(value));
    let (score, _) = worker.line_value(&child, task.depth - 1, aim, task.window, false);
    worker.end_selectivity = selectivity;
    log::debug!("lines: {mv:?} ahead at {level}: {score}");
    let mut board = shared.board.lock().unwrap_or_else(|e| e.into_inner());
    shared.cancels[index].store(false, Relaxed);
    let found = !worker.watch.aborted;
    board.finish_ahead(index, found.then_some((mv, score)));
    drop(board);
    if found {
        let _ = send.send((mv, score, Some(level)));
    } else if !(shared.halt.load(Relaxed) || worker.watch.halted()) {
        worker.watch.resume();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOVES: [u8; 5] = [1, 2, 3, 4, 5];

    fn found(mv: u8, score: Score, exact: bool) -> Found<u8> {
        Found { mv, score, exact }
    }

    #[test]
    fn the_first_moves_ask_for_values_and_the_others_for_the_threshold_or_its_guess() {
        let mut board = Board::new(&[], None);
        let last = [(2, 7)];
        let take = |board: &mut Board<u8>, guess| board.take(&MOVES, 2, &last, (-100, guess));
        assert_eq!(
            take(&mut board, Some(3)),
            Some((1, LineAim::Value(None), false))
        );
        assert_eq!(
            take(&mut board, Some(3)),
            Some((2, LineAim::Value(Some(7)), false))
        );
        // Neither value known yet: the guess, marked as one.
        assert_eq!(
            take(&mut board, Some(3)),
            Some((3, LineAim::Above(3), true))
        );
        assert!(!board.insert(found(3, 2, false), 2), "a bound is no line");
        assert!(board.insert(found(1, 10, true), 2));
        // One value known, no guess: the worst value known.
        assert_eq!(take(&mut board, None), Some((4, LineAim::Above(10), true)));
        assert!(board.insert(found(2, 5, true), 2));
        // Both known: the bound 2 at or below the threshold 5 stays as it is.
        assert_eq!(take(&mut board, None), Some((5, LineAim::Above(5), false)));
        assert_eq!(take(&mut board, None), None);
    }

    #[test]
    fn a_bound_above_the_final_threshold_is_searched_again_before_the_iteration_completes() {
        let mut board = Board::new(&[], None);
        board.next = MOVES.len();
        // The guess was 6: move 3 is at most 6, but the second value is 4.
        board.insert(found(1, 9, true), 2);
        board.insert(found(3, 6, false), 2);
        assert!(!board.complete(MOVES.len(), 2), "one value known");
        board.insert(found(2, 4, true), 2);
        assert!(!board.complete(MOVES.len(), 2), "move 3 may beat 4");
        let Some(Job::Line(id, search)) = board.start(0, &MOVES, 2, &[], (-100, None)) else {
            panic!("a search of this iteration");
        };
        assert_eq!(search, (3, LineAim::Above(4), false));
        assert!(!board.complete(MOVES.len(), 2), "its search runs");
        // It is 5: a line, and the second best now.
        assert!(board.finish(id, found(3, 5, true), 2).0);
        assert!(board.complete(MOVES.len(), 2));
        let best: Vec<_> = board.found.iter().map(|f| (f.mv, f.score)).collect();
        assert_eq!(best, [(1, 9), (3, 5), (2, 4)]);
        // A value below the best two is no line.
        assert!(!board.insert(found(4, 1, true), 2));
    }

    #[test]
    fn a_thread_with_nothing_left_joins_a_running_search_and_the_first_result_stands() {
        let moves = [1, 2];
        let mut board = Board::new(&[], None);
        let start =
            |board: &mut Board<u8>, worker| board.start(worker, &moves, 2, &[], (-100, None));
        let search = (1, LineAim::Value(None), false);
        assert_eq!(start(&mut board, 0), Some(Job::Line(0, search)));
        let Some(Job::Line(second, _)) = start(&mut board, 1) else {
            panic!("move 2's search");
        };
        let first = 0;
        // Nothing left to take: the oldest of the searches with the fewest workers.
        assert_eq!(start(&mut board, 2), Some(Job::Line(first, search)));
        assert!(matches!(start(&mut board, 3), Some(Job::Line(id, _)) if id == second));
        // The joining worker finishes first: its line, and the first worker gives up.
        assert_eq!(
            board.finish(first, found(1, 5, true), 2),
            (true, vec![0, 2])
        );
        // The first worker's result, come after it, is no line and counts once.
        assert_eq!(board.finish(first, found(1, 5, true), 2), (false, vec![]));
        assert_eq!(board.found, [found(1, 5, true)]);
        assert!(!board.complete(moves.len(), 2), "move 2 runs");
        assert_eq!(
            board.finish(second, found(2, 3, true), 2),
            (true, vec![1, 3])
        );
        assert!(board.complete(moves.len(), 2));
        assert_eq!(start(&mut board, 0), None);
    }

    #[test]
    fn values_known_ahead_are_not_searched_again_and_idle_threads_search_the_next_level() {
        // Moves 1 and 3 were searched ahead by the last iteration.
        let mut board = Board::new(&[(3, 6), (1, 2)], Some(7));
        assert_eq!(board.found, [found(3, 6, true), found(1, 2, true)]);
        let start =
            |board: &mut Board<u8>, worker| board.start(worker, &MOVES, 2, &[], (-100, None));
        // Move 2 is among the first two in order: its value, move 1 skipped.
        let Some(Job::Line(two, (2, LineAim::Value(None), false))) = start(&mut board, 0) else {
            panic!("move 2's value");
        };
        let Some(Job::Line(_, (4, LineAim::Above(2), false))) = start(&mut board, 1) else {
            panic!("move 4 against the threshold, move 3 skipped");
        };
        let Some(Job::Line(five, (5, _, false))) = start(&mut board, 2) else {
            panic!("move 5");
        };
        // Nothing left to take while searches run: the best line at the next level, then
        // the second; each once.
        assert_eq!(start(&mut board, 3), Some(Job::Ahead(3, 6, 7)));
        assert_eq!(start(&mut board, 4), Some(Job::Ahead(1, 2, 7)));
        assert!(matches!(start(&mut board, 5), Some(Job::Line(..))), "joins");
        assert_eq!(board.ahead_workers, [3, 4]);
        board.finish_ahead(3, Some((3, 5)));
        board.finish_ahead(4, None);
        assert_eq!(
            (board.ahead_workers.len(), &board.ahead_found[..]),
            (0, &[(3, 5)][..])
        );
        // The searches ahead leave this iteration's values as they were.
        board.finish(two, found(2, 1, true), 2);
        assert!(!board.complete(MOVES.len(), 2), "moves 4 and 5 run");
        let four = board.active[0].id;
        board.finish(four, found(4, 0, false), 2);
        board.finish(five, found(5, 9, true), 2);
        assert!(board.complete(MOVES.len(), 2));
        assert_eq!(board.threshold(2), Some(6));
        // No search runs: nothing ahead either.
        let mut idle = Board::new(&[(3, 6)], Some(7));
        idle.next = MOVES.len();
        assert_eq!(idle.start(0, &MOVES, 2, &[], (-100, None)), None);
    }
}
