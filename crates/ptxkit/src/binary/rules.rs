//! The facts [`super::compat`] decides by, as data: the rules (each citing
//! the NVIDIA document and section it comes from), which PTX ISA version
//! each CUDA release's driver can compile, and which release first
//! supported each GPU architecture.
//!
//! The version table follows the PTX ISA's release history (the table of
//! PTX ISA versions, the CUDA release that introduced each and its driver
//! branch; `../shared/spec/release-history.tsv` in the project's shared
//! folder).

/// One compatibility rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rule {
    /// Its short name, shown with each verdict (`sass-same-major`).
    pub id: &'static str,
    /// What it says, in one line.
    pub says: &'static str,
    /// Where NVIDIA documents it: document, then section.
    pub source: &'static str,
}

/// Rule: a plain `sm_XY` cubin runs on GPUs of the same major version
/// and an equal or higher minor version.
pub const SASS_SAME_MAJOR: &str = "sass-same-major";
/// Rule: an architecture-specific `sm_XYa` cubin runs only on `sm_XY`.
pub const SASS_ARCH_SPECIFIC: &str = "sass-arch-specific";
/// Rule: a family-specific `sm_XYf` cubin runs on the family's GPUs of
/// the same major version and an equal or higher minor version.
pub const SASS_FAMILY: &str = "sass-family";
/// Rule: plain `compute_XY` PTX is compiled by the driver for any GPU of
/// compute capability XY or higher.
pub const PTX_FORWARD: &str = "ptx-forward";
/// Rule: `compute_XYa` PTX is compiled only for `sm_XY`.
pub const PTX_ARCH_SPECIFIC: &str = "ptx-arch-specific";
/// Rule: `compute_XYf` PTX is compiled for the family's GPUs of the same
/// major version and an equal or higher minor version.
pub const PTX_FAMILY: &str = "ptx-family";
/// Rule: the driver compiles PTX only up to the PTX ISA version of its
/// own CUDA release.
pub const PTX_ISA_DRIVER: &str = "ptx-isa-driver";
/// Rule: a driver runs nothing on a GPU newer than its CUDA release.
pub const DRIVER_KNOWS_GPU: &str = "driver-knows-gpu";
/// Rule: LTO-IR is input to a link step, never loaded by the driver.
pub const LTO_NOT_LOADED: &str = "lto-not-loaded";
/// Rule: nothing in the binary fits.
pub const NO_IMAGE: &str = "no-kernel-image";
/// Rule: the file's cubins define no kernel and it has no PTX: its GPU
/// code, if any, is loaded from another file.
pub const NO_KERNELS: &str = "no-kernels-in-file";

/// Every rule, cited.
pub const RULES: &[Rule] = &[
    Rule {
        id: SASS_SAME_MAJOR,
        says: "a cubin for sm_XY runs on a GPU of compute capability X.Z with Z >= Y, never on another major version",
        source: "CUDA C++ Programming Guide, \"Binary Compatibility\" (Compilation with NVCC)",
    },
    Rule {
        id: SASS_ARCH_SPECIFIC,
        says: "a cubin for sm_XYa runs only on a GPU of compute capability X.Y",
        source: "CUDA C++ Programming Guide, \"Binary Compatibility\" and \"Feature Availability\" (architecture-specific features)",
    },
    Rule {
        id: SASS_FAMILY,
        says: "a cubin for sm_XYf runs on the GPUs of its family: compute capability X.Z with Z >= Y",
        source: "CUDA C++ Programming Guide, \"Feature Availability\" (family-specific features)",
    },
    Rule {
        id: PTX_FORWARD,
        says: "PTX for compute_XY is compiled just in time by the driver for any GPU of compute capability X.Y or higher",
        source: "CUDA C++ Programming Guide, \"PTX Compatibility\" and \"Application Compatibility\"",
    },
    Rule {
        id: PTX_ARCH_SPECIFIC,
        says: "PTX for compute_XYa is compiled only for a GPU of compute capability X.Y",
        source: "CUDA C++ Programming Guide, \"PTX Compatibility\"; PTX ISA, \"Target Directives: .target\"",
    },
    Rule {
        id: PTX_FAMILY,
        says: "PTX for compute_XYf is compiled only for the GPUs of its family: compute capability X.Z with Z >= Y",
        source: "CUDA C++ Programming Guide, \"PTX Compatibility\"; PTX ISA, \"Target Directives: .target\"",
    },
    Rule {
        id: PTX_ISA_DRIVER,
        says: "the driver compiles PTX of an ISA version no newer than its own CUDA release's",
        source: "CUDA Compatibility, \"Why CUDA Compatibility\" and the table of CUDA toolkit and driver versions; PTX ISA, \"Release Notes\"",
    },
    Rule {
        id: DRIVER_KNOWS_GPU,
        says: "a driver runs no code on a GPU architecture its CUDA release does not support",
        source: "CUDA Compatibility, \"Minor Version Compatibility\"; PTX ISA, \"Release Notes\" (targets per version)",
    },
    Rule {
        id: LTO_NOT_LOADED,
        says: "LTO-IR entries feed nvlink's link-time optimisation; the driver does not load them",
        source: "CUDA Compiler Driver NVCC, \"Options for Specifying the Compilation Phase\" (-dlto) and \"GPU Compilation\"",
    },
    Rule {
        id: NO_IMAGE,
        says: "with no cubin that runs and no PTX the driver can compile, the launch fails: no kernel image is available for execution on the device",
        source: "CUDA C++ Programming Guide, \"Application Compatibility\"; CUDA Runtime API, cudaErrorNoKernelImageForDevice",
    },
    Rule {
        id: NO_KERNELS,
        says: "a file whose cubins define no kernel (a stub, as cuobjdump -res-usage shows) and which has no PTX launches nothing itself: its GPU code, if any, lives in another file",
        source: "CUDA Driver API, cuModuleGetFunction (a module exposes only the kernels it defines); CUDA Binary Utilities, cuobjdump",
    },
];

/// The rule of id `id`.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// A version `major.minor` (CUDA 12.4, PTX ISA 8.4).
pub type Version = (u16, u16);

/// One CUDA release: the PTX ISA version its driver compiles up to, and
/// the driver branch it shipped with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Release {
    /// The CUDA version.
    pub cuda: Version,
    /// The newest PTX ISA version its driver compiles.
    pub ptx_isa: Version,
    /// Its driver branch (`r550` as 550), when known.
    pub driver: Option<u32>,
}

const fn rel(cuda: Version, ptx_isa: Version, driver: u32) -> Release {
    Release {
        cuda,
        ptx_isa,
        driver: if driver == 0 { None } else { Some(driver) },
    }
}

/// CUDA releases from 9.0 on, oldest first (PTX ISA release history).
pub const RELEASES: &[Release] = &[
    rel((9, 0), (6, 0), 384),
    rel((9, 1), (6, 1), 387),
    rel((9, 2), (6, 2), 396),
    rel((10, 0), (6, 3), 400),
    rel((10, 1), (6, 4), 418),
    rel((10, 2), (6, 5), 440),
    rel((11, 0), (7, 0), 445),
    rel((11, 1), (7, 1), 455),
    rel((11, 2), (7, 2), 460),
    rel((11, 3), (7, 3), 465),
    rel((11, 4), (7, 4), 470),
    rel((11, 5), (7, 5), 495),
    rel((11, 6), (7, 6), 510),
    rel((11, 7), (7, 7), 515),
    rel((11, 8), (7, 8), 520),
    rel((12, 0), (8, 0), 525),
    rel((12, 1), (8, 1), 530),
    rel((12, 2), (8, 2), 535),
    rel((12, 3), (8, 3), 545),
    rel((12, 4), (8, 4), 550),
    rel((12, 5), (8, 5), 555),
    rel((12, 6), (8, 5), 560),
    rel((12, 8), (8, 7), 570),
    rel((12, 9), (8, 8), 575),
    rel((13, 0), (9, 0), 580),
    rel((13, 1), (9, 1), 590),
    rel((13, 2), (9, 2), 595),
    rel((13, 3), (9, 3), 610),
    rel((13, 4), (9, 4), 615),
    rel((13, 5), (9, 5), 0),
];

/// The release a driver belongs to: `cuda` itself if listed, else the
/// newest listed release not above it.
pub fn release_of_cuda(cuda: Version) -> Option<&'static Release> {
    RELEASES.iter().rev().find(|r| r.cuda <= cuda)
}

/// The release of a driver branch (`550` for r550.54).
pub fn release_of_driver(branch: u32) -> Option<&'static Release> {
    RELEASES
        .iter()
        .rev()
        .find(|r| r.driver.is_some_and(|d| d <= branch))
}

/// The first CUDA release supporting each GPU architecture (by SM
/// number), from the targets each PTX ISA version added.
pub const GPU_SINCE: &[(u32, Version)] = &[
    (50, (6, 0)),
    (52, (6, 5)),
    (53, (7, 0)),
    (60, (8, 0)),
    (61, (8, 0)),
    (62, (8, 0)),
    (70, (9, 0)),
    (72, (9, 1)),
    (75, (10, 0)),
    (80, (11, 0)),
    (86, (11, 1)),
    (87, (11, 4)),
    (88, (13, 0)),
    (89, (11, 8)),
    (90, (11, 8)),
    (100, (12, 8)),
    (103, (12, 9)),
    (107, (13, 4)),
    (110, (13, 0)),
    (120, (12, 8)),
    (121, (12, 9)),
];

/// The GPUs `ptx compat` reports on when none is asked for: the data
/// centre and desktop generations people ask about, Turing to Blackwell.
pub const COMMON_GPUS: &[u32] = &[75, 80, 86, 89, 90, 100, 103, 120];

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_ordered_and_rules_unique() {
        assert!(RELEASES.windows(2).all(|w| w[0].cuda < w[1].cuda));
        assert!(RELEASES.windows(2).all(|w| w[0].ptx_isa <= w[1].ptx_isa));
        assert!(GPU_SINCE.windows(2).all(|w| w[0].0 < w[1].0));
        for (i, r) in RULES.iter().enumerate() {
            assert!(RULES.iter().skip(i + 1).all(|o| o.id != r.id), "{}", r.id);
        }
        assert_eq!(release_of_cuda((12, 7)).map(|r| r.ptx_isa), Some((8, 5)));
        assert_eq!(release_of_driver(552).map(|r| r.cuda), Some((12, 4)));
    }
}
