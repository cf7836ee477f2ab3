//! `iago solve FILE.obf [OPTIONS]`: solves endgame problems exactly and compares the
//! results with the scores the file lists.

use super::out::{Failure, outln};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::args::Args;
use iago_core::eval::othello_evaluator;
use iago_core::game::Game;
use iago_core::othello::DISC;
use iago_core::othello::obf::read_obf_file;
use iago_core::search::{Confidence, Limits, OrderingRules, Searcher};

const HELP: &str = "usage: iago solve FILE.obf [OPTIONS]

Solves each position of an OBF file exactly (tables cleared between positions) and
prints a table: number, empties, best move, score, the file's best score, nodes, time
and nodes per second, then the totals. A line is marked `WRONG` when the score differs
from the file's or the move is not one of the file's best moves.

Options:
  --max-nodes N    give up a position after N nodes (its line says `unsolved`)
  --first N        number of the file's first position (default: from a name like
                   fforum-20-39.obf, else 1)
  --exact-only     no selective solves first (they usually order the exact one)
  --eval NAME      evaluator for the ordering searches (default: the default)
  --hash MB        table size (default 64)
  --threads N      solver threads, at most one per CPU core (default 1); with more
                   than one, node counts vary from run to run
  --no-hash-move, --no-evaluation, --no-mobility, --no-parity, --no-stability
                   switch off one move-ordering rule (to measure what it buys)
  -h, --help       print this help";

struct Options {
    file: String,
    max_nodes: Option<u64>,
    first: Option<usize>,
    eval: String,
    hash_mb: usize,
    rules: OrderingRules,
    exact_only: bool,
    threads: usize,
}

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut options = Options {
        file: String::new(),
        max_nodes: None,
        first: None,
        eval: "default".into(),
        hash_mb: iago_core::search::DEFAULT_HASH_MB,
        rules: OrderingRules::default(),
        exact_only: false,
        threads: 1,
    };
    let mut file = None;
    let mut args = Args::new("solve", args);
    while let Some(arg) = args.next() {
        match arg {
            "-h" | "--help" => return Ok(None),
            "--max-nodes" => options.max_nodes = Some(args.number(arg)?),
            "--first" => options.first = Some(args.number(arg)?),
            "--hash" => options.hash_mb = args.ranged(arg, &iago_core::options::HASH_MB)?,
            "--threads" => options.threads = args.ranged(arg, &iago_core::options::THREADS)?,
            "--eval" => options.eval = args.value(arg)?,
            "--exact-only" => options.exact_only = true,
            "--no-hash-move" => options.rules.hash_move = false,
            "--no-evaluation" => options.rules.evaluation = false,
            "--no-mobility" => options.rules.mobility = false,
            "--no-parity" => options.rules.parity = false,
            "--no-stability" => options.rules.stability = false,
            _ if arg.starts_with('-') => return Err(args.unknown(arg)),
            _ if file.is_none() => file = Some(arg.to_string()),
            _ => return Err(format!("solve: unexpected argument {arg:?}")),
        }
    }
    options.file = file.ok_or("solve: missing FILE.obf (try `iago solve --help`)")?;
    Ok(Some(options))
}

/// The first number of a range `A-B` that ends a name like `fforum-20-39.obf` (a name
/// like `hard-20.obf` has no range: its 20 is a number of empties).
fn first_number(file: &str) -> Option<usize> {
    let name = Path::new(file).file_stem()?.to_str()?;
    let (head, last) = name.rsplit_once('-')?;
    if last.is_empty() || !last.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    head[head.len() - digits..].parse().ok()
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = parse_args(args)? else {
        outln!("{HELP}")?;
        return Ok(());
    };
    let problems = read_obf_file(&options.file).map_err(|e| e.to_string())?;
    if problems.is_empty() {
        return Err(format!("solve: {} holds no problem", options.file).into());
    }
    let first = options
        .first
        .or_else(|| first_number(&options.file))
        .unwrap_or(1);
    let mut searcher = Searcher::new(othello_evaluator(&options.eval)?);
    searcher.set_hash_mb(options.hash_mb);
    searcher.set_ordering(options.rules);
    searcher.set_selectivity(!options.exact_only);
    searcher.set_threads(options.threads);
    searcher
        .allocate_tables()
        .map_err(|e| format!("solve: --hash {}: {e}", options.hash_mb))?;
    let stop = AtomicBool::new(false);
    outln!(
        "{:>4} {:>3} {:>5} {:>6} {:>8} {:>13} {:>9} {:>12}",
        "#",
        "emp",
        "move",
        "score",
        "expected",
        "nodes",
        "time s",
        "nodes/s"
    )?;
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    let (mut right, mut wrong, mut unsolved) = (0, 0, 0);
    for (i, problem) in problems.iter().enumerate() {
        let pos = &problem.position;
        let limits = Limits {
            depth: Some(64),
            nodes: options.max_nodes,
            ..Limits::default()
        };
        searcher.clear();
        let started = Instant::now();
        let report = searcher.search(pos, &limits, &stop, &mut |_| {});
        let elapsed = started.elapsed();
        nodes += report.nodes;
        time += elapsed;
        let mv = report
            .best_move
            .map_or("--".to_string(), |mv| pos.format_move(mv));
        let score = report.score / DISC;
        let expected = problem.best_score();
        let best_moves: Vec<_> = problem
            .moves
            .iter()
            .filter(|&&(_, s)| Some(s) == expected)
            .map(|&(m, _)| m)
            .collect();
        let verdict = if report.confidence != Confidence::Exact {
            unsolved += 1;
            "unsolved"
        } else if expected.is_some_and(|e| e != score)
            || report
                .best_move
                .is_some_and(|m| !best_moves.is_empty() && !best_moves.contains(&m))
        {
            wrong += 1;
            "WRONG"
        } else {
            right += 1;
            ""
        };
        outln!(
            "{:>4} {:>3} {:>5} {:>+6} {:>8} {:>13} {:>9.3} {:>12.0} {verdict}",
            first + i,
            pos.empty_count(),
            mv,
            score,
            expected.map_or("?".into(), |e| format!("{e:+}")),
            report.nodes,
            elapsed.as_secs_f64(),
            report.nodes as f64 / elapsed.as_secs_f64().max(1e-9),
        )?;
    }
    outln!(
        "total: {} positions, {right} right, {wrong} wrong, {unsolved} unsolved; {nodes} nodes, {:.3} s, {:.0} nodes/s",
        problems.len(),
        time.as_secs_f64(),
        nodes as f64 / time.as_secs_f64().max(1e-9)
    )?;
    if wrong > 0 {
        return Err(format!("{wrong} wrong results").into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::first_number;

    #[test]
    fn the_first_number_comes_from_a_range_at_the_end_of_the_name() {
        assert_eq!(first_number("../data/fforum-20-39.obf"), Some(20));
        assert_eq!(first_number("ffo40-59.obf"), Some(40));
        assert_eq!(first_number("hard-20.obf"), None);
        assert_eq!(first_number("fforum.obf"), None);
        assert_eq!(first_number("set-1-x.obf"), None);
    }
}
