//! The protocol loop: initialization, the open documents, and the
//! dispatch of requests and notifications to the feature modules.

use std::collections::{HashMap, VecDeque};
use std::error::Error;

use crossbeam_channel::{select, unbounded, Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as n, Notification as _};
use lsp_types::request::{self as r, Request as _};
use lsp_types::{
    CompletionOptions, DocumentFilter, HoverProviderCapability, InitializeParams, OneOf,
    PositionEncodingKind, PublishDiagnosticsParams, RenameOptions, SemanticTokens,
    SemanticTokensFullOptions, SemanticTokensOptions, SemanticTokensRegistrationOptions,
    SemanticTokensServerCapabilities, ServerCapabilities, SignatureHelpOptions,
    StaticRegistrationOptions, TextDocumentRegistrationOptions, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri, WorkDoneProgressOptions,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::analysis::Analysis;
use crate::cpp::Lang;
use crate::document::{Document, Encoding};

/// The server's settings: from `initializationOptions`, or the `ptx`
/// section of `workspace/didChangeConfiguration`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Check against this target (`sm_90a`) instead of each file's
    /// `.target`.
    pub target: Option<String>,
    /// Documents larger than this many bytes answer an edit inside a
    /// function body by checking that function alone, and parse the whole
    /// module again in the background (`incrementalAbove`).
    pub incremental_above: usize,
    /// PTX documents larger than this many bytes are not held as a tree:
    /// they get their diagnostics only, from a streamed check
    /// (`largeAbove`; [`crate::analysis::LARGE_ABOVE`]).
    pub large_above: usize,
    /// At most this many bytes of PTX text are held as trees across the
    /// open documents: past it, a document opened or edited gets
    /// diagnostics only, as one over `large_above` does (`largeTotal`).
    pub large_total: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            target: None,
            incremental_above: 256 * 1024,
            large_above: crate::analysis::LARGE_ABOVE,
            large_total: 2 * crate::analysis::LARGE_ABOVE,
        }
    }
}

impl Config {
    /// Read `{"target": "sm_90"}` or `{"ptx": {"target": "sm_90"}}`; an
    /// empty or missing target means each file's own.
    pub fn from_json(v: &Value) -> Config {
        let v = v.get("ptx").unwrap_or(v);
        let defaults = Config::default();
        Config {
            target: v
                .get("target")
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from),
            incremental_above: bytes(v, "incrementalAbove", defaults.incremental_above),
            large_above: bytes(v, "largeAbove", defaults.large_above),
            large_total: bytes(v, "largeTotal", defaults.large_total),
        }
    }
}

/// The byte count `v[key]`, or `default` when it is missing or not a
/// non-negative integer.
fn bytes(v: &Value, key: &str, default: usize) -> usize {
    v.get(key)
        .and_then(Value::as_u64)
        .map_or(default, |n| usize::try_from(n).unwrap_or(usize::MAX))
}

type BoxError = Box<dyn Error + Send + Sync>;

/// Run the server on stdin and stdout until the client says `exit`.
pub fn run_stdio() -> Result<(), BoxError> {
    run_stdio_with(Config::default())
}

/// [`run_stdio`] with default settings (the client's
/// `initializationOptions` override them).
pub fn run_stdio_with(defaults: Config) -> Result<(), BoxError> {
    run_stdio_hosted(defaults, Host::default())
}

/// [`run_stdio_with`], with what the hosting program offers.
pub fn run_stdio_hosted(defaults: Config, host: Host) -> Result<(), BoxError> {
    let (conn, io) = crate::framing::stdio(crate::framing::Limits::default());
    serve_hosted(&conn, defaults, host)?;
    drop(conn);
    io.join()?;
    Ok(())
}

/// The capabilities the server announces.
pub fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), "%".into()]),
            ..CompletionOptions::default()
        }),
        signature_help_provider: Some(SignatureHelpOptions {
            trigger_characters: Some(vec![" ".into(), ",".into()]),
            retrigger_characters: None,
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }),
        // For PTX documents only (a client that reads the selector, as VS
        // Code does, then keeps the C++ server's tokens for `.cu` files).
        semantic_tokens_provider: Some(
            SemanticTokensServerCapabilities::SemanticTokensRegistrationOptions(
                SemanticTokensRegistrationOptions {
                    text_document_registration_options: TextDocumentRegistrationOptions {
                        document_selector: Some(vec![
                            DocumentFilter {
                                language: Some("ptx".into()),
                                scheme: None,
                                pattern: None,
                            },
                            DocumentFilter {
                                language: None,
                                scheme: None,
                                pattern: Some("**/*.ptx".into()),
                            },
                        ]),
                    },
                    semantic_tokens_options: SemanticTokensOptions {
                        legend: crate::semantic_tokens::legend(),
                        full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                        range: Some(true),
                        work_done_progress_options: WorkDoneProgressOptions::default(),
                    },
                    static_registration_options: StaticRegistrationOptions::default(),
                },
            ),
        ),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// A whole analysis made in the background: document, version, result.
type Refreshed = (String, i32, Analysis);

/// The open documents and the settings.
pub struct State {
    docs: HashMap<String, Document>,
    config: Config,
    encoding: Encoding,
    refresh_tx: Sender<Refreshed>,
    refresh_rx: Receiver<Refreshed>,
    /// Notifications to send once the current message is handled.
    outbox: Vec<Notification>,
    /// Documents edited since their last analysis, each with its text
    /// before the first of those edits when it is large (for the quick
    /// re-check of one function). Edits are applied as they come, and the
    /// analysis made once the edits queued behind them are applied too
    /// ([`State::settle`]): a burst of keystrokes costs one check of the
    /// latest text, and one diagnostics message.
    pending: Vec<(String, Option<String>)>,
    /// Requests the client cancelled before they were answered.
    cancelled: Vec<lsp_server::RequestId>,
    /// The last full semantic tokens sent for each document, by result id
    /// (`semanticTokens/full/delta` answers with what changed since).
    tokens: HashMap<String, (String, Vec<lsp_types::SemanticToken>)>,
    /// The next semantic tokens result id.
    next_result: u64,
    /// The bytes of text the open documents hold as trees (the sum of
    /// their analyses' texts), against `config.large_total`.
    full_bytes: usize,
    /// What the hosting program offers (see [`Host`]).
    host: Host,
    /// Bytes of text of the documents closed since memory was last given
    /// back ([`Host::release_memory`]).
    closed_bytes: usize,
}

/// What the program running the server can do for it, beyond the
/// protocol.
#[derive(Clone, Copy, Debug, Default)]
pub struct Host {
    /// Give the memory the allocator keeps after frees back to the system
    /// (`ptx lsp` passes mimalloc's collection). Called once the documents
    /// closed since the last call held at least [`RELEASE_AFTER`] bytes of
    /// text and no message is waiting: without it, the server's resident
    /// size stays at the peak of what was ever open (300 documents of
    /// 120 KB opened and closed: 590 MB resident after the close, against
    /// 35 MB with it).
    pub release_memory: Option<fn()>,
}

/// Bytes of closed documents' text after which memory is given back
/// ([`Host::release_memory`]). A document's trees and indexes are about
/// ten times its text, so this is tens of megabytes of memory.
pub const RELEASE_AFTER: usize = 4 << 20;

/// Run the protocol on `conn`: initialization, then messages until
/// `shutdown`.
pub fn serve(conn: &Connection, defaults: Config) -> Result<(), BoxError> {
    serve_hosted(conn, defaults, Host::default())
}

/// [`serve`], with what the hosting program offers.
pub fn serve_hosted(conn: &Connection, defaults: Config, host: Host) -> Result<(), BoxError> {
    let (id, params) = conn.initialize_start()?;
    let init: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let utf8 = init
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
    let encoding = if utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    let mut config = defaults;
    if let Some(c) = init.initialization_options.as_ref().map(Config::from_json) {
        config.incremental_above = c.incremental_above;
        config.large_above = c.large_above;
        config.large_total = c.large_total;
        if c.target.is_some() {
            config.target = c.target;
        }
    }
    let result = serde_json::json!({
        "capabilities": capabilities(encoding),
        "serverInfo": { "name": "ptx lsp", "version": env!("CARGO_PKG_VERSION") },
    });
    conn.initialize_finish(id, result)?;
    let (refresh_tx, refresh_rx) = unbounded();
    let mut state = State {
        docs: HashMap::new(),
        config,
        encoding,
        refresh_tx,
        refresh_rx,
        outbox: Vec::new(),
        pending: Vec::new(),
        cancelled: Vec::new(),
        tokens: HashMap::new(),
        next_result: 0,
        full_bytes: 0,
        host,
        closed_bytes: 0,
    };
    // Messages taken off the queue early (to see the cancellations behind
    // a request), handled before the queue's next.
    let mut backlog: VecDeque<Message> = VecDeque::new();
    loop {
        let next = match backlog.pop_front() {
            Some(m) => Some(m),
            None => {
                let refresh_rx = state.refresh_rx.clone();
                select! {
                    recv(conn.receiver) -> msg => match msg {
                        Ok(m) => Some(m),
                        Err(_) => return Ok(()),
                    },
                    recv(refresh_rx) -> r => {
                        if let Ok(r) = r {
                            state.refreshed(r);
                        }
                        None
                    }
                }
            }
        };
        match next {
            Some(Message::Request(req)) => {
                if req.method == r::Shutdown::METHOD {
                    // Answer, then wait for `exit`; a client that closes
                    // the stream instead ends us as well.
                    let resp = Response::new_ok(req.id, ());
                    conn.sender.send(Message::Response(resp))?;
                    let is_exit = |m: &Message| matches!(m, Message::Notification(x) if x.method == n::Exit::METHOD);
                    if backlog.iter().any(is_exit) {
                        return Ok(());
                    }
                    while let Ok(m) = conn.receiver.recv() {
                        if is_exit(&m) {
                            break;
                        }
                    }
                    return Ok(());
                }
                // Cancellations already queued behind it count.
                while backlog.len() < MAX_BACKLOG {
                    let Ok(m) = conn.receiver.try_recv() else {
                        break;
                    };
                    match m {
                        Message::Notification(x) if x.method == n::Cancel::METHOD => {
                            state.cancel(x);
                        }
                        m => backlog.push_back(m),
                    }
                }
                let resp = match state.cancelled.iter().position(|c| *c == req.id) {
                    Some(i) => {
                        state.cancelled.swap_remove(i);
                        Response::new_err(
                            req.id,
                            ErrorCode::RequestCanceled as i32,
                            "cancelled".into(),
                        )
                    }
                    None => {
                        state.settle();
                        state.request(req)
                    }
                };
                state.flush(conn)?;
                conn.sender.send(Message::Response(resp))?;
            }
            Some(Message::Notification(not)) => {
                let out = state.notification(not);
                state.outbox.extend(out);
            }
            Some(Message::Response(_)) | None => {}
        }
        if backlog.is_empty() && conn.receiver.is_empty() {
            state.settle();
            state.release_memory();
        }
        state.flush(conn)?;
    }
}

/// The most messages taken off the queue ahead of the one being handled.
const MAX_BACKLOG: usize = 1024;

/// The document a request is about (`textDocument.uri`).
fn doc_uri(params: &Value) -> Option<Uri> {
    params
        .get("textDocument")
        .and_then(|t| t.get("uri"))
        .and_then(Value::as_str)
        .and_then(|u| u.parse::<Uri>().ok())
}

fn parse<P: DeserializeOwned>(v: Value) -> Result<P, String> {
    serde_json::from_value(v).map_err(|e| format!("bad parameters: {e}"))
}

fn ok<T: serde::Serialize>(v: T) -> Result<Value, (ErrorCode, String)> {
    serde_json::to_value(v).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

impl State {
    /// Give `t` a result id and keep it as the last tokens of `key`.
    fn remember_tokens(&mut self, key: &str, mut t: SemanticTokens) -> SemanticTokens {
        self.next_result = self.next_result.wrapping_add(1);
        let id = self.next_result.to_string();
        t.result_id = Some(id.clone());
        self.tokens.insert(key.to_string(), (id, t.data.clone()));
        t
    }

    /// Give memory back to the system ([`Host::release_memory`]) once
    /// enough closed documents have been let go of.
    fn release_memory(&mut self) {
        if self.closed_bytes >= RELEASE_AFTER {
            self.closed_bytes = 0;
            if let Some(release) = self.host.release_memory {
                release();
            }
        }
    }

    /// Note a `$/cancelRequest` (kept for requests not yet answered; at
    /// most a bounded number are remembered).
    fn cancel(&mut self, not: Notification) {
        if let Ok(p) = parse::<lsp_types::CancelParams>(not.params) {
            let id = match p.id {
                lsp_types::NumberOrString::Number(n) => lsp_server::RequestId::from(n),
                lsp_types::NumberOrString::String(s) => lsp_server::RequestId::from(s),
            };
            if self.cancelled.len() >= 1024 {
                self.cancelled.remove(0);
            }
            self.cancelled.push(id);
        }
    }

    /// Analyse the documents edited since their last analysis, once each,
    /// and queue their diagnostics.
    pub fn settle(&mut self) {
        let target = self.config.target.clone();
        for (key, old) in std::mem::take(&mut self.pending) {
            let limit = self.limit_for(&key);
            let Some(doc) = self.docs.get_mut(&key) else {
                continue;
            };
            if doc.recheck_asm(target.as_deref()) {
                let n = Self::publish(doc);
                self.outbox.push(n);
                continue;
            }
            let quick = old.is_some_and(|old| {
                doc.layout
                    .edit(&doc.analysis, &old, &doc.text, target.as_deref())
            });
            let was_large = doc.analysis.large().is_some();
            if quick {
                self.spawn_refresh(&key);
            } else {
                let a = Analysis::of_text(&doc.text, target.clone(), Some(&doc.analysis), limit);
                let v = doc.version;
                self.install(&key, v, a);
            }
            if let Some(doc) = self.docs.get(&key) {
                let n = Self::publish(doc);
                self.outbox.push(n);
                if !was_large {
                    self.outbox.extend(self.large_notice(doc));
                }
            }
        }
    }

    fn flush(&mut self, conn: &Connection) -> Result<(), BoxError> {
        for n in self.outbox.drain(..) {
            conn.sender.send(Message::Notification(n))?;
        }
        Ok(())
    }

    /// Make the whole analysis of `key`'s current text in the background.
    fn spawn_refresh(&mut self, key: &str) {
        let target = self.config.target.clone();
        let large_above = self.limit_for(key);
        let Some(doc) = self.docs.get_mut(key) else {
            return;
        };
        if doc.refreshing.is_some() {
            return;
        }
        doc.refreshing = Some(doc.version);
        let (text, version, key) = (doc.text.clone(), doc.version, key.to_string());
        let tx = self.refresh_tx.clone();
        std::thread::spawn(move || {
            // One thread: the other core answers the next keystroke.
            let a = Analysis::sized(text, target, None, false, large_above);
            let _ = tx.send((key, version, a));
        });
    }

    /// A background analysis is done: install it if still current (and
    /// send the diagnostics if they differ), or start the next.
    fn refreshed(&mut self, (key, version, a): Refreshed) {
        let Some(doc) = self.docs.get_mut(&key) else {
            return;
        };
        doc.refreshing = None;
        let before = crate::diagnostics::of(doc);
        if self.install(&key, version, a) {
            if let Some(doc) = self.docs.get(&key) {
                if crate::diagnostics::of(doc) != before {
                    let n = Self::publish(doc);
                    self.outbox.push(n);
                }
            }
        } else if self.docs.get(&key).is_some_and(|d| !d.fresh()) {
            self.spawn_refresh(&key);
        }
    }

    /// Wait until the document's whole analysis is of its current text.
    fn ensure_fresh(&mut self, uri: &Uri) {
        let key = uri.as_str();
        loop {
            let Some(doc) = self.docs.get(key) else {
                return;
            };
            if doc.fresh() {
                return;
            }
            if doc.refreshing.is_some() {
                match self.refresh_rx.recv() {
                    Ok(r) => self.refreshed(r),
                    Err(_) => return,
                }
                continue;
            }
            let target = self.config.target.clone();
            let limit = self.limit_for(key);
            if let Some(doc) = self.docs.get_mut(key) {
                if doc.recheck_asm(target.as_deref()) {
                    continue;
                }
                let a = Analysis::of_text(&doc.text, target, Some(&doc.analysis), limit);
                let v = doc.version;
                self.install(key, v, a);
            }
        }
    }

    fn doc(&self, uri: &Uri) -> Result<&Document, (ErrorCode, String)> {
        self.docs.get(uri.as_str()).ok_or_else(|| {
            (
                ErrorCode::InvalidParams,
                format!("{} is not open", uri.as_str()),
            )
        })
    }

    /// The size up to which `key`'s text is analysed in full: `largeAbove`,
    /// or less when the other open documents' trees leave less of
    /// `largeTotal`.
    fn limit_for(&self, key: &str) -> usize {
        let own = self.docs.get(key).map_or(0, |d| d.analysis.text.len());
        let others = self.full_bytes.saturating_sub(own);
        let left = self.config.large_total.saturating_sub(others);
        self.config.large_above.min(left)
    }

    /// [`Document::install`] for `key`, keeping the count of bytes held as
    /// trees.
    fn install(&mut self, key: &str, version: i32, a: Analysis) -> bool {
        let Some(doc) = self.docs.get_mut(key) else {
            return false;
        };
        let before = doc.analysis.text.len();
        let installed = doc.install(version, a);
        let after = doc.analysis.text.len();
        self.full_bytes = self.full_bytes.saturating_sub(before).saturating_add(after);
        installed
    }

    /// The message shown once a PTX document is too large to hold as a
    /// tree (none for others).
    fn large_notice(&self, doc: &Document) -> Option<Notification> {
        let size = doc.analysis.large()?;
        let mb = |n: usize| n as f64 / (1 << 20) as f64;
        let params = lsp_types::ShowMessageParams {
            typ: lsp_types::MessageType::INFO,
            message: format!(
                "ptx: {} ({:.1} MiB) gets diagnostics only: a document is analysed in full \
                 up to {:.1} MiB (the `largeAbove` setting), and the open documents \
                 together up to {:.1} MiB (`largeTotal`)",
                doc.uri.as_str(),
                mb(size),
                mb(self.config.large_above),
                mb(self.config.large_total)
            ),
        };
        Some(Notification::new(
            n::ShowMessage::METHOD.to_string(),
            params,
        ))
    }

    fn publish(doc: &Document) -> Notification {
        let params = PublishDiagnosticsParams {
            uri: doc.uri.clone(),
            diagnostics: crate::diagnostics::of(doc),
            version: Some(doc.version),
        };
        Notification::new(n::PublishDiagnostics::METHOD.to_string(), params)
    }

    /// Handle a notification; returns the notifications to send back.
    pub fn notification(&mut self, not: Notification) -> Vec<Notification> {
        match not.method.as_str() {
            n::DidOpenTextDocument::METHOD => {
                let Ok(p) = parse::<lsp_types::DidOpenTextDocumentParams>(not.params) else {
                    return Vec::new();
                };
                let d = p.text_document;
                let lang = Lang::of(d.uri.as_str(), &d.language_id);
                let key = d.uri.as_str().to_string();
                let limit = self.limit_for(&key);
                let doc = Document::open(
                    d.uri.clone(),
                    d.version,
                    d.text,
                    self.encoding,
                    self.config.target.clone(),
                    lang,
                    limit,
                );
                let mut out = vec![Self::publish(&doc)];
                out.extend(self.large_notice(&doc));
                self.full_bytes = self.full_bytes.saturating_add(doc.analysis.text.len());
                if let Some(old) = self.docs.insert(key, doc) {
                    self.full_bytes = self.full_bytes.saturating_sub(old.analysis.text.len());
                }
                out
            }
            n::DidChangeTextDocument::METHOD => {
                let Ok(p) = parse::<lsp_types::DidChangeTextDocumentParams>(not.params) else {
                    return Vec::new();
                };
                let encoding = self.encoding;
                let limit = self.config.incremental_above;
                let key = p.text_document.uri.as_str().to_string();
                let Some(doc) = self.docs.get_mut(&key) else {
                    return Vec::new();
                };
                if !self.pending.iter().any(|(k, _)| *k == key) {
                    // The quick path edits a tree: none for a document
                    // checked without one.
                    let tree = doc.lang == Lang::Ptx && doc.analysis.large().is_none();
                    let old = (tree && doc.text.len() > limit).then(|| doc.text.clone());
                    self.pending.push((key, old));
                }
                doc.apply(p.content_changes, encoding);
                doc.version = p.text_document.version;
                Vec::new()
            }
            n::DidCloseTextDocument::METHOD => {
                let Ok(p) = parse::<lsp_types::DidCloseTextDocumentParams>(not.params) else {
                    return Vec::new();
                };
                if let Some(old) = self.docs.remove(p.text_document.uri.as_str()) {
                    self.full_bytes = self.full_bytes.saturating_sub(old.analysis.text.len());
                    self.closed_bytes = self
                        .closed_bytes
                        .saturating_add(old.text.len().max(old.analysis.text.len()));
                }
                self.tokens.remove(p.text_document.uri.as_str());
                let params = PublishDiagnosticsParams {
                    uri: p.text_document.uri,
                    diagnostics: Vec::new(),
                    version: None,
                };
                vec![Notification::new(
                    n::PublishDiagnostics::METHOD.to_string(),
                    params,
                )]
            }
            n::DidChangeConfiguration::METHOD => {
                let Ok(p) = parse::<lsp_types::DidChangeConfigurationParams>(not.params) else {
                    return Vec::new();
                };
                let config = Config::from_json(&p.settings);
                if config == self.config {
                    return Vec::new();
                }
                self.config = config;
                let target = self.config.target.clone();
                // Every tree is made again under the new limits, each
                // counted against the total as it is made.
                let keys: Vec<String> = self.docs.keys().cloned().collect();
                for key in &keys {
                    if let Some(doc) = self.docs.get_mut(key) {
                        let held = doc.analysis.text.len();
                        self.full_bytes = self.full_bytes.saturating_sub(held);
                        doc.analysis = Analysis::new(String::new(), None, None);
                        doc.layout = crate::incremental::Layout::of(&doc.analysis);
                    }
                }
                for key in &keys {
                    let limit = self.limit_for(key);
                    let Some(doc) = self.docs.get_mut(key) else {
                        continue;
                    };
                    if doc.recheck_asm(target.as_deref()) {
                        continue;
                    }
                    let a = Analysis::of_text(&doc.text, target.clone(), None, limit);
                    let v = doc.version;
                    self.install(key, v, a);
                }
                self.docs.values().map(Self::publish).collect()
            }
            n::Cancel::METHOD => {
                self.cancel(not);
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// Answer a request.
    pub fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        match self.answer(req) {
            // Not `Response::new_ok`, which serializes its argument again:
            // a `Value` in, a copy of the whole tree out (150,000
            // references were two trees of 2.6 KB per location at once).
            Ok(v) => Response {
                id,
                result: Some(v),
                error: None,
            },
            Err((code, msg)) => Response::new_err(id, code as i32, msg),
        }
    }

    fn at(
        &self,
        p: &lsp_types::TextDocumentPositionParams,
    ) -> Result<(&Document, u32), (ErrorCode, String)> {
        let doc = self.doc(&p.text_document.uri)?;
        let off = doc.offset(p.position);
        Ok((doc, off))
    }

    fn answer(&mut self, req: Request) -> Result<Value, (ErrorCode, String)> {
        // Every request on a document reads its whole analysis.
        if let Some(uri) = doc_uri(&req.params) {
            self.ensure_fresh(&uri);
        } else {
            let stale: Vec<String> = self
                .docs
                .iter()
                .filter(|(_, d)| !d.fresh())
                .map(|(k, _)| k.clone())
                .collect();
            for k in stale {
                if let Ok(u) = k.parse::<Uri>() {
                    self.ensure_fresh(&u);
                }
            }
        }
        let bad = |e: String| (ErrorCode::InvalidParams, e);
        let failed = |e: String| (ErrorCode::RequestFailed, e);
        // A C++ document: hover and completion inside `asm` strings; the
        // rest is the C++ server's (answered with nothing).
        if let Some(lang) = doc_uri(&req.params)
            .and_then(|u| self.docs.get(u.as_str()))
            .map(|d| d.lang)
            .filter(|l| *l != Lang::Ptx)
        {
            return match req.method.as_str() {
                r::HoverRequest::METHOD if lang == Lang::Cpp => {
                    let p: lsp_types::HoverParams = parse(req.params).map_err(bad)?;
                    let (doc, off) = self.at(&p.text_document_position_params)?;
                    ok(crate::asm_hover::hover(doc, off))
                }
                r::Completion::METHOD if lang == Lang::Cpp => {
                    let p: lsp_types::CompletionParams = parse(req.params).map_err(bad)?;
                    let (doc, off) = self.at(&p.text_document_position)?;
                    ok(crate::asm_completion::complete(doc, off))
                }
                _ => Ok(Value::Null),
            };
        }
        match req.method.as_str() {
            r::HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = parse(req.params).map_err(bad)?;
                let (doc, off) = self.at(&p.text_document_position_params)?;
                ok(crate::hover::hover(doc, off))
            }
            r::GotoDefinition::METHOD => {
                let p: lsp_types::GotoDefinitionParams = parse(req.params).map_err(bad)?;
                let (doc, off) = self.at(&p.text_document_position_params)?;
                ok(crate::navigation::definition(doc, off))
            }
            r::References::METHOD => {
                let p: lsp_types::ReferenceParams = parse(req.params).map_err(bad)?;
                let (doc, off) = self.at(&p.text_document_position)?;
                ok(
                    crate::navigation::references(doc, off, p.context.include_declaration)
                        .map_err(failed)?,
                )
            }
            r::DocumentHighlightRequest::METHOD => {
                let p: lsp_types::DocumentHighlightParams = parse(req.params).map_err(bad)?;
                let (doc, off) = self.at(&p.text_document_position_params)?;
                ok(crate::navigation::highlights(doc, off).map_err(failed)?)
            }
            r::PrepareRenameRequest::METHOD => {
                let p: lsp_types::TextDocumentPositionParams = parse(req.params).map_err(bad)?;
                let (doc, off) = self.at(&p)?;
                ok(crate::navigation::prepare_rename(doc, off).map_err(failed)?)
            }
            r::Rename::METHOD => {
                let p: lsp_types::RenameParams = parse(req.params).map_err(bad)?;
                let (doc, off) = self.at(&p.text_document_position)?;
                ok(crate::navigation::rename(doc, off, &p.new_name).map_err(failed)?)
            }
            r::DocumentSymbolRequest::METHOD => {
                let p: lsp_types::DocumentSymbolParams = parse(req.params).map_err(bad)?;
                let doc = self.doc(&p.text_document.uri)?;
                ok(lsp_types::DocumentSymbolResponse::Nested(
                    crate::symbols::document(doc),
                ))
            }
            r::WorkspaceSymbolRequest::METHOD => {
                let p: lsp_types::WorkspaceSymbolParams = parse(req.params).map_err(bad)?;
                ok(crate::symbols::workspace(
                    self.docs.values(),
                    &p.query,
                    1000,
                ))
            }
            r::Completion::METHOD => {
                let p: lsp_types::CompletionParams = parse(req.params).map_err(bad)?;
                let (doc, off) = self.at(&p.text_document_position)?;
                ok(crate::completion::complete(doc, off))
            }
            r::SignatureHelpRequest::METHOD => {
                let p: lsp_types::SignatureHelpParams = parse(req.params).map_err(bad)?;
                let (doc, off) = self.at(&p.text_document_position_params)?;
                ok(crate::signature::help(doc, off))
            }
            r::SemanticTokensFullRequest::METHOD => {
                let p: lsp_types::SemanticTokensParams = parse(req.params).map_err(bad)?;
                let doc = self.doc(&p.text_document.uri)?;
                let t = crate::semantic_tokens::tokens(doc, None);
                ok(self.remember_tokens(p.text_document.uri.as_str(), t))
            }
            r::SemanticTokensFullDeltaRequest::METHOD => {
                let p: lsp_types::SemanticTokensDeltaParams = parse(req.params).map_err(bad)?;
                let doc = self.doc(&p.text_document.uri)?;
                let t = crate::semantic_tokens::tokens(doc, None);
                let key = p.text_document.uri.as_str();
                let old = self
                    .tokens
                    .remove(key)
                    .filter(|(id, _)| *id == p.previous_result_id);
                let new = self.remember_tokens(key, t);
                match old {
                    Some((_, old)) => ok(lsp_types::SemanticTokensFullDeltaResult::TokensDelta(
                        crate::semantic_tokens::delta(&old, new),
                    )),
                    None => ok(lsp_types::SemanticTokensFullDeltaResult::Tokens(new)),
                }
            }
            r::SemanticTokensRangeRequest::METHOD => {
                let p: lsp_types::SemanticTokensRangeParams = parse(req.params).map_err(bad)?;
                let doc = self.doc(&p.text_document.uri)?;
                let span = doc.lines.span(&doc.text, p.range);
                ok(crate::semantic_tokens::tokens(doc, Some(span)))
            }
            r::FoldingRangeRequest::METHOD => {
                let p: lsp_types::FoldingRangeParams = parse(req.params).map_err(bad)?;
                let doc = self.doc(&p.text_document.uri)?;
                ok(crate::folding::ranges(doc))
            }
            r::Formatting::METHOD => {
                let p: lsp_types::DocumentFormattingParams = parse(req.params).map_err(bad)?;
                let doc = self.doc(&p.text_document.uri)?;
                ok(crate::formatting::format(doc).map_err(failed)?)
            }
            r::InlayHintRequest::METHOD => {
                let p: lsp_types::InlayHintParams = parse(req.params).map_err(bad)?;
                let doc = self.doc(&p.text_document.uri)?;
                let span = doc.lines.span(&doc.text, p.range);
                ok(crate::inlay_hints::hints(doc, span))
            }
            m => Err((ErrorCode::MethodNotFound, format!("unknown method {m}"))),
        }
    }
}
