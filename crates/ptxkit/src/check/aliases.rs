//! `.alias a, f;`: what ptxas 13.5 takes. `a` is a function declared
//! before and not defined, `f` a function other than `a` (not a variable,
//! not unknown), neither a kernel, `f` not `.weak`, `a` made an alias once,
//! and the two of one prototype. ptxas reports the first rule an alias
//! breaks, on its line, in that order (probed one rule at a time).

use super::symbols::{Callee, Kind, Scope};
use crate::isa::vocab::Linkage;
use crate::source::Span;
use crate::syntax::name_map::NameMap;
use crate::syntax::{Alias, Name};

/// Why `.alias` `a` is refused, if it is, given the module's functions,
/// definitions, declarations and aliases so far.
pub(super) fn problem(
    a: &Alias,
    funcs: &NameMap<Callee>,
    defined: &NameMap<Span>,
    scope: &Scope,
    aliased: &NameMap<Name>,
) -> Option<String> {
    let (alias, target) = (a.alias, a.target);
    let Some(x) = funcs.get(&alias) else {
        return Some(format!(
            "`{alias}` is not declared: declare the alias's prototype before `.alias`"
        ));
    };
    if alias == target {
        return Some(format!("`{alias}` cannot be an alias of itself"));
    }
    let Some(t) = funcs.get(&target) else {
        return Some(match scope.get(target).map(|d| d.kind) {
            Some(Kind::Var | Kind::Reg) => {
                format!("`{target}` is a variable: an alias names a function")
            }
            _ => format!("`{target}` is not declared: an alias names a function declared before"),
        });
    };
    if defined.contains_key(&alias) {
        return Some(format!(
            "`{alias}` is defined: an alias names a function only declared"
        ));
    }
    if let Some(before) = aliased.get(&alias) {
        return Some(format!(
            "`{alias}` is already an alias of `{before}`; it cannot be made one again"
        ));
    }
    if x.kernel || t.kernel {
        return Some(format!(
            "`{}` is a kernel (.entry): aliases are of functions (.func)",
            if x.kernel { alias } else { target }
        ));
    }
    if t.linkage == Some(Linkage::Weak) {
        return Some(format!(
            "`{target}` is .weak: a function another module may replace cannot be aliased"
        ));
    }
    x.differs(t)
        .map(|d| format!("`{alias}` and `{target}` have other prototypes: {d}"))
}
