//! The heap, counted: the global allocator is the system's, wrapped to keep
//! the bytes in use, so an exploration can stop with the explicit status
//! `memory limit reached` before the machine runs out (Rust aborts the
//! process on a failed allocation, with no report). Z3's own allocations
//! are not counted; its contexts are few and their memory is bounded by
//! the queries, which have their own time limits.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting.
pub struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static BUDGET: AtomicUsize = AtomicUsize::new(usize::MAX);

// SAFETY: every call is forwarded to `System` unchanged; the counters are
// only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = System.alloc(layout);
        if !pointer.is_null() {
            IN_USE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let pointer = System.alloc_zeroed(layout);
        if !pointer.is_null() {
            IN_USE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        System.dealloc(pointer, layout);
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = System.realloc(pointer, layout, new_size);
        if !moved.is_null() {
            IN_USE.fetch_add(new_size, Ordering::Relaxed);
            IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        moved
    }
}

/// Bytes allocated and not yet freed.
pub fn in_use() -> usize {
    IN_USE.load(Ordering::Relaxed)
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
