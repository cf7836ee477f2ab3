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

/// The squares whose line in each direction is full: (horizontal, vertical, diagonal,
/// anti-diagonal). An empty square spreads along its lines; what it never reaches is on
/// a full line.
#[inline]
fn full_lines(occupied: u64) -> [u64; 4] {
    let empty = !occupied;
    [
        !spread(empty, 1, !FILE_A, !FILE_H),
        !spread(empty, 8, !0, !0),
        !spread(empty, 9, !FILE_A, !FILE_H),
        !spread(empty, 7, !FILE_H, !FILE_A),
    ]
}

/// The squares reachable from `from` along one line direction (`shift` between
/// neighbours; `up` and `down` the squares a shift left or right may land on), in
/// doubling steps.
#[inline(always)]
fn spread(from: u64, shift: u32, up: u64, down: u64) -> u64 {
    let (mut forward, mut backward) = (from, from);
    let (mut up, mut down) = (up, down);
    for step in [shift, 2 * shift, 4 * shift] {
        forward |= (forward << step) & up;
        backward |= (backward >> step) & down;
        up &= up << step;
        down &= down >> step;
    }
    forward | backward
}

/// The stable discs of `own` (with `other` the opponent's discs).
pub fn stable_discs(own: u64, other: u64) -> u64 {
    // The runs from the corners along the edges are stable and would take one round
    // per disc to find.
    closure(own, full_lines(own | other), corner_runs(own))
}

/// From `stable` (discs the rule already holds), the discs of `own` the rule gives
/// (each direction: a full line, the edge or a stable neighbour), one square further
/// each round until nothing changes.
#[inline(always)]
fn closure(own: u64, [horizontal, vertical, diagonal, anti]: [u64; 4], mut stable: u64) -> u64 {
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

/// The discs of `own` joined to an own corner along an edge, found by filling from the
/// corners through own edge discs in doubling steps.
#[inline(always)]
fn corner_runs(own: u64) -> u64 {
    let corners = own & (RANK_1 | RANK_8) & (FILE_A | FILE_H);
    let (ranks, files) = (own & (RANK_1 | RANK_8), own & (FILE_A | FILE_H));
    let (mut east, mut west, mut north, mut south) = (corners, corners, corners, corners);
    let (mut to_east, mut to_west) = (ranks & !FILE_A, ranks & !FILE_H);
    let (mut to_north, mut to_south) = (files, files);
    for step in [1, 2, 4] {
        east |= to_east & (east << step);
        west |= to_west & (west >> step);
        north |= to_north & (north << (8 * step));
        south |= to_south & (south >> (8 * step));
        to_east &= to_east << step;
        to_west &= to_west >> step;
        to_north &= to_north << (8 * step);
        to_south &= to_south >> (8 * step);
    }
    east | west | north | south
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn corners_and_their_edges_are_stable() {
        // a1, b1, c1 and a2 of one colour: all stable; a lone d4 is not.
        let own = 0b111 | (1 << 8) | (1 << 27);
        assert_eq!(stable_discs(own, 0), 0b111 | (1 << 8));
        assert_eq!(stable_discs(1 << 27, 0), 0);
    }

    /// Line by line: the full ranks, files and diagonals.
    fn full_lines_by_line(occupied: u64) -> [u64; 4] {
        let mut lines = [0u64; 4];
        for i in 0..8 {
            let (rank, file) = (RANK_1 << (8 * i), FILE_A << i);
            if occupied & rank == rank {
                lines[0] |= rank;
            }
            if occupied & file == file {
                lines[1] |= file;
            }
        }
        for i in 0..15 {
            if occupied & DIAGONALS[i] == DIAGONALS[i] {
                lines[2] |= DIAGONALS[i];
            }
            if occupied & ANTI_DIAGONALS[i] == ANTI_DIAGONALS[i] {
                lines[3] |= ANTI_DIAGONALS[i];
            }
        }
        lines
    }

    #[test]
    fn full_lines_are_found_line_by_line() {
        let mut state = 0x1234_5678_9ABC_DEF0u64;
        for _ in 0..20_000 {
            let bits = random(&mut state);
            // Mostly full boards, so that full lines are common.
            let holes = (bits >> 7) & (bits >> 23) & (bits >> 41);
            let occupied = !holes;
            assert_eq!(
                full_lines(occupied),
                full_lines_by_line(occupied),
                "{occupied:#x}"
            );
        }
    }

    /// The next number of a linear congruential sequence.
    fn random(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *state
    }

    /// The closure from no stable disc at all, one square further each round.
    fn stable_discs_from_nothing(own: u64, other: u64) -> u64 {
        closure(own, full_lines_by_line(own | other), 0)
    }

    #[test]
    fn the_corner_runs_start_the_same_closure() {
        let mut state = 0x0F1E_2D3C_4B5A_6978u64;
        for _ in 0..20_000 {
            let holes = random(&mut state) & random(&mut state);
            let discs = random(&mut state);
            let (own, other) = (discs & !holes, !discs & !holes);
            assert_eq!(
                stable_discs(own, other),
                stable_discs_from_nothing(own, other),
                "{own:#x} {other:#x}"
            );
        }
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
