//! The match statistics checked against values computed by hand.

use iago::arena::stats::{Sprt, SprtVerdict, Tally, elo_from_score, score_from_elo};

fn close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} is not {expected} ± {tolerance}"
    );
}

#[test]
fn elo_and_its_95_percent_interval() {
    // 60 wins, 20 draws, 20 losses: mean score m = (60 + 10) / 100 = 0.7.
    // Per-game variance v = (60 (0.3)² + 20 (0.2)² + 20 (0.7)²) / 100 = 0.16, so the
    // standard error of m is sqrt(0.16 / 100) = 0.04 and the 95% interval of m is
    // 0.04. Wilson's interval, the games counted as n' = 100 m (1 - m) / v = 131.25
    // win-or-loss games: centre (m + z²/2n') / (1 + z²/n'), half-width
    // z sqrt(m (1 - m) / n' + z²/4n'²) / (1 + z²/n') with z = 1.959964: [0.616828,
    // 0.771798]. Elo(s) = 400 log10(s / (1 - s)): Elo(0.7) = 147.1907,
    // Elo(0.616828) = 82.7081, Elo(0.771798) = 211.6733: margin (211.6733 - 82.7081) / 2.
    let tally = Tally {
        wins: 60,
        draws: 20,
        losses: 20,
    };
    assert_eq!(tally.games(), 100);
    assert_eq!(tally.points(), 70.0);
    let estimate = tally.elo().unwrap();
    close(estimate.elo, 147.1907, 1e-3);
    close(estimate.margin, 64.4826, 1e-3);
    close(estimate.low, 82.7081, 1e-3);
    close(estimate.high, 211.6733, 1e-3);
    // 17-3 (m = 0.85, v = m (1 - m): n' = 20): [0.639581, 0.947631], Elo +99.6 to
    // +503.0, where the normal interval of the score, 0.85 ± 0.156, passes 1 and its
    // Elo was infinite.
    let lopsided = Tally {
        wins: 17,
        draws: 0,
        losses: 3,
    }
    .elo()
    .unwrap();
    close(lopsided.elo, 301.3311, 1e-3);
    close(lopsided.low, 99.6353, 1e-3);
    close(lopsided.high, 503.0269, 1e-3);
    assert_eq!(lopsided.text(), "+301 ± 202");

    // An even score is 0 Elo; 3:1 is 400 log10 3.
    close(elo_from_score(0.5), 0.0, 1e-12);
    close(elo_from_score(0.75), 190.8485, 1e-3);
    close(score_from_elo(-190.8485), 0.25, 1e-6);
    // All games won: the estimate is infinite, not a panic or NaN.
    let sweep = Tally {
        wins: 5,
        draws: 0,
        losses: 0,
    };
    assert_eq!(sweep.elo().unwrap().elo, f64::INFINITY);
    // Its bound: Wilson's lower bound 5 / (5 + z²) = 0.565518, Elo +45.8.
    close(sweep.elo().unwrap().low, 45.7895, 1e-3);
    assert_eq!(sweep.elo().unwrap().text(), "> +46");
    assert_eq!(Tally::default().elo(), None);
}

#[test]
fn sprt_bounds_and_log_likelihood_ratio() {
    // alpha = beta = 0.05: bounds ln(0.05 / 0.95) = -2.944439 and ln(0.95 / 0.05).
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let (lower, upper) = sprt.bounds();
    close(lower, -2.944439, 1e-6);
    close(upper, 2.944439, 1e-6);
    // s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.514387.
    // 60/20/20 (m = 0.7, v = 0.16): LLR = 100 × 0.014387 × (1.4 - 1.014387) / 0.32 = 1.7337.
    let tally = Tally {
        wins: 60,
        draws: 20,
        losses: 20,
    };
    close(sprt.llr(&tally), 1.7337, 1e-4);
    assert_eq!(sprt.verdict(&tally), None);
    // 70/20/10: m = 0.8, v = (70 × 0.04 + 20 × 0.09 + 10 × 0.64) / 100 = 0.11,
    // LLR = 100 × 0.014387 × (1.6 - 1.014387) / 0.22 = 3.8297 > 2.944: H1.
    let strong = Tally {
        wins: 70,
        draws: 20,
        losses: 10,
    };
    close(sprt.llr(&strong), 3.8297, 1e-4);
    assert_eq!(sprt.verdict(&strong), Some(SprtVerdict::AcceptH1));
    // 2900/600/2900: m = 0.5, v = 5800 × 0.25 / 6400 = 0.2265625,
    // LLR = 6400 × 0.014387 × (1 - 1.014387) / 0.453125 = -2.9236: not yet; one more
    // hundred even games push it under the lower bound.
    let even = Tally {
        wins: 2900,
        draws: 600,
        losses: 2900,
    };
    close(sprt.llr(&even), -2.9236, 1e-4);
    assert_eq!(sprt.verdict(&even), None);
    let more = Tally {
        wins: 2950,
        draws: 600,
        losses: 2950,
    };
    assert_eq!(sprt.verdict(&more), Some(SprtVerdict::AcceptH0));
}

#[test]
fn sprt_parameters_are_checked() {
    assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.05, 0.7).is_err());
    assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
}

#[test]
fn a_run_of_wins_moves_the_sprt_but_one_win_does_not_decide() {
    let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
    let one = Tally {
        wins: 1,
        draws: 0,
        losses: 0,
    };
    assert_eq!(sprt.verdict(&one), None);
    let many = Tally {
        wins: 12,
        draws: 0,
        losses: 0,
    };
    assert_eq!(sprt.verdict(&many), Some(SprtVerdict::AcceptH1));
}
