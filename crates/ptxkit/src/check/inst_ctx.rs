//! The facts of one instruction, worked out once before any check reads
//! them: the form it matched, every role's type and vector size and the
//! modifier rule it breaks (the shape's facts, [`ShapeFacts`]), and the
//! declaration each plain-name operand resolves to. The body walk builds
//! one [`InstCtx`] per instruction and hands it to the operand checks,
//! the gating and the rules in turn; none of them works a fact out again
//! or finds it in a cache keyed on the instruction.

use std::rc::Rc;

use smallvec::SmallVec;

use super::body::{BodyWalk, Found};
use super::operands::{RoleFacts, ShapeFacts};
use super::symbols::ModuleScope;
use super::Checker;
use crate::syntax::{Expr, Instruction, Operand};

/// One instruction and what is known of it.
pub(crate) struct InstCtx<'i> {
    /// The instruction.
    pub(crate) i: &'i Instruction,
    /// The form it matched, if any.
    pub(crate) form: Option<&'static crate::isa::Form>,
    /// What its shape (form and written modifiers) decides, when it
    /// matched a form.
    pub(crate) shape: Option<Rc<ShapeFacts>>,
    /// The lookup of each top-level operand that is a plain name (`None`
    /// for the others), as far as known where the instruction stands.
    pub(crate) found: SmallVec<[Option<Found>; 8]>,
}

impl InstCtx<'_> {
    /// Every described role's type and vector size.
    #[inline]
    pub(crate) fn roles(&self) -> &[RoleFacts] {
        self.shape.as_deref().map_or(&[], ShapeFacts::roles)
    }

    /// The modifier rule (rule, clause) of its section that it breaks.
    #[inline]
    pub(crate) fn broken_rule(&self) -> Option<(u16, u16)> {
        match &self.shape {
            Some(s) => s.broken(),
            None => super::operands::broken_in_section(self.i),
        }
    }
}

/// Where an instruction's names are looked up: the body being walked and
/// the module around it.
pub(crate) struct Names<'a> {
    /// The body.
    pub(crate) w: &'a mut BodyWalk,
    /// The module's declarations so far.
    pub(crate) ms: &'a ModuleScope,
}

impl<'i> InstCtx<'i> {
    /// The context of `i`, its facts not yet worked out (see
    /// [`Checker::fill_inst_ctx`]). Built where it is used and filled in
    /// place: the lookups are a few hundred bytes, which returning the
    /// context by value would copy on every instruction.
    #[inline]
    pub(crate) fn new(i: &'i Instruction) -> InstCtx<'i> {
        InstCtx {
            i,
            form: i.form(),
            shape: None,
            found: SmallVec::new(),
        }
    }
}

impl Checker<'_> {
    /// Work out the facts of `cx`'s instruction, once.
    pub(super) fn fill_inst_ctx(&mut self, cx: &mut InstCtx<'_>, w: &BodyWalk, ms: &ModuleScope) {
        let i = cx.i;
        cx.shape = cx.form.map(|f| self.resolved.of(i, f));
        cx.found.extend(i.operands.iter().map(|o| match o {
            Operand::Expr(Expr::Name(n, _)) => Some(w.lookup(ms, *n)),
            _ => None,
        }));
    }
}
