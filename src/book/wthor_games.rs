//! Just enough of the WTHOR format to build the book: the move lists of every game.
//!
//! Stand-in for `othello::wthor::read_wthor_dir`; deleted once that module lands.

use std::fs;
use std::path::Path;

use crate::othello::{Move, Position};

const FILE_HEADER: usize = 16;
const GAME_RECORD: usize = 68;
const MOVES_OFFSET: usize = 8;

/// Every game of every `*.wtb` file in `dir` (in file name order) as moves from the
/// start position, passes inserted as `Move::PASS`. Games that do not replay are skipped.
pub fn read_wthor_dir_moves(dir: &Path) -> Result<Vec<Vec<Move>>, String> {
    let listing = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<_> = listing
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("wtb"))
        })
        .collect();
    files.sort();
    let mut games = Vec::new();
    for path in files {
        let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let records = bytes.get(FILE_HEADER..).unwrap_or_default();
        for record in records.chunks_exact(GAME_RECORD) {
            if let Some(game) = replay(&record[MOVES_OFFSET..]) {
                games.push(game);
            }
        }
    }
    Ok(games)
}

/// The moves of one record (`10 * row + column`, 0 after the last move), with passes.
fn replay(codes: &[u8]) -> Option<Vec<Move>> {
    let mut pos = Position::start();
    let mut moves = Vec::with_capacity(64);
    for &code in codes {
        if code == 0 {
            break;
        }
        let (row, column) = (code / 10, code % 10);
        if !(1..=8).contains(&row) || !(1..=8).contains(&column) {
            return None;
        }
        let mv = Move::from_coords(column - 1, row - 1);
        if pos.has_no_move() {
            pos = pos.pass();
            moves.push(Move::PASS);
        }
        pos = pos.try_play(mv)?;
        moves.push(mv);
    }
    Some(moves)
}
