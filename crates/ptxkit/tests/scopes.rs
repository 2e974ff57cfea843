//! Block scopes: a block's declarations (registers, register ranges,
//! labels) shadow the enclosing ones and end with the block. ptxas 13.5
//! reports exactly lines 24, 25 and 26 of this module (`ptxas -arch=sm_80`).

use ptxkit::check::{check, check_source, CheckOptions};
use ptxkit::LineIndex;

const SRC: &str = "\
.version 8.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 out)
{
\t.reg .b32 %r<3>;
\t.reg .f32 x;
\t.reg .pred p;
\tmov.b32 %r1, 1;
\tadd.f32 x, x, x;
\t{
\t.reg .b32 x;
\tadd.s32 x, x, 1;
\tsetp.eq.s32 p, x, 0;
\t@p bra $L_in;
\t$L_in:
\t}
\t{
\t.reg .b32 %q<2>;
\tadd.s32 %q1, %r1, 1;
\t}
\tadd.f32 x, x, x;
\tadd.s32 x, x, 1;
\tadd.s32 %q1, %r1, 1;
\tbra $L_in;
\tret;
}
";

fn error_lines(diags: &[ptxkit::Diagnostic]) -> Vec<u32> {
    let index = LineIndex::new(SRC.as_bytes());
    let mut lines: Vec<u32> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| index.line_col(d.span.start).line)
        .collect();
    lines.dedup();
    lines
}

#[test]
fn a_blocks_declarations_end_with_it_streamed() {
    let d = check_source(SRC.as_bytes(), &CheckOptions::default());
    assert_eq!(error_lines(&d), [24, 25, 26], "{d:#?}");
}

#[test]
fn a_blocks_declarations_end_with_it_on_the_tree() {
    let parsed = ptxkit::parse(SRC.as_bytes());
    assert!(!parsed.has_errors());
    let d = check(&parsed.module, &CheckOptions::default());
    assert_eq!(error_lines(&d), [24, 25, 26], "{d:#?}");
}
