//! Reading inputs: files, directories of `.ptx` files, or stdin (`-`).
//! This is the one place the commands read their inputs, so every command
//! that reads PTX also reads the PTX inside CUDA binaries (see
//! [`binary`]): a binary named on the command line stands for its PTX
//! entries (those `--arch` and `--entry` keep).

pub mod binary;

use std::io::Read;
use std::path::{Path, PathBuf};

/// A loaded input.
pub struct Input {
    /// Display name.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Read one file, or stdin for `-`. A CUDA binary gives the one PTX
/// entry the selection keeps (an error if it keeps none or several).
pub fn read(path: &Path) -> Result<Input, String> {
    if path.as_os_str() == "-" {
        let bytes = read_stream("<stdin>", std::io::stdin().lock(), Sniff::Ptx)?;
        if ptxkit::binary::is_binary(&bytes) {
            let (name, bytes) = binary::only_ptx(Path::new("<stdin>"), &bytes)?;
            return Ok(Input { name, bytes });
        }
        ensure_text("<stdin>", &bytes)?;
        return Ok(Input {
            name: "<stdin>".into(),
            bytes,
        });
    }
    if is_binary_file(path) {
        let opened = open_plain(path)?;
        let (name, bytes) = binary::only_ptx(path, &opened.bytes)?;
        return Ok(Input { name, bytes });
    }
    let name = path.display().to_string();
    let bytes = read_file(path, Sniff::Ptx)?;
    if ptxkit::binary::is_binary(&bytes) {
        // A binary through a FIFO (see `is_binary_file`).
        let (name, bytes) = binary::only_ptx(path, &bytes)?;
        return Ok(Input { name, bytes });
    }
    ensure_text(&name, &bytes)?;
    Ok(Input { name, bytes })
}

/// What [`read_stream`] may refuse after the first [`ptxkit::sniff::SNIFF`]
/// bytes, before reading the rest.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sniff {
    /// Nothing: the caller reads any bytes (C++ source, binaries).
    Nothing,
    /// What [`ensure_text`] would refuse once everything is read.
    Ptx,
    /// Bytes that are not text ([`ptxkit::sniff::not_text`]), for readers
    /// of source text other than PTX.
    Text,
    /// Bytes that do not start as a CUDA binary does.
    Binary,
}

/// Read the file at `path` whole: a regular file at once, anything else
/// (a device such as `/dev/zero`, a FIFO) as a stream, see [`read_stream`].
fn read_file(path: &Path, sniff: Sniff) -> Result<Vec<u8>, String> {
    let name = path.display().to_string();
    let err = |e: std::io::Error| format!("{name}: {e}");
    let file = std::fs::File::open(path).map_err(err)?;
    if file.metadata().map_err(err)?.is_file() {
        return std::fs::read(path).map_err(err);
    }
    read_stream(&name, file, sniff)
}

/// Read a stream (stdin, a device, a FIFO) whole, with no more than
/// [`ptxkit::MAX_FILE_SIZE`] bytes: an endless one ends in an error there
/// rather than in the allocator. With [`Sniff::Ptx`], its first
/// [`ptxkit::sniff::SNIFF`] bytes decide what they can: a stream that is
/// not text, or whose first token shows it is not PTX, is refused before
/// the rest is read (`/dev/zero` was read until memory ran out).
fn read_stream(name: &str, mut r: impl Read, sniff: Sniff) -> Result<Vec<u8>, String> {
    let err = |e: std::io::Error| format!("{name}: {e}");
    let head = (ptxkit::sniff::SNIFF as u64).saturating_add(1);
    let mut bytes = Vec::new();
    r.by_ref().take(head).read_to_end(&mut bytes).map_err(err)?;
    let more = bytes.len() as u64 == head;
    if more && sniff == Sniff::Text {
        // NULs after text are padding to `not_text`; from the first byte
        // on (`/dev/zero`), there is no text before them.
        let why = ptxkit::sniff::not_text(&bytes)
            .or_else(|| (bytes.first() == Some(&0)).then_some(ptxkit::sniff::NotText::Nul(0)));
        if let Some(why) = why {
            return Err(format!("{name}: {}", why.describe("source")));
        }
    }
    if more && sniff == Sniff::Binary && !ptxkit::binary::is_binary(&bytes) {
        return Err(format!(
            "{name}: not a CUDA binary (a fatbin, cubin, or ELF/PE object)"
        ));
    }
    if more && sniff == Sniff::Ptx && !ptxkit::binary::is_binary(&bytes) {
        // Both verdicts hold for the whole stream: the first window of
        // `not_text` is within these bytes (and one more, as when more
        // follows), and `not_ptx_prefix` answers only from a token that
        // ends before them.
        if ptxkit::sniff::not_text(&bytes).is_some() {
            ensure_text(name, &bytes)?;
        }
        if let Some(why) = ptxkit::sniff::not_ptx_prefix(&bytes) {
            return Err(format!("{name}: {why}"));
        }
    }
    let limit = ptxkit::MAX_FILE_SIZE as u64;
    r.take(limit.saturating_add(1).saturating_sub(bytes.len() as u64))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: {e} after reading {} bytes", bytes.len()))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{name}: more than {limit} bytes, the largest input ptx reads (docs/limits.md)"
        ));
    }
    Ok(bytes)
}

/// An error when `bytes` is not text (see [`ptxkit::sniff::not_text`]):
/// one clear line rather than an error for every byte of an image, an
/// archive or an object file handed over by mistake.
///
/// Text that does not start as PTX does (a README, C++ source; see
/// [`ptxkit::sniff::not_ptx`]) is refused the same way.
pub fn ensure_text(name: &str, bytes: &[u8]) -> Result<(), String> {
    if let Some(why) = ptxkit::sniff::not_text(bytes) {
        return Err(format!(
            "{name}: {why} (PTX is read from text files and from CUDA binaries: ELF executables, libraries and objects, fatbins; `ptx extract --list` shows the PTX a binary holds)"
        ));
    }
    match ptxkit::sniff::not_ptx(bytes) {
        Some(why) => Err(format!("{name}: {why}")),
        None => Ok(()),
    }
}

/// Whether the file at `path` starts like a CUDA binary (false when it
/// cannot be read: reading it again reports why). Only a regular file is
/// looked into: the bytes read from a FIFO (`ptx check <(…)`) or a device
/// would be gone for the read that follows (which took `.ver` of
/// `.version`, and the file was "not PTX"); those are told apart once read.
pub fn is_binary_file(path: &Path) -> bool {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| ptxkit::binary::is_binary(&head))
}

/// One input a command reads: a file (or stdin), or one PTX entry of a
/// binary.
pub struct Source {
    /// The file.
    pub path: PathBuf,
    /// For a binary's PTX entry: its header (as read once, when the
    /// binary was expanded) and its display name.
    pub entry: Option<(Box<ptxkit::binary::Entry>, String)>,
}

/// Read a source (see [`read`]).
pub fn read_source(s: &Source) -> Result<Input, String> {
    let Some((entry, name)) = &s.entry else {
        return read(&s.path);
    };
    let bytes = binary::entry_ptx(&s.path, entry)?;
    Ok(Input {
        name: name.clone(),
        bytes,
    })
}

/// Open a source (see [`open`]).
pub fn open_source(s: &Source) -> Result<Opened, String> {
    if s.entry.is_none() {
        return open(&s.path);
    }
    let Input { name, bytes } = read_source(s)?;
    Ok(Opened {
        name,
        bytes: Bytes::Owned(bytes),
    })
}

/// Files at least this large are memory-mapped by [`open`] rather than read.
const MAP_FROM: u64 = 256 * 1024;

/// The bytes of an input opened by [`open`].
pub enum Bytes {
    /// Read into memory.
    Owned(Vec<u8>),
    /// Mapped from a regular file, with the length of the prefix given
    /// back so far (see [`Bytes::release_before`]).
    Mapped(memmap2::Mmap, std::cell::Cell<usize>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(m, _) => m,
        }
    }
}

/// Pages are given back in steps of at least this many bytes.
const RELEASE_STEP: usize = 64 * 1024;

impl Bytes {
    /// Give back the pages of the mapping that lie wholly before `offset`
    /// and were not given back yet: a reader moving forward calls this as
    /// it goes (a streamed check holds one piece, not the whole file).
    pub fn release_before(&self, offset: usize) {
        let Bytes::Mapped(m, released) = self else {
            return;
        };
        let whole = offset.min(m.len()) / RELEASE_STEP;
        let end = whole.saturating_mul(RELEASE_STEP);
        if end > released.get() {
            self.release(released.get(), end);
            released.set(end);
        }
    }

    /// Give back the pages of the mapping that lie wholly in `from..to`
    /// (a second pass over the file, after [`Bytes::release_before`]). They
    /// are read again from the file if touched later, so this only lowers
    /// memory.
    pub fn release(&self, from: usize, to: usize) {
        let Bytes::Mapped(m, _) = self else {
            return;
        };
        const PAGE: usize = 4096;
        let from = from.div_ceil(PAGE).saturating_mul(PAGE);
        let to = (to.min(m.len()) / PAGE).saturating_mul(PAGE);
        if to <= from {
            return;
        }
        #[cfg(unix)]
        {
            // SAFETY: the mapping is read-only, so dropping its pages loses
            // nothing: a later read faults them back in from the file.
            let _ = unsafe {
                m.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    from,
                    to.saturating_sub(from),
                )
            };
        }
    }
}

/// An input whose bytes may be mapped rather than read: large regular
/// files are mapped, so that [`Bytes::release_before`] can keep the part
/// of the file in memory small.
pub struct Opened {
    /// Display name.
    pub name: String,
    /// Its bytes.
    pub bytes: Bytes,
}

/// Open one file (mapped if it is a large regular file), or stdin for `-`.
/// A CUDA binary gives the one PTX entry the selection keeps.
pub fn open(path: &Path) -> Result<Opened, String> {
    if path.as_os_str() != "-" && is_binary_file(path) {
        let Input { name, bytes } = read(path)?;
        return Ok(Opened {
            name,
            bytes: Bytes::Owned(bytes),
        });
    }
    let opened = open_with(path, Sniff::Ptx)?;
    if ptxkit::binary::is_binary(&opened.bytes) {
        // A binary on stdin or through a FIFO (see `is_binary_file`).
        let (name, bytes) = binary::only_ptx(Path::new(&opened.name), &opened.bytes)?;
        return Ok(Opened {
            name,
            bytes: Bytes::Owned(bytes),
        });
    }
    ensure_text(&opened.name, &opened.bytes)?;
    Ok(opened)
}

/// Open one file as it is (mapped if it is a large regular file), or
/// stdin for `-` (mapped too when it is a large regular file: `ptx check -
/// < big.ptx`).
pub fn open_plain(path: &Path) -> Result<Opened, String> {
    open_with(path, Sniff::Nothing)
}

/// [`open_plain`] for a reader of source text (C++): a stream whose first
/// bytes are not text is refused before the rest is read.
pub fn open_cpp(path: &Path) -> Result<Opened, String> {
    open_with(path, Sniff::Text)
}

/// [`open_plain`] for a reader of CUDA binaries only: a stream that does
/// not start as one is refused before the rest is read.
pub fn open_binary(path: &Path) -> Result<Opened, String> {
    open_with(path, Sniff::Binary)
}

fn open_with(path: &Path, sniff: Sniff) -> Result<Opened, String> {
    let stdin = path.as_os_str() == "-";
    let name = if stdin {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    let err = |e: std::io::Error| format!("{name}: {e}");
    let file = if stdin {
        use std::os::fd::AsFd;
        std::io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .map(std::fs::File::from)
    } else {
        std::fs::File::open(path)
    }
    .map_err(err)?;
    let meta = file.metadata().map_err(err)?;
    // Stdin is mapped only when nothing has read from it yet: the map
    // holds the file from its start.
    let at_start = !stdin || {
        use std::io::Seek;
        (&file).stream_position().is_ok_and(|p| p == 0)
    };
    if at_start && meta.is_file() && meta.len() >= MAP_FROM {
        // SAFETY: the map is read-only. As with every tool
        // that maps its input (ripgrep, for one), a file truncated by
        // another process while it is being checked can still end the
        // process with SIGBUS; files are not expected to change under
        // a check.
        if let Ok(m) = unsafe { memmap2::MmapOptions::new().map(&file) } {
            #[cfg(unix)]
            let _ = m.advise(memmap2::Advice::Sequential);
            return Ok(Opened {
                name,
                bytes: Bytes::Mapped(m, std::cell::Cell::new(0)),
            });
        }
    }
    let bytes = if meta.is_file() && !stdin {
        std::fs::read(path).map_err(err)?
    } else {
        read_stream(&name, file, sniff)?
    };
    Ok(Opened {
        name,
        bytes: Bytes::Owned(bytes),
    })
}

/// A path that is an unexpanded glob naming no file (the shell passes a
/// pattern that matched nothing on as written). Other missing files are
/// reported when read, each in its turn.
fn missing(p: &Path) -> Option<String> {
    let text = p.display().to_string();
    (text.contains(['*', '?', '[']) && !p.exists())
        .then(|| format!("{text}: no file matches this pattern"))
}

/// The error when the paths named no input file at all (empty
/// directories, or directories without a file of the extensions sought).
fn nothing_found(paths: &[PathBuf], exts: &[&str]) -> String {
    let names: Vec<String> = paths.iter().map(|p| format!("`{}`", p.display())).collect();
    let exts: Vec<String> = exts.iter().map(|e| format!("*.{e}")).collect();
    format!(
        "no input files: found no {} in {}",
        exts.join(" "),
        names.join(", ")
    )
}

/// Expand directories into the files below them whose extension is one
/// of `exts` (sorted); files and `-` pass through. Finding no file at all
/// is an error, as is a glob that matched nothing.
pub fn expand_with(paths: &[PathBuf], exts: &[&str]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if let Some(e) = missing(p) {
            return Err(e);
        }
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, exts, &mut found).map_err(|e| format!("{}: {e}", p.display()))?;
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    if out.is_empty() {
        return Err(nothing_found(paths, exts));
    }
    Ok(out)
}

/// Expand directories into the `.ptx` files below them (sorted), and CUDA
/// binaries into the PTX entries the selection keeps; other files and `-`
/// pass through. Finding no input at all is an error, as is a glob that
/// matched nothing.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<Source>, String> {
    let mut out = Vec::new();
    let plain = |path: PathBuf| Source { path, entry: None };
    for p in paths {
        if let Some(e) = missing(p) {
            return Err(e);
        }
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &["ptx"], &mut found).map_err(|e| format!("{}: {e}", p.display()))?;
            found.sort();
            out.extend(found.into_iter().map(plain));
        } else if is_binary_file(p) {
            let opened = open_plain(p)?;
            let bin = binary::read_headers(&opened.name, &opened.bytes)?;
            let sel = binary::selection();
            let picked = binary::chosen(&bin, sel);
            if picked.is_empty() {
                return Err(binary::nothing_chosen(&opened.name, &bin, sel));
            }
            ptxkit::binary::check_total(picked.iter().map(|n| n.entry))
                .map_err(|e| format!("{}: {e}", opened.name))?;
            out.extend(picked.iter().map(|n| Source {
                path: p.clone(),
                entry: Some((
                    Box::new(n.entry.clone()),
                    binary::entry_name(&opened.name, n),
                )),
            }));
        } else {
            out.push(plain(p.clone()));
        }
    }
    if out.is_empty() {
        return Err(nothing_found(paths, &["ptx"]));
    }
    Ok(out)
}

/// The files below `dir` whose extension is one of `exts`. Symbolic links
/// to directories are not followed (as `find` and ripgrep do by default),
/// so a link loop cannot make the walk endless; links to files are read.
/// `dir` itself must be readable; a directory or entry below it that is
/// not (no permission, a path too long for the system) is reported on
/// stderr and skipped, and the walk goes on (one such directory stopped
/// the whole command before, its files' reports never made). The walk
/// keeps its own stack, so deep nesting does not deepen the call stack.
fn walk(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(rd) => rd,
            Err(e) if d == dir => return Err(e),
            Err(e) => {
                eprintln!("ptx: {}: {e} (skipped)", d.display());
                continue;
            }
        };
        for e in entries {
            let (e, ty) = match e.and_then(|e| e.file_type().map(|t| (e, t))) {
                Ok(x) => x,
                Err(err) => {
                    eprintln!("ptx: {}: {err} (skipped)", d.display());
                    continue;
                }
            };
            let p = e.path();
            if ty.is_dir() {
                stack.push(p);
            } else if (ty.is_file() || (ty.is_symlink() && p.is_file()))
                && p.extension().is_some_and(|x| exts.iter().any(|e| x == *e))
            {
                out.push(p);
            }
        }
    }
    Ok(())
}
