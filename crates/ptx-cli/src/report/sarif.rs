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

use super::Located;

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

/// The SARIF log of these diagnostics, from these files (in the order
/// checked), built one result at a time as it is written: the whole log
/// of 800,000 errors held about 5 KB of structures per result, and its
/// text as one string, and ran out of memory at 4 GiB.
pub struct Log<'a> {
    located: &'a [Located],
    files: &'a [String],
    /// The codes of the diagnostics, sorted, one each (the rules).
    codes: Vec<Code>,
    /// File URIs relative to the directory `ptx` ran in (`%SRCROOT%`).
    base: super::sarif_uri::Base,
}

impl<'a> Log<'a> {
    /// The log of `located`, from `files`.
    pub fn new(located: &'a [Located], files: &'a [String]) -> Log<'a> {
        let mut codes: Vec<Code> = located.iter().map(|l| l.diagnostic.code).collect();
        codes.sort_unstable();
        codes.dedup();
        Log {
            located,
            files,
            codes,
            base: super::sarif_uri::Base::current(),
        }
    }

    fn location(
        &self,
        file: &str,
        start: (u32, u32),
        end: (u32, u32),
        message: Option<&str>,
    ) -> Location {
        let mut at = self.base.locate(file);
        at.index = self
            .files
            .iter()
            .position(|x| x == file)
            .and_then(|i| i64::try_from(i).ok());
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

    /// The result of one diagnostic.
    fn result(&self, l: &Located) -> SarifResult {
        let d = &l.diagnostic;
        let text = d.message_with_notes();
        let related: Vec<Location> = d
            .labels
            .iter()
            .zip(&l.labels)
            .map(|(label, &(s, e))| self.location(&l.file, s, e, Some(&label.message)))
            .collect();
        let mut r = SarifResult::builder()
            .rule_id(d.code.as_str())
            .message(Message::builder().text(text).build())
            .level(level(d.severity))
            .locations(vec![self.location(&l.file, l.start, l.end, None)])
            .build();
        r.rule_index = self
            .codes
            .binary_search(&d.code)
            .ok()
            .and_then(|i| i64::try_from(i).ok());
        if !related.is_empty() {
            r.related_locations = Some(related);
        }
        r
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

    /// The whole log, held (for small logs and tests).
    pub fn build(&self) -> Sarif {
        self.with_results(self.located.iter().map(|l| self.result(l)).collect())
    }

    /// Write the log as `serde_json::to_writer_pretty` writes
    /// [`Log::build`], byte for byte, holding one result at a time: the
    /// envelope is written with no results, and the results are spliced
    /// into its empty list, each indented to the list's depth.
    pub fn write_pretty(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        let head = serde_json::to_string_pretty(&self.with_results(Vec::new()))
            .map_err(std::io::Error::other)?;
        // `runs[0].results` is the one empty list of results, at depth 3.
        const EMPTY: &str = "\"results\": []";
        let Some(at) = head.find(EMPTY) else {
            return serde_json::to_writer_pretty(w, &self.build()).map_err(std::io::Error::other);
        };
        let (before, after) = head.split_at(at);
        let after = after.get(EMPTY.len()..).unwrap_or_default();
        w.write_all(before.as_bytes())?;
        w.write_all(b"\"results\": [")?;
        for (i, l) in self.located.iter().enumerate() {
            let one =
                serde_json::to_string_pretty(&self.result(l)).map_err(std::io::Error::other)?;
            w.write_all(if i == 0 {
                b"\n        "
            } else {
                b",\n        "
            })?;
            w.write_all(one.replace('\n', "\n        ").as_bytes())?;
        }
        if !self.located.is_empty() {
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
    /// for byte: no results, one, several with related locations.
    #[test]
    fn streamed_log_is_the_built_log() {
        let src = b".version 8.0\n.target sm_90\n.address_size 64\n.global .u32 a;\n.global .u32 a;\nbogus;\n";
        let parsed = ptxkit::parse(src);
        let mut ds = parsed.diagnostics.clone();
        ds.extend(ptxkit::check::check(
            &parsed.module,
            &ptxkit::check::CheckOptions::default(),
        ));
        assert!(ds.len() >= 2, "{ds:?}");
        let index = ptxkit::LineIndex::new(src);
        let located: Vec<Located> = ds
            .iter()
            .map(|d| Located::new("a.ptx", d, &index))
            .collect();
        let files = vec!["a.ptx".to_string()];
        for n in [0, 1, located.len()] {
            let log = Log::new(&located[..n], &files);
            let mut out = Vec::new();
            log.write_pretty(&mut out).unwrap();
            let whole = serde_json::to_string_pretty(&log.build()).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), whole, "{n} results");
        }
    }
}
