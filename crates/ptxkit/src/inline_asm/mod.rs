//! Inline PTX: the `asm(...)` statements of CUDA C++ sources, found and
//! checked like PTX files.
//!
//! [`find`] reads every GNU-style statement (`asm`, `__asm__`, `__asm`,
//! with `volatile`, `inline`, `goto`) out of C++ text, comments and other
//! literals skipped; [`check_source`] turns each statement whose template
//! is literal into a small PTX module (`fragment.rs`), checks it against the
//! selected targets with [`crate::check::check`], and maps every
//! diagnostic back to the line and column inside the C++ string literal.
//! [`Incremental`] checks a source again after an edit, judging only the
//! statements the edit changed (what the language server does).
//! How the operands become registers and how targets are chosen is in
//! `docs/inline-asm.md`.
//!
//! ```
//! let src = br#"
//! __device__ int add(int a, int b) {
//!   int c;
//!   asm("add.s32 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
//!   asm("add.s23 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
//!   return c;
//! }"#;
//! let targets = ["sm_80".to_string(), "sm_90".to_string()];
//! let checked = ptxkit::inline_asm::check_source(src, &targets);
//! assert_eq!(checked.len(), 2);
//! use ptxkit::inline_asm::Verdict;
//! assert!(matches!(&checked[0].verdict, Verdict::Valid { targets } if targets.len() == 2));
//! let Verdict::Invalid { diagnostics, .. } = &checked[1].verdict else { panic!() };
//! // Reported inside the C++ literal, on line 5.
//! let lines = ptxkit::LineIndex::new(src);
//! assert_eq!(lines.line_col(diagnostics[0].span.start).line, 5);
//! ```

mod cond_expr;
mod cpp_lex;
mod finder;
mod fragment;
mod guard;
mod incremental;
mod literal;
mod macros;
mod passes;
mod pp;
mod verdict;

pub use finder::{find, AsmOperand, AsmStatement, Template};
pub use guard::{check_file, check_file_each, FileCheck, Guard, NotCompiled, Options, Outcome};
pub use incremental::Incremental;
pub use verdict::{judge, Verdict};

use crate::check::target::{Sm, Suffix};

/// Every target the catalog knows (`isa/module.ptxisa`), oldest first
/// (by number, then plain, family, arch-specific).
pub fn all_targets() -> Vec<String> {
    let mut ts: Vec<(Sm, String)> = crate::check::module_data::data()
        .targets
        .iter()
        .filter_map(|(t, _)| Sm::parse(t).map(|sm| (sm, t.clone())))
        .collect();
    ts.sort_by_key(|(sm, _)| (sm.num, sm.suffix));
    ts.into_iter().map(|(_, t)| t).collect()
}

/// Whether `t` names a target the catalog knows.
pub fn known_target(t: &str) -> bool {
    crate::check::module_data::data().min_ptx_for(t).is_some()
}

/// A target's parts, for grouping in reports.
pub fn parse_target(t: &str) -> Option<(u32, char)> {
    Sm::parse(t).map(|s| {
        (
            s.num,
            match s.suffix {
                Suffix::None => ' ',
                Suffix::Family => 'f',
                Suffix::Arch => 'a',
            },
        )
    })
}

/// One statement and what the check found.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The statement (as the first pass that compiles it reads it).
    pub statement: AsmStatement,
    /// Its verdict (over every way it is compiled).
    pub verdict: Verdict,
    /// The conditional compilation around it and the targets it is
    /// compiled for.
    pub guard: Guard,
    /// The macros expanded to read it.
    pub expanded: Vec<String>,
    /// How many distinct readings its inner `#if` groups give.
    pub variants: usize,
    /// What was assumed (an `"n"` operand whose value is not known…).
    pub notes: Vec<String>,
    /// For an invalid statement, the reading whose diagnostics are
    /// reported when it is not `statement` (its `#if` branches differ);
    /// `None` when it is (boxed, as it is rare and a statement is 176
    /// bytes).
    pub rejected: Option<Box<AsmStatement>>,
}

/// The PTX module a statement is checked as, for `target` (`"n"`
/// operands whose value is not known written as 1); `None` when its
/// template is not known. Useful to reproduce a verdict with `ptxas`.
pub fn fragment_ptx(stmt: &AsmStatement, target: &str) -> Option<String> {
    let Template::Literal(t) = &stmt.template else {
        return None;
    };
    let f = fragment::build(stmt, t, &|_| 1);
    Some(
        f.ptx
            .replacen(".target sm_90\n", &format!(".target {target}\n"), 1),
    )
}

/// Find and check every `asm` statement of a C++ source against
/// `targets` (an empty list means [`all_targets`]), each against the
/// targets its `#if` guards compile it for ([`check_file`] with no path
/// and no include directories; statements no selected target compiles
/// are left out). A source larger than [`crate::MAX_FILE_SIZE`] yields
/// nothing (callers report the size).
pub fn check_source(src: &[u8], targets: &[String]) -> Vec<Checked> {
    check_file(
        src,
        &Options {
            targets: targets.to_vec(),
            ..Options::default()
        },
    )
    .checked
}
