//! ProbCut parameters fitted by `scripts/fit-probcut` (`iago fit-probcut`) with the
//! `default` evaluation on 1499 midgame and 1497 endgame positions from WTHOR games.
//! Do not edit by hand: refit when the evaluation changes.

// Fitted numbers may come close to named constants by chance.
#![allow(clippy::approx_constant)]

use super::probcut::Fit;

/// Midgame fits: [phase (empties / 10)][depth - 3] for depths 3 to 16
/// (full-width searches to 8 plies, selective ones beyond).
#[rustfmt::skip]
pub const MIDGAME: [[Fit; 14]; 6] = [
    [
        Fit { a: 0.9949, b: -46.11, sigma: 387.86 },
        Fit { a: 1.0290, b: -13.58, sigma: 394.70 },
        Fit { a: 1.0152, b: -16.00, sigma: 362.99 },
        Fit { a: 1.0314, b: 19.73, sigma: 483.96 },
        Fit { a: 1.0100, b: -27.62, sigma: 476.62 },
        Fit { a: 1.0006, b: 36.87, sigma: 403.40 },
        Fit { a: 1.0058, b: 0.35, sigma: 359.58 },
        Fit { a: 0.9973, b: 58.92, sigma: 454.38 },
        Fit { a: 1.0303, b: -21.97, sigma: 416.89 },
        Fit { a: 1.0177, b: -21.84, sigma: 420.23 },
        Fit { a: 1.0361, b: -57.63, sigma: 399.54 },
        Fit { a: 1.0294, b: 24.28, sigma: 523.90 },
        Fit { a: 1.0459, b: -55.53, sigma: 482.39 },
        Fit { a: 1.0564, b: -5.42, sigma: 429.07 },
    ],
    [
        Fit { a: 0.9949, b: -46.11, sigma: 387.86 },
        Fit { a: 1.0290, b: -13.58, sigma: 394.70 },
        Fit { a: 1.0152, b: -16.00, sigma: 362.99 },
        Fit { a: 1.0314, b: 19.73, sigma: 483.96 },
        Fit { a: 1.0100, b: -27.62, sigma: 476.62 },
        Fit { a: 1.0006, b: 36.87, sigma: 403.40 },
        Fit { a: 1.0058, b: 0.35, sigma: 359.58 },
        Fit { a: 0.9973, b: 58.92, sigma: 454.38 },
        Fit { a: 1.0303, b: -21.97, sigma: 416.89 },
        Fit { a: 1.0177, b: -21.84, sigma: 420.23 },
        Fit { a: 1.0361, b: -57.63, sigma: 399.54 },
        Fit { a: 1.0294, b: 24.28, sigma: 523.90 },
        Fit { a: 1.0459, b: -55.53, sigma: 482.39 },
        Fit { a: 1.0564, b: -5.42, sigma: 429.07 },
    ],
    [
        Fit { a: 0.9885, b: -6.83, sigma: 364.59 },
        Fit { a: 0.9926, b: 3.48, sigma: 301.50 },
        Fit { a: 0.9983, b: -1.10, sigma: 279.43 },
        Fit { a: 0.9908, b: 23.84, sigma: 382.15 },
        Fit { a: 1.0060, b: -19.86, sigma: 347.47 },
        Fit { a: 1.0227, b: -2.56, sigma: 332.43 },
        Fit { a: 1.0221, b: -45.81, sigma: 351.18 },
        Fit { a: 1.0263, b: -0.21, sigma: 383.61 },
        Fit { a: 1.0356, b: -58.62, sigma: 395.92 },
        Fit { a: 1.0366, b: -3.89, sigma: 366.07 },
        Fit { a: 1.0279, b: -34.45, sigma: 321.91 },
        Fit { a: 1.0381, b: 2.24, sigma: 385.54 },
        Fit { a: 1.0400, b: -41.99, sigma: 362.81 },
        Fit { a: 1.0292, b: 30.89, sigma: 321.91 },
    ],
    [
        Fit { a: 0.9697, b: 9.77, sigma: 339.42 },
        Fit { a: 0.9748, b: -9.72, sigma: 283.17 },
        Fit { a: 0.9817, b: -15.11, sigma: 247.31 },
        Fit { a: 0.9595, b: -17.59, sigma: 338.48 },
        Fit { a: 0.9688, b: -19.73, sigma: 301.87 },
        Fit { a: 0.9619, b: -8.81, sigma: 268.93 },
        Fit { a: 0.9748, b: 5.34, sigma: 222.95 },
        Fit { a: 0.9514, b: -16.67, sigma: 300.23 },
        Fit { a: 0.9528, b: 12.48, sigma: 246.82 },
        Fit { a: 0.9524, b: 4.14, sigma: 225.36 },
        Fit { a: 0.9523, b: 24.90, sigma: 213.25 },
        Fit { a: 0.9393, b: 1.46, sigma: 241.73 },
        Fit { a: 0.9411, b: 25.80, sigma: 241.74 },
        Fit { a: 0.9510, b: 9.19, sigma: 210.34 },
    ],
    [
        Fit { a: 0.9251, b: 19.86, sigma: 276.06 },
        Fit { a: 0.9257, b: -36.54, sigma: 270.96 },
        Fit { a: 0.9467, b: 34.95, sigma: 230.63 },
        Fit { a: 0.9063, b: -61.25, sigma: 287.22 },
        Fit { a: 0.9296, b: 59.94, sigma: 268.25 },
        Fit { a: 0.9116, b: -26.83, sigma: 237.01 },
        Fit { a: 0.9339, b: 44.34, sigma: 193.78 },
        Fit { a: 0.8890, b: -65.62, sigma: 249.47 },
        Fit { a: 0.9098, b: 63.46, sigma: 207.77 },
        Fit { a: 0.9076, b: -64.35, sigma: 202.73 },
        Fit { a: 0.9128, b: 54.20, sigma: 180.52 },
        Fit { a: 0.8810, b: -65.00, sigma: 196.34 },
        Fit { a: 0.8844, b: 65.62, sigma: 186.46 },
        Fit { a: 0.8927, b: -74.81, sigma: 194.53 },
    ],
    [
        Fit { a: 0.8519, b: -31.43, sigma: 245.67 },
        Fit { a: 0.8466, b: 11.54, sigma: 225.98 },
        Fit { a: 0.8991, b: -18.75, sigma: 192.00 },
        Fit { a: 0.7212, b: 56.19, sigma: 257.78 },
        Fit { a: 0.8107, b: 5.51, sigma: 216.50 },
        Fit { a: 0.8528, b: -7.76, sigma: 180.68 },
        Fit { a: 0.8514, b: 83.68, sigma: 176.88 },
        Fit { a: 0.8260, b: -55.31, sigma: 167.21 },
        Fit { a: 0.7779, b: 109.29, sigma: 191.06 },
        Fit { a: 0.8728, b: -118.23, sigma: 158.12 },
        Fit { a: 0.8525, b: 106.06, sigma: 142.84 },
        Fit { a: 0.8634, b: -122.16, sigma: 158.71 },
        Fit { a: 0.8222, b: 118.37, sigma: 153.35 },
        Fit { a: 0.8214, b: -98.65, sigma: 137.68 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0712,
    b: 111.74,
    sigma: 928.42,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
