//! `iago match`: plays engines against each other (see `arena`) and prints the table.

use super::out::{Failure, out, outln};
use std::path::PathBuf;
use std::time::Duration;

use super::args::Args;
use crate::arena::mill::{
    MillMatchConfig, mill_report, parse_opening, parse_openings, random_openings, run_mill_match,
};
use crate::arena::{
    EngineSpec, MatchConfig, MoveLimits, Protocol, Sprt, TimeControl, nboard, openings, report,
    run_match,
};
use iago_core::mill::Rules;
use iago_core::mill::notation::parse_rules;

const HELP: &str =
    "usage: iago match --engine NAME=PROTOCOL:COMMAND --engine NAME=PROTOCOL:COMMAND [OPTIONS]

Plays games between two or more engines (every pair for a round robin), each driven as a
subprocess over its protocol (nboard or gtp) the way a GUI drives it. COMMAND is a shell
command line. Moves are checked with iago's rules; an illegal move, a crash, unreadable
output or a timeout loses the game by forfeit and the engine is restarted.

Options:
  --games N              games per pair of engines (default 100)
  --depth D              fixed search depth
  --movetime MS          fixed time per move in milliseconds (the default: 1000); NBoard
                         has no time per move, so an NBoard engine gets (and is held to)
                         a game clock of 30 such moves
  --clock SECONDS        a game clock per player
  --limit NAME=LIMIT     this engine's own limit instead: depth:D, movetime:MS or
                         clock:SECONDS (e.g. --limit iago=movetime:200); repeatable
  --move-cap SECONDS     longest time for one move before a loss on time (default: 60 at
                         fixed depth, twice the move time (at least move time + 1 s), or
                         the whole clock, an NBoard engine's 30-move clock included)
  --margin MS            tolerance over an exhausted clock (default 500)
  --concurrency N        games at once (default: the number of cores)
  --openings FILE        opening file: one move sequence per line (default: the built-in
                         balanced set); each opening is played twice, colours swapped
  --start MOVES          play every game from this one opening (`start` for none)
  --out FILE.ggf         write every game as a GGF record, one per line
  --sprt ELO0,ELO1       stop when the SPRT decides between the two Elo hypotheses
  --alpha A, --beta B    the SPRT's error rates (default 0.05 each)
  --startup SECONDS      time an engine gets to start (default 30)
  --quiet                no progress line on stderr
  --game othello|mill    the game (default othello); see `iago match --game mill --help`";

const MILL_HELP: &str =
    "usage: iago match --game mill --engine NAME=gtp:COMMAND --engine NAME=gtp:COMMAND [OPTIONS]

Plays Nine Men's Morris games between two GTP engines, one game at a time, refereed with
iago's rules (every move checked; an illegal move, crash, refusal or timeout loses by
forfeit and the engine is restarted). Each opening is played twice with colours swapped.
Engines are sent `set_game mill`, `set_rules RULES` (when they list it), and
`set_movetime MS` (when they list it, else `time_settings 0 S 1`, S in seconds) or
`set_depth D`.

Options:
  --games N              games (default 100)
  --movetime MS          time per move for both engines (default 100)
  --depth D              fixed depth for both engines
  --limit NAME=LIMIT     this engine's own limit: movetime:MS or depth:D
  --move-cap SECONDS     longest move before a loss on time (default: 60 at fixed depth,
                         else the move time plus a second)
  --rules RULES          rule settings, as `set_rules` reads them (default: the
                         standard rules, draw-plies=40 repetitions=3 removal=one)
  --opening-plies N      random openings of N plies (default 2)
  --seed N               seed of the random openings (default 1)
  --openings FILE        openings from a file instead: one line of moves each
  --start MOVES          play every game from this one opening (`start` for none)
  --out FILE             one line per game: players, result, ending and moves
  --startup SECONDS      time an engine gets to start (default 30)
  --quiet                no progress line on stderr";

/// Runs `iago match` with `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let mut game = "othello".to_string();
    let mut rest = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--game" {
            game = words
                .next()
                .ok_or("--game needs a value")?
                .to_ascii_lowercase();
        } else {
            rest.push(word.clone());
        }
    }
    match game.as_str() {
        "othello" => {}
        "mill" => {
            let Some(config) = parse_mill_args(&rest)? else {
                outln!("{MILL_HELP}")?;
                return Ok(());
            };
            let summary = run_mill_match(&config)?;
            out!("{}", mill_report(&summary))?;
            return Ok(());
        }
        other => return Err(format!("--game: unknown game {other:?} (othello or mill)").into()),
    }
    let args = &rest;
    let Some(config) = parse_args(args)? else {
        outln!("{HELP}")?;
        return Ok(());
    };
    let summary = run_match(&config)?;
    out!("{}", report::final_report(&summary))?;
    Ok(())
}

/// The match described by `args`; `None` when help was asked for.
fn parse_args(args: &[String]) -> Result<Option<MatchConfig>, String> {
    let mut engines = Vec::new();
    let mut games = 100u32;
    let mut time_control = None;
    let mut own_limits: Vec<(String, TimeControl)> = Vec::new();
    let mut move_cap = None;
    let mut margin = Duration::from_millis(500);
    let mut concurrency = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut openings_source = None;
    let mut out = None;
    let mut sprt_elos = None;
    let (mut alpha, mut beta) = (0.05, 0.05);
    let mut startup = Duration::from_secs(30);
    let mut progress = true;
    let mut args = Args::new("match", args);
    while let Some(option) = args.next() {
        let mut set_time = |control: TimeControl| match time_control.replace(control) {
            None => Ok(()),
            Some(_) => Err("give only one of --depth, --movetime and --clock".to_string()),
        };
        match option {
            "--help" | "-h" => return Ok(None),
            "--engine" => engines.push(args.value("--engine")?.parse::<EngineSpec>()?),
            "--games" => games = args.number("--games")?,
            "--depth" => set_time(TimeControl::Depth(args.number("--depth")?))?,
            "--movetime" => set_time(TimeControl::MoveTime(Duration::from_millis(
                args.number("--movetime")?,
            )))?,
            "--clock" => set_time(TimeControl::Clock(seconds(
                &args.value("--clock")?,
                "--clock",
            )?))?,
            "--limit" => {
                let text = args.value("--limit")?;
                let (name, limit) = text
                    .split_once('=')
                    .ok_or_else(|| format!("--limit {text:?} is not NAME=LIMIT"))?;
                own_limits.push((name.to_string(), parse_limit(limit)?));
            }
            "--move-cap" => move_cap = Some(seconds(&args.value("--move-cap")?, "--move-cap")?),
            "--margin" => margin = Duration::from_millis(args.number("--margin")?),
            "--concurrency" => {
                concurrency = args.number("--concurrency")?;
                if concurrency == 0 {
                    return Err("--concurrency must be at least 1".into());
                }
            }
            "--openings" => openings_source = Some(OpeningSource::File(args.value("--openings")?)),
            "--start" => openings_source = Some(OpeningSource::Single(args.value("--start")?)),
            "--out" => out = Some(PathBuf::from(args.value("--out")?)),
            "--sprt" => sprt_elos = Some(args.value("--sprt")?),
            "--alpha" => alpha = args.number("--alpha")?,
            "--beta" => beta = args.number("--beta")?,
            "--startup" => startup = seconds(&args.value("--startup")?, "--startup")?,
            "--quiet" => progress = false,
            other => return Err(args.unknown(other)),
        }
    }
    if engines.len() < 2 {
        return Err("give at least two --engine NAME=PROTOCOL:COMMAND".into());
    }
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let time_control = time_control.unwrap_or(TimeControl::MoveTime(Duration::from_secs(1)));
    for (name, _) in &own_limits {
        if !engines.iter().any(|e| &e.name == name) {
            return Err(format!("--limit names {name:?}, which is no engine"));
        }
    }
    let limits = engines
        .iter()
        .map(|engine| {
            let control = own_limits
                .iter()
                .rev()
                .find(|(name, _)| *name == engine.name)
                .map_or(time_control, |(_, control)| *control);
            if control == TimeControl::Depth(0) {
                return Err("a depth must be at least 1".to_string());
            }
            // An NBoard engine is told a clock even for a fixed time per move, and is
            // judged by that clock: it may spend more on a hard move and less elsewhere.
            let held_to_clock = match (engine.protocol, control) {
                (Protocol::NBoard, _) => nboard::told_clock(control),
                (_, TimeControl::Clock(clock)) => Some(clock),
                _ => None,
            };
            Ok(MoveLimits {
                time_control: control,
                move_cap: move_cap.unwrap_or(match (held_to_clock, control) {
                    (Some(clock), _) => clock + margin,
                    (None, TimeControl::MoveTime(per_move)) => {
                        per_move + per_move.max(Duration::from_secs(1))
                    }
                    // A fixed depth (every clock is held to above).
                    (None, _) => Duration::from_secs(60),
                }),
                clock_margin: margin,
                held_to_clock,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let openings = match openings_source {
        None => openings::default_openings(),
        Some(OpeningSource::File(path)) => {
            let text = read_openings(&path)?;
            openings::parse_openings(&text).map_err(|e| format!("{path}: {e}"))?
        }
        Some(OpeningSource::Single(text)) => vec![openings::parse_opening(&text)?],
    };
    let sprt = match sprt_elos {
        None => None,
        Some(text) => {
            let (elo0, elo1) = text
                .split_once(',')
                .ok_or_else(|| format!("--sprt {text:?} is not ELO0,ELO1"))?;
            Some(Sprt::new(
                number(elo0.trim(), "--sprt")?,
                number(elo1.trim(), "--sprt")?,
                alpha,
                beta,
            )?)
        }
    };
    Ok(Some(MatchConfig {
        engines,
        games,
        limits,
        concurrency,
        openings,
        out,
        sprt,
        startup_timeout: startup,
        progress,
    }))
}

/// The Mill match described by `args` (`--game mill` taken out); `None` for help.
fn parse_mill_args(args: &[String]) -> Result<Option<MillMatchConfig>, String> {
    let mut engines = Vec::new();
    let mut games = 100u32;
    let mut both = TimeControl::MoveTime(Duration::from_millis(100));
    let mut own: Vec<(String, TimeControl)> = Vec::new();
    let mut move_cap = None;
    let mut rules = Rules::default();
    let (mut plies, mut seed) = (2usize, 1u64);
    let mut source = None;
    let mut out = None;
    let mut startup = Duration::from_secs(30);
    let mut progress = true;
    let mut args = Args::new("match", args);
    while let Some(option) = args.next() {
        match option {
            "--help" | "-h" => return Ok(None),
            "--engine" => engines.push(args.value("--engine")?.parse::<EngineSpec>()?),
            "--games" => games = args.number("--games")?,
            "--movetime" => {
                both = TimeControl::MoveTime(Duration::from_millis(args.number("--movetime")?))
            }
            "--depth" => both = TimeControl::Depth(args.number("--depth")?),
            "--limit" => {
                let text = args.value("--limit")?;
                let (name, limit) = text
                    .split_once('=')
                    .ok_or_else(|| format!("--limit {text:?} is not NAME=LIMIT"))?;
                own.push((name.to_string(), parse_limit(limit)?));
            }
            "--move-cap" => move_cap = Some(seconds(&args.value("--move-cap")?, "--move-cap")?),
            "--rules" => rules = parse_rules(&args.value("--rules")?, rules)?,
            "--opening-plies" => plies = args.number("--opening-plies")?,
            "--seed" => seed = args.number("--seed")?,
            "--openings" => source = Some(OpeningSource::File(args.value("--openings")?)),
            "--start" => source = Some(OpeningSource::Single(args.value("--start")?)),
            "--out" => out = Some(PathBuf::from(args.value("--out")?)),
            "--startup" => startup = seconds(&args.value("--startup")?, "--startup")?,
            "--quiet" => progress = false,
            other => {
                return Err(format!(
                    "unknown option {other:?} for Mill (try `iago match --game mill --help`)"
                ));
            }
        }
    }
    let engines: [EngineSpec; 2] = engines
        .try_into()
        .map_err(|_| "a Mill match needs exactly two --engine NAME=gtp:COMMAND".to_string())?;
    if engines.iter().any(|e| e.protocol != Protocol::Gtp) {
        return Err("Mill engines are driven over GTP: NAME=gtp:COMMAND".into());
    }
    if engines[0].name == engines[1].name {
        return Err("the two engines need different names".into());
    }
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    for (name, _) in &own {
        if !engines.iter().any(|e| &e.name == name) {
            return Err(format!("--limit names {name:?}, which is no engine"));
        }
    }
    let limits = [0, 1].map(|i| {
        own.iter()
            .rev()
            .find(|(name, _)| *name == engines[i].name)
            .map_or(both, |(_, limit)| *limit)
    });
    for limit in limits {
        match limit {
            TimeControl::Clock(_) => return Err("Mill matches have no game clock".into()),
            TimeControl::Depth(0) => return Err("a depth must be at least 1".into()),
            TimeControl::MoveTime(time) if time.is_zero() => {
                return Err("a move time must be at least 1 ms".into());
            }
            _ => {}
        }
    }
    let move_caps = limits.map(|limit| {
        move_cap.unwrap_or(match limit {
            TimeControl::MoveTime(per_move) => per_move + Duration::from_secs(1),
            _ => Duration::from_secs(60),
        })
    });
    let openings = match source {
        None => random_openings(rules, games.div_ceil(2) as usize, plies, seed),
        Some(OpeningSource::File(path)) => {
            let text = read_openings(&path)?;
            parse_openings(rules, &text).map_err(|e| format!("{path}: {e}"))?
        }
        Some(OpeningSource::Single(text)) => vec![parse_opening(rules, &text)?],
    };
    Ok(Some(MillMatchConfig {
        engines,
        limits,
        move_caps,
        games,
        openings,
        rules,
        startup_timeout: startup,
        out,
        progress,
    }))
}

/// `depth:D`, `movetime:MS` or `clock:SECONDS`.
fn parse_limit(text: &str) -> Result<TimeControl, String> {
    let (kind, amount) = text
        .split_once(':')
        .ok_or_else(|| format!("limit {text:?} is not depth:D, movetime:MS or clock:SECONDS"))?;
    match kind {
        "depth" => Ok(TimeControl::Depth(number(amount, "depth")?)),
        "movetime" => Ok(TimeControl::MoveTime(Duration::from_millis(number(
            amount, "movetime",
        )?))),
        "clock" => Ok(TimeControl::Clock(seconds(amount, "clock")?)),
        _ => Err(format!(
            "limit {text:?} is not depth:D, movetime:MS or clock:SECONDS"
        )),
    }
}

enum OpeningSource {
    File(String),
    Single(String),
}

fn number<T: std::str::FromStr>(text: &str, option: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{option}: {text:?} is not a valid number"))
}

fn seconds(text: &str, option: &str) -> Result<Duration, String> {
    let value: f64 = number(text, option)?;
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("{option}: {text:?} is not a positive number of seconds"))
}

/// The text of an openings file (`--openings`), bounded.
fn read_openings(path: &str) -> Result<String, String> {
    iago_core::files::read_text(std::path::Path::new(path), iago_core::files::OPENINGS)
        .map_err(|e| format!("cannot read the openings file {e}"))
}
