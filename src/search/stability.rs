//! Stable discs: discs that no sequence of moves can flip. The endgame solver uses
//! their count as a bound on the final score.
//!
//! A disc is stable when, along each of the four line directions, its line is full or
//! one of its two neighbours on that line is the board's edge or a stable disc of its
//! colour. The least set closed under that rule is found by iterating from the corners.

use crate::othello::bitboard::{FILE_A, FILE_H};

const RANK_1: u64 = 0x0000_0000_0000_00FF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;
const BORDER: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// Diagonals (a1-h8 direction, step 9) and anti-diagonals (h1-a8 direction, step 7).
const DIAGONALS: [u64; 15] = diagonals(9);
const ANTI_DIAGONALS: [u64; 15] = diagonals(7);

const fn diagonals(step: i32) -> [u64; 15] {
    let mut lines = [0u64; 15];
    let mut square = 0;
    while square < 64 {
        let (col, row) = (square % 8, square / 8);
        let index = if step == 9 { col - row + 7 } else { col + row };
        lines[index as usize] |= 1u64 << square;
        square += 1;
    }
    lines
}

/// The squares whose line in each direction is full: (horizontal, vertical, diagonal,
/// anti-diagonal).
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut horizontal = 0;
    let mut vertical = 0;
    for i in 0..8 {
        let rank = RANK_1 << (8 * i);
        if occupied & rank == rank {
            horizontal |= rank;
        }
        let file = FILE_A << i;
        if occupied & file == file {
            vertical |= file;
        }
    }
    let mut diagonal = 0;
    let mut anti = 0;
    for i in 0..15 {
        if occupied & DIAGONALS[i] == DIAGONALS[i] {
            diagonal |= DIAGONALS[i];
        }
        if occupied & ANTI_DIAGONALS[i] == ANTI_DIAGONALS[i] {
            anti |= ANTI_DIAGONALS[i];
        }
    }
    [horizontal, vertical, diagonal, anti]
}

/// The stable discs of `own` (with `other` the opponent's discs).
pub fn stable_discs(own: u64, other: u64) -> u64 {
    let [horizontal, vertical, diagonal, anti] = full_lines(own | other);
    let mut stable = 0u64;
    loop {
        let h = ((stable << 1) & !FILE_A) | ((stable >> 1) & !FILE_H) | FILE_A | FILE_H;
        let v = (stable << 8) | (stable >> 8) | RANK_1 | RANK_8;
        let d = ((stable << 9) & !FILE_A) | ((stable >> 9) & !FILE_H) | BORDER;
        let a = ((stable << 7) & !FILE_H) | ((stable >> 7) & !FILE_A) | BORDER;
        let next = own & (h | horizontal) & (v | vertical) & (d | diagonal) & (a | anti);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_their_edges_are_stable() {
        // a1, b1, c1 and a2 of one colour: all stable; a lone d4 is not.
        let own = 0b111 | (1 << 8) | (1 << 27);
        assert_eq!(stable_discs(own, 0), 0b111 | (1 << 8));
        assert_eq!(stable_discs(1 << 27, 0), 0);
    }

    #[test]
    fn a_full_board_is_all_stable() {
        let own = 0x0F0F_0F0F_0F0F_0F0F;
        assert_eq!(stable_discs(own, !own), own);
    }

    #[test]
    fn an_edge_disc_between_enemies_on_an_open_edge_is_not() {
        // b1 own, a1 empty, c1 opponent: a1 can still be played to flip b1? No: b1 is
        // flanked only if a1 and c1 bracket it, which a move on a1 by the other side
        // does. So b1 is not stable.
        assert_eq!(stable_discs(1 << 1, 1 << 2), 0);
    }
}
