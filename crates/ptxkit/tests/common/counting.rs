//! A counting allocator: the system allocator, with the bytes live and
//! their peak kept beside it. Shared by the memory tests and
//! `bench-peers --bin memory` (which include this file by path); each
//! installs it itself with `#[global_allocator]`.
//!
//! Bytes are those requested (the allocator's own bookkeeping is not
//! counted). The counters are process-wide: a measurement counts every
//! thread's allocations while it runs.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Bytes allocated and not yet freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most `LIVE` has been since the last [`measure`] began.
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, Relaxed).saturating_add(n);
    PEAK.fetch_max(now, Relaxed);
}

fn shrank(n: usize) {
    LIVE.fetch_sub(n, Relaxed);
}

/// The system allocator, counting.
pub struct Counting;

// SAFETY: every call is passed on to `System` unchanged; the counters are
// only bookkeeping beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System`'s.
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            grew(l.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(l) };
        if !p.is_null() {
            grew(l.size());
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(p, l) };
        shrank(l.size());
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                grew(new - l.size());
            } else {
                shrank(l.size() - new);
            }
        }
        q
    }
}

/// Run `f`: the bytes its result still holds and the most it held at once
/// while it ran, both above what was live before, and the result.
pub fn measure<T>(f: impl FnOnce() -> T) -> (usize, usize, T) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let out = f();
    let held = LIVE.load(Relaxed).saturating_sub(base);
    let peak = PEAK.load(Relaxed).saturating_sub(base);
    (held, peak, out)
}
