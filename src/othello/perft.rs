//! Fast Othello perft: the leaf count of the game tree, with the last ply counted in bulk.
//!
//! Convention (the usual one): a pass is a ply, and a game that ends before the requested
//! depth is one leaf. The generic [`crate::game::perft`] gives the same counts, slower.

use super::bitboard::{self, Squares};
use super::position::Position;

/// Leaf count `depth` plies below `pos`, using the fastest code path this CPU supports.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("lzcnt")
        {
            // SAFETY: the features this function is compiled with were just detected.
            return unsafe { perft_x86_64_v3(pos.player, pos.opponent, depth) };
        }
    }
    perft_portable(pos, depth)
}

/// The portable code path, usable on every CPU (tests check it against the fast one).
pub fn perft_portable(pos: &Position, depth: u32) -> u64 {
    count(pos.player, pos.opponent, depth, false)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,lzcnt")]
unsafe fn perft_x86_64_v3(player: u64, opponent: u64, depth: u32) -> u64 {
    count_fast(player, opponent, depth, false)
}

/// The recursive count; `#[inline(always)]` so that each entry point gets its own copy
/// compiled with that entry point's CPU features.
#[inline(always)]
fn count_impl(
    player: u64,
    opponent: u64,
    depth: u32,
    passed: bool,
    recurse: impl Fn(u64, u64, u32, bool) -> u64,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = bitboard::legal_moves(player, opponent);
    if moves == 0 {
        if passed || bitboard::legal_moves(opponent, player) == 0 {
            return 1;
        }
        return recurse(opponent, player, depth - 1, true);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    for square in Squares(moves) {
        let flipped = bitboard::flips(square, player, opponent);
        total += recurse(
            opponent ^ flipped,
            player ^ flipped ^ (1 << square),
            depth - 1,
            false,
        );
    }
    total
}

fn count(player: u64, opponent: u64, depth: u32, passed: bool) -> u64 {
    count_impl(player, opponent, depth, passed, count)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,lzcnt")]
fn count_fast(player: u64, opponent: u64, depth: u32, passed: bool) -> u64 {
    // Calling a function with the same target features from here needs no `unsafe`.
    count_impl(player, opponent, depth, passed, |p, o, d, pa| {
        count_fast(p, o, d, pa)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let expected = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
        for (depth, &leaves) in expected.iter().enumerate() {
            let pos = Position::start();
            assert_eq!(perft(&pos, depth as u32), leaves, "depth {depth}");
            assert_eq!(perft_portable(&pos, depth as u32), leaves, "depth {depth}");
            assert_eq!(
                crate::game::perft(&pos, depth as u32),
                leaves,
                "depth {depth}"
            );
        }
    }
}
