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
        Fit { a: 1.0022, b: -34.53, sigma: 372.21 },
        Fit { a: 1.0251, b: -28.69, sigma: 359.32 },
        Fit { a: 1.0190, b: -7.16, sigma: 370.11 },
        Fit { a: 1.0337, b: -10.09, sigma: 444.07 },
        Fit { a: 1.0166, b: -11.06, sigma: 471.69 },
        Fit { a: 1.0021, b: 45.06, sigma: 406.45 },
        Fit { a: 0.9971, b: 24.29, sigma: 349.27 },
        Fit { a: 1.0043, b: 78.31, sigma: 440.45 },
        Fit { a: 1.0240, b: 6.06, sigma: 397.83 },
        Fit { a: 1.0239, b: 57.88, sigma: 393.60 },
        Fit { a: 1.0535, b: -79.52, sigma: 364.98 },
        Fit { a: 1.0437, b: 51.98, sigma: 516.72 },
        Fit { a: 1.0634, b: -93.34, sigma: 466.64 },
        Fit { a: 1.0609, b: 7.45, sigma: 458.58 },
    ],
    [
        Fit { a: 1.0022, b: -34.53, sigma: 372.21 },
        Fit { a: 1.0251, b: -28.69, sigma: 359.32 },
        Fit { a: 1.0190, b: -7.16, sigma: 370.11 },
        Fit { a: 1.0337, b: -10.09, sigma: 444.07 },
        Fit { a: 1.0166, b: -11.06, sigma: 471.69 },
        Fit { a: 1.0021, b: 45.06, sigma: 406.45 },
        Fit { a: 0.9971, b: 24.29, sigma: 349.27 },
        Fit { a: 1.0043, b: 78.31, sigma: 440.45 },
        Fit { a: 1.0240, b: 6.06, sigma: 397.83 },
        Fit { a: 1.0239, b: 57.88, sigma: 393.60 },
        Fit { a: 1.0535, b: -79.52, sigma: 364.98 },
        Fit { a: 1.0437, b: 51.98, sigma: 516.72 },
        Fit { a: 1.0634, b: -93.34, sigma: 466.64 },
        Fit { a: 1.0609, b: 7.45, sigma: 458.58 },
    ],
    [
        Fit { a: 0.9952, b: 7.14, sigma: 343.40 },
        Fit { a: 1.0050, b: 18.05, sigma: 283.16 },
        Fit { a: 1.0119, b: 0.26, sigma: 274.31 },
        Fit { a: 1.0133, b: 28.86, sigma: 374.71 },
        Fit { a: 1.0220, b: -23.83, sigma: 353.77 },
        Fit { a: 1.0281, b: -23.17, sigma: 334.58 },
        Fit { a: 1.0315, b: -45.61, sigma: 325.54 },
        Fit { a: 1.0367, b: -20.18, sigma: 382.48 },
        Fit { a: 1.0386, b: -54.15, sigma: 373.46 },
        Fit { a: 1.0323, b: -33.30, sigma: 360.39 },
        Fit { a: 1.0292, b: -25.62, sigma: 337.18 },
        Fit { a: 1.0384, b: -15.50, sigma: 373.41 },
        Fit { a: 1.0405, b: -37.61, sigma: 364.58 },
        Fit { a: 1.0369, b: 19.13, sigma: 320.62 },
    ],
    [
        Fit { a: 0.9990, b: -11.33, sigma: 306.49 },
        Fit { a: 1.0127, b: 10.21, sigma: 262.77 },
        Fit { a: 1.0151, b: -5.03, sigma: 236.09 },
        Fit { a: 1.0149, b: 4.10, sigma: 331.97 },
        Fit { a: 1.0196, b: -3.48, sigma: 299.31 },
        Fit { a: 0.9977, b: -8.34, sigma: 262.36 },
        Fit { a: 0.9977, b: -1.48, sigma: 224.08 },
        Fit { a: 0.9952, b: 8.99, sigma: 289.68 },
        Fit { a: 0.9932, b: 9.52, sigma: 246.38 },
        Fit { a: 0.9799, b: 18.41, sigma: 216.83 },
        Fit { a: 0.9800, b: 8.07, sigma: 210.78 },
        Fit { a: 0.9791, b: 18.26, sigma: 235.28 },
        Fit { a: 0.9764, b: 6.27, sigma: 229.13 },
        Fit { a: 0.9809, b: 28.93, sigma: 204.82 },
    ],
    [
        Fit { a: 0.9530, b: -11.93, sigma: 216.93 },
        Fit { a: 0.9945, b: 2.25, sigma: 231.21 },
        Fit { a: 1.0005, b: 6.60, sigma: 181.18 },
        Fit { a: 0.9923, b: 7.93, sigma: 256.17 },
        Fit { a: 1.0052, b: 19.29, sigma: 235.37 },
        Fit { a: 0.9446, b: 6.49, sigma: 199.19 },
        Fit { a: 0.9735, b: 16.08, sigma: 159.53 },
        Fit { a: 0.9605, b: -5.64, sigma: 209.48 },
        Fit { a: 0.9755, b: 20.56, sigma: 179.36 },
        Fit { a: 0.9468, b: -4.10, sigma: 171.18 },
        Fit { a: 0.9638, b: 11.52, sigma: 151.37 },
        Fit { a: 0.9380, b: -1.13, sigma: 175.44 },
        Fit { a: 0.9398, b: 13.68, sigma: 153.99 },
        Fit { a: 0.9646, b: -2.29, sigma: 143.55 },
    ],
    [
        Fit { a: 0.8174, b: -24.75, sigma: 186.51 },
        Fit { a: 0.8794, b: -8.08, sigma: 162.43 },
        Fit { a: 0.8899, b: 5.53, sigma: 152.65 },
        Fit { a: 0.7683, b: -13.62, sigma: 172.77 },
        Fit { a: 0.8481, b: -15.11, sigma: 146.49 },
        Fit { a: 0.8143, b: 3.14, sigma: 145.67 },
        Fit { a: 0.8200, b: -0.26, sigma: 149.89 },
        Fit { a: 0.7659, b: -11.87, sigma: 157.22 },
        Fit { a: 0.7822, b: -7.26, sigma: 164.57 },
        Fit { a: 0.8228, b: -18.55, sigma: 145.23 },
        Fit { a: 0.8423, b: 3.16, sigma: 155.19 },
        Fit { a: 0.8459, b: -25.17, sigma: 150.42 },
        Fit { a: 0.8201, b: 9.38, sigma: 147.82 },
        Fit { a: 0.9017, b: -31.03, sigma: 110.53 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0760,
    b: 108.20,
    sigma: 984.84,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
