//! The transposition table: what earlier searches learned about a position (a bound on
//! its score at some depth, and the best move), kept between moves of a game.
//!
//! Buckets of [`BUCKET`] entries; a new result replaces the same position, else an empty
//! slot, else the entry with the least depth, entries from older searches counting as
//! shallower. [`Table::clear`] bumps an epoch instead of rewriting the memory, so that
//! clearing is free and a cleared table behaves exactly like a fresh one.

use crate::game::Score;

use super::memory::LargeArray;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
    /// The score is the value at that depth.
    Exact,
}

/// A stored result, as returned by [`Table::probe`].
#[derive(Clone, Copy, Debug)]
pub struct Hit<M> {
    pub score: Score,
    pub depth: u8,
    pub bound: Bound,
    pub mv: Option<M>,
}

impl<M> Hit<M> {
    /// The stored score if it settles a search of window (`alpha`, `beta`).
    pub fn cutoff(&self, alpha: Score, beta: Score) -> Option<Score> {
        match self.bound {
            Bound::Exact => Some(self.score),
            Bound::Lower if self.score >= beta => Some(self.score),
            Bound::Upper if self.score <= alpha => Some(self.score),
            _ => None,
        }
    }
}

#[derive(Clone, Copy)]
struct Entry<M> {
    /// The key's high 32 bits (its low bits chose the bucket): an entry of another
    /// position passes for this one about once in 10^9 probes, and a move taken from
    /// it is checked for legality before it is played.
    check: u32,
    score: Score,
    mv: Option<M>,
    depth: u8,
    bound: Bound,
    /// The search that wrote the entry (wrapping counter).
    age: u8,
    /// The clear epoch the entry belongs to; any other epoch means "empty".
    epoch: u8,
}

/// Entries per bucket: one cache line for Othello's small moves.
pub const BUCKET: usize = 4;

/// A bucket, aligned so that a probe touches a single cache line (for Othello: 16-byte
/// entries).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket<M>([Entry<M>; BUCKET]);

pub struct Table<M: Copy> {
    /// Huge-page backed where the system allows: see [`super::memory`].
    buckets: LargeArray<Bucket<M>>,
    /// Number of buckets minus one (a power of two minus one).
    mask: usize,
    age: u8,
    epoch: u8,
}

impl<M: Copy> Table<M> {
    /// A table of at most `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> Table<M> {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let per_bucket = std::mem::size_of::<Bucket<M>>();
        let mut buckets = 1usize;
        while buckets * 2 * per_bucket <= bytes {
            buckets *= 2;
        }
        let empty = Entry {
            check: 0,
            score: 0,
            mv: None,
            depth: 0,
            bound: Bound::Upper,
            age: 0,
            epoch: 0,
        };
        Table {
            buckets: LargeArray::filled(buckets, Bucket([empty; BUCKET])),
            mask: buckets - 1,
            age: 0,
            epoch: 1,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.age = 0;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // The epoch wrapped: entries of 256 clears ago would look valid again.
            for bucket in self.buckets.iter_mut() {
                for entry in &mut bucket.0 {
                    entry.epoch = 0;
                }
            }
            self.epoch = 1;
        }
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        key as usize & self.mask
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe soon after
    /// need not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(bucket) = self.buckets.get(self.index(key)) {
            // SAFETY: a prefetch has no effect on memory or program state.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    (bucket as *const Bucket<M>).cast::<i8>(),
                );
            }
        }
    }

    pub fn probe(&self, key: u64) -> Option<Hit<M>> {
        let check = (key >> 32) as u32;
        self.buckets[self.index(key)]
            .0
            .iter()
            .find(|e| e.epoch == self.epoch && e.check == check)
            .map(|e| Hit {
                score: e.score,
                depth: e.depth,
                bound: e.bound,
                mv: e.mv,
            })
    }

    pub fn store(&mut self, key: u64, depth: u32, score: Score, bound: Bound, mv: Option<M>) {
        let check = (key >> 32) as u32;
        let (age, epoch) = (self.age, self.epoch);
        let index = self.index(key);
        let bucket = &mut self.buckets[index].0;
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            if e.epoch != epoch {
                victim = i;
                break;
            }
            if e.check == check {
                victim = i;
                break;
            }
            let staleness = i32::from(age.wrapping_sub(e.age));
            let worth = i32::from(e.depth) - 4 * staleness;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let slot = &mut bucket[victim];
        // Keep a known best move when the new result has none (a fail-low).
        let mv = if mv.is_none() && slot.epoch == epoch && slot.check == check {
            slot.mv
        } else {
            mv
        };
        *slot = Entry {
            check,
            score,
            mv,
            depth: depth.min(255) as u8,
            bound,
            age,
            epoch,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_probes_and_clears() {
        let mut table: Table<u8> = Table::new(1);
        let (key, other) = (42 << 32 | 42, 43 << 32 | 42);
        table.store(key, 5, 17, Bound::Lower, Some(3));
        let hit = table.probe(key).unwrap();
        assert_eq!(
            (hit.score, hit.depth, hit.bound, hit.mv),
            (17, 5, Bound::Lower, Some(3))
        );
        assert_eq!(hit.cutoff(0, 10), Some(17));
        assert_eq!(hit.cutoff(0, 20), None);
        table.store(key, 6, 5, Bound::Upper, None);
        assert_eq!(table.probe(key).unwrap().mv, Some(3));
        assert!(
            table.probe(other).is_none(),
            "same bucket, another position"
        );
        table.clear();
        assert!(table.probe(key).is_none());
    }

    #[test]
    fn deep_entries_survive_a_full_bucket() {
        let mut table: Table<u8> = Table::new(1);
        let buckets = (table.mask + 1) as u64;
        // Keys of one bucket that differ in their high bits.
        let key = |i: u64| (i << 32) | 7;
        assert!(buckets < 1 << 32);
        table.store(key(0), 20, 1, Bound::Exact, None);
        for i in 1..=10 {
            table.store(key(i), 1, 0, Bound::Exact, None);
        }
        assert_eq!(table.probe(key(0)).unwrap().depth, 20);
    }
}
