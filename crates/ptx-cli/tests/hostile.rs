//! Hostile inputs through the real `ptx check`: each is generated at run
//! time, and each must end with exit code 1 and an error at a known
//! position, within 10 s and 1 GB peak RSS. A very large valid file must
//! still be accepted.
//!
//! Peak RSS is the child's own `VmHWM`, read while it runs (`wait_child`):
//! the kernel's `ru_maxrss` also counts what the child was before `exec`
//! (a copy of this test process), which other tests running beside it made
//! tens of megabytes larger at random.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
#![cfg(target_os = "linux")]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const HEADER: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";
const MAX_TIME: Duration = Duration::from_secs(10);
const MAX_RSS_KB: i64 = 1 << 20;

fn dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile");
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Outcome of one run: exit code, stderr, wall time, peak RSS in KiB.
struct Run {
    code: Option<i32>,
    stderr: String,
    time: Duration,
    rss_kb: i64,
}

/// Write `src` to a file, run `ptx check` on it and measure it.
fn check(name: &str, src: &[u8]) -> Run {
    let path = dir().join(format!("{name}.ptx"));
    std::fs::write(&path, src).expect("write input");
    let err_path = dir().join(format!("{name}.stderr"));
    let t = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_ptx"))
        .arg("check")
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(File::create(&err_path).expect("stderr file"))
        .spawn()
        .expect("run ptx");
    let pid = child.id() as libc::pid_t;
    let (status, rss_kb) = wait_child(pid, None);
    let time = t.elapsed();
    drop(child);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let stderr =
        String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned();
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&err_path);
    eprintln!(
        "{name}: {} bytes, exit {code:?}, {:.2} s, peak RSS {} MB",
        src.len(),
        time.as_secs_f64(),
        rss_kb / 1024
    );
    Run {
        code,
        stderr,
        time,
        rss_kb,
    }
}

/// Wait for child `pid` (killing it past `timeout`): its exit status and
/// peak RSS in KiB. The peak is read from the child's `VmHWM` while it
/// runs, every millisecond: the kernel's `ru_maxrss` also counts what the
/// child was before it `exec`d, a copy of this test process (or, spawned
/// with `vfork`, this process's own peak), which with the other tests'
/// inputs and outputs added tens of megabytes at random. Growth in the last
/// millisecond before the child exits can be missed; `ru_maxrss` is the
/// fallback for a child too quick to be read at all.
fn wait_child(pid: libc::pid_t, timeout: Option<Duration>) -> (i32, i64) {
    let t = Instant::now();
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value; wait4 fills it and the
    // status for our own child, which its `Child` never waits for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let status_path = format!("/proc/{pid}/status");
    let mut hwm_kb: i64 = 0;
    loop {
        if let Some(kb) = std::fs::read_to_string(&status_path).ok().and_then(|st| {
            st.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok())
        }) {
            hwm_kb = hwm_kb.max(kb);
        }
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        assert!(r == 0, "wait4 failed");
        if timeout.is_some_and(|limit| t.elapsed() > limit) {
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::wait4(pid, &mut status, 0, &mut usage);
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    (status, if hwm_kb > 0 { hwm_kb } else { usage.ru_maxrss })
}

/// `check`, then require exit 1, the error `code` at `line:col` (as the
/// GNU line `file:line:col: error: … [code]`), and the time/memory bounds.
fn rejected(name: &str, src: &[u8], line: u32, col: u32, code: &str) {
    let r = check(name, src);
    assert_eq!(
        r.code,
        Some(1),
        "{name}: exit code; stderr:\n{}",
        head(&r.stderr)
    );
    let want = format!("{name}.ptx:{line}:{col}: error: ");
    assert!(
        r.stderr
            .lines()
            .any(|l| l.contains(&want) && l.ends_with(&format!("[{code}]"))),
        "{name}: no {code} at {line}:{col}; stderr:\n{}",
        head(&r.stderr)
    );
    bounded(name, &r);
}

fn bounded(name: &str, r: &Run) {
    assert!(r.time < MAX_TIME, "{name}: took {:?}", r.time);
    assert!(
        r.rss_kb < MAX_RSS_KB,
        "{name}: peak RSS {} MB",
        r.rss_kb / 1024
    );
}

fn head(s: &str) -> String {
    s.lines()
        .take(8)
        .map(|l| l.chars().take(200).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

fn module(body: &str) -> Vec<u8> {
    format!("{HEADER}.visible .entry k() {{\n{body}\n}}\n").into_bytes()
}

#[test]
fn invalid_utf8_and_nul() {
    let mut v = HEADER.as_bytes().to_vec();
    v.extend_from_slice(b".visible .entry k() {\n  ret;\xff\xfe\n  ret;\n}\n");
    rejected("utf8", &v, 5, 7, "E0001");
    // A NUL byte inside the text: not text, one error (trailing NULs, as
    // compilers that dump PTX as a C string leave, are read as text).
    let mut v = HEADER.as_bytes().to_vec();
    v.extend_from_slice(b".visible .entry k() {\n  ret;\n\0\0\0 ret; }\n");
    let r = check("nul", &v);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("not PTX text: a NUL byte at offset 73"),
        "{}",
        r.stderr
    );
    // That line and the summary.
    assert_eq!(r.stderr.lines().count(), 2, "{}", r.stderr);
    let mut v = module("  ret;");
    v.extend_from_slice(b"\0\0");
    let r = check("trailing_nul", &v);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(!r.stderr.contains("not PTX text"), "{}", r.stderr);
    // A megabyte of binary noise after a valid header: one error too.
    let mut v = HEADER.as_bytes().to_vec();
    v.extend((0..1_000_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8));
    let r = check("noise", &v);
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stderr.lines().count(), 2, "{}", r.stderr);
    bounded("noise", &r);
}

/// One 50 MB line. It mixes 20 MB of instructions (about a million of
/// them, which costs the tree about 450 MB today; a line of 50 MB of
/// instructions costs about 1 GB, see docs/limits.md) with a 15 MB string
/// and a 15 MB comment; the error is at the end of the line.
#[test]
fn fifty_megabyte_line() {
    let mut s = String::with_capacity(50_100_000);
    s.push_str(HEADER);
    s.push_str(".visible .entry k() { .reg .b32 %r<2>; ");
    let inst = "add.s32 %r1, %r1, 1; ";
    s.push_str(&inst.repeat(20_000_000 / inst.len()));
    s.push_str(".pragma \"");
    s.push_str(&"x".repeat(15_000_000));
    s.push_str("\"; /* ");
    s.push_str(&"y".repeat(15_000_000));
    s.push_str(" */ bogus; }\n");
    assert!(s.len() >= 50_000_000);
    let col = s.find("bogus").map(|i| i - HEADER.len() + 1).unwrap_or(0);
    rejected("line50mb", s.as_bytes(), 4, col as u32, "E0201");
}

#[test]
fn nesting() {
    let mut s = HEADER.to_string();
    s.push_str(".visible .entry k()\n");
    s.push_str(&"{".repeat(100_000));
    rejected("blocks", s.as_bytes(), 5, 258, "E0104");
    let mut s = HEADER.to_string();
    s.push_str(".global .u32 x[1] = ");
    s.push_str(&"{".repeat(100_000));
    s.push_str("1;\n");
    rejected("initializers", s.as_bytes(), 4, 278, "E0104");
    let mut s = HEADER.to_string();
    s.push_str(".visible .entry k() { .reg .b32 %r1; mov.b32 %r1, ");
    s.push_str(&"(".repeat(100_000));
    s.push('1');
    s.push_str(&")".repeat(100_000));
    s.push_str("; }\n");
    rejected("parens", s.as_bytes(), 4, 306, "E0104");
}

#[test]
fn huge_literals() {
    let big_int = format!("mov.u64 %rd1, 1{};", "0".repeat(1_000_000));
    rejected(
        "bigint",
        &module(&format!(".reg .b64 %rd1;\n{big_int}")),
        6,
        15,
        "E0002",
    );
    let big_float = "mov.f64 %fd1, 1e999999;";
    rejected(
        "bigfloat",
        &module(&format!(".reg .f64 %fd1;\n{big_float}")),
        6,
        15,
        "E0002",
    );
}

#[test]
fn a_million_labels() {
    let mut body = String::new();
    for i in 0..1_000_000 {
        body.push_str(&format!("$L__BB0_{i}:\n"));
    }
    body.push_str("bogus;");
    rejected("labels", &module(&body), 1_000_005, 1, "E0201");
}

#[test]
fn register_range_beyond_the_limit() {
    rejected(
        "range",
        &module(".reg .b32 %r<4294967296>;\nret;"),
        5,
        14,
        "E0105",
    );
}

#[test]
fn unterminated_at_eof() {
    let mut s = HEADER.to_string();
    s.push_str(".visible .entry k() { ret; }\n/* no end");
    rejected("comment", s.as_bytes(), 5, 1, "E0003");
    let mut s = HEADER.to_string();
    s.push_str(".visible .entry k() { .pragma \"no end");
    rejected("string", s.as_bytes(), 4, 31, "E0003");
}

/// A large valid file (about 20 MB, a million instructions over many
/// kernels) is accepted, within the same bounds.
#[test]
fn large_valid_file_is_accepted() {
    let mut s = String::from(HEADER);
    for k in 0..1000 {
        s.push_str(&format!(
            ".visible .entry k{k}(.param .u64 p)\n{{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
        ));
        s.push_str("\tld.param.u64 %rd1, [p];\n");
        for i in 0..1000 {
            s.push_str(&format!("\tadd.s32 %r{}, %r1, {i};\n", 1 + i % 3));
        }
        s.push_str("\tret;\n}\n");
    }
    let r = check("large_valid", s.as_bytes());
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    bounded("large_valid", &r);
}

/// A file large enough to be memory-mapped, whose pages are given back as
/// the check moves on: errors near its start and its end are both reported
/// at their lines, with their source lines quoted (read again after their
/// pages were released).
#[test]
fn errors_early_and_late_in_a_mapped_file() {
    let mut s = String::from(HEADER);
    let mut lines = HEADER.lines().count() as u32;
    let mut bad = Vec::new();
    for k in 0..1000 {
        s.push_str(&format!(
            ".visible .entry k{k}()\n{{\n\t.reg .b32 %r<4>;\n\tmov.u32 %r1, 0;\n"
        ));
        lines += 4;
        for i in 0..40 {
            if (k == 2 || k == 997) && i == 20 {
                s.push_str(&format!("\tadd.s32 %r1, %r9{k}, {i};\n"));
                lines += 1;
                bad.push((lines, format!("%r9{k}")));
            } else {
                s.push_str(&format!("\tadd.s32 %r{}, %r1, {i};\n", 1 + i % 3));
                lines += 1;
            }
        }
        s.push_str("\tret;\n}\n");
        lines += 2;
    }
    assert!(s.len() > 512 << 10, "large enough to be mapped");
    let r = check("mapped_errors", s.as_bytes());
    assert_eq!(r.code, Some(1), "{}", head(&r.stderr));
    for (line, reg) in &bad {
        let want = format!("mapped_errors.ptx:{line}:");
        assert!(
            r.stderr
                .lines()
                .any(|l| l.contains(&want) && l.contains(reg.as_str())),
            "no error at line {line} naming {reg}; stderr:\n{}",
            head(&r.stderr)
        );
        // The frame shows a tab as four spaces.
        let quoted = format!("{line} |     add.s32 %r1, {reg}, 20;");
        assert!(
            r.stderr.lines().any(|l| l.trim_start() == quoted),
            "source line {line} not quoted; stderr:\n{}",
            head(&r.stderr)
        );
    }
    bounded("mapped_errors", &r);
}

// ---------------------------------------------------------------------
// Growth: each case below is generated at two sizes (the large one 10x
// the small one), run in a child under a 4 GiB address-space limit
// (`setrlimit(RLIMIT_AS)` before `exec`) and a 60 s timeout, and its time
// and peak memory must grow about linearly: at most 30x the small run's
// (a quadratic cost would be 100x), plus a constant for start-up noise.

/// The address-space limit of every growth run.
const AS_LIMIT: u64 = 4 << 30;
/// The timeout of every growth run.
const GROWTH_TIMEOUT: Duration = Duration::from_secs(60);

/// One limited run: exit code, stdout, stderr, time, peak RSS (KiB).
struct Limited {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
    time: Duration,
    rss_kb: i64,
    /// Bytes written to stdout (kept in `stdout` or not).
    out_bytes: usize,
}

/// Run `ptx args…` with `stdin` under [`AS_LIMIT`] and [`GROWTH_TIMEOUT`].
fn limited(args: &[&std::ffi::OsStr], stdin: &[u8]) -> Limited {
    limited_with(args, stdin, true)
}

/// [`limited`], keeping the output only if `keep` (otherwise it is read
/// and counted in `out_bytes`, and `stdout` and `stderr` hold only their
/// last 4 KB).
fn limited_with(args: &[&std::ffi::OsStr], stdin: &[u8], keep: bool) -> Limited {
    use std::io::{Read, Write};
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ptx"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: only setrlimit, async-signal-safe, runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: AS_LIMIT,
                rlim_max: AS_LIMIT,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let t = Instant::now();
    let mut child = cmd.spawn().expect("run ptx");
    let pid = child.id() as libc::pid_t;
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    // Read to the end; all kept, or only counted (and the last 4 KB).
    let drain = move |r: &mut dyn Read| {
        let mut v = Vec::new();
        if keep {
            let _ = r.read_to_end(&mut v);
            return (v, 0usize);
        }
        let mut buf = vec![0u8; 1 << 16];
        let mut n = 0usize;
        while let Ok(k) = r.read(&mut buf) {
            if k == 0 {
                break;
            }
            n += k;
            v.extend_from_slice(&buf[..k]);
            let cut = v.len().saturating_sub(4096);
            v.drain(..cut);
        }
        (v, n)
    };
    let reader = std::thread::spawn(move || drain(&mut out));
    let err_reader = std::thread::spawn(move || drain(&mut err).0);
    let (status, rss_kb) = wait_child(pid, Some(GROWTH_TIMEOUT));
    let time = t.elapsed();
    let _ = feeder.join();
    let (stdout, counted) = reader.join().unwrap_or_default();
    let out_bytes = if keep { stdout.len() } else { counted };
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    std::mem::forget(child);
    Limited {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        stdout,
        stderr,
        time,
        rss_kb,
        out_bytes,
    }
}

/// Require that `big` (an input 10x `small`'s) cost at most 30x `small`
/// in time and memory, plus a constant, and finished in time.
fn linear(name: &str, small: &Limited, big: &Limited) {
    eprintln!(
        "{name}: small {:.2} s {} MB, large {:.2} s {} MB, output {} -> {} bytes",
        small.time.as_secs_f64(),
        small.rss_kb / 1024,
        big.time.as_secs_f64(),
        big.rss_kb / 1024,
        small.out_bytes,
        big.out_bytes
    );
    assert!(big.time < GROWTH_TIMEOUT, "{name}: timed out");
    assert!(
        big.time <= small.time * 30 + Duration::from_millis(1500),
        "{name}: time grows faster than the input: {:?} -> {:?}",
        small.time,
        big.time
    );
    assert!(
        big.rss_kb <= small.rss_kb * 30 + 64 * 1024,
        "{name}: memory grows faster than the input: {} -> {} KiB",
        small.rss_kb,
        big.rss_kb
    );
    assert!(
        big.out_bytes <= small.out_bytes * 30 + 4096,
        "{name}: output grows faster than the input: {} -> {} bytes",
        small.out_bytes,
        big.out_bytes
    );
}

/// Write `bytes` to a temporary file named `name` and give its path.
fn temp(name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir().join(name);
    std::fs::write(&p, bytes).expect("write input");
    p
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// A chain of `n` device functions, each calling the next, under a kernel.
fn call_chain(n: usize) -> Vec<u8> {
    let mut s = HEADER.to_string();
    for i in (0..n).rev() {
        s.push_str(&format!(".func f{i}()\n{{\n\t.local .b8 buf[4];\n"));
        if i + 1 < n {
            s.push_str(&format!("\tcall f{};\n", i + 1));
        }
        s.push_str("\tret;\n}\n");
    }
    s.push_str(".visible .entry k()\n{\n\tcall f0;\n\tret;\n}\n");
    s.into_bytes()
}

/// `ptx resources` on a chain of calls: was cubic in its depth (5,000
/// calls took over a minute).
#[test]
fn resources_linear_in_call_depth() {
    let small = limited(&[os("resources"), os("-")], &call_chain(400));
    let big = limited(&[os("resources"), os("-")], &call_chain(4_000));
    assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
    linear("resources call chain", &small, &big);
}

/// A kernel whose body is `n` nested loops (labels, then back branches
/// innermost first), or `n` forward branches to one label.
fn branches(n: usize, nested: bool) -> Vec<u8> {
    let mut s = HEADER.to_string();
    s.push_str(".visible .entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n");
    if nested {
        for i in 0..n {
            s.push_str(&format!("H{i}:\n\tadd.s32 %r1, %r1, 1;\n"));
        }
        for i in (0..n).rev() {
            s.push_str(&format!("\t@%p1 bra H{i};\n"));
        }
    } else {
        for _ in 0..n {
            s.push_str("\t@%p1 bra END;\n");
        }
        s.push_str("END:\n");
    }
    s.push_str("\tret;\n}\n");
    s.into_bytes()
}

/// `ptx cfg` on nested back branches: the text, JSON and DOT were
/// quadratic (each loop listed every block inside it: 212 KB in, 47 MB
/// out); forward branches to one label were quadratic in time (the
/// dominators), 200,000 of them did not finish.
#[test]
fn cfg_output_proportional_to_the_graph() {
    for flag in [None, Some("--json"), Some("--dot")] {
        let args = |_: usize| {
            let mut a = vec![os("cfg"), os("-")];
            a.extend(flag.map(os));
            a
        };
        let small = limited(&args(0), &branches(1_000, true));
        let big = limited(&args(0), &branches(10_000, true));
        assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
        linear(&format!("cfg {flag:?} nested loops"), &small, &big);
        let small = limited(&args(0), &branches(5_000, false));
        let big = limited(&args(0), &branches(50_000, false));
        assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
        linear(&format!("cfg {flag:?} forward branches"), &small, &big);
    }
}

/// A kernel with a `.branchtargets` list of `n` labels: `first` written
/// before the labels, `each` after every label.
fn labelled_table(n: usize, first: &str, each: &str) -> Vec<u8> {
    let mut s = HEADER.to_string();
    s.push_str(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tts: .branchtargets ");
    let labels: Vec<String> = (0..n).map(|i| format!("L{i}")).collect();
    s.push_str(&labels.join(", "));
    s.push_str(";\n");
    s.push_str(first);
    for l in &labels {
        s.push_str(&format!("{l}:\n{each}"));
    }
    s.push_str("\tret;\n}\n");
    s.into_bytes()
}

/// A kernel whose one `brx.idx` picks among `n` labels of a
/// `.branchtargets` list.
fn jump_table(n: usize) -> Vec<u8> {
    labelled_table(n, "\tbrx.idx %r1, ts;\n", "\tadd.s32 %r1, %r1, 1;\n")
}

/// `ptx resources` and `ptx cfg` on one `brx.idx` with a long target list:
/// the CFG removed duplicate targets with a linear search per target
/// (quadratic: 200,000 targets took 10 s in the tests' build).
#[test]
fn jump_table_linear_in_its_targets() {
    for cmd in ["resources", "cfg"] {
        let small = limited(&[os(cmd), os("-")], &jump_table(20_000));
        let big = limited(&[os(cmd), os("-")], &jump_table(200_000));
        assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
        linear(&format!("{cmd} of a jump table"), &small, &big);
    }
}

/// A kernel whose `n` `brx.idx` instructions all pick among the same `n`
/// labels of one `.branchtargets` list: n × n edges, from a file of O(n)
/// bytes.
fn shared_jump_tables(n: usize) -> Vec<u8> {
    labelled_table(n, "", "\tbrx.idx %r1, ts;\n")
}

/// `ptx cfg` and `ptx resources` when many `brx.idx` share one list: the
/// graph held (and `ptx cfg` printed) every one of the k × m edges (2,000
/// × 2,000, a 62 KB file: 217 MB printed, 725 MB peak). The edges past
/// the budget (docs/limits.md) are now left out and counted.
#[test]
fn shared_jump_tables_bounded() {
    for cmd in ["cfg", "resources"] {
        let small = limited(&[os(cmd), os("-")], &shared_jump_tables(400));
        let big = limited(&[os(cmd), os("-")], &shared_jump_tables(4_000));
        assert_eq!(small.code, Some(0), "{}", head(&small.stderr));
        assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
        linear(&format!("{cmd} of shared jump tables"), &small, &big);
        if cmd == "cfg" {
            let said = |r: &Limited| String::from_utf8_lossy(&r.stdout).contains("left out");
            assert!(!said(&small), "160,000 edges are within the budget");
            assert!(said(&big), "16 M edges are past it, and it is said");
        }
    }
}

/// A kernel of `n` blocks, each adding into a register of its own and
/// branching back to the block before it (`back`) or forward past the next
/// one: every register of the chain is live across the blocks after it.
fn register_chain(n: usize, back: bool) -> Vec<u8> {
    let mut s = HEADER.to_string();
    s.push_str(&format!(
        ".visible .entry k(.param .u32 p)\n{{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<{}>;\n\tld.param.u32 %r0, [p];\n\tsetp.eq.u32 %p1, %r0, 0;\n",
        n + 2
    ));
    for k in 0..n {
        s.push_str(&format!("L{k}:\n\tadd.u32 %r{}, %r{k}, 1;\n", k + 1));
        if back && k > 0 {
            s.push_str(&format!("\t@%p1 bra L{};\n", k - 1));
        } else if !back {
            s.push_str(&format!("\t@%p1 bra L{};\n", (k + 2).min(n)));
        }
    }
    s.push_str(&format!("L{n}:\n\tret;\n}}\n"));
    s.into_bytes()
}

/// `ptx resources` solves liveness with a set of every register per
/// block, sweeping until nothing changes: blocks that each branch back to
/// the one before took a sweep per block, cubic (8,000 blocks, 400 KB:
/// 17.6 s), and forward branches took blocks × registers of memory. Past
/// the budget the peak is not estimated, and it is said.
#[test]
fn resources_liveness_bounded() {
    // The sweeps of 4,000 blocks chained back, and the sets of 10,000
    // blocks × 10,000 registers, are past the budget.
    for (back, n) in [(true, 400), (false, 1_000)] {
        let small = limited(&[os("resources"), os("-")], &register_chain(n, back));
        let big = limited(&[os("resources"), os("-")], &register_chain(10 * n, back));
        assert_eq!(small.code, Some(0), "{}", head(&small.stderr));
        assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
        linear(
            &format!("resources of a register chain (back: {back})"),
            &small,
            &big,
        );
        let said = |r: &Limited| String::from_utf8_lossy(&r.stdout).contains("not estimated");
        assert!(!said(&small), "{n} blocks are within the budget");
        assert!(said(&big), "{} blocks are past it, and it is said", 10 * n);
    }
}

/// A kernel of `n` additions drawn from `seed`: two seeds give two
/// unrelated bodies of the same shape.
fn random_body(n: usize, seed: u64) -> Vec<u8> {
    let mut s = HEADER.to_string();
    s.push_str(".visible .entry k()\n{\n\t.reg .b32 %r<100>;\n");
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s.push_str(&format!(
            "\tadd.s32 %r{}, %r{}, {};\n",
            x % 100,
            (x >> 8) % 100,
            (x >> 16) % 1000
        ));
    }
    s.push_str("\tret;\n}\n");
    s.into_bytes()
}

/// `ptx diff` of two unrelated bodies: Myers' alignment is quadratic when
/// nearly every line differs (20,000 lines took 10 s in a debug build);
/// past `MAX_EDITS` the middle is shown as one replaced run.
#[test]
fn diff_linear_in_unrelated_bodies() {
    let run = |n: usize| {
        let a = temp(&format!("diff-a-{n}.ptx"), &random_body(n, 1));
        let b = temp(&format!("diff-b-{n}.ptx"), &random_body(n, 2));
        limited(&[os("diff"), a.as_os_str(), b.as_os_str()], b"")
    };
    let (small, big) = (run(3_000), run(30_000));
    assert_eq!(big.code, Some(1), "{}", head(&big.stderr));
    linear("diff of unrelated bodies", &small, &big);
}

/// `n` small device functions.
fn many_functions(n: usize) -> Vec<u8> {
    let mut s = HEADER.to_string();
    for i in 0..n {
        s.push_str(&format!(
            ".func f{i}()\n{{\n\t.reg .b32 %r<9>;\n\tadd.s32 %r1, %r2, %r{};\n\tret;\n}}\n",
            i % 7 + 1
        ));
    }
    s.into_bytes()
}

/// `ptx diff` of a module with itself worked out the resources of every
/// function of both before it found that none had changed: 3.2 times the
/// memory of `ptx summary` of the module (about 90 times the input). The
/// resources are worked out only when functions changed, and kept only
/// for those.
#[test]
fn diff_of_equal_modules_works_out_no_resources() {
    let f = temp("diff-equal.ptx", &many_functions(60_000));
    let summary = limited(&[os("summary"), f.as_os_str()], b"");
    let diff = limited(&[os("diff"), f.as_os_str(), f.as_os_str()], b"");
    assert_eq!(diff.code, Some(0), "{}", head(&diff.stderr));
    eprintln!(
        "summary {} MB, diff with itself {} MB",
        summary.rss_kb / 1024,
        diff.rss_kb / 1024
    );
    assert!(
        diff.rss_kb < summary.rss_kb * 2 + 16 * 1024,
        "diff of equal modules: {} KB against summary's {} KB",
        diff.rss_kb,
        summary.rss_kb
    );
}

/// A CUDA source of one kernel with `n` `asm` statements.
fn many_asm(n: usize) -> Vec<u8> {
    let mut s = String::from("__global__ void k(int x)\n{\n");
    for i in 0..n {
        s.push_str(&format!(
            "  asm volatile(\"add.s32 %0, %0, {i};\" : \"+r\"(x));\n"
        ));
    }
    s.push_str("}\n");
    s.into_bytes()
}

/// `ptx check-asm` on 50,000 `asm` statements (2.5 MB): each statement
/// held its own three copies of the names of every target it is compiled
/// for, checked for and accepted on (about 50 each): 7.5 KB a statement,
/// about 400 MB here. The lists are shared now.
#[test]
fn check_asm_memory_per_statement() {
    let small = limited(&[os("check-asm"), os("-q"), os("-")], &many_asm(5_000));
    let big = limited(&[os("check-asm"), os("-q"), os("-")], &many_asm(50_000));
    assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
    linear("check-asm of many statements", &small, &big);
    assert!(
        big.rss_kb < 200 * 1024,
        "check-asm of 50,000 statements: peak RSS {} MB",
        big.rss_kb / 1024
    );
}

/// `ptx check-asm --json` on 50,000 `asm` statements: the document was
/// built as one `serde_json::Value` (each statement with its lists of
/// targets) before it was printed: 160 MB of JSON took 800 MB. Its two
/// lists are now written out a statement at a time.
#[test]
fn check_asm_json_in_bounded_memory() {
    let run = |n| {
        limited_with(
            &[os("check-asm"), os("--json"), os("-")],
            &many_asm(n),
            false,
        )
    };
    let (small, big) = (run(5_000), run(50_000));
    assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
    assert!(big.out_bytes > 100_000_000, "{} bytes", big.out_bytes);
    linear("check-asm --json of many statements", &small, &big);
    assert!(
        big.rss_kb < 200 * 1024,
        "check-asm --json of 50,000 statements: peak RSS {} MB",
        big.rss_kb / 1024
    );
}

/// One `ld` with `n` `.global` modifiers.
fn many_modifiers(n: usize) -> Vec<u8> {
    module(&format!(
        ".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\nld{}.u32 %r1, [%rd1];\nret;",
        ".global".repeat(n)
    ))
}

/// `ptx grep` with a pattern of a few `*`s: the matcher tried every split
/// of the modifiers among the `*`s (4 of them against 2,000 modifiers ran
/// for over a minute); it is O(components × modifiers) now.
#[test]
fn grep_linear_in_modifiers() {
    let pat = "ld.*.global.*.global.*.global.*.zz";
    let small = limited(&[os("grep"), os(pat), os("-")], &many_modifiers(300));
    let big = limited(&[os("grep"), os(pat), os("-")], &many_modifiers(3_000));
    assert_eq!(big.code, Some(1), "{}", head(&big.stderr));
    linear("grep of many modifiers", &small, &big);
}

/// `ptx explain` of an opcode followed by `n` modifiers: every prefix of
/// the query was joined and looked up as an instruction name (40,000
/// modifiers took 3.4 s in a release build).
#[test]
fn explain_linear_in_modifiers() {
    let query = |n: usize| format!("ld{}", ".v4".repeat(n));
    let small = limited(&[os("explain"), os(&query(1_000))], b"");
    let big = limited(&[os("explain"), os(&query(40_000))], b"");
    assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
    linear("explain of many modifiers", &small, &big);
}

/// A module of `n` globals named `{prefix}0`, `{prefix}1`, … and one kernel.
fn many_globals(n: usize, prefix: &str) -> Vec<u8> {
    let mut s = HEADER.to_string();
    for i in 0..n {
        s.push_str(&format!(".global .u32 {prefix}{i};\n"));
    }
    s.push_str(".visible .entry k() { ret; }\n");
    s.into_bytes()
}

/// `ptx diff` of two modules whose globals all differ: each global was
/// looked for in the other module's list (two modules of 50,000 took
/// 7.6 s in a debug build).
#[test]
fn diff_linear_in_globals() {
    let run = |n: usize| {
        let a = temp(&format!("globals-a-{n}.ptx"), &many_globals(n, "a"));
        let b = temp(&format!("globals-b-{n}.ptx"), &many_globals(n, "b"));
        limited(&[os("diff"), a.as_os_str(), b.as_os_str()], b"")
    };
    let (small, big) = (run(10_000), run(100_000));
    assert_eq!(big.code, Some(1), "{}", head(&big.stderr));
    linear("diff of many globals", &small, &big);
}

/// A kernel declaring `n` plain registers, then `n` register ranges, then
/// using a register of each range and one past each range's end.
fn many_ranges(n: usize) -> Vec<u8> {
    let mut body = String::new();
    for i in 0..n {
        body.push_str(&format!("\t.reg .u32 r{i};\n"));
    }
    for i in 0..n {
        body.push_str(&format!("\t.reg .u32 %q{i}_<2>;\n"));
    }
    for i in 0..n {
        body.push_str(&format!("\tadd.u32 %q{i}_1, %q{i}_0, 1;\n"));
        body.push_str(&format!("\tadd.u32 %q{i}_2, %q{i}_0, 1;\n"));
    }
    module(&format!("{body}\tret;"))
}

/// `ptx check` of a function with many register ranges: each range was
/// compared with every plain name of its scope, and each register looked
/// for among every range (20,000 of each: 5 s; 100,000: 152 s).
#[test]
fn check_linear_in_register_ranges() {
    let args = [os("check"), os("--max-errors"), os("5"), os("-")];
    let small = limited(&args, &many_ranges(2_000));
    let big = limited(&args, &many_ranges(20_000));
    assert_eq!(big.code, Some(1), "{}", head(&big.stderr));
    assert!(big.stdout.len() + big.stderr.len() > 0);
    linear("check of many register ranges", &small, &big);
}

/// A kernel of `n` sibling blocks, each declaring a parameter and calling
/// a function with it.
fn many_blocks(n: usize) -> Vec<u8> {
    let mut s = format!("{HEADER}.func f(.param .u32 a);\n.visible .entry k()\n{{\n");
    s.push_str("\t.reg .u32 %r<2>;\n");
    for _ in 0..n {
        s.push_str("\t{\n\t.param .u32 x;\n\tst.param.u32 [x], %r1;\n\tcall f, (x);\n\t}\n");
    }
    s.push_str("\tret;\n}\n.func f(.param .u32 a)\n{\n\tret;\n}\n");
    s.into_bytes()
}

/// `ptx resources` of a function of many blocks: the register table
/// looked each name up block by block (20,000 blocks: 2.6 s; 100,000:
/// over a minute); the blocks are one index now.
#[test]
fn resources_linear_in_blocks() {
    let args = [os("resources"), os("-")];
    let small = limited(&args, &many_blocks(3_000));
    let big = limited(&args, &many_blocks(30_000));
    assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
    linear("resources of many blocks", &small, &big);
}

#[path = "../../ptxkit/tests/support/self_referring_macros.rs"]
mod self_referring;
use self_referring::self_referring_macros;

/// `ptx check-asm` of macros that expand to the bounds at every use: each
/// argument was expanded again at each use of its parameter, and nothing
/// bounded a file's expansions in all (400 copies, 121 KB: 36 s). One
/// warning (E0906) says where expansions were first given up.
#[test]
fn check_asm_linear_in_macro_expansions() {
    let args = [os("check-asm"), os("--max-errors"), os("0"), os("-")];
    let small = limited(&args, &self_referring_macros(40));
    let big = limited(&args, &self_referring_macros(400));
    assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
    linear("check-asm of self-referring macros", &small, &big);
    assert_eq!(
        big.stderr.matches("[E0906]").count(),
        1,
        "{}",
        head(&big.stderr)
    );
}

/// A kernel of `n` `bar.sync` with distinct barrier ids.
fn many_barrier_ids(n: usize) -> Vec<u8> {
    let body: String = (0..n).map(|i| format!("\tbar.sync {i};\n")).collect();
    module(&format!("{body}\tret;"))
}

/// `ptx resources` listing the barrier ids of a kernel: each id was looked
/// for among those already seen (300,000 distinct ids took 10 s).
#[test]
fn resources_linear_in_barrier_ids() {
    let small = limited(&[os("resources"), os("-")], &many_barrier_ids(30_000));
    let big = limited(&[os("resources"), os("-")], &many_barrier_ids(300_000));
    assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
    linear("resources of many barrier ids", &small, &big);
}

/// A fatbin of `n` containers of one uncompressed PTX entry each.
fn many_containers(n: usize) -> Vec<u8> {
    let ptx = format!("{HEADER}.visible .entry k() {{ ret; }}\n");
    let mut payload = ptx.into_bytes();
    payload.resize(payload.len().div_ceil(8) * 8 + 8, 0);
    let mut entry = Vec::new();
    entry.extend(1u16.to_le_bytes());
    entry.extend(0x0101u16.to_le_bytes());
    entry.extend(64u32.to_le_bytes());
    entry.extend((payload.len() as u64).to_le_bytes());
    entry.extend([0; 8]);
    entry.extend(0u16.to_le_bytes());
    entry.extend(8u16.to_le_bytes());
    entry.extend(90u32.to_le_bytes());
    entry.extend([0; 8]);
    entry.extend(0x11u64.to_le_bytes());
    entry.extend([0; 16]);
    entry.extend(&payload);
    let mut out = Vec::new();
    for _ in 0..n {
        out.extend(0xBA55_ED50u32.to_le_bytes());
        out.extend(1u16.to_le_bytes());
        out.extend(16u16.to_le_bytes());
        out.extend((entry.len() as u64).to_le_bytes());
        out.extend(&entry);
    }
    out
}

/// An x86-64 ELF object whose section table names `fatbin` as
/// `.nv_fatbin` `repeats` times.
fn elf_with_repeated_sections(fatbin: &[u8], repeats: usize) -> Vec<u8> {
    let names = b"\0.shstrtab\0.nv_fatbin\0";
    let mut f = vec![0u8; 64];
    let names_at = f.len();
    f.extend(names);
    while !f.len().is_multiple_of(8) {
        f.push(0);
    }
    let fat_at = f.len();
    f.extend(fatbin);
    while !f.len().is_multiple_of(8) {
        f.push(0);
    }
    let sh_at = f.len();
    let section = |f: &mut Vec<u8>, name: u32, ty: u32, off: usize, size: usize| {
        f.extend(name.to_le_bytes());
        f.extend(ty.to_le_bytes());
        f.extend(0u64.to_le_bytes());
        f.extend(0u64.to_le_bytes());
        f.extend((off as u64).to_le_bytes());
        f.extend((size as u64).to_le_bytes());
        f.extend([0; 8]);
        f.extend(8u64.to_le_bytes());
        f.extend(0u64.to_le_bytes());
    };
    section(&mut f, 0, 0, 0, 0);
    section(&mut f, 1, 3, names_at, names.len());
    for _ in 0..repeats {
        section(&mut f, 11, 1, fat_at, fatbin.len());
    }
    let shnum = (repeats + 2) as u16;
    let h = &mut f[..64];
    h[..4].copy_from_slice(b"\x7fELF");
    h[4] = 2;
    h[5] = 1;
    h[6] = 1;
    h[16..18].copy_from_slice(&1u16.to_le_bytes());
    h[18..20].copy_from_slice(&62u16.to_le_bytes());
    h[20..24].copy_from_slice(&1u32.to_le_bytes());
    h[40..48].copy_from_slice(&(sh_at as u64).to_le_bytes());
    h[52..54].copy_from_slice(&64u16.to_le_bytes());
    h[58..60].copy_from_slice(&64u16.to_le_bytes());
    h[60..62].copy_from_slice(&shnum.to_le_bytes());
    h[62..64].copy_from_slice(&1u16.to_le_bytes());
    f
}

/// `ptx check` on a binary of many PTX entries: every entry re-read every
/// header (quadratic: 40,000 one-entry containers took over a minute).
#[test]
fn binary_check_linear_in_its_entries() {
    let small = temp("entries-small.fatbin", &many_containers(400));
    let big = temp("entries-big.fatbin", &many_containers(4_000));
    let s = limited(&[os("check"), os("-q"), small.as_os_str()], b"");
    let b = limited(&[os("check"), os("-q"), big.as_os_str()], b"");
    assert_eq!(b.code, Some(0), "{}", head(&b.stderr));
    linear("check of a binary's entries", &s, &b);
}

/// An ELF that repeats its `.nv_fatbin` section header: each byte is read
/// once (60,000 repeats hung; cuobjdump takes 0.01 s).
#[test]
fn repeated_section_headers_read_once() {
    let fat = many_containers(4);
    let small = temp("repeat-small.o", &elf_with_repeated_sections(&fat, 6_000));
    let big = temp("repeat-big.o", &elf_with_repeated_sections(&fat, 60_000));
    let s = limited(&[os("extract"), os("--list"), small.as_os_str()], b"");
    let b = limited(&[os("extract"), os("--list"), big.as_os_str()], b"");
    assert_eq!(b.code, Some(0), "{}", head(&b.stderr));
    let listed = String::from_utf8_lossy(&b.stdout);
    assert_eq!(listed.matches("sm_90").count(), 4, "{listed}");
    linear("ELF with repeated section headers", &s, &b);
}

// The decompression bomb's builder, shared with ptxkit's `tests/memory.rs`.
#[path = "../../ptxkit/tests/support/zstd_bomb.rs"]
mod zstd_bomb;
use zstd_bomb::zstd_bomb;

/// A 160 KB fatbin claiming 5 GiB: "entry too large" at once, for `check`
/// and `extract` (which cost 5.3 GB and said "corrupt zstd payload").
#[test]
fn decompression_bomb_is_entry_too_large() {
    let bomb = zstd_bomb(40_000, 40_000 * (128 << 10));
    let path = temp("bomb.fatbin", &bomb);
    let out = dir().join("bomb-out");
    for args in [
        vec![os("check"), path.as_os_str()],
        vec![os("extract"), os("-o"), out.as_os_str(), path.as_os_str()],
    ] {
        let r = limited(&args, b"");
        assert!(r.stderr.contains("entry too large"), "{}", head(&r.stderr));
        assert_ne!(r.code, Some(0));
        assert!(r.rss_kb < 256 * 1024, "{} KiB", r.rss_kb);
    }
    // 300 MiB, under the limit: extracted to disk in a constant memory.
    let ok = zstd_bomb(2_400, 2_400 * (128 << 10));
    let path = temp("big-entry.fatbin", &ok);
    let r = limited(
        &[os("extract"), os("-o"), out.as_os_str(), path.as_os_str()],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    assert!(r.rss_kb < 256 * 1024, "extract held {} KiB", r.rss_kb);
    let _ = std::fs::remove_dir_all(&out);
}

/// A wheel of `members`: (name, bytes, deflated).
fn wheel(members: &[(String, Vec<u8>, bool)]) -> Vec<u8> {
    use std::io::Write;
    use zip::write::SimpleFileOptions;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes, deflated) in members {
        let method = if *deflated {
            zip::CompressionMethod::Deflated
        } else {
            zip::CompressionMethod::Stored
        };
        let opts = SimpleFileOptions::default()
            .compression_method(method)
            .large_file(bytes.len() > u32::MAX as usize / 2);
        w.start_file(name.as_str(), opts).expect("member");
        w.write_all(bytes).expect("member bytes");
    }
    w.finish().expect("wheel").into_inner()
}

/// `ptx compat` on a wheel of many small members: each member read the
/// wheel's whole central directory again (8,000 members: 10.7 s, 16,000:
/// over 60).
#[test]
fn compat_linear_in_wheel_members() {
    let run = |n: usize| {
        let members: Vec<_> = (0..n)
            .map(|i| (format!("pkg/f{i}"), vec![0x7f, b'E', b'L', b'F', 2], false))
            .collect();
        let p = temp(&format!("many-{n}-0.1-py3-none-any.whl"), &wheel(&members));
        limited(&[os("compat"), p.as_os_str()], b"")
    };
    let (small, big) = (run(1_000), run(10_000));
    assert!(big.code.is_some(), "{}", head(&big.stderr));
    linear("compat of a wheel of many members", &small, &big);
}

/// A wheel member that says it inflates to 4 GiB: its size was reserved
/// before reading (an abort under the address-space limit), and a member
/// that does inflate far (a deflate bomb: 1 GiB from a 1 MB wheel) was
/// held whole in memory. Now a large member goes to a temporary file.
#[test]
fn compat_of_wheel_members_in_bounded_memory() {
    // Stored, then its sizes patched to claim 4 GiB - 1.
    let mut lying = wheel(&[("pkg/lib.so".into(), elf_zeros(64), false)]);
    let claim = u32::MAX.to_le_bytes();
    for (sig, at) in [(b"PK\x03\x04", 22), (b"PK\x01\x02", 24)] {
        let k = lying.windows(4).position(|w| w == sig).expect("zip header");
        lying[k + at..k + at + 4].copy_from_slice(&claim);
    }
    let p = temp("lying-0.1-py3-none-any.whl", &lying);
    let r = limited(&[os("compat"), p.as_os_str()], b"");
    assert!(
        matches!(r.code, Some(0..=2)),
        "{:?} {}",
        r.code,
        head(&r.stderr)
    );
    assert!(r.rss_kb < 128 * 1024, "{} KiB", r.rss_kb);
    // 192 MiB of an ELF's magic and zeros, deflated to about 190 KB.
    let bomb = wheel(&[("pkg/lib.so".into(), elf_zeros(192 << 20), true)]);
    let p = temp("bomb-0.1-py3-none-any.whl", &bomb);
    let r = limited(&[os("compat"), p.as_os_str()], b"");
    assert!(
        matches!(r.code, Some(0..=2)),
        "{:?} {}",
        r.code,
        head(&r.stderr)
    );
    assert!(r.rss_kb < 128 * 1024, "held {} KiB", r.rss_kb);
    let _ = std::fs::remove_file(&p);
}

/// `check-asm` of a file that includes a header larger than all headers
/// may be (256 MiB): it was read whole before its size was looked at (a
/// 2 GB sparse header: 2.1 GB and 17 s), then dropped.
#[test]
fn check_asm_does_not_read_an_oversized_header() {
    let d = dir().join("big-header");
    let _ = std::fs::create_dir_all(&d);
    let h = d.join("huge.h");
    let f = std::fs::File::create(&h).expect("header");
    f.set_len(300 << 20).expect("sparse header");
    let cu = d.join("k.cu");
    std::fs::write(
        &cu,
        "#include \"huge.h\"\n__global__ void k() { asm volatile(\"membar.gl;\"); }\n",
    )
    .expect("source");
    let r = limited(&[os("check-asm"), cu.as_os_str()], b"");
    assert!(matches!(r.code, Some(0..=1)), "{}", head(&r.stderr));
    assert!(r.rss_kb < 128 * 1024, "held {} KiB", r.rss_kb);
    let _ = std::fs::remove_dir_all(&d);
}

/// A directory nested deeper than the system's longest path (4,096
/// bytes) beside a file with an error: the walk stopped at the first
/// directory it could not read ("File name too long"), so `ptx check DIR`
/// reported that alone and never the file's error. Now the deep one is
/// reported as skipped and the file is checked.
#[test]
fn a_walk_goes_on_past_an_unreadable_directory() {
    use std::ffi::CString;
    let d = dir().join("deep-walk");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("dir");
    std::fs::write(
        d.join("bad.ptx"),
        format!("{HEADER}.visible .entry k() {{ frobnicate; }}\n"),
    )
    .expect("bad.ptx");
    let name = CString::new("d").expect("name");
    let top = CString::new(d.as_os_str().as_encoded_bytes()).expect("path");
    // SAFETY: plain calls on descriptors this test opens and closes.
    unsafe {
        let mut fd = libc::open(top.as_ptr(), libc::O_DIRECTORY | libc::O_RDONLY);
        assert!(fd >= 0);
        for _ in 0..2_100 {
            assert_eq!(libc::mkdirat(fd, name.as_ptr(), 0o755), 0);
            let next = libc::openat(fd, name.as_ptr(), libc::O_DIRECTORY | libc::O_RDONLY);
            libc::close(fd);
            assert!(next >= 0);
            fd = next;
        }
        libc::close(fd);
    }
    let r = limited(&[os("check"), d.as_os_str()], b"");
    assert_eq!(r.code, Some(1), "{}", head(&r.stderr));
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(
        out.contains("frobnicate") || r.stderr.contains("frobnicate"),
        "{out}\n{}",
        head(&r.stderr)
    );
    assert!(r.stderr.contains("skipped"), "{}", head(&r.stderr));
    // `rm -r` would hit the same limit: remove from the bottom up.
    let _ = std::process::Command::new("rm").arg("-rf").arg(&d).status();
}

/// `n` bytes: an ELF's magic, then zeros.
fn elf_zeros(n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    v[..4].copy_from_slice(b"\x7fELF");
    v
}

/// A directory that links to itself: the walk does not follow it.
#[test]
fn symlink_loop_in_a_directory_walk() {
    let d = dir().join("loop");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("sub")).expect("mkdir");
    std::fs::write(d.join("sub/a.ptx"), module("\tret;\n")).expect("write");
    std::os::unix::fs::symlink(&d, d.join("sub/back")).expect("symlink");
    let r = limited(&[os("check"), d.as_os_str()], b"");
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    assert!(r.time < Duration::from_secs(10));
}

/// One kernel of `n` lines `line` after the declarations `decls`.
fn one_kernel(n: usize, decls: &str, line: &str) -> Vec<u8> {
    let mut s = format!("{HEADER}.visible .entry k() {{\n{decls}");
    for _ in 0..n {
        s.push_str(line);
    }
    s.push_str("}\n");
    s.into_bytes()
}

/// `ptx check --max-errors 0` on `one_kernel(n, decls, line)` at 20,000
/// and 200,000 lines (three errors a line), in each of `formats`: time and
/// memory linear, the large run's peak under `max_mb`, and every error
/// reported (counted in the text summary, or over 100 MB of output).
fn every_error_in_bounded_memory(
    name: &str,
    decls: &str,
    line: &str,
    formats: &[&str],
    max_mb: i64,
) {
    let small = temp(
        &format!("{name}-small.ptx"),
        &one_kernel(20_000, decls, line),
    );
    let big = temp(
        &format!("{name}-big.ptx"),
        &one_kernel(200_000, decls, line),
    );
    for format in formats {
        let run = |p: &Path| {
            limited_with(
                &[
                    os("check"),
                    os("--format"),
                    os(format),
                    os("--max-errors"),
                    os("0"),
                    p.as_os_str(),
                ],
                b"",
                false,
            )
        };
        let (s, b) = (run(&small), run(&big));
        assert_eq!(b.code, Some(1), "{format}: {}", head(&b.stderr));
        if *format == "text" {
            assert!(b.stderr.contains("600,000 errors"), "{}", head(&b.stderr));
        } else {
            assert!(b.out_bytes > 100_000_000, "{format}: {} bytes", b.out_bytes);
        }
        linear(
            &format!("{name}: check --format {format} --max-errors 0"),
            &s,
            &b,
        );
        assert!(
            b.rss_kb < max_mb * 1024,
            "{name}, {format}: peak RSS {} MB for a 4.2 MB input",
            b.rss_kb / 1024
        );
    }
}

/// `ptx check --max-errors 0` in every format on 600,000 errors (4.2 MB)
/// reported where they are found (registers declared, of another type):
/// each report was built whole before it was printed, the JSON one as a
/// `serde_json::Value` per diagnostic, and the diagnostics were all held
/// (2.4 GB for JSON, 0.85–1 GB for the others, on 1.2 million errors).
/// Now they are sorted in runs on disk and each report is written out
/// as it is made.
#[test]
fn reports_of_every_error_in_bounded_memory() {
    every_error_in_bounded_memory(
        "errors",
        ".reg .b32 %r<4>;\n",
        "add.f64 %r1,%r2,%r3;\n",
        &["json", "sarif", "text", "github"],
        100,
    );
}

/// `ptx check --max-errors 0` where every error waits for the body's end
/// (registers never declared: each use may be a label defined further on):
/// the 600,000 uses were held as built diagnostics, about 850 bytes each
/// (0.55 GB). Past 16,384 of them the oldest are written to disk and read
/// back as the body ends.
#[test]
fn held_uses_of_every_error_in_bounded_memory() {
    every_error_in_bounded_memory(
        "unknown",
        "",
        "add.s32 %r1,%r2,%r3;\n",
        &["text", "json"],
        120,
    );
}

/// Silently wrong before: a 65,537-token asm statement was skipped with
/// exit 0; a NUL in a `.cu` file was "not PTX text"; `.b8 a[2^64-1]` was
/// "unsized".
#[test]
fn answers_that_were_silently_wrong() {
    let operands = vec!["\"r\"(a)"; 40_000].join(",");
    let cu = format!("void f() {{ asm volatile(\"mov.u32 %0, 1;\" : \"=r\"(x) : {operands}); }}\n");
    let p = temp("long.cu", cu.as_bytes());
    let r = limited(&[os("check-asm"), p.as_os_str()], b"");
    assert_eq!(r.code, Some(1), "{}", head(&r.stderr));
    let all = format!("{}{}", String::from_utf8_lossy(&r.stdout), r.stderr);
    assert!(all.contains("E0905"), "{}", head(&all));

    let p = temp("nul.cu", b"int x;\0 int y;\n");
    let r = limited(&[os("check-asm"), p.as_os_str()], b"");
    assert!(r.stderr.contains("not C++ source text"), "{}", r.stderr);

    let src = format!("{HEADER}.global .b8 arr[18446744073709551615];\n");
    let r = limited(&[os("summary"), os("--json"), os("-")], src.as_bytes());
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).expect("JSON");
    assert_eq!(v["unsized_data"], serde_json::json!([]), "{v}");
    assert_eq!(
        v["data_bytes"][".global"],
        serde_json::json!(u64::MAX),
        "{v}"
    );
}

/// Frame `body` for the language server.
fn framed(body: &[u8]) -> Vec<u8> {
    let mut m = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    m.extend(body);
    m
}

fn rpc(v: serde_json::Value) -> Vec<u8> {
    framed(&serde_json::to_vec(&v).expect("JSON"))
}

/// The JSON messages of a server's output.
fn messages(out: &[u8]) -> Vec<serde_json::Value> {
    let mut v = Vec::new();
    let mut rest = out;
    while let Some(at) = rest.windows(4).position(|w| w == b"\r\n\r\n") {
        let head = String::from_utf8_lossy(&rest[..at]).into_owned();
        let n: usize = head
            .rsplit("Content-Length: ")
            .next()
            .and_then(|x| x.trim().parse().ok())
            .expect("a Content-Length");
        let body = &rest[at + 4..at + 4 + n];
        v.push(serde_json::from_slice(body).expect("a JSON message"));
        rest = &rest[at + 4 + n..];
    }
    v
}

fn initialize() -> Vec<u8> {
    initialize_with(serde_json::Value::Null)
}

/// [`initialize`] with these `initializationOptions` (none when null).
fn initialize_with(options: serde_json::Value) -> Vec<u8> {
    let mut s = rpc(
        serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"processId": null, "rootUri": null, "capabilities": {},
            "initializationOptions": options}}),
    );
    s.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ));
    s
}

fn shutdown(id: i64) -> Vec<u8> {
    let mut s = rpc(serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "shutdown"}));
    s.extend(rpc(serde_json::json!({"jsonrpc": "2.0", "method": "exit"})));
    s
}

/// Every malformed message gets a JSON-RPC error and the server goes on:
/// a `Content-Length` of 10^12 (it allocated what the header said), an
/// endless header line (an abort), invalid JSON, invalid UTF-8, a bad
/// `Content-Length` (each ended the server).
#[test]
fn lsp_answers_malformed_messages_and_goes_on() {
    let mut s = initialize();
    s.extend(framed(b"{not json"));
    s.extend(framed(b"\xff\xfe not UTF-8"));
    s.extend(b"Content-Length: lots\r\n\r\n");
    s.extend(format!("X-Long: {}\r\n\r\n", "a".repeat(1 << 20)).as_bytes());
    s.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "id": 5, "method": "workspace/symbol",
        "params": {"query": ""}}),
    ));
    s.extend(shutdown(6));
    let input = s;
    let r = limited(&[os("lsp")], &input);
    let got = messages(&r.stdout);
    let codes: Vec<i64> = got
        .iter()
        .filter_map(|m| m["error"]["code"].as_i64())
        .collect();
    assert_eq!(codes, vec![-32700, -32700, -32700, -32700], "{got:#?}");
    assert!(got
        .iter()
        .any(|m| m["id"] == 5 && m.get("result").is_some()));
    assert!(got.iter().any(|m| m["id"] == 6));
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    assert!(r.rss_kb < 512 * 1024, "{} KiB", r.rss_kb);

    // An endless header line, then the end of the input: a clean end.
    let mut input = initialize();
    input.extend(vec![b'a'; 64 << 20]);
    let r = limited(&[os("lsp")], &input);
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    assert!(r.rss_kb < 512 * 1024, "{} KiB", r.rss_kb);

    // A lying Content-Length, then the end: allocates nothing.
    let mut input = initialize();
    input.extend(b"Content-Length: 1000000000000\r\n\r\n{}");
    let r = limited(&[os("lsp")], &input);
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    assert!(r.rss_kb < 512 * 1024, "{} KiB", r.rss_kb);
}

/// A burst of edits is checked once: 1,000 `didChange` on a large
/// document queued 1,000 re-checks (a hover waited 101 s) and sent 1,001
/// diagnostics messages.
#[test]
fn lsp_coalesces_a_burst_of_edits() {
    let uri = "file:///tmp/big.ptx";
    let mut body = String::new();
    for i in 0..20_000 {
        body.push_str(&format!("\tadd.s32 %r1, %r2, {i};\n"));
    }
    let text = format!("{HEADER}.visible .entry k()\n{{\n\t.reg .b32 %r<3>;\n{body}\tret;\n}}\n");
    let mut input = initialize();
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1, "text": text}}}),
    ));
    for v in 2..1_002 {
        input.extend(rpc(
            serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": uri, "version": v},
                "contentChanges": [{"range": {"start": {"line": 7, "character": 1},
                    "end": {"line": 7, "character": 1}}, "text": " "}]}}),
        ));
    }
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": uri}, "position": {"line": 7, "character": 3}}}),
    ));
    input.extend(shutdown(10));
    let r = limited(&[os("lsp")], &input);
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    let got = messages(&r.stdout);
    let published: Vec<&serde_json::Value> = got
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .collect();
    eprintln!(
        "1,000 edits: {} diagnostics messages, {:.2} s",
        published.len(),
        r.time.as_secs_f64()
    );
    assert!(
        published.len() < 100,
        "{} diagnostics messages",
        published.len()
    );
    assert_eq!(
        published.last().map(|m| m["params"]["version"].clone()),
        Some(serde_json::json!(1001))
    );
    assert!(got
        .iter()
        .any(|m| m["id"] == 9 && m.get("result").is_some()));
}

/// One `didChange` of `n / 100` edits, one every 100 lines, on a document
/// of `n` lines that are not all ASCII, then a hover: each edit indexed
/// the whole text's lines again (1,000 edits on 12.7 MB: over 120 s).
fn lsp_many_edits(n: usize) -> Limited {
    lsp_edits_every(n, 100, false)
}

/// [`lsp_many_edits`] with an edit every `step` lines, in reverse
/// document order if `descending` (as VS Code sends a multi-cursor edit).
fn lsp_edits_every(n: usize, step: usize, descending: bool) -> Limited {
    let uri = "file:///tmp/edits.ptx";
    let mut body = String::new();
    for i in 0..n {
        body.push_str(&format!("\tadd.s32 %r1, %r2, {i}; // é\n"));
    }
    let text = format!("{HEADER}.visible .entry k()\n{{\n\t.reg .b32 %r<3>;\n{body}\tret;\n}}\n");
    let mut changes: Vec<serde_json::Value> = (0..n / step)
        .map(|k| {
            let line = 7 + step * k;
            serde_json::json!({"range": {"start": {"line": line, "character": 1},
                "end": {"line": line, "character": 1}}, "text": " "})
        })
        .collect();
    if descending {
        changes.reverse();
    }
    let mut input = initialize();
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1, "text": text}}}),
    ));
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes}}),
    ));
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": uri}, "position": {"line": 7, "character": 3}}}),
    ));
    input.extend(shutdown(10));
    let r = limited(&[os("lsp")], &input);
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    assert!(messages(&r.stdout)
        .iter()
        .any(|m| m["id"] == 9 && m.get("result").is_some()));
    r
}

/// Edits follow the line index in the lines they touch (and a shift of
/// the starts after them), not a new pass over the document.
#[test]
fn lsp_edits_linear_in_the_document() {
    let (small, big) = (lsp_many_edits(20_000), lsp_many_edits(200_000));
    eprintln!(
        "edits: small {:.2} s, large {:.2} s",
        small.time.as_secs_f64(),
        big.time.as_secs_f64()
    );
    assert!(big.time < GROWTH_TIMEOUT, "timed out");
    assert!(
        big.time <= small.time * 30 + Duration::from_millis(1500),
        "{:?} -> {:?}",
        small.time,
        big.time
    );
}

/// One `didChange` of an edit every 10 lines, in reverse document order:
/// applied one at a time, each moved the text after it and shifted its
/// line starts (20,000 edits on 8 MB: minutes). A batch in either
/// document order is now applied in one copy and indexed once.
#[test]
fn lsp_batch_of_edits_linear_in_the_document() {
    let (small, big) = (
        lsp_edits_every(20_000, 10, true),
        lsp_edits_every(200_000, 10, true),
    );
    linear("a batch of edits in reverse order", &small, &big);
}

/// A kernel of `n` forward branches, each to the next of `n` labels.
fn forward_branches(n: usize) -> Vec<u8> {
    let mut s = format!("{HEADER}.visible .entry k()\n{{\n\t.reg .pred %p<2>;\n");
    for i in 0..n {
        s.push_str(&format!("L{i}:\n\t@%p1 bra L{};\n", i + 1));
    }
    s.push_str(&format!("L{n}:\n\tret;\n}}\n"));
    s.into_bytes()
}

/// Silently wrong before: past the error cap's kept uses, names waiting
/// for a later label were counted by name only up to 65,536 distinct
/// names, and later ones were errors at once. A valid kernel of 200,000
/// forward branches (ptxas 13.5 accepts it) had "128,064 errors", none
/// of them shown.
#[test]
fn forward_branches_to_many_distinct_labels_are_valid() {
    let p = temp("forward.ptx", &forward_branches(200_000));
    let r = limited(&[os("check"), p.as_os_str()], b"");
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    assert!(r.stderr.contains("0 errors"), "{}", head(&r.stderr));
}

/// A kernel using `names` distinct undeclared names, then `blocks` nested
/// blocks, each using one more.
fn held_names_then_blocks(names: usize, blocks: usize) -> Vec<u8> {
    let mut s = format!("{HEADER}.visible .entry k()\n{{\n\t.reg .b32 %r<2>;\n");
    for i in 0..names {
        s.push_str(&format!("\tmov.b32 %r1, q{i};\n"));
    }
    for i in 0..blocks {
        s.push_str(&format!("\t{{ mov.b32 %r1, z{i}; }}\n"));
    }
    s.push_str("\tret;\n}\n");
    s.into_bytes()
}

/// Every block end read (and moved) every use counted so far in the body
/// (past the error cap's kept ones): 60,000 held names, then 50,000
/// blocks (2.8 MB) ran for over a minute. A block end now looks up its
/// own labels and merges the smaller table into the larger.
#[test]
fn check_linear_in_blocks_after_many_held_names() {
    let small = temp("held_s.ptx", &held_names_then_blocks(60_000, 5_000));
    let big = temp("held_b.ptx", &held_names_then_blocks(60_000, 50_000));
    let small = limited(&[os("check"), small.as_os_str()], b"");
    let big = limited(&[os("check"), big.as_os_str()], b"");
    assert_eq!(big.code, Some(1), "{}", head(&big.stderr));
    assert!(
        big.stderr.contains("110,000 errors"),
        "{}",
        head(&big.stderr)
    );
    linear("held names, then blocks", &small, &big);
}

/// Run `ptx args…` with stdin from `/dev/zero`, under the growth limits.
fn from_dev_zero(args: &[&std::ffi::OsStr]) -> Limited {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ptx"));
    cmd.args(args)
        .stdin(File::open("/dev/zero").expect("/dev/zero"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: only setrlimit, async-signal-safe, runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: AS_LIMIT,
                rlim_max: AS_LIMIT,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let t = Instant::now();
    let mut child = cmd.spawn().expect("run ptx");
    let pid = child.id() as libc::pid_t;
    let mut err = child.stderr.take().expect("stderr");
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let (status, rss_kb) = wait_child(pid, Some(GROWTH_TIMEOUT));
    let time = t.elapsed();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    std::mem::forget(child);
    Limited {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        stdout: Vec::new(),
        stderr,
        time,
        rss_kb,
        out_bytes: 0,
    }
}

/// An endless stream of NUL bytes, on stdin or as a path: read until the
/// allocator failed (2 GB under the 4 GiB limit, then "out of memory").
/// Its first 64 KiB settle it now: refused at once, in a few MB.
#[test]
fn dev_zero_is_refused_from_its_first_bytes() {
    for args in [
        vec![os("check"), os("-")],
        vec![os("fmt"), os("-")],
        vec![os("ast"), os("--json"), os("-")],
        vec![os("check-asm"), os("-")],
        vec![os("extract"), os("--list"), os("-")],
        vec![os("check"), os("/dev/zero")],
        vec![os("summary"), os("/dev/zero")],
    ] {
        let r = from_dev_zero(&args);
        eprintln!(
            "{args:?}: exit {:?}, {:.2} s, {} MB: {}",
            r.code,
            r.time.as_secs_f64(),
            r.rss_kb / 1024,
            head(&r.stderr)
        );
        assert!(
            matches!(r.code, Some(1 | 2)),
            "{args:?}: {}",
            head(&r.stderr)
        );
        assert!(
            r.stderr.contains("not PTX")
                || r.stderr.contains("not source text")
                || r.stderr.contains("not a CUDA binary"),
            "{args:?}: {}",
            head(&r.stderr)
        );
        assert!(r.rss_kb < 256 * 1024, "{args:?}: {} KiB", r.rss_kb);
    }
}

/// A FIFO (what `ptx check <(…)` names): the look for a CUDA binary's
/// magic read the first 4 bytes off the pipe, and the check that followed
/// saw `sion 8.0` ("not PTX").
#[test]
fn a_fifo_is_read_once() {
    let fifo = dir().join("input.fifo");
    let _ = std::fs::remove_file(&fifo);
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
    let text = module("\tret;");
    for cmd in ["check", "fmt"] {
        let path = fifo.clone();
        let data = text.clone();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .expect("open the FIFO");
            let _ = f.write_all(&data);
        });
        let r = limited(&[os(cmd), fifo.as_os_str()], b"");
        writer.join().expect("writer");
        assert_eq!(r.code, Some(0), "{cmd}: {}", head(&r.stderr));
    }
    let _ = std::fs::remove_file(&fifo);
}

/// A register named 1.5 million times (13 MB): `references` and
/// `documentHighlight` built a JSON tree of about 2.6 KB per place (twice:
/// `Response::new_ok` copied it), took the server past 4 GiB and aborted
/// it. Past `MAX_LOCATIONS` (100,000) the request fails with the count;
/// the server goes on, in bounded memory.
#[test]
fn lsp_references_of_a_name_used_a_million_times() {
    let uri = "file:///tmp/uses.ptx";
    let text = format!(
        "{HEADER}.visible .entry k()\n{{\n\t.reg .b32 %r<2>;\n{}\tret;\n}}\n",
        "\tadd.s32 %r1, %r1, %r1;\n".repeat(500_000)
    );
    let mut input = initialize();
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1, "text": text}}}),
    ));
    let at = serde_json::json!({"line": 6, "character": 10});
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/references",
        "params": {"textDocument": {"uri": uri}, "position": at,
            "context": {"includeDeclaration": true}}}),
    ));
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentHighlight",
        "params": {"textDocument": {"uri": uri}, "position": at}}),
    ));
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": uri}, "position": at}}),
    ));
    input.extend(shutdown(4));
    let r = limited(&[os("lsp")], &input);
    eprintln!(
        "references of 1.5 M uses: exit {:?}, {:.2} s, {} MB",
        r.code,
        r.time.as_secs_f64(),
        r.rss_kb / 1024
    );
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    let got = messages(&r.stdout);
    for id in [1, 2] {
        let m = got.iter().find(|m| m["id"] == id).expect("an answer");
        let msg = m["error"]["message"].as_str().unwrap_or_default();
        assert!(msg.contains("1500000 times"), "{m}");
    }
    assert!(got
        .iter()
        .any(|m| m["id"] == 3 && m.get("result").is_some()));
    assert!(got.iter().any(|m| m["id"] == 4));
    assert!(r.rss_kb < 1024 * 1024, "{} KiB", r.rss_kb);
}

/// `semanticTokens/full` stops at `MAX_FULL_BYTES` (4 MiB) of text, but a
/// `semanticTokens/range` over a whole document did not: over a 24 MB one
/// it answered 75 MB of JSON (the server peaked over 1 GB). A range is
/// clipped to the same amount of text from its start now.
#[test]
fn lsp_semantic_tokens_of_a_range_over_everything() {
    let uri = "file:///tmp/tokens.ptx";
    let lines = 300_000;
    let text = format!(
        "{HEADER}.visible .entry k()\n{{\n\t.reg .b32 %r<4>;\n{}\tret;\n}}\n",
        "\tadd.s32 %r1, %r2, %r3;\n".repeat(lines)
    );
    let mut input = initialize();
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1, "text": text}}}),
    ));
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/semanticTokens/range",
        "params": {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0},
            "end": {"line": lines + 10, "character": 0}}}}),
    ));
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/semanticTokens/full",
        "params": {"textDocument": {"uri": uri}}}),
    ));
    input.extend(shutdown(3));
    let r = limited(&[os("lsp")], &input);
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    let got = messages(&r.stdout);
    let data = |id: i64| {
        got.iter()
            .find(|m| m["id"] == id)
            .and_then(|m| m["result"]["data"].as_array().map(Vec::len))
            .expect("tokens")
    };
    // Five numbers a token, five tokens a line: the whole document is 7.5
    // million numbers (what the range answered); 4 MiB of text, 4.4.
    assert_eq!(data(1), data(2));
    assert!(data(1) < 5_000_000, "{}", data(1));
}

/// `ptx check --format sarif --max-errors 0` held every result as
/// `serde_sarif` structures (about 5 KB each) and the whole log as one
/// string: 200,000 errors (a 5 MB file) peaked at 1.3 GB, 800,000 ran out
/// of memory under 4 GiB and aborted. The log is written a result at a
/// time now (the same bytes: `report::sarif::tests`).
#[test]
fn sarif_of_many_errors_in_bounded_memory() {
    let src = module(&format!(
        "\t.reg .b32 %r<4>;\n{}",
        "\tadd.s32 %r1, %r2, 1.5;\n".repeat(200_000)
    ));
    let p = temp("errors.ptx", &src);
    let r = limited(
        &[
            os("check"),
            os("--format"),
            os("sarif"),
            os("--max-errors"),
            os("0"),
            p.as_os_str(),
        ],
        b"",
    );
    eprintln!(
        "SARIF of 200,000 errors: {:.2} s, {} MB, {} bytes",
        r.time.as_secs_f64(),
        r.rss_kb / 1024,
        r.stdout.len()
    );
    assert_eq!(r.code, Some(1), "{}", head(&r.stderr));
    assert!(r.stdout.starts_with(b"{\n") && r.stdout.ends_with(b"}\n"));
    let results = r
        .stdout
        .windows(12)
        .filter(|w| w == b"\"ruleId\": \"E")
        .count();
    assert_eq!(results, 200_000);
    assert!(r.rss_kb < 512 * 1024, "{} KiB", r.rss_kb);
}

/// The language server on a kernel whose `n` parameters share one line
/// (with a non-ASCII comment on it): semantic tokens, document symbols,
/// hover and definition there.
fn lsp_on_one_long_line(n: usize) -> Limited {
    let uri = "file:///tmp/long-line.ptx";
    let params: Vec<String> = (0..n).map(|i| format!(".param .u32 p{i}")).collect();
    let uses: String = (0..n)
        .step_by(10)
        .map(|i| format!("\tld.param.u32 %r1, [p{i}];\n"))
        .collect();
    let text = format!(
        "{HEADER}.visible .entry k( /* é𝄞 */ {})\n{{\n\t.reg .b32 %r<2>;\n{uses}\tret;\n}}\n",
        params.join(", ")
    );
    let mut input = initialize();
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1, "text": text}}}),
    ));
    let at =
        serde_json::json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 40}});
    for (id, method) in [
        (2, "textDocument/semanticTokens/full"),
        (3, "textDocument/documentSymbol"),
        (4, "textDocument/hover"),
        (5, "textDocument/definition"),
    ] {
        let params = if method.contains("semantic") || method.contains("Symbol") {
            serde_json::json!({"textDocument": {"uri": uri}})
        } else {
            at.clone()
        };
        input.extend(rpc(
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        ));
    }
    input.extend(shutdown(10));
    limited(&[os("lsp")], &input)
}

/// Positions on one long line were counted from the line's start, each
/// (semantic tokens of a 400 KB line of 20,000 parameters: 18 s); now
/// along the line, or from a checkpoint every kilobyte of a line that is
/// not all ASCII.
#[test]
fn lsp_linear_in_a_long_line() {
    let small = lsp_on_one_long_line(2_000);
    let big = lsp_on_one_long_line(20_000);
    assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
    let got = messages(&big.stdout);
    for id in 2..=5 {
        assert!(
            got.iter()
                .any(|m| m["id"] == id && m.get("result").is_some()),
            "no answer to request {id}"
        );
    }
    linear("lsp on one long line", &small, &big);
}

/// `n` device functions and a kernel calling each once.
fn kernel_calling_each(n: usize) -> Vec<u8> {
    let mut s = HEADER.to_string();
    for i in 0..n {
        s.push_str(&format!(".func f{i}()\n{{\n\tret;\n}}\n"));
    }
    s.push_str(".visible .entry k()\n{\n");
    for i in 0..n {
        s.push_str(&format!("\tcall f{i};\n"));
    }
    s.push_str("\tret;\n}\n");
    s.into_bytes()
}

/// `ptx functions` and `ptx callgraph` on a kernel calling many functions:
/// each listed the kernel's calls by searching the calls listed so far,
/// and the call graph's "not called here" line searched every edge for
/// each function (80,000 callees: 7.6 s for `functions`, now 0.6).
#[test]
fn functions_and_callgraph_linear_in_callees() {
    for cmd in ["functions", "callgraph"] {
        let args = [os(cmd), os("-")];
        let small = limited(&args, &kernel_calling_each(8_000));
        let big = limited(&args, &kernel_calling_each(80_000));
        assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
        linear(
            &format!("{cmd} of a kernel calling many functions"),
            &small,
            &big,
        );
    }
}

/// `n` functions of one signature, each with its address taken, and a
/// kernel making `n` calls through one `.callprototype`: each call may
/// reach each of them (valid PTX; ptxas takes 94 s on 4,000).
fn indirect_calls(n: usize) -> Vec<u8> {
    let mut s = HEADER.to_string();
    for k in 0..n {
        s.push_str(&format!(
            ".func (.param .b32 r) f{k} (.param .b32 a)\n{{\n\tst.param.b32 [r], 0;\n\tret;\n}}\n"
        ));
    }
    s.push_str(".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n");
    s.push_str("pr: .callprototype (.param .b32 _) _ (.param .b32 _);\n");
    for k in 0..n {
        s.push_str(&format!("\tmov.u64 %rd1, f{k};\n"));
    }
    s.push_str("\t{\n\t.param .b32 p;\n\t.param .b32 q;\n\tst.param.b32 [p], 1;\n");
    for _ in 0..n {
        s.push_str("\tcall (q), %rd1, (p), pr;\n");
    }
    s.push_str("\t}\n\tret;\n}\n");
    s.into_bytes()
}

/// `ptx callgraph`, `functions` and `resources` on `n` indirect calls that
/// may each reach `n` functions: every call matched every address-taken
/// function's signature again, and each of the `n` edges listed all `n`
/// call lines (4,000: 17 s and 96 MB printed by `callgraph`). Candidates
/// are now found once per prototype, a caller's calls through one name
/// counted once per edge, and an indirect edge lists its first 256 lines.
#[test]
fn call_analyses_linear_in_indirect_calls() {
    for cmd in ["callgraph", "functions", "resources"] {
        let args = [os(cmd), os("-")];
        let small = limited(&args, &indirect_calls(300));
        let big = limited(&args, &indirect_calls(3_000));
        assert_eq!(big.code, Some(0), "{}", head(&big.stderr));
        linear(&format!("{cmd} of many indirect calls"), &small, &big);
    }
}

/// A module of `n` device functions named by `name(i)`, under a kernel.
fn functions_named(n: usize, name: impl Fn(usize) -> String) -> Vec<u8> {
    let mut s = HEADER.to_string();
    for i in 0..n {
        s.push_str(&format!(".func {}()\n{{\n\tret;\n}}\n", name(i)));
    }
    s.push_str(".visible .entry k()\n{\n\tret;\n}\n");
    s.into_bytes()
}

/// Mangled names on which the demangler backtracks (a conversion
/// operator's template parameter with template arguments, sixteen levels
/// deep: 60 ms each) cost about what plain names of the same length do:
/// 300 of them took 18 s in `ptx functions`.
#[test]
fn demangling_is_bounded_per_name() {
    const N: usize = 300;
    let slow = |i: usize| {
        let id = format!("A{i}");
        let (open, close) = ("T_I".repeat(16), "E".repeat(16));
        format!("_ZN{}{id}cvT_I{open}i{close}EEv", id.len())
    };
    let plain = |i: usize| {
        let id = format!("{:a<1$}", format!("f{i}"), slow(i).len() - 7);
        format!("_Z{}{id}v", id.len())
    };
    let args = [os("functions"), os("-")];
    let base = limited(&args, &functions_named(N, plain));
    let hostile = limited(&args, &functions_named(N, slow));
    assert_eq!(hostile.code, Some(0), "{}", head(&hostile.stderr));
    eprintln!(
        "{N} plain names {:.2} s, {N} backtracking names {:.2} s",
        base.time.as_secs_f64(),
        hostile.time.as_secs_f64()
    );
    assert!(
        hostile.time <= base.time * 3 + Duration::from_millis(1500),
        "demangling is slow: {:?} against {:?}",
        hostile.time,
        base.time
    );
}

/// The language server held each document's tree: 10–25 times the text
/// (1,000,000 globals: 427 MB for 22 MB). A document over `largeAbove`
/// bytes (32 MiB unless set) is checked streamed instead, holding its text
/// and diagnostics; the tree's features answer nothing for it, formatting
/// says why, and edits are checked again the same way.
#[test]
fn lsp_holds_a_large_document_compactly() {
    let uri = "file:///tmp/large.ptx";
    let n = 400_000;
    let mut text = HEADER.to_string();
    for i in 0..n {
        text.push_str(&format!(".global .u32 g{i};\n"));
    }
    // Line n + 3 (0-based): a second declaration of g7.
    text.push_str(".global .u32 g7;\n");
    let open = |options: serde_json::Value| {
        let mut input = initialize_with(options);
        input.extend(rpc(
            serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1,
                "text": text}}}),
        ));
        input
    };
    let at = serde_json::json!({"line": 5, "character": 14});
    let doc = serde_json::json!({"uri": uri});
    let mut input = open(serde_json::json!({"largeAbove": 1 << 20}));
    for (id, method, params) in [
        (
            1,
            "textDocument/hover",
            serde_json::json!({"textDocument": doc, "position": at}),
        ),
        (
            2,
            "textDocument/documentSymbol",
            serde_json::json!({"textDocument": doc}),
        ),
        (
            3,
            "textDocument/formatting",
            serde_json::json!({"textDocument": doc, "options": {"tabSize": 4, "insertSpaces": false}}),
        ),
    ] {
        input.extend(rpc(
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        ));
    }
    // An edit adding a second error: g8 declared on line 4 makes the
    // declaration of g8 below it (now on line 12) a second one.
    let edit = serde_json::json!({"start": {"line": 4, "character": 0},
        "end": {"line": 4, "character": 0}});
    input.extend(rpc(serde_json::json!({"jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": edit, "text": ".global .u32 g8;\n"}]}})));
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover",
            "params": {"textDocument": doc, "position": at}}),
    ));
    input.extend(shutdown(5));
    let large = limited(&[os("lsp")], &input);
    let mut whole = open(serde_json::json!({}));
    whole.extend(shutdown(5));
    let full = limited(&[os("lsp")], &whole);
    eprintln!(
        "a {} MB document: {} MB held in full, {} MB past largeAbove ({:.2} s)",
        text.len() >> 20,
        full.rss_kb / 1024,
        large.rss_kb / 1024,
        large.time.as_secs_f64()
    );
    assert_eq!(large.code, Some(0), "{}", head(&large.stderr));
    let got = messages(&large.stdout);
    let published: Vec<&serde_json::Value> = got
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .collect();
    let lines = |m: &serde_json::Value| -> Vec<u64> {
        m["params"]["diagnostics"]
            .as_array()
            .map(|d| {
                d.iter()
                    .filter_map(|d| d["range"]["start"]["line"].as_u64())
                    .collect()
            })
            .unwrap_or_default()
    };
    let last_line = u64::try_from(n).expect("n") + 3;
    assert_eq!(published.first().map(|m| lines(m)), Some(vec![last_line]));
    assert_eq!(
        published.last().map(|m| lines(m)),
        Some(vec![12, last_line + 1])
    );
    assert!(got.iter().any(|m| m["method"] == "window/showMessage"
        && m["params"]["message"]
            .as_str()
            .is_some_and(|s| s.contains("largeAbove"))));
    let answer = |id: i64| got.iter().find(|m| m["id"] == id).expect("an answer");
    assert!(answer(1)["result"].is_null(), "{}", answer(1));
    assert_eq!(answer(2)["result"], serde_json::json!([]));
    let why = answer(3)["error"]["message"].as_str().unwrap_or_default();
    assert!(why.contains("largeAbove"), "{}", answer(3));
    assert!(answer(4)["result"].is_null(), "{}", answer(4));
    // The text is held (in the document and, while it is read, in the
    // message and its JSON), and the streamed check's peak (3.6 times this
    // text) twice, with what the allocator keeps of the first for a few
    // milliseconds (97 MB here; 61 MB with `MIMALLOC_PURGE_DELAY=0`):
    // linear, and well under the tree's.
    let text_kb = i64::try_from(text.len() / 1024).expect("size");
    assert!(
        large.rss_kb <= 10 * text_kb + 64 * 1024,
        "{} KiB for a {} KiB document",
        large.rss_kb,
        text_kb
    );
    assert!(
        large.rss_kb * 3 < full.rss_kb * 2,
        "{} against {}",
        large.rss_kb,
        full.rss_kb
    );
}

/// Many documents each under `largeAbove` would still hold a tree each:
/// at most `largeTotal` bytes of text (64 MiB unless set) are held as
/// trees across the open documents, and a document past it gets
/// diagnostics only until an edit finds room again.
#[test]
fn lsp_holds_trees_within_a_total() {
    let module = |n: usize| {
        let mut t = HEADER.to_string();
        for i in 0..n {
            t.push_str(&format!(".global .u32 g{i};\n"));
        }
        t
    };
    let text = module(30_000);
    assert!(text.len() > 512 * 1024 && text.len() < 1024 * 1024);
    let mut input = initialize_with(serde_json::json!({"largeTotal": 1 << 20}));
    let uri = |k: usize| format!("file:///tmp/total{k}.ptx");
    let hover = |id: i64, k: usize| {
        rpc(
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": uri(k)},
                "position": {"line": 5, "character": 14}}}),
        )
    };
    for k in 0..3 {
        input.extend(rpc(
            serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri(k), "languageId": "ptx", "version": 1,
                "text": text}}}),
        ));
    }
    input.extend(hover(1, 0));
    input.extend(hover(2, 1));
    input.extend(hover(3, 2));
    // The first closed, an edit of the second finds room for its tree.
    input.extend(rpc(
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didClose",
        "params": {"textDocument": {"uri": uri(0)}}}),
    ));
    input.extend(rpc(serde_json::json!({"jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri(1), "version": 2},
            "contentChanges": [{"range": {"start": {"line": 3, "character": 0},
                "end": {"line": 3, "character": 0}}, "text": "// edited\n"}]}})));
    input.extend(hover(4, 1));
    input.extend(shutdown(5));
    let r = limited(&[os("lsp")], &input);
    assert_eq!(r.code, Some(0), "{}", head(&r.stderr));
    let got = messages(&r.stdout);
    let answer = |id: i64| got.iter().find(|m| m["id"] == id).expect("an answer");
    assert!(!answer(1)["result"].is_null(), "{}", answer(1));
    assert!(answer(2)["result"].is_null(), "{}", answer(2));
    assert!(answer(3)["result"].is_null(), "{}", answer(3));
    assert!(!answer(4)["result"].is_null(), "{}", answer(4));
    let notices = got
        .iter()
        .filter(|m| {
            m["method"] == "window/showMessage"
                && m["params"]["message"]
                    .as_str()
                    .is_some_and(|s| s.contains("largeTotal"))
        })
        .count();
    assert_eq!(notices, 2);
}

/// `ptx check DIR` held every file's report until the last was checked:
/// 5,000 files of 100 errors each (14.5 MB) took 171 MB. Reports now go
/// out in order as soon as the files before them are done, with at most a
/// window of them waiting (30 MB for those 5,000).
#[test]
fn check_of_many_files_streams_its_reports() {
    let many = dir().join("many-reports");
    let _ = std::fs::remove_dir_all(&many);
    std::fs::create_dir_all(&many).expect("a directory");
    let body = "\tmov.b32 %r1, 1;\n".repeat(100);
    let mut input = 0;
    for i in 0..1500 {
        let text = format!("{HEADER}.visible .entry k()\n{{\n{body}\tret;\n}}\n");
        input += text.len();
        std::fs::write(many.join(format!("f{i:04}.ptx")), text).expect("write");
    }
    let r = limited(&[os("check"), many.as_os_str()], b"");
    let _ = std::fs::remove_dir_all(&many);
    eprintln!(
        "check of 1,500 files ({} KB): {} MB, {:.2} s, {} MB of output",
        input / 1024,
        r.rss_kb / 1024,
        r.time.as_secs_f64(),
        r.stderr.len() >> 20
    );
    assert_eq!(r.code, Some(1), "{}", head(&r.stderr));
    // Every file's errors, in the order of the files.
    let order: Vec<&str> = r
        .stderr
        .lines()
        .filter_map(|l| l.split_once(".ptx:").map(|(f, _)| f))
        .collect();
    assert_eq!(order.len(), 1500 * 100);
    assert!(order.windows(2).all(|w| w[0] <= w[1]));
    let input_kb = i64::try_from(input / 1024).expect("size");
    assert!(
        r.rss_kb <= 4 * input_kb + 32 * 1024,
        "{} KiB for {input_kb} KiB of input",
        r.rss_kb
    );
}
