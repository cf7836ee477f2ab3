//! The transposition table: what earlier searches learned about a position (a bound on
//! its score at some depth, and the best move), kept between moves of a game.
//!
//! Buckets of [`BUCKET`] entries; a new result replaces the same position (unless that
//! entry is far deeper, see [`KEEP_DEEPER_BY`]), else an empty slot, else the entry with
//! the least depth, entries from older searches counting as shallower. [`Table::clear`]
//! bumps an epoch instead of rewriting the memory, so that clearing is free and a
//! cleared table behaves exactly like a fresh one.

use crate::game::{MoveBits, Score};
use std::marker::PhantomData;

use super::memory::{LargeArray, OutOfMemory, Zeroable, power_of_two_fitting};
use super::slot::Slot;

/// A position's entry at least this much deeper than a new result for it is kept: a
/// solve's entry (stored beyond every midgame depth) would otherwise be lost to the
/// shallow searches that its own and its ancestors' probable cuts make of the same
/// position, and the next selective level would search the whole tree again.
const KEEP_DEEPER_BY: u32 = 64;

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

/// One entry, unpacked.
#[derive(Clone, Copy)]
struct Entry {
    /// The key's high 32 bits (its low bits chose the bucket): an entry of another
    /// position passes for this one about once in 10^9 probes, and a move taken from
    /// it is checked for legality before it is played.
    check: u32,
    /// [`MoveBits`] of the best move, if any.
    mv: Option<u32>,
    score: Score,
    depth: u8,
    bound: Bound,
    /// The search that wrote the entry (wrapping counter).
    age: u8,
    /// The clear epoch the entry belongs to; any other epoch means "empty".
    epoch: u8,
}

/// Bits of the flags byte.
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const HAS_MOVE: u8 = 4;

impl Entry {
    /// The two words of a slot: the check and the move, and the rest.
    fn pack(self) -> (u64, u64) {
        let flags = match self.bound {
            Bound::Lower => LOWER,
            Bound::Upper => UPPER,
            Bound::Exact => LOWER | UPPER,
        } | if self.mv.is_some() { HAS_MOVE } else { 0 };
        let key = u64::from(self.check) | u64::from(self.mv.unwrap_or(0)) << 32;
        let data = u64::from(self.score as u32)
            | u64::from(self.depth) << 32
            | u64::from(flags) << 40
            | u64::from(self.age) << 48
            | u64::from(self.epoch) << 56;
        (key, data)
    }

    fn unpack((key, data): (u64, u64)) -> Entry {
        let flags = (data >> 40) as u8;
        Entry {
            check: key as u32,
            mv: (flags & HAS_MOVE != 0).then_some((key >> 32) as u32),
            score: data as u32 as Score,
            depth: (data >> 32) as u8,
            bound: match flags & (LOWER | UPPER) {
                LOWER => Bound::Lower,
                UPPER => Bound::Upper,
                _ => Bound::Exact,
            },
            age: (data >> 48) as u8,
            epoch: (data >> 56) as u8,
        }
    }
}

/// Entries per bucket: one cache line.
pub const BUCKET: usize = 4;

/// A bucket, aligned so that a probe touches a single cache line.
#[repr(C, align(64))]
struct Bucket([Slot; BUCKET]);

// SAFETY: slots, no drop; the zero epoch marks an empty entry.
unsafe impl Zeroable for Bucket {}

/// The table, shared by the threads of a search (`&Table` is enough to probe and store).
pub struct Table<M> {
    /// Huge-page backed where the system allows: see [`super::memory`].
    buckets: LargeArray<Bucket>,
    /// Number of buckets minus one (a power of two minus one).
    mask: usize,
    age: u8,
    epoch: u8,
    moves: PhantomData<fn(M) -> M>,
}

impl<M: MoveBits> Table<M> {
    /// A table of at most `megabytes` MiB (at least one bucket), or an error when that
    /// much memory cannot be had.
    pub fn new(megabytes: usize) -> Result<Table<M>, OutOfMemory> {
        let buckets = Self::buckets(megabytes).ok_or(OutOfMemory)?;
        Ok(Table {
            buckets: LargeArray::try_zeroed(buckets)?,
            mask: buckets - 1,
            age: 0,
            epoch: 1,
            moves: PhantomData,
        })
    }

    fn buckets(megabytes: usize) -> Option<usize> {
        power_of_two_fitting(megabytes, size_of::<Bucket>())
    }

    /// The bytes [`Table::new`] asks for (`None`: more than a machine word counts).
    pub fn bytes(megabytes: usize) -> Option<usize> {
        Self::buckets(megabytes)?.checked_mul(size_of::<Bucket>())
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.age = 0;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // The epoch wrapped: entries of 256 clears ago would look valid again.
            for bucket in self.buckets.iter_mut() {
                bucket.0.iter_mut().for_each(Slot::clear);
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
                    (bucket as *const Bucket).cast::<i8>(),
                );
            }
        }
    }

    pub fn probe(&self, key: u64) -> Option<Hit<M>> {
        let check = (key >> 32) as u32;
        self.buckets[self.index(key)]
            .0
            .iter()
            .map(|slot| Entry::unpack(slot.load()))
            .find(|e| e.epoch == self.epoch && e.check == check)
            .map(|e| Hit {
                score: e.score,
                depth: e.depth,
                bound: e.bound,
                mv: e.mv.map(M::from_bits),
            })
    }

    pub fn store(&self, key: u64, depth: u32, score: Score, bound: Bound, mv: Option<M>) {
        let check = (key >> 32) as u32;
        let (age, epoch) = (self.age, self.epoch);
        let bucket = &self.buckets[self.index(key)].0;
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut kept_move = None;
        for (i, e) in bucket
            .iter()
            .map(|slot| Entry::unpack(slot.load()))
            .enumerate()
        {
            if e.epoch != epoch {
                victim = i;
                break;
            }
            if e.check == check {
                if u32::from(e.depth) >= depth + KEEP_DEEPER_BY {
                    return;
                }
                victim = i;
                kept_move = e.mv;
                break;
            }
            let staleness = i32::from(age.wrapping_sub(e.age));
            let worth = i32::from(e.depth) - 4 * staleness;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        bucket[victim].save(
            Entry {
                check,
                // Keep a known best move when the new result has none (a fail-low).
                mv: mv.map(M::to_bits).or(kept_move),
                score,
                depth: depth.min(255) as u8,
                bound,
                age,
                epoch,
            }
            .pack(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::Move;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn stores_probes_and_clears() {
        let mut table: Table<Move> = Table::new(1).unwrap();
        let (key, other) = (42 << 32 | 42, 43 << 32 | 42);
        table.store(key, 5, 17, Bound::Lower, Some(Move::from_index(3)));
        let hit = table.probe(key).unwrap();
        assert_eq!(
            (hit.score, hit.depth, hit.bound, hit.mv),
            (17, 5, Bound::Lower, Some(Move::from_index(3)))
        );
        assert_eq!(hit.cutoff(0, 10), Some(17));
        assert_eq!(hit.cutoff(0, 20), None);
        table.store(key, 6, 5, Bound::Upper, None);
        assert_eq!(table.probe(key).unwrap().mv, Some(Move::from_index(3)));
        assert!(
            table.probe(other).is_none(),
            "same bucket, another position"
        );
        table.clear();
        assert!(table.probe(key).is_none());
    }

    #[test]
    fn deep_entries_survive_a_full_bucket() {
        let table: Table<Move> = Table::new(1).unwrap();
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

    /// A solve's entry (far deeper than any midgame one) is not replaced by a shallow
    /// search of the same position, as a probable cut's is; a result not that much
    /// shallower replaces the entry as always.
    #[test]
    fn a_far_deeper_entry_of_a_position_outlives_a_shallow_result_for_it() {
        let table: Table<Move> = Table::new(1).unwrap();
        let key = 42 << 32 | 42;
        table.store(key, 210, 300, Bound::Lower, Some(Move::from_index(5)));
        table.store(key, 12, -50, Bound::Upper, None);
        let hit = table.probe(key).unwrap();
        assert_eq!((hit.depth, hit.score, hit.bound), (210, 300, Bound::Lower));
        table.store(key, 200, 250, Bound::Exact, None);
        let hit = table.probe(key).unwrap();
        assert_eq!((hit.depth, hit.score, hit.bound), (200, 250, Bound::Exact));
        assert_eq!(hit.mv, Some(Move::from_index(5)));
    }

    #[test]
    fn entries_keep_every_field_of_either_game() {
        let mut table: Table<crate::mill::Move> = Table::new(1).unwrap();
        let mv = crate::mill::Move {
            from: 3,
            to: 4,
            remove: [17, crate::mill::moves::NONE],
        };
        let key = 0xDEAD_BEEF_0000_0005;
        table.store(key, 200, -99_999, Bound::Upper, Some(mv));
        let hit = table.probe(key).unwrap();
        assert_eq!(
            (hit.score, hit.depth, hit.bound, hit.mv),
            (-99_999, 200, Bound::Upper, Some(mv))
        );
        table.store(key, 1, 5, Bound::Exact, None);
        assert_eq!(table.probe(key).unwrap().mv, Some(mv), "the move is kept");
        table.clear();
        table.store(key, 1, 5, Bound::Lower, None);
        assert_eq!(table.probe(key).unwrap().mv, None);
    }

    #[test]
    fn a_slot_torn_by_two_writers_reads_as_a_miss() {
        let table: Table<Move> = Table::new(1).unwrap();
        let (first, second) = ((1u64 << 32) | 9, (2u64 << 32) | 9);
        table.store(first, 3, 10, Bound::Exact, Some(Move::from_index(1)));
        let slot = &table.buckets[table.index(first)].0[0];
        let first_half = slot.first_word().load(Relaxed);
        table.store(first, 4, 20, Bound::Lower, Some(Move::from_index(2)));
        // Half of one write beside half of the other.
        slot.first_word().store(first_half, Relaxed);
        assert!(table.probe(first).is_none());
        assert!(table.probe(second).is_none());
    }

    /// Threads writing and reading the same few buckets at once: every hit is a result
    /// stored for its own key, never a mix of two entries.
    #[test]
    fn threads_sharing_the_table_read_only_whole_entries() {
        let table: Table<Move> = Table::new(1).unwrap();
        let buckets = (table.mask + 1) as u64;
        // 64 positions in 4 buckets: slots are overwritten all the time.
        let key = |i: u64| (i.wrapping_mul(0x9E37_79B9) << 32) | (i % 4);
        let score = |k: u64| (k >> 40) as Score - 5_000;
        assert!(buckets >= 4);
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    for round in 0..1_000_000u64 {
                        let k = key((round * 7 + thread * 13) % 64);
                        if round % 2 == 0 {
                            let depth = (k >> 33) as u32 % 60;
                            let mv = Move::from_index((k >> 50) as u8 % 64);
                            table.store(k, depth, score(k), Bound::Lower, Some(mv));
                        } else if let Some(hit) = table.probe(k) {
                            assert_eq!(hit.score, score(k));
                            assert_eq!(u32::from(hit.depth), (k >> 33) as u32 % 60);
                            assert_eq!(hit.mv, Some(Move::from_index((k >> 50) as u8 % 64)));
                        }
                    }
                });
            }
        });
    }
}
