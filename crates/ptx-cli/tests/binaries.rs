//! `ptx extract` and binary inputs to the other commands.
//!
//! The first tests use the small fixtures of `ptxkit/tests/data/binary`.
//! `nvcc_binaries_match_cuobjdump` builds fatbins (every
//! `--compress-mode`, several arches), an `-rdc` object, an executable and
//! a shared library with `../shared/tools/nvcc` from CUDA written here, and
//! checks that the PTX `ptx extract` writes is byte for byte what
//! `cuobjdump -xptx all` writes. It skips with a note when ../shared is
//! absent, and fails then under `CI=true`.
//! `warp_so_speed_and_identity` (ignored) does the same on `warp.so` of the
//! `warp-lang` wheel and prints the extraction speed.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

fn ptx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx"))
        .args(args)
        .output()
        .expect("run ptx")
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ptxkit/tests/data/binary")
        .join(name)
        .display()
        .to_string()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh scratch directory.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptxkit-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// Inputs whose stems are the same (`a/libk.so.12`, `b/libk.so.12`,
/// `a/libk.so.11`) each get files of their own: all three wrote
/// `libk.so.1.sm_80.ptx`, in parallel, and only the last survived.
#[test]
fn extract_keeps_inputs_of_one_stem_apart() {
    let dir = scratch("same-stem");
    let src = std::fs::read(fixture("saxpy.default.fatbin")).expect("fixture");
    let mut inputs = Vec::new();
    for (sub, name) in [
        ("a", "libk.so.12"),
        ("b", "libk.so.12"),
        ("a", "libk.so.11"),
    ] {
        std::fs::create_dir_all(dir.join(sub)).expect("mkdir");
        let p = dir.join(sub).join(name);
        std::fs::write(&p, &src).expect("input");
        inputs.push(p.display().to_string());
    }
    let out_dir = dir.join("out").display().to_string();
    let mut args = vec!["extract", "-o", &out_dir, "--arch", "sm_90a"];
    args.extend(inputs.iter().map(String::as_str));
    let out = ptx(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut written: Vec<String> = std::fs::read_dir(dir.join("out"))
        .expect("out")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "libk.so-2.2.sm_90a.ptx",
            "libk.so-3.2.sm_90a.ptx",
            "libk.so.2.sm_90a.ptx"
        ]
    );
    // Each line of the report names a different file.
    let s = text(&out.stdout);
    assert_eq!(s.lines().count(), 3, "{s}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn list_and_extract_fixtures() {
    let out = ptx(&["extract", "--list", &fixture("saxpy.speed.fatbin")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("1 container, 2 entries, 2 PTX"), "{s}");
    assert!(s.contains("sm_90a") && s.contains("lz4"), "{s}");

    let out = ptx(&["extract", "--list", "--json", &fixture("saxpy.rdc.o")]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v[0]["format"], "object");
    assert_eq!(v[0]["object_kind"], "relocatable");
    assert_eq!(v[0]["sections"][0], "__nv_relfatbin");
    assert_eq!(v[0]["entries"][0]["kind"], "ptx");
    assert_eq!(v[0]["entries"][0]["arch_name"], "sm_75");
    assert_eq!(v[0]["entries"][0]["options"], "--compile-only");

    let dir = scratch("fixtures");
    let d = dir.display().to_string();
    let out = ptx(&[
        "extract",
        "-o",
        &d,
        "--arch",
        "sm_90a",
        &fixture("saxpy.default.fatbin"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let got = std::fs::read(dir.join("saxpy.default.2.sm_90a.ptx")).expect("written");
    assert!(got == std::fs::read(fixture("saxpy.sm_90a.ptx")).expect("fixture"));
    assert!(
        !dir.join("saxpy.default.1.sm_80.ptx").exists(),
        "--arch picks one"
    );

    // A cubin has no PTX: said so, nothing written.
    let out = ptx(&["extract", "-o", &d, &fixture("saxpy.sm_80.cubin")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("machine code (SASS) only"),
        "{}",
        text(&out.stderr)
    );
    let out = ptx(&["extract", &fixture("saxpy.sm_80.ptx")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a CUDA binary"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn commands_read_binaries() {
    let fb = fixture("saxpy.size.fatbin");
    // Two PTX entries: the multi-file commands read both ...
    let out = ptx(&["check", &fb]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = ptx(&["stats", "--json", &fb]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["files"], 2);
    let out = ptx(&["grep", "fma", &fb]);
    let s = text(&out.stdout);
    assert!(
        s.contains("saxpy.size.fatbin#1.sm_80") && s.contains("#2.sm_90a"),
        "{s}"
    );
    // ... a one-module command wants one, and says how to pick it.
    let out = ptx(&["summary", &fb]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("pick one with --entry"),
        "{}",
        text(&out.stderr)
    );
    let out = ptx(&["summary", "--arch", "sm_90a", &fb]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("sm_90a"));
    let out = ptx(&["functions", "--entry", "1", &fb]);
    assert!(text(&out.stdout).contains("saxpy"), "{}", text(&out.stdout));
    // Same module whatever the compression.
    let out = ptx(&["diff", "--entry", "2", &fb, &fixture("saxpy.none.fatbin")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let out = ptx(&["check", "--arch", "sm_70", &fb]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr)
        .contains("no PTX entry matches --arch sm_70; it has 1 (sm_80), 2 (sm_90a)"));
}

/// `../shared`, or `None` after a note (a failure under `CI=true`).
fn shared(test: &str) -> Option<PathBuf> {
    let p = match std::env::var("PTXKIT_SHARED") {
        Ok(p) => PathBuf::from(p),
        Err(_) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    if p.join("tools/nvcc").exists() {
        return Some(p);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{test}: ../shared/tools not found (required under CI=true)"
    );
    eprintln!("note: ../shared/tools not found; {test} skipped");
    None
}

const KERNELS: &str = r#"
__device__ int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
__global__ void histogram(const unsigned char *in, int *bins, int n) {
  __shared__ int local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i]], 1);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[clampi(i, 0, 255)], local[i]);
}
__global__ void axpy(double a, const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fma(a, x[i], y[i]);
}
"#;

const MAIN: &str = r#"
#include <cstdio>
__global__ void touch(int *p) { p[threadIdx.x] += 1; }
int main() { int *d = nullptr; touch<<<1, 32>>>(d); std::printf("done\n"); return 0; }
"#;

/// PTX for sm_80, compute_90 and sm_100a; SASS for sm_75 and sm_90.
const GENCODE: &[&str] = &[
    "-gencode",
    "arch=compute_75,code=sm_75",
    "-gencode",
    "arch=compute_80,code=compute_80",
    "-gencode",
    "arch=compute_90,code=[sm_90,compute_90]",
    "-gencode",
    "arch=compute_100a,code=compute_100a",
];

/// `(PTX number, file name, bytes)` of the `.ptx` files in `dir`, by number
/// (cuobjdump leaves the number out when there is one PTX entry).
fn ptx_files(dir: &Path) -> Vec<(usize, String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| {
            let name = p.file_name().expect("name").to_string_lossy().into_owned();
            let n = name
                .split('.')
                .find_map(|part| part.parse::<usize>().ok())
                .unwrap_or(1);
            (n, name, std::fs::read(&p).expect("read ptx"))
        })
        .collect();
    v.sort();
    v
}

/// Extract with cuobjdump and with `ptx extract`; assert the same PTX,
/// byte for byte, in the same order. Returns how many PTX files.
fn same_as_cuobjdump(shared: &Path, bin: &Path, work: &Path) -> usize {
    let stem = bin
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let (theirs, ours) = (
        work.join(format!("{stem}.cuobjdump")),
        work.join(format!("{stem}.ptx")),
    );
    std::fs::create_dir_all(&theirs).expect("mkdir");
    let out = Command::new(shared.join("tools/cuobjdump"))
        .args(["-xptx", "all"])
        .arg(bin)
        .current_dir(&theirs)
        .output()
        .expect("run cuobjdump");
    assert!(
        out.status.success(),
        "cuobjdump {stem}: {}",
        text(&out.stderr)
    );
    let out = ptx(&[
        "extract",
        "-o",
        &ours.display().to_string(),
        &bin.display().to_string(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "ptx extract {stem}: {}",
        text(&out.stderr)
    );
    let (a, b) = (ptx_files(&theirs), ptx_files(&ours));
    assert!(!a.is_empty(), "{stem}: cuobjdump found no PTX");
    assert_eq!(
        a.len(),
        b.len(),
        "{stem}: {a:?} vs {b:?}",
        a = names(&a),
        b = names(&b)
    );
    for ((n, an, ab), (m, bn, bb)) in a.iter().zip(&b) {
        assert_eq!(n, m, "{stem}: {an} vs {bn}");
        assert!(ab == bb, "{stem}: {bn} differs from cuobjdump's {an}");
    }
    a.len()
}

fn names(v: &[(usize, String, Vec<u8>)]) -> Vec<&str> {
    v.iter().map(|x| x.1.as_str()).collect()
}

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn nvcc_binaries_match_cuobjdump() {
    let Some(shared) = shared("nvcc_binaries_match_cuobjdump") else {
        return;
    };
    let work = scratch("nvcc");
    std::fs::write(work.join("kernels.cu"), KERNELS).expect("write");
    std::fs::write(work.join("main.cu"), MAIN).expect("write");
    let nvcc = shared.join("tools/nvcc");
    let mut jobs: Vec<(String, Vec<String>)> = Vec::new();
    let gencode = || GENCODE.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for mode in ["none", "speed", "default", "size", "balance"] {
        let mut a = vec!["-fatbin".into(), format!("--compress-mode={mode}")];
        a.extend(gencode());
        a.extend(["kernels.cu".into(), "-o".into()]);
        jobs.push((format!("k.{mode}.fatbin"), a));
    }
    let mut rdc: Vec<String> = vec!["-c".into(), "-rdc=true".into()];
    rdc.extend(gencode());
    rdc.extend(["kernels.cu".into(), "-o".into()]);
    jobs.push(("k.rdc.o".into(), rdc));
    let mut exe = gencode();
    exe.extend(["main.cu".into(), "kernels.cu".into(), "-o".into()]);
    jobs.push(("app".into(), exe));
    let mut so: Vec<String> = vec!["-shared".into(), "-Xcompiler".into(), "-fPIC".into()];
    so.extend(gencode());
    so.extend(["kernels.cu".into(), "-o".into()]);
    jobs.push(("libk.so".into(), so));
    // On a fresh machine the first run of `../shared/tools/nvcc` assembles
    // its toolkit; eight first runs at once race on that folder and leave
    // it broken. One run first, alone.
    let warm = Command::new(&nvcc)
        .arg("--version")
        .output()
        .expect("run nvcc");
    assert!(warm.status.success(), "nvcc: {}", text(&warm.stderr));
    let started = Instant::now();
    std::thread::scope(|s| {
        for (out, args) in &jobs {
            let (nvcc, work) = (&nvcc, &work);
            s.spawn(move || {
                let o = Command::new(nvcc)
                    .args(args)
                    .arg(out)
                    .current_dir(work)
                    .output()
                    .expect("run nvcc");
                assert!(o.status.success(), "nvcc {out}: {}", text(&o.stderr));
            });
        }
    });
    eprintln!("built {} binaries in {:.1?}", jobs.len(), started.elapsed());
    for (out, _) in &jobs {
        let n = same_as_cuobjdump(&shared, &work.join(out), &work);
        // Three PTX entries per translation unit; the executable's main.cu
        // adds three more.
        let want = if out == "app" { 6 } else { 3 };
        assert_eq!(n, want, "{out}: PTX entries");
    }
    // The compression modes really differ: LZ4 for speed, zstd otherwise.
    for (mode, codec) in [
        ("none", "none"),
        ("speed", "lz4"),
        ("size", "zstd"),
        ("balance", "zstd"),
    ] {
        let f = work.join(format!("k.{mode}.fatbin")).display().to_string();
        let v: serde_json::Value =
            serde_json::from_slice(&ptx(&["extract", "--list", "--json", &f]).stdout)
                .expect("json");
        let codecs: Vec<_> = v[0]["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .filter(|e| e["kind"] == "ptx")
            .map(|e| e["compression"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(codecs, [codec; 3], "{mode}");
    }
    // `ptx stats` and `ptx check` read a shared library directly, and
    // `extract --list` calls it one.
    let so = work.join("libk.so").display().to_string();
    let out = ptx(&["extract", "--list", &so]);
    assert!(
        text(&out.stdout).contains("libk.so: shared library; sections .nv_fatbin"),
        "{}",
        text(&out.stdout)
    );
    let out = ptx(&["stats", "--json", &so]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["files"], 3);
    assert!(
        v["total"]["atom"].as_u64().unwrap_or(0) > 0 || text(&out.stdout).contains("atom"),
        "{v}"
    );
    let out = ptx(&["check", &so]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = ptx(&["resources", "--arch", "sm_100a", &so]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&work);
}

/// `warp.so` of the `warp-lang` wheel (found at `$PTXKIT_WARP_SO`, else
/// downloaded with pip into a scratch directory): 26 PTX entries, each
/// byte-identical to cuobjdump's; prints the extraction speed.
#[test]
#[ignore = "downloads a 150 MB wheel; run with --ignored"]
fn warp_so_speed_and_identity() {
    let Some(shared) = shared("warp_so_speed_and_identity") else {
        return;
    };
    let work = scratch("warp");
    let so = match std::env::var("PTXKIT_WARP_SO") {
        Ok(p) => PathBuf::from(p),
        Err(_) => {
            let st = Command::new("pip")
                .args(["download", "warp-lang", "--no-deps", "-d"])
                .arg(&work)
                .status()
                .expect("pip");
            assert!(st.success(), "pip download warp-lang");
            let whl = std::fs::read_dir(&work)
                .expect("dir")
                .map(|e| e.expect("e").path())
                .find(|p| p.extension().is_some_and(|x| x == "whl"))
                .expect("a wheel");
            let st = Command::new("unzip")
                .args(["-q", "-o"])
                .arg(&whl)
                .arg("warp/bin/warp.so")
                .arg("-d")
                .arg(&work)
                .status()
                .expect("unzip");
            assert!(st.success());
            work.join("warp/bin/warp.so")
        }
    };
    let bytes = std::fs::read(&so).expect("read warp.so");
    let mb = bytes.len() as f64 / 1e6;
    let t = Instant::now();
    let bin = ptxkit::binary::read(&bytes).expect("read headers");
    let mut out = 0usize;
    for e in bin.ptx_entries() {
        out += ptxkit::binary::ptx_text(&bytes, e).expect("extract").len();
    }
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "warp.so: {mb:.1} MB, {} entries, {} PTX, {:.1} MB of PTX in {:.3} s: {:.0} MB/s of input",
        bin.entries.len(),
        bin.ptx_entries().count(),
        out as f64 / 1e6,
        secs,
        mb / secs
    );
    assert_eq!(same_as_cuobjdump(&shared, &so, &work), 26);
    let _ = std::fs::remove_dir_all(&work);
}
