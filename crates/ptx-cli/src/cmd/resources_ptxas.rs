//! `ptx resources FILE.ptx --ptxas`: assemble the module with ptxas and
//! read what each kernel really uses from the cubin it writes (the same
//! reader as `ptx resources BIN`), plus the spill figures ptxas -v prints.

use std::path::Path;
use std::process::Command;

use ptxkit::binary::usage::{self, FunctionUsage};
use serde::Serialize;

/// What ptxas made of one function.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Assembled {
    /// The cubin's figures.
    #[serde(flatten)]
    pub usage: FunctionUsage,
    /// Bytes of registers spilled to local memory (stores), from -v.
    pub spill_stores: Option<u64>,
    /// Bytes reloaded from spills, from -v.
    pub spill_loads: Option<u64>,
}

/// The figures ptxas gives, by function name; or why there are none.
pub fn assemble(ptxas: &Path, source: &[u8], arch: &str) -> Result<Vec<Assembled>, String> {
    let dir = std::env::temp_dir().join(format!("ptx-resources-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let input = dir.join("in.ptx");
    let cubin = dir.join("out.cubin");
    let result = (|| {
        std::fs::write(&input, source).map_err(|e| format!("{}: {e}", input.display()))?;
        let out = Command::new(ptxas)
            .arg(format!("-arch={arch}"))
            .arg("-v")
            .arg(&input)
            .arg("-o")
            .arg(&cubin)
            .output()
            .map_err(|e| format!("{}: {e}", ptxas.display()))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(format!(
                "{} failed: {}",
                ptxas.display(),
                err.lines().next().unwrap_or("")
            ));
        }
        let bytes = std::fs::read(&cubin).map_err(|e| format!("{}: {e}", cubin.display()))?;
        let u = usage::read(&bytes).map_err(|e| e.to_string())?;
        let mut log = String::from_utf8_lossy(&out.stderr).into_owned();
        log.push_str(&String::from_utf8_lossy(&out.stdout));
        let spills = spills(&log);
        Ok(u.functions
            .into_iter()
            .map(|f| {
                let s = spills.iter().find(|(n, _, _)| *n == f.name);
                Assembled {
                    spill_stores: s.map(|x| x.1),
                    spill_loads: s.map(|x| x.2),
                    usage: f,
                }
            })
            .collect())
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// `(function, spill stores, spill loads)` from ptxas -v: a line naming
/// the function (`Function properties for NAME`) followed by one with
/// `N bytes spill stores, M bytes spill loads`.
fn spills(log: &str) -> Vec<(String, u64, u64)> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in log.lines() {
        if let Some(rest) = line.split("Function properties for ").nth(1) {
            current = Some(rest.trim().to_string());
            continue;
        }
        if let (Some(name), Some(_)) = (&current, line.find("spill stores")) {
            let nums: Vec<u64> = line
                .split(',')
                .filter_map(|p| p.split_whitespace().next()?.parse().ok())
                .collect();
            if let [_, stores, loads, ..] = nums.as_slice() {
                out.push((name.clone(), *stores, *loads));
            }
            current = None;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_spills() {
        let log = "ptxas info    : Function properties for k\n    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n";
        assert_eq!(super::spills(log), [("k".to_string(), 4, 12)]);
    }
}
