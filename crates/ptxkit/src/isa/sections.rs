//! The titles of the PTX ISA's sections, so that explanations and
//! diagnostics name a section by what it is about rather than by number
//! alone. The table (`isa/sections.tsv`: `SECTION<TAB>TITLE`) is generated
//! from the spec by `cargo run -p xtask -- section-titles`.

/// The generated table.
const TABLE: &str = include_str!("../../isa/sections.tsv");

/// The title of ISA section `section` (`9.7.12.3` → `Control Flow
/// Instructions: bra`), if the table has it.
///
/// ```
/// assert_eq!(
///     ptxkit::isa::section_title("9.7.12.3"),
///     Some("Control Flow Instructions: bra")
/// );
/// assert_eq!(ptxkit::isa::section_title("99.1"), None);
/// ```
pub fn section_title(section: &str) -> Option<&'static str> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.split_once('\t').filter(|(s, _)| *s == section))
        .map(|(_, t)| t)
}

/// Sections by title and number: `“Control Flow Instructions: bra”
/// (section 9.7.12.3)`; a section without a title by number alone.
pub fn describe_sections<S: AsRef<str>>(sections: &[S]) -> String {
    sections
        .iter()
        .map(|s| {
            let s = s.as_ref();
            match section_title(s) {
                Some(t) => format!("“{t}” (section {s})"),
                None => format!("section {s}"),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
