//! Hostile inputs, generated at run time: each must produce a positioned
//! diagnostic, never a panic or a stack overflow, in bounded time.

use std::time::{Duration, Instant};

fn header() -> String {
    ".version 8.0\n.target sm_90\n.address_size 64\n".to_string()
}

/// Parse on a thread with a small stack (2 MiB, the test default), check
/// the diagnostics and the lossless print, and bound the time.
fn must_reject(name: &str, src: Vec<u8>) {
    let t = Instant::now();
    let parsed = ptxkit::parse(&src);
    assert!(parsed.has_errors(), "{name}: should be rejected");
    for d in &parsed.diagnostics {
        assert!(
            d.span.start as usize <= src.len() && d.span.end as usize <= src.len(),
            "{name}: span out of bounds"
        );
    }
    assert_eq!(
        ptxkit::print::lossless(&parsed.module, &src),
        src,
        "{name}: lossless"
    );
    let _ = ptxkit::print::canonical(&parsed.module);
    if src.len() < 1 << 20 {
        let _ = serde_json::to_string(&parsed.module);
    }
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "{name}: took {:?}",
        t.elapsed()
    );
}

#[test]
fn nested_blocks() {
    let mut s = header();
    s.push_str(".visible .entry k()\n");
    s.push_str(&"{".repeat(100_000));
    must_reject("100k nested blocks", s.into_bytes());
}

#[test]
fn nested_initializers_and_parentheses() {
    let mut s = header();
    s.push_str(".global .u32 x[1] = ");
    s.push_str(&"{".repeat(50_000));
    s.push_str("1;\n");
    must_reject("nested initializer braces", s.clone().into_bytes());
    let mut s = header();
    s.push_str(".visible .entry k() { .reg .b32 %r1; mov.b32 %r1, ");
    s.push_str(&"(".repeat(50_000));
    s.push('1');
    s.push_str(&")".repeat(50_000));
    s.push_str("; }\n");
    must_reject("nested parentheses", s.into_bytes());
}

#[test]
fn long_flat_expression() {
    let mut s = header();
    s.push_str(".visible .entry k() { .reg .b32 %r1; mov.b32 %r1, 1");
    s.push_str(&"+1".repeat(200_000));
    s.push_str("; }\n");
    must_reject("flat chain", s.into_bytes());
}

#[test]
fn binary_garbage_and_nul() {
    let mut v = header().into_bytes();
    v.extend((0..200_000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8));
    must_reject("garbage", v);
    let mut v = header().into_bytes();
    v.extend_from_slice(b".visible .entry k() {\0\0 ret; }\n\xff\xfe");
    must_reject("nul", v);
}

#[test]
fn unterminated_at_eof() {
    let mut s = header();
    s.push_str(".visible .entry k() { ret; }\n/* no end");
    must_reject("comment", s.into_bytes());
    let mut s = header();
    s.push_str(".visible .entry k() { .pragma \"no end");
    must_reject("string", s.into_bytes());
}

#[test]
fn huge_literals_and_ranges() {
    let mut s = header();
    s.push_str(".visible .entry k() { .reg .b32 %r<4294967296>; .reg .b32 %q; mov.b32 %q, 123456789012345678901234567890; mov.f32 %q, 1e999999; }\n");
    must_reject("huge", s.into_bytes());
}

#[test]
fn fifty_megabyte_line() {
    // One 50 MB line: a huge string and comment, then an error at its end.
    let mut s = header();
    s.push_str(".visible .entry k() { .pragma \"");
    s.push_str(&"x".repeat(25_000_000));
    s.push_str("\"; bogus; // ");
    s.push_str(&"y".repeat(25_000_000));
    s.push_str("\n}\n");
    must_reject("50 MB line", s.into_bytes());
    // A 10 MB line of instructions (memory per instruction is issue #3).
    let mut s = header();
    s.push_str(".visible .entry k() { .reg .b32 %r<2>; ");
    s.push_str(&"add.s32 %r1, %r1, 1; ".repeat(10_000_000 / 21));
    s.push_str("bogus; }");
    must_reject("10 MB line of instructions", s.into_bytes());
}
