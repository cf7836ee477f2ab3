//! Game records of the self-play corpus (IAGOGAM1): each game's moves, its final result,
//! and from which move on both sides played perfectly, so that training can label every
//! position with the game's result and knows which of those labels are exact.
//!
//! Format, little-endian (docs/selfplay.md has it for other writers): the magic
//! `IAGOGAM1`, then records to the end of the file, each
//!
//! ```text
//! u8  n           moves played (passes are not recorded: they are forced)
//! i8  result      Black's final disc difference, the empties counted for the winner
//! u8  exact_from  moves after which both sides played perfectly (255: never solved)
//! u8  opening     leading moves that were not searched (random or from an opening)
//! n x u8          the squares played, 0 = a1, 7 = h1, 8 = a2, ..., 63 = h8
//! ```
//!
//! Files may be gzip-compressed as a whole, in one member or several (a corpus file
//! grows by members); readers tell by the first bytes.

use std::io::{Read, Write as _};
use std::path::Path;

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use iago_core::files;
use iago_core::game::Color;
use iago_core::othello::Position;

const MAGIC: &[u8; 8] = b"IAGOGAM1";
const GZIP: [u8; 2] = [0x1f, 0x8b];
const NEVER_SOLVED: u8 = u8::MAX;
/// Most bytes a record file holds once decompressed: about four million games.
const MAX_BYTES: u64 = files::GAME_RECORDS.bytes;

/// One game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The squares played in order (passes left out).
    pub moves: Vec<u8>,
    /// Black's final disc difference, the empties counted for the winner.
    pub black_result: i8,
    /// Both sides played perfectly after this many moves: every position from there on
    /// has the game's result as its exact value.
    pub exact_from: Option<u8>,
    /// The first moves were not searched (random, or an opening's).
    pub opening: u8,
}

/// A position of a game, as training uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePosition {
    /// The position, the side to move able to move.
    pub position: Position,
    /// The game's result for the side to move, in discs.
    pub result: i8,
    /// The result is the position's exact value.
    pub exact: bool,
}

impl GameRecord {
    /// Plays the record from the start, checking every move and the result; returns the
    /// position before each move (each one a position where the side to move can move).
    pub fn replay(&self) -> Result<Vec<GamePosition>, String> {
        let mut pos = Position::start();
        let mut out = Vec::with_capacity(self.moves.len());
        for (ply, &square) in self.moves.iter().enumerate() {
            if pos.has_no_move() {
                pos = pos.pass();
            }
            if square >= 64 || pos.moves() & (1 << square) == 0 {
                return Err(format!("move {} ({square}) is not legal", ply + 1));
            }
            let black = i32::from(self.black_result);
            let result = if pos.side == Color::Black {
                black
            } else {
                -black
            };
            out.push(GamePosition {
                position: pos,
                result: result as i8,
                exact: self.exact_from.is_some_and(|from| ply >= usize::from(from)),
            });
            pos = pos.play_square(u32::from(square));
        }
        if !pos.has_no_move() || !pos.pass().has_no_move() {
            return Err(format!(
                "the game goes on after its {} moves",
                self.moves.len()
            ));
        }
        let final_black = match pos.side {
            Color::Black => pos.final_disc_difference(),
            Color::White => -pos.final_disc_difference(),
        };
        if final_black != i32::from(self.black_result) {
            return Err(format!(
                "result {} recorded, the final position gives {final_black}",
                self.black_result
            ));
        }
        Ok(out)
    }
}

/// The uncompressed file bytes of `records`.
pub fn encode(records: &[GameRecord]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + records.len() * 64);
    out.extend_from_slice(MAGIC);
    for record in records {
        out.push(record.moves.len() as u8);
        out.push(record.black_result as u8);
        out.push(record.exact_from.unwrap_or(NEVER_SOLVED));
        out.push(record.opening);
        out.extend_from_slice(&record.moves);
    }
    out
}

/// Reads file bytes (gzip-compressed or not), checking the header and every record's
/// length; the moves are checked by [`GameRecord::replay`].
pub fn decode(bytes: &[u8]) -> Result<Vec<GameRecord>, String> {
    let raw;
    let bytes = if bytes.starts_with(&GZIP) {
        raw = gunzip(bytes)?;
        &raw[..]
    } else {
        bytes
    };
    let body = bytes
        .strip_prefix(MAGIC)
        .ok_or("not an IAGOGAM1 game record file")?;
    let mut records = Vec::new();
    let mut rest = body;
    while let [n, result, exact_from, opening, tail @ ..] = rest {
        let n = usize::from(*n);
        let record = records.len() + 1;
        if n > 60 {
            return Err(format!("record {record}: {n} moves (at most 60)"));
        }
        let moves = tail
            .get(..n)
            .ok_or_else(|| format!("record {record}: cut short ({n} moves announced)"))?;
        records.push(GameRecord {
            moves: moves.to_vec(),
            black_result: *result as i8,
            exact_from: Some(*exact_from).filter(|&e| e != NEVER_SOLVED),
            opening: *opening,
        });
        rest = &tail[n..];
    }
    if !rest.is_empty() {
        return Err(format!(
            "record {}: cut short in its header",
            records.len() + 1
        ));
    }
    Ok(records)
}

fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    MultiGzDecoder::new(bytes)
        .take(MAX_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("gzip: {e}"))?;
    if out.len() as u64 > MAX_BYTES {
        return Err(format!(
            "more than {} MB of records once decompressed",
            MAX_BYTES >> 20
        ));
    }
    Ok(out)
}

/// `records` gzip-compressed, as written to files.
pub fn compress(records: &[GameRecord]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    // Writing to a vector cannot fail.
    let _ = encoder.write_all(&encode(records));
    encoder.finish().unwrap_or_default()
}

/// Writes `records` compressed to `path`, crash-safely (see [`files::write`]).
pub fn write(path: &Path, records: &[GameRecord]) -> Result<(), String> {
    files::write(path, &compress(records)).map_err(|e| e.to_string())
}

/// Reads a record file (at most [`files::GAME_RECORDS`] bytes, compressed or not).
pub fn read(path: &Path) -> Result<Vec<GameRecord>, String> {
    let bytes = files::read(path, files::GAME_RECORDS).map_err(|e| e.to_string())?;
    decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// A whole game along the lowest legal square, passes included (for tests).
#[cfg(test)]
pub(crate) fn first_move_game() -> GameRecord {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    loop {
        if pos.has_no_move() {
            if pos.pass().has_no_move() {
                break;
            }
            pos = pos.pass();
        }
        let square = pos.moves().trailing_zeros();
        moves.push(square as u8);
        pos = pos.play_square(square);
    }
    let black = match pos.side {
        Color::Black => pos.final_disc_difference(),
        Color::White => -pos.final_disc_difference(),
    };
    GameRecord {
        moves,
        black_result: black as i8,
        exact_from: Some(40),
        opening: 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_compressed_or_not() {
        let game = first_move_game();
        let other = GameRecord {
            exact_from: None,
            ..game.clone()
        };
        let records = vec![game, other];
        assert_eq!(decode(&encode(&records)).unwrap(), records);
        assert_eq!(decode(&compress(&records)).unwrap(), records);
        // Two gzip members, as a corpus file that grew.
        let mut grown = compress(&records[..1]);
        let mut second = Vec::new();
        let mut encoder = GzEncoder::new(&mut second, Compression::fast());
        encoder.write_all(&encode(&records[1..])[8..]).unwrap();
        encoder.finish().unwrap();
        grown.extend_from_slice(&second);
        assert_eq!(decode(&grown).unwrap(), records);
    }

    #[test]
    fn replay_labels_each_position_for_its_mover() {
        let game = first_move_game();
        let positions = game.replay().unwrap();
        assert_eq!(positions.len(), game.moves.len());
        for (ply, p) in positions.iter().enumerate() {
            assert!(!p.position.has_no_move());
            let black = i32::from(game.black_result);
            let expected = if p.position.side == Color::Black {
                black
            } else {
                -black
            };
            assert_eq!(i32::from(p.result), expected);
            assert_eq!(p.exact, ply >= 40);
        }
    }

    #[test]
    fn damaged_records_are_errors() {
        let game = first_move_game();
        let bytes = encode(std::slice::from_ref(&game));
        assert!(decode(&bytes[..bytes.len() - 1]).is_err(), "cut short");
        assert!(decode(&bytes[..10]).is_err(), "cut in the header");
        assert!(decode(b"IAGOGAM2").is_err());
        let mut wrong = game.clone();
        wrong.black_result = wrong.black_result.wrapping_add(2);
        assert!(wrong.replay().unwrap_err().contains("result"));
        let mut illegal = game.clone();
        illegal.moves[0] = 0;
        assert!(illegal.replay().unwrap_err().contains("not legal"));
        let mut short = game;
        short.moves.pop();
        assert!(short.replay().unwrap_err().contains("goes on"));
    }
}
