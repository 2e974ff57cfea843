//! Instruction histograms.
//!
//! Instructions are counted under one of three keys:
//! * `opcode` — the instruction as the catalog names it, without its
//!   variable modifiers: `ld`, `mma`, `cp.async.bulk.tensor`, `mbarrier.try_wait`;
//! * `family` — the area of the ISA the instruction belongs to, which is the
//!   catalog file it is written in: `int`, `float`, `compare`, `logic`,
//!   `data`, `async`, `texture`, `control`, `sync`, `mma`, `wgmma`,
//!   `tcgen05`, `misc`;
//! * `modifier` — the full mnemonic, opcode and every modifier as written:
//!   `ld.global.nc.v4.f32`.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::isa::catalog;
use crate::syntax::{Instruction, Module};

/// What to count instructions by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum StatsKey {
    /// The catalog's instruction name (`ld`, `cp.async.bulk`).
    #[default]
    Opcode,
    /// The ISA area (`data`, `sync`, `mma`…).
    Family,
    /// The full mnemonic (`ld.global.v4.f32`).
    Modifier,
}

impl StatsKey {
    /// The key of instruction `i`.
    pub fn key(self, i: &Instruction) -> String {
        match self {
            StatsKey::Opcode => i.name().to_string(),
            StatsKey::Family => catalog()
                .section_of(i.form)
                .map(|s| s.file.trim_end_matches(".ptxisa").to_string())
                .unwrap_or_else(|| "unknown".to_string()),
            StatsKey::Modifier => mnemonic(i),
        }
    }
}

/// The opcode and every modifier as written: `ld.global.nc.v4.f32`.
pub fn mnemonic(i: &Instruction) -> String {
    let mut s = i.opcode_name().to_string();
    for m in &i.mods {
        s.push_str(m.as_str());
    }
    s
}

/// Counts per key.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Histogram {
    /// Instructions counted.
    pub total: u64,
    /// Count per key.
    pub counts: BTreeMap<String, u64>,
}

impl Histogram {
    /// Count one instruction.
    pub fn add(&mut self, key: String) {
        self.total = self.total.saturating_add(1);
        {
            let e = self.counts.entry(key).or_default();
            *e = e.saturating_add(1);
        }
    }

    /// Add another histogram into this one.
    pub fn merge(&mut self, other: &Histogram) {
        self.total = self.total.saturating_add(other.total);
        for (k, v) in &other.counts {
            {
                let e = self.counts.entry(k.clone()).or_default();
                *e = e.saturating_add(*v);
            }
        }
    }

    /// Entries by descending count, then key.
    pub fn sorted(&self) -> Vec<(&str, u64)> {
        let mut v: Vec<(&str, u64)> = self.counts.iter().map(|(k, c)| (k.as_str(), *c)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }
}

/// The histogram of one function.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionStats {
    /// The function.
    pub function: String,
    /// Its readable C++ name when the function's name is mangled ([`crate::demangle()`]).
    pub demangled: Option<String>,
    /// Its counts.
    pub histogram: Histogram,
}

/// Histograms of a module: the whole and per function.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ModuleStats {
    /// All instructions of the module.
    pub total: Histogram,
    /// Per function with a body, in module order.
    pub functions: Vec<FunctionStats>,
}

/// Count the instructions of `m` by `by`.
pub fn module_stats(m: &Module, by: StatsKey) -> ModuleStats {
    let mut out = ModuleStats::default();
    for f in m.functions() {
        let Some(b) = &f.body else { continue };
        let mut h = Histogram::default();
        for i in b.instructions() {
            h.add(by.key(i));
        }
        out.total.merge(&h);
        out.functions.push(FunctionStats {
            function: f.name.to_string(),
            demangled: crate::demangle(f.name.as_str()),
            histogram: h,
        });
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_each_key() {
        let src = ".version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .f32 %f<3>;\nld.param.u64 %rd1, [p];\nld.global.nc.f32 %f1, [%rd1];\nadd.f32 %f2, %f1, %f1;\nst.global.f32 [%rd1], %f2;\nret;\n}\n";
        let m = crate::parse(src.as_bytes()).module;
        let s = module_stats(&m, StatsKey::Opcode);
        assert_eq!(s.total.total, 5);
        assert_eq!(s.total.counts.get("ld"), Some(&1));
        assert_eq!(s.total.counts.get("ld.global.nc"), Some(&1));
        assert_eq!(s.total.sorted()[0], ("add", 1));
        let s = module_stats(&m, StatsKey::Family);
        assert_eq!(s.total.counts.get("data"), Some(&3));
        assert_eq!(s.total.counts.get("float"), Some(&1));
        assert_eq!(s.total.counts.get("control"), Some(&1));
        let s = module_stats(&m, StatsKey::Modifier);
        assert_eq!(s.total.counts.get("ld.global.nc.f32"), Some(&1));
        assert_eq!(s.functions.len(), 1);
    }
}
