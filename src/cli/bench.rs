//! `iago bench [OPTIONS]`: fixed-depth searches of a fixed set of positions. The total
//! node count is the search's signature (it changes only when the search's behaviour
//! does); nodes per second measure its speed.

use super::out::{Failure, outln};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::args::Args;
use iago_core::eval::othello_evaluator;
use iago_core::game::Game;
use iago_core::mill::Rules;
use iago_core::mill::eval::mill_evaluator;
use iago_core::mill::notation::parse_position as mill_position;
use iago_core::options;
use iago_core::othello::notation::parse_position;
use iago_core::othello::{DISC, Move, Position};
use iago_core::search::{Limits, OrderingRules, SearchReport, Searchable, Searcher};

const HELP: &str = "usage: iago bench [OPTIONS]

Searches a fixed set of positions (openings and midgames) at a fixed depth, each from
cleared tables, and prints each search and the totals: the node count is the search's
signature, nodes per second its speed.

Options:
  --depth N        search depth (default 10)
  --eval NAME      evaluator (default: the default evaluator)
  --hash MB        transposition table size (default 64)
  --threads N      search threads, at most one per CPU core (default 1); with more
                   than one, node counts and times vary from run to run
  --no-probcut     full-width search (no Multi-ProbCut)
  --no-hash-move, --no-evaluation, --no-mobility, --no-parity, --no-stability
                   switch off one move-ordering rule (to measure what it buys)
  --game mill      Nine Men's Morris positions of every phase instead (default depth
                   8, evaluator phased; --nodes N, and --no-hash-move, --no-killers,
                   --no-history, --no-reductions, --no-quiescence for its search)
  -h, --help       print this help";

/// Mill positions from games against Sanmill: placing, moving and flying.
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
    if args.windows(2).any(|w| w[0] == "--game" && w[1] == "mill") {
        let rest: Vec<String> = args
            .iter()
            .filter(|a| *a != "--game" && *a != "mill")
            .cloned()
            .collect();
        return run_mill(&rest);
    }
    let mut depth = 10;
    let mut eval = "default".to_string();
    let mut hash_mb = iago_core::search::DEFAULT_HASH_MB;
    let mut rules = OrderingRules::default();
    let mut selective = true;
    let mut threads = 1;
    let mut args = Args::new("bench", args);
    while let Some(arg) = args.next() {
        match arg {
            "-h" | "--help" => {
                outln!("{HELP}")?;
                return Ok(());
            }
            "--depth" => depth = args.ranged(arg, &options::DEPTH)?,
            "--eval" => eval = args.value(arg)?,
            "--hash" => hash_mb = args.ranged(arg, &options::HASH_MB)?,
            "--threads" => threads = args.ranged(arg, &options::THREADS)?,
            "--no-probcut" => selective = false,
            "--no-hash-move" => rules.hash_move = false,
            "--no-evaluation" => rules.evaluation = false,
            "--no-mobility" => rules.mobility = false,
            "--no-parity" => rules.parity = false,
            "--no-stability" => rules.stability = false,
            _ => return Err(args.unknown(arg).into()),
        }
    }
    let mut searcher = Searcher::new(othello_evaluator(&eval)?);
    searcher.set_hash_mb(hash_mb);
    searcher.set_ordering(rules);
    searcher.set_selectivity(selective);
    searcher.set_threads(threads);
    searcher
        .allocate_tables()
        .map_err(|e| format!("bench: --hash {hash_mb}: {e}"))?;
    let limits = Limits {
        depth: Some(depth),
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
fn run_mill(args: &[String]) -> Result<(), Failure> {
    let (mut depth, mut eval, mut nodes_limit) = (8u32, "phased".to_string(), None);
    let mut rules = OrderingRules::default();
    let mut args = Args::new("bench", args);
    while let Some(arg) = args.next() {
        match arg {
            "--depth" => depth = args.ranged(arg, &options::DEPTH)?,
            "--nodes" => nodes_limit = Some(args.ranged(arg, &options::NODES)?),
            "--eval" => eval = args.value(arg)?,
            "--no-hash-move" => rules.hash_move = false,
            "--no-killers" => rules.killers = false,
            "--no-history" => rules.history = false,
            "--no-reductions" => rules.reductions = false,
            "--no-quiescence" => rules.quiescence = false,
            _ => return Err(format!("bench: unknown option {arg:?} for Mill").into()),
        }
    }
    let mut searcher = Searcher::new(mill_evaluator(&eval)?);
    searcher.set_ordering(rules);
    searcher
        .allocate_tables()
        .map_err(|e| format!("bench: {e}"))?;
    let limits = Limits {
        depth: Some(depth),
        nodes: nodes_limit,
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
