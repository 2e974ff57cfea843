//! The JSON documents of the tree (`ptxkit::json::Document`, what
//! `ptx ast --json` prints): valid against `docs/ast.schema.json` for every
//! example and test input, positions that agree with the source, and
//! snapshots of representative inputs.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::{Path, PathBuf};

use ptxkit::json::{Document, SCHEMA_VERSION};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/ast.schema.json"))
        .unwrap_or_else(|e| panic!("docs/ast.schema.json: {e}"));
    let schema: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("schema is not JSON: {e}"));
    assert_eq!(
        schema["properties"]["schema_version"]["const"], SCHEMA_VERSION,
        "the schema file describes another version"
    );
    jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("bad schema: {e}"))
}

fn document(src: &[u8]) -> serde_json::Value {
    let m = ptxkit::parse(src).module;
    serde_json::to_value(Document::new(&m, src)).unwrap_or_default()
}

/// Every span (`[start, end]` under a `…span` key) lies inside the source,
/// and the line and column the document's `line_starts` give it agree with
/// the source's lines.
fn check_positions(
    v: &serde_json::Value,
    starts: &[u64],
    src: &[u8],
    index: &ptxkit::LineIndex,
    spans: &mut usize,
) {
    use serde_json::Value;
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                if let (true, Some([Value::Number(s), Value::Number(e)])) =
                    (k.ends_with("span"), x.as_array().map(Vec::as_slice))
                {
                    let (s, e) = (s.as_u64().unwrap_or(0), e.as_u64().unwrap_or(0));
                    assert!(s <= e && e <= src.len() as u64, "span {s}..{e}");
                    let line = starts.iter().filter(|&&l| l <= s).count();
                    let col = s - starts[line - 1] + 1;
                    let at = index.line_col(s as u32);
                    assert_eq!(
                        (at.line as u64, at.col as u64),
                        (line as u64, col),
                        "span at {s}"
                    );
                    *spans += 1;
                }
                check_positions(x, starts, src, index, spans);
            }
        }
        Value::Array(a) => {
            for x in a {
                check_positions(x, starts, src, index, spans);
            }
        }
        _ => {}
    }
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = common::examples();
    for dir in [
        "crates/ptxkit/tests/data/ok",
        "crates/ptxkit/tests/data/json",
        "crates/ptxkit/tests/data/long_chains",
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        for f in files
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "ptx"))
        {
            out.push((
                f.display().to_string(),
                std::fs::read(&f).unwrap_or_default(),
            ));
        }
    }
    out
}

#[test]
fn documents_are_valid_against_the_schema() {
    let v = validator();
    let all = inputs();
    assert!(all.len() > 10, "inputs not found");
    for (name, src) in &all {
        let doc = document(src);
        assert_eq!(doc["schema_version"], SCHEMA_VERSION);
        let errors: Vec<String> = v
            .iter_errors(&doc)
            .take(5)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}:\n{}", errors.join("\n"));
        let mut spans = 0;
        let starts: Vec<u64> = doc["line_starts"]
            .as_array()
            .map(|a| a.iter().filter_map(serde_json::Value::as_u64).collect())
            .unwrap_or_default();
        check_positions(&doc, &starts, src, &ptxkit::LineIndex::new(src), &mut spans);
        assert!(spans > 0, "{name}: no positioned span");
    }
}

/// Schema 3: a declaration (`Var`), its declarators and every parameter
/// (of a function, a return, a `.callprototype`) leave out what was not
/// written; the schema says so by not requiring those fields, and no
/// document writes them as `null`, `false` or `[]`.
#[test]
fn declarations_leave_out_what_was_not_written() {
    const LEFT_OUT: [(&str, &[&str]); 3] = [
        (
            "VarDecl",
            &["linkage", "bank", "attribute", "align", "vector"],
        ),
        ("Declarator", &["range", "dims", "init"]),
        ("Param", &["hidden", "align", "vector", "ptr", "dims"]),
    ];
    let text = std::fs::read_to_string(root().join("docs/ast.schema.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (def, fields) in LEFT_OUT {
        let required = schema["$defs"][def]["required"].as_array().unwrap();
        for f in fields {
            assert!(
                !required.iter().any(|r| r == f),
                "{def}.{f} is required by the schema"
            );
            let prop = &schema["$defs"][def]["properties"][f];
            let nullable = prop["anyOf"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x["type"] == "null"));
            assert!(!nullable, "{def}.{f} may be null: {prop}");
        }
    }
    fn walk(v: &serde_json::Value, under: &str, name: &str, seen: &mut usize) {
        match v {
            serde_json::Value::Object(o) => {
                // A declaration is `{"Var": {...}}`; its declarators are in
                // `decls`; parameters in `params`/`rets`.
                let fields: &[&str] = match under {
                    "Var" => &["linkage", "bank", "attribute", "align", "vector"],
                    "decls" => &["range", "dims", "init"],
                    "params" | "rets" => &["hidden", "align", "vector", "ptr", "dims"],
                    _ => &[],
                };
                if !fields.is_empty() {
                    *seen += 1;
                }
                for f in fields {
                    if let Some(x) = o.get(*f) {
                        let empty = x.is_null()
                            || x == &serde_json::Value::Bool(false)
                            || x.as_array().is_some_and(Vec::is_empty);
                        assert!(!empty, "{name}: {under}.{f} written as {x}");
                    }
                }
                for (k, x) in o {
                    walk(x, k, name, seen);
                }
            }
            serde_json::Value::Array(a) => {
                for x in a {
                    walk(x, under, name, seen);
                }
            }
            _ => {}
        }
    }
    let mut seen = 0;
    for (name, src) in inputs() {
        walk(&document(&src), "", &name, &mut seen);
    }
    assert!(seen > 100, "only {seen} declarations seen");
}

#[test]
fn the_schema_rejects_catalog_ids_and_missing_fields() {
    let v = validator();
    let src =
        std::fs::read(root().join("crates/ptxkit/tests/data/json/shapes.ptx")).unwrap_or_default();
    let doc = document(&src);
    assert!(v.is_valid(&doc));
    let inst = "/module/items/6/Function/body/stmts/5/Instruction";
    assert_eq!(doc.pointer(&format!("{inst}/opcode")), Some(&"mov".into()));
    // The old shapes: numeric opcode, modifier ids.
    let mut old = doc.clone();
    if let Some(x) = old.pointer_mut(&format!("{inst}/opcode")) {
        *x = 55.into();
    }
    assert!(!v.is_valid(&old));
    let mut old = doc.clone();
    if let Some(x) = old.pointer_mut(&format!("{inst}/mods/0")) {
        *x = serde_json::json!({"id": 93, "span": {"start": 1, "end": 2}});
    }
    assert!(!v.is_valid(&old));
    let mut old = doc;
    if let Some(o) = old.as_object_mut() {
        o.remove("schema_version");
    }
    assert!(!v.is_valid(&old));
}

#[test]
fn snapshots_of_representative_inputs() {
    let dir = root().join("crates/ptxkit/tests/data/json");
    let src = std::fs::read(dir.join("shapes.ptx")).unwrap_or_default();
    insta::assert_json_snapshot!("shapes", document(&src));
    let small = b".version 7.8\n.target sm_80\n.entry k() {\n\t.reg .b32 %r<2>;\n\t@%r1 mov.b32 %r1, 1;\n\tadd.s32 %r1, %r1;\n\tret;\n}\n";
    // A non-predicate guard (parsed; the checker rejects it) and an
    // instruction that matched no form: no roles.
    insta::assert_json_snapshot!("small", document(small));
}
