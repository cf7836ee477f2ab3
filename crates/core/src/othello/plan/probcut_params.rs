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
        Fit { a: 0.9962, b: -36.96, sigma: 379.39 },
        Fit { a: 1.0121, b: -2.76, sigma: 355.59 },
        Fit { a: 1.0124, b: -9.74, sigma: 368.68 },
        Fit { a: 1.0136, b: 4.49, sigma: 443.27 },
        Fit { a: 1.0108, b: -4.53, sigma: 477.49 },
        Fit { a: 0.9932, b: 17.40, sigma: 385.48 },
        Fit { a: 0.9989, b: 36.68, sigma: 326.78 },
        Fit { a: 0.9803, b: 71.77, sigma: 417.00 },
        Fit { a: 1.0088, b: 30.08, sigma: 372.87 },
        Fit { a: 1.0154, b: 48.30, sigma: 354.52 },
        Fit { a: 1.0342, b: -80.86, sigma: 357.48 },
        Fit { a: 1.0324, b: 36.41, sigma: 480.01 },
        Fit { a: 1.0549, b: -82.99, sigma: 428.71 },
        Fit { a: 1.0559, b: -18.99, sigma: 437.58 },
    ],
    [
        Fit { a: 0.9962, b: -36.96, sigma: 379.39 },
        Fit { a: 1.0121, b: -2.76, sigma: 355.59 },
        Fit { a: 1.0124, b: -9.74, sigma: 368.68 },
        Fit { a: 1.0136, b: 4.49, sigma: 443.27 },
        Fit { a: 1.0108, b: -4.53, sigma: 477.49 },
        Fit { a: 0.9932, b: 17.40, sigma: 385.48 },
        Fit { a: 0.9989, b: 36.68, sigma: 326.78 },
        Fit { a: 0.9803, b: 71.77, sigma: 417.00 },
        Fit { a: 1.0088, b: 30.08, sigma: 372.87 },
        Fit { a: 1.0154, b: 48.30, sigma: 354.52 },
        Fit { a: 1.0342, b: -80.86, sigma: 357.48 },
        Fit { a: 1.0324, b: 36.41, sigma: 480.01 },
        Fit { a: 1.0549, b: -82.99, sigma: 428.71 },
        Fit { a: 1.0559, b: -18.99, sigma: 437.58 },
    ],
    [
        Fit { a: 1.0091, b: 11.51, sigma: 355.72 },
        Fit { a: 1.0046, b: 5.61, sigma: 292.38 },
        Fit { a: 1.0115, b: -4.78, sigma: 255.84 },
        Fit { a: 1.0196, b: -0.28, sigma: 377.49 },
        Fit { a: 1.0230, b: -32.99, sigma: 341.11 },
        Fit { a: 1.0354, b: -40.76, sigma: 312.14 },
        Fit { a: 1.0269, b: -49.06, sigma: 324.94 },
        Fit { a: 1.0406, b: -34.18, sigma: 362.17 },
        Fit { a: 1.0318, b: -53.65, sigma: 353.33 },
        Fit { a: 1.0244, b: -22.32, sigma: 350.02 },
        Fit { a: 1.0181, b: -20.00, sigma: 314.69 },
        Fit { a: 1.0256, b: -14.82, sigma: 354.53 },
        Fit { a: 1.0268, b: -40.38, sigma: 341.36 },
        Fit { a: 1.0214, b: 22.58, sigma: 317.58 },
    ],
    [
        Fit { a: 1.0253, b: -18.58, sigma: 293.47 },
        Fit { a: 1.0098, b: -1.73, sigma: 239.52 },
        Fit { a: 1.0150, b: 1.25, sigma: 227.59 },
        Fit { a: 1.0305, b: -1.27, sigma: 309.00 },
        Fit { a: 1.0273, b: 13.80, sigma: 299.11 },
        Fit { a: 1.0209, b: 5.74, sigma: 270.22 },
        Fit { a: 1.0152, b: 9.07, sigma: 227.86 },
        Fit { a: 1.0150, b: 12.96, sigma: 304.10 },
        Fit { a: 1.0199, b: 19.26, sigma: 240.09 },
        Fit { a: 0.9899, b: 18.18, sigma: 215.34 },
        Fit { a: 0.9901, b: 8.96, sigma: 208.65 },
        Fit { a: 0.9907, b: 21.45, sigma: 242.83 },
        Fit { a: 0.9932, b: 15.16, sigma: 230.59 },
        Fit { a: 0.9906, b: 24.49, sigma: 204.99 },
    ],
    [
        Fit { a: 0.9613, b: -9.97, sigma: 219.52 },
        Fit { a: 0.9913, b: 7.95, sigma: 208.77 },
        Fit { a: 0.9696, b: -3.25, sigma: 182.30 },
        Fit { a: 0.9922, b: 12.57, sigma: 241.37 },
        Fit { a: 0.9919, b: 0.16, sigma: 217.53 },
        Fit { a: 0.9729, b: -6.10, sigma: 195.17 },
        Fit { a: 1.0067, b: 12.21, sigma: 174.57 },
        Fit { a: 0.9789, b: -11.92, sigma: 203.77 },
        Fit { a: 0.9991, b: 21.09, sigma: 184.87 },
        Fit { a: 0.9924, b: -14.04, sigma: 166.38 },
        Fit { a: 0.9973, b: 16.68, sigma: 164.27 },
        Fit { a: 0.9934, b: -16.47, sigma: 176.56 },
        Fit { a: 0.9886, b: 25.46, sigma: 168.18 },
        Fit { a: 0.9911, b: -8.41, sigma: 153.22 },
    ],
    [
        Fit { a: 0.7108, b: -34.48, sigma: 203.69 },
        Fit { a: 0.8236, b: 4.64, sigma: 174.12 },
        Fit { a: 0.8002, b: 3.00, sigma: 148.78 },
        Fit { a: 0.6779, b: -7.11, sigma: 189.77 },
        Fit { a: 0.7272, b: -9.54, sigma: 153.46 },
        Fit { a: 0.7230, b: 0.14, sigma: 166.99 },
        Fit { a: 0.7887, b: -14.66, sigma: 154.06 },
        Fit { a: 0.6822, b: 13.60, sigma: 175.48 },
        Fit { a: 0.7803, b: -23.74, sigma: 157.33 },
        Fit { a: 0.8144, b: 11.15, sigma: 137.19 },
        Fit { a: 0.8849, b: -30.31, sigma: 150.09 },
        Fit { a: 0.8117, b: 8.22, sigma: 142.44 },
        Fit { a: 0.8656, b: -6.86, sigma: 144.55 },
        Fit { a: 0.9082, b: -19.49, sigma: 105.56 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0648,
    b: 93.35,
    sigma: 977.35,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
