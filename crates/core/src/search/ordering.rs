//! Move ordering for the midgame search: the better the first move, the more the
//! alpha-beta window cuts.
//!
//! Rules, each switchable for measurements (`iago bench --no-...`): the hash move first;
//! then the mover's value after each move, from the static evaluation (from 3 plies
//! above the leaves); and "fastest first": fewer replies for the opponent is better.
//!
//! Games that give move hints (Mill) are ordered without playing the moves: the hash move,
//! then by hint, the two killer moves of the ply (the last moves that cut there) counting
//! as [`KILLER_HINT`], ties broken by the history table (how often and how deep a move cut).

use crate::game::{HISTORY_SLOTS, Score};

use super::negamax::Run;
use super::plan::Searchable;

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
    /// Games with move hints: try the ply's killer moves early.
    pub killers: bool,
    /// Games with move hints: break ties by the history table.
    pub history: bool,
    /// Games with move hints: search late quiet moves less deep first.
    pub reductions: bool,
    /// Search captures (Game::is_capture) beyond the horizon.
    pub quiescence: bool,
}

impl Default for OrderingRules {
    fn default() -> Self {
        OrderingRules {
            hash_move: true,
            evaluation: true,
            mobility: true,
            parity: true,
            stability: true,
            killers: true,
            history: true,
            reductions: true,
            quiescence: true,
        }
    }
}

/// Score units one opponent reply costs in the ordering key (a fifth of an Othello disc).
const MOBILITY_WEIGHT: Score = 20;

/// The hint a killer move gets (unless its own is higher).
pub const KILLER_HINT: Score = 2_500;

/// Plies with killer moves; deeper plies share the last slot.
pub const KILLER_PLIES: usize = 128;

/// History scores are halved when one passes this, keeping recent cuts weightier.
const HISTORY_MAX: i32 = 1 << 24;

/// Moves handed out best first: sorted at once (evaluation ordering), or by hints,
/// where the first few are picked by selection (a node often needs only one) and the
/// rest sorted when reached.
pub(super) struct Picker<M> {
    keyed: KeyedMoves<M>,
    next: usize,
    sorted: bool,
    /// Keys are move hints (with killer bonuses).
    pub hinted: bool,
}

/// Moves picked one by one by selection before the rest are sorted.
const SELECT_FIRST: usize = 3;

/// The storage of a picker's moves. A search keeps the buffers of finished pickers
/// ([`Run::recycle`]) for the next ones: a node then allocates nothing.
pub(crate) type KeyedMoves<M> = Vec<Keyed<M>>;

/// A move with its ordering key (hint, history) and, where the ordering evaluated the
/// position after it, that evaluation (for the side then to move), which the search of
/// the move reuses.
#[derive(Clone, Copy)]
pub(crate) struct Keyed<M> {
    key: (Score, i32),
    mv: M,
    child_eval: Option<Score>,
}

impl<M> Keyed<M> {
    fn new(key: (Score, i32), mv: M) -> Keyed<M> {
        Keyed {
            key,
            mv,
            child_eval: None,
        }
    }
}

/// A move handed out by the picker.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pick<M> {
    pub mv: M,
    /// The hint part of its key (with killer bonuses).
    pub hint: Score,
    /// The static evaluation of the position after it, if the ordering made one.
    pub child_eval: Option<Score>,
}

impl<M: Copy> Picker<M> {
    /// The next move.
    pub fn next(&mut self) -> Option<Pick<M>> {
        let i = self.next;
        if i >= self.keyed.len() {
            return None;
        }
        if !self.sorted {
            if i < SELECT_FIRST {
                let best = (i..self.keyed.len())
                    .max_by_key(|&j| (self.keyed[j].key, std::cmp::Reverse(j)))
                    .unwrap_or(i);
                // Keep the others in generation order, for determinism with ties.
                self.keyed[i..=best].rotate_right(1);
            } else {
                self.keyed[i..].sort_by_key(|keyed| std::cmp::Reverse(keyed.key));
                self.sorted = true;
            }
        }
        self.next += 1;
        let keyed = self.keyed[i];
        Some(Pick {
            mv: keyed.mv,
            hint: keyed.key.0,
            child_eval: keyed.child_eval,
        })
    }

    /// All the moves in order.
    pub fn into_moves(mut self) -> Vec<M> {
        let mut moves = Vec::with_capacity(self.keyed.len());
        while let Some(pick) = self.next() {
            moves.push(pick.mv);
        }
        moves
    }
}

impl<G: Searchable> Run<'_, G> {
    /// The moves of `pos` in the order to search them at `depth`.
    pub(super) fn order(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        hash_move: Option<G::Move>,
        depth: i32,
        ply: u32,
    ) -> Vec<G::Move> {
        self.picker(pos, moves, hash_move, depth, ply).into_moves()
    }

    /// The moves of `pos` to hand out in search order at `depth`.
    pub(super) fn picker(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        hash_move: Option<G::Move>,
        depth: i32,
        ply: u32,
    ) -> Picker<G::Move> {
        let rules = self.rules;
        let hash_move = hash_move.filter(|_| rules.hash_move);
        if let Some(&first) = moves.first()
            && pos.move_hint(first).is_some()
        {
            return self.order_by_hints(pos, moves, hash_move, ply);
        }
        let mut keyed = self.spare_keyed.pop().unwrap_or_default();
        keyed.clear();
        for &mv in moves {
            if Some(mv) == hash_move {
                keyed.push(Keyed::new((Score::MAX, 0), mv));
                continue;
            }
            if depth < 2 || !(rules.evaluation || rules.mobility) {
                keyed.push(Keyed::new((0, 0), mv));
                continue;
            }
            let child = pos.play(mv);
            // The child will probe the table when its turn comes.
            self.table.prefetch(child.hash());
            let mut key = 0;
            let mut child_eval = None;
            // A shallow search per move (tried from depth 6 up) cost more nodes than it
            // saved: depth 12 bench 3,170,151 nodes with it, 1,514,930 without.
            // Two plies above the leaves the evaluations cost about as much as the
            // search they order: fastest first alone there.
            if rules.evaluation && depth > 2 {
                let value = self.evaluator.evaluate(&child);
                key -= value;
                child_eval = Some(value);
            }
            if rules.mobility {
                key -= MOBILITY_WEIGHT * child.move_count() as Score;
            }
            keyed.push(Keyed {
                key: (key, 0),
                mv,
                child_eval,
            });
        }
        // Stable: equal keys keep the generator's order, so the search is deterministic.
        keyed.sort_by_key(|keyed| std::cmp::Reverse(keyed.key.0));
        Picker {
            keyed,
            next: 0,
            sorted: true,
            hinted: false,
        }
    }
}

impl<G: Searchable> Run<'_, G> {
    /// Gives a finished picker's buffer back for the next node's picker.
    pub(super) fn recycle(&mut self, picker: Picker<G::Move>) {
        self.spare_keyed.push(picker.keyed);
    }

    /// Hint ordering (see the module comment).
    fn order_by_hints(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        hash_move: Option<G::Move>,
        ply: u32,
    ) -> Picker<G::Move> {
        let killers = self.killers[(ply as usize).min(KILLER_PLIES - 1)];
        let mut hints = vec![0; moves.len()];
        pos.move_hints(moves, &mut hints);
        let mut keyed = self.spare_keyed.pop().unwrap_or_default();
        keyed.clear();
        keyed.extend(moves.iter().zip(hints).map(|(&mv, mut hint)| {
            if Some(mv) == hash_move {
                return Keyed::new((Score::MAX, 0), mv);
            }
            if killers.contains(&Some(mv)) && self.rules.killers {
                hint = hint.max(KILLER_HINT + i32::from(killers[0] == Some(mv)));
            }
            let history = if self.rules.history {
                self.history[pos.history_slot(mv) % HISTORY_SLOTS]
            } else {
                0
            };
            Keyed::new((hint, history), mv)
        }));
        Picker {
            keyed,
            next: 0,
            sorted: false,
            hinted: true,
        }
    }

    /// Remembers `mv` as having cut at `ply` with `depth` plies left.
    pub(super) fn record_cut(&mut self, pos: &G, mv: G::Move, depth: i32, ply: u32) {
        if pos.move_hint(mv).is_none() {
            return;
        }
        let slot = &mut self.killers[(ply as usize).min(KILLER_PLIES - 1)];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
        let entry = &mut self.history[pos.history_slot(mv) % HISTORY_SLOTS];
        *entry += depth.max(1) * depth.max(1);
        if *entry > HISTORY_MAX {
            for value in self.history.iter_mut() {
                *value /= 2;
            }
        }
    }
}
