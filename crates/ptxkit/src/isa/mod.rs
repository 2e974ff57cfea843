//! The instruction catalog: the ISA as data, read by the parser, printer,
//! checker and docs.

mod catalog;
pub mod fill;
// Generated from the `.ptxisa` files by `xtask catalog-gen`; one long line
// per entry.
#[rustfmt::skip]
#[allow(clippy::all, unused_imports, dead_code)]
mod generated;
mod matcher;
mod mod_sets;
mod model;
mod sections;
pub mod vocab;
mod word_table;

/// For the build step: `xtask catalog-check` installs a catalog it read
/// from disk. Not part of the API.
#[doc(hidden)]
pub use catalog::install_catalog;
pub use catalog::{catalog, Catalog, Tables};
pub use matcher::{
    assign_slots, bind_operands, head_misplaced, match_modifiers, ModMatch, SlotAssignment,
    WrittenShape,
};
pub use mod_sets::ModSets;
pub use model::*;
pub use sections::{describe_sections, section_title};
pub use word_table::{pack_word, WordTable, WORD_MAX};
