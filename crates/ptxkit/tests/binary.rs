//! Reading the PTX inside CUDA binaries (`ptxkit::binary`), on the small
//! fixtures of `data/binary` (built by nvcc 13.5 from `saxpy.cu`; see its
//! README): every compression mode gives back the PTX cuobjdump writes,
//! and truncated or corrupted binaries give errors, never panics.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::PathBuf;

use ptxkit::binary::{self, Compression, Format, Kind};

fn fixture(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/binary")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

const MODES: &[(&str, Compression)] = &[
    ("none", Compression::None),
    ("speed", Compression::Lz4),
    ("default", Compression::Zstd),
    ("size", Compression::Zstd),
    ("balance", Compression::Zstd),
];

#[test]
fn every_compression_mode_gives_cuobjdumps_ptx() {
    let want = [fixture("saxpy.sm_80.ptx"), fixture("saxpy.sm_90a.ptx")];
    for (mode, codec) in MODES {
        let bytes = fixture(&format!("saxpy.{mode}.fatbin"));
        assert!(binary::is_binary(&bytes));
        let bin = binary::read(&bytes).unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(bin.format, Format::Fatbin);
        assert_eq!(bin.containers.len(), 1, "{mode}");
        let ptx: Vec<_> = bin.ptx_entries().collect();
        assert_eq!(ptx.len(), 2, "{mode}");
        let archs: Vec<String> = ptx.iter().map(|e| e.arch_name()).collect();
        assert_eq!(archs, ["sm_80", "sm_90a"], "{mode}");
        for (e, want) in ptx.iter().zip(&want) {
            assert_eq!(e.compression, *codec, "{mode}");
            assert_eq!(e.version, (9, 5), "{mode}: PTX ISA version");
            assert!(e.flag_names().contains(&"64-bit"), "{mode}");
            let text = binary::ptx_text(&bytes, e).unwrap_or_else(|err| panic!("{mode}: {err}"));
            assert!(
                text == *want,
                "{mode} {}: PTX differs from cuobjdump's",
                e.arch_name()
            );
            if *codec != Compression::None {
                // The recorded size counts the terminating NUL.
                assert_eq!(e.uncompressed_size, want.len() as u64 + 1, "{mode}");
            }
            let parsed = ptxkit::parse(&text);
            assert!(
                parsed.diagnostics.is_empty(),
                "{mode}: {:?}",
                parsed.diagnostics
            );
        }
    }
}

#[test]
fn relocatable_object_and_cubin() {
    let obj = fixture("saxpy.rdc.o");
    let bin = binary::read(&obj).expect("read the -rdc object");
    assert_eq!(bin.format, Format::Object);
    assert_eq!(bin.sections, ["__nv_relfatbin"]);
    assert_eq!(bin.wrappers, 1);
    let ptx: Vec<_> = bin.ptx_entries().collect();
    assert_eq!(ptx.len(), 1);
    assert_eq!(ptx[0].arch_name(), "sm_75");
    assert_eq!(ptx[0].options.as_deref(), Some("--compile-only"));
    let text = binary::ptx_text(&obj, ptx[0]).expect("extract");
    assert!(text == fixture("saxpy.rdc.sm_75.ptx"));

    let cubin = fixture("saxpy.sm_80.cubin");
    let bin = binary::read(&cubin).expect("read the cubin");
    assert_eq!(bin.format, Format::Cubin);
    assert_eq!(bin.cubin_arch, Some(80));
    assert!(bin.entries.is_empty());

    // A SASS entry is not PTX.
    let sass = binary::Entry {
        kind: Kind::Sass,
        ..ptx[0].clone()
    };
    assert!(binary::ptx_text(&obj, &sass).is_err());
}

#[test]
fn text_is_not_a_binary() {
    let ptx = fixture("saxpy.sm_80.ptx");
    assert!(!binary::is_binary(&ptx));
    assert!(binary::read(&ptx).is_err());
    assert!(binary::read(b"").is_err());
}

/// Every prefix of every fixture: a clear error (or, for an object
/// whose fatbin section is intact, a result), never a panic.
#[test]
fn truncated_binaries_are_errors() {
    for name in [
        "saxpy.none.fatbin",
        "saxpy.speed.fatbin",
        "saxpy.default.fatbin",
        "saxpy.rdc.o",
    ] {
        let bytes = fixture(name);
        for cut in 0..bytes.len() {
            let short = &bytes[..cut];
            match binary::read(short) {
                Err(e) => assert!(!e.message.is_empty()),
                Ok(bin) => {
                    // Only an object can lose bytes without losing its
                    // fatbin (sections after it); a fatbin cannot.
                    assert!(
                        !name.ends_with(".fatbin"),
                        "{name} cut at {cut} read without error"
                    );
                    for e in bin.ptx_entries() {
                        let _ = binary::ptx_text(short, e);
                    }
                }
            }
        }
    }
}

/// Each byte of each fixture's headers flipped: no panic, and a
/// decompression that succeeds never yields more than the header allows.
#[test]
fn corrupted_binaries_do_not_panic() {
    for name in [
        "saxpy.speed.fatbin",
        "saxpy.default.fatbin",
        "saxpy.none.fatbin",
    ] {
        let bytes = fixture(name);
        for at in 0..bytes.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[at] ^= flip;
                if let Ok(bin) = binary::read(&b) {
                    for e in &bin.entries {
                        if let Ok(t) = binary::payload(&b, e) {
                            assert!(t.len() as u64 <= e.uncompressed_size.max(e.stored_size));
                        }
                    }
                }
            }
        }
    }
}

/// A header claiming a huge uncompressed size is refused before any
/// allocation of that size.
#[test]
fn lying_sizes_are_refused() {
    let mut bytes = fixture("saxpy.speed.fatbin");
    let bin = binary::read(&bytes).expect("read");
    let e = bin.ptx_entries().next().expect("a PTX entry").clone();
    // Uncompressed size: offset 56 of the entry header.
    bytes[e.offset + 56..e.offset + 64].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
    let bin = binary::read(&bytes).expect("headers still read");
    let e = bin.ptx_entries().next().expect("a PTX entry");
    let err = binary::ptx_text(&bytes, e).expect_err("a lying size");
    assert!(err.message.starts_with("entry too large"), "{err}");

    // The container claims more bytes than the file has.
    let mut bytes = fixture("saxpy.none.fatbin");
    bytes[8..16].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let err = binary::read(&bytes).expect_err("a lying container size");
    assert!(err.message.contains("runs past the end"), "{err}");
}

#[test]
fn fatbins_kept_as_data() {
    // A stub sm_75 kernel linked the usual way, and an sm_90 fatbin kept
    // as a byte array in .rodata (a library loading it itself, as cuFFT
    // does from .ldata).
    let obj = fixture("embedded.o");
    let bin = binary::read(&obj).expect("read");
    assert_eq!(bin.sections, [".nv_fatbin", ".rodata"]);
    assert_eq!(bin.containers.len(), 2);
    assert_eq!(bin.containers[1].section, ".rodata");
    let sass: Vec<(usize, String)> = bin
        .entries
        .iter()
        .filter(|e| e.kind == Kind::Sass)
        .map(|e| (e.container, e.arch_name()))
        .collect();
    assert_eq!(sass, [(0, "sm_75".to_string()), (1, "sm_90".to_string())]);
    assert!(bin.entries.iter().enumerate().all(|(i, e)| e.index == i));

    // Data that only starts like a container (its size runs past the
    // section) is data: skipped, not an error.
    let mut bad = obj.clone();
    let at = bin.containers[1].offset;
    bad[at + 8..at + 16].copy_from_slice(&u64::MAX.to_le_bytes());
    let bin = binary::read(&bad).expect("read");
    assert_eq!(bin.sections, [".nv_fatbin"]);
    assert_eq!(bin.containers.len(), 1);
    // A magic number off the 8-byte alignment is not a container either.
    let mut off = obj.clone();
    off.copy_within(at..at + 16, at + 4);
    assert_eq!(binary::read(&off).expect("read").containers.len(), 1);
}
