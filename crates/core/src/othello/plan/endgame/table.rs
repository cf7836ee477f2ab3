//! The solver's transposition table: bounds on exact scores and the best move per
//! position, in buckets of four replaced by depth and age; beside it, the remembered
//! values of the shallow searches that order the moves at many empties. Shared by the
//! threads of a parallel solve without locks.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use crate::game::{Score, mix64};

use crate::search::plan::{BusyMarks, LargeArray, OutOfMemory, Slot, power_of_two_fitting};

/// The solver's table: lower and upper bounds on exact scores, and the best move;
/// beside it, the values of the shallow searches that order the moves at many empties.
/// Shared by the threads of a parallel solve, without locks (see `Slot`).
pub struct Solver {
    entries: LargeArray<Slot>,
    mask: usize,
    age: u8,
    epoch: u8,
    orderings: LargeArray<AtomicU64>,
    /// The positions the threads of a parallel solve are searching now.
    pub(super) busy: BusyMarks,
}

/// A shallow full-window search's value: exact at its depth, so it serves every later
/// ordering of the same position (the selective solves and the exact one visit the
/// same nodes, each ordering their moves again).
#[derive(Clone, Copy)]
struct Ordering {
    /// The key's high half.
    check: u32,
    value: i16,
    depth: u8,
    epoch: u8,
}

impl Ordering {
    fn pack(self) -> u64 {
        u64::from(self.check)
            | u64::from(self.value as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.epoch) << 56
    }

    fn unpack(bits: u64) -> Ordering {
        Ordering {
            check: bits as u32,
            value: (bits >> 32) as u16 as i16,
            depth: (bits >> 48) as u8,
            epoch: (bits >> 56) as u8,
        }
    }
}

#[derive(Clone, Copy)]
pub(super) struct Entry {
    key: u64,
    pub(super) lower: i8,
    pub(super) upper: i8,
    /// Best move square, 64 for none.
    pub(super) mv: u8,
    empties: u8,
    /// Selectivity of the search that found the bounds ([`EXACT`] for exact ones).
    pub(super) level: u8,
    age: u8,
    epoch: u8,
}

impl Entry {
    fn pack(self) -> (u64, u64) {
        let data = u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.mv) << 16
            | u64::from(self.empties) << 24
            | u64::from(self.level) << 32
            | u64::from(self.age) << 40
            | u64::from(self.epoch) << 48;
        (self.key, data)
    }

    fn unpack((key, data): (u64, u64)) -> Entry {
        Entry {
            key,
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            mv: (data >> 16) as u8,
            empties: (data >> 24) as u8,
            level: (data >> 32) as u8,
            age: (data >> 40) as u8,
            epoch: (data >> 48) as u8,
        }
    }
}

/// The level of exact results; selective solves have lower levels.
pub(super) const EXACT: u8 = u8::MAX;

const BUCKET: usize = 4;

impl Solver {
    /// A solver whose table takes about `megabytes` MiB, or an error when that much
    /// memory cannot be had.
    pub fn new(megabytes: usize) -> Result<Solver, OutOfMemory> {
        let buckets = Self::buckets(megabytes).ok_or(OutOfMemory)?;
        Ok(Solver {
            entries: LargeArray::try_zeroed(buckets * BUCKET)?,
            mask: buckets - 1,
            age: 0,
            epoch: 1,
            // An eighth as many entries as the table, direct-mapped (a collision can
            // only misorder moves, never change a score).
            orderings: LargeArray::try_zeroed(buckets * BUCKET / 8)?,
            busy: BusyMarks::default(),
        })
    }

    /// At least 1 MiB: thousands of buckets, so the orderings are never empty.
    fn buckets(megabytes: usize) -> Option<usize> {
        power_of_two_fitting(megabytes, size_of::<Slot>() * BUCKET)
    }

    /// The bytes of the two arrays [`Solver::new`] asks for (`None`: more than a machine
    /// word counts).
    pub fn bytes(megabytes: usize) -> Option<[usize; 2]> {
        let entries = Self::buckets(megabytes)?.checked_mul(BUCKET)?;
        Some([
            entries.checked_mul(size_of::<Slot>())?,
            entries / 8 * size_of::<AtomicU64>(),
        ])
    }

    /// Forgets every entry (they stay true, but a cleared searcher must not depend on
    /// earlier searches).
    pub fn clear(&mut self) {
        self.age = 0;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.entries.iter_mut().for_each(Slot::clear);
            self.orderings.iter_mut().for_each(|e| *e.get_mut() = 0);
            self.epoch = 1;
        }
    }

    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let start = (key as usize & self.mask) * BUCKET;
        self.entries[start..start + BUCKET]
            .iter()
            .map(|slot| Entry::unpack(slot.load()))
            .find(|e| e.key == key && e.epoch == self.epoch)
    }

    /// Starts loading the bucket of `key` into the cache (a later probe finds it
    /// there instead of waiting for memory).
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let start = (key as usize & self.mask) * BUCKET;
            let address = self.entries[start..].as_ptr().cast::<i8>();
            // SAFETY: a prefetch has no effect on memory or program state.
            #[allow(unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address);
            }
        }
    }

    /// The remembered value of a shallow search of at least `depth` plies.
    #[inline(always)]
    pub(super) fn ordering(&self, key: u64, depth: u8) -> Option<Score> {
        let slot = key as usize & (self.orderings.len() - 1);
        let e = Ordering::unpack(self.orderings[slot].load(Relaxed));
        (e.check == (key >> 32) as u32 && e.epoch == self.epoch && e.depth >= depth)
            .then_some(Score::from(e.value))
    }

    #[inline(always)]
    pub(super) fn remember_ordering(&self, key: u64, depth: u8, value: Score) {
        let slot = key as usize & (self.orderings.len() - 1);
        let entry = Ordering {
            check: (key >> 32) as u32,
            value: value.clamp(Score::from(i16::MIN), Score::from(i16::MAX)) as i16,
            depth,
            epoch: self.epoch,
        };
        self.orderings[slot].store(entry.pack(), Relaxed);
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(&self, key: u64, empties: u32, level: u8, lower: i32, upper: i32, mv: u8) {
        let start = (key as usize & self.mask) * BUCKET;
        let (age, epoch) = (self.age, self.epoch);
        let bucket = &self.entries[start..start + BUCKET];
        let mut victim = 0;
        let mut worth = i32::MAX;
        for (i, e) in bucket
            .iter()
            .map(|slot| Entry::unpack(slot.load()))
            .enumerate()
        {
            if e.epoch != epoch || e.key == key {
                victim = i;
                break;
            }
            let w = i32::from(e.empties) - 2 * i32::from(age.wrapping_sub(e.age));
            if w < worth {
                victim = i;
                worth = w;
            }
        }
        bucket[victim].save(
            Entry {
                key,
                lower: lower.clamp(-64, 64) as i8,
                upper: upper.clamp(-64, 64) as i8,
                mv,
                empties: empties as u8,
                level,
                age,
                epoch,
            }
            .pack(),
        );
    }
}

/// The table key of a position.
#[inline(always)]
pub(super) fn table_key(p: u64, o: u64) -> u64 {
    mix64(p ^ mix64(o))
}
