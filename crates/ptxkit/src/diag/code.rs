//! The registry of diagnostic codes: every code the project reports, with
//! its title and an explanation (`ptx explain E0404`, the LSP's hover, the
//! SARIF rules and `docs/diagnostics.md` all read it from here).
//!
//! A code is written `E` and four digits; the first two digits name the
//! stage that reports it: `00` the lexer, `01` the grammar, `02` the
//! catalog match, `03` module rules, `04` names, `05` versions and
//! targets, `06` calls, `07` operands and modifiers, `09` inline `asm` in
//! C++ sources.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

/// The registry: for each code its variant, its spelling and its title;
/// the explanation is the file `explain/<code>.md`.
macro_rules! registry {
    ($($variant:ident = $code:literal, $title:literal;)*) => {
        /// A diagnostic code: what kind of problem a [`super::Diagnostic`]
        /// reports. Written as its stable spelling (`E0404`) in every
        /// report: text, JSON, SARIF, the LSP, Python.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $(
                #[doc = concat!("`", $code, "`: ", $title, ".")]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in the order of their spellings.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable spelling, e.g. `"E0404"`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $code,)*
                }
            }

            /// A one-line title, e.g. "A register beyond its `%r<N>`
            /// range" (no final full stop).
            pub const fn title(self) -> &'static str {
                match self {
                    $(Code::$variant => $title,)*
                }
            }

            /// The explanation in Markdown: what the code means, an
            /// erroneous example and its fix (examples leave out the
            /// module header, [`Code::EXAMPLE_HEADER`], unless it matters).
            pub const fn explanation(self) -> &'static str {
                match self {
                    $(Code::$variant => include_str!(concat!("explain/", $code, ".md")),)*
                }
            }

            /// The variant's name in Rust, e.g. `"OutOfRange"`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => stringify!($variant),)*
                }
            }
        }
    };
}

registry! {
    UnknownChar = "E0001", "A byte that starts no token";
    BadNumber = "E0002", "A malformed or out-of-range number";
    Unterminated = "E0003", "A comment or string not closed before the end of the file";
    Syntax = "E0101", "A token that does not fit the grammar here";
    UnexpectedEof = "E0102", "The input ended inside a construct";
    UnknownDirective = "E0103", "A directive the grammar does not know";
    Limit = "E0104", "Nesting deeper than the parser's limit";
    RegisterRange = "E0105", "A register range `%r<N>` beyond the parser's limit";
    FileTooLarge = "E0106", "An input larger than the parser's limit";
    UnknownOpcode = "E0201", "An instruction the catalog does not know";
    UnknownModifier = "E0202", "A modifier the instruction does not take";
    BadModifiers = "E0203", "Modifiers that no form of the instruction takes together";
    BadOperands = "E0204", "Operands that fit no form of the instruction";
    MissingVersion = "E0301", "`.version` missing or not first";
    MissingTarget = "E0302", "`.target` missing";
    AddressSize = "E0303", "32-bit addressing (`.address_size 32`)";
    TargetVersion = "E0304", "A `.target` newer than the `.version` allows";
    TargetOption = "E0305", "A `.target` option that does not apply to the architecture";
    Incomplete = "E0306", "A variable whose size is unknown";
    Initializer = "E0307", "An initializer where the state space allows none";
    Directive = "E0308", "Function directives that conflict or do not apply";
    ParamSpace = "E0309", "Kernel parameters beyond the parameter space";
    Linkage = "E0310", "A declaration whose linkage disagrees with an earlier one";
    UnknownVersion = "E0311", "A `.version` ptxas does not know";
    UnknownTarget = "E0312", "A `.target` ptxas does not know, or options that conflict";
    HeaderOrder = "E0313", "Header directives out of order";
    Align = "E0314", "An `.align` that is not a power of two";
    DirectiveValue = "E0315", "A performance directive with a value it cannot take";
    InitCount = "E0316", "More initializers than elements, or a vector initializer of the wrong length";
    InitKind = "E0317", "An initializer of the wrong kind";
    ExternDefined = "E0318", "An `.extern` function with a body";
    DeclVersion = "E0319", "A declaration word newer than the module's `.version` or `.target`";
    Unresolved = "E0320", "A function declared, not `.extern`, and defined nowhere in the module";
    ModuleSpace = "E0321", "A module-scope variable in a state space only a function may declare";
    DeclType = "E0322", "A variable, register or parameter of a type, shape, state space, linkage or attribute ptxas does not allow there";
    SharedSpace = "E0323", "A kernel whose static shared memory is beyond the limit";
    Undeclared = "E0401", "A name declared nowhere in scope";
    Duplicate = "E0402", "A name declared twice in one scope";
    UndefinedLabel = "E0403", "A branch to a label the function does not define";
    OutOfRange = "E0404", "A register beyond its `%r<N>` range";
    SpecialRegister = "E0405", "A special register that does not exist, or a component it lacks";
    NeedsVersion = "E0501", "An instruction or modifier that needs a newer `.version`";
    NeedsTarget = "E0502", "An instruction or modifier not available on the module's `.target`";
    Removed = "E0503", "An instruction or modifier no longer available";
    UndeclaredCallee = "E0601", "A call to a function that is not declared";
    CallArity = "E0602", "A call whose argument or result count differs from the callee's";
    CallPrototype = "E0603", "An indirect call without a prototype or targets";
    OperandType = "E0703", "A register whose declared type does not fit the instruction's type";
    Sink = "E0704", "The sink `_` where no result can be discarded";
    ImmediateType = "E0705", "An immediate of a kind the operand's type does not take";
    OperandKind = "E0707", "An operand of a kind its role does not take";
    OperandShape = "E0708", "An operand of the wrong shape (vector or scalar, vector length)";
    ImmediateValue = "E0709", "A constant outside the range its role allows";
    ModifierRule = "E0710", "A combination of modifiers a catalog rule forbids";
    OperandRange = "E0901", "An asm operand reference `%N` beyond the statement's operands";
    NamedOperand = "E0902", "A named operand reference `%[name]`";
    Constraint = "E0903", "An asm constraint letter the inline PTX guide does not list";
    NotLiteral = "E0904", "An asm template or operand that is not a string literal";
    TooLong = "E0905", "An asm statement too long to read to its end";
    ExpansionBudget = "E0906", "Macro expansions past the budget of a C++ file";
}

impl Code {
    /// The module header the examples of [`Code::explanation`] assume
    /// when they do not write one.
    pub const EXAMPLE_HEADER: &'static str = ".version 8.5\n.target sm_90\n.address_size 64\n";

    /// The code spelled `s`, in either case (`E0404`, `e0404`).
    pub fn parse(s: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(s))
    }

    /// The first paragraph of the explanation: what the code means, in a
    /// few sentences (SARIF's `fullDescription`).
    pub fn description(self) -> &'static str {
        let e = self.explanation().trim_start();
        e.split("\n\n").next().unwrap_or(e).trim_end()
    }

    /// Whether an error of this code may be only the consequence of an
    /// earlier declaration that did not parse: a name it would have
    /// declared is then "not declared", a function it would have declared
    /// is called with the wrong arity, a header directive it would have
    /// been comes "late". The check does not report these after a broken
    /// declaration (see [`crate::check::check_source`]).
    pub const fn may_cascade(self) -> bool {
        matches!(
            self,
            Code::Undeclared
                | Code::UndefinedLabel
                | Code::UndeclaredCallee
                | Code::CallArity
                | Code::CallPrototype
                | Code::HeaderOrder
                | Code::Unresolved
        )
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A spelling that names no code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCode {
    /// The spelling asked for.
    pub spelling: String,
    /// The known code closest to it, if one is close.
    pub suggestion: Option<Code>,
}

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no diagnostic code `{}`", self.spelling)?;
        if let Some(c) = self.suggestion {
            write!(f, "; did you mean `{c}` ({})?", c.title())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownCode {}

impl FromStr for Code {
    type Err = UnknownCode;

    /// [`Code::parse`], with the closest code as a suggestion when none
    /// matches.
    fn from_str(s: &str) -> Result<Code, UnknownCode> {
        Code::parse(s).ok_or_else(|| {
            let upper = s.to_ascii_uppercase();
            let suggestion = crate::suggest::closest(&upper, Code::ALL.iter().map(|c| c.as_str()))
                .and_then(Code::parse);
            UnknownCode {
                spelling: s.to_string(),
                suggestion,
            }
        })
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Code> for &str {
    fn eq(&self, other: &Code) -> bool {
        *self == other.as_str()
    }
}

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn spellings_are_sorted_unique_and_parse_back() {
        for w in Code::ALL.windows(2) {
            let [a, b] = w else { unreachable!() };
            assert!(a.as_str() < b.as_str(), "{a} before {b}");
            assert!(a < b, "the order of the variants is that of the spellings");
        }
        for &c in Code::ALL {
            assert_eq!(Code::parse(c.as_str()), Some(c));
            assert_eq!(Code::parse(&c.as_str().to_lowercase()), Some(c));
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
            assert!(!c.title().ends_with('.'), "{c}");
            assert!(!c.explanation().trim().is_empty(), "{c}");
        }
    }

    #[test]
    fn unknown_codes_suggest_the_closest() {
        let e = "E0406 ".trim().parse::<Code>().unwrap_err();
        assert!(e.suggestion.is_some());
        let e = "e0440".parse::<Code>().unwrap_err();
        assert_eq!(e.suggestion, Some(Code::OutOfRange));
        let e = "banana".parse::<Code>().unwrap_err();
        assert_eq!(e.suggestion, None);
    }
}
