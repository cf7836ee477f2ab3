//! A table entry that the threads of a search read and write without locks.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use super::memory::Zeroable;

/// An entry as two words, a key and its data, of which the first is kept xor the
/// second: a slot torn by two writers (the first word of one, the second of the other)
/// then fails its reader's key check and reads as a miss, but for a chance like that of
/// a key collision. All zero is an empty slot.
pub struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

// SAFETY: atomic integers, no drop.
unsafe impl Zeroable for Slot {}

impl Slot {
    /// The key and the data.
    #[inline(always)]
    pub fn load(&self) -> (u64, u64) {
        let data = self.data.load(Relaxed);
        (self.key_xor_data.load(Relaxed) ^ data, data)
    }

    #[inline(always)]
    pub fn save(&self, (key, data): (u64, u64)) {
        self.key_xor_data.store(key ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }

    pub fn clear(&mut self) {
        *self.key_xor_data.get_mut() = 0;
        *self.data.get_mut() = 0;
    }

    /// The first word as stored (xor the data), for tests that tear a slot.
    #[cfg(test)]
    pub fn first_word(&self) -> &AtomicU64 {
        &self.key_xor_data
    }
}
