//! Whether the tests can read `../shared` (the PTX corpus with ptxas's
//! verdicts, the ISA text, the NVIDIA tools): when it is absent, and not
//! under CI, the cfg `ptxkit_no_shared` is set, and the tests that need it
//! are `#[ignore]`d by it, so that the test runner reports them as ignored
//! instead of as passed. Under `CI=true` they run (and fail without it).
//!
//! The check is made when the crate is built: after `../shared` appears,
//! `touch crates/ptxkit/build.rs` (or set `PTXKIT_SHARED`) to run them.
//! (Watching the directory would rebuild the crate on every build while it
//! is missing.)

fn main() {
    println!("cargo::rustc-check-cfg=cfg(ptxkit_no_shared)");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PTXKIT_SHARED");
    println!("cargo:rerun-if-env-changed=CI");
    let dir = match std::env::var_os("PTXKIT_SHARED") {
        Some(p) => std::path::PathBuf::from(p),
        None => {
            std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default())
                .join("../../../shared")
        }
    };
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    if !dir.is_dir() && !ci {
        println!("cargo:rustc-cfg=ptxkit_no_shared");
    }
}
