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
        Fit { a: 0.9989, b: -39.67, sigma: 374.10 },
        Fit { a: 1.0195, b: -11.19, sigma: 360.86 },
        Fit { a: 1.0137, b: -7.83, sigma: 372.65 },
        Fit { a: 1.0239, b: -4.25, sigma: 442.17 },
        Fit { a: 1.0110, b: -6.20, sigma: 474.24 },
        Fit { a: 0.9976, b: 34.65, sigma: 391.98 },
        Fit { a: 0.9921, b: 37.11, sigma: 334.00 },
        Fit { a: 0.9972, b: 70.19, sigma: 429.54 },
        Fit { a: 1.0136, b: 36.58, sigma: 401.76 },
        Fit { a: 1.0248, b: 68.53, sigma: 382.02 },
        Fit { a: 1.0470, b: -61.36, sigma: 370.78 },
        Fit { a: 1.0364, b: 79.55, sigma: 499.08 },
        Fit { a: 1.0638, b: -73.42, sigma: 457.54 },
        Fit { a: 1.0627, b: 11.29, sigma: 470.27 },
    ],
    [
        Fit { a: 0.9989, b: -39.67, sigma: 374.10 },
        Fit { a: 1.0195, b: -11.19, sigma: 360.86 },
        Fit { a: 1.0137, b: -7.83, sigma: 372.65 },
        Fit { a: 1.0239, b: -4.25, sigma: 442.17 },
        Fit { a: 1.0110, b: -6.20, sigma: 474.24 },
        Fit { a: 0.9976, b: 34.65, sigma: 391.98 },
        Fit { a: 0.9921, b: 37.11, sigma: 334.00 },
        Fit { a: 0.9972, b: 70.19, sigma: 429.54 },
        Fit { a: 1.0136, b: 36.58, sigma: 401.76 },
        Fit { a: 1.0248, b: 68.53, sigma: 382.02 },
        Fit { a: 1.0470, b: -61.36, sigma: 370.78 },
        Fit { a: 1.0364, b: 79.55, sigma: 499.08 },
        Fit { a: 1.0638, b: -73.42, sigma: 457.54 },
        Fit { a: 1.0627, b: 11.29, sigma: 470.27 },
    ],
    [
        Fit { a: 0.9938, b: 13.08, sigma: 341.48 },
        Fit { a: 1.0006, b: 19.23, sigma: 285.41 },
        Fit { a: 1.0103, b: -11.16, sigma: 268.06 },
        Fit { a: 1.0115, b: 23.75, sigma: 376.11 },
        Fit { a: 1.0208, b: -31.97, sigma: 347.99 },
        Fit { a: 1.0353, b: -26.57, sigma: 327.62 },
        Fit { a: 1.0261, b: -51.74, sigma: 324.37 },
        Fit { a: 1.0376, b: -19.83, sigma: 369.17 },
        Fit { a: 1.0321, b: -51.59, sigma: 372.18 },
        Fit { a: 1.0299, b: -22.04, sigma: 359.65 },
        Fit { a: 1.0235, b: -29.77, sigma: 330.34 },
        Fit { a: 1.0334, b: -8.50, sigma: 365.41 },
        Fit { a: 1.0351, b: -39.12, sigma: 355.40 },
        Fit { a: 1.0269, b: 25.16, sigma: 327.07 },
    ],
    [
        Fit { a: 1.0099, b: -8.59, sigma: 308.35 },
        Fit { a: 1.0148, b: 12.77, sigma: 253.82 },
        Fit { a: 1.0181, b: -2.60, sigma: 238.01 },
        Fit { a: 1.0267, b: 5.46, sigma: 321.71 },
        Fit { a: 1.0219, b: 4.60, sigma: 304.92 },
        Fit { a: 1.0050, b: -7.49, sigma: 273.56 },
        Fit { a: 1.0075, b: 3.50, sigma: 226.69 },
        Fit { a: 0.9955, b: 4.99, sigma: 299.62 },
        Fit { a: 0.9999, b: 14.96, sigma: 247.26 },
        Fit { a: 0.9782, b: 16.58, sigma: 227.83 },
        Fit { a: 0.9824, b: 9.19, sigma: 215.96 },
        Fit { a: 0.9756, b: 21.52, sigma: 250.56 },
        Fit { a: 0.9825, b: 8.08, sigma: 230.63 },
        Fit { a: 0.9790, b: 22.41, sigma: 205.03 },
    ],
    [
        Fit { a: 0.9568, b: -2.27, sigma: 217.33 },
        Fit { a: 0.9967, b: -0.28, sigma: 221.02 },
        Fit { a: 1.0014, b: -0.84, sigma: 181.14 },
        Fit { a: 0.9992, b: 2.18, sigma: 248.28 },
        Fit { a: 1.0092, b: 14.24, sigma: 223.97 },
        Fit { a: 0.9648, b: -2.72, sigma: 193.32 },
        Fit { a: 0.9866, b: 24.61, sigma: 155.04 },
        Fit { a: 0.9749, b: -14.84, sigma: 205.21 },
        Fit { a: 0.9858, b: 29.78, sigma: 178.82 },
        Fit { a: 0.9594, b: -9.47, sigma: 168.95 },
        Fit { a: 0.9653, b: 22.44, sigma: 148.19 },
        Fit { a: 0.9590, b: -9.72, sigma: 179.34 },
        Fit { a: 0.9577, b: 22.10, sigma: 153.76 },
        Fit { a: 0.9667, b: -5.39, sigma: 141.70 },
    ],
    [
        Fit { a: 0.7432, b: -33.70, sigma: 190.28 },
        Fit { a: 0.8499, b: 0.84, sigma: 171.39 },
        Fit { a: 0.8381, b: 6.48, sigma: 146.28 },
        Fit { a: 0.7051, b: -14.32, sigma: 183.88 },
        Fit { a: 0.7774, b: -7.53, sigma: 150.50 },
        Fit { a: 0.7794, b: 2.58, sigma: 151.10 },
        Fit { a: 0.8415, b: -13.19, sigma: 143.08 },
        Fit { a: 0.7633, b: -4.93, sigma: 160.03 },
        Fit { a: 0.8083, b: -27.56, sigma: 158.81 },
        Fit { a: 0.8659, b: -5.08, sigma: 138.03 },
        Fit { a: 0.8990, b: -12.67, sigma: 136.54 },
        Fit { a: 0.8720, b: -10.86, sigma: 144.39 },
        Fit { a: 0.8704, b: -2.20, sigma: 136.41 },
        Fit { a: 0.9200, b: -22.43, sigma: 106.67 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0731,
    b: 101.41,
    sigma: 972.18,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
