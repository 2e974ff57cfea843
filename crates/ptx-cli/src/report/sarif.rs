//! SARIF 2.1.0 (the OASIS format code-scanning services and IDEs read), with
//! `serde-sarif`'s types: one run of the `ptx` tool, a rule per diagnostic
//! code, a result per diagnostic with its file, line and column, the
//! secondary labels as related locations, and the files checked as
//! artifacts.

use serde_sarif::sarif::{
    Artifact, Location, Message, MultiformatMessageString, PhysicalLocation, Region,
    ReportingDescriptor, Result as SarifResult, ResultLevel, Run, Sarif, Tool, ToolComponent,
    Version, SCHEMA_URL,
};

use ptxkit::diag::Code;
use ptxkit::Severity;

use std::io::Write;

use super::sarif_uri::Base;
use super::Located;
use crate::spool::{json_element_as_is, Spool};

/// The SARIF level of a severity: the level of the same name
/// ([`Severity::as_str`]; SARIF's `error`, `warning`, `note`).
fn level(s: Severity) -> ResultLevel {
    s.as_str().parse().unwrap_or(ResultLevel::Error)
}

/// The rule of a code, from the registry: its name (the variant's,
/// `OutOfRange`), its title as the short description, the first paragraph
/// of its explanation (unwrapped) as the full one, and the whole explanation (with
/// its examples) as the help, in text and in Markdown.
fn rule(c: Code) -> ReportingDescriptor {
    let text = |t: &str| MultiformatMessageString::builder().text(t).build();
    let mut help = text(c.explanation());
    help.markdown = Some(c.explanation().to_string());
    let mut r = ReportingDescriptor::builder()
        .id(c.as_str())
        .name(c.name())
        .short_description(text(c.title()))
        .full_description(text(
            &c.description().split('\n').collect::<Vec<_>>().join(" "),
        ))
        .build();
    r.help = Some(help);
    r
}

/// The SARIF log of a run: its files (in the order checked) and the codes
/// of its results (the rules), around results written out before, one at
/// a time ([`result_element`]): the whole log of 800,000 errors held
/// about 5 KB of structures per result, and its text as one string, and
/// ran out of memory at 4 GiB.
pub struct Log<'a> {
    files: &'a [String],
    /// The codes of the diagnostics, sorted, one each (the rules).
    codes: Vec<Code>,
    /// File URIs relative to the directory `ptx` ran in (`%SRCROOT%`).
    base: Base,
}

/// A result's `ruleIndex` as [`result_element`] writes it: the code's
/// place in [`Code::ALL`], made the place among the log's rules when the
/// log is written ([`Log::write_pretty`]).
fn code_number(c: Code) -> Option<i64> {
    Code::ALL
        .iter()
        .position(|&x| x == c)
        .and_then(|i| i64::try_from(i).ok())
}

/// A location of `file` at `start`..`end` (its `index` in the artifacts
/// given), with a message.
fn location(
    base: &Base,
    file: &str,
    index: Option<i64>,
    start: (u32, u32),
    end: (u32, u32),
    message: Option<&str>,
) -> Location {
    let mut at = base.locate(file);
    at.index = index;
    let mut l = Location::builder()
        .physical_location(
            PhysicalLocation::builder()
                .artifact_location(at)
                .region(
                    Region::builder()
                        .start_line(i64::from(start.0))
                        .start_column(i64::from(start.1))
                        .end_line(i64::from(end.0))
                        .end_column(i64::from(
                            end.1.max(start.1.saturating_add(u32::from(end == start))),
                        ))
                        .build(),
                )
                .build(),
        )
        .build();
    l.message = message.map(|m| Message::builder().text(m).build());
    l
}

/// The result of one diagnostic, its file at `index` among the artifacts
/// and its rule at `rule`.
fn result(base: &Base, l: &Located, index: Option<i64>, rule: Option<i64>) -> SarifResult {
    let d = &l.diagnostic;
    let text = d.message_with_notes();
    let related: Vec<Location> = d
        .labels
        .iter()
        .zip(&l.labels)
        .map(|(label, &(s, e))| location(base, &l.file, index, s, e, Some(&label.message)))
        .collect();
    let mut r = SarifResult::builder()
        .rule_id(d.code.as_str())
        .message(Message::builder().text(text).build())
        .level(level(d.severity))
        .locations(vec![location(base, &l.file, index, l.start, l.end, None)])
        .build();
    r.rule_index = rule;
    if !related.is_empty() {
        r.related_locations = Some(related);
    }
    r
}

/// The key of an artifact's index and of a rule's index, as the lines of
/// a pretty-printed result hold them (a line of its own each: JSON strings
/// escape their line breaks, so no message text starts such a line).
const INDEX_KEY: &[u8] = b"\"index\": ";
const RULE_KEY: &[u8] = b"\"ruleIndex\": ";

/// Append the result of `l` to `out` as an element of the log's results
/// (`runs[0].results`, at depth 3), for [`Printer`](super::Printer) to
/// pass on: its artifact index is 0 until [`set_artifact`] sets it, and
/// its rule index is its code's number until [`Log::write_pretty`] makes
/// it the rule's place.
pub fn result_element(out: &mut Spool, l: &Located, base: &Base) {
    let r = result(base, l, Some(0), code_number(l.diagnostic.code));
    json_element_as_is(out, &r, 3);
}

/// Replace the number after `key` on `line`, if the line is that key's,
/// with `to(number)`; write the line.
fn rewrite(
    line: &[u8],
    key: &[u8],
    to: impl FnOnce(usize) -> Option<usize>,
    w: &mut dyn Write,
) -> std::io::Result<()> {
    let body = line.trim_ascii_start();
    let indent = line.len().saturating_sub(body.len());
    if let Some(rest) = body.strip_prefix(key) {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let n = std::str::from_utf8(rest.get(..digits).unwrap_or_default())
            .ok()
            .and_then(|t| t.parse::<usize>().ok());
        if let Some(new) = n.and_then(to) {
            w.write_all(line.get(..indent).unwrap_or_default())?;
            w.write_all(key)?;
            write!(w, "{new}")?;
            return w.write_all(rest.get(digits..).unwrap_or_default());
        }
    }
    w.write_all(line)
}

/// Write a line of results of the file at `artifact` among the log's
/// artifacts: its artifact indexes set to it.
pub fn set_artifact(line: &[u8], artifact: usize, w: &mut dyn Write) -> std::io::Result<()> {
    rewrite(line, INDEX_KEY, |_| Some(artifact), w)
}

impl<'a> Log<'a> {
    /// The log of results of `codes` (sorted, one each), from `files`.
    pub fn new(codes: Vec<Code>, files: &'a [String]) -> Log<'a> {
        Log {
            files,
            codes,
            base: Base::current(),
        }
    }

    /// The log with `results` as its run's results.
    fn with_results(&self, results: Vec<SarifResult>) -> Sarif {
        let rules: Vec<ReportingDescriptor> = self.codes.iter().map(|&c| rule(c)).collect();
        let artifacts: Vec<Artifact> = self
            .files
            .iter()
            .map(|f| Artifact::builder().location(self.base.locate(f)).build())
            .collect();
        let driver = ToolComponent::builder()
            .name("ptx")
            .version(env!("CARGO_PKG_VERSION"))
            .rules(rules)
            .build();
        let mut run = Run::builder()
            .tool(Tool::builder().driver(driver).build())
            .artifacts(artifacts)
            .results(results)
            .build();
        run.original_uri_base_ids = Some(self.base.ids());
        Sarif::builder()
            .version(Version::V2_1_0.to_string())
            .schema(SCHEMA_URL)
            .runs(vec![run])
            .build()
    }

    /// The whole log of `located`, held (for tests).
    #[cfg(test)]
    fn build(&self, located: &[Located]) -> Sarif {
        let results = located
            .iter()
            .map(|l| {
                let index = self.files.iter().position(|f| *f == l.file);
                let rule = self.codes.binary_search(&l.diagnostic.code).ok();
                result(
                    &self.base,
                    l,
                    index.and_then(|i| i64::try_from(i).ok()),
                    rule.and_then(|i| i64::try_from(i).ok()),
                )
            })
            .collect();
        self.with_results(results)
    }

    /// Write the log as `serde_json::to_writer_pretty` writes it whole,
    /// with `results` (made by [`result_element`] and [`set_artifact`])
    /// read back a line at a time as its run's results: the envelope is
    /// written with no results, and the results are spliced into its
    /// empty list.
    pub fn write_pretty(&self, results: Spool, w: &mut impl Write) -> std::io::Result<()> {
        let head = serde_json::to_string_pretty(&self.with_results(Vec::new()))
            .map_err(std::io::Error::other)?;
        // `runs[0].results` is the one empty list of results, at depth 3.
        const EMPTY: &str = "\"results\": []";
        let Some(at) = head.find(EMPTY) else {
            return Err(std::io::Error::other("no results in the SARIF envelope"));
        };
        let (before, after) = head.split_at(at);
        let after = after.get(EMPTY.len()..).unwrap_or_default();
        w.write_all(before.as_bytes())?;
        w.write_all(b"\"results\": [")?;
        let any = !results.is_empty();
        let codes = &self.codes;
        let mut line = |l: &[u8], w: &mut dyn Write| {
            rewrite(
                l,
                RULE_KEY,
                |n| {
                    let c = *Code::ALL.get(n)?;
                    codes.binary_search(&c).ok()
                },
                w,
            )
        };
        // The first result has no comma before it.
        results.copy_to(1, w, Some(&mut line))?;
        if any {
            w.write_all(b"\n      ")?;
        }
        w.write_all(b"]")?;
        w.write_all(after.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every severity has a SARIF level of its own name (none falls back).
    #[test]
    fn levels_by_name() {
        for s in Severity::ALL {
            assert_eq!(level(s).to_string(), s.as_str());
        }
        assert_eq!(level(Severity::Warning), ResultLevel::Warning);
    }

    /// The log written a result at a time is the log built whole, byte
    /// for byte: no results, one, several with related locations, from
    /// two files.
    #[test]
    fn streamed_log_is_the_built_log() {
        let src = b".version 8.0\n.target sm_90\n.address_size 64\n.global .u32 a;\n.global .u32 a;\nbogus;\n.entry k() { add.s32 %r1, %r2, 3; }\n";
        let parsed = ptxkit::parse(src);
        let mut ds = parsed.diagnostics.clone();
        ds.extend(ptxkit::check::check(
            &parsed.module,
            &ptxkit::check::CheckOptions::default(),
        ));
        assert!(ds.len() >= 3, "{ds:?}");
        assert!(ds.iter().any(|d| !d.labels.is_empty()), "{ds:?}");
        let index = ptxkit::LineIndex::new(src);
        let files = vec!["a.ptx".to_string(), "b.ptx".to_string()];
        for n in [0, 1, ds.len()] {
            // The first `n` in a.ptx, the same again in b.ptx.
            let located: Vec<Located> = files
                .iter()
                .flat_map(|f| ds[..n].iter().map(|d| Located::new(f, d, &index)))
                .collect();
            let mut codes: Vec<Code> = located.iter().map(|l| l.diagnostic.code).collect();
            codes.sort_unstable();
            codes.dedup();
            let log = Log::new(codes, &files);
            let mut results = Spool::new();
            for (i, f) in files.iter().enumerate() {
                let mut one = Spool::new();
                for l in located.iter().filter(|l| l.file == *f) {
                    result_element(&mut one, l, &log.base);
                }
                let mut set = |l: &[u8], w: &mut dyn Write| set_artifact(l, i, w);
                one.copy_to(0, &mut results, Some(&mut set)).unwrap();
            }
            let mut out = Vec::new();
            log.write_pretty(results, &mut out).unwrap();
            let whole = serde_json::to_string_pretty(&log.build(&located)).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), whole, "{n} results");
        }
    }
}
