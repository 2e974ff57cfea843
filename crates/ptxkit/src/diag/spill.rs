//! Diagnostics written out to a temporary file and read back in order: a
//! check that must report everything (`--max-errors 0`) on a file with
//! millions of errors keeps a bounded number of them in memory.
//!
//! [`super::Bounded`] without a limit sorts each [`RUN`] diagnostics it
//! collects by position and appends them to one temporary file as a run;
//! [`Sorted`] hands them back in source order by merging the runs, reading
//! each through a small buffer. The encoding is private to this module and
//! lives only as long as the check: a byte for the severity, the code's
//! index in [`Code::ALL`], the span, then each string with its length.

use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use crate::file_at::At;

use super::{Code, Diagnostic, Label, Severity};
use crate::source::Span;

/// Diagnostics held in memory before they are sorted and written out as a
/// run (about 10–30 MB of them, depending on their messages).
pub(super) const RUN: usize = 1 << 16;

/// The read buffer of each run while the runs are merged: the memory of a
/// merge is this times the number of runs (one per [`RUN`] diagnostics).
const READ_BUFFER: usize = 8 << 10;

/// Runs of sorted diagnostics in one temporary file (deleted when the file
/// is closed: it is created unlinked).
pub(super) struct Runs {
    file: BufWriter<File>,
    /// Where each run starts and how many diagnostics it holds.
    runs: Vec<(u64, usize)>,
    /// Bytes written so far.
    len: u64,
}

impl Runs {
    /// A new, empty spill file; `None` when no temporary file can be made
    /// (then the diagnostics stay in memory, as before).
    pub(super) fn new() -> Option<Runs> {
        let file = tempfile::tempfile().ok()?;
        Some(Runs {
            file: BufWriter::with_capacity(64 << 10, file),
            runs: Vec::new(),
            len: 0,
        })
    }

    /// Write `ds` (sorted already) as one run. On a write error the
    /// diagnostics are given back.
    pub(super) fn write(&mut self, ds: &[Diagnostic]) -> io::Result<()> {
        let start = self.len;
        let mut buf = Vec::with_capacity(256);
        for d in ds {
            buf.clear();
            encode(d, &mut buf);
            self.file.write_all(&buf)?;
            self.len = self.len.saturating_add(buf.len() as u64);
        }
        self.runs.push((start, ds.len()));
        Ok(())
    }

    /// How many runs were written.
    pub(super) fn count(&self) -> usize {
        self.runs.len()
    }
}

/// Diagnostics in source order (diagnostics at one offset in the order
/// they were found), from memory or merged from the runs of a spill file,
/// with the counts of a check; an iterator that gives each once.
///
/// ```
/// use ptxkit::diag::{Bounded, Code, Diagnostic};
/// use ptxkit::Span;
/// let mut b = Bounded::new(0);
/// for at in [30, 10, 20] {
///     b.push(Diagnostic::error(Code::Syntax, Span::at(at), "bad"));
/// }
/// let sorted = b.into_sorted();
/// assert_eq!((sorted.errors, sorted.omitted_errors()), (3, 0));
/// let at: Vec<u32> = sorted.map(|d| d.span.start).collect();
/// assert_eq!(at, [10, 20, 30]);
/// ```
pub struct Sorted {
    /// Errors found, given or not.
    pub errors: usize,
    /// Warnings found, given or not.
    pub warnings: usize,
    /// Errors and warnings among those given.
    kept: (usize, usize),
    source: Source,
    /// Set when a spill file could not be read back.
    failed: Option<io::Error>,
}

enum Source {
    /// All in memory, in order (reversed, so the next is popped).
    Memory(Vec<Diagnostic>),
    /// Runs to merge with what is left in memory.
    Merge(Merge),
}

impl Sorted {
    /// The diagnostics `ds`, in order already, with these counts.
    pub(super) fn from_sorted(mut ds: Vec<Diagnostic>, errors: usize, warnings: usize) -> Sorted {
        let kept_errors = ds.iter().filter(|d| d.is_error()).count();
        let kept = (kept_errors, ds.len().saturating_sub(kept_errors));
        ds.reverse();
        Sorted {
            errors,
            warnings,
            kept,
            source: Source::Memory(ds),
            failed: None,
        }
    }

    /// The runs of `spill` merged with the sorted `tail`; `kept` errors
    /// and warnings in all. If the runs cannot be read back, only `tail`
    /// is given and [`Sorted::failed`] says why.
    pub(super) fn merged(
        spill: Runs,
        tail: Vec<Diagnostic>,
        kept: (usize, usize),
        errors: usize,
        warnings: usize,
    ) -> Sorted {
        match Merge::open(spill) {
            Ok(readers) => Sorted {
                errors,
                warnings,
                kept,
                source: Source::Merge(Merge::new(readers, tail)),
                failed: None,
            },
            Err(e) => Sorted {
                failed: Some(e),
                ..Sorted::from_sorted(tail, errors, warnings)
            },
        }
    }

    /// Whether no diagnostic is given (none kept).
    pub fn is_empty(&self) -> bool {
        self.kept == (0, 0)
    }

    /// Errors found but not given (past the limit).
    pub fn omitted_errors(&self) -> usize {
        self.errors.saturating_sub(self.kept.0)
    }

    /// Warnings found but not given.
    pub fn omitted_warnings(&self) -> usize {
        self.warnings.saturating_sub(self.kept.1)
    }

    /// Whether reading a spill file failed, so that some diagnostics were
    /// not given: an error of the system (a full or broken disk), not of
    /// the input. Asked after the last diagnostic.
    pub fn failed(&self) -> Option<&io::Error> {
        self.failed.as_ref()
    }
}

impl Iterator for Sorted {
    type Item = Diagnostic;

    fn next(&mut self) -> Option<Diagnostic> {
        match &mut self.source {
            Source::Memory(ds) => ds.pop(),
            Source::Merge(m) => {
                let d = m.next();
                if let Some(e) = m.failed.take() {
                    self.failed.get_or_insert(e);
                }
                d
            }
        }
    }
}

/// The next diagnostic of each run, ordered by position then run (runs
/// are in the order found): the smallest on top.
struct Head {
    start: u32,
    run: usize,
    d: Diagnostic,
}

impl PartialEq for Head {
    fn eq(&self, o: &Head) -> bool {
        (self.start, self.run) == (o.start, o.run)
    }
}
impl Eq for Head {}
impl PartialOrd for Head {
    fn partial_cmp(&self, o: &Head) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Head {
    fn cmp(&self, o: &Head) -> std::cmp::Ordering {
        // Reversed: `BinaryHeap` pops the largest.
        (o.start, o.run).cmp(&(self.start, self.run))
    }
}

/// A k-way merge of the runs.
struct Merge {
    /// Each run's reader and how many diagnostics it has left; the last
    /// entry is the in-memory tail (no reader).
    readers: Vec<(Option<BufReader<At>>, usize)>,
    tail: std::vec::IntoIter<Diagnostic>,
    heap: BinaryHeap<Head>,
    failed: Option<io::Error>,
}

impl Merge {
    /// A reader of each run of `spill`.
    fn open(spill: Runs) -> io::Result<Vec<(Option<BufReader<At>>, usize)>> {
        let file = spill.file.into_inner().map_err(|e| e.into_error())?;
        // Each run reads through a cursor of its own (`pread`), not through
        // the file's one offset.
        let file = At::new(file)?;
        let mut readers = Vec::with_capacity(spill.runs.len().saturating_add(1));
        for &(at, n) in &spill.runs {
            let mut f = file.clone();
            f.seek(SeekFrom::Start(at))?;
            readers.push((Some(BufReader::with_capacity(READ_BUFFER, f)), n));
        }
        Ok(readers)
    }

    fn new(mut readers: Vec<(Option<BufReader<At>>, usize)>, tail: Vec<Diagnostic>) -> Merge {
        let n = tail.len();
        readers.push((None, n));
        let mut m = Merge {
            readers,
            tail: tail.into_iter(),
            heap: BinaryHeap::new(),
            failed: None,
        };
        for run in 0..m.readers.len() {
            m.refill(run);
        }
        m
    }

    /// Read the next diagnostic of `run` onto the heap.
    fn refill(&mut self, run: usize) {
        let Some((reader, left)) = self.readers.get_mut(run) else {
            return;
        };
        if *left == 0 {
            return;
        }
        *left = left.saturating_sub(1);
        let d = match reader {
            None => self.tail.next(),
            Some(r) => match decode(r) {
                Ok(d) => Some(d),
                Err(e) => {
                    self.failed.get_or_insert(e);
                    None
                }
            },
        };
        if let Some(d) = d {
            self.heap.push(Head {
                start: d.span.start,
                run,
                d,
            });
        }
    }

    fn next(&mut self) -> Option<Diagnostic> {
        let Head { run, d, .. } = self.heap.pop()?;
        self.refill(run);
        Some(d)
    }
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u32(out, u32::try_from(s.len()).unwrap_or(u32::MAX));
    let n = s.len().min(u32::MAX as usize);
    out.extend_from_slice(s.as_bytes().get(..n).unwrap_or_default());
}

fn put_span(out: &mut Vec<u8>, s: Span) {
    put_u32(out, s.start);
    put_u32(out, s.end);
}

/// Append the encoding of `d` to `out`.
pub(crate) fn encode(d: &Diagnostic, out: &mut Vec<u8>) {
    out.push(u8::from(d.severity == Severity::Error));
    let code = Code::ALL.iter().position(|&c| c == d.code).unwrap_or(0);
    out.extend_from_slice(&u16::try_from(code).unwrap_or(0).to_le_bytes());
    put_span(out, d.span);
    put_str(out, &d.message);
    put_u32(out, u32::try_from(d.labels.len()).unwrap_or(0));
    for l in d.labels.iter().take(u32::MAX as usize) {
        put_span(out, l.span);
        put_str(out, &l.message);
    }
    put_u32(out, u32::try_from(d.notes.len()).unwrap_or(0));
    for n in d.notes.iter().take(u32::MAX as usize) {
        put_str(out, n);
    }
}

fn bad(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("spilled diagnostics: {what}"),
    )
}

fn get<const N: usize>(r: &mut impl Read) -> io::Result<[u8; N]> {
    let mut b = [0u8; N];
    r.read_exact(&mut b)?;
    Ok(b)
}

fn get_u32(r: &mut impl Read) -> io::Result<u32> {
    get::<4>(r).map(u32::from_le_bytes)
}

fn get_span(r: &mut impl Read) -> io::Result<Span> {
    Ok(Span::new(get_u32(r)?, get_u32(r)?))
}

fn get_str(r: &mut impl Read) -> io::Result<String> {
    let n = get_u32(r)? as usize;
    let mut b = Vec::new();
    r.take(n as u64).read_to_end(&mut b)?;
    if b.len() != n {
        return Err(bad("cut short"));
    }
    String::from_utf8(b).map_err(|_| bad("not UTF-8"))
}

/// Read one diagnostic written by [`encode`].
pub(crate) fn decode(r: &mut impl Read) -> io::Result<Diagnostic> {
    let [sev] = get::<1>(r)?;
    let code = u16::from_le_bytes(get::<2>(r)?);
    let code = *Code::ALL
        .get(usize::from(code))
        .ok_or_else(|| bad("code"))?;
    let span = get_span(r)?;
    let message = get_str(r)?;
    let labels = (0..get_u32(r)?)
        .map(|_| {
            Ok(Label {
                span: get_span(r)?,
                message: get_str(r)?,
            })
        })
        .collect::<io::Result<Vec<_>>>()?;
    let notes = (0..get_u32(r)?)
        .map(|_| get_str(r))
        .collect::<io::Result<Vec<_>>>()?;
    Ok(Diagnostic {
        severity: if sev == 1 {
            Severity::Error
        } else {
            Severity::Warning
        },
        code,
        message,
        span,
        labels,
        notes,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn a_diagnostic_reads_back_as_written() {
        let d = Diagnostic::warning(Code::NotLiteral, Span::new(3, 9), "odd «x»")
            .with_label(Span::new(1, 2), "here")
            .with_label(Span::new(5, 6), "")
            .with_note("one")
            .with_note("two");
        let mut buf = Vec::new();
        encode(&d, &mut buf);
        encode(&Diagnostic::error(Code::Syntax, Span::at(7), ""), &mut buf);
        let mut r = &buf[..];
        assert_eq!(decode(&mut r).unwrap(), d);
        assert_eq!(decode(&mut r).unwrap().span, Span::at(7));
        assert!(decode(&mut r).is_err());
    }
}
