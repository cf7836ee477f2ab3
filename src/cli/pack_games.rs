//! `iago pack-games`: rewrites game record files as one IAGOGAM3 file, checking every
//! game on the way (see `corpus::records` and `corpus::coded`).

use std::path::PathBuf;

use clap::Parser;

use super::args;
use super::out::{Failure, outln};
use iago_training::corpus::coded::GameWriter;
use iago_training::corpus::distinct::Distinct;
use iago_training::corpus::records;

/// Reads game record files (IAGOGAM1, IAGOGAM2 or IAGOGAM3, as `iago selfplay` and the
/// GPU generator write them, the first two gzip-compressed or not), replays every game to
/// check its moves and result, and writes them all, in order, to one IAGOGAM3 file
/// (docs/selfplay.md): each move coded as its rank among the legal moves with a model of
/// the moves, about 19.5 bytes a game where gzip makes IAGOGAM2 27.6 and IAGOGAM1 45. The
/// output is written crash-safely and may not be one of the inputs. The summary counts
/// the distinct games and positions (a game played twice, or a position many games pass
/// through, counts once there). Files joined with `cat` are not a record file: name each
/// one here instead.
#[derive(Parser, Debug)]
#[command(
    name = "iago pack-games",
    override_usage = "iago pack-games FILE... --out FILE"
)]
struct Options {
    /// Game record files
    #[arg(value_name = "FILE")]
    inputs: Vec<PathBuf>,
    /// The file to write (required)
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(Options { inputs, out }) = args::parse::<Options>("pack-games", args)? else {
        return Ok(());
    };
    let out = out.ok_or("pack-games: --out FILE is required (try --help)")?;
    if inputs.is_empty() {
        return Err("pack-games: no input files (try --help)".into());
    }
    iago_core::files::refuse_input_as_output(
        "pack-games",
        &out,
        inputs.iter().map(PathBuf::as_path),
    )?;
    let mut writer = GameWriter::default();
    let mut distinct = Distinct::default();
    let mut read_bytes = 0u64;
    for input in &inputs {
        read_bytes += std::fs::metadata(input).map_or(0, |m| m.len());
        for (n, game) in records::read(input)?.iter().enumerate() {
            let context = |e: String| format!("{}: record {}: {e}", input.display(), n + 1);
            distinct.add(game, &game.replay().map_err(context)?);
            writer.push(game).map_err(context)?;
        }
    }
    let bytes = writer.file();
    iago_core::files::write(&out, &bytes).map_err(|e| e.to_string())?;
    let games = writer.games();
    outln!(
        "pack-games: {} from {} files ({read_bytes} bytes) into {} ({} bytes, {:.1} bytes a \
         game)",
        distinct.counts().text(),
        inputs.len(),
        out.display(),
        bytes.len(),
        bytes.len() as f64 / games.max(1) as f64
    )?;
    Ok(())
}
