//! The page's requests: JSON objects `{"op": ..., ...}` posted to `/api/command`, read
//! here into typed requests before they reach the engine's queue (docs/web.md lists them).

use serde::Deserialize;
use tokio::sync::oneshot;

/// The longest text a request may carry (a game record of 60 moves with times is about
/// 3 KB).
pub const MAX_TEXT: usize = 16 * 1024;

/// One request of the page.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// A new game: from the start, a random balanced opening (`xot`), or a game or
    /// position the user pasted.
    New {
        #[serde(default)]
        from: GameSource,
        #[serde(default)]
        text: Option<String>,
        /// Which balanced opening (`xot`); a random one without it.
        #[serde(default)]
        number: Option<usize>,
    },
    /// A move where the cursor is.
    Move {
        #[serde(rename = "move")]
        text: String,
    },
    /// Back to the last position where a human is to move (one move back at least).
    Undo,
    /// Forward one move of the line (and the passes after it).
    Redo,
    /// The position after `ply` moves of the line.
    Goto {
        ply: usize,
    },
    Players {
        black: PlayerSpec,
        white: PlayerSpec,
    },
    /// The engine plays its moves by itself again.
    Go,
    /// Stops the search in flight: the engine's own move is played at once with what it
    /// found; the engine waits until Go or a move.
    Stop,
    Hints {
        on: bool,
        #[serde(default)]
        level: Option<u32>,
    },
    /// A game clock of `minutes` each and `increment` seconds a move; no minutes: none.
    Clock {
        #[serde(default)]
        minutes: Option<f64>,
        #[serde(default)]
        increment: Option<f64>,
    },
    /// Every move of the line against the best, as `iago analyze` scores them.
    Analyze {
        #[serde(default)]
        depth: Option<u32>,
        #[serde(default)]
        verify: Option<u32>,
        /// Solved exactly from this many moves before the end (Othello's empties).
        #[serde(default)]
        solve: Option<u32>,
    },
    Export {
        format: ExportFormat,
    },
}

/// Where a new game starts.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum GameSource {
    #[default]
    Start,
    Xot,
    Text,
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    pub kind: PlayerKind,
    #[serde(default)]
    pub level: Option<u32>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    Human,
    Iago,
    Random,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    Ggf,
    Transcript,
    Position,
}

/// What a request is answered with: the JSON of the reply, or why it was refused.
pub type Answer = Result<serde_json::Value, String>;

/// A request on the engine's queue, with where its answer goes.
#[derive(Debug)]
pub struct WebLine {
    pub request: Request,
    pub reply: oneshot::Sender<Answer>,
}

/// Reads a request's body.
pub fn parse(body: &[u8]) -> Result<Request, String> {
    let request: Request =
        serde_json::from_slice(body).map_err(|error| format!("bad request: {error}"))?;
    if let Request::New {
        text: Some(text), ..
    } = &request
        && text.len() > MAX_TEXT
    {
        return Err(format!(
            "the game text has {} bytes, at most {MAX_TEXT}",
            text.len()
        ));
    }
    Ok(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_read_strictly() {
        assert_eq!(
            parse(br#"{"op":"move","move":"f5"}"#),
            Ok(Request::Move { text: "f5".into() })
        );
        assert_eq!(
            parse(br#"{"op":"new"}"#),
            Ok(Request::New {
                from: GameSource::Start,
                text: None,
                number: None
            })
        );
        assert!(parse(br#"{"op":"move","move":"f5","extra":1}"#).is_err());
        assert!(parse(br#"{"op":"launch"}"#).is_err());
        assert!(parse(br#"{"op":"goto","ply":-1}"#).is_err());
        assert!(parse(b"not json").is_err());
        let long = format!(
            r#"{{"op":"new","from":"text","text":"{}"}}"#,
            "f5".repeat(9000)
        );
        assert!(parse(long.as_bytes()).unwrap_err().contains("at most"));
    }
}
