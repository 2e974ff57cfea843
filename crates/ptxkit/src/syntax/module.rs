//! The module: top-level directives and function bodies (spec 11).

use serde::Serialize;
use smallvec::SmallVec;

use super::{CallPrototype, Expr, Function, Instruction, IntLit, Name, TargetList, VarDecl};
use crate::isa::vocab::ScalarType;
use crate::source::Span;

/// A parsed PTX module.
#[derive(Clone, Debug, PartialEq, Serialize, Default)]
pub struct Module {
    /// Top-level items in source order.
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Item {
    /// `.version 8.5`
    Version(Version),
    /// `.target sm_90a, debug`
    Target(Target),
    /// `.address_size 64`
    AddressSize(AddressSize),
    /// `.file 1 "a.cu"`
    File(FileDirective),
    /// `.loc …` outside a function.
    Loc(Loc),
    /// `.section .debug_info { … }`
    Section(Section),
    /// `.pragma "…";`
    Pragma(Pragma),
    /// A module-scope variable.
    Var(VarDecl),
    /// A kernel or function.
    Function(Function),
    /// `.alias a, b;`
    Alias(Alias),
    /// `.nv_intermediate_source_section { .code_block { … } }` (PTX 9.4).
    IntermediateSource(IntermediateSource),
    /// Any other directive with simple arguments (`.language`, …).
    Directive(Directive),
    /// Text that could not be parsed (a diagnostic was reported for it).
    Error(Span),
}

impl Item {
    /// Where.
    pub fn span(&self) -> Span {
        match self {
            Item::Version(x) => x.span,
            Item::Target(x) => x.span,
            Item::AddressSize(x) => x.span,
            Item::File(x) => x.span,
            Item::Loc(x) => x.span,
            Item::Section(x) => x.span,
            Item::Pragma(x) => x.span,
            Item::Var(x) => x.span,
            Item::Function(x) => x.span,
            Item::Alias(x) => x.span,
            Item::IntermediateSource(x) => x.span,
            Item::Directive(x) => x.span,
            Item::Error(s) => *s,
        }
    }
}

/// `.version major.minor`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Version {
    /// Major.
    pub major: u32,
    /// Minor.
    pub minor: u32,
    /// Where.
    pub span: Span,
}

/// `.target a, b, c`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Target {
    /// The words (`sm_90a`, `texmode_independent`, `debug`, `map_f64_to_f32`).
    pub items: Vec<(Name, Span)>,
    /// Where.
    pub span: Span,
}

impl Target {
    /// The first `sm_*`/`compute_*` word.
    pub fn arch(&self) -> Option<Name> {
        self.items
            .iter()
            .map(|(n, _)| *n)
            .find(|n| n.as_str().starts_with("sm_") || n.as_str().starts_with("compute_"))
    }
}

/// `.address_size 32|64`
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AddressSize {
    /// Bits.
    pub bits: IntLit,
    /// Where.
    pub span: Span,
}

/// `.file 1 "name" {, timestamp, size}`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileDirective {
    /// File index.
    pub index: IntLit,
    /// The file name, quotes included as written.
    pub name: Name,
    /// Optional timestamp and size.
    pub extra: Vec<IntLit>,
    /// Where.
    pub span: Span,
}

/// `.loc file line col {, function_name lbl {+ off}} {, inlined_at f l c}`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Loc {
    /// File index.
    pub file: IntLit,
    /// Line.
    pub line: IntLit,
    /// Column.
    pub col: IntLit,
    /// `function_name label` (with an optional `+ offset` expression).
    pub function_name: Option<Expr>,
    /// `inlined_at file line col`.
    pub inlined_at: Option<[IntLit; 3]>,
    /// Where.
    pub span: Span,
}

/// A `.section` directive with its DWARF contents.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Section {
    /// The section name (`.debug_info`).
    pub name: Name,
    /// Its entries.
    pub entries: Vec<SectionEntry>,
    /// Where.
    pub span: Span,
}

/// One line of a `.section` body.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum SectionEntry {
    /// `name:`
    Label(Name, Span),
    /// `.b8 1, 2, 3` / `.b32 label - other` / `.b64 .debug_abbrev`
    Data {
        /// Element type.
        ty: ScalarType,
        /// Values. Most data lines hold one (`.b8 0`, the bulk of nvcc's
        /// debug sections), kept inline.
        values: SmallVec<[Expr; 1]>,
        /// Where.
        span: Span,
    },
    /// Consecutive lines `.b8 N` of one value each, written as a plain
    /// decimal byte (`0` to `255`, no leading zero, no suffix): the bulk of
    /// the debug sections of `-G` and `-lineinfo` modules, held one byte
    /// per line (a [`SectionEntry::Data`] line costs 56). Printed back as
    /// one `.b8 N` line per value; any other data line is a `Data` entry.
    Bytes {
        /// The values, one per line, in order.
        values: Vec<u8>,
        /// Where: from the first line's `.b8` to the last line's value.
        span: Span,
    },
    /// One `.b8` line of two or more values, each a plain decimal byte
    /// (`.b8 65, 66, 0`: how `.debug_str` writes a string), held a byte a
    /// value (a [`SectionEntry::Data`] value costs 32). Printed back as one
    /// line, the values separated by `, `.
    ByteList {
        /// The values, in order.
        values: Box<[u8]>,
        /// Where: from `.b8` to the last value.
        span: Span,
    },
}

/// The byte a `.b8` value written as `text` holds, when `text` is its
/// plain decimal spelling (what [`SectionEntry::Bytes`] holds): `0`,
/// `7`, `255`, but not `007`, `0x7`, `7U` or `256`.
pub fn plain_byte(text: &[u8]) -> Option<u8> {
    let plain = match text {
        [b'0'] => true,
        [b'1'..=b'9', rest @ ..] => rest.len() <= 2 && rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    if !plain {
        return None;
    }
    let v = text.iter().fold(0u32, |v, d| {
        v.saturating_mul(10)
            .saturating_add(u32::from(d.wrapping_sub(b'0')))
    });
    u8::try_from(v).ok()
}

/// Intermediate-language sources embedded in the module (PTX 9.4).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IntermediateSource {
    /// The `.code_block`s in order.
    pub blocks: Vec<CodeBlock>,
    /// Where.
    pub span: Span,
}

/// One `.code_block { .ir_name: "…" .sourceFileName: N .source_begin … .source_end }`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CodeBlock {
    /// `.ir_name`, quotes included as written.
    pub ir_name: Option<Name>,
    /// `.sourceFileName`: a `.file` index.
    pub file: Option<IntLit>,
    /// The raw text between `.source_begin` and `.source_end`, verbatim.
    pub source: Option<String>,
    /// Where.
    pub span: Span,
}

/// `.pragma "a", "b";`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pragma {
    /// The strings, quotes included as written.
    pub strings: Vec<Name>,
    /// Where.
    pub span: Span,
}

/// `.alias a, b;`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Alias {
    /// The alias.
    pub alias: Name,
    /// The aliased function.
    pub target: Name,
    /// Where.
    pub span: Span,
}

impl Alias {
    /// The directive that declares an alias.
    pub const KEYWORD: &'static str = ".alias";
}

/// A directive kept with its raw arguments.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Directive {
    /// The spelling, with its dot.
    pub name: Name,
    /// Its arguments.
    pub args: Vec<Expr>,
    /// Whether it ended with `;`.
    pub semi: bool,
    /// Where.
    pub span: Span,
}

/// `{ … }`: a function body or nested scope.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Block {
    /// Statements in order.
    pub stmts: Vec<Stmt>,
    /// Where, braces included.
    pub span: Span,
}

/// A statement of a function body.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Stmt {
    /// An instruction.
    Instruction(Instruction),
    /// `name:`
    Label(Name, Span),
    /// A local declaration (`.reg`, `.local`, `.shared`, `.param`).
    Var(Box<VarDecl>),
    /// A nested scope.
    Block(Block),
    /// `.loc …`
    Loc(Box<Loc>),
    /// `.pragma "…";`
    Pragma(Pragma),
    /// `label: .callprototype …;`
    CallPrototype(Box<CallPrototype>),
    /// `label: .calltargets …;`
    CallTargets(TargetList),
    /// `label: .branchtargets …;`
    BranchTargets(TargetList),
    /// Any other directive.
    Directive(Directive),
    /// `.target …` inside a body (ptxas 13.5 takes it there, and checks
    /// it as at module scope).
    Target(Target),
    /// A function declared in a body (`.extern .func f(…);`: a prototype,
    /// never a definition). ptxas 13.5 takes it there and declares the
    /// function from that point for the rest of the module, as if at
    /// module scope.
    Function(Box<Function>),
    /// Text that could not be parsed.
    Error(Span),
}

impl Stmt {
    /// Where.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Instruction(x) => x.span,
            Stmt::Label(_, s) | Stmt::Error(s) => *s,
            Stmt::Var(x) => x.span,
            Stmt::Block(x) => x.span,
            Stmt::Loc(x) => x.span,
            Stmt::Pragma(x) => x.span,
            Stmt::CallPrototype(x) => x.span,
            Stmt::CallTargets(x) | Stmt::BranchTargets(x) => x.span,
            Stmt::Directive(x) => x.span,
            Stmt::Target(x) => x.span,
            Stmt::Function(x) => x.span,
        }
    }
}

impl Module {
    /// Kernels and functions, declarations included.
    pub fn functions(&self) -> impl Iterator<Item = &Function> {
        self.items.iter().filter_map(|i| match i {
            Item::Function(f) => Some(f),
            _ => None,
        })
    }

    /// The `.version` directive.
    pub fn version(&self) -> Option<&Version> {
        self.items.iter().find_map(|i| match i {
            Item::Version(v) => Some(v),
            _ => None,
        })
    }

    /// The `.target` directive.
    pub fn target(&self) -> Option<&Target> {
        self.items.iter().find_map(|i| match i {
            Item::Target(v) => Some(v),
            _ => None,
        })
    }

    /// The `.address_size`, 32 when not written (the ISA's default).
    pub fn address_size(&self) -> u64 {
        self.items
            .iter()
            .find_map(|i| match i {
                Item::AddressSize(a) => Some(a.bits.value),
                _ => None,
            })
            .unwrap_or(32)
    }

    /// Module-scope variables.
    pub fn globals(&self) -> impl Iterator<Item = &VarDecl> {
        self.items.iter().filter_map(|i| match i {
            Item::Var(v) => Some(v),
            _ => None,
        })
    }
}

impl Block {
    /// Every instruction in the block and its nested blocks, in order.
    pub fn instructions(&self) -> Vec<&Instruction> {
        let mut out = Vec::new();
        fn walk<'a>(b: &'a Block, out: &mut Vec<&'a Instruction>) {
            for s in &b.stmts {
                match s {
                    Stmt::Instruction(i) => out.push(i),
                    Stmt::Block(inner) => walk(inner, out),
                    _ => {}
                }
            }
        }
        walk(self, &mut out);
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn plain_bytes_are_the_decimal_spellings_of_0_to_255() {
        for v in 0..=255u8 {
            assert_eq!(plain_byte(v.to_string().as_bytes()), Some(v));
        }
        for t in ["", "00", "007", "0x7", "7U", "256", "1000", "-1", "1a"] {
            assert_eq!(plain_byte(t.as_bytes()), None, "{t}");
        }
    }

    /// Plain one-value `.b8` lines run together; every other data line
    /// stays a `Data` entry; both print back to a tree equal to the first.
    #[test]
    fn runs_of_plain_bytes() {
        let src = ".version 8.0\n.target sm_90\n.address_size 64\n\
                   .section .debug_info\n{\n\
                   .b8 1\n.b8 0 // comment\n.b8 255\n\
                   .b8 007\n.b8 0x7\n.b8 1, 2\n.b8 1+1\n\
                   .b8 65, 0x42, 67\n.b8 68, 69+1\n.b8 255,0 , 7 // c\n\
                   .b8 9\nL1:\n.b8 8\n.b32 7\n.b8 6\n}\n";
        let m = crate::parse(src.as_bytes()).module;
        let Some(Item::Section(s)) = m.items.last() else {
            panic!("{:?}", m.items)
        };
        let shape: Vec<String> = s
            .entries
            .iter()
            .map(|e| match e {
                SectionEntry::Label(n, _) => format!("{n}:"),
                SectionEntry::Data { values, .. } => format!("data{}", values.len()),
                SectionEntry::Bytes { values, span } => {
                    format!("bytes{values:?}@{}", span.text(src.as_bytes()))
                }
                SectionEntry::ByteList { values, span } => {
                    format!("list{values:?}@{}", span.text(src.as_bytes()))
                }
            })
            .collect();
        assert_eq!(
            shape,
            [
                "bytes[1, 0, 255]@.b8 1\n.b8 0 // comment\n.b8 255",
                "data1",
                "data1",
                "list[1, 2]@.b8 1, 2",
                "data1",
                "data3",
                "data2",
                "list[255, 0, 7]@.b8 255,0 , 7",
                "bytes[9]@.b8 9",
                "L1:",
                "bytes[8]@.b8 8",
                "data1",
                "bytes[6]@.b8 6",
            ]
        );
        let canon = crate::print::canonical(&m);
        assert!(canon.contains("\t.b8 1\n\t.b8 0\n\t.b8 255\n"), "{canon}");
        assert!(canon.contains("\t.b8 255, 0, 7\n"), "{canon}");
        assert!(canon.contains("\t.b8 65, 0x42, 67\n"), "{canon}");
        assert_eq!(crate::parse(canon.as_bytes()).module, m);
    }
}
