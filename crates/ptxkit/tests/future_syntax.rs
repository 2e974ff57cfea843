//! Syntax the catalog does not know yet (a newer PTX): each unknown thing is
//! named in an error at its position, and everything around it is still
//! parsed — no function is dropped.

use ptxkit::diag::Code;

const SRC: &str = "\
.version 9.9
.target sm_200
.address_size 64
.future_module_directive 1, 2;
.visible .entry a(.param .u64 p)
{
  .reg .b32 %r<3>;
  frobnicate.sync.u32 %r1, %r2;
  .future_body_directive 3;
  add.u32 %r1, %r1, 1;
  add.newmod.u32 %r1, %r1, 1;
  ret;
}
.visible .entry b(.param .u64 p, .param .future_type q, .param .u32 r) .future_attr 4, 5
{
  mov.u32 %r1, 2;
  ret;
}
.future_item foo { bar; }
.visible .func c()
{
  ret;
}
";

#[test]
fn unknown_things_are_named_and_the_rest_is_kept() {
    let p = ptxkit::parse(SRC.as_bytes());
    let index = ptxkit::LineIndex::new(SRC.as_bytes());
    let errs: Vec<(String, u32, u32, Code)> = p
        .diagnostics
        .iter()
        .map(|d| {
            let lc = index.line_col(d.span.start);
            (d.message.clone(), lc.line, lc.col, d.code)
        })
        .collect();
    let expect = [
        (4, 1, Code::UnknownDirective, ".future_module_directive"),
        (8, 3, Code::UnknownOpcode, "frobnicate"),
        (9, 3, Code::UnknownDirective, ".future_body_directive"),
        (11, 6, Code::UnknownModifier, ".newmod"),
        (14, 41, Code::Syntax, ".future_type"),
        (14, 72, Code::UnknownDirective, ".future_attr"),
        (19, 1, Code::UnknownDirective, ".future_item"),
    ];
    for (line, col, code, name) in expect {
        assert!(
            errs.iter()
                .any(|e| e.1 == line && e.2 == col && e.3 == code && e.0.contains(name)),
            "no {code} naming `{name}` at {line}:{col}; got {errs:#?}"
        );
    }
    assert_eq!(errs.len(), expect.len(), "{errs:#?}");

    // Every function is there, with its body.
    let fns: Vec<&str> = p.module.functions().map(|f| f.name.as_str()).collect();
    assert_eq!(fns, ["a", "b", "c"]);
    let insts = |name: &str| -> Vec<&str> {
        let f = p.module.functions().find(|f| f.name.as_str() == name);
        let body = f.and_then(|f| f.body.as_ref()).expect("body");
        body.instructions().iter().map(|i| i.name()).collect()
    };
    assert!(insts("a").contains(&"add") && insts("a").contains(&"ret"));
    assert_eq!(insts("b"), ["mov", "ret"]);
    assert_eq!(insts("c"), ["ret"]);
    // The known parameters of `b` are kept around the unknown one.
    let b = p.module.functions().nth(1).expect("b");
    let params: Vec<&str> = b.params().iter().map(|q| q.name.as_str()).collect();
    assert_eq!(params, ["p", "r"]);
    assert_eq!(
        ptxkit::print::lossless(&p.module, SRC.as_bytes()),
        SRC.as_bytes()
    );
}
