//! Theoretical occupancy: how many blocks and warps of a kernel fit on
//! one SM of a GPU, and which resource stops more from fitting.
//!
//! The limits are NVIDIA's published per-architecture figures ("CUDA C++
//! Programming Guide", Compute Capabilities, table "Technical
//! Specifications per Compute Capability"; the allocation granularities
//! from the "CUDA Occupancy Calculator" and `cuda_occupancy.h`), held in
//! [`LIMITS`]. The calculation is the occupancy calculator's: registers
//! are given out per warp in units of 256, each of the SM's four
//! partitions holding a quarter of the register file; shared memory per
//! block in units of 128 bytes, plus the 1 KB the system reserves per
//! block from compute capability 8.0 on.
//!
//! ```
//! use ptxkit::binary::occupancy::{occupancy, limits, Limiter};
//! let sm90 = limits(90).unwrap();
//! // 128 threads, 64 registers each, 16 KB of shared memory per block.
//! let o = occupancy(sm90, 128, 64, 16 * 1024).unwrap();
//! assert_eq!((o.blocks, o.warps), (8, 32));
//! assert_eq!(o.limiter, Limiter::Registers);
//! ```

/// One architecture's limits per SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Limits {
    /// The SM number (`86`).
    pub sm: u32,
    /// 32-bit registers per SM.
    pub registers: u32,
    /// Most registers per thread.
    pub max_registers_per_thread: u32,
    /// Most resident warps per SM.
    pub max_warps: u32,
    /// Most resident blocks per SM.
    pub max_blocks: u32,
    /// Most threads per block.
    pub max_threads_per_block: u32,
    /// Shared memory per SM, bytes (the largest carve-out).
    pub shared_per_sm: u32,
    /// Most shared memory per block, bytes (with opt-in).
    pub shared_per_block: u32,
    /// Shared memory the system reserves per block, bytes.
    pub reserved_shared_per_block: u32,
}

const KB: u32 = 1024;

const fn lim(
    sm: u32,
    max_warps: u32,
    max_blocks: u32,
    shared_per_sm_kb: u32,
    shared_per_block_kb: u32,
    reserved: u32,
) -> Limits {
    Limits {
        sm,
        registers: 64 * KB,
        max_registers_per_thread: 255,
        max_warps,
        max_blocks,
        max_threads_per_block: 1024,
        shared_per_sm: shared_per_sm_kb.saturating_mul(KB),
        shared_per_block: shared_per_block_kb.saturating_mul(KB),
        reserved_shared_per_block: reserved,
    }
}

/// Per-architecture limits ("CUDA C++ Programming Guide", Compute
/// Capabilities, "Technical Specifications per Compute Capability").
pub const LIMITS: &[Limits] = &[
    lim(70, 64, 32, 96, 96, 0),
    lim(72, 64, 32, 96, 96, 0),
    lim(75, 32, 16, 64, 64, 0),
    lim(80, 64, 32, 164, 163, KB),
    lim(86, 48, 16, 100, 99, KB),
    lim(87, 48, 16, 164, 163, KB),
    lim(89, 48, 24, 100, 99, KB),
    lim(90, 64, 32, 228, 227, KB),
    lim(100, 64, 32, 228, 227, KB),
    lim(103, 64, 32, 228, 227, KB),
    lim(120, 48, 24, 100, 99, KB),
    lim(121, 48, 24, 100, 99, KB),
];

/// Registers are allocated per warp in units of this many.
const REGISTER_UNIT: u32 = 256;
/// Shared memory is allocated per block in units of this many bytes.
const SHARED_UNIT: u32 = 128;
/// Partitions (schedulers) per SM, each with a quarter of the registers.
const PARTITIONS: u32 = 4;
/// Threads per warp.
const WARP: u32 = 32;

/// The limits of GPU `sm` (`86`), if known.
pub fn limits(sm: u32) -> Option<&'static Limits> {
    LIMITS.iter().find(|l| l.sm == sm)
}

/// The resource that bounds the blocks per SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limiter {
    /// Resident warps per SM.
    Warps,
    /// Resident blocks per SM.
    Blocks,
    /// The register file.
    Registers,
    /// Shared memory.
    SharedMemory,
}

impl Limiter {
    /// `warps`, `blocks`, `registers`, `shared memory`.
    pub fn name(self) -> &'static str {
        match self {
            Limiter::Warps => "warps",
            Limiter::Blocks => "blocks",
            Limiter::Registers => "registers",
            Limiter::SharedMemory => "shared memory",
        }
    }
}

/// The theoretical occupancy of one kernel at one block size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Occupancy {
    /// The GPU's SM number.
    pub sm: u32,
    /// Threads per block assumed.
    pub threads_per_block: u32,
    /// Resident blocks per SM.
    pub blocks: u32,
    /// Resident warps per SM.
    pub warps: u32,
    /// The most warps the SM holds.
    pub max_warps: u32,
    /// Occupancy in percent (warps over the most warps), rounded down.
    pub percent: u32,
    /// What bounds it.
    pub limiter: Limiter,
}

/// Why a kernel cannot launch at all with that configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoFit(pub String);

/// The occupancy of a kernel using `registers` per thread and `shared`
/// bytes of shared memory per block (static and dynamic, without the
/// system's reservation, which is added here), in blocks of `threads`.
pub fn occupancy(
    l: &Limits,
    threads: u32,
    registers: u32,
    shared: u64,
) -> Result<Occupancy, NoFit> {
    if threads == 0 || threads > l.max_threads_per_block {
        return Err(NoFit(format!(
            "{threads} threads per block (1 to {} on sm_{})",
            l.max_threads_per_block, l.sm
        )));
    }
    if registers > l.max_registers_per_thread {
        return Err(NoFit(format!("{registers} registers per thread")));
    }
    let warps_per_block = threads.div_ceil(WARP).max(1);
    let div = |a: u32, b: u32| a.checked_div(b).unwrap_or(0);
    let by_warps = div(l.max_warps, warps_per_block);
    let regs_per_warp = registers
        .max(1)
        .saturating_mul(WARP)
        .div_ceil(REGISTER_UNIT)
        .saturating_mul(REGISTER_UNIT);
    let warps_by_regs = div(div(l.registers, PARTITIONS), regs_per_warp).saturating_mul(PARTITIONS);
    let by_regs = div(warps_by_regs, warps_per_block);
    if shared > u64::from(l.shared_per_block) {
        return Err(NoFit(format!(
            "{shared} bytes of shared memory per block (at most {} on sm_{})",
            l.shared_per_block, l.sm
        )));
    }
    let per_block = shared
        .saturating_add(u64::from(l.reserved_shared_per_block))
        .div_ceil(u64::from(SHARED_UNIT))
        .saturating_mul(u64::from(SHARED_UNIT))
        .max(1);
    let by_shared = u64::from(l.shared_per_sm)
        .checked_div(per_block)
        .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX));
    let candidates = [
        (by_warps, Limiter::Warps),
        (l.max_blocks, Limiter::Blocks),
        (by_regs, Limiter::Registers),
        (by_shared, Limiter::SharedMemory),
    ];
    let (blocks, limiter) = candidates
        .iter()
        .copied()
        .min_by_key(|(n, _)| *n)
        .unwrap_or((0, Limiter::Warps));
    if blocks == 0 {
        return Err(NoFit(format!(
            "not one block fits: {} run out",
            limiter.name()
        )));
    }
    let warps = blocks.saturating_mul(warps_per_block);
    Ok(Occupancy {
        sm: l.sm,
        threads_per_block: threads,
        blocks,
        warps,
        max_warps: l.max_warps,
        percent: div(warps.saturating_mul(100), l.max_warps),
        limiter,
    })
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    #[test]
    fn each_limiter() {
        let a100 = limits(80).unwrap();
        // 256 threads, 32 registers, no shared: 8 blocks = 64 warps.
        let o = occupancy(a100, 256, 32, 0).unwrap();
        assert_eq!((o.blocks, o.warps, o.percent), (8, 64, 100));
        // 255 registers: 256 per thread-warp unit → 8 warps per partition...
        let o = occupancy(a100, 256, 255, 0).unwrap();
        assert_eq!((o.blocks, o.limiter), (1, Limiter::Registers));
        // 48 KB of shared per block: 164 KB / 49 KB = 3 blocks.
        let o = occupancy(a100, 64, 16, 48 * 1024).unwrap();
        assert_eq!((o.blocks, o.limiter), (3, Limiter::SharedMemory));
        // Tiny blocks: the block limit.
        let o = occupancy(a100, 32, 16, 0).unwrap();
        assert_eq!((o.blocks, o.limiter), (32, Limiter::Blocks));
        assert!(occupancy(a100, 2048, 16, 0).is_err());
        assert!(occupancy(a100, 128, 16, 200 * 1024).is_err());
        assert!(limits(75).is_some() && limits(1).is_none());
    }
}
