//! One game between two engines, refereed with iago's own rules: every move is checked
//! against the game's legal moves; the first fault of an engine ends the game as its loss.
//! The loop is the same for every game; what an engine is told before the games of a
//! match is a [`GameSetup`], in no protocol's words.

use std::time::{Duration, Instant};

use crate::driver::{Driver, Effort, Fault, FaultKind, MoveRequest, TimeControl};
use crate::nboard::told_clock;
use crate::openings::Opening;
use crate::record::{ArenaRecord, RecordedMove};
use crate::spec::Protocol;
use iago_core::engine::EngineGame;
use iago_core::game::{Color, Game};
use iago_core::games::{self, GameEntry};

/// A game longer than this many plies is stopped as a draw (only Mill, with its draw
/// rules switched off, gets there).
pub const MAX_PLIES: usize = 1000;

/// What an engine must know before it plays the games of a match: each driver turns it
/// into its protocol's commands (GTP: `boardsize`, `set_game`, `set_rules`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    /// The game's name, for engines that play several games (`set_game`); `None` for
    /// the registry's first game, Othello, which every engine of the protocols plays.
    pub game: Option<&'static str>,
    /// The board size the engine must take, for the game named by its board alone.
    pub board_size: Option<u32>,
    /// The rule settings the games are played by ([`EngineGame::rules_text`]).
    pub rules: Option<String>,
}

impl GameSetup {
    /// The setup of games of `game` from `start` (the position under the match's rules).
    pub fn new<G: EngineGame>(game: &GameEntry, start: &G) -> GameSetup {
        let default = games::GAMES.first() == Some(game);
        GameSetup {
            game: (!default).then_some(game.id),
            board_size: default.then_some(game.board_size),
            rules: start.rules_text(),
        }
    }
}

/// How much time each move may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveLimits {
    pub time_control: TimeControl,
    /// Longest wall-clock time for one move; over it the engine loses on time.
    pub move_cap: Duration,
    /// Tolerance over an exhausted game clock for process and pipe latency.
    pub clock_margin: Duration,
    /// The game clock the engine is held to: its clock limit, or the clock an NBoard
    /// engine is told for a fixed time per move.
    pub held_to_clock: Option<Duration>,
}

impl MoveLimits {
    /// The limits of an engine of `protocol` under `control`, with the longest move
    /// `move_cap` where given: by default a minute at a fixed depth, twice the time per
    /// move (at least the move time and a second), or the whole clock it is held to and
    /// the `margin` over it. An NBoard engine is told a clock even for a fixed time per
    /// move ([`told_clock`]), and is held to it: it may spend more on a hard move and less
    /// elsewhere.
    pub fn new(
        protocol: Protocol,
        control: TimeControl,
        move_cap: Option<Duration>,
        margin: Duration,
    ) -> MoveLimits {
        let held_to_clock = match (protocol, control) {
            (Protocol::NBoard, _) => told_clock(control),
            (_, TimeControl::Clock(clock)) => Some(clock),
            _ => None,
        };
        let default_cap = match (held_to_clock, control) {
            (Some(clock), _) => clock + margin,
            (None, TimeControl::MoveTime(per_move)) => {
                per_move + per_move.max(Duration::from_secs(1))
            }
            (None, _) => Duration::from_secs(60),
        };
        MoveLimits {
            time_control: control,
            move_cap: move_cap.unwrap_or(default_cap),
            clock_margin: margin,
            held_to_clock,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome<G: Game> {
    /// The result for Black ([`EngineGame::black_result`], ±[`EngineGame::MAX_RESULT`]
    /// after a forfeit, 0 for a game stopped at [`MAX_PLIES`]).
    pub black_result: i32,
    /// The colour that forfeited, and why.
    pub forfeit: Option<(Color, Fault)>,
    pub record: ArenaRecord<G>,
    /// What each engine spent, Black then White; opening moves excluded.
    pub thinking: [Thinking; 2],
}

/// A move that took longer than this was searched (one that took less was most likely
/// played from a table or the book): a time per move is judged by these.
pub const SEARCHED_MOVE: Duration = Duration::from_millis(20);

/// What one engine spent in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thinking {
    pub moves: u32,
    /// Wall-clock seconds from the request to the reply, over all moves.
    pub seconds: f64,
    /// The longest move, in seconds.
    pub slowest: f64,
    /// Moves longer than [`SEARCHED_MOVE`], and their seconds.
    pub searched_moves: u32,
    pub searched_seconds: f64,
    /// What the engine said its searches cost, where it says.
    pub effort: Effort,
    /// What was left of the clock it was held to at the end of the game.
    pub clock_left: Option<Duration>,
}

impl Thinking {
    fn add_move(&mut self, elapsed: Duration, effort: Option<Effort>) {
        let seconds = elapsed.as_secs_f64();
        self.moves += 1;
        self.seconds += seconds;
        self.slowest = self.slowest.max(seconds);
        if elapsed > SEARCHED_MOVE {
            self.searched_moves += 1;
            self.searched_seconds += seconds;
        }
        if let Some(effort) = effort {
            self.effort.add(&effort);
        }
    }
}

/// The index of a colour in per-colour arrays: Black 0, White 1.
pub fn colour_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn is_legal<G: Game>(pos: &G, mv: G::Move) -> bool {
    pos.legal_moves().as_ref().contains(&mv)
}

/// The record of `opening` between the engines `names` (Black's first), no move played.
fn opening_record<G: Game>(opening: &Opening<G>, names: [&str; 2]) -> (ArenaRecord<G>, G) {
    let mut record = ArenaRecord::new(opening.start.clone(), names[0], names[1]);
    let mut pos = opening.start.clone();
    for &mv in &opening.moves {
        // Openings are checked when they are read; a bad one is a bug, not an engine fault.
        if is_legal(&pos, mv) {
            pos = pos.play(mv);
        }
        record.moves.push(RecordedMove {
            mv,
            eval: None,
            seconds: None,
        });
    }
    (record, pos)
}

/// Plays `opening` to the end between `black` and `white` (named `names`), each under its
/// own limits (Black's first).
pub fn play_game<G: EngineGame>(
    opening: &Opening<G>,
    names: [&str; 2],
    engines: [&mut dyn Driver<G>; 2],
    limits: [&MoveLimits; 2],
) -> GameOutcome<G> {
    let (mut record, mut pos) = opening_record(opening, names);
    let clocks = limits.map(|l| match l.time_control {
        TimeControl::Clock(clock) => Some(clock),
        _ => None,
    });
    // GGF has one `TI` for both players: recorded when they share a clock.
    if clocks[0] == clocks[1] {
        record.time_control = clocks[0];
    }
    let [black, white] = engines;
    let mut engines: [&mut dyn Driver<G>; 2] = [black, white];
    let mut thinking = limits.map(|l| Thinking {
        clock_left: l.held_to_clock,
        ..Thinking::default()
    });
    let mut used = [Duration::ZERO; 2];
    for (index, engine) in engines.iter_mut().enumerate() {
        let start_deadline = Instant::now() + limits[index].move_cap;
        if let Err(fault) = engine.new_game(&record, start_deadline) {
            let color = if index == 0 {
                Color::Black
            } else {
                Color::White
            };
            return forfeited(record, color, fault, thinking);
        }
    }
    while !pos.is_game_over() && record.moves.len() < MAX_PLIES {
        let mover = pos.side_to_move();
        let me = colour_index(mover);
        let remaining = [0, 1].map(|i| clocks[i].map(|clock| clock.saturating_sub(used[i])));
        let held_to = limits[me]
            .held_to_clock
            .map(|clock| clock.saturating_sub(used[me]));
        let allowed = match held_to {
            Some(left) => (left + limits[me].clock_margin).min(limits[me].move_cap),
            None => limits[me].move_cap,
        };
        let asked = Instant::now();
        let request = MoveRequest {
            record: &record,
            remaining,
            deadline: asked + allowed,
        };
        let reply = engines[me].request_move(&request);
        let elapsed = asked.elapsed();
        let reply = match reply {
            Ok(reply) => reply,
            Err(mut fault) => {
                if fault.kind == FaultKind::Timeout {
                    fault.detail = format!("no move within {:.3} s", allowed.as_secs_f64());
                }
                return forfeited(record, mover, fault, thinking);
            }
        };
        used[me] += elapsed;
        thinking[me].add_move(elapsed, reply.effort);
        thinking[me].clock_left = limits[me]
            .held_to_clock
            .map(|clock| clock.saturating_sub(used[me]));
        if !is_legal(&pos, reply.mv) {
            let fault = Fault::new(
                FaultKind::IllegalMove,
                format!("{} is not legal here", pos.format_move(reply.mv)),
            );
            return forfeited(record, mover, fault, thinking);
        }
        record.moves.push(RecordedMove {
            mv: reply.mv,
            eval: reply.eval,
            seconds: Some(elapsed.as_secs_f64()),
        });
        pos = pos.play(reply.mv);
    }
    let black_result = if pos.is_game_over() {
        pos.black_result()
    } else {
        0
    };
    record.result = Some(black_result);
    GameOutcome {
        black_result,
        forfeit: None,
        record,
        thinking,
    }
}

/// An engine's place in a match: its process, started when a game needs it and dropped
/// after a forfeit (the loser may be hung or confused: a fresh process plays its next game).
pub type Seat<G> = Option<Box<dyn Driver<G>>>;

/// Plays `opening` between the engines `black` and `white` (indices into `seats`),
/// starting with `start` those that are not running; an engine that cannot start loses
/// by forfeit, as does one that faults during the game, and either is dropped.
pub fn play_seated<G: EngineGame>(
    seats: &mut [Seat<G>],
    [black, white]: [usize; 2],
    opening: &Opening<G>,
    names: [&str; 2],
    limits: [&MoveLimits; 2],
    mut start: impl FnMut(usize) -> Result<Box<dyn Driver<G>>, Fault>,
) -> GameOutcome<G> {
    let Ok([black_seat, white_seat]) = seats.get_disjoint_mut([black, white]) else {
        panic!("engine {black} cannot play itself");
    };
    let mut started = |seat: &mut Seat<G>, index| -> Result<Box<dyn Driver<G>>, Fault> {
        match seat.take() {
            Some(driver) => Ok(driver),
            None => start(index),
        }
    };
    let mut black_driver = match started(black_seat, black) {
        Ok(driver) => driver,
        Err(fault) => return forfeit_at_start(opening, names, Color::Black, fault),
    };
    let mut white_driver = match started(white_seat, white) {
        Ok(driver) => driver,
        Err(fault) => {
            *black_seat = Some(black_driver);
            return forfeit_at_start(opening, names, Color::White, fault);
        }
    };
    let outcome = play_game(
        opening,
        names,
        [black_driver.as_mut(), white_driver.as_mut()],
        limits,
    );
    let loser = outcome.forfeit.as_ref().map(|(color, _)| *color);
    if loser != Some(Color::Black) {
        *black_seat = Some(black_driver);
    }
    if loser != Some(Color::White) {
        *white_seat = Some(white_driver);
    }
    outcome
}

/// The outcome of a game whose engine `color` could not be started: a loss by forfeit
/// before the first move.
fn forfeit_at_start<G: EngineGame>(
    opening: &Opening<G>,
    names: [&str; 2],
    color: Color,
    fault: Fault,
) -> GameOutcome<G> {
    let (record, _) = opening_record(opening, names);
    forfeited(record, color, fault, [Thinking::default(); 2])
}

fn forfeited<G: EngineGame>(
    mut record: ArenaRecord<G>,
    color: Color,
    fault: Fault,
    thinking: [Thinking; 2],
) -> GameOutcome<G> {
    let black_result = match color {
        Color::Black => -G::MAX_RESULT,
        Color::White => G::MAX_RESULT,
    };
    record.result = Some(black_result);
    record.comment = Some(format!("{color} forfeits: {fault}"));
    GameOutcome {
        black_result,
        forfeit: Some((color, fault)),
        record,
        thinking,
    }
}
