//! Multi-ProbCut: a shallow search predicts the deep one.
//!
//! On positions from real games the value of a `d`-ply search is close to a linear
//! function of the value of a much shallower search: `v_d ≈ a * v_s + b`, with residuals
//! of standard deviation `sigma`. So when the shallow value says `v_d >= beta` (or
//! `<= alpha`) with `t` standard deviations to spare, the node is cut without the deep
//! search. The parameters `(a, b, sigma)` are fitted per game phase (empties in tens)
//! and per depth by `iago fit-probcut` (`scripts/fit-probcut`) into
//! `probcut_params.rs`; a depth pair for every depth (about `d / 2` plies, see
//! [`shallow_depth`]) makes it "multi". The deep pairs (to 16 plies) have fits of their
//! own: their sigma is a third smaller than at 8 plies past 30 empties, so their cuts
//! come with less margin for the same confidence.
//!
//! The endgame solver uses the same idea against the exact score (a selective solve):
//! see [`endgame_fit`] and the solver's `probable_cut`.

use crate::game::{Game, Score};

use super::negamax::Run;
use super::probcut_params::{ENDGAME, ENDGAME_SIGMA_SLOPE, MIDGAME};

/// One fitted relation between a shallow and a deep value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub a: f32,
    pub b: f32,
    pub sigma: f32,
}

/// The shallowest depth ProbCut is tried at.
pub const MIN_DEPTH: i32 = 3;
/// The deepest depth with its own fitted parameters.
pub const MAX_FIT_DEPTH: i32 = MIN_DEPTH + MIDGAME[0].len() as i32 - 1;
/// Depths fitted on full-width searches; deeper ones on selective searches (full-width
/// searches that deep cost too much), whose shallow partners are still full-width.
pub const FULL_WIDTH_FIT_DEPTH: i32 = 8;

/// Standard deviations of margin for midgame cuts (the seed's 1.5: about 93% of the
/// cuts are right).
const MIDGAME_T: f32 = 1.5;

/// The margins (standard deviations) of the selective solves tried before the exact
/// one, the least sure first.
pub const SELECTIVE_T: [f32; 2] = [1.1, 1.6];

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

/// The bounds on the shallow value beyond which the deep value is outside
/// (`alpha`, `beta`) with `t` standard deviations to spare: (low, high).
pub fn bounds(fit: Fit, alpha: Score, beta: Score, t: f32) -> (Score, Score) {
    let margin = t * fit.sigma;
    let high = ((beta as f32 + margin - fit.b) / fit.a).ceil();
    let low = ((alpha as f32 - margin - fit.b) / fit.a).floor();
    (low as Score, high as Score)
}

/// Percent of selective solves at `t` standard deviations expected to be right (the
/// normal distribution's one-sided bound).
pub fn confidence_percent(t: f32) -> u8 {
    // erf by Abramowitz and Stegun 7.1.26 (error below 1.5e-7).
    let x = f64::from(t) / std::f64::consts::SQRT_2;
    let k = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = k
        * (0.254_829_592
            + k * (-0.284_496_736
                + k * (1.421_413_741 + k * (-1.453_152_027 + k * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    ((0.5 * (1.0 + erf)) * 100.0).floor().clamp(0.0, 99.0) as u8
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

impl<G: Game> Run<'_, G> {
    /// A probable cut of `pos` at `depth`: `Some(bound)` when a shallow search predicts
    /// the deep value outside (`alpha`, `beta`) with confidence. `static_eval`: the
    /// evaluation of `pos`, if the caller has made it.
    pub(super) fn probcut(
        &mut self,
        pos: &G,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: u32,
        static_eval: Option<Score>,
    ) -> Option<Score> {
        if !self.selective || depth < MIN_DEPTH || beta - alpha > 1 {
            return None;
        }
        let empties = pos.empties()?;
        if depth >= empties as i32 {
            return None;
        }
        let fit = midgame_fit(empties, depth);
        let shallow = shallow_depth(depth);
        let (low, high) = bounds(fit, alpha, beta, MIDGAME_T);
        let static_value = static_eval.unwrap_or_else(|| self.evaluator.evaluate(pos));
        let known = Some(static_value);
        if static_value >= high - PROBE_BELOW_HIGH
            && self.pvs(pos, shallow, high - 1, high, ply, known) >= high
            && !self.watch.aborted
        {
            return Some(beta);
        }
        if static_value <= low + PROBE_ABOVE_LOW
            && self.pvs(pos, shallow, low, low + 1, ply, known) <= low
            && !self.watch.aborted
        {
            return Some(alpha);
        }
        None
    }
}

/// The least-squares line `y ≈ a * x + b` through the pairs and the standard deviation
/// of its residuals; `None` with fewer than three pairs or no spread in `x`.
pub fn fit_line(pairs: &[(f64, f64)]) -> Option<Fit> {
    let n = pairs.len() as f64;
    if pairs.len() < 3 {
        return None;
    }
    let mean_x = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = mean_y - a * mean_x;
    let residuals: f64 = pairs.iter().map(|p| (p.1 - a * p.0 - b).powi(2)).sum();
    let sigma = (residuals / (n - 2.0)).sqrt();
    Some(Fit {
        a: a as f32,
        b: b as f32,
        sigma: sigma as f32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_fitted_with_its_noise() {
        let pairs: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = f64::from(i);
                (x, 2.0 * x + 5.0 + if i % 2 == 0 { 1.0 } else { -1.0 })
            })
            .collect();
        let fit = fit_line(&pairs).unwrap();
        assert!(
            (fit.a - 2.0).abs() < 0.01 && (fit.b - 5.0).abs() < 0.5,
            "{fit:?}"
        );
        assert!((fit.sigma - 1.0).abs() < 0.05, "{fit:?}");
        assert!(fit_line(&[(1.0, 1.0), (1.0, 2.0), (1.0, 3.0)]).is_none());
    }

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

    #[test]
    fn cut_bounds_widen_with_sigma() {
        let fit = Fit {
            a: 1.0,
            b: 0.0,
            sigma: 100.0,
        };
        assert_eq!(bounds(fit, -50, 50, 1.5), (-200, 200));
        assert_eq!(confidence_percent(1.5), 93);
        assert_eq!(confidence_percent(2.0), 97);
    }
}
