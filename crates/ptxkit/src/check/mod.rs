//! The semantic checker: what ptxas verifies after parsing, from the
//! catalog's data. Separate from the parser; it reads a parsed [`Module`].
//!
//! Passes: module rules ([`module_rules`]), symbols and calls ([`symbols`]),
//! version/target gating of instructions ([`gating`]).

pub mod gating;
pub mod module_rules;
pub mod rules;
pub mod symbols;
pub mod target;

use crate::diag::Diagnostic;
use crate::isa::PtxVersion;
use crate::syntax::{Instruction, Module};
use target::{Env, Sm};

/// Options of a check.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Check against this target (`sm_90a`) instead of the module's `.target`.
    pub target: Option<String>,
}

pub(crate) struct Checker<'o> {
    pub(crate) env: Env,
    pub(crate) diags: Vec<Diagnostic>,
    #[allow(dead_code)]
    opts: &'o CheckOptions,
}

/// Check a parsed module; diagnostics in source order.
pub fn check(m: &Module, opts: &CheckOptions) -> Vec<Diagnostic> {
    let ptx = m.version().and_then(|v| {
        Some(PtxVersion {
            major: u8::try_from(v.major).ok()?,
            minor: u8::try_from(v.minor).ok()?,
        })
    });
    let sm = match &opts.target {
        Some(t) => Sm::parse(t),
        None => m
            .target()
            .and_then(|t| t.arch())
            .and_then(|a| Sm::parse(a.as_str())),
    };
    let mut c = Checker {
        env: Env { ptx, sm },
        diags: Vec::new(),
        opts,
    };
    c.module_rules(m);
    let ms = c.module_scope(m);
    c.check_initializers(m, &ms);
    for f in m.functions() {
        c.check_function(f, &ms);
        if let Some(b) = &f.body {
            c.gate_stmts(&b.stmts);
            c.rules_block(b);
        }
    }
    c.diags.sort_by_key(|d| d.span.start);
    c.diags
}

/// `ld.global.u32`: the instruction's name with its modifiers.
pub(crate) fn inst_name(i: &Instruction) -> String {
    let mut s = i.opcode_name().to_string();
    for m in &i.mods {
        s.push_str(m.as_str());
    }
    s
}

/// Arithmetic, logic and move instructions with one data type for all
/// operands and a destination that must be a real register.
pub(crate) fn plain_arithmetic(op: &str) -> bool {
    matches!(
        op,
        "add"
            | "sub"
            | "mul"
            | "mad"
            | "div"
            | "rem"
            | "abs"
            | "neg"
            | "min"
            | "max"
            | "fma"
            | "rcp"
            | "sqrt"
            | "rsqrt"
            | "sin"
            | "cos"
            | "lg2"
            | "ex2"
            | "and"
            | "or"
            | "xor"
            | "not"
            | "cnot"
            | "selp"
            | "mov"
            | "copysign"
    )
}
