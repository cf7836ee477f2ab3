//! What runs on the job thread: each [`Job`](super::Job) as a function of the game
//! record, the book and the searcher, reporting progress through a [`JobContext`] and
//! returning its [`Outcome`].

use std::cell::RefCell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;

use crate::game::Score;
use crate::search::{Focus, Limits, Observer, SearchReport, Searcher};

use super::{EngineGame, Job, Outcome, Player, Progress, Record, SearchResult, SharedBook};

/// What a job thread shares with the controller.
pub(super) struct JobContext<'a, M> {
    pub(super) stop: &'a AtomicBool,
    pub(super) progress: &'a Mutex<Vec<Progress<M>>>,
    pub(super) wake: &'a (dyn Fn() + Send + Sync),
}

impl<M> JobContext<'_, M> {
    fn report(&self, item: Progress<M>) {
        if let Ok(mut progress) = self.progress.lock() {
            // Bounded: a client that never reads progress cannot make it grow forever.
            if progress.len() < 4096 {
                progress.push(item);
            }
        }
        (self.wake)();
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// What a job works on, taken from the controller as the job starts.
pub(super) struct JobInput<G: EngineGame> {
    pub(super) record: Record<G>,
    pub(super) book: Result<SharedBook<G>, String>,
    /// The generator of the book's choices, seeded (with `--seed`) by the controller.
    pub(super) book_rng: Option<StdRng>,
    pub(super) player: Player,
    /// The random player's move, chosen by the controller.
    pub(super) random_move: Option<G::Move>,
}

/// Runs `job` to its outcome (on the job thread).
pub(super) fn run<G: EngineGame>(
    job: Job,
    input: JobInput<G>,
    searcher: &mut Searcher<G>,
    context: &JobContext<G::Move>,
) -> Outcome<G::Move> {
    let JobInput {
        record,
        book,
        book_rng,
        player,
        random_move,
    } = input;
    let book = book.as_ref();
    match job {
        Job::Go { .. } if player == Player::Random => {
            Outcome::Move(SearchResult::unsearched(random_move))
        }
        Job::Go { limits } => go(
            &record.current(),
            &limits,
            book.ok(),
            book_rng,
            searcher,
            context,
        ),
        Job::Hint { count, limits } => Outcome::Hints(hint(
            &record.current(),
            count,
            &limits,
            book.ok(),
            searcher,
            context,
        )),
        Job::Analyze { limits } => {
            analyze(&record, &limits, book.ok(), searcher, context);
            Outcome::Analyzed
        }
        Job::Review(settings) => {
            let moves: Vec<G::Move> = record.moves.iter().map(|played| played.mv).collect();
            super::review::review_game(
                searcher,
                &record.start,
                &moves,
                &settings,
                context.stop,
                |row| context.report(Progress::Reviewed(row)),
            );
            Outcome::Reviewed
        }
        Job::Learn => Outcome::Learned(learn(&record, book, searcher)),
        Job::Solve { limits } => go(&record.current(), &limits, None, None, searcher, context),
        Job::Perft { depth } => {
            let started = Instant::now();
            let leaves = perft(&record.current(), depth, context.stop);
            Outcome::Perft {
                leaves,
                elapsed: started.elapsed(),
            }
        }
    }
}

pub(super) fn go<G: EngineGame>(
    pos: &G,
    limits: &Limits,
    book: Option<&SharedBook<G>>,
    mut rng: Option<StdRng>,
    searcher: &mut Searcher<G>,
    context: &JobContext<G::Move>,
) -> Outcome<G::Move> {
    if let Some(pass) = pos.forced_pass() {
        return Outcome::Move(SearchResult::unsearched(Some(pass)));
    }
    if let Some(book) = book
        && let Ok(book) = book.lock()
        && let Some(hint) = book.choose(pos, rng.as_mut())
    {
        return Outcome::Move(SearchResult::book(hint));
    }
    Outcome::Move(SearchResult::from(&search(pos, limits, searcher, context)))
}

/// Tells the controller what a search finds: each iteration, that the search is alive,
/// and for a hint its lines as they are found.
struct Watcher<'c, 'a, M> {
    context: &'c JobContext<'a, M>,
    /// The lines of a hint: the best move's of each iteration (one line wanted), or each
    /// of the best moves' as found (several).
    hint: Option<HintLines<M>>,
}

/// The lines of a hint search, as they come.
struct HintLines<M> {
    /// One line wanted: the iterations' lines go out too (the best move's value may be
    /// a bound that no line inside the iteration gave).
    single: bool,
    /// The latest line of each move, in the order found, with the number of the
    /// iteration that found it (solves of one depth differ in how sure they are).
    latest: RefCell<Vec<(usize, SearchResult<M>)>>,
    /// The iterations completed.
    completed: RefCell<usize>,
}

impl<'c, 'a, M> Watcher<'c, 'a, M> {
    fn new(context: &'c JobContext<'a, M>) -> Self {
        Watcher {
            context,
            hint: None,
        }
    }
}

impl<M: Clone + PartialEq> Watcher<'_, '_, M> {
    /// A line found by iteration `iteration` (counted from 0).
    fn hint_line(&self, report: &SearchReport<M>, iteration: usize) {
        let Some(hint) = &self.hint else {
            return;
        };
        let line = SearchResult::from(report);
        let mut latest = hint.latest.borrow_mut();
        latest.retain(|(_, other)| other.pv.first() != line.pv.first());
        latest.push((iteration, line.clone()));
        self.context.report(Progress::Hint(line));
    }

    /// The best `count` lines: those of the last completed iteration (all the latest ones
    /// where none completed), best first.
    fn best_lines(&self, count: usize) -> Vec<SearchResult<M>> {
        let Some(hint) = &self.hint else {
            return Vec::new();
        };
        let completed = *hint.completed.borrow();
        let mut lines: Vec<SearchResult<M>> = hint
            .latest
            .borrow()
            .iter()
            .filter(|(iteration, _)| completed == 0 || *iteration + 1 == completed)
            .map(|(_, line)| line.clone())
            .collect();
        lines.sort_by_key(|line| -line.score);
        lines.truncate(count);
        lines
    }
}

impl<M: Clone + PartialEq> Observer<M> for Watcher<'_, '_, M> {
    fn iteration(&self, report: &SearchReport<M>) {
        self.context
            .report(Progress::Iteration(SearchResult::from(report)));
        if let Some(hint) = &self.hint {
            let iteration = {
                let mut completed = hint.completed.borrow_mut();
                *completed += 1;
                *completed - 1
            };
            if hint.single {
                self.hint_line(report, iteration);
            }
        }
    }

    fn line(&self, report: &SearchReport<M>) {
        let under_way = self
            .hint
            .as_ref()
            .map_or(0, |hint| *hint.completed.borrow());
        self.hint_line(report, under_way);
    }

    fn progress(&self, nodes: u64, elapsed: Duration) {
        self.context.report(Progress::Nodes { nodes, elapsed });
    }
}

/// One search, reporting each iteration and its progress.
fn search<G: EngineGame>(
    pos: &G,
    limits: &Limits,
    searcher: &mut Searcher<G>,
    context: &JobContext<G::Move>,
) -> SearchReport<G::Move> {
    let watcher = Watcher::new(context);
    searcher.search_focused(pos, limits, context.stop, &Focus::default(), &watcher)
}

/// The best `count` moves: book moves first, then searched moves, each iteration
/// scoring the best of them exactly (their lines go out as they are found, so that a
/// long hint shows its progress).
pub(super) fn hint<G: EngineGame>(
    pos: &G,
    count: usize,
    limits: &Limits,
    book: Option<&SharedBook<G>>,
    searcher: &mut Searcher<G>,
    context: &JobContext<G::Move>,
) -> Vec<SearchResult<G::Move>> {
    let count = count.max(1);
    let mut lines: Vec<SearchResult<G::Move>> = Vec::new();
    if let Some(book) = book
        && let Ok(book) = book.lock()
    {
        lines.extend(
            book.hints(pos)
                .into_iter()
                .take(count)
                .map(SearchResult::book),
        );
    }
    let moves = pos.legal_moves();
    let remaining: Vec<G::Move> = moves
        .as_ref()
        .iter()
        .copied()
        .filter(|mv| !lines.iter().any(|line| line.pv.first() == Some(mv)))
        .collect();
    let wanted = count.saturating_sub(lines.len()).min(remaining.len());
    if wanted == 0 {
        return lines;
    }
    let focus = Focus {
        moves: (!lines.is_empty()).then_some(remaining),
        lines: wanted,
        scores_only: false,
    };
    let watcher = Watcher {
        context,
        hint: Some(HintLines {
            single: wanted == 1,
            latest: RefCell::new(Vec::new()),
            completed: RefCell::new(0),
        }),
    };
    let report = searcher.search_focused(pos, limits, context.stop, &focus, &watcher);
    if context.stopped() && report.depth == 0 {
        return lines;
    }
    let mut found = watcher.best_lines(wanted);
    if found.is_empty() {
        found.push(SearchResult::from(&report));
    }
    lines.extend(found);
    lines
}

/// Scores every position of the game, from the last to the first: from the book where
/// the position is in it (a graph of the book's line is then as flat as the book's
/// value), else by a search of the level's depth or one ply less, so that every search
/// ends with the same side to move (the evaluation swings by about 3 discs between odd
/// and even depths, which drew a zigzag over the moves).
pub(super) fn analyze<G: EngineGame>(
    record: &Record<G>,
    limits: &Limits,
    book: Option<&SharedBook<G>>,
    searcher: &mut Searcher<G>,
    context: &JobContext<G::Move>,
) {
    for moves_made in (0..=record.moves.len()).rev() {
        if context.stopped() {
            return;
        }
        let pos = record.position_after(moves_made);
        let from_book = book
            .and_then(|book| book.lock().ok())
            .and_then(|book| book.value(&pos));
        let score = match from_book {
            _ if pos.is_game_over() => pos.final_score(),
            Some(value) => value,
            None => analysis_search(&pos, limits, searcher, context),
        };
        if context.stopped() {
            return;
        }
        context.report(Progress::Analysis { moves_made, score });
    }
}

/// The score of `pos` for Analyze Game: a search within `limits` to the game's analysis
/// depth ([`EngineGame::analysis_depth`]), scores only (a win/loss/draw solve's value is
/// a bound, which the GUI would plot as a score).
fn analysis_search<G: EngineGame>(
    pos: &G,
    limits: &Limits,
    searcher: &mut Searcher<G>,
    context: &JobContext<G::Move>,
) -> Score {
    let focus = Focus {
        scores_only: true,
        ..Focus::default()
    };
    let limits = Limits {
        depth: limits.depth.map(|depth| pos.analysis_depth(depth)),
        ..limits.clone()
    };
    let watcher = Watcher::new(context);
    searcher
        .search_focused(pos, &limits, context.stop, &focus, &watcher)
        .score
}

/// Perft that checks `stop` between subtrees small enough to count in a moment.
pub(super) fn perft<G: EngineGame>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    const SMALL: u32 = 8;
    if depth <= SMALL {
        return Some(pos.perft(depth));
    }
    let moves = pos.legal_moves();
    if moves.as_ref().is_empty() {
        return Some(1);
    }
    let mut total = 0;
    for &mv in moves.as_ref() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        total += perft(&pos.play(mv), depth - 1, stop)?;
    }
    Some(total)
}

pub(super) fn learn<G: EngineGame>(
    record: &Record<G>,
    book: Result<&SharedBook<G>, &String>,
    searcher: &mut Searcher<G>,
) -> Result<String, String> {
    let book = book.map_err(String::clone)?;
    let mut book = book
        .lock()
        .map_err(|_| "the book is unusable".to_string())?;
    let moves: Vec<G::Move> = record.moves.iter().map(|played| played.mv).collect();
    book.learn(&record.start, &moves, searcher)
}
