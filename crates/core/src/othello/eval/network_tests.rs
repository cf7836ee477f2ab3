use super::*;
use crate::game::mix64;
use crate::othello::notation::parse_position;
use crate::othello::symmetry::Symmetry;

/// The parameters of a seeded network, as `gpu/net.py` makes them (`seeded_parameters`
/// there): the k-th parameter of the file is `mix64(seed + k * golden) mod (2m + 1) - m`,
/// `m` the bound of its kind.
struct Seeded {
    seed: u64,
    k: u64,
}

impl Seeded {
    fn next(&mut self, bound: u64) -> i64 {
        let x = mix64(
            self.seed
                .wrapping_add(self.k.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        );
        self.k += 1;
        (x % (2 * bound + 1)) as i64 - bound as i64
    }

    fn i16s(&mut self, bytes: &mut Vec<u8>, n: usize, bound: u64) {
        for _ in 0..n {
            bytes.extend_from_slice(&(self.next(bound) as i16).to_le_bytes());
        }
    }

    fn i32s(&mut self, bytes: &mut Vec<u8>, n: usize, bound: u64) {
        for _ in 0..n {
            bytes.extend_from_slice(&(self.next(bound) as i32).to_le_bytes());
        }
    }
}

/// The bounds of the seeded parameters: embedding, accumulator bias, L2, b2, V, S, c.
const BOUNDS: [u64; 7] = [40, 100, 40, 5000, 3000, 20, 50_000];

/// An IAGONET1 file of seeded parameters.
fn seeded_file(seed: u64, width: usize, hidden: usize, buckets: usize) -> Vec<u8> {
    let layout = features::layout();
    let (_, rows) = tied_rows(layout);
    let mut bytes = MAGIC.to_vec();
    for n in [layout.stage_len as usize, rows, width, hidden, buckets] {
        bytes.extend_from_slice(&(n as u32).to_le_bytes());
    }
    let mut seeded = Seeded { seed, k: 0 };
    seeded.i16s(&mut bytes, rows * width, BOUNDS[0]);
    seeded.i16s(&mut bytes, width, BOUNDS[1]);
    for _ in 0..buckets {
        seeded.i16s(&mut bytes, hidden * width, BOUNDS[2]);
        seeded.i32s(&mut bytes, hidden, BOUNDS[3]);
        seeded.i32s(&mut bytes, hidden, BOUNDS[4]);
        seeded.i32s(&mut bytes, width, BOUNDS[5]);
        seeded.i32s(&mut bytes, 1, BOUNDS[6]);
    }
    bytes
}

/// One position of the fixture: the position, its tied feature indices (as iago wrote
/// them), and the trainer's values in hundredths: its quantised pass (unclamped) and its
/// float pass.
struct Expected {
    position: Position,
    indices: Vec<u32>,
    quantised: Score,
    float: f64,
}

/// `network_fixture.txt`: the seeded network's seed and shape, then the positions.
fn fixture() -> ([usize; 4], Vec<Expected>) {
    let text = include_str!("network_fixture.txt");
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty());
    let head: Vec<usize> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let expected = lines
        .map(|line| {
            let parts: Vec<&str> = line.split('|').collect();
            Expected {
                position: parse_position(parts[0]).unwrap(),
                indices: parts[1]
                    .split_whitespace()
                    .map(|w| w.parse().unwrap())
                    .collect(),
                quantised: parts[2].trim().parse().unwrap(),
                float: parts[3].trim().parse().unwrap(),
            }
        })
        .collect();
    ([head[0], head[1], head[2], head[3]], expected)
}

/// The network's float pass over the dequantised weights, in hundredths (a reference
/// apart from the integer code).
fn float_value(net: &NetworkWeights, pos: &Position) -> f64 {
    let layout = features::layout();
    let mut indices = vec![0u32; layout.active()];
    features::indices(layout, pos, &mut indices);
    let w = net.width;
    let qa = f64::from(QA);
    let mut acc: Vec<f64> = net.bias.iter().map(|&b| f64::from(b) / qa).collect();
    for &index in &indices {
        let row = net.row_of[index as usize] as usize;
        for (a, &e) in acc.iter_mut().zip(&net.embedding[row * w..][..w]) {
            *a += f64::from(e) / qa;
        }
    }
    let discs = (pos.player | pos.opponent).count_ones() as usize;
    let bucket = &net.buckets[usize::from(net.bucket_of_discs[discs])];
    let clipped: Vec<f64> = acc.iter().map(|a| a.clamp(0.0, 1.0)).collect();
    let qo = f64::from(QO);
    let mut y = f64::from(bucket.bias) / (qa * qo);
    for ((row, &b2), &out) in bucket.l2.chunks_exact(w).zip(&bucket.b2).zip(&bucket.out) {
        let pre: f64 = row
            .iter()
            .zip(&clipped)
            .map(|(&x, c)| f64::from(x) / f64::from(QW) * c)
            .sum::<f64>()
            + f64::from(b2) / (qa * f64::from(QW));
        y += pre.clamp(0.0, 1.0) * f64::from(out) / qo;
    }
    y += bucket
        .skip
        .iter()
        .zip(&acc)
        .map(|(&s, a)| f64::from(s) / qo * a)
        .sum::<f64>();
    y * 100.0
}

fn seeded_fixture_network() -> (NetworkWeights, Vec<Expected>) {
    let ([seed, width, hidden, buckets], expected) = fixture();
    let bytes = seeded_file(seed as u64, width, hidden, buckets);
    (NetworkWeights::decode(&bytes).unwrap(), expected)
}

#[test]
fn the_engine_computes_the_trainers_quantised_values_exactly() {
    let (net, expected) = seeded_fixture_network();
    assert!(expected.len() >= 50, "{} positions", expected.len());
    let layout = features::layout();
    let mut buckets_seen = vec![false; net.buckets()];
    for e in &expected {
        // The features the trainer was given are the ones the engine reads.
        let mut indices = vec![0u32; layout.active()];
        features::indices(layout, &e.position, &mut indices);
        let tied: Vec<u32> = indices
            .iter()
            .map(|&i| layout.canonical[i as usize])
            .collect();
        assert_eq!(tied, e.indices, "{:?}", e.position);
        assert_eq!(net.value(&e.position), e.quantised, "{:?}", e.position);
        assert_eq!(value_portable(&net, &e.position), e.quantised);
        let discs = (e.position.player | e.position.opponent).count_ones() as usize;
        buckets_seen[usize::from(net.bucket_of_discs[discs])] = true;
    }
    assert!(buckets_seen.iter().all(|&seen| seen), "every bucket tested");
}

#[test]
fn the_quantised_pass_stays_within_its_rounding_of_the_float_pass() {
    let (net, expected) = seeded_fixture_network();
    for e in &expected {
        // Rust's float pass is the trainer's float pass.
        let float = float_value(&net, &e.position);
        assert!(
            (float - e.float).abs() < 1e-6,
            "{float} against {}",
            e.float
        );
        // Each hidden unit's floor loses under 1/QA of its output weight, and the
        // output's floor under a hundredth.
        let discs = (e.position.player | e.position.opponent).count_ones() as usize;
        let bucket = &net.buckets[usize::from(net.bucket_of_discs[discs])];
        let tolerance = bucket
            .out
            .iter()
            .map(|&v| f64::from(v).abs() / f64::from(QO) / f64::from(QA) * 100.0)
            .sum::<f64>()
            + 1.0;
        let quantised = f64::from(net.value(&e.position));
        assert!(
            (quantised - float).abs() <= tolerance,
            "{quantised} against {float}, tolerance {tolerance}"
        );
    }
}

/// The integer pass in plain loops over the tied embedding, as the file has it: a
/// reference for the widths the engine compiles ahead and the one it reads at run time.
fn tied_value(net: &NetworkWeights, pos: &Position) -> Score {
    let layout = features::layout();
    let mut indices = vec![0u32; layout.active()];
    features::indices(layout, pos, &mut indices);
    let w = net.width;
    let mut acc = net.bias.clone();
    for &index in &indices {
        let row = net.row_of[index as usize] as usize;
        for (a, &e) in acc.iter_mut().zip(&net.embedding[row * w..][..w]) {
            *a = a.wrapping_add(e);
        }
    }
    let discs = (pos.player | pos.opponent).count_ones() as usize;
    let bucket = &net.buckets[usize::from(net.bucket_of_discs[discs])];
    let mut total = i64::from(bucket.bias);
    for ((row, &b2), &out) in bucket.l2.chunks_exact(w).zip(&bucket.b2).zip(&bucket.out) {
        let dot: i32 = row
            .iter()
            .zip(&acc)
            .map(|(&x, &a)| i32::from(x) * i32::from(a.clamp(0, QA as i16)))
            .sum();
        total += i64::from(((dot + b2) / QW).clamp(0, QA)) * i64::from(out);
    }
    for (&s, &a) in bucket.skip.iter().zip(&acc) {
        total += i64::from(s) * i64::from(a);
    }
    (total * 100).div_euclid(i64::from(QA * QO)) as Score
}

#[test]
fn every_width_computes_the_plain_integer_pass() {
    let (_, expected) = seeded_fixture_network();
    // 16, 32 and 64 are compiled for their width, 48 and 80 read it at run time.
    for width in [16, 32, 48, 64, 80] {
        let net = NetworkWeights::decode(&seeded_file(11, width, 5, 3)).unwrap();
        let mut nonzero = 0;
        for e in &expected {
            let value = tied_value(&net, &e.position);
            assert_eq!(net.value(&e.position), value, "width {width}");
            assert_eq!(value_portable(&net, &e.position), value, "width {width}");
            nonzero += usize::from(value != 0);
        }
        assert!(
            nonzero * 2 > expected.len(),
            "width {width}: {nonzero} nonzero"
        );
    }
}

#[test]
fn symmetric_positions_evaluate_alike() {
    let (net, expected) = seeded_fixture_network();
    let eval = NetworkEval::with_weights(Box::leak(Box::new(net)));
    for e in expected.iter().take(20) {
        let value = eval.evaluate(&e.position);
        for symmetry in Symmetry::ALL {
            assert_eq!(eval.evaluate(&e.position.transformed(symmetry)), value);
        }
    }
}

#[test]
fn bad_files_are_errors() {
    let good = seeded_file(3, 16, 4, 2);
    assert!(NetworkWeights::decode(&good).is_ok());
    let mut truncated = good.clone();
    truncated.pop();
    assert!(NetworkWeights::decode(&truncated).is_err(), "truncated");
    let mut longer = good.clone();
    longer.push(0);
    assert!(NetworkWeights::decode(&longer).is_err(), "a byte too many");
    assert!(NetworkWeights::decode(b"IAGONET0").is_err(), "magic");
    assert!(NetworkWeights::decode(b"").is_err(), "empty");
    let with_word = |at: usize, value: u32| {
        let mut bytes = good.clone();
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
        NetworkWeights::decode(&bytes)
    };
    assert!(with_word(8, 5).is_err(), "another feature layout");
    assert!(with_word(12, 5).is_err(), "another row count");
    assert!(with_word(16, 24).is_err(), "a width not a multiple of 16");
    assert!(with_word(16, 1 << 30).is_err(), "a huge width");
    assert!(with_word(20, 0).is_err(), "no hidden unit");
    assert!(with_word(24, 61).is_err(), "too many buckets");
    // An accumulator that can overflow i16: the bias of column 0 at the limit.
    let (_, rows) = tied_rows(features::layout());
    let bias_at = 28 + 2 * rows * 16;
    let mut overflowing = good.clone();
    overflowing[bias_at..bias_at + 2].copy_from_slice(&i16::MAX.to_le_bytes());
    let error = NetworkWeights::decode(&overflowing).unwrap_err();
    assert!(error.contains("beyond i16"), "{error}");
}

#[test]
fn a_network_file_read_again_reuses_its_weights() {
    let path = std::env::temp_dir().join(format!("iago-network-{}.bin", std::process::id()));
    std::fs::write(&path, seeded_file(5, 16, 4, 3)).unwrap();
    let text = path.to_str().unwrap();
    let first = NetworkEval::from_file(text).unwrap();
    let again = NetworkEval::from_file(text).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(std::ptr::eq(first.weights, again.weights));
    assert_eq!(first.weights.buckets(), 3);
}
