//! Decodes the embedded pattern weights (`src/othello/eval/weights/patterns.bin`, a compact file)
//! into the array the evaluation reads in place, so that start-up does not decode them.

use std::path::Path;

#[allow(dead_code)]
#[path = "src/othello/eval/weight_file.rs"]
mod weight_file;

/// More stages than any weight file may have: a bound on what a bad file could allocate.
const MOST_STAGES: usize = 60;

fn main() {
    let source = "src/othello/eval/weights/patterns.bin";
    println!("cargo::rerun-if-changed={source}");
    println!("cargo::rerun-if-changed=src/othello/eval/weight_file.rs");
    let bytes = std::fs::read(source).unwrap_or_else(|e| panic!("{source}: {e}"));
    let header = weight_file::read_header(&bytes).unwrap_or_else(|e| panic!("{source}: {e}"));
    assert!(
        (1..=MOST_STAGES).contains(&header.stages) && header.stage_len <= 1 << 24,
        "{source}: {} stages of {} weights",
        header.stages,
        header.stage_len
    );
    let weights = weight_file::decode(&header, &bytes).unwrap_or_else(|e| panic!("{source}: {e}"));
    let big_endian = std::env::var("CARGO_CFG_TARGET_ENDIAN").as_deref() == Ok("big");
    let mut out = Vec::with_capacity(8 + 2 * weights.len());
    out.extend_from_slice(&(header.stages as u32).to_le_bytes());
    out.extend_from_slice(&(header.stage_len as u32).to_le_bytes());
    for w in weights {
        out.extend_from_slice(&if big_endian {
            w.to_be_bytes()
        } else {
            w.to_le_bytes()
        });
    }
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("patterns.i16"), out).expect("writing the weights");
}
