//! The one model of a function's header: what `ptx functions` and
//! `ptx summary` (and Python's `Function.info()` and `Module.summary()`)
//! both say of a kernel or device function. Each of those reports embeds it
//! (`#[serde(flatten)]`), so the shared fields are computed here only.

use serde::Serialize;

use super::params::{directive_text, param_summary, ParamSummary};
use crate::isa::vocab::Linkage;
use crate::syntax::{Block, FuncKind, Function, Stmt};

/// Name, kind, linkage, signature, directives and size of one function.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionHeader {
    /// The name.
    pub name: String,
    /// Its readable C++ name when the name is mangled ([`crate::demangle()`]).
    pub demangled: Option<String>,
    /// `entry` (kernel) or `func`.
    #[serde(serialize_with = "super::serialize_func_kind")]
    pub kind: FuncKind,
    /// `.visible`, `.extern`, `.weak`, or none (written as its spelling).
    pub linkage: Option<Linkage>,
    /// Whether only declared here (no body).
    pub declaration: bool,
    /// Parameters with their types and sizes.
    pub params: Vec<ParamSummary>,
    /// Return values (device functions).
    pub returns: Vec<ParamSummary>,
    /// Performance and ABI directives, as written (`.maxntid 256, 1, 1`, `.noreturn`).
    pub directives: Vec<String>,
    /// Number of instructions in the body, nested blocks included (0 for a declaration).
    pub instructions: usize,
}

impl FunctionHeader {
    /// The header of `f`.
    pub fn of(f: &Function) -> FunctionHeader {
        FunctionHeader {
            name: f.name.to_string(),
            demangled: crate::demangle(f.name.as_str()),
            kind: f.kind,
            linkage: f.linkage,
            declaration: f.body.is_none(),
            params: f.params().iter().map(param_summary).collect(),
            returns: f
                .rets
                .as_deref()
                .unwrap_or_default()
                .iter()
                .map(param_summary)
                .collect(),
            directives: f.directives.iter().map(directive_text).collect(),
            instructions: f.body.as_ref().map_or(0, count_instructions),
        }
    }
}

fn count_instructions(b: &Block) -> usize {
    b.stmts.iter().fold(0usize, |n, s| match s {
        Stmt::Instruction(_) => n.saturating_add(1),
        Stmt::Block(inner) => n.saturating_add(count_instructions(inner)),
        _ => n,
    })
}
