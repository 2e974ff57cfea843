//! The tree as self-describing JSON.
//!
//! Every node serialises with serde. Instructions are written by name, not
//! by catalog id: the opcode, the matched form (its name and catalog
//! syntax), each modifier with the group whose slot it fills, and each
//! operand with its role, direction, the kinds the role takes, the kind
//! written, and its canonical text. Types, state spaces and linkages are
//! their spellings (`".u32"`).
//!
//! A [`Document`] (what `ptx ast --json` prints) is compact, so that it
//! stays within a small multiple of the source's size: spans are
//! `[start, end]` byte offsets, and the document's `line_starts` (the byte
//! offset of each line) turns them into lines and columns; facts that
//! follow from the catalog (an operand's direction and kinds, the form's
//! syntax) or from other fields (the canonical text of an instruction) are
//! left out, as are absent guards and roles. [`Document::lines`] writes the
//! same document as JSON Lines, one top-level item per line.
//!
//! Outside a document, spans are `{"start", "end"}`, and inside
//! [`with_positions`] they also carry 1-based `line`, `col`, `end_line` and
//! `end_col` (columns in bytes).
//!
//! The document's shapes are described by the JSON Schema in
//! `docs/ast.schema.json` (version [`SCHEMA_VERSION`]).
//!
//! ```
//! let src = b".version 8.0\n.target sm_90\n.entry k() {\n .reg .b32 %r<2>;\n mov.u32 %r1, 7;\n ret;\n}\n";
//! let m = ptxkit::parse(src).module;
//! let v = serde_json::to_value(ptxkit::json::Document::new(&m, src)).unwrap();
//! assert_eq!(v["schema_version"], ptxkit::json::SCHEMA_VERSION);
//! let mov = &v["module"]["items"][2]["Function"]["body"]["stmts"][1]["Instruction"];
//! assert_eq!(mov["opcode"], "mov");
//! assert_eq!(mov["mods"][0][0], ".u32");
//! assert_eq!(mov["mods"][0][1], "type");
//! assert_eq!(mov["operands"][0]["role"], "d");
//! assert_eq!(mov["operands"][1]["kind"], "immediate");
//! // The span's start, and the line it is on (1-based).
//! let start = mov["span"][0].as_u64().unwrap();
//! let starts = v["line_starts"].as_array().unwrap();
//! assert_eq!(starts.iter().filter(|s| s.as_u64().unwrap() <= start).count(), 5);
//! ```

use std::cell::RefCell;
use std::rc::Rc;

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::isa::{catalog, Dir, Kinds, OperandTpl, SlotKind};
use crate::source::{LineCol, LineIndex, Span};
use crate::syntax::{AddressAt, Expr, Instruction, Modifier, Module, Operand};

/// The version of the JSON shapes (`schema_version` of a [`Document`]);
/// raised when a shape changes incompatibly (2: compact spans and
/// instructions, `line_starts`; operands may be array elements, kind
/// `element`; 3: declarations and parameters leave out the parts not
/// written — `null`, `false` and `[]` — instead of writing them; 4:
/// consecutive `.b8 N` lines of a `.section`, N a plain decimal byte, are
/// one `Bytes` entry of values instead of a `Data` entry each; 5: a run of
/// more than [`crate::syntax::CHAIN_MIN`] binary operators is one `Chain`
/// expression, `{"first", "links": [{"op", "rhs"}…], "span"}`, instead of
/// `Binary` nodes nested as deep as the run is long).
pub const SCHEMA_VERSION: u32 = 5;

/// How spans (and instructions) are written while a tree serialises.
#[derive(Clone)]
enum Style {
    /// `{"start", "end", "line", "col", "end_line", "end_col"}`.
    Positions(Rc<LineIndex>),
    /// A [`Document`]'s: `[start, end]`, compact instructions.
    Compact,
}

thread_local! {
    /// The style spans are written in while a document is written.
    static STYLE: RefCell<Option<Style>> = const { RefCell::new(None) };
    /// Whether `STYLE` is `Compact`, kept apart: asked for every node.
    static COMPACT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Restores the previous style when dropped.
struct Installed(Option<Style>);

impl Installed {
    fn new(style: Style) -> Installed {
        COMPACT.with(|c| c.set(matches!(style, Style::Compact)));
        Installed(STYLE.with(|l| l.replace(Some(style))))
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let prev = self.0.take();
        COMPACT.with(|c| c.set(matches!(prev, Some(Style::Compact))));
        STYLE.with(|l| *l.borrow_mut() = prev);
    }
}

/// Run `f` (which serialises tree nodes) with spans written with lines and
/// columns from `lines`.
pub fn with_positions<R>(lines: &LineIndex, f: impl FnOnce() -> R) -> R {
    let _installed = Installed::new(Style::Positions(Rc::new(lines.clone())));
    f()
}

/// Whether a [`Document`] is being written.
pub(crate) fn compact() -> bool {
    COMPACT.with(std::cell::Cell::get)
}

/// The line and column of a span's two ends, while positions are on.
fn positions(span: Span) -> Option<(LineCol, LineCol)> {
    if span.is_synthetic() {
        return None;
    }
    STYLE.with(|l| match &*l.borrow() {
        Some(Style::Positions(ix)) => Some((ix.line_col(span.start), ix.line_col(span.end))),
        _ => None,
    })
}

/// A module as a compact JSON document: `{"schema_version": 4,
/// "line_starts": […], "module": {…}}`, spans as `[start, end]`.
pub struct Document<'a> {
    module: &'a Module,
    lines: LineIndex,
}

impl<'a> Document<'a> {
    /// The document of `module`, parsed from `src`.
    pub fn new(module: &'a Module, src: &[u8]) -> Document<'a> {
        Document::with_lines(module, LineIndex::new(src))
    }

    /// The document of `module` whose source's lines are `lines`.
    pub fn with_lines(module: &'a Module, lines: LineIndex) -> Document<'a> {
        Document { module, lines }
    }

    /// The document as JSON Lines: `{"schema_version", "line_starts"}`,
    /// then each of the module's items (`{"Function": …}`, …) as it would
    /// appear in `module.items`, one per line.
    pub fn lines(&self) -> impl Iterator<Item = Line<'_>> {
        std::iter::once(Line::Header(self)).chain(self.module.items.iter().map(Line::Item))
    }
}

/// One line of a document written as JSON Lines ([`Document::lines`]).
pub enum Line<'a> {
    /// `{"schema_version", "line_starts"}`.
    Header(&'a Document<'a>),
    /// One top-level item.
    Item(&'a crate::syntax::Item),
}

impl Serialize for Line<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let _installed = Installed::new(Style::Compact);
        match self {
            Line::Header(d) => {
                let mut st = s.serialize_struct("Header", 2)?;
                st.serialize_field("schema_version", &SCHEMA_VERSION)?;
                st.serialize_field("line_starts", d.lines.starts())?;
                st.end()
            }
            Line::Item(i) => i.serialize(s),
        }
    }
}

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let _installed = Installed::new(Style::Compact);
        let mut st = s.serialize_struct("Document", 3)?;
        st.serialize_field("schema_version", &SCHEMA_VERSION)?;
        st.serialize_field("line_starts", self.lines.starts())?;
        st.serialize_field("module", self.module)?;
        st.end()
    }
}

/// `[start, end]` inside a [`Document`]; elsewhere `{"start", "end"}`,
/// plus `line`, `col`, `end_line`, `end_col` while positions are on
/// ([`with_positions`]).
impl Serialize for Span {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if compact() {
            return (self.start, self.end).serialize(s);
        }
        let at = positions(*self);
        let mut st = s.serialize_struct("Span", if at.is_some() { 6 } else { 2 })?;
        st.serialize_field("start", &self.start)?;
        st.serialize_field("end", &self.end)?;
        if let Some((a, b)) = at {
            st.serialize_field("line", &a.line)?;
            st.serialize_field("col", &a.col)?;
            st.serialize_field("end_line", &b.line)?;
            st.serialize_field("end_col", &b.col)?;
        }
        st.end()
    }
}

/// `{"value", "radix", "unsigned", "span"}`; in a [`Document`], `radix`
/// only when not `Dec` and `unsigned` only when true.
impl Serialize for crate::syntax::IntLit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use crate::syntax::Radix;
        let short = compact();
        let mut st = s.serialize_struct("IntLit", 4)?;
        st.serialize_field("value", &self.value)?;
        if !short || self.radix != Radix::Dec {
            st.serialize_field("radix", &self.radix)?;
        }
        if !short || self.unsigned {
            st.serialize_field("unsigned", &self.unsigned)?;
        }
        st.serialize_field("span", &self.span)?;
        st.end()
    }
}

/// `{"span": …, "suffix": ".unified" | null}` (in a [`Document`], no
/// `suffix` when there is none).
impl Serialize for AddressAt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let suffix = self.suffix().map(|m| catalog().mod_name(m));
        let mut st = s.serialize_struct("AddressAt", 2)?;
        st.serialize_field("span", &self.span())?;
        if suffix.is_some() || !compact() {
            st.serialize_field("suffix", &suffix)?;
        }
        st.end()
    }
}

/// A modifier with the group it fills in its instruction's form.
struct NamedMod<'a> {
    m: &'a Modifier,
    group: Option<&'static str>,
}

/// `{"name", "group", "span"}`; in a [`Document`] `[name, group, span]`.
impl Serialize for NamedMod<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if compact() {
            return (self.m.as_str(), self.group, self.m.span()).serialize(s);
        }
        let mut st = s.serialize_struct("Modifier", 3)?;
        st.serialize_field("name", self.m.as_str())?;
        st.serialize_field("group", &self.group)?;
        st.serialize_field("span", &self.m.span())?;
        st.end()
    }
}

/// A modifier outside an instruction: `{"name", "span"}`.
impl Serialize for Modifier {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        NamedMod {
            m: self,
            group: None,
        }
        .serialize(s)
    }
}

/// An operand with the role it is bound to.
struct RoleOperand<'a> {
    tpl: Option<&'static OperandTpl>,
    op: &'a Operand,
}

/// In a [`Document`], `{"role", "kind", "text", "span", "value"}` without
/// the catalog's facts about the role (`dir`, `kinds`), `role` only when
/// the operand has one, and `value` only when it is more than the name
/// `text` spells.
impl Serialize for RoleOperand<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if compact() {
            let mut st = s.serialize_struct("Operand", 5)?;
            if let Some(t) = self.tpl {
                st.serialize_field("role", t.role)?;
            }
            // `register`, the most common kind, is the default.
            let kind = written_kind(self.op);
            if kind != "register" {
                st.serialize_field("kind", kind)?;
            }
            match self.op {
                Operand::Expr(Expr::Name(n, span)) => {
                    st.serialize_field("text", n)?;
                    st.serialize_field("span", span)?;
                }
                op => {
                    st.serialize_field("text", &crate::print::operand_text(op))?;
                    st.serialize_field("span", &op.span())?;
                    st.serialize_field("value", op)?;
                }
            }
            return st.end();
        }
        let spec = self.tpl.and_then(|t| catalog().role(t.spec));
        let mut st = s.serialize_struct("Operand", 7)?;
        st.serialize_field("role", &self.tpl.map(|t| t.role))?;
        st.serialize_field(
            "dir",
            &spec.map(|r| match r.dir {
                Dir::In => "in",
                Dir::Out => "out",
                Dir::InOut => "inout",
            }),
        )?;
        st.serialize_field("kinds", &KindNames(spec.map_or(Kinds(0), |r| r.kinds)))?;
        st.serialize_field("kind", written_kind(self.op))?;
        st.serialize_field("text", &crate::print::operand_text(self.op))?;
        st.serialize_field("span", &self.op.span())?;
        st.serialize_field("value", self.op)?;
        st.end()
    }
}

/// The names of a set of kinds, as the catalog spells them.
struct KindNames(Kinds);

impl Serialize for KindNames {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let names: Vec<&str> = Kinds::NAMES
            .iter()
            .filter(|(_, k)| self.0.has(*k))
            .map(|(n, _)| *n)
            .collect();
        let mut seq = s.serialize_seq(Some(names.len()))?;
        for n in names {
            seq.serialize_element(n)?;
        }
        seq.end()
    }
}

/// What an operand is, as written: `register`, `special_register`,
/// `symbol` (a variable, label or function), `sink`, `immediate` (a literal
/// or constant expression), `expression`, `address`, `pair`, `vector`,
/// `tuple`, `list` or `element` (an array element, `arr[i]`).
pub fn written_kind(o: &Operand) -> &'static str {
    match o {
        Operand::Expr(Expr::Index { .. }) => "element",
        Operand::Expr(e) => expr_kind(e),
        Operand::Pair(_) => "pair",
        Operand::Address { .. } => "address",
        Operand::Tuple { .. } => "tuple",
        Operand::Vector { .. } => "vector",
        Operand::List { .. } => "list",
    }
}

fn expr_kind(e: &Expr) -> &'static str {
    let sreg = |n: &crate::syntax::Name| catalog().special_register(n.as_str()).is_some();
    match e {
        Expr::Name(n, _) if n.is_sink() => "sink",
        Expr::Name(n, _) => named_kind(n, sreg(n), "symbol"),
        Expr::Field(f) => match &f.base {
            Expr::Name(n, _) => named_kind(n, sreg(n), "expression"),
            _ => "expression",
        },
        Expr::Int(_) | Expr::Float(_) => "immediate",
        _ => {
            let mut named = false;
            e.for_each_name(&mut |_, _| named = true);
            if named {
                "expression"
            } else {
                "immediate"
            }
        }
    }
}

/// The kind of a name that is a special register (`sreg`) or not: a
/// register when it starts with `%`, `other` when it does not.
#[inline]
fn named_kind(n: &crate::syntax::Name, sreg: bool, other: &'static str) -> &'static str {
    if sreg {
        "special_register"
    } else if n.as_bytes().first() == Some(&b'%') {
        "register"
    } else {
        other
    }
}

/// The matched form: `{"name", "syntax"}`.
struct FormRef(&'static crate::isa::Form);

impl Serialize for FormRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Form", 2)?;
        st.serialize_field("name", self.0.name)?;
        st.serialize_field("syntax", self.0.text)?;
        st.end()
    }
}

/// An instruction's modifiers, each with the group it fills in the
/// matched form `form`, written as a sequence of [`NamedMod`].
struct Mods<'a> {
    inst: &'a Instruction,
    form: Option<&'static crate::isa::Form>,
}

impl Serialize for Mods<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cat = catalog();
        let mut seq = s.serialize_seq(Some(self.inst.mods.len()))?;
        for m in &self.inst.mods {
            let group = m
                .slot()
                .and_then(|k| self.form.and_then(|f| f.slots.get(k)))
                .and_then(|slot| match slot.kind {
                    SlotKind::Group(g) => cat.group(g).map(|g| g.name),
                    SlotKind::Lit(_) => None,
                });
            seq.serialize_element(&NamedMod { m, group })?;
        }
        seq.end()
    }
}

/// An instruction's operands, each with the role of the matched form
/// `form` it is bound to ([`Instruction::roles`]), written as a sequence
/// of [`RoleOperand`].
struct Operands<'a> {
    inst: &'a Instruction,
    form: Option<&'static crate::isa::Form>,
}

impl Serialize for Operands<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let present = self.inst.present;
        // The roles present, in order, as `Instruction::roles` pairs them.
        let mut roles = self
            .form
            .map_or(&[][..], |f| f.operands)
            .iter()
            .enumerate()
            .filter(move |(i, _)| {
                u32::try_from(*i)
                    .ok()
                    .and_then(|i| 1u32.checked_shl(i))
                    .is_some_and(|b| present & b != 0)
            })
            .map(|(_, t)| t);
        let mut seq = s.serialize_seq(Some(self.inst.operands.len()))?;
        for op in &self.inst.operands {
            seq.serialize_element(&RoleOperand {
                tpl: roles.next(),
                op,
            })?;
        }
        seq.end()
    }
}

/// In a [`Document`]: `opcode`, `opcode_span` (left out when it is the
/// opcode's letters at the start of `span`), `form` (the matched form's
/// name; left out when it is the opcode, null when none matched), `mods` (`[name,
/// group, span]`), `operands` (`kind` left out for `register`), `span`,
/// and `guard` when there is one. Elsewhere, by name: `opcode`, `name`, `form` (`{"name", "syntax"}` or null),
/// `mods` (`{"name", "group", "span"}`), `operands` (`{"role", "dir",
/// "kinds", "kind", "text", "span", "value"}`), `guard`, `text` (the
/// canonical instruction), spans.
impl Serialize for Instruction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let form = self.form();
        // Written as they are read off the instruction: no list of them is
        // built first.
        let mods = Mods { inst: self, form };
        let operands = Operands { inst: self, form };
        if compact() {
            let mut st = s.serialize_struct("Instruction", 7)?;
            if self.guard.is_some() {
                st.serialize_field("guard", &self.guard)?;
            }
            let opcode = self.opcode_name();
            st.serialize_field("opcode", opcode)?;
            // Left out where it is the default: the opcode's letters at the
            // instruction's start (no guard before it).
            let at_start = Span::new(
                self.span.start,
                self.span.start.saturating_add(opcode.len() as u32),
            );
            if self.opcode_span != at_start {
                st.serialize_field("opcode_span", &self.opcode_span)?;
            }
            // The form's name when it is not the opcode; null when the
            // instruction matched no form.
            match form {
                Some(f) if f.name == opcode => {}
                Some(f) => st.serialize_field("form", f.name)?,
                None => st.serialize_field("form", &None::<&str>)?,
            }
            st.serialize_field("mods", &mods)?;
            st.serialize_field("operands", &operands)?;
            st.serialize_field("span", &self.span)?;
            return st.end();
        }
        let mut st = s.serialize_struct("Instruction", 9)?;
        st.serialize_field("guard", &self.guard)?;
        st.serialize_field("opcode", self.opcode_name())?;
        st.serialize_field("opcode_span", &self.opcode_span)?;
        st.serialize_field("name", self.name())?;
        st.serialize_field("form", &form.map(FormRef))?;
        st.serialize_field("mods", &mods)?;
        st.serialize_field("operands", &operands)?;
        st.serialize_field("text", &crate::print::instruction_text(self))?;
        st.serialize_field("span", &self.span)?;
        st.end()
    }
}
