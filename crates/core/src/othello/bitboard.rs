//! Othello on 64-bit boards: bit `8 * row + column` is a square, a1 (top-left) is bit 0,
//! h1 bit 7, a2 bit 8, h8 bit 63.
//!
//! Everything here works on a (player, opponent) pair and is branch-light: this is the
//! engine's inner loop. [`legal_moves`] and [`flips`] pick the fastest implementation the
//! CPU offers at run time. A hot loop that wants those implementations inlined is written
//! once, generic over [`Kernel`], and instantiated per kernel inside a function compiled
//! with that kernel's CPU features (see `othello::perft` for the pattern).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod last;
mod scalar;

/// Squares not on the a or h file: a horizontal or diagonal shift must not wrap through them.
const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The squares where `player` may move: empty squares from which a line of opponent discs
/// ends in a player disc.
#[inline]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(kernel) = Avx2::detect() {
        return kernel.legal_moves(player, opponent);
    }
    scalar::legal_moves(player, opponent)
}

/// The discs flipped when `player` plays on the empty `square` (0..64); empty exactly when
/// the move is not legal. (On an occupied square the result means nothing.)
#[inline]
pub fn flips(square: u32, player: u64, opponent: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(kernel) = Avx2::detect() {
        return kernel.flips(square, player, opponent);
    }
    scalar::flips(square, player, opponent)
}

/// The number of discs `player` flips by playing the last empty square, `square`: the
/// count an endgame solver needs at its last ply (0 means `player` cannot play there).
#[inline]
pub fn last_square_flip_count(square: u32, player: u64) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(kernel) = Avx2::detect() {
        return kernel.last_flip_count(square, player);
    }
    Portable.last_flip_count(square, player)
}

/// One implementation of move generation and flips. Its methods are meant to be inlined
/// into a loop compiled with the CPU features the kernel needs; a value of a kernel type
/// is proof that the CPU has them.
pub trait Kernel: Copy + Send + Sync + 'static {
    /// A short name for logs and benchmarks.
    const NAME: &'static str;
    /// See [`legal_moves`].
    fn legal_moves(self, player: u64, opponent: u64) -> u64;
    /// See [`flips`].
    fn flips(self, square: u32, player: u64, opponent: u64) -> u64;
    /// See [`last_square_flip_count`].
    #[inline(always)]
    fn last_flip_count(self, square: u32, player: u64) -> u32 {
        let opponent = !player & !(1u64 << (square & 63));
        self.flips(square, player, opponent).count_ones()
    }
}

/// Plain 64-bit arithmetic: runs on every CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl Kernel for Portable {
    const NAME: &'static str = "portable";

    #[inline(always)]
    fn legal_moves(self, player: u64, opponent: u64) -> u64 {
        scalar::legal_moves(player, opponent)
    }

    #[inline(always)]
    fn flips(self, square: u32, player: u64, opponent: u64) -> u64 {
        scalar::flips(square, player, opponent)
    }
}

/// AVX2 vectors, four lines at a time; only constructible where the CPU has AVX2 (and
/// the popcnt, lzcnt, BMI1 and BMI2 that come with it on every AVX2 CPU, checked anyway).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The kernel, if this CPU supports it.
    #[inline]
    pub fn detect() -> Option<Avx2> {
        use std::sync::atomic::{AtomicU8, Ordering};
        // Built for a CPU with these features (.cargo/config.toml): no check at all.
        if cfg!(all(
            target_feature = "avx2",
            target_feature = "popcnt",
            target_feature = "lzcnt",
            target_feature = "bmi1",
            target_feature = "bmi2"
        )) {
            return Some(Avx2(()));
        }
        // 0: not checked yet, 1: supported, 2: not. Called at every node of some
        // searches, so the five feature checks are made once.
        static SUPPORTED: AtomicU8 = AtomicU8::new(0);
        let mut state = SUPPORTED.load(Ordering::Relaxed);
        if state == 0 {
            let supported = std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2");
            state = if supported { 1 } else { 2 };
            SUPPORTED.store(state, Ordering::Relaxed);
        }
        (state == 1).then_some(Avx2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernel for Avx2 {
    const NAME: &'static str = "avx2";

    #[inline(always)]
    fn legal_moves(self, player: u64, opponent: u64) -> u64 {
        // SAFETY: an `Avx2` value exists only where `detect` found AVX2.
        unsafe { avx2::legal_moves(player, opponent) }
    }

    #[inline(always)]
    fn flips(self, square: u32, player: u64, opponent: u64) -> u64 {
        // SAFETY: as above.
        unsafe { avx2::flips(square, player, opponent) }
    }

    #[inline(always)]
    fn last_flip_count(self, square: u32, player: u64) -> u32 {
        // SAFETY: as above (BMI2 comes with the kernel).
        unsafe { last::flip_count(square, player) }
    }
}

/// The scalar code compiled for CPUs with popcnt, lzcnt, BMI1 and BMI2 (x86-64 from about
/// 2013 on); a separate kernel so that tests and benchmarks can compare it with the others.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Bmi(());

#[cfg(target_arch = "x86_64")]
impl Bmi {
    /// The kernel, if this CPU supports it.
    #[inline]
    pub fn detect() -> Option<Bmi> {
        (std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2"))
        .then_some(Bmi(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernel for Bmi {
    const NAME: &'static str = "bmi";

    #[inline(always)]
    fn legal_moves(self, player: u64, opponent: u64) -> u64 {
        scalar::legal_moves(player, opponent)
    }

    #[inline(always)]
    fn flips(self, square: u32, player: u64, opponent: u64) -> u64 {
        scalar::flips(square, player, opponent)
    }

    #[inline(always)]
    fn last_flip_count(self, square: u32, player: u64) -> u32 {
        // SAFETY: a `Bmi` value exists only where `detect` found BMI2.
        unsafe { last::flip_count(square, player) }
    }
}

/// Four rays of one square, aligned for a single vector load.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct AlignedRays([u64; 4]);

/// For each square, the rays leaving it towards higher bits (E, S, SE, SW), excluding
/// the square itself.
static UP_RAYS: [AlignedRays; 64] = make_rays([(1, 0), (0, 1), (1, 1), (-1, 1)]);
/// For each square, the rays leaving it towards lower bits (W, N, NW, NE); the order
/// matches the shifts 1, 8, 9, 7 used by the vector code.
static DOWN_RAYS: [AlignedRays; 64] = make_rays([(-1, 0), (0, -1), (-1, -1), (1, -1)]);

/// Rays in four (column step, row step) directions from every square.
const fn make_rays(directions: [(i32, i32); 4]) -> [AlignedRays; 64] {
    let mut rays = [AlignedRays([0; 4]); 64];
    let mut square = 0;
    while square < 64 {
        let mut d = 0;
        while d < 4 {
            let (dc, dr) = directions[d];
            let mut col = (square % 8) as i32 + dc;
            let mut row = (square / 8) as i32 + dr;
            let mut ray = 0u64;
            while col >= 0 && col < 8 && row >= 0 && row < 8 {
                ray |= 1u64 << (row * 8 + col);
                col += dc;
                row += dr;
            }
            rays[square].0[d] = ray;
            d += 1;
        }
        square += 1;
    }
    rays
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
