//! `ptx explain E0404`: the explanation of a diagnostic code, from the
//! registry ([`ptxkit::diag::Code`]), the way `rustc --explain` prints one.

use ptxkit::diag::Code;
use serde::Serialize;

use crate::out::{self, style};

/// A code's entry as `--json` prints it.
#[derive(Serialize)]
struct Entry {
    code: Code,
    name: &'static str,
    title: &'static str,
    explanation: &'static str,
}

/// Whether `query` is spelled like a diagnostic code (`E`, then digits, in
/// either case) rather than an instruction.
pub fn is_code(query: &str) -> bool {
    let mut c = query.chars();
    matches!(c.next(), Some('E' | 'e')) && {
        let rest = c.as_str();
        !rest.is_empty() && rest.chars().all(|d| d.is_ascii_digit())
    }
}

/// Print the explanation of the code `query`: the exit status, 2 (a usage
/// error, with the closest code suggested) when no code is spelled so.
pub fn run(query: &str, json: bool) -> u8 {
    match query.parse::<Code>() {
        Ok(c) if json => {
            out::json(&Entry {
                code: c,
                name: c.name(),
                title: c.title(),
                explanation: c.explanation(),
            });
            0
        }
        Ok(c) => {
            out::print(&render(c, out::color()));
            0
        }
        Err(e) => {
            eprintln!("ptx: {e}");
            2
        }
    }
}

/// The text printed for `c`: the code and its title, then the explanation.
pub fn render(c: Code, on: bool) -> String {
    let head = out::paint(&format!("{c}: {}", c.title()), style::HEAD, on);
    format!("{head}\n\n{}\n", c.explanation().trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_told_from_instructions() {
        for c in ["E0404", "e0404", "E9"] {
            assert!(is_code(c), "{c}");
        }
        for i in ["ex2", "exit", "E", "mov", "E04a"] {
            assert!(!is_code(i), "{i}");
        }
    }
}
