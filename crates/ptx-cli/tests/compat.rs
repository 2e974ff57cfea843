//! `ptx compat` and `ptx resources BIN` on the nvcc-built fixtures of
//! crates/ptxkit/tests/data/binary/usage: exit statuses, JSON shapes, and
//! `--res-usage` equal to the cuobjdump output recorded beside them.

// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::PathBuf;
use std::process::{Command, Output};

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ptxkit/tests/data/binary/usage")
        .join(name)
        .display()
        .to_string()
}

fn ptx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run ptx")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn compat_levels_and_exit_statuses() {
    let mixed = data("mixed.fatbin");
    let out = ptx(&[
        "compat", &mixed, "--gpu", "sm_86", "--gpu", "90", "--gpu", "8.0",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    assert!(t.contains("sm_75,86") && t.contains("90@9.5"), "{t}");
    // sm_86 native, sm_90 by JIT, sm_80 cannot run.
    let row = t.lines().find(|l| l.contains("sm_75,86")).expect("row");
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cells[cells.len() - 4..],
        ["sm_86", "jit", "9.5", "no"],
        "{row}"
    );
    for (level, code) in [("jit", 1), ("cannot-run", 1)] {
        let out = ptx(&["compat", &mixed, "--gpu", "sm_80", "--fail-on", level]);
        assert_eq!(out.status.code(), Some(code), "{level}");
    }
    let out = ptx(&["compat", &mixed, "--gpu", "sm_86", "--fail-on", "jit"]);
    assert_eq!(out.status.code(), Some(0));
    let out = ptx(&[
        "compat",
        &mixed,
        "--gpu",
        "sm_90",
        "--fail-on",
        "cannot-run",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let out = ptx(&["compat", "/no/such/path"]);
    assert_eq!(out.status.code(), Some(2));
    let out = ptx(&["compat", &mixed, "--gpu", "sm_x"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn compat_json_and_rules() {
    let out = ptx(&[
        "compat",
        "--json",
        "--driver",
        "12.4",
        "--gpu",
        "sm_90",
        &data(""),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["driver"], "12.4");
    let bins = v["packages"][0]["binaries"].as_array().expect("binaries");
    assert_eq!(bins.len(), 10);
    let mixed = bins
        .iter()
        .find(|b| b["name"] == "mixed.fatbin")
        .expect("mixed");
    assert_eq!(mixed["verdicts"][0]["level"], "cannot-run");
    assert_eq!(mixed["verdicts"][0]["rule"], "ptx-isa-driver");
    let out = ptx(&["compat", "--rules", "--json"]);
    let rules: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(rules.as_array().is_some_and(|r| r.len() >= 10
        && r.iter()
            .all(|x| !x["source"].as_str().unwrap_or("").is_empty())));
}

#[test]
fn resources_of_binaries() {
    for f in ["kernels.sm_80.cubin", "mixed.fatbin"] {
        let out = ptx(&["resources", "--res-usage", &data(f)]);
        assert_eq!(out.status.code(), Some(0));
        let want = std::fs::read_to_string(data(&format!("{f}.res-usage.txt"))).expect("txt");
        // cuobjdump also prints each fatbin entry's header; the blocks
        // after `Resource usage:` are the same.
        let blocks = |s: &str| -> Vec<String> {
            s.split("Resource usage:\n")
                .skip(1)
                .map(|b| {
                    b[..b.find("\nFatbin ").unwrap_or(b.len())]
                        .trim_end()
                        .to_string()
                })
                .collect()
        };
        let got = text(&out.stdout);
        let got: Vec<String> = got
            .split("Resource usage:\n")
            .nth(1)
            .map(|rest| {
                rest.split(" Common:\n")
                    .skip(1)
                    .map(|b| format!(" Common:\n{}", b.trim_end()))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(got, blocks(&want), "{f}");
    }
    let out = ptx(&[
        "resources",
        "--json",
        "--gpu",
        "sm_86",
        &data("mixed.fatbin"),
        "tile",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let rows = v.as_array().expect("rows");
    assert_eq!(rows.len(), 2, "{v}");
    let sm86 = rows.iter().find(|r| r["arch"] == "sm_86").expect("sm_86");
    assert_eq!(sm86["shared"], 4096);
    assert_eq!(sm86["occupancy"][0]["gpu"], "sm_86");
    assert!(
        sm86["occupancy"][0]["blocks"].as_u64().unwrap_or(0) > 0,
        "{sm86}"
    );
    let out = ptx(&["extract", "--list", &data("mixed.fatbin")]);
    assert!(text(&out.stdout).contains("5 kernels, reg <= 82"));
}

#[test]
fn compat_reads_fatbins_kept_as_data() {
    // embedded.o: an sm_75 stub in .nv_fatbin, sm_90 kernels in .rodata.
    let obj = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ptxkit/tests/data/binary/embedded.o")
        .display()
        .to_string();
    let out = ptx(&[
        "compat", "--json", "--gpu", "sm_75", "--gpu", "sm_80", "--gpu", "sm_90", &obj,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let levels: Vec<&str> = v["packages"][0]["binaries"][0]["verdicts"]
        .as_array()
        .expect("verdicts")
        .iter()
        .map(|x| x["level"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(levels, ["native", "cannot-run", "native"], "{v}");
}

#[test]
fn compat_says_when_a_file_has_no_kernels() {
    // stub.o: one sm_75 cubin that defines no kernel, no PTX.
    let obj = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ptxkit/tests/data/binary/stub.o")
        .display()
        .to_string();
    let out = ptx(&["compat", "--json", "--gpu", "sm_75", &obj]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let verdict = &v["packages"][0]["binaries"][0]["verdicts"][0];
    assert_eq!(verdict["level"], "cannot-run", "{v}");
    assert_eq!(verdict["rule"], "no-kernels-in-file", "{v}");
    assert_eq!(verdict["reason"], "no kernel images found in this file");
    let out = ptx(&["compat", "--gpu", "sm_75", &obj]);
    let t = text(&out.stdout);
    let row = t.lines().find(|l| l.contains("stub.o  ")).expect("row");
    assert_eq!(row.split_whitespace().last(), Some("none"), "{t}");
    // Listed apart from the binaries that cannot run.
    assert!(!t.contains("cannot run:"), "{t}");
    assert!(
        t.contains("no kernels of their own (nothing to launch, on any GPU): "),
        "{t}"
    );
    // A file whose cubin defines a kernel is judged by its images.
    let obj = obj.replace("stub.o", "embedded.o");
    let out = ptx(&["compat", "--json", "--gpu", "sm_75", &obj]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        v["packages"][0]["binaries"][0]["verdicts"][0]["level"],
        "native"
    );
}

#[test]
fn compat_kernels_names_kernels_with_no_image() {
    // partial.fatbin: `both` in the sm_80 and sm_90 cubins, `old_only`
    // in the sm_80 cubin only.
    let fatbin = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ptxkit/tests/data/binary/partial.fatbin")
        .display()
        .to_string();
    let args = ["compat", "--kernels", "--gpu", "sm_86", "--gpu", "sm_90"];
    let out = ptx(&[&args[..], &["--json", &fatbin]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let verdicts = &v["packages"][0]["binaries"][0]["verdicts"];
    // On sm_86 the sm_80 cubin has both kernels: nothing listed.
    assert_eq!(verdicts[0]["level"], "native");
    assert!(verdicts[0].get("missing_kernels").is_none(), "{v}");
    assert_eq!(verdicts[1]["via"], "sm_90");
    assert_eq!(
        verdicts[1]["missing_kernels"],
        serde_json::json!(["old_only"])
    );
    assert_eq!(verdicts[1]["missing_kernel_count"], 1);
    let out = ptx(&[&args[..], &[fatbin.as_str()]].concat());
    let t = text(&out.stdout);
    assert!(
        t.contains("partial.fatbin on sm_90: 1 kernel with no image: old_only"),
        "{t}"
    );
    // Without --kernels the cubins are not read for their kernels.
    let out = ptx(&["compat", "--json", "--gpu", "sm_90", &fatbin]);
    assert!(!text(&out.stdout).contains("missing_kernels"));
}
