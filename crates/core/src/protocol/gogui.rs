//! GoGui's extension commands (`gogui-rules_*`, `gogui-analyze_commands`), with which
//! GoGui shows and referees games other than Go.
//!
//! GoGui names points as Go does: a column letter (`A`, `B`, .. skipping `I`) and a row
//! number counted from the bottom of the board (`A1` is the bottom-left corner). Othello
//! counts rows from the top (`a1` is the top-left corner), so the same drawing has other
//! row numbers: Othello's `d3` is GoGui's `D6`. Once a session has used a GoGui command,
//! `play`, `genmove` and `reg_genmove` speak GoGui's points too (see protocol.md).

use super::lexer::{self, ParseError};
use crate::engine::{EngineGame, GoguiGrid};
use crate::game::Color;
use crate::games::GameEntry;

/// GoGui's commands, as `list_commands` prints them for a game GoGui can show.
pub const COMMANDS: &[&str] = &[
    "gogui-analyze_commands",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_board_gfx",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
];

/// The analyze commands GoGui offers in its Analyze menu: `type/label/command`.
pub const ANALYZE_COMMANDS: &str = "gfx/Legal Moves/gogui-rules_board_gfx\n\
                                    string/Evaluation/eval\n\
                                    string/Final Result/gogui-rules_final_result\n\
                                    string/Position/position\n\
                                    hstring/Board/showboard";

/// One GoGui command (all take no argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoguiCommand {
    AnalyzeCommands,
    GameId,
    BoardSize,
    Board,
    BoardGfx,
    LegalMoves,
    SideToMove,
    FinalResult,
}

/// Reads a GoGui command: `None` when `name` is not one.
pub fn parse(name: &str, args: &str) -> Option<Result<GoguiCommand, ParseError>> {
    let command = match name {
        "gogui-analyze_commands" => GoguiCommand::AnalyzeCommands,
        "gogui-rules_game_id" => GoguiCommand::GameId,
        "gogui-rules_board_size" => GoguiCommand::BoardSize,
        "gogui-rules_board" => GoguiCommand::Board,
        "gogui-rules_board_gfx" => GoguiCommand::BoardGfx,
        "gogui-rules_legal_moves" => GoguiCommand::LegalMoves,
        "gogui-rules_side_to_move" => GoguiCommand::SideToMove,
        "gogui-rules_final_result" => GoguiCommand::FinalResult,
        _ => return None,
    };
    Some(lexer::none(name, args).map(|()| command))
}

/// The column letters GoGui uses: no `I`.
const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// GoGui's name of the grid square `column`, `row` (from the top) of a board `size` high.
pub fn point_text(column: u32, row: u32, size: u32) -> String {
    format!("{}{}", LETTERS[column as usize] as char, size - row)
}

/// The grid square of a move, `None` for a pass (or in a game without a grid).
fn square_of<G: EngineGame>(mv: G::Move) -> Option<(u32, u32)> {
    G::GOGUI_GRID.and_then(|grid| (grid.square_of)(mv))
}

/// The stone on the grid square `column`, `row` (from the top).
fn stone<G: EngineGame>(pos: &G, column: u32, row: u32) -> Option<Color> {
    G::GOGUI_GRID.and_then(|grid| (grid.stone)(pos, column, row))
}

/// GoGui's name of a move (`pass` for a pass).
pub fn move_text<G: EngineGame>(mv: G::Move, size: u32) -> String {
    match square_of::<G>(mv) {
        Some((column, row)) => point_text(column, row, size),
        None => "pass".into(),
    }
}

/// Reads a GoGui point (`D6`, case-insensitive) on a board of `size` or `pass` as a move
/// of `G`.
pub fn parse_move<G: EngineGame>(text: &str, size: u32) -> Result<G::Move, String> {
    if text.eq_ignore_ascii_case("pass") {
        return G::parse_move_text("pass");
    }
    let bad = || format!("not a point: {:?}", lexer::shorten(text));
    let mut chars = text.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
    let column = LETTERS
        .iter()
        .position(|&l| l as char == letter)
        .ok_or_else(bad)? as u32;
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
        return Err(bad());
    }
    let number: u32 = digits.parse().map_err(|_| bad())?;
    if column >= size || number == 0 || number > size {
        return Err(bad());
    }
    let grid: GoguiGrid<G> = G::GOGUI_GRID.ok_or_else(bad)?;
    (grid.move_at)(column, size - number).ok_or_else(bad)
}

/// `gogui-rules_board` of a board of `size`: one line per row from the top, `X` black,
/// `O` white, `.` empty.
pub fn board<G: EngineGame>(pos: &G, size: u32) -> String {
    let mut lines = Vec::new();
    for row in 0..size {
        let cells: Vec<&str> = (0..size)
            .map(|column| match stone(pos, column, row) {
                Some(Color::Black) => "X",
                Some(Color::White) => "O",
                None => ".",
            })
            .collect();
        lines.push(cells.join(" "));
    }
    // The reply starts on the line after `= `, so that every row lines up.
    format!("\n{}", lines.join("\n"))
}

/// `gogui-rules_legal_moves`: the side to move's moves as GoGui points, `pass` when it
/// has to pass, nothing once the game is over (which is how GoGui learns it is).
pub fn legal_moves<G: EngineGame>(pos: &G, size: u32) -> String {
    if pos.is_game_over() {
        return String::new();
    }
    if let Some(pass) = pos.forced_pass() {
        return move_text::<G>(pass, size);
    }
    let moves = pos.legal_moves();
    let mut points: Vec<(u32, u32)> = moves
        .as_ref()
        .iter()
        .filter_map(|&mv| square_of::<G>(mv))
        .collect();
    // GoGui's order: by column, then from the bottom up.
    points.sort_by_key(|&(column, row)| (column, std::cmp::Reverse(row)));
    points
        .into_iter()
        .map(|(column, row)| point_text(column, row, size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `gogui-rules_side_to_move`: `black` or `white`; an error once the game has ended,
/// where nobody is to move (GoGui then keeps its own count of turns, as it does for a
/// program without the command).
pub fn side_to_move<G: EngineGame>(pos: &G) -> Result<String, String> {
    if pos.is_game_over() {
        return Err("game over".into());
    }
    Ok(match pos.side_to_move() {
        Color::Black => "black".into(),
        Color::White => "white".into(),
    })
}

/// `gogui-rules_board_gfx`: the legal moves circled, and the disc count and the side to
/// move (or the result) on GoGui's status bar.
pub fn board_gfx<G: EngineGame>(pos: &G, size: u32) -> String {
    let (mut black, mut white) = (0, 0);
    for row in 0..size {
        for column in 0..size {
            match stone(pos, column, row) {
                Some(Color::Black) => black += 1,
                Some(Color::White) => white += 1,
                None => {}
            }
        }
    }
    let status = if pos.is_game_over() {
        pos.result_text()
    } else {
        let side = side_to_move(pos).unwrap_or_default();
        if pos.forced_pass().is_some() {
            format!("Black {black}, White {white}; {side} has to pass")
        } else {
            format!("Black {black}, White {white}; {side} to move")
        }
    };
    let moves = legal_moves(pos, size);
    let points: Vec<&str> = moves
        .split(' ')
        .filter(|m| *m != "pass" && !m.is_empty())
        .collect();
    let mut lines = vec!["CLEAR".to_string()];
    if !points.is_empty() {
        lines.push(format!("CIRCLE {}", points.join(" ")));
    }
    lines.push(format!("TEXT {status}"));
    lines.join("\n")
}

/// `gogui-rules_final_result`: the result in words, an error while the game goes on.
pub fn final_result<G: EngineGame>(pos: &G) -> Result<String, String> {
    if pos.is_game_over() {
        Ok(pos.result_text())
    } else {
        Err("game not over".into())
    }
}

/// The answer to a GoGui command about `pos`, a position of `game`.
pub fn answer<G: EngineGame>(
    command: GoguiCommand,
    pos: &G,
    game: &GameEntry,
) -> Result<String, String> {
    if G::GOGUI_GRID.is_none() {
        return Err(format!(
            "GoGui cannot show {}: its moves are not single points",
            game.name
        ));
    }
    let size = game.board_size;
    match command {
        GoguiCommand::AnalyzeCommands => Ok(ANALYZE_COMMANDS.into()),
        GoguiCommand::GameId => Ok(game.name.into()),
        GoguiCommand::BoardSize => Ok(size.to_string()),
        GoguiCommand::Board => Ok(board(pos, size)),
        GoguiCommand::BoardGfx => Ok(board_gfx(pos, size)),
        GoguiCommand::LegalMoves => Ok(legal_moves(pos, size)),
        GoguiCommand::SideToMove => side_to_move(pos),
        GoguiCommand::FinalResult => final_result(pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::{Move, Position};

    #[test]
    fn points_count_rows_from_the_bottom() {
        let d3: Move = "d3".parse().unwrap();
        assert_eq!(move_text::<Position>(d3, 8), "D6");
        assert_eq!(parse_move::<Position>("D6", 8), Ok(d3));
        assert_eq!(parse_move::<Position>("d6", 8), Ok(d3));
        assert_eq!(parse_move::<Position>("A1", 8), Ok("a8".parse().unwrap()));
        assert_eq!(parse_move::<Position>("H8", 8), Ok("h1".parse().unwrap()));
        assert_eq!(parse_move::<Position>("pass", 8), Ok(Move::PASS));
        assert_eq!(move_text::<Position>(Move::PASS, 8), "pass");
        for bad in [
            "", "D", "D0", "D9", "J4", "I4", "D-1", "D+1", "D06x", "4D", "DD",
        ] {
            assert!(parse_move::<Position>(bad, 8).is_err(), "{bad}");
        }
    }

    #[test]
    fn start_position() {
        let pos = Position::start();
        assert_eq!(
            board(&pos, 8),
            "\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . O X . . .\n\
             . . . X O . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . ."
        );
        assert_eq!(legal_moves(&pos, 8), "C5 D6 E3 F4");
        assert_eq!(side_to_move(&pos), Ok("black".into()));
        assert!(final_result(&pos).is_err());
        assert_eq!(
            board_gfx(&pos, 8),
            "CLEAR\nCIRCLE C5 D6 E3 F4\nTEXT Black 2, White 2; black to move"
        );
    }
}
