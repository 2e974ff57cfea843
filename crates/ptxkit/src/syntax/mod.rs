//! The syntax tree and the parser that builds it.
//!
//! Every node carries a [`Span`](crate::source::Span); equality ignores spans
//! (see [`Span`](crate::source::Span)), so trees compare by content.

pub mod build;
pub mod consteval;
mod decl;
mod expr;
mod inst;
mod module;
mod name;
pub mod name_map;
pub(crate) mod parser;
pub mod scope;
pub mod visit;
pub mod visit_mut;

pub use decl::*;
pub use expr::*;
pub use inst::*;
pub use module::*;
pub use name::Name;

#[cfg(test)]
mod size_tests {
    /// Node sizes are part of the memory budget (`ptx check` must stay within
    /// a few times the file size); keep them from growing unnoticed.
    #[test]
    fn node_sizes() {
        use std::mem::size_of;
        let sizes = [
            ("Span", size_of::<crate::source::Span>()),
            ("Name", size_of::<super::Name>()),
            ("Expr", size_of::<super::Expr>()),
            ("Operand", size_of::<super::Operand>()),
            ("Instruction", size_of::<super::Instruction>()),
            ("Stmt", size_of::<super::Stmt>()),
            ("Item", size_of::<super::Item>()),
            ("SectionEntry", size_of::<super::SectionEntry>()),
            ("Initializer", size_of::<super::Initializer>()),
            ("DecimalItem", size_of::<super::DecimalItem>()),
        ];
        eprintln!("{sizes:?}");
        for (n, s) in sizes {
            let max = match n {
                "Span" => 8,
                "Name" => 16,
                "Expr" => 32,
                // An address's span and suffix are packed beside its
                // expression (`AddressAt`) to keep every operand at 40.
                "Operand" => 40,
                // A statement is written once per line of a body: its size
                // is most of the tree's (the guard is boxed and three
                // modifiers are inline for that). At most 128 bytes, it is
                // also moved with a few vector stores instead of a call to
                // `memcpy` (5% of a parse).
                "Instruction" => 88,
                "Stmt" => 88,
                // One per data line of a debug section (`.b8 0`), its one
                // value inline rather than in a heap list.
                "SectionEntry" => 56,
                // One per element of an array initializer.
                "Initializer" => 32,
                // One per element of a table of plain decimals.
                "DecimalItem" => 12,
                _ => 192,
            };
            assert!(s <= max, "{n} is {s} bytes, budget {max}");
        }
    }
}
