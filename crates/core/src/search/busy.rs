//! Which positions the threads of a parallel search are searching now, so that each
//! thread can put off a move another is already searching and take other work first
//! (the idea of ABDADA): the threads part ways, and each later finds the others'
//! results in the shared table instead of searching the same subtree at the same time.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use super::memory::LargeArray;

/// Slots, direct-mapped by key: a collision only makes a thread put off a move it need
/// not, or not put off one it could, never changes a score.
const SLOTS: usize = 1 << 12;

pub struct BusyMarks {
    slots: LargeArray<AtomicU64>,
}

impl Default for BusyMarks {
    fn default() -> Self {
        BusyMarks {
            slots: LargeArray::zeroed(SLOTS),
        }
    }
}

impl BusyMarks {
    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (SLOTS - 1)]
    }

    /// Whether another thread is searching the position of `key` now.
    #[inline(always)]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }

    /// Marks the position of `key` as searched now.
    #[inline(always)]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// Clears the mark, unless its slot holds another position's by now.
    #[inline(always)]
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_lasts_from_enter_to_leave_and_yields_to_a_newer_one() {
        let marks = BusyMarks::default();
        let (key, rival) = (0x1234_5678_9ABC_0001, 0x4321_0000_0000_0001);
        assert!(!marks.is_busy(key));
        marks.enter(key);
        assert!(marks.is_busy(key));
        marks.leave(key);
        assert!(!marks.is_busy(key));
        // Same slot: the newer mark stays when the older position is left.
        marks.enter(key);
        marks.enter(rival);
        marks.leave(key);
        assert!(marks.is_busy(rival) && !marks.is_busy(key));
    }
}
