//! What the Python objects share: a source text with its line index, and
//! a parsed module. Held behind an `Arc` and never changed after it is
//! built, so every object made from it can be used from any thread.

use std::sync::{Arc, OnceLock};

use ptxkit::analysis::callgraph::CallGraph;
use ptxkit::syntax::{Block, Function, Item, Stmt};
use ptxkit::{Instruction, LineIndex, Parsed};

/// A source text: PTX, or the C++ that `check_asm` read.
pub struct Text {
    /// The display name (the path, or `<string>`).
    pub name: String,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Its lines.
    pub lines: LineIndex,
}

impl Text {
    /// A text named `name`.
    pub fn new(name: String, bytes: Vec<u8>) -> Text {
        let lines = LineIndex::new(&bytes);
        Text { name, bytes, lines }
    }

    /// The source text of `span`.
    pub fn slice(&self, span: ptxkit::Span) -> String {
        let end = (span.end as usize).min(self.bytes.len());
        let start = (span.start as usize).min(end);
        String::from_utf8_lossy(self.bytes.get(start..end).unwrap_or_default()).into_owned()
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, at: u32) -> (u32, u32) {
        let lc = self
            .lines
            .line_col(at.min(u32::try_from(self.bytes.len()).unwrap_or(u32::MAX)));
        (lc.line, lc.col)
    }
}

/// A parsed module and its text.
pub struct Doc {
    /// The text.
    pub text: Arc<Text>,
    /// The parse: tree and syntax diagnostics.
    pub parsed: Parsed,
    /// The call graph, built on first use.
    callgraph: OnceLock<CallGraph>,
}

/// Where one instruction sits in a function body: the index of each
/// statement on the way down through nested blocks.
pub type Path = Box<[u32]>;

/// The syntax diagnostics a parse keeps (the first in source order; the
/// others are counted, `Module.omitted_diagnostics`): text with an error
/// at every token (2,000,000 of them in 4 MB) held them all, 1 GB.
pub const MAX_PARSE_DIAGNOSTICS: usize = 10_000;

impl Doc {
    /// Parse `bytes` (several threads for a large module; the tree is the
    /// same as a one-thread parse).
    pub fn parse(name: String, bytes: Vec<u8>) -> Doc {
        let parsed = ptxkit::parse_parallel_bounded(&bytes, MAX_PARSE_DIAGNOSTICS);
        Doc {
            text: Arc::new(Text::new(name, bytes)),
            parsed,
            callgraph: OnceLock::new(),
        }
    }

    /// The call graph of the module.
    pub fn callgraph(&self) -> &CallGraph {
        self.callgraph
            .get_or_init(|| CallGraph::build(&self.parsed.module, &self.text.lines))
    }

    /// The function at item index `item`.
    pub fn function(&self, item: usize) -> Option<&Function> {
        match self.parsed.module.items.get(item) {
            Some(Item::Function(f)) => Some(f),
            _ => None,
        }
    }

    /// Item indices of every function (declarations included).
    pub fn function_items(&self) -> Vec<usize> {
        self.parsed
            .module
            .items
            .iter()
            .enumerate()
            .filter(|(_, i)| matches!(i, Item::Function(_)))
            .map(|(k, _)| k)
            .collect()
    }

    /// The function named `name`: an exact match (the one with a body if
    /// it is also declared), else the only function whose name contains
    /// `name`.
    pub fn find_function(&self, name: &str) -> Result<usize, String> {
        let items = self.function_items();
        let named = |k: &usize| self.function(*k).map(|f| f.name.as_str().to_string());
        let exact: Vec<usize> = items
            .iter()
            .copied()
            .filter(|k| named(k).as_deref() == Some(name))
            .collect();
        if let Some(k) = self.prefer_body(&exact) {
            return Ok(k);
        }
        let partial: Vec<usize> = items
            .iter()
            .copied()
            .filter(|k| named(k).is_some_and(|n| n.contains(name)))
            .collect();
        let mut names: Vec<String> = partial.iter().filter_map(named).collect();
        names.sort();
        names.dedup();
        match names.len() {
            1 => self
                .prefer_body(&partial)
                .ok_or_else(|| format!("no function `{name}`")),
            0 => Err(format!(
                "no function `{name}` in {}; functions: {}",
                self.text.name,
                items
                    .iter()
                    .filter_map(named)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => Err(format!(
                "`{name}` matches several functions: {}",
                names.join(", ")
            )),
        }
    }

    fn prefer_body(&self, ks: &[usize]) -> Option<usize> {
        ks.iter()
            .copied()
            .find(|k| self.function(*k).is_some_and(|f| f.body.is_some()))
            .or_else(|| ks.first().copied())
    }

    /// The instruction at `path` in the body of the function at `item`.
    pub fn instruction(&self, item: usize, path: &[u32]) -> Option<&Instruction> {
        let mut block = self.function(item)?.body.as_ref()?;
        let (last, down) = path.split_last()?;
        for k in down {
            match block.stmts.get(*k as usize)? {
                Stmt::Block(b) => block = b,
                _ => return None,
            }
        }
        match block.stmts.get(*last as usize)? {
            Stmt::Instruction(i) => Some(i),
            _ => None,
        }
    }
}

/// The paths of every instruction of `body`, in order (nested blocks
/// flattened), with the instructions.
pub fn instruction_paths(body: &Block) -> Vec<(Path, &Instruction)> {
    fn walk<'a>(b: &'a Block, prefix: &mut Vec<u32>, out: &mut Vec<(Path, &'a Instruction)>) {
        for (k, s) in b.stmts.iter().enumerate() {
            let k = u32::try_from(k).unwrap_or(u32::MAX);
            match s {
                Stmt::Instruction(i) => {
                    prefix.push(k);
                    out.push((prefix.as_slice().into(), i));
                    prefix.pop();
                }
                Stmt::Block(inner) => {
                    prefix.push(k);
                    walk(inner, prefix, out);
                    prefix.pop();
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(body, &mut Vec::new(), &mut out);
    out
}
