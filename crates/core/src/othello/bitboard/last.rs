//! Flips on the last empty square counted with BMI2: the board is full but for that
//! square, so each of its four lines is described by the player's discs on it alone.
//! `pext` gathers them into a small index and a table gives the flips on that line.
//!
//! Needs BMI2; callers check for it first (see [`super::Bmi`] and [`super::Avx2`]).

use std::arch::x86_64::_pext_u64;

/// The four lines (rank, file, diagonal, anti-diagonal) through a square, and the
/// square's place on each (its bit index within the gathered line).
#[derive(Clone, Copy)]
struct Lines {
    masks: [u64; 4],
    places: [u8; 4],
}

static LINES: [Lines; 64] = make_lines();

/// `FLIPS[place][line]`: the discs flipped on a line of up to eight squares by a move
/// on `place`, where `line` has a bit for each player disc and every other square but
/// `place` holds an opponent disc (bits past the line's end read as opponent discs that
/// no player disc closes, so shorter lines need no table of their own).
static FLIPS: [[u8; 256]; 8] = make_flips();

const fn make_lines() -> [Lines; 64] {
    let mut lines = [Lines {
        masks: [0; 4],
        places: [0; 4],
    }; 64];
    let mut square = 0;
    while square < 64 {
        let (col, row) = (square % 8, square / 8);
        let mut masks = [0u64; 4];
        let mut other = 0;
        while other < 64 {
            let (c, r) = (other % 8, other / 8);
            let bit = 1u64 << other;
            if r == row {
                masks[0] |= bit;
            }
            if c == col {
                masks[1] |= bit;
            }
            if c as i32 - r as i32 == col as i32 - row as i32 {
                masks[2] |= bit;
            }
            if c + r == col + row {
                masks[3] |= bit;
            }
            other += 1;
        }
        let mut places = [0u8; 4];
        let mut d = 0;
        while d < 4 {
            places[d] = (masks[d] & ((1u64 << square) - 1)).count_ones() as u8;
            d += 1;
        }
        lines[square] = Lines { masks, places };
        square += 1;
    }
    lines
}

const fn make_flips() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut place = 0;
    while place < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Towards higher bits: a run of opponent discs closed by a player disc.
            let mut i = place + 1;
            while i < 8 && line & (1 << i) == 0 {
                i += 1;
            }
            if i < 8 {
                count += i - place - 1;
            }
            // Towards lower bits.
            let mut i = place as i32 - 1;
            while i >= 0 && line & (1 << i) == 0 {
                i -= 1;
            }
            if i >= 0 {
                count += place - i as usize - 1;
            }
            table[place][line] = count as u8;
            line += 1;
        }
        place += 1;
    }
    table
}

/// The number of discs `player` flips by playing `square`, the only empty square.
#[inline]
#[target_feature(enable = "bmi2")]
pub fn flip_count(square: u32, player: u64) -> u32 {
    let lines = &LINES[square as usize & 63];
    let mut count = 0;
    for d in 0..4 {
        let line = _pext_u64(player, lines.masks[d]) as usize;
        count += u32::from(FLIPS[lines.places[d] as usize][line & 255]);
    }
    count
}
