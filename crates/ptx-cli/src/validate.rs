//! Checking option values against the catalog (clap value parsers): a
//! target or PTX version the catalog does not know is a usage error (exit
//! 2) naming the valid choices and the closest one.

use ptxkit::check::module_data;
use ptxkit::isa::PtxVersion;
use ptxkit::suggest;

/// The targets the catalog knows (`isa/module.ptxisa`), by number.
fn targets() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = module_data::data()
        .targets
        .iter()
        .map(|(t, _)| t.as_str())
        .collect();
    let num = |t: &str| -> (u32, usize) {
        let digits: String = t.chars().filter(char::is_ascii_digit).collect();
        (digits.parse().unwrap_or(0), t.len())
    };
    v.sort_by_key(|t| num(t));
    v
}

/// `80` and `90a` are `sm_80` and `sm_90a`; `SM_80` is `sm_80`.
fn normalise(s: &str) -> String {
    let s = s.trim().to_ascii_lowercase();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("sm_{s}")
    } else {
        s
    }
}

fn unknown_target(given: &str, as_sm: &str) -> String {
    let known = targets();
    format!(
        "unknown target `{given}`{}\n  valid targets: {}",
        suggest::did_you_mean(as_sm, known.iter().copied()),
        known.join(" ")
    )
}

/// A `--target`: a target the catalog knows (`sm_80`, `sm_90a`,
/// `compute_90`), given as written or as a bare number (`80`).
pub fn target(s: &str) -> Result<String, String> {
    let t = normalise(s);
    if module_data::data().min_ptx_for(&t).is_some() {
        Ok(t)
    } else {
        Err(unknown_target(s, &t))
    }
}

/// An `--arch` (binary entries): a known target as `sm_XX`, `compute_XX`
/// or a bare number; kept as written, since it is matched against entries
/// in either spelling.
pub fn arch(s: &str) -> Result<String, String> {
    let t = normalise(s);
    let sm = t.replacen("compute_", "sm_", 1);
    if module_data::data().min_ptx_for(&sm).is_some() {
        Ok(s.trim().to_string())
    } else {
        Err(unknown_target(s, &sm))
    }
}

/// A `--ptx-version`: `M.m`, one the catalog knows.
pub fn version(s: &str) -> Result<PtxVersion, String> {
    let data = module_data::data();
    let known: Vec<String> = data.versions.iter().map(|v| v.to_string()).collect();
    let parsed = s.trim().split_once('.').and_then(|(a, b)| {
        Some(PtxVersion {
            major: a.parse().ok()?,
            minor: b.parse().ok()?,
        })
    });
    match parsed {
        Some(v) if data.knows_version(v) => Ok(v),
        _ => {
            // The numerically nearest known version (the older on a tie).
            let value = |v: PtxVersion| {
                u32::from(v.major)
                    .saturating_mul(10)
                    .saturating_add(u32::from(v.minor))
            };
            let near = parsed.and_then(|p| {
                data.versions
                    .iter()
                    .min_by_key(|k| (value(**k).abs_diff(value(p)), value(**k)))
            });
            Err(format!(
                "unknown PTX version `{s}`{}\n  valid versions: {}",
                near.map(|v| format!("; did you mean `{v}`?"))
                    .unwrap_or_default(),
                known.join(" ")
            ))
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn targets_and_versions() {
        assert_eq!(target("sm_80").as_deref(), Ok("sm_80"));
        assert_eq!(target("80").as_deref(), Ok("sm_80"));
        assert_eq!(target("90a").as_deref(), Ok("sm_90a"));
        assert_eq!(target("compute_90").as_deref(), Ok("compute_90"));
        let e = target("sm_999").unwrap_err();
        assert!(e.contains("unknown target `sm_999`"), "{e}");
        assert!(e.contains("valid targets: sm_10"), "{e}");
        assert!(target("banana").is_err());
        assert!(target("sm_8O")
            .unwrap_err()
            .contains("did you mean `sm_80`?"));
        assert_eq!(arch("86").as_deref(), Ok("86"));
        assert!(arch("compute_999").is_err());
        assert_eq!(version("7.8"), Ok(PtxVersion { major: 7, minor: 8 }));
        let e = version("7.9").unwrap_err();
        assert!(e.contains("did you mean `7.8`?"), "{e}");
        assert!(version("9.9").unwrap_err().contains("did you mean `9.5`?"));
        assert!(!version("x").unwrap_err().contains("did you mean"));
    }
}
