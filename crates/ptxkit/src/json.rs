//! The tree as self-describing JSON.
//!
//! Every node serialises with serde. Instructions are written by name, not
//! by catalog id: the opcode, the matched form (its name and catalog
//! syntax), each modifier with the group whose slot it fills, and each
//! operand with its role, direction, the kinds the role takes, the kind
//! written, and its canonical text. Types, state spaces and linkages are
//! their spellings (`".u32"`). Spans are `{"start", "end"}` byte offsets;
//! inside a [`Document`] (or [`with_positions`]) they also carry 1-based
//! `line`, `col`, `end_line` and `end_col` (columns in bytes).
//!
//! The shapes are described by the JSON Schema in `docs/ast.schema.json`
//! (version [`SCHEMA_VERSION`]).
//!
//! ```
//! let src = b".version 8.0\n.target sm_90\n.entry k() {\n .reg .b32 %r<2>;\n mov.u32 %r1, 7;\n ret;\n}\n";
//! let m = ptxkit::parse(src).module;
//! let v = serde_json::to_value(ptxkit::json::Document::new(&m, src)).unwrap();
//! assert_eq!(v["schema_version"], ptxkit::json::SCHEMA_VERSION);
//! let mov = &v["module"]["items"][2]["Function"]["body"]["stmts"][1]["Instruction"];
//! assert_eq!(mov["opcode"], "mov");
//! assert_eq!(mov["mods"][0]["name"], ".u32");
//! assert_eq!(mov["mods"][0]["group"], "type");
//! assert_eq!(mov["operands"][0]["role"], "d");
//! assert_eq!(mov["operands"][1]["kind"], "immediate");
//! assert_eq!(mov["span"]["line"], 5);
//! ```

use std::cell::RefCell;
use std::rc::Rc;

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::isa::{catalog, Dir, Kinds, OperandTpl, SlotKind};
use crate::source::{LineCol, LineIndex, Span};
use crate::syntax::{AddressAt, Expr, Instruction, Modifier, Module, Operand};

/// The version of the JSON shapes (`schema_version` of a [`Document`]);
/// raised when a shape changes incompatibly (2: operands may be array
/// elements, kind `element`, and roles may take them, kind `elem`).
pub const SCHEMA_VERSION: u32 = 2;

thread_local! {
    /// The line index spans are positioned with while a document is
    /// written.
    static LINES: RefCell<Option<Rc<LineIndex>>> = const { RefCell::new(None) };
}

/// Restores the previous line index when dropped.
struct Installed(Option<Rc<LineIndex>>);

impl Installed {
    fn new(lines: Rc<LineIndex>) -> Installed {
        Installed(LINES.with(|l| l.replace(Some(lines))))
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let prev = self.0.take();
        LINES.with(|l| *l.borrow_mut() = prev);
    }
}

/// Run `f` (which serialises tree nodes) with spans written with lines and
/// columns from `lines`.
pub fn with_positions<R>(lines: &LineIndex, f: impl FnOnce() -> R) -> R {
    let _installed = Installed::new(Rc::new(lines.clone()));
    f()
}

/// The line and column of a span's two ends, while positions are on.
fn positions(span: Span) -> Option<(LineCol, LineCol)> {
    if span.is_synthetic() {
        return None;
    }
    LINES.with(|l| {
        let l = l.borrow();
        let ix = l.as_ref()?;
        Some((ix.line_col(span.start), ix.line_col(span.end)))
    })
}

/// A module as a JSON document: `{"schema_version": 2, "module": {…}}`,
/// spans with lines and columns.
pub struct Document<'a> {
    module: &'a Module,
    lines: Rc<LineIndex>,
}

impl<'a> Document<'a> {
    /// The document of `module`, parsed from `src`.
    pub fn new(module: &'a Module, src: &[u8]) -> Document<'a> {
        Document::with_lines(module, LineIndex::new(src))
    }

    /// The document of `module` whose source's lines are `lines`.
    pub fn with_lines(module: &'a Module, lines: LineIndex) -> Document<'a> {
        Document {
            module,
            lines: Rc::new(lines),
        }
    }
}

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let _installed = Installed::new(self.lines.clone());
        let mut st = s.serialize_struct("Document", 2)?;
        st.serialize_field("schema_version", &SCHEMA_VERSION)?;
        st.serialize_field("module", self.module)?;
        st.end()
    }
}

/// `{"start", "end"}`, plus `line`, `col`, `end_line`, `end_col` while
/// positions are on ([`with_positions`], [`Document`]).
impl Serialize for Span {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
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

/// `{"span": …, "suffix": ".unified" | null}`.
impl Serialize for AddressAt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("AddressAt", 2)?;
        st.serialize_field("span", &self.span())?;
        st.serialize_field("suffix", &self.suffix().map(|m| catalog().mod_name(m)))?;
        st.end()
    }
}

/// A modifier with the group it fills in its instruction's form.
struct NamedMod<'a> {
    m: &'a Modifier,
    group: Option<&'static str>,
}

impl Serialize for NamedMod<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
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

impl Serialize for RoleOperand<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
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
    let sreg = |n: &str| catalog().special_register(n).is_some();
    match e {
        Expr::Name(n, _) if n.is_sink() => "sink",
        Expr::Name(n, _) if sreg(n.as_str()) => "special_register",
        Expr::Name(n, _) if n.as_str().starts_with('%') => "register",
        Expr::Name(..) => "symbol",
        Expr::Field(f) => match &f.base {
            Expr::Name(n, _) if sreg(n.as_str()) => "special_register",
            Expr::Name(n, _) if n.as_str().starts_with('%') => "register",
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

/// By name: `opcode`, `name`, `form` (`{"name", "syntax"}` or null),
/// `mods` (`{"name", "group", "span"}`), `operands` (`{"role", "dir",
/// "kinds", "kind", "text", "span", "value"}`), `guard`, `text` (the
/// canonical instruction), spans.
impl Serialize for Instruction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cat = catalog();
        let form = self.form();
        let mods: Vec<NamedMod> = self
            .mods
            .iter()
            .map(|m| NamedMod {
                m,
                group: m
                    .slot()
                    .and_then(|k| form.and_then(|f| f.slots.get(k)))
                    .and_then(|slot| match slot.kind {
                        SlotKind::Group(g) => cat.group(g).map(|g| g.name),
                        SlotKind::Lit(_) => None,
                    }),
            })
            .collect();
        let roles = self.roles();
        let operands: Vec<RoleOperand> = self
            .operands
            .iter()
            .enumerate()
            .map(|(k, op)| RoleOperand {
                tpl: roles.get(k).map(|(t, _)| *t),
                op,
            })
            .collect();
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
