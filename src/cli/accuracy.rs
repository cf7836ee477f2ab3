//! `iago accuracy`: how good the moves chosen by a fixed-depth search are, per evaluator
//! or per external NBoard engine, on problems whose every move has a known exact score
//! (OBF files such as hard-20.obf), and how far the search's score is from the exact one.

use super::out::{Failure, outln};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::args::Args;
use iago_arena::driver::{Driver, Fault, MoveRequest};
use iago_arena::nboard::NBoardDriver;
use iago_arena::record::ArenaRecord;
use iago_arena::{EngineSpec, Protocol, TimeControl};
use iago_core::eval::{OTHELLO_EVALUATORS, othello_evaluator};
use iago_core::othello::obf::{ObfProblem, read_obf_file};
use iago_core::othello::{DISC, Move, Position};
use iago_core::search::{Limits, Searcher};

const HELP: &str = "usage: iago accuracy [--file OBF] [--eval A,B,...] [--engine SPEC ...]
                     [--depths 4,8,12] [--problems N] [--budget SECONDS]

For each evaluator and depth, searches every problem of the OBF file (default
../shared/data/problems/hard-20.obf) to that depth and compares the chosen move's exact
score with the best move's: prints the mean error in discs, how often the best move was
chosen, the RMSE of the search's score against the exact score (discs), nodes, time and
nodes per second. --problems uses the first N problems; --budget stops a cell
(evaluator, depth) after that many seconds, reporting how many problems it finished.
Defaults: every evaluator, depths 4,8,12, all problems, no budget.

--engine NAME=nboard:COMMAND (repeatable) measures another engine the same way, driven
over NBoard as `iago match` drives it (`set depth D`, the problem as `set game`, `go`);
its score is the evaluation of its `===` reply. With --engine, only the evaluators
named by --eval are measured (none without it).";

/// Runs `iago accuracy` with `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let mut file = "../shared/data/problems/hard-20.obf".to_string();
    let mut evaluators: Vec<String> = OTHELLO_EVALUATORS.iter().map(|s| s.to_string()).collect();
    let mut depths = vec![4u32, 8, 12];
    let mut limit = usize::MAX;
    let mut budget = f64::INFINITY;
    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut evaluators_named = false;
    let mut args = Args::new("accuracy", args);
    while let Some(word) = args.next() {
        match word {
            "--help" | "-h" => {
                outln!("{HELP}")?;
                return Ok(());
            }
            "--file" => file = args.value("--file")?,
            "--engine" => {
                let spec: EngineSpec = args.value("--engine")?.parse()?;
                if spec.protocol != Protocol::NBoard {
                    return Err(format!(
                        "--engine {}: accuracy drives NBoard engines only",
                        spec.name
                    )
                    .into());
                }
                engines.push(spec);
            }
            "--eval" => {
                evaluators_named = true;
                evaluators = args
                    .value("--eval")?
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
            }
            "--depths" => {
                let text = args.value("--depths")?;
                depths = text
                    .split(',')
                    .map(|d| {
                        d.trim()
                            .parse::<u32>()
                            .ok()
                            .filter(|d| (1..=60).contains(d))
                    })
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| format!("--depths: {text:?} is not a list of depths 1..60"))?;
            }
            "--problems" => {
                let text = args.value("--problems")?;
                limit = text
                    .parse()
                    .map_err(|_| format!("--problems: {text:?} is not a whole number"))?;
            }
            "--budget" => {
                let text = args.value("--budget")?;
                budget = text
                    .parse()
                    .ok()
                    .filter(|b: &f64| *b > 0.0)
                    .ok_or_else(|| format!("--budget: {text:?} is not a positive number"))?;
            }
            other => return Err(args.unknown(other).into()),
        }
    }
    if !engines.is_empty() && !evaluators_named {
        evaluators.clear();
    }
    let problems = read_obf_file(&file).map_err(|e| e.to_string())?;
    let problems = &problems[..problems.len().min(limit)];
    if problems.is_empty() {
        return Err(format!("{file}: no problems").into());
    }
    // Check every name before the long runs start.
    for name in &evaluators {
        othello_evaluator(name)?;
    }
    outln!(
        "accuracy on {file}: {} problems; error = best score - chosen move's score (discs)",
        problems.len()
    )?;
    outln!(
        "evaluator            depth  problems  mean-error  best-move  score-rmse      nodes   seconds    nodes/s"
    )?;
    let stop = AtomicBool::new(false);
    for name in &evaluators {
        let mut searcher = Searcher::new(othello_evaluator(name)?);
        for &depth in &depths {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let mut tally = Tally::default();
            let mut nodes = 0u64;
            let start = Instant::now();
            for problem in problems {
                if start.elapsed().as_secs_f64() >= budget {
                    break;
                }
                if problem.best_score().is_none() {
                    continue;
                }
                searcher.clear();
                let report = searcher.search(&problem.position, &limits, &stop, &mut |_| {});
                nodes += report.nodes;
                let score = f64::from(report.score) / f64::from(DISC);
                if let Some(mv) = report.best_move {
                    tally.add(problem, mv, score);
                }
            }
            let seconds = start.elapsed().as_secs_f64();
            let speed = format!(
                "{nodes:9}  {seconds:8.1}  {:9.0}",
                nodes as f64 / seconds.max(1e-9)
            );
            tally.print(name, depth, &speed)?;
        }
    }
    for spec in &engines {
        for &depth in &depths {
            let named = |fault: Fault| format!("{}: {fault}", spec.name);
            let mut tally = Tally::default();
            let start = Instant::now();
            let control = TimeControl::Depth(depth);
            let mut engine = NBoardDriver::<Position>::start(&spec.command, control, false, far())
                .map_err(named)?;
            for problem in problems {
                if start.elapsed().as_secs_f64() >= budget {
                    break;
                }
                let record = ArenaRecord::new(problem.position, "black", "white");
                engine.new_game(&record, far()).map_err(named)?;
                let request = MoveRequest {
                    record: &record,
                    remaining: [None, None],
                    deadline: far(),
                };
                let reply = engine.request_move(&request).map_err(named)?;
                // NTest prints a zero evaluation as nothing.
                tally.add(problem, reply.mv, reply.eval.unwrap_or(0.0));
            }
            let seconds = start.elapsed().as_secs_f64();
            let speed = format!("{:>9}  {seconds:8.1}  {:>9}", "-", "-");
            tally.print(&spec.name, depth, &speed)?;
        }
    }
    Ok(())
}

/// A deadline no fixed-depth search on these problems comes near.
fn far() -> Instant {
    Instant::now() + Duration::from_secs(3600)
}

/// The figures of one row: chosen moves against the best, scores against the exact.
#[derive(Default)]
struct Tally {
    done: usize,
    error_sum: i64,
    best_count: usize,
    squared_score_error: f64,
}

impl Tally {
    fn add(&mut self, problem: &ObfProblem, chosen: Move, score: f64) {
        let Some(best) = problem.best_score() else {
            return;
        };
        let Some(&(_, chosen)) = problem.moves.iter().find(|(m, _)| *m == chosen) else {
            log::warn!("accuracy: a chosen move has no listed score; problem skipped");
            return;
        };
        self.done += 1;
        self.error_sum += i64::from(best - chosen);
        self.best_count += usize::from(chosen == best);
        self.squared_score_error += (score - f64::from(best)).powi(2);
    }

    fn print(&self, name: &str, depth: u32, speed: &str) -> Result<(), Failure> {
        let n = self.done.max(1) as f64;
        outln!(
            "{name:<20} {depth:5}  {:8}  {:10.2}  {:8.1}%  {:10.2}  {speed}",
            self.done,
            self.error_sum as f64 / n,
            100.0 * self.best_count as f64 / n,
            (self.squared_score_error / n).sqrt(),
        )
    }
}
