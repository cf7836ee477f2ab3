//! Move ordering for the midgame search: the better the first move, the more the
//! alpha-beta window cuts.
//!
//! Rules, each switchable for measurements (`iago bench --no-...`): the hash move first;
//! then the mover's value after each move, from the static evaluation; and
//! "fastest first": fewer replies for the opponent is better.

use crate::game::{Game, Score};

use super::negamax::Run;

/// Which ordering rules the search applies. All are on by default; switching one off
/// is for measuring what it buys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderingRules {
    /// Try the move the transposition table remembers first.
    pub hash_move: bool,
    /// Sort by the static evaluation after the move.
    pub evaluation: bool,
    /// Prefer moves that leave the opponent few replies.
    pub mobility: bool,
    /// Endgame: prefer moves into regions with an odd number of empties.
    pub parity: bool,
    /// Endgame: cut when the opponent's stable discs already decide the window.
    pub stability: bool,
}

impl Default for OrderingRules {
    fn default() -> Self {
        OrderingRules {
            hash_move: true,
            evaluation: true,
            mobility: true,
            parity: true,
            stability: true,
        }
    }
}

/// Score units one opponent reply costs in the ordering key (a fifth of an Othello disc).
const MOBILITY_WEIGHT: Score = 20;

impl<G: Game> Run<'_, G> {
    /// The moves of `pos` in the order to search them at `depth`.
    pub(super) fn order(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        hash_move: Option<G::Move>,
        depth: i32,
        _ply: u32,
    ) -> Vec<G::Move> {
        let rules = self.rules;
        let hash_move = hash_move.filter(|_| rules.hash_move);
        let mut keyed: Vec<(Score, G::Move)> = Vec::with_capacity(moves.len());
        for &mv in moves {
            if Some(mv) == hash_move {
                keyed.push((Score::MAX, mv));
                continue;
            }
            if depth < 2 || !(rules.evaluation || rules.mobility) {
                keyed.push((0, mv));
                continue;
            }
            let child = pos.play(mv);
            let mut key = 0;
            // A shallow search per move (tried from depth 6 up) cost more nodes than it
            // saved: depth 12 bench 3,170,151 nodes with it, 1,514,930 without.
            if rules.evaluation {
                key -= self.evaluator.evaluate(&child);
            }
            if rules.mobility {
                key -= MOBILITY_WEIGHT * child.legal_moves().as_ref().len() as Score;
            }
            keyed.push((key, mv));
        }
        // Stable: equal keys keep the generator's order, so the search is deterministic.
        keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        keyed.into_iter().map(|(_, mv)| mv).collect()
    }
}
