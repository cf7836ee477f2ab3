//! What runs on the job thread: each [`Job`](super::Job) as a function of the game
//! record, the book and the searcher, reporting progress through a [`JobContext`] and
//! returning its [`Outcome`].

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand::rngs::StdRng;

use crate::search::{Confidence, Limits, SearchReport, Searcher};

use super::{Choice, EngineGame, HintLine, Outcome, Progress, Record, SharedBook};

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

pub(super) fn go<G: EngineGame>(
    pos: &G,
    limits: &Limits,
    book: Option<&SharedBook<G>>,
    mut rng: Option<StdRng>,
    searcher: &mut Searcher<G>,
    context: &JobContext<G::Move>,
) -> Outcome<G::Move> {
    if let Some(pass) = pos.forced_pass() {
        return Outcome::Move(Choice::unsearched(Some(pass)));
    }
    if let Some(book) = book
        && let Ok(book) = book.lock()
        && let Some(hint) = book.choose(pos, rng.as_mut())
    {
        return Outcome::Move(Choice {
            confidence: hint.confidence(),
            mv: Some(hint.mv),
            score: hint.score,
            depth: hint.depth,
            pv: hint.pv,
            nodes: 0,
            elapsed: Duration::ZERO,
            from_book: true,
        });
    }
    Outcome::Move(search(pos, limits, searcher, context).into())
}

/// One search, reporting each iteration as progress.
fn search<G: EngineGame>(
    pos: &G,
    limits: &Limits,
    searcher: &mut Searcher<G>,
    context: &JobContext<G::Move>,
) -> SearchReport<G::Move> {
    searcher.search(pos, limits, context.stop, &mut |report| {
        context.report(Progress::iteration(report))
    })
}

/// The best `count` moves: book moves first, then searched moves. One move is a plain
/// search; several search every move one ply deeper and keep the best.
pub(super) fn hint<G: EngineGame>(
    pos: &G,
    count: usize,
    limits: &Limits,
    book: Option<&SharedBook<G>>,
    searcher: &mut Searcher<G>,
    context: &JobContext<G::Move>,
) -> Vec<HintLine<G::Move>> {
    let count = count.max(1);
    let mut lines: Vec<HintLine<G::Move>> = Vec::new();
    if let Some(book) = book
        && let Ok(book) = book.lock()
    {
        for hint in book.hints(pos).into_iter().take(count) {
            lines.push(HintLine {
                confidence: hint.confidence(),
                pv: hint.pv,
                score: hint.score,
                depth: hint.depth,
                book_games: Some(hint.games),
            });
        }
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
    if wanted == 1 && lines.is_empty() {
        // Each iteration's line goes out as it completes, so that a long hint deepens
        // before the user's eyes.
        let report = searcher.search(pos, limits, context.stop, &mut |report| {
            context.report(Progress::iteration(report));
            context.report(Progress::Hint(HintLine::from(report)));
        });
        if !context.stopped() || report.depth > 0 {
            lines.push(HintLine::from(&report));
        }
        return lines;
    }
    let child_limits = Limits {
        depth: limits.depth.map(|d| d.saturating_sub(1).max(1)),
        ..limits.clone()
    };
    let mut searched: Vec<HintLine<G::Move>> = Vec::new();
    for mv in remaining {
        if context.stopped() {
            break;
        }
        let child = pos.play(mv);
        let mut pv = vec![mv];
        let (score, depth, confidence) = if child.is_game_over() {
            (-child.final_score(), 1, Confidence::Exact)
        } else {
            let report = search(&child, &child_limits, searcher, context);
            pv.extend(report.pv);
            (-report.score, report.depth + 1, report.confidence)
        };
        if context.stopped() {
            break;
        }
        let line = HintLine {
            pv,
            score,
            depth,
            confidence,
            book_games: None,
        };
        // A move's line goes out when its search ends if it is among the best `wanted`
        // so far, so that a long hint shows its progress without listing every move.
        let better = searched
            .iter()
            .filter(|other| other.score > line.score)
            .count();
        if better < wanted {
            context.report(Progress::Hint(line.clone()));
        }
        searched.push(line);
    }
    searched.sort_by_key(|line| -line.score);
    lines.extend(searched.into_iter().take(wanted));
    lines
}

/// Scores every position of the game, from the last to the first.
pub(super) fn analyze<G: EngineGame>(
    record: &Record<G>,
    limits: &Limits,
    searcher: &mut Searcher<G>,
    context: &JobContext<G::Move>,
) {
    for moves_made in (0..=record.moves.len()).rev() {
        if context.stopped() {
            return;
        }
        let pos = record.position_after(moves_made);
        let score = if pos.is_game_over() {
            pos.final_score()
        } else {
            search(&pos, limits, searcher, context).score
        };
        if context.stopped() {
            return;
        }
        context.report(Progress::Analysis { moves_made, score });
    }
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
    book: Option<&SharedBook<G>>,
    searcher: &mut Searcher<G>,
) -> Result<String, String> {
    let book = book.ok_or("no book to learn into (--book none)")?;
    let mut book = book
        .lock()
        .map_err(|_| "the book is unusable".to_string())?;
    let moves: Vec<G::Move> = record.moves.iter().map(|played| played.mv).collect();
    book.learn(&record.start, &moves, searcher)
}
