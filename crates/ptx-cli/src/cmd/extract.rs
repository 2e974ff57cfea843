//! `ptx extract`: list or write the PTX inside CUDA binaries.

use std::path::{Path, PathBuf};

use ptxkit::binary::{self, Binary, Entry};
use rayon::prelude::*;
use serde::Serialize;

use crate::input::{self, binary as bin_input};
use crate::out::{self, Align, Table};

/// Arguments of `ptx extract`.
#[derive(clap::Args)]
pub struct Args {
    /// Fatbins, cubins, executables, shared libraries or objects.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write the PTX files into this directory (made if missing).
    #[arg(long, short, value_name = "DIR", default_value = ".")]
    pub output: PathBuf,
    /// List every entry (PTX, SASS, LTO-IR) instead of extracting.
    #[arg(long)]
    pub list: bool,
    /// Print JSON: the entries with `--list`, the files written otherwise.
    #[arg(long)]
    pub json: bool,
}

/// One entry as `--list --json` shows it.
#[derive(Serialize)]
struct ListedEntry<'a> {
    /// Its number among the PTX entries (PTX only).
    ptx_number: Option<usize>,
    /// `sm_80`, `sm_90a`.
    arch_name: String,
    /// Names of the flags set.
    flag_names: Vec<&'static str>,
    /// For a cubin (SASS): what its kernels use (see `ptx resources`).
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<Result<binary::Usage, String>>,
    #[serde(flatten)]
    entry: &'a Entry,
}

/// One binary as `--list --json` shows it.
#[derive(Serialize)]
struct Listed<'a> {
    file: String,
    #[serde(flatten)]
    binary: &'a Binary,
    #[serde(rename = "entries")]
    listed: Vec<ListedEntry<'a>>,
}

/// One file written.
#[derive(Serialize)]
struct Written {
    /// The binary.
    binary: String,
    /// Its PTX entry number.
    entry: usize,
    /// The architecture.
    arch: String,
    /// The file written.
    path: String,
    /// Its size.
    bytes: usize,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let mut listed = Vec::new();
    let mut written = Vec::new();
    // The files this run writes, to keep two inputs from writing one.
    let mut used: std::collections::HashSet<std::path::PathBuf> = Default::default();
    // By stem: the last `-K` suffix taken.
    let mut suffix: std::collections::HashMap<String, usize> = Default::default();
    let mut status = 0u8;
    for f in &a.files {
        let opened = input::open_binary(f)?;
        if !binary::is_binary(&opened.bytes) {
            return Err(format!(
                "{}: not a CUDA binary (a fatbin, cubin, or ELF/PE object)",
                opened.name
            ));
        }
        let bin = bin_input::read_headers(&opened.name, &opened.bytes)?;
        if a.list {
            let usages = sass_usage(&opened.bytes, &bin);
            if a.json {
                listed.push(
                    serde_json::to_value(list_json(&opened.name, &bin, usages)).unwrap_or_default(),
                );
            } else {
                print_list(&opened.name, &bin, &usages);
            }
            continue;
        }
        let sel = bin_input::selection();
        let picked = bin_input::chosen(&bin, sel);
        if picked.is_empty() {
            eprintln!(
                "ptx: {}",
                bin_input::nothing_chosen(&opened.name, &bin, sel)
            );
            status = 1;
            continue;
        }
        std::fs::create_dir_all(&a.output).map_err(|e| format!("{}: {e}", a.output.display()))?;
        let base = Path::new(f)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "stdin".into());
        // Inputs with the same stem (`a/libk.so.12`, `b/libk.so.12`,
        // `a/libk.so.11`) would write the same files: a later one takes
        // the first free `stem-K`, counting on from where the last input
        // of that stem stopped (not from 1 again for each).
        let name_of = |stem: &str, n: &bin_input::Numbered| {
            a.output
                .join(format!("{stem}.{}.{}.ptx", n.number, n.entry.arch_name()))
        };
        let k = suffix.entry(base.clone()).or_insert(1usize);
        let mut stem = base.clone();
        while picked.iter().any(|n| used.contains(&name_of(&stem, n))) {
            *k = k.saturating_add(1);
            stem = format!("{base}-{k}");
        }
        used.extend(picked.iter().map(|n| name_of(&stem, n)));
        if let Err(e) = binary::check_total(picked.iter().map(|n| n.entry)) {
            eprintln!("ptx: {}: {e}", opened.name);
            status = 2;
            continue;
        }
        let bytes: &[u8] = &opened.bytes;
        // Each entry is decompressed straight into its file: memory stays
        // a buffer per thread, whatever the entries' sizes.
        let results: Vec<Result<Written, String>> = picked
            .par_iter()
            .map(|n| {
                let path = name_of(&stem, n);
                let size = write_entry(bytes, n.entry, &path)
                    .map_err(|e| format!("{}: {e}", opened.name))?;
                Ok(Written {
                    binary: opened.name.clone(),
                    entry: n.number,
                    arch: n.entry.arch_name(),
                    path: path.display().to_string(),
                    bytes: usize::try_from(size).unwrap_or(usize::MAX),
                })
            })
            .collect();
        for r in results {
            match r {
                Ok(w) => written.push(w),
                Err(e) => {
                    eprintln!("ptx: {e}");
                    status = 2;
                }
            }
        }
    }
    if a.json {
        let v = if a.list {
            serde_json::Value::Array(listed)
        } else {
            serde_json::to_value(&written).unwrap_or_default()
        };
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else if !a.list {
        for w in &written {
            println!(
                "{}  {} bytes  ({} PTX entry {}, {})",
                w.path, w.bytes, w.binary, w.entry, w.arch
            );
        }
    }
    Ok(status)
}

/// What each SASS entry's cubin uses, by entry index (all cores).
fn sass_usage(bytes: &[u8], bin: &Binary) -> Vec<Option<Result<binary::Usage, String>>> {
    if bin.format == binary::Format::Cubin {
        return vec![Some(binary::usage::read(bytes).map_err(|e| e.to_string()))];
    }
    bin.entries
        .par_iter()
        .map(|e| (e.kind == binary::Kind::Sass).then(|| binary::usage::entry_usage(bytes, e).usage))
        .collect()
}

/// A cubin's usage in a few words: `5 kernels, reg <= 80, shared <= 5120 B`.
fn usage_summary(u: &Option<Result<binary::Usage, String>>) -> String {
    match u {
        None => String::new(),
        Some(Err(e)) => format!("unreadable cubin: {e}"),
        Some(Ok(u)) => {
            let kernels = u.functions.iter().filter(|f| f.kernel).count();
            let reg = u.functions.iter().map(|f| f.registers).max().unwrap_or(0);
            let shared = u.functions.iter().map(|f| f.shared).max().unwrap_or(0);
            let stack = u.functions.iter().map(|f| f.stack).max().flatten();
            let unknown = u.functions.iter().any(|f| f.stack.is_none());
            format!(
                "{kernels} kernel{}, reg <= {reg}, shared <= {shared} B, stack {}",
                if kernels == 1 { "" } else { "s" },
                if unknown {
                    "unknown".to_string()
                } else {
                    format!("<= {} B", stack.unwrap_or(0))
                }
            )
        }
    }
}

/// Decompress PTX entry `e` of `bytes` into the file `path`; its size. A
/// file left incomplete by an error is removed.
fn write_entry(bytes: &[u8], e: &Entry, path: &Path) -> Result<u64, String> {
    use std::io::Write;
    let file = std::fs::File::create(path).map_err(|err| format!("{}: {err}", path.display()))?;
    let mut w = std::io::BufWriter::with_capacity(256 * 1024, file);
    let r = binary::write_ptx_text(bytes, e, &mut w)
        .map_err(|err| err.to_string())
        .and_then(|n| {
            w.flush()
                .map(|()| n)
                .map_err(|err| format!("{}: {err}", path.display()))
        });
    if r.is_err() {
        drop(w);
        let _ = std::fs::remove_file(path);
    }
    r
}

fn list_json<'a>(
    name: &str,
    bin: &'a Binary,
    usages: Vec<Option<Result<binary::Usage, String>>>,
) -> Listed<'a> {
    let mut n = 0usize;
    let mut usages = usages.into_iter();
    Listed {
        file: name.to_string(),
        binary: bin,
        listed: bin
            .entries
            .iter()
            .map(|e| ListedEntry {
                ptx_number: (e.kind == binary::Kind::Ptx).then(|| {
                    n = n.saturating_add(1);
                    n
                }),
                arch_name: e.arch_name(),
                flag_names: e.flag_names(),
                usage: usages.next().flatten(),
                entry: e,
            })
            .collect(),
    }
}

fn print_list(name: &str, bin: &Binary, usages: &[Option<Result<binary::Usage, String>>]) {
    let format = match bin.format {
        binary::Format::Fatbin => "fatbin".to_string(),
        binary::Format::Object => format!(
            "{}; sections {}; {}",
            bin.object_kind
                .unwrap_or(binary::ObjectKind::Other)
                .as_str(),
            if bin.sections.is_empty() {
                "none".to_string()
            } else {
                bin.sections.join(", ")
            },
            crate::out::count(bin.wrappers as u64, "wrapper record")
        ),
        binary::Format::Cubin => {
            let arch = bin
                .cubin_arch
                .map(|a| format!(" for sm_{a}"))
                .unwrap_or_default();
            let u = usages.first().map(usage_summary).unwrap_or_default();
            println!("{name}: cubin{arch}: machine code (SASS) only, no PTX; {u}");
            return;
        }
    };
    let ptx = bin.ptx_entries().count();
    println!(
        "{name}: {format}; {}, {}, {ptx} PTX",
        crate::out::count(bin.containers.len() as u64, "container"),
        crate::out::count(bin.entries.len() as u64, "entry")
    );
    if bin.entries.is_empty() {
        return;
    }
    let mut t = Table::new(&[
        ("ptx", Align::Right),
        ("kind", Align::Left),
        ("arch", Align::Left),
        ("version", Align::Left),
        ("stored", Align::Right),
        ("size", Align::Right),
        ("compression", Align::Left),
        ("flags", Align::Left),
        ("name/options", Align::Left),
        ("kernels (ptx resources)", Align::Left),
    ]);
    let mut n = 0usize;
    for (e, u) in bin.entries.iter().zip(usages) {
        let num = if e.kind == binary::Kind::Ptx {
            n = n.saturating_add(1);
            n.to_string()
        } else {
            "-".to_string()
        };
        let size = match e.compression {
            binary::Compression::None => e.stored_size,
            _ => e.uncompressed_size,
        };
        let extra = [e.name.as_deref(), e.options.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        t.row([
            num,
            e.kind.name(),
            e.arch_name(),
            format!("{}.{}", e.version.0, e.version.1),
            e.stored_size.to_string(),
            size.to_string(),
            e.compression.name().to_string(),
            format!("{:#x} {}", e.flags, e.flag_names().join(",")),
            extra,
            usage_summary(u),
        ]);
    }
    out::print(&t.render("  ", out::color()));
}
