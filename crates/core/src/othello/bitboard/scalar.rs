//! Move generation and flips in plain 64-bit arithmetic: portable, branch-free.
//!
//! These functions are `#[inline(always)]` so that a caller compiled with more CPU
//! features (popcnt, lzcnt, BMI1) gets a copy that uses them.

use super::{DOWN_RAYS, NOT_EDGE_FILES, UP_RAYS};

/// The squares where `player` may move: empty squares from which a line of opponent discs
/// ends in a player disc.
#[inline(always)]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    let inner = opponent & NOT_EDGE_FILES;
    let moves = candidates(player, inner, 1)
        | candidates(player, opponent, 8)
        | candidates(player, inner, 7)
        | candidates(player, inner, 9);
    moves & !(player | opponent)
}

/// Squares one step beyond a run of `mask` discs that starts next to a `player` disc,
/// in both directions of one line orientation. A doubling fill: after the first step a
/// run of one is known, then two steps of `2 * shift` reach the longest run of six.
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

/// The discs flipped when `player` plays on `square` (empty if the move flips nothing).
#[inline(always)]
pub fn flips(square: u32, player: u64, opponent: u64) -> u64 {
    let index = square as usize & 63;
    let mut flipped = 0;
    for &ray in &UP_RAYS[index].0 {
        // Rays towards higher bits: the first square that is not an opponent disc is the
        // ray's lowest such bit; the run before it flips if that square is the player's.
        let stop = ray & !opponent;
        let first = stop & stop.wrapping_neg();
        let closed = ((first & player) != 0) as u64;
        flipped |= first.wrapping_sub(1) & ray & closed.wrapping_neg();
    }
    for &ray in &DOWN_RAYS[index].0 {
        // Rays towards lower bits: the first stop is the highest bit. The run above it
        // flips if that bit is a player disc, i.e. if the player's stops outrank the
        // others (rays towards lower bits never hold bit 63, so no shift reaches 64).
        let stop = ray & !opponent;
        let above_stop = u64::MAX << (64 - stop.leading_zeros());
        let closed = ((stop & player) > (stop & !player)) as u64;
        flipped |= above_stop & ray & closed.wrapping_neg();
    }
    flipped
}
