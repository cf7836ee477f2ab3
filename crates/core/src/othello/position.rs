//! An Othello position: two bitboards seen from the side to move, and that side's colour.

use super::bitboard::{self, Squares};
use super::square::Move;
use crate::game::{Color, Game, MoveList, Score, mix64};

/// Score units per disc: Othello scores are hundredths of a disc.
pub const DISC: Score = 100;

/// At most 33 legal moves have been found in any Othello position; 34 leaves room for a pass.
pub type OthelloMoves = MoveList<Move, 34>;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Colour of the side to move.
    pub side: Color,
}

impl Position {
    /// The standard start position: White on d4 and e5, Black on d5 and e4, Black to move.
    pub fn start() -> Position {
        Position {
            player: (1 << 35) | (1 << 28),
            opponent: (1 << 27) | (1 << 36),
            side: Color::Black,
        }
    }

    /// A position from the discs of each colour and the side to move. Overlapping discs
    /// are rejected.
    pub fn from_colors(black: u64, white: u64, side: Color) -> Result<Position, String> {
        if black & white != 0 {
            return Err("a square holds both a black and a white disc".into());
        }
        Ok(match side {
            Color::Black => Position {
                player: black,
                opponent: white,
                side,
            },
            Color::White => Position {
                player: white,
                opponent: black,
                side,
            },
        })
    }

    pub fn black(&self) -> u64 {
        match self.side {
            Color::Black => self.player,
            Color::White => self.opponent,
        }
    }

    pub fn white(&self) -> u64 {
        match self.side {
            Color::Black => self.opponent,
            Color::White => self.player,
        }
    }

    pub fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    pub fn empty_count(&self) -> u32 {
        self.empty().count_ones()
    }

    /// The board of legal moves of the side to move.
    #[inline]
    pub fn moves(&self) -> u64 {
        bitboard::legal_moves(self.player, self.opponent)
    }

    /// True when the side to move has no move (it must pass, or the game is over).
    pub fn has_no_move(&self) -> bool {
        self.moves() == 0
    }

    /// The position after the side to move plays on `square`. The move must be legal.
    #[inline]
    pub fn play_square(&self, square: u32) -> Position {
        let flipped = bitboard::flips(square, self.player, self.opponent);
        debug_assert!(flipped != 0, "illegal move {square}");
        Position {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ (1 << square),
            side: self.side.opponent(),
        }
    }

    /// The position after a pass.
    #[inline]
    pub fn pass(&self) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player,
            side: self.side.opponent(),
        }
    }

    /// Plays `mv` if it is legal here (a pass only when the side to move has no move).
    pub fn try_play(&self, mv: Move) -> Option<Position> {
        match mv.square() {
            None => (self.has_no_move() && !self.pass().has_no_move()).then(|| self.pass()),
            Some(square) => {
                (self.moves() & (1 << square) != 0).then(|| self.play_square(square as u32))
            }
        }
    }

    /// Disc difference (side to move minus opponent) with the empties given to the winner.
    pub fn final_disc_difference(&self) -> i32 {
        let mine = self.player.count_ones() as i32;
        let theirs = self.opponent.count_ones() as i32;
        let empties = 64 - mine - theirs;
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => mine - theirs + empties,
            std::cmp::Ordering::Less => mine - theirs - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Game for Position {
    type Move = Move;
    type Moves = OthelloMoves;

    fn legal_moves(&self) -> OthelloMoves {
        let mut list = OthelloMoves::new();
        let moves = self.moves();
        if moves != 0 {
            for square in Squares(moves) {
                list.push(Move::from_index(square as u8));
            }
        } else if !self.pass().has_no_move() {
            list.push(Move::PASS);
        }
        list
    }

    fn move_count(&self) -> usize {
        match self.moves() {
            0 => usize::from(!self.pass().has_no_move()),
            moves => moves.count_ones() as usize,
        }
    }

    fn play(&self, mv: Move) -> Position {
        match mv.square() {
            Some(square) => self.play_square(square as u32),
            None => self.pass(),
        }
    }

    fn is_game_over(&self) -> bool {
        self.has_no_move() && self.pass().has_no_move()
    }

    fn final_score(&self) -> Score {
        self.final_disc_difference() * DISC
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn hash(&self) -> u64 {
        mix64(self.player ^ mix64(self.opponent))
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let mv: Move = text
            .parse()
            .map_err(|e: super::square::NotationError| e.to_string())?;
        match self.try_play(mv) {
            Some(_) => Ok(mv),
            None => Err(format!("illegal move {mv}")),
        }
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }
}
