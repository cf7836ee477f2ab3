//! ProbCut parameters fitted by `scripts/fit-probcut` (`iago fit-probcut`) with the
//! `default` evaluation on 1499 midgame and 1497 endgame positions from WTHOR games.
//! Do not edit by hand: refit when the evaluation changes.

// Fitted numbers may come close to named constants by chance.
#![allow(clippy::approx_constant)]

use super::probcut::Fit;

/// Midgame fits: [phase (empties / 10)][depth - 3] for depths 3 to 18
/// (full-width searches to 8 plies, selective ones beyond).
#[rustfmt::skip]
pub const MIDGAME: [[Fit; 16]; 6] = [
    [
        Fit { a: 0.9949, b: -46.11, sigma: 387.86 },
        Fit { a: 1.0137, b: -270.75, sigma: 546.32 },
        Fit { a: 1.0158, b: 195.79, sigma: 476.15 },
        Fit { a: 1.0314, b: 19.73, sigma: 483.96 },
        Fit { a: 1.0100, b: -27.62, sigma: 476.62 },
        Fit { a: 1.0227, b: -188.52, sigma: 525.86 },
        Fit { a: 0.9775, b: 273.67, sigma: 343.89 },
        Fit { a: 1.0039, b: 100.37, sigma: 323.85 },
        Fit { a: 1.0409, b: 27.90, sigma: 371.98 },
        Fit { a: 1.0806, b: -229.18, sigma: 466.67 },
        Fit { a: 1.0755, b: 172.70, sigma: 493.82 },
        Fit { a: 1.0743, b: 107.30, sigma: 567.85 },
        Fit { a: 1.0722, b: -44.72, sigma: 501.10 },
        Fit { a: 1.1201, b: -145.71, sigma: 481.58 },
        Fit { a: 1.0480, b: 98.32, sigma: 521.42 },
        Fit { a: 1.0699, b: -43.07, sigma: 478.83 },
    ],
    [
        Fit { a: 0.9949, b: -46.11, sigma: 387.86 },
        Fit { a: 1.0137, b: -270.75, sigma: 546.32 },
        Fit { a: 1.0158, b: 195.79, sigma: 476.15 },
        Fit { a: 1.0314, b: 19.73, sigma: 483.96 },
        Fit { a: 1.0100, b: -27.62, sigma: 476.62 },
        Fit { a: 1.0227, b: -188.52, sigma: 525.86 },
        Fit { a: 0.9775, b: 273.67, sigma: 343.89 },
        Fit { a: 1.0039, b: 100.37, sigma: 323.85 },
        Fit { a: 1.0409, b: 27.90, sigma: 371.98 },
        Fit { a: 1.0806, b: -229.18, sigma: 466.67 },
        Fit { a: 1.0755, b: 172.70, sigma: 493.82 },
        Fit { a: 1.0743, b: 107.30, sigma: 567.85 },
        Fit { a: 1.0722, b: -44.72, sigma: 501.10 },
        Fit { a: 1.1201, b: -145.71, sigma: 481.58 },
        Fit { a: 1.0480, b: 98.32, sigma: 521.42 },
        Fit { a: 1.0699, b: -43.07, sigma: 478.83 },
    ],
    [
        Fit { a: 0.9885, b: -6.83, sigma: 364.59 },
        Fit { a: 0.9879, b: -295.42, sigma: 436.19 },
        Fit { a: 0.9857, b: 291.24, sigma: 388.82 },
        Fit { a: 0.9908, b: 23.84, sigma: 382.15 },
        Fit { a: 1.0060, b: -19.86, sigma: 347.47 },
        Fit { a: 1.0236, b: -298.33, sigma: 399.49 },
        Fit { a: 1.0188, b: 243.73, sigma: 395.17 },
        Fit { a: 1.0202, b: 14.29, sigma: 379.78 },
        Fit { a: 1.0355, b: -62.72, sigma: 403.80 },
        Fit { a: 1.0346, b: -271.63, sigma: 416.11 },
        Fit { a: 1.0312, b: 210.35, sigma: 388.85 },
        Fit { a: 1.0402, b: 23.21, sigma: 383.83 },
        Fit { a: 1.0431, b: -53.01, sigma: 365.71 },
        Fit { a: 1.0471, b: -229.95, sigma: 373.31 },
        Fit { a: 1.0259, b: 217.38, sigma: 341.99 },
        Fit { a: 1.0341, b: 60.84, sigma: 350.29 },
    ],
    [
        Fit { a: 0.9697, b: 9.77, sigma: 339.42 },
        Fit { a: 0.9636, b: -324.83, sigma: 405.89 },
        Fit { a: 0.9570, b: 305.28, sigma: 335.31 },
        Fit { a: 0.9595, b: -17.59, sigma: 338.48 },
        Fit { a: 0.9688, b: -19.73, sigma: 301.87 },
        Fit { a: 0.9574, b: -330.98, sigma: 337.41 },
        Fit { a: 0.9544, b: 298.50, sigma: 281.58 },
        Fit { a: 0.9510, b: -1.37, sigma: 296.11 },
        Fit { a: 0.9480, b: -3.54, sigma: 249.85 },
        Fit { a: 0.9486, b: -283.61, sigma: 274.13 },
        Fit { a: 0.9348, b: 303.43, sigma: 224.12 },
        Fit { a: 0.9372, b: 26.20, sigma: 243.30 },
        Fit { a: 0.9423, b: 1.51, sigma: 234.19 },
        Fit { a: 0.9478, b: -264.64, sigma: 235.88 },
        Fit { a: 0.9509, b: 294.61, sigma: 225.85 },
        Fit { a: 0.9516, b: 39.69, sigma: 236.28 },
    ],
    [
        Fit { a: 0.9251, b: 19.86, sigma: 276.06 },
        Fit { a: 0.8993, b: -142.43, sigma: 353.43 },
        Fit { a: 0.8905, b: 156.46, sigma: 298.70 },
        Fit { a: 0.9063, b: -61.25, sigma: 287.22 },
        Fit { a: 0.9296, b: 59.94, sigma: 268.25 },
        Fit { a: 0.9013, b: -175.66, sigma: 281.26 },
        Fit { a: 0.8890, b: 214.50, sigma: 267.91 },
        Fit { a: 0.8877, b: -50.23, sigma: 253.11 },
        Fit { a: 0.9270, b: 44.22, sigma: 215.11 },
        Fit { a: 0.9132, b: -244.80, sigma: 219.44 },
        Fit { a: 0.8915, b: 256.49, sigma: 205.66 },
        Fit { a: 0.8828, b: -39.89, sigma: 194.55 },
        Fit { a: 0.8875, b: 43.89, sigma: 179.99 },
        Fit { a: 0.8719, b: -255.64, sigma: 186.20 },
        Fit { a: 0.8965, b: 238.12, sigma: 200.78 },
        Fit { a: 0.8890, b: -48.08, sigma: 199.18 },
    ],
    [
        Fit { a: 0.8519, b: -31.43, sigma: 245.67 },
        Fit { a: 0.7612, b: -120.44, sigma: 275.98 },
        Fit { a: 0.8313, b: 86.25, sigma: 260.23 },
        Fit { a: 0.7212, b: 56.19, sigma: 257.78 },
        Fit { a: 0.8107, b: 5.51, sigma: 216.50 },
        Fit { a: 0.7833, b: -89.45, sigma: 213.72 },
        Fit { a: 0.8809, b: 139.37, sigma: 164.76 },
        Fit { a: 0.8390, b: -42.45, sigma: 172.08 },
        Fit { a: 0.7986, b: 104.15, sigma: 197.98 },
        Fit { a: 0.7557, b: -105.86, sigma: 191.64 },
        Fit { a: 0.8514, b: 120.13, sigma: 165.91 },
        Fit { a: 0.8484, b: -110.52, sigma: 154.95 },
        Fit { a: 0.7978, b: 103.20, sigma: 152.89 },
        Fit { a: 0.7882, b: -163.47, sigma: 159.85 },
        Fit { a: 0.8054, b: 200.80, sigma: 143.18 },
        Fit { a: 0.7985, b: -102.50, sigma: 146.94 },
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
