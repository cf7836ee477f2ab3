//! The text protocols on stdin/stdout: NBoard 2, GTP 2 and UGI.
//!
//! One thread reads input lines ([`lexer::read_lines`]); the main thread turns each into a
//! typed command, drives the [`Engine`](crate::engine::Engine) (whose jobs run on a third
//! thread) and is the only writer of stdout. Because the main thread never searches, it
//! sees an interrupt (NBoard's `ping`, UGI's `stop`) at once and stops a search in flight;
//! in GTP and UGI every other command, `quit` and end of input included, waits for the
//! search before it, so that a piped script gives the same output on every run.

pub mod gogui;
pub mod gtp;
pub mod lexer;
pub mod nboard;
pub mod ugi;

use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::Duration;

use crate::engine::EngineGame;
use crate::games::{self, GameEntry, GameVisitor};
use crate::options::{Player, Settings};
use crate::search::Searcher;
use lexer::InputError;

/// Which protocol to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    NBoard,
    Gtp,
    Ugi,
}

impl Protocol {
    pub fn from_name(name: &str) -> Result<Protocol, String> {
        match name.to_ascii_lowercase().as_str() {
            "nboard" => Ok(Protocol::NBoard),
            "gtp" => Ok(Protocol::Gtp),
            "ugi" => Ok(Protocol::Ugi),
            _ => Err(format!("unknown protocol {name:?} (nboard, gtp or ugi)")),
        }
    }
}

/// A line of a text protocol's input: without its end of line, or why it could not be read.
pub type TextLine = Result<String, InputError>;

/// What reaches the main thread: a line of input (a text protocol's, or another front
/// end's request), the end of input, or news from the job thread.
#[derive(Debug, PartialEq, Eq)]
pub enum Event<L = TextLine> {
    /// One input line (or request).
    Line(L),
    /// End of input.
    End,
    /// The job thread has progress or has finished.
    Wake,
}

/// What a session asks of the main loop after an event.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Exit,
    /// Go on with another game (GTP `set_game`).
    SwitchGame(&'static GameEntry),
}

/// Input read but not run yet: the one queue of every protocol. Lines wait here while a
/// job runs (but those a session acts on at once), and what a session did not run goes
/// on to the next game's session (GTP's `set_game`).
#[derive(Debug)]
pub struct Input<L = TextLine> {
    /// Lines in the order they came.
    pub lines: VecDeque<L>,
    /// End of input came after them.
    pub ended: bool,
}

impl<L> Default for Input<L> {
    fn default() -> Self {
        Input {
            lines: VecDeque::new(),
            ended: false,
        }
    }
}

/// When a line that arrives during a job runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// At once, beside the job (an interrupt, a question answered at once).
    Now,
    /// In its turn, after the job and the lines queued before it.
    InTurn,
}

/// A protocol session over one game: grammar and formatting over the engine. The event
/// loop ([`event_loop`]) keeps the queue and hands the session a line when it runs.
pub trait Session {
    /// What the session reads: a text line ([`TextLine`]) or a front end's typed request.
    type Line;
    /// A line arrives while a job runs, `queued` lines waiting before it: whether it runs
    /// now or in its turn (a session may take note, as UGI's `quit` stops an infinite
    /// search at once and still waits its turn).
    fn arrives(&mut self, line: &Self::Line, queued: usize) -> Arrival;
    /// Runs a line.
    fn line(&mut self, line: Self::Line) -> Flow;
    /// The job thread has news.
    fn wake(&mut self) -> Flow;
    /// The job in flight must end: input has ended or the queue is full. Waits for it and
    /// answers it (stopping a search that would never end by itself); or, where waiting
    /// is not how this protocol ends a job, ends the session.
    fn finish(&mut self) -> Flow;
    /// The queue is full, and the job may not end by itself (an infinite search waits for
    /// `stop`): `false` drops the newest line instead of waiting.
    fn may_wait(&mut self) -> bool {
        true
    }
    /// Every line has run and no job is in flight after the end of input.
    fn end(&mut self) -> Flow;
    fn busy(&self) -> bool;
}

/// Pending input lines: beyond this many, the reader waits (memory stays bounded).
const QUEUE: usize = 256;

/// Runs the engine on stdin/stdout until end of input or `quit`.
pub fn run(protocol: Option<Protocol>, game: &str, settings: Settings) -> Result<(), String> {
    let mut game = games::find(game).ok_or_else(|| games::unknown(game))?;
    // Refuse bad settings before reading any input.
    games::visit(game.id, CheckSettings(&settings)).unwrap_or(Ok(()))?;
    let mut input = Input::default();
    let (sender, events) = sync_channel(QUEUE);
    let reader = sender.clone();
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || lexer::read_lines(std::io::stdin(), reader))
        .map_err(|e| format!("cannot start the input thread: {e}"))?;
    let protocol = match protocol {
        Some(protocol) => protocol,
        None => match first_line(&events) {
            Some(line) => {
                let chosen = match line.as_ref().map(|l| lexer::command_word(l)) {
                    Ok(Some(("nboard", _))) => Protocol::NBoard,
                    Ok(Some(("ugi", _))) => Protocol::Ugi,
                    _ => Protocol::Gtp,
                };
                input.lines.push_back(line);
                chosen
            }
            None => return Ok(()),
        },
    };
    // NBoard is Othello's protocol: its GUI would show another game's moves on an
    // Othello board.
    if protocol == Protocol::NBoard && game.id != games::GAMES[0].id {
        return Err(format!(
            "NBoard speaks Othello only: --game {} is played over GTP or UGI",
            game.id
        ));
    }
    log::info!("speaking {protocol:?}");
    let mut carried = None;
    loop {
        let channel = Channel {
            sender: &sender,
            events: &events,
        };
        let session = RunSession {
            protocol,
            settings: &settings,
            carried: carried.take(),
            input: &mut input,
            channel,
        };
        let ran = games::visit(game.id, session)
            .unwrap_or_else(|| Err(format!("game {:?} has no engine", game.id)));
        match ran? {
            (Flow::SwitchGame(next), carry) => {
                game = next;
                carried = carry;
            }
            _ => return Ok(()),
        }
    }
}

/// The main thread's events and the sender job threads wake it with.
#[derive(Clone, Copy)]
struct Channel<'a> {
    sender: &'a SyncSender<Event>,
    events: &'a Receiver<Event>,
}

/// The first line that is not blank (GTP ignores blank lines; so does the choice).
fn first_line(events: &Receiver<Event>) -> Option<TextLine> {
    loop {
        match events.recv() {
            Ok(Event::Line(Ok(line))) if line.trim().is_empty() => continue,
            Ok(Event::Line(line)) => return Some(line),
            Ok(Event::Wake) => continue,
            Ok(Event::End) | Err(_) => return None,
        }
    }
}

/// What a session gives the next game's session after a switch (GTP only).
type Carried = Option<gtp::Carry>;

/// Checks that the settings make sense for a game (an evaluator name, for instance).
struct CheckSettings<'a>(&'a Settings);

impl GameVisitor for CheckSettings<'_> {
    type Output = Result<(), String>;

    fn visit<G: EngineGame>(self, _game: &'static GameEntry) -> Result<(), String> {
        let settings = self.0;
        if let Some(name) = &settings.eval {
            G::evaluator(name)?;
        }
        if let Some(mb) = settings.hash_mb
            && settings.player == Player::Search
        {
            Searcher::<G>::can_allocate(mb).map_err(|error| format!("--hash {mb}: {error}"))?;
        }
        Ok(())
    }
}

/// One game's session, until it ends or switches to another game.
struct RunSession<'a> {
    protocol: Protocol,
    settings: &'a Settings,
    carried: Carried,
    input: &'a mut Input,
    channel: Channel<'a>,
}

impl GameVisitor for RunSession<'_> {
    type Output = Result<(Flow, Carried), String>;

    fn visit<G: EngineGame>(self, game: &'static GameEntry) -> Self::Output {
        let RunSession {
            protocol,
            settings,
            carried,
            input,
            channel,
        } = self;
        let events = channel.events;
        let waker = channel.sender.clone();
        // A full queue holds input lines, so the main loop wakes anyway: dropping is fine.
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(move || {
            let _ = waker.try_send(Event::Wake);
        });
        let out = Output::new(Box::new(std::io::stdout()));
        match protocol {
            Protocol::NBoard => {
                let mut session = nboard::NBoard::<G>::new(settings.clone(), wake, out)?;
                Ok((event_loop(&mut session, input, events), None))
            }
            Protocol::Gtp => {
                let carry = carried.unwrap_or_else(|| gtp::Carry::new(settings.clone()));
                let mut session = gtp::Gtp::<G>::resume(game, carry, wake, out)?;
                let flow = event_loop(&mut session, input, events);
                let carry = matches!(flow, Flow::SwitchGame(_)).then(|| session.carry());
                Ok((flow, carry))
            }
            Protocol::Ugi => {
                let mut session = ugi::Ugi::<G>::new(settings.clone(), wake, out)?;
                Ok((event_loop(&mut session, input, events), None))
            }
        }
    }
}

/// Feeds `session` the lines of `input` not run yet, then events, until it exits or
/// switches game; what it was not fed stays in `input`. While a job runs, lines wait in
/// `input` in their turn unless the session acts on them at once ([`Session::arrives`]).
pub fn event_loop<S: Session + ?Sized>(
    session: &mut S,
    input: &mut Input<S::Line>,
    events: &Receiver<Event<S::Line>>,
) -> Flow {
    loop {
        while !session.busy()
            && let Some(line) = input.lines.pop_front()
        {
            let flow = session.line(line);
            if flow != Flow::Continue {
                return flow;
            }
        }
        let flow = if input.ended {
            if session.busy() {
                session.finish()
            } else {
                return session.end();
            }
        } else if input.lines.len() > QUEUE {
            // Too much waiting: the job ends before more is read.
            if session.may_wait() {
                session.finish()
            } else {
                input.lines.pop_back();
                Flow::Continue
            }
        } else {
            match next_event(session.busy(), events) {
                Event::Line(line) => {
                    if session.busy()
                        && session.arrives(&line, input.lines.len()) == Arrival::InTurn
                    {
                        input.lines.push_back(line);
                        Flow::Continue
                    } else {
                        session.line(line)
                    }
                }
                Event::Wake => session.wake(),
                Event::End => {
                    input.ended = true;
                    Flow::Continue
                }
            }
        };
        if flow != Flow::Continue {
            return flow;
        }
    }
}

/// The next event; while a job runs, a wake-up now and then (the job thread's may be
/// dropped when the channel is full).
fn next_event<L>(busy: bool, events: &Receiver<Event<L>>) -> Event<L> {
    if busy {
        match events.recv_timeout(Duration::from_millis(50)) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => Event::Wake,
            Err(RecvTimeoutError::Disconnected) => Event::End,
        }
    } else {
        events.recv().unwrap_or(Event::End)
    }
}

/// A principal variation from `pos` as a protocol writes it: each move by `write`,
/// joined by `separator`, stopping at a move that is not legal (never print one).
pub fn pv_text<G: EngineGame>(
    pos: &G,
    pv: &[G::Move],
    write: impl Fn(&G, G::Move) -> String,
    separator: &str,
) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for &mv in pv {
        if !pos.legal_moves().as_ref().contains(&mv) {
            break;
        }
        words.push(write(&pos, mv));
        pos = pos.play(mv);
    }
    words.join(separator)
}

/// The one writer of stdout: whole replies, flushed at once.
pub struct Output {
    sink: Box<dyn Write + Send>,
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output { sink }
    }

    /// Writes `text` as is and flushes. A closed stdout is logged once per write, never
    /// fatal: end of input ends the engine.
    pub fn write(&mut self, text: &str) {
        if let Err(error) = self
            .sink
            .write_all(text.as_bytes())
            .and_then(|()| self.sink.flush())
        {
            log::debug!("writing output: {error}");
        }
    }

    /// Writes one line.
    pub fn line(&mut self, text: &str) {
        self.write(&format!("{text}\n"));
    }
}
