//! `iago openings`: makes a balanced opening set for matches (see `arena::openings`).

use super::args::Args;
use super::out::{Failure, out, outln};
use iago_arena::openings::{BalanceSettings, format_balanced, generate_balanced};
use iago_core::eval::othello_evaluator;
use iago_core::options::{self, Range};

const HELP: &str =
    "usage: iago openings [--plies N] [--depth D] [--max-eval DISCS] [--eval NAME] [--count K]

Prints an opening file: every position N moves from the start (one per symmetry class)
whose search score at depth D is within DISCS of zero, as move sequences with their score,
in a fixed pseudo-random order; --count keeps the first K of them.
Defaults: --plies 8 --depth 6 --max-eval 1 --eval default, all of them.";

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
    let mut settings = BalanceSettings {
        plies: 8,
        depth: 6,
        max_discs: 1.0,
    };
    let mut evaluator = "default".to_string();
    let mut count = None;
    let mut args = Args::new("openings", args);
    while let Some(option) = args.next() {
        match option {
            "--help" | "-h" => {
                outln!("{HELP}")?;
                return Ok(());
            }
            "--plies" => settings.plies = args.ranged(option, &PLIES)?,
            "--depth" => settings.depth = args.ranged(option, &options::DEPTH)?,
            "--max-eval" => {
                let text = args.value(option)?;
                settings.max_discs = match text.parse::<f64>() {
                    Ok(discs) if (0.0..=64.0).contains(&discs) => discs,
                    Ok(_) => {
                        return Err(format!(
                            "openings: --max-eval {text}: max-eval must be between 0 and 64 discs"
                        )
                        .into());
                    }
                    Err(_) => {
                        return Err(format!(
                            "openings: --max-eval: {text:?} is not a valid number"
                        )
                        .into());
                    }
                };
            }
            "--eval" => evaluator = args.value(option)?,
            "--count" => count = Some(args.ranged(option, &COUNT)?),
            other => return Err(args.unknown(other).into()),
        }
    }
    let mut openings = generate_balanced(&settings, othello_evaluator(&evaluator)?);
    let mut command = format!(
        "iago openings --plies {} --depth {} --max-eval {} --eval {evaluator}",
        settings.plies, settings.depth, settings.max_discs
    );
    if let Some(count) = count {
        openings.truncate(count);
        command.push_str(&format!(" --count {count}"));
    }
    out!("{}", format_balanced(&openings, &command, &evaluator))?;
    Ok(())
}
