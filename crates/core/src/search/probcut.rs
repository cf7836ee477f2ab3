//! Multi-ProbCut: a shallow search predicts the deep one.
//!
//! On positions from real games the value of a `d`-ply search is close to a linear
//! function of the value of a much shallower search: `v_d ≈ a * v_s + b`, with residuals
//! of standard deviation `sigma`. So when the shallow value says `v_d >= beta` (or
//! `<= alpha`) with `t` standard deviations to spare, the node is cut without the deep
//! search. A game's plan says where a cut may be tried, with which shallow depth and
//! which fitted line ([`super::plan::ProbCut`]); this module holds the cut itself and the
//! arithmetic of the fits (Othello's fitted values live with Othello's plan).

use crate::game::Score;

use super::negamax::Run;
use super::plan::{Plan, Searchable};

/// One fitted relation between a shallow and a deep value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub a: f32,
    pub b: f32,
    pub sigma: f32,
}

/// The bounds on the shallow value beyond which the deep value is outside
/// (`alpha`, `beta`) with `t` standard deviations to spare: (low, high).
pub fn bounds(fit: Fit, alpha: Score, beta: Score, t: f32) -> (Score, Score) {
    let margin = t * fit.sigma;
    let high = ((beta as f32 + margin - fit.b) / fit.a).ceil();
    let low = ((alpha as f32 - margin - fit.b) / fit.a).floor();
    (low as Score, high as Score)
}

/// The percent of a normal variable that lies within `t` standard deviations of its
/// mean, rounded (at most 99): how sure a probable cut with `t` standard deviations of
/// margin is called, as Edax and Egaroucid name their selective levels (1.1: 73%, 1.6:
/// 89%, 2.0: 95%, 2.6: 99%).
pub fn confidence_percent(t: f32) -> u8 {
    // erf by Abramowitz and Stegun 7.1.26 (error below 1.5e-7).
    let x = f64::from(t) / std::f64::consts::SQRT_2;
    let k = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = k
        * (0.254_829_592
            + k * (-0.284_496_736
                + k * (1.421_413_741 + k * (-1.453_152_027 + k * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    (erf * 100.0).round().clamp(0.0, 99.0) as u8
}

impl<G: Searchable> Run<'_, G> {
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
        if !self.selective || beta - alpha > 1 {
            return None;
        }
        let end = self.end_selectivity.filter(|_| self.solve_in_midgame);
        let cut = G::Plan::probcut(pos, depth, end)?;
        let shallow = cut.shallow;
        let (low, high) = bounds(cut.fit, alpha, beta, cut.margin);
        let static_value = static_eval.unwrap_or_else(|| self.evaluator.evaluate(pos));
        let known = Some(static_value);
        if static_value >= high - cut.probe_below_high {
            let value = self.pvs(pos, shallow, high - 1, high, ply, known);
            if value >= high && !self.watch.aborted {
                self.rest_on_cut(end, beyond(cut.fit, value, beta));
                return Some(beta);
            }
        }
        if static_value <= low + cut.probe_above_low {
            let value = self.pvs(pos, shallow, low, low + 1, ply, known);
            if value <= low && !self.watch.aborted {
                self.rest_on_cut(end, -beyond(cut.fit, value, alpha));
                return Some(alpha);
            }
        }
        None
    }

    /// A cut against the end of the game in a selective solve of level `end` rests on
    /// its `spare` standard deviations: it holds at every level asking no more.
    #[inline(always)]
    fn rest_on_cut(&mut self, end: Option<usize>, spare: f32) {
        if let Some(asked) = end {
            self.rest_on(G::Plan::surest_level(spare, asked) as u32);
        }
    }
}

/// How many standard deviations the deep value that `fit` predicts from the shallow
/// `value` lies above `bound` (below it, negative).
pub fn beyond(fit: Fit, value: Score, bound: Score) -> f32 {
    (fit.a * value as f32 + fit.b - bound as f32) / fit.sigma
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
    fn cut_bounds_widen_with_sigma() {
        let fit = Fit {
            a: 1.0,
            b: 0.0,
            sigma: 100.0,
        };
        assert_eq!(bounds(fit, -50, 50, 1.5), (-200, 200));
        assert_eq!(confidence_percent(1.1), 73);
        assert_eq!(confidence_percent(1.6), 89);
        assert_eq!(confidence_percent(2.0), 95);
        assert_eq!(confidence_percent(2.6), 99);
        assert_eq!(confidence_percent(4.0), 99);
    }
}
