//! The global allocator of the `ptx` binary, the Python extension and
//! xtask's benchmarks: mimalloc, called through its plain entry points.
//!
//! The `mimalloc` crate's `MiMalloc` hands every request to
//! `mi_malloc_aligned`, alignment included. Under mimalloc 3 that entry
//! point only finds a free block fast when the size class's current page
//! has one at hand; whenever a page runs out, and for every block over
//! 1 KiB, it goes to its generic path, which over-allocates for any size
//! that is not a power of two. Parsing a module makes such requests by the
//! hundred thousand (tree nodes, operand and statement lists), so about
//! two in five allocations took that path (callgrind over the bench
//! corpus, docs/performance.md). Rust's own alignments are at most 16 for
//! nearly every type, and every mimalloc block is 8-byte aligned, and
//! 16-byte aligned once it holds 16 bytes or more. A request those give
//! (the rule of Rust's own `System` allocator for `malloc`: an alignment of
//! at most 16 and no larger than the size) goes to `mi_malloc`,
//! `mi_zalloc` or `mi_realloc`, which keep the fast path; any other to the
//! aligned entry points.
#![no_std]

use core::alloc::{GlobalAlloc, Layout};
use core::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every mimalloc block of at least this size has
/// (`MI_MAX_ALIGN_SIZE` on the 64-bit targets this project builds for).
const GUARANTEED: usize = 16;

/// Whether a plain block of `size` bytes is aligned enough for `align`.
#[inline]
fn plain(align: usize, size: usize) -> bool {
    align <= GUARANTEED && align <= size
}

/// mimalloc as the global allocator (`#[global_allocator] static A: Mimalloc = Mimalloc;`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Mimalloc;

// SAFETY: every block comes from mimalloc and goes back to it; a request
// whose alignment mimalloc does not give every block goes to its aligned
// entry points, and `mi_free` takes blocks of either kind.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plain(layout.align(), layout.size()) {
            // SAFETY: a plain allocation of the requested size.
            unsafe { mi::mi_malloc(layout.size()).cast() }
        } else {
            // SAFETY: as above, with the alignment passed on.
            unsafe { mi::mi_malloc_aligned(layout.size(), layout.align()).cast() }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain(layout.align(), layout.size()) {
            // SAFETY: a plain zeroed allocation of the requested size.
            unsafe { mi::mi_zalloc(layout.size()).cast() }
        } else {
            // SAFETY: as above, with the alignment passed on.
            unsafe { mi::mi_zalloc_aligned(layout.size(), layout.align()).cast() }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from one of the entry points above.
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if plain(layout.align(), new_size) {
            // SAFETY: `ptr` came from this allocator with this layout.
            unsafe { mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast() }
        } else {
            // SAFETY: as above, keeping the larger alignment.
            unsafe { mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast() }
        }
    }
}

/// Give the memory mimalloc keeps after frees back to the system, now
/// (`mi_collect(true)`). mimalloc holds freed pages for reuse and returns
/// them only as later allocations go by; a long-running program whose
/// live data has just shrunk a lot (a language server that closed its
/// large documents) calls this so that its resident size follows.
pub fn release_free_memory() {
    // SAFETY: takes no pointers; safe to call at any time from any thread.
    unsafe { mi_collect(true) }
}

// Declared here rather than through `libmimalloc-sys`'s `extended` feature
// (which brings a dependency of its own for C types this does not use);
// the symbol is in the C library that crate builds and links.
extern "C" {
    /// `void mi_collect(bool force)` (mimalloc.h).
    fn mi_collect(force: bool);
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects
    )]
    use super::*;

    extern crate std;
    use std::vec::Vec;

    // The test binary runs on it, so every std collection below uses it too.
    #[global_allocator]
    static A: Mimalloc = Mimalloc;

    /// Blocks of every small size and of large ones keep the requested
    /// alignment and their contents through a reallocation.
    #[test]
    fn alignments_and_contents_kept() {
        let a = Mimalloc;
        for align in [1usize, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1usize, 7, 24, 40, 48, 100, 1000, 1025, 5000, 70_000] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: a non-zero size; the block is freed below.
                let p = unsafe { a.alloc(layout) };
                assert!(!p.is_null());
                assert_eq!(p as usize % align, 0, "size {size} align {align}");
                // SAFETY: `p` holds `size` bytes.
                unsafe { core::ptr::write_bytes(p, 0xA5, size) };
                // SAFETY: `p` came from `alloc` with `layout`.
                let q = unsafe { a.realloc(p, layout, size * 3) };
                assert_eq!(q as usize % align, 0);
                // SAFETY: the first `size` bytes were kept.
                let kept = unsafe { core::slice::from_raw_parts(q, size) };
                assert!(kept.iter().all(|&b| b == 0xA5));
                let grown = Layout::from_size_align(size * 3, align).unwrap();
                // SAFETY: `q` came from `realloc` with the grown size.
                unsafe { a.dealloc(q, grown) };
                // SAFETY: a non-zero size.
                let z = unsafe { a.alloc_zeroed(layout) };
                assert_eq!(z as usize % align, 0);
                // SAFETY: `z` holds `size` bytes.
                assert!(unsafe { core::slice::from_raw_parts(z, size) }
                    .iter()
                    .all(|&b| b == 0));
                // SAFETY: `z` came from `alloc_zeroed` with `layout`.
                unsafe { a.dealloc(z, layout) };
            }
        }
        // Growth through every size class, freed in another order.
        let mut lists: Vec<Vec<u64>> = (0..200).map(|n| (0..n * 37).collect()).collect();
        lists.reverse();
        for (i, l) in lists.iter().enumerate() {
            let n = (199 - i) as u64 * 37;
            assert_eq!(l.iter().sum::<u64>(), n * n.saturating_sub(1) / 2);
        }
    }
}
