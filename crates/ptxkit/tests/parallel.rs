//! Parsing in pieces (`parse_in_pieces`, `parse_parallel`) and streaming
//! (`check`, `ItemStream`) give exactly what `parse` gives: the same tree,
//! spans and diagnostics. On the examples, a synthetic module of more than
//! 5 MB, and (when ../shared is present) every corpus file.

mod common;

use ptxkit::lex::{Lexer, TokenKind};
use ptxkit::{Item, Parsed};

/// Spans take no part in `==`; compare through JSON, which has them.
fn json<T: serde::Serialize>(x: &T) -> String {
    serde_json::to_string(x).unwrap_or_default()
}

fn assert_same(name: &str, seq: &Parsed, other: &Parsed, full: bool) {
    assert_eq!(
        json(&seq.diagnostics),
        json(&other.diagnostics),
        "{name}: diagnostics differ"
    );
    assert_eq!(seq.module, other.module, "{name}: trees differ");
    let spans = |p: &Parsed| p.module.items.iter().map(|i| i.span()).collect::<Vec<_>>();
    assert_eq!(json(&spans(seq)), json(&spans(other)), "{name}: item spans");
    if full {
        assert!(
            json(&seq.module) == json(&other.module),
            "{name}: spans inside the tree differ"
        );
    }
}

fn examples() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    v.sort();
    v.into_iter()
        .filter_map(|p| Some((p.display().to_string(), std::fs::read(&p).ok()?)))
        .collect()
}

/// One module of at least `min` bytes: the header of the first input, then
/// the items of every input again and again, module-scope symbols renamed
/// apart in each copy.
fn synthetic(inputs: &[Vec<u8>], min: usize) -> Vec<u8> {
    let mut out = b".version 8.8\n.target sm_90a\n.address_size 64\n".to_vec();
    let mut copy = 0;
    while out.len() < min && copy < 100_000 {
        for src in inputs {
            let parsed = ptxkit::parse(src);
            let mut symbols = std::collections::HashSet::new();
            let mut body_start = None;
            for it in &parsed.module.items {
                match it {
                    Item::Version(_) | Item::Target(_) | Item::AddressSize(_) => continue,
                    Item::Function(f) => {
                        symbols.insert(f.name.as_str().to_string());
                    }
                    Item::Var(v) => symbols.extend(v.decls.iter().map(|d| d.name.to_string())),
                    _ => {}
                }
                body_start.get_or_insert(it.span().start as usize);
            }
            let Some(from) = body_start else { continue };
            let mut lx = Lexer::at(src, from);
            loop {
                let t = lx.next_token();
                if t.kind == TokenKind::Eof {
                    break;
                }
                let text = t.span.slice(src);
                out.extend_from_slice(text);
                if t.kind == TokenKind::Ident
                    && symbols.contains(std::str::from_utf8(text).unwrap_or(""))
                {
                    out.extend_from_slice(format!("_c{copy}").as_bytes());
                }
            }
            out.push(b'\n');
        }
        copy += 1;
    }
    out
}

#[test]
fn examples_in_pieces_and_streamed() {
    let ex = examples();
    assert!(ex.len() > 3);
    for (name, src) in &ex {
        let seq = ptxkit::parse(src);
        for pieces in [2, 3, 8] {
            assert_same(name, &seq, &ptxkit::parse_in_pieces(src, pieces), true);
        }
        assert_same(name, &seq, &ptxkit::parse_parallel(src), true);
        assert_eq!(
            json(&seq.diagnostics),
            json(&ptxkit::syntax_check(src)),
            "{name}"
        );
        let streamed: Vec<Item> = ptxkit::ItemStream::new(src).map(|(i, _)| i).collect();
        assert_eq!(json(&seq.module.items), json(&streamed), "{name}");
    }
}

#[test]
fn synthetic_module_over_5_mb() {
    let inputs: Vec<Vec<u8>> = examples().into_iter().map(|(_, s)| s).collect();
    let src = synthetic(&inputs, 5_000_000);
    assert!(src.len() >= 5_000_000);
    let seq = ptxkit::parse(&src);
    assert!(!seq.has_errors(), "{:?}", seq.diagnostics.first());
    assert!(seq.module.functions().count() > 1000);
    assert_same("synthetic", &seq, &ptxkit::parse_in_pieces(&src, 4), true);
    assert_same("synthetic", &seq, &ptxkit::parse_parallel(&src), true);
    // Errors sprinkled through it come out the same, in source order.
    let mut bad = src.clone();
    for at in (100_000..bad.len()).step_by(700_000) {
        if let Some(b) = bad.get_mut(at) {
            *b = b'#';
        }
    }
    let seq = ptxkit::parse(&bad);
    assert!(seq.diagnostics.len() >= 5);
    assert_same(
        "synthetic+errors",
        &seq,
        &ptxkit::parse_in_pieces(&bad, 7),
        true,
    );
    assert_eq!(json(&seq.diagnostics), json(&ptxkit::syntax_check(&bad)));
}

#[test]
fn corpus_in_pieces_and_streamed() {
    let (Some(rows), Some(shared)) = (common::corpus_rows(), common::shared_dir()) else {
        eprintln!("note: ../shared/corpus not found; corpus split test skipped");
        return;
    };
    let mut checked = 0;
    for row in &rows {
        let Ok(src) = std::fs::read(shared.join("corpus").join(&row.path)) else {
            continue;
        };
        let seq = ptxkit::parse(&src);
        // Full span comparison (JSON of the whole tree) on the larger files.
        let full = src.len() > 300_000;
        let pieces = if src.len() > 100_000 { 4 } else { 2 };
        assert_same(
            &row.path,
            &seq,
            &ptxkit::parse_in_pieces(&src, pieces),
            full,
        );
        assert_eq!(
            json(&seq.diagnostics),
            json(&ptxkit::syntax_check(&src)),
            "{}",
            row.path
        );
        checked += 1;
    }
    assert!(checked > 1000, "only {checked} corpus files read");
}
