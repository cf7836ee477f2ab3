//! A binary adaptive range coder: each bit is coded with the probability its context has
//! learnt from the bits coded in that context before, so that a bit the model predicts
//! well costs a small fraction of a bit. The game records of IAGOGAM3 ([`super::coded`])
//! are coded with it.
//!
//! The coder keeps a 32-bit range and a low end with one byte of carry room; bytes whose
//! value a later carry may still change wait (as one cached byte and a count of 0xFF bytes)
//! until it cannot. Probabilities have 12 bits; each context mixes a fast and a slow
//! estimate, so that it adapts quickly at first and settles on precise values later.

/// Bits of a coded probability.
const PROB_BITS: u32 = 12;
/// The range is renormalised (a byte shifted out) whenever it falls below this.
const TOP: u32 = 1 << 24;

/// A context's learnt probability that its next bit is 0, as two estimates with 16 bits.
#[derive(Clone, Copy, Debug)]
pub struct Bit {
    fast: u16,
    slow: u16,
}

impl Default for Bit {
    fn default() -> Self {
        Bit {
            fast: 1 << 15,
            slow: 1 << 15,
        }
    }
}

impl Bit {
    /// The probability of a 0, in (0, 2^12).
    fn zero_probability(self) -> u32 {
        let mixed = (u32::from(self.fast) + u32::from(self.slow)) >> (17 - PROB_BITS);
        mixed.clamp(1, (1 << PROB_BITS) - 1)
    }

    fn learn(&mut self, bit: bool) {
        fn step(p: &mut u16, bit: bool, shift: u32) {
            if bit {
                *p -= *p >> shift;
            } else {
                *p += (u16::MAX - *p) >> shift;
            }
        }
        step(&mut self.fast, bit, 4);
        step(&mut self.slow, bit, 7);
    }
}

/// Codes bits into bytes.
#[derive(Clone, Debug)]
pub struct Encoder {
    low: u64,
    range: u32,
    /// The last byte shifted out, which a carry may still raise.
    cache: u8,
    /// Bytes waiting: the cached one and the 0xFF bytes after it.
    waiting: u64,
    out: Vec<u8>,
}

impl Default for Encoder {
    fn default() -> Self {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            waiting: 1,
            out: Vec::new(),
        }
    }
}

impl Encoder {
    /// Codes `bit` with `context`'s probability, then teaches it the bit.
    pub fn bit(&mut self, context: &mut Bit, bit: bool) {
        let bound = (self.range >> PROB_BITS) * context.zero_probability();
        if bit {
            self.low += u64::from(bound);
            self.range -= bound;
        } else {
            self.range = bound;
        }
        context.learn(bit);
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    /// Codes the low `bits` bits of `value`, high bit first, each in the context of the
    /// bits before it (a binary tree of `contexts`, which must hold `2^bits` entries).
    pub fn tree(&mut self, contexts: &mut [Bit], bits: u32, value: u32) {
        let mut node = 1usize;
        for shift in (0..bits).rev() {
            let bit = value >> shift & 1 == 1;
            self.bit(&mut contexts[node], bit);
            node = node << 1 | usize::from(bit);
        }
    }

    fn shift_low(&mut self) {
        if self.low < 0xFF00_0000 || self.low > u64::from(u32::MAX) {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            while self.waiting > 0 {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.waiting -= 1;
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.waiting += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    /// The bytes coded so far, with everything the decoder needs to read them back; the
    /// encoder is left as it was.
    pub fn finished(&self) -> Vec<u8> {
        let mut copy = self.clone();
        for _ in 0..5 {
            copy.shift_low();
        }
        copy.out
    }
}

/// Reads back what an [`Encoder`] coded, given the same contexts in the same order.
pub struct Decoder<'a> {
    code: u32,
    range: u32,
    bytes: &'a [u8],
    /// Bytes asked for past the end (read as zeros): more than the encoder's flush means
    /// the stream was cut short.
    overrun: usize,
}

impl<'a> Decoder<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        let mut decoder = Decoder {
            code: 0,
            range: u32::MAX,
            bytes,
            overrun: 0,
        };
        for _ in 0..5 {
            decoder.code = decoder.code << 8 | u32::from(decoder.next_byte());
        }
        decoder
    }

    fn next_byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&byte, rest)) => {
                self.bytes = rest;
                byte
            }
            None => {
                self.overrun += 1;
                0
            }
        }
    }

    pub fn bit(&mut self, context: &mut Bit) -> bool {
        let bound = (self.range >> PROB_BITS) * context.zero_probability();
        let bit = self.code >= bound;
        if bit {
            self.code -= bound;
            self.range -= bound;
        } else {
            self.range = bound;
        }
        context.learn(bit);
        while self.range < TOP {
            self.range <<= 8;
            self.code = self.code << 8 | u32::from(self.next_byte());
        }
        bit
    }

    /// Reads a value coded by [`Encoder::tree`] with the same `bits`.
    pub fn tree(&mut self, contexts: &mut [Bit], bits: u32) -> u32 {
        let mut node = 1usize;
        for _ in 0..bits {
            node = node << 1 | usize::from(self.bit(&mut contexts[node]));
        }
        (node - (1 << bits)) as u32
    }

    /// Whether the decoder read past the end of its bytes.
    pub fn overran(&self) -> bool {
        self.overrun > 0
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seeded stream of bits, mostly zeros in one context and mixed in another.
    fn bits(seed: u64, count: usize) -> Vec<(usize, bool)> {
        let mut state = seed;
        (0..count)
            .map(|i| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let draw = (state >> 33) % 100;
                let context = i % 3;
                let bit = match context {
                    0 => draw < 3,
                    1 => draw < 50,
                    _ => draw < 90,
                };
                (context, bit)
            })
            .collect()
    }

    #[test]
    fn bits_read_back_and_skewed_ones_cost_less_than_a_bit() {
        for seed in 0..20 {
            let stream = bits(seed, 30_000);
            let mut contexts = [Bit::default(); 3];
            let mut encoder = Encoder::default();
            for &(context, bit) in &stream {
                encoder.bit(&mut contexts[context], bit);
            }
            let bytes = encoder.finished();
            // Entropy: 0.19 + 1 + 0.47 bits for three bits, about 6.1 KB for 30,000.
            assert!(bytes.len() < 6_600, "{} bytes", bytes.len());
            let mut contexts = [Bit::default(); 3];
            let mut decoder = Decoder::new(&bytes);
            for (i, &(context, bit)) in stream.iter().enumerate() {
                assert_eq!(decoder.bit(&mut contexts[context]), bit, "bit {i}");
            }
            assert!(!decoder.overran());
            assert_eq!(decoder.remaining(), 0);
        }
    }

    #[test]
    fn trees_read_back_every_value_and_long_runs_of_certain_bits() {
        let mut contexts = vec![Bit::default(); 256];
        let mut encoder = Encoder::default();
        let values: Vec<u32> = (0..256).chain(std::iter::repeat_n(255, 5_000)).collect();
        for &value in &values {
            encoder.tree(&mut contexts, 8, value);
        }
        // A long run of 0xFF bytes waiting for a carry: the finished copy and the encoder
        // going on must agree.
        let early = encoder.finished();
        encoder.tree(&mut contexts, 8, 7);
        let bytes = encoder.finished();
        let mut contexts = vec![Bit::default(); 256];
        let mut decoder = Decoder::new(&bytes);
        for &value in &values {
            assert_eq!(decoder.tree(&mut contexts, 8), value);
        }
        assert_eq!(decoder.tree(&mut contexts, 8), 7);
        let mut contexts = vec![Bit::default(); 256];
        let mut decoder = Decoder::new(&early);
        for &value in &values {
            assert_eq!(decoder.tree(&mut contexts, 8), value);
        }
    }

    #[test]
    fn a_cut_stream_overruns() {
        let stream = bits(7, 10_000);
        let mut contexts = [Bit::default(); 3];
        let mut encoder = Encoder::default();
        for &(context, bit) in &stream {
            encoder.bit(&mut contexts[context], bit);
        }
        let bytes = encoder.finished();
        let mut contexts = [Bit::default(); 3];
        let mut decoder = Decoder::new(&bytes[..bytes.len() / 2]);
        for &(context, _) in &stream {
            decoder.bit(&mut contexts[context]);
        }
        assert!(decoder.overran());
    }
}
