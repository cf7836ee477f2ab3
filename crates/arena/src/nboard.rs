//! Drives an engine over NBoard as the NBoard GUI does: `nboard 2`, `set depth`, the game
//! as `set game <GGF>` or, when it grew by moves, one `move` line per move (the engine's
//! own moves included), then `ping n` and `go`; the reply is the first `=== mv/eval/time`
//! after `pong n`. Lines the GUI does not know are ignored, as the GUI ignores them.

use std::time::Instant;

use crate::driver::{Driver, EngineMove, Fault, FaultKind, MoveRequest, TimeControl};
use crate::process::EngineProcess;
use crate::record::{self, ArenaRecord};
use iago_core::engine::{EngineGame, GgfFormat};

/// How NBoard engines are told the game, where a match asks for the NBoard GUI's ways
/// instead of the fewest lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NBoardOptions {
    /// Send the whole game with `set game` before every move, as the NBoard GUI does,
    /// instead of the moves played since the engine was last told the game.
    pub whole_game: bool,
    /// Send `set depth N` (the GUI's level) first whatever the time control; a fixed
    /// depth is always sent.
    pub depth: Option<u32>,
}

/// An NBoard engine of a game with GGF records ([`EngineGame::GGF`]: Othello).
pub struct NBoardDriver<G: EngineGame> {
    process: EngineProcess,
    ggf: GgfFormat<G>,
    time_control: TimeControl,
    /// Send the whole game before every move ([`NBoardOptions::whole_game`]).
    whole_game: bool,
    last_ping: u64,
    /// The game the engine holds: its start and the moves it was told, if known.
    known: Option<(G, usize)>,
    name: Option<String>,
}

impl<G: EngineGame> NBoardDriver<G> {
    /// Starts the engine and checks it answers a `ping` before `deadline`; a game
    /// without GGF records is refused before anything is started.
    pub fn start(
        command: &str,
        time_control: TimeControl,
        options: NBoardOptions,
        deadline: Instant,
    ) -> Result<NBoardDriver<G>, Fault> {
        let ggf = G::GGF.ok_or_else(|| {
            Fault::new(
                FaultKind::Refused,
                "NBoard engines play only games with GGF records (Othello)",
            )
        })?;
        let process = EngineProcess::spawn(command)?;
        let mut driver = NBoardDriver {
            process,
            ggf,
            time_control,
            whole_game: options.whole_game,
            last_ping: 0,
            known: None,
            name: None,
        };
        driver.process.send("nboard 2")?;
        let depth = match time_control {
            TimeControl::Depth(depth) => Some(depth),
            _ => options.depth,
        };
        if let Some(depth) = depth {
            driver.process.send(&format!("set depth {depth}"))?;
        }
        driver.synchronise(deadline)?;
        Ok(driver)
    }

    /// Sends `ping n` and reads until `pong n`, ignoring what comes before.
    fn synchronise(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.last_ping += 1;
        let ping = self.last_ping;
        self.process.send(&format!("ping {ping}"))?;
        loop {
            let line = self.process.receive(deadline)?;
            if self.read_common(&line)? == Some(ping) {
                return Ok(());
            }
        }
    }

    /// Handles lines that may come at any time; returns the number of a `pong`.
    fn read_common(&mut self, line: &str) -> Result<Option<u64>, Fault> {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("pong") => match words.next().map(str::parse::<u64>) {
                Some(Ok(number)) => Ok(Some(number)),
                _ => Err(Fault::new(
                    FaultKind::Garbage,
                    format!("malformed pong: {:?}", shorten(line)),
                )),
            },
            Some("set") => {
                if words.next() == Some("myname")
                    && let Some(name) = words.next()
                {
                    self.name = Some(name.to_string());
                }
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    /// Brings the engine's game up to `record`: `move` lines when it only grew (unless
    /// the whole game is sent every time), else `set game`.
    fn send_game(&mut self, record: &ArenaRecord<G>) -> Result<(), Fault> {
        match &self.known {
            Some((start, count))
                if !self.whole_game && *start == record.start && *count <= record.moves.len() =>
            {
                for recorded in &record.moves[*count..] {
                    let text = record::format_move(&self.ggf, recorded);
                    self.process.send(&format!("move {text}"))?;
                }
            }
            _ => {
                let mut game = record.clone();
                game.time_control = self.clock_for_engine();
                game.result = None;
                game.comment = None;
                let text = game.to_ggf(&self.ggf);
                self.process.send(&format!("set game {text}"))?;
            }
        }
        self.known = Some((record.start.clone(), record.moves.len()));
        Ok(())
    }

    /// The `TI` the engine sees: its own clock (the record has one only when both players
    /// share it).
    fn clock_for_engine(&self) -> Option<std::time::Duration> {
        told_clock(self.time_control)
    }
}

/// The game clock an NBoard engine is told (and held to) under `control`. NBoard has no
/// time-per-move command: for a fixed time per move the engine gets a clock of 30 such
/// moves, about what it has to play, and spends it as it sees fit.
pub fn told_clock(control: TimeControl) -> Option<std::time::Duration> {
    match control {
        TimeControl::Depth(_) => None,
        TimeControl::MoveTime(per_move) => Some(per_move * 30),
        TimeControl::Clock(clock) => Some(clock),
    }
}

impl<G: EngineGame> Driver<G> for NBoardDriver<G> {
    fn new_game(&mut self, _record: &ArenaRecord<G>, _deadline: Instant) -> Result<(), Fault> {
        // The GUI sends the new game with the first request; forget what the engine holds.
        self.known = None;
        Ok(())
    }

    fn request_move(&mut self, request: &MoveRequest<G>) -> Result<EngineMove<G::Move>, Fault> {
        self.send_game(request.record)?;
        self.last_ping += 1;
        let ping = self.last_ping;
        self.process.send(&format!("ping {ping}"))?;
        self.process.send("go")?;
        let mut caught_up = false;
        loop {
            let line = self.process.receive(request.deadline)?;
            if let Some(number) = self.read_common(&line)? {
                caught_up = number == ping;
                continue;
            }
            // A `===` before the pong answers an older request: the GUI drops it.
            if caught_up && let Some(reply) = line.trim_start().strip_prefix("===") {
                return parse_move_reply::<G>(reply);
            }
        }
    }

    fn engine_name(&self) -> Option<&str> {
        self.name.as_deref()
    }
}

/// Reads `mv[/eval[/time]]`; an eval may be a pair `v1,v2` (the first is used).
fn parse_move_reply<G: EngineGame>(reply: &str) -> Result<EngineMove<G::Move>, Fault> {
    let garbage = || {
        Fault::new(
            FaultKind::Garbage,
            format!("unreadable move reply: \"==={}\"", shorten(reply)),
        )
    };
    let text = reply.trim();
    let mut parts = text.split('/');
    let mv = G::parse_move_text(parts.next().unwrap_or("").trim()).map_err(|_| garbage())?;
    let eval = match parts.next().map(str::trim) {
        None | Some("") => None,
        Some(eval) => Some(
            eval.split(',')
                .next()
                .unwrap_or("")
                .parse::<f64>()
                .ok()
                .filter(|value| value.is_finite())
                .ok_or_else(garbage)?,
        ),
    };
    Ok(EngineMove {
        mv,
        eval,
        effort: None,
    })
}

/// A line cut for an error message.
pub(crate) fn shorten(text: &str) -> String {
    iago_core::text::shorten(text, 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use iago_core::othello::{Move, Position};

    fn parse_move_reply(reply: &str) -> Result<EngineMove<Move>, Fault> {
        super::parse_move_reply::<Position>(reply)
    }

    #[test]
    fn an_nboard_engine_is_told_a_clock_even_for_a_time_per_move() {
        use std::time::Duration;
        let per_move = TimeControl::MoveTime(Duration::from_millis(100));
        assert_eq!(told_clock(per_move), Some(Duration::from_secs(3)));
        let clock = TimeControl::Clock(Duration::from_secs(4));
        assert_eq!(told_clock(clock), Some(Duration::from_secs(4)));
        assert_eq!(told_clock(TimeControl::Depth(8)), None);
    }

    #[test]
    fn move_replies() {
        let f5: Move = "f5".parse().unwrap();
        assert_eq!(
            parse_move_reply(" F5/1.50/0.2"),
            Ok(EngineMove {
                mv: f5,
                eval: Some(1.5),
                effort: None
            })
        );
        assert_eq!(
            parse_move_reply(" f5//1.46"),
            Ok(EngineMove {
                mv: f5,
                eval: None,
                effort: None
            })
        );
        assert_eq!(
            parse_move_reply(" F5/3,-2"),
            Ok(EngineMove {
                mv: f5,
                eval: Some(3.0),
                effort: None
            })
        );
        assert_eq!(parse_move_reply(" PA").map(|m| m.mv), Ok(Move::PASS));
        for bad in ["", " Z9", " F5/x", " F5/inf", " hello world"] {
            assert_eq!(
                parse_move_reply(bad).map_err(|f| f.kind),
                Err(FaultKind::Garbage),
                "{bad:?}"
            );
        }
    }
}
