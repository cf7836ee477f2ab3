//! `iago web`: a board in the browser, served on 127.0.0.1, that plays and analyses with
//! the one engine controller. The page (`assets/`) is in the binary; the HTTP side
//! (`server.rs`) reads requests into typed ones (`request.rs`) and puts them on the
//! engine's queue, where the board's session (`session.rs`) runs them on the event loop
//! every protocol runs on, and tells every page what changed as server-sent events.

mod line;
mod request;
mod server;
mod session;
mod view;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::mpsc::sync_channel;

use iago_core::engine::EngineGame;
use iago_core::games::{self, GameEntry, GameVisitor};
use iago_core::options::{self, Settings};
use iago_core::protocol::{Event, Input, event_loop};

use request::WebLine;
use session::{Publisher, WebSession};

pub const HELP: &str = "usage: iago web [--port N] [--bind ADDRESS] [--open] [ENGINE OPTIONS]

Serves a board on http://127.0.0.1:PORT/ and prints its address: play against iago (a
level of 1 to 60 for each side, or the random player), take moves back, see the
engine's hints and its evaluation graph. Everything runs in this process; the page needs
no network. Stop it with Ctrl-C.

  --port N          the port (default 8765; 0: any free one)
  --bind ADDRESS    serve on another address than 127.0.0.1 (anyone who reaches it
                    can play and use this machine's CPU: a warning says so)
  --open            open the page in the system's browser
  --game NAME       othello (default) or tictactoe
  --level N         the level iago plays and hints at until the page sets another
  --threads N, --hash MB, --book PATH|none, --eval NAME, --seed N
                    as for the engine (iago --help)";

/// The port served when none is given.
pub const DEFAULT_PORT: u16 = 8765;

/// Requests waiting for the engine: beyond, a request is refused at once.
const QUEUE: usize = 64;

/// What the command line asks for.
#[derive(Debug, PartialEq)]
struct Options {
    bind: IpAddr,
    port: u16,
    open: bool,
    game: String,
    settings: Settings,
}

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut options = Options {
        bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
        port: DEFAULT_PORT,
        open: false,
        game: games::GAMES[0].id.into(),
        settings: Settings::default(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |what: &str| {
            args.next()
                .cloned()
                .ok_or_else(|| format!("web: {arg} needs {what}"))
        };
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--open" => options.open = true,
            "--port" => {
                let text = value("a port number")?;
                options.port = text
                    .parse()
                    .map_err(|_| format!("web: --port {text}: a port is 0 to 65535"))?;
            }
            "--bind" => {
                let text = value("an address")?;
                options.bind = text
                    .parse()
                    .map_err(|_| format!("web: --bind {text}: not an IP address"))?;
            }
            "--game" => options.game = value("a game name")?,
            flag => {
                let Some(option) = options::by_flag(flag) else {
                    return Err(format!(
                        "web: unknown option {arg:?} (iago web --help lists them)"
                    ));
                };
                let text = value(option.argument)?;
                (option.set)(&mut options.settings, &text)
                    .map_err(|refused| format!("web: {}", refused.on_command_line(flag, &text)))?;
            }
        }
    }
    Ok(Some(options))
}

/// Runs `iago web ARGS` until the process is stopped.
pub fn run(args: &[String]) -> Result<(), String> {
    let Some(options) = parse_args(args)? else {
        println!("{HELP}");
        return Ok(());
    };
    let entry = games::find(&options.game).ok_or_else(|| games::unknown(&options.game))?;
    let addr = SocketAddr::new(options.bind, options.port);
    let listener = std::net::TcpListener::bind(addr).map_err(|error| {
        format!("web: cannot serve on {addr}: {error} (--port N for another port, 0 for any)")
    })?;
    let addr = listener
        .local_addr()
        .map_err(|error| format!("web: {error}"))?;
    if !addr.ip().is_loopback() {
        log::warn!(
            "serving on {addr}: anyone who can reach this address can play and use this \
             machine's CPU"
        );
    }
    let url = format!("http://{addr}/");
    let (queue, events) = sync_channel::<Event<WebLine>>(QUEUE);
    let publisher = Publisher::new();
    let shared = Arc::new(server::Shared::new(queue.clone(), publisher.clone(), addr));
    listener
        .set_nonblocking(true)
        .map_err(|error| format!("web: {error}"))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("web: cannot start the server: {error}"))?;
    std::thread::Builder::new()
        .name("http".into())
        .spawn(move || {
            runtime.block_on(async move {
                match tokio::net::TcpListener::from_std(listener) {
                    Ok(listener) => server::serve(listener, server::router(shared)).await,
                    Err(error) => log::error!("web: {error}"),
                }
            })
        })
        .map_err(|error| format!("web: cannot start the server thread: {error}"))?;
    let board = Board {
        settings: options.settings,
        publisher,
        queue,
        events,
        announce: (url.clone(), options.open),
    };
    games::visit(entry.id, board).unwrap_or_else(|| Err(format!("no game {}", entry.id)))
}

/// The session over the game chosen, on the engine's event loop.
struct Board {
    settings: Settings,
    publisher: Arc<Publisher>,
    queue: std::sync::mpsc::SyncSender<Event<WebLine>>,
    events: std::sync::mpsc::Receiver<Event<WebLine>>,
    /// The address to print (and open) once the engine is ready.
    announce: (String, bool),
}

impl GameVisitor for Board {
    type Output = Result<(), String>;

    fn visit<G: EngineGame>(self, entry: &'static GameEntry) -> Result<(), String> {
        let waker = self.queue.clone();
        // A full queue holds requests, so the loop wakes anyway: dropping one is fine.
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(move || {
            let _ = waker.try_send(Event::Wake);
        });
        let mut session = WebSession::<G>::new(entry, self.settings, wake, self.publisher)?;
        let (url, open) = self.announce;
        let mut stdout = std::io::stdout();
        // A closed stdout is no reason to stop serving.
        let _ = writeln!(stdout, "iago web: {url}").and_then(|()| stdout.flush());
        if open {
            open_browser(&url);
        }
        let mut input = Input::default();
        event_loop(&mut session, &mut input, &self.events);
        Ok(())
    }
}

/// Opens `url` in the system's browser; a failure is only logged (the address is
/// printed).
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(target_os = "windows") {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let spawned = std::process::Command::new(program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(error) = spawned {
        log::warn!("cannot open a browser ({program}: {error}): open {url}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_command_line_takes_the_engines_options() {
        let options = parse_args(&args("--port 0 --level 20 --book none"))
            .unwrap()
            .unwrap();
        assert_eq!(options.port, 0);
        assert_eq!(options.bind, IpAddr::V4(Ipv4Addr::LOCALHOST));
        assert_eq!(options.settings.level, Some(20));
        assert_eq!(parse_args(&args("--help")), Ok(None));
        for bad in [
            "--port 70000",
            "--port",
            "--bind nowhere",
            "--level 99",
            "--bogus 1",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }
}
