//! ProbCut (placeholder until the fitted parameters land).

use crate::game::{Game, Score};

use super::negamax::Run;

impl<G: Game> Run<'_, G> {
    /// A probable cut of `pos` at `depth`, predicted by a shallow search.
    pub(super) fn probcut(
        &mut self,
        _pos: &G,
        _depth: i32,
        _alpha: Score,
        _beta: Score,
        _ply: u32,
    ) -> Option<Score> {
        None
    }
}
