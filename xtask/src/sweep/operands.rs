//! The operand dimension (`xtask sweep --operands N`): for the first N
//! instances of every form and each operand role, the instance with that
//! one operand replaced by each kind of operand it could be given: a
//! register of every declarable type, immediates at and past the limits of
//! the role's type and range, `_` alone and in each vector position,
//! vectors of each length, array elements, labels defined before and after,
//! functions, prototypes, variables of each state space, handles, special
//! registers of each type, and in addresses every address form (`[reg]`,
//! `[reg+imm]`, `[var]`, `[var+imm]`, `var[imm]`, `[imm]`, a 32-bit, a
//! floating-point or a predicate register). Generated from the catalog
//! alone (docs/sweep.md).

use std::collections::BTreeSet;

use ptxkit::isa::vocab::ScalarType;
use ptxkit::isa::Catalog;

use super::gen::{
    max_ptx, push, reg_class, target_meets, valid_version, vec_text, Instance, Op, Site, LATEST,
    MAIN_TARGETS, MORE_TARGETS, REG_CLASSES,
};
use super::{Case, Rng};

/// Kind names of cases that must run alone: ptxas judges a 32-bit address
/// module-wide (see `ptxas::resolve`).
pub fn runs_alone(kind: &str) -> bool {
    kind.starts_with("op-addr32")
}

/// Case kinds are `op-WHAT@role`; a label defined after its use is given
/// a name of its own per case (`$Lop<n>`), defined on the case's line.
struct Labels(usize);

/// The operand cases of one instance, on one target where it is valid.
pub fn emit(cat: &Catalog, inst: &Instance, rng: &mut Rng, cases: &mut Vec<Case>) {
    if inst.unspec || max_ptx(&inst.reqs).is_some_and(|v| v > LATEST) {
        return;
    }
    let valid: Vec<(&str, ptxkit::isa::PtxVersion)> = MAIN_TARGETS
        .iter()
        .chain(MORE_TARGETS)
        .copied()
        .filter(|t| target_meets(t, &inst.reqs))
        .filter_map(|t| valid_version(t, &inst.reqs).map(|v| (t, v)))
        .collect();
    let Some(&(target, version)) = valid.get(rng.below(valid.len().max(1))) else {
        return;
    };
    let base = inst.text(cat, &inst.ops);
    let mut labels = Labels(cases.len());
    let mut seen: BTreeSet<(&str, bool)> = BTreeSet::new();
    for s in &inst.sites {
        // One set per role (`a`, `b` of one description repeat each other).
        if !seen.insert((s.role, s.addr)) {
            continue;
        }
        let subs = if s.addr {
            address_kinds(s)
        } else {
            value_kinds(s)
        };
        for (what, path, op) in subs {
            let mut ops = inst.ops.clone();
            let Some((&first, rest)) = path.split_first() else {
                continue;
            };
            let Some(slot) = ops.get_mut(first).and_then(|o| o.at_mut(rest)) else {
                continue;
            };
            *slot = op;
            let mut text = inst.text(cat, &ops);
            if text == base {
                continue;
            }
            if text.contains("$Lop") {
                labels.0 += 1;
                text = text.replace("$Lop", &format!("$Lop{}", labels.0));
                text.push_str(&format!(" $Lop{}:", labels.0));
            }
            push(
                cases,
                inst,
                target,
                version,
                format!("op-{what}@{}", s.role),
                text,
            );
        }
    }
}

type Sub = (String, Vec<usize>, Op);

fn text(t: impl Into<String>) -> Op {
    Op::Text(t.into())
}

/// A scalar operand, or for a vector site the same operand as every
/// element.
fn fill(s: &Site, one: &str) -> Op {
    if s.vector {
        Op::Vector((0..s.arity).map(|_| text(one)).collect())
    } else {
        text(one)
    }
}

/// Registers numbered from 200 (the instance's own use the low numbers).
fn vector_of(prefix: &str, n: usize) -> Op {
    Op::Vector(
        (0..n)
            .map(|i| text(format!("{prefix}{}", 200 + i)))
            .collect(),
    )
}

/// Integer immediates at and just past the limits of `ty`.
fn type_limits(ty: ScalarType) -> Vec<(&'static str, String)> {
    let bits = ty.bits();
    if ty.is_float() || ty == ScalarType::Pred || !(8..=64).contains(&bits) {
        return Vec::new();
    }
    let b = bits;
    if ty.is_signed() {
        let max = (1i128 << (b - 1)) - 1;
        let min = -(1i128 << (b - 1));
        vec![
            ("imm-max", max.to_string()),
            ("imm-past-max", (max + 1).to_string()),
            ("imm-min", min.to_string()),
            ("imm-past-min", (min - 1).to_string()),
        ]
    } else {
        let max = (1u128 << b) - 1;
        vec![
            ("imm-max", max.to_string()),
            ("imm-past-max", (max + 1).to_string()),
        ]
    }
}

/// One special register of each type the catalog declares (a component
/// or the first of a numbered family where it has them).
fn special_registers() -> Vec<(String, String)> {
    let cat = ptxkit::isa::catalog();
    let mut by_type: Vec<(String, String)> = Vec::new();
    for r in cat.special_registers() {
        let ty = r.ty.as_str().to_string();
        if by_type.iter().any(|(t, _)| *t == ty) {
            continue;
        }
        let name = if let Some(c) = r.components.first() {
            format!("{}.{c}", r.name)
        } else if r.count > 0 {
            format!("{}0", r.name)
        } else {
            r.name.to_string()
        };
        by_type.push((ty, name));
    }
    by_type
}

/// The operand kinds tried for a value role.
fn value_kinds(s: &Site) -> Vec<Sub> {
    let mut out: Vec<Sub> = Vec::new();
    let p = s.path.clone();
    let mut add = |what: String, op: Op| out.push((what, p.clone(), op));
    let n = s.arity.max(1);
    // A register of every declarable type, in the site's shape.
    for (prefix, ty) in REG_CLASSES {
        let t = ty.trim_start_matches('.');
        let op = if s.vector {
            vector_of(prefix, n)
        } else {
            text(format!("{prefix}9"))
        };
        add(format!("reg-{t}"), op);
    }
    // Immediates: plain, float, at and past the type's limits and the
    // role's range.
    for (what, v) in [
        ("imm-0", "0"),
        ("imm-minus1", "-1"),
        ("imm-float", "1.5"),
        ("imm-f32", "0f3F800000"),
        ("imm-f64", "0d3FF0000000000000"),
    ] {
        add(what.into(), fill(s, v));
    }
    if let Some(t) = s.ty {
        for (what, v) in type_limits(t) {
            add(what.into(), fill(s, &v));
        }
    }
    if let Some((lo, hi)) = s.spec.range {
        for (what, v) in [
            ("imm-range-lo", lo),
            ("imm-range-hi", hi),
            ("imm-below-range", lo - 1),
            ("imm-above-range", hi + 1),
        ] {
            add(what.into(), fill(s, &v.to_string()));
        }
    }
    // The sink, alone and in each vector position.
    let class = s.ty.map(|t| reg_class(t, false)).unwrap_or("%r");
    add("sink".into(), text("_"));
    if s.vector {
        add("sink-all".into(), fill(s, "_"));
        let mut at: Vec<usize> = (0..n.min(4)).collect();
        if n > 4 {
            at.push(n - 1);
        }
        for k in at {
            let items = (0..n)
                .map(|i| {
                    if i == k {
                        text("_")
                    } else {
                        text(format!("{class}{}", 200 + i))
                    }
                })
                .collect();
            add(format!("sink-at-{k}"), Op::Vector(items));
        }
    }
    // Vectors of each length (a scalar site gets them all).
    for len in [1usize, 2, 3, 4, 8] {
        if s.vector && len == n {
            continue;
        }
        add(format!("vec-{len}"), text(vec_text(class, len)));
    }
    // Names: array elements, variables of each space, handles, labels
    // before and after, functions, prototypes, special registers.
    for (what, t) in [
        ("elem-imm", "gbuf[8]"),
        ("elem-reg", "gbuf[%rd9]"),
        ("elem-reg-imm", "gbuf[%rd9+8]"),
        ("elem-shared", "sbuf[4]"),
        ("var-global", "gbuf"),
        ("var-shared", "sbuf"),
        ("var-local", "lbuf"),
        ("var-const", "cbuf"),
        ("var-param", "kp"),
        ("var-plus-imm", "gbuf+8"),
        ("handle-tex", "tex0"),
        ("handle-surf", "surf0"),
        ("label-before", "$Lsw"),
        ("label-after", "$Lop"),
        ("func", "sweep_f"),
        ("proto", "sweep_proto"),
        ("reg-plus-imm", "%rd9+8"),
    ] {
        add(what.into(), text(t));
    }
    for (ty, name) in special_registers() {
        add(format!("sreg-{ty}"), text(name));
    }
    out
}

/// The address forms tried for an address role.
fn address_kinds(s: &Site) -> Vec<Sub> {
    let mut out: Vec<Sub> = Vec::new();
    // The item inside `[ ]`, and the bracket itself (an array element
    // replaces the brackets).
    let inner = s.path.clone();
    let outer: Vec<usize> = inner
        .split_last()
        .map(|(_, p)| p.to_vec())
        .unwrap_or_default();
    for (what, t) in [
        ("addr-reg64", "%rd9"),
        ("addr-reg64-imm", "%rd9+8"),
        ("addr-reg64-minus-imm", "%rd9+-8"),
        ("addr-u64", "%ud9"),
        ("addr-s64", "%sd9"),
        ("addr-imm", "8"),
        ("addr-global", "gbuf"),
        ("addr-global-imm", "gbuf+8"),
        ("addr-shared", "sbuf"),
        ("addr-shared-imm", "sbuf+8"),
        ("addr-local", "lbuf"),
        ("addr-const", "cbuf"),
        ("addr-param", "kp"),
        ("addr-f32", "%f9"),
        ("addr-f64", "%fd9"),
        ("addr-pred", "%p9"),
        ("addr-b128", "%q9"),
        ("addr-sreg", "%clock64"),
        ("addr-label", "$Lsw"),
        ("addr-func", "sweep_f"),
        // 32-bit and narrower registers: judged module-wide, run alone.
        ("addr32-b32", "%r9"),
        ("addr32-u32", "%u9"),
        ("addr32-b16", "%h9"),
    ] {
        out.push((what.into(), inner.clone(), text(t)));
    }
    if !outer.is_empty() {
        for (what, t) in [
            ("addr-elem-imm", "gbuf[8]"),
            ("addr-elem-reg", "gbuf[%rd9]"),
            ("addr-elem-reg-imm", "gbuf[%rd9+8]"),
            ("addr-elem-shared", "sbuf[8]"),
            ("addr-elem-local", "lbuf[8]"),
        ] {
            out.push((what.into(), outer.clone(), text(t)));
        }
    }
    out
}
