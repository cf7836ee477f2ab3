//! `iago match`: plays engines against each other (see `iago_arena`) and prints the
//! table, for any game of the registry (`--game`).

use super::out::{Failure, out};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Parser;

use super::args::{self, number, seconds};
use iago_arena::nboard::NBoardOptions;
use iago_arena::{
    EngineSpec, MatchConfig, MoveLimits, Opening, Sprt, TimeControl, openings, report, run_match,
};
use iago_core::engine::EngineGame;
use iago_core::games::{self, GameEntry, GameVisitor};

/// Plays games between two or more engines (every pair for a round robin), each driven as
/// a subprocess over its protocol (nboard or gtp) the way a GUI drives it, or iago's own
/// controller in this process (in-process, whose COMMAND is its engine options, as `iago
/// --help` lists them: `a=in-process:--eval discs --book none`). COMMAND is a shell
/// command line. Moves are checked with iago's rules; an illegal move, a crash,
/// unreadable output or a timeout loses the game by forfeit and the engine is restarted.
/// The report: each pairing's results, score, Elo and mean disc difference; each
/// engine's points, time a move (with its mean depth and nodes a second where it says
/// them) and forfeits; how it used its clock or its time per move (the clock left at the
/// end of its games, the share of the move time its moves took) and its slowest move.
#[derive(Parser, Debug)]
#[command(
    name = "iago match",
    override_usage = "iago match --engine NAME=PROTOCOL:COMMAND --engine NAME=PROTOCOL:COMMAND [OPTIONS]"
)]
pub struct MatchArgs {
    /// An engine of the match: NAME=PROTOCOL:COMMAND, PROTOCOL nboard, gtp or in-process
    /// (repeatable: two or more)
    #[arg(long = "engine", value_name = "NAME=PROTOCOL:COMMAND")]
    engines: Vec<String>,
    /// The game (default: the first of the registry); NBoard engines play only a game
    /// with GGF records (Othello); GTP engines of another game are sent `set_game NAME`
    /// and, when they list it, `set_rules RULES`
    #[arg(long, value_name = "NAME")]
    game: Option<String>,
    /// Games per pair of engines
    #[arg(long, value_name = "N", default_value = "100", value_parser = number::<u32>)]
    games: u32,
    /// A fixed search depth
    #[arg(long, value_name = "D", value_parser = number::<u32>)]
    depth: Option<u32>,
    /// A fixed time per move in milliseconds (the default: 1000); NBoard has no time per
    /// move, so an NBoard engine gets (and is held to) a game clock of 30 such moves
    #[arg(long, value_name = "MS", value_parser = number::<u64>)]
    movetime: Option<u64>,
    /// A game clock per player
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    clock: Option<Duration>,
    /// This engine's own limit instead: depth:D, movetime:MS or clock:SECONDS (e.g.
    /// --limit iago=movetime:200); repeatable
    #[arg(long = "limit", value_name = "NAME=LIMIT")]
    limits: Vec<String>,
    /// Longest time for one move before a loss on time (default: 60 at a fixed depth,
    /// twice the move time (at least move time + 1 s), or the whole clock, an NBoard
    /// engine's 30-move clock included)
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    move_cap: Option<Duration>,
    /// Tolerance over an exhausted clock, in milliseconds
    #[arg(long, value_name = "MS", default_value = "500", value_parser = number::<u64>)]
    margin: u64,
    /// Games at once (default: the number of cores)
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    concurrency: Option<usize>,
    /// The game's rule settings, as its `set_rules` reads them (Mill: draw-plies=N
    /// repetitions=N removal=one|per-mill flying=on|off)
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// Opening file: one opening a line, in the game's notation (Othello: f5d6c3);
    /// default: the game's own set (Othello's balanced openings), random openings for
    /// other games; each opening is played twice, colours swapped
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Random openings of N plies instead (default 2 where random)
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    opening_plies: Option<usize>,
    /// The seed of the random openings
    #[arg(long, value_name = "N", default_value = "1", value_parser = number::<u64>)]
    seed: u64,
    /// Play every game from this one opening (`start` for none)
    #[arg(long, value_name = "MOVES")]
    start: Option<String>,
    /// Write every game as a record, one per line: GGF for Othello, `game=N white=..
    /// black=.. result=.. end=.. moves=..` otherwise
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Stop when the SPRT decides between the two Elo hypotheses
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// The SPRT's error rate alpha
    #[arg(long, value_name = "A", default_value = "0.05", value_parser = number::<f64>)]
    alpha: f64,
    /// The SPRT's error rate beta
    #[arg(long, value_name = "B", default_value = "0.05", value_parser = number::<f64>)]
    beta: f64,
    /// Time an engine gets to start, in seconds
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    startup: Duration,
    /// Tell NBoard engines the whole game (`set game`) before every move, as the NBoard
    /// GUI does, instead of the moves since they were last told it
    #[arg(long)]
    whole_game: bool,
    /// Send NBoard engines `set depth N` (the GUI's level) first whatever the time
    /// control, as the GUI does
    #[arg(long, value_name = "N", value_parser = number::<u32>)]
    nboard_depth: Option<u32>,
    /// No progress line on stderr
    #[arg(long)]
    quiet: bool,
}

/// Runs `iago match` with `args`.
pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = args::parse::<MatchArgs>("match", args)? else {
        return Ok(());
    };
    let game = options.game.as_deref().unwrap_or(games::GAMES[0].id);
    let entry = games::find(game).ok_or_else(|| format!("--game: {}", games::unknown(game)))?;
    games::visit(entry.id, Match(&options)).unwrap_or_else(|| Err(games::unknown(game).into()))
}

/// A match of the game it visits.
struct Match<'a>(&'a MatchArgs);

impl GameVisitor for Match<'_> {
    type Output = Result<(), Failure>;

    fn visit<G: EngineGame>(self, game: &'static GameEntry) -> Result<(), Failure> {
        let config = self.0.config::<G>(game)?;
        let summary = run_match(&config)?;
        out!("{}", report::final_report(&summary))?;
        Ok(())
    }
}

impl MatchArgs {
    /// The match these options describe, of `game`.
    fn config<G: EngineGame>(&self, game: &'static GameEntry) -> Result<MatchConfig<G>, String> {
        let mut start = G::start();
        if let Some(rules) = &self.rules {
            start = start
                .with_rules(rules)
                .map_err(|e| format!("--rules: {e}"))?;
        }
        let engines = (self.engines.iter())
            .map(|text| text.parse::<EngineSpec>())
            .collect::<Result<Vec<_>, String>>()?;
        if engines.len() < 2 {
            return Err("give at least two --engine NAME=PROTOCOL:COMMAND".into());
        }
        if self.games == 0 {
            return Err("--games must be at least 1".into());
        }
        if self.concurrency == Some(0) {
            return Err("--concurrency must be at least 1".into());
        }
        Ok(MatchConfig {
            game,
            limits: self.limits(&engines)?,
            openings: self.openings(&start)?,
            start,
            engines,
            games: self.games,
            concurrency: (self.concurrency)
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            out: self.out.clone(),
            sprt: self.sprt()?,
            startup_timeout: self.startup,
            progress: !self.quiet,
            nboard: NBoardOptions {
                whole_game: self.whole_game,
                depth: self.nboard_depth,
            },
        })
    }

    /// The time control of every engine, and each engine's own (`--limit`).
    fn limits(&self, engines: &[EngineSpec]) -> Result<Vec<MoveLimits>, String> {
        let given = [
            self.depth.map(TimeControl::Depth),
            self.movetime
                .map(|ms| TimeControl::MoveTime(Duration::from_millis(ms))),
            self.clock.map(TimeControl::Clock),
        ];
        let mut given = given.into_iter().flatten();
        let time_control = given
            .next()
            .unwrap_or(TimeControl::MoveTime(Duration::from_secs(1)));
        if given.next().is_some() {
            return Err("give only one of --depth, --movetime and --clock".into());
        }
        let mut own = Vec::new();
        for text in &self.limits {
            let (name, limit) = text
                .split_once('=')
                .ok_or_else(|| format!("--limit {text:?} is not NAME=LIMIT"))?;
            if !engines.iter().any(|e| e.name == name) {
                return Err(format!("--limit names {name:?}, which is no engine"));
            }
            own.push((name, parse_limit(limit)?));
        }
        let margin = Duration::from_millis(self.margin);
        (engines.iter())
            .map(|engine| {
                let control = (own.iter().rev())
                    .find(|(name, _)| *name == engine.name)
                    .map_or(time_control, |(_, control)| *control);
                if control == TimeControl::Depth(0) {
                    return Err("a depth must be at least 1".to_string());
                }
                Ok(MoveLimits::new(
                    engine.protocol,
                    control,
                    self.move_cap,
                    margin,
                ))
            })
            .collect()
    }

    /// The openings: a file, one given opening, or the game's default.
    fn openings<G: EngineGame>(&self, start: &G) -> Result<Vec<Opening<G>>, String> {
        if let Some(text) = &self.start {
            return Ok(vec![openings::read_opening(start, text)?]);
        }
        let Some(path) = &self.openings else {
            let count = self.games.div_ceil(2) as usize;
            return Ok(openings::default_openings_of(
                start,
                count,
                self.opening_plies,
                self.seed,
            ));
        };
        if let Some(out) = &self.out {
            iago_core::files::refuse_input_as_output("match", out, [path.as_path()])?;
        }
        let text = read_openings(path)?;
        openings::read_openings(start, &text).map_err(|e| format!("{}: {e}", path.display()))
    }

    fn sprt(&self) -> Result<Option<Sprt>, String> {
        let Some(text) = &self.sprt else {
            return Ok(None);
        };
        let (elo0, elo1) = text
            .split_once(',')
            .ok_or_else(|| format!("--sprt {text:?} is not ELO0,ELO1"))?;
        let elo = |text: &str| {
            text.trim()
                .parse::<f64>()
                .map_err(|_| format!("--sprt: {text:?} is not a valid number"))
        };
        Sprt::new(elo(elo0)?, elo(elo1)?, self.alpha, self.beta).map(Some)
    }
}

/// `depth:D`, `movetime:MS` or `clock:SECONDS`.
fn parse_limit(text: &str) -> Result<TimeControl, String> {
    let bad = || format!("limit {text:?} is not depth:D, movetime:MS or clock:SECONDS");
    let (kind, amount) = text.split_once(':').ok_or_else(bad)?;
    let refused = |option: &'static str| {
        move |refusal| match refusal {
            args::Refusal::Refused(refused) => refused.on_command_line(option, amount),
            args::Refusal::Not(what) => format!("{option}: {amount:?} is not {what}"),
        }
    };
    match kind {
        "depth" => Ok(TimeControl::Depth(
            number(amount).map_err(refused("depth"))?,
        )),
        "movetime" => Ok(TimeControl::MoveTime(Duration::from_millis(
            number(amount).map_err(refused("movetime"))?,
        ))),
        "clock" => Ok(TimeControl::Clock(
            seconds(amount).map_err(refused("clock"))?,
        )),
        _ => Err(bad()),
    }
}

/// The text of an openings file (`--openings`), bounded.
fn read_openings(path: &Path) -> Result<String, String> {
    iago_core::files::read_text(path, iago_core::files::OPENINGS)
        .map_err(|e| format!("cannot read the openings file {e}"))
}
