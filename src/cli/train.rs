//! `iago train`: fits the pattern weights on WTHOR games (see `eval::train`) and writes
//! the weight file that the build embeds.

use super::out::{Failure, outln};
use std::path::PathBuf;
use std::time::Instant;

use super::args::Args;
use iago_core::eval::features::{MAX_STAGES, STAGES};
use iago_core::eval::pattern::{PatternEval, PatternWeights};
use iago_core::game::Evaluator;
use iago_core::othello::{DISC, Position};
use iago_training::train::{
    Dataset, Labels, Optimizer, Sample, TrainConfig, Trainer, fit, load_games, load_samples,
    load_wthor,
};

const HELP: &str =
    "usage: iago train [--wthor DIR] [--samples FILE ...] [--games FILE ...] [--test-games FILE ...]
                  [--init WEIGHTS] --out FILE
                  [--game-step N] [--holdout N] [--train-every N] [--epochs N] [--rate R] [--l2 X] [--stage-overlap D] [--seed N]
                  [--labels MODE] [--game-weight W] [--stages S] [--optimizer sgd|adam] [--threads T]

Fits the pattern evaluation's weights and writes them to FILE (required; the next build
embeds crates/core/src/eval/weights/patterns.bin, so name that file to replace the shipped
weights). A fit of no positions, or one whose error is not a number, writes nothing and
fails. The positions come from
the WTHOR games in DIR, labelled with the games' scores, and from files of positions
scored by iago's searches (`iago label`; --samples may be repeated), and from self-play
game records (`iago selfplay`; --games may be repeated), every position labelled with
its game's final result. --test-games files are held out whole. Positions of every
N-th game are used (--game-step, default 1), every --holdout-th used game or record
(default 10) is held out for testing. --train-every N: of the self-play games not held
out, every N-th trains (default 1, all): a fit on a share of the games that tests on the
same held-out games as the fit on all of them (learning curves). --init starts from a
weight file (`embedded` for the weights in the binary) instead of zeros. --game-weight W
(0 to 1, default 0) blends into each scored position's label what its game says of it
(result or theoretical score) with weight W. Prints the error per epoch and per stage, in discs.
Labels (src/eval/README.md): split (the game's theoretical score while at least its depth
of empties remain, the final result after), theoretical (everywhere), blend (sliding
from the theoretical score to the final result over the last moves).
--stage-overlap D: a position also trains the stages within D discs of its own (each
stage covers 4 disc counts), so that rare configurations borrow from the neighbours.
--optimizer: sgd (plain gradient steps, `--rate` times the error) or adam (each
weight's steps scaled by its own gradients, about `--rate` discs a step; rare
configurations learn as fast as common ones).
--stages S: weight sets, 1 to 60 (default 15), the 60 moves spread evenly over them;
with --init, the initial weights' count.
--threads T: threads for the fit (default: the number of cores), each taking a run of
stages; the weights are the same, bit for bit, on any number of threads.
Defaults: --labels split --epochs 20 --rate 0.0015 (falling linearly to 0 by the end;
more than 0, at most 1) --l2 0.0005 (0 to 1) --stage-overlap 6 --seed 1. The report
counts the distinct self-play games and positions: a game played twice trains once.";

/// Runs `iago train` with `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let mut config = TrainConfig::default();
    let mut wthor: Option<PathBuf> = None;
    let mut samples: Vec<PathBuf> = Vec::new();
    let mut games: Vec<PathBuf> = Vec::new();
    let mut test_games: Vec<PathBuf> = Vec::new();
    let mut init: Option<String> = None;
    let mut game_weight = 0.0f32;
    let mut stages = STAGES;
    let mut train_every = 1usize;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut out = None;
    let mut args = Args::new("train", args);
    while let Some(option) = args.next() {
        match option {
            "--help" | "-h" => {
                outln!("{HELP}")?;
                return Ok(());
            }
            "--wthor" => {
                wthor = Some(PathBuf::from(args.value("--wthor")?));
            }
            "--out" => out = Some(PathBuf::from(args.value("--out")?)),
            "--samples" => samples.push(PathBuf::from(args.value("--samples")?)),
            "--games" => games.push(PathBuf::from(args.value("--games")?)),
            "--test-games" => test_games.push(PathBuf::from(args.value("--test-games")?)),
            "--init" => init = Some(args.value("--init")?),
            "--game-weight" => game_weight = args.number("--game-weight")?,
            "--game-step" => config.game_step = args.number("--game-step")?,
            "--holdout" => config.holdout_every = args.number("--holdout")?,
            "--train-every" => train_every = args.number("--train-every")?,
            "--epochs" => config.epochs = args.number("--epochs")?,
            "--rate" => config.learning_rate = args.number("--rate")?,
            "--l2" => config.l2 = args.number("--l2")?,
            "--stage-overlap" => config.stage_overlap = args.number("--stage-overlap")?,
            "--stages" => stages = args.number("--stages")?,
            "--seed" => config.seed = args.number("--seed")?,
            "--threads" => threads = args.number("--threads")?,
            "--optimizer" => {
                let name = args.value("--optimizer")?;
                config.optimizer = Optimizer::by_name(&name)
                    .ok_or_else(|| format!("--optimizer: {name:?} is not sgd or adam"))?;
            }
            "--labels" => {
                let name = args.value("--labels")?;
                config.labels = Labels::by_name(&name).ok_or_else(|| {
                    format!("--labels: {name:?} is not split, theoretical or blend")
                })?;
            }
            other => return Err(args.unknown(other).into()),
        }
    }
    if !(1..=MAX_STAGES).contains(&stages) {
        return Err(format!("train: --stages must be between 1 and {MAX_STAGES}").into());
    }
    if !(0.0..=1.0).contains(&game_weight) {
        return Err("train: --game-weight must be between 0 and 1".into());
    }
    if wthor.is_none() && samples.is_empty() && games.is_empty() && test_games.is_empty() {
        return Err(
            format!("train: give --wthor DIR, --samples FILE or --games FILE\n{HELP}").into(),
        );
    }
    if config.game_step == 0 || config.holdout_every < 2 || train_every == 0 {
        return Err(
            "train: --game-step and --train-every must be at least 1 and --holdout at least 2"
                .into(),
        );
    }
    if !(1..=1024).contains(&threads) {
        return Err("train: --threads must be between 1 and 1024".into());
    }
    let rate = config.learning_rate;
    if !(rate > 0.0 && rate <= 1.0 && (0.0..=1.0).contains(&config.l2)) {
        return Err("train: --rate must be more than 0 and at most 1, --l2 between 0 and 1".into());
    }
    let out = out.ok_or(
        "train: --out FILE is required (crates/core/src/eval/weights/patterns.bin to \
         replace the shipped weights)",
    )?;
    let mut inputs: Vec<PathBuf> = samples
        .iter()
        .chain(&games)
        .chain(&test_games)
        .cloned()
        .collect();
    inputs.extend(wthor.iter().flat_map(|dir| super::args::wthor_files(dir)));
    inputs.extend(
        init.iter()
            .filter(|name| *name != "embedded")
            .map(PathBuf::from),
    );
    iago_core::files::refuse_input_as_output("train", &out, inputs.iter().map(PathBuf::as_path))?;
    let start = Instant::now();
    let mut data = Dataset::default();
    if let Some(wthor) = &wthor {
        let games = load_wthor(wthor, &config)?;
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
    for path in &samples {
        let scored = load_samples(path, config.holdout_every, game_weight)?;
        outln!(
            "data: {} training positions and {} held out from {}",
            scored.train.len(),
            scored.test.len(),
            path.display()
        )?;
        data.extend(scored);
    }
    // The held-out positions of self-play games, reported apart.
    let mut selfplay_test: Vec<Sample> = Vec::new();
    for path in &games {
        let played = load_games(path, config.holdout_every, train_every)?;
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
    for path in &test_games {
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
    // --epochs 0 with --init measures given weights on the held-out positions.
    if init.is_none() && config.epochs == 0 {
        return Err("train: --epochs 0 without --init fits nothing: nothing written".into());
    }
    if data.train.is_empty() && config.epochs > 0 {
        return Err(format!(
            "train: no training positions ({} games read): nothing to fit, nothing written",
            data.games
        )
        .into());
    }
    let distinct = std::mem::take(&mut data.distinct);
    if !distinct.is_empty() {
        outln!("self-play data: {}", distinct.counts().text())?;
    }
    outln!("config: {config:?}")?;
    let initial = match init.as_deref() {
        None => Trainer::new(stages),
        Some("embedded") => Trainer::from_weights(PatternWeights::embedded()?),
        Some(path) => {
            let bytes =
                iago_core::files::read(std::path::Path::new(path), iago_core::files::WEIGHTS)?;
            Trainer::from_weights(
                &PatternWeights::decode(&bytes).map_err(|e| format!("{path}: {e}"))?,
            )
        }
    };
    let mut initial = initial;
    initial.set_threads(threads);
    log::info!("train: {threads} threads");
    let mut trainer = fit(
        initial,
        &data,
        &config,
        &mut |epoch, train, test, seconds| {
            // Progress only: with stdout closed the fit goes on, and the weights are
            // written before the next print ends the command.
            let _ = outln!(
                "epoch {epoch:2}: rmse train {train:.3} held-out {test:.3} discs ({seconds:.0} s)"
            );
        },
    );
    let train_errors = trainer.errors(&data.train);
    let test_errors = trainer.errors(&data.test);
    let values = trainer.values();
    if !train_errors.overall().is_finite() || values.iter().any(|v| !v.is_finite()) {
        return Err(format!(
            "train: the fit diverged (its error is {}): nothing written; try a smaller --rate \
             or --l2",
            train_errors.overall()
        )
        .into());
    }
    let weights = PatternWeights::from_values(trainer.stages(), &values)?;
    let bytes = weights.encode();
    iago_core::files::write(&out, &bytes).map_err(String::from)?;
    // The held-out error of the stored (rounded) weights, through the evaluator itself.
    let stored: &'static PatternWeights = Box::leak(Box::new(weights));
    let eval = PatternEval::with_weights(stored);
    let mut quantised = vec![(0f64, 0usize); trainer.stages()];
    for sample in &data.test {
        let pos = Position {
            player: sample.player,
            opponent: sample.opponent,
            side: iago_core::game::Color::Black,
        };
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
    if !selfplay_test.is_empty() {
        let exact_at = |empties: std::ops::RangeInclusive<u32>| -> Vec<Sample> {
            selfplay_test
                .iter()
                .filter(|s| {
                    s.exact && empties.contains(&(64 - (s.player | s.opponent).count_ones()))
                })
                .copied()
                .collect()
        };
        let (n, rmse) = stored_rmse(&eval, &selfplay_test);
        // 13-16 empties: where every file of the corpus is solved; 17-20 only where a
        // file was solved from further (the test file, from 20).
        let (near_n, near_rmse) = stored_rmse(&eval, &exact_at(13..=16));
        let (far_n, far_rmse) = stored_rmse(&eval, &exact_at(17..=20));
        outln!(
            "held-out self-play positions: {n}, rmse {} discs; exact at 13-16 empties: \
             {near_n}, rmse {} discs; exact at 17-20 empties: {far_n}, rmse {} discs",
            rmse_text(n, rmse),
            rmse_text(near_n, near_rmse),
            rmse_text(far_n, far_rmse)
        )?;
    }
    outln!(
        "overall: train {:.3} held-out {} discs; wrote {} ({} bytes); total {:.0} s",
        train_errors.overall(),
        rmse_text(data.test.len(), test_errors.overall()),
        out.display(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
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
            let pos = Position {
                player: sample.player,
                opponent: sample.opponent,
                side: iago_core::game::Color::Black,
            };
            let error = f64::from(eval.evaluate(&pos)) / f64::from(DISC) - f64::from(sample.label);
            error * error
        })
        .sum();
    (samples.len(), (sum / samples.len().max(1) as f64).sqrt())
}
