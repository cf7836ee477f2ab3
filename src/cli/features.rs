//! `iago features`: the training positions of game record files as IAGOFEA1 features (the
//! format `gpu/fit.py` and `gpu/net.py` read, docs/selfplay.md), so that a fit needs no
//! other program than iago to read the corpus.

use std::path::PathBuf;

use super::args::{Args, is_option};
use super::out::{Failure, outln};
use iago_core::eval::features;
use iago_core::files::{self, Replacement};
use iago_core::othello::notation::format_position;
use iago_training::corpus::records::{self, GamePosition};

const HELP: &str = "usage: iago features FILE... --out FEATURES [OPTIONS]

Replays the games of record files (IAGOGAM1, IAGOGAM2 or IAGOGAM3) and writes their
training positions as IAGOFEA1 (docs/selfplay.md): each position's 51 feature indices,
tied as the pattern evaluation ties them, its disc count, the game's result for the side
to move and whether that result is exact. Positions come game after game, as the GPU
generator's `expand` writes them: the positions before a record's opening moves are left
out unless --all is given (their result was decided by random moves).

Options:
  --out FILE          the IAGOFEA1 file to write (required)
  --canonical FILE    also write the tied index of every feature index (IAGOCAN1)
  --positions FILE    also write each position, one position string a line, in order
  --games N           only the first N games of the inputs together
  --all               every position where the side to move has a move
  -h, --help          print this help";

struct Options {
    inputs: Vec<PathBuf>,
    out: PathBuf,
    canonical: Option<PathBuf>,
    positions: Option<PathBuf>,
    games: usize,
    all: bool,
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut options = Options {
        inputs: Vec::new(),
        out: PathBuf::new(),
        canonical: None,
        positions: None,
        games: usize::MAX,
        all: false,
    };
    let mut out = None;
    let mut words = Args::new("features", args);
    while let Some(word) = words.next() {
        match word {
            "-h" | "--help" => return Ok(None),
            "--out" => out = Some(PathBuf::from(words.value(word)?)),
            "--canonical" => options.canonical = Some(PathBuf::from(words.value(word)?)),
            "--positions" => options.positions = Some(PathBuf::from(words.value(word)?)),
            "--games" => options.games = words.number(word)?,
            "--all" => options.all = true,
            _ if is_option(word) => return Err(words.unknown(word)),
            _ => options.inputs.push(PathBuf::from(word)),
        }
    }
    options.out = out.ok_or("features: --out FILE is required (try --help)")?;
    if options.inputs.is_empty() {
        return Err("features: no input files (try --help)".into());
    }
    let written = [Some(&options.out), options.canonical.as_ref()];
    for output in written
        .into_iter()
        .flatten()
        .chain(options.positions.as_ref())
    {
        if options.inputs.iter().any(|input| same_file(input, output)) {
            return Err(format!("features: {} is an input too", output.display()));
        }
    }
    Ok(Some(options))
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = parse(args)? else {
        outln!("{HELP}")?;
        return Ok(());
    };
    let positions = training_positions(&options)?;
    write_features(&options.out, &positions)?;
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
        options.out.display()
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
