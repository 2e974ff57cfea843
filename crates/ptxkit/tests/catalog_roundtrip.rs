//! Property tests: instruction statements generated from the catalog (any
//! form, each modifier slot filled with one of its alternatives, each operand
//! with a register, immediate, address or vector of the shape the form
//! wants), wrapped in a kernel, must parse without errors, pick a form that
//! accepts the written modifiers, print losslessly, and print canonically to
//! text that parses back to an equal tree.
//!
//! A generated statement is described by a list of numbers (the "picks"):
//! proptest shrinks a failure towards zeros, that is towards the first
//! alternative of every choice.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use proptest::prelude::*;
use ptxkit::isa::{catalog, Catalog, Form, OperandTpl, Shape, SlotKind};

/// A stream of choices; past its end every choice is 0.
struct Picks<'a> {
    v: &'a [u32],
    i: usize,
}

impl Picks<'_> {
    fn pick(&mut self, n: usize) -> usize {
        let x = self.v.get(self.i).copied().unwrap_or(0) as usize;
        self.i += 1;
        if n == 0 {
            0
        } else {
            x % n
        }
    }
    fn coin(&mut self) -> bool {
        self.pick(2) == 1
    }
}

const VALUES: &[&str] = &[
    "%r1",
    "%rd2",
    "%f3",
    "42",
    "0x1F",
    "sym",
    "0f3F800000",
    "%p1",
    "-3",
    "sym+8",
];
const ADDRESSES: &[&str] = &["%rd1", "%rd1+16", "sym", "sym+4", "%r2"];
/// The items of a bracketed tuple (ptxas's grammar: a name alone).
const TUPLE_ITEMS: &[&str] = &["%r1", "%rd2", "%f3", "sym", "%p1"];
/// The elements of a brace vector (ptxas's grammar: a name or a constant,
/// not a name plus a constant nor a negated register).
const VECTOR_ELEMENTS: &[&str] = &[
    "%r1",
    "%rd2",
    "%f3",
    "42",
    "0x1F",
    "sym",
    "0f3F800000",
    "%p1",
    "-3",
];

/// An element of a brace vector, or (`tuple`) a scalar item of a bracketed tuple.
fn grouped(t: &OperandTpl, cat: &Catalog, p: &mut Picks, tuple: bool) -> String {
    match &t.shape {
        Shape::Value if tuple => TUPLE_ITEMS[p.pick(TUPLE_ITEMS.len())].to_string(),
        Shape::Value => VECTOR_ELEMENTS[p.pick(VECTOR_ELEMENTS.len())].to_string(),
        _ => operand(t, cat, p),
    }
}

/// One spelling of a group alternative or literal slot.
fn spelling(cat: &Catalog, k: SlotKind, p: &mut Picks) -> Option<String> {
    match k {
        SlotKind::Lit(m) => Some(cat.mod_name(m).to_string()),
        SlotKind::Group(g) => {
            let g = cat.group(g)?;
            if g.alts.is_empty() {
                // Pattern-only group: the first spelling each pattern allows.
                let pat = g.patterns.get(p.pick(g.patterns.len()))?;
                let mut out = String::new();
                let mut chars = pat.chars();
                while let Some(c) = chars.next() {
                    if c == '[' {
                        let lo = chars.next()?;
                        chars.nth(2)?; // `-`, hi, `]`
                        out.push(lo);
                    } else {
                        out.push(c);
                    }
                }
                Some(out)
            } else {
                Some(cat.mod_name(g.alts[p.pick(g.alts.len())]).to_string())
            }
        }
    }
}

fn value(t: &OperandTpl, cat: &Catalog, p: &mut Picks) -> String {
    let mut s = String::new();
    if t.neg && p.coin() {
        s.push('-');
    } else if t.not && p.coin() {
        s.push('!');
    }
    // Negated or inverted operands are registers.
    let v = if s.is_empty() {
        VALUES[p.pick(VALUES.len())]
    } else {
        ["%r1", "%p2"][p.pick(2)]
    };
    s.push_str(v);
    if !t.suffixes.is_empty() && p.coin() && v.starts_with('%') {
        let k = t.suffixes[p.pick(t.suffixes.len())];
        if let Some(sfx) = spelling(cat, k, p) {
            s.push_str(&sfx);
        }
    }
    s
}

fn operand(t: &OperandTpl, cat: &Catalog, p: &mut Picks) -> String {
    match &t.shape {
        Shape::Value => value(t, cat, p),
        Shape::Literal(l) => l.to_string(),
        Shape::Pair { optional, .. } => {
            // The first half is a register (`a|b` with an immediate would
            // read as a bitwise or).
            let first = ["%p1", "%r2"][p.pick(2)];
            if *optional && p.coin() {
                first.to_string()
            } else {
                format!("{first}|%p2")
            }
        }
        Shape::Bracket(items) => {
            let mut s = String::from("[");
            if items.len() == 1 && matches!(items[0].shape, Shape::Value) {
                s.push_str(ADDRESSES[p.pick(ADDRESSES.len())]);
            } else {
                let mut parts = Vec::new();
                for i in items.iter() {
                    if !(i.optional && p.coin()) {
                        parts.push(grouped(i, cat, p, true));
                    }
                }
                s.push_str(&parts.join(", "));
            }
            s.push(']');
            if !t.suffixes.is_empty() && p.coin() {
                if let Some(sfx) = spelling(cat, t.suffixes[0], p) {
                    s.push_str(&sfx);
                }
            }
            s
        }
        Shape::Vector(items) => {
            let parts: Vec<String> = items.iter().map(|i| grouped(i, cat, p, false)).collect();
            format!("{{{}}}", parts.join(", "))
        }
        Shape::List => {
            let n = p.pick(3);
            let parts: Vec<&str> = ["%r1", "%r2", "%rd3"][..n].to_vec();
            format!("({})", parts.join(", "))
        }
    }
}

/// One instruction statement from `form`.
fn statement(cat: &Catalog, form: &Form, p: &mut Picks) -> String {
    let mut s = String::new();
    match p.pick(4) {
        0 => s.push_str("@%p1 "),
        1 => s.push_str("@!%p3 "),
        _ => {}
    }
    let root = cat.opcode(form.opcode).map(|o| o.name).unwrap_or("?");
    s.push_str(root);
    let mut written = Vec::new();
    for slot in form.slots {
        if slot.optional && p.coin() {
            continue;
        }
        if let Some(m) = spelling(cat, slot.kind, p) {
            s.push_str(&m);
            written.push(m);
        }
    }
    let mods: Vec<_> = written.iter().filter_map(|m| cat.mod_id(m)).collect();
    let mut ops = Vec::new();
    for t in form.operands {
        let present = match t.when {
            Some(k) => mods.iter().any(|&m| cat.slot_accepts(k, m)),
            None => !t.optional || p.coin(),
        };
        if present {
            ops.push(operand(t, cat, p));
        }
    }
    if !ops.is_empty() {
        s.push(' ');
        s.push_str(&ops.join(", "));
    }
    s.push(';');
    s
}

fn module(stmts: &[String]) -> String {
    let mut s = String::from(
        ".version 9.0\n.target sm_100a\n.address_size 64\n.global .align 8 .b8 sym[64];\n\
         .visible .entry k(.param .u64 p)\n{\n\
         \t.reg .pred %p<4>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<4>;\n",
    );
    for st in stmts {
        s.push('\t');
        s.push_str(st);
        s.push('\n');
    }
    s.push_str("\tret;\n}\n");
    s
}

/// Parse a generated module and check every property; `Err` explains.
fn check(stmts: &[String]) -> Result<(), String> {
    let cat = catalog();
    let text = module(stmts);
    let parsed = ptxkit::parse(text.as_bytes());
    if let Some(d) = parsed.diagnostics.iter().find(|d| d.is_error()) {
        let at = d.span.text(text.as_bytes());
        return Err(format!("rejected: {} at `{at}`\n{text}", d.message));
    }
    let f = parsed.module.functions().next().ok_or("no kernel")?;
    let body = f.body.as_ref().ok_or("no body")?;
    for inst in body.instructions() {
        let form = inst.form().ok_or("no form")?;
        let mods: Vec<_> = inst.mods.iter().map(|m| m.id).collect();
        if ptxkit::isa::assign_slots(cat, form, &mods).is_err() {
            return Err(format!(
                "form `{}` picked for {:?} does not accept its modifiers",
                form.text,
                ptxkit::print::instruction_text(inst)
            ));
        }
    }
    if ptxkit::print::lossless(&parsed.module, text.as_bytes()) != text.as_bytes() {
        return Err(format!("lossless print differs\n{text}"));
    }
    let canon = ptxkit::print::canonical(&parsed.module);
    let again = ptxkit::parse(canon.as_bytes());
    if again.has_errors() || again.module != parsed.module {
        return Err(format!(
            "canonical print does not parse back equal\n--- input\n{text}--- canonical\n{canon}"
        ));
    }
    if ptxkit::print::canonical(&again.module) != canon {
        return Err("canonical print is not idempotent".into());
    }
    Ok(())
}

/// Every form of the catalog, three ways each (the all-first choice and two
/// fixed pseudo-random fillings).
#[test]
fn every_form_round_trips() {
    let cat = catalog();
    let forms: Vec<&Form> = cat.forms().map(|(_, f)| f).collect();
    assert!(forms.len() > 500, "catalog has {} forms", forms.len());
    let mut failures = Vec::new();
    for (i, form) in forms.iter().enumerate() {
        for seed in 0..3u32 {
            let picks: Vec<u32> = (0..64u32)
                .map(|j| {
                    if seed == 0 {
                        0
                    } else {
                        (i as u32 ^ j.wrapping_mul(0x9E37_79B9) ^ seed.wrapping_mul(0x85EB_CA6B))
                            .wrapping_mul(0xC2B2_AE35)
                            >> 7
                    }
                })
                .collect();
            let st = statement(cat, form, &mut Picks { v: &picks, i: 0 });
            if let Err(e) = check(std::slice::from_ref(&st)) {
                failures.push(format!(
                    "{} => {st}\n  {}",
                    form.text,
                    e.lines().next().unwrap_or("")
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} generated statements fail:\n{}",
        failures.len(),
        forms.len() * 3,
        failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Random modules of up to eight statements from random forms.
    #[test]
    fn random_statements_round_trip(
        insts in prop::collection::vec((any::<u16>(), prop::collection::vec(any::<u32>(), 0..48)), 1..8)
    ) {
        let cat = catalog();
        let forms: Vec<&Form> = cat.forms().map(|(_, f)| f).collect();
        let stmts: Vec<String> = insts
            .iter()
            .map(|(f, picks)| {
                let form = forms[*f as usize % forms.len()];
                statement(cat, form, &mut Picks { v: picks, i: 0 })
            })
            .collect();
        if let Err(e) = check(&stmts) {
            prop_assert!(false, "{}", e);
        }
    }
}
