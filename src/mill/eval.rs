//! Mill evaluations, in units of a hundredth of a stone: `material` counts stones, and
//! `phased` (the default) adds mobility, blocked stones, closed and open mills with
//! weights that change with the phase.

use super::board::{ALL, MILLS, NEIGHBOURS, Points, points};
use super::position::MillPosition;
use crate::eval::Evaluator;
use crate::game::{Color, Game, Score};

/// One stone.
pub const STONE: Score = 100;

/// Names accepted by [`mill_evaluator`], the default first.
pub const MILL_EVALUATORS: &[&str] = &["phased", "material"];

/// The Mill evaluator called `name` (`default` is the first of [`MILL_EVALUATORS`]).
pub fn mill_evaluator(name: &str) -> Result<Box<dyn Evaluator<MillPosition>>, String> {
    match name {
        "phased" | "default" => Ok(Box::new(Phased)),
        "material" => Ok(Box::new(Material)),
        _ => Err(format!(
            "unknown mill evaluator {name:?} (known: {})",
            MILL_EVALUATORS.join(", ")
        )),
    }
}

/// Stones on the board and in hand, the mover's minus the opponent's.
fn material(pos: &MillPosition) -> Score {
    let me = pos.side_to_move();
    let count = |c: Color| (pos.stones(c).count_ones() + u32::from(pos.hand(c))) as Score;
    count(me) - count(me.opponent())
}

pub struct Material;

impl Evaluator<MillPosition> for Material {
    fn evaluate(&self, pos: &MillPosition) -> Score {
        material(pos) * STONE
    }

    fn name(&self) -> &'static str {
        "material"
    }
}

/// What one side's stones look like.
struct Features {
    /// Slides available (ignoring flying).
    mobility: Score,
    /// Stones with no empty neighbour.
    blocked: Score,
    /// Lines held with three stones.
    closed: Score,
    /// Lines with two own stones and the third point empty.
    open: Score,
}

fn features(own: Points, empty: Points) -> Features {
    let mut f = Features {
        mobility: 0,
        blocked: 0,
        closed: 0,
        open: 0,
    };
    for p in points(own) {
        let free = (NEIGHBOURS[p] & empty).count_ones() as Score;
        f.mobility += free;
        if free == 0 {
            f.blocked += 1;
        }
    }
    for &m in &MILLS {
        match ((own & m).count_ones(), (empty & m).count_ones()) {
            (3, _) => f.closed += 1,
            (2, 1) => f.open += 1,
            _ => {}
        }
    }
    f
}

/// Weights per phase: (material, mobility, blocked, closed, open).
const PLACING: [Score; 5] = [100, 4, -10, 30, 25];
const MOVING: [Score; 5] = [120, 8, -15, 40, 20];
/// When either side flies, stones and threats are all that count.
const FLYING: [Score; 5] = [150, 0, 0, 20, 45];

pub struct Phased;

impl Evaluator<MillPosition> for Phased {
    fn evaluate(&self, pos: &MillPosition) -> Score {
        let me = pos.side_to_move();
        let them = me.opponent();
        let own = pos.stones(me);
        let opp = pos.stones(them);
        let empty = ALL & !(own | opp);
        let (a, b) = (features(own, empty), features(opp, empty));
        let placing = pos.hand(me) + pos.hand(them) > 0;
        let flying = !placing && (own.count_ones() <= 3 || opp.count_ones() <= 3);
        let w = if placing {
            PLACING
        } else if flying {
            FLYING
        } else {
            MOVING
        };
        let mut score = w[0] * material(pos)
            + w[1] * (a.mobility - b.mobility)
            + w[2] * (a.blocked - b.blocked)
            + w[3] * (a.closed - b.closed)
            + w[4] * (a.open - b.open);
        // The mover closes an open mill next: worth most of a stone.
        let threat = a.open > 0
            && (placing
                || pos
                    .legal_moves()
                    .as_ref()
                    .iter()
                    .any(|m| m.remove[0] != u8::MAX));
        if threat {
            score += STONE / 2;
        }
        // A side with no slide in the moving phase is lost when it must move.
        if !placing && !flying && b.mobility == 0 {
            score += 3 * STONE;
        }
        score
    }

    fn name(&self) -> &'static str {
        "phased"
    }
}
