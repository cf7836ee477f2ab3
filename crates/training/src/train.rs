//! Fitting the pattern weights: positions from WTHOR games, labelled with the games'
//! scores, fitted by stochastic gradient descent on the squared error with L2 decay.
//!
//! Labels (see `crates/core/src/othello/eval/README.md` for why): a position with at least the file's
//! "theoretical depth" empties (24 in every WTHOR file) gets the game's theoretical
//! score, the exact result of perfect play from that depth on, so human endgame errors
//! do not blur the midgame labels; a later position gets the game's final result.
//! Labels are disc differences for the side to move.

use std::ops::Range;
use std::path::Path;
use std::time::Instant;

use iago_core::game::Color;
use iago_core::othello::Position;
use iago_core::othello::eval::features::{self, Layout, stage_of_discs};
use iago_core::othello::eval::pattern::PatternWeights;
use iago_core::othello::wthor::parse_wthor;

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub player: u64,
    pub opponent: u64,
    /// Disc difference for the side to move (a game result, or a search's value).
    pub label: f32,
    /// The label is the position's exact value (a solve, or a game played perfectly from
    /// there on).
    pub exact: bool,
}

impl Sample {
    fn position(&self) -> Position {
        Position {
            player: self.player,
            opponent: self.opponent,
            side: Color::Black,
        }
    }
}

/// Positions split into a training and a held-out set by game.
#[derive(Default)]
pub struct Dataset {
    pub train: Vec<Sample>,
    pub test: Vec<Sample>,
    pub games: usize,
    /// The self-play games and positions, to count the distinct ones.
    pub distinct: crate::corpus::distinct::Distinct,
}

/// How positions are labelled from a WTHOR game's two recorded scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// The theoretical score down to its depth, the final result after it.
    Split,
    /// The theoretical score everywhere.
    Theoretical,
    /// The theoretical score down to its depth, then sliding linearly to the final
    /// result at the last move.
    Blend,
}

impl Labels {
    pub fn by_name(name: &str) -> Option<Labels> {
        match name {
            "split" => Some(Labels::Split),
            "theoretical" => Some(Labels::Theoretical),
            "blend" => Some(Labels::Blend),
            _ => None,
        }
    }

    /// Black's label for a position with `empties` empty squares.
    pub fn black_label(self, empties: u32, depth: u32, theoretical: i32, final_result: i32) -> i32 {
        if depth == 0 {
            return final_result;
        }
        if empties >= depth {
            return theoretical;
        }
        match self {
            Labels::Split => final_result,
            Labels::Theoretical => theoretical,
            Labels::Blend => {
                let t = empties as i32;
                let d = depth as i32;
                (theoretical * t + final_result * (d - t) + d / 2).div_euclid(d)
            }
        }
    }
}

/// What to read and how to fit.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub labels: Labels,
    /// Use every `game_step`-th game (1 = all).
    pub game_step: usize,
    /// Every `holdout_every`-th used game goes to the held-out set.
    pub holdout_every: usize,
    pub epochs: usize,
    /// Learning rate at the start, in discs per disc of error; it falls linearly to zero
    /// by the end of the last epoch.
    pub learning_rate: f32,
    /// L2 decay per update.
    pub l2: f32,
    /// A position also trains the stages whose disc range, widened by this many discs
    /// on each side, holds its disc count (0: its own stage only).
    pub stage_overlap: u32,
    pub optimizer: Optimizer,
    pub seed: u64,
}

/// How a weight moves on each sample's error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Optimizer {
    /// Plain stochastic gradient descent: every weight moves `rate` times the error. A
    /// configuration seen a few times moves little, which keeps rare weights near zero.
    Sgd,
    /// Adam, per weight and only when the weight is active: each weight's step is scaled
    /// by its own gradients' size, so a rare configuration learns as fast as a common one.
    Adam,
}

impl Optimizer {
    pub fn by_name(name: &str) -> Option<Optimizer> {
        match name {
            "sgd" => Some(Optimizer::Sgd),
            "adam" => Some(Optimizer::Adam),
            _ => None,
        }
    }
}

/// Adam's moments of one weight, with the powers of the decay rates that correct their
/// start from zero (each weight counts its own steps).
#[derive(Clone, Copy, Debug)]
struct Moments {
    mean: f32,
    square: f32,
    mean_decay_power: f32,
    square_decay_power: f32,
}

/// `x`, or zero once it is too small to matter.
#[inline]
fn flush_tiny(x: f32) -> f32 {
    if x < 1e-30 { 0.0 } else { x }
}

impl Moments {
    const MEAN_DECAY: f32 = 0.9;
    const SQUARE_DECAY: f32 = 0.999;
    const START: Moments = Moments {
        mean: 0.0,
        square: 0.0,
        mean_decay_power: 1.0,
        square_decay_power: 1.0,
    };

    /// The step for `gradient` (in the direction that lowers the error), `rate` long
    /// when the gradients agree.
    #[inline]
    fn step(&mut self, gradient: f32, rate: f32) -> f32 {
        self.mean = Self::MEAN_DECAY * self.mean + (1.0 - Self::MEAN_DECAY) * gradient;
        self.square =
            Self::SQUARE_DECAY * self.square + (1.0 - Self::SQUARE_DECAY) * gradient * gradient;
        // The powers go to zero before they turn subnormal, which is slow to compute.
        self.mean_decay_power = flush_tiny(self.mean_decay_power * Self::MEAN_DECAY);
        self.square_decay_power = flush_tiny(self.square_decay_power * Self::SQUARE_DECAY);
        let mean = self.mean / (1.0 - self.mean_decay_power);
        let square = self.square / (1.0 - self.square_decay_power);
        rate * mean / (square.sqrt() + 1e-6)
    }
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            labels: Labels::Split,
            game_step: 1,
            holdout_every: 10,
            // 20 epochs with the rate falling to zero, against 12 with the rate divided
            // by 1 + epoch / 2: +38 Elo at depth 6 (6,000 games), +42 at depth 8.
            epochs: 20,
            learning_rate: 0.0015,
            l2: 0.0005,
            // Overlaps of 2, 4, 6, 8 and 12 discs against none, 2,000 games at depth 6:
            // +65, +87, +102, +88, +72 Elo (crates/core/src/othello/eval/README.md).
            stage_overlap: 6,
            optimizer: Optimizer::Sgd,
            seed: 1,
        }
    }
}

/// Reads the WTHOR files of `dir` (sorted by name) into labelled positions.
pub fn load_wthor(dir: &Path, config: &TrainConfig) -> Result<Dataset, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("wtb"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no .wtb files", dir.display()));
    }
    let step = config.game_step.max(1);
    let holdout = config.holdout_every.max(2);
    let mut data = Dataset::default();
    let mut seen = 0usize;
    for path in files {
        let bytes = iago_core::othello::wthor::read_bytes(&path).map_err(|e| e.to_string())?;
        // The header's depth of the theoretical score (byte 14); 0 means none given.
        let depth = u32::from(bytes.get(14).copied().unwrap_or(0));
        let games = parse_wthor(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        for game in games {
            seen += 1;
            if !seen.is_multiple_of(step) {
                continue;
            }
            data.games += 1;
            let target = if data.games.is_multiple_of(holdout) {
                &mut data.test
            } else {
                &mut data.train
            };
            let final_black = 2 * i32::from(game.black_discs) - 64;
            let theoretical_black = 2 * i32::from(game.theoretical_black) - 64;
            let mut pos = Position::start();
            for &mv in &game.moves {
                let black_label = config.labels.black_label(
                    pos.empty_count(),
                    depth,
                    theoretical_black,
                    final_black,
                );
                let label = if pos.side == Color::Black {
                    black_label
                } else {
                    -black_label
                };
                target.push(Sample {
                    player: pos.player,
                    opponent: pos.opponent,
                    label: label.clamp(-64, 64) as f32,
                    exact: false,
                });
                match pos.try_play(mv) {
                    Some(next) => pos = next,
                    None => break,
                }
            }
        }
    }
    Ok(data)
}

/// Reads positions scored by `iago label` (see [`crate::label`]); every
/// `holdout_every`-th record is held out. A record's label is its search score; unless
/// the score is exact, what its game says of it (where known) is blended in at
/// `game_weight` (0 to 1).
pub fn load_samples(
    path: &Path,
    holdout_every: usize,
    game_weight: f32,
) -> Result<Dataset, String> {
    let records = crate::label::read(path)?;
    let holdout = holdout_every.max(2);
    let mut data = Dataset::default();
    for (i, record) in records.iter().enumerate() {
        let searched = f32::from(record.score) / iago_core::othello::DISC as f32;
        // An exact solve is the truth: only searched values are blended.
        let label = match record.game {
            Some(game) if record.depth != crate::label::EXACT_DEPTH => {
                searched + game_weight * (f32::from(game) - searched)
            }
            _ => searched,
        };
        let sample = Sample {
            player: record.player,
            opponent: record.opponent,
            label,
            exact: record.depth == crate::label::EXACT_DEPTH,
        };
        if (i + 1).is_multiple_of(holdout) {
            data.test.push(sample);
        } else {
            data.train.push(sample);
        }
    }
    Ok(data)
}

/// Reads self-play game records (see [`crate::corpus::records`]): every position of every
/// game, labelled with the game's result for the side to move, exact from the move the
/// game was solved on; the positions of every `holdout_every`-th game are held out. Of
/// the other games every `train_every`-th trains (1: all of them) and the rest are left
/// out, so that fits on shares of a file test on the same held-out games.
pub fn load_games(
    path: &Path,
    holdout_every: usize,
    train_every: usize,
) -> Result<Dataset, String> {
    let games = crate::corpus::records::read(path)?;
    let holdout = holdout_every.max(2);
    let train_every = train_every.max(1);
    let mut data = Dataset::default();
    let mut training_games = 0usize;
    for (i, game) in games.iter().enumerate() {
        let held_out = (i + 1).is_multiple_of(holdout);
        if !held_out {
            training_games += 1;
            if !(training_games - 1).is_multiple_of(train_every) {
                continue;
            }
        }
        let positions = game
            .replay()
            .map_err(|e| format!("{}: game {}: {e}", path.display(), i + 1))?;
        data.distinct.add(game, &positions);
        let target = if held_out {
            &mut data.test
        } else {
            &mut data.train
        };
        target.extend(positions.iter().map(|p| Sample {
            player: p.position.player,
            opponent: p.position.opponent,
            label: f32::from(p.result),
            exact: p.exact,
        }));
        data.games += 1;
    }
    Ok(data)
}

impl Dataset {
    /// Adds another set's positions (training to training, held-out to held-out).
    pub fn extend(&mut self, other: Dataset) {
        self.train.extend(other.train);
        self.test.extend(other.test);
        self.games += other.games;
        self.distinct.merge(other.distinct);
    }
}

/// Root mean squared error per stage, and the sample count per stage.
pub struct StageErrors {
    pub rmse: Vec<f64>,
    pub count: Vec<usize>,
}

impl StageErrors {
    pub fn overall(&self) -> f64 {
        let total: usize = self.count.iter().sum();
        let sum: f64 = self
            .rmse
            .iter()
            .zip(&self.count)
            .map(|(r, &n)| r * r * n as f64)
            .sum();
        (sum / total.max(1) as f64).sqrt()
    }
}

/// A fit in progress: weights (discs) at the tied (canonical) indices of every stage.
pub struct Trainer {
    layout: &'static Layout,
    stages: usize,
    weights: Vec<f32>,
    /// Adam's state per weight, made by the first Adam epoch.
    moments: Vec<Moments>,
    /// Threads for epochs and errors: each takes a run of stages (see [`Self::epoch`]).
    threads: usize,
}

impl Trainer {
    /// A trainer of `stages` weight sets (see [`stage_of_discs`]) starting from zero.
    pub fn new(stages: usize) -> Trainer {
        let layout = features::layout();
        Trainer {
            layout,
            stages,
            weights: vec![0.0; layout.stage_len as usize * stages],
            moments: Vec::new(),
            threads: 1,
        }
    }

    /// Epochs and errors on `threads` threads (at least 1). The weights come out the
    /// same on any number: see [`Self::epoch`].
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Runs of consecutive stages, at most `threads`, with about as many (sample, stage)
    /// updates each, for the samples of `samples` and an overlap of `overlap` discs.
    fn stage_blocks(&self, samples: &[Sample], overlap: u32, threads: usize) -> Vec<Range<usize>> {
        let mut by_discs = [0u64; 65];
        for sample in samples {
            by_discs[(sample.player | sample.opponent).count_ones() as usize] += 1;
        }
        let mut load = vec![0u64; self.stages];
        for (discs, &count) in by_discs.iter().enumerate() {
            let (first, last) = trained_stages(discs as u32, overlap, self.stages);
            for stage_load in &mut load[first..=last] {
                *stage_load += count;
            }
        }
        let total: u64 = load.iter().sum();
        let threads = threads.clamp(1, self.stages) as u64;
        let mut blocks = Vec::new();
        let (mut start, mut done) = (0, 0u64);
        for (stage, &count) in load.iter().enumerate() {
            done += count;
            let share = total * (blocks.len() as u64 + 1) / threads;
            if done >= share && stage + 1 < self.stages && (blocks.len() as u64) < threads - 1 {
                blocks.push(start..stage + 1);
                start = stage + 1;
            }
        }
        blocks.push(start..self.stages);
        blocks
    }

    /// The number of weight sets.
    pub fn stages(&self) -> usize {
        self.stages
    }

    /// The stage of a position with `discs` discs.
    pub fn stage_of_discs(&self, discs: u32) -> usize {
        stage_of_discs(discs, self.stages)
    }

    /// A trainer starting from `weights` (to refine them on new data: configurations
    /// the data never shows keep their values).
    pub fn from_weights(weights: &PatternWeights) -> Trainer {
        let mut trainer = Trainer::new(weights.stages());
        let len = trainer.layout.stage_len as usize;
        for stage in 0..trainer.stages {
            let values = weights.stage(stage);
            for (i, &value) in values.iter().enumerate() {
                // Tied slots hold equal values; the canonical one is the one trained.
                let tied = trainer.layout.canonical[i] as usize;
                trainer.weights[stage * len + tied] = f32::from(value) / 100.0;
            }
        }
        trainer
    }

    /// The weight slots of `sample` (in the whole weight vector) and its stage.
    #[cfg(test)]
    fn slots(&self, sample: &Sample) -> (Vec<u32>, usize) {
        let pos = sample.position();
        let stage = self.stage_of_discs((pos.player | pos.opponent).count_ones());
        let mut slots = vec![0; self.layout.active()];
        features::indices(self.layout, &pos, &mut slots);
        let base = (stage * self.layout.stage_len as usize) as u32;
        for slot in &mut slots {
            *slot = base + self.layout.canonical[*slot as usize];
        }
        (slots, stage)
    }

    /// One pass over `samples` in the order of `order`, the rate moving linearly from
    /// `rates.0` to `rates.1`; each sample trains its own stage and the stages within
    /// `overlap` discs of it.
    ///
    /// A stage's weights move only on the errors of that stage's own predictions, so the
    /// stages are independent fits that share the samples' order: each thread takes a
    /// run of stages and every sample that trains one of them, in the same order, and
    /// the weights are the same, bit for bit, on any number of threads.
    pub fn epoch(
        &mut self,
        samples: &[Sample],
        order: &[u32],
        rates: (f32, f32),
        l2: f32,
        overlap: u32,
        optimizer: Optimizer,
    ) {
        if optimizer == Optimizer::Adam && self.moments.is_empty() {
            self.moments = vec![Moments::START; self.weights.len()];
        }
        let blocks = self.stage_blocks(samples, overlap, self.threads);
        let len = self.layout.stage_len as usize;
        let pass = EpochPass {
            layout: self.layout,
            stages: self.stages,
            samples,
            order,
            rates,
            l2,
            overlap,
            optimizer,
        };
        let mut weights = self.weights.as_mut_slice();
        let mut moments = self.moments.as_mut_slice();
        let mut parts = Vec::with_capacity(blocks.len());
        for block in blocks {
            let size = block.len() * len;
            let (these, rest) = weights.split_at_mut(size);
            weights = rest;
            let (these_moments, rest) = if moments.is_empty() {
                (&mut [][..], moments)
            } else {
                moments.split_at_mut(size)
            };
            moments = rest;
            parts.push((block, these, these_moments));
        }
        if parts.len() == 1 {
            let (block, weights, moments) = parts.pop().unwrap_or_default();
            pass.train(block, weights, moments);
            return;
        }
        std::thread::scope(|scope| {
            for (block, weights, moments) in parts {
                let pass = &pass;
                scope.spawn(move || pass.train(block, weights, moments));
            }
        });
    }

    /// The error of the current weights on `samples`, per stage (the same on any number
    /// of threads: each stage's errors are summed in the samples' order).
    pub fn errors(&mut self, samples: &[Sample]) -> StageErrors {
        let blocks = self.stage_blocks(samples, 0, self.threads);
        let this = &*self;
        let sums: Vec<(Vec<f64>, Vec<usize>)> = if blocks.len() == 1 {
            vec![this.block_errors(samples, 0..this.stages)]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = blocks
                    .into_iter()
                    .map(|block| scope.spawn(move || this.block_errors(samples, block)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_default())
                    .collect()
            })
        };
        let (sum, count): (Vec<f64>, Vec<usize>) = sums
            .into_iter()
            .flat_map(|(sum, count)| sum.into_iter().zip(count))
            .unzip();
        let rmse = sum
            .iter()
            .zip(&count)
            .map(|(&sum, &n)| (sum / n.max(1) as f64).sqrt())
            .collect();
        StageErrors { rmse, count }
    }

    /// The squared errors and counts of the samples whose stage is in `block`, per stage
    /// of the block.
    fn block_errors(&self, samples: &[Sample], block: Range<usize>) -> (Vec<f64>, Vec<usize>) {
        let len = self.layout.stage_len as usize;
        let mut scratch = vec![0u32; self.layout.active()];
        let mut sum = vec![0f64; block.len()];
        let mut count = vec![0usize; block.len()];
        for sample in samples {
            let pos = sample.position();
            let stage = self.stage_of_discs((pos.player | pos.opponent).count_ones());
            if !block.contains(&stage) {
                continue;
            }
            features::indices(self.layout, &pos, &mut scratch);
            let weights = &self.weights[stage * len..(stage + 1) * len];
            let predicted: f32 = scratch
                .iter()
                .map(|&i| weights[self.layout.canonical[i as usize] as usize])
                .sum();
            let error = f64::from(sample.label) - f64::from(predicted);
            sum[stage - block.start] += error * error;
            count[stage - block.start] += 1;
        }
        (sum, count)
    }

    /// Every weight of every stage in hundredths of a disc, tied weights copied to all
    /// their indices: the values [`iago_core::othello::eval::pattern::PatternWeights`] stores.
    pub fn values(&self) -> Vec<f32> {
        let len = self.layout.stage_len as usize;
        let mut out = vec![0.0; self.weights.len()];
        for stage in 0..self.stages {
            for i in 0..len {
                let tied = self.layout.canonical[i] as usize;
                out[stage * len + i] = self.weights[stage * len + tied] * 100.0;
            }
        }
        out
    }
}

/// The first and last of the `stages` stages that a position with `discs` discs trains:
/// its own and those within `overlap` discs of it.
fn trained_stages(discs: u32, overlap: u32, stages: usize) -> (usize, usize) {
    (
        stage_of_discs(discs.saturating_sub(overlap), stages),
        stage_of_discs((discs + overlap).min(64), stages),
    )
}

/// What one epoch's threads share.
struct EpochPass<'a> {
    layout: &'static Layout,
    stages: usize,
    samples: &'a [Sample],
    order: &'a [u32],
    rates: (f32, f32),
    l2: f32,
    overlap: u32,
    optimizer: Optimizer,
}

impl EpochPass<'_> {
    /// The epoch for the stages of `block`, whose weights (and Adam's moments, if any)
    /// are `weights` and `moments`, stage after stage.
    fn train(&self, block: Range<usize>, weights: &mut [f32], moments: &mut [Moments]) {
        let len = self.layout.stage_len as usize;
        let mut scratch = vec![0u32; self.layout.active()];
        let step = (self.rates.1 - self.rates.0) / self.order.len().max(1) as f32;
        for (n, &i) in self.order.iter().enumerate() {
            let sample = self.samples[i as usize];
            let discs = (sample.player | sample.opponent).count_ones();
            let (first, last) = trained_stages(discs, self.overlap, self.stages);
            let (first, last) = (first.max(block.start), last.min(block.end - 1));
            if first > last {
                continue;
            }
            let rate = self.rates.0 + step * n as f32;
            features::indices(self.layout, &sample.position(), &mut scratch);
            for slot in &mut scratch {
                *slot = self.layout.canonical[*slot as usize];
            }
            for stage in first..=last {
                let base = (stage - block.start) * len;
                let error = sample.label
                    - scratch
                        .iter()
                        .map(|&i| weights[base + i as usize])
                        .sum::<f32>();
                for &i in &scratch {
                    let slot = base + i as usize;
                    let w = &mut weights[slot];
                    let gradient = error - self.l2 * *w;
                    *w += match self.optimizer {
                        Optimizer::Sgd => rate * gradient,
                        Optimizer::Adam => moments[slot].step(gradient, rate),
                    };
                }
            }
        }
    }
}

/// A small deterministic generator for shuffling (SplitMix64).
struct Shuffler(u64);

impl Shuffler {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        iago_core::game::mix64(self.0)
    }

    fn shuffle(&mut self, order: &mut [u32]) {
        for i in (1..order.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
    }
}

/// Fits the weights, calling `progress(epoch, train rmse, test rmse, seconds)` after each
/// epoch; returns the trainer with the weights of the best held-out epoch's end.
pub fn fit(
    mut trainer: Trainer,
    data: &Dataset,
    config: &TrainConfig,
    progress: &mut dyn FnMut(usize, f64, f64, f64),
) -> Trainer {
    let start = Instant::now();
    let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
    let mut shuffler = Shuffler(config.seed);
    let mut best: Option<(f64, Vec<f32>)> = None;
    for epoch in 0..config.epochs {
        shuffler.shuffle(&mut order);
        // The rate falls linearly to zero over the whole fit, sample by sample: the
        // last steps are too small to leave the weights where the last few noisy labels
        // pushed them (see crates/core/src/othello/eval/README.md).
        let rate_at = |e: usize| config.learning_rate * (1.0 - e as f32 / config.epochs as f32);
        let rates = (rate_at(epoch), rate_at(epoch + 1));
        trainer.epoch(
            &data.train,
            &order,
            rates,
            config.l2,
            config.stage_overlap,
            config.optimizer,
        );
        // Measuring on the whole training set doubles the cost: a fixed tenth will do.
        let probe: Vec<Sample> = data.train.iter().step_by(10).copied().collect();
        let train = trainer.errors(&probe).overall();
        let test = trainer.errors(&data.test).overall();
        progress(epoch + 1, train, test, start.elapsed().as_secs_f64());
        // Without held-out positions there is no best epoch: the last one's weights stay.
        if !data.test.is_empty() && best.as_ref().is_none_or(|(b, _)| test < *b) {
            best = Some((test, trainer.weights.clone()));
        }
    }
    if let Some((_, weights)) = best {
        trainer.weights = weights;
    }
    trainer
}

#[cfg(test)]
mod tests {
    use super::*;
    use iago_core::game::Game;

    /// A synthetic set: the label is the side to move's corner count difference times 8.
    fn corner_samples() -> Vec<Sample> {
        let mut out = Vec::new();
        let mut shuffler = Shuffler(7);
        for _ in 0..400 {
            let mut pos = Position::start();
            for _ in 0..(shuffler.next() % 50) {
                let moves = pos.legal_moves();
                let moves = moves.as_ref();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[(shuffler.next() % moves.len() as u64) as usize]);
            }
            let corners = |b: u64| (b & iago_core::othello::bitboard::CORNERS).count_ones() as i32;
            out.push(Sample {
                player: pos.player,
                opponent: pos.opponent,
                label: (8 * (corners(pos.player) - corners(pos.opponent))) as f32,
                exact: false,
            });
        }
        out
    }

    #[test]
    fn threads_change_no_weight_and_no_error() {
        let samples = corner_samples();
        let order: Vec<u32> = (0..samples.len() as u32).rev().collect();
        for optimizer in [Optimizer::Sgd, Optimizer::Adam] {
            let run = |threads: usize| {
                let mut trainer = Trainer::new(30);
                trainer.set_threads(threads);
                for _ in 0..2 {
                    trainer.epoch(&samples, &order, (0.01, 0.005), 0.0005, 3, optimizer);
                }
                let errors = trainer.errors(&samples);
                (trainer.weights, errors.rmse, errors.count)
            };
            let one = run(1);
            assert!(one.0.iter().any(|&w| w != 0.0), "the fit moved");
            for threads in [2, 3, 7, 64] {
                assert!(run(threads) == one, "{optimizer:?} on {threads} threads");
            }
        }
        // The stages are shared out: runs of consecutive stages covering all of them.
        let trainer = Trainer::new(30);
        for threads in [3, 64] {
            let blocks = trainer.stage_blocks(&samples, 3, threads);
            assert!(
                blocks.len() > 1 && blocks.len() <= threads.min(30),
                "{blocks:?}"
            );
            assert_eq!(blocks[0].start, 0);
            assert_eq!(blocks.last().unwrap().end, 30);
            assert!(blocks.iter().all(|b| !b.is_empty()), "{blocks:?}");
            assert!(
                blocks.windows(2).all(|w| w[0].end == w[1].start),
                "{blocks:?}"
            );
        }
    }

    /// The training error before and after a 6-epoch fit of the corner target with
    /// `optimizer` at `rate`.
    fn fit_corner_target(optimizer: Optimizer, rate: f32) -> (f64, f64) {
        let samples = corner_samples();
        let data = Dataset {
            train: samples[..300].to_vec(),
            test: samples[300..].to_vec(),
            ..Dataset::default()
        };
        let initial = Trainer::new(features::STAGES).errors(&data.train).overall();
        let config = TrainConfig {
            epochs: 6,
            learning_rate: rate,
            optimizer,
            ..TrainConfig::default()
        };
        let mut trainer = fit(
            Trainer::new(features::STAGES),
            &data,
            &config,
            &mut |_, _, _, _| {},
        );
        (initial, trainer.errors(&data.train).overall())
    }

    #[test]
    fn fitting_reduces_the_error_on_a_learnable_target() {
        let (initial, after) = fit_corner_target(Optimizer::Sgd, 0.01);
        assert!(initial > 1.0, "the target is not trivial: {initial}");
        assert!(after < initial * 0.5, "training error {after} vs {initial}");
    }

    #[test]
    fn adam_fits_the_learnable_target_too() {
        let (initial, after) = fit_corner_target(Optimizer::Adam, 0.05);
        assert!(after < initial * 0.5, "training error {after} vs {initial}");
    }

    #[test]
    fn adam_moves_a_rarely_seen_weight_as_far_as_a_common_one() {
        // One sample seen once: plain SGD moves each of its weights by rate * error,
        // Adam by about its rate whatever the error's size.
        let sample = corner_samples()[5];
        let sample = Sample {
            label: 1.0,
            ..sample
        };
        let moved = |optimizer: Optimizer, rate: f32| {
            let mut trainer = Trainer::new(features::STAGES);
            trainer.epoch(&[sample], &[0], (rate, rate), 0.0, 0, optimizer);
            let (slots, _) = trainer.slots(&sample);
            let slot = slots[0];
            // Placements with the same configuration share a weight, which moves once
            // for each.
            let times = slots.iter().filter(|&&s| s == slot).count() as f32;
            trainer.weights[slot as usize] / times
        };
        let sgd = moved(Optimizer::Sgd, 0.001);
        let adam = moved(Optimizer::Adam, 0.05);
        assert!((sgd - 0.001).abs() < 1e-6, "sgd moved {sgd}");
        assert!((adam - 0.05).abs() < 1e-3, "adam moved {adam}");
    }

    #[test]
    fn an_overlapping_stage_learns_from_its_neighbours_positions() {
        // Positions of 20 to 23 discs (stage 4) only; stage 5 starts at 24 discs.
        let samples: Vec<Sample> = corner_samples()
            .into_iter()
            .filter(|s| features::stage(&s.position()) == 4)
            .collect();
        assert!(samples.len() > 5, "{} samples", samples.len());
        let order: Vec<u32> = (0..samples.len() as u32).collect();
        let len = features::layout().stage_len as usize;
        let stage_weights = |overlap: u32, stage: usize| {
            let mut trainer = Trainer::new(features::STAGES);
            trainer.epoch(&samples, &order, (0.01, 0.01), 0.0, overlap, Optimizer::Sgd);
            trainer.weights[stage * len..(stage + 1) * len]
                .iter()
                .filter(|w| **w != 0.0)
                .count()
        };
        assert!(stage_weights(0, 4) > 0);
        assert_eq!(stage_weights(0, 5), 0, "no overlap: stage 5 untouched");
        assert_eq!(stage_weights(0, 3), 0, "no overlap: stage 3 untouched");
        assert!(
            stage_weights(4, 5) > 0,
            "20-23 discs are within 4 of stage 5"
        );
        assert!(stage_weights(4, 3) > 0, "and of stage 3");
        assert_eq!(stage_weights(4, 6), 0, "but not of stage 6 (28 discs on)");
    }

    #[test]
    fn label_modes_agree_before_the_theoretical_depth() {
        for labels in [Labels::Split, Labels::Theoretical, Labels::Blend] {
            assert_eq!(labels.black_label(30, 24, 6, -4), 6);
            assert_eq!(labels.black_label(24, 24, 6, -4), 6);
            assert_eq!(labels.black_label(10, 0, 6, -4), -4);
        }
        assert_eq!(Labels::Split.black_label(12, 24, 6, -4), -4);
        assert_eq!(Labels::Theoretical.black_label(12, 24, 6, -4), 6);
        assert_eq!(Labels::Blend.black_label(12, 24, 6, -4), 1);
        assert_eq!(Labels::Blend.black_label(0, 24, 6, -4), -4);
    }

    #[test]
    fn wthor_positions_are_labelled_for_the_side_to_move() {
        use iago_core::othello::wthor::{WthorGame, encode_wthor};
        // A short legal game: Black f5, White f6, Black e6, White f4; Black 40 discs,
        // theoretical 36.
        let start = Position::start();
        let mut moves = Vec::new();
        let mut pos = start;
        for name in ["f5", "f6", "e6", "f4"] {
            let mv = pos.parse_move(name).unwrap();
            pos = pos.play(mv);
            moves.push(mv);
        }
        let game = WthorGame {
            moves,
            black_discs: 40,
            theoretical_black: 36,
            year: 2000,
        };
        let bytes = encode_wthor(&[game], 2000).unwrap();
        let dir = std::env::temp_dir().join(format!("iago-train-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut bytes = bytes;
        bytes[14] = 24;
        std::fs::write(dir.join("WTH_2000.wtb"), &bytes).unwrap();
        let data = load_wthor(&dir, &TrainConfig::default()).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(data.games, 1);
        // All positions have more than 24 empties: the theoretical +8 for Black, -8 for
        // White, alternating from Black's first move.
        let labels: Vec<f32> = data.train.iter().map(|s| s.label).collect();
        assert_eq!(labels, vec![8.0, -8.0, 8.0, -8.0]);
    }

    #[test]
    fn a_share_of_the_training_games_keeps_the_same_held_out_games() {
        use crate::corpus::records::{first_move_game, write};
        let game = first_move_game();
        let per_game = game.replay().unwrap().len();
        let path = std::env::temp_dir().join(format!("iago-share-test-{}", std::process::id()));
        write(&path, &vec![game; 30]).unwrap();
        let all = load_games(&path, 10, 1).unwrap();
        let third = load_games(&path, 10, 3).unwrap();
        std::fs::remove_file(&path).ok();
        // Games 10, 20 and 30 are held out in both; of the other 27, every third trains.
        assert_eq!(all.test.len(), 3 * per_game);
        assert_eq!(third.test, all.test);
        assert_eq!(all.train.len(), 27 * per_game);
        assert_eq!(third.train.len(), 9 * per_game);
    }
}
