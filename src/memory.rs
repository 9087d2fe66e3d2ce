//! The heap, counted: the global allocator is the system's, wrapped to keep
//! the bytes in use, so an exploration can stop with the explicit status
//! `memory limit reached` before the machine runs out (Rust aborts the
//! process on a failed allocation, with no report). Z3's own allocations
//! are not counted; its contexts are few and their memory is bounded by
//! the queries, which have their own time limits.
//!
//! Each thread counts in a counter of its own and adds it to the shared
//! one only when it has moved by [`BATCH`] bytes, so workers on several
//! cores (`--jobs`) do not contend for one cache line on every allocation.
//! The shared count is then behind the truth by less than [`BATCH`] bytes
//! per thread; a worker hands its rest over when it finishes ([`flush`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

/// The system allocator, counting.
pub struct Counting;

/// Bytes a thread's own count may move before it is added to the shared one.
pub const BATCH: isize = 256 * 1024;

static IN_USE: AtomicIsize = AtomicIsize::new(0);
static BUDGET: AtomicUsize = AtomicUsize::new(usize::MAX);

thread_local! {
    /// This thread's allocations less its frees, not yet in `IN_USE`.
    // `const` and without a destructor: usable inside the allocator, at any
    // time of the thread's life, without allocating.
    static UNCOUNTED: Cell<isize> = const { Cell::new(0) };
}

/// Adds `bytes` (negative for a free) to this thread's count, and the
/// count to the shared one once it reaches a batch.
fn count(bytes: isize) {
    let counted = UNCOUNTED.try_with(|uncounted| {
        let total = uncounted.get() + bytes;
        if total.abs() >= BATCH {
            IN_USE.fetch_add(total, Ordering::Relaxed);
            uncounted.set(0);
        } else {
            uncounted.set(total);
        }
    });
    if counted.is_err() {
        IN_USE.fetch_add(bytes, Ordering::Relaxed);
    }
}

/// Adds this thread's count to the shared one (a worker that finishes).
pub fn flush() {
    let _ = UNCOUNTED.try_with(|uncounted| {
        IN_USE.fetch_add(uncounted.replace(0), Ordering::Relaxed);
    });
}

fn size(layout: Layout) -> isize {
    isize::try_from(layout.size()).unwrap_or(isize::MAX)
}

// SAFETY: every call is forwarded to `System` unchanged; the counters are
// only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = System.alloc(layout);
        if !pointer.is_null() {
            count(size(layout));
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let pointer = System.alloc_zeroed(layout);
        if !pointer.is_null() {
            count(size(layout));
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        System.dealloc(pointer, layout);
        count(-size(layout));
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = System.realloc(pointer, layout, new_size);
        if !moved.is_null() {
            count(isize::try_from(new_size).unwrap_or(isize::MAX) - size(layout));
        }
        moved
    }
}

/// Bytes allocated and not yet freed, as far as the threads have counted
/// them (less than [`BATCH`] per thread behind).
pub fn in_use() -> usize {
    usize::try_from(IN_USE.load(Ordering::Relaxed)).unwrap_or(0)
}

/// Explorations stop once more than `bytes` are in use.
pub fn set_budget(bytes: usize) {
    BUDGET.store(bytes, Ordering::Relaxed);
}

/// Whether the budget is spent.
pub fn exhausted() -> bool {
    in_use() > BUDGET.load(Ordering::Relaxed)
}

/// The default budget: three quarters of the memory available now
/// (`MemAvailable` of `/proc/meminfo`), or no budget where that is unknown.
pub fn default_budget() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo
        .lines()
        .find(|line| line.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 4 * 3 * 1024)
}
