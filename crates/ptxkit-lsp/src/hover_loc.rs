//! Hover on a `.loc` directive: the source line it points at, read as
//! `ptx show --source` reads it ([`ptxkit::analysis::lineinfo`]: the
//! `.file` at the path written, else by its file name beside the PTX file).

use std::path::PathBuf;

use ptxkit::analysis::lineinfo::LineInfo;
use ptxkit::{LineIndex, Span};

use crate::document::Document;

/// The hover text and span when byte offset `off` of `doc` is on a line
/// holding a `.loc` directive.
pub fn source_line(doc: &Document, off: u32) -> Option<(String, Span)> {
    let a = &doc.analysis;
    let src = a.text.as_bytes();
    // Only a `.loc` line indexes the text and reads the source files.
    let at = usize::try_from(off).ok()?.min(src.len());
    let start = src
        .get(..at)?
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |k| k.saturating_add(1));
    let rest = src.get(start..)?;
    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    if !String::from_utf8_lossy(rest.get(..end)?)
        .trim_start()
        .starts_with(".loc")
    {
        return None;
    }
    let lines = LineIndex::new(src);
    let line = lines.line_col(off).line;
    let span = lines.line_span(line, src);
    let ptx = file_path(doc.uri.as_str());
    let info = LineInfo::new(&a.module, &lines, ptx.as_deref());
    let at = info.at(line)?;
    let body = match (&at.text, &at.found_at) {
        (Some(t), Some(from)) => format!(
            "`{}:{}`\n\n```cuda\n{}\n```\n\nread from `{from}`",
            at.file, at.line, t
        ),
        (None, Some(from)) => format!(
            "`{}:{}`: `{from}` has no line {}",
            at.file, at.line, at.line
        ),
        _ => format!(
            "`{}:{}`: the file is not at the path written nor beside the PTX file",
            at.file, at.line
        ),
    };
    Some((body, span))
}

/// The path of a `file://` URI (percent escapes decoded); `None` for
/// another scheme.
fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // An authority (`file://host/…`) is dropped; `file:///…` has none.
    let path = &rest[rest.find('/')?..];
    let b = path.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut k = 0;
    while let Some(&c) = b.get(k) {
        let hex = |i: usize| {
            b.get(i)
                .and_then(|h| (*h as char).to_digit(16))
                .and_then(|d| u8::try_from(d).ok())
        };
        match (c, hex(k.saturating_add(1)), hex(k.saturating_add(2))) {
            (b'%', Some(h), Some(l)) => {
                out.push(h.wrapping_mul(16).wrapping_add(l));
                k = k.saturating_add(3);
            }
            _ => {
                out.push(c);
                k = k.saturating_add(1);
            }
        }
    }
    Some(PathBuf::from(String::from_utf8_lossy(&out).into_owned()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::document::{Document, Encoding};

    #[test]
    fn uri_to_path() {
        assert_eq!(
            file_path("file:///tmp/a%20b/k.ptx"),
            Some(PathBuf::from("/tmp/a b/k.ptx"))
        );
        assert_eq!(file_path("untitled:k.ptx"), None);
    }

    #[test]
    fn hover_on_a_loc_shows_the_source_line() {
        let dir = std::env::temp_dir().join(format!("ptxkit-hover-loc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("k.cu"),
            "// line 1\nint x = threadIdx.x; // line 2\n",
        )
        .unwrap();
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"/elsewhere/k.cu\"\n.visible .entry k()\n{\n.loc 1 2 0\nret;\n}\n";
        let uri = format!("file://{}/k.ptx", dir.display());
        let doc = Document::new(
            uri.parse().unwrap(),
            1,
            ptx.to_string(),
            Encoding::Utf8,
            None,
        );
        let off = ptx.find(".loc").unwrap() as u32 + 2;
        let (text, _) = source_line(&doc, off).expect("a hover on the .loc");
        assert!(text.contains("int x = threadIdx.x;"), "{text}");
        assert!(text.contains("/elsewhere/k.cu:2"), "{text}");
        // Not on a `.loc` line: nothing.
        assert!(source_line(&doc, ptx.find("ret").unwrap() as u32).is_none());
        std::fs::remove_dir_all(&dir).ok();
    }
}
