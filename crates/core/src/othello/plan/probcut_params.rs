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
        Fit { a: 0.9966, b: -41.01, sigma: 387.57 },
        Fit { a: 1.0276, b: -11.79, sigma: 396.83 },
        Fit { a: 1.0198, b: -6.70, sigma: 373.82 },
        Fit { a: 1.0309, b: 14.15, sigma: 454.44 },
        Fit { a: 1.0222, b: -13.09, sigma: 481.74 },
        Fit { a: 1.0026, b: 41.19, sigma: 414.53 },
        Fit { a: 1.0114, b: 6.53, sigma: 384.29 },
        Fit { a: 1.0061, b: 38.06, sigma: 480.52 },
        Fit { a: 1.0374, b: 0.68, sigma: 438.29 },
        Fit { a: 1.0230, b: 24.62, sigma: 418.10 },
        Fit { a: 1.0573, b: -71.28, sigma: 408.73 },
        Fit { a: 1.0431, b: 37.19, sigma: 559.71 },
        Fit { a: 1.0543, b: -92.44, sigma: 485.29 },
        Fit { a: 1.0579, b: -3.98, sigma: 449.75 },
    ],
    [
        Fit { a: 0.9966, b: -41.01, sigma: 387.57 },
        Fit { a: 1.0276, b: -11.79, sigma: 396.83 },
        Fit { a: 1.0198, b: -6.70, sigma: 373.82 },
        Fit { a: 1.0309, b: 14.15, sigma: 454.44 },
        Fit { a: 1.0222, b: -13.09, sigma: 481.74 },
        Fit { a: 1.0026, b: 41.19, sigma: 414.53 },
        Fit { a: 1.0114, b: 6.53, sigma: 384.29 },
        Fit { a: 1.0061, b: 38.06, sigma: 480.52 },
        Fit { a: 1.0374, b: 0.68, sigma: 438.29 },
        Fit { a: 1.0230, b: 24.62, sigma: 418.10 },
        Fit { a: 1.0573, b: -71.28, sigma: 408.73 },
        Fit { a: 1.0431, b: 37.19, sigma: 559.71 },
        Fit { a: 1.0543, b: -92.44, sigma: 485.29 },
        Fit { a: 1.0579, b: -3.98, sigma: 449.75 },
    ],
    [
        Fit { a: 0.9947, b: -2.92, sigma: 365.13 },
        Fit { a: 0.9918, b: 9.39, sigma: 299.92 },
        Fit { a: 1.0008, b: 0.37, sigma: 275.82 },
        Fit { a: 1.0032, b: 25.64, sigma: 380.00 },
        Fit { a: 1.0183, b: -35.29, sigma: 340.66 },
        Fit { a: 1.0361, b: -3.67, sigma: 349.15 },
        Fit { a: 1.0351, b: -51.82, sigma: 336.76 },
        Fit { a: 1.0414, b: 8.31, sigma: 395.00 },
        Fit { a: 1.0514, b: -71.88, sigma: 376.14 },
        Fit { a: 1.0437, b: 8.32, sigma: 360.52 },
        Fit { a: 1.0368, b: -27.42, sigma: 328.27 },
        Fit { a: 1.0505, b: 14.47, sigma: 383.91 },
        Fit { a: 1.0491, b: -38.10, sigma: 357.07 },
        Fit { a: 1.0373, b: 40.79, sigma: 324.78 },
    ],
    [
        Fit { a: 0.9820, b: -5.65, sigma: 321.78 },
        Fit { a: 0.9920, b: 2.58, sigma: 259.91 },
        Fit { a: 0.9958, b: -7.61, sigma: 238.84 },
        Fit { a: 0.9824, b: -2.09, sigma: 330.05 },
        Fit { a: 0.9915, b: -4.20, sigma: 289.77 },
        Fit { a: 0.9770, b: -1.38, sigma: 248.85 },
        Fit { a: 0.9858, b: -2.55, sigma: 213.72 },
        Fit { a: 0.9651, b: 4.21, sigma: 276.26 },
        Fit { a: 0.9709, b: 4.94, sigma: 237.66 },
        Fit { a: 0.9616, b: 18.13, sigma: 225.05 },
        Fit { a: 0.9626, b: 9.58, sigma: 209.45 },
        Fit { a: 0.9550, b: 24.78, sigma: 237.14 },
        Fit { a: 0.9610, b: 3.32, sigma: 225.52 },
        Fit { a: 0.9721, b: 24.57, sigma: 205.16 },
    ],
    [
        Fit { a: 0.9441, b: -3.68, sigma: 237.42 },
        Fit { a: 0.9670, b: -13.03, sigma: 245.52 },
        Fit { a: 0.9662, b: 7.08, sigma: 202.18 },
        Fit { a: 0.9510, b: -10.51, sigma: 255.65 },
        Fit { a: 0.9634, b: 27.07, sigma: 243.30 },
        Fit { a: 0.9185, b: 2.35, sigma: 214.85 },
        Fit { a: 0.9556, b: 24.62, sigma: 168.40 },
        Fit { a: 0.9163, b: -9.48, sigma: 221.52 },
        Fit { a: 0.9446, b: 24.38, sigma: 187.74 },
        Fit { a: 0.9177, b: -5.29, sigma: 181.14 },
        Fit { a: 0.9261, b: 10.09, sigma: 162.94 },
        Fit { a: 0.9104, b: -8.63, sigma: 180.27 },
        Fit { a: 0.9058, b: 16.47, sigma: 169.09 },
        Fit { a: 0.9347, b: -12.74, sigma: 148.94 },
    ],
    [
        Fit { a: 0.8408, b: 4.83, sigma: 201.12 },
        Fit { a: 0.8838, b: -46.21, sigma: 172.04 },
        Fit { a: 0.8782, b: 46.66, sigma: 166.66 },
        Fit { a: 0.7994, b: -51.16, sigma: 200.19 },
        Fit { a: 0.8837, b: 38.19, sigma: 172.92 },
        Fit { a: 0.8953, b: 2.68, sigma: 144.11 },
        Fit { a: 0.9093, b: 18.64, sigma: 135.05 },
        Fit { a: 0.8663, b: -16.35, sigma: 148.30 },
        Fit { a: 0.8459, b: 16.42, sigma: 156.69 },
        Fit { a: 0.8870, b: -27.70, sigma: 140.46 },
        Fit { a: 0.8620, b: 27.15, sigma: 132.17 },
        Fit { a: 0.8804, b: -17.37, sigma: 147.66 },
        Fit { a: 0.8246, b: 35.03, sigma: 142.62 },
        Fit { a: 0.8740, b: -32.81, sigma: 120.72 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0668,
    b: 103.20,
    sigma: 950.08,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
