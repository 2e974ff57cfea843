//! Initializer lists read in parts (`Piece::VarStart`, `InitPart`,
//! `VarEnd`): the pieces put together are the whole parse's tree, and the
//! check that reads every list of more than a few bytes in parts reports
//! exactly what the check of the whole tree reports (`props::check` runs
//! both with `props::SHORT_LISTS`).
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

#[path = "common/props.rs"]
mod props;

const HEADER: &str = ".version 8.5\n.target sm_90\n.address_size 64\n\
                      .global .u32 x;\n.func f()\n{\n\tret;\n}\n";

/// Declarations whose initializers take every rule's way: lengths against
/// dimensions and vectors, lists where scalars are and the reverse, kinds
/// of values against the type, names declared or not, fields, runs of
/// decimals cut by other items, several declarators, spaces and linkage
/// that take no initializer, and lists that do not parse.
const CASES: &[&str] = &[
    ".global .u32 a[4] = {1, 2, 3, 4};",
    ".global .u32 a[3] = {1, 2, 3, 4, 5, 6};",
    ".global .u32 a[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};",
    ".global .u32 a[2][3] = {{1, 2, 3}, {4, 5, 6}};",
    ".global .u32 a[2][3] = {{1, 2, 3, 4}, {4, 5, 6}};",
    ".global .u32 a[2][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};",
    ".global .u32 a[][2] = {{1, 2}, {3, 4}, 5, {6, 7}};",
    ".global .v4 .u32 v = {1, 2, 3, 4};",
    ".global .v4 .u32 v = {1, 2, 3};",
    ".global .v2 .u32 v[2] = {{1, 2}, {3, 4}};",
    ".global .v2 .u32 v[2] = {{1, 2}, {3, {4, 5}}};",
    ".global .u32 s = {1, 2, 3, 4, 5, 6, 7, 8};",
    ".global .u32 a[4] = {1, 2.5, 3, 4};",
    ".global .u32 a[4] = {1, 0f3F800000, 3, 4};",
    ".global .f32 a[4] = {0f3F800000, 1, 2, 0f3F800000};",
    ".global .f64 a[4] = {1.0, 2.0, 3.0, 4.0};",
    ".global .u64 p[4] = {x, generic(x), x+4, f};",
    ".global .u64 p[4] = {x, q, r, x};",
    ".global .u64 p[4] = {f+4, x, x, x};",
    ".global .u32 a[6] = {1, -2, 3, 0x10, 007, 5};",
    ".global .s32 a[6] = {-1, -2, -3, 1+1, (2), 3/0};",
    ".global .u8 a[8] = {1, 2, 3, 4, 5, 6, 7, 256};",
    ".global .u32 a[] = {};",
    ".global .u32 b = 1, a[4] = {1, 2, 3, 4};",
    ".global .u32 b[2] = {1, 2}, a[3] = {1, 2, 3, 4, 5};",
    ".global .u32 a[4] = {1, 2, 3, 4}, b = 1;",
    ".shared .u32 a[4] = {1, 2, 3, 4};",
    ".extern .global .u32 a[4] = {1, 2, 3, 4};",
    ".const .align 8 .b8 a[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};",
    ".global .texref t = {filter_mode = nearest, addr_mode_0 = clamp};",
    ".global .u32 a[4] = {1, 2, 3, 4,};",
    ".global .u32 a[4] = {1, 2 3, 4};",
    ".global .u32 a[4] = {1, 2, 3, 4",
    ".global .u32 a[4] = {1, 2, {3, 4};",
    ".global .u32 a[4] = {1, @, 3, 4};",
    ".global .u32 a[4] = {1, 2, 3, 4} /* ; */ ;",
    ".global .u32 a[4] = {1, 2, 3, 4}\n;",
];

#[test]
fn lists_read_in_parts_check_as_held_whole() {
    for case in CASES {
        let src = format!("{HEADER}{case}\n.global .u32 after = 1;\n");
        props::check(src.as_bytes());
        // The same declaration in a body, between statements and in a
        // nested block, with a label of the same name as a variable.
        let src = format!(
            "{HEADER}.visible .entry k()\n{{\n.reg .b32 %r<2>;\n{case}\nmov.b32 %r1, 1;\n\
             {{\n{case}\n}}\na:\nret;\n}}\n"
        );
        props::check(src.as_bytes());
    }
}

/// Lists longer than a part (4,096 items), nested, with errors on both
/// sides of a part's end.
#[test]
fn lists_longer_than_a_part_check_as_held_whole() {
    let row = |i: usize| format!("{{{i}, {}, -{i}}}", i * 7);
    let rows: Vec<String> = (0..3000).map(row).collect();
    let flat: Vec<String> = (0..9000)
        .map(|i| match i % 997 {
            0 => "q".to_string(),
            1 => "1.5".to_string(),
            _ => i.to_string(),
        })
        .collect();
    for src in [
        format!(
            "{HEADER}.global .s32 m[3000][3] = {{{}}};\n",
            rows.join(", ")
        ),
        format!(
            "{HEADER}.global .s32 m[2999][3] = {{{}}};\n",
            rows.join(", ")
        ),
        format!("{HEADER}.global .u64 t[] = {{{}}};\n", flat.join(", ")),
        format!("{HEADER}.global .u64 t[] = {{{{{}}}}};\n", flat.join(", ")),
    ] {
        props::check(src.as_bytes());
        // Read in parts at the default length too: more than one part.
        let (mut starts, mut parts) = (0, 0);
        for (piece, _) in ptxkit::PieceStream::new(src.as_bytes()).with_long_initializers(1000) {
            if let ptxkit::Piece::Data(d) = piece {
                match *d {
                    ptxkit::DataPiece::Start(_) => starts += 1,
                    ptxkit::DataPiece::Part(_) => parts += 1,
                    _ => {}
                }
            }
        }
        assert_eq!(starts, 1);
        assert!(parts > 1, "{parts} parts");
    }
}

/// Whether a list is long is decided from the list alone: a declaration of
/// many declarators with a list each once looked for the `;` from each
/// list, quadratic in the declaration: 160,000 lists took 17.3 s in the
/// test build, against 0.45–0.8 s now. (A ratio against a smaller run is
/// no good measure here: 20,000 lists stay in the caches and on pages
/// already mapped, 160,000 do not, so linear work already shows 30–40x for
/// eight times the input.)
#[test]
fn the_lists_of_many_declarators_cost_their_own_length() {
    let decls: Vec<String> = (0..160_000)
        .map(|i| format!("a{i}[2] = {{{i}, 1}}"))
        .collect();
    let s = format!("{HEADER}.global .u32 {};\n", decls.join(", "));
    let t = std::time::Instant::now();
    let d = ptxkit::check::check_source(s.as_bytes(), &Default::default());
    let took = t.elapsed();
    assert!(d.is_empty(), "{:?}", d.first());
    assert!(
        took < std::time::Duration::from_secs(5),
        "160,000 declarators took {took:?}"
    );
}
