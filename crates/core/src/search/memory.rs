//! Arrays for large tables, aligned to 2 MiB pages.
//!
//! A table probe is a random access: with 4 KiB pages nearly every probe of a table of
//! tens of MiB misses the TLB as well as the cache. Aligned to 2 MiB and (on Linux)
//! marked for transparent huge pages, the table needs one TLB entry per 2 MiB; aligned
//! buckets also never straddle two cache lines.

use std::alloc::{Layout, alloc_zeroed, dealloc, handle_alloc_error};
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The alignment of the arrays: the size of an x86-64 huge page.
const PAGE: usize = 2 << 20;

/// A fixed-size array of `T` for a large table, zeroed at allocation
/// ([`LargeArray::try_zeroed`]).
pub struct LargeArray<T> {
    ptr: NonNull<T>,
    len: usize,
}

/// Types whose all-zero bit pattern is a valid value and that need no drop (plain
/// integers, atomic integers, and structs of them).
///
/// # Safety
/// Implement only for such types.
pub unsafe trait Zeroable {}

// SAFETY: an atomic integer is its integer's bytes, and needs no drop.
unsafe impl Zeroable for std::sync::atomic::AtomicU64 {}

// SAFETY: the array owns its values like a `Vec`: it may move to another thread where
// they may, and be shared where they may.
unsafe impl<T: Send> Send for LargeArray<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for LargeArray<T> {}

/// The memory for a table could not be had: more than the system (or the process's
/// limits) allow, or more than the address space holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfMemory;

impl fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not enough memory")
    }
}

impl std::error::Error for OutOfMemory {}

impl<T: Zeroable> LargeArray<T> {
    /// `len` zeroed values (`len` > 0), backed by memory at once (see [`commit`]); an
    /// error, not an abort, when the memory cannot be had, so that a size asked for by a
    /// user can be refused.
    pub fn try_zeroed(len: usize) -> Result<Self, OutOfMemory> {
        let layout = Self::layout(len).ok_or(OutOfMemory)?;
        let raw = allocate(layout);
        let ptr = NonNull::new(raw.cast::<T>()).ok_or(OutOfMemory)?;
        // SAFETY: `raw` is the allocation of `layout` just made.
        unsafe { commit(raw, layout.size()) };
        Ok(LargeArray { ptr, len })
    }

    /// [`LargeArray::try_zeroed`] for the small fixed sizes the program itself chooses:
    /// failing to get them is failing to run at all.
    pub fn zeroed(len: usize) -> Self {
        Self::try_zeroed(len).unwrap_or_else(|OutOfMemory| match Self::layout(len) {
            Some(layout) => handle_alloc_error(layout),
            None => panic!("a table of {len} values does not fit in memory"),
        })
    }
}

impl<T> LargeArray<T> {
    /// The layout of `len` values, `None` when it would not fit in the address space.
    fn layout(len: usize) -> Option<Layout> {
        if len == 0 || size_of::<T>() == 0 {
            return None;
        }
        let size = len.checked_mul(size_of::<T>())?;
        let align = if size >= PAGE {
            PAGE
        } else {
            align_of::<T>().max(64)
        };
        Layout::from_size_align(size, align).ok()
    }
}

/// Whether arrays of these sizes in bytes could all be had at once now. The memory is
/// asked for and given back untouched, so the answer costs no time even for gigabytes
/// (and, like any allocation, cannot foresee memory that others take meanwhile).
pub fn can_allocate(sizes: &[usize]) -> Result<(), OutOfMemory> {
    let mut held = Vec::with_capacity(sizes.len());
    let result = sizes.iter().try_for_each(|&size| {
        let layout = LargeArray::<u8>::layout(size).ok_or(OutOfMemory)?;
        let raw = allocate(layout);
        if raw.is_null() {
            return Err(OutOfMemory);
        }
        held.push((raw, layout));
        Ok(())
    });
    for (raw, layout) in held {
        // SAFETY: allocated just above with this layout, and never used.
        unsafe { release(raw, layout) };
    }
    result
}

/// The memory available to new allocations in MiB, where the system tells it (Linux's
/// `MemAvailable`); `None` elsewhere.
pub fn available_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info
        .lines()
        .find(|line| line.starts_with("MemAvailable:"))?;
    let kilobytes: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes / 1024)
}

/// How many `item`-byte values a table of `megabytes` MiB holds (at least 1 MiB): the
/// largest power of two that fits, at least one; `None` when the size in bytes does not
/// even fit in a machine word.
pub fn power_of_two_fitting(megabytes: usize, item: usize) -> Option<usize> {
    let bytes = megabytes.max(1).checked_mul(1 << 20)?;
    let fitting = (bytes / item.max(1)).max(1);
    Some(1 << fitting.ilog2())
}

// The values are not dropped: `Zeroable` types need no drop.
impl<T> Drop for LargeArray<T> {
    fn drop(&mut self) {
        // The layout was valid when the array was made, so it is now.
        if let Some(layout) = Self::layout(self.len) {
            // SAFETY: allocated by `allocate` with this very layout.
            unsafe { release(self.ptr.as_ptr().cast(), layout) }
        }
    }
}

impl<T> Deref for LargeArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialised values (zeroed `Zeroable`s or written copies) owned by
        // `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for LargeArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as above, and `&mut self` is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

/// Writes a zero into every 4 KiB page of the `size` bytes at `raw`, so that the system
/// backs (and clears) them now. Untouched, a fresh table is backed page by page as the
/// search first reaches each part of it, and the first searches pay for it: 0.1-0.2 s
/// with 64 MiB of tables here, most of a fast move's time.
///
/// # Safety
/// `raw` must point to a zeroed allocation of at least `size` bytes that nothing else
/// uses yet.
unsafe fn commit(raw: *mut u8, size: usize) {
    for offset in (0..size).step_by(4096) {
        // SAFETY: inside the allocation (the caller's promise); a zero leaves zeroed
        // memory as it was.
        unsafe { raw.add(offset).write_volatile(0) };
    }
}

/// Zeroed memory for `layout`, null on failure. On Linux, large regions are mapped
/// directly (untouched, so the huge-page hint still applies to every page) with the
/// slack before and after the aligned part unmapped again.
fn allocate(layout: Layout) -> *mut u8 {
    #[cfg(target_os = "linux")]
    if layout.align() == PAGE {
        let mapped = layout.size() + PAGE;
        // SAFETY: an anonymous private mapping, no file or address involved.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        let start = raw as usize;
        let aligned = start.next_multiple_of(PAGE);
        let (before, after) = (aligned - start, start + mapped - (aligned + layout.size()));
        // SAFETY: both ranges lie inside the mapping just made and outside the part
        // kept; madvise only changes how the kept part is backed (a hint).
        unsafe {
            if before > 0 {
                libc::munmap(raw, before);
            }
            if after > 0 {
                libc::munmap((aligned + layout.size()) as *mut libc::c_void, after);
            }
            libc::madvise(
                aligned as *mut libc::c_void,
                layout.size(),
                libc::MADV_HUGEPAGE,
            );
        }
        return aligned as *mut u8;
    }
    // SAFETY: the layout has a non-zero size (checked in `LargeArray::layout`).
    unsafe { alloc_zeroed(layout) }
}

/// Frees what [`allocate`] returned for `layout`.
///
/// # Safety
/// `ptr` must come from `allocate(layout)` and not be used afterwards.
unsafe fn release(ptr: *mut u8, layout: Layout) {
    #[cfg(target_os = "linux")]
    if layout.align() == PAGE {
        // SAFETY: the kept part of the mapping made in `allocate`.
        unsafe { libc::munmap(ptr.cast(), layout.size()) };
        return;
    }
    // SAFETY: allocated by `alloc_zeroed` with this layout.
    unsafe { dealloc(ptr, layout) }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Pair {
        a: u64,
        b: u8,
    }
    // SAFETY: integers only.
    unsafe impl Zeroable for Pair {}

    #[test]
    fn arrays_are_zeroed_aligned_and_writable() {
        for len in [1, 1000, (4 << 20) / 16] {
            let mut array = LargeArray::<Pair>::try_zeroed(len).unwrap();
            assert_eq!(array.len(), len);
            assert!(array.iter().all(|p| p.a == 0 && p.b == 0));
            assert_eq!(array.as_ptr() as usize % 64, 0);
            array[len - 1].a = 7;
            assert_eq!(array[len - 1].a, 7);
        }
    }

    #[test]
    fn sizes_beyond_the_address_space_are_errors_not_aborts() {
        assert_eq!(LargeArray::<Pair>::try_zeroed(0).err(), Some(OutOfMemory));
        assert_eq!(
            LargeArray::<Pair>::try_zeroed(usize::MAX).err(),
            Some(OutOfMemory)
        );
        assert_eq!(
            LargeArray::<Pair>::try_zeroed(usize::MAX / 16).err(),
            Some(OutOfMemory)
        );
    }

    #[test]
    fn table_sizes_are_powers_of_two_and_never_overflow() {
        assert_eq!(power_of_two_fitting(1, 64), Some(1 << 14));
        assert_eq!(power_of_two_fitting(0, 64), Some(1 << 14));
        assert_eq!(power_of_two_fitting(3, 64), Some(1 << 15));
        assert_eq!(power_of_two_fitting(64, 64), Some(1 << 20));
        assert_eq!(power_of_two_fitting(1, 3 << 20), Some(1));
        assert_eq!(power_of_two_fitting(usize::MAX, 64), None);
        assert_eq!(power_of_two_fitting(usize::MAX >> 20, 64), Some(1 << 57));
    }

    #[test]
    fn allocations_are_checked_without_being_made() {
        assert_eq!(can_allocate(&[1000, 8 << 20]), Ok(()));
        assert_eq!(can_allocate(&[1000, usize::MAX]), Err(OutOfMemory));
        assert_eq!(can_allocate(&[0]), Err(OutOfMemory));
    }
}
