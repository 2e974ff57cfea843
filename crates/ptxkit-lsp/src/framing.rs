//! The transport: base-protocol framing (`Content-Length` headers, then a
//! JSON body) over any reader and writer, with every size bounded.
//!
//! It sits in front of `lsp-server`'s message types in place of its own
//! stdio reader, which trusts what the headers say (a `Content-Length` of
//! 10^12 makes it allocate that much; an endless header line aborts it) and
//! ends the connection on any malformed message. Here a header line is at
//! most [`Limits::header_line`] bytes, a body at most [`Limits::message`]
//! (a larger one is read past in small pieces, never held), and a message
//! that cannot be read (no or bad `Content-Length`, a body too large, not
//! UTF-8, not JSON, not a JSON-RPC message) is answered with a JSON-RPC
//! error (`-32700` parse error, `-32600` invalid request) and the server
//! goes on with the next one. The end of the input ends the connection
//! cleanly.

use std::io::{self, BufRead, Read, Write};

use crossbeam_channel::{bounded, select, Receiver, Sender};
use lsp_server::{Connection, Message};

/// JSON-RPC's code for a body that is not JSON (or not text).
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's code for JSON that is not a request, notification or response.
pub const INVALID_REQUEST: i32 = -32600;

/// The bounds of the transport.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The longest header line, in bytes (8 KiB).
    pub header_line: usize,
    /// The largest message body, in bytes (256 MiB: a 100 MB document in
    /// `didOpen`, escaped as JSON, fits).
    pub message: usize,
    /// Messages read ahead of the server (each at most `message` bytes).
    pub queue: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_line: 8 * 1024,
            message: 256 << 20,
            queue: 64,
        }
    }
}

/// What one read from the input gave.
#[derive(Debug)]
pub enum Frame {
    /// A well-formed message.
    Message(Message),
    /// A message that could not be read: the error to answer with, and
    /// the request id when one could be read from it.
    Bad {
        /// `PARSE_ERROR` or `INVALID_REQUEST`.
        code: i32,
        /// Why.
        message: String,
        /// The id of the request, if the body was JSON with an id.
        id: Option<serde_json::Value>,
    },
    /// The end of the input.
    End,
}

/// Read one line of at most `max` bytes (without its `\n` and `\r`).
/// `Ok(None)` at the end of the input; `Ok(Some(Err(n)))` for a line longer
/// than `max`, skipped to its end (`n` bytes).
fn read_line(r: &mut impl BufRead, max: usize) -> io::Result<Option<Result<Vec<u8>, usize>>> {
    let mut line = Vec::new();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let (chunk, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (buf.get(..i).unwrap_or_default(), Some(i.saturating_add(1))),
            None => (buf, None),
        };
        len = len.saturating_add(chunk.len());
        if len <= max {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            break;
        }
    }
    if len > max {
        return Ok(Some(Err(len)));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(Ok(line)))
}

/// Skip `n` bytes of the input; false if it ended first.
fn skip(r: &mut impl BufRead, n: u64) -> io::Result<bool> {
    let copied = io::copy(&mut r.take(n), &mut io::sink())?;
    Ok(copied == n)
}

/// The value of a `Content-Length` header line: `Some(Ok(n))`, or
/// `Some(Err(text))` when the value is not a number; `None` for another
/// header. The name is looked for at the end of whatever precedes it on
/// the line, so a message that follows bytes without a line break (the
/// rest of a body whose length was wrong) is still found.
fn content_length(line: &[u8]) -> Option<Result<u64, String>> {
    const NAME: &[u8] = b"content-length";
    let lower = line.to_ascii_lowercase();
    let at = memchr::memmem::rfind(&lower, NAME)?;
    let rest = line.get(at.saturating_add(NAME.len())..)?;
    let rest = String::from_utf8_lossy(rest);
    let value = rest.trim_start().strip_prefix(':')?.trim();
    Some(value.parse::<u64>().map_err(|_| value.to_string()))
}

/// Read the next frame of `r` under `limits`.
pub fn read_frame(r: &mut impl BufRead, limits: &Limits) -> io::Result<Frame> {
    let bad = |code, message: String| Frame::Bad {
        code,
        message,
        id: None,
    };
    let mut length: Option<Result<u64, String>> = None;
    let mut headers = 0usize;
    let mut problem: Option<String> = None;
    loop {
        let Some(line) = read_line(r, limits.header_line)? else {
            return Ok(Frame::End);
        };
        let line = match line {
            Ok(l) => l,
            Err(n) => {
                problem.get_or_insert(format!(
                    "header line of {n} bytes, above the limit of {}",
                    limits.header_line
                ));
                continue;
            }
        };
        if line.is_empty() {
            if headers == 0 && problem.is_none() {
                // Blank lines between messages.
                continue;
            }
            break;
        }
        headers = headers.saturating_add(1);
        if let Some(l) = content_length(&line) {
            length = Some(l);
        }
    }
    if let Some(p) = problem {
        return Ok(bad(PARSE_ERROR, p));
    }
    let n = match length {
        None => return Ok(bad(PARSE_ERROR, "no Content-Length header".into())),
        Some(Err(v)) => {
            return Ok(bad(
                PARSE_ERROR,
                format!("Content-Length {v:?} is not a number"),
            ))
        }
        Some(Ok(n)) => n,
    };
    let limit = u64::try_from(limits.message).unwrap_or(u64::MAX);
    if n > limit {
        if !skip(r, n)? {
            return Ok(Frame::End);
        }
        return Ok(bad(
            PARSE_ERROR,
            format!("message of {n} bytes, above the limit of {limit} bytes"),
        ));
    }
    // Read as the bytes arrive: a header that lies allocates nothing.
    let mut body = Vec::new();
    r.take(n).read_to_end(&mut body)?;
    if u64::try_from(body.len()).unwrap_or(u64::MAX) < n {
        return Ok(Frame::End);
    }
    Ok(decode(&body))
}

/// The message a body holds, or why it holds none.
fn decode(body: &[u8]) -> Frame {
    if let Err(e) = std::str::from_utf8(body) {
        return Frame::Bad {
            code: PARSE_ERROR,
            message: format!("message is not UTF-8 ({e})"),
            id: None,
        };
    }
    let value: serde_json::Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Frame::Bad {
                code: PARSE_ERROR,
                message: format!("message is not JSON ({e})"),
                id: None,
            }
        }
    };
    let id = value.get("id").cloned();
    match serde_json::from_value::<Message>(value) {
        Ok(m) => Frame::Message(m),
        Err(e) => Frame::Bad {
            code: INVALID_REQUEST,
            message: format!("not a JSON-RPC request, notification or response ({e})"),
            id,
        },
    }
}

/// Write one framed JSON value.
fn write_json(w: &mut impl Write, v: &serde_json::Value) -> io::Result<()> {
    let text = serde_json::to_string(v).map_err(io::Error::other)?;
    write!(w, "Content-Length: {}\r\n\r\n", text.len())?;
    w.write_all(text.as_bytes())?;
    w.flush()
}

/// The error reply to a frame that could not be read.
pub fn error_reply(code: i32, message: &str, id: Option<serde_json::Value>) -> serde_json::Value {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(serde_json::Value::Null),
        "error": { "code": code, "message": message },
    })
}

/// The threads moving messages between the connection and the streams.
pub struct IoThreads {
    reader: std::thread::JoinHandle<io::Result<()>>,
    writer: std::thread::JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Wait for both threads (the reader ends at the end of the input or
    /// after `exit`; the writer once the connection is dropped).
    pub fn join(self) -> io::Result<()> {
        let r = self.reader.join().unwrap_or(Ok(()));
        let w = self.writer.join().unwrap_or(Ok(()));
        r.and(w)
    }
}

/// A connection over `input` and `output` with bounded framing.
pub fn connect<R, W>(input: R, output: W, limits: Limits) -> (Connection, IoThreads)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (to_server, from_reader) = bounded::<Message>(limits.queue.max(1));
    let (to_client, from_server) = bounded::<Message>(0);
    let (errors_tx, errors_rx) = bounded::<serde_json::Value>(limits.queue.max(1));
    let reader = std::thread::spawn(move || read_loop(input, &limits, &to_server, &errors_tx));
    let writer = std::thread::spawn(move || write_loop(output, &from_server, &errors_rx));
    (
        Connection {
            sender: to_client,
            receiver: from_reader,
        },
        IoThreads { reader, writer },
    )
}

/// A connection over stdin and stdout (see [`connect`]).
pub fn stdio(limits: Limits) -> (Connection, IoThreads) {
    connect(
        io::BufReader::with_capacity(64 * 1024, io::stdin()),
        io::stdout(),
        limits,
    )
}

fn read_loop(
    mut input: impl BufRead,
    limits: &Limits,
    to_server: &Sender<Message>,
    errors: &Sender<serde_json::Value>,
) -> io::Result<()> {
    loop {
        match read_frame(&mut input, limits)? {
            Frame::End => return Ok(()),
            Frame::Message(m) => {
                let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                if to_server.send(m).is_err() || exit {
                    return Ok(());
                }
            }
            Frame::Bad { code, message, id } => {
                if errors.send(error_reply(code, &message, id)).is_err() {
                    return Ok(());
                }
            }
        }
    }
}

fn write_loop(
    mut output: impl Write,
    from_server: &Receiver<Message>,
    errors: &Receiver<serde_json::Value>,
) -> io::Result<()> {
    let mut errors_open = true;
    loop {
        if errors_open {
            select! {
                recv(from_server) -> m => match m {
                    Ok(m) => m.write(&mut output)?,
                    Err(_) => return Ok(()),
                },
                recv(errors) -> e => match e {
                    Ok(v) => write_json(&mut output, &v)?,
                    Err(_) => errors_open = false,
                },
            }
        } else {
            match from_server.recv() {
                Ok(m) => m.write(&mut output)?,
                Err(_) => return Ok(()),
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let limits = Limits {
            header_line: 64,
            message: 1024,
            queue: 4,
        };
        let mut r = io::Cursor::new(input.to_vec());
        let mut out = Vec::new();
        loop {
            match read_frame(&mut r, &limits).unwrap() {
                Frame::End => return out,
                Frame::Message(m) => out.push(format!("ok {}", serde_json::to_string(&m).unwrap())),
                Frame::Bad { code, message, .. } => out.push(format!("{code} {message}")),
            }
        }
    }

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn every_bad_message_is_answered_and_reading_goes_on() {
        let good = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let mut input = String::new();
        input.push_str(&framed("{not json"));
        input.push_str(&format!("{}\r\n\r\n", "X".repeat(100)));
        input.push_str(&framed(good));
        input.push_str("Content-Length: 2000\r\n\r\n");
        input.push_str(&"y".repeat(2000));
        input.push_str("Content-Length: ten\r\n\r\n");
        input.push_str(&framed("\"text\""));
        input.push_str(&framed(good));
        let mut bytes = input.into_bytes();
        bytes.extend(b"Content-Length: 3\r\n\r\n\xff\xfe\xfd");
        bytes.extend(framed(good).as_bytes());
        let got = frames(&bytes);
        assert_eq!(got.len(), 9, "{got:#?}");
        assert!(
            got[0].starts_with("-32700 message is not JSON"),
            "{}",
            got[0]
        );
        assert!(got[1].starts_with("-32700 header line of 10"), "{}", got[1]);
        assert!(got[2].starts_with("ok "), "{}", got[2]);
        assert!(
            got[3].starts_with("-32700 message of 2000 bytes"),
            "{}",
            got[3]
        );
        assert!(
            got[4].starts_with("-32700 Content-Length \"ten\""),
            "{}",
            got[4]
        );
        // "ten" left the body unread: it is read as headers, then the next
        // message is found again.
        assert!(got[5].starts_with("-32600"), "{}", got[5]);
        assert!(got.last().unwrap().starts_with("ok "), "{got:#?}");
    }

    #[test]
    fn a_header_after_stray_bytes_is_found() {
        let good = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let mut input = b"stray bytes".to_vec();
        input.extend(framed(good).as_bytes());
        let got = frames(&input);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].starts_with("ok "), "{got:?}");
    }

    #[test]
    fn endless_header_and_lying_length_cost_nothing() {
        let mut input = vec![b'a'; 1 << 20];
        input.extend(b"\r\n\r\n");
        let got = frames(&input);
        assert_eq!(got.len(), 1);
        assert!(got[0].contains("above the limit of 64"));
        // A length far beyond the input: the end, not an allocation.
        assert!(frames(b"Content-Length: 1000000000000\r\n\r\n{}").is_empty());
        assert!(frames(b"").is_empty());
    }
}
