//! `iago openings`: makes a balanced opening set for matches (see `arena::openings`).

use clap::Parser;

use super::args::{self, EngineOptions, Flags, Refusal, ranged};
use super::out::{Failure, out};
use iago_arena::openings::{BalanceSettings, format_balanced, generate_balanced};
use iago_core::options::{self, Range, Refused};
use iago_core::othello::eval::othello_evaluator;

/// Prints an opening file: every position N moves from the start (one per symmetry class)
/// whose search score at depth D is within DISCS of zero, as move sequences with their
/// score, in a fixed pseudo-random order; --count keeps the first K of them.
#[derive(Parser, Debug)]
#[command(
    name = "iago openings",
    override_usage = "iago openings [--plies N] [--depth D] [--max-eval DISCS] [--eval NAME] [--count K]"
)]
struct Options {
    /// Moves from the start
    #[arg(long, value_name = "N", default_value = "8", value_parser = ranged(&PLIES))]
    plies: u32,
    /// Depth of the search that scores each position
    #[arg(long, value_name = "D", default_value = "6", value_parser = ranged(&options::DEPTH))]
    depth: u32,
    /// Largest absolute score kept, in discs
    #[arg(long, value_name = "DISCS", default_value = "1", value_parser = discs)]
    max_eval: f64,
    #[command(flatten)]
    engine: EngineOptions<EvalFlag>,
    /// Keep the first K openings (default: all)
    #[arg(long, value_name = "K", value_parser = ranged(&COUNT))]
    count: Option<usize>,
}

#[derive(Clone, Debug, Default)]
struct EvalFlag;

impl Flags for EvalFlag {
    const FLAGS: &'static [&'static str] = &["--eval"];
}

fn discs(text: &str) -> Result<f64, Refusal> {
    match args::number::<f64>(text)? {
        discs if (0.0..=64.0).contains(&discs) => Ok(discs),
        _ => Err(Refusal::Refused(Refused::OutOfRange(
            "max-eval must be between 0 and 64 discs".into(),
        ))),
    }
}

/// Plies of an opening.
const PLIES: Range<u32> = Range {
    name: "plies",
    default: Some(8),
    min: 1,
    max: 20,
    unit: "",
};

/// Openings kept.
const COUNT: Range<usize> = Range {
    name: "count",
    default: None,
    min: 1,
    max: usize::MAX,
    unit: "",
};

/// Runs `iago openings` with `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = args::parse::<Options>("openings", args)? else {
        return Ok(());
    };
    let settings = BalanceSettings {
        plies: options.plies,
        depth: options.depth,
        max_discs: options.max_eval,
    };
    let evaluator = options.engine.settings.eval.as_deref().unwrap_or("default");
    let mut openings = generate_balanced(&settings, othello_evaluator(evaluator)?);
    let mut command = format!(
        "iago openings --plies {} --depth {} --max-eval {} --eval {evaluator}",
        settings.plies, settings.depth, settings.max_discs
    );
    if let Some(count) = options.count {
        openings.truncate(count);
        command.push_str(&format!(" --count {count}"));
    }
    out!("{}", format_balanced(&openings, &command, evaluator))?;
    Ok(())
}
