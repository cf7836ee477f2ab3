//! IAGOGAM3: game records coded move by move with a model of the moves, about 30%
//! smaller than gzip makes IAGOGAM2.
//!
//! Each move is its rank among the legal moves in IAGOGAM2's order
//! ([`super::records::ranked_moves`]), coded bit by bit with a binary adaptive range coder
//! ([`super::range_coder`]): "is it rank 0? rank 1? ...", each question in a context of
//! its own made of the number of legal moves, the question's number, the game's phase
//! (opening moves, searched moves, solved moves) and the empties in eighths. A forced move
//! costs nothing; a move the level plays often costs a fraction of a bit. The number of
//! moves and the result are not stored: a record is a whole game, which ends where neither
//! side can move and whose result is the final position's. Only `exact_from` and
//! `opening` are stored as such (coded in their own contexts).
//!
//! A file: the magic `IAGOGAM3`, the number of games (u32, little-endian), the CRC-32 of
//! the coded bytes (u32), then the coded bytes. The model starts from nothing at the
//! start of a file and learns as it goes, so a file is read from its start.

use flate2::Crc;
use iago_core::othello::Position;

use super::range_coder::{Bit, Decoder, Encoder};
use super::records::{GameRecord, black_result, ranked_moves};

pub const MAGIC: &[u8; 8] = b"IAGOGAM3";
const HEADER: usize = 16;
const NEVER_SOLVED: u8 = u8::MAX;
/// Legal-move counts from this one on share a context.
const COUNTS: usize = 24;
/// Rank questions from this one on share a context.
const STEPS: usize = 24;
const PHASES: usize = 3;
const EMPTIES_GROUPS: usize = 8;
/// Most games a file may announce: as many as [`super::records`] reads in IAGOGAM2.
pub const MAX_GAMES: u64 = iago_core::files::GAME_RECORDS.bytes / 64;

/// The contexts, learnt as a file is coded.
#[derive(Clone)]
struct Model {
    exact_from: Vec<Bit>,
    opening: Vec<Bit>,
    ranks: Vec<Bit>,
}

impl Model {
    fn new() -> Self {
        Model {
            exact_from: vec![Bit::default(); 256],
            opening: vec![Bit::default(); 256],
            ranks: vec![Bit::default(); PHASES * EMPTIES_GROUPS * COUNTS * STEPS],
        }
    }

    /// The context of the question "is the rank `step`?" for a move at `ply` of a game with
    /// this header, among `count` legal moves, `empties` empty squares.
    fn rank(
        &mut self,
        header: Header,
        ply: usize,
        empties: u32,
        count: usize,
        step: usize,
    ) -> &mut Bit {
        let phase = if ply < usize::from(header.opening) {
            0
        } else if header
            .exact_from
            .is_some_and(|from| ply >= usize::from(from))
        {
            2
        } else {
            1
        };
        let empties = (empties as usize / 8).min(EMPTIES_GROUPS - 1);
        let index = ((phase * EMPTIES_GROUPS + empties) * COUNTS + count.min(COUNTS) - 1) * STEPS
            + step.min(STEPS - 1);
        &mut self.ranks[index]
    }
}

#[derive(Clone, Copy)]
struct Header {
    exact_from: Option<u8>,
    opening: u8,
}

/// Codes games one after another; [`GameWriter::file`] gives the file of those so far.
#[derive(Clone)]
pub struct GameWriter {
    encoder: Encoder,
    model: Model,
    games: u32,
}

impl Default for GameWriter {
    fn default() -> Self {
        GameWriter {
            encoder: Encoder::default(),
            model: Model::new(),
            games: 0,
        }
    }
}

impl GameWriter {
    /// Codes `record`; an error, and nothing coded, if it is not a whole legal game whose
    /// result is its final position's.
    pub fn push(&mut self, record: &GameRecord) -> Result<(), String> {
        if u64::from(self.games) >= MAX_GAMES {
            return Err(format!("more than {MAX_GAMES} games in one file"));
        }
        let moves = ranks(record)?;
        // As the reader will see it: 255 means never solved.
        let header = Header {
            exact_from: record.exact_from.filter(|&e| e != NEVER_SOLVED),
            opening: record.opening,
        };
        let exact_from = header.exact_from.unwrap_or(NEVER_SOLVED);
        self.encoder
            .tree(&mut self.model.exact_from, 8, u32::from(exact_from));
        self.encoder
            .tree(&mut self.model.opening, 8, u32::from(record.opening));
        for (ply, m) in moves.iter().enumerate() {
            for step in 0..m.count - 1 {
                let context = self.model.rank(header, ply, m.empties, m.count, step);
                self.encoder.bit(context, m.rank == step);
                if m.rank == step {
                    break;
                }
            }
        }
        self.games += 1;
        Ok(())
    }

    pub fn games(&self) -> usize {
        self.games as usize
    }

    /// The file of the games coded so far; the writer can go on coding.
    pub fn file(&self) -> Vec<u8> {
        let coded = self.encoder.finished();
        let mut crc = Crc::new();
        crc.update(&coded);
        let mut out = Vec::with_capacity(HEADER + coded.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.games.to_le_bytes());
        out.extend_from_slice(&crc.sum().to_le_bytes());
        out.extend_from_slice(&coded);
        out
    }
}

/// A move as the model sees it.
struct RankedMove {
    rank: usize,
    count: usize,
    empties: u32,
}

/// The ranks of a record's moves, checking (by [`GameRecord::replay`]) that it is a
/// whole legal game with its final position's result.
fn ranks(record: &GameRecord) -> Result<Vec<RankedMove>, String> {
    let mut ranked = [0u8; 64];
    let positions = record.replay()?;
    positions
        .iter()
        .zip(&record.moves)
        .map(|(before, &square)| {
            let count = ranked_moves(&before.position, &mut ranked);
            let rank = ranked[..count]
                .iter()
                .position(|&s| s == square)
                .ok_or_else(|| format!("move {square} is not legal"))?;
            Ok(RankedMove {
                rank,
                count,
                empties: before.position.empty_count(),
            })
        })
        .collect()
}

/// Reads the games of an IAGOGAM3 file.
pub fn decode(bytes: &[u8]) -> Result<Vec<GameRecord>, String> {
    let body = bytes.strip_prefix(MAGIC).ok_or("not an IAGOGAM3 file")?;
    let (Some(games), Some(crc), Some(coded)) = (body.get(..4), body.get(4..8), body.get(8..))
    else {
        return Err("IAGOGAM3: cut short in its header".into());
    };
    let games = u32::from_le_bytes(games.try_into().unwrap_or_default());
    let crc = u32::from_le_bytes(crc.try_into().unwrap_or_default());
    if u64::from(games) > MAX_GAMES {
        return Err(format!(
            "IAGOGAM3: {games} games announced (at most {MAX_GAMES})"
        ));
    }
    let mut check = Crc::new();
    check.update(coded);
    if check.sum() != crc {
        return Err("IAGOGAM3: the coded games are damaged (checksum)".into());
    }
    let mut model = Model::new();
    let mut decoder = Decoder::new(coded);
    // A header may announce more games than its bytes hold.
    let mut records = Vec::with_capacity((games as usize).min(coded.len()));
    for number in 1..=games {
        let exact_from = decoder.tree(&mut model.exact_from, 8) as u8;
        let header = Header {
            exact_from: Some(exact_from).filter(|&e| e != NEVER_SOLVED),
            opening: decoder.tree(&mut model.opening, 8) as u8,
        };
        let mut pos = Position::start();
        let mut ranked = [0u8; 64];
        let mut moves = Vec::with_capacity(60);
        loop {
            if pos.has_no_move() {
                if pos.pass().has_no_move() {
                    break;
                }
                pos = pos.pass();
            }
            let count = ranked_moves(&pos, &mut ranked);
            let ply = moves.len();
            let mut rank = count - 1;
            for step in 0..count - 1 {
                let context = model.rank(header, ply, pos.empty_count(), count, step);
                if decoder.bit(context) {
                    rank = step;
                    break;
                }
            }
            moves.push(ranked[rank]);
            pos = pos.play_square(u32::from(ranked[rank]));
        }
        if decoder.overran() {
            return Err(format!(
                "IAGOGAM3: game {number}: the coded games end early"
            ));
        }
        records.push(GameRecord {
            moves,
            black_result: black_result(&pos) as i8,
            exact_from: header.exact_from,
            opening: header.opening,
        });
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::records::{self, whole_game};

    /// Seeded whole games, their moves mostly among the first ranks as a search's are.
    fn games(seed: u64, count: usize) -> Vec<GameRecord> {
        let mut state = seed;
        (0..count)
            .map(|n| {
                let mut record = whole_game(|legal| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let draw = (state >> 33) as u32;
                    // Half the moves the lowest legal square, the rest at random.
                    let mut skip = if draw.is_multiple_of(2) {
                        0
                    } else {
                        (draw >> 1) % legal.count_ones()
                    };
                    let mut moves = legal;
                    while skip > 0 {
                        moves &= moves - 1;
                        skip -= 1;
                    }
                    moves.trailing_zeros()
                });
                record.exact_from = if n % 5 == 0 {
                    None
                } else {
                    Some(40 + (n % 7) as u8)
                };
                record.opening = (n % 3) as u8 * 4;
                record
            })
            .collect()
    }

    #[test]
    fn games_read_back_exactly() {
        let records = games(3, 500);
        let mut writer = GameWriter::default();
        for record in &records {
            writer.push(record).unwrap();
        }
        let file = writer.file();
        assert_eq!(decode(&file).unwrap(), records);
        let gzipped = records::gzip(&records::encode_compact(&records).unwrap());
        assert!(
            file.len() * 10 < gzipped.len() * 9,
            "{} bytes, IAGOGAM2 and gzip {}",
            file.len(),
            gzipped.len()
        );
        // The file of the first games is readable while the writer goes on.
        let mut writer = GameWriter::default();
        for record in &records[..100] {
            writer.push(record).unwrap();
        }
        let early = writer.file();
        for record in &records[100..] {
            writer.push(record).unwrap();
        }
        assert_eq!(decode(&early).unwrap(), records[..100]);
        assert_eq!(writer.file(), file);
    }

    #[test]
    fn games_that_are_not_whole_or_legal_are_refused_and_not_coded() {
        let records = games(5, 3);
        let mut writer = GameWriter::default();
        writer.push(&records[0]).unwrap();
        let before = writer.file();
        let mut cut = records[1].clone();
        cut.moves.pop();
        assert!(writer.push(&cut).unwrap_err().contains("goes on"));
        let mut wrong = records[1].clone();
        wrong.black_result = wrong.black_result.wrapping_add(2);
        assert!(writer.push(&wrong).unwrap_err().contains("result"));
        let mut illegal = records[1].clone();
        illegal.moves[3] = illegal.moves[0];
        assert!(writer.push(&illegal).unwrap_err().contains("move 4"));
        assert_eq!(writer.file(), before);
        assert_eq!(writer.games(), 1);
    }

    #[test]
    fn damaged_files_are_errors() {
        let records = games(9, 50);
        let mut writer = GameWriter::default();
        for record in &records {
            writer.push(record).unwrap();
        }
        let file = writer.file();
        assert!(decode(&file[..12]).unwrap_err().contains("header"));
        let mut flipped = file.clone();
        let last = flipped.len() - 3;
        flipped[last] ^= 0x10;
        assert!(decode(&flipped).unwrap_err().contains("checksum"));
        // More games announced than coded: the stream runs out.
        let mut more = file.clone();
        more[8..12].copy_from_slice(&500u32.to_le_bytes());
        assert!(decode(&more).unwrap_err().contains("end early"));
        let mut huge = file;
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decode(&huge).unwrap_err().contains("announced"));
    }

    #[test]
    fn any_bytes_with_a_right_checksum_decode_or_fail_without_panicking() {
        let mut state = 11u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let mut read = 0;
        for _ in 0..300 {
            let coded: Vec<u8> = (0..next() % 400).map(|_| next() as u8).collect();
            let mut crc = Crc::new();
            crc.update(&coded);
            let mut file = MAGIC.to_vec();
            file.extend_from_slice(&(next() % 40).to_le_bytes());
            file.extend_from_slice(&crc.sum().to_le_bytes());
            file.extend_from_slice(&coded);
            // Whatever it reads is whole legal games.
            if let Ok(games) = decode(&file) {
                for game in &games {
                    game.replay().unwrap();
                }
                read += games.len();
            }
        }
        assert!(read > 0, "no file read: the test tried nothing");
    }
}
