//! GitHub Actions workflow commands: `::error file=F,line=L,col=C,endLine=..,
//! endColumn=..,title=CODE::message`, which the Actions runner turns into
//! annotations on the pull request's diff.

use super::Located;

/// The workflow command of one diagnostic (one line).
pub fn command(l: &Located) -> String {
    let d = &l.diagnostic;
    // GitHub's commands are named as our severities are: `::error`, `::warning`.
    let kind = d.severity.as_str();
    let message = d.message_with_notes();
    let mut props = format!(
        "file={},line={},col={}",
        property(&l.file),
        l.start.0,
        l.start.1
    );
    if l.end.0 == l.start.0 && l.end.1 > l.start.1 {
        props.push_str(&format!(",endLine={},endColumn={}", l.end.0, l.end.1));
    }
    props.push_str(&format!(",title={}", property(d.code.as_str())));
    format!("::{kind} {props}::{}", data(&message))
}

/// A message escaped as the runner reads it: `%`, CR and LF.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value escaped: also `:` and `,`, which separate properties.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxkit::{Diagnostic, LineIndex, Span};

    #[test]
    fn one_line_escaped() {
        let src = b"ab\ncd efg\n";
        let d = Diagnostic::error(
            ptxkit::diag::Code::Syntax,
            Span::new(6, 9),
            "bad, 100%: here",
        )
        .with_note("line one\nline two");
        let l = Located::new("dir,x/a:b.ptx", &d, &LineIndex::new(src));
        assert_eq!(
            command(&l),
            "::error file=dir%2Cx/a%3Ab.ptx,line=2,col=4,endLine=2,endColumn=7,title=E0101::bad, 100%25: here%0Anote: line one%0Aline two"
        );
    }
}
