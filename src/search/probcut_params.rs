//! ProbCut parameters fitted by `scripts/fit-probcut` (`iago fit-probcut`) with the
//! `default` evaluation on 1498 midgame and 1497 endgame positions from WTHOR games.
//! Do not edit by hand: refit when the evaluation changes.

// Fitted numbers may come close to named constants by chance.
#![allow(clippy::approx_constant)]

use super::probcut::Fit;

/// Midgame fits: [phase (empties / 10)][depth - 3] for depths 3 to 8.
#[rustfmt::skip]
pub const MIDGAME: [[Fit; 6]; 6] = [
    [
        Fit { a: 0.9671, b: -45.02, sigma: 461.98 },
        Fit { a: 0.9974, b: -338.35, sigma: 599.49 },
        Fit { a: 1.0072, b: 270.03, sigma: 484.96 },
        Fit { a: 1.0140, b: 11.78, sigma: 488.12 },
        Fit { a: 1.0189, b: -15.99, sigma: 496.24 },
        Fit { a: 1.0308, b: -255.06, sigma: 577.90 },
    ],
    [
        Fit { a: 0.9671, b: -45.02, sigma: 461.98 },
        Fit { a: 0.9974, b: -338.35, sigma: 599.49 },
        Fit { a: 1.0072, b: 270.03, sigma: 484.96 },
        Fit { a: 1.0140, b: 11.78, sigma: 488.12 },
        Fit { a: 1.0189, b: -15.99, sigma: 496.24 },
        Fit { a: 1.0308, b: -255.06, sigma: 577.90 },
    ],
    [
        Fit { a: 0.9760, b: -10.17, sigma: 407.89 },
        Fit { a: 0.9761, b: -344.47, sigma: 491.64 },
        Fit { a: 0.9704, b: 329.86, sigma: 425.91 },
        Fit { a: 0.9767, b: 30.62, sigma: 450.62 },
        Fit { a: 1.0052, b: -10.35, sigma: 407.59 },
        Fit { a: 1.0162, b: -363.78, sigma: 467.14 },
    ],
    [
        Fit { a: 0.9452, b: -52.44, sigma: 385.95 },
        Fit { a: 0.9459, b: -446.82, sigma: 475.89 },
        Fit { a: 0.9465, b: 375.02, sigma: 381.18 },
        Fit { a: 0.9461, b: -9.79, sigma: 378.12 },
        Fit { a: 0.9590, b: -26.27, sigma: 340.02 },
        Fit { a: 0.9481, b: -386.91, sigma: 393.91 },
    ],
    [
        Fit { a: 0.8741, b: 23.64, sigma: 329.68 },
        Fit { a: 0.8313, b: -248.59, sigma: 405.25 },
        Fit { a: 0.8286, b: 230.38, sigma: 383.10 },
        Fit { a: 0.8372, b: -101.87, sigma: 359.24 },
        Fit { a: 0.8995, b: 83.16, sigma: 354.28 },
        Fit { a: 0.8746, b: -345.75, sigma: 311.23 },
    ],
    [
        Fit { a: 0.8261, b: 18.70, sigma: 284.88 },
        Fit { a: 0.7117, b: -251.98, sigma: 314.71 },
        Fit { a: 0.8779, b: 234.11, sigma: 292.20 },
        Fit { a: 0.8334, b: 13.54, sigma: 296.08 },
        Fit { a: 0.7853, b: -48.72, sigma: 229.72 },
        Fit { a: 0.7533, b: -166.55, sigma: 239.69 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0817,
    b: 144.67,
    sigma: 839.58,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
