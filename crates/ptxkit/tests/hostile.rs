//! Hostile inputs, generated at run time: each must produce a positioned
//! diagnostic, never a panic or a stack overflow, in bounded time.

use std::time::{Duration, Instant};

fn header() -> String {
    ".version 8.0\n.target sm_90\n.address_size 64\n".to_string()
}

/// Parse on a thread with a small stack (2 MiB, the test default), check
/// the diagnostics and the lossless print, and bound the time. Returns the
/// parse for further checks.
fn must_reject(name: &str, src: Vec<u8>) -> ptxkit::Parsed {
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
    parsed
}

/// `must_reject` on a copy of `src`, bounded to 10 s, then require an error
/// with `code` at 1-based `line`:`col`.
fn must_reject_at(name: &str, src: &[u8], code: ptxkit::diag::Code, line: u32, col: u32) {
    let t = Instant::now();
    let parsed = must_reject(name, src.to_vec());
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "{name}: took {:?}",
        t.elapsed()
    );
    let index = ptxkit::LineIndex::new(src);
    let found: Vec<(ptxkit::diag::Code, u32, u32)> = parsed
        .diagnostics
        .iter()
        .map(|d| {
            let lc = index.line_col(d.span.start);
            (d.code, lc.line, lc.col)
        })
        .collect();
    assert!(
        found.contains(&(code, line, col)),
        "{name}: expected {code} at {line}:{col}, found {:?}",
        found.iter().take(5).collect::<Vec<_>>()
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

/// ptxas reads a run of operators at any length: 200,000 are one flat
/// chain, read without an error (tests/long_chains.rs has the rest).
#[test]
fn long_flat_expression() {
    let mut s = header();
    s.push_str(".visible .entry k() { .reg .b32 %r1; mov.b32 %r1, 1");
    s.push_str(&"+1".repeat(200_000));
    s.push_str("; }\n");
    let t = Instant::now();
    let parsed = ptxkit::parse(s.as_bytes());
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    assert_eq!(
        ptxkit::print::lossless(&parsed.module, s.as_bytes()),
        s.as_bytes()
    );
    let _ = ptxkit::print::canonical(&parsed.module);
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "took {:?}",
        t.elapsed()
    );
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

#[test]
fn limits_have_their_own_codes_and_positions() {
    use ptxkit::diag::Code;
    // Nesting: the block one past MAX_DEPTH is named.
    let depth = ptxkit::MAX_DEPTH as usize;
    let mut s = header();
    s.push_str(".visible .entry k()\n");
    s.push_str(&"{".repeat(100_000));
    must_reject_at("blocks", s.as_bytes(), Code::Limit, 5, depth as u32 + 2);
    let mut s = header();
    s.push_str(".global .u32 x[1] = ");
    s.push_str(&"{".repeat(50_000));
    must_reject_at(
        "initializer",
        s.as_bytes(),
        Code::Limit,
        4,
        22 + depth as u32,
    );
    let mut s = header();
    s.push_str(".visible .entry k() { .reg .b32 %r1; mov.b32 %r1, ");
    s.push_str(&"(".repeat(50_000));
    must_reject_at(
        "parentheses",
        s.as_bytes(),
        Code::Limit,
        4,
        50 + depth as u32,
    );
    // Register ranges: the limit itself is fine, one more is not.
    let decl = |n: u64| {
        format!(
            "{}.visible .entry k() {{ .reg .b32 %r<{n}>; ret; }}\n",
            header()
        )
    };
    let max = ptxkit::MAX_REGISTER_RANGE;
    let ok = ptxkit::parse(decl(max).as_bytes());
    assert!(ok.diagnostics.is_empty(), "{:?}", ok.diagnostics);
    must_reject_at(
        "range",
        decl(max + 1).as_bytes(),
        Code::RegisterRange,
        4,
        36,
    );
    must_reject_at(
        "range",
        decl(4_294_967_296).as_bytes(),
        Code::RegisterRange,
        4,
        36,
    );
    must_reject_at(
        "range",
        decl(u64::MAX).as_bytes(),
        Code::RegisterRange,
        4,
        36,
    );
    let mut s = header();
    s.push_str(".visible .entry k() { .reg .b32 %r<99999999999999999999999>; ret; }\n");
    must_reject_at("range beyond 64 bits", s.as_bytes(), Code::BadNumber, 4, 36);
}

#[test]
fn huge_literals_each_reported_where_written() {
    use ptxkit::diag::Code;
    let inst = |lit: &str| {
        format!(
            "{}.visible .entry k() {{\n.reg .f64 %d;\nmov.f64 %d, {lit};\n}}\n",
            header()
        )
    };
    for lit in [
        "1e999999".to_string(),
        "1.5e-999999".to_string(),
        "1e-320".to_string(),
        "123456789012345678901234567890".to_string(),
        "0xFFFFFFFFFFFFFFFFF".to_string(),
        format!("1{}", "0".repeat(1_000_000)),
        format!("1.{}e99999999999999999999", "9".repeat(1_000_000)),
        "0f3F8000001".to_string(),
    ] {
        let shown: String = lit.chars().take(20).collect();
        must_reject_at(&shown, inst(&lit).as_bytes(), Code::BadNumber, 6, 13);
    }
    // In range: the largest double, an exact zero with a huge exponent.
    for lit in [
        "1.7976931348623157e308",
        "0e999999",
        "2.2250738585072014e-308",
    ] {
        let p = ptxkit::parse(inst(lit).as_bytes());
        assert!(p.diagnostics.is_empty(), "{lit}: {:?}", p.diagnostics);
    }
}

#[test]
fn a_million_labels() {
    let mut s = header();
    s.push_str(".visible .entry k() {\n");
    for i in 0..1_000_000 {
        s.push_str(&format!("$L__BB0_{i}:\n"));
    }
    s.push_str("ret;\n}\n");
    let t = Instant::now();
    let p = ptxkit::parse(s.as_bytes());
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics.first());
    let body = p.module.functions().next().and_then(|f| f.body.as_ref());
    assert_eq!(body.map(|b| b.stmts.len()), Some(1_000_001));
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "took {:?}",
        t.elapsed()
    );
    drop(p);
    // The same with an error after them: reported on its line.
    s.truncate(s.len() - "ret;\n}\n".len());
    s.push_str("bogus %r1;\n}\n");
    must_reject_at(
        "labels",
        s.as_bytes(),
        ptxkit::diag::Code::UnknownOpcode,
        1_000_005,
        1,
    );
}

#[test]
fn invalid_utf8_and_nul_positioned() {
    use ptxkit::diag::Code;
    let mut v = header().into_bytes();
    v.extend_from_slice(b".visible .entry k() {\n  ret;\xff\xfe\n  \0;\n}\n");
    let index = ptxkit::LineIndex::new(&v);
    let p = must_reject("bytes", v.clone());
    let at: Vec<(u32, u32)> = p
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::UnknownChar)
        .map(|d| {
            let lc = index.line_col(d.span.start);
            (lc.line, lc.col)
        })
        .collect();
    assert!(at.contains(&(5, 7)) && at.contains(&(6, 3)), "{at:?}");
    // Invalid UTF-8 inside a string and a comment is kept, not reported.
    let mut v = header().into_bytes();
    v.extend_from_slice(b"// \xc3\x28\n.visible .entry k() { .pragma \"\xff\"; ret; }\n");
    let p = ptxkit::parse(&v);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(ptxkit::print::lossless(&p.module, &v), v);
}

#[test]
fn unterminated_at_eof_positioned() {
    use ptxkit::diag::Code;
    let mut s = header();
    s.push_str(".visible .entry k() { ret; }\n  /* no end");
    must_reject_at("comment", s.as_bytes(), Code::Unterminated, 5, 3);
    let mut s = header();
    s.push_str(".visible .entry k() { .pragma \"no end");
    must_reject_at("string", s.as_bytes(), Code::Unterminated, 4, 31);
}

/// Every prefix of a valid file: no panic, lossless, diagnostics inside the
/// prefix, and a cut strictly inside a function body is always an error.
#[test]
fn every_prefix_of_valid_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    for (file, stride) in [
        ("vector_add.ptx", 1),
        ("calls.ptx", 19),
        ("tcgen05.ptx", 41),
    ] {
        let src = std::fs::read(dir.join(file)).expect("example file");
        let full = ptxkit::parse(&src);
        assert!(!full.has_errors(), "{file} must be valid");
        let bodies: Vec<(usize, usize)> = full
            .module
            .functions()
            .filter_map(|f| f.body.as_ref())
            .map(|b| (b.span.start as usize, b.span.end as usize))
            .collect();
        let t = Instant::now();
        let mut cut = 0;
        while cut <= src.len() {
            let prefix = &src[..cut];
            let p = ptxkit::parse(prefix);
            assert_eq!(
                ptxkit::print::lossless(&p.module, prefix),
                prefix,
                "{file}:{cut}"
            );
            for d in &p.diagnostics {
                assert!(d.span.end as usize <= cut, "{file}:{cut}: {:?}", d.span);
            }
            if bodies.iter().any(|&(a, b)| a < cut && cut < b) {
                assert!(
                    p.has_errors(),
                    "{file} cut at {cut} inside a body is accepted"
                );
            }
            cut += stride;
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{file}: {:?}",
            t.elapsed()
        );
    }
}

/// The kernels' static shared memory is judged at the module's end over
/// their call trees: 3,000 kernels each reaching a chain of 3,000 calls
/// would be 9 million steps, bounded by the walk's budget; a chain of
/// 1,000 calls down to 50,000 bytes of `.shared` is still seen.
#[test]
fn shared_memory_over_long_call_chains() {
    use std::fmt::Write as _;
    let chain = |n: usize, kernels: usize, bytes: usize| {
        let mut s = header();
        let _ = writeln!(s, ".func f0()\n{{\n.shared .b8 a[{bytes}];\nret;\n}}");
        for i in 1..n {
            let _ = writeln!(s, ".func f{i}()\n{{\ncall f{};\nret;\n}}", i - 1);
        }
        for k in 0..kernels {
            let _ = writeln!(s, ".visible .entry k{k}()\n{{\ncall f{};\nret;\n}}", n - 1);
        }
        s
    };
    let t = Instant::now();
    let src = chain(3_000, 3_000, 100);
    let d = ptxkit::check::check_source(src.as_bytes(), &Default::default());
    assert!(d.iter().all(|d| !d.is_error()), "{:?}", d.first());
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "took {:?}",
        t.elapsed()
    );
    let src = chain(1_000, 2, 50_000);
    let d = ptxkit::check::check_source(src.as_bytes(), &Default::default());
    let codes: Vec<&str> = d.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["E0323", "E0323"], "{d:?}");
}
