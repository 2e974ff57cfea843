//! Evaluating the expression of an `#if` or `#elif` in one compile pass:
//! `defined`, integer literals, macros (those nvcc predefines, then those
//! the source defines), the arithmetic, comparison and logical operators
//! and `?:`. An identifier no source defines is not known (a `-D` of the
//! build, or a macro of a header not read): what depends on it is not
//! decided, unless the other operand of `&&`/`||` decides. A name that
//! says another platform (`GGML_USE_HIP`, `USE_ROCM`: see
//! [`other_platform`]) is undefined. A function-like macro or
//! `__has_include` is not decided either.

use super::cpp_lex::Kind;
use super::macros::{PTok, Table};
use super::passes::Passes;

/// What evaluating an expression needs.
pub struct Env<'a> {
    /// The macros seen so far.
    pub table: &'a Table,
    /// The passes and their predefined macros.
    pub passes: &'a Passes,
    /// Integer constants (for `"n"` operands; `None` when ambiguous).
    pub constants: Option<&'a std::collections::HashMap<Vec<u8>, Option<i128>>>,
}

/// The value of `toks` in pass `k`; `None` when it cannot be decided.
/// Identifiers taken as undefined are added to `assumed`.
pub fn eval(env: &Env, toks: &[PTok], k: usize, assumed: &mut Vec<String>) -> Option<i128> {
    let mut items = Vec::new();
    flatten(env, toks, k, assumed, &mut items, 0)?;
    let mut p = Parser {
        items: &items,
        i: 0,
    };
    let v = p.ternary(0)?;
    (p.i == items.len() && !v.unknown).then_some(v.v)
}

/// An expression's item after macros are replaced.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Item {
    Num(i128),
    /// An identifier no source defines: not known.
    Undef,
    Op(&'static str),
}

/// A value, or not known.
#[derive(Clone, Copy)]
struct Val {
    v: i128,
    unknown: bool,
}

fn val(v: i128) -> Val {
    Val { v, unknown: false }
}

const UNKNOWN: Val = Val {
    v: 0,
    unknown: true,
};

/// Whether a macro name says a platform other than NVIDIA's CUDA (one of
/// its `_`-separated words is `HIP`, `ROCM`, `AMD`, `MUSA`, `SYCL`…, or an
/// AMD GPU `gfx…`, `RDNA…`, `CDNA…`): such a macro is taken as undefined.
pub fn other_platform(name: &[u8]) -> bool {
    let amd_arch = |w: &[u8]| {
        let l = w.to_ascii_lowercase();
        l.starts_with(b"gfx") || l.starts_with(b"rdna") || l.starts_with(b"cdna")
    };
    if name.split(|&b| b == b'_').any(amd_arch) {
        return true;
    }
    const WORDS: [&str; 24] = [
        "hip",
        "hipcc",
        "rocm",
        "amd",
        "amdgpu",
        "musa",
        "sycl",
        "metal",
        "vulkan",
        "opencl",
        "ascend",
        "cann",
        "mlu",
        "maca",
        "ppc",
        "ppc64",
        "powerpc",
        "aarch64",
        "arm",
        "neon",
        "riscv",
        "loongarch",
        "hexagon",
        "wasm",
    ];
    name.split(|&b| b == b'_')
        .filter(|w| !w.is_empty())
        .any(|w| WORDS.iter().any(|x| x.as_bytes().eq_ignore_ascii_case(w)))
}

const OPS: [&str; 24] = [
    "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "<", ">", "+", "-", "*", "/", "%", "&", "|",
    "^", "!", "~", "(", ")", "?", ":",
];

/// Replace macros and `defined` by numbers; join operators.
fn flatten(
    env: &Env,
    toks: &[PTok],
    k: usize,
    assumed: &mut Vec<String>,
    out: &mut Vec<Item>,
    depth: usize,
) -> Option<()> {
    if depth > 32 || out.len() > 4096 {
        return None;
    }
    let mut i = 0usize;
    while let Some(t) = toks.get(i) {
        i = i.saturating_add(1);
        match t.kind {
            Kind::Number => out.push(Item::Num(super::fragment::integer(
                std::str::from_utf8(&t.text).ok()?,
            )?)),
            Kind::Char => {
                let v = t.text.get(1).copied()?;
                out.push(Item::Num(i128::from(v)));
            }
            Kind::Ident if t.is_defined() => {
                let (name, next) = match toks.get(i) {
                    Some(n) if n.kind == Kind::Punct(b'(') => {
                        let name = toks.get(i.saturating_add(1))?;
                        let close = toks.get(i.saturating_add(2))?;
                        if close.kind != Kind::Punct(b')') {
                            return None;
                        }
                        (name, i.saturating_add(3))
                    }
                    Some(n) => (n, i.saturating_add(1)),
                    None => return None,
                };
                i = next;
                let d = match env.passes.predefined(k, &name.text) {
                    Some(v) => Some(v.is_some()),
                    None => match env.table.is_defined(&name.text, k) {
                        None if other_platform(&name.text) => {
                            note(assumed, &name.text);
                            Some(false)
                        }
                        d => d,
                    },
                };
                out.push(d.map_or(Item::Undef, |d| Item::Num(i128::from(d))));
            }
            Kind::Ident => {
                if let Some(v) = env.passes.predefined(k, &t.text) {
                    out.push(Item::Num(v.unwrap_or(0)));
                    continue;
                }
                match env.table.get(&t.text, k) {
                    // Defined under an undecided condition.
                    Some(def) if def.sure & super::passes::bit(k) == 0 => out.push(Item::Undef),
                    Some(def) if def.params.is_none() => {
                        if def.body.is_empty() {
                            return None;
                        }
                        flatten(env, &def.body, k, assumed, out, depth.saturating_add(1))?;
                    }
                    Some(_) => return None,
                    None => {
                        if let Some(c) = env.constants {
                            // An operand's expression: a constant or nothing.
                            match c.get(t.text.as_slice()) {
                                Some(Some(v)) => out.push(Item::Num(*v)),
                                _ => match t.text.as_slice() {
                                    b"true" => out.push(Item::Num(1)),
                                    b"false" => out.push(Item::Num(0)),
                                    _ => return None,
                                },
                            }
                            continue;
                        }
                        match t.text.as_slice() {
                            b"true" => out.push(Item::Num(1)),
                            b"false" => out.push(Item::Num(0)),
                            w if w.starts_with(b"__has") => return None,
                            w if env.table.seen(w) => out.push(Item::Num(0)),
                            w if other_platform(w) => {
                                note(assumed, w);
                                out.push(Item::Num(0));
                            }
                            _ => out.push(Item::Undef),
                        }
                    }
                }
            }
            Kind::Punct(c) => {
                // Two-byte operators are two tokens with no space between.
                let two = toks
                    .get(i)
                    .filter(|n| !n.space && matches!(n.kind, Kind::Punct(_)))
                    .and_then(|n| n.text.first().copied());
                let pair = two.and_then(|d| {
                    let s = [c, d];
                    OPS.iter().find(|o| o.as_bytes() == s)
                });
                if let Some(op) = pair {
                    i = i.saturating_add(1);
                    out.push(Item::Op(op));
                } else {
                    let s = [c];
                    let op = OPS.iter().find(|o| o.as_bytes() == s)?;
                    out.push(Item::Op(op));
                }
            }
            _ => return None,
        }
    }
    Some(())
}

fn note(assumed: &mut Vec<String>, w: &[u8]) {
    let s = String::from_utf8_lossy(w);
    if assumed.len() < 16 && !assumed.iter().any(|a| *a == s) {
        assumed.push(s.into_owned());
    }
}

struct Parser<'a> {
    items: &'a [Item],
    i: usize,
}

fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | ">" | "<=" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<Item> {
        self.items.get(self.i).copied()
    }

    fn ternary(&mut self, depth: usize) -> Option<Val> {
        if depth > 64 {
            return None;
        }
        let c = self.binary(1, depth)?;
        if self.peek() == Some(Item::Op("?")) {
            self.i = self.i.saturating_add(1);
            let a = self.ternary(depth.saturating_add(1))?;
            if self.peek() != Some(Item::Op(":")) {
                return None;
            }
            self.i = self.i.saturating_add(1);
            let b = self.ternary(depth.saturating_add(1))?;
            return Some(if c.unknown {
                UNKNOWN
            } else if c.v != 0 {
                a
            } else {
                b
            });
        }
        Some(c)
    }

    fn binary(&mut self, min: u8, depth: usize) -> Option<Val> {
        let mut lhs = self.unary(depth)?;
        while let Some(Item::Op(op)) = self.peek() {
            let Some(p) = precedence(op).filter(|&p| p >= min) else {
                break;
            };
            self.i = self.i.saturating_add(1);
            let rhs = self.binary(p.saturating_add(1), depth)?;
            let known = |x: Val, v: bool| !x.unknown && (x.v != 0) == v;
            lhs = match op {
                // A known operand may decide.
                "&&" if known(lhs, false) || known(rhs, false) => val(0),
                "||" if known(lhs, true) || known(rhs, true) => val(1),
                _ if lhs.unknown || rhs.unknown => UNKNOWN,
                _ => val(apply(op, lhs.v, rhs.v)?),
            };
        }
        Some(lhs)
    }

    fn unary(&mut self, depth: usize) -> Option<Val> {
        if depth > 64 {
            return None;
        }
        let it = self.peek()?;
        self.i = self.i.saturating_add(1);
        let d = depth.saturating_add(1);
        match it {
            Item::Num(v) => Some(val(v)),
            Item::Undef => Some(UNKNOWN),
            Item::Op("(") => {
                let v = self.ternary(d)?;
                if self.peek() != Some(Item::Op(")")) {
                    return None;
                }
                self.i = self.i.saturating_add(1);
                Some(v)
            }
            Item::Op("!") => self.unary(d).map(|x| Val {
                v: i128::from(x.v == 0),
                unknown: x.unknown,
            }),
            Item::Op("~") => self.unary(d).map(|x| Val {
                v: !x.v,
                unknown: x.unknown,
            }),
            Item::Op("-") => self.unary(d).map(|x| Val {
                v: x.v.saturating_neg(),
                unknown: x.unknown,
            }),
            Item::Op("+") => self.unary(d),
            Item::Op(_) => None,
        }
    }
}

fn apply(op: &str, a: i128, b: i128) -> Option<i128> {
    Some(match op {
        "||" => i128::from(a != 0 || b != 0),
        "&&" => i128::from(a != 0 && b != 0),
        "|" => a | b,
        "^" => a ^ b,
        "&" => a & b,
        "==" => i128::from(a == b),
        "!=" => i128::from(a != b),
        "<" => i128::from(a < b),
        ">" => i128::from(a > b),
        "<=" => i128::from(a <= b),
        ">=" => i128::from(a >= b),
        "<<" => a.checked_shl(u32::try_from(b).ok()?)?,
        ">>" => a.checked_shr(u32::try_from(b).ok()?)?,
        "+" => a.checked_add(b)?,
        "-" => a.checked_sub(b)?,
        "*" => a.checked_mul(b)?,
        "/" => a.checked_div(b)?,
        "%" => a.checked_rem(b)?,
        _ => return None,
    })
}
