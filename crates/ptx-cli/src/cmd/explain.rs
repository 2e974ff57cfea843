//! `ptx explain`: the catalog entry of an instruction, or the explanation
//! of a diagnostic code ([`super::explain_code`]).

use ptxkit::analysis::explain::{explain, Explanation};
use ptxkit::analysis::explain_text::{self, Part};

use crate::out::{self, style};

/// Arguments of `ptx explain`.
#[derive(clap::Args)]
pub struct Args {
    /// An instruction, optionally with modifiers: `mma`, `ld.global.v4`,
    /// `cp.async.bulk.tensor`. Only forms taking every modifier are shown.
    /// Or a diagnostic code (`E0404`): its explanation.
    pub query: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[inline(never)]
pub fn run(a: Args) -> u8 {
    if super::explain_code::is_code(&a.query) {
        return super::explain_code::run(&a.query, a.json);
    }
    match explain(&a.query) {
        Ok(e) => {
            if a.json {
                out::json(&e);
            } else {
                out::print(&render(&e, out::color()));
            }
            0
        }
        // A query naming nothing is a usage error.
        Err(e) => {
            eprintln!("ptx: {e}");
            2
        }
    }
}

/// The human-readable entry: the library's layout
/// ([`ptxkit::analysis::explain_text`]) in the CLI's colours when `on`.
pub fn render(e: &Explanation, on: bool) -> String {
    explain_text::render(e, &|s: &str, part| {
        let st = match part {
            Part::Name => style::NAME,
            Part::Heading => style::HEAD,
            Part::Dim => style::DIM,
            Part::Plain => anstyle::Style::new(),
        };
        out::paint(s, st, on)
    })
}
