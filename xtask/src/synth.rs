//! A large module built from smaller ones (for the bench's split measurement).

use ptxkit::lex::{Lexer, TokenKind};
use ptxkit::Item;

/// One module of at least `min` bytes: a header, then the items of the
/// inputs (their own headers left out) in order, again and again if need
/// be, with module-scope symbols renamed apart in each copy. Inputs of more
/// than `min / 10` bytes are left out, so that no one function dominates
/// the module (a module can only be cut between functions).
pub fn module(inputs: &[Vec<u8>], min: usize) -> Vec<u8> {
    let inputs: Vec<&Vec<u8>> = inputs.iter().filter(|s| s.len() <= min / 10).collect();
    let mut out = b".version 8.8\n.target sm_90a\n.address_size 64\n".to_vec();
    let mut copy = 0;
    while out.len() < min && copy < 100_000 {
        for src in &inputs {
            if out.len() >= min {
                break;
            }
            append(&mut out, src, copy);
        }
        copy += 1;
    }
    out
}

fn append(out: &mut Vec<u8>, src: &[u8], copy: usize) {
    let parsed = ptxkit::parse(src);
    let mut symbols = std::collections::HashSet::new();
    let mut from = None;
    for it in &parsed.module.items {
        match it {
            Item::Version(_) | Item::Target(_) | Item::AddressSize(_) => continue,
            Item::Function(f) => {
                symbols.insert(f.name.as_str().to_string());
            }
            Item::Var(v) => symbols.extend(v.decls.iter().map(|d| d.name.to_string())),
            _ => {}
        }
        from.get_or_insert(it.span().start as usize);
    }
    let Some(from) = from else { return };
    let mut lx = Lexer::at(src, from);
    loop {
        let t = lx.next_token();
        if t.kind == TokenKind::Eof {
            break;
        }
        let text = t.span.slice(src);
        out.extend_from_slice(text);
        if t.kind == TokenKind::Ident && symbols.contains(std::str::from_utf8(text).unwrap_or("")) {
            out.extend_from_slice(format!("_c{copy}").as_bytes());
        }
    }
    out.push(b'\n');
}
