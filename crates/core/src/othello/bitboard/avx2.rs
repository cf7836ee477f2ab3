//! Move generation and flips with AVX2: the four line orientations (or the four ray
//! directions of a square) are handled at once, one per 64-bit lane.
//!
//! Every function here needs AVX2; callers check for it first (see [`super::Avx2`]).

use std::arch::x86_64::*;

use super::{DOWN_RAYS, NOT_EDGE_FILES, UP_RAYS};

/// Bitwise OR of the four lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn or_lanes(v: __m256i) -> u64 {
    let half = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
}

/// See [`super::scalar::legal_moves`]; lanes are the orientations 1, 8, 7, 9.
#[inline]
#[target_feature(enable = "avx2")]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    let shift = _mm256_set_epi64x(9, 7, 8, 1);
    let shift2 = _mm256_add_epi64(shift, shift);
    let edges = NOT_EDGE_FILES as i64;
    let p = _mm256_set1_epi64x(player as i64);
    let mask = _mm256_and_si256(
        _mm256_set1_epi64x(opponent as i64),
        _mm256_set_epi64x(edges, edges, -1, edges),
    );
    let mut up = _mm256_and_si256(mask, _mm256_sllv_epi64(p, shift));
    let mut down = _mm256_and_si256(mask, _mm256_srlv_epi64(p, shift));
    let pair_up = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
    let pair_down = _mm256_srlv_epi64(pair_up, shift);
    up = _mm256_or_si256(up, _mm256_and_si256(mask, _mm256_sllv_epi64(up, shift)));
    down = _mm256_or_si256(down, _mm256_and_si256(mask, _mm256_srlv_epi64(down, shift)));
    for _ in 0..2 {
        up = _mm256_or_si256(up, _mm256_and_si256(pair_up, _mm256_sllv_epi64(up, shift2)));
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pair_down, _mm256_srlv_epi64(down, shift2)),
        );
    }
    let moves = _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift));
    or_lanes(moves) & !(player | opponent)
}

/// See [`super::scalar::flips`]: the same per-ray rules, four rays per vector.
#[inline]
#[target_feature(enable = "avx2")]
pub fn flips(square: u32, player: u64, opponent: u64) -> u64 {
    let index = square as usize & 63;
    let p = _mm256_set1_epi64x(player as i64);
    let o = _mm256_set1_epi64x(opponent as i64);
    let zero = _mm256_setzero_si256();
    let ones = _mm256_set1_epi64x(1);

    // SAFETY: the ray tables are 32-byte aligned arrays of four u64 (`AlignedRays`).
    let up_rays = unsafe { _mm256_load_si256(UP_RAYS[index].0.as_ptr().cast()) };
    let stop = _mm256_andnot_si256(o, up_rays);
    let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
    let open = _mm256_cmpeq_epi64(_mm256_and_si256(first, p), zero);
    let up = _mm256_andnot_si256(
        open,
        _mm256_and_si256(_mm256_sub_epi64(first, ones), up_rays),
    );

    // SAFETY: as above.
    let down_rays = unsafe { _mm256_load_si256(DOWN_RAYS[index].0.as_ptr().cast()) };
    let stop = _mm256_andnot_si256(o, down_rays);
    // Smear each stop down its ray: the ray's squares at or below the first stop.
    let shift = _mm256_set_epi64x(7, 9, 8, 1);
    let mut below = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, shift));
    let shift2 = _mm256_add_epi64(shift, shift);
    below = _mm256_or_si256(below, _mm256_srlv_epi64(below, shift2));
    below = _mm256_or_si256(
        below,
        _mm256_srlv_epi64(below, _mm256_add_epi64(shift2, shift2)),
    );
    // Signed comparison is right: rays towards lower bits never hold bit 63.
    let closed = _mm256_cmpgt_epi64(_mm256_and_si256(stop, p), _mm256_andnot_si256(p, stop));
    let down = _mm256_and_si256(closed, _mm256_andnot_si256(below, down_rays));

    or_lanes(_mm256_or_si256(up, down))
}
