//! Kernel resource usage read from cubins (`ptxkit::binary::usage`) and
//! the compatibility verdicts (`ptxkit::binary::compat`), on the fixtures
//! of `data/binary/usage` (built by nvcc 13.5 with its `build.sh`, which
//! also recorded `cuobjdump -res-usage` for each), and, when asked, on
//! real wheels.

// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use ptxkit::binary::compat::{self, Level, Target};
use ptxkit::binary::{self, scan, usage};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/binary/usage")
}

fn fixture(name: &str) -> Vec<u8> {
    let p = dir().join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The blocks after each `Resource usage:` line of cuobjdump's output, in
/// order (one per cubin).
fn cuobjdump_blocks(text: &str) -> Vec<String> {
    text.split("Resource usage:\n")
        .skip(1)
        .map(|b| {
            let end = b.find("\nFatbin ").unwrap_or(b.len());
            b[..end].trim_end().to_string()
        })
        .collect()
}

/// Our blocks for the same binary, in the same order.
fn our_blocks(bytes: &[u8]) -> Vec<String> {
    let bin = binary::read(bytes).expect("read");
    binary::usage_of(bytes, &bin)
        .into_iter()
        .map(|eu| {
            eu.usage
                .expect("cubin")
                .cuobjdump_text()
                .trim_end()
                .to_string()
        })
        .collect()
}

#[test]
fn fixtures_match_cuobjdump_res_usage() {
    let mut n = 0;
    for f in [
        "kernels.sm_80.cubin",
        "cluster.sm_90.cubin",
        "mixed.fatbin",
        "plain.fatbin",
        "family.fatbin",
    ] {
        let want = String::from_utf8(fixture(&format!("{f}.res-usage.txt"))).expect("utf8");
        let want = cuobjdump_blocks(&want);
        assert!(!want.is_empty(), "{f}");
        assert_eq!(our_blocks(&fixture(f)), want, "{f}");
        n += want.len();
    }
    assert_eq!(n, 6);
}

#[test]
fn fixture_figures_beyond_cuobjdump() {
    let u = usage::read(&fixture("kernels.sm_80.cubin")).expect("cubin");
    assert_eq!(u.arch, 80);
    let f = |name: &str| {
        u.functions
            .iter()
            .find(|f| f.name.contains(name))
            .unwrap_or_else(|| panic!("{name}"))
    };
    assert_eq!(f("tile").max_threads, Some([256, 1, 1]));
    assert_eq!(f("tile").barriers, 1);
    assert_eq!(f("tile").shared, 4096);
    assert_eq!(f("recurse").stack, None);
    assert!(f("scale").kernel && f("scale").param_bytes == Some(24));
    let c = usage::read(&fixture("cluster.sm_90.cubin")).expect("cubin");
    assert_eq!(c.functions[0].cluster, Some([2, 1, 1]));
    assert!(c.shared_includes_reserved);
}

#[test]
fn truncated_cubins_never_panic() {
    let bytes = fixture("cluster.sm_90.cubin");
    for cut in (0..bytes.len()).step_by(7) {
        let _ = usage::read(&bytes[..cut]);
    }
    let mut b = bytes.clone();
    for i in (0..b.len()).step_by(3) {
        let old = b[i];
        b[i] = old ^ 0xff;
        let _ = usage::read(&b);
        b[i] = old;
    }
}

/// Every rule of the compatibility table, on fatbins built by nvcc: the
/// fixture, the GPU, the driver (`None`: any), the expected verdict and
/// the image it runs.
/// fixture, GPU, driver, verdict, image used.
type Case = (
    &'static str,
    u32,
    Option<(u16, u16)>,
    Level,
    Option<&'static str>,
);

const MATRIX: &[Case] = &[
    // Plain SASS: same major, equal or higher minor.
    ("plain.fatbin", 80, None, Level::Native, Some("sm_80")),
    ("plain.fatbin", 86, None, Level::Native, Some("sm_80")),
    (
        "plain.fatbin",
        89,
        Some((11, 8)),
        Level::Native,
        Some("sm_80"),
    ),
    ("plain.fatbin", 90, None, Level::CannotRun, None),
    ("plain.fatbin", 75, None, Level::CannotRun, None),
    // The driver must know the GPU.
    ("plain.fatbin", 86, Some((11, 0)), Level::CannotRun, None),
    // Architecture-specific SASS: that GPU only.
    (
        "arch_specific.fatbin",
        90,
        None,
        Level::Native,
        Some("sm_90a"),
    ),
    ("arch_specific.fatbin", 100, None, Level::CannotRun, None),
    // Family-specific SASS: the family.
    ("family.fatbin", 100, None, Level::Native, Some("sm_100f")),
    ("family.fatbin", 103, None, Level::Native, Some("sm_100f")),
    ("family.fatbin", 120, None, Level::CannotRun, None),
    ("family.fatbin", 90, None, Level::CannotRun, None),
    // PTX only: any GPU at or above, if the driver knows PTX 9.5.
    (
        "ptx_only.fatbin",
        80,
        None,
        Level::Jit,
        Some("compute_80 (PTX 9.5)"),
    ),
    (
        "ptx_only.fatbin",
        120,
        None,
        Level::Jit,
        Some("compute_80 (PTX 9.5)"),
    ),
    ("ptx_only.fatbin", 75, None, Level::CannotRun, None),
    (
        "ptx_only.fatbin",
        90,
        Some((13, 5)),
        Level::Jit,
        Some("compute_80 (PTX 9.5)"),
    ),
    ("ptx_only.fatbin", 90, Some((13, 0)), Level::CannotRun, None),
    ("ptx_only.fatbin", 90, Some((12, 4)), Level::CannotRun, None),
    // Architecture- and family-specific PTX.
    (
        "ptx_arch_specific.fatbin",
        90,
        None,
        Level::Jit,
        Some("compute_90a (PTX 9.5)"),
    ),
    (
        "ptx_arch_specific.fatbin",
        100,
        None,
        Level::CannotRun,
        None,
    ),
    (
        "ptx_family.fatbin",
        103,
        None,
        Level::Jit,
        Some("compute_100f (PTX 9.5)"),
    ),
    ("ptx_family.fatbin", 110, None, Level::CannotRun, None),
    // Old PTX ISA: an old driver compiles it.
    (
        "old_isa.fatbin",
        86,
        Some((11, 1)),
        Level::Jit,
        Some("compute_80 (PTX 7.0)"),
    ),
    ("old_isa.fatbin", 90, Some((11, 0)), Level::CannotRun, None),
    (
        "old_isa.fatbin",
        80,
        Some((11, 0)),
        Level::Jit,
        Some("compute_80 (PTX 7.0)"),
    ),
    ("old_isa.fatbin", 80, Some((10, 2)), Level::CannotRun, None),
    // Mixed: SASS sm_75 and sm_86 (from compute_80), PTX compute_90.
    ("mixed.fatbin", 75, None, Level::Native, Some("sm_75")),
    ("mixed.fatbin", 80, None, Level::CannotRun, None),
    ("mixed.fatbin", 86, None, Level::Native, Some("sm_86")),
    ("mixed.fatbin", 89, None, Level::Native, Some("sm_86")),
    (
        "mixed.fatbin",
        90,
        None,
        Level::Jit,
        Some("compute_90 (PTX 9.5)"),
    ),
    (
        "mixed.fatbin",
        120,
        None,
        Level::Jit,
        Some("compute_90 (PTX 9.5)"),
    ),
    ("mixed.fatbin", 120, Some((12, 8)), Level::CannotRun, None),
];

#[test]
fn compat_matrix_on_nvcc_fatbins() {
    for &(f, gpu, driver, level, via) in MATRIX {
        let bytes = fixture(f);
        let bin = binary::read(&bytes).expect("read");
        let images = compat::images(&bin);
        let v = compat::verdict(&images, &Target { gpu, driver });
        assert_eq!(
            (v.level, v.via.as_deref()),
            (level, via),
            "{f} on sm_{gpu} with driver {driver:?}: {}",
            v.reason
        );
    }
}

/// The tool directory of ../shared, or a skip note (a failure under
/// `CI=true`).
fn tools(test: &str) -> Option<PathBuf> {
    let t = common::shared_dir().map(|s| s.join("tools"));
    if t.as_ref().is_some_and(|t| t.join("cuobjdump").exists()) {
        return t;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{test}: ../shared/tools/cuobjdump is required under CI=true"
    );
    eprintln!("{test}: SKIPPED (no ../shared/tools/cuobjdump)");
    None
}

#[test]
fn fixtures_match_live_cuobjdump() {
    let Some(t) = tools("fixtures_match_live_cuobjdump") else {
        return;
    };
    for f in ["kernels.sm_80.cubin", "mixed.fatbin", "family.fatbin"] {
        let out = Command::new(t.join("cuobjdump"))
            .arg("-res-usage")
            .arg(dir().join(f))
            .output()
            .expect("cuobjdump");
        let want = cuobjdump_blocks(&String::from_utf8_lossy(&out.stdout));
        assert_eq!(our_blocks(&fixture(f)), want, "{f}");
    }
}

/// Compare with `cuobjdump -res-usage` on every cubin of every binary in
/// the wheels (or directories) of `$PTXKIT_WHEELS` (a directory); prints
/// the counts.
#[test]
#[ignore = "needs $PTXKIT_WHEELS (a folder of wheels) and ../shared/tools/cuobjdump"]
fn real_wheels_match_cuobjdump() {
    let Some(t) = tools("real_wheels_match_cuobjdump") else {
        return;
    };
    let root = PathBuf::from(std::env::var("PTXKIT_WHEELS").expect("PTXKIT_WHEELS"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("PTXKIT_WHEELS")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .collect();
    paths.sort();
    let tmp = std::env::temp_dir().join(format!("ptxkit-res-usage-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("tmp");
    let mut totals = (0usize, 0usize, 0usize); // binaries, cubins, functions
    let mut mismatches = Vec::new();
    for w in &paths {
        let cands = scan::candidates(std::slice::from_ref(w));
        let each = |path: &str, bytes: &[u8]| -> Option<(usize, usize, Vec<String>)> {
            // cuobjdump reads the fatbin sections only: the fatbins a
            // library keeps as data are left out of the comparison.
            let ours = binary::read(bytes).ok().map(|mut bin| {
                let data: Vec<bool> = bin
                    .containers
                    .iter()
                    .map(|c| {
                        !matches!(
                            c.section.as_str(),
                            ".nv_fatbin" | "__nv_relfatbin" | ".nv_fatb" | ""
                        )
                    })
                    .collect();
                bin.entries
                    .retain(|e| !data.get(e.container).copied().unwrap_or(false));
                binary::usage_of(bytes, &bin)
            })?;
            if ours.is_empty() {
                return None;
            }
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let name = Path::new(path)
                .file_name()
                .unwrap_or_default()
                .to_string_lossy();
            let file = tmp.join(format!("{n}.{name}"));
            std::fs::write(&file, bytes).ok()?;
            let out = Command::new(t.join("cuobjdump"))
                .arg("-res-usage")
                .arg(&file)
                .output()
                .ok()?;
            let _ = std::fs::remove_file(&file);
            let want = cuobjdump_blocks(&String::from_utf8_lossy(&out.stdout));
            let got: Vec<String> = ours
                .iter()
                .map(|eu| match &eu.usage {
                    Ok(u) => u.cuobjdump_text().trim_end().to_string(),
                    Err(e) => format!("error: {e}"),
                })
                .collect();
            let functions = ours
                .iter()
                .filter_map(|eu| eu.usage.as_ref().ok())
                .map(|u| u.functions.len())
                .sum();
            let mut bad = Vec::new();
            if got.len() != want.len() {
                bad.push(format!(
                    "{path}: {} cubins, cuobjdump {}",
                    got.len(),
                    want.len()
                ));
            }
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                if g != w {
                    let gl: Vec<&str> = g.lines().collect();
                    let wl: Vec<&str> = w.lines().collect();
                    let first = gl
                        .iter()
                        .zip(&wl)
                        .find(|(a, b)| a != b)
                        .map(|(a, b)| format!("ours `{a}` cuobjdump `{b}`"))
                        .unwrap_or_else(|| format!("{} lines vs {}", gl.len(), wl.len()));
                    bad.push(format!("{path} cubin {i}: {first}"));
                }
            }
            Some((got.len(), functions, bad))
        };
        for s in scan::scan(&cands, each, |_| {}) {
            if let Ok((cubins, functions, bad)) = s.result {
                totals.0 += 1;
                totals.1 += cubins;
                totals.2 += functions;
                mismatches.extend(bad);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "{} wheels: {} binaries, {} cubins, {} functions compared; {} mismatches",
        paths.len(),
        totals.0,
        totals.1,
        totals.2,
        mismatches.len()
    );
    for m in mismatches.iter().take(20) {
        eprintln!("  {m}");
    }
    assert!(mismatches.is_empty());
    assert!(paths.len() >= 5 && totals.1 > 0);
}
