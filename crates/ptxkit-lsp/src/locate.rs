//! Finding what is at an offset: the item, the instruction, the word.

use ptxkit::syntax::{Block, Function, Instruction, Stmt};
use ptxkit::{Item, Module, Span};

/// The top-level item whose text holds `off`.
pub fn item_at(m: &Module, off: u32) -> Option<&Item> {
    let i = m.items.partition_point(|it| it.span().start <= off);
    let it = m.items.get(i.checked_sub(1)?)?;
    (off <= it.span().end).then_some(it)
}

/// The function whose text holds `off`.
pub fn function_at(m: &Module, off: u32) -> Option<&Function> {
    match item_at(m, off)? {
        Item::Function(f) => Some(f),
        _ => None,
    }
}

/// The statement of `b` (or of a nested block) whose text holds `off`.
pub fn stmt_at(b: &Block, off: u32) -> Option<&Stmt> {
    let i = b.stmts.partition_point(|s| s.span().start <= off);
    let s = b.stmts.get(i.checked_sub(1)?)?;
    if off > s.span().end {
        return None;
    }
    match s {
        Stmt::Block(inner) => stmt_at(inner, off).or(Some(s)),
        _ => Some(s),
    }
}

/// The instruction whose text holds `off`.
pub fn instruction_at(m: &Module, off: u32) -> Option<&Instruction> {
    let body = function_at(m, off)?.body.as_ref()?;
    match stmt_at(body, off)? {
        Stmt::Instruction(i) => Some(i),
        _ => None,
    }
}

/// Whether `c` may be part of a PTX identifier.
pub fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%')
}

/// The identifier around `off` (the cursor may be just after it).
pub fn word_at(src: &[u8], off: u32) -> Option<(Span, &str)> {
    let off = (off as usize).min(src.len());
    let mut a = off;
    while a > 0 && src.get(a - 1).copied().is_some_and(ident_char) {
        a -= 1;
    }
    let mut b = off;
    while src.get(b).copied().is_some_and(ident_char) {
        b += 1;
    }
    if a == b {
        return None;
    }
    let w = std::str::from_utf8(src.get(a..b)?).ok()?;
    Some((Span::new(a as u32, b as u32), w))
}

/// The text of `span` on one line, runs of blanks made one space, cut to
/// `max` bytes.
pub fn one_line(src: &[u8], span: Span, max: usize) -> String {
    let text = span.text(src);
    let mut out = String::new();
    let mut blank = false;
    for c in text.chars() {
        if c.is_whitespace() {
            blank = true;
            continue;
        }
        if blank && !out.is_empty() {
            out.push(' ');
        }
        blank = false;
        out.push(c);
        if out.len() >= max {
            out.push('…');
            break;
        }
    }
    out
}
