//! `xtask layout`: regenerate `crates/ptx-cli/layout/hot-text.ld`, the
//! linker script that puts the code a `ptx check` runs into one region of
//! the binary.
//!
//! Why: the kernel maps a program's code in windows of 64 KB around each
//! page it touches (fault-around). With the check path's functions strewn
//! over the whole 1.4 MB text segment, nearly all of it became resident
//! even though a check runs only about a third of it. Gathered into one
//! region, the rest of the text is never touched.
//!
//! How: the release `ptx` is run under callgrind on a few checks (the
//! Kokkos module of the speed issue, the repository's examples one by one
//! and as a directory, and one rejected module for the diagnostics path).
//! Every function of the `ptx` binary that ran is listed, hottest first,
//! as a section pattern. The hash part of a mangled name is replaced by a
//! wildcard, so the script still matches after code changes and compiler
//! upgrades; a function it no longer names only falls back to the default
//! place. Needs valgrind.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the script lives, relative to the repository root.
pub const SCRIPT: &str = "crates/ptx-cli/layout/hot-text.ld";

/// Corpus modules checked while profiling, relative to `../shared/corpus`.
const CORPUS_RUNS: &[&str] = &[
    crate::inputs::KOKKOS,
    // Rejected (ends in the middle of a function): the diagnostics path.
    "3upperm2n__ptxas_for_opencl_kernel/mcx_core-sm52.ptx",
];

/// Share of the profiled cost from which a function must be in the
/// checked-in script for `--check` to pass (0.1%: the hot path, not every
/// function that ran once).
const CHECK_SHARE: f64 = 0.001;

/// Regenerate the script (or, with `check`, compare it with a fresh
/// profile); the process exit status.
pub fn run(root: &Path, check: bool) -> i32 {
    let names = match profile(root) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let dest = root.join(SCRIPT);
    if check {
        let script = std::fs::read_to_string(&dest).unwrap_or_default();
        return check_script(&script, &names);
    }
    let script = render(names.iter().map(|(n, _)| n.as_str()));
    if let Err(e) = std::fs::write(&dest, script) {
        eprintln!("xtask layout: {}: {e}", dest.display());
        return 1;
    }
    println!("{}: {} functions", dest.display(), names.len());
    0
}

/// `--check`: every function with at least [`CHECK_SHARE`] of the cost
/// must be placed by the script; the exit status. Entries of the script
/// that the profile no longer runs are counted (they are harmless: a
/// pattern that matches nothing places nothing).
fn check_script(script: &str, names: &[(String, u64)]) -> i32 {
    let placed: std::collections::HashSet<&str> = script
        .lines()
        .filter_map(|l| l.trim().strip_prefix("*(.text."))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let total: u64 = names.iter().map(|(_, ir)| ir).sum::<u64>().max(1);
    let missing = missing_hot(&placed, names, total);
    let profiled: std::collections::HashSet<String> =
        names.iter().filter_map(|(n, _)| pattern(n)).collect();
    let stale = placed.iter().filter(|p| !profiled.contains(**p)).count();
    println!(
        "{SCRIPT}: {} entries; {} of them no longer run; {} hot functions (>= {:.1}% of the cost) not placed",
        placed.len(),
        stale,
        missing.len(),
        CHECK_SHARE * 100.0
    );
    for (p, share) in &missing {
        println!("  not placed: {:.2}%  {p}", share * 100.0);
    }
    if missing.is_empty() {
        0
    } else {
        println!("run `cargo xtask layout` to regenerate the script");
        1
    }
}

/// The hot functions of `names` (by pattern, with their share of `total`)
/// that `placed` does not hold.
fn missing_hot(
    placed: &std::collections::HashSet<&str>,
    names: &[(String, u64)],
    total: u64,
) -> Vec<(String, f64)> {
    names
        .iter()
        .map(|(n, ir)| (n, *ir as f64 / total as f64))
        .filter(|(_, share)| *share >= CHECK_SHARE)
        .filter_map(|(n, share)| pattern(n).map(|p| (p, share)))
        .filter(|(p, _)| !placed.contains(p.as_str()))
        .collect()
}

/// Profile the release `ptx` on the layout's checks: every function of it
/// that ran, with its exclusive instruction count, hottest first (or the
/// exit status of a failure).
fn profile(root: &Path) -> Result<Vec<(String, u64)>, i32> {
    let Some(ptx) = crate::dist::release_ptx(root) else {
        eprintln!("xtask layout: could not build target/release/ptx");
        return Err(1);
    };
    let corpus = root.join("../shared/corpus");
    let mut runs: Vec<Vec<PathBuf>> = Vec::new();
    for f in CORPUS_RUNS {
        let p = corpus.join(f);
        if !p.exists() {
            eprintln!("xtask layout: {} not found (needs ../shared)", p.display());
            return Err(1);
        }
        runs.push(vec![p]);
    }
    let examples = root.join("examples");
    let mut ex = Vec::new();
    crate::inputs::collect(&examples, &mut ex);
    runs.extend(ex.into_iter().map(|p| vec![p]));
    runs.push(vec![examples]);

    let tmp = std::env::temp_dir().join(format!("ptxkit-layout-{}", std::process::id()));
    let mut cost: HashMap<String, u64> = HashMap::new();
    for (i, args) in runs.iter().enumerate() {
        let out = tmp.with_extension(format!("{i}.callgrind"));
        let status = Command::new("valgrind")
            .arg("--tool=callgrind")
            .arg("--demangle=no")
            .arg(format!("--callgrind-out-file={}", out.display()))
            .arg(&ptx)
            .arg("check")
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
        let Ok(status) = status else {
            eprintln!("xtask layout: valgrind not found");
            return Err(1);
        };
        // `ptx check` exits 1 on a module with errors; anything else is a
        // failure to run.
        if !matches!(status.code(), Some(0 | 1)) {
            eprintln!("xtask layout: callgrind run {i} failed ({status})");
            return Err(1);
        }
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        let _ = std::fs::remove_file(&out);
        let found = functions_of(&text, "ptx");
        // Even an empty module runs a few hundred functions (start-up,
        // argument parsing); fewer means the profile was not read.
        if found.len() < 100 {
            eprintln!(
                "xtask layout: callgrind run {i} gave {} functions of ptx; not writing",
                found.len()
            );
            return Err(1);
        }
        for (name, ir) in found {
            *cost.entry(name).or_default() += ir;
        }
    }
    let mut names: Vec<(String, u64)> = cost.into_iter().collect();
    names.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(names)
}

/// The functions of the object whose file name is `object` (or of code
/// valgrind could not place, `???`) in a callgrind profile, with their
/// exclusive instruction counts.
///
/// The format names objects and functions once as `ob=(n) name` /
/// `fn=(n) name` (also in the `cob=`/`cfn=` of call records) and by `(n)`
/// after that; a cost line follows a position; the line after `calls=`
/// is a call's inclusive cost and is not the caller's own.
pub fn functions_of(text: &str, object: &str) -> Vec<(String, u64)> {
    let mut objects: HashMap<&str, &str> = HashMap::new();
    let mut functions: HashMap<&str, &str> = HashMap::new();
    let mut totals: HashMap<&str, u64> = HashMap::new();
    let mut in_object = false;
    let mut current: Option<&str> = None;
    let mut skip_next = false;
    // `(n) name` or `(n)`: record the name, return it.
    fn named<'a>(rest: &'a str, table: &mut HashMap<&'a str, &'a str>) -> Option<&'a str> {
        match rest.split_once(' ') {
            Some((id, name)) if id.starts_with('(') => {
                table.insert(id, name);
                Some(name)
            }
            _ if rest.starts_with('(') => table.get(rest).copied(),
            _ => Some(rest),
        }
    }
    for line in text.lines() {
        if skip_next {
            skip_next = false;
            continue;
        }
        if let Some(rest) = line.strip_prefix("ob=") {
            let name = named(rest, &mut objects).unwrap_or("");
            // Valgrind names the object of code outside the `.text`
            // section `???`: in a binary linked with this layout, that is
            // the gathered region itself.
            in_object = name == "???" || Path::new(name).file_name().is_some_and(|f| f == object);
        } else if let Some(rest) = line.strip_prefix("cob=") {
            named(rest, &mut objects);
        } else if let Some(rest) = line.strip_prefix("fn=") {
            current = named(rest, &mut functions).filter(|_| in_object);
        } else if let Some(rest) = line.strip_prefix("cfn=") {
            named(rest, &mut functions);
        } else if line.starts_with("calls=") {
            skip_next = true;
        } else if line.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c)) {
            if let Some(f) = current {
                let ir = line
                    .split_whitespace()
                    .nth(1)
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0);
                *totals.entry(f).or_default() += ir;
            }
        }
    }
    totals
        .into_iter()
        .filter(|(_, ir)| *ir > 0)
        .map(|(f, ir)| (f.to_string(), ir))
        .collect()
}

/// A symbol as a section-name pattern that survives rebuilds: the hash of
/// a legacy mangled name (`17h` + 16 hex digits + `E`), the crate hashes
/// of a v0 name (`Cs…_`) and LLVM's numeric suffixes (`.1234`) become
/// wildcards. `None` for names a linker script cannot hold.
pub fn pattern(symbol: &str) -> Option<String> {
    let ok = |c: char| c.is_ascii_alphanumeric() || "_$.".contains(c);
    if symbol.is_empty() || !symbol.chars().all(ok) {
        return None;
    }
    if symbol.starts_with("0x") {
        return None;
    }
    // Trailing `.123` / `.llvm.123` (copies LLVM made and numbered).
    let mut s = symbol;
    let mut suffixed = false;
    while let Some((head, tail)) = s.rsplit_once('.') {
        let numeric = !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit());
        if head.is_empty() || !(numeric || tail == "llvm") {
            break;
        }
        s = head;
        suffixed = true;
    }
    let mut s = s.to_string();
    // Legacy: ...17h0123456789abcdefE at the end.
    if let Some(at) = s.len().checked_sub(20) {
        let tail = s.get(at..).unwrap_or("");
        let hex = tail.get(3..19).unwrap_or("");
        if tail.starts_with("17h")
            && tail.ends_with('E')
            && hex.chars().all(|c| c.is_ascii_hexdigit())
        {
            s.truncate(at);
            s.push_str("17h*E");
        }
    }
    if suffixed {
        s.push('*');
    }
    // v0: Cs<base-62 hash>_ before a crate name.
    if s.starts_with("_R") {
        let mut out = String::with_capacity(s.len());
        let mut rest = s.as_str();
        while let Some(at) = rest.find("Cs") {
            let (head, tail) = rest.split_at(at);
            out.push_str(head);
            let after = tail.get(2..).unwrap_or("");
            let hash_len = after
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(after.len());
            if hash_len > 0 && after.get(hash_len..).is_some_and(|t| t.starts_with('_')) {
                out.push_str("Cs*_");
                rest = after.get(hash_len + 1..).unwrap_or("");
            } else {
                out.push_str("Cs");
                rest = after;
            }
        }
        out.push_str(rest);
        s = out;
    }
    Some(s)
}

/// The linker script for functions named hottest first.
pub fn render<'a>(symbols: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    out.push_str(
        "/* @generated by `cargo run -p xtask -- layout`; do not edit.\n\
         \x20* The functions a `ptx check` runs, hottest first, gathered into one\n\
         \x20* region of the text (see xtask/src/layout.rs for why and how).\n\
         \x20* Added to the default layout by INSERT; a pattern matching nothing\n\
         \x20* is harmless. Linked in by crates/ptx-cli/build.rs. */\n\
         SECTIONS\n{\n  .text.hot : {\n",
    );
    let mut seen = std::collections::HashSet::new();
    for p in symbols.filter_map(pattern) {
        if seen.insert(p.clone()) {
            let _ = writeln!(out, "    *(.text.{p} .text.unlikely.{p})");
        }
    }
    out.push_str("  }\n}\nINSERT BEFORE .text;\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_names_hot_functions_the_script_does_not_place() {
        let names = vec![
            (
                "_ZN6ptxkit3lex5lexer5Lexer4next17he7ed47f85e37f9feE".to_string(),
                9000,
            ),
            (
                "_ZN6ptxkit5check4body3new17h0123456789abcdefE".to_string(),
                990,
            ),
            ("cold".to_string(), 1),
        ];
        let script = render(["_ZN6ptxkit3lex5lexer5Lexer4next17h00000000000000aaE"].into_iter());
        let placed: std::collections::HashSet<&str> = script
            .lines()
            .filter_map(|l| l.trim().strip_prefix("*(.text."))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert_eq!(placed.len(), 1);
        let missing = missing_hot(&placed, &names, 10_000);
        // The second is hot (9.9%) and not placed; `cold` is under the share.
        assert_eq!(missing.len(), 1);
        assert_eq!(missing[0].0, "_ZN6ptxkit5check4body3new17h*E");
        assert_eq!(check_script(&script, &names), 1);
        let full = render(names.iter().map(|(n, _)| n.as_str()));
        assert_eq!(check_script(&full, &names), 0);
    }

    #[test]
    fn hashes_become_wildcards() {
        assert_eq!(
            pattern("_ZN6ptxkit3lex5lexer5Lexer4next17he7ed47f85e37f9feE").as_deref(),
            Some("_ZN6ptxkit3lex5lexer5Lexer4next17h*E")
        );
        assert_eq!(
            pattern("_RNvXsZ_NtCslNYArtu3iFV_5alloc6stringNtB5_6String9write_str.2083").as_deref(),
            Some("_RNvXsZ_NtCs*_5alloc6stringNtB5_6String9write_str*")
        );
        assert_eq!(pattern("main").as_deref(), Some("main"));
        assert_eq!(pattern("(below main)"), None);
        assert_eq!(pattern("0x0000000000012345"), None);
        assert_eq!(
            pattern("_ZN4core3ptr4drop17h0123456789abcdefE.llvm.4242").as_deref(),
            Some("_ZN4core3ptr4drop17h*E*")
        );
    }

    #[test]
    fn callgrind_costs_are_exclusive_and_per_object() {
        let text = "\
ob=(1) /x/ptx
fl=(1) a.rs
fn=(1) hot
3 100
cob=(2) /lib/libc.so.6
cfn=(2) memcpy
calls=1 0
3 5000
+1 20
ob=(2)
fn=(2)
0 7
ob=(1)
fn=(1)
4 1
";
        let mut got = functions_of(text, "ptx");
        got.sort();
        assert_eq!(got, vec![("hot".to_string(), 121)]);
    }
}
