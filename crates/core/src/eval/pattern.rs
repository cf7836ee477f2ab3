//! The pattern evaluation: a sum of trained weights, one per active feature (see
//! [`super::features`]), from the weight set of the position's stage.
//!
//! The weights are embedded in the binary from `weights/patterns.bin` (how they were made
//! is in `weights/patterns.origin.md`). File format, little-endian: the magic
//! `IAGOPAT1`, the number of stages (u32, 1 to 60: see [`features::stage_of_discs`]), the
//! weights per stage (u32), then the weights of stage 0, 1, ... as i16 in hundredths of a
//! disc, where the value `i16::MIN` is followed by a u16 count of zero weights (most
//! pattern configurations never occur).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Mutex, OnceLock};

use super::features::{self, Layout, MAX_STAGES};
use crate::game::{Evaluator, Score};
use crate::othello::{DISC, Position};

const MAGIC: &[u8; 8] = b"IAGOPAT1";
const ZERO_RUN: i16 = i16::MIN;

/// The trained weights shipped with iago.
static EMBEDDED: &[u8] = include_bytes!("weights/patterns.bin");

/// All stages' weights, stage after stage.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternWeights {
    stages: usize,
    stage_len: usize,
    weights: Vec<i16>,
    /// The stage of each disc count, 0 to 64.
    stage_of_discs: [u8; 65],
}

impl PatternWeights {
    /// Weights for the current layout in `stages` stages, from `values` (all stages, in
    /// hundredths of a disc, rounded and clamped to i16).
    pub fn from_values(stages: usize, values: &[f32]) -> Result<PatternWeights, String> {
        let stage_len = features::layout().stage_len as usize;
        if !(1..=MAX_STAGES).contains(&stages) || values.len() != stage_len * stages {
            return Err(format!(
                "{} weights given in {stages} stages, the layout needs {stage_len} a stage \
                 and 1 to {MAX_STAGES} stages",
                values.len(),
            ));
        }
        let weights = values
            .iter()
            .map(|&v| v.round().clamp(-32767.0, 32767.0) as i16)
            .collect();
        Ok(PatternWeights::new(stages, stage_len, weights))
    }

    fn new(stages: usize, stage_len: usize, weights: Vec<i16>) -> PatternWeights {
        let mut stage_of_discs = [0u8; 65];
        for (discs, stage) in stage_of_discs.iter_mut().enumerate() {
            *stage = features::stage_of_discs(discs as u32, stages) as u8;
        }
        PatternWeights {
            stages,
            stage_len,
            weights,
            stage_of_discs,
        }
    }

    /// The number of stages.
    pub fn stages(&self) -> usize {
        self.stages
    }

    /// The stage of `pos`.
    #[inline]
    pub fn stage_of(&self, pos: &Position) -> usize {
        usize::from(self.stage_of_discs[(pos.player | pos.opponent).count_ones() as usize])
    }

    /// One stage's weights.
    #[inline]
    pub fn stage(&self, stage: usize) -> &[i16] {
        let start = stage * self.stage_len;
        self.weights
            .get(start..start + self.stage_len)
            .unwrap_or(&[])
    }

    /// The file bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.weights.len() / 2);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.stages as u32).to_le_bytes());
        out.extend_from_slice(&(self.stage_len as u32).to_le_bytes());
        let mut i = 0;
        while i < self.weights.len() {
            let run = self.weights[i..]
                .iter()
                .take(u16::MAX as usize)
                .take_while(|&&w| w == 0)
                .count();
            if run > 0 {
                out.extend_from_slice(&ZERO_RUN.to_le_bytes());
                out.extend_from_slice(&(run as u16).to_le_bytes());
                i += run;
            } else {
                out.extend_from_slice(&self.weights[i].to_le_bytes());
                i += 1;
            }
        }
        out
    }

    /// Reads the file bytes, checking that they fit the current feature layout.
    pub fn decode(bytes: &[u8]) -> Result<PatternWeights, String> {
        let header = bytes
            .get(..16)
            .ok_or("pattern weights: file shorter than its header")?;
        if &header[..8] != MAGIC {
            return Err("pattern weights: not an IAGOPAT1 file".into());
        }
        let word = |at: usize| {
            u32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
        };
        let (stages, stage_len) = (word(8) as usize, word(12) as usize);
        let expected = features::layout().stage_len as usize;
        if !(1..=MAX_STAGES).contains(&stages) || stage_len != expected {
            return Err(format!(
                "pattern weights: {stages} stages of {stage_len} weights, this build needs \
                 1 to {MAX_STAGES} of {expected} (retrain with `iago train`)"
            ));
        }
        let total = stages * stage_len;
        let mut weights = Vec::with_capacity(total);
        let mut rest = &bytes[16..];
        while let [a, b, tail @ ..] = rest {
            let value = i16::from_le_bytes([*a, *b]);
            rest = tail;
            if value == ZERO_RUN {
                let [c, d, tail @ ..] = rest else {
                    return Err("pattern weights: truncated zero run".into());
                };
                let run = usize::from(u16::from_le_bytes([*c, *d]));
                weights.resize(weights.len() + run, 0);
                rest = tail;
            } else {
                weights.push(value);
            }
            if weights.len() > total {
                return Err("pattern weights: more weights than the header says".into());
            }
        }
        if !rest.is_empty() || weights.len() != total {
            return Err(format!(
                "pattern weights: {} weights read, {total} expected",
                weights.len()
            ));
        }
        Ok(PatternWeights::new(stages, stage_len, weights))
    }

    /// The weights embedded in the binary.
    pub fn embedded() -> Result<&'static PatternWeights, String> {
        static WEIGHTS: OnceLock<Result<PatternWeights, String>> = OnceLock::new();
        WEIGHTS
            .get_or_init(|| PatternWeights::decode(EMBEDDED))
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// The pattern evaluator over a weight set.
pub struct PatternEval {
    layout: &'static Layout,
    weights: &'static PatternWeights,
}

impl PatternEval {
    /// The evaluator with the embedded weights.
    pub fn embedded() -> Result<PatternEval, String> {
        Ok(PatternEval::with_weights(PatternWeights::embedded()?))
    }

    /// The evaluator with weights read from a file (to compare retrained weights before
    /// they are embedded). Weights live for the rest of the run, as evaluators are shared
    /// by searches; a file read again with the same bytes reuses them, so that a script
    /// that sets the same evaluator over and over does not grow the engine's memory.
    pub fn from_file(path: &str) -> Result<PatternEval, String> {
        static LOADED: Mutex<Vec<(u64, &'static PatternWeights)>> = Mutex::new(Vec::new());
        let bytes = crate::files::read(std::path::Path::new(path), crate::files::WEIGHTS)?;
        let digest = {
            let mut hasher = DefaultHasher::new();
            bytes.hash(&mut hasher);
            hasher.finish()
        };
        let mut loaded = LOADED
            .lock()
            .map_err(|_| "the loaded weights are unusable")?;
        if let Some((_, weights)) = loaded.iter().find(|(known, _)| *known == digest) {
            return Ok(PatternEval::with_weights(weights));
        }
        let weights = PatternWeights::decode(&bytes).map_err(|e| format!("{path}: {e}"))?;
        let weights: &'static PatternWeights = Box::leak(Box::new(weights));
        loaded.push((digest, weights));
        Ok(PatternEval::with_weights(weights))
    }

    /// The evaluator with other weights (training, tests); they live as long as the
    /// program, as evaluators are shared by searches.
    pub fn with_weights(weights: &'static PatternWeights) -> PatternEval {
        PatternEval {
            layout: features::layout(),
            weights,
        }
    }
}

/// Largest value returned: less than any won game, so a proven win stays preferred.
pub const LIMIT: Score = 64 * DISC - 1;

impl Evaluator<Position> for PatternEval {
    #[inline]
    fn evaluate(&self, pos: &Position) -> Score {
        let stage = self.weights.stage(self.weights.stage_of(pos));
        features::weighted_sum(self.layout, pos, stage).clamp(-LIMIT, LIMIT)
    }

    fn name(&self) -> &'static str {
        "pattern"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::symmetry::Symmetry;

    #[test]
    fn encoding_round_trips() {
        let layout = features::layout();
        let n = layout.stage_len as usize * 30;
        let values: Vec<f32> = (0..n)
            .map(|i| {
                if i % 7 == 0 {
                    (i % 300) as f32 - 150.0
                } else {
                    0.0
                }
            })
            .collect();
        let weights = PatternWeights::from_values(30, &values).unwrap();
        let bytes = weights.encode();
        assert!(
            bytes.len() < n,
            "zero runs are compressed: {} bytes",
            bytes.len()
        );
        assert_eq!(PatternWeights::decode(&bytes).unwrap(), weights);
    }

    #[test]
    fn a_file_of_any_stage_count_evaluates_each_disc_count_with_its_stage() {
        let layout = features::layout();
        let len = layout.stage_len as usize;
        for stages in [15, 30, 60] {
            // Only the parity weights are set: stage k scores k discs.
            let mut values = vec![0.0; len * stages];
            for stage in 0..stages {
                let parity = stage * len + layout.parity_offset as usize;
                values[parity] = (stage * 100) as f32;
                values[parity + 1] = (stage * 100) as f32;
            }
            let weights = PatternWeights::from_values(stages, &values).unwrap();
            let weights = PatternWeights::decode(&weights.encode()).unwrap();
            assert_eq!(weights.stages(), stages);
            let eval = PatternEval::with_weights(Box::leak(Box::new(weights)));
            let mut pos = Position::start();
            while !pos.has_no_move() {
                let discs = (pos.player | pos.opponent).count_ones();
                let expected = ((discs as usize - 4) * stages / 60).min(stages - 1);
                assert_eq!(
                    eval.evaluate(&pos),
                    (expected * 100) as Score,
                    "{discs} discs"
                );
                pos = pos.play_square(pos.moves().trailing_zeros());
            }
        }
        // Fifteen stages are today's four disc counts a stage.
        for discs in 4..=64 {
            let old = ((discs - 4) / 4).min(14) as usize;
            assert_eq!(features::stage_of_discs(discs, 15), old);
            assert_eq!(
                features::stage_of_discs(discs, 60),
                (discs as usize - 4).min(59)
            );
        }
    }

    #[test]
    fn bad_files_are_errors() {
        assert!(PatternWeights::decode(b"").is_err());
        assert!(PatternWeights::decode(b"IAGOPAT1\x0f\0\0\0\0\0\0\0").is_err());
        let weights = PatternWeights::embedded().unwrap();
        let mut bytes = weights.encode();
        bytes.pop();
        assert!(PatternWeights::decode(&bytes).is_err());
        bytes.extend_from_slice(&[0, 0, 1, 0]);
        assert!(PatternWeights::decode(&bytes).is_err());
    }

    #[test]
    fn a_weight_file_read_again_reuses_its_weights() {
        let path = std::env::temp_dir().join(format!("iago-weights-{}.bin", std::process::id()));
        std::fs::write(&path, PatternWeights::embedded().unwrap().encode()).unwrap();
        let path_text = path.to_str().unwrap();
        let first = PatternEval::from_file(path_text).unwrap();
        let again = PatternEval::from_file(path_text).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(std::ptr::eq(first.weights, again.weights));
    }

    #[test]
    fn embedded_weights_evaluate_symmetric_positions_alike() {
        let eval = PatternEval::embedded().unwrap();
        let mut pos = Position::start();
        for ply in 0..40 {
            let moves = pos.moves();
            if moves == 0 {
                break;
            }
            let value = eval.evaluate(&pos);
            for symmetry in Symmetry::ALL {
                assert_eq!(
                    eval.evaluate(&pos.transformed(symmetry)),
                    value,
                    "ply {ply}"
                );
            }
            // A varied but fixed line: alternate lowest and highest legal squares.
            let square = if ply % 2 == 0 {
                moves.trailing_zeros()
            } else {
                63 - moves.leading_zeros()
            };
            pos = pos.play_square(square);
        }
    }
}
