//! The HTTP side: the page and its files, the state, the stream of changes (server-sent
//! events) and the requests, each bounded, behind a guard that refuses what another site
//! or another host name could send (docs/web.md, "Safety").

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{Request as HttpRequest, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, oneshot};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::BroadcastStream;

use iago_core::protocol::Event;

use crate::request::{self, WebLine};
use crate::session::{Message, Publisher};

/// The largest request body: a request with a pasted game (see [`request::MAX_TEXT`]).
const MAX_BODY: usize = 64 * 1024;
/// Connections served at once; a further one is closed at once.
const MAX_CONNECTIONS: usize = 64;
/// Pages following the changes at once (each holds a connection); a new one closes the
/// oldest, so that reloads (whose old page the server cannot see go) never lock out the
/// page that is there.
const MAX_STREAMS: usize = 16;
/// A request's headers must come within this time of the connection (or of the last
/// answer on it), its body within [`BODY_TIME`].
const HEADER_TIME: Duration = Duration::from_secs(10);
const BODY_TIME: Duration = Duration::from_secs(10);
/// The engine answers every request at once (a search is stopped or left running, never
/// waited for); this bounds a wait that would mean it is stuck.
const REPLY_TIME: Duration = Duration::from_secs(10);

const PAGE: &str = include_str!("../assets/index.html");
const SCRIPT: &str = include_str!("../assets/app.js");
const STYLE: &str = include_str!("../assets/style.css");
const ICON: &str = include_str!("../assets/icon.svg");

/// What every handler shares.
pub struct Shared {
    /// The engine's queue.
    pub queue: SyncSender<Event<WebLine>>,
    pub publisher: Arc<Publisher>,
    /// The `Host` values a request may carry, lower case: the address served, by number
    /// and by name.
    pub hosts: Vec<String>,
    /// Served on every address (`--bind 0.0.0.0`): any address by number on the port
    /// served may be named too (a number, unlike a name, cannot be rebound elsewhere).
    any_address: Option<u16>,
    followers: Mutex<Followers>,
}

/// The pages following the changes, oldest first, each with what closes its stream.
#[derive(Default)]
struct Followers {
    next: u64,
    live: VecDeque<(u64, oneshot::Sender<()>)>,
}

/// A page's place among the followers, given up when its stream ends.
struct Following {
    id: u64,
    shared: Arc<Shared>,
}

impl Drop for Following {
    fn drop(&mut self) {
        if let Ok(mut followers) = self.shared.followers.lock() {
            followers.live.retain(|(id, _)| *id != self.id);
        }
    }
}

impl Shared {
    pub fn new(
        queue: SyncSender<Event<WebLine>>,
        publisher: Arc<Publisher>,
        addr: SocketAddr,
    ) -> Shared {
        let port = addr.port();
        let mut hosts = vec![format!("{addr}")];
        if addr.ip().is_loopback() || addr.ip().is_unspecified() {
            hosts.push(format!("localhost:{port}"));
            hosts.push(format!("127.0.0.1:{port}"));
            hosts.push(format!("[::1]:{port}"));
        }
        hosts.sort();
        hosts.dedup();
        Shared {
            queue,
            publisher,
            hosts,
            any_address: addr.ip().is_unspecified().then_some(port),
            followers: Mutex::new(Followers::default()),
        }
    }

    /// A new follower's place and what ends its stream; the oldest is closed where there
    /// are [`MAX_STREAMS`] already.
    fn follow(self: &Arc<Shared>) -> (Following, oneshot::Receiver<()>) {
        let (close, closed) = oneshot::channel();
        let mut followers = self.followers.lock().unwrap_or_else(|e| e.into_inner());
        while followers.live.len() >= MAX_STREAMS {
            if let Some((_, oldest)) = followers.live.pop_front() {
                let _ = oldest.send(());
            }
        }
        followers.next += 1;
        let id = followers.next;
        followers.live.push_back((id, close));
        let following = Following {
            id,
            shared: self.clone(),
        };
        (following, closed)
    }

    /// Whether `host` (a `Host` header, or an origin's host) names this server.
    fn host_allowed(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.hosts.contains(&host)
            || self.any_address.is_some_and(|port| {
                host.parse::<SocketAddr>()
                    .is_ok_and(|addr| addr.port() == port)
            })
    }

    fn origin_allowed(&self, origin: &str) -> bool {
        origin
            .to_ascii_lowercase()
            .strip_prefix("http://")
            .is_some_and(|host| self.host_allowed(host))
    }
}

/// The routes, behind the guard.
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(PAGE, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE, "text/css; charset=utf-8") }),
        )
        .route("/icon.svg", get(|| async { page(ICON, "image/svg+xml") }))
        .route("/api/state", get(state))
        .route("/api/events", get(events))
        .route("/api/command", post(command))
        .fallback(|| async { refuse(StatusCode::NOT_FOUND, "no such page") })
        .layer(middleware::from_fn_with_state(shared.clone(), guard))
        .with_state(shared)
}

/// A file of the page, never cached (it is in the binary: a new build, a new page), never
/// framed by another site, its scripts only its own.
fn page(body: &'static str, kind: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A refusal with its reason, as JSON.
fn refuse(status: StatusCode, why: &str) -> Response {
    (status, axum::Json(json!({ "error": why }))).into_response()
}

/// Refuses what a page of another site, or a name that is not this server's (DNS
/// rebinding), could send: a `Host` other than the address served, an `Origin` other
/// than this server's, a fetch the browser marks cross-site, a request body that is not
/// JSON (a form posted from elsewhere).
async fn guard(State(shared): State<Arc<Shared>>, request: HttpRequest, next: Next) -> Response {
    if let Err(why) = check(&shared, request.method(), request.headers()) {
        log::info!("web: refused {} {}: {why}", request.method(), request.uri());
        return refuse(StatusCode::FORBIDDEN, why);
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; \
             form-action 'none'; base-uri 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

fn check(shared: &Shared, method: &Method, headers: &HeaderMap) -> Result<(), &'static str> {
    let text = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    let host = text("host").ok_or("no Host header")?;
    if !shared.host_allowed(host) {
        return Err("the Host header does not name this server");
    }
    if let Some(origin) = text("origin")
        && !shared.origin_allowed(origin)
    {
        return Err("a request from another site");
    }
    if let Some(site) = text("sec-fetch-site")
        && !matches!(site, "same-origin" | "none")
    {
        return Err("a request from another site");
    }
    if method == Method::POST {
        let json = text("content-type").is_some_and(|kind| {
            kind.split(';')
                .next()
                .is_some_and(|kind| kind.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return Err("a request body must be JSON (Content-Type: application/json)");
        }
    }
    Ok(())
}

async fn state(State(shared): State<Arc<Shared>>) -> Response {
    match shared.publisher.latest("state") {
        Some(state) => json_text(state.to_string()),
        None => refuse(StatusCode::SERVICE_UNAVAILABLE, "the engine is starting"),
    }
}

fn json_text(text: String) -> Response {
    let mut response = text.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn sse_event(message: Message) -> Result<SseEvent, Infallible> {
    Ok(SseEvent::default()
        .event(message.kind)
        .data(message.data.as_ref()))
}

/// The changes as they come: first the latest of each kind, then every new one. A page
/// that falls behind is told `lagged` and reloads the state; the oldest of too many
/// followers is closed (a browser's page reconnects by itself).
async fn events(State(shared): State<Arc<Shared>>) -> Response {
    let (following, closed) = shared.follow();
    let (latest, receiver) = shared.publisher.subscribe();
    let first = tokio_stream::iter(latest.into_iter().map(sse_event));
    let rest = BroadcastStream::new(receiver).map(move |item| {
        // The stream holds its place among the followers until it ends.
        let _ = &following;
        match item {
            Ok(message) => sse_event(message),
            Err(_) => Ok(SseEvent::default().event("lagged").data("{}")),
        }
    });
    Sse::new(futures_util::StreamExt::take_until(
        first.chain(rest),
        closed,
    ))
    .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
    .into_response()
}

/// One request of the page, through the engine's queue.
async fn command(State(shared): State<Arc<Shared>>, body: Body) -> Response {
    let bytes = match tokio::time::timeout(BODY_TIME, to_bytes(body, MAX_BODY)).await {
        Err(_) => return refuse(StatusCode::REQUEST_TIMEOUT, "the request came too slowly"),
        Ok(Err(_)) => {
            return refuse(
                StatusCode::PAYLOAD_TOO_LARGE,
                "the request is too large (at most 64 KiB)",
            );
        }
        Ok(Ok(bytes)) => bytes,
    };
    let request = match request::parse(&bytes) {
        Ok(request) => request,
        Err(why) => return refuse(StatusCode::BAD_REQUEST, &why),
    };
    let (reply, answer) = oneshot::channel();
    match shared
        .queue
        .try_send(Event::Line(WebLine { request, reply }))
    {
        Ok(()) => {}
        Err(TrySendError::Full(_)) => {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                "the engine has too many requests waiting: try again",
            );
        }
        Err(TrySendError::Disconnected(_)) => {
            return refuse(StatusCode::SERVICE_UNAVAILABLE, "the engine has stopped");
        }
    }
    match tokio::time::timeout(REPLY_TIME, answer).await {
        Ok(Ok(Ok(value))) => json_text(value.to_string()),
        Ok(Ok(Err(why))) => refuse(StatusCode::UNPROCESSABLE_ENTITY, &why),
        Ok(Err(_)) => refuse(StatusCode::SERVICE_UNAVAILABLE, "the engine has stopped"),
        Err(_) => refuse(StatusCode::GATEWAY_TIMEOUT, "the engine did not answer"),
    }
}

/// Serves `app` on `listener` until the process ends: HTTP/1 connections, at most
/// [`MAX_CONNECTIONS`] at once, each with its headers due within [`HEADER_TIME`].
pub async fn serve(listener: TcpListener, app: Router) {
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) => {
                // Out of file descriptors, for one: wait for connections to close.
                log::warn!("web: accepting a connection: {error}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(permit) = connections.clone().try_acquire_owned() else {
            log::info!("web: {MAX_CONNECTIONS} connections already: one closed");
            drop(stream);
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIME)
                .max_buf_size(MAX_BODY);
            if let Err(error) = builder
                .serve_connection(TokioIo::new(stream), service)
                .await
            {
                log::debug!("web: connection: {error}");
            }
            drop(permit);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared() -> Shared {
        let (queue, _) = std::sync::mpsc::sync_channel(1);
        Shared::new(queue, Publisher::new(), "127.0.0.1:8123".parse().unwrap())
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for &(name, value) in pairs {
            map.insert(name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn only_this_servers_own_pages_may_ask() {
        let shared = shared();
        let get = Method::GET;
        let ok = |pairs: &[(&'static str, &str)], method: &Method| {
            check(&shared, method, &headers(pairs)).is_ok()
        };
        assert!(ok(&[("host", "127.0.0.1:8123")], &get));
        assert!(ok(&[("host", "LOCALHOST:8123")], &get));
        assert!(!ok(&[], &get));
        assert!(!ok(&[("host", "evil.example:8123")], &get));
        assert!(!ok(&[("host", "127.0.0.1:9999")], &get));
        assert!(!ok(
            &[
                ("host", "127.0.0.1:8123"),
                ("origin", "http://evil.example")
            ],
            &get
        ));
        assert!(!ok(
            &[("host", "127.0.0.1:8123"), ("sec-fetch-site", "cross-site")],
            &get
        ));
        let json = [
            ("host", "127.0.0.1:8123"),
            ("origin", "http://localhost:8123"),
            ("content-type", "application/json; charset=utf-8"),
        ];
        assert!(ok(&json, &Method::POST));
        assert!(!ok(
            &[
                ("host", "127.0.0.1:8123"),
                ("content-type", "application/x-www-form-urlencoded")
            ],
            &Method::POST
        ));
        assert!(!ok(&[("host", "127.0.0.1:8123")], &Method::POST));
    }

    #[test]
    fn served_on_every_address_any_address_by_number_may_be_named_but_no_name() {
        let (queue, _) = std::sync::mpsc::sync_channel(1);
        let shared = Shared::new(queue, Publisher::new(), "0.0.0.0:8123".parse().unwrap());
        let host = |value: &str| check(&shared, &Method::GET, &headers(&[("host", value)])).is_ok();
        assert!(host("192.168.1.5:8123"));
        assert!(host("[fe80::1]:8123"));
        assert!(host("localhost:8123"));
        assert!(!host("192.168.1.5:80"));
        assert!(!host("evil.example:8123"));
    }
}
