//! Printers: lossless (byte for byte) and canonical (normalised layout).

pub(crate) mod canonical;
mod lossless;

pub use canonical::{
    canonical, canonical_function_lines, canonical_with_comments, expr_text, instruction_text,
    operand_text, stmt_text,
};
pub use lossless::{lossless, lossless_from};

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    /// The canonical print of every binary operator parses back to the
    /// same expression: `7 % 2` printed `7%2` read as `7` and the register
    /// `%2` (ptxas then rejects the line).
    #[test]
    fn binary_operators_print_back_to_themselves() {
        let src = ".version 8.0\n.target sm_90\n.address_size 64\n\
            .global .u32 a = 7 % 2;\n\
            .global .u32 b[4] = {9 % 4, a % 3, 1 - -1, 6 * 7 / 2 + 1 << 2};\n";
        let p = crate::parse(src.as_bytes());
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let printed = super::canonical(&p.module);
        assert!(
            printed.contains("7 % 2") && printed.contains("a % 3"),
            "{printed}"
        );
        let again = crate::parse(printed.as_bytes());
        assert!(
            again.diagnostics.is_empty(),
            "{printed}\n{:?}",
            again.diagnostics
        );
        assert_eq!(super::canonical(&again.module), printed);
    }
}
