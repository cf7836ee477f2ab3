//! The network evaluation: the pattern features (see [`super::features`]) as one-hot
//! inputs into an int16 accumulator, then small integer layers, one set a phase bucket.
//!
//! A position's 51 active features (the 46 pattern placements, each side's mobility and
//! potential mobility, the parity), each tied to the smallest configuration that its
//! pattern's symmetries map it onto, select rows of the embedding; their sum plus a bias
//! is the accumulator `acc` (width `W`). Then, with the weights of the position's bucket
//! (by disc count, the 60 moves spread evenly, as the pattern stages):
//!
//! ```text
//! a = clamp(acc, 0, 1)                       W clipped activations
//! h = clamp(L2 a + b2, 0, 1)                 H hidden units
//! y = V h + S acc + c                        the value in discs, side to move
//! ```
//!
//! `S acc` is a linear path straight from the accumulator, so that the network holds a
//! low-rank pattern evaluation of its own beside what the clipped layers add.
//!
//! Everything is integer, so that the engine computes exactly what the trainer's
//! quantised forward pass (`gpu/net.py`) does: `acc` in units of 1/[`QA`] (int16),
//! `a` and `h` in `0..=QA`, `L2` in units of 1/[`QW`], `b2` of 1/(QA QW), `h` the floor of
//! `(L2 a + b2) / QW`, `V` and `S` in units of 1/[`QO`], `c` of 1/(QA QO); the output in
//! hundredths of a disc is `floor(100 y_q / (QA QO))`, clamped like the pattern evaluation.
//!
//! The file (IAGONET1, little-endian), written by `gpu/net.py`:
//!
//! ```text
//! "IAGONET1", u32 stage_len (the feature layout's), u32 rows (its distinct tied indices),
//! u32 W, u32 H, u32 buckets
//! rows x W i16: the embedding, row r for the r-th smallest tied index
//! W i16: the accumulator's bias
//! then for each bucket: H x W i16 L2 (unit after unit), H i32 b2, H i32 V, W i32 S, i32 c
//! ```
//!
//! The accumulator is computed from scratch at every evaluation: a move changes the index
//! of about a quarter of the placements, and all of the small features, so that carrying
//! it from the parent would save at most a third of its work (docs/experiments.md, "an
//! evaluation network over the patterns"). Its cost is the memory: the 51 rows of a
//! position lie anywhere in megabytes, so every feature index has its own row (no tied
//! lookup first), the rows are prefetched together, and the widths 16, 32 and 64 are
//! compiled ahead ("the network on the whole corpus" there: 1.6 times the nodes a second).

use std::sync::Mutex;

use super::features::{self, Layout, MAX_MOBILITY, PATTERNS, PLACEMENTS};
use super::pattern::LIMIT;
use crate::game::{Evaluator, Score};
use crate::othello::Position;
#[cfg(target_arch = "x86_64")]
use crate::othello::bitboard::Avx2;

/// The accumulator's scale: 1.0 is `QA`, and the clipped activations are `0..=QA`.
pub const QA: i32 = 255;
/// The hidden layer's weight scale.
pub const QW: i32 = 64;
/// The output weights' scale.
pub const QO: i32 = 256;
/// The widest accumulator and hidden layer a file may have.
pub const MAX_WIDTH: usize = 512;
pub const MAX_HIDDEN: usize = 64;
/// The most phase buckets (one a move).
pub const MAX_BUCKETS: usize = 60;

const MAGIC: &[u8; 8] = b"IAGONET1";

/// One bucket's layers after the accumulator.
#[derive(Clone, Debug, PartialEq)]
struct Bucket {
    /// `hidden x width`, unit after unit.
    l2: Vec<i16>,
    b2: Vec<i32>,
    out: Vec<i32>,
    skip: Vec<i32>,
    bias: i32,
}

/// A network's weights, read from an IAGONET1 file.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkWeights {
    width: usize,
    hidden: usize,
    /// For each feature index of a stage, the embedding row of its tied index.
    row_of: Vec<u32>,
    embedding: Vec<i16>,
    /// The embedding row of every feature index, copied out at load (18 MB at width 32
    /// against the tied 11 MB), so that a feature costs one load from memory, not two
    /// that wait on each other.
    by_index: Vec<i16>,
    bias: Vec<i16>,
    buckets: Vec<Bucket>,
    bucket_of_discs: [u8; 65],
}

/// For each feature index, the row of its tied index among the distinct tied indices (in
/// increasing order), and the number of rows.
fn tied_rows(layout: &Layout) -> (Vec<u32>, usize) {
    let mut row_of_tied = vec![u32::MAX; layout.canonical.len()];
    let mut rows = 0;
    for (index, &tied) in layout.canonical.iter().enumerate() {
        if tied as usize == index {
            row_of_tied[index] = rows;
            rows += 1;
        }
    }
    let row_of = layout
        .canonical
        .iter()
        .map(|&tied| row_of_tied[tied as usize])
        .collect();
    (row_of, rows as usize)
}

/// Reads little-endian numbers off the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        if self.bytes.len() < n {
            return Err("the file ends early".into());
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, String> {
        let b = self.take(2 * n)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    fn i32s(&mut self, n: usize) -> Result<Vec<i32>, String> {
        let b = self.take(4 * n)?;
        Ok(b.chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

impl NetworkWeights {
    /// Reads an IAGONET1 file, checking that it fits this build's feature layout and that
    /// no sum can overflow its integer type.
    pub fn decode(bytes: &[u8]) -> Result<NetworkWeights, String> {
        let mut r = Reader { bytes };
        if r.take(8).ok() != Some(&MAGIC[..]) {
            return Err("not a network file (IAGONET1)".into());
        }
        let layout = features::layout();
        let (row_of, rows) = tied_rows(layout);
        let (stage_len, file_rows) = (r.u32()? as usize, r.u32()? as usize);
        if stage_len != layout.stage_len as usize || file_rows != rows {
            return Err(format!(
                "a network of {file_rows} rows over {stage_len} features; this build's features \
                 need {rows} rows over {} (retrain with gpu/net.py)",
                layout.stage_len
            ));
        }
        let (width, hidden, buckets) = (r.u32()? as usize, r.u32()? as usize, r.u32()? as usize);
        if !(1..=MAX_WIDTH).contains(&width)
            || !width.is_multiple_of(16)
            || !(1..=MAX_HIDDEN).contains(&hidden)
            || !(1..=MAX_BUCKETS).contains(&buckets)
        {
            return Err(format!(
                "width {width}, hidden {hidden}, buckets {buckets}: the width must be a \
                 multiple of 16 up to {MAX_WIDTH}, hidden 1 to {MAX_HIDDEN}, buckets 1 to \
                 {MAX_BUCKETS}"
            ));
        }
        let embedding = r.i16s(rows * width)?;
        let bias = r.i16s(width)?;
        let mut layers = Vec::with_capacity(buckets);
        for _ in 0..buckets {
            layers.push(Bucket {
                l2: r.i16s(hidden * width)?,
                b2: r.i32s(hidden)?,
                out: r.i32s(hidden)?,
                skip: r.i32s(width)?,
                bias: r.i32s(1)?[0],
            });
        }
        if !r.bytes.is_empty() {
            return Err(format!("{} bytes after the last bucket", r.bytes.len()));
        }
        let mut bucket_of_discs = [0u8; 65];
        for (discs, bucket) in bucket_of_discs.iter_mut().enumerate() {
            *bucket = features::stage_of_discs(discs as u32, buckets) as u8;
        }
        let by_index = row_of
            .iter()
            .flat_map(|&row| &embedding[row as usize * width..][..width])
            .copied()
            .collect();
        let weights = NetworkWeights {
            width,
            hidden,
            row_of,
            embedding,
            by_index,
            bias,
            buckets: layers,
            bucket_of_discs,
        };
        weights.check_ranges(layout)?;
        Ok(weights)
    }

    /// Refuses weights whose accumulator could leave i16 or whose hidden sums could leave
    /// i32 on some position: the engine would then differ from the trainer.
    fn check_ranges(&self, layout: &Layout) -> Result<(), String> {
        let w = self.width;
        // The largest |row value| of each column over the rows a feature can select.
        let column_max = |start: u32, len: u32| {
            let mut max = vec![0i64; w];
            for index in start..start + len {
                let row = self.row_of[index as usize] as usize;
                for (m, &e) in max.iter_mut().zip(&self.embedding[row * w..][..w]) {
                    *m = (*m).max(i64::from(e).abs());
                }
            }
            max
        };
        let mut worst: Vec<i64> = self.bias.iter().map(|&b| i64::from(b).abs()).collect();
        let mut add = |max: Vec<i64>, times: i64| {
            for (total, m) in worst.iter_mut().zip(max) {
                *total += m * times;
            }
        };
        for (pattern, &(start, size)) in PATTERNS.iter().zip(&layout.pattern_offsets) {
            let placements = PLACEMENTS.iter().filter(|p| p.mask == pattern.mask).count();
            add(column_max(start, size), placements as i64);
        }
        let counts = MAX_MOBILITY as u32 + 1;
        for start in [
            layout.mobility_offset,
            layout.opponent_mobility_offset,
            layout.potential_offset,
            layout.opponent_potential_offset,
        ] {
            add(column_max(start, counts), 1);
        }
        add(column_max(layout.parity_offset, 2), 1);
        if let Some(column) = worst.iter().position(|&m| m > i64::from(i16::MAX)) {
            return Err(format!(
                "accumulator column {column} can reach {}, beyond i16",
                worst[column]
            ));
        }
        for bucket in &self.buckets {
            for (unit, row) in bucket.l2.chunks_exact(w).enumerate() {
                let sum: i64 = row.iter().map(|&x| i64::from(x).abs()).sum::<i64>() * i64::from(QA)
                    + i64::from(bucket.b2[unit]).abs();
                if sum > i64::from(i32::MAX) {
                    return Err(format!("hidden unit {unit} can reach {sum}, beyond i32"));
                }
            }
        }
        Ok(())
    }

    /// The accumulator width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The hidden layer's width.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of phase buckets.
    pub fn buckets(&self) -> usize {
        self.buckets.len()
    }

    /// The value of `pos` in hundredths of a disc for the side to move, unclamped.
    #[inline]
    pub fn value(&self, pos: &Position) -> Score {
        #[cfg(target_arch = "x86_64")]
        if Avx2::detect().is_some() {
            // SAFETY: the kernel's existence proves the CPU features.
            return unsafe { value_avx2(self, pos) };
        }
        value_portable(self, pos)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,lzcnt,bmi1,bmi2")]
fn value_avx2(net: &NetworkWeights, pos: &Position) -> Score {
    forward(net, pos)
}

fn value_portable(net: &NetworkWeights, pos: &Position) -> Score {
    forward(net, pos)
}

/// The integer forward pass; plain loops over the widths, which the compiler turns into
/// vector code (AVX2 in [`value_avx2`], whatever the target has in [`value_portable`]).
#[inline(always)]
fn forward(net: &NetworkWeights, pos: &Position) -> Score {
    let layout = features::layout();
    let mut indices = [0u32; features::PLACEMENT_COUNT + features::EXTRA_FEATURES];
    features::indices(layout, pos, &mut indices);
    for &index in &indices {
        prefetch(&net.by_index[index as usize * net.width..]);
    }
    match net.width {
        16 => forward_width::<1>(net, pos, &indices),
        32 => forward_width::<2>(net, pos, &indices),
        64 => forward_width::<4>(net, pos, &indices),
        _ => forward_width::<0>(net, pos, &indices),
    }
}

/// The pass from the feature indices on, for a width of `16 N` known when compiling (`N`
/// = 0: the network's, read at run time). A known width keeps the accumulator in `N`
/// vector registers of 16 lanes, so that the rows' loads, which miss the cache more than
/// anything else here, are all under way ahead of the additions (a width read at run
/// time sent the sum through memory after every row), and unrolls the layers.
#[inline(always)]
fn forward_width<const N: usize>(net: &NetworkWeights, pos: &Position, indices: &[u32]) -> Score {
    let w = if N == 0 { net.width } else { 16 * N };
    let mut acc = [0i16; MAX_WIDTH];
    let acc = &mut acc[..w];
    acc.copy_from_slice(&net.bias);
    if N == 0 {
        for &index in indices {
            for (a, &e) in acc.iter_mut().zip(&net.by_index[index as usize * w..][..w]) {
                *a = a.wrapping_add(e);
            }
        }
    } else {
        accumulate::<N>(acc, &net.by_index, indices);
    }
    let discs = (pos.player | pos.opponent).count_ones() as usize;
    let bucket = &net.buckets[usize::from(net.bucket_of_discs[discs])];
    let mut clipped = [0i16; MAX_WIDTH];
    let clipped = &mut clipped[..w];
    for (c, &a) in clipped.iter_mut().zip(acc.iter()) {
        *c = a.clamp(0, QA as i16);
    }
    let mut total: i64 = i64::from(bucket.bias);
    for ((row, &b2), &out) in bucket.l2.chunks_exact(w).zip(&bucket.b2).zip(&bucket.out) {
        let dot: i32 = row[..w]
            .iter()
            .zip(clipped.iter())
            .map(|(&x, &c)| i32::from(x) * i32::from(c))
            .sum();
        let unit = ((dot + b2) >> QW.trailing_zeros()).clamp(0, QA);
        total += i64::from(unit) * i64::from(out);
    }
    let skip: i64 = bucket.skip[..w]
        .iter()
        .zip(acc.iter())
        .map(|(&s, &a)| i64::from(s) * i64::from(a))
        .sum();
    total += skip;
    (total * 100).div_euclid(i64::from(QA * QO)) as Score
}

/// Asks for the cache line at the start of `data` ahead of its use: the rows of a
/// position are scattered over megabytes, and their loads are then all under way at once.
#[inline(always)]
fn prefetch(data: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is in every x86_64 CPU, and a prefetch never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(data.as_ptr().cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}

/// Adds the embedding rows of `indices` (of width `16 N`) to `acc`, wrapping as i16, the
/// sum held in `N` arrays of 16 lanes (one vector register each).
#[inline(always)]
fn accumulate<const N: usize>(acc: &mut [i16], by_index: &[i16], indices: &[u32]) {
    let mut sum = [[0i16; 16]; N];
    for (lanes, part) in sum.iter_mut().zip(acc.chunks_exact(16)) {
        lanes.copy_from_slice(part);
    }
    for &index in indices {
        let start = index as usize * 16 * N;
        let e = &by_index[start..start + 16 * N];
        for (lanes, part) in sum.iter_mut().zip(e.chunks_exact(16)) {
            for (a, &x) in lanes.iter_mut().zip(part) {
                *a = a.wrapping_add(x);
            }
        }
    }
    for (lanes, part) in sum.iter().zip(acc.chunks_exact_mut(16)) {
        part.copy_from_slice(lanes);
    }
}

/// The network evaluator.
pub struct NetworkEval {
    weights: &'static NetworkWeights,
}

impl NetworkEval {
    /// The evaluator with the embedded weights (`weights/network.bin`, decoded at the
    /// first use: 29 MB of memory that the pattern evaluation's users never pay).
    #[cfg(feature = "embedded-network")]
    pub fn embedded() -> Result<NetworkEval, String> {
        static WEIGHTS: std::sync::OnceLock<Result<NetworkWeights, String>> =
            std::sync::OnceLock::new();
        static EMBEDDED: &[u8] = include_bytes!("weights/network.bin");
        let weights = WEIGHTS
            .get_or_init(|| {
                NetworkWeights::decode(EMBEDDED).map_err(|e| format!("embedded network: {e}"))
            })
            .as_ref()
            .map_err(Clone::clone)?;
        Ok(NetworkEval { weights })
    }

    /// A build without the `embedded-network` feature has no network of its own.
    #[cfg(not(feature = "embedded-network"))]
    pub fn embedded() -> Result<NetworkEval, String> {
        Err(
            "this build embeds no network (built without its embedded-network feature): \
             give a file, network:FILE"
                .into(),
        )
    }

    /// The evaluator with weights read from an IAGONET1 file. Weights live for the rest of
    /// the run, as evaluators are shared by searches; a file read again with the same bytes
    /// reuses them.
    pub fn from_file(path: &str) -> Result<NetworkEval, String> {
        static LOADED: Mutex<Vec<(u64, &'static NetworkWeights)>> = Mutex::new(Vec::new());
        let bytes = crate::files::read(std::path::Path::new(path), crate::files::WEIGHTS)
            .map_err(|e| format!("network weights: {e}"))?;
        let weights = super::shared_weights(
            &LOADED,
            &bytes,
            "the loaded networks are unusable",
            |bytes| {
                NetworkWeights::decode(bytes).map_err(|e| format!("network weights {path}: {e}"))
            },
        )?;
        Ok(NetworkEval { weights })
    }

    /// The evaluator over other weights (tests); they live as long as the program.
    pub fn with_weights(weights: &'static NetworkWeights) -> NetworkEval {
        NetworkEval { weights }
    }
}

impl Evaluator<Position> for NetworkEval {
    #[inline]
    fn evaluate(&self, pos: &Position) -> Score {
        self.weights.value(pos).clamp(-LIMIT, LIMIT)
    }

    fn name(&self) -> &'static str {
        "network"
    }
}

#[cfg(test)]
#[path = "network_tests.rs"]
mod tests;
