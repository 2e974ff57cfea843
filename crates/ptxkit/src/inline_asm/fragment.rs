//! Turning an `asm` statement into a PTX module: its template with the
//! operand references resolved, inside a minimal kernel that declares one
//! register per register operand, and a map from every byte of that module
//! back to the C++ source.
//!
//! The operand types follow the constraint letters of NVIDIA's inline PTX
//! guide, as nvcc declares them: `h` a 16-bit register (`.b16`), `r`
//! 32-bit (`.b32`), `l` 64-bit (`.b64`), `q` 128-bit (`.b128`), `f` `.f32`,
//! `d` `.f64`; `n` an immediate integer; `C` a constant string spliced into
//! the template. A digit constraint (`"0"`) names the operand it shares a
//! register with. `%N` refers to operand N (outputs first), `%%` is `%`,
//! `%=` a number unique to the statement; any other `%` is kept (`%tid.x`).
//! Registers are named as the template refers to them (`%0`, `%1`: PTX
//! identifiers), so the checker's messages quote what the author wrote.

use super::finder::{AsmOperand, AsmStatement};
use super::literal::Decoded;
use crate::diag::{Code, Diagnostic};
use crate::source::Span;

/// What a reference to no operand becomes.
const MISSING: &str = "%__missing";

/// A byte of the module that comes from no byte of the C++ source.
const WRAPPER: u32 = u32::MAX;

/// What an operand becomes in the PTX.
#[derive(Clone, Debug, PartialEq)]
pub enum OperandKind {
    /// A register of this PTX type (`.b32`).
    Register(&'static str),
    /// An immediate: its value when the expression is an integer literal.
    Immediate(Option<i128>),
    /// A string spliced into the template (`"C"`), when it is a literal.
    Text(Option<Decoded>),
    /// A constraint the guide does not list.
    Unknown,
}

/// The kind of an operand from its constraint (`operands` for the digit
/// constraints that refer to another operand).
pub fn kind_of(op: &AsmOperand, operands: &[&AsmOperand]) -> OperandKind {
    let letters = op.constraint.trim_start_matches(['=', '+', '&']);
    match letters.as_bytes().first() {
        Some(b'h') => OperandKind::Register(".b16"),
        Some(b'r') => OperandKind::Register(".b32"),
        Some(b'l') => OperandKind::Register(".b64"),
        Some(b'q') => OperandKind::Register(".b128"),
        Some(b'f') => OperandKind::Register(".f32"),
        Some(b'd') => OperandKind::Register(".f64"),
        Some(b'n') => OperandKind::Immediate(op.value.or_else(|| integer(&op.expr))),
        Some(b'C') => OperandKind::Text(op.expr_string.as_deref().cloned()),
        Some(c) if c.is_ascii_digit() => {
            match letters.parse::<usize>().ok().and_then(|n| operands.get(n)) {
                // A tie to itself or a chain of ties is not followed further.
                Some(other)
                    if !other
                        .constraint
                        .trim_start_matches(['=', '+', '&'])
                        .starts_with(|c: char| c.is_ascii_digit()) =>
                {
                    kind_of(other, operands)
                }
                _ => OperandKind::Unknown,
            }
        }
        _ => OperandKind::Unknown,
    }
}

/// The value of a C++ integer literal expression (`42`, `-1`, `0x10u`,
/// `(8)`, `true`); `None` for anything else.
pub fn integer(expr: &str) -> Option<i128> {
    let e = expr.trim();
    if let Some(inner) = e.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        return integer(inner);
    }
    match e {
        "true" => return Some(1),
        "false" => return Some(0),
        _ => {}
    }
    if let Some(rest) = e.strip_prefix('-') {
        return integer(rest).map(|v| v.saturating_neg());
    }
    let digits: String = e
        .trim_end_matches(['u', 'U', 'l', 'L', 'z', 'Z'])
        .chars()
        .filter(|&c| c != '\'')
        .collect();
    let (radix, body) = if let Some(h) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, h)
    } else if let Some(b) = digits
        .strip_prefix("0b")
        .or_else(|| digits.strip_prefix("0B"))
    {
        (2, b)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, digits.get(1..).unwrap_or_default())
    } else {
        (10, digits.as_str())
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    i128::from_str_radix(body, radix).ok()
}

/// The PTX module made of one statement.
pub struct Fragment {
    /// The module text.
    pub ptx: String,
    /// For each byte of `ptx`, the C++ bytes it stands for, `start..end`
    /// ([`WRAPPER`] for the wrapper's own bytes).
    from: Vec<(u32, u32)>,
    /// Where the template starts and ends in `ptx`.
    body: (u32, u32),
    /// The template's literals in the C++ source.
    template_span: Span,
    /// Problems of the statement itself (C++ spans).
    pub problems: Vec<Diagnostic>,
    /// Spans of `ptx` holding an immediate whose value is not visible.
    pub guessed: Vec<Span>,
    /// The operand number of each of `guessed`.
    pub guessed_ops: Vec<usize>,
    /// Register references of `ptx`, with their operand's number.
    refs: Vec<(Span, usize)>,
    /// Each operand's constraint and where it is in the C++ source.
    constraints: Vec<(String, Span)>,
}

struct Builder {
    ptx: String,
    from: Vec<(u32, u32)>,
    /// Register references written: where in `ptx`, and which operand.
    refs: Vec<(Span, usize)>,
}

impl Builder {
    fn wrapper(&mut self, s: &str) {
        self.ptx.push_str(s);
        self.from
            .extend(std::iter::repeat_n((WRAPPER, WRAPPER), s.len()));
    }

    /// Text standing for source bytes `first..=last`.
    fn mapped(&mut self, s: &str, first: u32, last: u32) {
        self.ptx.push_str(s);
        let end = last.saturating_add(1);
        self.from.extend(std::iter::repeat_n((first, end), s.len()));
    }
}

/// The version the fragments declare: the newest the catalog knows.
fn version() -> String {
    crate::check::module_data::data()
        .current()
        .map(|v| format!("{}.{}", v.major, v.minor))
        .unwrap_or_else(|| "9.0".to_string())
}

/// Build the module for `stmt`, whose template is `t`. An immediate
/// operand `n` whose value is not visible is written as `guess(n)`.
pub fn build(stmt: &AsmStatement, t: &Decoded, guess: &dyn Fn(usize) -> i128) -> Fragment {
    let operands: Vec<&AsmOperand> = stmt.operands().collect();
    let kinds: Vec<OperandKind> = operands.iter().map(|o| kind_of(o, &operands)).collect();
    let mut problems = Vec::new();
    let mut b = Builder {
        ptx: String::with_capacity(t.bytes.len().saturating_add(256)),
        from: Vec::new(),
        refs: Vec::new(),
    };
    b.wrapper(&format!(
        ".version {}\n.target sm_90\n.address_size 64\n.visible .entry __ptxkit_inline_asm()\n{{\n",
        version()
    ));
    for (i, (op, k)) in operands.iter().zip(&kinds).enumerate() {
        match k {
            OperandKind::Register(ty) => b.wrapper(&format!(".reg {ty} %{i};\n")),
            OperandKind::Unknown => {
                problems.push(Diagnostic::error(
                    Code::Constraint,
                    op.constraint_span,
                    format!(
                        "constraint \"{}\" is not one the inline PTX guide lists (h r l q f d n C, or the number of an operand)",
                        op.constraint
                    ),
                ));
                b.wrapper(&format!(".reg .b32 %{i};\n"));
            }
            _ => {}
        }
    }
    let body_start = b.ptx.len() as u32;
    let mut guessed = Vec::new();
    let mut guessed_ops = Vec::new();
    let bytes = &t.bytes;
    let at = |k: usize| t.from.get(k).copied().unwrap_or(WRAPPER);
    let mut i = 0usize;
    // Plain bytes are copied in runs (a template is usually ASCII, but a
    // run may hold UTF-8 sequences, kept whole).
    let mut run_start = 0usize;
    let flush = |b: &mut Builder, from: usize, to: usize| {
        if let Some(chunk) = bytes.get(from..to) {
            let s = String::from_utf8_lossy(chunk);
            if s.len() == chunk.len() {
                b.ptx.push_str(&s);
                b.from
                    .extend((from..to).map(|k| (at(k), at(k).saturating_add(1))));
            } else {
                // Invalid UTF-8: each bad byte becomes U+FFFD, mapped to
                // the run's start.
                b.mapped(&s, at(from), at(from));
            }
        }
    };
    while let Some(&c) = bytes.get(i) {
        if c != b'%' {
            i = i.saturating_add(1);
            continue;
        }
        flush(&mut b, run_start, i);
        let next = bytes.get(i.saturating_add(1)).copied();
        match next {
            Some(b'%') => {
                b.mapped("%", at(i), at(i.saturating_add(1)));
                i = i.saturating_add(2);
            }
            Some(b'=') => {
                b.mapped("0", at(i), at(i.saturating_add(1)));
                i = i.saturating_add(2);
            }
            Some(b'0'..=b'9') => {
                let mut j = i.saturating_add(1);
                while bytes.get(j).is_some_and(u8::is_ascii_digit) {
                    j = j.saturating_add(1);
                }
                let digits = bytes.get(i.saturating_add(1)..j).unwrap_or_default();
                let n: Option<usize> = std::str::from_utf8(digits)
                    .ok()
                    .and_then(|s| s.parse().ok());
                let last = at(j.saturating_sub(1));
                substitute(
                    &mut b,
                    &mut problems,
                    (&mut guessed, &mut guessed_ops),
                    &kinds,
                    n,
                    at(i),
                    last,
                    guess,
                    || Span::new(at(i), last.saturating_add(1)),
                    operands.len(),
                );
                i = j;
            }
            Some(b'[') => {
                let close = bytes
                    .get(i..)
                    .and_then(|r| r.iter().position(|&x| x == b']'))
                    .map(|k| i.saturating_add(k));
                match close {
                    Some(j) => {
                        let name = String::from_utf8_lossy(
                            bytes.get(i.saturating_add(2)..j).unwrap_or_default(),
                        )
                        .into_owned();
                        let span = Span::new(at(i), at(j).saturating_add(1));
                        problems.push(
                            Diagnostic::error(
                                Code::NamedOperand,
                                span,
                                format!("named operand reference `%[{name}]`: nvcc does not support it"),
                            )
                            .with_note("nvcc stops with \"symbolic operand reference not supported\"; refer to the operand by number"),
                        );
                        let n = operands
                            .iter()
                            .position(|o| o.name.as_deref() == Some(name.as_str()));
                        substitute(
                            &mut b,
                            &mut problems,
                            (&mut Vec::new(), &mut Vec::new()),
                            &kinds,
                            n,
                            at(i),
                            at(j),
                            guess,
                            || span,
                            usize::MAX,
                        );
                        i = j.saturating_add(1);
                    }
                    None => {
                        b.mapped("%", at(i), at(i));
                        i = i.saturating_add(1);
                    }
                }
            }
            _ => {
                b.mapped("%", at(i), at(i));
                i = i.saturating_add(1);
            }
        }
        run_start = i;
    }
    flush(&mut b, run_start, bytes.len());
    let body_end = b.ptx.len() as u32;
    b.wrapper("\n}\n");
    Fragment {
        ptx: b.ptx,
        from: b.from,
        body: (body_start, body_end),
        template_span: stmt.template_span,
        problems,
        guessed,
        guessed_ops,
        refs: b.refs,
        constraints: operands
            .iter()
            .map(|o| (o.constraint.clone(), o.constraint_span))
            .collect(),
    }
}

/// Write operand `n`'s text for a reference at source bytes `first..=last`.
#[allow(clippy::too_many_arguments)]
fn substitute(
    b: &mut Builder,
    problems: &mut Vec<Diagnostic>,
    (guessed, guessed_ops): (&mut Vec<Span>, &mut Vec<usize>),
    kinds: &[OperandKind],
    n: Option<usize>,
    first: u32,
    last: u32,
    guess: &dyn Fn(usize) -> i128,
    span: impl Fn() -> Span,
    count: usize,
) {
    let kind = n.and_then(|n| kinds.get(n));
    match (n, kind) {
        (Some(n), Some(OperandKind::Register(_) | OperandKind::Unknown)) => {
            let start = b.ptx.len() as u32;
            b.mapped(&format!("%{n}"), first, last);
            b.refs.push((Span::new(start, b.ptx.len() as u32), n));
        }
        (_, Some(OperandKind::Immediate(v))) => {
            let start = b.ptx.len() as u32;
            let k = n.unwrap_or(0);
            b.mapped(&v.unwrap_or_else(|| guess(k)).to_string(), first, last);
            if v.is_none() {
                guessed.push(Span::new(start, b.ptx.len() as u32));
                guessed_ops.push(k);
            }
        }
        (_, Some(OperandKind::Text(Some(d)))) => {
            let s = String::from_utf8_lossy(&d.bytes).into_owned();
            if s.len() == d.bytes.len() {
                b.ptx.push_str(&s);
                b.from
                    .extend(d.from.iter().map(|&f| (f, f.saturating_add(1))));
            } else {
                b.mapped(&s, first, last);
            }
        }
        (_, Some(OperandKind::Text(None))) => {
            // Reported by the caller (the statement is not checked).
            b.mapped("0", first, last);
        }
        (n, None) => {
            if count != usize::MAX {
                problems.push(Diagnostic::error(
                    Code::OperandRange,
                    span(),
                    match n {
                        Some(n) => format!(
                            "`%{n}` refers to no operand: the statement has {count} operand{}",
                            if count == 1 { "" } else { "s" }
                        ),
                        None => "operand reference out of range".to_string(),
                    },
                ));
            }
            b.mapped(MISSING, first, last);
        }
        (None, Some(_)) => b.mapped(MISSING, first, last),
    }
}

impl Fragment {
    /// The C++ span of a span of the module: inside the template, where
    /// its bytes came from; on the wrapper before the template, the
    /// template's start; after it, the template's end (its last quote).
    pub fn map_span(&self, s: Span) -> Span {
        let (lo, hi) = self.body;
        let point = |p: u32| -> Option<(u32, u32)> {
            if p >= lo && p < hi {
                self.from
                    .get(p as usize)
                    .copied()
                    .filter(|&(f, _)| f != WRAPPER)
            } else {
                None
            }
        };
        let fallback = if s.start < lo {
            self.template_span.start
        } else {
            self.template_span.end.saturating_sub(1)
        };
        let start = point(s.start).map_or(fallback, |p| p.0);
        let end = if s.end > s.start {
            point(s.end.saturating_sub(1)).map(|p| p.1)
        } else {
            point(s.start).map(|p| p.1)
        };
        let end = end
            .filter(|&e| e > start)
            .unwrap_or(start.saturating_add(1));
        Span::new(start, end)
    }

    /// Whether module span `s` lies on an immediate whose value was guessed.
    pub fn on_guess(&self, s: Span) -> bool {
        self.guessed_operand(s).is_some()
    }

    /// The operand number of the guessed immediate module span `s` lies
    /// on, if any.
    pub fn guessed_operand(&self, s: Span) -> Option<usize> {
        self.guessed
            .iter()
            .zip(&self.guessed_ops)
            .find(|(g, _)| s.start >= g.start && s.start < g.end.max(g.start.saturating_add(1)))
            .map(|(_, &k)| k)
    }

    /// Whether module span `s` starts on the stand-in for a reference to
    /// no operand.
    pub fn on_missing(&self, s: Span) -> bool {
        self.ptx
            .as_bytes()
            .get(s.start as usize..)
            .is_some_and(|r| r.starts_with(MISSING.as_bytes()))
    }

    /// Map a diagnostic of the module to the C++ source.
    pub fn map(&self, d: &Diagnostic) -> Diagnostic {
        let mut m = d.clone();
        m.span = self.map_span(d.span);
        for l in &mut m.labels {
            l.span = self.map_span(l.span);
        }
        // A register operand blamed: show where its type comes from.
        let on = |s: Span| {
            self.refs
                .iter()
                .find(|(r, _)| s.start >= r.start && s.end <= r.end && s.start < r.end)
        };
        if let Some(&(_, n)) = on(d.span) {
            if let Some((c, span)) = self.constraints.get(n) {
                m = m.with_label(*span, format!("`%{n}` is the operand constrained \"{c}\""));
            }
        }
        m
    }
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::super::finder::{find, Template};
    use super::*;

    fn fragment(src: &str) -> Fragment {
        let s = find(src.as_bytes()).remove(0);
        let Template::Literal(t) = &s.template else {
            panic!("not literal")
        };
        build(&s, t, &|_| 1)
    }

    fn body(f: &Fragment) -> &str {
        &f.ptx[f.body.0 as usize..f.body.1 as usize]
    }

    #[test]
    fn registers_immediates_and_escapes() {
        let f = fragment(
            r#"asm("{ .reg .pred p%=; add.s32 %0, %1, %2; mov.u32 %0, %%tid.x; }" : "=r"(x) : "l"(y), "n"(-0x10));"#,
        );
        assert_eq!(
            body(&f),
            "{ .reg .pred p0; add.s32 %0, %1, -16; mov.u32 %0, %tid.x; }"
        );
        assert!(f.ptx.contains(".reg .b32 %0;\n.reg .b64 %1;\n"));
        assert!(f.problems.is_empty());
    }

    #[test]
    fn spans_map_back_into_the_literal() {
        let src = "asm(\"add.s32 %0,\\n\\t %1, 5;\" : \"=r\"(x) : \"n\"(N));";
        let f = fragment(src);
        let b = body(&f);
        assert_eq!(b, "add.s32 %0,\n\t 1, 5;");
        // The guessed immediate maps to `%1` in the source.
        let at = b.find('1').unwrap() as u32 + f.body.0;
        let s = f.map_span(Span::new(at, at + 1));
        assert_eq!(&src[s.start as usize..s.end as usize], "%1");
        assert!(f.on_guess(Span::new(at, at + 1)));
        // A span on the wrapper's closing brace maps to the closing quote.
        let end = f.ptx.len() as u32 - 2;
        let s = f.map_span(Span::new(end, end + 1));
        assert_eq!(&src[s.start as usize..s.end as usize], "\"");
    }

    #[test]
    fn out_of_range_and_named_references_are_reported() {
        let f = fragment(r#"asm("mov.b32 %0, %3; add.s32 %[a], %[a], 1;" : [a] "+r"(x));"#);
        let codes: Vec<Code> = f.problems.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [Code::OperandRange, Code::NamedOperand, Code::NamedOperand]
        );
    }

    #[test]
    fn literal_c_operands_are_spliced() {
        let src = r#"asm("%1 %0, %0, 1;" : "+r"(x) : "C"("add.s32"));"#;
        let f = fragment(src);
        assert_eq!(body(&f), "add.s32 %0, %0, 1;");
        // The spliced text maps back into the operand's literal.
        let s = f.map_span(Span::new(f.body.0, f.body.0 + 3));
        assert_eq!(&src[s.start as usize..s.end as usize], "add");
        // A non-literal one leaves the statement unchecked.
        let s = find(br#"asm("%1 %0;" : "+r"(x) : "C"(kOp));"#);
        let v = super::super::judge(&s[0], &["sm_90".to_string()]);
        assert!(matches!(v, super::super::Verdict::Skipped { .. }));
    }

    #[test]
    fn integer_literals() {
        assert_eq!(integer("42"), Some(42));
        assert_eq!(integer(" -1 "), Some(-1));
        assert_eq!(integer("0x1Fu"), Some(31));
        assert_eq!(integer("(1'000)"), Some(1000));
        assert_eq!(integer("010"), Some(8));
        assert_eq!(integer("N"), None);
        assert_eq!(integer("int32_t(scaleA)"), None);
    }

    #[test]
    fn tied_and_unknown_constraints() {
        let f = fragment(r#"asm("add.f32 %0, %1, %2;" : "=f"(x) : "0"(x), "z"(y));"#);
        assert!(f.ptx.contains(".reg .f32 %1;"));
        assert_eq!(f.problems.len(), 1);
        assert_eq!(f.problems[0].code, Code::Constraint);
    }
}
