//! The byte-level path for lists of decimal literals (`decimal_run` in
//! `decl.rs`) against the token path it shortcuts: the same tree, spans
//! included, and the same diagnostics, for generated initializers and every
//! corpus file with one. Outside tests, `runs_off` is a constant `false`.

/// Whether the byte-level path is switched off (tests only).
#[cfg(not(test))]
#[inline(always)]
pub(super) fn runs_off() -> bool {
    false
}

#[cfg(test)]
thread_local! {
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the byte-level path is switched off on this thread.
#[cfg(test)]
pub(super) fn runs_off() -> bool {
    OFF.with(|o| o.get())
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic
)]
mod tests {
    use super::OFF;
    use proptest::prelude::*;

    /// The module and diagnostics as JSON (`Span`'s `==` ignores
    /// positions; the JSON has them).
    fn parsed(src: &[u8], off: bool) -> (String, String) {
        OFF.with(|o| o.set(off));
        let p = crate::parse(src);
        OFF.with(|o| o.set(false));
        (
            serde_json::to_string(&p.module).unwrap_or_default(),
            serde_json::to_string(&p.diagnostics).unwrap_or_default(),
        )
    }

    fn assert_same(src: &[u8]) {
        let (fast, slow) = (parsed(src, false), parsed(src, true));
        assert!(
            fast == slow,
            "byte-level and token paths differ on:\n{}",
            String::from_utf8_lossy(src)
        );
    }

    #[test]
    fn written_cases() {
        let lists = [
            "{1, 2, 3}",
            "{1,2,3}",
            "{ 1 ,2\t,\r\n3 }",
            "{0, 00, 012, 0x1F, 0b101, 1U, 7}",
            "{18446744073709551615, 18446744073709551616, 99999999999999999999, 1}",
            "{1, 1.5, 2, 1e3, 3, 0f3F800000}",
            "{1, a, 2, generic(a), 3}",
            "{1, -2, 3 + 4, (5), 6}",
            "{1 /* c */, 2, 3 // c\n, 4}",
            "{1, {2, 3}, 4}",
            "{1, 2,, 3}",
            "{1, 2,}",
            "{1, 2",
            "{1 2 3}",
            "{1, 2; .global .u32 y;",
            "{1,",
            "{12abc, 3}",
            "{3$, 4}",
            "{1234567890123456789, 12345678901234567890, 0012345678901234567, 5}",
            "{1,  2, 3,\t4, 5, \n6, 7 ,8, 9 , 10}",
            "{1, .5, 2, _, 3, %r1}",
        ];
        for l in lists {
            for n in ["", "4", "100"] {
                let src = format!(".version 8.0\n.target sm_80\n.global .b8 t[{n}] = {l};\n");
                assert_same(src.as_bytes());
            }
        }
    }

    /// The shape both paths give a list: plain decimal items in runs of
    /// 12-byte elements, anything else (other notations, names, nested
    /// lists) between the runs as items of its own.
    #[test]
    fn runs_shape() {
        use crate::syntax::{Initializer, Item};
        let src =
            ".version 8.0\n.target sm_80\n.global .u32 t[] = {1, 22, 0x3, a, 4, {5}, 6U, 60};\n";
        for off in [false, true] {
            OFF.with(|o| o.set(off));
            let p = crate::parse(src.as_bytes());
            OFF.with(|o| o.set(false));
            let Some(v) = p.module.items.iter().find_map(|i| match i {
                Item::Var(v) => Some(v),
                _ => None,
            }) else {
                panic!("no variable: {:?}", p.module.items);
            };
            let Some(init) = v.decls[0].init.as_ref() else {
                panic!("no initializer: {v:?}");
            };
            let Initializer::List { items, .. } = init else {
                panic!("not a list: {init:?}");
            };
            let shape: Vec<String> = items
                .iter()
                .map(|i| match i {
                    Initializer::Decimals(run) => {
                        let spans: Vec<String> = run
                            .iter()
                            .map(|d| format!("{}@{}", d.value(), d.span().text(src.as_bytes())))
                            .collect();
                        format!("run[{}]", spans.join(" "))
                    }
                    Initializer::Expr(e) => format!("expr {}", e.span().text(src.as_bytes())),
                    Initializer::List { span, .. } => format!("list {}", span.text(src.as_bytes())),
                    Initializer::Field(_) => "field".into(),
                })
                .collect();
            assert_eq!(
                shape,
                [
                    "run[1@1 22@22]",
                    "expr 0x3",
                    "expr a",
                    "run[4@4]",
                    "list {5}",
                    "expr 6U",
                    "run[60@60]"
                ],
                "byte path off: {off}"
            );
            assert_eq!(init.list_len(), Some(8));
            assert_eq!(items[0].span().text(src.as_bytes()), "1, 22");
            // The summary counts elements, not items: 8 words.
            let bytes = crate::analysis::summary::declarator_bytes(v, &v.decls[0].dims, Some(init));
            assert_eq!(bytes, Some(32));
            // The canonical printer writes the runs back as the numbers.
            let printed = crate::print::canonical(&p.module);
            assert!(
                printed.contains("t[] = {1, 22, 0x3, a, 4, {5}, 6U, 60};"),
                "{printed}"
            );
        }
    }

    /// Initializer lists made of pieces the byte-level path takes, stops at
    /// or must leave alone.
    fn lists() -> impl Strategy<Value = String> {
        let item = prop::sample::select(vec![
            "0",
            "7",
            "202",
            "00",
            "012",
            "0x1F",
            "1U",
            "65535",
            "18446744073709551615",
            "18446744073709551616",
            "1.5",
            "a",
            "-1",
            "(1)",
            "{1, 2}",
            "/*c*/ 3",
            "3 // c\n",
            "",
            "0f3F800000",
            "1e3",
            "x = 1",
        ]);
        let sep = prop::sample::select(vec![
            ",",
            ", ",
            " ,",
            ",\n\t",
            " , ",
            ",,",
            " ",
            "\r\n,",
            "\x0b,\x0c",
        ]);
        let close = prop::sample::select(vec!["}", " }", "\n}", "", ";"]);
        (prop::collection::vec((item, sep), 0..12), close).prop_map(|(items, close)| {
            let mut s = String::from("{");
            for (i, (item, sep)) in items.iter().enumerate() {
                if i > 0 {
                    s.push_str(sep);
                }
                s.push_str(item);
            }
            s.push_str(close);
            s
        })
    }

    proptest! {
        #[test]
        fn generated(list in lists(), n in 0u32..20) {
            let src = format!(".version 8.0\n.target sm_80\n.global .b8 t[{n}] = {list}\n.global .u32 z;\n");
            assert_same(src.as_bytes());
        }
    }

    #[test]
    fn corpus() {
        let Some(files) = crate::test_corpus::files("corpus test of decimal runs") else {
            return;
        };
        let mut with_lists = 0;
        for (_, src) in &files {
            if memchr::memmem::find(src, b"= {").is_some() {
                with_lists += 1;
                assert_same(src);
            }
        }
        assert!(with_lists > 0, "no corpus file has an initializer list");
        eprintln!("parsed {with_lists} corpus files with initializer lists both ways");
    }
}
