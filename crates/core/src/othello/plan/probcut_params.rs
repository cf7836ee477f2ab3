//! ProbCut parameters fitted by `scripts/fit-probcut` (`iago fit-probcut`) with the
//! `default` evaluation on 1499 midgame and 1497 endgame positions from WTHOR games.
//! Do not edit by hand: refit when the evaluation changes.

// Fitted numbers may come close to named constants by chance.
#![allow(clippy::approx_constant)]

use crate::search::probcut::Fit;

/// Midgame fits: [phase (empties / 10)][depth - 3] for depths 3 to 16
/// (full-width searches to 8 plies, selective ones beyond).
#[rustfmt::skip]
pub const MIDGAME: [[Fit; 14]; 6] = [
    [
        Fit { a: 0.9955, b: -35.03, sigma: 377.78 },
        Fit { a: 1.0083, b: 3.22, sigma: 366.47 },
        Fit { a: 1.0111, b: -11.73, sigma: 376.64 },
        Fit { a: 1.0112, b: 7.03, sigma: 450.10 },
        Fit { a: 1.0080, b: -4.99, sigma: 477.37 },
        Fit { a: 0.9940, b: 9.40, sigma: 381.98 },
        Fit { a: 0.9915, b: 51.07, sigma: 330.06 },
        Fit { a: 0.9829, b: 66.28, sigma: 414.19 },
        Fit { a: 1.0052, b: 44.87, sigma: 382.71 },
        Fit { a: 1.0126, b: 50.63, sigma: 364.57 },
        Fit { a: 1.0354, b: -64.72, sigma: 367.43 },
        Fit { a: 1.0305, b: 48.50, sigma: 488.74 },
        Fit { a: 1.0596, b: -64.08, sigma: 436.77 },
        Fit { a: 1.0599, b: -3.44, sigma: 468.89 },
    ],
    [
        Fit { a: 0.9955, b: -35.03, sigma: 377.78 },
        Fit { a: 1.0083, b: 3.22, sigma: 366.47 },
        Fit { a: 1.0111, b: -11.73, sigma: 376.64 },
        Fit { a: 1.0112, b: 7.03, sigma: 450.10 },
        Fit { a: 1.0080, b: -4.99, sigma: 477.37 },
        Fit { a: 0.9940, b: 9.40, sigma: 381.98 },
        Fit { a: 0.9915, b: 51.07, sigma: 330.06 },
        Fit { a: 0.9829, b: 66.28, sigma: 414.19 },
        Fit { a: 1.0052, b: 44.87, sigma: 382.71 },
        Fit { a: 1.0126, b: 50.63, sigma: 364.57 },
        Fit { a: 1.0354, b: -64.72, sigma: 367.43 },
        Fit { a: 1.0305, b: 48.50, sigma: 488.74 },
        Fit { a: 1.0596, b: -64.08, sigma: 436.77 },
        Fit { a: 1.0599, b: -3.44, sigma: 468.89 },
    ],
    [
        Fit { a: 1.0093, b: 10.65, sigma: 358.13 },
        Fit { a: 1.0047, b: 7.14, sigma: 289.99 },
        Fit { a: 1.0093, b: -1.94, sigma: 259.40 },
        Fit { a: 1.0206, b: -0.07, sigma: 374.77 },
        Fit { a: 1.0237, b: -29.10, sigma: 344.03 },
        Fit { a: 1.0370, b: -41.66, sigma: 313.56 },
        Fit { a: 1.0330, b: -54.17, sigma: 334.80 },
        Fit { a: 1.0422, b: -31.59, sigma: 363.15 },
        Fit { a: 1.0349, b: -52.35, sigma: 357.76 },
        Fit { a: 1.0254, b: -18.21, sigma: 346.23 },
        Fit { a: 1.0192, b: -22.00, sigma: 322.30 },
        Fit { a: 1.0234, b: -17.03, sigma: 353.80 },
        Fit { a: 1.0243, b: -39.94, sigma: 345.93 },
        Fit { a: 1.0196, b: 22.74, sigma: 317.42 },
    ],
    [
        Fit { a: 1.0245, b: -17.09, sigma: 289.39 },
        Fit { a: 1.0201, b: -3.42, sigma: 237.07 },
        Fit { a: 1.0096, b: 4.39, sigma: 228.71 },
        Fit { a: 1.0331, b: 1.26, sigma: 308.44 },
        Fit { a: 1.0277, b: 16.54, sigma: 299.76 },
        Fit { a: 1.0159, b: 6.61, sigma: 279.43 },
        Fit { a: 1.0218, b: 10.59, sigma: 232.47 },
        Fit { a: 1.0100, b: 15.59, sigma: 302.75 },
        Fit { a: 1.0294, b: 18.40, sigma: 242.98 },
        Fit { a: 0.9952, b: 13.41, sigma: 218.62 },
        Fit { a: 0.9911, b: 14.67, sigma: 207.47 },
        Fit { a: 0.9928, b: 20.85, sigma: 242.58 },
        Fit { a: 1.0004, b: 17.09, sigma: 228.04 },
        Fit { a: 0.9918, b: 23.72, sigma: 205.79 },
    ],
    [
        Fit { a: 0.9621, b: 0.74, sigma: 218.15 },
        Fit { a: 0.9909, b: 1.12, sigma: 202.39 },
        Fit { a: 0.9785, b: -0.69, sigma: 182.90 },
        Fit { a: 0.9929, b: 2.03, sigma: 232.17 },
        Fit { a: 0.9953, b: 5.12, sigma: 223.16 },
        Fit { a: 0.9797, b: -9.96, sigma: 194.34 },
        Fit { a: 1.0049, b: 13.19, sigma: 173.10 },
        Fit { a: 0.9796, b: -18.49, sigma: 202.54 },
        Fit { a: 0.9992, b: 20.63, sigma: 184.09 },
        Fit { a: 0.9792, b: -21.51, sigma: 160.47 },
        Fit { a: 0.9728, b: 18.21, sigma: 158.73 },
        Fit { a: 0.9809, b: -15.02, sigma: 169.04 },
        Fit { a: 0.9750, b: 22.85, sigma: 162.98 },
        Fit { a: 0.9711, b: -6.74, sigma: 145.32 },
    ],
    [
        Fit { a: 0.6924, b: -39.18, sigma: 218.29 },
        Fit { a: 0.8020, b: 3.93, sigma: 171.90 },
        Fit { a: 0.7839, b: 5.27, sigma: 158.45 },
        Fit { a: 0.5887, b: 1.48, sigma: 206.40 },
        Fit { a: 0.6681, b: -13.70, sigma: 171.32 },
        Fit { a: 0.6990, b: -5.54, sigma: 175.01 },
        Fit { a: 0.7716, b: -11.98, sigma: 162.84 },
        Fit { a: 0.6804, b: 2.88, sigma: 172.26 },
        Fit { a: 0.7582, b: -13.13, sigma: 159.59 },
        Fit { a: 0.8604, b: -1.37, sigma: 121.00 },
        Fit { a: 0.9227, b: -9.69, sigma: 130.36 },
        Fit { a: 0.8703, b: -8.17, sigma: 129.03 },
        Fit { a: 0.9153, b: 4.69, sigma: 125.53 },
        Fit { a: 0.9361, b: -24.69, sigma: 109.78 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0623,
    b: 89.85,
    sigma: 976.92,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
/// Exact score on a selective search of about half the empties (the end cut of a
/// solve searched in the midgame), fitted on 300 positions of 20 to 24 empties; `sigma`
/// at zero empties.
pub const END_CUT: Fit = Fit {
    a: 1.0718,
    b: 29.84,
    sigma: 196.57,
};
/// Growth of the end cut's sigma per empty.
pub const END_CUT_SIGMA_SLOPE: f32 = 6.328;
