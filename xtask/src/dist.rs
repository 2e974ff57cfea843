//! `xtask dist`: the `ptx` binary linked statically (glibc's `crt-static`),
//! for hosts that run it without a matching C library, and for a smaller
//! resident footprint: a static binary maps only the parts of the C library
//! it uses (`ptx check` of the Kokkos module peaks about 0.9 MB lower).
//! Also the ordinary release build, for the xtasks that run `ptx`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The host's target triple, from `rustc -vV`.
fn host() -> Option<String> {
    let out = Command::new("rustc").arg("-vV").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
}

/// Build the ordinary release `ptx` (`target/release/ptx`); its path on
/// success.
pub fn release_ptx(root: &Path) -> Option<PathBuf> {
    let built = Command::new(env!("CARGO"))
        .args(["build", "--release", "-q", "-p", "ptx-cli"])
        .current_dir(root)
        .status();
    let ptx = root.join("target/release/ptx");
    (built.is_ok_and(|s| s.success()) && ptx.exists()).then_some(ptx)
}

/// Where [`build`] leaves the static binary, if the host can build one.
pub fn static_ptx(root: &Path) -> Option<PathBuf> {
    let host = host()?;
    host.ends_with("-linux-gnu")
        .then(|| root.join("target").join(host).join("release/ptx"))
}

/// Build the static `ptx`; its path on success.
pub fn build(root: &Path, quiet: bool) -> Option<PathBuf> {
    let host = host()?;
    if !host.ends_with("-linux-gnu") {
        eprintln!("xtask dist: static linking is set up for *-linux-gnu hosts only, not {host}");
        return None;
    }
    // The target is named so that the flags reach only the target's
    // artifacts: proc-macros and build scripts, built for the host, stay
    // dynamic (a static proc-macro cannot be built). The link layout and
    // packed relocations come from crates/ptx-cli/build.rs.
    let flags = "-C target-feature=+crt-static";
    let mut c = Command::new(env!("CARGO"));
    c.args(["build", "--release", "-p", "ptx-cli", "--target", &host])
        .env("RUSTFLAGS", flags)
        .current_dir(root);
    if quiet {
        c.arg("-q");
    }
    let ok = c.status().is_ok_and(|s| s.success());
    let out = static_ptx(root)?;
    (ok && out.exists()).then_some(out)
}
