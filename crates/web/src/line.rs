//! The game line the page shows: a start, the moves played from it (the redo moves
//! beyond the cursor kept until another move replaces them), the cursor, and the clock.

use std::time::Duration;

use iago_core::engine::{EngineGame, Played, Record};
use iago_core::game::Color;

/// A game clock: the main time of each player and what each move adds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockSetting {
    pub main: Duration,
    pub increment: Duration,
}

/// The moves of a game and the one shown.
#[derive(Clone, Debug)]
pub struct Line<G: EngineGame> {
    start: G,
    /// Every move of the line, passes explicit, with the seconds its player took.
    moves: Vec<Played<G::Move>>,
    /// `positions[n]`: the position after the first `n` moves.
    positions: Vec<G>,
    /// How many of the moves are played on the board shown.
    cursor: usize,
    pub clock: Option<ClockSetting>,
    /// The player whose time ran out, ending the game.
    pub flagged: Option<Color>,
}

impl<G: EngineGame> Line<G> {
    pub fn new(start: G) -> Line<G> {
        Line {
            positions: vec![start.clone()],
            start,
            moves: Vec::new(),
            cursor: 0,
            clock: None,
            flagged: None,
        }
    }

    /// The line of `record`, its cursor at the end; the record's clock is kept.
    pub fn from_record(record: Record<G>) -> Line<G> {
        let mut line = Line::new(record.start);
        for played in record.moves {
            line.push(played);
        }
        line.clock = record.clock.map(|main| ClockSetting {
            main,
            increment: record.increment,
        });
        line
    }

    fn push(&mut self, played: Played<G::Move>) {
        let next = self.positions[self.moves.len()].play(played.mv);
        self.moves.push(played);
        self.positions.push(next);
        self.cursor = self.moves.len();
    }

    pub fn moves(&self) -> &[Played<G::Move>] {
        &self.moves
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The position shown.
    pub fn current(&self) -> &G {
        &self.positions[self.cursor]
    }

    /// The position after `ply` moves (`ply` at most the number of moves).
    pub fn position(&self, ply: usize) -> &G {
        &self.positions[ply]
    }

    /// The game is over on the board shown, or by a flag.
    pub fn is_over(&self) -> bool {
        self.flagged.is_some() || self.current().is_game_over()
    }

    /// Plays `mv` where the cursor is: the next redo move if it is that one (the moves
    /// after it stay), otherwise the moves after the cursor are dropped. The move must be
    /// legal there. True when the moves after the cursor were replaced.
    pub fn play(&mut self, mv: G::Move, seconds: Option<f64>) -> bool {
        if self.cursor < self.moves.len() && self.moves[self.cursor].mv == mv {
            self.moves[self.cursor].seconds = seconds;
            self.cursor += 1;
            return false;
        }
        self.moves.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
        self.flagged = None;
        self.push(Played { mv, seconds });
        true
    }

    /// Moves the cursor to `ply` (at most the number of moves).
    pub fn go_to(&mut self, ply: usize) {
        self.cursor = ply.min(self.moves.len());
    }

    /// The game up to the cursor, with the clock, as the engine holds it.
    pub fn record(&self) -> Record<G> {
        let mut record = Record::new(self.start.clone());
        record.moves = self.moves[..self.cursor].to_vec();
        if let Some(clock) = self.clock {
            record.clock = Some(clock.main);
            record.increment = clock.increment;
        }
        record
    }

    /// The whole line as a record (redo moves included).
    pub fn whole_record(&self) -> Record<G> {
        let mut record = self.record();
        record.moves = self.moves.clone();
        record
    }

    /// Seconds left to `color` after the moves up to the cursor (main time, less its
    /// recorded seconds, plus its increments); `None` without a clock.
    pub fn time_left(&self, color: Color) -> Option<f64> {
        let clock = self.clock?;
        let mut left = clock.main.as_secs_f64();
        for (ply, played) in self.moves[..self.cursor].iter().enumerate() {
            if self.positions[ply].side_to_move() == color {
                left += clock.increment.as_secs_f64() - played.seconds.unwrap_or(0.0);
            }
        }
        Some(left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iago_core::othello::Position;

    fn mv(text: &str) -> iago_core::othello::Move {
        text.parse().unwrap()
    }

    #[test]
    fn a_move_at_the_cursor_keeps_the_redo_line_only_if_it_is_the_next_move() {
        let mut line = Line::new(Position::start());
        for text in ["f5", "d6", "c3"] {
            line.play(mv(text), None);
        }
        line.go_to(1);
        line.play(mv("d6"), Some(2.0));
        assert_eq!((line.cursor(), line.moves().len()), (2, 3));
        line.go_to(1);
        line.play(mv("f6"), None);
        assert_eq!((line.cursor(), line.moves().len()), (2, 2));
        assert_eq!(line.record().moves.len(), 2);
    }

    #[test]
    fn time_left_counts_each_players_own_moves_and_increments() {
        let mut line = Line::new(Position::start());
        line.clock = Some(ClockSetting {
            main: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        });
        line.play(mv("f5"), Some(10.0));
        line.play(mv("d6"), Some(3.0));
        assert_eq!(line.time_left(Color::Black), Some(51.0));
        assert_eq!(line.time_left(Color::White), Some(58.0));
        line.go_to(0);
        assert_eq!(line.time_left(Color::Black), Some(60.0));
    }
}
