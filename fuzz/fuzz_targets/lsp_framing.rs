//! Fuzz target `lsp_framing`: the whole language server (`ptx lsp`'s
//! `serve`) behind its bounded framing (`ptxkit_lsp::framing`), fed a
//! stream built from the input: after `initialize`, each chunk of the
//! input becomes one message, picked by its first byte: a well-framed
//! JSON-RPC message of a known method whose parameters come from the
//! chunk (text, positions, ranges, ids), a body with a wrong, missing or
//! huge `Content-Length`, raw bytes, or an over-long header line. The
//! server must neither panic nor stop before the end of the stream, and
//! must answer every request it read, valid or not, with exactly one
//! response (the `shutdown` appended at the end included).
#![no_main]

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

use libfuzzer_sys::fuzz_target;
use ptxkit_lsp::framing::{connect, Limits};
use ptxkit_lsp::server::{serve, Config};
use serde_json::{json, Value};

const URI: &str = "file:///f.ptx";

const METHODS: &[&str] = &[
    "textDocument/hover",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/completion",
    "textDocument/signatureHelp",
    "textDocument/documentSymbol",
    "textDocument/semanticTokens/full",
    "textDocument/semanticTokens/range",
    "textDocument/foldingRange",
    "textDocument/formatting",
    "textDocument/inlayHint",
    "textDocument/documentHighlight",
    "textDocument/rename",
    "textDocument/prepareRename",
    "workspace/symbol",
    "no/such/method",
];

fn frame(body: &[u8]) -> Vec<u8> {
    let mut m = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    m.extend(body);
    m
}

fn rpc(v: Value) -> Vec<u8> {
    frame(&serde_json::to_vec(&v).unwrap_or_default())
}

fn pos(b: &[u8], i: usize) -> Value {
    let at = |k: usize| u32::from(b.get(i + k).copied().unwrap_or(0));
    json!({"line": at(0) % 64, "character": at(1) % 128})
}

/// A writer shared with the test, counting what the server answers.
#[derive(Clone, Default)]
struct Out(Arc<Mutex<Vec<u8>>>);

impl Write for Out {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut v) = self.0.lock() {
            v.extend_from_slice(b);
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether raw bytes could frame, end or swallow messages of their own.
fn swallows(b: &[u8]) -> bool {
    let lower = b.to_ascii_lowercase();
    [&b"content-length"[..], b"exit", b"shutdown"]
        .iter()
        .any(|w| lower.windows(w.len()).any(|x| x == *w))
}

fuzz_target!(|data: &[u8]| {
    let mut s = rpc(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
    s.extend(rpc(
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ));
    let mut requests = 1usize;
    let mut version = 1;
    let mut id = 1i64;
    for chunk in data.split(|&b| b == 0xff).take(64) {
        let Some((&kind, rest)) = chunk.split_first() else {
            continue;
        };
        let text = String::from_utf8_lossy(rest).into_owned();
        match kind % 12 {
            0 => s.extend(rpc(
                json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": {"textDocument": {"uri": URI, "languageId": "ptx",
                    "version": version, "text": text}}}),
            )),
            1 => {
                version += 1;
                s.extend(rpc(
                    json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": URI, "version": version},
                        "contentChanges": [{"range": {"start": pos(rest, 0), "end": pos(rest, 2)},
                            "text": text.get(4..).unwrap_or("")}]}}),
                ));
            }
            2 | 3 | 4 => {
                let m = METHODS[usize::from(rest.first().copied().unwrap_or(0)) % METHODS.len()];
                s.extend(rpc(json!({"jsonrpc": "2.0", "id": id, "method": m,
                    "params": {"textDocument": {"uri": URI}, "position": pos(rest, 1),
                        "range": {"start": pos(rest, 3), "end": pos(rest, 5)},
                        "context": {"includeDeclaration": true}, "newName": "%x",
                        "options": {"tabSize": 4, "insertSpaces": false}, "query": text}})));
                id += 1;
                requests = requests.saturating_add(1);
            }
            5 => {
                // A request, and its cancellation right behind it.
                s.extend(rpc(
                    json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
                    "params": {"textDocument": {"uri": URI}, "position": pos(rest, 0)}}),
                ));
                s.extend(rpc(json!({"jsonrpc": "2.0", "method": "$/cancelRequest",
                    "params": {"id": id}})));
                id += 1;
                requests = requests.saturating_add(1);
            }
            6 => {
                s.extend(frame(rest));
                if swallows(rest) {
                    requests = usize::MAX;
                }
            }
            7 => {
                // A Content-Length that lies (shorter: the rest is read as
                // headers; longer: the next message is swallowed).
                let n = usize::from(rest.first().copied().unwrap_or(0));
                s.extend(format!("Content-Length: {n}\r\n\r\n").as_bytes());
                s.extend(rest.get(1..).unwrap_or_default());
                // What a lying length swallows cannot be counted.
                requests = usize::MAX;
            }
            8 => {
                s.extend(b"Content-Length: 99999999999999\r\n\r\n");
                s.extend(rest);
                requests = usize::MAX;
            }
            9 => {
                // Stray bytes: a header or an `exit` in them can take the
                // next message (or end the session) as a client would.
                s.extend(rest);
                if swallows(rest) {
                    requests = usize::MAX;
                }
            }
            10 => {
                s.extend(b"X: ");
                s.extend(std::iter::repeat_n(b'a', 9000 + rest.len()));
                s.extend(b"\r\n\r\n");
            }
            _ => s.extend(rpc(
                json!({"jsonrpc": "2.0", "method": "textDocument/didClose",
                "params": {"textDocument": {"uri": URI}}}),
            )),
        }
    }
    s.extend(rpc(
        json!({"jsonrpc": "2.0", "id": id, "method": "shutdown"}),
    ));
    s.extend(rpc(json!({"jsonrpc": "2.0", "method": "exit"})));
    requests = requests.saturating_add(1);
    let out = Out::default();
    let limits = Limits {
        header_line: 8 * 1024,
        message: 1 << 20,
        queue: 8,
    };
    let (conn, io) = connect(Cursor::new(s), out.clone(), limits);
    serve(&conn, Config::default()).expect("the server never stops on input");
    drop(conn);
    io.join().expect("the transport ends cleanly");
    if requests != usize::MAX {
        let bytes = out.0.lock().map(|v| v.clone()).unwrap_or_default();
        let answered = bytes
            .windows(b"\"id\":".len())
            .filter(|w| *w == b"\"id\":")
            .count();
        assert!(
            answered >= requests,
            "{answered} answers to {requests} requests"
        );
    }
});
