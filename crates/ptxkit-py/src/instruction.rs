//! `ptxkit.Instruction` and `ptxkit.Operand`.

use std::sync::Arc;

use ptxkit::isa::vocab::ScalarType;
use ptxkit::syntax::Expr;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::text::Str;

use crate::doc::{Doc, Path};

/// One instruction of a function body. Made when a list of instructions
/// is asked for; its fields are read from the shared tree when touched.
#[pyclass(frozen, module = "ptxkit")]
pub struct Instruction {
    doc: Arc<Doc>,
    item: usize,
    path: Path,
}

impl Instruction {
    /// The instruction at `path` in the function at `item`.
    pub fn new(doc: &Arc<Doc>, item: usize, path: Path) -> Instruction {
        Instruction {
            doc: Arc::clone(doc),
            item,
            path,
        }
    }

    fn get(&self) -> PyResult<&ptxkit::Instruction> {
        self.doc
            .instruction(self.item, &self.path)
            .ok_or_else(|| PyRuntimeError::new_err("instruction not found in its module"))
    }
}

/// What an operand is, as written.
fn kind(o: &ptxkit::Operand) -> &'static str {
    match o {
        ptxkit::Operand::Expr(e) => match e {
            Expr::Name(n, _) if n.is_sink() => "sink",
            Expr::Name(n, _) if n.as_str().starts_with('%') => "register",
            Expr::Name(..) => "symbol",
            Expr::Int(_) | Expr::Float(_) => "immediate",
            _ => "expression",
        },
        ptxkit::Operand::Pair(_) => "pair",
        ptxkit::Operand::Address { .. } => "address",
        ptxkit::Operand::Tuple { .. } => "tuple",
        ptxkit::Operand::Vector { .. } => "vector",
        ptxkit::Operand::List { .. } => "list",
    }
}

#[pymethods]
impl Instruction {
    /// The opcode: the instruction's first word (``"ld"``, ``"mma"``,
    /// ``"wgmma"``, ``"tcgen05"``).
    #[getter]
    fn opcode(&self) -> PyResult<&'static str> {
        crate::errors::guard(|| Ok(self.get()?.opcode_name()))
    }

    /// The name of the catalog form it matched, e.g.
    /// ``"cp.async.bulk.tensor"`` or ``"wgmma.mma_async"`` (the opcode when
    /// no form matched).
    #[getter]
    fn name(&self) -> PyResult<&'static str> {
        crate::errors::guard(|| Ok(self.get()?.name()))
    }

    /// Whether a catalog form matched (false for instructions the checker
    /// reports as unknown or malformed).
    #[getter]
    fn is_known(&self) -> PyResult<bool> {
        crate::errors::guard(|| Ok(self.get()?.form().is_some()))
    }

    /// Opcode and modifiers as written: ``"ld.global.nc.v4.f32"``.
    #[getter]
    fn mnemonic(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(ptxkit::analysis::stats::mnemonic(self.get()?)))
    }

    /// The modifiers in written order, each with its dot:
    /// ``[".global", ".nc", ".v4", ".f32"]``.
    #[getter]
    fn modifiers(&self) -> PyResult<Vec<&'static str>> {
        crate::errors::guard(|| Ok(self.get()?.mods.iter().map(|m| m.as_str()).collect()))
    }

    /// The modifiers that are data types, in written order: ``[".f32"]``;
    /// ``[".f32", ".f16", ".f16", ".f32"]`` for an ``mma``.
    #[getter]
    fn types(&self) -> PyResult<Vec<&'static str>> {
        crate::errors::guard(|| {
            Ok(self
                .get()?
                .mods
                .iter()
                .map(|m| m.as_str())
                .filter(|s| ScalarType::from_spelling(s).is_some())
                .collect())
        })
    }

    /// The modifier that fills the form's group ``group`` (``"type"``,
    /// ``"ss"``, ``"scope"``, …), or ``None``.
    fn group(&self, group: Str) -> PyResult<Option<&'static str>> {
        crate::errors::guard(|| Ok(self.get()?.group(&group).map(|m| m.as_str())))
    }

    /// The guard as written (``"@%p1"``, ``"@!%p2"``), or ``None``.
    #[getter]
    fn guard(&self) -> PyResult<Option<String>> {
        crate::errors::guard(|| {
            Ok(self
                .get()?
                .guard
                .as_ref()
                .map(|g| format!("@{}{}", if g.negated { "!" } else { "" }, g.pred.as_str())))
        })
    }

    /// The operands in written order.
    #[getter]
    fn operands(&self) -> PyResult<Vec<Operand>> {
        crate::errors::guard(|| {
            let i = self.get()?;
            let roles = i.roles();
            Ok(i.operands
                .iter()
                .enumerate()
                .map(|(k, o)| Operand {
                    role: roles.get(k).map(|(t, _)| t.role.to_string()),
                    kind: kind(o),
                    text: self.doc.text.slice(o.span()),
                })
                .collect())
        })
    }

    /// The operand bound to the catalog role ``role`` (``"d"``, ``"a"``,
    /// ``"cache-policy"``…), or ``None``.
    fn operand(&self, role: Str) -> PyResult<Option<Operand>> {
        crate::errors::guard(|| {
            Ok(self
                .operands()?
                .into_iter()
                .find(|o| o.role.as_deref() == Some(&*role)))
        })
    }

    /// 1-based line of the instruction.
    #[getter]
    fn line(&self) -> PyResult<u32> {
        crate::errors::guard(|| Ok(self.doc.text.line_col(self.get()?.span.start).0))
    }

    /// 1-based column (in bytes) of the instruction.
    #[getter]
    fn col(&self) -> PyResult<u32> {
        crate::errors::guard(|| Ok(self.doc.text.line_col(self.get()?.span.start).1))
    }

    /// The instruction exactly as written, ``;`` included.
    #[getter]
    fn text(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(self.doc.text.slice(self.get()?.span)))
    }

    /// The instruction printed canonically.
    fn format(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(ptxkit::print::instruction_text(self.get()?)))
    }

    /// The name of the function the instruction is in.
    #[getter]
    fn function(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            self.doc
                .function(self.item)
                .map(|f| f.name.as_str().to_string())
                .ok_or_else(|| PyRuntimeError::new_err("function not found in its module"))
        })
    }

    fn __str__(&self) -> PyResult<String> {
        crate::errors::guard(|| self.text())
    }

    fn __repr__(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            Ok(format!(
                "<Instruction {}:{} {}>",
                self.line()?,
                self.col()?,
                self.text()?
            ))
        })
    }
}

/// One operand of an instruction.
#[pyclass(frozen, get_all, module = "ptxkit")]
pub struct Operand {
    /// The catalog role the operand fills (``"d"``, ``"a"``, ``"b"``,
    /// ``"cache-policy"``…); ``None`` when the instruction matched no form.
    pub role: Option<String>,
    /// What it is as written: ``"register"``, ``"symbol"``, ``"immediate"``,
    /// ``"expression"``, ``"sink"``, ``"address"``, ``"vector"``,
    /// ``"tuple"``, ``"pair"`` or ``"list"``.
    pub kind: &'static str,
    /// The operand as written.
    pub text: String,
}

#[pymethods]
impl Operand {
    fn __str__(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(self.text.clone()))
    }

    fn __repr__(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            Ok(format!(
                "<Operand {} {} {}>",
                self.role.as_deref().unwrap_or("?"),
                self.kind,
                self.text
            ))
        })
    }
}
