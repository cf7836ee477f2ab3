//! The limits of a request, decided in one place for every protocol: from the settings,
//! what the request itself tells ([`Told`]: UGI's `go depth 5`, a clock) and what it is
//! for ([`Purpose`]).

use std::time::Duration;

use crate::options::DEFAULT_DEPTH;
use crate::search::{Clock, Limits, time};

use super::{Engine, EngineGame};

/// What a search is for, which decides which limits it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A move to play: the settings' limits, the time told (else the time control's,
    /// else the clock of the game record), and the default depth where nothing else
    /// bounds the search.
    Move,
    /// A hint or an analysis: the settings' depth, nodes and move time, never a clock,
    /// the default depth where nothing else bounds it.
    Analysis,
    /// A solve to the end of the game, bounded by a node limit only (NBoard's `solve`).
    Solve,
    /// A solve that the settings' depth, level, nodes or move time may stop sooner
    /// (GTP's `solve`), with no default depth.
    BoundedSolve,
}

/// What a request tells of its own limits beside the settings (UGI's `go`); `None`
/// where it tells nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Told {
    /// In place of the settings' depth (and level's endgame).
    pub depth: Option<u32>,
    /// In place of the settings' node limit.
    pub nodes: Option<u64>,
    /// A time for this move (the shorter of it and the settings' wins).
    pub movetime: Option<Duration>,
    /// The mover's clock.
    pub clock: Option<Clock>,
    /// Until stopped: only the request's own depth and nodes bound it.
    pub infinite: bool,
}

impl<G: EngineGame> Engine<G> {
    /// The limits of a search for `purpose` that tells `told`. Every time told (a clock,
    /// the time left, a time for this move, in any protocol) loses the controller's
    /// latency ([`time::told_move_time`], [`time::told_clock`]).
    pub fn limits(&self, purpose: Purpose, told: &Told) -> Limits {
        let settings = self.settings();
        let nodes = told.nodes.or(settings.nodes);
        if purpose == Purpose::Solve {
            return Limits {
                nodes,
                ..Limits::default()
            };
        }
        if told.infinite {
            return Limits {
                depth: told.depth,
                nodes: told.nodes,
                ..Limits::default()
            };
        }
        let (movetime, clock) = match purpose {
            Purpose::Move => self.move_time(told),
            _ => (settings.movetime, None),
        };
        let mut limits = Limits {
            depth: told.depth.or(settings.depth()),
            nodes,
            movetime,
            clock,
            // A level's endgame holds only while the depth is the level's own.
            endgame: settings.endgame().filter(|_| told.depth.is_none()),
        };
        if purpose != Purpose::BoundedSolve && limits == Limits::default() {
            limits.depth = Some(DEFAULT_DEPTH);
        }
        limits
    }

    /// The time of a move: the settings' move time, and the time told, or the time
    /// control's for the mover, or the game record's clock, less the latency.
    fn move_time(&self, told: &Told) -> (Option<Duration>, Option<Clock>) {
        let allowance = self.time_control.allowance(self.position().side_to_move());
        let told_movetime = told.movetime.or(allowance.movetime);
        let movetime = match (
            self.settings().movetime,
            told_movetime.map(time::told_move_time),
        ) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let recorded = self.record().remaining_for_mover().map(|remaining| Clock {
            remaining,
            increment: self.record().increment,
            moves_to_go: None,
        });
        let clock = told
            .clock
            .or(allowance.clock)
            .or(recorded)
            .map(|clock| Clock {
                remaining: time::told_clock(clock.remaining),
                ..clock
            });
        (movetime, clock)
    }
}
