//! Snapshot tests of our own inputs: trees of `data/ok`, diagnostics of
//! `data/err` (with ptxas's verdict recorded in `data/err/PTXAS.tsv`).

use std::path::Path;

use ptxkit::diag::render;
use ptxkit::LineIndex;

/// Every span in the JSON tree is in bounds, ordered, and inside the span
/// of the nearest enclosing node.
fn check_spans(v: &serde_json::Value, outer: (u64, u64), len: u64, path: &str) {
    use serde_json::Value;
    let as_span = |v: &Value| -> Option<(u64, u64)> {
        let o = v.as_object()?;
        if o.len() != 2 {
            return None;
        }
        Some((o.get("start")?.as_u64()?, o.get("end")?.as_u64()?))
    };
    match v {
        Value::Object(o) => {
            let mut here = outer;
            if let Some(s) = o.get("span").and_then(as_span) {
                assert!(s.0 <= s.1 && s.1 <= len, "{path}: span {s:?} out of bounds");
                assert!(
                    s.0 >= outer.0 && s.1 <= outer.1,
                    "{path}: span {s:?} not inside {outer:?}"
                );
                here = s;
            }
            for (k, child) in o {
                if let Some(s) = as_span(child) {
                    assert!(
                        s.0 >= here.0 && s.1 <= here.1 && s.0 <= s.1,
                        "{path}.{k}: span {s:?} not inside {here:?}"
                    );
                } else {
                    check_spans(child, here, len, &format!("{path}.{k}"));
                }
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                if let Some(s) = as_span(child) {
                    assert!(
                        s.0 >= outer.0 && s.1 <= outer.1 && s.0 <= s.1,
                        "{path}[{i}]: span {s:?} not inside {outer:?}"
                    );
                } else {
                    check_spans(child, outer, len, &format!("{path}[{i}]"));
                }
            }
        }
        _ => {}
    }
}

#[test]
fn ok_cases() {
    insta::glob!("data/ok/*.ptx", |path| {
        let src = std::fs::read(path).unwrap_or_default();
        let parsed = ptxkit::parse(&src);
        assert!(
            parsed.diagnostics.is_empty(),
            "{}: {:?}",
            path.display(),
            parsed.diagnostics
        );
        assert_eq!(
            ptxkit::print::lossless(&parsed.module, &src),
            src,
            "lossless"
        );
        let canon = ptxkit::print::canonical(&parsed.module);
        let again = ptxkit::parse(canon.as_bytes());
        assert!(
            again.diagnostics.is_empty(),
            "canonical reparse: {:?}",
            again.diagnostics
        );
        assert_eq!(again.module, parsed.module, "canonical reparse differs");
        let json = serde_json::to_value(&parsed.module).unwrap_or_default();
        check_spans(&json, (0, src.len() as u64), src.len() as u64, "module");
        insta::assert_snapshot!("canonical", canon);
        insta::assert_json_snapshot!("tree", json);
    });
}

fn ptxas_lines() -> Vec<(String, u32)> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/err/PTXAS.tsv"),
    )
    .unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let mut c = l.split('\t');
            Some((c.next()?.to_string(), c.next()?.parse().ok()?))
        })
        .collect()
}

#[test]
fn err_cases() {
    let expected = ptxas_lines();
    insta::glob!("data/err/*.ptx", |path| {
        let src = std::fs::read(path).unwrap_or_default();
        let parsed = ptxkit::parse(&src);
        assert!(parsed.has_errors(), "{} should be rejected", path.display());
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let index = LineIndex::new(&src);
        let want = expected.iter().find(|(f, _)| *f == name).map(|(_, l)| *l);
        let first = parsed
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| index.line_col(d.span.start).line);
        assert_eq!(first, want, "{name}: first error line vs ptxas");
        // Lossless printing works on broken input too.
        assert_eq!(ptxkit::print::lossless(&parsed.module, &src), src);
        let text: String = parsed
            .diagnostics
            .iter()
            .map(|d| render(d, &name, &src, &index))
            .collect();
        insta::assert_snapshot!("diagnostics", text);
    });
}
