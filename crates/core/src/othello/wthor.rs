//! WTHOR game databases (`WTH_<year>.wtb`), the French Othello Federation's format.
//!
//! Little-endian. A 16-byte header: century, year, month, day of creation (1 byte each),
//! number of games (u32), number of records (u16), year of the games (u16), board size
//! (0 or 8 for 8x8), game type, depth of the theoretical score, one reserved byte. Then one
//! 68-byte record a game: tournament, black player and white player ids (u16 each),
//! Black's final disc count, Black's theoretical score, and 60 moves, one byte each,
//! `10 * row + column` (11 = a1, 18 = h1, 88 = h8), 0 after the last move.
//!
//! Passes are not recorded; replaying the moves puts them back in.

use std::path::Path;

use super::game_input::no_such_game;
use super::notation::FormatError;
use super::position::Position;
use super::square::Move;

const HEADER_LEN: usize = 16;
const RECORD_LEN: usize = 68;
const MOVES_OFFSET: usize = 8;

/// One game: its moves with passes in place, and the recorded results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// The moves from the start position, a pass as [`Move::PASS`] wherever the side to
    /// move had no legal move.
    pub moves: Vec<Move>,
    /// Black's final disc count as recorded (empties to the winner; for a game stopped
    /// early, the agreed result rather than the board's).
    pub black_discs: u8,
    /// Black's disc count with perfect play from the move the header's depth names.
    pub theoretical_black: u8,
    /// The year the game was played.
    pub year: u16,
}

impl WthorGame {
    /// The position after every move.
    pub fn final_position(&self) -> Position {
        self.moves.iter().fold(Position::start(), |pos, &mv| {
            pos.try_play(mv).unwrap_or(pos)
        })
    }
}

/// Replays the recorded move bytes from the start position, inserting passes.
fn replay(bytes: &[u8]) -> Result<Vec<Move>, FormatError> {
    let mut pos = Position::start();
    let mut moves = Vec::with_capacity(bytes.len() + 2);
    for &byte in bytes.iter().take_while(|&&byte| byte != 0) {
        let (row, column) = (byte / 10, byte % 10);
        if !(1..=8).contains(&row) || !(1..=8).contains(&column) {
            return Err(FormatError::new(format!(
                "move byte {byte} is not a square"
            )));
        }
        let mv = Move::from_coords(column - 1, row - 1);
        if let Some(next) = pos.try_play(mv) {
            pos = next;
        } else if let Some(next) = pos.try_play(Move::PASS).and_then(|p| p.try_play(mv)) {
            moves.push(Move::PASS);
            pos = next;
        } else {
            return Err(FormatError::new(format!(
                "move {} ({mv}) is illegal",
                moves.len() + 1
            )));
        }
        moves.push(mv);
    }
    Ok(moves)
}

/// The number of games and their year from a WTHOR header, which is checked.
fn header(bytes: &[u8]) -> Result<(usize, u16), FormatError> {
    let header = bytes
        .get(..HEADER_LEN)
        .ok_or_else(|| FormatError::new("WTHOR: file shorter than its 16-byte header"))?;
    let games = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
    let year = u16::from_le_bytes([header[10], header[11]]);
    let board_size = header[12];
    if board_size != 0 && board_size != 8 {
        return Err(FormatError::new(format!(
            "WTHOR: board size {board_size}, only 8x8 games are supported"
        )));
    }
    Ok((games, year))
}

/// Reads the games of a WTHOR file's bytes. Games whose moves do not replay legally are
/// skipped (and logged); a malformed header or a truncated file is an error.
pub fn parse_wthor(bytes: &[u8]) -> Result<Vec<WthorGame>, FormatError> {
    let (games, year) = header(bytes)?;
    let body = &bytes[HEADER_LEN..];
    if body.len() / RECORD_LEN < games {
        return Err(FormatError::new(format!(
            "WTHOR: the header announces {games} games, the file holds {}",
            body.len() / RECORD_LEN
        )));
    }
    let mut result = Vec::with_capacity(games);
    for (index, record) in body.chunks_exact(RECORD_LEN).take(games).enumerate() {
        match replay(&record[MOVES_OFFSET..]) {
            Ok(moves) => result.push(WthorGame {
                moves,
                black_discs: record[6],
                theoretical_black: record[7],
                year,
            }),
            Err(e) => log::warn!("WTHOR: game {} skipped: {e}", index + 1),
        }
    }
    Ok(result)
}

/// Writes games as a WTHOR file (ids zero, passes dropped), the inverse of
/// [`parse_wthor`] for games of at most 60 moves besides passes.
pub fn encode_wthor(games: &[WthorGame], year: u16) -> Result<Vec<u8>, FormatError> {
    let count = u32::try_from(games.len())
        .map_err(|_| FormatError::new("WTHOR: too many games for one file"))?;
    let mut bytes = Vec::with_capacity(HEADER_LEN + RECORD_LEN * games.len());
    bytes.extend_from_slice(&[20, (year % 100) as u8, 1, 1]);
    bytes.extend_from_slice(&count.to_le_bytes());
    bytes.extend_from_slice(&0u16.to_le_bytes());
    bytes.extend_from_slice(&year.to_le_bytes());
    bytes.extend_from_slice(&[8, 0, 0, 0]);
    for game in games {
        let mut record = [0u8; RECORD_LEN];
        record[6] = game.black_discs;
        record[7] = game.theoretical_black;
        let squares = game.moves.iter().filter_map(|mv| mv.square());
        for (slot, square) in squares.enumerate() {
            let byte = record.get_mut(MOVES_OFFSET + slot).ok_or_else(|| {
                FormatError::new("WTHOR: a game has more than 60 moves besides passes")
            })?;
            *byte = (square / 8 + 1) * 10 + square % 8 + 1;
        }
        bytes.extend_from_slice(&record);
    }
    Ok(bytes)
}

/// Reads one WTHOR file.
pub fn read_wthor_file(path: impl AsRef<Path>) -> Result<Vec<WthorGame>, FormatError> {
    let path = path.as_ref();
    parse_wthor(&read_bytes(path)?).map_err(|e| e.context(path.display()))
}

/// The bytes of a WTHOR file, at most [`crate::files::GAMES`] of them.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, FormatError> {
    crate::files::read(path, crate::files::GAMES).map_err(|e| FormatError::new(e.to_string()))
}

/// Reads game `number` (from 1, in the file's order, whether or not other games replay)
/// of one WTHOR file; a game whose moves are illegal is an error that says which.
pub fn read_wthor_game(path: impl AsRef<Path>, number: usize) -> Result<WthorGame, FormatError> {
    let path = path.as_ref();
    wthor_game(&read_bytes(path)?, number).map_err(|e| e.context(path.display()))
}

/// The number of games a WTHOR file's bytes hold: as many as the header announces and
/// the file has records for.
pub fn wthor_count(bytes: &[u8]) -> Result<usize, FormatError> {
    let (games, _) = header(bytes)?;
    Ok(games.min((bytes.len() - HEADER_LEN) / RECORD_LEN))
}

/// The record of game `number` (from 1) of a WTHOR file's bytes, and the year.
fn record(bytes: &[u8], number: usize) -> Result<(&[u8], u16), FormatError> {
    let (_, year) = header(bytes)?;
    let held = wthor_count(bytes)?;
    if number == 0 || number > held {
        return Err(no_such_game(number, held).context("WTHOR"));
    }
    Ok((
        &bytes[HEADER_LEN + (number - 1) * RECORD_LEN..][..RECORD_LEN],
        year,
    ))
}

/// Game `number` (from 1) of a WTHOR file's bytes.
pub fn wthor_game(bytes: &[u8], number: usize) -> Result<WthorGame, FormatError> {
    let (record, year) = record(bytes, number)?;
    let moves =
        replay(&record[MOVES_OFFSET..]).map_err(|e| e.context(format!("WTHOR: game {number}")))?;
    Ok(WthorGame {
        moves,
        black_discs: record[6],
        theoretical_black: record[7],
        year,
    })
}

/// The black and white player ids of game `number` (from 1) of a WTHOR file's bytes.
pub fn wthor_player_ids(bytes: &[u8], number: usize) -> Result<(u16, u16), FormatError> {
    let (record, _) = record(bytes, number)?;
    let id = |at: usize| u16::from_le_bytes([record[at], record[at + 1]]);
    Ok((id(2), id(4)))
}

/// Length of a player's record in `WTHOR.JOU`: the name in ISO-8859-1, padded with NULs.
const PLAYER_LEN: usize = 20;

/// The player names of a `WTHOR.JOU` file's bytes, by id: a 16-byte header as the game
/// files' (its u16 at offset 8 the number of players), then 20 bytes a name.
pub fn parse_wthor_players(bytes: &[u8]) -> Result<Vec<String>, FormatError> {
    let header = bytes
        .get(..HEADER_LEN)
        .ok_or_else(|| FormatError::new("WTHOR.JOU: file shorter than its 16-byte header"))?;
    let count = usize::from(u16::from_le_bytes([header[8], header[9]]));
    let names = &bytes[HEADER_LEN..];
    if names.len() / PLAYER_LEN < count {
        return Err(FormatError::new(format!(
            "WTHOR.JOU: the header announces {count} players, the file holds {}",
            names.len() / PLAYER_LEN
        )));
    }
    Ok(names
        .chunks_exact(PLAYER_LEN)
        .take(count)
        .map(|name| {
            let end = name.iter().position(|&b| b == 0).unwrap_or(PLAYER_LEN);
            // ISO-8859-1: each byte is the code point of the same number.
            name[..end]
                .iter()
                .map(|&b| char::from(b))
                .collect::<String>()
        })
        .map(|name| name.trim().to_string())
        .collect())
}

/// The black and white players' names of game `number` of the WTHOR file at `path`,
/// from the `WTHOR.JOU` beside it (any case); `None` where there is none, or it does not
/// hold the game's ids.
pub fn read_wthor_players(path: impl AsRef<Path>, number: usize) -> Option<(String, String)> {
    let path = path.as_ref();
    let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty());
    let entries = std::fs::read_dir(dir.unwrap_or(Path::new("."))).ok()?;
    let jou = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|file| {
            file.file_name()
                .is_some_and(|name| name.eq_ignore_ascii_case("WTHOR.JOU"))
        })?;
    let players = crate::files::read(&jou, crate::files::GAMES)
        .map_err(|e| log::warn!("{e}"))
        .ok()?;
    let players = parse_wthor_players(&players)
        .map_err(|e| log::warn!("{}: {e}", jou.display()))
        .ok()?;
    let game = read_bytes(path).ok()?;
    let (black, white) = wthor_player_ids(&game, number).ok()?;
    let name = |id: u16| players.get(usize::from(id)).cloned();
    Some((name(black)?, name(white)?))
}

/// Reads every `*.wtb` file of a directory, in name order (so by year).
pub fn read_wthor_dir(dir: impl AsRef<Path>) -> Result<Vec<WthorGame>, FormatError> {
    let dir = dir.as_ref();
    let entries =
        std::fs::read_dir(dir).map_err(|e| FormatError::new(format!("{}: {e}", dir.display())))?;
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| FormatError::new(format!("{}: {e}", dir.display())))?
            .path();
        let is_wtb = path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("wtb"));
        if is_wtb {
            paths.push(path);
        }
    }
    paths.sort();
    let mut games = Vec::new();
    for path in paths {
        games.extend(read_wthor_file(&path)?);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_game_round_trips() {
        let game = WthorGame {
            moves: ["f5", "d6", "c3", "d3", "c4"]
                .iter()
                .map(|m| m.parse().unwrap())
                .collect(),
            black_discs: 33,
            theoretical_black: 33,
            year: 2001,
        };
        let bytes = encode_wthor(std::slice::from_ref(&game), 2001).unwrap();
        assert_eq!(bytes.len(), HEADER_LEN + RECORD_LEN);
        assert_eq!(parse_wthor(&bytes).unwrap(), vec![game.clone()]);
        assert_eq!(wthor_game(&bytes, 1).unwrap(), game);
        for (bad, error) in [
            (&bytes[..], "no game 2"),
            (&bytes[..10], "shorter than its 16-byte header"),
            (&bytes[..HEADER_LEN + 3], "no game 2"),
        ] {
            let message = wthor_game(bad, 2).unwrap_err().to_string();
            assert!(message.contains(error), "{message}");
        }
        assert_eq!(wthor_player_ids(&bytes, 1).unwrap(), (0, 0));
        let mut illegal = bytes.clone();
        illegal[HEADER_LEN + MOVES_OFFSET] = 11;
        let message = wthor_game(&illegal, 1).unwrap_err().to_string();
        assert!(
            message.contains("game 1: move 1 (a1) is illegal"),
            "{message}"
        );
    }

    #[test]
    fn player_names_by_id() {
        let mut bytes = vec![0u8; HEADER_LEN];
        bytes[8] = 3;
        for name in [&b"???"[..], b"Tastet Marc", b"M\xfcller \xc9ric"] {
            let mut record = name.to_vec();
            record.resize(PLAYER_LEN, 0);
            bytes.extend(record);
        }
        assert_eq!(
            parse_wthor_players(&bytes).unwrap(),
            ["???", "Tastet Marc", "M\u{fc}ller \u{c9}ric"]
        );
        let message = parse_wthor_players(&bytes[..HEADER_LEN + 30])
            .unwrap_err()
            .to_string();
        assert!(message.contains("announces 3 players"), "{message}");
    }
}
