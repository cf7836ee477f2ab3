//! The pattern evaluation: a sum of trained weights, one per active feature (see
//! [`super::features`]), from the weight set of the position's stage.
//!
//! The weights are embedded in the binary from `weights/patterns.bin` (how they were made
//! is in `weights/patterns.origin.md`), decoded by the build script into an array the
//! evaluation reads in place: a process starts without decoding them (20 ms to a depth-1
//! `genmove` instead of 60). File format (read and written by [`super::weight_file`]),
//! little-endian: the magic `IAGOPAT2`, the number of stages (u32, 1 to 60: see
//! [`features::stage_of_discs`]), the weights per stage (u32), then the weights of stage 0,
//! 1, ... in hundredths of a disc, each stored as its difference from the same weight in
//! the stage before (stage 0: from zero), since neighbouring stages are alike. Each
//! difference is an unsigned LEB128 varint: 0 starts a run of zero differences whose length
//! follows as another varint (most pattern configurations never occur), any other value `v`
//! is the difference `v / 2` when even and `-(v + 1) / 2` when odd. The older `IAGOPAT1`
//! files are still read: the same header, then each weight as an i16, where `i16::MIN` is
//! followed by a u16 count of zero weights.

use std::borrow::Cow;
use std::sync::{Mutex, OnceLock};

use super::features::{self, Layout, MAX_STAGES};
use super::weight_file;
use crate::game::{Evaluator, Score};
use crate::othello::{DISC, Position};

/// All stages' weights, stage after stage.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternWeights {
    stages: usize,
    stage_len: usize,
    /// Owned when read from a file or trained; the embedded weights are read in place.
    weights: Cow<'static, [i16]>,
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
        Ok(PatternWeights::new(stages, stage_len, Cow::Owned(weights)))
    }

    fn new(stages: usize, stage_len: usize, weights: Cow<'static, [i16]>) -> PatternWeights {
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

    /// The file bytes (`IAGOPAT2`).
    pub fn encode(&self) -> Vec<u8> {
        weight_file::encode(self.stages, self.stage_len, &self.weights)
    }

    /// Reads the file bytes (`IAGOPAT2` or `IAGOPAT1`), checking that they fit the current
    /// feature layout.
    pub fn decode(bytes: &[u8]) -> Result<PatternWeights, String> {
        let header = weight_file::read_header(bytes)?;
        check_shape(header.stages, header.stage_len)?;
        let weights = weight_file::decode(&header, bytes)?;
        Ok(PatternWeights::new(
            header.stages,
            header.stage_len,
            Cow::Owned(weights),
        ))
    }

    /// The weights embedded in the binary.
    pub fn embedded() -> Result<&'static PatternWeights, String> {
        static WEIGHTS: OnceLock<Result<PatternWeights, String>> = OnceLock::new();
        WEIGHTS
            .get_or_init(|| {
                let (stages, stage_len, weights) = embedded_weights();
                check_shape(stages, stage_len)?;
                Ok(PatternWeights::new(
                    stages,
                    stage_len,
                    Cow::Borrowed(weights),
                ))
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// Refuses a weight file's shape unless it fits this build's feature layout.
fn check_shape(stages: usize, stage_len: usize) -> Result<(), String> {
    let expected = features::layout().stage_len as usize;
    if !(1..=MAX_STAGES).contains(&stages) || stage_len != expected {
        return Err(format!(
            "pattern weights: {stages} stages of {stage_len} weights, this build needs \
             1 to {MAX_STAGES} of {expected} (retrain with `iago train`)"
        ));
    }
    Ok(())
}

/// Bytes aligned for any weight type.
#[repr(C, align(64))]
struct Aligned<Bytes: ?Sized>(Bytes);

/// `weights/patterns.bin` as the build script decoded it: the stage count and the weights
/// a stage (u32, little-endian), then the weights as i16 in the target's byte order.
static EMBEDDED: &Aligned<[u8]> =
    &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/patterns.i16")));

/// The embedded weights' stage count, weights a stage and weights, read in place.
fn embedded_weights() -> (usize, usize, &'static [i16]) {
    let bytes = &EMBEDDED.0;
    let word = |at: usize| {
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
    };
    let body = &bytes[8..];
    // SAFETY: the body starts 8 bytes into a 64-byte aligned array, so at an i16 boundary;
    // it holds `body.len() / 2` whole i16 values in the target's byte order (written so by
    // the build script), any bit pattern of which is a valid i16; and it lives as long as
    // the program.
    let weights =
        unsafe { std::slice::from_raw_parts(body.as_ptr().cast::<i16>(), body.len() / 2) };
    (word(0), word(4), weights)
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
        let weights = super::shared_weights(
            &LOADED,
            &bytes,
            "the loaded weights are unusable",
            |bytes| PatternWeights::decode(bytes).map_err(|e| format!("{path}: {e}")),
        )?;
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
    fn version_1_files_are_still_read() {
        let layout = features::layout();
        let len = layout.stage_len as usize;
        let values: Vec<f32> = (0..len * 2).map(|i| ((i % 5) as f32 - 2.0) * 3.0).collect();
        let weights = PatternWeights::from_values(2, &values).unwrap();
        let mut bytes = b"IAGOPAT1".to_vec();
        bytes.extend_from_slice(&2u32.to_le_bytes());
        bytes.extend_from_slice(&(len as u32).to_le_bytes());
        for &w in weights.weights.iter() {
            if w == 0 {
                bytes.extend_from_slice(&i16::MIN.to_le_bytes());
                bytes.extend_from_slice(&1u16.to_le_bytes());
            } else {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
        }
        assert_eq!(PatternWeights::decode(&bytes).unwrap(), weights);
    }

    #[test]
    fn stages_alike_cost_little() {
        let layout = features::layout();
        let len = layout.stage_len as usize;
        // Sixty stages of the same weights, each a little larger than the one before.
        let values: Vec<f32> = (0..len * 60)
            .map(|i| ((i % len) % 301) as f32 - 150.0 + (i / len) as f32)
            .collect();
        let weights = PatternWeights::from_values(60, &values).unwrap();
        let bytes = weights.encode();
        assert!(bytes.len() < 2 * len + 60 * len, "{} bytes", bytes.len());
        assert_eq!(PatternWeights::decode(&bytes).unwrap(), weights);
        // The extremes of i16 survive: differences up to 65,534 either way.
        let mut extreme = vec![0.0; len * 3];
        extreme[5] = 32767.0;
        extreme[len + 5] = -32767.0;
        extreme[2 * len + 5] = 32767.0;
        let weights = PatternWeights::from_values(3, &extreme).unwrap();
        assert_eq!(PatternWeights::decode(&weights.encode()).unwrap(), weights);
    }

    #[test]
    fn bad_files_are_errors() {
        let header = |stages: u32| {
            let mut bytes = b"IAGOPAT2".to_vec();
            bytes.extend_from_slice(&stages.to_le_bytes());
            bytes.extend_from_slice(&features::layout().stage_len.to_le_bytes());
            bytes
        };
        let len = features::layout().stage_len;
        let with = |body: &[u8]| {
            let mut bytes = header(1);
            bytes.extend_from_slice(body);
            PatternWeights::decode(&bytes)
        };
        let mut run = vec![0];
        weight_file::push_varint(&mut run, len);
        assert!(with(&run).is_ok(), "a stage of zeros");
        assert!(with(&run[..run.len() - 1]).is_err(), "a truncated number");
        assert!(with(&[0, 0]).is_err(), "an empty run");
        run.push(2);
        assert!(with(&run).is_err(), "one weight too many");
        assert!(
            with(&[0xFF, 0xFF, 0xFF, 0xFF, 0x7F]).is_err(),
            "a number over 32 bits"
        );
        assert!(
            with(&[0xFF, 0xFF, 0xFF, 0xFF, 0x8F, 0x01]).is_err(),
            "a sixth byte"
        );
        assert!(
            with(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]).is_err(),
            "-2^31: out of i16"
        );
        assert!(with(&[0x80, 0x80, 0x04]).is_err(), "+32768: out of i16");
        assert!(
            with(&[0xFE, 0xFF, 0x03]).is_err(),
            "+32767 is a weight, but the stage is not full"
        );

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
    fn the_embedded_weights_are_the_shipped_file_decoded() {
        let shipped = PatternWeights::decode(include_bytes!("weights/patterns.bin")).unwrap();
        let embedded = PatternWeights::embedded().unwrap();
        assert!(
            matches!(embedded.weights, Cow::Borrowed(_)),
            "read in place"
        );
        assert_eq!(*embedded, shipped);
        assert_eq!(embedded.stages(), 30);
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
