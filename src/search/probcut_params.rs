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
        Fit { a: 0.9948, b: -25.08, sigma: 390.04 },
        Fit { a: 1.0173, b: -258.69, sigma: 529.25 },
        Fit { a: 1.0200, b: 179.21, sigma: 480.40 },
        Fit { a: 1.0377, b: -22.90, sigma: 478.75 },
        Fit { a: 1.0177, b: -0.81, sigma: 470.69 },
        Fit { a: 1.0303, b: -193.71, sigma: 530.15 },
    ],
    [
        Fit { a: 0.9948, b: -25.08, sigma: 390.04 },
        Fit { a: 1.0173, b: -258.69, sigma: 529.25 },
        Fit { a: 1.0200, b: 179.21, sigma: 480.40 },
        Fit { a: 1.0377, b: -22.90, sigma: 478.75 },
        Fit { a: 1.0177, b: -0.81, sigma: 470.69 },
        Fit { a: 1.0303, b: -193.71, sigma: 530.15 },
    ],
    [
        Fit { a: 0.9850, b: -15.90, sigma: 375.23 },
        Fit { a: 0.9831, b: -262.78, sigma: 437.80 },
        Fit { a: 0.9845, b: 241.43, sigma: 403.81 },
        Fit { a: 0.9861, b: 21.05, sigma: 403.94 },
        Fit { a: 0.9995, b: -23.26, sigma: 348.69 },
        Fit { a: 1.0203, b: -256.22, sigma: 408.54 },
    ],
    [
        Fit { a: 0.9612, b: -3.38, sigma: 345.09 },
        Fit { a: 0.9500, b: -366.92, sigma: 416.33 },
        Fit { a: 0.9519, b: 327.65, sigma: 348.35 },
        Fit { a: 0.9474, b: -5.11, sigma: 354.24 },
        Fit { a: 0.9610, b: -29.32, sigma: 317.61 },
        Fit { a: 0.9413, b: -328.66, sigma: 353.59 },
    ],
    [
        Fit { a: 0.9117, b: -9.71, sigma: 284.22 },
        Fit { a: 0.8912, b: -214.37, sigma: 350.82 },
        Fit { a: 0.8919, b: 195.67, sigma: 311.83 },
        Fit { a: 0.9116, b: -38.00, sigma: 307.12 },
        Fit { a: 0.9199, b: 55.80, sigma: 281.14 },
        Fit { a: 0.8868, b: -221.13, sigma: 298.86 },
    ],
    [
        Fit { a: 0.8497, b: 27.82, sigma: 250.53 },
        Fit { a: 0.8036, b: -201.03, sigma: 290.04 },
        Fit { a: 0.7925, b: 182.19, sigma: 286.64 },
        Fit { a: 0.7600, b: -15.21, sigma: 244.56 },
        Fit { a: 0.8421, b: 40.75, sigma: 201.16 },
        Fit { a: 0.8026, b: -171.16, sigma: 218.07 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0754,
    b: 107.76,
    sigma: 936.30,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
