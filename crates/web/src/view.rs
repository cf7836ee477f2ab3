//! What the page is sent, as JSON: the state of the game, the hint lines, the engine's
//! search, the analysis. Built from the engine's values; the page draws them as they are.

use serde::Serialize;

use iago_core::engine::{EngineGame, SearchResult};
use iago_core::game::{Color, Score};
use iago_core::search::Confidence;

/// A move with the grid square it is played on (`None` for a pass).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MoveView {
    #[serde(rename = "move")]
    pub text: String,
    pub col: Option<u32>,
    pub row: Option<u32>,
}

impl MoveView {
    pub fn of<G: EngineGame>(pos: &G, mv: G::Move) -> MoveView {
        let square = G::GOGUI_GRID.and_then(|grid| (grid.square_of)(mv));
        MoveView {
            text: pos.format_move(mv),
            col: square.map(|(col, _)| col),
            row: square.map(|(_, row)| row),
        }
    }
}

/// How sure a score is, in the page's words.
pub fn kind(confidence: Confidence, from_book: bool) -> &'static str {
    if from_book {
        return "book";
    }
    match confidence {
        Confidence::Heuristic => "midgame",
        Confidence::Probable(_) => "probable",
        Confidence::WinLossDraw => "wld",
        Confidence::Exact => "exact",
    }
}

/// A score as shown: `+1.50`, `-64.00`; a win/loss/draw solve's bound as `win`, `loss`
/// or `draw` (its value is a bound, never a score).
pub fn score_text<G: EngineGame>(score: Score, confidence: Confidence) -> String {
    if confidence == Confidence::WinLossDraw {
        return match score.signum() {
            1 => "win".into(),
            -1 => "loss".into(),
            _ => "draw".into(),
        };
    }
    let text = G::score_to_text(score);
    if score > 0 { format!("+{text}") } else { text }
}

/// A score as a number of the game's units (discs), for the graph.
pub fn score_value<G: EngineGame>(score: Score) -> f64 {
    G::score_to_text(score).parse().unwrap_or(0.0)
}

/// One scored move of the hints.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LineView {
    #[serde(flatten)]
    pub first: MoveView,
    /// The score for the side to move, in the game's unit.
    pub value: f64,
    pub text: String,
    pub kind: &'static str,
    /// The selective solve's probability, for `probable` lines.
    pub probability: Option<u8>,
    pub depth: u32,
    pub pv: Vec<String>,
    /// Games of the book behind a book move.
    pub games: Option<u32>,
}

/// The moves of `pv` from `pos` in the game's notation (as far as they are legal).
pub fn line_moves<G: EngineGame>(pos: &G, pv: &[G::Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !pos.legal_moves().as_ref().contains(&mv) {
            break;
        }
        words.push(pos.format_move(mv));
        pos = pos.play(mv);
    }
    words
}

impl LineView {
    /// The view of a hint line from `pos`; `None` for a line without a move.
    pub fn of<G: EngineGame>(pos: &G, line: &SearchResult<G::Move>) -> Option<LineView> {
        let &first = line.pv.first()?;
        let book = line.book_games.is_some();
        Some(LineView {
            first: MoveView::of(pos, first),
            value: score_value::<G>(line.score),
            text: score_text::<G>(line.score, line.confidence),
            kind: kind(line.confidence, book),
            probability: match line.confidence {
                Confidence::Probable(p) => Some(p),
                _ => None,
            },
            depth: line.depth,
            pv: line_moves(pos, &line.pv),
            games: line.book_games,
        })
    }
}

/// A point of the evaluation graph: the value of the position after `ply` moves, for
/// Black.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct EvalPoint {
    pub ply: usize,
    pub black: f64,
    pub text: String,
    pub kind: &'static str,
    /// Where it comes from: `move` (the engine's move search), `hint`, `analysis`.
    pub source: &'static str,
}

impl EvalPoint {
    /// The point of a score `score` for `mover` at `ply`.
    pub fn new<G: EngineGame>(
        ply: usize,
        mover: Color,
        score: Score,
        confidence: Confidence,
        from_book: bool,
        source: &'static str,
    ) -> EvalPoint {
        let black = match mover {
            Color::Black => score,
            Color::White => -score,
        };
        EvalPoint {
            ply,
            black: score_value::<G>(black),
            text: score_text::<G>(black, confidence),
            kind: kind(confidence, from_book),
            source,
        }
    }
}

/// A player of one side, as the page sets it.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct PlayerView {
    pub kind: &'static str,
    pub level: u32,
}

/// The game clock as shown.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ClockView {
    pub main_s: f64,
    pub increment_s: f64,
    /// Seconds left to each side, before the turn in progress.
    pub black_s: f64,
    pub white_s: f64,
    /// The side whose time runs now.
    pub running: Option<&'static str>,
}

/// Everything the page draws of the game.
#[derive(Clone, Debug, Serialize)]
pub struct StateView {
    /// Changes with every change of the game or the players: hints and searches name the
    /// state they belong to.
    pub version: u64,
    pub game: &'static str,
    pub size: u32,
    /// Rows from the top, a character a square: `x` Black, `o` White, `-` empty.
    pub board: Vec<String>,
    pub to_move: Option<&'static str>,
    pub legal: Vec<MoveView>,
    pub last: Option<MoveView>,
    /// Squares whose disc the last move turned.
    pub flipped: Vec<[u32; 2]>,
    pub discs: Discs,
    /// Every move of the line (the redo moves after the cursor too), passes as the
    /// game writes them.
    pub moves: Vec<String>,
    pub cursor: usize,
    pub players: Players,
    pub hints: HintSettingView,
    pub clock: Option<ClockView>,
    pub over: bool,
    pub result: Option<String>,
    /// A word for the player: a pass, a flag, an error of the engine.
    pub notice: Option<String>,
    /// What the engine does: `move` (its own move), `hint`, `analysis` or none.
    pub job: Option<&'static str>,
    /// Whether the engine plays its moves by itself (off after an undo, until a move or Go).
    pub autoplay: bool,
    pub evals: Vec<EvalPoint>,
    pub position: String,
    /// What this game has beyond a board: game records, openings, analysis.
    pub features: Features,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct Discs {
    pub black: u32,
    pub white: u32,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct Players {
    pub black: PlayerView,
    pub white: PlayerView,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct HintSettingView {
    pub on: bool,
    pub level: u32,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct Features {
    pub records: bool,
    pub openings: bool,
    pub analysis: bool,
}

/// The hint lines of one state, as far as the search has come.
#[derive(Clone, Debug, Default, Serialize)]
pub struct HintsView {
    pub version: u64,
    pub lines: Vec<LineView>,
    /// The deepest iteration completed, its nodes and time so far.
    pub depth: u32,
    pub nodes: u64,
    pub ms: u64,
    pub done: bool,
}

/// The engine's search of its own move, as far as it has come.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ThinkingView {
    pub version: u64,
    pub depth: u32,
    pub text: String,
    pub kind: &'static str,
    pub pv: Vec<String>,
    pub nodes: u64,
    pub ms: u64,
}

/// A reviewed move as the analysis table shows it: scores in whole units (discs), as
/// `iago analyze` rounds them, from the mover's view.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RowView {
    pub number: usize,
    pub color: &'static str,
    pub played: String,
    pub played_score: i64,
    pub best: String,
    pub best_score: i64,
    pub lost: i64,
    pub depth: u32,
    pub exact: bool,
}

/// A score in whole units, rounded half away from zero.
pub fn whole<G: EngineGame>(score: Score) -> i64 {
    score_value::<G>(score).round() as i64
}

/// The analysis of the line, as far as it has come.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AnalysisView {
    /// The line analysed changes with every move that changes it.
    pub line: u64,
    pub depth: u32,
    pub verify: u32,
    pub rows: Vec<RowView>,
    /// Each position's value for Black, from the rows.
    pub points: Vec<EvalPoint>,
    pub summary: String,
    pub running: bool,
    pub done: bool,
}
