//! How many of a corpus's games and positions are distinct: a game played twice, or a
//! position every game goes through, trains a fit no more than once, and a held-out
//! game that is also a training game tests nothing. Training data says both counts.
//!
//! Each game and each position is kept as a 64-bit hash (of the moves; of the discs of
//! both sides and the side to move), sorted and counted at the end: 8 bytes a position,
//! 1.3 GB for the corpus's 160 million. Two different positions share a hash with a
//! chance of about n^2 / 2^65, under 0.001 for the whole corpus, so the counts are exact
//! but for that.

use iago_core::game::{Color, mix64};

use super::records::{GamePosition, GameRecord};

/// The hashes of the games and positions seen so far.
#[derive(Clone, Debug, Default)]
pub struct Distinct {
    games: Vec<u64>,
    positions: Vec<u64>,
}

/// Games and positions, each in all and distinct.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: usize,
    pub distinct_games: usize,
    pub positions: usize,
    pub distinct_positions: usize,
}

impl Counts {
    /// `120 games (118 distinct), 7,180 positions (6,406 distinct)`.
    pub fn text(&self) -> String {
        format!(
            "{} games ({} distinct), {} positions ({} distinct)",
            self.games, self.distinct_games, self.positions, self.distinct_positions
        )
    }
}

impl Distinct {
    /// Adds a game and its positions (as [`GameRecord::replay`] gives them).
    pub fn add(&mut self, game: &GameRecord, positions: &[GamePosition]) {
        self.games.push(game_hash(game));
        self.positions.extend(positions.iter().map(position_hash));
    }

    /// Adds everything `other` holds.
    pub fn merge(&mut self, mut other: Distinct) {
        self.games.append(&mut other.games);
        self.positions.append(&mut other.positions);
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The counts of everything added.
    pub fn counts(mut self) -> Counts {
        Counts {
            games: self.games.len(),
            distinct_games: distinct(&mut self.games),
            positions: self.positions.len(),
            distinct_positions: distinct(&mut self.positions),
        }
    }
}

/// The hash of a game's moves (its result and solve follow from them and the level).
pub fn game_hash(game: &GameRecord) -> u64 {
    game.moves
        .iter()
        .fold(mix64(game.moves.len() as u64), |hash, &square| {
            mix64(hash ^ u64::from(square))
        })
}

fn position_hash(p: &GamePosition) -> u64 {
    let pos = &p.position;
    let (black, white) = match pos.side {
        Color::Black => (pos.player, pos.opponent),
        Color::White => (pos.opponent, pos.player),
    };
    let side = u64::from(pos.side == Color::White);
    mix64(mix64(black ^ side) ^ white)
}

/// How many different values `hashes` holds (sorting it).
fn distinct(hashes: &mut Vec<u64>) -> usize {
    hashes.sort_unstable();
    hashes.dedup();
    let count = hashes.len();
    *hashes = Vec::new();
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::records::{first_move_game, whole_game};

    #[test]
    fn a_game_added_twice_counts_once_and_shared_positions_once() {
        let mut distinct = Distinct::default();
        let a = first_move_game();
        let b = whole_game(|legal| 63 - legal.leading_zeros());
        for game in [&a, &a, &b] {
            distinct.add(game, &game.replay().unwrap());
        }
        let counts = distinct.counts();
        assert_eq!(counts.games, 3);
        assert_eq!(counts.distinct_games, 2);
        let (a_len, b_len) = (a.replay().unwrap().len(), b.replay().unwrap().len());
        assert_eq!(counts.positions, 2 * a_len + b_len);
        // The start position (and no other here, of two games this different) is shared.
        assert!(counts.distinct_positions < a_len + b_len);
        assert!(counts.distinct_positions >= a_len.max(b_len));
    }
}
