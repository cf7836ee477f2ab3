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
        Fit { a: 0.9910, b: -37.02, sigma: 392.62 },
        Fit { a: 1.0294, b: -27.01, sigma: 380.25 },
        Fit { a: 1.0190, b: -7.34, sigma: 376.47 },
        Fit { a: 1.0351, b: 9.03, sigma: 462.00 },
        Fit { a: 1.0211, b: -13.97, sigma: 473.78 },
        Fit { a: 1.0027, b: 46.66, sigma: 404.07 },
        Fit { a: 1.0116, b: -6.47, sigma: 367.15 },
        Fit { a: 1.0021, b: 67.48, sigma: 458.96 },
        Fit { a: 1.0421, b: -23.44, sigma: 434.72 },
        Fit { a: 1.0217, b: 30.89, sigma: 425.56 },
        Fit { a: 1.0634, b: -109.09, sigma: 411.05 },
        Fit { a: 1.0416, b: 49.80, sigma: 528.66 },
        Fit { a: 1.0559, b: -110.27, sigma: 490.06 },
        Fit { a: 1.0632, b: 31.30, sigma: 455.45 },
    ],
    [
        Fit { a: 0.9910, b: -37.02, sigma: 392.62 },
        Fit { a: 1.0294, b: -27.01, sigma: 380.25 },
        Fit { a: 1.0190, b: -7.34, sigma: 376.47 },
        Fit { a: 1.0351, b: 9.03, sigma: 462.00 },
        Fit { a: 1.0211, b: -13.97, sigma: 473.78 },
        Fit { a: 1.0027, b: 46.66, sigma: 404.07 },
        Fit { a: 1.0116, b: -6.47, sigma: 367.15 },
        Fit { a: 1.0021, b: 67.48, sigma: 458.96 },
        Fit { a: 1.0421, b: -23.44, sigma: 434.72 },
        Fit { a: 1.0217, b: 30.89, sigma: 425.56 },
        Fit { a: 1.0634, b: -109.09, sigma: 411.05 },
        Fit { a: 1.0416, b: 49.80, sigma: 528.66 },
        Fit { a: 1.0559, b: -110.27, sigma: 490.06 },
        Fit { a: 1.0632, b: 31.30, sigma: 455.45 },
    ],
    [
        Fit { a: 0.9860, b: -3.96, sigma: 370.60 },
        Fit { a: 0.9900, b: 2.44, sigma: 311.75 },
        Fit { a: 0.9974, b: -5.43, sigma: 272.66 },
        Fit { a: 0.9844, b: 20.41, sigma: 399.69 },
        Fit { a: 1.0075, b: -31.32, sigma: 347.06 },
        Fit { a: 1.0251, b: -8.01, sigma: 351.41 },
        Fit { a: 1.0297, b: -44.57, sigma: 339.60 },
        Fit { a: 1.0289, b: 1.45, sigma: 390.87 },
        Fit { a: 1.0404, b: -54.32, sigma: 378.52 },
        Fit { a: 1.0410, b: -3.23, sigma: 359.98 },
        Fit { a: 1.0313, b: -25.55, sigma: 331.46 },
        Fit { a: 1.0447, b: 7.04, sigma: 380.03 },
        Fit { a: 1.0419, b: -34.55, sigma: 364.36 },
        Fit { a: 1.0252, b: 41.48, sigma: 336.16 },
    ],
    [
        Fit { a: 0.9678, b: -3.16, sigma: 336.60 },
        Fit { a: 0.9818, b: -5.43, sigma: 271.23 },
        Fit { a: 0.9905, b: -18.09, sigma: 253.91 },
        Fit { a: 0.9585, b: -8.60, sigma: 340.03 },
        Fit { a: 0.9693, b: -13.68, sigma: 303.19 },
        Fit { a: 0.9571, b: -6.47, sigma: 261.94 },
        Fit { a: 0.9651, b: 6.70, sigma: 219.69 },
        Fit { a: 0.9409, b: 4.23, sigma: 289.83 },
        Fit { a: 0.9420, b: 9.78, sigma: 239.72 },
        Fit { a: 0.9495, b: 14.58, sigma: 224.40 },
        Fit { a: 0.9499, b: 13.19, sigma: 212.45 },
        Fit { a: 0.9363, b: 12.07, sigma: 239.70 },
        Fit { a: 0.9438, b: 12.51, sigma: 226.44 },
        Fit { a: 0.9520, b: 18.79, sigma: 217.43 },
    ],
    [
        Fit { a: 0.9281, b: -3.36, sigma: 265.57 },
        Fit { a: 0.9377, b: -13.96, sigma: 273.60 },
        Fit { a: 0.9497, b: 2.57, sigma: 223.32 },
        Fit { a: 0.9179, b: -16.89, sigma: 287.55 },
        Fit { a: 0.9427, b: 25.25, sigma: 264.25 },
        Fit { a: 0.9099, b: -1.94, sigma: 234.43 },
        Fit { a: 0.9397, b: 32.93, sigma: 182.22 },
        Fit { a: 0.8913, b: -14.31, sigma: 241.17 },
        Fit { a: 0.9215, b: 31.65, sigma: 203.96 },
        Fit { a: 0.9009, b: -9.80, sigma: 194.42 },
        Fit { a: 0.9005, b: 15.10, sigma: 172.92 },
        Fit { a: 0.8813, b: -15.53, sigma: 188.93 },
        Fit { a: 0.8772, b: 19.90, sigma: 180.43 },
        Fit { a: 0.9049, b: -19.34, sigma: 156.18 },
    ],
    [
        Fit { a: 0.8509, b: 0.45, sigma: 233.45 },
        Fit { a: 0.8668, b: -43.76, sigma: 207.36 },
        Fit { a: 0.8972, b: 31.55, sigma: 197.65 },
        Fit { a: 0.7841, b: -26.55, sigma: 226.07 },
        Fit { a: 0.8666, b: 49.60, sigma: 186.90 },
        Fit { a: 0.8665, b: -6.15, sigma: 158.06 },
        Fit { a: 0.8573, b: 40.19, sigma: 170.82 },
        Fit { a: 0.8237, b: -22.97, sigma: 162.43 },
        Fit { a: 0.7962, b: 56.02, sigma: 183.97 },
        Fit { a: 0.8376, b: -48.55, sigma: 151.05 },
        Fit { a: 0.8345, b: 35.03, sigma: 143.92 },
        Fit { a: 0.8227, b: -48.21, sigma: 159.11 },
        Fit { a: 0.7922, b: 42.96, sigma: 152.74 },
        Fit { a: 0.8391, b: -40.18, sigma: 137.42 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0718,
    b: 116.21,
    sigma: 931.97,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
