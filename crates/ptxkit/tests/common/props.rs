//! The properties the fuzz targets check (`fuzz/fuzz_targets/*.rs` include
//! this file), shared with the regression test that replays the inputs the
//! fuzzers once crashed on (`tests/fuzz_regressions.rs`).
//!
//! Each function panics when its property does not hold: that is how
//! libFuzzer and the test harness see a failure.
#![allow(dead_code)]

use ptxkit::diag::{render, Diagnostic, JsonDiagnostic};
use ptxkit::LineIndex;

/// The checker under test: parse, then the semantic checker (run on every
/// input, errors or not, so it also sees partial trees), then the summary.
const CHECKER: fn(&[u8]) -> Vec<Diagnostic> = parse_and_check;

fn parse_and_check(src: &[u8]) -> Vec<Diagnostic> {
    let parsed = ptxkit::parse(src);
    let mut diags = parsed.diagnostics.clone();
    diags.extend(ptxkit::check::check(
        &parsed.module,
        &ptxkit::check::CheckOptions::default(),
    ));
    let summary = ptxkit::analysis::summary::summarize(&parsed.module);
    let _ = serde_json::to_string(&summary);
    diags
}

/// Every diagnostic lies inside the input and renders (text and JSON).
pub fn diagnostics_sound(src: &[u8], diags: &[Diagnostic]) {
    let index = LineIndex::new(src);
    for d in diags {
        assert!(
            d.span.start <= d.span.end && d.span.end as usize <= src.len(),
            "diagnostic span {:?} outside the input of {} bytes: {}",
            d.span,
            src.len(),
            d.message
        );
        for l in &d.labels {
            assert!(
                l.span.end as usize <= src.len(),
                "label span outside the input"
            );
        }
        let text = render(d, "fuzz.ptx", src, &index);
        assert!(
            text.starts_with("fuzz.ptx:"),
            "rendered without a position: {text}"
        );
        assert!(
            !text.bytes().any(|b| b < 0x20 && b != b'\n' && b != b'\t') && !text.contains('\u{7f}'),
            "raw control byte in a rendered diagnostic: {text:?}"
        );
        let _ = serde_json::to_string(&JsonDiagnostic::new("fuzz.ptx", d, &index));
    }
}

/// `parse`: parsing never panics, whatever the bytes; its diagnostics point
/// into the input; a rejected input has at least one error; the snippet
/// entry point (`parse_body`) holds up too.
pub fn parse(src: &[u8]) {
    let parsed = ptxkit::parse(src);
    diagnostics_sound(src, &parsed.diagnostics);
    pieces_make_the_tree(src, &parsed);
    let (_, diags) = ptxkit::parse_body(src);
    diagnostics_sound(src, &diags);
}

/// The pieces of a [`ptxkit::PieceStream`], put together, are the tree of
/// `parse` (spans included), and their diagnostics are its diagnostics.
pub fn pieces_make_the_tree(src: &[u8], parsed: &ptxkit::Parsed) {
    pieces_make_the_tree_with(src, parsed, ptxkit::LONG_INIT_BYTES);
    // Lists of more than a few bytes read in parts.
    pieces_make_the_tree_with(src, parsed, SHORT_LISTS);
}

/// The length over which the properties read initializer lists in parts,
/// so that inputs of any size take that path.
pub const SHORT_LISTS: usize = 8;

/// Add `item` to a list being put together from parts: a run of decimals
/// joins the run before it, as one run of the whole parse's list.
fn push_part(items: &mut Vec<ptxkit::syntax::Initializer>, item: ptxkit::syntax::Initializer) {
    use ptxkit::syntax::Initializer;
    if let (Some(Initializer::Decimals(last)), Initializer::Decimals(more)) =
        (items.last_mut(), &item)
    {
        let mut run = std::mem::take(last).into_vec();
        run.extend(more.iter().copied());
        *last = run.into_boxed_slice();
        return;
    }
    items.push(item);
}

/// A declaration being put together from its parts: the declaration, its
/// open lists (each with its `{` offset) and its list once closed.
type Reading = (
    ptxkit::syntax::VarDecl,
    Vec<(u32, Vec<ptxkit::syntax::Initializer>)>,
    Option<ptxkit::syntax::Initializer>,
);

/// [`pieces_make_the_tree`], reading lists longer than `long` in parts.
fn pieces_make_the_tree_with(src: &[u8], parsed: &ptxkit::Parsed, long: usize) {
    use ptxkit::syntax::{Block, Function, Initializer, Item, Stmt};
    use ptxkit::{DataPiece, InitEvent, Piece};
    let mut stream = ptxkit::PieceStream::new(src).with_long_initializers(long);
    // The declaration read in parts, its open lists and its list once
    // closed.
    let mut var: Option<Reading> = None;
    let mut items = Vec::new();
    let mut diags = Vec::new();
    // The function being put together, and its open blocks' statements
    // with their `{` offsets.
    let mut function: Option<Function> = None;
    let mut open: Vec<(u32, Vec<Stmt>)> = Vec::new();
    for (piece, d) in &mut stream {
        diags.extend(d);
        match piece {
            Piece::Item(item) => items.push(*item),
            Piece::FunctionStart(f) => {
                let brace = f.body.as_ref().map_or(0, |b| b.span.start);
                assert!(
                    function.is_none() && open.is_empty(),
                    "function inside a function"
                );
                function = Some(*f);
                open.push((brace, Vec::new()));
            }
            Piece::BlockStart(at) => open.push((at, Vec::new())),
            Piece::Stmt(s) => {
                assert!(!matches!(s, Stmt::Block(_)), "a block as one piece");
                open.last_mut().expect("statement outside a body").1.push(s);
            }
            Piece::BlockEnd(span) => {
                let (at, stmts) = open.pop().expect("block end outside a body");
                assert_eq!(at, span.start, "block span starts at its `{{`");
                let block = Stmt::Block(Block { stmts, span });
                open.last_mut()
                    .expect("nested block outside a body")
                    .1
                    .push(block);
            }
            Piece::Data(d) => match *d {
                DataPiece::Start(v) => {
                    assert!(var.is_none(), "a declaration inside a declaration");
                    var = Some((*v, Vec::new(), None));
                }
                DataPiece::Part(events) => {
                    let (_, lists, done) = var.as_mut().expect("a part outside a declaration");
                    for e in events {
                        match e {
                            InitEvent::Open(at) => lists.push((at, Vec::new())),
                            InitEvent::Item(i) => {
                                assert!(
                                    !matches!(i, Initializer::List { .. }),
                                    "a list as an item"
                                );
                                push_part(
                                    &mut lists.last_mut().expect("an item outside a list").1,
                                    i,
                                );
                            }
                            InitEvent::Close(span) => {
                                let (at, items) = lists.pop().expect("a close outside a list");
                                assert_eq!(at, span.start, "a list's span starts at its `{{`");
                                let list = Initializer::List {
                                    items: items.into_boxed_slice(),
                                    span,
                                };
                                match lists.last_mut() {
                                    Some(parent) => parent.1.push(list),
                                    None => *done = Some(list),
                                }
                            }
                        }
                    }
                }
                DataPiece::End(span) => {
                    let (mut v, lists, done) = var.take().expect("an end outside a declaration");
                    assert!(lists.is_empty(), "lists left open");
                    let list = done.expect("a declaration without its list");
                    let d = v.decls.last_mut().expect("a declarator");
                    d.span = ptxkit::Span::new(d.span.start, list.span().end);
                    d.init = Some(list);
                    v.span = span;
                    match open.last_mut() {
                        Some(block) => block.1.push(Stmt::Var(Box::new(v))),
                        None => items.push(Item::Var(v)),
                    }
                }
                DataPiece::Broken(span) => {
                    var.take().expect("an end outside a declaration");
                    match open.last_mut() {
                        Some(block) => block.1.push(Stmt::Error(span)),
                        None => items.push(Item::Error(span)),
                    }
                }
            },
            Piece::FunctionEnd(span) => {
                let (at, stmts) = open.pop().expect("function end outside a body");
                assert!(open.is_empty(), "function ends with blocks open");
                let mut f = function.take().expect("function end without a start");
                f.body = Some(Block {
                    stmts,
                    span: ptxkit::Span::new(at, span.end),
                });
                f.span = span;
                items.push(Item::Function(f));
            }
        }
    }
    assert!(function.is_none(), "a function never ended");
    assert!(var.is_none(), "a declaration never ended");
    diags.extend(stream.finish());
    diags.sort_by_key(|d| d.span.start);
    // Spans compare equal whatever they hold: compare the printed trees.
    let whole = format!("{:?}", parsed.module.items);
    let pieced = format!("{items:?}");
    assert!(
        whole == pieced,
        "pieces make a different tree:\n{pieced}\n---\n{whole}"
    );
    let key = |d: &Diagnostic| (d.span.start, d.span.end, format!("{d:?}"));
    assert!(
        diags.iter().map(key).eq(parsed.diagnostics.iter().map(key)),
        "pieces give different diagnostics:\n{diags:#?}\n{:#?}",
        parsed.diagnostics
    );
}

/// Remove every second statement of every block (nested ones too).
fn drop_every_other(b: &mut ptxkit::syntax::Block) {
    let mut k = 0usize;
    b.stmts.retain(|_| {
        k += 1;
        k % 2 == 1
    });
    for s in &mut b.stmts {
        if let ptxkit::Stmt::Block(inner) = s {
            drop_every_other(inner);
        }
    }
}

/// `lossless`: the lossless printer gives back the input byte for byte, for
/// every input (accepted or not: error nodes keep their text); for an
/// accepted input with every second statement removed, it prints text that
/// parses to the edited tree.
pub fn lossless(src: &[u8]) {
    let parsed = ptxkit::parse(src);
    if !parsed.has_errors() {
        let mut edited = parsed.module.clone();
        for i in &mut edited.items {
            if let ptxkit::Item::Function(f) = i {
                if let Some(b) = &mut f.body {
                    drop_every_other(b);
                }
            }
        }
        let text = ptxkit::print::lossless(&edited, src);
        let again = ptxkit::parse(&text);
        assert!(
            !again.has_errors() && again.module == edited,
            "lossless print of an edited tree does not parse to it: {:?}\n--- print ---\n{}",
            again.diagnostics,
            String::from_utf8_lossy(&text)
        );
    }
    let out = ptxkit::print::lossless(&parsed.module, src);
    if out != src {
        let at = out
            .iter()
            .zip(src)
            .position(|(a, b)| a != b)
            .unwrap_or(out.len().min(src.len()));
        panic!(
            "lossless print differs from the input at byte {at} (input {} bytes, output {})",
            src.len(),
            out.len()
        );
    }
}

/// `canonical`: for an accepted input, the canonical print parses without
/// errors to an equal tree, and printing that again gives the same text.
pub fn canonical(src: &[u8]) {
    let parsed = ptxkit::parse(src);
    let text = ptxkit::print::canonical(&parsed.module);
    if parsed.has_errors() {
        return;
    }
    let again = ptxkit::parse(text.as_bytes());
    let errors: Vec<&str> = again
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        errors.is_empty(),
        "canonical print of an accepted input is rejected: {errors:?}\n--- print ---\n{text}"
    );
    assert!(
        again.module == parsed.module,
        "canonical print parses to a different tree\n--- print ---\n{text}"
    );
    assert_eq!(
        ptxkit::print::canonical(&again.module),
        text,
        "canonical print is not idempotent"
    );
    // With the comments kept, the same tree.
    let commented = ptxkit::print::canonical_with_comments(&parsed.module, src);
    let again = ptxkit::parse(commented.as_bytes());
    assert!(
        !again.has_errors() && again.module == parsed.module,
        "canonical print with comments parses to a different tree: {:?}\n--- print ---\n{commented}",
        again.diagnostics
    );
}

/// `check`: the checker never panics and its diagnostics are sound; the
/// streaming check (`ptx check`'s path, one item at a time) says exactly
/// what parsing the whole module and then checking it says.
pub fn check(src: &[u8]) {
    let diags = CHECKER(src);
    diagnostics_sound(src, &diags);
    streamed_equals_whole(src, "input");
    spills_change_nothing(src, "input");
}

/// The streaming check with no error cap gives the same diagnostics, in the
/// same order, when it writes them and the uses waiting for a label to
/// disk a few at a time (`CheckOptions::small_spills`) as when it holds
/// them in memory (what it does below tens of thousands of either).
pub fn spills_change_nothing(src: &[u8], what: &str) {
    use ptxkit::check::{check_source, check_source_sorted, CheckOptions};
    let held = check_source(src, &CheckOptions::default());
    let small = CheckOptions {
        small_spills: true,
        ..CheckOptions::default()
    };
    let spilled = check_source(src, &small);
    let key = |d: &Diagnostic| (d.span.start, d.span.end, format!("{d:?}"));
    assert!(
        held.iter().map(key).eq(spilled.iter().map(key)),
        "{what}: written to disk, the diagnostics differ from those held:\n{spilled:#?}\n{held:#?}"
    );
    let sorted = check_source_sorted(src, &small, 0, |_| {});
    let errors = held.iter().filter(|d| d.is_error()).count();
    assert_eq!(
        (sorted.errors, sorted.warnings),
        (errors, held.len() - errors),
        "{what}: counts of the sorted check with small spills"
    );
    let mut sorted = sorted;
    assert!(
        (&mut sorted).map(|d| key(&d)).eq(held.iter().map(key)),
        "{what}: the sorted check with small spills differs"
    );
    assert!(sorted.failed().is_none(), "{what}: a spill file failed");
}

/// The diagnostics of the streaming check (`check_source`, `ptx check`'s
/// path), after asserting that they are exactly those of parsing `src`
/// whole and then checking it when it has no syntax errors, and, when it
/// has some, that they hold every syntax diagnostic of the whole parse (the
/// rest being the semantic errors of the pieces that parsed); also that the
/// pieces it reads make the same tree.
pub fn streamed_equals_whole(src: &[u8], what: &str) -> Vec<Diagnostic> {
    let opts = ptxkit::check::CheckOptions::default();
    let parsed = ptxkit::parse(src);
    pieces_make_the_tree(src, &parsed);
    let streamed = ptxkit::check::check_source(src, &opts);
    let short = ptxkit::check::CheckOptions {
        long_initializers: Some(SHORT_LISTS),
        ..Default::default()
    };
    let in_parts = ptxkit::check::check_source(src, &short);
    // Spans compare equal whatever they hold: compare their offsets too.
    let key = |d: &Diagnostic| (d.span.start, d.span.end, format!("{d:?}"));
    if parsed.has_errors() {
        let mut rest = streamed.iter().map(key);
        for d in &parsed.diagnostics {
            let k = key(d);
            assert!(
                rest.any(|s| s == k),
                "{what}: the streaming check lost the syntax diagnostic {d:#?}:\n{streamed:#?}"
            );
            let mut rest = in_parts.iter().map(key);
            assert!(
                rest.any(|s| s == k),
                "{what}: the check reading lists in parts lost the syntax diagnostic {d:#?}:\n{in_parts:#?}"
            );
        }
        return streamed;
    }
    let mut whole = parsed.diagnostics.clone();
    whole.extend(ptxkit::check::check(&parsed.module, &opts));
    whole.sort_by_key(|d| d.span.start);
    assert!(
        streamed.iter().map(key).eq(whole.iter().map(key)),
        "{what}: streaming check differs from the whole-module check:\n{streamed:#?}\n{whole:#?}"
    );
    assert!(
        in_parts.iter().map(key).eq(whole.iter().map(key)),
        "{what}: the check reading lists in parts differs from the whole-module check:\n{in_parts:#?}\n{whole:#?}"
    );
    whole
}

/// All four properties.
pub fn all(src: &[u8]) {
    parse(src);
    lossless(src);
    canonical(src);
    check(src);
}
