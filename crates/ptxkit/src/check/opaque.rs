//! Texture, sampler and surface references (`.texref`, `.samplerref`,
//! `.surfref`) where ptxas takes them: a type declared only under a
//! `.target` option (`opaque-needs` in `module.ptxisa`: a `.samplerref`
//! needs `texmode_independent`), and an initializer that sets only the
//! fields of its type (`opaque-fields`).

use super::module_data::data;
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::ScalarType;
use crate::source::Span;
use crate::syntax::{FieldInit, VarDecl};

impl Checker<'_> {
    /// A variable or kernel parameter of type `ty` declared at `span`:
    /// the `.target` option its type needs, if the module is not in it.
    pub(super) fn opaque_mode_rule(&mut self, ty: ScalarType, span: Span) {
        let md = data();
        let Some(option) = md.opaque_needs(ty) else {
            return;
        };
        if md.option_holds(option, self.env.opts) {
            return;
        }
        self.emit(
            Diagnostic::error(
                Code::NeedsTarget,
                span,
                format!("a {ty} is declared only in a module whose `.target` has {option}"),
            )
            .with_note(format!(
                "add `, {option}` to the `.target` line, or pass the sampler's settings with the texture (.texref)"
            )),
        );
    }

    /// A module-scope variable of an opaque type: its mode (the fields
    /// its initializers set are checked by the initializer walk,
    /// [`unknown_field`]).
    pub(super) fn opaque_rules(&mut self, v: &VarDecl) {
        if !data().opaque_types.contains(&v.ty) {
            return;
        }
        for d in &v.decls {
            self.opaque_mode_rule(v.ty, d.name_span);
        }
    }
}

/// The diagnostic for field `f` of an initializer of opaque type `ty`
/// if the type has no such field (`opaque-fields`; the field check of
/// [`super::init_walk`], which serves lists held whole and read in parts).
pub(super) fn unknown_field(ty: ScalarType, f: &FieldInit) -> Option<Diagnostic> {
    let known = data().opaque_fields(ty)?;
    let name = f.name.as_str();
    if known.iter().any(|k| k == name) {
        return None;
    }
    Some(
        Diagnostic::error(
            Code::InitKind,
            f.span,
            format!("`{name}` is not a field of a {ty}"),
        )
        .with_note(format!("a {ty} has {}", known.join(", "))),
    )
}
