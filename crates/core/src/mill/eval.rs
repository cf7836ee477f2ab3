//! Mill evaluations, in units of a hundredth of a stone, from the side to move's view:
//! `material` counts stones; `phased` (the default) weighs stones, mobility, blocked
//! stones, mills closed, open and closable, running mills and the move's tempo, with
//! weights by phase; `phased:KEY=VALUE,...` changes weights (for tuning, see
//! [`Weights::set`]); `classic` is the first phase-aware evaluation, kept to measure
//! against.

use super::board::{ALL, MILLS, MILLS_OF, NEIGHBOURS, Points, points};
use super::position::MillPosition;
use crate::game::{Color, Evaluator, Game, Score};

/// One stone.
pub const STONE: Score = 100;

/// Names accepted by [`mill_evaluator`], the default first.
pub const MILL_EVALUATORS: &[&str] = &["phased", "material", "classic"];

/// The Mill evaluator called `name` (`default` is the first of [`MILL_EVALUATORS`]);
/// `phased:KEY=VALUE,...` is `phased` with some weights changed.
pub fn mill_evaluator(name: &str) -> Result<Box<dyn Evaluator<MillPosition>>, String> {
    if let Some(changes) = name.strip_prefix("phased:") {
        let mut weights = Weights::default();
        for change in changes.split(',').filter(|c| !c.is_empty()) {
            let (key, value) = change
                .split_once('=')
                .ok_or_else(|| format!("weight {change:?} is not KEY=VALUE"))?;
            let value = value
                .parse()
                .map_err(|_| format!("weight {key}: {value:?} is not a whole number"))?;
            weights.set(key, value)?;
        }
        return Ok(Box::new(Phased { weights }));
    }
    match name {
        "phased" | "default" => Ok(Box::new(Phased::default())),
        "material" => Ok(Box::new(Material)),
        "classic" => Ok(Box::new(Classic)),
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

/// The features of [`Phased`], by index into a phase's weights.
pub const FEATURES: [&str; 9] = [
    "material", "mobility", "blocked", "closed", "open", "closable", "running", "tempo", "double",
];
const MATERIAL: usize = 0;
const MOBILITY: usize = 1;
const BLOCKED: usize = 2;
const CLOSED: usize = 3;
const OPEN: usize = 4;
const CLOSABLE: usize = 5;
const RUNNING: usize = 6;
/// The mover can close a mill now.
const TEMPO: usize = 7;
/// The opponent can close mills on two points: one block cannot stop both.
const DOUBLE: usize = 8;

/// The weights of each phase: placing (either side has stones in hand), moving, and
/// flying (either side is down to three stones and flies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub phases: [[Score; FEATURES.len()]; 3],
}

const PHASE_NAMES: [&str; 3] = ["placing", "moving", "flying"];

impl Default for Weights {
    fn default() -> Self {
        Weights {
            phases: [
                // material mobility blocked closed open closable running tempo double
                [100, 30, -10, 20, 5, 10, 0, 40, 60],
                [100, 20, -10, 20, 10, 30, 60, 60, 80],
                [100, 0, 0, 0, 30, 30, 0, 60, 100],
            ],
        }
    }
}

impl Weights {
    /// Sets weight `PHASE.FEATURE` (`moving.mobility`; the phase's first letter will do:
    /// `m.mobility`), or `FEATURE` for all three phases.
    pub fn set(&mut self, key: &str, value: Score) -> Result<(), String> {
        let (phases, feature) = match key.split_once('.') {
            Some((phase, feature)) => {
                let index = PHASE_NAMES
                    .iter()
                    .position(|name| *name == phase || name[..1] == *phase)
                    .ok_or_else(|| format!("unknown phase {phase:?} (placing, moving, flying)"))?;
                (index..=index, feature)
            }
            None => (0..=2, key),
        };
        let feature = FEATURES
            .iter()
            .position(|name| *name == feature)
            .ok_or_else(|| {
                format!(
                    "unknown feature {feature:?} (known: {})",
                    FEATURES.join(", ")
                )
            })?;
        for phase in phases {
            self.phases[phase][feature] = value;
        }
        Ok(())
    }
}

/// One side's features (see [`FEATURES`]).
fn side_features(
    own: Points,
    opp: Points,
    hand: u8,
    flies: bool,
    out: &mut [Score; FEATURES.len()],
) -> Points {
    let empty = ALL & !(own | opp);
    let mut closable_points = 0;
    for p in points(own) {
        let free = (NEIGHBOURS[p] & empty).count_ones() as Score;
        out[MOBILITY] += free;
        if free == 0 {
            out[BLOCKED] += 1;
        }
    }
    for &m in &MILLS {
        let mine = (own & m).count_ones();
        if mine == 3 {
            out[CLOSED] += 1;
        } else if mine == 2 && empty & m != 0 {
            out[OPEN] += 1;
            let gap = empty & m;
            let gap_point = gap.trailing_zeros() as usize;
            // Who could fill the gap on their move: anyone placing or flying, else a
            // neighbour from outside the line.
            if hand > 0 || flies || NEIGHBOURS[gap_point] & own & !m != 0 {
                out[CLOSABLE] += 1;
                closable_points |= gap;
            }
        }
    }
    if hand == 0 && !flies {
        // A running mill: a stone of a closed mill steps out onto a gap that closes
        // another mill, and can step back to close the first again.
        for p in points(own) {
            if MILLS_OF[p].iter().all(|&m| own & m != m) {
                continue;
            }
            for q in points(NEIGHBOURS[p] & empty) {
                let closes = MILLS_OF[q]
                    .iter()
                    .any(|&m| m & (1 << p) == 0 && (own & m).count_ones() == 2);
                if closes {
                    out[RUNNING] += 1;
                }
            }
        }
    }
    closable_points
}

#[derive(Default)]
pub struct Phased {
    pub weights: Weights,
}

impl Evaluator<MillPosition> for Phased {
    fn evaluate(&self, pos: &MillPosition) -> Score {
        let me = pos.side_to_move();
        let them = me.opponent();
        let own = pos.stones(me);
        let opp = pos.stones(them);
        let (my_hand, their_hand) = (pos.hand(me), pos.hand(them));
        let placing = my_hand + their_hand > 0;
        let flying = pos.rules().flying;
        let i_fly = flying && !placing && own.count_ones() <= 3;
        let they_fly = flying && !placing && opp.count_ones() <= 3;
        let phase = if placing {
            0
        } else if i_fly || they_fly {
            2
        } else {
            1
        };
        let w = &self.weights.phases[phase];
        let mut a = [0; FEATURES.len()];
        let mut b = [0; FEATURES.len()];
        let mine = side_features(own, opp, my_hand, i_fly, &mut a);
        let theirs = side_features(opp, own, their_hand, they_fly, &mut b);
        a[MATERIAL] = material(pos);
        let mut score = 0;
        for f in 0..TEMPO {
            score += w[f] * (a[f] - b[f]);
        }
        if mine != 0 {
            score += w[TEMPO];
        }
        if theirs.count_ones() >= 2 {
            score -= w[DOUBLE];
        }
        // A side with no slide in the moving phase is lost when it must move.
        if phase == 1 && b[MOBILITY] == 0 {
            score += 3 * STONE;
        }
        score
    }

    fn name(&self) -> &'static str {
        "phased"
    }
}

/// The first phase-aware evaluation (mobility, blocked stones, closed and open mills),
/// kept to measure the current one against.
pub struct Classic;

/// What one side's stones look like, for [`Classic`].
struct ClassicFeatures {
    mobility: Score,
    blocked: Score,
    closed: Score,
    open: Score,
}

fn classic_features(own: Points, empty: Points) -> ClassicFeatures {
    let mut f = ClassicFeatures {
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
const CLASSIC_PLACING: [Score; 5] = [100, 4, -10, 30, 25];
const CLASSIC_MOVING: [Score; 5] = [120, 8, -15, 40, 20];
/// When either side flies, stones and threats are all that count.
const CLASSIC_FLYING: [Score; 5] = [150, 0, 0, 20, 45];

impl Evaluator<MillPosition> for Classic {
    fn evaluate(&self, pos: &MillPosition) -> Score {
        let me = pos.side_to_move();
        let them = me.opponent();
        let own = pos.stones(me);
        let opp = pos.stones(them);
        let empty = ALL & !(own | opp);
        let (a, b) = (classic_features(own, empty), classic_features(opp, empty));
        let placing = pos.hand(me) + pos.hand(them) > 0;
        let flying = !placing && (own.count_ones() <= 3 || opp.count_ones() <= 3);
        let w = if placing {
            CLASSIC_PLACING
        } else if flying {
            CLASSIC_FLYING
        } else {
            CLASSIC_MOVING
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
        "classic"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mill::Rules;
    use crate::mill::notation::parse_position;

    #[test]
    fn weights_are_set_by_phase_and_feature() {
        let mut w = Weights::default();
        w.set("m.mobility", 7).unwrap();
        w.set("flying.open", 9).unwrap();
        w.set("tempo", 1).unwrap();
        assert_eq!(w.phases[1][MOBILITY], 7);
        assert_eq!(w.phases[2][OPEN], 9);
        assert!(w.phases.iter().all(|p| p[TEMPO] == 1));
        assert!(w.set("x.open", 1).is_err() && w.set("speed", 1).is_err());
        assert!(mill_evaluator("phased:m.mobility=3,tempo=0").is_ok());
        assert!(mill_evaluator("phased:m.mobility").is_err());
    }

    #[test]
    fn features_see_mills_gaps_and_running_mills() {
        // White: the mill a7 d7 g7, d6 f6 with the gap b6 (reached from b4, off the
        // line), d7 d6 with the gap d5 (reached only from d6, on the line), and b4.
        let pos =
            parse_position("WWW--BB-/-WW----W/-------- w 0 0", Rules::default()).expect("valid");
        let mut w = [0; FEATURES.len()];
        let own = pos.stones(Color::White);
        let opp = pos.stones(Color::Black);
        let closable = side_features(own, opp, 0, false, &mut w);
        assert_eq!(w[CLOSED], 1);
        assert_eq!(w[OPEN], 2);
        assert_eq!(closable.count_ones(), 1, "only b6 can be filled");
        assert_eq!(w[RUNNING], 0);
        // A running mill: a7 d7 g7 closed, g7 steps to g4 which closes g4 f4 e4.
        let run =
            parse_position("WWW-----/---W----/---W---- w 0 0", Rules::default()).expect("valid");
        let mut r = [0; FEATURES.len()];
        side_features(run.stones(Color::White), 0, 0, false, &mut r);
        assert_eq!(r[RUNNING], 1);
    }
}
