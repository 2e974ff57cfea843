//! The `ast --json` rows of `xtask bench`: what `ptx ast --json` does
//! (parse, index the lines, serialise the compact document) with the
//! output counted instead of kept, as MB/s of input and output bytes per
//! input byte, over all the inputs and on the largest files alone.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::inputs::file_name;

/// A writer that keeps only the number of bytes written to it.
struct Counter(usize);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.wrapping_add(buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `ptx ast --json` on one file, through a 64 KB buffer as the command
/// writes: the bytes it writes.
pub fn ast_json(src: &[u8]) -> usize {
    let module = ptxkit::parse(src).module;
    let doc = ptxkit::json::Document::new(&module, src);
    let mut out = std::io::BufWriter::with_capacity(1 << 16, Counter(0));
    let _ = serde_json::to_writer(&mut out, &doc);
    let _ = out.write_all(b"\n");
    out.into_inner().map(|c| c.0).unwrap_or(0)
}

/// The `ast --json` goals of issue 41: at least this many MB/s of input…
const GOAL_MB_S: f64 = 50.0;
/// …and at most this many output bytes per input byte.
const GOAL_RATIO: f64 = 20.0;

/// One row per file among the `n` largest: MB/s of input (best pass,
/// one core, and by the thread's CPU time per pass) and the output's size
/// against the input's.
pub fn largest(paths: &[PathBuf], files: &[Vec<u8>], n: usize, min: Duration) {
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(files[i].len()));
    println!(
        "\n`ptx ast --json` on the {} largest inputs (one core; goal ≥ {GOAL_MB_S} MB/s, output ≤ {GOAL_RATIO}× the input)",
        n.min(files.len())
    );
    println!(
        "{:<60} {:>9} {:>9} {:>11} {:>10} {:>8}",
        "file", "MB", "MB/s", "MB/s (CPU)", "out MB", "out/in"
    );
    for &i in order.iter().take(n) {
        let src = &files[i];
        let mb = src.len() as f64 / 1e6;
        let mut out = 0;
        let (wall, cpu) = crate::bench::time(min, || {
            out = ast_json(src);
            out
        });
        let ratio = out as f64 / src.len().max(1) as f64;
        let name = file_name(Path::new(&paths[i]));
        // The goal is judged on the CPU time of the measuring thread, the
        // figure other load on the machine disturbs least.
        println!(
            "{:<60} {:>9.2} {:>9.1} {:>11.1} {:>10.1} {:>7.1}×{}",
            shorten(&name, 60),
            mb,
            mb / wall,
            mb / cpu,
            out as f64 / 1e6,
            ratio,
            if mb / wall.min(cpu) >= GOAL_MB_S && ratio <= GOAL_RATIO {
                ""
            } else {
                "  (goal not met)"
            }
        );
    }
}

/// The last `n` characters of `s`, marked when cut.
fn shorten(s: &str, n: usize) -> String {
    let len = s.chars().count();
    if len <= n {
        return s.to_string();
    }
    let tail: String = s.chars().skip(len - n + 1).collect();
    format!("…{tail}")
}
