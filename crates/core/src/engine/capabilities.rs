//! What only some games have, declared by the game as an item of
//! [`EngineGame`](super::EngineGame) (`None` where it has not), so that a tool asks the
//! game instead of its type: a notation and a set of openings for matches, GGF game
//! records (which are also what NBoard engines are told, so only a game with them is
//! played over NBoard), and a grid that GoGui can draw.

use super::{EngineGame, Record};
use crate::game::{Color, Game};

/// Reads one opening, a line of an opening file or `iago match --start`: the moves from
/// `start` in the game's notation (Othello's `f5d6c3`), each checked.
pub type ReadOpening<G> = fn(start: &G, text: &str) -> Result<Vec<<G as Game>::Move>, String>;

/// A game's own openings for matches.
pub struct OpeningFormat<G: Game> {
    pub read: ReadOpening<G>,
    /// The set a match plays without an opening file, one opening a line as `read` reads
    /// it; `#` or a tab starts a comment.
    pub default_set: &'static str,
}

/// How a game is written in GGF, the game record format of NBoard and GGS:
/// `(;GM[Othello]...TY[8]BO[8 <squares> <side>]B[F5]W[PA];)`.
pub struct GgfFormat<G: EngineGame> {
    /// `GM[...]`: the game's name.
    pub game: &'static str,
    /// `TY[...]`: the board's type.
    pub kind: &'static str,
    /// `BO[...]`: a start position.
    pub board: fn(&G) -> String,
    /// A move as GGF writes it (`F5`, `PA` for a pass).
    pub write_move: fn(G::Move) -> String,
    /// Reads a whole record (NBoard's `set game`, a pasted game).
    pub read: fn(text: &str) -> Result<Record<G>, String>,
    /// Writes a whole record: its start, moves, times, clock and result.
    pub write: fn(&Record<G>) -> String,
}

/// A game whose every move is one square of a square grid the size of its board (or a
/// pass), so that a board GUI such as GoGui can show the game and send its moves as
/// points. Columns count from 0 at the left, rows from 0 at the top of the drawing.
pub struct GoguiGrid<G: Game> {
    /// The move on the square `column`, `row`.
    pub move_at: fn(column: u32, row: u32) -> Option<G::Move>,
    /// The square of a move, `None` for a pass or a move that is not one square.
    pub square_of: fn(G::Move) -> Option<(u32, u32)>,
    /// The stone on the square `column`, `row`, `None` when empty.
    pub stone: fn(&G, column: u32, row: u32) -> Option<Color>,
}
