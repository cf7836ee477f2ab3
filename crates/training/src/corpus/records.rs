//! Game records of the self-play corpus: each game's moves, its final result, and from
//! which move on both sides played perfectly, so that training can label every position
//! with the game's result and knows which of those labels are exact.
//!
//! Two formats, little-endian (docs/selfplay.md has them for other writers): the magic
//! `IAGOGAM1` or `IAGOGAM2`, then records to the end of the file, each
//!
//! ```text
//! u8  n           moves played (passes are not recorded: they are forced)
//! i8  result      Black's final disc difference, the empties counted for the winner
//! u8  exact_from  moves after which both sides played perfectly (255: never solved)
//! u8  opening     leading moves that were not searched (random or from an opening)
//! n x u8          IAGOGAM1: the squares played, 0 = a1, 7 = h1, 8 = a2, ..., 63 = h8
//!                 IAGOGAM2: each move's rank among the legal moves (see [`ranked_moves`])
//! ```
//!
//! The ranks of IAGOGAM2 are small numbers, mostly the first few, which gzip packs into
//! about 27.6 bytes a game where the squares of IAGOGAM1 take 45. IAGOGAM3
//! ([`super::coded`]) codes the same ranks with a model of the moves instead, in about
//! 19.5 bytes a game; iago writes it and reads all three (the GPU generator writes
//! IAGOGAM1, or IAGOGAM2 with `head --compact`).
//!
//! Files of the first two formats may be gzip-compressed as a whole, in one member or
//! several; readers tell by the first bytes.

use std::io::{Read, Write as _};
use std::path::Path;

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use iago_core::files;
use iago_core::game::Color;
use iago_core::othello::Position;

const MAGIC: &[u8; 8] = b"IAGOGAM1";
const COMPACT_MAGIC: &[u8; 8] = b"IAGOGAM2";
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
        let final_black = black_result(&pos);
        if final_black != i32::from(self.black_result) {
            return Err(format!(
                "result {} recorded, the final position gives {final_black}",
                self.black_result
            ));
        }
        Ok(out)
    }
}

/// Black's final disc difference in a finished game, the empties counted for the winner.
pub fn black_result(end: &Position) -> i32 {
    match end.side {
        Color::Black => end.final_disc_difference(),
        Color::White => -end.final_disc_difference(),
    }
}

/// A fixed order of the squares for [`ranked_moves`]: corners first, then the squares two
/// from a corner on the edges and the diagonals, the rest of the edges, the inner squares,
/// and last the squares next to the corners, which a good player rarely takes.
#[rustfmt::skip]
const SQUARE_CLASS: [u8; 64] = [
    0, 6, 2, 3, 3, 2, 6, 0,
    6, 7, 5, 5, 5, 5, 7, 6,
    2, 5, 1, 4, 4, 1, 5, 2,
    3, 5, 4, 9, 9, 4, 5, 3,
    3, 5, 4, 9, 9, 4, 5, 3,
    2, 5, 1, 4, 4, 1, 5, 2,
    6, 7, 5, 5, 5, 5, 7, 6,
    0, 6, 2, 3, 3, 2, 6, 0,
];

/// Writes the legal moves of `pos` into `out` in the order IAGOGAM2 numbers them, and
/// returns how many there are: the moves that leave the opponent the fewest legal moves
/// first, then by `SQUARE_CLASS`, then by square. A played move is mostly among the
/// first few, so its rank compresses well. The order follows from the rules alone (no
/// evaluation), so a file reads the same with any build.
pub fn ranked_moves(pos: &Position, out: &mut [u8; 64]) -> usize {
    let mut keys = [0u32; 64];
    let mut count = 0;
    let mut moves = pos.moves();
    while moves != 0 {
        let square = moves.trailing_zeros();
        moves &= moves - 1;
        let replies = pos.play_square(square).moves().count_ones();
        keys[count] = replies << 16 | u32::from(SQUARE_CLASS[square as usize]) << 8 | square;
        count += 1;
    }
    keys[..count].sort_unstable();
    for (slot, key) in out.iter_mut().zip(&keys[..count]) {
        *slot = (key & 0xff) as u8;
    }
    count
}

/// The start of an IAGOGAM2 file, to which [`push_compact`] appends records.
fn compact_header() -> Vec<u8> {
    COMPACT_MAGIC.to_vec()
}

/// Appends `record` to IAGOGAM2 bytes; an error, with `out` as it was, if a move is not
/// legal where it is played.
fn push_compact(out: &mut Vec<u8>, record: &GameRecord) -> Result<(), String> {
    let before = out.len();
    push_ranks(out, record).inspect_err(|_| out.truncate(before))
}

fn push_ranks(out: &mut Vec<u8>, record: &GameRecord) -> Result<(), String> {
    if record.moves.len() > 60 {
        return Err(format!("{} moves (at most 60)", record.moves.len()));
    }
    out.push(record.moves.len() as u8);
    out.push(record.black_result as u8);
    out.push(record.exact_from.unwrap_or(NEVER_SOLVED));
    out.push(record.opening);
    let mut pos = Position::start();
    let mut ranked = [0u8; 64];
    for (ply, &square) in record.moves.iter().enumerate() {
        if pos.has_no_move() {
            pos = pos.pass();
        }
        let count = ranked_moves(&pos, &mut ranked);
        let rank = ranked[..count]
            .iter()
            .position(|&s| s == square)
            .ok_or_else(|| format!("move {} ({square}) is not legal", ply + 1))?;
        out.push(rank as u8);
        pos = pos.play_square(u32::from(square));
    }
    Ok(())
}

/// The IAGOGAM2 bytes of `records`, uncompressed.
pub fn encode_compact(records: &[GameRecord]) -> Result<Vec<u8>, String> {
    let mut out = compact_header();
    for (n, record) in records.iter().enumerate() {
        push_compact(&mut out, record).map_err(|e| format!("record {}: {e}", n + 1))?;
    }
    Ok(out)
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

/// Reads file bytes: IAGOGAM3 (see [`super::coded`]), or IAGOGAM1 or IAGOGAM2,
/// gzip-compressed or not, checking the header and every record's length; the moves are
/// checked by [`GameRecord::replay`].
pub fn decode(bytes: &[u8]) -> Result<Vec<GameRecord>, String> {
    let raw;
    let bytes = if bytes.starts_with(&GZIP) {
        raw = gunzip(bytes)?;
        &raw[..]
    } else {
        bytes
    };
    decode_plain(bytes).map_err(|error| {
        if holds_a_second_file(bytes) {
            format!(
                "{error}: a second record file starts inside this one (files joined with \
                 `cat`?); `iago pack-games A B --out C` joins record files into one"
            )
        } else {
            error
        }
    })
}

/// Whether `bytes` are those of a game record file (of any format, gzip-compressed or
/// not), by their first bytes.
pub fn is_record_file(bytes: &[u8]) -> bool {
    bytes.starts_with(&GZIP) || bytes.starts_with(b"IAGOGAM")
}

/// Whether a record file's magic appears past the start of `bytes`, as in files joined
/// with `cat` (a record never holds one: `I` is neither a move, a count nor a result).
fn holds_a_second_file(bytes: &[u8]) -> bool {
    [MAGIC, COMPACT_MAGIC, super::coded::MAGIC]
        .iter()
        .any(|magic| {
            bytes
                .get(1..)
                .is_some_and(|rest| rest.windows(magic.len()).any(|window| window == &magic[..]))
        })
}

/// [`decode`] of bytes that are not gzip-compressed.
fn decode_plain(bytes: &[u8]) -> Result<Vec<GameRecord>, String> {
    if bytes.starts_with(super::coded::MAGIC) {
        return super::coded::decode(bytes);
    }
    let (body, compact) = if let Some(body) = bytes.strip_prefix(MAGIC) {
        (body, false)
    } else if let Some(body) = bytes.strip_prefix(COMPACT_MAGIC) {
        (body, true)
    } else {
        return Err("not a game record file (IAGOGAM1, IAGOGAM2 or IAGOGAM3)".into());
    };
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
        let moves = if compact {
            squares_of_ranks(moves).map_err(|e| format!("record {record}: {e}"))?
        } else {
            moves.to_vec()
        };
        records.push(GameRecord {
            moves,
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

/// The squares played, from their IAGOGAM2 ranks.
fn squares_of_ranks(ranks: &[u8]) -> Result<Vec<u8>, String> {
    let mut pos = Position::start();
    let mut ranked = [0u8; 64];
    let mut squares = Vec::with_capacity(ranks.len());
    for (ply, &rank) in ranks.iter().enumerate() {
        if pos.has_no_move() {
            pos = pos.pass();
        }
        let count = ranked_moves(&pos, &mut ranked);
        let square = *ranked[..count]
            .get(usize::from(rank))
            .ok_or_else(|| format!("move {}: rank {rank} of {count} legal moves", ply + 1))?;
        squares.push(square);
        pos = pos.play_square(u32::from(square));
    }
    Ok(squares)
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

/// `bytes` gzip-compressed, as written to files.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    // Writing to a vector cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

/// `records` as an IAGOGAM3 file, as written to files.
pub fn compress(records: &[GameRecord]) -> Result<Vec<u8>, String> {
    let mut writer = super::coded::GameWriter::default();
    for (n, record) in records.iter().enumerate() {
        writer
            .push(record)
            .map_err(|e| format!("record {}: {e}", n + 1))?;
    }
    Ok(writer.file())
}

/// Writes `records` coded (IAGOGAM3) to `path`, crash-safely (see [`files::write`]).
pub fn write(path: &Path, records: &[GameRecord]) -> Result<(), String> {
    files::write(path, &compress(records)?).map_err(|e| e.to_string())
}

/// Reads a record file of any of the formats (at most [`files::GAME_RECORDS`] bytes).
pub fn read(path: &Path) -> Result<Vec<GameRecord>, String> {
    let bytes = files::read(path, files::GAME_RECORDS).map_err(|e| e.to_string())?;
    decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// A whole game whose moves `choose` picks from the legal moves, passes included,
/// solved from move 40, its first 2 moves an opening (for tests).
#[cfg(test)]
pub(crate) fn whole_game(mut choose: impl FnMut(u64) -> u32) -> GameRecord {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    loop {
        if pos.has_no_move() {
            if pos.pass().has_no_move() {
                break;
            }
            pos = pos.pass();
        }
        let square = choose(pos.moves());
        moves.push(square as u8);
        pos = pos.play_square(square);
    }
    GameRecord {
        moves,
        black_result: black_result(&pos) as i8,
        exact_from: Some(40),
        opening: 2,
    }
}

/// A whole game along the lowest legal square (for tests).
#[cfg(test)]
pub(crate) fn first_move_game() -> GameRecord {
    whole_game(u64::trailing_zeros)
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
        assert_eq!(decode(&gzip(&encode(&records))).unwrap(), records);
        assert_eq!(decode(&encode_compact(&records).unwrap()).unwrap(), records);
        assert_eq!(decode(&compress(&records).unwrap()).unwrap(), records);
        // Two gzip members, as a corpus file that grew.
        let mut grown = gzip(&encode(&records[..1]));
        let mut second = Vec::new();
        let mut encoder = GzEncoder::new(&mut second, Compression::fast());
        encoder.write_all(&encode(&records[1..])[8..]).unwrap();
        encoder.finish().unwrap();
        grown.extend_from_slice(&second);
        assert_eq!(decode(&grown).unwrap(), records);
    }

    /// `count` whole games of seeded random moves, passes included.
    fn random_games(seed: u64, count: usize) -> Vec<GameRecord> {
        let mut state = seed;
        (0..count)
            .map(|n| {
                let game = whole_game(|legal| {
                    state = iago_core::game::mix64(state);
                    let mut pick = legal;
                    for _ in 0..state % u64::from(legal.count_ones()) {
                        pick &= pick - 1;
                    }
                    pick.trailing_zeros()
                });
                GameRecord {
                    exact_from: (n % 3 != 0).then_some((game.moves.len() / 2) as u8),
                    opening: (n % 11) as u8,
                    ..game
                }
            })
            .collect()
    }

    #[test]
    fn compact_records_read_back_move_for_move() {
        let games = random_games(7, 300);
        let compact = encode_compact(&games).unwrap();
        assert_eq!(&compact[..8], b"IAGOGAM2");
        assert_eq!(
            compact.len(),
            encode(&games).len(),
            "one byte a move in both"
        );
        assert_eq!(decode(&compact).unwrap(), games);
        assert_eq!(decode(&compress(&games).unwrap()).unwrap(), games);
        for game in &games {
            game.replay().unwrap();
        }
    }

    #[test]
    fn ranked_moves_are_the_legal_moves_fewest_replies_first() {
        let mut ranked = [0u8; 64];
        for game in random_games(8, 20) {
            let mut pos = Position::start();
            for &square in &game.moves {
                if pos.has_no_move() {
                    pos = pos.pass();
                }
                let count = ranked_moves(&pos, &mut ranked);
                let mask = ranked[..count].iter().fold(0u64, |m, &s| m | 1 << s);
                assert_eq!(mask, pos.moves(), "each legal move once");
                assert_eq!(count as u32, pos.moves().count_ones());
                let replies = |s: u8| pos.play_square(u32::from(s)).moves().count_ones();
                for pair in ranked[..count].windows(2) {
                    assert!(replies(pair[0]) <= replies(pair[1]));
                }
                pos = pos.play_square(u32::from(square));
            }
        }
        // At the start all four moves leave three replies: the square order decides.
        let count = ranked_moves(&Position::start(), &mut ranked);
        assert_eq!(&ranked[..count], &[19, 26, 37, 44]);
    }

    #[test]
    fn damaged_compact_records_are_errors() {
        let game = first_move_game();
        let mut bytes = encode_compact(std::slice::from_ref(&game)).unwrap();
        assert!(decode(&bytes[..bytes.len() - 1]).is_err(), "cut short");
        bytes[12] = 4; // the first move's rank: the start has four legal moves
        let error = decode(&bytes).unwrap_err();
        assert!(error.contains("record 1: move 1: rank 4 of 4"), "{error}");
        let mut illegal = game;
        illegal.moves[0] = 0;
        let error = encode_compact(std::slice::from_ref(&illegal)).unwrap_err();
        assert!(
            error.contains("record 1: move 1 (0) is not legal"),
            "{error}"
        );
        let mut out = compact_header();
        assert!(push_compact(&mut out, &illegal).is_err());
        assert_eq!(
            out,
            compact_header(),
            "nothing of the refused record is left"
        );
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
        assert!(decode(b"IAGOGAM3").is_err());
        assert!(decode(b"IAGOGAM2").unwrap().is_empty());
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
