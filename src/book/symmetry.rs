//! The 8 symmetries of the board, as the book needs them.
//!
//! Stand-in with the agreed `othello::symmetry` API (`Symmetry`, `Symmetry::ALL`,
//! `transform_board`, `transformed`, `inverse`, `canonical`) until that module lands;
//! then this file is deleted and the book imports the real one.

use crate::othello::{Move, Position};

/// One of the 8 symmetries of the square: a transposition about the a1-h8 diagonal
/// (or not), followed by a vertical flip (or not), followed by a horizontal flip (or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    Identity,
    FlipHorizontal,
    FlipVertical,
    Rotate180,
    Transpose,
    Rotate90,
    Rotate270,
    AntiTranspose,
}

impl Symmetry {
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

    /// (transpose, flip vertical, flip horizontal), applied in that order.
    fn parts(self) -> (bool, bool, bool) {
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

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    fn square(self, square: u8) -> u8 {
        let (transpose, vertical, horizontal) = self.parts();
        let (mut row, mut column) = (square / 8, square % 8);
        if transpose {
            (row, column) = (column, row);
        }
        if vertical {
            row = 7 - row;
        }
        if horizontal {
            column = 7 - column;
        }
        row * 8 + column
    }
}

/// Swaps row `r` and column `r` of every square (a1-h8 diagonal reflection).
fn transpose(mut board: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (board ^ (board << 28));
    board ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (board ^ (board << 14));
    board ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (board ^ (board << 7));
    board ^ t ^ (t >> 7)
}

/// The board seen through `symmetry`.
pub fn transform_board(board: u64, symmetry: Symmetry) -> u64 {
    let (transpose_first, vertical, horizontal) = symmetry.parts();
    let mut board = if transpose_first {
        transpose(board)
    } else {
        board
    };
    if vertical {
        board = board.swap_bytes();
    }
    if horizontal {
        // Reversing all 64 bits flips both ways; swapping the bytes back undoes the vertical.
        board = board.reverse_bits().swap_bytes();
    }
    board
}

/// `transformed` for positions and moves (inherent methods in the real module).
pub trait Transformed {
    fn transformed(&self, symmetry: Symmetry) -> Self;
}

impl Transformed for Position {
    fn transformed(&self, symmetry: Symmetry) -> Position {
        Position {
            player: transform_board(self.player, symmetry),
            opponent: transform_board(self.opponent, symmetry),
            side: self.side,
        }
    }
}

impl Transformed for Move {
    fn transformed(&self, symmetry: Symmetry) -> Move {
        match self.square() {
            Some(square) => Move::from_index(symmetry.square(square)),
            None => *self,
        }
    }
}

/// The representative of `pos`'s class (smallest (player, opponent) of the 8 images) and
/// the symmetry that maps `pos` onto it.
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
                    1 << symmetry.square(square),
                    "{symmetry:?} square {square}"
                );
            }
        }
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
