//! Declarations: variables, parameters, functions (spec 5.4, 7, 11).

use serde::Serialize;

use super::{Block, Expr, IntLit, Name};
use crate::isa::vocab::{Linkage, ScalarType, StateSpace};
use crate::source::Span;

/// A variable initializer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Initializer {
    /// A single value.
    Expr(Expr),
    /// `{ a, b, { c, d } }`.
    List {
        /// The items (a boxed slice, not a `Vec`: two words less lets the
        /// list sit beside an [`Expr`]'s tag, so an item is 32 bytes, not
        /// 40). Items written as plain decimal integers come in
        /// [`Initializer::Decimals`] runs; [`Initializer::element_count`]
        /// counts the elements. In JSON the runs are spread out, each
        /// element an `Expr` `Int` like any other literal.
        #[serde(serialize_with = "spread_runs")]
        items: Box<[Initializer]>,
        /// Where.
        span: Span,
    },
    /// Consecutive items of a list written as plain decimal integers
    /// (`202, 29, 180`, no leading zero, no `U`): the long byte arrays of
    /// constant tables, at 12 bytes an element rather than the 32 of an
    /// [`Initializer::Expr`]. Only found among a list's items, and never
    /// empty: the parser puts every such item in a run.
    Decimals(Box<[DecimalItem]>),
    /// `field = value` inside a sampler/texture initializer (boxed: rare,
    /// and it would make every item of a long byte array bigger).
    Field(Box<FieldInit>),
}

/// One element of an [`Initializer::Decimals`] run: a plain decimal
/// literal's value and where it starts (its text is the value's decimal
/// digits, so that is where it ends too).
#[derive(Clone, Copy)]
pub struct DecimalItem {
    start: u32,
    /// The value in two halves, so the item aligns to 4 bytes and a run
    /// takes 12 bytes an element.
    value: [u32; 2],
}

impl DecimalItem {
    /// The element of `value`, written at `start` with no leading zero.
    #[inline]
    pub fn new(value: u64, start: u32) -> DecimalItem {
        DecimalItem {
            start,
            value: [value as u32, (value >> 32) as u32],
        }
    }

    /// The element for `lit`, if it is written as a plain decimal (its span
    /// is exactly the value's digits).
    pub fn from_lit(lit: &IntLit) -> Option<DecimalItem> {
        let plain = lit.radix == super::Radix::Dec
            && !lit.unsigned
            && !lit.span.is_synthetic()
            && lit.span.len() == decimal_digits(lit.value);
        plain.then(|| DecimalItem::new(lit.value, lit.span.start))
    }

    /// The value.
    #[inline]
    pub fn value(&self) -> u64 {
        u64::from(self.value[0]) | (u64::from(self.value[1]) << 32)
    }

    /// Where.
    pub fn span(&self) -> Span {
        Span::new(
            self.start,
            self.start.saturating_add(decimal_digits(self.value())),
        )
    }

    /// The element as the literal the token path makes of it.
    pub fn lit(&self) -> IntLit {
        IntLit {
            value: self.value(),
            radix: super::Radix::Dec,
            unsigned: false,
            span: self.span(),
        }
    }
}

impl std::fmt::Debug for DecimalItem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecimalItem")
            .field("value", &self.value())
            .field("span", &self.span())
            .finish()
    }
}

/// Like every node's, equality ignores where the element is.
impl PartialEq for DecimalItem {
    fn eq(&self, other: &DecimalItem) -> bool {
        self.value == other.value
    }
}

impl Serialize for DecimalItem {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.lit().serialize(s)
    }
}

/// How many decimal digits `v` is written with.
fn decimal_digits(v: u64) -> u32 {
    v.checked_ilog10().map_or(1, |l| l.saturating_add(1))
}

/// How many elements a list's `items` stand for (runs counted by their
/// elements).
fn elements(items: &[Initializer]) -> u64 {
    items
        .iter()
        .map(Initializer::element_count)
        .fold(0u64, u64::saturating_add)
}

/// A list's items in JSON: each element of a [`Initializer::Decimals`] run
/// as the `Expr` `Int` item it was written as (inside a compact
/// [`crate::json::Document`], as the bare integer).
fn spread_runs<S: serde::Serializer>(items: &[Initializer], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(usize::try_from(elements(items)).ok())?;
    for i in items {
        match i {
            Initializer::Decimals(run) => {
                let bare = crate::json::compact();
                for d in run.iter() {
                    let lit = d.lit();
                    if bare {
                        seq.serialize_element(&lit.value)?;
                    } else {
                        seq.serialize_element(&Initializer::Expr(Expr::Int(lit)))?;
                    }
                }
            }
            _ => seq.serialize_element(i)?,
        }
    }
    seq.end()
}

/// `field = value` inside a sampler/texture initializer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldInit {
    /// The member name (`filter_mode`).
    pub name: Name,
    /// The value.
    pub value: Expr,
    /// Where.
    pub span: Span,
}

impl Initializer {
    /// Where.
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span(),
            Initializer::List { span, .. } => *span,
            Initializer::Decimals(run) => match (run.first(), run.last()) {
                (Some(a), Some(b)) => a.span().to(b.span()),
                _ => Span::SYNTHETIC,
            },
            Initializer::Field(f) => f.span,
        }
    }

    /// How many elements this stands for in a list: a run's length, 1 for
    /// anything else (a nested list is one element of its parent).
    pub fn element_count(&self) -> u64 {
        match self {
            Initializer::Decimals(run) => run.len() as u64,
            _ => 1,
        }
    }

    /// A list's length in elements (runs counted by their elements); `None`
    /// if this is not a list.
    pub fn list_len(&self) -> Option<u64> {
        match self {
            Initializer::List { items, .. } => Some(elements(items)),
            _ => None,
        }
    }
}

/// One declared name of a declaration statement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Declarator {
    /// The name.
    pub name: Name,
    /// Where the name is.
    pub name_span: Span,
    /// `%r<100>`: a parameterised range of registers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<IntLit>,
    /// Array dimensions: `[4][8]`; `None` for an unsized `[]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dims: Vec<Option<Expr>>,
    /// `= value`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub init: Option<Initializer>,
    /// Where, name to end of initializer.
    pub span: Span,
}

/// `.attribute(.managed)` and similar.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attribute {
    /// Attribute spellings, with their dots.
    pub names: Vec<Name>,
    /// Where.
    pub span: Span,
}

/// A variable declaration: `.global .align 4 .u32 a, b[4] = {…};`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VarDecl {
    /// `.extern`, `.visible`, `.weak`, `.common`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linkage: Option<Linkage>,
    /// The state space.
    pub space: StateSpace,
    /// `.const[2]`-style bank (old PTX).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank: Option<IntLit>,
    /// `.attribute(…)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute: Option<Attribute>,
    /// `.align N`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub align: Option<IntLit>,
    /// `.v2`, `.v4`, `.v8`: vector length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vector: Option<u8>,
    /// Element type.
    pub ty: ScalarType,
    /// Declared names.
    pub decls: Vec<Declarator>,
    /// Where, `;` included.
    pub span: Span,
}

/// `.ptr .global .align 16` on a kernel parameter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PtrAttr {
    /// The state space pointed to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub space: Option<StateSpace>,
    /// Alignment of the pointee.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub align: Option<IntLit>,
    /// Where.
    pub span: Span,
}

/// A function or kernel parameter (or a `.func` return value).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Param {
    /// `.hidden` (Triton marks its TMA descriptor parameters so).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// `.param` or `.reg`.
    pub space: StateSpace,
    /// `.align N`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub align: Option<IntLit>,
    /// `.v2`/`.v4`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vector: Option<u8>,
    /// The type.
    pub ty: ScalarType,
    /// `.ptr …` attributes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ptr: Option<PtrAttr>,
    /// The name (may be absent in prototypes: `.param .b32 _` uses `_`).
    pub name: Name,
    /// Where the name is.
    pub name_span: Span,
    /// Array dimensions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dims: Vec<Option<Expr>>,
    /// Where.
    pub span: Span,
}

/// `.entry` or `.func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum FuncKind {
    /// A kernel.
    Entry,
    /// A device function.
    Func,
}

/// A performance or ABI directive between a function's header and body:
/// `.maxntid 256, 1, 1`, `.noreturn`, `.pragma "nounroll";`…
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FuncDirective {
    /// The directive spelling, with its dot.
    pub name: Name,
    /// Numeric arguments.
    pub args: Vec<IntLit>,
    /// String arguments (`.pragma`).
    pub strings: Vec<Name>,
    /// Where.
    pub span: Span,
}

/// A kernel or function declaration or definition.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Function {
    /// Linkage.
    pub linkage: Option<Linkage>,
    /// `.entry` or `.func`.
    pub kind: FuncKind,
    /// Return parameters of a `.func`, if written.
    pub rets: Option<Vec<Param>>,
    /// The name.
    pub name: Name,
    /// Where the name is.
    pub name_span: Span,
    /// Parameters, if a parameter list was written.
    pub params: Option<Vec<Param>>,
    /// Performance directives, in order.
    pub directives: Vec<FuncDirective>,
    /// The body; `None` for a declaration (prototype ending in `;`).
    pub body: Option<Block>,
    /// Where, from linkage to `}` or `;`.
    pub span: Span,
}

impl Function {
    /// Whether this is a kernel.
    pub fn is_kernel(&self) -> bool {
        self.kind == FuncKind::Entry
    }

    /// The parameters (empty when none were written).
    pub fn params(&self) -> &[Param] {
        self.params.as_deref().unwrap_or_default()
    }

    /// The directive named `name` (with dot), if present.
    pub fn directive(&self, name: &str) -> Option<&FuncDirective> {
        self.directives.iter().find(|d| d.name.as_str() == name)
    }
}

/// `label: .callprototype (.param .b32 _) _ (.param .b64 _);`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallPrototype {
    /// The label that names it.
    pub label: Name,
    /// Return parameters.
    pub rets: Option<Vec<Param>>,
    /// Parameters.
    pub params: Option<Vec<Param>>,
    /// `.noreturn`.
    pub noreturn: bool,
    /// `.abi_preserve N`, `.abi_preserve_control N` (PTX 9.0), after any
    /// `.noreturn`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub directives: Vec<FuncDirective>,
    /// Where.
    pub span: Span,
}

/// `label: .calltargets f, g;` or `label: .branchtargets L1, L2;`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TargetList {
    /// The label that names it.
    pub label: Name,
    /// The functions or labels.
    pub targets: Vec<(Name, Span)>,
    /// Where.
    pub span: Span,
}
