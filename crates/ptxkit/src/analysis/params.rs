//! Sizes and text of declarations shared by the summaries, the function
//! list, the call graph and the resource report: parameters (type text and
//! bytes), variables (bytes of a declarator) and function directives. It
//! depends on no other analysis, so those modules depend on it one way.

use serde::Serialize;

use crate::syntax::consteval::eval_int;
use crate::syntax::{FuncDirective, Initializer, Param, VarDecl};

/// One parameter.
#[derive(Clone, Debug, Serialize)]
pub struct ParamSummary {
    /// The name.
    pub name: String,
    /// State space and type, e.g. `.param .u64`.
    pub ty: String,
    /// Size in bytes.
    pub bytes: u64,
}

/// Bytes of one declarator of `v` (`None` when a dimension is unsized or not constant).
pub fn declarator_bytes(
    v: &VarDecl,
    dims: &[Option<crate::syntax::Expr>],
    init: Option<&Initializer>,
) -> Option<u64> {
    let mut n =
        v.ty.size_bytes()
            .saturating_mul(u64::from(v.vector.unwrap_or(1)));
    for (i, d) in dims.iter().enumerate() {
        let len = match d {
            // Dimensions are unsigned 64-bit: `[18446744073709551615]`
            // (which evaluates to -1 as a signed constant) is that many
            // elements, not an unknown size.
            Some(e) => eval_int(e)?.cast_unsigned(),
            // `a[] = {…}`: the initializer gives the outer length.
            None if i == 0 => init?.list_len()?,
            None => return None,
        };
        n = n.saturating_mul(len);
    }
    Some(n)
}

/// Bytes of a parameter: element size × vector length × array lengths (an
/// unsized or non-constant dimension counts as 0).
pub fn param_bytes(p: &Param) -> u64 {
    let mut n =
        p.ty.size_bytes()
            .saturating_mul(u64::from(p.vector.unwrap_or(1)));
    for d in &p.dims {
        n = n.saturating_mul(
            d.as_ref()
                .and_then(eval_int)
                .map(i64::cast_unsigned)
                .unwrap_or(0),
        );
    }
    n
}

/// Size and type text of one parameter.
pub fn param_summary(p: &Param) -> ParamSummary {
    let n = param_bytes(p);
    let mut ty = format!("{}", p.space);
    if let Some(a) = &p.align {
        ty.push_str(&format!(" .align {}", a.value));
    }
    if let Some(v) = p.vector {
        ty.push_str(&format!(" .v{v}"));
    }
    ty.push(' ');
    ty.push_str(p.ty.as_str());
    if let Some(ptr) = &p.ptr {
        ty.push_str(" .ptr");
        if let Some(s) = ptr.space {
            ty.push(' ');
            ty.push_str(s.as_str());
        }
        if let Some(a) = &ptr.align {
            ty.push_str(&format!(" .align {}", a.value));
        }
    }
    for d in &p.dims {
        ty.push_str(&match d.as_ref().and_then(eval_int) {
            Some(v) => format!("[{v}]"),
            None => "[]".into(),
        });
    }
    ParamSummary {
        name: p.name.to_string(),
        ty,
        bytes: n,
    }
}

/// A directive as text: `.maxntid 128, 1, 1`.
pub fn directive_text(d: &FuncDirective) -> String {
    let mut s = d.name.to_string();
    let args: Vec<String> = d
        .args
        .iter()
        .map(|a| a.value.to_string())
        .chain(d.strings.iter().map(|s| s.to_string()))
        .collect();
    if !args.is_empty() {
        s.push(' ');
        s.push_str(&args.join(", "));
    }
    s
}
