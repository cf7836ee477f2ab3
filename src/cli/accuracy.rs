//! `iago accuracy`: how good the moves chosen by a fixed-depth search are, per evaluator
//! or per external NBoard engine, on problems whose every move has a known exact score
//! (OBF files such as hard-20.obf), and how far the search's score is from the exact one.

use super::out::{Failure, outln};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Parser;

use super::args::{self, Refusal, number};
use iago_arena::driver::{Driver, Fault, MoveRequest};
use iago_arena::nboard::NBoardDriver;
use iago_arena::record::ArenaRecord;
use iago_arena::{EngineSpec, Protocol, TimeControl};
use iago_core::options::Refused;
use iago_core::othello::eval::{OTHELLO_EVALUATORS, othello_evaluator};
use iago_core::othello::obf::{ObfProblem, read_obf_file};
use iago_core::othello::{DISC, Move, Position};
use iago_core::search::{Limits, Searcher};

/// For each evaluator and depth, searches every problem of the OBF file to that depth and
/// compares the chosen move's exact score with the best move's: prints the mean error in
/// discs, how often the best move was chosen, the RMSE of the search's score against the
/// exact score (discs), nodes, time and nodes per second. --engine NAME=nboard:COMMAND
/// (repeatable) measures another engine the same way, driven over NBoard as `iago match`
/// drives it (`set depth D`, the problem as `set game`, `go`); its score is the
/// evaluation of its `===` reply. With --engine, only the evaluators named by --eval are
/// measured (none without it).
#[derive(Parser, Debug)]
#[command(
    name = "iago accuracy",
    override_usage = "iago accuracy [--file OBF] [--eval A,B,...] [--engine SPEC ...] [--depths 4,8,12] [--problems N] [--budget SECONDS]"
)]
struct Options {
    /// The problems
    #[arg(
        long,
        value_name = "OBF",
        default_value = "../shared/data/problems/hard-20.obf"
    )]
    file: String,
    /// The evaluators measured (default: every one)
    #[arg(long = "eval", value_name = "A,B,...", value_delimiter = ',')]
    evaluators: Option<Vec<String>>,
    /// An NBoard engine measured the same way: NAME=nboard:COMMAND (repeatable)
    #[arg(long = "engine", value_name = "SPEC")]
    engines: Vec<String>,
    /// The depths, 1 to 60
    #[arg(long, value_name = "D,...", value_delimiter = ',', default_value = "4,8,12", value_parser = depth)]
    depths: Vec<u32>,
    /// The first N problems only (default: all)
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    problems: Option<usize>,
    /// Stop a cell (evaluator, depth) after that many seconds, reporting how many
    /// problems it finished (default: no budget)
    #[arg(long, value_name = "SECONDS", value_parser = args::seconds)]
    budget: Option<Duration>,
}

fn depth(text: &str) -> Result<u32, Refusal> {
    match number::<u32>(text)? {
        depth @ 1..=60 => Ok(depth),
        _ => Err(Refusal::Refused(Refused::OutOfRange(
            "a depth must be between 1 and 60".into(),
        ))),
    }
}

/// Runs `iago accuracy` with `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = args::parse::<Options>("accuracy", args)? else {
        return Ok(());
    };
    let mut engines = Vec::new();
    for text in &options.engines {
        let spec: EngineSpec = text.parse()?;
        if spec.protocol != Protocol::NBoard {
            return Err(format!(
                "--engine {}: accuracy drives NBoard engines only",
                spec.name
            )
            .into());
        }
        engines.push(spec);
    }
    let evaluators: Vec<String> = match &options.evaluators {
        Some(names) => (names.iter().map(|name| name.trim().to_string()))
            .filter(|name| !name.is_empty())
            .collect(),
        None if engines.is_empty() => OTHELLO_EVALUATORS.iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    let file = &options.file;
    let problems = read_obf_file(file).map_err(|e| e.to_string())?;
    let problems = &problems[..problems.len().min(options.problems.unwrap_or(usize::MAX))];
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
    let budget = options.budget.map_or(f64::INFINITY, |b| b.as_secs_f64());
    for name in &evaluators {
        measure_evaluator(name, &options.depths, problems, budget)?;
    }
    for spec in &engines {
        measure_engine(spec, &options.depths, problems, budget)?;
    }
    Ok(())
}

/// The rows of one evaluator: its searches at each depth.
fn measure_evaluator(
    name: &str,
    depths: &[u32],
    problems: &[ObfProblem],
    budget: f64,
) -> Result<(), Failure> {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(othello_evaluator(name)?);
    for &depth in depths {
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
    Ok(())
}

/// The rows of an NBoard engine: its replies at each depth (`set depth D`).
fn measure_engine(
    spec: &EngineSpec,
    depths: &[u32],
    problems: &[ObfProblem],
    budget: f64,
) -> Result<(), Failure> {
    for &depth in depths {
        let named = |fault: Fault| format!("{}: {fault}", spec.name);
        let mut tally = Tally::default();
        let start = Instant::now();
        let control = TimeControl::Depth(depth);
        let mut engine =
            NBoardDriver::<Position>::start(&spec.command, control, Default::default(), far())
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
