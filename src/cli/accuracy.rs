//! `iago accuracy`: how good the moves chosen by a fixed-depth search are, per evaluator,
//! on problems whose every move has a known exact score (OBF files such as hard-20.obf).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use iago::eval::{OTHELLO_EVALUATORS, othello_evaluator};
use iago::othello::obf::read_obf_file;
use iago::search::{Limits, Searcher};

const HELP: &str = "usage: iago accuracy [--file OBF] [--eval A,B,...] [--depths 4,8,12]
                     [--problems N] [--budget SECONDS]

For each evaluator and depth, searches every problem of the OBF file (default
../shared/data/problems/hard-20.obf) to that depth and compares the chosen move's exact
score with the best move's: prints the mean error in discs, how often the best move was
chosen, nodes, time and nodes per second. --problems uses the first N problems; --budget
stops a cell (evaluator, depth) after that many seconds, reporting how many problems it
finished. Defaults: every evaluator, depths 4,8,12, all problems, no budget.";

/// Runs `iago accuracy` with `args`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut file = "../shared/data/problems/hard-20.obf".to_string();
    let mut evaluators: Vec<String> = OTHELLO_EVALUATORS.iter().map(|s| s.to_string()).collect();
    let mut depths = vec![4u32, 8, 12];
    let mut limit = usize::MAX;
    let mut budget = f64::INFINITY;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let mut value = |name: &str| {
            words
                .next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match word.as_str() {
            "--help" | "-h" => {
                println!("{HELP}");
                return Ok(());
            }
            "--file" => file = value("--file")?,
            "--eval" => {
                evaluators = value("--eval")?
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
            }
            "--depths" => {
                let text = value("--depths")?;
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
                let text = value("--problems")?;
                limit = text
                    .parse()
                    .map_err(|_| format!("--problems: {text:?} is not a whole number"))?;
            }
            "--budget" => {
                let text = value("--budget")?;
                budget = text
                    .parse()
                    .ok()
                    .filter(|b: &f64| *b > 0.0)
                    .ok_or_else(|| format!("--budget: {text:?} is not a positive number"))?;
            }
            other => return Err(format!("accuracy: unknown option {other:?}\n{HELP}")),
        }
    }
    let problems = read_obf_file(&file).map_err(|e| format!("{file}: {e}"))?;
    let problems = &problems[..problems.len().min(limit)];
    if problems.is_empty() {
        return Err(format!("{file}: no problems"));
    }
    // Check every name before the long runs start.
    for name in &evaluators {
        othello_evaluator(name)?;
    }
    println!(
        "accuracy on {file}: {} problems; error = best score - chosen move's score (discs)",
        problems.len()
    );
    println!(
        "evaluator            depth  problems  mean-error  best-move      nodes   seconds    nodes/s"
    );
    let stop = AtomicBool::new(false);
    for name in &evaluators {
        let mut searcher = Searcher::new(othello_evaluator(name)?);
        for &depth in &depths {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let (mut done, mut error_sum, mut best_count, mut nodes) = (0usize, 0i64, 0usize, 0u64);
            let start = Instant::now();
            for problem in problems {
                if start.elapsed().as_secs_f64() >= budget {
                    break;
                }
                let Some(best) = problem.best_score() else {
                    continue;
                };
                searcher.clear();
                let report = searcher.search(&problem.position, &limits, &stop, &mut |_| {});
                nodes += report.nodes;
                let chosen = report
                    .best_move
                    .and_then(|mv| problem.moves.iter().find(|(m, _)| *m == mv))
                    .map(|&(_, score)| score);
                let Some(chosen) = chosen else {
                    log::warn!("accuracy: a chosen move has no listed score; problem skipped");
                    continue;
                };
                done += 1;
                error_sum += i64::from(best - chosen);
                best_count += usize::from(chosen == best);
            }
            let seconds = start.elapsed().as_secs_f64();
            println!(
                "{name:<20} {depth:5}  {done:8}  {:10.2}  {:8.1}%  {nodes:9}  {seconds:8.1}  {:9.0}",
                error_sum as f64 / done.max(1) as f64,
                100.0 * best_count as f64 / done.max(1) as f64,
                nodes as f64 / seconds.max(1e-9)
            );
        }
    }
    Ok(())
}
