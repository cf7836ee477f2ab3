//! The features of the pattern evaluation: which squares each pattern reads, where its
//! symmetric placements are, and how a position turns into one weight index per placement.
//!
//! A pattern is a set of squares in a canonical orientation. Each of its placements is
//! read on the board seen through one of the 8 symmetries, so all placements of a
//! pattern share one weight table and read the squares in corresponding order. The
//! squares of a pattern, in increasing bit order, are the ternary digits of its index:
//! 0 empty, 1 the side to move's disc, 2 the opponent's.
//!
//! Besides the patterns there are five small features: the side to move's mobility,
//! the opponent's mobility, the parity of the number of empty squares, and each side's
//! potential mobility (the empty squares next to the other side's discs).
//!
//! One weight set is used per stage; the stage is the number of discs on the board,
//! spread evenly over the stages of the weight file ([`stage_of_discs`]).

use std::sync::OnceLock;

use crate::othello::Position;
#[cfg(target_arch = "x86_64")]
use crate::othello::bitboard::Avx2;
use crate::othello::bitboard::{Kernel, Portable, neighbours};
use crate::othello::symmetry::{Symmetry, transform_board};

/// A pattern: a name and the squares it reads in its canonical orientation.
pub struct Pattern {
    pub name: &'static str,
    pub mask: u64,
}

const fn squares(list: &[u32]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < list.len() {
        mask |= 1u64 << list[i];
        i += 1;
    }
    mask
}

/// The patterns (a1 is bit 0, h1 bit 7, a2 bit 8).
pub const PATTERNS: [Pattern; 11] = [
    // The first row with the two X-squares b2 and g2.
    Pattern {
        name: "edge+2x",
        mask: 0xFF | (1 << 9) | (1 << 14),
    },
    Pattern {
        name: "corner-3x3",
        mask: squares(&[0, 1, 2, 8, 9, 10, 16, 17, 18]),
    },
    Pattern {
        name: "corner-2x5",
        mask: squares(&[0, 1, 2, 3, 4, 8, 9, 10, 11, 12]),
    },
    Pattern {
        name: "diagonal-8",
        mask: squares(&[0, 9, 18, 27, 36, 45, 54, 63]),
    },
    Pattern {
        name: "diagonal-7",
        mask: squares(&[1, 10, 19, 28, 37, 46, 55]),
    },
    Pattern {
        name: "diagonal-6",
        mask: squares(&[2, 11, 20, 29, 38, 47]),
    },
    Pattern {
        name: "line-2",
        mask: 0xFF << 8,
    },
    Pattern {
        name: "line-3",
        mask: 0xFF << 16,
    },
    Pattern {
        name: "line-4",
        mask: 0xFF << 24,
    },
    // The edge's corners and middle four with the four squares inside them.
    Pattern {
        name: "corner+block",
        mask: squares(&[0, 2, 3, 4, 5, 7, 10, 11, 12, 13]),
    },
    // The corner's triangle: four squares of each edge and the three inside them.
    Pattern {
        name: "corner-triangle",
        mask: squares(&[0, 1, 2, 3, 8, 9, 10, 16, 17, 24]),
    },
];

/// Mobility values above this share the last weight.
pub const MAX_MOBILITY: usize = 39;

/// The number of weight sets unless a weight file says otherwise: 4 disc counts a stage.
pub const STAGES: usize = 15;
/// The most weight sets a file may have: one per move.
pub const MAX_STAGES: usize = 60;

/// The stage of a position with `discs` discs among `stages` (1 to [`MAX_STAGES`]): the 60
/// moves spread evenly, the full board in the last stage. With 15 stages, 4 disc counts
/// a stage; with 60, one.
#[inline]
pub const fn stage_of_discs(discs: u32, stages: usize) -> usize {
    let moves = discs.saturating_sub(4) as usize;
    let stage = moves * stages / 60;
    if stage < stages { stage } else { stages - 1 }
}

/// The stage of a position among [`STAGES`].
#[inline]
pub fn stage(pos: &Position) -> usize {
    stage_of_discs((pos.player | pos.opponent).count_ones(), STAGES)
}

/// One placement: read `mask` on the board seen through `symmetry`; its weights start at
/// `offset` within a stage's weights.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    pub symmetry: usize,
    pub mask: u64,
    pub offset: u32,
}

/// The whole feature layout, computed once.
pub struct Layout {
    pub placements: Vec<Placement>,
    /// Start of each pattern's weights within a stage, and its size (3^squares).
    pub pattern_offsets: Vec<(u32, u32)>,
    pub mobility_offset: u32,
    pub opponent_mobility_offset: u32,
    pub parity_offset: u32,
    pub potential_offset: u32,
    pub opponent_potential_offset: u32,
    /// Weights in one stage.
    pub stage_len: u32,
    /// For each weight index, the smallest index of the configurations equal to it under
    /// the symmetries that map its pattern onto itself (a mirrored edge, say). Training
    /// ties these weights, which makes the evaluation symmetric.
    pub canonical: Vec<u32>,
}

/// Number of features active in every position: one per placement, plus the mobility,
/// parity and potential mobility features.
pub const EXTRA_FEATURES: usize = 5;

impl Layout {
    /// Features active in one position.
    pub fn active(&self) -> usize {
        self.placements.len() + EXTRA_FEATURES
    }
}

/// Whether symmetry `index` places `mask` on squares that no earlier symmetry did.
const fn new_placement(mask: u64, index: usize) -> bool {
    // Reading `mask` on the transformed board reads these original squares.
    let original = transform_board(mask, Symmetry::ALL[index].inverse());
    let mut earlier = 0;
    while earlier < index {
        if transform_board(mask, Symmetry::ALL[earlier].inverse()) == original {
            return false;
        }
        earlier += 1;
    }
    true
}

const fn count_placements() -> usize {
    let mut count = 0;
    let mut k = 0;
    while k < PATTERNS.len() {
        let mut index = 0;
        while index < 8 {
            if new_placement(PATTERNS[k].mask, index) {
                count += 1;
            }
            index += 1;
        }
        k += 1;
    }
    count
}

/// Number of pattern placements (features read from the board).
pub const PLACEMENT_COUNT: usize = count_placements();

/// Every placement of every pattern: the 8 symmetries of each, keeping the distinct
/// square sets. Known at compile time, so that the evaluation's loop over them unrolls
/// into constant masks and offsets.
pub const PLACEMENTS: [Placement; PLACEMENT_COUNT] = {
    let mut placements = [Placement {
        symmetry: 0,
        mask: 0,
        offset: 0,
    }; PLACEMENT_COUNT];
    let (mut n, mut offset, mut k) = (0, 0, 0);
    while k < PATTERNS.len() {
        let mask = PATTERNS[k].mask;
        let mut index = 0;
        while index < 8 {
            if new_placement(mask, index) {
                placements[n] = Placement {
                    symmetry: index,
                    mask,
                    offset,
                };
                n += 1;
            }
            index += 1;
        }
        offset += 3u32.pow(mask.count_ones());
        k += 1;
    }
    placements
};

/// The most squares a pattern reads.
const MAX_DIGITS: usize = 10;

/// A placement read straight off the untransformed board: the squares it reads there, and
/// where the bits of those squares (extracted in increasing square order) go among the
/// pattern's ternary digits, which follow the squares' order on the transformed board.
#[derive(Clone, Copy, Debug)]
struct DirectPlacement {
    /// The squares read, on the untransformed board.
    mask: u64,
    /// Start of this placement's table in [`DIGIT_TABLES`] turning the extracted bits into
    /// the ternary value in the pattern's digit order, or [`IN_ORDER`] when the two orders
    /// agree (then [`TERNARY`] does it).
    table: u32,
    offset: u32,
}

const IN_ORDER: u32 = u32::MAX;

/// For placement `p`, the digit of the i-th lowest square it reads on the untransformed
/// board, and the number of digits.
const fn digit_order(p: usize) -> ([u8; MAX_DIGITS], usize) {
    let placement = PLACEMENTS[p];
    let undo = Symmetry::ALL[placement.symmetry].inverse();
    // The untransformed square of each digit (the pattern's squares in increasing order).
    let mut source = [0u8; MAX_DIGITS];
    let (mut n, mut rest) = (0, placement.mask);
    while rest != 0 {
        let square = rest.trailing_zeros();
        source[n] = transform_board(1u64 << square, undo).trailing_zeros() as u8;
        n += 1;
        rest &= rest - 1;
    }
    // Rank the sources: the i-th lowest is digit order[i].
    let mut order = [0u8; MAX_DIGITS];
    let mut digit = 0;
    while digit < n {
        let mut rank = 0;
        let mut other = 0;
        while other < n {
            if source[other] < source[digit] {
                rank += 1;
            }
            other += 1;
        }
        order[rank] = digit as u8;
        digit += 1;
    }
    (order, n)
}

const fn in_order(order: &[u8; MAX_DIGITS], n: usize) -> bool {
    let mut i = 0;
    while i < n {
        if order[i] as usize != i {
            return false;
        }
        i += 1;
    }
    true
}

const fn same_order(a: &([u8; MAX_DIGITS], usize), b: &([u8; MAX_DIGITS], usize)) -> bool {
    if a.1 != b.1 {
        return false;
    }
    let mut i = 0;
    while i < a.1 {
        if a.0[i] != b.0[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The direct placements and the length of the digit tables they share: placements whose
/// digits come in the same order share a table.
const fn direct_placements() -> ([DirectPlacement; PLACEMENT_COUNT], usize) {
    let mut out = [DirectPlacement {
        mask: 0,
        table: IN_ORDER,
        offset: 0,
    }; PLACEMENT_COUNT];
    let mut len = 0;
    let mut p = 0;
    while p < PLACEMENT_COUNT {
        let order = digit_order(p);
        let undo = Symmetry::ALL[PLACEMENTS[p].symmetry].inverse();
        out[p].mask = transform_board(PLACEMENTS[p].mask, undo);
        out[p].offset = PLACEMENTS[p].offset;
        if !in_order(&order.0, order.1) {
            let mut q = 0;
            while q < p {
                if out[q].table != IN_ORDER && same_order(&digit_order(q), &order) {
                    out[p].table = out[q].table;
                    break;
                }
                q += 1;
            }
            if out[p].table == IN_ORDER {
                out[p].table = len as u32;
                len += 1 << order.1;
            }
        }
        p += 1;
    }
    (out, len)
}

const DIRECT: ([DirectPlacement; PLACEMENT_COUNT], usize) = direct_placements();
const DIRECT_PLACEMENTS: [DirectPlacement; PLACEMENT_COUNT] = DIRECT.0;
const DIGIT_TABLES_LEN: usize = DIRECT.1;

/// The shared digit tables of [`DirectPlacement`]s read out of order.
static DIGIT_TABLES: [u16; DIGIT_TABLES_LEN] = {
    let mut tables = [0u16; DIGIT_TABLES_LEN];
    let mut p = 0;
    while p < PLACEMENT_COUNT {
        let placement = DIRECT_PLACEMENTS[p];
        let (order, n) = digit_order(p);
        if placement.table != IN_ORDER {
            let mut bits = 0;
            while bits < 1 << n {
                let mut value = 0u16;
                let mut i = 0;
                while i < n {
                    if bits & (1 << i) != 0 {
                        value += 3u16.pow(order[i] as u32);
                    }
                    i += 1;
                }
                tables[placement.table as usize + bits] = value;
                bits += 1;
            }
        }
        p += 1;
    }
    tables
};

/// The layout, computed once.
pub fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let placements = PLACEMENTS.to_vec();
        let mut pattern_offsets = Vec::new();
        let mut offset = 0u32;
        for pattern in &PATTERNS {
            let size = 3u32.pow(pattern.mask.count_ones());
            pattern_offsets.push((offset, size));
            offset += size;
        }
        let mobility_offset = offset;
        let opponent_mobility_offset = mobility_offset + MAX_MOBILITY as u32 + 1;
        let parity_offset = opponent_mobility_offset + MAX_MOBILITY as u32 + 1;
        let potential_offset = parity_offset + 2;
        let opponent_potential_offset = potential_offset + MAX_MOBILITY as u32 + 1;
        let stage_len = opponent_potential_offset + MAX_MOBILITY as u32 + 1;
        let mut canonical: Vec<u32> = (0..stage_len).collect();
        for (pattern, &(start, size)) in PATTERNS.iter().zip(&pattern_offsets) {
            let permutations = self_symmetries(pattern.mask);
            let digits = pattern.mask.count_ones() as usize;
            for config in 0..size {
                let mut digit_values = [0u32; 16];
                let mut rest = config;
                for value in digit_values.iter_mut().take(digits) {
                    *value = rest % 3;
                    rest /= 3;
                }
                let smallest = permutations
                    .iter()
                    .map(|perm| {
                        perm.iter()
                            .rev()
                            .fold(0u32, |acc, &j| acc * 3 + digit_values[j])
                    })
                    .min()
                    .unwrap_or(config);
                canonical[(start + config) as usize] = start + smallest;
            }
        }
        Layout {
            placements,
            pattern_offsets,
            mobility_offset,
            opponent_mobility_offset,
            parity_offset,
            potential_offset,
            opponent_potential_offset,
            stage_len,
            canonical,
        }
    })
}

/// For each symmetry mapping `mask` onto itself, the digit permutation it causes: digit
/// `i` of the transformed board's index is digit `perm[i]` of the original's.
fn self_symmetries(mask: u64) -> Vec<Vec<usize>> {
    let squares: Vec<u8> = (0..64u8).filter(|&sq| mask & (1 << sq) != 0).collect();
    Symmetry::ALL
        .iter()
        .filter(|&&symmetry| transform_board(mask, symmetry) == mask)
        .map(|&symmetry| {
            squares
                .iter()
                .map(|&sq| {
                    let source = symmetry.inverse().transform_square(sq);
                    squares.iter().position(|&s| s == source).unwrap_or(0)
                })
                .collect()
        })
        .collect()
}

/// For each binary number of up to 10 bits, the same digits read in base 3.
static TERNARY: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let mut value = 0u16;
        let mut power = 1u16;
        let mut b = bits;
        while b != 0 {
            if b & 1 != 0 {
                value += power;
            }
            power *= 3;
            b >>= 1;
        }
        table[bits] = value;
        bits += 1;
    }
    table
};

/// Gathers the bits of `board` under `mask` into the low bits (parallel bit extract).
trait Extract {
    fn extract(board: u64, mask: u64) -> u64;
}

struct PortableExtract;

impl Extract for PortableExtract {
    #[inline(always)]
    fn extract(board: u64, mut mask: u64) -> u64 {
        let mut out = 0;
        let mut bit = 0;
        while mask != 0 {
            let low = mask & mask.wrapping_neg();
            if board & low != 0 {
                out |= 1 << bit;
            }
            bit += 1;
            mask ^= low;
        }
        out
    }
}

#[cfg(target_arch = "x86_64")]
struct Bmi2Extract;

#[cfg(target_arch = "x86_64")]
impl Extract for Bmi2Extract {
    #[inline(always)]
    fn extract(board: u64, mask: u64) -> u64 {
        // SAFETY: only instantiated inside functions compiled with BMI2 and called with
        // an `Avx2` kernel, whose existence proves BMI2.
        unsafe { std::arch::x86_64::_pext_u64(board, mask) }
    }
}

/// Calls `visit(index)` with the weight index (within the stage) of every active feature
/// of `pos`, the placements unrolled (the evaluation is the engine's most frequent call).
#[inline(always)]
fn for_each_with<E: Extract, K: Kernel>(
    kernel: K,
    layout: &Layout,
    pos: &Position,
    mut visit: impl FnMut(usize),
) {
    let (p, o) = (pos.player, pos.opponent);
    macro_rules! placements {
        ($($i:literal)*) => {
            $({
                // Read on the untransformed board: no symmetric boards to compute.
                const PLACEMENT: DirectPlacement = DIRECT_PLACEMENTS[$i];
                const DIGITS: usize = PLACEMENT.mask.count_ones() as usize;
                const ALL: usize = (1 << DIGITS) - 1;
                let (bits_p, bits_o) = (
                    E::extract(p, PLACEMENT.mask) as usize & ALL,
                    E::extract(o, PLACEMENT.mask) as usize & ALL,
                );
                let (mine, theirs) = if PLACEMENT.table == IN_ORDER {
                    (TERNARY[bits_p], TERNARY[bits_o])
                } else {
                    let table = &DIGIT_TABLES[PLACEMENT.table as usize..][..=ALL];
                    (table[bits_p], table[bits_o])
                };
                visit(PLACEMENT.offset as usize + mine as usize + 2 * theirs as usize);
            })*
        };
    }
    const _: () = assert!(PLACEMENT_COUNT == 46, "list every placement below");
    placements!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
        31 32 33 34 35 36 37 38 39 40 41 42 43 44 45
    );
    let mobility = (kernel.legal_moves(p, o).count_ones() as usize).min(MAX_MOBILITY);
    let opponent_mobility = (kernel.legal_moves(o, p).count_ones() as usize).min(MAX_MOBILITY);
    visit(layout.mobility_offset as usize + mobility);
    visit(layout.opponent_mobility_offset as usize + opponent_mobility);
    let empty = !(p | o);
    let parity = empty.count_ones() as usize & 1;
    visit(layout.parity_offset as usize + parity);
    // Potential mobility: the empty squares next to the other side's discs.
    let potential = ((neighbours(o) & empty).count_ones() as usize).min(MAX_MOBILITY);
    let opponent_potential = ((neighbours(p) & empty).count_ones() as usize).min(MAX_MOBILITY);
    visit(layout.potential_offset as usize + potential);
    visit(layout.opponent_potential_offset as usize + opponent_potential);
}

/// The sum of `weights` over the active features of `pos`.
#[inline(always)]
fn sum_with<E: Extract, K: Kernel>(
    kernel: K,
    layout: &Layout,
    pos: &Position,
    weights: &[i16],
) -> i32 {
    let mut sum = 0;
    for_each_with::<E, K>(kernel, layout, pos, |i| {
        sum += i32::from(weights.get(i).copied().unwrap_or(0));
    });
    sum
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,lzcnt,bmi1,bmi2")]
fn sum_avx2(kernel: Avx2, layout: &Layout, pos: &Position, weights: &[i16]) -> i32 {
    sum_with::<Bmi2Extract, Avx2>(kernel, layout, pos, weights)
}

fn sum_portable(layout: &Layout, pos: &Position, weights: &[i16]) -> i32 {
    sum_with::<PortableExtract, Portable>(Portable, layout, pos, weights)
}

/// The sum of `weights` (one stage's) over the active features of `pos`.
#[inline]
pub fn weighted_sum(layout: &Layout, pos: &Position, weights: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(kernel) = Avx2::detect() {
        // SAFETY: the kernel's existence proves the CPU features.
        return unsafe { sum_avx2(kernel, layout, pos, weights) };
    }
    sum_portable(layout, pos, weights)
}

/// Writes the weight indices (within the stage) of the active features of `pos` into
/// `out`, which must hold [`Layout::active`] entries. For training.
pub fn indices(layout: &Layout, pos: &Position, out: &mut [u32]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(kernel) = Avx2::detect() {
        // SAFETY: the kernel's existence proves the CPU features.
        return unsafe { indices_avx2(kernel, layout, pos, out) };
    }
    indices_with::<PortableExtract, Portable>(Portable, layout, pos, out)
}

#[inline(always)]
fn indices_with<E: Extract, K: Kernel>(
    kernel: K,
    layout: &Layout,
    pos: &Position,
    out: &mut [u32],
) {
    let mut n = 0;
    for_each_with::<E, K>(kernel, layout, pos, |i| {
        if let Some(slot) = out.get_mut(n) {
            *slot = i as u32;
        }
        n += 1;
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,lzcnt,bmi1,bmi2")]
fn indices_avx2(kernel: Avx2, layout: &Layout, pos: &Position, out: &mut [u32]) {
    indices_with::<Bmi2Extract, Avx2>(kernel, layout, pos, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` positions of seeded random games, a new game from the start whenever one
    /// ends.
    fn random_walk(seed: u64, count: usize) -> Vec<Position> {
        let (mut pos, mut state) = (Position::start(), seed);
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            if pos.has_no_move() {
                pos = Position::start();
            }
            out.push(pos);
            state = crate::game::mix64(state);
            let moves = pos.moves();
            let mut pick = moves;
            for _ in 0..state % u64::from(moves.count_ones()) {
                pick &= pick - 1;
            }
            pos = pos.play_square(pick.trailing_zeros());
        }
        out
    }

    #[test]
    fn placements_cover_each_pattern_symmetrically() {
        let layout = layout();
        let count = |name: &str| {
            let mask = PATTERNS.iter().find(|p| p.name == name).unwrap().mask;
            layout.placements.iter().filter(|p| p.mask == mask).count()
        };
        assert_eq!(count("edge+2x"), 4);
        assert_eq!(count("corner-3x3"), 4);
        assert_eq!(count("corner-2x5"), 8);
        assert_eq!(count("diagonal-8"), 2);
        assert_eq!(count("line-2"), 4);
        assert_eq!(count("corner+block"), 4);
        assert_eq!(count("corner-triangle"), 4);
        assert_eq!(layout.placements.len(), 46);
        assert_eq!(layout.active(), 51);
    }

    #[test]
    fn placements_read_off_the_untransformed_board_as_on_the_transformed_one() {
        // The definition: each placement reads its pattern's squares, in increasing
        // order, on the board seen through its symmetry.
        let layout = layout();
        for pos in random_walk(5, 200) {
            let mut direct = vec![0u32; layout.active()];
            indices(layout, &pos, &mut direct);
            for (j, placement) in PLACEMENTS.iter().enumerate() {
                let symmetry = Symmetry::ALL[placement.symmetry];
                let read = |board: u64| {
                    let seen = transform_board(board, symmetry);
                    TERNARY[PortableExtract::extract(seen, placement.mask) as usize] as u32
                };
                let expected = placement.offset + read(pos.player) + 2 * read(pos.opponent);
                assert_eq!(direct[j], expected, "placement {j} in {pos:?}");
            }
        }
    }

    #[test]
    fn potential_mobility_counts_the_empty_squares_beside_the_other_sides_discs() {
        // Counted square by square, apart from the bitboard shifts.
        let beside = |square: i32, discs: u64| {
            let (row, column) = (square / 8, square % 8);
            (-1..=1).any(|dr: i32| {
                (-1..=1).any(|dc: i32| {
                    let (r, c) = (row + dr, column + dc);
                    (dr, dc) != (0, 0)
                        && (0..8).contains(&r)
                        && (0..8).contains(&c)
                        && discs & (1 << (r * 8 + c)) != 0
                })
            })
        };
        let layout = layout();
        for pos in random_walk(11, 200) {
            let empty = !(pos.player | pos.opponent);
            let count = |discs: u64| {
                (0..64)
                    .filter(|&sq| empty & (1 << sq) != 0 && beside(sq, discs))
                    .count()
                    .min(MAX_MOBILITY) as u32
            };
            let mut got = vec![0u32; layout.active()];
            indices(layout, &pos, &mut got);
            let n = got.len();
            assert_eq!(got[n - 2], layout.potential_offset + count(pos.opponent));
            assert_eq!(
                got[n - 1],
                layout.opponent_potential_offset + count(pos.player)
            );
        }
        // At the start, Black (to move) has the 10 empty squares beside d4 and e5.
        let mut start = vec![0u32; layout.active()];
        indices(layout, &Position::start(), &mut start);
        assert_eq!(start[start.len() - 2], layout.potential_offset + 10);
    }

    #[test]
    fn extraction_agrees_between_implementations() {
        let mut pos = Position::start();
        let layout = layout();
        let weights: Vec<i16> = (0..layout.stage_len)
            .map(|i| (i % 2001) as i16 - 1000)
            .collect();
        // Walk a game along the first legal move each time.
        while !pos.has_no_move() {
            let expected: i32 = {
                let mut out = vec![0u32; layout.active()];
                indices(layout, &pos, &mut out);
                out.iter().map(|&i| i32::from(weights[i as usize])).sum()
            };
            assert_eq!(weighted_sum(layout, &pos, &weights), expected);
            assert_eq!(sum_portable(layout, &pos, &weights), expected);
            let mut portable = vec![0u32; layout.active()];
            indices_with::<PortableExtract, Portable>(Portable, layout, &pos, &mut portable);
            let mut fast = vec![0u32; layout.active()];
            indices(layout, &pos, &mut fast);
            assert_eq!(portable, fast);
            pos = pos.play_square(pos.moves().trailing_zeros());
        }
    }

    #[test]
    fn symmetric_positions_have_the_same_features() {
        // After a few moves, every symmetry of the position activates the same multiset
        // of tied weights: that is what sharing weights between placements means.
        let mut pos = Position::start();
        for _ in 0..9 {
            let moves = pos.moves();
            if moves == 0 {
                break;
            }
            pos = pos.play_square(63 - moves.leading_zeros());
        }
        let layout = layout();
        let tied = |pos: &Position| {
            let mut out = vec![0u32; layout.active()];
            indices(layout, pos, &mut out);
            let mut out: Vec<u32> = out.iter().map(|&i| layout.canonical[i as usize]).collect();
            out.sort_unstable();
            out
        };
        let base = tied(&pos);
        let mut raw_differs = false;
        for symmetry in Symmetry::ALL {
            assert_eq!(base, tied(&pos.transformed(symmetry)), "{symmetry:?}");
            let mut a = vec![0u32; layout.active()];
            let mut b = vec![0u32; layout.active()];
            indices(layout, &pos, &mut a);
            indices(layout, &pos.transformed(symmetry), &mut b);
            a.sort_unstable();
            b.sort_unstable();
            raw_differs |= a != b;
        }
        // Without tying, mirrored placements read their squares in reverse order.
        assert!(raw_differs);
    }

    #[test]
    fn canonical_index_of_a_mirrored_edge() {
        let layout = layout();
        // Edge pattern: a1 (digit 0) mine vs h1 (digit 7) mine are mirror images.
        let a1 = 1;
        let h1 = 3u32.pow(7);
        assert_eq!(layout.canonical[a1], layout.canonical[h1 as usize]);
        assert_eq!(layout.canonical[h1 as usize], 1);
        // The corner triangle is mirrored onto itself by the a1-h8 reflection: b1 (digit
        // 1) mine and a2 (digit 4) mine are the same configuration.
        let (start, _) = layout.pattern_offsets[10];
        assert_eq!(PATTERNS[10].name, "corner-triangle");
        assert_eq!(layout.canonical[(start + 81) as usize], start + 3);
        // Corner-2x5 has no self-symmetry: every index is its own.
        let (start, size) = layout.pattern_offsets[2];
        assert!((start..start + size).all(|i| layout.canonical[i as usize] == i));
    }

    #[test]
    fn start_position_index_of_the_first_row_is_empty() {
        let layout = layout();
        let mut out = vec![0u32; layout.active()];
        indices(layout, &Position::start(), &mut out);
        // All four edge placements read ten empty squares: index 0 of the edge table.
        assert_eq!(&out[..4], &[0, 0, 0, 0]);
        assert_eq!(stage(&Position::start()), 0);
    }
}
