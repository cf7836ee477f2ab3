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
        Fit { a: 0.9929, b: -27.18, sigma: 393.64 },
        Fit { a: 1.0275, b: -426.51, sigma: 539.91 },
        Fit { a: 1.0139, b: 334.98, sigma: 479.06 },
        Fit { a: 1.0346, b: 8.88, sigma: 482.90 },
        Fit { a: 1.0279, b: -36.51, sigma: 476.74 },
        Fit { a: 1.0387, b: -333.94, sigma: 528.34 },
    ],
    [
        Fit { a: 0.9929, b: -27.18, sigma: 393.64 },
        Fit { a: 1.0275, b: -426.51, sigma: 539.91 },
        Fit { a: 1.0139, b: 334.98, sigma: 479.06 },
        Fit { a: 1.0346, b: 8.88, sigma: 482.90 },
        Fit { a: 1.0279, b: -36.51, sigma: 476.74 },
        Fit { a: 1.0387, b: -333.94, sigma: 528.34 },
    ],
    [
        Fit { a: 0.9853, b: 8.17, sigma: 363.39 },
        Fit { a: 0.9828, b: -312.48, sigma: 442.30 },
        Fit { a: 0.9786, b: 306.07, sigma: 387.57 },
        Fit { a: 0.9836, b: -15.83, sigma: 400.18 },
        Fit { a: 0.9966, b: 10.93, sigma: 352.47 },
        Fit { a: 1.0160, b: -351.61, sigma: 412.95 },
    ],
    [
        Fit { a: 0.9647, b: 2.25, sigma: 351.69 },
        Fit { a: 0.9478, b: -276.46, sigma: 414.19 },
        Fit { a: 0.9568, b: 245.95, sigma: 341.23 },
        Fit { a: 0.9559, b: -33.05, sigma: 346.75 },
        Fit { a: 0.9536, b: -9.04, sigma: 314.20 },
        Fit { a: 0.9389, b: -285.13, sigma: 358.26 },
    ],
    [
        Fit { a: 0.9256, b: -14.18, sigma: 290.80 },
        Fit { a: 0.8844, b: -54.95, sigma: 343.95 },
        Fit { a: 0.8892, b: 53.94, sigma: 327.73 },
        Fit { a: 0.8972, b: -31.66, sigma: 307.52 },
        Fit { a: 0.9155, b: 62.59, sigma: 277.52 },
        Fit { a: 0.8796, b: -73.57, sigma: 301.20 },
    ],
    [
        Fit { a: 0.8276, b: -10.72, sigma: 251.32 },
        Fit { a: 0.7584, b: -143.20, sigma: 314.29 },
        Fit { a: 0.8002, b: 93.64, sigma: 286.16 },
        Fit { a: 0.7430, b: 22.86, sigma: 236.91 },
        Fit { a: 0.8518, b: -41.31, sigma: 201.18 },
        Fit { a: 0.7872, b: -77.98, sigma: 232.30 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0801,
    b: 190.36,
    sigma: 940.11,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
