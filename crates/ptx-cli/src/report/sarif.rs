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

/// The log of these diagnostics, from these files (in the order checked).
pub fn log(located: &[Located], files: &[String]) -> Sarif {
    let mut codes: Vec<Code> = located.iter().map(|l| l.diagnostic.code).collect();
    codes.sort_unstable();
    codes.dedup();
    let rules: Vec<ReportingDescriptor> = codes.iter().map(|&c| rule(c)).collect();
    let artifact_index = |f: &str| files.iter().position(|x| x == f);
    // File URIs relative to the directory `ptx` ran in (`%SRCROOT%`).
    let base = super::sarif_uri::Base::current();
    let location = |file: &str, start: (u32, u32), end: (u32, u32), message: Option<&str>| {
        let mut at = base.locate(file);
        at.index = artifact_index(file).and_then(|i| i64::try_from(i).ok());
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
    };
    let results: Vec<SarifResult> = located
        .iter()
        .map(|l| {
            let d = &l.diagnostic;
            let text = d.message_with_notes();
            let related: Vec<Location> = d
                .labels
                .iter()
                .zip(&l.labels)
                .map(|(label, &(s, e))| location(&l.file, s, e, Some(&label.message)))
                .collect();
            let mut r = SarifResult::builder()
                .rule_id(d.code.as_str())
                .message(Message::builder().text(text).build())
                .level(level(d.severity))
                .locations(vec![location(&l.file, l.start, l.end, None)])
                .build();
            r.rule_index = codes
                .binary_search(&d.code)
                .ok()
                .and_then(|i| i64::try_from(i).ok());
            if !related.is_empty() {
                r.related_locations = Some(related);
            }
            r
        })
        .collect();
    let artifacts: Vec<Artifact> = files
        .iter()
        .map(|f| Artifact::builder().location(base.locate(f)).build())
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
    run.original_uri_base_ids = Some(base.ids());
    Sarif::builder()
        .version(Version::V2_1_0.to_string())
        .schema(SCHEMA_URL)
        .runs(vec![run])
        .build()
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
}
