//! The check after a syntax error: what parsed is still checked; what a
//! broken declaration would have declared does not cascade into "not
//! declared" errors. Also the bounded check and the rendering of frames.

use ptxkit::check::{check_source, check_source_bounded, syntax_check_bounded, CheckOptions};
use ptxkit::diag::{render, render_styled};
use ptxkit::LineIndex;

const HEADER: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";

/// `(line, code)` of each diagnostic of the full check of `body`.
fn lines_and_codes(src: &str) -> Vec<(u32, &'static str)> {
    let index = LineIndex::new(src.as_bytes());
    check_source(src.as_bytes(), &CheckOptions::default())
        .iter()
        .map(|d| (index.line_col(d.span.start).line, d.code.as_str()))
        .collect()
}

#[test]
fn semantic_errors_after_and_before_a_syntax_error_are_reported() {
    let src = format!(
        "{HEADER}.visible .entry a() {{
  .reg .b32 %r<2>;
  mov.u32 %r1, %early;
  add.u32 %r1, %r1 %r1;
  mov.u32 %r1, %late;
  ret;
}}
.visible .entry b() {{
  .reg .b32 %x;
  .reg .b32 %x;
  bra $nowhere;
  call.uni nofunc, ();
  ret;
}}
"
    );
    assert_eq!(
        lines_and_codes(&src),
        [
            (6, "E0401"),
            (7, "E0101"),
            (8, "E0401"),
            (13, "E0402"),
            (14, "E0403"),
            (15, "E0601"),
        ]
    );
}

#[test]
fn a_broken_declaration_does_not_cascade_in_its_function() {
    let src = format!(
        "{HEADER}.visible .entry a() {{
  .reg .b32 %v junk;
  mov.u32 %v, 1;
  bra $L;
$L junk:
  ret;
}}
.visible .entry b() {{
  mov.u32 %v, %nope;
  ret;
}}
"
    );
    let got = lines_and_codes(&src);
    // The two syntax errors; nothing about `%v` or `$L` in `a`, but `b`
    // (another function) is checked as usual.
    assert_eq!(
        got,
        [(5, "E0101"), (8, "E0201"), (12, "E0401"), (12, "E0401")],
        "{got:?}"
    );
}

#[test]
fn a_broken_module_item_silences_not_declared_for_the_rest() {
    let src = format!(
        "{HEADER}.global .u32 g junk;
.visible .entry a() {{
  .reg .b64 %p;
  mov.u64 %p, g;
  call.uni missing, ();
  ret;
}}
"
    );
    let got = lines_and_codes(&src);
    assert_eq!(
        got.iter()
            .filter(|(_, c)| *c == "E0401" || *c == "E0601")
            .count(),
        0,
        "{got:?}"
    );
    assert!(got.iter().any(|&(l, c)| l == 4 && c == "E0101"), "{got:?}");
}

#[test]
fn the_bounded_check_keeps_the_first_and_counts_all() {
    let mut src = format!("{HEADER}.visible .entry k() {{\n  .reg .b32 %r<2>;\n");
    for i in 0..5000 {
        src.push_str(&format!("  mov.u32 %r1, %u{i};\n"));
    }
    src.push_str("}\n");
    let full = check_source(src.as_bytes(), &CheckOptions::default());
    assert_eq!(full.len(), 5000);
    let c = check_source_bounded(src.as_bytes(), &CheckOptions::default(), 10, |_| {});
    assert_eq!(c.diagnostics, full[..10]);
    assert_eq!((c.errors, c.warnings, c.omitted()), (5000, 0, 4990));
    let s = syntax_check_bounded(b".version 8.0\n.target sm_90\n.entry k() { a; b; c; }", 2);
    assert_eq!((s.diagnostics.len(), s.errors), (2, 3));
    assert_eq!(
        syntax_check_bounded(b"x", 0).diagnostics,
        ptxkit::syntax_check(b"x")
    );
}

#[test]
fn frames_escape_control_bytes_and_colour_only_when_asked() {
    let src = b".version 8.0\n.target sm_90\n.entry k() { \x1b[31m\x07frob; }\n";
    let d = &ptxkit::parse(src).diagnostics[0];
    let index = LineIndex::new(src);
    let plain = render(d, "k.ptx", src, &index);
    assert!(
        plain.contains("3 | .entry k() { \\x1b[31m\\x07frob; }\n"),
        "{plain}"
    );
    assert!(!plain.bytes().any(|b| b < 0x20 && b != b'\n'), "{plain:?}");
    let coloured = render_styled(d, "k.ptx", src, &index, true);
    assert!(coloured.contains("\x1b["), "{coloured:?}");
    // Without its escapes, the coloured text is the plain one.
    let mut stripped = String::new();
    let mut rest = coloured.as_str();
    while let Some(i) = rest.find("\x1b[") {
        stripped.push_str(&rest[..i]);
        rest = rest[i..].split_once('m').map_or("", |(_, r)| r);
    }
    stripped.push_str(rest);
    assert_eq!(stripped, plain);
}

#[test]
fn labels_on_other_lines_get_their_own_frame() {
    let src =
        format!("{HEADER}.visible .entry k() {{\n  .reg .b32 %a;\n  .reg .b32 %a;\n  ret;\n}}\n");
    let d = check_source(src.as_bytes(), &CheckOptions::default());
    let text = render(
        &d[0],
        "k.ptx",
        src.as_bytes(),
        &LineIndex::new(src.as_bytes()),
    );
    assert_eq!(
        text,
        "k.ptx:6:13: error: `%a` is declared twice in the same scope [E0402]
  |
6 |   .reg .b32 %a;
  |             ^^
  |
 ::: k.ptx:5:13
  |
5 |   .reg .b32 %a;
  |             -- `%a` was first declared here
"
    );
}
