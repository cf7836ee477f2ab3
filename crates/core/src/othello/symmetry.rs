//! The 8 symmetries of the board (the dihedral group of the square). Othello's rules
//! commute with them: a transformed position has the transformed moves, flips and game
//! tree, which is what opening books and pattern tables rely on.

use super::position::Position;
use super::square::Move;

/// One of the 8 symmetries. Each is a reflection about the a1-h8 diagonal (or not),
/// followed by a top-bottom flip (or not), followed by a left-right flip (or not).
/// Row 1 is at the top, so `Rotate90` turns the board a quarter clockwise on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    Identity,
    /// Columns mirrored: a1 <-> h1.
    FlipHorizontal,
    /// Rows mirrored: a1 <-> a8.
    FlipVertical,
    Rotate180,
    /// Reflection about the a1-h8 diagonal: b1 <-> a2.
    Transpose,
    /// A quarter turn clockwise: a1 -> h1.
    Rotate90,
    /// A quarter turn anticlockwise: a1 -> a8.
    Rotate270,
    /// Reflection about the h1-a8 diagonal: a1 <-> h8.
    AntiTranspose,
}

impl Symmetry {
    /// All 8, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
        Symmetry::AntiTranspose,
    ];

    /// (transpose, flip rows, flip columns), applied in that order.
    const fn parts(self) -> (bool, bool, bool) {
        match self {
            Symmetry::Identity => (false, false, false),
            Symmetry::FlipHorizontal => (false, false, true),
            Symmetry::FlipVertical => (false, true, false),
            Symmetry::Rotate180 => (false, true, true),
            Symmetry::Transpose => (true, false, false),
            Symmetry::Rotate90 => (true, false, true),
            Symmetry::Rotate270 => (true, true, false),
            Symmetry::AntiTranspose => (true, true, true),
        }
    }

    /// The symmetry that undoes this one: the quarter turns undo each other, every other
    /// symmetry undoes itself.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// Where square `index` (0..64, a1 = 0) goes.
    pub fn transform_square(self, index: u8) -> u8 {
        let (transpose, flip_rows, flip_columns) = self.parts();
        let (mut row, mut column) = (index / 8 % 8, index % 8);
        if transpose {
            (row, column) = (column, row);
        }
        if flip_rows {
            row = 7 - row;
        }
        if flip_columns {
            column = 7 - column;
        }
        row * 8 + column
    }
}

/// Reflection about the a1-h8 diagonal: three rounds of swapping bit blocks.
const fn transpose(mut board: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (board ^ (board << 28));
    board ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (board ^ (board << 14));
    board ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (board ^ (board << 7));
    board ^ t ^ (t >> 7)
}

/// The board seen through `symmetry`: each disc moves to its transformed square.
pub const fn transform_board(board: u64, symmetry: Symmetry) -> u64 {
    let (transpose_first, flip_rows, flip_columns) = symmetry.parts();
    let mut board = if transpose_first {
        transpose(board)
    } else {
        board
    };
    if flip_rows {
        // A row is a byte.
        board = board.swap_bytes();
    }
    if flip_columns {
        // Reversing all 64 bits flips both ways; swapping the bytes back keeps the rows.
        board = board.reverse_bits().swap_bytes();
    }
    board
}

impl Position {
    /// The same position seen through `symmetry` (same side to move).
    pub fn transformed(&self, symmetry: Symmetry) -> Position {
        Position {
            player: transform_board(self.player, symmetry),
            opponent: transform_board(self.opponent, symmetry),
            side: self.side,
        }
    }
}

impl Move {
    /// The same move seen through `symmetry`; a pass stays a pass.
    pub fn transformed(self, symmetry: Symmetry) -> Move {
        match self.square() {
            Some(square) => Move::from_index(symmetry.transform_square(square)),
            None => self,
        }
    }
}

/// The representative of `pos`'s symmetry class, the image with the smallest
/// (player, opponent) pair, and the symmetry that maps `pos` onto it (the first in
/// [`Symmetry::ALL`] order when several do).
pub fn canonical(pos: &Position) -> (Position, Symmetry) {
    let mut best = (*pos, Symmetry::Identity);
    for symmetry in Symmetry::ALL {
        let image = pos.transformed(symmetry);
        if (image.player, image.opponent) < (best.0.player, best.0.opponent) {
            best = (image, symmetry);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_transform_moves_each_square_like_the_square_map() {
        for symmetry in Symmetry::ALL {
            for square in 0..64u8 {
                assert_eq!(
                    transform_board(1 << square, symmetry),
                    1 << symmetry.transform_square(square),
                    "{symmetry:?} square {square}"
                );
            }
        }
    }

    #[test]
    fn named_squares_go_where_the_names_say() {
        let a1 = 0u8;
        assert_eq!(Symmetry::FlipHorizontal.transform_square(a1), 7); // h1
        assert_eq!(Symmetry::FlipVertical.transform_square(a1), 56); // a8
        assert_eq!(Symmetry::Rotate90.transform_square(a1), 7); // h1
        assert_eq!(Symmetry::Rotate270.transform_square(a1), 56); // a8
        assert_eq!(Symmetry::AntiTranspose.transform_square(a1), 63); // h8
        assert_eq!(Symmetry::Transpose.transform_square(1), 8); // b1 -> a2
    }

    #[test]
    fn inverse_undoes_and_all_eight_differ() {
        let board = 0x0123_4567_89AB_CDEF_u64;
        let mut images = Vec::new();
        for symmetry in Symmetry::ALL {
            let image = transform_board(board, symmetry);
            assert_eq!(transform_board(image, symmetry.inverse()), board);
            images.push(image);
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
    }
}
