//! Othello's ProbCut values: the lines fitted per game phase (empties in tens) and per
//! depth by `iago fit-probcut` (`scripts/fit-probcut`) into `probcut_params.rs`, with a
//! shallow partner for every depth (about `d / 2` plies, see [`shallow_depth`]), which
//! makes the cut "multi". The deep pairs (to 16 plies) have fits of their own: their
//! sigma is a third smaller than at 8 plies past 30 empties, so their cuts come with less
//! margin for the same confidence.
//!
//! The endgame solver uses the same idea against the exact score (a selective solve):
//! see [`endgame_fit`] and the solver's `probable_cut`.

use crate::game::Score;
use crate::othello::Position;
use crate::search::plan::ProbCut;
use crate::search::probcut::Fit;

use super::probcut_params::{END_CUT, END_CUT_SIGMA_SLOPE, ENDGAME, ENDGAME_SIGMA_SLOPE, MIDGAME};

/// The shallowest depth ProbCut is tried at.
pub const MIN_DEPTH: i32 = 3;
/// The deepest depth with its own fitted parameters.
pub const MAX_FIT_DEPTH: i32 = MIN_DEPTH + MIDGAME[0].len() as i32 - 1;
/// Depths fitted on full-width searches; deeper ones on selective searches (full-width
/// searches that deep cost too much), whose shallow partners are still full-width.
pub const FULL_WIDTH_FIT_DEPTH: i32 = 8;

/// Standard deviations of margin for midgame cuts: about 88% of the cuts are right. The
/// seed's 1.5 (93%) searched 1.5 times the nodes for the same depth; at equal time 1.2
/// won (docs/experiments.md, "the midgame cut's margin").
const MIDGAME_T: f32 = 1.2;

/// The margins (standard deviations) of the selective solves tried before the exact
/// one, the least sure first, by level: 38%, 42%, 46%, ... 70%, then every percent from
/// 73% to 99% (`confidence_percent`), so that a long solve's results come in steps of a
/// similar cost (each level orders the next: at 38 empties 28 levels reached 82% a little
/// sooner than 9 did, and the 36 of an analysis give 40% more lines than 28 in its first
/// 400 s). The solver's own solves use 73% and 89% ([`LEVEL_73`], [`LEVEL_89`]).
pub const SELECTIVE_T: [f32; 36] = [
    0.5, 0.55, 0.61, 0.67, 0.74, 0.8, 0.88, 0.95, 1.04, 1.1, 1.13, 1.16, 1.17, 1.21, 1.23, 1.26,
    1.28, 1.32, 1.35, 1.38, 1.4, 1.45, 1.48, 1.52, 1.55, 1.6, 1.65, 1.7, 1.75, 1.81, 1.88, 1.96,
    2.05, 2.17, 2.33, 2.6,
];

/// The surest level of [`SELECTIVE_T`], at least `asked`, whose margin is at most
/// `margin`: a cut made with that many standard deviations to spare holds at each level
/// to it, so that the next level need not search its node again.
pub fn surest_level(margin: f32, asked: usize) -> usize {
    SELECTIVE_T
        .partition_point(|&t| t <= margin)
        .saturating_sub(1)
        .max(asked)
}

/// The level of [`SELECTIVE_T`] that is 73% sure.
pub const LEVEL_73: usize = 9;
/// The level of [`SELECTIVE_T`] that is 89% sure.
pub const LEVEL_89: usize = 25;

/// The shallow search depth checked for a deep search of `depth`: about half of it,
/// with the same parity. The evaluation swings by about 3 discs between odd and even
/// depths; a pair of unlike parity has that swing in its fit's offset and, since the
/// swing varies from position to position, in its sigma too.
pub const fn shallow_depth(depth: i32) -> i32 {
    2 * (depth / 4) + (depth & 1)
}

/// The parameter row for a position with `empties` empties.
pub fn phase(empties: u32) -> usize {
    (empties.min(59) / 10) as usize
}

/// The midgame fit for `depth` at `empties`.
pub fn midgame_fit(empties: u32, depth: i32) -> Fit {
    MIDGAME[phase(empties)][fit_column(depth)]
}

/// The fitted depth standing for `depth`: itself where fitted; past the fitted depths,
/// the deepest fitted one whose depth and shallow depth have the same parities (the
/// evaluation's odd-even effect of about 3 discs must not enter a borrowed line).
fn fit_column(depth: i32) -> usize {
    let same_parities =
        |d: i32| d % 2 == depth % 2 && shallow_depth(d) % 2 == shallow_depth(depth) % 2;
    let fitted = if depth <= MAX_FIT_DEPTH {
        depth.max(MIN_DEPTH)
    } else {
        (MIN_DEPTH..=MAX_FIT_DEPTH)
            .rev()
            .find(|&d| same_parities(d))
            .unwrap_or(MAX_FIT_DEPTH)
    };
    (fitted - MIN_DEPTH) as usize
}

/// The fit of the exact score (in discs times [`crate::othello::DISC`]) on a search of
/// `ENDGAME_DEPTH` plies at `empties`: sigma grows linearly with the empties.
pub fn endgame_fit(empties: u32) -> Fit {
    Fit {
        sigma: ENDGAME.sigma + ENDGAME_SIGMA_SLOPE * empties as f32,
        ..ENDGAME
    }
}

/// A shallow probe for the high bound is searched only where the static evaluation is
/// at most this far below it: further below, it cut in under a third of the probes
/// (`iago bench --depth 16`), and the probes cost more than the cuts saved.
const PROBE_BELOW_HIGH: Score = 400;

/// The probe for the low bound, only where the static evaluation is at most this far
/// above it (further above, under 3% of these probes cut).
const PROBE_ABOVE_LOW: Score = 300;

/// The probable cut of a midgame node of `pos` searched `depth` plies deep: none below
/// [`MIN_DEPTH`], nor where the depth reaches the end of the game (the solver's part).
#[inline(always)]
pub fn midgame_cut(pos: &Position, depth: i32) -> Option<ProbCut> {
    if depth < MIN_DEPTH {
        return None;
    }
    let empties = pos.empty_count();
    if depth >= empties as i32 {
        return None;
    }
    Some(ProbCut {
        shallow: shallow_depth(depth),
        fit: midgame_fit(empties, depth),
        margin: MIDGAME_T,
        probe_below_high: PROBE_BELOW_HIGH,
        probe_above_low: PROBE_ABOVE_LOW,
    })
}

/// The probable cut of a node of `pos` whose search reaches the end of the game, in a
/// selective solve of `level` searched by the midgame search: a selective search of
/// about half the empties predicts the exact score (the fit of `iago fit-probcut`, its
/// sigma growing with the empties: 3.2 discs at 20 empties, 4.3 at 37).
#[inline(always)]
pub fn end_cut(pos: &Position, level: usize) -> ProbCut {
    let empties = pos.empty_count();
    ProbCut {
        shallow: shallow_depth(empties as i32),
        fit: Fit {
            sigma: END_CUT.sigma + END_CUT_SIGMA_SLOPE * empties as f32,
            ..END_CUT
        },
        margin: SELECTIVE_T[level],
        probe_below_high: PROBE_BELOW_HIGH,
        probe_above_low: PROBE_ABOVE_LOW,
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_pairs_borrow_a_fit_of_the_same_parities() {
        for depth in MIN_DEPTH..40 {
            let fitted = fit_column(depth) as i32 + MIN_DEPTH;
            assert!(fitted <= MAX_FIT_DEPTH, "{depth}");
            assert_eq!(fitted % 2, depth % 2, "{depth}");
            assert_eq!(
                shallow_depth(fitted) % 2,
                shallow_depth(depth) % 2,
                "{depth}"
            );
            if depth <= MAX_FIT_DEPTH {
                assert_eq!(fitted, depth);
            } else {
                assert!(fitted > MAX_FIT_DEPTH - 4, "{depth}");
            }
        }
    }
}
