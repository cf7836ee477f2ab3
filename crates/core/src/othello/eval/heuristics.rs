//! The seed heuristics: the hand-made evaluations of the seed documents, kept as named
//! evaluators so that every later evaluator can be measured against them.
//!
//! The Python seeds score from White's view in [-1, 1] (a disc or square count divided
//! by 64, or a weighted sum divided by its largest possible value). Here every value is
//! from the side to move's view and multiplied by 64 discs, so that the disc-count
//! heuristic is exactly the disc difference in [`DISC`] units and the others are on a
//! comparable scale. The Kotlin seed's blend has its own scale, divided down to discs.

use crate::game::{Evaluator, Score};
use crate::othello::bitboard::{CORNERS, FILE_A, FILE_H, legal_moves};
use crate::othello::{DISC, Position};

/// One seed heuristic as an evaluator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// Disc difference.
    DiscCount,
    /// Difference in the number of legal moves.
    Mobility,
    /// Difference in potential mobility: (empty square, opponent disc) neighbour pairs,
    /// divided by 3.5 (the seed's average ratio of potential to actual moves).
    PotentialMobility,
    /// The two mobilities blended by the number of discs on the board: potential
    /// mobility early, actual mobility late (weights `1 - n/50` and `n/50`).
    StageMobility,
    /// The Cowthello square-weight table.
    Cowthello,
    /// Difference in safe (stable) discs, by the seed's corner staircase rule.
    Stable,
    /// The Cowthello table with safe discs always counted positive.
    CowthelloSafe,
    /// The seeds' combined heuristic: disc count from 50 discs on, before that half the
    /// stage-weighted mobility and half the safe-disc Cowthello table.
    Combined,
    /// The Kotlin seed's blend: disc parity, corners, corner closeness, mobility,
    /// frontier discs and its square-weight table.
    Kotlin,
}

impl Heuristic {
    /// All seed heuristics with the names they are selected by.
    pub const ALL: [(&'static str, Heuristic); 9] = [
        ("discs", Heuristic::DiscCount),
        ("mobility", Heuristic::Mobility),
        ("potential-mobility", Heuristic::PotentialMobility),
        ("stage-mobility", Heuristic::StageMobility),
        ("cowthello", Heuristic::Cowthello),
        ("stable", Heuristic::Stable),
        ("cowthello-safe", Heuristic::CowthelloSafe),
        ("combined", Heuristic::Combined),
        ("kotlin", Heuristic::Kotlin),
    ];

    /// The heuristic called `name`.
    pub fn by_name(name: &str) -> Option<Heuristic> {
        Heuristic::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, h)| h)
    }

    /// The value for the side to move, in [`DISC`] units.
    pub fn score(self, pos: &Position) -> Score {
        let (p, o) = (pos.player, pos.opponent);
        match self {
            Heuristic::DiscCount => disc_count(p, o),
            Heuristic::Mobility => mobility(p, o),
            Heuristic::PotentialMobility => potential_mobility(p, o),
            Heuristic::StageMobility => stage_mobility(p, o),
            Heuristic::Cowthello => cowthello(p, o, 0),
            Heuristic::Stable => {
                let (sp, so) = (safe_discs(p), safe_discs(o));
                (sp.count_ones() as i32 - so.count_ones() as i32) * DISC
            }
            Heuristic::CowthelloSafe => cowthello(p, o, safe_discs(p) | safe_discs(o)),
            Heuristic::Combined => combined(p, o),
            Heuristic::Kotlin => kotlin(p, o),
        }
    }

    pub fn name(self) -> &'static str {
        Heuristic::ALL
            .iter()
            .find(|(_, h)| *h == self)
            .map_or("?", |(n, _)| n)
    }
}

impl Evaluator<Position> for Heuristic {
    fn evaluate(&self, pos: &Position) -> Score {
        self.score(pos)
    }

    fn name(&self) -> &'static str {
        Heuristic::name(*self)
    }
}

/// The seeds' normalised values run over [-1, 1]; one unit is 64 discs here.
const FULL_SCALE: f64 = 64.0 * DISC as f64;

fn count(board: u64) -> i32 {
    board.count_ones() as i32
}

fn disc_count(p: u64, o: u64) -> Score {
    (count(p) - count(o)) * DISC
}

fn mobility(p: u64, o: u64) -> Score {
    (count(legal_moves(p, o)) - count(legal_moves(o, p))) * DISC
}

/// The board shifted one step in each of the 8 directions (edge wrap masked off).
fn shifted(board: u64) -> [u64; 8] {
    let west = board & !FILE_A;
    let east = board & !FILE_H;
    [
        board << 8,
        board >> 8,
        east << 1,
        west >> 1,
        east << 9,
        west << 7,
        east >> 7,
        west >> 9,
    ]
}

/// (empty square, disc of `discs`) neighbour pairs: the seed counts an empty square once
/// for every neighbouring disc.
fn empty_neighbour_pairs(discs: u64, empty: u64) -> i32 {
    shifted(discs).iter().map(|&s| count(s & empty)).sum()
}

/// Potential mobility before the seed's normalisation: (mine - theirs) / 3.5.
fn potential_mobility_raw(p: u64, o: u64) -> f64 {
    let empty = !(p | o);
    f64::from(empty_neighbour_pairs(o, empty) - empty_neighbour_pairs(p, empty)) / 3.5
}

fn potential_mobility(p: u64, o: u64) -> Score {
    (potential_mobility_raw(p, o) * f64::from(DISC)).round() as Score
}

/// The stage blend in the seed's units (differences over 64).
fn stage_mobility_unit(p: u64, o: u64) -> f64 {
    let n = f64::from(count(p | o));
    let actual = f64::from(count(legal_moves(p, o)) - count(legal_moves(o, p))) / 64.0;
    let potential = potential_mobility_raw(p, o) / 64.0;
    (1.0 - n / 50.0) * potential + n / 50.0 * actual
}

fn stage_mobility(p: u64, o: u64) -> Score {
    (stage_mobility_unit(p, o) * FULL_SCALE).round() as Score
}

/// Cowthello's weights for one quarter of the board (rows, then columns, from a1).
const COWTHELLO_QUARTER: [[i32; 4]; 4] = [
    [100, -25, 25, 10],
    [-25, -50, 1, 1],
    [25, 1, 50, 5],
    [10, 1, 5, 1],
];

/// A full-board table from a quarter, mirrored both ways.
const fn mirror_quarter(quarter: [[i32; 4]; 4]) -> [i32; 64] {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let (row, column) = (square / 8, square % 8);
        let r = if row < 4 { row } else { 7 - row };
        let c = if column < 4 { column } else { 7 - column };
        table[square] = quarter[r][c];
        square += 1;
    }
    table
}

const COWTHELLO: [i32; 64] = mirror_quarter(COWTHELLO_QUARTER);

/// The sum of |weight| over the board, the seed's normaliser (1340).
const COWTHELLO_NORM: i32 = {
    let mut sum = 0;
    let mut i = 0;
    while i < 64 {
        sum += COWTHELLO[i].abs();
        i += 1;
    }
    sum
};

/// Weighted square sum of the side to move minus the opponent's; squares in `safe`
/// count with the absolute weight.
fn weighted_sum(table: &[i32; 64], p: u64, o: u64, safe: u64) -> i32 {
    let mut sum = 0;
    for (square, &weight) in table.iter().enumerate() {
        let bit = 1u64 << square;
        let weight = if safe & bit != 0 {
            weight.abs()
        } else {
            weight
        };
        if p & bit != 0 {
            sum += weight;
        } else if o & bit != 0 {
            sum -= weight;
        }
    }
    sum
}

fn cowthello_unit(p: u64, o: u64, safe: u64) -> f64 {
    f64::from(weighted_sum(&COWTHELLO, p, o, safe)) / f64::from(COWTHELLO_NORM)
}

fn cowthello(p: u64, o: u64, safe: u64) -> Score {
    (cowthello_unit(p, o, safe) * FULL_SCALE).round() as Score
}

/// The seed's safe discs of `discs`: from each corner, a staircase of runs of own discs
/// along the rows (each row's run at most one shorter than the row before, starting from
/// the corner's row), and the same along the columns.
///
/// The seed finds a run with numpy's `argmax`, which returns 0 for a row entirely of own
/// discs; that is a slip (a full row is safe), so a full row counts 8 here.
pub fn safe_discs(discs: u64) -> u64 {
    let mut safe = 0;
    for (from_bottom, from_right) in [(false, false), (false, true), (true, false), (true, true)] {
        let square = |line: usize, step: usize, by_rows: bool| -> u64 {
            let (mut row, mut column) = if by_rows { (line, step) } else { (step, line) };
            if from_bottom {
                row = 7 - row;
            }
            if from_right {
                column = 7 - column;
            }
            1u64 << (row * 8 + column)
        };
        for by_rows in [true, false] {
            let mut limit = 9;
            for line in 0..8 {
                let run = (0..8)
                    .take_while(|&step| discs & square(line, step, by_rows) != 0)
                    .count();
                limit = run.min(limit - 1);
                if limit == 0 {
                    break;
                }
                for step in 0..limit {
                    safe |= square(line, step, by_rows);
                }
            }
        }
    }
    safe
}

fn combined(p: u64, o: u64) -> Score {
    if count(p | o) >= 50 {
        return disc_count(p, o);
    }
    let safe = safe_discs(p) | safe_discs(o);
    let unit = 0.5 * stage_mobility_unit(p, o) + 0.5 * cowthello_unit(p, o, safe);
    (unit * FULL_SCALE).round() as Score
}

/// The Kotlin seed's square table (it calls the property "stability").
const KOTLIN_TABLE: [i32; 64] = mirror_quarter([
    [20, -3, 11, 8],
    [-3, -7, -4, 1],
    [11, -4, 2, 2],
    [8, 1, 2, -3],
]);

/// The Kotlin blend's raw value is in its own units (a corner is worth about 200 of
/// them); divided by this it is in hundredths of a disc on the seeds' common scale.
const KOTLIN_DIVISOR: f64 = 20.0;

/// `100 * mine / (mine + theirs)` towards whoever has more, 0 when equal: the Kotlin
/// seed's share measure.
fn share(mine: i32, theirs: i32) -> f64 {
    let total = f64::from(mine + theirs);
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => 100.0 * f64::from(mine) / total,
        std::cmp::Ordering::Less => -100.0 * f64::from(theirs) / total,
        std::cmp::Ordering::Equal => 0.0,
    }
}

/// The squares next to each corner, for corner closeness.
const CORNER_NEIGHBOURS: [(u64, u64); 4] = [
    (1 << 0, (1 << 1) | (1 << 8) | (1 << 9)),
    (1 << 7, (1 << 6) | (1 << 15) | (1 << 14)),
    (1 << 56, (1 << 57) | (1 << 48) | (1 << 49)),
    (1 << 63, (1 << 62) | (1 << 55) | (1 << 54)),
];

fn kotlin(p: u64, o: u64) -> Score {
    let empty = !(p | o);
    let parity = share(count(p), count(o));
    let square_table = f64::from(weighted_sum(&KOTLIN_TABLE, p, o, 0));
    let corners = 25.0 * f64::from(count(p & CORNERS) - count(o & CORNERS));
    let mut closeness = 0;
    for (corner, next) in CORNER_NEIGHBOURS {
        if empty & corner != 0 {
            closeness += count(p & next) - count(o & next);
        }
    }
    let closeness = -12.5 * f64::from(closeness);
    let mobility = share(count(legal_moves(p, o)), count(legal_moves(o, p)));
    // Frontier discs (next to an empty square) are a liability: the share is negated.
    let frontier_squares = shifted(empty).iter().fold(0, |acc, &s| acc | s);
    let frontier = -share(count(p & frontier_squares), count(o & frontier_squares));
    let raw = 10.0 * parity
        + 801.724 * corners
        + 382.026 * closeness
        + 78.922 * mobility
        + 74.396 * frontier
        + 10.0 * square_table;
    (raw / KOTLIN_DIVISOR).round() as Score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::notation::parse_position;

    fn position(text: &str) -> Position {
        parse_position(text).expect("test position")
    }

    /// The start position after Black's f5: Black d5 e4 e5 f5, White d4; White to move.
    fn after_f5() -> Position {
        let start = Position::start();
        start.play_square(37)
    }

    fn score(name: &str, pos: &Position) -> Score {
        Heuristic::by_name(name).expect("known").score(pos)
    }

    #[test]
    fn names_round_trip() {
        for (name, h) in Heuristic::ALL {
            assert_eq!(Heuristic::by_name(name), Some(h));
            assert_eq!(h.name(), name);
        }
        assert_eq!(Heuristic::by_name("nonsense"), None);
    }

    #[test]
    fn start_position_is_even_for_symmetric_terms() {
        let start = Position::start();
        let heuristics: Vec<&str> = crate::othello::eval::OTHELLO_EVALUATORS
            .iter()
            .copied()
            .filter(|name| Heuristic::by_name(name).is_some())
            .collect();
        assert_eq!(heuristics.len(), 9, "{heuristics:?}");
        for name in heuristics {
            assert_eq!(score(name, &start), 0, "{name}");
        }
    }

    #[test]
    fn values_after_f5() {
        let pos = after_f5();
        assert_eq!(pos.player.count_ones(), 1);
        // White (to move) has 1 disc against 4.
        assert_eq!(score("discs", &pos), -300);
        // White: d6 f4 f6 (3 moves); Black: c3 d3 c4 (3 moves).
        assert_eq!(score("mobility", &pos), 0);
        // Empty-neighbour pairs: White's d4 has 5 (c3 d3 e3 c4 c5); Black's discs have
        // 5 + 4 + 4 + 6 = 19. White's potential mobility lead: (19 - 5) / 3.5 = 4 discs.
        assert_eq!(score("potential-mobility", &pos), 400);
        // Cowthello: the centre squares weigh 1, f5 (the mirror of c4) weighs 5:
        // 1 - (1 + 1 + 1 + 5) = -7, times 6400/1340.
        assert_eq!(
            score("cowthello", &pos),
            (-7.0 * 6400.0 / 1340.0f64).round() as i32
        );
        // Stage blend at 5 discs: 0.9 * potential + 0.1 * actual.
        assert_eq!(score("stage-mobility", &pos), 360);
    }

    #[test]
    fn safe_discs_follow_the_staircase() {
        // Black owns a1 b1 c1 d1 and a2 b2, and a3; White elsewhere in the middle.
        let pos = position(
            "XXXX----\
             XX------\
             X-------\
             ---OX---\
             ---XO---\
             --------\
             --------\
             -------- O",
        );
        let black = pos.black();
        let safe = safe_discs(black);
        // Rows: 4 on row 1, then at most 3 but only 2 owned, then at most 1: a3.
        // Columns add nothing new.
        let expected = 0b1111 | (0b11 << 8) | (1 << 16);
        assert_eq!(safe, expected);
        assert_eq!(safe_discs(pos.white()), 0);
        // White to move: 0 safe against 7.
        assert_eq!(score("stable", &pos), -700);
        // A full row of own discs is safe (the seed's argmax slip is not reproduced).
        assert_eq!(safe_discs(0xFF), 0xFF);
    }

    #[test]
    fn safe_discs_turn_negative_squares_positive() {
        // White to move owns a1 and the X-square b2 behind it: b2 is safe, so it counts
        // +50 instead of -50 in the safe variant.
        let pos = position(
            "O-------\
             -O------\
             --------\
             ---OX---\
             ---XO---\
             --------\
             --------\
             -------- O",
        );
        let plain = weighted_sum(&COWTHELLO, pos.player, pos.opponent, 0);
        assert_eq!(plain, 100 - 50);
        // b2 is not safe by the staircase rule (row 2's run from a2 is 0), so the safe
        // variant equals the plain one here.
        assert_eq!(score("cowthello-safe", &pos), score("cowthello", &pos));
        let pos = position(
            "OO------\
             OO------\
             --------\
             ---OX---\
             ---XO---\
             --------\
             --------\
             -------- O",
        );
        // The staircase makes a1 b1 a2 safe but not b2 (row 2 may hold one disc less
        // than row 1): b1 and a2 turn from -25 to +25.
        let safe = safe_discs(pos.player) | safe_discs(pos.opponent);
        assert_eq!(safe, 0b11 | (1 << 8));
        assert_eq!(
            weighted_sum(&COWTHELLO, pos.player, pos.opponent, safe),
            100 + 25 + 25 - 50
        );
        assert_eq!(
            weighted_sum(&COWTHELLO, pos.player, pos.opponent, 0),
            100 - 25 - 25 - 50
        );
    }

    #[test]
    fn combined_switches_to_discs_late() {
        // 50 discs or more: the disc count alone.
        let pos = position(
            "XXXXXXXX\
             XXXXXXXX\
             XXXXXXXX\
             OOOOOOOO\
             OOOOOOOO\
             OOOOOOOO\
             XX------\
             -------- X",
        );
        assert_eq!(pos.empty_count(), 14);
        assert_eq!(score("combined", &pos), (26 - 24) * DISC);
    }

    #[test]
    fn kotlin_values_a_corner() {
        // Side to move owns a1 besides the centre: parity, corner and table all favour it.
        let pos = position(
            "X-------\
             --------\
             --------\
             ---OX---\
             ---XO---\
             --------\
             --------\
             -------- X",
        );
        let value = score("kotlin", &pos);
        // Parity share 100*3/5 = 60 -> 600; corner 25 -> 20043.1; square table
        // 20 - 3 - 3 + 3 + 3 = 20 -> 200; no empty corner has an occupied neighbour.
        let mobility = share(
            count(legal_moves(pos.player, pos.opponent)),
            count(legal_moves(pos.opponent, pos.player)),
        );
        let empty = pos.empty();
        let front = shifted(empty).iter().fold(0, |a, &s| a | s);
        let frontier = -share(count(pos.player & front), count(pos.opponent & front));
        let raw = 600.0 + 801.724 * 25.0 + 78.922 * mobility + 74.396 * frontier + 200.0;
        assert_eq!(value, (raw / KOTLIN_DIVISOR).round() as i32);
        // Black's corner disc blocks nothing, but its mobility and frontier are worse.
        assert_eq!(value, 819);
    }
}
