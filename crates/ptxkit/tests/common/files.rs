//! Corpus files named by tests and benchmarks, as paths under
//! ../shared/corpus. Also included by path by `xtask` (and through it by
//! `bench-peers`), so each name is written once.

/// The module the speed issue names: 994 KB of Kokkos kernels, many
/// functions, ptxas-accepted.
pub const KOKKOS: &str =
    "jialunzhang-psu__ptx-90-parser/tests__sample__matrix_free_device_matrix_vector_01.1.sm_80.ptx";
