//! Tic-tac-toe, the smallest game on the shared search and protocols: its rules as a
//! [`Game`], plain iterative deepening as its plan, what the engine needs of it
//! ([`EngineGame`]) and an evaluator, all in this one module, with its line in the
//! registry (`crate::games`).
//!
//! X moves first and is Black to the protocols (`genmove b`), O is White. A square is a
//! column `a`-`c` and a row `1`-`3` counted from the top (`b2` is the centre), as in
//! Othello. A position string is the nine squares row by row from the top, `x`, `o` or
//! `.` (`x...o....`); the side to move follows from the counts.

use crate::engine::{EngineGame, GoguiGrid};
use crate::game::{Color, Evaluator, Game, MoveBits, MoveList, Score, WIN_SCORE, mix64};
use crate::search::Searchable;
use crate::search::plan::Plain;

/// The eight lines of three squares, as bit masks of the squares (bit `row * 3 + column`).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// One square of the board, `0..9`, row by row from the top left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move(u8);

impl Move {
    /// The square in `column` and `row` (both `0..3`, row 0 at the top).
    pub fn at(column: u32, row: u32) -> Option<Move> {
        (column < 3 && row < 3).then(|| Move((row * 3 + column) as u8))
    }

    fn bit(self) -> u16 {
        1 << self.0
    }
}

impl MoveBits for Move {
    fn to_bits(self) -> u32 {
        u32::from(self.0)
    }

    fn from_bits(bits: u32) -> Move {
        Move((bits % 9) as u8)
    }
}

/// A position: the squares of X (Black) and of O (White).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    x: u16,
    o: u16,
}

impl TicTacToe {
    /// The squares of `color`.
    fn stones(&self, color: Color) -> u16 {
        match color {
            Color::Black => self.x,
            Color::White => self.o,
        }
    }

    /// The stone on the square `column`, `row` (from the top), `None` when empty.
    pub fn stone(&self, column: u32, row: u32) -> Option<Color> {
        let bit = 1 << Move::at(column, row)?.0;
        if self.x & bit != 0 {
            Some(Color::Black)
        } else if self.o & bit != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The player with three in a line, if any.
    pub fn winner(&self) -> Option<Color> {
        let line = |stones: u16| LINES.iter().any(|&line| line & !stones == 0);
        if line(self.x) {
            Some(Color::Black)
        } else if line(self.o) {
            Some(Color::White)
        } else {
            None
        }
    }
}

impl Searchable for TicTacToe {
    type Plan = Plain;
}

impl Game for TicTacToe {
    type Move = Move;
    type Moves = MoveList<Move, 9>;

    fn legal_moves(&self) -> Self::Moves {
        let mut moves = MoveList::new();
        if self.winner().is_none() {
            let empty = FULL & !(self.x | self.o);
            for square in 0..9 {
                if empty & (1 << square) != 0 {
                    moves.push(Move(square));
                }
            }
        }
        moves
    }

    fn play(&self, mv: Move) -> TicTacToe {
        let mut next = *self;
        match self.side_to_move() {
            Color::Black => next.x |= mv.bit(),
            Color::White => next.o |= mv.bit(),
        }
        next
    }

    fn is_game_over(&self) -> bool {
        self.winner().is_some() || self.x | self.o == FULL
    }

    /// A line is a win, a full board without one a draw.
    fn final_score(&self) -> Score {
        match self.winner() {
            Some(winner) if winner == self.side_to_move() => WIN_SCORE,
            Some(_) => -WIN_SCORE,
            None => 0,
        }
    }

    fn side_to_move(&self) -> Color {
        if self.x.count_ones() > self.o.count_ones() {
            Color::White
        } else {
            Color::Black
        }
    }

    fn hash(&self) -> u64 {
        mix64(u64::from(self.x) | u64::from(self.o) << 9)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let mv = Self::parse_move_text(text)?;
        if (self.x | self.o) & mv.bit() != 0 || self.is_game_over() {
            return Err(format!("{text} is not legal here"));
        }
        Ok(mv)
    }

    fn format_move(&self, mv: Move) -> String {
        let (column, row) = (mv.0 % 3, mv.0 / 3);
        format!("{}{}", (b'a' + column) as char, row + 1)
    }
}

/// The mover's open lines (lines without an opposing stone) weighed by the stones already
/// in them, minus the opponent's.
pub struct Lines;

/// An open line holding one stone of a side is worth this; two stones, three times as much.
const LINE: Score = 100;

impl Evaluator<TicTacToe> for Lines {
    fn evaluate(&self, pos: &TicTacToe) -> Score {
        let me = pos.side_to_move();
        let worth = |mine: u16, theirs: u16| -> Score {
            LINES
                .iter()
                .filter(|&&line| theirs & line == 0)
                .map(|&line| match (mine & line).count_ones() {
                    0 => 0,
                    1 => LINE,
                    _ => 3 * LINE,
                })
                .sum()
        };
        let (mine, theirs) = (pos.stones(me), pos.stones(me.opponent()));
        worth(mine, theirs) - worth(theirs, mine)
    }

    fn name(&self) -> &'static str {
        "lines"
    }
}

impl EngineGame for TicTacToe {
    fn start() -> TicTacToe {
        TicTacToe::default()
    }

    /// Nine squares from the top left, `x`, `o` or `.` (spaces and `/` between rows
    /// allowed); X has as many stones as O or one more.
    fn parse_position(text: &str) -> Result<TicTacToe, String> {
        let squares: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if squares.len() != 9 {
            return Err(format!(
                "a position is nine squares of x, o or ., got {} characters",
                squares.len()
            ));
        }
        let mut pos = TicTacToe::default();
        for (square, c) in squares.iter().enumerate() {
            match c.to_ascii_lowercase() {
                'x' => pos.x |= 1 << square,
                'o' => pos.o |= 1 << square,
                '.' | '-' => {}
                other => return Err(format!("{other:?} is not x, o or .")),
            }
        }
        let (x, o) = (pos.x.count_ones(), pos.o.count_ones());
        if x != o && x != o + 1 {
            return Err(format!("X has {x} stones and O {o}: X moves first"));
        }
        Ok(pos)
    }

    fn format_position(&self) -> String {
        (0..9)
            .map(|square| {
                let bit = 1 << square;
                if self.x & bit != 0 {
                    'x'
                } else if self.o & bit != 0 {
                    'o'
                } else {
                    '.'
                }
            })
            .collect()
    }

    fn parse_move_text(text: &str) -> Result<Move, String> {
        let bad = || format!("{text:?} is not a square a1-c3");
        let &[column @ b'a'..=b'c', row @ b'1'..=b'3'] = text.to_ascii_lowercase().as_bytes()
        else {
            return Err(bad());
        };
        Move::at(u32::from(column - b'a'), u32::from(row - b'1')).ok_or_else(bad)
    }

    /// Tic-tac-toe has no passes.
    fn forced_pass(&self) -> Option<Move> {
        None
    }

    fn board_text(&self) -> String {
        let mut text = String::from("  a b c");
        for row in 0..3 {
            text.push_str(&format!("\n{} ", row + 1));
            for column in 0..3 {
                text.push(match self.stone(column, row) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
                if column < 2 {
                    text.push(' ');
                }
            }
        }
        text
    }

    /// 1 when X (Black) has a line, -1 when O has, 0 for a draw.
    /// Nine squares: the whole tree is searched in a moment.
    fn unlimited_search_ends(&self) -> bool {
        true
    }

    fn black_result(&self) -> i32 {
        match self.winner() {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => 0,
        }
    }

    /// Lines with two decimals.
    fn score_to_text(score: Score) -> String {
        crate::engine::units_text(score, LINE)
    }

    fn evaluator_names() -> &'static [&'static str] {
        &["lines"]
    }

    fn evaluator(name: &str) -> Result<Box<dyn Evaluator<TicTacToe>>, String> {
        match name {
            "lines" | "default" => Ok(Box::new(Lines)),
            _ => Err(format!("unknown evaluator {name:?} (one of: lines)")),
        }
    }

    fn result_text(&self) -> String {
        match self.winner() {
            Some(Color::Black) => "X wins.".into(),
            Some(Color::White) => "O wins.".into(),
            None => "Draw.".into(),
        }
    }

    /// `three in a row` or `full board`.
    fn ending(&self) -> Option<&'static str> {
        match (self.winner(), self.is_game_over()) {
            (Some(_), _) => Some("three in a row"),
            (None, true) => Some("full board"),
            (None, false) => None,
        }
    }

    const GOGUI_GRID: Option<GoguiGrid<Self>> = Some(GoguiGrid {
        move_at: Move::at,
        square_of: |mv| Some((u32::from(mv.0 % 3), u32::from(mv.0 / 3))),
        stone: TicTacToe::stone,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft;

    fn play(moves: &str) -> TicTacToe {
        moves
            .split_whitespace()
            .fold(TicTacToe::start(), |pos, text| {
                let mv = pos.parse_move(text).unwrap();
                pos.play(mv)
            })
    }

    #[test]
    fn the_game_tree_has_its_known_size() {
        // A game that ends early is one leaf: perft 9 counts the 255168 possible games.
        let start = TicTacToe::start();
        assert_eq!(perft(&start, 1), 9);
        assert_eq!(perft(&start, 2), 72);
        assert_eq!(perft(&start, 3), 504);
        assert_eq!(perft(&start, 9), 255_168);
    }

    #[test]
    fn lines_end_the_game_and_count_for_the_right_side() {
        let pos = play("a1 b1 a2 b2 a3");
        assert!(pos.is_game_over());
        assert_eq!(pos.winner(), Some(Color::Black));
        assert_eq!(pos.final_score(), -WIN_SCORE);
        assert_eq!(pos.black_result(), 1);
        assert!(pos.legal_moves().is_empty());
        assert!(pos.parse_move("c3").is_err());
        let draw = play("b2 a1 a2 c2 b1 b3 c1 a3 c3");
        assert!(draw.is_game_over());
        assert_eq!((draw.winner(), draw.final_score()), (None, 0));
    }

    #[test]
    fn positions_and_moves_read_back() {
        let pos = play("b2 a1");
        assert_eq!(pos.format_position(), "o...x....");
        assert_eq!(TicTacToe::parse_position("o.. .x. ..."), Ok(pos));
        assert_eq!(pos.side_to_move(), Color::Black);
        assert!(TicTacToe::parse_position("oo.......").is_err());
        assert!(TicTacToe::parse_position("x").is_err());
        assert!(TicTacToe::parse_move_text("d1").is_err());
        assert!(pos.parse_move("b2").is_err());
        assert_eq!(
            pos.format_move(TicTacToe::parse_move_text("C3").unwrap()),
            "c3"
        );
        assert_eq!(pos.stone(1, 1), Some(Color::Black));
        assert!(pos.board_text().contains("1 O . ."));
        assert_eq!(TicTacToe::score_to_text(-150), "-1.50");
    }

    #[test]
    fn the_evaluation_favours_the_centre() {
        let centre = play("b2");
        let edge = play("b1");
        // From O's side: X in the centre is worse for O than X on an edge.
        assert!(Lines.evaluate(&centre) < Lines.evaluate(&edge));
    }
}
