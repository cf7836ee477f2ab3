//! Nine Men's Morris behind the engine controller: position strings, move text, the board
//! drawing and scores for the protocols.

use crate::engine::EngineGame;
use crate::game::{Color, Evaluator, Game, Score};
use crate::mill::eval::{MILL_EVALUATORS, STONE, mill_evaluator};
use crate::mill::notation::{
    board_text, format_position, format_rules, parse_move_text, parse_position, parse_rules,
};
use crate::mill::{MillPosition, Move, Rules};

impl EngineGame for MillPosition {
    fn start() -> Self {
        MillPosition::start()
    }

    fn parse_position(text: &str) -> Result<Self, String> {
        parse_position(text, Rules::default())
    }

    fn format_position(&self) -> String {
        format_position(self)
    }

    fn parse_move_text(text: &str) -> Result<Move, String> {
        parse_move_text(text)
    }

    /// Mill has no passes: a blocked player has lost.
    fn forced_pass(&self) -> Option<Move> {
        None
    }

    fn board_text(&self) -> String {
        board_text(self)
    }

    /// 1 or -1 for a win or a loss, 0 for a draw (Mill has no margin).
    fn black_result(&self) -> i32 {
        match self.winner() {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => 0,
        }
    }

    /// Stones with two decimals.
    fn score_to_text(score: Score) -> String {
        crate::engine::units_text(score, STONE)
    }

    /// `draw-plies=N repetitions=N removal=one|per-mill flying=on|off` (or `standard`).
    fn with_rules(&self, text: &str) -> Result<Self, String> {
        let mut pos = self.clone();
        pos.set_rules(parse_rules(text, self.rules())?)?;
        Ok(pos)
    }

    fn rules_text(&self) -> Option<String> {
        Some(format_rules(self.rules()))
    }

    /// `stones` (the loser kept fewer than three), `blocked`, `repetition` or `move rule`.
    fn ending(&self) -> Option<&'static str> {
        if !self.is_game_over() {
            return None;
        }
        Some(match self.winner() {
            Some(winner) => {
                let loser = winner.opponent();
                if self.stones(loser).count_ones() + u32::from(self.hand(loser)) < 3 {
                    "stones"
                } else {
                    "blocked"
                }
            }
            None => {
                let rules = self.rules();
                if rules.draw_plies > 0 && self.quiet_plies() >= rules.draw_plies {
                    "move rule"
                } else {
                    "repetition"
                }
            }
        })
    }

    fn evaluator_names() -> &'static [&'static str] {
        MILL_EVALUATORS
    }

    fn evaluator(name: &str) -> Result<Box<dyn Evaluator<Self>>, String> {
        mill_evaluator(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_positions_read_back() {
        assert_eq!(MillPosition::score_to_text(-150), "-1.50");
        let start = <MillPosition as EngineGame>::start();
        let text = EngineGame::format_position(&start);
        assert_eq!(
            <MillPosition as EngineGame>::parse_position(&text),
            Ok(start.clone())
        );
        assert_eq!(start.black_result(), 0);
        assert!(MillPosition::parse_move_text("d6-d5xa1").is_ok());
        assert!(MillPosition::parse_move_text("d9").is_err());
        assert!(start.board_text().lines().count() > 13);
    }
}
