//! What the game loop needs from an engine, whatever its protocol and game: start a game, answer
//! a move request before a deadline. Every way an engine can fail becomes a [`Fault`],
//! which the game loop turns into a loss by forfeit.

use std::fmt;
use std::time::{Duration, Instant};

use crate::process::ProcessError;
use crate::record::ArenaRecord;
use iago_core::game::Game;

/// How the engines are limited, the same for every engine of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed search depth (NBoard `set depth`, a GTP depth extension).
    Depth(u32),
    /// A fixed time per move.
    MoveTime(Duration),
    /// A clock per player for the whole game.
    Clock(Duration),
}

/// The broad reason an engine lost by forfeit; the table counts forfeits by these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// A well-formed move that the rules do not allow.
    IllegalMove,
    /// The engine exited, closed its pipes or could not be started.
    Crash,
    /// Output that the protocol cannot read where a reply was due.
    Garbage,
    /// No answer within the per-move cap, or the game clock ran out.
    Timeout,
    /// A well-formed error or refusal (GTP `?`, a resignation, a rejected legal move).
    Refused,
}

impl FaultKind {
    pub const ALL: [FaultKind; 5] = [
        FaultKind::IllegalMove,
        FaultKind::Crash,
        FaultKind::Garbage,
        FaultKind::Timeout,
        FaultKind::Refused,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::IllegalMove => "illegal move",
            FaultKind::Crash => "crash",
            FaultKind::Garbage => "garbage",
            FaultKind::Timeout => "timeout",
            FaultKind::Refused => "refused",
        }
    }
}

/// An engine's failure, with the details for the game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.detail)
    }
}

impl From<ProcessError> for Fault {
    fn from(error: ProcessError) -> Fault {
        match error {
            ProcessError::Spawn(text) | ProcessError::Exited(text) => {
                Fault::new(FaultKind::Crash, text)
            }
            ProcessError::Timeout => Fault::new(FaultKind::Timeout, "no answer in time"),
        }
    }
}

/// What an engine is asked for one move.
pub struct MoveRequest<'a, G: Game> {
    /// The game so far (start position and moves); the engine moves next.
    pub record: &'a ArenaRecord<G>,
    /// Remaining clock time of Black and White, for each that plays on a clock.
    pub remaining: [Option<Duration>; 2],
    /// After this instant the engine has lost on time.
    pub deadline: Instant,
}

/// An engine's answer: a move in its notation already read (legality is the game
/// loop's to judge) and its evaluation if it gave one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineMove<M> {
    pub mv: M,
    /// Discs, from the mover's point of view.
    pub eval: Option<f64>,
    /// What the search cost, where the engine says (an engine in this process).
    pub effort: Option<Effort>,
}

/// The search effort of an engine over its searched moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Effort {
    pub moves: u64,
    pub nodes: u64,
    /// The sum of the depths completed, for the mean depth.
    pub depth_sum: u64,
    /// The searches' own time (without the game loop's).
    pub seconds: f64,
}

impl Effort {
    pub fn add(&mut self, other: &Effort) {
        self.moves += other.moves;
        self.nodes += other.nodes;
        self.depth_sum += other.depth_sum;
        self.seconds += other.seconds;
    }

    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }

    pub fn mean_depth(&self) -> f64 {
        self.depth_sum as f64 / self.moves.max(1) as f64
    }
}

/// An engine under the control of the arena, as a GUI controls it.
pub trait Driver<G: Game>: Send {
    /// Prepares a new game (the first move request carries the position).
    fn new_game(&mut self, record: &ArenaRecord<G>, deadline: Instant) -> Result<(), Fault>;

    /// Asks for the move of the side to move at the end of `request.record`.
    fn request_move(&mut self, request: &MoveRequest<G>) -> Result<EngineMove<G::Move>, Fault>;

    /// The name the engine gave itself, if any.
    fn engine_name(&self) -> Option<&str>;
}
