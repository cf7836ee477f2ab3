//! Match statistics: the Elo difference implied by a score, its 95% confidence interval,
//! and the sequential probability ratio test (SPRT) that stops a match once it has
//! decided between two Elo hypotheses.
//!
//! Elo is logistic: an expected score `s` means a difference of `-400 log10(1/s - 1)`.
//! The interval and the SPRT use the per-game score variance of the wins, draws and
//! losses. The interval of the score is Wilson's (the normal approximation solved for
//! the true score rather than centred on the observed one), with the games counted as
//! the equivalent number of win-or-loss games that variance makes them: it stays inside
//! (0, 1) for any result but a sweep, so that 17-3 has an Elo interval where the plain
//! normal one reaches a score of 1 and an infinite Elo.

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one side of a pairing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// The mean score per game, in [0, 1]; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.points() / f64::from(games))
    }

    /// The same games from the opponent's side.
    pub fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// The variance of one game's score around the mean.
    fn variance(&self) -> Option<f64> {
        let mean = self.score()?;
        let games = f64::from(self.games());
        Some(
            (f64::from(self.wins) * (1.0 - mean).powi(2)
                + f64::from(self.draws) * (0.5 - mean).powi(2)
                + f64::from(self.losses) * mean.powi(2))
                / games,
        )
    }

    /// The Elo difference and its 95% interval (see the module documentation). Only a
    /// sweep (every game won, or every one lost) has an infinite value and bound.
    pub fn elo(&self) -> Option<EloEstimate> {
        let mean = self.score()?;
        let variance = self.variance()?;
        let games = f64::from(self.games());
        // Games of one result say nothing of the spread: count them as win-or-loss games.
        let binomial = mean * (1.0 - mean);
        let effective = if variance > 0.0 {
            games * binomial / variance
        } else {
            games
        };
        let z2 = Z95 * Z95;
        let denominator = 1.0 + z2 / effective;
        let centre = (mean + z2 / (2.0 * effective)) / denominator;
        let half =
            Z95 * (binomial / effective + z2 / (4.0 * effective * effective)).sqrt() / denominator;
        let low = elo_from_score(centre - half);
        let high = elo_from_score(centre + half);
        Some(EloEstimate {
            elo: elo_from_score(mean),
            margin: (high - low) / 2.0,
            low,
            high,
        })
    }
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half the interval's width (infinite for a sweep).
    pub margin: f64,
    pub low: f64,
    pub high: f64,
}

impl EloEstimate {
    /// `+147 ± 64`; for a sweep, the bound the games prove (`> +46`).
    pub fn text(&self) -> String {
        if self.elo == f64::INFINITY {
            format!("> {:+.0}", self.low)
        } else if self.elo == f64::NEG_INFINITY {
            format!("< {:+.0}", self.high)
        } else {
            format!("{:+.0} ± {:.0}", self.elo, self.margin)
        }
    }
}

/// The logistic Elo difference that gives expected score `score`: ±infinity at 1 and 0.
pub fn elo_from_score(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// The expected score of a side `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The SPRT between H0: Elo = `elo0` and H1: Elo = `elo1`, with error rates `alpha`
/// (accepting H1 when H0 holds) and `beta` (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// The SPRT's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H1 accepted: the first engine is at least `elo1` stronger.
    AcceptH1,
    /// H0 accepted: it is not stronger than `elo0`.
    AcceptH0,
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, both error rates in (0, 0.5).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if elo0.is_nan() || elo1.is_nan() || elo0 >= elo1 {
            return Err(format!("SPRT needs elo0 < elo1 (got {elo0} and {elo1})"));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(format!(
                    "SPRT {name} must be between 0 and 0.5 (got {value})"
                ));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The (lower, upper) bounds of the log-likelihood ratio: below the lower H0 is
    /// accepted, above the upper H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `tally`, in the normal
    /// approximation: `n (s1 - s0) (2 m - s0 - s1) / (2 v)` with mean score `m`, per-game
    /// variance `v` and the scores `s0`, `s1` that the hypotheses predict.
    ///
    /// While every game had the same result the variance is zero and says nothing about
    /// the spread; it is then estimated with one win, one draw and one loss added, so that
    /// a run of wins still moves the test, but not after one game.
    pub fn llr(&self, tally: &Tally) -> f64 {
        let (Some(mean), Some(mut variance)) = (tally.score(), tally.variance()) else {
            return 0.0;
        };
        if variance <= 0.0 {
            let padded = Tally {
                wins: tally.wins + 1,
                draws: tally.draws + 1,
                losses: tally.losses + 1,
            };
            variance = padded.variance().unwrap_or(0.25);
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        f64::from(tally.games()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The verdict after `tally`, if the test has decided.
    pub fn verdict(&self, tally: &Tally) -> Option<SprtVerdict> {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtVerdict::AcceptH1)
        } else if llr <= lower {
            Some(SprtVerdict::AcceptH0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 3:1 odds: 400 log10 3.
        assert!((elo_from_score(0.75) - 190.848_501_887_865).abs() < 1e-9);
        assert!((score_from_elo(190.848_501_887_865) - 0.75).abs() < 1e-12);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }
}
