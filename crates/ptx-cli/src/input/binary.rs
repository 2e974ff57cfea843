//! PTX read out of CUDA binaries (fatbins, executables, shared libraries,
//! objects): which entries `--arch` and `--entry` pick, and their names.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::OnceLock;

use ptxkit::binary::{self, Binary, Entry};

/// Which PTX entries of a binary input the commands read.
#[derive(Default)]
pub struct Selection {
    /// Only entries for this architecture (`sm_80`, `compute_80`, `80`,
    /// `sm_90a`).
    pub arch: Option<String>,
    /// Only the PTX entry of this number (1-based, as `ptx extract --list`
    /// shows it).
    pub entry: Option<usize>,
}

static SELECTION: OnceLock<Selection> = OnceLock::new();

/// Set the selection (once, from the command line).
pub fn select(s: Selection) {
    let _ = SELECTION.set(s);
}

/// The selection set by [`select`], or none.
pub fn selection() -> &'static Selection {
    SELECTION.get_or_init(Selection::default)
}

/// One PTX entry of a binary: its number among the PTX entries (1-based)
/// and the entry.
pub struct Numbered<'a> {
    /// 1-based number among the binary's PTX entries.
    pub number: usize,
    /// The entry.
    pub entry: &'a Entry,
}

/// The PTX entries of `bin`, numbered, that the selection keeps.
pub fn chosen<'a>(bin: &'a Binary, sel: &Selection) -> Vec<Numbered<'a>> {
    bin.ptx_entries()
        .enumerate()
        .map(|(i, entry)| Numbered {
            number: i.saturating_add(1),
            entry,
        })
        .filter(|n| sel.entry.is_none_or(|want| want == n.number))
        .filter(|n| sel.arch.as_deref().is_none_or(|a| n.entry.is_for_arch(a)))
        .collect()
}

/// The display name of a PTX entry of the binary `path`:
/// `lib.so#3.sm_80`.
pub fn entry_name(path: &str, n: &Numbered) -> String {
    format!("{path}#{}.{}", n.number, n.entry.arch_name())
}

/// Read the headers of binary `bytes` named `name`.
pub fn read_headers(name: &str, bytes: &[u8]) -> Result<Binary, String> {
    binary::read(bytes).map_err(|e| format!("{name}: {e}"))
}

/// Why `bin` offers nothing to read: no PTX at all, or none the selection
/// keeps (listing what there is).
pub fn nothing_chosen(name: &str, bin: &Binary, sel: &Selection) -> String {
    let all = chosen(bin, &Selection::default());
    if all.is_empty() {
        let what = if bin.format == binary::Format::Cubin {
            "a cubin holds machine code (SASS) only".to_string()
        } else {
            format!("{} fatbin entries, none of them PTX", bin.entries.len())
        };
        return format!(
            "{name}: no PTX in this binary ({what}); `ptx extract --list {name}` lists what it holds"
        );
    }
    let mut why = Vec::new();
    if let Some(a) = &sel.arch {
        why.push(format!("--arch {a}"));
    }
    if let Some(n) = sel.entry {
        why.push(format!("--entry {n}"));
    }
    format!(
        "{name}: no PTX entry matches {}; it has {}",
        why.join(" "),
        list(&all)
    )
}

/// `1 (sm_80), 2 (sm_90)`.
pub fn list(entries: &[Numbered]) -> String {
    entries
        .iter()
        .map(|n| format!("{} ({})", n.number, n.entry.arch_name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The one PTX entry of binary `bytes` the selection keeps, as a name and
/// text; an error when none or several are kept.
pub fn only_ptx(path: &Path, bytes: &[u8]) -> Result<(String, Vec<u8>), String> {
    let name = path.display().to_string();
    let bin = read_headers(&name, bytes)?;
    let sel = selection();
    let picked = chosen(&bin, sel);
    match picked.as_slice() {
        [] => Err(nothing_chosen(&name, &bin, sel)),
        [one] => {
            let text = binary::ptx_text(bytes, one.entry).map_err(|e| format!("{name}: {e}"))?;
            Ok((entry_name(&name, one), text))
        }
        many => Err(format!(
            "{name}: {} PTX entries: {}; pick one with --entry N (or --arch sm_XX)",
            many.len(),
            list(many)
        )),
    }
}

/// The text of PTX entry `e` of the binary at `path`, whose headers were
/// read before: only the entry's own payload is read from the file again
/// (so reading every entry of a binary costs time linear in the binary,
/// not in its size times its entries).
pub fn entry_ptx(path: &Path, e: &Entry) -> Result<Vec<u8>, String> {
    let name = path.display();
    let err = |err: std::io::Error| format!("{name}: {err}");
    let mut f = std::fs::File::open(path).map_err(err)?;
    let start = u64::try_from(e.payload.start).unwrap_or(u64::MAX);
    let len = e.payload.len();
    f.seek(SeekFrom::Start(start)).map_err(err)?;
    let mut stored = Vec::with_capacity(len.min(binary::MAX_ENTRY_SIZE));
    f.take(u64::try_from(len).unwrap_or(u64::MAX))
        .read_to_end(&mut stored)
        .map_err(err)?;
    if stored.len() != len {
        return Err(format!("{name}: the binary changed while being read"));
    }
    let mut here = e.clone();
    here.payload = 0..len;
    binary::ptx_text(&stored, &here).map_err(|err| format!("{name}: {err}"))
}
