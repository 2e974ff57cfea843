//! The latency of an edit in a large `nvcc -G` module: from the client
//! sending `didChange` to the server's `publishDiagnostics` arriving, the
//! server running in process on an in-memory connection (JSON encoding
//! of both messages included).
//!
//! The module: `PTXKIT_LSP_BIG=FILE`, or `benches/big_g.cu` compiled with
//! `../shared/tools/nvcc -ptx -G -arch=sm_80` (5.1 MB of PTX, cached in
//! `target/lsp-bench/`). Without either, the bench says so and stops.
//!
//! Run: `cargo bench -p ptxkit-lsp --bench edit_latency`.
// A bench fails by panicking, and criterion's macros make undocumented
// functions: the workspace's lints are for library code.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

fn module() -> Option<(PathBuf, String)> {
    if let Ok(p) = std::env::var("PTXKIT_LSP_BIG") {
        let text = std::fs::read_to_string(&p).ok()?;
        return Some((p.into(), text));
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = here.join("../..");
    let out_dir = root.join("target/lsp-bench");
    let out = out_dir.join("big_g.ptx");
    if !out.exists() {
        let nvcc = root.join("../shared/tools/nvcc");
        if !nvcc.exists() {
            return None;
        }
        std::fs::create_dir_all(&out_dir).ok()?;
        eprintln!("compiling benches/big_g.cu with nvcc -G (once)...");
        let ok = Command::new(&nvcc)
            .args(["-ptx", "-G", "-arch=sm_80"])
            .arg(here.join("benches/big_g.cu"))
            .arg("-o")
            .arg(&out)
            .status()
            .ok()?
            .success();
        if !ok {
            return None;
        }
    }
    let text = std::fs::read_to_string(&out).ok()?;
    Some((out, text))
}

fn send_change(c: &Connection, version: i32, line: u32, col: u32, del: u32, text: &str) {
    let params = json!({
        "textDocument": {"uri": "file:///big.ptx", "version": version},
        "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                      "end": {"line": line, "character": col + del}},
                            "text": text}]
    });
    c.sender
        .send(Message::Notification(Notification::new(
            "textDocument/didChange".into(),
            params,
        )))
        .ok();
}

fn wait_diagnostics(c: &Connection) -> Value {
    loop {
        match c.receiver.recv_timeout(Duration::from_secs(60)) {
            Ok(Message::Notification(n)) if n.method == "textDocument/publishDiagnostics" => {
                return n.params
            }
            Ok(_) => {}
            Err(e) => panic!("no diagnostics: {e}"),
        }
    }
}

fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let i = ((v.len() - 1) as f64 * q).round() as usize;
    v[i]
}

fn main() {
    let Some((path, text)) = module() else {
        eprintln!(
            "edit_latency: no module (set PTXKIT_LSP_BIG=FILE, or provide ../shared/tools/nvcc); skipped"
        );
        return;
    };
    let (server, client) = Connection::memory();
    let th = std::thread::spawn(move || ptxkit_lsp::serve(&server, Default::default()).ok());
    client
        .sender
        .send(Message::Request(Request::new(
            RequestId::from(1),
            "initialize".into(),
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        )))
        .ok();
    loop {
        if let Ok(Message::Response(_)) = client.receiver.recv() {
            break;
        }
    }
    client
        .sender
        .send(Message::Notification(Notification::new(
            "initialized".into(),
            json!({}),
        )))
        .ok();
    let t = Instant::now();
    client
        .sender
        .send(Message::Notification(Notification::new(
            "textDocument/didOpen".into(),
            json!({"textDocument": {"uri": "file:///big.ptx", "languageId": "ptx", "version": 1, "text": text}}),
        )))
        .ok();
    let first = wait_diagnostics(&client);
    let open_ms = t.elapsed().as_secs_f64() * 1e3;
    // The middle one of the module's `add.s32` lines (inside a body).
    let lines: Vec<&str> = text.lines().collect();
    let adds: Vec<(usize, &&str)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with('\t') && l.contains("add.s32"))
        .collect();
    let Some(&(line, l)) = adds.get(adds.len() / 2) else {
        eprintln!("edit_latency: no add.s32 line in the module; skipped");
        return;
    };
    let col = l.find("add").unwrap_or(0) as u32;
    println!(
        "module: {} ({:.2} MB, {} lines); open (parse + full check): {open_ms:.1} ms, {} diagnostics",
        path.display(),
        text.len() as f64 / 1e6,
        lines.len(),
        first["diagnostics"].as_array().map_or(0, Vec::len)
    );
    println!(
        "edit: line {} `{}`: `add` -> `addx` and back",
        line + 1,
        l.trim()
    );
    let mut version = 1;
    for (what, gap) in [("back to back", 0u64), ("100 ms apart (typing)", 100)] {
        let mut times = Vec::new();
        for k in 0..60 {
            std::thread::sleep(Duration::from_millis(gap));
            version += 1;
            let t = Instant::now();
            if k % 2 == 0 {
                send_change(&client, version, line as u32, col + 3, 0, "x");
            } else {
                send_change(&client, version, line as u32, col + 3, 1, "");
            }
            let d = wait_diagnostics(&client);
            times.push(t.elapsed().as_secs_f64() * 1e3);
            let n = d["diagnostics"].as_array().map_or(0, Vec::len);
            assert_eq!(n > 0, k % 2 == 0, "the edit's diagnostics");
        }
        let (p50, p90, max) = (
            quantile(&mut times, 0.5),
            quantile(&mut times, 0.9),
            quantile(&mut times, 1.0),
        );
        println!("didChange -> publishDiagnostics, 60 edits {what}: median {p50:.1} ms, p90 {p90:.1} ms, max {max:.1} ms");
    }
    // The same edit checked whole, for comparison.
    let mut whole = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let a = ptxkit_lsp::analysis::Analysis::new(text.clone(), None, None);
        std::hint::black_box(a.diagnostics().len());
        whole.push(t.elapsed().as_secs_f64() * 1e3);
    }
    println!(
        "for comparison, parse + whole check of the module: median {:.1} ms",
        quantile(&mut whole, 0.5)
    );
    client
        .sender
        .send(Message::Request(Request::new(
            RequestId::from(2),
            "shutdown".into(),
            Value::Null,
        )))
        .ok();
    client
        .sender
        .send(Message::Notification(Notification::new(
            "exit".into(),
            Value::Null,
        )))
        .ok();
    drop(client);
    th.join().ok();
}
