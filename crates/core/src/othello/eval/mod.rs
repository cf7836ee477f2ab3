//! Othello's static evaluations: a score for a position without searching, each an
//! [`Evaluator`] chosen by name at run time (`--eval NAME`).

pub mod features;
pub mod heuristics;
pub mod network;
pub mod pattern;
pub mod weight_file;

use crate::game::{Evaluator, Score};
use crate::othello::{DISC, Position};
pub use heuristics::Heuristic;

/// Placeholder Othello evaluator: mobility and corners. Replaced by the seed heuristics
/// and the trained pattern evaluation.
pub struct SimpleOthello;

impl Evaluator<Position> for SimpleOthello {
    fn evaluate(&self, pos: &Position) -> Score {
        let mobility = pos.moves().count_ones() as i32
            - crate::othello::bitboard::legal_moves(pos.opponent, pos.player).count_ones() as i32;
        let corners = (pos.player & crate::othello::bitboard::CORNERS).count_ones() as i32
            - (pos.opponent & crate::othello::bitboard::CORNERS).count_ones() as i32;
        mobility * DISC + corners * 5 * DISC
    }

    fn name(&self) -> &'static str {
        "simple"
    }
}

/// Names accepted by [`othello_evaluator`], the default first.
pub const OTHELLO_EVALUATORS: &[&str] = &[
    "pattern",
    "network",
    "simple",
    "discs",
    "mobility",
    "potential-mobility",
    "stage-mobility",
    "cowthello",
    "stable",
    "cowthello-safe",
    "combined",
    "kotlin",
];

/// The Othello evaluator called `name` (`default` is the first of [`OTHELLO_EVALUATORS`]).
pub fn othello_evaluator(name: &str) -> Result<Box<dyn Evaluator<Position>>, String> {
    match name {
        "simple" => Ok(Box::new(SimpleOthello)),
        // The trained pattern evaluation is the default: it beats every seed heuristic
        // (docs/benchmarks.md, Evaluation).
        "pattern" | "default" => Ok(Box::new(pattern::PatternEval::embedded()?)),
        "network" => Ok(Box::new(network::NetworkEval::embedded()?)),
        _ => {
            if let Some(path) = name.strip_prefix("network:") {
                return Ok(Box::new(network::NetworkEval::from_file(path)?));
            }
            match (Heuristic::by_name(name), name.strip_prefix("pattern:")) {
                (Some(heuristic), _) => Ok(Box::new(heuristic)),
                (None, Some(path)) => Ok(Box::new(pattern::PatternEval::from_file(path)?)),
                (None, None) => Err(format!(
                    "unknown evaluator {name:?} (known: {}, or pattern:WEIGHTFILE, \
                     network:FILE)",
                    OTHELLO_EVALUATORS.join(", ")
                )),
            }
        }
    }
}

/// Weights decoded from `bytes`, kept for the rest of the run in `cache` (evaluators are
/// shared by searches): bytes seen before get the weights decoded then, so that a
/// protocol that sets the same evaluator over and over does not grow the memory.
fn shared_weights<W: Sync + 'static>(
    cache: &'static std::sync::Mutex<Vec<(u64, &'static W)>>,
    bytes: &[u8],
    unusable: &'static str,
    decode: impl FnOnce(&[u8]) -> Result<W, String>,
) -> Result<&'static W, String> {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let digest = {
        let mut hasher = DefaultHasher::new();
        bytes.hash(&mut hasher);
        hasher.finish()
    };
    let mut loaded = cache.lock().map_err(|_| unusable)?;
    if let Some((_, weights)) = loaded.iter().find(|(known, _)| *known == digest) {
        return Ok(weights);
    }
    let weights: &'static W = Box::leak(Box::new(decode(bytes)?));
    loaded.push((digest, weights));
    Ok(weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_evaluator_is_constructible_under_its_name() {
        for &name in OTHELLO_EVALUATORS {
            if name == "network" && cfg!(not(feature = "embedded-network")) {
                assert!(othello_evaluator(name).is_err());
                continue;
            }
            let evaluator = othello_evaluator(name).expect(name);
            assert_eq!(evaluator.name(), name);
        }
        let default = othello_evaluator("default").expect("default");
        assert_eq!(default.name(), OTHELLO_EVALUATORS[0]);
        assert!(othello_evaluator("no-such-evaluator").is_err());
    }
}
