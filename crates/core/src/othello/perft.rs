//! Fast Othello perft: the leaf count of the game tree, with the last two plies counted
//! in bulk.
//!
//! Convention (the usual one): a pass is a ply, and a game that ends before the requested
//! depth is one leaf. The generic [`crate::game::perft`] gives the same counts, slower.

use super::bitboard::{Kernel, Portable, Squares};
use super::position::Position;

/// Leaf count `depth` plies below `pos`, using the fastest code path this CPU supports.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(kernel) = super::bitboard::Avx2::detect() {
            return perft_avx2(kernel, pos, depth);
        }
        if let Some(kernel) = super::bitboard::Bmi::detect() {
            return perft_bmi(kernel, pos, depth);
        }
    }
    perft_portable(pos, depth)
}

/// The names of the code paths [`perft_with`] accepts, the most portable first.
pub const PATHS: [&str; 3] = ["portable", "bmi", "avx2"];

/// Leaf count with the named code path (one of [`PATHS`]); an error if the name is
/// unknown or this CPU lacks the features the path needs.
pub fn perft_with(path: &str, pos: &Position, depth: u32) -> Result<u64, String> {
    let unsupported = || format!("this CPU cannot run the {path} code path");
    match path {
        "portable" => Ok(perft_portable(pos, depth)),
        #[cfg(target_arch = "x86_64")]
        "bmi" => {
            let kernel = super::bitboard::Bmi::detect().ok_or_else(unsupported)?;
            Ok(perft_bmi(kernel, pos, depth))
        }
        #[cfg(target_arch = "x86_64")]
        "avx2" => {
            let kernel = super::bitboard::Avx2::detect().ok_or_else(unsupported)?;
            Ok(perft_avx2(kernel, pos, depth))
        }
        _ if PATHS.contains(&path) => Err(unsupported()),
        _ => Err(format!(
            "unknown code path {path:?} (one of {})",
            PATHS.join(", ")
        )),
    }
}

/// The name of the code path [`perft`] uses on this CPU.
pub fn best_path() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if super::bitboard::Avx2::detect().is_some() {
            return "avx2";
        }
        if super::bitboard::Bmi::detect().is_some() {
            return "bmi";
        }
    }
    "portable"
}

/// The portable code path, usable on every CPU.
pub fn perft_portable(pos: &Position, depth: u32) -> u64 {
    count(Portable, pos.player, pos.opponent, depth, false)
}

/// The scalar code compiled with popcnt, lzcnt and BMI.
#[cfg(target_arch = "x86_64")]
pub fn perft_bmi(kernel: super::bitboard::Bmi, pos: &Position, depth: u32) -> u64 {
    // SAFETY: a `Bmi` value proves that the CPU has the features `count_bmi` needs.
    unsafe { count_bmi(kernel, pos.player, pos.opponent, depth, false) }
}

/// The AVX2 code path.
#[cfg(target_arch = "x86_64")]
pub fn perft_avx2(kernel: super::bitboard::Avx2, pos: &Position, depth: u32) -> u64 {
    // SAFETY: an `Avx2` value proves that the CPU has the features `count_avx2` needs.
    unsafe { count_avx2(kernel, pos.player, pos.opponent, depth, false) }
}

/// The recursive count. `#[inline(always)]` so that each entry point gets its own copy,
/// compiled with that entry point's CPU features; `recurse` is that entry point.
#[inline(always)]
fn count_impl<K: Kernel>(
    kernel: K,
    player: u64,
    opponent: u64,
    depth: u32,
    passed: bool,
    recurse: impl Fn(u64, u64, u32, bool) -> u64,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = kernel.legal_moves(player, opponent);
    if moves == 0 {
        // One ply left: a pass or the end of the game is one leaf either way.
        if depth == 1 || passed || kernel.legal_moves(opponent, player) == 0 {
            return 1;
        }
        return recurse(opponent, player, depth - 1, true);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    if depth == 2 {
        // Each child has as many leaves as moves, or one (a pass or the game's end).
        for square in Squares(moves) {
            let flipped = kernel.flips(square, player, opponent);
            let replies = kernel.legal_moves(opponent ^ flipped, player ^ flipped ^ (1 << square));
            total += u64::from(replies.count_ones().max(1));
        }
        return total;
    }
    for square in Squares(moves) {
        let flipped = kernel.flips(square, player, opponent);
        total += recurse(
            opponent ^ flipped,
            player ^ flipped ^ (1 << square),
            depth - 1,
            false,
        );
    }
    total
}

fn count(kernel: Portable, player: u64, opponent: u64, depth: u32, passed: bool) -> u64 {
    count_impl(kernel, player, opponent, depth, passed, |p, o, d, pa| {
        count(kernel, p, o, d, pa)
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
fn count_bmi(
    kernel: super::bitboard::Bmi,
    player: u64,
    opponent: u64,
    depth: u32,
    passed: bool,
) -> u64 {
    // Calling a function with the same target features from here needs no `unsafe`.
    count_impl(kernel, player, opponent, depth, passed, |p, o, d, pa| {
        count_bmi(kernel, p, o, d, pa)
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,lzcnt,bmi1,bmi2")]
fn count_avx2(
    kernel: super::bitboard::Avx2,
    player: u64,
    opponent: u64,
    depth: u32,
    passed: bool,
) -> u64 {
    count_impl(kernel, player, opponent, depth, passed, |p, o, d, pa| {
        count_avx2(kernel, p, o, d, pa)
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
