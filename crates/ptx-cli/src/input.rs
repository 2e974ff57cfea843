//! Reading inputs: files, directories of `.ptx` files, or stdin (`-`).

use std::io::Read;
use std::path::{Path, PathBuf};

/// A loaded input.
pub struct Input {
    /// Display name.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Read one file, or stdin for `-`.
pub fn read(path: &Path) -> Result<Input, String> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("<stdin>: {e}"))?;
        return Ok(Input {
            name: "<stdin>".into(),
            bytes,
        });
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Input {
        name: path.display().to_string(),
        bytes,
    })
}

/// Expand directories into the `.ptx` files below them (sorted); files and
/// `-` pass through.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found).map_err(|e| format!("{}: {e}", p.display()))?;
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "ptx") {
            out.push(p);
        }
    }
    Ok(())
}
