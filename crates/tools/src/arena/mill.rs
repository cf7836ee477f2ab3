//! Nine Men's Morris matches: two GTP engines play Mill games refereed with iago's rules
//! (every move checked with [`MillPosition`]), one game at a time, each opening played
//! twice with colours swapped, each engine under its own time per move or depth.
//!
//! Engines are told the game (`set_game mill`), the limit (`set_movetime MS` when they
//! list it, else `time_settings 0 S 1` in whole seconds; `set_depth D` at fixed depth) and
//! the rules (`set_rules ...` when they list it). An illegal move, a crash, a timeout or a
//! refusal loses the game by forfeit, and that engine is restarted for the next game.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::driver::{Fault, FaultKind, TimeControl};
use super::gtp::GtpConnection;
use super::report::{elo_text, forfeits_text, name_width, percent};
use super::spec::EngineSpec;
use super::stats::Tally;
use iago_core::game::{Color, Game};
use iago_core::mill::notation::format_rules;
use iago_core::mill::{MillPosition, Move, Rules};

/// A game longer than this many plies is stopped as a draw (only reachable with the draw
/// rules switched off).
const MAX_PLIES: usize = 1000;

/// Extension commands that set a fixed search depth, tried in this order.
const DEPTH_COMMANDS: &[&str] = &["set_depth", "depth", "level"];

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
    /// Stopped at the ply limit (`MAX_PLIES`).
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
#[derive(Clone, Debug)]
pub struct MillGame {
    /// The engine (index into the config's engines) that played White.
    pub white: usize,
    /// The winning colour, `None` for a draw.
    pub winner: Option<Color>,
    pub ending: Ending,
    /// The forfeiting engine and why.
    pub forfeit: Option<(usize, Fault)>,
    /// The moves from the start, the opening included.
    pub moves: Vec<Move>,
    pub opening_plies: usize,
}

impl MillGame {
    /// Points of engine `index` (1, 1/2 or 0).
    pub fn points(&self, index: usize) -> f64 {
        match self.winner {
            None => 0.5,
            Some(colour) if (colour == Color::White) == (self.white == index) => 1.0,
            Some(_) => 0.0,
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

/// One engine of the match with its process (started on demand, again after a fault).
struct Player {
    spec: EngineSpec,
    limit: TimeControl,
    connection: Option<GtpConnection>,
    /// How many moves of the current game the engine's board holds.
    known: usize,
}

impl Player {
    fn connect(&mut self, rules: Rules, deadline: Instant) -> Result<&mut GtpConnection, Fault> {
        if self.connection.is_none() {
            let mut connection = GtpConnection::start(&self.spec.command, deadline)?;
            connection.optional_command("set_game mill", deadline)?;
            match self.limit {
                TimeControl::MoveTime(per_move) if connection.knows("set_movetime") => {
                    connection
                        .require(&format!("set_movetime {}", per_move.as_millis()), deadline)?;
                }
                TimeControl::MoveTime(per_move) => {
                    let seconds = per_move.as_secs() + u64::from(per_move.subsec_nanos() > 0);
                    connection
                        .optional_command(&format!("time_settings 0 {seconds} 1"), deadline)?;
                }
                TimeControl::Depth(depth) => {
                    match DEPTH_COMMANDS.iter().find(|c| connection.knows(c)) {
                        Some(name) => {
                            connection.require(&format!("{name} {depth}"), deadline)?;
                        }
                        None => log::warn!(
                            "{} lists no depth command; it plays at its own settings",
                            self.spec.name
                        ),
                    }
                }
                TimeControl::Clock(_) => {
                    return Err(Fault::new(
                        FaultKind::Refused,
                        "Mill matches have no game clock",
                    ));
                }
            }
            if connection.knows("set_rules") {
                connection.require(&format!("set_rules {}", format_rules(rules)), deadline)?;
            } else {
                log::warn!(
                    "{} lists no set_rules; it plays by its own rules",
                    self.spec.name
                );
            }
            self.connection = Some(connection);
        }
        Ok(self.connection.as_mut().expect("connected above"))
    }

    /// Drops the engine after a fault; the next game starts a new one.
    fn reset(&mut self) {
        if let Some(mut connection) = self.connection.take() {
            connection.shut_down();
        }
    }
}

/// Plays the match and returns its summary; engine failures are forfeits inside it.
pub fn run_mill_match(config: &MillMatchConfig) -> Result<MillMatchSummary, String> {
    if config.openings.is_empty() {
        return Err("no openings".into());
    }
    for (index, opening) in config.openings.iter().enumerate() {
        replay(config.rules, opening).map_err(|e| format!("opening {}: {e}", index + 1))?;
    }
    let mut out = match &config.out {
        Some(path) => {
            Some(File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?)
        }
        None => None,
    };
    let started = Instant::now();
    let mut players = [0, 1].map(|i| Player {
        spec: config.engines[i].clone(),
        limit: config.limits[i],
        connection: None,
        known: 0,
    });
    let mut summary = MillMatchSummary {
        names: config.engines.iter().map(|e| e.name.clone()).collect(),
        limits: config.limits.iter().map(limit_text).collect(),
        rules: format_rules(config.rules),
        ..MillMatchSummary::default()
    };
    for number in 0..config.games {
        let opening = &config.openings[(number as usize / 2) % config.openings.len()];
        let white = (number % 2) as usize;
        let game = play_game(config, &mut players, white, opening, &mut summary);
        let points = game.points(0);
        let tally_add = |tally: &mut Tally| {
            if points > 0.75 {
                tally.wins += 1;
            } else if points < 0.25 {
                tally.losses += 1;
            } else {
                tally.draws += 1;
            }
        };
        tally_add(&mut summary.tally);
        tally_add(&mut summary.as_colour[white]);
        *summary.endings.entry(game.ending).or_default() += 1;
        if let Some((index, fault)) = &game.forfeit {
            *summary.forfeits[*index].entry(fault.kind).or_default() += 1;
        }
        summary.games += 1;
        if let Some(file) = &mut out {
            let line = record_line(number + 1, &summary.names, &game);
            file.write_all(line.as_bytes())
                .and_then(|()| file.flush())
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
    for player in &mut players {
        player.reset();
    }
    summary.wall_seconds = started.elapsed().as_secs_f64();
    Ok(summary)
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

fn play_game(
    config: &MillMatchConfig,
    players: &mut [Player; 2],
    white: usize,
    opening: &[Move],
    summary: &mut MillMatchSummary,
) -> MillGame {
    let mut game = MillGame {
        white,
        winner: None,
        ending: Ending::Forfeit,
        forfeit: None,
        moves: Vec::new(),
        opening_plies: opening.len(),
    };
    let mut pos = MillPosition::with_rules(config.rules);
    for &mv in opening {
        pos = pos.play(mv);
        game.moves.push(mv);
    }
    let engine_of = |colour: Color| {
        if colour == Color::White {
            white
        } else {
            1 - white
        }
    };
    for index in [white, 1 - white] {
        let deadline = Instant::now() + config.startup_timeout;
        let result = players[index]
            .connect(config.rules, deadline)
            .and_then(|connection| connection.require("clear_board", deadline));
        if let Err(fault) = result {
            return forfeit(game, players, index, fault);
        }
        players[index].known = 0;
    }
    while !pos.is_game_over() {
        if game.moves.len() >= MAX_PLIES {
            game.ending = Ending::PlyLimit;
            return game;
        }
        let mover = pos.side_to_move();
        let index = engine_of(mover);
        let deadline = Instant::now() + config.move_caps[index] + config.startup_timeout;
        if let Err(fault) = send_moves(&mut players[index], config.rules, &game.moves, deadline) {
            return forfeit(game, players, index, fault);
        }
        let asked = Instant::now();
        let deadline = asked + config.move_caps[index];
        let text = format!("genmove {}", mover.name());
        let reply = match players[index].connect(config.rules, deadline) {
            Ok(connection) => connection.require(&text, deadline),
            Err(fault) => Err(fault),
        };
        let seconds = asked.elapsed().as_secs_f64();
        let reply = match reply {
            Ok(reply) => reply,
            Err(mut fault) => {
                if fault.kind == FaultKind::Timeout {
                    fault.detail = format!(
                        "no move within {:.3} s",
                        config.move_caps[index].as_secs_f64()
                    );
                }
                return forfeit(game, players, index, fault);
            }
        };
        summary.moves[index] += 1;
        summary.seconds[index] += seconds;
        summary.longest[index] = summary.longest[index].max(seconds);
        let word = reply.split_whitespace().last().unwrap_or("").to_string();
        let mv = match pos.parse_move(&word) {
            Ok(mv) => mv,
            Err(error) => {
                let kind = if iago_core::mill::notation::parse_move_text(&word).is_ok() {
                    FaultKind::IllegalMove
                } else {
                    FaultKind::Garbage
                };
                let fault = Fault::new(kind, format!("genmove answered {word:?}: {error}"));
                return forfeit(game, players, index, fault);
            }
        };
        pos = pos.play(mv);
        game.moves.push(mv);
        players[index].known = game.moves.len();
    }
    game.winner = pos.winner();
    game.ending = match pos.winner() {
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
    };
    game
}

/// Plays the moves the engine has not seen yet on its board.
fn send_moves(
    player: &mut Player,
    rules: Rules,
    moves: &[Move],
    deadline: Instant,
) -> Result<(), Fault> {
    let from = player.known;
    let connection = player.connect(rules, deadline)?;
    let mut pos = replay(rules, &moves[..from]).unwrap_or_else(|_| MillPosition::start());
    for &mv in &moves[from..] {
        let text = format!("play {} {}", pos.side_to_move().name(), pos.format_move(mv));
        connection.command(&text, deadline)?.map_err(|message| {
            Fault::new(
                FaultKind::Refused,
                format!("rejected the legal \"{text}\": {message}"),
            )
        })?;
        pos = pos.play(mv);
    }
    player.known = moves.len();
    Ok(())
}

fn forfeit(mut game: MillGame, players: &mut [Player; 2], index: usize, fault: Fault) -> MillGame {
    log::warn!("{} forfeits: {fault}", players[index].spec.name);
    players[index].reset();
    let loser = if game.white == index {
        Color::White
    } else {
        Color::Black
    };
    game.winner = Some(loser.opponent());
    game.ending = Ending::Forfeit;
    game.forfeit = Some((index, fault));
    game
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
    let result = match game.winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    let pos = MillPosition::start();
    let moves: Vec<String> = game.moves.iter().map(|&mv| pos.format_move(mv)).collect();
    let mut line = format!(
        "game={number} white={} black={} result={result} end={}",
        names[game.white],
        names[1 - game.white],
        game.ending.name().replace(' ', "-"),
    );
    if let Some((_, fault)) = &game.forfeit {
        let _ = write!(line, " fault={:?}", fault.to_string());
    }
    let _ = writeln!(
        line,
        " opening={} moves={}",
        game.opening_plies,
        moves.join(",")
    );
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
