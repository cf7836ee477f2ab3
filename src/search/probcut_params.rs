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
        Fit { a: 0.9949, b: -46.11, sigma: 387.86 },
        Fit { a: 1.0137, b: -270.75, sigma: 546.32 },
        Fit { a: 1.0158, b: 195.79, sigma: 476.15 },
        Fit { a: 1.0314, b: 19.73, sigma: 483.96 },
        Fit { a: 1.0100, b: -27.62, sigma: 476.62 },
        Fit { a: 1.0227, b: -188.52, sigma: 525.86 },
    ],
    [
        Fit { a: 0.9949, b: -46.11, sigma: 387.86 },
        Fit { a: 1.0137, b: -270.75, sigma: 546.32 },
        Fit { a: 1.0158, b: 195.79, sigma: 476.15 },
        Fit { a: 1.0314, b: 19.73, sigma: 483.96 },
        Fit { a: 1.0100, b: -27.62, sigma: 476.62 },
        Fit { a: 1.0227, b: -188.52, sigma: 525.86 },
    ],
    [
        Fit { a: 0.9885, b: -6.83, sigma: 364.59 },
        Fit { a: 0.9879, b: -295.42, sigma: 436.19 },
        Fit { a: 0.9857, b: 291.24, sigma: 388.82 },
        Fit { a: 0.9908, b: 23.84, sigma: 382.15 },
        Fit { a: 1.0060, b: -19.86, sigma: 347.47 },
        Fit { a: 1.0236, b: -298.33, sigma: 399.49 },
    ],
    [
        Fit { a: 0.9697, b: 9.77, sigma: 339.42 },
        Fit { a: 0.9636, b: -324.83, sigma: 405.89 },
        Fit { a: 0.9570, b: 305.28, sigma: 335.31 },
        Fit { a: 0.9595, b: -17.59, sigma: 338.48 },
        Fit { a: 0.9688, b: -19.73, sigma: 301.87 },
        Fit { a: 0.9574, b: -330.98, sigma: 337.41 },
    ],
    [
        Fit { a: 0.9251, b: 19.86, sigma: 276.06 },
        Fit { a: 0.8993, b: -142.43, sigma: 353.43 },
        Fit { a: 0.8905, b: 156.46, sigma: 298.70 },
        Fit { a: 0.9063, b: -61.25, sigma: 287.22 },
        Fit { a: 0.9296, b: 59.94, sigma: 268.25 },
        Fit { a: 0.9013, b: -175.66, sigma: 281.26 },
    ],
    [
        Fit { a: 0.8519, b: -31.43, sigma: 245.67 },
        Fit { a: 0.7612, b: -120.44, sigma: 275.98 },
        Fit { a: 0.8313, b: 86.25, sigma: 260.23 },
        Fit { a: 0.7212, b: 56.19, sigma: 257.78 },
        Fit { a: 0.8107, b: 5.51, sigma: 216.50 },
        Fit { a: 0.7833, b: -89.45, sigma: 213.72 },
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
