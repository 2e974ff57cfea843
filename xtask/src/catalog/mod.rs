//! The catalog's build step: read the `.ptxisa` files (`dsl.rs`) into
//! tables and write them as the library's static data (`codegen.rs` →
//! `crates/ptxkit/src/isa/generated.rs`, `xtask catalog-gen`). The library
//! itself only reads the generated tables; `xtask catalog-check` installs a
//! catalog read from disk with `ptxkit::isa::install_catalog`.

mod codegen;
mod dsl;

use ptxkit::isa::{Catalog, Opcode, Tables};

pub use codegen::render as render_tables;
use dsl::Builder;
pub use dsl::DslError;

/// The catalog files, in load order. After adding or editing one, regenerate
/// the built-in tables: `cargo run -p xtask -- catalog-gen`.
pub const SOURCES: &[(&str, &str)] = &[
    (
        "int.ptxisa",
        include_str!("../../../crates/ptxkit/isa/int.ptxisa"),
    ),
    (
        "float.ptxisa",
        include_str!("../../../crates/ptxkit/isa/float.ptxisa"),
    ),
    (
        "compare.ptxisa",
        include_str!("../../../crates/ptxkit/isa/compare.ptxisa"),
    ),
    (
        "logic.ptxisa",
        include_str!("../../../crates/ptxkit/isa/logic.ptxisa"),
    ),
    (
        "data.ptxisa",
        include_str!("../../../crates/ptxkit/isa/data.ptxisa"),
    ),
    (
        "async.ptxisa",
        include_str!("../../../crates/ptxkit/isa/async.ptxisa"),
    ),
    (
        "texture.ptxisa",
        include_str!("../../../crates/ptxkit/isa/texture.ptxisa"),
    ),
    (
        "control.ptxisa",
        include_str!("../../../crates/ptxkit/isa/control.ptxisa"),
    ),
    (
        "sync.ptxisa",
        include_str!("../../../crates/ptxkit/isa/sync.ptxisa"),
    ),
    (
        "mma.ptxisa",
        include_str!("../../../crates/ptxkit/isa/mma.ptxisa"),
    ),
    (
        "wgmma.ptxisa",
        include_str!("../../../crates/ptxkit/isa/wgmma.ptxisa"),
    ),
    (
        "tcgen05.ptxisa",
        include_str!("../../../crates/ptxkit/isa/tcgen05.ptxisa"),
    ),
    (
        "misc.ptxisa",
        include_str!("../../../crates/ptxkit/isa/misc.ptxisa"),
    ),
    (
        "sreg.ptxisa",
        include_str!("../../../crates/ptxkit/isa/sreg.ptxisa"),
    ),
];

/// A catalog read from catalog files, with the problems found in them.
pub struct Loaded {
    /// The catalog.
    pub catalog: Catalog,
    /// Problems found while reading the files.
    pub errors: Vec<DslError>,
}

impl Loaded {
    /// Read catalog files (name, text).
    pub fn from_sources(sources: &[(&'static str, &str)]) -> Loaded {
        let mut b = Builder::default();
        for (name, text) in sources {
            b.load(name, text);
        }
        let opcodes: Vec<Opcode> = b
            .opcodes
            .into_iter()
            .map(|(name, forms)| Opcode {
                name,
                forms: Box::leak(forms.into_boxed_slice()),
            })
            .collect();
        let tables = Tables {
            mods: Box::leak(b.mods.into_boxed_slice()),
            opcodes: Box::leak(opcodes.into_boxed_slice()),
            forms: Box::leak(b.forms.into_boxed_slice()),
            groups: Box::leak(b.groups.into_boxed_slice()),
            sections: Box::leak(b.sections.into_boxed_slice()),
            roles: Box::leak(b.roles.into_boxed_slice()),
            sregs: Box::leak(b.sregs.into_boxed_slice()),
            repeatable: Box::leak(
                b.repeatable
                    .iter()
                    .filter_map(|m| b.mod_index.get(m.as_str()).copied())
                    .collect::<Vec<_>>()
                    .into_boxed_slice(),
            ),
        };
        Loaded {
            catalog: Catalog::from_tables(tables),
            errors: b.errors,
        }
    }

    /// Problems found while reading the catalog files.
    pub fn errors(&self) -> &[DslError] {
        &self.errors
    }
}

impl std::ops::Deref for Loaded {
    type Target = Catalog;

    fn deref(&self) -> &Catalog {
        &self.catalog
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use ptxkit::isa::*;

    #[test]
    fn generated_tables_match_the_catalog_files() {
        let fresh = Loaded::from_sources(SOURCES);
        let errs: Vec<String> = fresh.errors().iter().map(|e| e.to_string()).collect();
        assert!(errs.is_empty(), "catalog errors:\n{}", errs.join("\n"));
        let want = render_tables(&fresh.tables());
        assert!(
            want == include_str!("../../../crates/ptxkit/src/isa/generated.rs"),
            "src/isa/generated.rs is stale: run `cargo run -p xtask -- catalog-gen`"
        );
    }

    #[test]
    fn the_built_in_catalog_has_the_files_opcodes() {
        let cat = catalog();
        let files = Loaded::from_sources(SOURCES);
        assert_eq!(cat.opcodes().count(), files.opcodes().count());
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
        let cat = Loaded::from_sources(&[("t", text)]);
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
        let cat = Loaded::from_sources(&[("t", text)]);
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
            let cat = Loaded::from_sources(&[("t", t.as_str())]);
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
        let cat = Loaded::from_sources(&[("t", text)]);
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
        let cat = Loaded::from_sources(&[("t", bad)]);
        assert_eq!(cat.errors().len(), 4, "{:?}", cat.errors());
    }

    #[test]
    fn pattern_groups() {
        let text =
            "@opcode tst section=0 ptx=1.0 sm=all\ntst d, a{.sel};\n.sel = { .b[0-7][0-3], .x };\n";
        let cat = Loaded::from_sources(&[("t", text)]);
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
