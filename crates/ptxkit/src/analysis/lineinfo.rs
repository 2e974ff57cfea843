//! The source lines that a module's `.loc` directives point at, for
//! `ptx show --source` and the language server's hover on a `.loc`: each
//! `.file` is looked for at the path written,
//! else by its file name beside the PTX file (debug PTX names the source
//! by an absolute path of the machine that compiled it), and read once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::syntax::{Block, Item, Module, Stmt};
use crate::LineIndex;
use serde::Serialize;

/// Source files bigger than this are not read.
const MAX_SOURCE: u64 = 16 << 20;

/// One source line a `.loc` points at.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SourceLine {
    /// The file, as the `.file` directive names it.
    pub file: String,
    /// Where it was read from (`None` when it was not found).
    pub found_at: Option<String>,
    /// The 1-based line.
    pub line: u64,
    /// The line's text, when the file was found and has that line.
    pub text: Option<String>,
}

/// A source file's lines and where it was read from.
type Found = (Vec<String>, String);

/// The `.loc` directives of a module by the PTX line they are on, and the
/// files they name.
pub struct LineInfo {
    /// File index → (name as written, its lines and where, when found).
    files: HashMap<u64, (String, Option<Found>)>,
    /// PTX line of a `.loc` → (file index, source line).
    locs: HashMap<u32, (u64, u64)>,
}

/// `"a.cu"` → `a.cu`.
fn unquote(s: &str) -> &str {
    s.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(s)
}

/// The file `name` at the path written, else its file name in `beside`.
fn find(name: &str, beside: Option<&Path>) -> Option<PathBuf> {
    let written = PathBuf::from(name);
    if written.is_file() {
        return Some(written);
    }
    let base = written.file_name()?;
    let near = beside?.join(base);
    near.is_file().then_some(near)
}

fn read_lines(p: &Path) -> Option<Vec<String>> {
    if std::fs::metadata(p).ok()?.len() > MAX_SOURCE {
        return None;
    }
    let bytes = std::fs::read(p).ok()?;
    Some(
        String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

fn walk(b: &Block, lines: &LineIndex, out: &mut HashMap<u32, (u64, u64)>) {
    for s in &b.stmts {
        match s {
            Stmt::Loc(l) => {
                out.insert(
                    lines.line_col(l.span.start).line,
                    (l.file.value, l.line.value),
                );
            }
            Stmt::Block(inner) => walk(inner, lines, out),
            _ => {}
        }
    }
}

impl LineInfo {
    /// The line information of `m` (whose lines are `lines`), read from
    /// the PTX file at `ptx` (`None` for stdin: only paths as written).
    pub fn new(m: &Module, lines: &LineIndex, ptx: Option<&Path>) -> LineInfo {
        let beside = ptx.and_then(Path::parent).map(|d| {
            if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            }
        });
        let mut files = HashMap::new();
        let mut locs = HashMap::new();
        for item in &m.items {
            match item {
                Item::File(f) => {
                    let name = unquote(f.name.as_str()).to_string();
                    let found = find(&name, beside).and_then(|p| {
                        let at = p.display().to_string();
                        read_lines(&p).map(|l| (l, at))
                    });
                    files.insert(f.index.value, (name, found));
                }
                Item::Loc(l) => {
                    locs.insert(
                        lines.line_col(l.span.start).line,
                        (l.file.value, l.line.value),
                    );
                }
                Item::Function(f) => {
                    if let Some(b) = &f.body {
                        walk(b, lines, &mut locs);
                    }
                }
                _ => {}
            }
        }
        LineInfo { files, locs }
    }

    /// Whether the module has any `.loc`.
    pub fn is_empty(&self) -> bool {
        self.locs.is_empty()
    }

    /// The source line the `.loc` on PTX line `ptx_line` points at.
    pub fn at(&self, ptx_line: u32) -> Option<SourceLine> {
        let &(file, line) = self.locs.get(&ptx_line)?;
        let (name, found) = self.files.get(&file)?;
        let text = found.as_ref().and_then(|(ls, _)| {
            usize::try_from(line)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| ls.get(i))
                .cloned()
        });
        Some(SourceLine {
            file: name.clone(),
            found_at: found.as_ref().map(|(_, at)| at.clone()),
            line,
            text,
        })
    }
}
