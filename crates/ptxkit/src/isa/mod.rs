//! The instruction catalog: the ISA as data, read by the parser, printer,
//! checker and docs.

mod catalog;
mod codegen;
// The catalog reader only reads the catalog shipped in the crate, never user
// input; its counting is left unchecked.
#[allow(clippy::arithmetic_side_effects)]
mod dsl;
pub mod fill;
// Generated from the `.ptxisa` files by `codegen`; one long line per entry.
#[rustfmt::skip]
#[allow(clippy::all, unused_imports, dead_code)]
mod generated;
mod matcher;
mod mod_sets;
mod model;
mod sections;
pub mod vocab;
mod word_table;

pub use catalog::{catalog, install_catalog, Catalog, Tables, SOURCES};
pub use codegen::render as render_tables;
pub use dsl::DslError;
pub use matcher::{
    assign_slots, bind_operands, match_modifiers, ModMatch, SlotAssignment, WrittenShape,
};
pub use mod_sets::ModSets;
pub use model::*;
pub use sections::{describe_sections, section_title};
pub use word_table::{pack_word, WordTable, WORD_MAX};

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn generated_tables_match_the_catalog_files() {
        let fresh = Catalog::from_sources(SOURCES);
        let errs: Vec<String> = fresh.errors().iter().map(|e| e.to_string()).collect();
        assert!(errs.is_empty(), "catalog errors:\n{}", errs.join("\n"));
        let want = render_tables(&fresh.tables());
        assert!(
            want == include_str!("generated.rs"),
            "src/isa/generated.rs is stale: run `cargo run -p xtask -- catalog-gen`"
        );
    }

    #[test]
    fn catalog_loads_without_errors() {
        let cat = catalog();
        let errs: Vec<String> = cat.errors().iter().map(|e| e.to_string()).collect();
        assert!(errs.is_empty(), "catalog errors:\n{}", errs.join("\n"));
        assert!(cat.opcode_id("add").is_some());
    }

    #[test]
    fn dsl_reads_every_shape() {
        let text = "@opcode tst section=0 ptx=1.0 sm=all\n\
            tst{.a}.g{.sat} d{|p}, [a, {b,} c], {-}x{.sel}, 16, (list){, e}{, f if .a}; [ptx=2.0 sm=sm_90a]\n\
            .g = { .u32, .s32 };\n\
            .sel = { .b0, .b1 };\n\
            n = { 4, 8 };\n\
            @gate .sat ptx=1.2 sm=sm_20\n";
        let cat = Catalog::from_sources(&[("t", text)]);
        let errs: Vec<String> = cat.errors().iter().map(|e| e.to_string()).collect();
        assert!(errs.is_empty(), "{errs:?}");
        let (_, f) = cat.forms().next().expect("one form");
        assert_eq!(f.slots.len(), 3);
        assert_eq!(f.operands.len(), 7);
        assert!(matches!(
            f.operands[0].shape,
            Shape::Pair { optional: true, .. }
        ));
        assert!(matches!(&f.operands[1].shape, Shape::Bracket(v) if v.len() == 3 && v[1].optional));
        assert!(f.operands[2].neg && f.operands[2].suffixes.len() == 1);
        assert!(matches!(f.operands[3].shape, Shape::Literal(_)));
        assert!(matches!(f.operands[4].shape, Shape::List));
        assert!(f.operands[6].when.is_some());
        assert_eq!(f.req.sm, Some("sm_90a"));
        let tst = cat.opcode_id("tst").expect("opcode");
        let m = |s: &str| cat.mod_id(s).expect(s);
        // Modifiers in any order.
        assert!(matches!(
            match_modifiers(&cat, tst, &[m(".s32"), m(".a")]),
            ModMatch::Forms(_)
        ));
        assert_eq!(
            match_modifiers(&cat, tst, &[m(".s32"), m(".s32")]),
            ModMatch::NoForm {
                closest: Some(FormId(0)),
                at: Some(1)
            }
        );
        let b1 = cat.mod_id(".b1").expect("b1");
        assert_eq!(match_modifiers(&cat, tst, &[b1]), ModMatch::Unknown(0));
        // Binding: `f` is tied to `.a`, `e` is free.
        use WrittenShape::*;
        let w = [Pair, Bracket(2), Value, Value, List, Value];
        assert_eq!(bind_operands(&cat, f, &[m(".a")], &w), Some(0b1011111));
        assert_eq!(bind_operands(&cat, f, &[], &w), Some(0b0111111));
        assert_eq!(bind_operands(&cat, f, &[], &w[..4]), None);
    }

    #[test]
    fn operand_space_reads_and_resolves() {
        use vocab::StateSpace as S;
        let text = "@opcode tst section=0 ptx=1.0 sm=all\n\
            tst{.ss}.src.b32 [d], [a], [m], [n], [g];\n\
            .ss = { .shared::cluster };\n\
            .src = { .global, .shared::cta };\n\
            @operand d in addr space=.src\n\
            @operand a in addr space=.ss|.shared::cta\n\
            @operand m in addr space=.shared::cta|.shared::cluster\n\
            @operand n in addr\n\
            @operand g in addr space=generic\n";
        let cat = Catalog::from_sources(&[("t", text)]);
        let errs: Vec<String> = cat.errors().iter().map(|e| e.to_string()).collect();
        assert!(errs.is_empty(), "{errs:?}");
        let (_, f) = cat.forms().next().expect("one form");
        let role = |k: usize| {
            match f.operands[k].shape {
                Shape::Bracket(inner) => inner.first().and_then(|t| cat.role(t.spec)),
                _ => None,
            }
            .expect("a bracketed role")
        };
        let (ss, src) = (GroupId(0), GroupId(1));
        let set = |v: &[S]| v.iter().fold(SpaceSet::default(), |s, x| s.with(*x));
        // Nothing written: a group gives no space; fixed spaces stay.
        let none = |_: GroupId| None;
        assert_eq!(role(0).address_spaces(none), Some(SpaceSet::default()));
        assert_eq!(role(1).address_spaces(none), Some(set(&[S::SharedCta])));
        assert_eq!(
            role(2).address_spaces(none),
            Some(set(&[S::SharedCta, S::SharedCluster]))
        );
        assert_eq!(role(3).address_spaces(none), None);
        assert_eq!(role(4).address_spaces(none), Some(SpaceSet::default()));
        // A written group gives its space, before the fixed ones.
        let written = |g: GroupId| {
            if g == ss {
                Some(S::SharedCluster)
            } else if g == src {
                Some(S::Global)
            } else {
                None
            }
        };
        assert_eq!(role(0).address_spaces(written), Some(set(&[S::Global])));
        assert_eq!(
            role(1).address_spaces(written),
            Some(set(&[S::SharedCluster]))
        );
        // `space=` is for addresses, and names groups, spaces or `generic`.
        for bad in [
            "@operand d in reg space=.global",
            "@operand d in addr space=.nosuch",
        ] {
            let t = format!("@opcode tst section=0 ptx=1.0 sm=all\ntst.b32 [d];\n{bad}\n");
            let cat = Catalog::from_sources(&[("t", t.as_str())]);
            assert!(!cat.errors().is_empty(), "{bad}");
        }
    }

    #[test]
    fn rules_read_and_judge() {
        let text = "@opcode tst section=0 ptx=1.0 sm=all\n\
            tst{.sem}{.scope}{.ss}.type d, [a];\n\
            .sem = { .relaxed, .acquire };\n\
            .scope = { .cta, .gpu };\n\
            .ss = { .global, .const };\n\
            .type = { .b32, .b64 };\n\
            @rule .relaxed => .scope\n\
            @rule .acquire .gpu => !.const .type=.b32|.type=.b64\n\
            @rule .global => .sem \"a global access needs an order\"\n";
        let cat = Catalog::from_sources(&[("t", text)]);
        assert!(cat.errors().is_empty(), "{:?}", cat.errors());
        let rules = cat.sections()[0].rules;
        assert_eq!(rules.len(), 3);
        assert_eq!(rules[0].message, "");
        assert_eq!(rules[2].message, "a global access needs an order");
        assert_eq!(rules[2].text, ".global => .sem");
        let m = |s: &str| cat.mod_id(s).expect(s);
        let written = |ws: &[&str]| -> Vec<ModId> { ws.iter().map(|w| m(w)).collect() };
        let holds = |ws: &[ModId], a: AtomKind| match a {
            AtomKind::Mod(x) => ws.contains(&x),
            AtomKind::Group(g) => cat.group(g).unwrap().alts.iter().any(|x| ws.contains(x)),
            AtomKind::GroupIs(_, x) => ws.contains(&x),
        };
        let w = written(&[".relaxed", ".b32"]);
        assert_eq!(rules[0].broken(|a| holds(&w, a)), Some(0));
        let w = written(&[".relaxed", ".cta", ".b32"]);
        assert_eq!(rules[0].broken(|a| holds(&w, a)), None);
        let w = written(&[".acquire", ".gpu", ".const", ".b32"]);
        assert_eq!(rules[1].broken(|a| holds(&w, a)), Some(0));
        assert_eq!(rules[1].need[0][0].describe(&cat), "!.const");
        assert_eq!(rules[1].need[1][0].describe(&cat), ".type=.b32");
        // Misspelt or foreign modifiers are errors.
        let bad = "@opcode tst section=0 ptx=1.0 sm=all\ntst{.x} d;\n\
            @rule .x => .y\n@rule .x\n@rule .g=.x => .x\n@rule .x => .x \"open\n";
        let cat = Catalog::from_sources(&[("t", bad)]);
        assert_eq!(cat.errors().len(), 4, "{:?}", cat.errors());
    }

    #[test]
    fn pattern_groups() {
        let text =
            "@opcode tst section=0 ptx=1.0 sm=all\ntst d, a{.sel};\n.sel = { .b[0-7][0-3], .x };\n";
        let cat = Catalog::from_sources(&[("t", text)]);
        assert!(cat.errors().is_empty(), "{:?}", cat.errors());
        let g = cat.group(GroupId(0)).unwrap();
        assert!(g.matches_spelling(".b73", &cat) && g.matches_spelling(".x", &cat));
        assert!(
            !g.matches_spelling(".b74", &cat)
                && !g.matches_spelling(".b7", &cat)
                && !g.matches_spelling(".b731", &cat)
        );
    }
}
