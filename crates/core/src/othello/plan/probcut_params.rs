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
        Fit { a: 0.9920, b: -32.91, sigma: 385.38 },
        Fit { a: 1.0140, b: -3.93, sigma: 366.37 },
        Fit { a: 1.0161, b: -4.75, sigma: 367.01 },
        Fit { a: 1.0161, b: 6.73, sigma: 442.16 },
        Fit { a: 1.0114, b: -0.28, sigma: 475.06 },
        Fit { a: 0.9915, b: 20.98, sigma: 378.41 },
        Fit { a: 0.9964, b: 39.34, sigma: 323.78 },
        Fit { a: 0.9848, b: 66.69, sigma: 409.92 },
        Fit { a: 1.0090, b: 39.40, sigma: 383.49 },
        Fit { a: 1.0149, b: 57.79, sigma: 364.38 },
        Fit { a: 1.0363, b: -63.64, sigma: 356.48 },
        Fit { a: 1.0377, b: 45.42, sigma: 499.61 },
        Fit { a: 1.0616, b: -79.02, sigma: 430.03 },
        Fit { a: 1.0671, b: 2.20, sigma: 465.55 },
    ],
    [
        Fit { a: 0.9920, b: -32.91, sigma: 385.38 },
        Fit { a: 1.0140, b: -3.93, sigma: 366.37 },
        Fit { a: 1.0161, b: -4.75, sigma: 367.01 },
        Fit { a: 1.0161, b: 6.73, sigma: 442.16 },
        Fit { a: 1.0114, b: -0.28, sigma: 475.06 },
        Fit { a: 0.9915, b: 20.98, sigma: 378.41 },
        Fit { a: 0.9964, b: 39.34, sigma: 323.78 },
        Fit { a: 0.9848, b: 66.69, sigma: 409.92 },
        Fit { a: 1.0090, b: 39.40, sigma: 383.49 },
        Fit { a: 1.0149, b: 57.79, sigma: 364.38 },
        Fit { a: 1.0363, b: -63.64, sigma: 356.48 },
        Fit { a: 1.0377, b: 45.42, sigma: 499.61 },
        Fit { a: 1.0616, b: -79.02, sigma: 430.03 },
        Fit { a: 1.0671, b: 2.20, sigma: 465.55 },
    ],
    [
        Fit { a: 0.9989, b: 12.98, sigma: 345.59 },
        Fit { a: 1.0034, b: 10.01, sigma: 291.70 },
        Fit { a: 1.0106, b: -9.16, sigma: 252.63 },
        Fit { a: 1.0151, b: -0.44, sigma: 383.18 },
        Fit { a: 1.0213, b: -33.05, sigma: 335.95 },
        Fit { a: 1.0322, b: -37.00, sigma: 321.22 },
        Fit { a: 1.0238, b: -53.26, sigma: 316.10 },
        Fit { a: 1.0326, b: -38.29, sigma: 359.01 },
        Fit { a: 1.0302, b: -49.30, sigma: 348.80 },
        Fit { a: 1.0242, b: -21.57, sigma: 346.10 },
        Fit { a: 1.0193, b: -20.87, sigma: 314.04 },
        Fit { a: 1.0214, b: -14.64, sigma: 355.06 },
        Fit { a: 1.0296, b: -41.24, sigma: 344.93 },
        Fit { a: 1.0239, b: 18.02, sigma: 319.75 },
    ],
    [
        Fit { a: 1.0211, b: -15.83, sigma: 297.41 },
        Fit { a: 1.0090, b: -2.52, sigma: 243.78 },
        Fit { a: 1.0111, b: -2.07, sigma: 236.95 },
        Fit { a: 1.0253, b: -6.43, sigma: 305.78 },
        Fit { a: 1.0178, b: 14.52, sigma: 299.94 },
        Fit { a: 1.0124, b: 0.61, sigma: 266.21 },
        Fit { a: 1.0056, b: 10.66, sigma: 222.90 },
        Fit { a: 1.0036, b: 6.22, sigma: 288.56 },
        Fit { a: 1.0068, b: 19.44, sigma: 236.35 },
        Fit { a: 0.9825, b: 14.25, sigma: 216.89 },
        Fit { a: 0.9839, b: 13.13, sigma: 223.73 },
        Fit { a: 0.9810, b: 22.12, sigma: 239.28 },
        Fit { a: 0.9830, b: 16.21, sigma: 240.93 },
        Fit { a: 0.9794, b: 20.00, sigma: 201.08 },
    ],
    [
        Fit { a: 0.9553, b: -7.46, sigma: 223.36 },
        Fit { a: 0.9897, b: 6.97, sigma: 210.93 },
        Fit { a: 0.9755, b: -2.25, sigma: 187.07 },
        Fit { a: 0.9912, b: 7.67, sigma: 243.90 },
        Fit { a: 0.9780, b: 5.22, sigma: 223.41 },
        Fit { a: 0.9665, b: -9.97, sigma: 195.58 },
        Fit { a: 0.9896, b: 12.10, sigma: 160.28 },
        Fit { a: 0.9681, b: -18.66, sigma: 202.47 },
        Fit { a: 0.9912, b: 20.09, sigma: 180.32 },
        Fit { a: 0.9606, b: -15.54, sigma: 164.48 },
        Fit { a: 0.9738, b: 19.40, sigma: 151.99 },
        Fit { a: 0.9666, b: -11.70, sigma: 170.62 },
        Fit { a: 0.9719, b: 23.63, sigma: 161.54 },
        Fit { a: 0.9671, b: -6.30, sigma: 146.62 },
    ],
    [
        Fit { a: 0.7102, b: -27.63, sigma: 212.34 },
        Fit { a: 0.8612, b: -2.68, sigma: 174.29 },
        Fit { a: 0.8206, b: 6.49, sigma: 150.03 },
        Fit { a: 0.7278, b: -11.80, sigma: 188.70 },
        Fit { a: 0.7748, b: -7.58, sigma: 147.60 },
        Fit { a: 0.7532, b: 1.33, sigma: 157.65 },
        Fit { a: 0.8156, b: -6.44, sigma: 143.00 },
        Fit { a: 0.6967, b: 0.95, sigma: 167.96 },
        Fit { a: 0.7692, b: -12.49, sigma: 159.26 },
        Fit { a: 0.8078, b: -2.05, sigma: 139.61 },
        Fit { a: 0.8629, b: -16.70, sigma: 151.01 },
        Fit { a: 0.8126, b: -3.21, sigma: 148.77 },
        Fit { a: 0.8161, b: -0.35, sigma: 153.61 },
        Fit { a: 0.8924, b: -21.94, sigma: 113.59 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0662,
    b: 97.12,
    sigma: 977.46,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
