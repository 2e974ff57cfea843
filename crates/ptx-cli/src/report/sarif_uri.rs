//! Where SARIF results point: each file as a URI relative to the base
//! `%SRCROOT%` (the directory `ptx` ran in, given once in the run's
//! `originalUriBaseIds`), so that a log made in a checkout reads the same
//! wherever the checkout is; a file outside that directory gets an
//! absolute `file://` URI.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde_sarif::sarif::ArtifactLocation;

/// The name of the base URI.
pub const SRCROOT: &str = "SRCROOT";

/// `path` with `.` and `..` folded away, without asking the file system.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Percent-encode what a URI path may not hold as it is (`#` of a binary
/// entry's name `lib.so#3.sm_80`, spaces, non-ASCII bytes).
fn encode(path: &str) -> String {
    let mut s = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~+,=@:".contains(&b) {
            s.push(char::from(b));
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// The base directory and how files are located against it.
pub struct Base {
    dir: PathBuf,
}

impl Base {
    /// The current directory (the root `/` if it cannot be known).
    pub fn current() -> Base {
        Base {
            dir: normal(&std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))),
        }
    }

    /// `originalUriBaseIds`: `SRCROOT` is the base directory's URI.
    pub fn ids(&self) -> BTreeMap<String, ArtifactLocation> {
        let mut uri = format!("file://{}", encode(&self.dir.to_string_lossy()));
        if !uri.ends_with('/') {
            uri.push('/');
        }
        BTreeMap::from([(
            SRCROOT.to_string(),
            ArtifactLocation::builder().uri(uri).build(),
        )])
    }

    /// Where `file` (a path as `ptx` names it) is: relative to `SRCROOT`
    /// when inside the base directory, else an absolute `file://` URI.
    pub fn locate(&self, file: &str) -> ArtifactLocation {
        let p = Path::new(file);
        let abs = normal(&if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.dir.join(p)
        });
        match abs.strip_prefix(&self.dir) {
            Ok(rel) => {
                let rel: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                let mut at = ArtifactLocation::builder()
                    .uri(encode(&rel.join("/")))
                    .build();
                at.uri_base_id = Some(SRCROOT.to_string());
                at
            }
            Err(_) => ArtifactLocation::builder()
                .uri(format!("file://{}", encode(&abs.to_string_lossy())))
                .build(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_inside_absolute_outside() {
        let b = Base {
            dir: PathBuf::from("/work/repo"),
        };
        let at = b.locate("examples/../examples/a b.ptx");
        assert_eq!(at.uri.as_deref(), Some("examples/a%20b.ptx"));
        assert_eq!(at.uri_base_id.as_deref(), Some(SRCROOT));
        let at = b.locate("../shared/corpus/x.ptx");
        assert_eq!(at.uri.as_deref(), Some("file:///work/shared/corpus/x.ptx"));
        assert_eq!(at.uri_base_id, None);
        assert_eq!(
            b.locate("lib.so#3.sm_80").uri.as_deref(),
            Some("lib.so%233.sm_80")
        );
        let ids = b.ids();
        let root = ids.get(SRCROOT).and_then(|a| a.uri.as_deref());
        assert_eq!(root, Some("file:///work/repo/"));
    }
}
