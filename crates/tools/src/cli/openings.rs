//! `iago openings`: makes a balanced opening set for matches (see `arena::openings`).

use super::args::Args;
use super::out::{Failure, out, outln};
use crate::arena::openings::{BalanceSettings, format_balanced, generate_balanced};
use iago_core::eval::othello_evaluator;

const HELP: &str =
    "usage: iago openings [--plies N] [--depth D] [--max-eval DISCS] [--eval NAME] [--count K]

Prints an opening file: every position N moves from the start (one per symmetry class)
whose search score at depth D is within DISCS of zero, as move sequences with their score,
in a fixed pseudo-random order; --count keeps the first K of them.
Defaults: --plies 8 --depth 6 --max-eval 1 --eval default, all of them.";

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
        let bad =
            |name: &str, text: &str| format!("openings: {name}: {text:?} is not a valid number");
        match option {
            "--help" | "-h" => {
                outln!("{HELP}")?;
                return Ok(());
            }
            "--plies" => {
                let text = args.value("--plies")?;
                settings.plies = text
                    .parse()
                    .ok()
                    .filter(|p| (1..=20).contains(p))
                    .ok_or_else(|| bad("--plies (1..20)", &text))?;
            }
            "--depth" => {
                let text = args.value("--depth")?;
                settings.depth = text
                    .parse()
                    .ok()
                    .filter(|d| *d >= 1)
                    .ok_or_else(|| bad("--depth", &text))?;
            }
            "--max-eval" => {
                let text = args.value("--max-eval")?;
                settings.max_discs = text
                    .parse()
                    .ok()
                    .filter(|d: &f64| d.is_finite())
                    .ok_or_else(|| bad("--max-eval", &text))?;
            }
            "--eval" => evaluator = args.value("--eval")?,
            "--count" => {
                let text = args.value("--count")?;
                count = Some(
                    text.parse::<usize>()
                        .ok()
                        .filter(|c| *c >= 1)
                        .ok_or_else(|| bad("--count", &text))?,
                );
            }
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
