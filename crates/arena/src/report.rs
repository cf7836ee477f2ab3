//! Text for people: the live progress line and the final tables of a match.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::driver::FaultKind;
use crate::game::SEARCHED_MOVE;
use crate::record::format_clock;
use crate::runner::{FORFEIT, MatchSummary, PLY_LIMIT};
use crate::stats::{SprtVerdict, Tally};

/// `[ 37/100] a vs b 30-2-5 (83.8%) Elo +281 ±150 LLR 1.23 (-2.94, 2.94) forfeits 1`
pub fn progress_line(summary: &MatchSummary) -> String {
    let mut line = format!(
        "[{:>width$}/{}]",
        summary.games_played,
        summary.games_scheduled,
        width = summary.games_scheduled.to_string().len()
    );
    if let [pairing] = summary.pairings.as_slice() {
        let tally = pairing.tally;
        let _ = write!(
            line,
            " {} vs {} {}-{}-{} ({}) Elo {}",
            summary.names[pairing.first],
            summary.names[pairing.second],
            tally.wins,
            tally.draws,
            tally.losses,
            percent(tally.score()),
            elo_text(&tally)
        );
    } else {
        for (index, stats) in summary.engines.iter().enumerate() {
            let _ = write!(
                line,
                " {} {:.1}/{}",
                summary.names[index], stats.points, stats.games
            );
        }
    }
    if let Some(state) = &summary.sprt {
        let (lower, upper) = state.test.bounds();
        let _ = write!(line, " LLR {:.2} ({lower:.2}, {upper:.2})", state.llr);
    }
    let forfeits: u32 = summary
        .engines
        .iter()
        .flat_map(|e| e.forfeits.values())
        .sum();
    if forfeits > 0 {
        let _ = write!(line, " forfeits {forfeits}");
    }
    line
}

/// The final report: pairings, engines, the time they used, the SPRT verdict, the
/// endings and, for three engines or more, the cross-table.
pub fn final_report(summary: &MatchSummary) -> String {
    let name_width = name_width(&summary.names);
    let mut text = headline(summary);
    text.push_str(&pairing_table(summary, name_width));
    text.push_str(&engine_table(summary, name_width));
    text.push_str(&time_use(summary));
    if let Some(state) = &summary.sprt {
        let (lower, upper) = state.test.bounds();
        let verdict = match state.verdict {
            Some(SprtVerdict::AcceptH1) => "H1 accepted",
            Some(SprtVerdict::AcceptH0) => "H0 accepted",
            None => "no decision",
        };
        let _ = writeln!(
            text,
            "\nSPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} in ({lower:.3}, {upper:.3}): {verdict}",
            state.test.elo0, state.test.elo1, state.test.alpha, state.test.beta, state.llr
        );
    }
    // Games that name their endings (Mill's `blocked`) get the count, forfeits and the
    // ply limit among them; games that end one way only (Othello) have no line.
    let named = |ending: &&str| *ending != FORFEIT && *ending != PLY_LIMIT;
    if summary.endings.keys().any(named) {
        let endings: Vec<String> = (summary.endings.iter())
            .map(|(ending, count)| format!("{ending} {count}"))
            .collect();
        let _ = writeln!(text, "\nEndings: {}", endings.join(", "));
    }
    if summary.names.len() > 2 {
        text.push_str(&cross_table(summary, name_width));
    }
    text
}

/// `200 of 200 games played in 81.2 s`, with the game and its rules where they are not
/// Othello's.
fn headline(summary: &MatchSummary) -> String {
    let game = summary
        .game
        .map_or(String::new(), |name| format!("{name} "));
    let mut text = format!(
        "{} of {} {game}games played in {:.1} s",
        summary.games_played, summary.games_scheduled, summary.wall_seconds
    );
    match &summary.rules {
        Some(rules) => {
            let _ = writeln!(text, "; rules: {rules}");
        }
        None => text.push('\n'),
    }
    text
}

/// Each pairing's games, results, score, Elo and (where results have a margin) mean
/// margin, from the first engine's side.
fn pairing_table(summary: &MatchSummary, name_width: usize) -> String {
    let pair_width = (2 * name_width + 4).max(8);
    let margin_header = if summary.margins { "Discs" } else { "" };
    let mut header = format!(
        "\n{:<pair_width$} {:>6} {:>5} {:>5} {:>5} {:>7}  {:<16} {margin_header:>7}",
        "Pairing", "Games", "W", "D", "L", "Score", "Elo (95%)"
    );
    if !summary.margins {
        header.truncate(header.trim_end().len());
    }
    let mut text = format!("{header}\n");
    for pairing in &summary.pairings {
        let tally = pairing.tally;
        let label = format!(
            "{} vs {}",
            summary.names[pairing.first], summary.names[pairing.second]
        );
        let mut row = format!(
            "{label:<pair_width$} {:>6} {:>5} {:>5} {:>5} {:>7}  {:<16}",
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            percent(tally.score()),
            elo_text(&tally),
        );
        if summary.margins {
            let discs = pairing
                .mean_discs()
                .map_or("-".to_string(), |d| format!("{d:+.1}"));
            let _ = write!(row, " {discs:>7}");
        } else {
            row.truncate(row.trim_end().len());
        }
        let _ = writeln!(text, "{row}");
    }
    if summary.margins {
        let _ = writeln!(
            text,
            "(W/D/L, score, Elo and discs from the first engine's side; discs: mean final disc\n\
             difference of the games played to the end)"
        );
    } else {
        let _ = writeln!(text, "(W/D/L, score and Elo from the first engine's side)");
    }
    text
}

/// Each engine's games, points, score, time a move and forfeits; with the mean depth and
/// the speed of the searches where the engines say (engines in this process).
fn engine_table(summary: &MatchSummary, name_width: usize) -> String {
    let efforts = summary.engines.iter().any(|e| e.effort.moves > 0);
    let search_header = if efforts { "  Depth    Nodes/s" } else { "" };
    let mut text = format!(
        "\n{:<name_width$} {:>6} {:>7} {:>7} {:>11}{search_header}  Forfeits\n",
        "Engine", "Games", "Points", "Score", "Time/move"
    );
    for (index, stats) in summary.engines.iter().enumerate() {
        let score = (stats.games > 0).then(|| stats.points / f64::from(stats.games));
        let time = stats
            .seconds_per_move()
            .map_or("-".to_string(), |s| format!("{:.4} s", s));
        let search = match (efforts, stats.effort.moves > 0) {
            (false, _) => String::new(),
            (true, false) => format!("  {:>5} {:>10}", "-", "-"),
            (true, true) => format!(
                "  {:>5.2} {:>10.0}",
                stats.effort.mean_depth(),
                stats.effort.nodes_per_second()
            ),
        };
        let forfeits = forfeits_text(&stats.forfeits);
        let _ = writeln!(
            text,
            "{:<name_width$} {:>6} {:>7.1} {:>7} {time:>11}{search}  {forfeits}",
            summary.names[index],
            stats.games,
            stats.points,
            percent(score),
        );
    }
    text
}

/// How each engine used a clock or a time per move, where it had one: the clock left at
/// the end of the games it did not forfeit (the mean and the smallest share), its mean
/// move (all of them, and those over [`SEARCHED_MOVE`], since the others were played from
/// a table or the book), as a share of the move time where it had one, and its slowest
/// move.
fn time_use(summary: &MatchSummary) -> String {
    let mut text = String::new();
    for (name, stats) in summary.names.iter().zip(&summary.engines) {
        if (stats.clock.is_none() && stats.move_time.is_none()) || stats.moves == 0 {
            continue;
        }
        let mut parts = Vec::new();
        if let Some(clock) = stats.clock
            && !stats.clock_left.is_empty()
        {
            let shares: Vec<f64> = (stats.clock_left.iter())
                .map(|left| 100.0 * left.as_secs_f64() / clock.as_secs_f64().max(1e-9))
                .collect();
            let mean = shares.iter().sum::<f64>() / shares.len() as f64;
            let smallest = shares.iter().copied().fold(f64::INFINITY, f64::min);
            parts.push(format!(
                "clock left {mean:.1}% of {} on average (smallest {smallest:.1}%, {} games)",
                format_clock(clock),
                shares.len()
            ));
        }
        let mean = |seconds: f64, moves: u64| seconds / moves.max(1) as f64;
        let of_move_time = |seconds: f64| match stats.move_time {
            Some(per_move) => format!(
                " = {:.0}% of {} ms",
                100.0 * seconds / per_move.as_secs_f64().max(1e-9),
                per_move.as_millis()
            ),
            None => String::new(),
        };
        let all = mean(stats.seconds, stats.moves);
        let searched = mean(stats.searched_seconds, stats.searched_moves);
        parts.push(format!(
            "mean move {all:.3} s{} ({searched:.3} s{} over the {} moves of more than {} ms)",
            of_move_time(all),
            of_move_time(searched),
            stats.searched_moves,
            SEARCHED_MOVE.as_millis()
        ));
        parts.push(format!("slowest move {:.2} s", stats.slowest));
        if text.is_empty() {
            text.push_str("\nTime use\n");
        }
        let _ = writeln!(text, "{name}: {}", parts.join(", "));
    }
    text
}

/// Points each engine (row) scored against each other (column), out of the games played.
fn cross_table(summary: &MatchSummary, name_width: usize) -> String {
    let cell = 11usize;
    let mut text = format!(
        "\nCross-table (row's points / games against column)\n{:<name_width$}",
        ""
    );
    for name in &summary.names {
        let _ = write!(text, " {name:>cell$}");
    }
    text.push('\n');
    for (row, name) in summary.names.iter().enumerate() {
        let _ = write!(text, "{name:<name_width$}");
        for column in 0..summary.names.len() {
            let entry = summary.pairings.iter().find_map(|p| {
                if p.first == row && p.second == column {
                    Some(p.tally)
                } else if p.first == column && p.second == row {
                    Some(p.tally.reversed())
                } else {
                    None
                }
            });
            let value = match entry {
                Some(tally) => format!("{}/{}", tally.points(), tally.games()),
                None => "-".to_string(),
            };
            let _ = write!(text, " {value:>cell$}");
        }
        text.push('\n');
    }
    text
}

/// The width of the engine-name column: the longest name, at least "Engine".
pub(super) fn name_width(names: &[String]) -> usize {
    names.iter().map(String::len).max().unwrap_or(0).max(6)
}

/// `none`, or the forfeits by kind: `timeout 2, crash 1`.
pub(super) fn forfeits_text(forfeits: &BTreeMap<FaultKind, u32>) -> String {
    if forfeits.is_empty() {
        return "none".to_string();
    }
    FaultKind::ALL
        .iter()
        .filter_map(|kind| {
            forfeits
                .get(kind)
                .map(|count| format!("{} {count}", kind.name()))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `83.8%`, or `-` before any game.
pub(super) fn percent(score: Option<f64>) -> String {
    score.map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s))
}

/// `+281 ± 150` (see [`crate::stats::EloEstimate::text`]), `-` before any game.
pub fn elo_text(tally: &Tally) -> String {
    tally
        .elo()
        .map_or("-".to_string(), |estimate| estimate.text())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{EngineStats, PairingStats};

    fn summary() -> MatchSummary {
        let pairing = |first, second, wins, draws, losses| PairingStats {
            first,
            second,
            tally: Tally {
                wins,
                draws,
                losses,
            },
            disc_sum: 0,
            finished: 0,
        };
        let mut crashed = EngineStats::default();
        crashed.forfeits.insert(FaultKind::Crash, 2);
        crashed.forfeits.insert(FaultKind::IllegalMove, 1);
        MatchSummary {
            game: None,
            rules: None,
            margins: true,
            names: vec!["a".into(), "bb".into(), "c".into()],
            pairings: vec![
                pairing(0, 1, 3, 1, 0),
                pairing(0, 2, 0, 0, 4),
                pairing(1, 2, 2, 0, 2),
            ],
            engines: vec![EngineStats::default(), EngineStats::default(), crashed],
            games_played: 12,
            games_scheduled: 12,
            sprt: None,
            endings: BTreeMap::new(),
            wall_seconds: 1.0,
        }
    }

    #[test]
    fn cross_table_reads_from_each_row() {
        let text = final_report(&summary());
        let table = text.split("Cross-table").nth(1).unwrap();
        let rows: Vec<Vec<&str>> = table
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(rows[0], ["a", "-", "3.5/4", "0/4"]);
        assert_eq!(rows[1], ["bb", "0.5/4", "-", "2/4"]);
        assert_eq!(rows[2], ["c", "4/4", "2/4", "-"]);
    }

    #[test]
    fn forfeits_are_listed_by_reason() {
        let text = final_report(&summary());
        let row = text
            .lines()
            .find(|l| l.starts_with("c ") && !l.contains('/'))
            .unwrap();
        assert!(row.ends_with("illegal move 1, crash 2"), "{row}");
    }

    #[test]
    fn progress_line_of_a_two_engine_match() {
        let mut two = summary();
        two.names.truncate(2);
        two.pairings.truncate(1);
        two.engines.truncate(2);
        two.games_played = 4;
        two.games_scheduled = 10;
        assert_eq!(
            progress_line(&two),
            "[ 4/10] a vs bb 3-1-0 (87.5%) Elo +338 ± 299"
        );
    }
}
