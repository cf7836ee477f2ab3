//! The bytes of a pattern weight file (format: [`super::pattern`]), apart from what the
//! weights mean. Plain `std`, so that the build script can include this file too: it
//! decodes the embedded weights once, when iago is built, instead of at every start-up.

/// The current format: differences from the stage before, as varints.
pub const MAGIC: &[u8; 8] = b"IAGOPAT2";
/// The first format: i16 values and runs of zeros.
pub const MAGIC_V1: &[u8; 8] = b"IAGOPAT1";
const ZERO_RUN_V1: i16 = i16::MIN;
/// Bytes before the weights: the magic, the stage count and the weights a stage.
pub const HEADER_LEN: usize = 16;

/// What a weight file's header says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Header {
    pub version_1: bool,
    pub stages: usize,
    pub stage_len: usize,
}

/// Reads the header of `bytes` (which must be a weight file's, of either format).
pub fn read_header(bytes: &[u8]) -> Result<Header, String> {
    let header = bytes
        .get(..HEADER_LEN)
        .ok_or("pattern weights: file shorter than its header")?;
    let version_1 = &header[..8] == MAGIC_V1;
    if !version_1 && &header[..8] != MAGIC {
        return Err("pattern weights: not an IAGOPAT2 or IAGOPAT1 file".into());
    }
    let word = |at: usize| {
        u32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    Ok(Header {
        version_1,
        stages: word(8) as usize,
        stage_len: word(12) as usize,
    })
}

/// The weights of a file whose header is `header` (checked by the caller: the sizes it
/// accepts), all stages, stage after stage.
pub fn decode(header: &Header, bytes: &[u8]) -> Result<Vec<i16>, String> {
    let body = bytes.get(HEADER_LEN..).unwrap_or(&[]);
    let total = header.stages * header.stage_len;
    if header.version_1 {
        decode_v1(body, total)
    } else {
        decode_v2(body, total, header.stage_len)
    }
}

/// The file bytes (`IAGOPAT2`) of `weights`, `stages` stages of `stage_len`.
pub fn encode(stages: usize, stage_len: usize, weights: &[i16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(weights.len() / 2);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(stages as u32).to_le_bytes());
    out.extend_from_slice(&(stage_len as u32).to_le_bytes());
    let difference = |i: usize| {
        let before = i.checked_sub(stage_len).map_or(0, |j| weights[j]);
        i32::from(weights[i]) - i32::from(before)
    };
    let mut i = 0;
    while i < weights.len() {
        let run = (i..weights.len())
            .take_while(|&j| difference(j) == 0)
            .count();
        if run > 0 {
            push_varint(&mut out, 0);
            push_varint(&mut out, run as u32);
            i += run;
        } else {
            let d = difference(i);
            push_varint(
                &mut out,
                if d > 0 {
                    2 * d as u32
                } else {
                    2 * d.unsigned_abs() - 1
                },
            );
            i += 1;
        }
    }
    out
}

/// Appends `value` as an unsigned LEB128 varint.
pub fn push_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads an unsigned LEB128 varint of at most 32 bits off the front of `bytes`.
fn take_varint(bytes: &mut &[u8]) -> Result<u32, String> {
    let mut value = 0u32;
    for shift in (0..35).step_by(7) {
        let [byte, rest @ ..] = *bytes else {
            return Err("pattern weights: truncated number".into());
        };
        *bytes = rest;
        let bits = u32::from(byte & 0x7F);
        if shift == 28 && bits > 0x0F {
            break;
        }
        value |= bits << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("pattern weights: number out of range".into())
}

/// The `total` weights of an `IAGOPAT2` body: differences from the stage before.
fn decode_v2(mut rest: &[u8], total: usize, stage_len: usize) -> Result<Vec<i16>, String> {
    let mut weights: Vec<i16> = Vec::with_capacity(total);
    while let [first, tail @ ..] = rest {
        // Most differences are small: a one-byte number is read without the general loop.
        let token = if *first < 0x80 {
            rest = tail;
            u32::from(*first)
        } else {
            take_varint(&mut rest)?
        };
        let (difference, count) = if token == 0 {
            match take_varint(&mut rest)? {
                0 => return Err("pattern weights: an empty run of zeros".into()),
                run => (0, run as usize),
            }
        } else if token % 2 == 0 {
            (i64::from(token / 2), 1)
        } else {
            (-i64::from(token.div_ceil(2)), 1)
        };
        if count > total - weights.len() {
            return Err("pattern weights: more weights than the header says".into());
        }
        if difference == 0 {
            // A run repeats the stage before, a stage at most at a time (zeros in stage 0).
            let mut left = count;
            while left > 0 {
                let i = weights.len();
                let step = if i < stage_len {
                    let step = left.min(stage_len - i);
                    weights.resize(i + step, 0);
                    step
                } else {
                    let step = left.min(stage_len);
                    weights.extend_from_within(i - stage_len..i - stage_len + step);
                    step
                };
                left -= step;
            }
        } else {
            let i = weights.len();
            let before = i.checked_sub(stage_len).map_or(0, |j| weights[j]);
            let value = i16::try_from(i64::from(before) + difference)
                .map_err(|_| "pattern weights: a weight out of range")?;
            weights.push(value);
        }
    }
    if weights.len() != total {
        return Err(format!(
            "pattern weights: {} weights read, {total} expected",
            weights.len()
        ));
    }
    Ok(weights)
}

/// The `total` weights of an `IAGOPAT1` body: i16 values and zero runs.
fn decode_v1(mut rest: &[u8], total: usize) -> Result<Vec<i16>, String> {
    let mut weights = Vec::with_capacity(total);
    while let [a, b, tail @ ..] = rest {
        let value = i16::from_le_bytes([*a, *b]);
        rest = tail;
        if value == ZERO_RUN_V1 {
            let [c, d, tail @ ..] = rest else {
                return Err("pattern weights: truncated zero run".into());
            };
            let run = usize::from(u16::from_le_bytes([*c, *d]));
            weights.resize(weights.len() + run, 0);
            rest = tail;
        } else {
            weights.push(value);
        }
        if weights.len() > total {
            return Err("pattern weights: more weights than the header says".into());
        }
    }
    if !rest.is_empty() || weights.len() != total {
        return Err(format!(
            "pattern weights: {} weights read, {total} expected",
            weights.len()
        ));
    }
    Ok(weights)
}
