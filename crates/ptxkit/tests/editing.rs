//! Editing the tree and printing it back: the visitors, the builders, and
//! the lossless printer on edited trees (untouched text kept, edits printed
//! canonically, removed nodes gone). Each edited module must reparse without
//! errors, and ptxas must accept it as it accepts the original (when
//! `../shared/tools/ptxas` is present).
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::PathBuf;

use ptxkit::isa::vocab::ScalarType;
use ptxkit::syntax::visit::{NameUse, Visit};
use ptxkit::syntax::visit_mut::VisitMut;
use ptxkit::syntax::{build, Item, Stmt};
use ptxkit::{Module, Name, Span};

const SRC: &str = r#"//
// A hand-written module for editing tests.
//
.version 8.0
.target sm_90
.address_size 64

// Unused helper.
.func (.reg .b32 r) twice(.reg .b32 x)
{
	add.s32 r, x, x;   // double it
	ret;
}

.visible .entry scale(
	.param .u64 out,
	.param .u32 n
)
{
	.reg .pred %p;
	.reg .b32 %acc, %i;   // accumulator and counter
	.reg .b64 %rd<3>;

	ld.param.u64 %rd1, [out];
	ld.param.u32 %i, [n];
	mov.u32 %acc, 0;
	// Loop until the counter is zero.
LOOP:
	add.s32 %acc, %acc, %i;
	sub.s32 %i, %i, 1;
	setp.ne.s32 %p, %i, 0;
	@%p bra LOOP;
	st.global.u32 [%rd1+4], %acc; /* store */
	ret;
}
"#;

fn parse(src: &str) -> Module {
    let p = ptxkit::parse(src.as_bytes());
    assert!(!p.has_errors(), "{:?}", p.diagnostics);
    p.module
}

/// The edited module printed both ways: the lossless text, checked to
/// reparse (and check) cleanly to the edited tree, as the canonical text does.
fn reprint(m: &Module) -> String {
    let out = String::from_utf8(ptxkit::print::lossless(m, SRC.as_bytes())).unwrap_or_default();
    for text in [out.clone(), ptxkit::print::canonical(m)] {
        let again = ptxkit::parse(text.as_bytes());
        assert!(!again.has_errors(), "{text}\n{:?}", again.diagnostics);
        assert_eq!(&again.module, m, "reparse differs:\n{text}");
        let diags = ptxkit::check::check(&again.module, &Default::default());
        assert!(!diags.iter().any(|d| d.is_error()), "{text}\n{diags:?}");
    }
    ptxas_accepts(&out);
    out
}

/// ptxas accepts `text` (skipped, with a note, without ../shared; required
/// on CI).
fn ptxas_accepts(text: &str) {
    let Some(ptxas) = common::ptxas_or_skip("ptxas verdict") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("ptxkit-editing-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path: PathBuf = dir.join(format!("edited{n}.ptx"));
    std::fs::write(&path, text).unwrap_or_default();
    let out = std::process::Command::new(&ptxas)
        .args(["-arch=sm_90", "-o", "/dev/null"])
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    match out {
        Ok(o) => assert!(
            o.status.success(),
            "ptxas rejects:\n{text}\n{}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!("ptxas did not run: {e}"),
    }
}

fn kernel_body(m: &mut Module) -> &mut Vec<Stmt> {
    let f = m
        .items
        .iter_mut()
        .find_map(|i| match i {
            Item::Function(f) if f.name.as_str() == "scale" => Some(f),
            _ => None,
        })
        .and_then(|f| f.body.as_mut());
    match f {
        Some(b) => &mut b.stmts,
        None => panic!("no kernel body"),
    }
}

#[test]
fn original_accepted_and_unedited_print_is_the_source() {
    let m = parse(SRC);
    assert_eq!(ptxkit::print::lossless(&m, SRC.as_bytes()), SRC.as_bytes());
    ptxas_accepts(SRC);
}

struct Rename<'a> {
    from: &'a str,
    to: &'a str,
    declared: usize,
    used: usize,
}

impl VisitMut for Rename<'_> {
    fn visit_name_mut(&mut self, name: &mut Name, _: Span, how: NameUse) {
        if name.as_str() == self.from {
            *name = Name::new(self.to);
            match how {
                NameUse::Declaration => self.declared += 1,
                NameUse::Use => self.used += 1,
            }
        }
    }
}

#[test]
fn rename_a_register_everywhere() {
    let mut m = parse(SRC);
    let mut r = Rename {
        from: "%acc",
        to: "%total",
        declared: 0,
        used: 0,
    };
    r.visit_module_mut(&mut m);
    assert_eq!((r.declared, r.used), (1, 4));
    let mut p = Rename {
        from: "%p",
        to: "%again",
        declared: 0,
        used: 0,
    };
    p.visit_module_mut(&mut m);
    assert_eq!((p.declared, p.used), (1, 2));
    let out = reprint(&m);
    // Edited statements are printed canonically in their place; their
    // indentation and trailing comments are kept, and so is everything else.
    let want = SRC
        .replace(".reg .pred %p;", ".reg .pred %again;")
        .replace(".reg .b32 %acc, %i;", ".reg .b32 %total, %i;")
        .replace("mov.u32 %acc, 0;", "mov.u32\t%total, 0;")
        .replace("add.s32 %acc, %acc, %i;", "add.s32\t%total, %total, %i;")
        .replace("setp.ne.s32 %p, %i, 0;", "setp.ne.s32\t%again, %i, 0;")
        .replace("@%p bra LOOP;", "@%again bra\tLOOP;")
        .replace(
            "st.global.u32 [%rd1+4], %acc;",
            "st.global.u32\t[%rd1+4], %total;",
        );
    assert_eq!(out, want);
    assert!(!out.contains("%acc") && !out.contains("%p;"));
}

#[test]
fn insert_instructions_and_a_declaration() {
    let mut m = parse(SRC);
    let body = kernel_body(&mut m);
    let at = body
        .iter()
        .position(|s| matches!(s, Stmt::Label(n, _) if n.as_str() == "LOOP"))
        .unwrap_or_default();
    let shl = build::instruction("shl.b32 %i, %i, 1").unwrap_or_else(|e| panic!("{e}"));
    body.insert(at, Stmt::Instruction(shl));
    body.insert(0, build::reg_decl(ScalarType::B32, &["%tmp"]));
    let mov = build::instruction_from_parts(
        "mov",
        &[".u32"],
        &[build::name("%tmp"), build::name("%acc")],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let ret = body
        .iter()
        .rposition(|s| matches!(s, Stmt::Instruction(i) if i.name() == "ret"))
        .unwrap_or_default();
    body.insert(ret, Stmt::Instruction(mov));
    let out = reprint(&m);
    let want = SRC
        .replace(
            "{\n\t.reg .pred %p;",
            "{\n\t.reg .b32 %tmp;\n\t.reg .pred %p;",
        )
        .replace(
            "\t// Loop until the counter is zero.\nLOOP:",
            "\tshl.b32\t%i, %i, 1;\n\t// Loop until the counter is zero.\nLOOP:",
        )
        .replace(
            "/* store */\n\tret;",
            "/* store */\n\tmov.u32\t%tmp, %acc;\n\tret;",
        );
    assert_eq!(out, want);
}

#[test]
fn replace_and_delete_statements() {
    let mut m = parse(SRC);
    let body = kernel_body(&mut m);
    // Replace the `sub` (the old text must not stay beside the new one).
    let sub = body
        .iter()
        .position(|s| matches!(s, Stmt::Instruction(i) if i.name() == "sub"))
        .unwrap_or_default();
    if let Some(s) = body.get_mut(sub) {
        *s = build::stmt("add.s32 %i, %i, -1;").unwrap_or_else(|e| panic!("{e}"));
    }
    // Delete the `mov` with its line.
    body.retain(|s| !matches!(s, Stmt::Instruction(i) if i.name() == "mov"));
    let out = reprint(&m);
    let want = SRC
        .replace("\tsub.s32 %i, %i, 1;\n", "\tadd.s32\t%i, %i, -1;\n")
        .replace("\tmov.u32 %acc, 0;\n", "");
    assert_eq!(out, want);
    assert!(!out.contains("sub.s32"));
}

#[test]
fn delete_a_function() {
    let mut m = parse(SRC);
    let before = m.items.len();
    m.items
        .retain(|i| !matches!(i, Item::Function(f) if f.name.as_str() == "twice"));
    assert_eq!(m.items.len(), before - 1);
    let out = reprint(&m);
    // The function goes with the comment before it.
    let start = SRC.find("// Unused helper.").unwrap_or_default();
    let end = SRC.find(".visible").unwrap_or_default();
    let want = format!("{}{}", &SRC[..start], &SRC[end..]);
    assert_eq!(out, want);
}

#[test]
fn add_a_function_and_edit_a_header() {
    let mut m = parse(SRC);
    let extra = ptxkit::parse(b".func noop()\n{\n\tret;\n}\n").module;
    let mut item = extra
        .items
        .into_iter()
        .next()
        .unwrap_or(Item::Error(Span::SYNTHETIC));
    build::unplace_item(&mut item);
    m.items.push(item);
    let out = reprint(&m);
    assert!(out.starts_with(SRC), "{out}");
    assert_eq!(&out[SRC.len()..], "\n.func noop()\n{\n\tret;\n}\n");
}

#[test]
fn visitor_reaches_every_name() {
    #[derive(Default)]
    struct Names(Vec<(String, NameUse)>);
    impl<'a> Visit<'a> for Names {
        fn visit_name(&mut self, n: &'a Name, _: Span, how: NameUse) {
            self.0.push((n.to_string(), how));
        }
    }
    let m = parse(SRC);
    let mut v = Names::default();
    v.visit_module(&m);
    let declared: Vec<&str> =
        v.0.iter()
            .filter(|(_, h)| *h == NameUse::Declaration)
            .map(|(n, _)| n.as_str())
            .collect();
    assert_eq!(
        declared,
        ["twice", "r", "x", "scale", "out", "n", "%p", "%acc", "%i", "%rd", "LOOP"]
    );
    let uses = v.0.iter().filter(|(_, h)| *h == NameUse::Use).count();
    // twice: 3; scale: ld 2+2, mov 1, add 3, sub 2, setp 2, guard 1 + LOOP, st 2.
    assert_eq!(uses, 3 + 4 + 1 + 3 + 2 + 2 + 2 + 2);
}

#[test]
fn built_nodes_are_unplaced_and_bad_text_is_an_error() {
    let i = build::instruction("ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(i.span.is_synthetic() && i.opcode_span.is_synthetic());
    assert!(i.mods.iter().all(|m| m.span().is_synthetic()));
    assert_eq!(i.operand("d").map(|o| o.span().is_synthetic()), Some(true));
    assert_eq!(
        ptxkit::print::instruction_text(&i),
        "ld.global.v4.f32\t{%f1, %f2, %f3, %f4}, [%rd1+16];"
    );
    assert!(build::instruction("frobnicate.u32 %r1;").is_err());
    assert!(build::instruction("add.s32 %r1, %r2, %r3").is_ok());
    assert!(build::instruction("add.s32 %r1, %r2").is_err());
    assert!(build::instruction("add.s32 %r1, %r2, %r3; ret;").is_err());
    assert!(build::stmt("L: ret;").is_err());
    let e = build::instruction("add.s32 %r1,")
        .err()
        .map(|e| e.to_string());
    assert!(e.is_some_and(|e| e.contains("does not parse")));
    let addr = build::address("%rd1", -8);
    assert_eq!(ptxkit::print::operand_text(&addr), "[%rd1+-8]");
    assert_eq!(ptxkit::print::operand_text(&build::int(-3)), "-3");
    let range = build::reg_range(ScalarType::B64, "%rd", 4);
    assert_eq!(ptxkit::print::stmt_text(&range), ".reg .b64 %rd<4>;");
}
