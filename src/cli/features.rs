//! `iago features`: the training positions of game record files as IAGOFEA1 features (the
//! format `gpu/fit.py` and `gpu/net.py` read, docs/selfplay.md), so that a fit needs no
//! other program than iago to read the corpus.

use std::path::PathBuf;

use clap::Parser;

use super::args::{self, number};
use super::out::{Failure, outln};
use iago_core::files::{self, Replacement};
use iago_core::othello::eval::features;
use iago_core::othello::notation::format_position;
use iago_training::corpus::records::{self, GamePosition};

/// Replays the games of record files (IAGOGAM1, IAGOGAM2 or IAGOGAM3) and writes their
/// training positions as IAGOFEA1 (docs/selfplay.md): each position's 51 feature indices,
/// tied as the pattern evaluation ties them, its disc count, the game's result for the
/// side to move and whether that result is exact. Positions come game after game, as the
/// GPU generator's `expand` writes them: the positions before a record's opening moves are
/// left out unless --all is given (their result was decided by random moves).
#[derive(Parser, Debug)]
#[command(
    name = "iago features",
    override_usage = "iago features FILE... --out FEATURES [OPTIONS]"
)]
struct Options {
    /// Game record files
    #[arg(value_name = "FILE")]
    inputs: Vec<PathBuf>,
    /// The IAGOFEA1 file to write (required)
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also write the tied index of every feature index (IAGOCAN1)
    #[arg(long, value_name = "FILE")]
    canonical: Option<PathBuf>,
    /// Also write each position, one position string a line, in order
    #[arg(long, value_name = "FILE")]
    positions: Option<PathBuf>,
    /// Only the first N games of the inputs together
    #[arg(long, value_name = "N", default_value_t = usize::MAX, hide_default_value = true, value_parser = number::<usize>)]
    games: usize,
    /// Every position where the side to move has a move
    #[arg(long)]
    all: bool,
}

/// The file to write, checked with the others against the inputs.
fn checked_out(options: &Options) -> Result<PathBuf, String> {
    let out = (options.out.clone()).ok_or("features: --out FILE is required (try --help)")?;
    if options.inputs.is_empty() {
        return Err("features: no input files (try --help)".into());
    }
    let written = [Some(&out), options.canonical.as_ref()];
    for output in written
        .into_iter()
        .flatten()
        .chain(options.positions.as_ref())
    {
        if options.inputs.iter().any(|input| same_file(input, output)) {
            return Err(format!("features: {} is an input too", output.display()));
        }
    }
    Ok(out)
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = args::parse::<Options>("features", args)? else {
        return Ok(());
    };
    let out = checked_out(&options)?;
    let positions = training_positions(&options)?;
    write_features(&out, &positions)?;
    if let Some(path) = &options.canonical {
        files::write(path, &canonical_bytes()).map_err(|e| e.to_string())?;
    }
    if let Some(path) = &options.positions {
        let mut text = String::with_capacity(positions.len() * 68);
        for position in &positions {
            text.push_str(&format_position(&position.position));
            text.push('\n');
        }
        files::write(path, text.as_bytes()).map_err(|e| e.to_string())?;
    }
    let exact = positions.iter().filter(|p| p.exact).count();
    outln!(
        "features: {} positions ({exact} exact) into {}",
        positions.len(),
        out.display()
    )?;
    Ok(())
}

/// The positions to write, game after game, each game checked by its replay.
fn training_positions(options: &Options) -> Result<Vec<GamePosition>, String> {
    let mut out = Vec::new();
    let mut games = 0;
    for input in &options.inputs {
        for (n, game) in records::read(input)?.iter().enumerate() {
            if games == options.games {
                return Ok(out);
            }
            let replay = game
                .replay()
                .map_err(|e| format!("{}: record {}: {e}", input.display(), n + 1))?;
            let skip = if options.all {
                0
            } else {
                usize::from(game.opening)
            };
            out.extend(replay.into_iter().skip(skip));
            games += 1;
        }
    }
    Ok(out)
}

/// Writes IAGOFEA1: the header, the tied indices (streamed, a chunk at a time), then the
/// disc counts, labels and flags.
fn write_features(path: &std::path::Path, positions: &[GamePosition]) -> Result<(), String> {
    let layout = features::layout();
    let active = layout.active();
    let mut file = Replacement::create(path, &format!("tmp-{}", std::process::id()))
        .map_err(|e| e.to_string())?;
    let mut head = b"IAGOFEA1".to_vec();
    head.extend_from_slice(&(positions.len() as u64).to_le_bytes());
    head.extend_from_slice(&(active as u32).to_le_bytes());
    head.extend_from_slice(&layout.stage_len.to_le_bytes());
    file.write_all(&head).map_err(|e| e.to_string())?;
    let mut indices = vec![0u32; active];
    for chunk in positions.chunks(16_384) {
        let mut bytes = Vec::with_capacity(chunk.len() * active * 4);
        for position in chunk {
            features::indices(layout, &position.position, &mut indices);
            for &index in &indices {
                bytes.extend_from_slice(&layout.canonical[index as usize].to_le_bytes());
            }
        }
        file.write_all(&bytes).map_err(|e| e.to_string())?;
    }
    let mut tail = Vec::with_capacity(3 * positions.len());
    tail.extend(positions.iter().map(|p| {
        let position = p.position;
        (position.player | position.opponent).count_ones() as u8
    }));
    tail.extend(positions.iter().map(|p| p.result as u8));
    tail.extend(positions.iter().map(|p| u8::from(p.exact)));
    file.write_all(&tail).map_err(|e| e.to_string())?;
    file.commit().map_err(|e| e.to_string())
}

/// IAGOCAN1: the tied index of every feature index.
fn canonical_bytes() -> Vec<u8> {
    let layout = features::layout();
    let mut bytes = b"IAGOCAN1".to_vec();
    bytes.extend_from_slice(&layout.stage_len.to_le_bytes());
    for &tied in &layout.canonical {
        bytes.extend_from_slice(&tied.to_le_bytes());
    }
    bytes
}

/// Whether two paths name the same existing file.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
