//! `iago bench [OPTIONS]`: fixed-depth searches of a fixed set of positions. The total
//! node count is the search's signature (it changes only when the search's behaviour
//! does); nodes per second measure its speed.

use super::out::{Failure, outln};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Parser;

use super::args::{self, EngineOptions, Flags, ranged};
use iago_core::game::Game;
use iago_core::mill::notation::parse_position as mill_position;
use iago_core::mill::{MillPosition, Rules};
use iago_core::options::{self, Settings};
use iago_core::othello::notation::parse_position;
use iago_core::othello::{DISC, Move, Position};
use iago_core::search::{Limits, OrderingRules, SearchReport, Searchable, Searcher};

/// Searches a fixed set of positions (openings and midgames) at a fixed depth, each from
/// cleared tables, and prints each search and the totals: the node count is the search's
/// signature, nodes per second its speed. With more than one thread, node counts and
/// times vary from run to run.
#[derive(Parser, Debug)]
#[command(name = "iago bench", override_usage = "iago bench [OPTIONS]")]
struct BenchArgs {
    /// Search depth (default 10; Mill 8)
    #[arg(long, value_name = "N", value_parser = ranged(&options::DEPTH))]
    depth: Option<u32>,
    #[command(flatten)]
    engine: EngineOptions<BenchFlags>,
    /// Nine Men's Morris positions of every phase instead (evaluator phased; with
    /// --no-killers, --no-history, --no-reductions, --no-quiescence for its search)
    #[arg(long, value_name = "mill")]
    game: Option<String>,
    /// Full-width search (no Multi-ProbCut)
    #[arg(long)]
    no_probcut: bool,
    #[command(flatten)]
    rules: Ordering,
}

#[derive(Clone, Debug, Default)]
struct BenchFlags;

impl Flags for BenchFlags {
    const FLAGS: &'static [&'static str] = &["--eval", "--hash", "--threads", "--nodes"];
}

/// The move-ordering rules a benchmark or a solve may switch off, one at a time, to
/// measure what each buys.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Ordering {
    /// No hash move first
    #[arg(long)]
    no_hash_move: bool,
    /// No ordering by the static evaluation
    #[arg(long)]
    no_evaluation: bool,
    /// No ordering by the opponent's mobility
    #[arg(long)]
    no_mobility: bool,
    /// No parity in the endgame's ordering
    #[arg(long)]
    no_parity: bool,
    /// No stable discs in the endgame's cuts
    #[arg(long)]
    no_stability: bool,
    /// Mill: no killer moves
    #[arg(long)]
    no_killers: bool,
    /// Mill: no history ordering
    #[arg(long)]
    no_history: bool,
    /// Mill: no late-move reductions
    #[arg(long)]
    no_reductions: bool,
    /// Mill: no quiescence search
    #[arg(long)]
    no_quiescence: bool,
}

impl Ordering {
    pub fn rules(&self) -> OrderingRules {
        OrderingRules {
            hash_move: !self.no_hash_move,
            evaluation: !self.no_evaluation,
            mobility: !self.no_mobility,
            parity: !self.no_parity,
            stability: !self.no_stability,
            killers: !self.no_killers,
            history: !self.no_history,
            reductions: !self.no_reductions,
            quiescence: !self.no_quiescence,
        }
    }
}

const MILL_POSITIONS: &[&str] = &[
    "--------/-B-B----/-WWW---B w 6 6 0",
    "----W---/BW-B-W-W/B-BW---B w 4 4 0",
    "-W------/-B-B-B-B/WWWWW-WB w 2 2 0",
    "W-BWWBBB/W-BBWWBB/-W-W---W b 0 1 0",
    "WBWWWWWB/BBBW-B--/-W-B---- w 0 0 0",
    "-W-WBW-B/---B-B-B/BWWWWBWB b 0 0 1",
    "B-W-W---/BW-B-W-W/BWBWWBBB w 0 0 2",
    "WB-W-WBB/W-BBWBBB/-W-W-WBW w 0 0 4",
    "WBWWWWWB/B-B-WB--/WB-B---- b 0 0 3",
    "---BWWW-/BWBWBBW-/-B--WWWB w 0 0 1",
    "WBWBWB-W/WWWB-BWB/-B-WB--- w 0 0 8",
    "BW-B-BWW/BW-WBW--/-BWWBBWB w 0 0 10",
    "B-----W-/-B-B-BWB/WWWWWBWW b 0 0 5",
    "WB-B-WB-/-W-----B/-------- w 0 0 0",
    "W-WB-W--/-B------/-B--B--- b 0 0 6",
];

/// Opening lines (played from the start) and midgame positions.
const LINES: &[&str] = &[
    "",
    "f5d6c3d3c4f4c5b3c2e6",
    "f5d6c3d3c4f4c5b4b5c6f3e6e3g6f6g5d7g3",
    "f5d6c3d3c4f4f6g5e3f3g4h3g3f2",
    "f5d6c4d3c5f4e3f3c2b4b3",
];
const POSITIONS: &[&str] = &[
    // FFO #40-#44: 20 to 22 empties, searched at the midgame depth.
    "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
    "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
    "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
    "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
    "--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O",
];

/// The bench positions, in order.
fn positions() -> Result<Vec<Position>, String> {
    let mut result = Vec::new();
    for line in LINES {
        let mut pos = Position::start();
        for chunk in line.as_bytes().chunks(2) {
            let text = std::str::from_utf8(chunk).map_err(|e| e.to_string())?;
            let mv: Move = text.parse().map_err(|e| format!("bench line: {e}"))?;
            pos = pos
                .try_play(mv)
                .ok_or_else(|| format!("bench line {line}: {mv} is illegal"))?;
        }
        result.push(pos);
    }
    for text in POSITIONS {
        result.push(parse_position(text).map_err(|e| e.to_string())?);
    }
    Ok(result)
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = args::parse::<BenchArgs>("bench", args)? else {
        return Ok(());
    };
    let settings = &options.engine.settings;
    let rules = options.rules.rules();
    match options.game.as_deref() {
        None | Some("othello") => {}
        Some("mill") => return run_mill(settings, options.depth.unwrap_or(8), rules),
        Some(other) => return Err(format!("bench: --game {other}: othello or mill").into()),
    }
    let depth = options.depth.unwrap_or(10);
    let mut searcher = args::searcher::<Position>("bench", settings, rules)?;
    searcher.set_selectivity(!options.no_probcut);
    let limits = Limits {
        depth: Some(depth),
        nodes: settings.nodes,
        ..Limits::default()
    };
    let (nodes, time) = search_each(&mut searcher, &positions()?, &limits, |pos, report| {
        format!(
            "empties {:2}  move {:>4}  score {:+7.2}  nodes {:>11}",
            pos.empty_count(),
            move_text(pos, report),
            f64::from(report.score) / f64::from(DISC),
            report.nodes,
        )
    })?;
    print_totals(&format!("bench depth {depth}"), nodes, time)
}

/// `iago bench --game mill`: the Mill positions at a fixed depth, each from cleared tables.
fn run_mill(settings: &Settings, depth: u32, rules: OrderingRules) -> Result<(), Failure> {
    let mut searcher = args::searcher::<MillPosition>("bench", settings, rules)?;
    let limits = Limits {
        depth: Some(depth),
        nodes: settings.nodes,
        ..Limits::default()
    };
    let positions = MILL_POSITIONS
        .iter()
        .map(|text| mill_position(text, Rules::default()))
        .collect::<Result<Vec<_>, _>>()?;
    let (nodes, time) = search_each(&mut searcher, &positions, &limits, |pos, report| {
        format!(
            "move {:>9}  score {:+8}  depth {:2}  nodes {:>10}",
            move_text(pos, report),
            report.score,
            report.depth,
            report.nodes,
        )
    })?;
    print_totals(&format!("mill bench depth {depth}"), nodes, time)
}

/// Searches each position from cleared tables, printing a line per search (numbered,
/// with its time); returns the total nodes and time.
fn search_each<G: Searchable>(
    searcher: &mut Searcher<G>,
    positions: &[G],
    limits: &Limits,
    describe: impl Fn(&G, &SearchReport<G::Move>) -> String,
) -> Result<(u64, Duration), Failure> {
    let stop = AtomicBool::new(false);
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    for (i, pos) in positions.iter().enumerate() {
        searcher.clear();
        let started = Instant::now();
        let report = searcher.search(pos, limits, &stop, &mut |_| {});
        let elapsed = started.elapsed();
        outln!(
            "{:2}  {}  {:8.3} s",
            i + 1,
            describe(pos, &report),
            elapsed.as_secs_f64()
        )?;
        nodes += report.nodes;
        time += elapsed;
    }
    Ok((nodes, time))
}

fn move_text<G: Game>(pos: &G, report: &SearchReport<G::Move>) -> String {
    report
        .best_move
        .map_or("--".to_string(), |mv| pos.format_move(mv))
}

fn print_totals(label: &str, nodes: u64, time: Duration) -> Result<(), Failure> {
    outln!(
        "{label}: {nodes} nodes  {:.3} s  {:.0} nodes/s",
        time.as_secs_f64(),
        nodes as f64 / time.as_secs_f64().max(1e-9)
    )
}
