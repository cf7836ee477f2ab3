//! `iago match`: plays engines against each other (see `arena`) and prints the table, for
//! any game of the registry (`--game`).

use super::out::{Failure, out, outln};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::args::Args;
use iago_arena::{
    EngineSpec, MatchConfig, MoveLimits, Sprt, TimeControl, openings, report, run_match,
};
use iago_core::engine::EngineGame;
use iago_core::games::{self, GameEntry, GameVisitor};

const HELP: &str =
    "usage: iago match --engine NAME=PROTOCOL:COMMAND --engine NAME=PROTOCOL:COMMAND [OPTIONS]

Plays games between two or more engines (every pair for a round robin), each driven as a
subprocess over its protocol (nboard or gtp) the way a GUI drives it. COMMAND is a shell
command line. Moves are checked with iago's rules; an illegal move, a crash, unreadable
output or a timeout loses the game by forfeit and the engine is restarted.

Options:
  --game NAME            the game: GAMES (default: the first); NBoard engines play
                         Othello only, GTP engines of another game are sent
                         `set_game NAME` and, when they list it, `set_rules RULES`
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
  --rules RULES          the game's rule settings, as its `set_rules` reads them (Mill:
                         draw-plies=N repetitions=N removal=one|per-mill flying=on|off)
  --openings FILE        opening file: one move sequence per line (default: Othello's
                         built-in balanced set, random openings for other games); each
                         opening is played twice, colours swapped
  --opening-plies N      random openings of N plies instead (default 2 where random)
  --seed N               the seed of the random openings (default 1)
  --start MOVES          play every game from this one opening (`start` for none)
  --out FILE             write every game as a record, one per line: GGF for Othello,
                         `game=N white=.. black=.. result=.. end=.. moves=..` otherwise
  --sprt ELO0,ELO1       stop when the SPRT decides between the two Elo hypotheses
  --alpha A, --beta B    the SPRT's error rates (default 0.05 each)
  --startup SECONDS      time an engine gets to start (default 30)
  --quiet                no progress line on stderr";

/// Runs `iago match` with `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let mut game = games::GAMES[0].id.to_string();
    let mut rest = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--game" {
            game = words.next().ok_or("--game needs a value")?.clone();
        } else {
            rest.push(word.clone());
        }
    }
    let entry = games::find(&game).ok_or_else(|| format!("--game: {}", games::unknown(&game)))?;
    games::visit(entry.id, Match(&rest)).unwrap_or_else(|| Err(games::unknown(&game).into()))
}

/// A match of the game it visits, from the command line's words.
struct Match<'a>(&'a [String]);

impl GameVisitor for Match<'_> {
    type Output = Result<(), Failure>;

    fn visit<G: EngineGame>(self, game: &'static GameEntry) -> Result<(), Failure> {
        let Some(config) = parse_args::<G>(game, self.0)? else {
            outln!("{}", HELP.replace("GAMES", &games::ids()))?;
            return Ok(());
        };
        let summary = run_match(&config)?;
        out!("{}", report::final_report(&summary))?;
        Ok(())
    }
}

/// The match described by `args`; `None` when help was asked for.
fn parse_args<G: EngineGame>(
    game: &'static GameEntry,
    args: &[String],
) -> Result<Option<MatchConfig<G>>, String> {
    let mut start = G::start();
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
    let (mut random_plies, mut seed) = (None, 1u64);
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
            "--rules" => {
                start = start
                    .with_rules(&args.value("--rules")?)
                    .map_err(|e| format!("--rules: {e}"))?
            }
            "--opening-plies" => random_plies = Some(args.number("--opening-plies")?),
            "--seed" => seed = args.number("--seed")?,
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
            Ok(MoveLimits::new(engine.protocol, control, move_cap, margin))
        })
        .collect::<Result<Vec<_>, String>>()?;
    if let (Some(out), Some(OpeningSource::File(path))) = (&out, &openings_source) {
        iago_core::files::refuse_input_as_output("match", out, [Path::new(path)])?;
    }
    let openings = match openings_source {
        None => {
            openings::default_openings_of(&start, games.div_ceil(2) as usize, random_plies, seed)
        }
        Some(OpeningSource::File(path)) => {
            let text = read_openings(&path)?;
            openings::read_openings(&start, &text).map_err(|e| format!("{path}: {e}"))?
        }
        Some(OpeningSource::Single(text)) => vec![openings::read_opening(&start, &text)?],
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
        game,
        start,
        engines,
        games,
        limits,
        concurrency,
        openings,
        out,
        sprt,
        startup_timeout: startup,
        progress,
        whole_game: false,
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
