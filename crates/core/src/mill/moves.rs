//! Moves and their generation: a placement, slide or fly together with the stones it
//! removes is one move (one ply).

use super::board::{ALL, MILLS, MILLS_OF, NEIGHBOURS, Points, in_mills, mills_through, points};
use super::position::MillPosition;
use crate::game::{MoveList, Score};

/// Move hints for the search's ordering: a mill first (the removal scored), then a move
/// onto the point that would close an opponent's mill, then moves that open a mill.
const HINT_MILL: Score = 10_000;
const HINT_BLOCK: Score = 2_000;
const HINT_OPEN: Score = 100;

/// "No point": the `from` of a placement, an unused removal.
pub const NONE: u8 = u8::MAX;

/// One ply: a placement (`from == NONE`) or a slide/fly, and up to two removals (two only
/// under the one-removal-per-mill variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub remove: [u8; 2],
}

impl Default for Move {
    fn default() -> Self {
        Move {
            from: NONE,
            to: NONE,
            remove: [NONE, NONE],
        }
    }
}

impl crate::game::MoveBits for Move {
    fn to_bits(self) -> u32 {
        u32::from_le_bytes([self.from, self.to, self.remove[0], self.remove[1]])
    }

    fn from_bits(bits: u32) -> Move {
        let [from, to, first, second] = bits.to_le_bytes();
        Move {
            from,
            to,
            remove: [first, second],
        }
    }
}

impl Move {
    pub fn is_placement(self) -> bool {
        self.from == NONE
    }

    /// The removed points.
    pub fn removals(self) -> impl Iterator<Item = usize> {
        self.remove
            .into_iter()
            .filter(|&r| r != NONE)
            .map(usize::from)
    }
}

/// Above the largest possible count. A move's action (placement, slide or fly) comes once
/// per removal choice, and the opponent has at most 9 stones to choose from:
/// - sliding: at most min(4 x own stones, 4 x empty points) actions, times at most the
///   opponent's stones; with own + opponent + empty = 24 that is at most 8 x 4 x 8 = 256;
/// - flying: 3 x 21 actions, of which at most 3 close a mill (the other two stones fix
///   the line): 63 + 3 x 9 = 90;
/// - placing: at most 8 own stones, so at most 8 points close a mill (at most 2 of them
///   two mills): 24 + 8 x 9 = 96, or under one removal per mill 24 + 2 x 36 + 6 x 9 = 150.
pub const MAX_MOVES: usize = 256;
pub type MillMoves = MoveList<Move, MAX_MOVES>;

/// The opponent stones a mill may remove: those outside mills, or any when all stand in
/// mills.
pub fn removable(opponent: Points) -> Points {
    let free = opponent & !in_mills(opponent);
    if free != 0 { free } else { opponent }
}

impl MillPosition {
    /// Every legal move, ignoring whether the game has already ended.
    pub(super) fn generate(&self, list: &mut MillMoves) {
        let me = self.own();
        let empty = ALL & !(me | self.theirs());
        if self.hand_of(self.side_to_move_index()) > 0 {
            for to in points(empty) {
                self.add(list, NONE, to, me | 1 << to);
            }
        } else if me.count_ones() == 3 && self.rules().flying {
            for from in points(me) {
                for to in points(empty) {
                    self.add(list, from as u8, to, me ^ (1 << from) ^ (1 << to));
                }
            }
        } else {
            for from in points(me) {
                for to in points(NEIGHBOURS[from] & empty) {
                    self.add(list, from as u8, to, me ^ (1 << from) ^ (1 << to));
                }
            }
        }
    }

    /// True when the side to move has a legal move (placing always has one).
    pub(super) fn can_move(&self) -> bool {
        let me = self.own();
        let empty = ALL & !(me | self.theirs());
        if empty == 0 {
            return false;
        }
        if self.hand_of(self.side_to_move_index()) > 0
            || (me.count_ones() == 3 && self.rules().flying)
        {
            return true;
        }
        points(me).any(|from| NEIGHBOURS[from] & empty != 0)
    }

    /// Adds the move that puts a stone on `to` (leaving `mine` as the mover's stones),
    /// expanded into its removal choices when it closes mills.
    fn add(&self, list: &mut MillMoves, from: u8, to: usize, mine: Points) {
        let mut mv = Move {
            from,
            to: to as u8,
            remove: [NONE, NONE],
        };
        let opponent = self.theirs();
        let closed = mills_through(mine, to);
        if closed == 0 || opponent == 0 {
            list.push(mv);
            return;
        }
        let first = removable(opponent);
        if closed == 1 || !self.rules().removal_per_mill || opponent.count_ones() == 1 {
            for r in points(first) {
                mv.remove[0] = r as u8;
                list.push(mv);
            }
            return;
        }
        // Two removals, one after the other: a pair is legal when some order of the two
        // respects the mill rule at each step.
        for a in points(opponent) {
            for b in points(opponent & !((2 << a) - 1)) {
                let a_then_b =
                    first & (1 << a) != 0 && removable(opponent & !(1 << a)) & (1 << b) != 0;
                let b_then_a =
                    first & (1 << b) != 0 && removable(opponent & !(1 << b)) & (1 << a) != 0;
                if a_then_b || b_then_a {
                    mv.remove = [a as u8, b as u8];
                    list.push(mv);
                }
            }
        }
    }
}

/// The empty points that would complete a line of two `stones`.
pub fn mill_points(stones: Points, empty: Points) -> Points {
    let mut points = 0;
    for &m in &MILLS {
        let missing = m & !stones;
        if missing.count_ones() == 1 && missing & empty != 0 {
            points |= missing;
        }
    }
    points
}

impl MillPosition {
    /// How promising `mv` looks before it is searched (see the constants above).
    pub(super) fn hint(&self, mv: Move) -> Score {
        self.hint_with(mv, self.blocking_points())
    }

    /// The hints of `moves`, sharing the work.
    pub(super) fn hints(&self, moves: &[Move], hints: &mut [Score]) {
        let blocks = self.blocking_points();
        for (hint, &mv) in hints.iter_mut().zip(moves) {
            *hint = self.hint_with(mv, blocks);
        }
    }

    /// The empty points that would close an opponent's mill.
    fn blocking_points(&self) -> Points {
        mill_points(self.theirs(), ALL & !(self.own() | self.theirs()))
    }

    fn hint_with(&self, mv: Move, blocks: Points) -> Score {
        let me = self.own();
        let them = self.theirs();
        let mine = if mv.from == NONE {
            me | 1 << mv.to
        } else {
            me & !(1 << mv.from) | 1 << mv.to
        };
        let empty = ALL & !(mine | them);
        if mv.remove[0] != NONE {
            let mut score = HINT_MILL;
            for r in mv.removals() {
                let bit = 1 << r;
                // Taking a stone of an opponent's open line removes a threat; taking one
                // that stands in our line opens it; mobile stones are worth more.
                if MILLS_OF[r]
                    .iter()
                    .any(|&m| (them & m).count_ones() == 2 && (empty & m) != 0)
                {
                    score += 200;
                }
                if MILLS_OF[r].iter().any(|&m| (mine & m).count_ones() == 2) {
                    score += 100;
                }
                score += 10 * (NEIGHBOURS[r] & (empty | bit)).count_ones() as Score;
            }
            return score;
        }
        let to = usize::from(mv.to);
        let mut score = 0;
        if blocks & (1 << to) != 0 {
            score += HINT_BLOCK;
        }
        score += HINT_OPEN
            * MILLS_OF[to]
                .iter()
                .filter(|&&m| (mine & m).count_ones() == 2 && (empty & m) != 0)
                .count() as Score;
        score + 4 * (NEIGHBOURS[to] & empty).count_ones() as Score
    }
}
