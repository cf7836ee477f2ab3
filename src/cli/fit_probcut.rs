//! `iago fit-probcut --wthor DIR [OPTIONS]`: fits the ProbCut parameters on positions
//! from real games and writes them as Rust source (`crates/core/src/othello/plan/probcut_params.rs`).
//!
//! Midgame: for positions with 14 to 54 empties, full-width searches of depth 0 to 8
//! and selective ones beyond (to `--deep`); for each game phase (empties in tens) and
//! depth `d`, the line from the value at `shallow_depth(d)` plies to the value at `d`.
//! Endgame: for positions with 12 to 20 empties, the line from a 2-ply search to the
//! exact score, with its sigma linear in the empties (the solver's selective solves);
//! for positions with 20 to 24 empties (one game in five), the line from a selective
//! search of about half the empties to the exact score, likewise (the end cut of solves
//! searched in the midgame, far from the end).

use super::out::{Failure, out};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use clap::Parser;

use super::args::{self, EngineOptions, Flags, number};
use iago_core::game::{Game, mix64};
use iago_core::othello::Position;
use iago_core::othello::eval::othello_evaluator;
use iago_core::othello::plan::probcut::{FULL_WIDTH_FIT_DEPTH, MIN_DEPTH, phase, shallow_depth};
use iago_core::othello::wthor::read_wthor_dir;
use iago_core::search::probcut::{Fit, fit_line};
use iago_core::search::{Limits, Searcher};

/// Fits the ProbCut parameters on positions from the WTHOR games in DIR and prints them
/// as Rust source (the content of crates/core/src/othello/plan/probcut_params.rs).
#[derive(Parser, Debug)]
#[command(
    name = "iago fit-probcut",
    override_usage = "iago fit-probcut --wthor DIR [OPTIONS]"
)]
struct Options {
    /// The WTHOR database's folder (required)
    #[arg(long, value_name = "DIR")]
    wthor: Option<String>,
    /// Games sampled, evenly spread over the database
    #[arg(long, value_name = "N", default_value = "400", value_parser = number::<usize>)]
    games: usize,
    #[command(flatten)]
    engine: EngineOptions<EvalFlag>,
    /// Deepest depth fitted, 8 to 16 (default 16; depths past 8 come from selective
    /// searches)
    #[arg(long, value_name = "D", value_parser = number::<i32>)]
    deep: Option<i32>,
    /// Write the source to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
}

#[derive(Clone, Debug, Default)]
struct EvalFlag;

impl Flags for EvalFlag {
    const FLAGS: &'static [&'static str] = &["--eval"];
}

const ENDGAME_DEPTH: u32 = 2;

/// The deepest depth whose shallow partner is still a full-width value.
const DEEPEST_FIT: i32 = {
    let mut depth = FULL_WIDTH_FIT_DEPTH;
    while shallow_depth(depth + 1) <= FULL_WIDTH_FIT_DEPTH {
        depth += 1;
    }
    depth
};

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = args::parse::<Options>("fit-probcut", args)? else {
        return Ok(());
    };
    let deep = match options.deep {
        None => DEEPEST_FIT,
        Some(deep) if (FULL_WIDTH_FIT_DEPTH..=DEEPEST_FIT).contains(&deep) => deep,
        Some(_) => {
            return Err(format!(
                "fit-probcut: --deep must be {FULL_WIDTH_FIT_DEPTH} to {DEEPEST_FIT}"
            )
            .into());
        }
    };
    let (wthor, games_wanted, out) = (options.wthor, options.games, options.out);
    let eval = options
        .engine
        .settings
        .eval
        .unwrap_or_else(|| "default".into());
    let wthor = wthor.ok_or("fit-probcut: missing --wthor DIR")?;
    if let Some(out) = &out {
        let mut inputs = super::args::wthor_files(std::path::Path::new(&wthor));
        inputs.extend(super::args::evaluator_file(&eval));
        iago_core::files::refuse_input_as_output(
            "fit-probcut",
            std::path::Path::new(out),
            inputs.iter().map(std::path::PathBuf::as_path),
        )?;
    }
    let games = read_wthor_dir(&wthor).map_err(|e| e.to_string())?;
    if games.is_empty() {
        return Err(format!("fit-probcut: no games in {wthor}").into());
    }
    let evaluator = othello_evaluator(&eval)?;
    let mut searcher = Searcher::new(othello_evaluator(&eval)?);
    searcher.set_selectivity(false);
    searcher.set_hash_mb(16);
    let stop = AtomicBool::new(false);
    let step = (games.len() / games_wanted.max(1)).max(1);
    // The values of one position at every depth 0..=deep (None where a search skipped it).
    let mut midgame: Vec<(u32, Vec<Option<f64>>)> = Vec::new();
    let mut endgame: Vec<(u32, f64, f64)> = Vec::new();
    // (empties, the value of the end cut's probe, the exact score).
    let mut end_cut: Vec<(u32, f64, f64)> = Vec::new();
    for (n, game) in games.iter().step_by(step).take(games_wanted).enumerate() {
        let hash = mix64(n as u64 + 1);
        let mid_empties = 14 + (hash % 41) as u32;
        let end_empties = 12 + ((hash >> 20) % 9) as u32;
        for (empties, is_mid) in [(mid_empties, true), (end_empties, false)] {
            let Some(pos) = position_with(game, empties) else {
                continue;
            };
            if pos.is_game_over() {
                continue;
            }
            searcher.clear();
            if is_mid {
                let mut values = vec![None; deep as usize + 1];
                values[0] = Some(f64::from(evaluator.evaluate(&pos)));
                for (selective, depths) in [
                    (false, 1..=FULL_WIDTH_FIT_DEPTH),
                    (true, FULL_WIDTH_FIT_DEPTH + 1..=deep),
                ] {
                    if depths.is_empty() {
                        continue;
                    }
                    searcher.clear();
                    searcher.set_selectivity(selective);
                    let limits = Limits {
                        depth: Some(*depths.end() as u32),
                        ..Limits::default()
                    };
                    searcher.search(&pos, &limits, &stop, &mut |r| {
                        if depths.contains(&(r.depth as i32)) {
                            values[r.depth as usize] = Some(f64::from(r.score));
                        }
                    });
                }
                searcher.set_selectivity(false);
                midgame.push((empties, values));
            } else {
                let exact = searcher.search(&pos, &Limits::default(), &stop, &mut |_| {});
                searcher.clear();
                let limits = Limits {
                    depth: Some(ENDGAME_DEPTH),
                    ..Limits::default()
                };
                let shallow = searcher.search(&pos, &limits, &stop, &mut |_| {});
                endgame.push((empties, f64::from(shallow.score), f64::from(exact.score)));
            }
        }
        let cut_empties = END_CUT_FROM + ((hash >> 40) % 5) as u32;
        if n % END_CUT_EVERY == 0
            && let Some(pos) = position_with(game, cut_empties)
            && !pos.is_game_over()
        {
            end_cut.push(end_cut_pair(&mut searcher, &pos, &stop));
        }
        if n % 50 == 49 {
            log::info!("fit-probcut: {} games", n + 1);
        }
    }
    let source = render(&midgame, (&endgame, &end_cut), &eval, deep)?;
    match out {
        Some(path) => iago_core::files::write(std::path::Path::new(&path), source.as_bytes())
            .map_err(String::from)?,
        None => out!("{source}")?,
    }
    Ok(())
}

/// The end cut is fitted on one game in this many, at this many empties and up to four
/// more (exact solves of a fraction of a second).
const END_CUT_EVERY: usize = 5;
const END_CUT_FROM: u32 = 20;

/// (empties, the value of the end cut's probe, the exact score) of `pos`: the probe is a
/// selective search of about half the empties, as a solve searched in the midgame makes.
fn end_cut_pair(
    searcher: &mut Searcher<Position>,
    pos: &Position,
    stop: &AtomicBool,
) -> (u32, f64, f64) {
    let empties = pos.empty_count();
    searcher.clear();
    let exact = searcher.search(pos, &Limits::default(), stop, &mut |_| {});
    searcher.clear();
    searcher.set_selectivity(true);
    let limits = Limits {
        depth: Some(shallow_depth(empties as i32) as u32),
        ..Limits::default()
    };
    let probe = searcher.search(pos, &limits, stop, &mut |_| {});
    searcher.set_selectivity(false);
    (empties, f64::from(probe.score), f64::from(exact.score))
}

/// The game's position when it first has `empties` empties.
fn position_with(game: &iago_core::othello::wthor::WthorGame, empties: u32) -> Option<Position> {
    let mut pos = Position::start();
    for &mv in &game.moves {
        if pos.empty_count() == empties {
            return Some(pos);
        }
        pos = pos.try_play(mv)?;
    }
    (pos.empty_count() == empties).then_some(pos)
}

/// (empties, shallow value, exact score) triples.
type EndPairs = [(u32, f64, f64)];

fn render(
    midgame: &[(u32, Vec<Option<f64>>)],
    (endgame, end_cut): (&EndPairs, &EndPairs),
    eval: &str,
    deep: i32,
) -> Result<String, String> {
    let mut text = String::new();
    let w = |e: std::fmt::Error| e.to_string();
    writeln!(
        text,
        "//! ProbCut parameters fitted by `scripts/fit-probcut` (`iago fit-probcut`) with the\n\
         //! `{eval}` evaluation on {} midgame, {} endgame and {} end cut positions from\n\
         //! WTHOR games.\n\
         //! Do not edit by hand: refit when the evaluation changes.\n\n\
         // Fitted numbers may come close to named constants by chance.\n\
         #![allow(clippy::approx_constant)]\n\n\
         use crate::search::probcut::Fit;\n",
        midgame.len(),
        endgame.len(),
        end_cut.len()
    )
    .map_err(w)?;
    writeln!(
        text,
        "/// Midgame fits: [phase (empties / 10)][depth - {MIN_DEPTH}] for depths {MIN_DEPTH} to \
         {deep}\n/// (full-width searches to {FULL_WIDTH_FIT_DEPTH} plies, selective ones beyond)."
    )
    .map_err(w)?;
    writeln!(
        text,
        "#[rustfmt::skip]\npub const MIDGAME: [[Fit; {}]; 6] = [",
        deep - MIN_DEPTH + 1
    )
    .map_err(w)?;
    for row in 0..6 {
        writeln!(text, "    [").map_err(w)?;
        for depth in MIN_DEPTH..=deep {
            let s = shallow_depth(depth) as usize;
            let pairs = |any_phase: bool| -> Vec<(f64, f64)> {
                midgame
                    .iter()
                    .filter(|(e, _)| any_phase || phase(*e) == row.max(1))
                    .filter_map(|(_, v)| Some((v[s]?, v[depth as usize]?)))
                    .collect()
            };
            let mut pairs_here = pairs(false);
            if pairs_here.len() < 30 {
                pairs_here = pairs(true);
            }
            let fit = fit_line(&pairs_here).ok_or("fit-probcut: too few positions")?;
            writeln!(text, "        {},", literal(fit)).map_err(w)?;
        }
        writeln!(text, "    ],").map_err(w)?;
    }
    writeln!(text, "];\n").map_err(w)?;
    let (base, slope) =
        fit_growing(endgame, 12..=20).ok_or("fit-probcut: too few endgame positions")?;
    writeln!(text, "/// The shallow depth of selective solves.").map_err(w)?;
    writeln!(text, "pub const ENDGAME_DEPTH: i32 = {ENDGAME_DEPTH};").map_err(w)?;
    writeln!(
        text,
        "/// Exact score on the shallow value; `sigma` at zero empties."
    )
    .map_err(w)?;
    writeln!(text, "pub const ENDGAME: Fit = {};", literal(base)).map_err(w)?;
    writeln!(text, "/// Growth of the endgame sigma per empty.").map_err(w)?;
    writeln!(text, "pub const ENDGAME_SIGMA_SLOPE: f32 = {slope:.3};").map_err(w)?;
    let (base, slope) = fit_growing(end_cut, END_CUT_FROM..=END_CUT_FROM + 4)
        .ok_or("fit-probcut: too few end cut positions")?;
    writeln!(
        text,
        "/// Exact score on a selective search of about half the empties (the end cut of a\n\
         /// solve searched in the midgame); `sigma` at zero empties."
    )
    .map_err(w)?;
    writeln!(text, "pub const END_CUT: Fit = {};", literal(base)).map_err(w)?;
    writeln!(text, "/// Growth of the end cut's sigma per empty.").map_err(w)?;
    writeln!(text, "pub const END_CUT_SIGMA_SLOPE: f32 = {slope:.3};").map_err(w)?;
    Ok(text)
}

/// The line from a shallow value to the exact score over (empties, shallow, exact)
/// triples, its sigma at zero empties, and the sigma's growth per empty (a line through
/// the sigmas of each number of empties in `range`).
fn fit_growing(endgame: &EndPairs, range: std::ops::RangeInclusive<u32>) -> Option<(Fit, f32)> {
    let pairs: Vec<(f64, f64)> = endgame.iter().map(|&(_, x, y)| (x, y)).collect();
    let fit = fit_line(&pairs)?;
    let mut sigmas = Vec::new();
    for empties in range {
        let residuals: Vec<f64> = endgame
            .iter()
            .filter(|e| e.0 == empties)
            .map(|&(_, x, y)| y - f64::from(fit.a) * x - f64::from(fit.b))
            .collect();
        if residuals.len() >= 5 {
            let n = residuals.len() as f64;
            let sigma = (residuals.iter().map(|r| r * r).sum::<f64>() / n).sqrt();
            sigmas.push((f64::from(empties), sigma));
        }
    }
    let growth = fit_line(&sigmas).unwrap_or(Fit {
        a: 0.0,
        b: fit.sigma,
        sigma: 0.0,
    });
    let base = Fit {
        sigma: growth.b.max(1.0),
        ..fit
    };
    Some((base, growth.a.max(0.0)))
}

fn literal(fit: Fit) -> String {
    format!(
        "Fit {{ a: {:.4}, b: {:.2}, sigma: {:.2} }}",
        fit.a, fit.b, fit.sigma
    )
}
