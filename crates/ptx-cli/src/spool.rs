//! Output held until its turn to be printed, in bounded memory: a report
//! made on a worker thread waits for the reports of the files before it,
//! and a run's SARIF results wait for the log's envelope. Up to
//! [`IN_MEMORY`] bytes stay in memory; past that the bytes go to an
//! unlinked temporary file, so `ptx check --max-errors 0` on a file of
//! millions of errors holds a few hundred kilobytes of its report, not
//! the report.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};

/// Bytes kept in memory before a spool moves to a file. Up to
/// [`crate::ordered::WINDOW`] reports wait at once, so this bounds them to
/// a few tens of megabytes together.
pub const IN_MEMORY: usize = 256 << 10;

/// What [`Spool::copy_to`] passes each line through: it writes the line,
/// as it is or rewritten, to the output given.
pub type LineFn<'a> = dyn FnMut(&[u8], &mut dyn Write) -> io::Result<()> + 'a;

/// Bytes written, in memory or in a temporary file.
#[derive(Default)]
pub struct Spool {
    mem: Vec<u8>,
    file: Option<BufWriter<File>>,
    len: u64,
    /// The first write error (the spool then drops what follows).
    failed: Option<io::Error>,
}

impl Spool {
    /// An empty spool.
    pub fn new() -> Spool {
        Spool::default()
    }

    /// Bytes written so far.
    #[cfg(test)]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Append `bytes`.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.failed.is_some() {
            return;
        }
        self.len = self.len.saturating_add(bytes.len() as u64);
        if self.file.is_none() && self.mem.len().saturating_add(bytes.len()) > IN_MEMORY {
            // Without a temporary file it all stays in memory, as before.
            if let Ok(f) = tempfile::tempfile() {
                let mut w = BufWriter::with_capacity(64 << 10, f);
                if let Err(e) = w.write_all(&self.mem) {
                    self.failed = Some(e);
                    return;
                }
                self.mem = Vec::new();
                self.file = Some(w);
            }
        }
        match &mut self.file {
            Some(w) => {
                if let Err(e) = w.write_all(bytes) {
                    self.failed = Some(e);
                }
            }
            None => self.mem.extend_from_slice(bytes),
        }
    }

    /// Copy everything written, from byte `skip` on, to `out`, a line at a
    /// time through `line` (which may rewrite it) when one is given.
    pub fn copy_to(
        self,
        skip: u64,
        out: &mut dyn Write,
        mut line: Option<&mut LineFn<'_>>,
    ) -> io::Result<()> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let mut reader: Box<dyn BufRead> = match self.file {
            None => {
                let mut mem = io::Cursor::new(self.mem);
                mem.set_position(skip);
                Box::new(mem)
            }
            Some(w) => {
                let mut f = w.into_inner().map_err(|e| e.into_error())?;
                f.seek(SeekFrom::Start(skip))?;
                Box::new(BufReader::with_capacity(64 << 10, f))
            }
        };
        match &mut line {
            None => {
                io::copy(&mut reader, out)?;
            }
            Some(line) => {
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    if reader.read_until(b'\n', &mut buf)? == 0 {
                        break;
                    }
                    line(&buf, out)?;
                }
            }
        }
        Ok(())
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.push(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Append `v` to `out` as an element of a JSON array printed the way
/// `serde_json::to_writer_pretty` prints it, the array at `depth` (its
/// elements indented by two spaces a level): a comma, a new line, then
/// the element. The first element of the whole array must then be written
/// without its leading comma ([`Spool::copy_to`]'s `skip` of 1).
pub fn json_element(out: &mut Spool, v: &impl serde::Serialize, depth: usize) {
    // Through a `Value`: its maps are sorted by key, as the whole
    // document's were when it was built as one `Value`.
    let text = serde_json::to_value(v)
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or_else(|_| "null".to_string());
    push_element(out, &text, depth);
}

/// [`json_element`] for a value written in its own order of fields (a
/// type whose document is not built as a `Value`).
pub fn json_element_as_is(out: &mut Spool, v: &impl serde::Serialize, depth: usize) {
    let text = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".to_string());
    push_element(out, &text, depth);
}

fn push_element(out: &mut Spool, text: &str, depth: usize) {
    let pad = "  ".repeat(depth.saturating_add(1));
    out.push(b",\n");
    out.push(pad.as_bytes());
    // JSON strings escape their line breaks: every new line here is
    // between tokens.
    out.push(text.replace('\n', &format!("\n{pad}")).as_bytes());
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn read(s: Spool, skip: u64) -> Vec<u8> {
        let mut out = Vec::new();
        s.copy_to(skip, &mut out, None).unwrap();
        out
    }

    #[test]
    fn small_and_large_spools_give_back_what_was_written() {
        for n in [0usize, 10, IN_MEMORY - 1, IN_MEMORY + 1, 3 * IN_MEMORY] {
            let mut s = Spool::new();
            let data: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
            for chunk in data.chunks(1000) {
                s.push(chunk);
            }
            assert_eq!(s.len(), n as u64);
            assert_eq!(s.file.is_some(), n > IN_MEMORY, "{n}");
            assert_eq!(read(s, 0), data);
        }
        let mut s = Spool::new();
        s.push(b",abc");
        assert_eq!(read(s, 1), b"abc");
    }

    #[test]
    fn lines_can_be_rewritten() {
        let mut s = Spool::new();
        s.push(b"a\nbb\nccc");
        let mut out = Vec::new();
        let mut f = |l: &[u8], w: &mut dyn Write| w.write_all(&l[..1]);
        s.copy_to(0, &mut out, Some(&mut f)).unwrap();
        assert_eq!(out, b"abc");
    }

    /// Elements written one at a time make the array `to_string_pretty`
    /// makes of the whole, at the top and nested.
    #[test]
    fn json_elements_make_the_pretty_array() {
        let items = vec![
            serde_json::json!({"b": 1, "a": [1, {"x": []}], "s": "line\nbreak"}),
            serde_json::json!([]),
            serde_json::json!("x"),
        ];
        let mut s = Spool::new();
        for v in &items {
            json_element(&mut s, v, 0);
        }
        let mut text = b"[".to_vec();
        text.extend(read(s, 1));
        text.extend(b"\n]");
        assert_eq!(
            String::from_utf8(text).unwrap(),
            serde_json::to_string_pretty(&items).unwrap()
        );
        let mut s = Spool::new();
        json_element(&mut s, &items[0], 1);
        let nested = format!(
            "{{\n  \"k\": [{}\n  ]\n}}",
            String::from_utf8(read(s, 1)).unwrap()
        );
        assert_eq!(
            nested,
            serde_json::to_string_pretty(&serde_json::json!({"k": [items[0].clone()]})).unwrap()
        );
    }
}
