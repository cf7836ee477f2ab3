//! Drives an engine over GTP as Othello GTP arenas do: the game's setup ([`GameSetup`]:
//! `boardsize 8` for Othello, `set_game NAME` and `set_rules` for the other games), `clear_board`, the
//! moves of both sides as `play`, `time_settings` once per game and `time_left` for both
//! colours before each `genmove` in clock games; a time per move is `set_movetime MS` when
//! the engine lists it. Times are sent in seconds with three decimals (GTP's specification
//! has whole seconds only, which turn the last second of a clock into 0): an engine that
//! refuses them gets whole seconds from then on. Every command carries an id, and the reply
//! must echo it. GTP can only reach positions by moves from the start.

use std::time::{Duration, Instant};

use crate::driver::{Driver, EngineMove, Fault, FaultKind, MoveRequest, TimeControl};
use crate::game::GameSetup;
use crate::nboard::shorten;
use crate::process::EngineProcess;
use crate::record::ArenaRecord;
use iago_core::engine::EngineGame;
use iago_core::game::Color;

/// Extension commands that set a fixed search depth, tried in this order when the engine
/// lists one of them; GTP itself has none.
const DEPTH_COMMANDS: &[&str] = &["set_depth", "depth", "level"];

/// A GTP engine process and its command numbering: commands out, replies in.
pub struct GtpConnection {
    process: EngineProcess,
    next_id: u64,
    /// The name the engine gave (its first word).
    pub name: Option<String>,
    /// The commands the engine listed.
    pub commands: Vec<String>,
}

impl GtpConnection {
    /// Starts the engine and asks `protocol_version`, `name` and `list_commands`.
    pub fn start(command: &str, deadline: Instant) -> Result<GtpConnection, Fault> {
        let process = EngineProcess::spawn(command)?;
        let mut connection = GtpConnection {
            process,
            next_id: 1,
            name: None,
            commands: Vec::new(),
        };
        // Some engines print a banner before their first reply: only here is it tolerated.
        // Only the reply matters here, not its content: an old engine may refuse it.
        let _version = connection.command_lenient("protocol_version", deadline, true)?;
        if let Ok(name) = connection.command("name", deadline)? {
            connection.name = name.split_whitespace().next().map(str::to_string);
        }
        let commands = connection
            .command("list_commands", deadline)?
            .unwrap_or_default();
        connection.commands = commands
            .lines()
            .map(|line| line.trim().to_string())
            .filter(|line| !line.is_empty())
            .collect();
        Ok(connection)
    }

    /// Tells the engine the game: `boardsize N` where the game is named by its board
    /// (the engine must take it), `set_game NAME` (an engine that plays one game may not
    /// know it) and `set_rules RULES` when the engine lists it.
    pub fn set_up(&mut self, setup: &GameSetup, deadline: Instant) -> Result<(), Fault> {
        if let Some(size) = setup.board_size {
            self.require(&format!("boardsize {size}"), deadline)?;
        }
        if let Some(game) = setup.game {
            self.optional_command(&format!("set_game {game}"), deadline)?;
        }
        if let Some(rules) = &setup.rules {
            if self.knows("set_rules") {
                self.require(&format!("set_rules {rules}"), deadline)?;
            } else {
                log::warn!(
                    "{} lists no set_rules; it plays by its own rules",
                    self.name.as_deref().unwrap_or("a GTP engine")
                );
            }
        }
        Ok(())
    }

    /// True when the engine listed `command`.
    pub fn knows(&self, command: &str) -> bool {
        self.commands.iter().any(|c| c == command)
    }

    /// Sends `text` and reads its reply: `Ok(Ok(result))` for `=`, `Ok(Err(message))` for
    /// `?`, `Err` when the engine failed (crash, timeout, garbage).
    pub fn command(
        &mut self,
        text: &str,
        deadline: Instant,
    ) -> Result<Result<String, String>, Fault> {
        self.command_lenient(text, deadline, false)
    }

    /// A command that must succeed: a `?` reply becomes a refusal.
    pub fn require(&mut self, text: &str, deadline: Instant) -> Result<String, Fault> {
        self.command(text, deadline)?
            .map_err(|message| refused(text, &message))
    }

    /// A command the engine may not know (the time commands are optional in GTP): an error
    /// reply is logged, and the per-move cap still bounds the engine.
    pub fn optional_command(&mut self, text: &str, deadline: Instant) -> Result<(), Fault> {
        if let Err(message) = self.command(text, deadline)? {
            log::debug!("GTP engine refused optional \"{text}\": {message}");
        }
        Ok(())
    }

    /// Ends the engine: `quit`, then its process is stopped.
    pub fn shut_down(&mut self) {
        let _ = self.process.send("quit");
        self.process
            .shut_down(std::time::Duration::from_millis(500));
    }

    /// Sends `id text` and reads its reply: `=id result` or `?id message`, then lines up to
    /// an empty one. Anything else where the reply is due is garbage.
    fn command_lenient(
        &mut self,
        text: &str,
        deadline: Instant,
        skip_noise: bool,
    ) -> Result<Result<String, String>, Fault> {
        let id = self.next_id;
        self.next_id += 1;
        self.process.send(&format!("{id} {text}"))?;
        let first = loop {
            let line = self.process.receive(deadline)?;
            if line.trim().is_empty() {
                continue;
            }
            if line.starts_with('=') || line.starts_with('?') || !skip_noise {
                break line;
            }
        };
        let garbage = || {
            Fault::new(
                FaultKind::Garbage,
                format!("reply to \"{id} {text}\" was {:?}", shorten(&first)),
            )
        };
        let success = first.starts_with('=');
        if !success && !first.starts_with('?') {
            return Err(garbage());
        }
        let rest = &first[1..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        // A reply without an id is tolerated (some engines never echo one); a wrong id
        // means the engine answers another command.
        if digits > 0 && rest[..digits].parse::<u64>().ok() != Some(id) {
            return Err(garbage());
        }
        let after_id = &rest[digits..];
        if !(after_id.is_empty() || after_id.starts_with(' ')) {
            return Err(garbage());
        }
        let mut result = after_id.trim().to_string();
        loop {
            let line = self.process.receive(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            result.push('\n');
            result.push_str(line.trim_end());
        }
        Ok(if success { Ok(result) } else { Err(result) })
    }
}

pub struct GtpDriver<G: EngineGame> {
    connection: GtpConnection,
    time_control: TimeControl,
    /// The position every game starts from: the engine reaches others by `play`.
    start: G,
    /// True when the engine took the time per move as `set_movetime`: it then needs no
    /// `time_settings` or `time_left` for it.
    movetime_set: bool,
    /// The moves the engine's board holds, from the start position.
    known: Option<usize>,
    /// The engine accepts times with decimals (until it refuses one).
    decimals: bool,
}

impl<G: EngineGame> GtpDriver<G> {
    /// Starts the engine: `protocol_version`, `name`, `list_commands`, the game's
    /// `setup` ([`GtpConnection::set_up`]), and the depth extension at fixed depth or
    /// `set_movetime` for a time per move when the engine lists them.
    pub fn start(
        command: &str,
        time_control: TimeControl,
        start: G,
        setup: &GameSetup,
        deadline: Instant,
    ) -> Result<GtpDriver<G>, Fault> {
        let mut connection = GtpConnection::start(command, deadline)?;
        connection.set_up(setup, deadline)?;
        let mut movetime_set = false;
        match time_control {
            TimeControl::Depth(depth) => {
                match DEPTH_COMMANDS.iter().find(|c| connection.knows(c)) {
                    Some(name) => {
                        connection.require(&format!("{name} {depth}"), deadline)?;
                    }
                    None => log::warn!(
                        "GTP engine {command:?} lists no depth command ({}); it plays at its own settings",
                        DEPTH_COMMANDS.join(", ")
                    ),
                }
            }
            TimeControl::MoveTime(per_move) if connection.knows("set_movetime") => {
                connection.require(&format!("set_movetime {}", per_move.as_millis()), deadline)?;
                movetime_set = true;
            }
            _ => {}
        }
        Ok(GtpDriver {
            connection,
            time_control,
            start,
            movetime_set,
            known: None,
            decimals: true,
        })
    }

    fn command(&mut self, text: &str, deadline: Instant) -> Result<Result<String, String>, Fault> {
        self.connection.command(text, deadline)
    }

    /// Plays the game's missing moves on the engine's board (from the start when it holds
    /// something else), then sets the clocks.
    fn send_game(&mut self, request: &MoveRequest<G>) -> Result<(), Fault> {
        let record = request.record;
        let deadline = request.deadline;
        if record.start != self.start {
            return Err(Fault::new(
                FaultKind::Refused,
                "GTP cannot set up a position that is not reached by moves from the start",
            ));
        }
        let from = match self.known {
            Some(count) if count <= record.moves.len() => count,
            _ => {
                self.command("clear_board", deadline)?
                    .map_err(|message| refused("clear_board", &message))?;
                0
            }
        };
        for (index, recorded) in record.moves.iter().enumerate().skip(from) {
            let text = format!(
                "play {} {}",
                colour_letter(record.mover_of(index)),
                record.start.format_move(recorded.mv)
            );
            self.command(&text, deadline)?.map_err(|message| {
                Fault::new(
                    FaultKind::Refused,
                    format!("rejected the legal \"{text}\": {}", shorten(&message)),
                )
            })?;
            self.known = Some(index + 1);
        }
        self.known = Some(record.moves.len());
        for (colour, left) in ["b", "w"].into_iter().zip(request.remaining) {
            if let Some(left) = left {
                self.time_command(
                    |decimals| format!("time_left {colour} {} 0", seconds(left, decimals)),
                    deadline,
                )?;
            }
        }
        if let TimeControl::MoveTime(per_move) = self.time_control
            && !self.movetime_set
        {
            let mover = colour_letter(record.mover_of(record.moves.len()));
            self.time_command(
                |decimals| format!("time_left {mover} {} 1", seconds_up(per_move, decimals)),
                deadline,
            )?;
        }
        Ok(())
    }

    /// Sends the time command `text(decimals)` writes, with decimals while the engine
    /// takes them; at its first refusal, again in whole seconds, and so from then on.
    fn time_command(
        &mut self,
        text: impl Fn(bool) -> String,
        deadline: Instant,
    ) -> Result<(), Fault> {
        if self.decimals {
            match self.command(&text(true), deadline)? {
                Ok(_) => return Ok(()),
                Err(message) => {
                    log::info!(
                        "GTP engine refused \"{}\" ({message}): whole seconds from now on",
                        text(true)
                    );
                    self.decimals = false;
                }
            }
        }
        self.connection.optional_command(&text(false), deadline)
    }
}

impl<G: EngineGame> Driver<G> for GtpDriver<G> {
    fn new_game(&mut self, _record: &ArenaRecord<G>, deadline: Instant) -> Result<(), Fault> {
        self.command("clear_board", deadline)?
            .map_err(|message| refused("clear_board", &message))?;
        self.known = Some(0);
        // `time_settings main byo-yomi-time byo-yomi-stones`: a clock is main time only; a
        // time per move is a byo-yomi period of one stone.
        match self.time_control {
            TimeControl::Depth(_) => Ok(()),
            TimeControl::MoveTime(_) if self.movetime_set => Ok(()),
            TimeControl::Clock(clock) => self.time_command(
                |decimals| format!("time_settings {} 0 0", seconds(clock, decimals)),
                deadline,
            ),
            TimeControl::MoveTime(per_move) => self.time_command(
                |decimals| format!("time_settings 0 {} 1", seconds_up(per_move, decimals)),
                deadline,
            ),
        }
    }

    fn request_move(&mut self, request: &MoveRequest<G>) -> Result<EngineMove<G::Move>, Fault> {
        self.send_game(request)?;
        let mover = request.record.mover_of(request.record.moves.len());
        let text = format!("genmove {}", colour_letter(mover));
        let reply = self
            .command(&text, request.deadline)?
            .map_err(|message| refused(&text, &message))?;
        // The move is the last word (some engines say more before it).
        let word = reply.split_whitespace().last().unwrap_or("");
        if word.eq_ignore_ascii_case("resign") {
            return Err(Fault::new(FaultKind::Refused, "resigned"));
        }
        let mv = G::parse_move_text(word).map_err(|_| {
            Fault::new(
                FaultKind::Garbage,
                format!("genmove reply {:?} is not a move", shorten(&reply)),
            )
        })?;
        // genmove plays the move on the engine's own board.
        self.known = Some(request.record.moves.len() + 1);
        Ok(EngineMove {
            mv,
            eval: None,
            effort: None,
        })
    }

    fn engine_name(&self) -> Option<&str> {
        self.connection.name.as_deref()
    }
}

fn refused(command: &str, message: &str) -> Fault {
    Fault::new(
        FaultKind::Refused,
        format!("\"{command}\" failed: {}", shorten(message)),
    )
}

fn colour_letter(color: Color) -> &'static str {
    match color {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// A time left on a clock in seconds: with three decimals (rounded down to the
/// millisecond), or whole seconds rounded down (never more time than there is).
fn seconds(time: Duration, decimals: bool) -> String {
    if decimals {
        let millis = time.as_millis();
        format!("{}.{:03}", millis / 1000, millis % 1000)
    } else {
        time.as_secs().to_string()
    }
}

/// A time per move in seconds: with three decimals, or whole seconds rounded up to at
/// least 1 (a time per move of 0 would mean no limit).
fn seconds_up(time: Duration, decimals: bool) -> String {
    if decimals {
        seconds(time, true)
    } else {
        (time.as_secs() + u64::from(time.subsec_nanos() > 0))
            .max(1)
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_keep_their_milliseconds_unless_whole_seconds_are_asked() {
        let left = Duration::from_micros(734_999);
        assert_eq!(seconds(left, true), "0.734");
        assert_eq!(seconds(left, false), "0");
        assert_eq!(seconds(Duration::from_secs(61), true), "61.000");
        assert_eq!(seconds_up(Duration::from_millis(250), true), "0.250");
        assert_eq!(seconds_up(Duration::from_millis(250), false), "1");
        assert_eq!(seconds_up(Duration::from_millis(2100), false), "3");
    }
}
