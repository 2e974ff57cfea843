//! A module at a glance: what `ptx summary` prints.

use std::collections::BTreeMap;

use serde::Serialize;

pub use super::header::FunctionHeader;
pub use super::params::{declarator_bytes, param_bytes, param_summary, ParamSummary};
use crate::isa::vocab::StateSpace;
use crate::syntax::{Block, Function, Module, Stmt};

/// Summary of a module.
#[derive(Clone, Debug, Serialize)]
pub struct ModuleSummary {
    /// `.version`, e.g. `8.5`.
    pub version: Option<String>,
    /// `.target` words.
    pub target: Vec<String>,
    /// `.address_size` (32 when absent).
    pub address_size: u64,
    /// Kernels and functions, each once: a function the module declares
    /// and defines appears as its definition.
    pub functions: Vec<FunctionSummary>,
    /// Bytes of module-scope data per state space (`.global`, `.const`, `.shared`…).
    pub data_bytes: BTreeMap<String, u64>,
    /// Module-scope variables whose size is not known statically (unsized `extern` arrays).
    pub unsized_data: Vec<String>,
    /// Instructions in the whole module.
    pub instructions: usize,
}

/// Summary of one function: its [`FunctionHeader`] (flattened into the
/// same JSON object) and what its body declares.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionSummary {
    /// Name, kind, linkage, signature, directives and instruction count.
    #[serde(flatten)]
    pub header: FunctionHeader,
    /// Declared registers per type (`.b32` → 12).
    pub registers: BTreeMap<String, u64>,
    /// Bytes of `.local` declared in the body.
    pub local_bytes: u64,
    /// Bytes of `.shared` declared in the body.
    pub shared_bytes: u64,
}

impl std::ops::Deref for FunctionSummary {
    type Target = FunctionHeader;
    fn deref(&self) -> &FunctionHeader {
        &self.header
    }
}

#[derive(Default)]
struct BodyStats {
    registers: BTreeMap<String, u64>,
    local: u64,
    shared: u64,
}

fn walk(b: &Block, st: &mut BodyStats) {
    for s in &b.stmts {
        match s {
            Stmt::Block(inner) => walk(inner, st),
            Stmt::Var(v) => match v.space {
                StateSpace::Reg => {
                    let mut ty = String::new();
                    if let Some(n) = v.vector {
                        ty.push_str(&format!(".v{n} "));
                    }
                    ty.push_str(v.ty.as_str());
                    let count: u64 = v
                        .decls
                        .iter()
                        .map(|d| d.range.map(|r| r.value).unwrap_or(1))
                        .fold(0u64, |a, b| a.saturating_add(b));
                    let e = st.registers.entry(ty).or_insert(0);
                    *e = e.saturating_add(count);
                }
                StateSpace::Local | StateSpace::Shared => {
                    let bytes: u64 = v
                        .decls
                        .iter()
                        .map(|d| declarator_bytes(v, &d.dims, d.init.as_ref()).unwrap_or(0))
                        .fold(0u64, |a, b| a.saturating_add(b));
                    if v.space == StateSpace::Local {
                        st.local = st.local.saturating_add(bytes);
                    } else {
                        st.shared = st.shared.saturating_add(bytes);
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }
}

fn function_summary(f: &Function) -> FunctionSummary {
    let mut st = BodyStats::default();
    if let Some(b) = &f.body {
        walk(b, &mut st);
    }
    FunctionSummary {
        header: FunctionHeader::of(f),
        registers: st.registers,
        local_bytes: st.local,
        shared_bytes: st.shared,
    }
}

/// Summarise a module.
pub fn summarize(m: &Module) -> ModuleSummary {
    let mut data_bytes: BTreeMap<String, u64> = BTreeMap::new();
    let mut unsized_data = Vec::new();
    for v in m.globals() {
        for d in &v.decls {
            match declarator_bytes(v, &d.dims, d.init.as_ref()) {
                Some(b) => {
                    let e = data_bytes.entry(v.space.as_str().to_string()).or_insert(0);
                    *e = e.saturating_add(b);
                }
                None => unsized_data.push(format!("{} {}", v.space, d.name)),
            }
        }
    }
    // A forward declaration of a function the module defines is the same
    // function: listed once, as its definition.
    let defined: rustc_hash::FxHashSet<_> = m
        .functions()
        .filter(|f| f.body.is_some())
        .map(|f| f.name)
        .collect();
    let mut listed = rustc_hash::FxHashSet::default();
    let functions: Vec<FunctionSummary> = m
        .functions()
        .filter(|f| f.body.is_some() || !defined.contains(&f.name))
        .filter(|f| listed.insert(f.name))
        .map(function_summary)
        .collect();
    ModuleSummary {
        version: m.version().map(|v| format!("{}.{}", v.major, v.minor)),
        target: m
            .target()
            .map(|t| t.items.iter().map(|(n, _)| n.to_string()).collect())
            .unwrap_or_default(),
        address_size: m.address_size(),
        instructions: functions.iter().map(|f| f.instructions).sum(),
        functions,
        data_bytes,
        unsized_data,
    }
}
