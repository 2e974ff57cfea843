//! `xtask ptxas-roundtrip`: print every ptxas-accepted corpus file
//! canonically and ask ptxas whether it still accepts it (same -arch as the
//! original, which is also run, so only real differences count).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// ptxas 13.5 compiles for sm_75 and newer; older `.target`s are assembled
/// for sm_75 (PTX written for an older target runs on newer GPUs).
fn arch_for(target: &str) -> String {
    let first = target.split(',').next().unwrap_or("").trim();
    let num: u32 = first
        .trim_start_matches("sm_")
        .trim_end_matches(['a', 'f'])
        .parse()
        .unwrap_or(0);
    if num >= 75 {
        first.to_string()
    } else {
        "sm_75".to_string()
    }
}

fn ptxas_ok(ptxas: &Path, arch: &str, file: &Path) -> (bool, String) {
    match Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg(file)
        .arg("-o")
        .arg("/dev/null")
        .output()
    {
        Ok(o) => (
            o.status.success(),
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .next()
                .unwrap_or("")
                .to_string(),
        ),
        Err(e) => (false, e.to_string()),
    }
}

pub fn run(shared: PathBuf, jobs: usize, limit: Option<usize>) -> i32 {
    let ptxas = shared.join("tools/ptxas");
    let manifest = match std::fs::read_to_string(shared.join("corpus/MANIFEST.tsv")) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("cannot read manifest: {e}");
            return 2;
        }
    };
    let mut rows: Vec<(String, String)> = manifest
        .lines()
        .skip(1)
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c.get(7) == Some(&"accept")).then(|| {
                (
                    c.first().unwrap_or(&"").to_string(),
                    c.get(6).unwrap_or(&"").to_string(),
                )
            })
        })
        .collect();
    if let Some(n) = limit {
        rows.truncate(n);
    }
    let tmp = std::env::temp_dir().join("ptxkit-roundtrip");
    let _ = std::fs::create_dir_all(&tmp);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let counts = [
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    ]; // both ok, orig fails here, canon fails
    std::thread::scope(|s| {
        for w in 0..jobs.max(1) {
            let (rows, next, results, counts, tmp, ptxas, shared) =
                (&rows, &next, &results, &counts, &tmp, &ptxas, &shared);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((path, target)) = rows.get(i) else {
                    break;
                };
                let src_path = shared.join("corpus").join(path);
                let Ok(src) = std::fs::read(&src_path) else {
                    continue;
                };
                let parsed = ptxkit::parse(&src);
                let canon = ptxkit::print::canonical(&parsed.module);
                let out = tmp.join(format!("w{w}.ptx"));
                if std::fs::write(&out, canon).is_err() {
                    continue;
                }
                let arch = arch_for(target);
                let (orig_ok, _) = ptxas_ok(ptxas, &arch, &src_path);
                if !orig_ok {
                    counts[1].fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                let (canon_ok, msg) = ptxas_ok(ptxas, &arch, &out);
                if canon_ok {
                    counts[0].fetch_add(1, Ordering::Relaxed);
                } else {
                    counts[2].fetch_add(1, Ordering::Relaxed);
                    if let Ok(mut r) = results.lock() {
                        r.push(format!("{path} (-arch={arch}): {msg}"));
                    }
                }
            });
        }
    });
    let r = results.into_inner().unwrap_or_default();
    for line in &r {
        println!("CANONICAL REJECTED {line}");
    }
    println!(
        "ptxas-roundtrip: {} files; original and canonical both accepted: {}; original not accepted with the chosen -arch: {}; canonical rejected: {}",
        rows.len(),
        counts[0].load(Ordering::Relaxed),
        counts[1].load(Ordering::Relaxed),
        counts[2].load(Ordering::Relaxed)
    );
    i32::from(counts[2].load(Ordering::Relaxed) > 0)
}
