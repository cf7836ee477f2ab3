//! Othello on 64-bit boards: bit `8 * row + column` is a square, a1 (top-left) is bit 0,
//! h1 bit 7, a2 bit 8, h8 bit 63.
//!
//! Everything here works on a (player, opponent) pair and is branch-light: this is the
//! engine's inner loop.

/// Squares not on the a or h file: a horizontal or diagonal shift must not wrap through them.
const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Shifts used by move generation: left/right, up/down, and the two diagonals.
const SHIFTS: [u32; 4] = [1, 8, 7, 9];

/// The squares where `player` may move: empty squares from which a line of opponent discs
/// ends in a player disc.
#[inline]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let mut moves = 0;
    for shift in SHIFTS {
        let mask = if shift == 8 {
            opponent
        } else {
            opponent & NOT_EDGE_FILES
        };
        moves |= candidates(player, mask, shift);
    }
    moves & empty
}

/// Squares one step beyond a run of `mask` discs that starts next to a `player` disc,
/// in both directions of one line orientation (Kogge-Stone style fill, 6 steps cover the
/// longest run).
#[inline(always)]
fn candidates(player: u64, mask: u64, shift: u32) -> u64 {
    let mut up = mask & (player << shift);
    let mut down = mask & (player >> shift);
    let pair_up = mask & (mask << shift);
    let pair_down = pair_up >> shift;
    up |= mask & (up << shift);
    down |= mask & (down >> shift);
    up |= pair_up & (up << (2 * shift));
    down |= pair_down & (down >> (2 * shift));
    up |= pair_up & (up << (2 * shift));
    down |= pair_down & (down >> (2 * shift));
    (up << shift) | (down >> shift)
}

/// The discs flipped when `player` plays on `square` (empty if the move is illegal).
#[inline]
pub fn flips(square: u32, player: u64, opponent: u64) -> u64 {
    let rays = &RAYS[square as usize];
    let mut flipped = 0;
    // Directions that go to higher bits: the first non-opponent square is the lowest bit.
    for &ray in &rays[..4] {
        let stop = ray & !opponent;
        let first = stop & stop.wrapping_neg();
        if first & player != 0 {
            flipped |= ray & (first - 1);
        }
    }
    // Directions that go to lower bits: the first non-opponent square is the highest bit.
    for &ray in &rays[4..] {
        let stop = ray & !opponent;
        if stop != 0 {
            let first = 1u64 << (63 - stop.leading_zeros());
            if first & player != 0 {
                flipped |= ray & !(first | (first - 1));
            }
        }
    }
    flipped
}

/// The squares adjacent (in any of the 8 directions) to a disc of `discs`; the caller
/// masks out what it does not want (usually the occupied squares).
#[inline]
pub fn neighbours(discs: u64) -> u64 {
    let row = discs | horizontal_neighbours(discs);
    horizontal_neighbours(discs) | (row << 8) | (row >> 8)
}

#[inline(always)]
fn horizontal_neighbours(discs: u64) -> u64 {
    ((discs << 1) & !FILE_A) | ((discs >> 1) & !FILE_H)
}

/// The a file (left column).
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h file (right column).
pub const FILE_H: u64 = 0x8080_8080_8080_8080;
/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// For each square, the 8 rays leaving it (excluding the square): first the four going
/// to higher bits (E, S, SE, SW), then the four going to lower bits (W, N, NW, NE).
static RAYS: [[u64; 8]; 64] = make_rays();

const fn make_rays() -> [[u64; 8]; 64] {
    // (column step, row step) in the order documented on RAYS.
    const DIRECTIONS: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRECTIONS[d];
            let mut col = (square % 8) as i32 + dc;
            let mut row = (square / 8) as i32 + dr;
            let mut ray = 0u64;
            while col >= 0 && col < 8 && row >= 0 && row < 8 {
                ray |= 1u64 << (row * 8 + col);
                col += dc;
                row += dr;
            }
            rays[square][d] = ray;
            d += 1;
        }
        square += 1;
    }
    rays
}

/// Iterates over the set bits of a board, lowest first, as square indices.
#[derive(Clone, Copy)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let square = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(square)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_moves() {
        // Black on d5 (35) and e4 (28), White on d4 (27) and e5 (36).
        let black = (1 << 35) | (1 << 28);
        let white = (1 << 27) | (1 << 36);
        let moves = legal_moves(black, white);
        // d3 (19), c4 (26), f5 (37), e6 (44)
        assert_eq!(moves, (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
        assert_eq!(flips(19, black, white), 1 << 27);
        assert_eq!(flips(20, black, white), 0);
    }

    #[test]
    fn neighbours_do_not_wrap() {
        assert_eq!(neighbours(1 << 7), (1 << 6) | (1 << 14) | (1 << 15));
        assert_eq!(neighbours(1 << 56), (1 << 48) | (1 << 49) | (1 << 57));
    }
}
