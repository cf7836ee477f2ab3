//! Arrays for large tables, aligned to 2 MiB pages.
//!
//! A table probe is a random access: with 4 KiB pages nearly every probe of a table of
//! tens of MiB misses the TLB as well as the cache. Aligned to 2 MiB and (on Linux)
//! marked for transparent huge pages, the table needs one TLB entry per 2 MiB; aligned
//! buckets also never straddle two cache lines.

use std::alloc::{Layout, alloc_zeroed, dealloc, handle_alloc_error};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The alignment of the arrays: the size of an x86-64 huge page.
const PAGE: usize = 2 << 20;

/// A fixed-size array of `T` for a large table, zeroed at allocation
/// ([`LargeArray::zeroed`]).
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

impl<T: Zeroable> LargeArray<T> {
    /// `len` zeroed values (`len` > 0), backed by memory at once (see [`commit`]).
    pub fn zeroed(len: usize) -> Self {
        let layout = Self::layout(len);
        let raw = allocate(layout);
        let Some(ptr) = NonNull::new(raw.cast::<T>()) else {
            handle_alloc_error(layout)
        };
        // SAFETY: `raw` is the allocation of `layout` just made.
        unsafe { commit(raw, layout.size()) };
        LargeArray { ptr, len }
    }
}

impl<T> LargeArray<T> {
    fn layout(len: usize) -> Layout {
        assert!(len > 0 && size_of::<T>() > 0);
        let size = len
            .checked_mul(size_of::<T>())
            .expect("table size overflows");
        let align = if size >= PAGE {
            PAGE
        } else {
            align_of::<T>().max(64)
        };
        Layout::from_size_align(size, align).expect("table layout")
    }
}

// The values are not dropped: `Zeroable` types need no drop.
impl<T> Drop for LargeArray<T> {
    fn drop(&mut self) {
        // SAFETY: allocated by `allocate` with this very layout.
        unsafe { release(self.ptr.as_ptr().cast(), Self::layout(self.len)) }
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
            let mut array = LargeArray::<Pair>::zeroed(len);
            assert_eq!(array.len(), len);
            assert!(array.iter().all(|p| p.a == 0 && p.b == 0));
            assert_eq!(array.as_ptr() as usize % 64, 0);
            array[len - 1].a = 7;
            assert_eq!(array[len - 1].a, 7);
        }
    }
}
