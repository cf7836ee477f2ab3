//! Nine Men's Morris matches: two GTP engines play Mill games refereed with iago's rules
//! (the game loop of [`super::game`], every move checked with [`MillPosition`]), one game
//! at a time, each opening played twice with colours swapped, each engine under its own
//! time per move or depth.
//!
//! Engines are told the game (`set_game mill`), the limit (`set_movetime MS` when they
//! list it, else `time_settings 0 S 1`, S in seconds; `set_depth D` at fixed depth) and
//! the rules (`set_rules ...` when they list it). An illegal move, a crash, a timeout or a
//! refusal loses the game by forfeit, and that engine is restarted for the next game.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::driver::{Driver, Fault, FaultKind, TimeControl};
use super::game::{self, ArenaGame, GameOutcome, MoveLimits, Seat};
use super::gtp::{GtpConnection, GtpDriver};
use super::openings::Opening;
use super::report::{elo_text, forfeits_text, name_width, percent};
use super::spec::EngineSpec;
use super::stats::Tally;
use iago_core::files::Replacement;
use iago_core::game::{Color, Game};
use iago_core::mill::notation::format_rules;
use iago_core::mill::{MillPosition, Move, Rules};

impl ArenaGame for MillPosition {
    fn tell_gtp(&self, connection: &mut GtpConnection, deadline: Instant) -> Result<(), Fault> {
        connection.optional_command("set_game mill", deadline)?;
        if connection.knows("set_rules") {
            connection.require(
                &format!("set_rules {}", format_rules(self.rules())),
                deadline,
            )?;
        } else {
            log::warn!(
                "{} lists no set_rules; it plays by its own rules",
                connection.name.as_deref().unwrap_or("a GTP engine")
            );
        }
        Ok(())
    }
}

/// Everything a Mill match needs.
#[derive(Clone, Debug)]
pub struct MillMatchConfig {
    pub engines: [EngineSpec; 2],
    /// Each engine's limit: `Depth` or `MoveTime` (a clock is not supported).
    pub limits: [TimeControl; 2],
    /// Longest wall-clock time for one move of each engine before a loss on time.
    pub move_caps: [Duration; 2],
    pub games: u32,
    /// Played in order, each twice with colours swapped, starting again when used up.
    pub openings: Vec<Vec<Move>>,
    pub rules: Rules,
    pub startup_timeout: Duration,
    /// Where a line per game goes.
    pub out: Option<PathBuf>,
    pub progress: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ending {
    /// The loser kept fewer than three stones.
    Stones,
    /// The loser had no legal move.
    Blocked,
    /// Threefold (or the rules' number of) repetition.
    Repetition,
    /// The move-count rule.
    MoveRule,
    /// Stopped at the ply limit ([`game::MAX_PLIES`]).
    PlyLimit,
    /// An engine forfeited.
    Forfeit,
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Ending::Stones => "stones",
            Ending::Blocked => "blocked",
            Ending::Repetition => "repetition",
            Ending::MoveRule => "move rule",
            Ending::PlyLimit => "ply limit",
            Ending::Forfeit => "forfeit",
        }
    }
}

/// One finished game.
struct MillGame {
    /// The engine (index into the config's engines) that played White.
    white: usize,
    ending: Ending,
    outcome: GameOutcome<MillPosition>,
}

impl MillGame {
    /// The winning colour, `None` for a draw.
    fn winner(&self) -> Option<Color> {
        match self.outcome.black_result.signum() {
            1 => Some(Color::Black),
            -1 => Some(Color::White),
            _ => None,
        }
    }

    /// The engine (index into the config's engines) that played `colour`.
    fn engine(&self, colour: Color) -> usize {
        if colour == Color::White {
            self.white
        } else {
            1 - self.white
        }
    }
}

/// What a match produced, from the first engine's side where it has a side.
#[derive(Clone, Debug, Default)]
pub struct MillMatchSummary {
    pub names: Vec<String>,
    pub limits: Vec<String>,
    pub tally: Tally,
    /// The first engine's results with White and with Black.
    pub as_colour: [Tally; 2],
    pub endings: BTreeMap<Ending, u32>,
    /// Per engine: moves searched (openings excluded), seconds, longest move.
    pub moves: [u32; 2],
    pub seconds: [f64; 2],
    pub longest: [f64; 2],
    pub forfeits: [BTreeMap<FaultKind, u32>; 2],
    pub games: u32,
    pub rules: String,
    pub wall_seconds: f64,
}

/// Plays the match and returns its summary; engine failures are forfeits inside it.
pub fn run_mill_match(config: &MillMatchConfig) -> Result<MillMatchSummary, String> {
    if config.openings.is_empty() {
        return Err("no openings".into());
    }
    let start = MillPosition::with_rules(config.rules);
    let openings = (config.openings.iter().enumerate())
        .map(|(index, moves)| {
            replay(config.rules, moves).map_err(|e| format!("opening {}: {e}", index + 1))?;
            Ok(Opening {
                start: start.clone(),
                moves: moves.clone(),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    // Written as games end and put in place at the end, as `iago match --out` does.
    let mut out = match &config.out {
        Some(path) => {
            Some(Replacement::create(path, "partial").map_err(|e| format!("cannot create {e}"))?)
        }
        None => None,
    };
    let started = Instant::now();
    let limits = [0, 1].map(|i| MoveLimits {
        time_control: config.limits[i],
        move_cap: config.move_caps[i],
        clock_margin: Duration::ZERO,
        held_to_clock: None,
    });
    let mut seats: [Seat<MillPosition>; 2] = [None, None];
    let mut summary = MillMatchSummary {
        names: config.engines.iter().map(|e| e.name.clone()).collect(),
        limits: config.limits.iter().map(limit_text).collect(),
        rules: format_rules(config.rules),
        ..MillMatchSummary::default()
    };
    for number in 0..config.games {
        let opening = &openings[(number as usize / 2) % openings.len()];
        let white = (number % 2) as usize;
        let black = 1 - white;
        let outcome = game::play_seated(
            &mut seats,
            [black, white],
            opening,
            [&summary.names[black], &summary.names[white]],
            [&limits[black], &limits[white]],
            |index| {
                let deadline = Instant::now() + config.startup_timeout;
                GtpDriver::start(
                    &config.engines[index].command,
                    config.limits[index],
                    start.clone(),
                    deadline,
                )
                .map(|driver| Box::new(driver) as Box<dyn Driver<MillPosition>>)
            },
        );
        let game = MillGame {
            white,
            ending: ending(&outcome),
            outcome,
        };
        summary.add(&game);
        if let Some(file) = &mut out {
            let line = record_line(number + 1, &summary.names, &game);
            file.write_all(line.as_bytes())
                .map_err(|e| format!("cannot write the game record: {e}"))?;
        }
        if config.progress {
            let t = summary.tally;
            eprintln!(
                "game {}/{}: {} {}-{}-{} ({:.1}%) against {}",
                number + 1,
                config.games,
                summary.names[0],
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score().unwrap_or(0.0),
                summary.names[1]
            );
        }
    }
    if let Some(file) = out {
        file.commit().map_err(|e| format!("cannot finish {e}"))?;
    }
    summary.wall_seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

impl MillMatchSummary {
    fn add(&mut self, game: &MillGame) {
        let first_won = game.winner().map(|colour| game.engine(colour) == 0);
        for tally in [&mut self.tally, &mut self.as_colour[game.white]] {
            match first_won {
                Some(true) => tally.wins += 1,
                Some(false) => tally.losses += 1,
                None => tally.draws += 1,
            }
        }
        *self.endings.entry(game.ending).or_default() += 1;
        let record = &game.outcome.record;
        for colour in [Color::Black, Color::White] {
            let index = game.engine(colour);
            let (moves, seconds) = game.outcome.thinking[game::colour_index(colour)];
            self.moves[index] += moves;
            self.seconds[index] += seconds;
            for (number, recorded) in record.moves.iter().enumerate() {
                if record.mover_of(number) == colour {
                    self.longest[index] = self.longest[index].max(recorded.seconds.unwrap_or(0.0));
                }
            }
        }
        if let Some((colour, fault)) = &game.outcome.forfeit {
            let index = game.engine(*colour);
            log::warn!("{} forfeits: {fault}", self.names[index]);
            *self.forfeits[index].entry(fault.kind).or_default() += 1;
        }
        self.games += 1;
    }
}

/// How a game ended, read from its final position.
fn ending(outcome: &GameOutcome<MillPosition>) -> Ending {
    if outcome.forfeit.is_some() {
        return Ending::Forfeit;
    }
    let record = &outcome.record;
    let pos =
        (record.moves.iter()).fold(record.start.clone(), |pos, recorded| pos.play(recorded.mv));
    if !pos.is_game_over() {
        return Ending::PlyLimit;
    }
    match pos.winner() {
        Some(winner) => {
            let loser = winner.opponent();
            if pos.stones(loser).count_ones() + u32::from(pos.hand(loser)) < 3 {
                Ending::Stones
            } else {
                Ending::Blocked
            }
        }
        None => {
            let rules = pos.rules();
            if rules.draw_plies > 0 && pos.quiet_plies() >= rules.draw_plies {
                Ending::MoveRule
            } else {
                Ending::Repetition
            }
        }
    }
}

/// The position after `moves` from the start under `rules`, every move checked.
fn replay(rules: Rules, moves: &[Move]) -> Result<MillPosition, String> {
    let mut pos = MillPosition::with_rules(rules);
    for &mv in moves {
        if !pos.legal_moves().as_ref().contains(&mv) {
            return Err(format!("{} is not legal", pos.format_move(mv)));
        }
        pos = pos.play(mv);
    }
    Ok(pos)
}

fn limit_text(limit: &TimeControl) -> String {
    match limit {
        TimeControl::Depth(depth) => format!("depth {depth}"),
        TimeControl::MoveTime(time) => format!("{} ms/move", time.as_millis()),
        TimeControl::Clock(clock) => format!("clock {} s", clock.as_secs_f64()),
    }
}

/// One game as a line: number, players, result, ending, opening length and the moves.
fn record_line(number: u32, names: &[String], game: &MillGame) -> String {
    let result = match game.winner() {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    let record = &game.outcome.record;
    let moves: Vec<String> = (record.moves.iter())
        .map(|recorded| record.start.format_move(recorded.mv))
        .collect();
    let mut line = format!(
        "game={number} white={} black={} result={result} end={}",
        names[game.white],
        names[1 - game.white],
        game.ending.name().replace(' ', "-"),
    );
    if let Some((_, fault)) = &game.outcome.forfeit {
        let _ = write!(line, " fault={:?}", fault.to_string());
    }
    let opening_plies = record.moves.iter().filter(|m| m.seconds.is_none()).count();
    let _ = writeln!(line, " opening={opening_plies} moves={}", moves.join(","));
    line
}

/// `count` distinct openings of `plies` random legal moves each, from `seed`.
pub fn random_openings(rules: Rules, count: usize, plies: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut openings: Vec<Vec<Move>> = Vec::new();
    let mut attempts = 0;
    while openings.len() < count && attempts < count * 100 {
        attempts += 1;
        let mut pos = MillPosition::with_rules(rules);
        let mut line = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let moves = moves.as_ref();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            line.push(mv);
            pos = pos.play(mv);
        }
        if !openings.contains(&line) {
            openings.push(line);
        }
    }
    openings
}

/// Reads openings: one line of moves (space or comma separated) each; `#` starts a
/// comment, empty lines are skipped; `start` (or an empty opening) is the empty board.
pub fn parse_openings(rules: Rules, text: &str) -> Result<Vec<Vec<Move>>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        openings.push(parse_opening(rules, line).map_err(|e| format!("line {}: {e}", number + 1))?);
    }
    if openings.is_empty() {
        return Err("no openings".into());
    }
    Ok(openings)
}

/// One opening: moves separated by spaces or commas, checked from the start.
pub fn parse_opening(rules: Rules, text: &str) -> Result<Vec<Move>, String> {
    let mut pos = MillPosition::with_rules(rules);
    let mut moves = Vec::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        if word == "start" {
            continue;
        }
        let mv = pos.parse_move(word)?;
        moves.push(mv);
        pos = pos.play(mv);
    }
    Ok(moves)
}

/// The results table.
pub fn mill_report(summary: &MillMatchSummary) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} Mill games in {:.1} s; rules: {}",
        summary.games, summary.wall_seconds, summary.rules
    );
    let width = name_width(&summary.names);
    let _ = writeln!(
        text,
        "\n{:<width$} {:<14} {:>5} {:>4} {:>4} {:>4} {:>7}  {:<12} {:>9} {:>8}  Forfeits",
        "Engine", "Limit", "Games", "W", "D", "L", "Score", "Elo (95%)", "Time/move", "Longest"
    );
    for index in 0..summary.names.len().min(2) {
        let tally = if index == 0 {
            summary.tally
        } else {
            summary.tally.reversed()
        };
        let time = if summary.moves[index] > 0 {
            format!(
                "{:.3} s",
                summary.seconds[index] / f64::from(summary.moves[index])
            )
        } else {
            "-".into()
        };
        let forfeits = forfeits_text(&summary.forfeits[index]);
        let _ = writeln!(
            text,
            "{:<width$} {:<14} {:>5} {:>4} {:>4} {:>4} {:>7}  {:<12} {time:>9} {:>6.3} s  {forfeits}",
            summary.names[index],
            summary.limits[index],
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            percent(tally.score()),
            elo_text(&tally),
            summary.longest[index],
        );
    }
    let colour = |t: &Tally| format!("{}-{}-{}", t.wins, t.draws, t.losses);
    let _ = writeln!(
        text,
        "\n{} with White {}, with Black {} (W-D-L)",
        summary.names[0],
        colour(&summary.as_colour[0]),
        colour(&summary.as_colour[1])
    );
    let endings: Vec<String> = summary
        .endings
        .iter()
        .map(|(ending, count)| format!("{} {count}", ending.name()))
        .collect();
    let _ = writeln!(text, "Endings: {}", endings.join(", "));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_distinct_and_legal() {
        let rules = Rules::default();
        let openings = random_openings(rules, 50, 2, 1);
        assert_eq!(openings.len(), 50);
        for (i, a) in openings.iter().enumerate() {
            assert_eq!(a.len(), 2);
            assert!(replay(rules, a).is_ok());
            assert!(!openings[i + 1..].contains(a));
        }
        let parsed = parse_openings(rules, "# two\nd6 d5\nstart\n\na7,d7\n").unwrap();
        assert_eq!(parsed.len(), 3);
        assert!(parsed[1].is_empty());
        assert!(parse_openings(rules, "d6 d6").is_err());
    }
}
