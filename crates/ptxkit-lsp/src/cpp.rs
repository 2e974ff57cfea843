//! CUDA C++ documents: which open documents are C++ (served beside a C++
//! server such as clangd), their `asm` statements checked with
//! [`ptxkit::inline_asm::check_source`] (after an edit, with
//! [`ptxkit::inline_asm::Incremental`]: only the statements the edit
//! changed are judged again), and the way from a position in the C++ text
//! to a byte of a template string and back.
//!
//! The library already reports each diagnostic at its C++ position (the
//! fragment maps PTX positions back through the literal's escapes and the
//! `%0` operands); this module only chooses the targets and finds the
//! template under the cursor for hover and completion.

use ptxkit::inline_asm::{self, Checked, Incremental, Template};

/// What language an open document is, for the features it gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// A PTX module: every feature.
    Ptx,
    /// CUDA C++: diagnostics, hover and completion inside `asm` strings.
    Cpp,
    /// Another language (a `.cpp` file a client attached us to): nothing.
    Other,
}

/// File extensions served as CUDA C++ (whatever the client's language id).
pub const CPP_EXTENSIONS: &[&str] = &["cu", "cuh", "h", "hpp", "inl"];

/// Language ids served as CUDA C++ whatever the file's extension
/// (VS Code's `cuda-cpp`, Neovim's `cuda`).
const CUDA_LANGUAGE_IDS: &[&str] = &["cuda", "cuda-cpp"];

/// Language ids of other C-family files: served only with an extension
/// of [`CPP_EXTENSIONS`] (a host `.cpp` file's `asm` is not PTX).
const OTHER_LANGUAGE_IDS: &[&str] = &["c", "cpp", "objective-c", "objective-cpp"];

impl Lang {
    /// The language of a document opened as `uri` with `language_id`:
    /// by extension first (`.ptx`, then [`CPP_EXTENSIONS`]), then by
    /// language id; anything else is PTX (an untitled buffer).
    pub fn of(uri: &str, language_id: &str) -> Lang {
        let path = uri.split(['?', '#']).next().unwrap_or(uri);
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        if ext == "ptx" {
            Lang::Ptx
        } else if CPP_EXTENSIONS.contains(&ext.as_str()) || CUDA_LANGUAGE_IDS.contains(&language_id)
        {
            Lang::Cpp
        } else if OTHER_LANGUAGE_IDS.contains(&language_id) {
            Lang::Other
        } else {
            Lang::Ptx
        }
    }
}

/// Check every `asm` statement of `text` against the configured target,
/// or against every target the catalog knows (as `ptx check-asm` does
/// without `--target`: a statement is valid if some target accepts it).
pub fn check(text: &str, target: Option<&str>) -> Vec<Checked> {
    inline_asm::check_source(text.as_bytes(), &targets(target))
}

/// The targets given to the library for the configured `target`: it
/// alone when the catalog knows it, else none (every known target).
fn targets(target: Option<&str>) -> Vec<String> {
    target
        .filter(|t| inline_asm::known_target(t))
        .map(|t| vec![t.to_string()])
        .unwrap_or_default()
}

/// [`check`] after an edit: the same results, but only the statements
/// whose text, macros or conditions changed since `last`'s previous check
/// are judged (`last` is replaced by a new checker when the target
/// changed, or when there was none).
pub fn check_again(
    last: &mut Option<Incremental>,
    text: &str,
    target: Option<&str>,
) -> Vec<Checked> {
    let targets = targets(target);
    let inc = match last {
        Some(inc) if inc.targets() == targets.as_slice() => inc,
        _ => last.insert(Incremental::new(&targets)),
    };
    inc.check(text.as_bytes())
}

/// How many targets a statement was tried against (for the note of its
/// diagnostics).
pub fn selected(target: Option<&str>) -> usize {
    match target.filter(|t| inline_asm::known_target(t)) {
        Some(_) => 1,
        None => inline_asm::all_targets().len(),
    }
}

/// The template string under C++ offset `off`: its decoded bytes, and the
/// index of the byte at the cursor (the length when the cursor is at the
/// closing quote). `None` outside every literal template.
pub fn template_at(asm: &[Checked], off: u32) -> Option<(&Checked, &[u8], usize)> {
    for c in asm {
        let s = &c.statement;
        if !(s.template_span.start <= off && off <= s.template_span.end) {
            continue;
        }
        let Template::Literal(d) = &s.template else {
            return None;
        };
        // The first byte at or after the cursor: the cursor is before it
        // (on a closing quote, after the last byte).
        let k = d.from.partition_point(|&f| f < off);
        return Some((c, d.bytes.as_slice(), k));
    }
    None
}

/// The C++ offset of decoded byte `k` of `stmt`'s template (the closing
/// quote for the length).
pub fn source_of(stmt: &inline_asm::AsmStatement, k: usize) -> u32 {
    let Template::Literal(d) = &stmt.template else {
        return stmt.template_span.start;
    };
    match d.from.get(k) {
        Some(&f) => f,
        None => d
            .from
            .last()
            .map_or(stmt.template_span.end, |&f| f.saturating_add(1))
            .min(stmt.template_span.end),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn languages() {
        assert_eq!(Lang::of("file:///a/k.ptx", "ptx"), Lang::Ptx);
        assert_eq!(Lang::of("file:///a/k.cu", "cuda"), Lang::Cpp);
        assert_eq!(Lang::of("file:///a/k.cuh", "cpp"), Lang::Cpp);
        assert_eq!(Lang::of("file:///a/k.HPP", "cpp"), Lang::Cpp);
        assert_eq!(Lang::of("untitled:Untitled-1", "cuda-cpp"), Lang::Cpp);
        assert_eq!(Lang::of("file:///a/host.cpp", "cpp"), Lang::Other);
        assert_eq!(Lang::of("untitled:x", "ptx"), Lang::Ptx);
    }

    #[test]
    fn cursor_in_template() {
        let src = "void f(int a){ asm(\"mov.b32 %0, \\t%1;\" : \"=r\"(a) : \"r\"(a)); }";
        let asm = check(src, Some("sm_80"));
        let m = src.find("mov").unwrap() as u32;
        let (_, bytes, k) = template_at(&asm, m + 2).unwrap();
        assert_eq!(&bytes[k..k + 1], b"v");
        // After the escape `\t`, `%1` is byte 13 of the decoded text.
        let p = src.find("%1").unwrap() as u32;
        let (c, bytes, k) = template_at(&asm, p).unwrap();
        assert_eq!(&bytes[k..k + 2], b"%1");
        assert_eq!(source_of(&c.statement, k), p);
        assert!(template_at(&asm, 3).is_none());
    }
}
