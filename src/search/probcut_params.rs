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
        Fit { a: 0.9952, b: -41.12, sigma: 391.25 },
        Fit { a: 1.0283, b: -21.74, sigma: 397.33 },
        Fit { a: 1.0193, b: -3.90, sigma: 375.32 },
        Fit { a: 1.0335, b: 8.97, sigma: 463.56 },
        Fit { a: 1.0184, b: -10.47, sigma: 478.60 },
        Fit { a: 1.0003, b: 46.92, sigma: 410.60 },
        Fit { a: 1.0085, b: 3.42, sigma: 386.01 },
        Fit { a: 1.0020, b: 50.94, sigma: 468.09 },
        Fit { a: 1.0337, b: 3.91, sigma: 435.17 },
        Fit { a: 1.0163, b: 36.31, sigma: 426.12 },
        Fit { a: 1.0575, b: -83.83, sigma: 414.39 },
        Fit { a: 1.0399, b: 58.85, sigma: 545.99 },
        Fit { a: 1.0548, b: -97.33, sigma: 481.58 },
        Fit { a: 1.0599, b: 2.53, sigma: 445.71 },
    ],
    [
        Fit { a: 0.9952, b: -41.12, sigma: 391.25 },
        Fit { a: 1.0283, b: -21.74, sigma: 397.33 },
        Fit { a: 1.0193, b: -3.90, sigma: 375.32 },
        Fit { a: 1.0335, b: 8.97, sigma: 463.56 },
        Fit { a: 1.0184, b: -10.47, sigma: 478.60 },
        Fit { a: 1.0003, b: 46.92, sigma: 410.60 },
        Fit { a: 1.0085, b: 3.42, sigma: 386.01 },
        Fit { a: 1.0020, b: 50.94, sigma: 468.09 },
        Fit { a: 1.0337, b: 3.91, sigma: 435.17 },
        Fit { a: 1.0163, b: 36.31, sigma: 426.12 },
        Fit { a: 1.0575, b: -83.83, sigma: 414.39 },
        Fit { a: 1.0399, b: 58.85, sigma: 545.99 },
        Fit { a: 1.0548, b: -97.33, sigma: 481.58 },
        Fit { a: 1.0599, b: 2.53, sigma: 445.71 },
    ],
    [
        Fit { a: 0.9918, b: -3.18, sigma: 367.68 },
        Fit { a: 0.9892, b: 4.99, sigma: 299.19 },
        Fit { a: 1.0005, b: -1.70, sigma: 273.55 },
        Fit { a: 0.9936, b: 22.57, sigma: 388.71 },
        Fit { a: 1.0168, b: -32.11, sigma: 338.42 },
        Fit { a: 1.0334, b: -2.39, sigma: 350.20 },
        Fit { a: 1.0346, b: -45.20, sigma: 332.63 },
        Fit { a: 1.0374, b: 6.15, sigma: 395.13 },
        Fit { a: 1.0499, b: -60.26, sigma: 373.96 },
        Fit { a: 1.0454, b: 0.37, sigma: 358.52 },
        Fit { a: 1.0369, b: -24.26, sigma: 322.08 },
        Fit { a: 1.0540, b: 8.72, sigma: 381.31 },
        Fit { a: 1.0517, b: -34.51, sigma: 356.67 },
        Fit { a: 1.0330, b: 35.70, sigma: 326.69 },
    ],
    [
        Fit { a: 0.9762, b: -6.06, sigma: 328.68 },
        Fit { a: 0.9874, b: -0.26, sigma: 260.53 },
        Fit { a: 0.9925, b: -7.95, sigma: 240.12 },
        Fit { a: 0.9737, b: -5.04, sigma: 327.77 },
        Fit { a: 0.9877, b: -10.62, sigma: 300.56 },
        Fit { a: 0.9714, b: -1.65, sigma: 249.69 },
        Fit { a: 0.9796, b: -3.93, sigma: 221.29 },
        Fit { a: 0.9571, b: 2.87, sigma: 272.56 },
        Fit { a: 0.9649, b: 4.24, sigma: 244.71 },
        Fit { a: 0.9584, b: 15.06, sigma: 226.31 },
        Fit { a: 0.9508, b: 16.04, sigma: 205.48 },
        Fit { a: 0.9471, b: 19.75, sigma: 232.20 },
        Fit { a: 0.9554, b: 10.60, sigma: 219.88 },
        Fit { a: 0.9669, b: 20.45, sigma: 204.50 },
    ],
    [
        Fit { a: 0.9428, b: -2.19, sigma: 244.58 },
        Fit { a: 0.9583, b: -13.14, sigma: 253.00 },
        Fit { a: 0.9638, b: 6.43, sigma: 210.19 },
        Fit { a: 0.9390, b: -10.66, sigma: 264.39 },
        Fit { a: 0.9613, b: 25.23, sigma: 249.51 },
        Fit { a: 0.9163, b: 1.13, sigma: 217.98 },
        Fit { a: 0.9469, b: 19.66, sigma: 177.77 },
        Fit { a: 0.9057, b: -10.19, sigma: 227.23 },
        Fit { a: 0.9411, b: 23.02, sigma: 196.19 },
        Fit { a: 0.9114, b: -7.06, sigma: 182.99 },
        Fit { a: 0.9141, b: 14.67, sigma: 166.82 },
        Fit { a: 0.9019, b: -9.47, sigma: 178.37 },
        Fit { a: 0.9017, b: 16.72, sigma: 168.83 },
        Fit { a: 0.9440, b: -14.60, sigma: 167.59 },
    ],
    [
        Fit { a: 0.8401, b: 6.02, sigma: 208.23 },
        Fit { a: 0.8916, b: -44.85, sigma: 174.73 },
        Fit { a: 0.8942, b: 41.23, sigma: 171.26 },
        Fit { a: 0.8071, b: -42.15, sigma: 204.07 },
        Fit { a: 0.8793, b: 33.46, sigma: 181.15 },
        Fit { a: 0.8811, b: 11.27, sigma: 148.48 },
        Fit { a: 0.8987, b: 22.70, sigma: 140.26 },
        Fit { a: 0.8471, b: -13.07, sigma: 150.00 },
        Fit { a: 0.8334, b: 25.54, sigma: 159.89 },
        Fit { a: 0.8642, b: -32.37, sigma: 140.39 },
        Fit { a: 0.8374, b: 40.04, sigma: 135.47 },
        Fit { a: 0.8681, b: -27.49, sigma: 148.04 },
        Fit { a: 0.8271, b: 29.61, sigma: 146.05 },
        Fit { a: 0.8734, b: -37.58, sigma: 132.72 },
    ],
];

/// The shallow depth of selective solves.
pub const ENDGAME_DEPTH: i32 = 2;
/// Exact score on the shallow value; `sigma` at zero empties.
pub const ENDGAME: Fit = Fit {
    a: 1.0680,
    b: 111.56,
    sigma: 943.19,
};
/// Growth of the endgame sigma per empty.
pub const ENDGAME_SIGMA_SLOPE: f32 = 0.000;
