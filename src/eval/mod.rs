//! Static evaluation: a score for a position without searching.
//!
//! Evaluators are chosen by name at run time (`--eval NAME`), so the search holds a
//! boxed [`Evaluator`].

use crate::game::{Game, Score};
use crate::othello::{DISC, Position};

/// A static evaluation from the side to move's point of view, in the game's score unit.
pub trait Evaluator<G: Game>: Send + Sync {
    fn evaluate(&self, pos: &G) -> Score;
    /// The name the evaluator is selected by.
    fn name(&self) -> &'static str;
}

/// Placeholder Othello evaluator: mobility and corners. Replaced by the seed heuristics
/// and the trained pattern evaluation.
pub struct SimpleOthello;

impl Evaluator<Position> for SimpleOthello {
    fn evaluate(&self, pos: &Position) -> Score {
        let mobility = pos.moves().count_ones() as i32
            - crate::othello::bitboard::legal_moves(pos.opponent, pos.player).count_ones() as i32;
        let corners = (pos.player & crate::othello::bitboard::CORNERS).count_ones() as i32
            - (pos.opponent & crate::othello::bitboard::CORNERS).count_ones() as i32;
        mobility * DISC + corners * 5 * DISC
    }

    fn name(&self) -> &'static str {
        "simple"
    }
}

/// Names accepted by [`othello_evaluator`], the default first.
pub const OTHELLO_EVALUATORS: &[&str] = &["simple"];

/// The Othello evaluator called `name`.
pub fn othello_evaluator(name: &str) -> Result<Box<dyn Evaluator<Position>>, String> {
    match name {
        "simple" | "default" => Ok(Box::new(SimpleOthello)),
        _ => Err(format!("unknown evaluator {name:?}")),
    }
}
