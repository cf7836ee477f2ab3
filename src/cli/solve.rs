//! `iago solve FILE.obf [OPTIONS]`: solves endgame problems exactly and compares the
//! results with the scores the file lists.

use super::out::{Failure, outln};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Parser;

use super::args::{self, EngineOptions, Flags, number};
use super::bench::Ordering;
use iago_core::game::Game;
use iago_core::othello::obf::read_obf_file;
use iago_core::othello::{DISC, Position};
use iago_core::search::{Confidence, Limits};

/// Solves each position of an OBF file exactly (tables cleared between positions) and
/// prints a table: number, empties, best move, score, the file's best score, nodes, time
/// and nodes per second, then the totals. A line is marked `WRONG` when the score differs
/// from the file's or the move is not one of the file's best moves. With more than one
/// thread, node counts vary from run to run.
#[derive(Parser, Debug)]
#[command(name = "iago solve", override_usage = "iago solve FILE.obf [OPTIONS]")]
struct Options {
    /// The problems, one a line: a position string and the moves' scores
    #[arg(value_name = "FILE.obf")]
    file: String,
    /// Give up a position after N nodes (its line says `unsolved`)
    #[arg(long, value_name = "N", value_parser = number::<u64>)]
    max_nodes: Option<u64>,
    /// Number of the file's first position (default: from a name like
    /// fforum-20-39.obf, else 1)
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    first: Option<usize>,
    /// No selective solves first (they usually order the exact one)
    #[arg(long)]
    exact_only: bool,
    #[command(flatten)]
    engine: EngineOptions<SolveFlags>,
    #[command(flatten)]
    rules: Ordering,
}

#[derive(Clone, Debug, Default)]
struct SolveFlags;

impl Flags for SolveFlags {
    const FLAGS: &'static [&'static str] = &["--eval", "--hash", "--threads"];
}

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
    let Some(options) = args::parse::<Options>("solve", args)? else {
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
    let mut searcher =
        args::searcher::<Position>("solve", &options.engine.settings, options.rules.rules())?;
    searcher.set_selectivity(!options.exact_only);
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
