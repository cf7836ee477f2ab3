//! `iago train`: fits the pattern weights on WTHOR games, scored positions and self-play
//! games (see `iago_training::train`) and writes the weight file that the build embeds.

use super::out::{Failure, outln};
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;

use super::args::{self, EngineOptions, Flags, number};
use iago_core::game::Evaluator;
use iago_core::othello::eval::features::{MAX_STAGES, STAGES};
use iago_core::othello::eval::pattern::{PatternEval, PatternWeights};
use iago_core::othello::{DISC, Position};
use iago_training::train::{
    Dataset, Labels, Optimizer, Sample, StageErrors, TrainConfig, Trainer, fit, load_games,
    load_samples, load_wthor,
};

/// Fits the pattern evaluation's weights and writes them to FILE (required; the next
/// build embeds crates/core/src/othello/eval/weights/patterns.bin, so name that file to replace
/// the shipped weights). A fit of no positions, or one whose error is not a number,
/// writes nothing and fails. The positions come from the WTHOR games in DIR, labelled
/// with the games' scores, from files of positions scored by iago's searches (`iago
/// label`), and from self-play game records (`iago selfplay`), every position labelled
/// with its game's final result; --samples, --games and --test-games may be repeated.
/// Prints the error per epoch and per stage, in discs. The report counts the distinct
/// self-play games and positions: a game played twice trains once. The weights are the
/// same, bit for bit, on any number of threads (default: the number of cores, each
/// taking a run of stages).
#[derive(Parser, Debug)]
#[command(
    name = "iago train",
    override_usage = "iago train [--wthor DIR] [--samples FILE ...] [--games FILE ...] [--test-games FILE ...] [--init WEIGHTS] --out FILE [OPTIONS]"
)]
struct TrainArgs {
    /// WTHOR games, labelled with their scores
    #[arg(long, value_name = "DIR")]
    wthor: Option<PathBuf>,
    /// The weight file to write (required)
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Positions scored by `iago label`
    #[arg(long, value_name = "FILE")]
    samples: Vec<PathBuf>,
    /// Self-play game records
    #[arg(long, value_name = "FILE")]
    games: Vec<PathBuf>,
    /// Self-play game records held out whole
    #[arg(long, value_name = "FILE")]
    test_games: Vec<PathBuf>,
    /// Start from a weight file (`embedded` for the weights in the binary) instead of
    /// zeros
    #[arg(long, value_name = "WEIGHTS")]
    init: Option<String>,
    /// Blends into each scored position's label what its game says of it (result or
    /// theoretical score) with weight W, 0 to 1
    #[arg(long, value_name = "W", default_value = "0", value_parser = number::<f32>)]
    game_weight: f32,
    /// Positions of every N-th game are used
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    game_step: Option<usize>,
    /// Every N-th used game or record is held out for testing (default 10)
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    holdout: Option<usize>,
    /// Of the self-play games not held out, every N-th trains: a fit on a share of the
    /// games that tests on the same held-out games as the fit on all of them (learning
    /// curves)
    #[arg(long, value_name = "N", default_value = "1", value_parser = number::<usize>)]
    train_every: usize,
    /// Passes over the training positions (default 20)
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    epochs: Option<usize>,
    /// Learning rate, more than 0, at most 1, falling linearly to 0 by the end (default
    /// 0.0015)
    #[arg(long, value_name = "R", value_parser = number::<f32>)]
    rate: Option<f32>,
    /// L2 regularisation, 0 to 1 (default 0.0005)
    #[arg(long, value_name = "X", value_parser = number::<f32>)]
    l2: Option<f32>,
    /// A position also trains the stages within D discs of its own (each stage covers 4
    /// disc counts), so that rare configurations borrow from the neighbours (default 6)
    #[arg(long, value_name = "D", value_parser = number::<u32>)]
    stage_overlap: Option<u32>,
    /// Weight sets, 1 to 60, the 60 moves spread evenly over them; with --init, the
    /// initial weights' count
    #[arg(long, value_name = "S", default_value_t = STAGES, value_parser = number::<usize>)]
    stages: usize,
    /// Seed of the shuffles (default 1)
    #[arg(long, value_name = "N", value_parser = number::<u64>)]
    seed: Option<u64>,
    /// Labels (crates/core/src/othello/eval/README.md): split (the game's theoretical score while
    /// at least its depth of empties remain, the final result after), theoretical
    /// (everywhere), blend (sliding from the theoretical score to the final result over
    /// the last moves)
    #[arg(long, value_name = "MODE", default_value = "split")]
    labels: String,
    /// sgd (plain gradient steps, `--rate` times the error) or adam (each weight's steps
    /// scaled by its own gradients, about `--rate` discs a step; rare configurations
    /// learn as fast as common ones)
    #[arg(long, value_name = "sgd|adam")]
    optimizer: Option<String>,
    #[command(flatten)]
    engine: EngineOptions<ThreadsFlag>,
}

#[derive(Clone, Debug, Default)]
struct ThreadsFlag;

impl Flags for ThreadsFlag {
    const FLAGS: &'static [&'static str] = &["--threads"];
}

/// What a fit is told, checked.
struct Fit {
    args: TrainArgs,
    config: TrainConfig,
    out: PathBuf,
    threads: usize,
}

/// Runs `iago train` with `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(given) = args::parse::<TrainArgs>("train", args)? else {
        return Ok(());
    };
    let fit_options = checked(given)?;
    let start = Instant::now();
    let (data, selfplay_test) = read_data(&fit_options)?;
    if fit_options.args.init.is_none() && fit_options.config.epochs == 0 {
        // --epochs 0 with --init measures given weights on the held-out positions.
        return Err("train: --epochs 0 without --init fits nothing: nothing written".into());
    }
    if data.train.is_empty() && fit_options.config.epochs > 0 {
        return Err(format!(
            "train: no training positions ({} games read): nothing to fit, nothing written",
            data.games
        )
        .into());
    }
    let (mut trainer, data, train_errors) = fitted(&fit_options, data)?;
    let weights = PatternWeights::from_values(trainer.stages(), &trainer.values())?;
    let bytes = weights.encode();
    iago_core::files::write(&fit_options.out, &bytes).map_err(String::from)?;
    // The held-out errors of the stored (rounded) weights, through the evaluator itself.
    let stored: &'static PatternWeights = Box::leak(Box::new(weights));
    let eval = PatternEval::with_weights(stored);
    let test_error = stage_table(&mut trainer, &data, &train_errors, &eval, stored)?;
    if !selfplay_test.is_empty() {
        selfplay_errors(&eval, &selfplay_test)?;
    }
    outln!(
        "overall: train {:.3} held-out {} discs; wrote {} ({} bytes); total {:.0} s",
        train_errors.overall(),
        rmse_text(data.test.len(), test_error),
        fit_options.out.display(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// The fit the options ask for, every value checked, and the output checked against the
/// inputs.
fn checked(args: TrainArgs) -> Result<Fit, String> {
    let mut config = TrainConfig::default();
    config.game_step = args.game_step.unwrap_or(config.game_step);
    config.holdout_every = args.holdout.unwrap_or(config.holdout_every);
    config.epochs = args.epochs.unwrap_or(config.epochs);
    config.learning_rate = args.rate.unwrap_or(config.learning_rate);
    config.l2 = args.l2.unwrap_or(config.l2);
    config.stage_overlap = args.stage_overlap.unwrap_or(config.stage_overlap);
    config.seed = args.seed.unwrap_or(config.seed);
    if let Some(name) = &args.optimizer {
        config.optimizer = Optimizer::by_name(name)
            .ok_or_else(|| format!("--optimizer: {name:?} is not sgd or adam"))?;
    }
    config.labels = Labels::by_name(&args.labels).ok_or_else(|| {
        format!(
            "--labels: {:?} is not split, theoretical or blend",
            args.labels
        )
    })?;
    if !(1..=MAX_STAGES).contains(&args.stages) {
        return Err(format!(
            "train: --stages must be between 1 and {MAX_STAGES}"
        ));
    }
    if !(0.0..=1.0).contains(&args.game_weight) {
        return Err("train: --game-weight must be between 0 and 1".into());
    }
    if args.wthor.is_none()
        && args.samples.is_empty()
        && args.games.is_empty()
        && args.test_games.is_empty()
    {
        return Err(
            "train: give --wthor DIR, --samples FILE or --games FILE (try `iago train --help`)"
                .into(),
        );
    }
    if config.game_step == 0 || config.holdout_every < 2 || args.train_every == 0 {
        return Err(
            "train: --game-step and --train-every must be at least 1 and --holdout at least 2"
                .into(),
        );
    }
    let rate = config.learning_rate;
    if !(rate > 0.0 && rate <= 1.0 && (0.0..=1.0).contains(&config.l2)) {
        return Err("train: --rate must be more than 0 and at most 1, --l2 between 0 and 1".into());
    }
    let out = args.out.clone().ok_or(
        "train: --out FILE is required (crates/core/src/othello/eval/weights/patterns.bin to \
         replace the shipped weights)",
    )?;
    let mut inputs: Vec<PathBuf> = (args.samples.iter())
        .chain(&args.games)
        .chain(&args.test_games)
        .cloned()
        .collect();
    inputs.extend(
        args.wthor
            .iter()
            .flat_map(|dir| super::args::wthor_files(dir)),
    );
    inputs.extend(
        (args.init.iter())
            .filter(|name| *name != "embedded")
            .map(PathBuf::from),
    );
    iago_core::files::refuse_input_as_output("train", &out, inputs.iter().map(PathBuf::as_path))?;
    let threads = (args.engine.settings.threads)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    Ok(Fit {
        args,
        config,
        out,
        threads,
    })
}

/// Every input's positions, each file's counts printed; with the held-out positions of
/// the self-play games apart, for their own errors.
fn read_data(fit: &Fit) -> Result<(Dataset, Vec<Sample>), Failure> {
    let (args, config) = (&fit.args, &fit.config);
    let start = Instant::now();
    let mut data = Dataset::default();
    if let Some(wthor) = &args.wthor {
        let games = load_wthor(wthor, config)?;
        outln!(
            "data: {} games from {}, {} training positions, {} held out ({:.1} s)",
            games.games,
            wthor.display(),
            games.train.len(),
            games.test.len(),
            start.elapsed().as_secs_f64()
        )?;
        data.extend(games);
    }
    for path in &args.samples {
        let scored = load_samples(path, config.holdout_every, args.game_weight)?;
        outln!(
            "data: {} training positions and {} held out from {}",
            scored.train.len(),
            scored.test.len(),
            path.display()
        )?;
        data.extend(scored);
    }
    let mut selfplay_test: Vec<Sample> = Vec::new();
    for path in &args.games {
        let played = load_games(path, config.holdout_every, args.train_every)?;
        outln!(
            "data: {} games, {} training positions and {} held out from {}",
            played.games,
            played.train.len(),
            played.test.len(),
            path.display()
        )?;
        selfplay_test.extend_from_slice(&played.test);
        data.extend(played);
    }
    for path in &args.test_games {
        let mut played = load_games(path, usize::MAX, 1)?;
        played.test.append(&mut played.train);
        outln!(
            "data: {} games, {} positions held out from {}",
            played.games,
            played.test.len(),
            path.display()
        )?;
        selfplay_test.extend_from_slice(&played.test);
        data.extend(played);
    }
    Ok((data, selfplay_test))
}

/// The fit from the initial weights (zeros, `--init`), its progress printed; an error
/// where it diverged.
fn fitted(
    fit_options: &Fit,
    mut data: Dataset,
) -> Result<(Trainer, Dataset, StageErrors), Failure> {
    let distinct = std::mem::take(&mut data.distinct);
    if !distinct.is_empty() {
        outln!("self-play data: {}", distinct.counts().text())?;
    }
    let config = &fit_options.config;
    outln!("config: {config:?}")?;
    let mut initial = match fit_options.args.init.as_deref() {
        None => Trainer::new(fit_options.args.stages),
        Some("embedded") => Trainer::from_weights(PatternWeights::embedded()?),
        Some(path) => {
            let bytes =
                iago_core::files::read(std::path::Path::new(path), iago_core::files::WEIGHTS)?;
            Trainer::from_weights(
                &PatternWeights::decode(&bytes).map_err(|e| format!("{path}: {e}"))?,
            )
        }
    };
    initial.set_threads(fit_options.threads);
    log::info!("train: {} threads", fit_options.threads);
    let mut trainer = fit(
        initial,
        &data,
        config,
        &mut |epoch, train, test, seconds| {
            // Progress only: with stdout closed the fit goes on, and the weights are
            // written before the next print ends the command.
            let _ = outln!(
                "epoch {epoch:2}: rmse train {train:.3} held-out {test:.3} discs ({seconds:.0} s)"
            );
        },
    );
    let train_errors = trainer.errors(&data.train);
    let error = train_errors.overall();
    if !error.is_finite() || trainer.values().iter().any(|v| !v.is_finite()) {
        return Err(format!(
            "train: the fit diverged (its error is {error}): nothing written; try a smaller \
             --rate or --l2"
        )
        .into());
    }
    Ok((trainer, data, train_errors))
}

/// The errors per stage: of the fit on the training and held-out positions, and of the
/// stored weights on the held-out ones. Returns the overall held-out error.
fn stage_table(
    trainer: &mut Trainer,
    data: &Dataset,
    train_errors: &StageErrors,
    eval: &PatternEval,
    stored: &PatternWeights,
) -> Result<f64, Failure> {
    let test_errors = trainer.errors(&data.test);
    let mut quantised = vec![(0f64, 0usize); trainer.stages()];
    for sample in &data.test {
        let pos = sample_position(sample);
        let stage = stored.stage_of(&pos);
        let error = f64::from(eval.evaluate(&pos)) / f64::from(DISC) - f64::from(sample.label);
        quantised[stage].0 += error * error;
        quantised[stage].1 += 1;
    }
    outln!("stage  discs   train-n  train-rmse  held-n  held-rmse  stored-rmse")?;
    for (stage, &(sum, n)) in quantised.iter().enumerate() {
        let discs: Vec<u32> = (4..=64)
            .filter(|&d| trainer.stage_of_discs(d) == stage)
            .collect();
        let (low, high) = (discs.first().copied(), discs.last().copied());
        let (low, high) = (low.unwrap_or(0), high.unwrap_or(0));
        outln!(
            "{stage:5}  {low:2}-{high:2}  {:8}  {:10.3}  {:6}  {:9.3}  {:11.3}",
            train_errors.count[stage],
            train_errors.rmse[stage],
            test_errors.count[stage],
            test_errors.rmse[stage],
            (sum / n.max(1) as f64).sqrt()
        )?;
    }
    Ok(test_errors.overall())
}

/// The stored weights' errors on the held-out self-play positions: all, and the exact
/// ones at 13-16 empties (where every file of the corpus is solved) and at 17-20 (only
/// where a file was solved from further: the test file, from 20).
fn selfplay_errors(eval: &PatternEval, selfplay_test: &[Sample]) -> Result<(), Failure> {
    let exact_at = |empties: std::ops::RangeInclusive<u32>| -> Vec<Sample> {
        (selfplay_test.iter())
            .filter(|s| s.exact && empties.contains(&(64 - (s.player | s.opponent).count_ones())))
            .copied()
            .collect()
    };
    let (n, rmse) = stored_rmse(eval, selfplay_test);
    let (near_n, near_rmse) = stored_rmse(eval, &exact_at(13..=16));
    let (far_n, far_rmse) = stored_rmse(eval, &exact_at(17..=20));
    outln!(
        "held-out self-play positions: {n}, rmse {} discs; exact at 13-16 empties: \
         {near_n}, rmse {} discs; exact at 17-20 empties: {far_n}, rmse {} discs",
        rmse_text(n, rmse),
        rmse_text(near_n, near_rmse),
        rmse_text(far_n, far_rmse)
    )
}

/// A sample's position, Black to move (the samples are seen from the mover).
fn sample_position(sample: &Sample) -> Position {
    Position {
        player: sample.player,
        opponent: sample.opponent,
        side: iago_core::game::Color::Black,
    }
}

/// An RMSE in discs, `-` where there was nothing to measure.
fn rmse_text(n: usize, rmse: f64) -> String {
    if n == 0 {
        "-".to_string()
    } else {
        format!("{rmse:.3}")
    }
}

/// How many samples, and the RMSE (discs) of the evaluator on them.
fn stored_rmse(eval: &PatternEval, samples: &[Sample]) -> (usize, f64) {
    let sum: f64 = samples
        .iter()
        .map(|sample| {
            let pos = sample_position(sample);
            let error = f64::from(eval.evaluate(&pos)) / f64::from(DISC) - f64::from(sample.label);
            error * error
        })
        .sum();
    (samples.len(), (sum / samples.len().max(1) as f64).sqrt())
}
