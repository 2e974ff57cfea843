//! Finding CUDA binaries where users keep them: files, directories
//! (site-packages, conda environments), and wheels (`.whl`, read in
//! place, one member at a time per thread).
//!
//! [`candidates`] lists what may be a binary (by name); [`scan`] reads
//! each on all cores (files are memory-mapped, so only the pages a reader
//! touches are read) and hands the bytes of those that are CUDA binaries
//! to a function. A wheel's central directory is read once, when it is
//! listed; each member is then read through a cursor of its own on the
//! shared file. A member of up to [`IN_MEMORY_MAX`] bytes is inflated in
//! memory; a larger one into an unlinked temporary file that is then
//! memory-mapped like a file, so that memory stays bounded whatever a
//! member inflates to (deflate can inflate a thousandfold: a 1 MB wheel
//! may hold a 1 GiB member). Members above [`MAX_MEMBER`] are refused.

use crate::file_at::At;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// A file (or wheel member) that may be a CUDA binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The package it belongs to: a wheel's distribution name, a
    /// site-packages top-level folder (`nvidia/cublas`), else the path
    /// given.
    pub package: String,
    /// Where it is: a path, or `wheel.whl!member/path.so`.
    pub path: String,
    /// Its size in bytes (uncompressed, for a wheel member).
    pub size: u64,
    source: Source,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    File(PathBuf),
    Member { wheel: usize, index: usize },
}

/// The candidates under `paths`, with the wheels they come from.
pub struct Candidates {
    /// Every candidate, in path order.
    pub items: Vec<Candidate>,
    /// Paths that could not be read, and why.
    pub errors: Vec<String>,
    /// Each wheel's archive, its central directory read once (cloning one
    /// shares it and gives a cursor of its own).
    wheels: Vec<zip::ZipArchive<At>>,
}

/// File names that may hold GPU code: shared libraries, executables
/// without an extension, cubins, fatbins and objects.
fn may_be_binary(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if lower.contains(".so.") || lower.ends_with(".so") {
        return true;
    }
    match Path::new(&lower).extension().and_then(|e| e.to_str()) {
        None => !lower.starts_with('.'),
        Some(e) => matches!(e, "cubin" | "fatbin" | "o" | "dll" | "pyd" | "exe" | "bin"),
    }
}

/// The package of a path inside an environment: what follows
/// `site-packages` or `dist-packages` (two levels for `nvidia/…`).
fn package_in_env(path: &Path) -> Option<String> {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let at = parts
        .iter()
        .rposition(|p| p == "site-packages" || p == "dist-packages")?;
    let top = parts.get(at.checked_add(1)?)?;
    // A file right in site-packages is its own package.
    let below = parts.get(at.checked_add(2)?)?;
    if top == "nvidia" && parts.len() > at.checked_add(3)? {
        return Some(format!("{top}/{below}"));
    }
    Some(top.trim_end_matches(".libs").to_string())
}

/// The distribution name of a wheel file (`cupy_cuda12x` of
/// `cupy_cuda12x-14.2.0-cp311-…whl`).
fn wheel_package(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.split('-').next().unwrap_or(&name).to_string()
}

/// List the candidates under `paths` (files, directories walked without
/// following symbolic links, wheels).
pub fn candidates(paths: &[PathBuf]) -> Candidates {
    let mut c = Candidates {
        items: Vec::new(),
        errors: Vec::new(),
        wheels: Vec::new(),
    };
    for p in paths {
        let given = p.display().to_string();
        let meta = match std::fs::metadata(p) {
            Ok(m) => m,
            Err(e) => {
                c.errors.push(format!("{given}: {e}"));
                continue;
            }
        };
        if meta.is_dir() {
            walk(p, &given, &mut c);
        } else {
            add_file(p, meta.len(), &given, true, &mut c);
        }
    }
    c
}

fn walk(root: &Path, given: &str, c: &mut Candidates) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<_> = match std::fs::read_dir(&dir) {
            Ok(rd) => rd.filter_map(Result::ok).collect(),
            Err(e) => {
                c.errors.push(format!("{}: {e}", dir.display()));
                continue;
            }
        };
        entries.sort_by_key(|e| e.file_name());
        let mut subdirs = Vec::new();
        for e in entries {
            let Ok(t) = e.file_type() else { continue };
            let path = e.path();
            if t.is_dir() {
                subdirs.push(path);
            } else if t.is_file() {
                let len = e.metadata().map(|m| m.len()).unwrap_or(0);
                add_file(&path, len, given, false, c);
            }
        }
        // Depth first, in name order.
        stack.extend(subdirs.into_iter().rev());
    }
}

fn add_file(path: &Path, size: u64, given: &str, named: bool, c: &mut Candidates) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.to_ascii_lowercase().ends_with(".whl") {
        add_wheel(path, c);
        return;
    }
    if !named && !may_be_binary(&name) {
        return;
    }
    c.items.push(Candidate {
        package: package_in_env(path).unwrap_or_else(|| given.to_string()),
        path: path.display().to_string(),
        size,
        source: Source::File(path.to_path_buf()),
    });
}

fn add_wheel(path: &Path, c: &mut Candidates) {
    let shown = path.display().to_string();
    let archive = std::fs::File::open(path)
        .and_then(At::new)
        .map_err(|e| e.to_string())
        .and_then(|f| zip::ZipArchive::new(f).map_err(|e| e.to_string()));
    let mut archive = match archive {
        Ok(a) => a,
        Err(e) => {
            c.errors.push(format!("{shown}: {e}"));
            return;
        }
    };
    let wheel = c.wheels.len();
    let package = wheel_package(path);
    for index in 0..archive.len() {
        let Ok(m) = archive.by_index_raw(index) else {
            continue;
        };
        if m.is_dir() {
            continue;
        }
        let Ok(name) = m.name().map(|n| n.into_owned()) else {
            continue;
        };
        let base = name.rsplit('/').next().unwrap_or(&name);
        if !may_be_binary(base) {
            continue;
        }
        c.items.push(Candidate {
            package: package.clone(),
            path: format!("{shown}!{name}"),
            size: m.size(),
            source: Source::Member { wheel, index },
        });
    }
    c.wheels.push(archive);
}

/// The bytes of a candidate: a memory map of a file, or a wheel member
/// inflated.
enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// The largest wheel member inflated (4 GiB: the largest shared library
/// of the CUDA wheels on PyPI is well under 2 GiB).
pub const MAX_MEMBER: u64 = 1 << 32;

/// The largest wheel member inflated in memory; a larger one is inflated
/// into a temporary file (see the module's documentation).
pub const IN_MEMORY_MAX: u64 = 64 << 20;

/// Whether the first bytes of a candidate say it is a CUDA binary.
fn looks_binary(head: &[u8]) -> bool {
    super::is_binary(head)
}

fn open_file(path: &Path) -> Result<Option<Bytes>, String> {
    let mut f = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut head = [0u8; 4];
    if f.read_exact(&mut head).is_err() || !looks_binary(&head) {
        return Ok(None);
    }
    // SAFETY: the map is read only and dropped before this scan returns;
    // a file truncated meanwhile by another process is the one hazard,
    // as for every reader of memory-mapped input.
    match unsafe { memmap2::Mmap::map(&f) } {
        Ok(m) => Ok(Some(Bytes::Mapped(m))),
        Err(_) => {
            let mut v = Vec::new();
            std::fs::File::open(path)
                .and_then(|mut f| f.read_to_end(&mut v))
                .map_err(|e| e.to_string())?;
            Ok(Some(Bytes::Owned(v)))
        }
    }
}

fn open_member<R: std::io::Read + std::io::Seek>(
    archive: &mut zip::ZipArchive<R>,
    index: usize,
) -> Result<Option<Bytes>, String> {
    let mut m = archive.by_index(index).map_err(|e| e.to_string())?;
    let size = m.size();
    if size > MAX_MEMBER {
        return Err(format!(
            "entry too large: {size} bytes inflated, above the {MAX_MEMBER}-byte limit"
        ));
    }
    let mut head = [0u8; 4];
    if let Err(e) = m.read_exact(&mut head) {
        // Shorter than a magic number: not a binary; otherwise corrupt.
        return match e.kind() {
            std::io::ErrorKind::UnexpectedEof if size < 4 => Ok(None),
            _ => Err(e.to_string()),
        };
    }
    if !looks_binary(&head) {
        return Ok(None);
    }
    // Never more than the member says it holds (nor past the limit), so
    // that a size that lies cannot make the reading unbounded.
    let mut rest = m.take(size.saturating_sub(4));
    let bytes = if size <= IN_MEMORY_MAX {
        // At most IN_MEMORY_MAX, so the cast cannot truncate.
        let mut v = Vec::with_capacity(size as usize);
        v.extend_from_slice(&head);
        rest.read_to_end(&mut v).map_err(|e| e.to_string())?;
        Bytes::Owned(v)
    } else {
        let mut f = tempfile::tempfile().map_err(|e| format!("temporary file: {e}"))?;
        f.write_all(&head)
            .map_err(|e| format!("temporary file: {e}"))?;
        std::io::copy(&mut rest, &mut f).map_err(|e| e.to_string())?;
        // SAFETY: the file is this process's own, unlinked at creation:
        // nothing else can change it while the map lives.
        let map = unsafe { memmap2::Mmap::map(&f) }.map_err(|e| format!("temporary file: {e}"))?;
        Bytes::Mapped(map)
    };
    Ok(Some(bytes))
}

/// One candidate read: the function's result, or why it could not be
/// read. Candidates that are not CUDA binaries (by their first bytes)
/// give no result.
#[derive(Debug)]
pub struct Scanned<T> {
    /// The candidate.
    pub candidate: Candidate,
    /// What the function returned, or the read error.
    pub result: Result<T, String>,
}

/// Read every candidate (on all cores) that starts like a binary, and
/// call `each(path, bytes)`; `done(bytes)` is called after each
/// candidate with its size (for a progress bar). Results keep the
/// candidates' order; `each` returning `None` drops the candidate.
pub fn scan<T: Send>(
    c: &Candidates,
    each: impl Fn(&str, &[u8]) -> Option<T> + Sync,
    done: impl Fn(u64) + Sync,
) -> Vec<Scanned<T>> {
    let one = |cand: &Candidate| -> Option<Scanned<T>> {
        let bytes = match &cand.source {
            Source::File(p) => open_file(p),
            // A clone of the wheel's archive: its central directory
            // shared, a cursor of its own on the file.
            Source::Member { wheel, index } => match c.wheels.get(*wheel) {
                Some(w) => open_member(&mut w.clone(), *index),
                None => Err("unreadable wheel".into()),
            },
        };
        done(cand.size);
        let result = match bytes {
            Ok(None) => return None,
            Ok(Some(b)) => Ok(each(&cand.path, &b)?),
            Err(e) => Err(e),
        };
        Some(Scanned {
            candidate: cand.clone(),
            result,
        })
    };
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        c.items.par_iter().filter_map(one).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        c.items.iter().filter_map(one).collect()
    }
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
    fn names_and_packages() {
        for yes in [
            "libcublas.so.12",
            "x.so",
            "k.cubin",
            "a.fatbin",
            "app",
            "m.pyd",
        ] {
            assert!(may_be_binary(yes), "{yes}");
        }
        for no in ["x.py", "x.pyc", "README.md", ".hidden", "x.h"] {
            assert!(!may_be_binary(no), "{no}");
        }
        let p = Path::new("/env/lib/python3.11/site-packages/nvidia/cublas/lib/libcublas.so.12");
        assert_eq!(package_in_env(p).as_deref(), Some("nvidia/cublas"));
        let p = Path::new("/env/site-packages/cupy_backends/cuda/x.so");
        assert_eq!(package_in_env(p).as_deref(), Some("cupy_backends"));
        let p = Path::new("/env/site-packages/torch.libs/libx.so");
        assert_eq!(package_in_env(p).as_deref(), Some("torch"));
        assert_eq!(package_in_env(Path::new("/a/b.so")), None);
        assert_eq!(
            wheel_package(Path::new("/w/cupy_cuda12x-14.2.0-cp311-x.whl")),
            "cupy_cuda12x"
        );
    }
}
