//! `ptx lsp` on CUDA C++ documents, over an in-memory connection: the
//! diagnostics of `asm` statements at their C++ range (through escapes
//! and `%0` operands), hover and completion inside the template, the
//! re-check after an edit, nothing for the requests a C++ server answers,
//! and nothing at all for a host `.cpp` file.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

const URI: &str = "file:///work/kernel.cu";

/// Line 3 (0-based) has a typo in its opcode after an escaped tab; line 5
/// is a valid statement; line 7 splits its template over two literals and
/// misspells a modifier in the second.
const SRC: &str = r#"#include <cstdint>
__device__ float load(const float* p, int a, int b) {
  int c;
  asm volatile("\tadd.s23 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
  float v;
  asm("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
  float w;
  asm("ld.global" ".f33 %0, [%1];" : "=f"(w) : "l"(p));
  return v + w + c;
}
"#;

struct Client {
    conn: Connection,
    next: i32,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Client {
    fn start() -> Client {
        let (server, conn) = Connection::memory();
        let thread = std::thread::spawn(move || {
            ptxkit_lsp::serve(&server, ptxkit_lsp::Config::default()).unwrap();
        });
        let mut c = Client {
            conn,
            next: 0,
            thread: Some(thread),
        };
        let init = c.request(
            "initialize",
            json!({"processId": null, "rootUri": null,
                   "capabilities": {"general": {"positionEncodings": ["utf-8"]}}}),
        );
        assert!(init["capabilities"]["hoverProvider"].as_bool().unwrap());
        c.notify("initialized", json!({}));
        c
    }

    fn notify(&self, method: &str, params: Value) {
        self.conn
            .sender
            .send(Message::Notification(Notification::new(
                method.into(),
                params,
            )))
            .unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn
            .sender
            .send(Message::Request(Request::new(
                id.clone(),
                method.into(),
                params,
            )))
            .unwrap();
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(60)) {
                Ok(Message::Response(r)) if r.id == id => {
                    assert!(r.error.is_none(), "{method}: {:?}", r.error);
                    return r.result.unwrap_or(Value::Null);
                }
                Ok(_) => {}
                Err(e) => panic!("no answer to {method}: {e}"),
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&self, uri: &str) -> Vec<Value> {
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(60)) {
                Ok(Message::Notification(n))
                    if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri =>
                {
                    return n.params["diagnostics"].as_array().unwrap().clone();
                }
                Ok(_) => {}
                Err(e) => panic!("no diagnostics for {uri}: {e}"),
            }
        }
    }

    fn open(&self, uri: &str, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
        );
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}

/// The (line, column) of the `nth` occurrence of `needle` in `src`, plus
/// `plus` columns (UTF-8 columns; the client asked for them).
fn pos(src: &str, needle: &str, nth: usize, plus: usize) -> (u64, u64) {
    let off = src.match_indices(needle).nth(nth).expect(needle).0 + plus;
    let before = &src[..off];
    let line = before.matches('\n').count();
    let col = off - before.rfind('\n').map_or(0, |i| i + 1);
    (line as u64, col as u64)
}

fn range_of(d: &Value) -> ((u64, u64), (u64, u64)) {
    let r = &d["range"];
    let p = |x: &Value| {
        (
            x["line"].as_u64().unwrap(),
            x["character"].as_u64().unwrap(),
        )
    };
    (p(&r["start"]), p(&r["end"]))
}

fn at(uri: &str, (line, character): (u64, u64)) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

#[test]
fn diagnostics_on_the_cpp_range_inside_the_string() {
    let c = Client::start();
    c.open(URI, "cuda", SRC);
    let ds = c.diagnostics(URI);
    let errors: Vec<&Value> = ds.iter().filter(|d| d["severity"] == 1).collect();
    assert_eq!(errors.len(), 2, "{ds:#?}");
    // `add.s23` after the escaped tab: the range covers what is written
    // in the C++ source, on line 3.
    let typo = errors
        .iter()
        .find(|d| range_of(d).0 .0 == 3)
        .expect("an error on line 3");
    let (start, end) = range_of(typo);
    let want = pos(SRC, "add.s23", 0, 0);
    assert_eq!(start.0, want.0);
    assert!(
        start.1 >= want.1 && end.1 <= want.1 + 7 && end.1 > start.1,
        "{typo}"
    );
    assert_eq!(typo["source"], "ptx");
    assert!(typo["code"].as_str().unwrap().starts_with('E'), "{typo}");
    // `.f33` in the second literal of line 7.
    let f33 = errors
        .iter()
        .find(|d| range_of(d).0 .0 == 7)
        .expect("an error on line 7");
    let (start, end) = range_of(f33);
    let want = pos(SRC, ".f33", 0, 0);
    assert!(
        start.1 <= want.1 + 1 && end.1 >= want.1 + 3,
        "{f33} vs {want:?}"
    );
    // The valid statement is silent.
    assert!(!ds.iter().any(|d| range_of(d).0 .0 == 5), "{ds:#?}");
}

#[test]
fn re_checked_on_edit() {
    let mut c = Client::start();
    c.open(URI, "cuda-cpp", SRC);
    assert_eq!(
        c.diagnostics(URI)
            .iter()
            .filter(|d| d["severity"] == 1)
            .count(),
        2
    );
    // Fix `s23` into `s32`.
    let (line, col) = pos(SRC, "s23", 0, 0);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2},
               "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                             "end": {"line": line, "character": col + 3}},
                                   "text": "s32"}]}),
    );
    let ds = c.diagnostics(URI);
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!(range_of(&ds[0]).0 .0, 7);
    // A request after an edit sees the new text.
    let h = c.request("textDocument/hover", at(URI, pos(SRC, "add.s", 0, 1)));
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("`add.s32`"),
        "{h}"
    );
}

#[test]
fn hover_on_opcode_and_modifier() {
    let mut c = Client::start();
    c.open(URI, "cuda", SRC);
    let _ = c.diagnostics(URI);
    let h = c.request(
        "textDocument/hover",
        at(URI, pos(SRC, "ld.global.f32", 0, 5)),
    );
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("**ld**"), "{text}");
    // The modifier under the cursor is the bold one, with its meaning.
    assert!(text.contains("**`.global`**"), "{text}");
    assert!(text.contains("accepted on"), "{text}");
    // The range is the opcode and its modifiers in the C++ line.
    let (start, end) = range_of(&h);
    assert_eq!(start, pos(SRC, "ld.global.f32", 0, 0));
    assert_eq!(end, pos(SRC, "ld.global.f32", 0, 13));
    // `%%tid.x` (a literal `%` doubled) is the special register.
    let src2 = SRC.replace(
        "[%1];\" : \"=f\"(v)",
        "[%1]; mov.u32 %0, %%tid.x;\" : \"=f\"(v)",
    );
    assert_ne!(src2, SRC);
    let uri2 = "file:///work/k2.cu";
    c.open(uri2, "cuda", &src2);
    let _ = c.diagnostics(uri2);
    let h = c.request("textDocument/hover", at(uri2, pos(&src2, "%%tid.x", 0, 3)));
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("special register"),
        "{h}"
    );
    // Over a diagnostic, its code's explanation follows the entry.
    let h = c.request("textDocument/hover", at(URI, pos(SRC, ".s23", 0, 2)));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("**add**"), "{text}");
    assert!(text.contains("---\n\n**E0"), "{text}");
    // An operand `%0` says nothing; C++ outside the strings says nothing
    // either (clangd's).
    assert!(c
        .request("textDocument/hover", at(URI, pos(SRC, "%0, [%1]", 0, 1)))
        .is_null());
    assert!(c
        .request("textDocument/hover", at(URI, pos(SRC, "float v", 0, 2)))
        .is_null());
}

#[test]
fn completion_inside_the_string() {
    let mut c = Client::start();
    let src = "__device__ void f(float* p) {\n  float v;\n  asm(\"ld.\" : \"=f\"(v) : \"l\"(p));\n  asm(\"mov.u32 %0, \" : \"=r\"(v));\n}\n";
    let uri = "file:///work/k.cuh";
    c.open(uri, "cpp", src);
    let _ = c.diagnostics(uri);
    let r = c.request("textDocument/completion", at(uri, pos(src, "ld.", 0, 3)));
    let labels: Vec<&str> = r["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&".global"), "{labels:?}");
    assert!(labels.contains(&".shared"), "{labels:?}");
    // Replacing from the last dot, on the C++ line.
    let item = r["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == ".global")
        .unwrap();
    let e = &item["textEdit"]["range"];
    assert_eq!(e["start"]["line"], 2);
    assert_eq!(e["start"]["character"], pos(src, "ld.", 0, 2).1);
    // In an operand: the statement's own operands and special registers.
    let r = c.request("textDocument/completion", at(uri, pos(src, "%0, ", 0, 4)));
    let items = r["items"].as_array().unwrap();
    assert!(
        items
            .iter()
            .any(|i| i["label"] == "%0" && i["detail"] == "\"=r\"(v)"),
        "{r}"
    );
    // A literal `%` is doubled in a statement with operands.
    assert!(items.iter().any(|i| i["label"] == "%%tid.x"), "{r}");
    // Outside a string: nothing.
    let r = c.request(
        "textDocument/completion",
        at(uri, pos(src, "float v", 0, 3)),
    );
    assert!(r["items"].as_array().unwrap().is_empty(), "{r}");
}

#[test]
fn other_requests_and_host_files_get_nothing() {
    let mut c = Client::start();
    c.open(URI, "cuda", SRC);
    let _ = c.diagnostics(URI);
    for (method, params) in [
        (
            "textDocument/formatting",
            json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
        ),
        (
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": URI}}),
        ),
        (
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": URI}}),
        ),
        ("textDocument/definition", at(URI, pos(SRC, "load", 0, 1))),
    ] {
        assert!(c.request(method, params).is_null(), "{method}");
    }
    // A host `.cpp` file (x86 `asm`) is not checked as PTX.
    let host = "file:///work/host.cpp";
    c.open(host, "cpp", "void f() { asm volatile(\"pause\"); }\n");
    assert!(c.diagnostics(host).is_empty());
}

#[test]
fn operand_diagnostic_on_the_percent_operand_with_its_constraint_related() {
    let c = Client::start();
    let uri = "file:///work/op.cu";
    let src = "__device__ void f(short s) {\n  int c;\n  asm(\"cvt.rn.f32.s32 %0, %1;\" : \"=r\"(c) : \"h\"(s));\n}\n";
    c.open(uri, "cuda", src);
    let ds = c.diagnostics(uri);
    assert_eq!(ds.len(), 1, "{ds:#?}");
    let d = &ds[0];
    // On `%1` inside the string, line 2.
    let (start, end) = range_of(d);
    assert_eq!(start, pos(src, "%1;", 0, 0));
    assert_eq!(end, pos(src, "%1;", 0, 2));
    // The constraint it came from, as a related location in the same file.
    let rel = &d["relatedInformation"][0];
    assert_eq!(rel["location"]["uri"], uri);
    let r = &rel["location"]["range"]["start"];
    let want = pos(src, "\"h\"", 0, 0);
    assert_eq!(
        (
            r["line"].as_u64().unwrap(),
            r["character"].as_u64().unwrap()
        ),
        want,
        "{d}"
    );
}

#[test]
fn a_configured_target_checks_against_it_alone() {
    let c = Client::start();
    let uri = "file:///work/wgmma.cu";
    // Valid on sm_90a (so on some target), not on sm_80.
    let src =
        "__device__ void f() {\n  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n}\n";
    c.open(uri, "cuda", src);
    assert!(c.diagnostics(uri).is_empty());
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"ptx": {"target": "sm_80"}}}),
    );
    let ds = c.diagnostics(uri);
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!(range_of(&ds[0]).0 .0, 1);
    assert!(
        ds[0]["message"].as_str().unwrap().contains("sm_80"),
        "{ds:#?}"
    );
}

/// A kernel of `n` distinct `asm` statements, one a line from line 1 (each
/// adds its own immediate; every tenth misspells its opcode).
fn many_statements(n: usize) -> String {
    let mut s = String::from("__device__ void f(int a) {\n");
    for i in 0..n {
        let op = if i % 10 == 9 { "add.s23" } else { "add.s32" };
        s.push_str(&format!("  asm(\"{op} %0, %0, {i};\" : \"+r\"(a));\n"));
    }
    s.push_str("}\n");
    s
}

/// Open a document of `n` statements, then type `keys` digits, each into
/// the immediate of another statement and waiting for the diagnostics it
/// brings, until they have taken `budget` times as long as the first
/// diagnostics (every statement judged). The time of the first
/// diagnostics, the time of the keystrokes and how many were typed.
fn type_into_statements(n: usize, keys: usize, budget: u32) -> (Duration, Duration, usize) {
    let c = Client::start();
    let uri = "file:///work/many.cu";
    let src = many_statements(n);
    let t = std::time::Instant::now();
    c.open(uri, "cuda", &src);
    let first = c.diagnostics(uri);
    let open = t.elapsed();
    let lines = |ds: &[Value]| {
        let mut l: Vec<u64> = ds.iter().map(|d| range_of(d).0 .0).collect();
        l.sort_unstable();
        l.dedup();
        l.len()
    };
    // The first thousand are published.
    assert_eq!(lines(&first), (n / 10).min(1000));
    let t = std::time::Instant::now();
    let mut typed = 0;
    while typed < keys && t.elapsed() < open * budget {
        // Before the `;` of the immediate of statement `line`.
        let line = 1 + typed * (n / keys);
        let col = "  asm(\"add.s32 %0, %0, ".len() + (line - 1).to_string().len();
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2 + typed},
                   "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                                 "end": {"line": line, "character": col}},
                                       "text": "7"}]}),
        );
        assert_eq!(c.diagnostics(uri).len(), first.len());
        typed += 1;
    }
    (open, t.elapsed(), typed)
}

/// A keystroke in a CUDA C++ document judges the `asm` statements it
/// changed, not every statement again (40,000 statements took 5 s a
/// keystroke): what is still done in the whole document is finding the
/// statements (reading the C++ text once) and publishing its
/// diagnostics. Twenty keystrokes on 20,000 statements now cost about
/// what judging them all once does; before, each cost that. And ten times
/// the statements cost at most about ten times the time a keystroke, as
/// ten times the text does.
#[test]
fn asm_keystrokes_judge_only_what_changed() {
    let (keys, budget) = (20, 5);
    let (small_open, small, _) = type_into_statements(2_000, keys, budget * 4);
    let (open, big, typed) = type_into_statements(20_000, keys, budget);
    eprintln!(
        "2,000 statements: opened in {:.2} s, {keys} keystrokes in {:.2} s; \
         20,000: {:.2} s, {typed} keystrokes in {:.2} s",
        small_open.as_secs_f64(),
        small.as_secs_f64(),
        open.as_secs_f64(),
        big.as_secs_f64()
    );
    assert_eq!(
        typed, keys,
        "{typed} keystrokes took {big:?}, {budget} times the first check ({open:?})"
    );
    assert!(
        big <= small * 30 + Duration::from_millis(500),
        "{small:?} -> {big:?}"
    );
}
