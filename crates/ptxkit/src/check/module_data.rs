//! The module and directive facts of `isa/module.ptxisa` (known versions
//! and targets, `.target` options, `.align` and performance-directive
//! limits, initializer types), read once. The format is described in the
//! file's header and in `docs/catalog.md`.

use crate::isa::vocab::{ScalarType, StateSpace};
use crate::isa::PtxVersion;
use std::sync::OnceLock;

const SOURCE: &str = include_str!("../../isa/module.ptxisa");

/// Where ptxas blames a bad directive value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blame {
    /// The value itself.
    Value,
    /// The token after the directive's value list.
    Next,
    /// The function's closing brace (conflicts only).
    End,
    /// Where the later of the two directives is blamed (conflicts only).
    Later,
}

/// A kernel performance directive.
#[derive(Clone, Debug)]
pub struct DirectiveRule {
    /// Spelling, with the dot.
    pub name: String,
    /// Where a bad value is blamed.
    pub blame: Blame,
    /// Whether 0 is a valid value.
    pub zero_ok: bool,
    /// The first `.version` where the directive is an error.
    pub removed: Option<PtxVersion>,
}

/// The facts of `module.ptxisa`.
#[derive(Debug, Default)]
pub struct ModuleData {
    /// Known `.version`s.
    pub versions: Vec<PtxVersion>,
    /// Known targets (`sm_` spelling) with the first version allowing each.
    pub targets: Vec<(String, PtxVersion)>,
    /// `.target` options with their exclusion group.
    pub options: Vec<(String, Option<String>)>,
    /// Options that hold when the module declares no option of their
    /// group (`texmode_unified`).
    pub option_defaults: Vec<String>,
    /// Options that apply only below an sm number.
    pub options_below: Vec<(String, u32)>,
    /// Largest `.align`.
    pub align_max: u64,
    /// A kernel's static `.shared` bytes at most, on targets not listed in
    /// [`ModuleData::shared_static_on`].
    pub shared_static: u64,
    /// The same on particular targets (`sm_90a`).
    pub shared_static_on: Vec<(String, u64)>,
    /// Performance directives.
    pub directives: Vec<DirectiveRule>,
    /// Directives introduced late: name, first `.version`, first sm number.
    pub directive_since: Vec<(String, PtxVersion, u32)>,
    /// Directives that are valid only together with all of the others named.
    pub directive_needs: Vec<(String, Vec<String>)>,
    /// Directive pairs that exclude each other, and where the conflict is
    /// blamed.
    pub conflicts: Vec<(String, String, Blame)>,
    /// Types a symbol's address may initialize.
    pub init_address: Vec<String>,
    /// Types that take no initializer.
    pub init_none: Vec<String>,
    /// Types no initial value fits (any is a type mismatch).
    pub init_never: Vec<String>,
    /// `section-feature`: what a `.section` body may hold from which
    /// `.version` on (`label`, `label-offset`, `label-diff`, `negative`).
    pub section_features: Vec<(String, PtxVersion)>,
    /// Declaration words (a linkage, a function directive, a declared type,
    /// a module directive) with the first `.version` and the lowest target
    /// number that allow them.
    pub since: Vec<(String, PtxVersion, Option<u32>)>,
    /// State spaces a module-scope variable may not be in, from the
    /// `.version` given on (`module-space-removed`).
    pub module_spaces_removed: Vec<(StateSpace, PtxVersion)>,
    /// State spaces no variable may be in from the `.version` given on
    /// (`space-removed`).
    pub spaces_removed: Vec<(StateSpace, PtxVersion)>,
    /// State spaces no variable of a function's body may be in
    /// (`function-space-never`).
    pub function_spaces_never: Vec<StateSpace>,
    /// Vector lengths a declaration may have (`var-vectors`: 2, 4).
    pub var_vectors: Vec<u8>,
    /// The largest vector a declaration may have, in bits.
    pub var_vector_bits: u32,
    /// The one state space a `.pred` declaration may be in.
    pub var_pred_space: Option<StateSpace>,
    /// Types no declaration may have.
    pub var_type_never: Vec<ScalarType>,
    /// State spaces where nothing declared is an array.
    pub array_never: Vec<StateSpace>,
    /// The one state space of a kernel's parameters.
    pub entry_param_space: Option<StateSpace>,
    /// The state space of every return parameter when there are several.
    pub returns_space: Option<StateSpace>,
    /// State spaces whose parameters are never vectors.
    pub param_vector_never: Vec<StateSpace>,
    /// Directives a function with return parameters cannot have.
    pub directive_no_returns: Vec<String>,
    /// A linkage and the state spaces a variable with it may be in.
    pub linkage_spaces: Vec<(String, Vec<StateSpace>)>,
    /// Types of variables declared only at module scope or as a kernel's
    /// parameters.
    pub opaque_types: Vec<ScalarType>,
    /// `.pragma` strings (their first word) and the scopes that take them
    /// (`module`, `entry`, `body`).
    pub pragmas: Vec<(String, Vec<String>)>,
    /// Whether `.ptr` attributes belong to a kernel's parameters only.
    pub ptr_kernel_only: bool,
    /// An `.attribute` and the state spaces that take it.
    pub attribute_spaces: Vec<(String, Vec<StateSpace>)>,
    /// The state spaces a `.ptr` attribute may name (`ptr-spaces`).
    pub ptr_spaces: Vec<StateSpace>,
    /// Opaque types declared only where a `.target` option holds
    /// (`opaque-needs`).
    pub opaque_needs: Vec<(ScalarType, String)>,
    /// The fields an initializer of each opaque type may set
    /// (`opaque-fields`).
    pub opaque_fields: Vec<(ScalarType, Vec<String>)>,
    /// Whether module-scope names may not be special registers'
    /// (`module-names-not-sregs`).
    pub module_names_not_sregs: bool,
    /// The values a `.section` data line of each type may hold: least and
    /// greatest (`section-range`).
    pub section_ranges: Vec<(ScalarType, SectionRange)>,
    /// The `.section` data types that may hold a label's address.
    pub section_label_types: Vec<ScalarType>,
    /// The types of `.section` data lines (`section-types`).
    pub section_types: Vec<ScalarType>,
}

/// The values a `.section` data line of one type may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionRange {
    /// The most negative value (a negated value runs from -1 down to it).
    pub min: Option<i128>,
    /// The greatest value.
    pub max: Option<u64>,
}

fn version(s: &str) -> Option<PtxVersion> {
    let (a, b) = s.split_once('.')?;
    Some(PtxVersion {
        major: a.parse().ok()?,
        minor: b.parse().ok()?,
    })
}

fn space(s: &str) -> Option<StateSpace> {
    StateSpace::from_spelling(s)
}

fn scalar(s: &str) -> Option<ScalarType> {
    ScalarType::from_spelling(s)
}

/// The state spaces spelled `spaces`, if each is one.
fn spaces_of(spaces: &[&str]) -> Option<Vec<StateSpace>> {
    spaces.iter().map(|s| space(s)).collect()
}

/// The version `space` is removed from in `list`, if it is.
fn removed_from(list: &[(StateSpace, PtxVersion)], space: StateSpace) -> Option<PtxVersion> {
    list.iter().find(|(s, _)| *s == space).map(|(_, v)| *v)
}

/// The `.section` body features `section-feature` lines may name.
pub const SECTION_FEATURES: [&str; 4] = ["label", "label-offset", "label-diff", "negative"];

fn blame(s: &str) -> Option<Blame> {
    Some(match s {
        "value" => Blame::Value,
        "next" => Blame::Next,
        "end" => Blame::End,
        "later" => Blame::Later,
        _ => return None,
    })
}

/// Parse the data; `Err` names the first bad line.
pub fn parse(src: &str) -> Result<ModuleData, String> {
    let mut d = ModuleData::default();
    for (n, raw) in src.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or_default();
        let w: Vec<&str> = line.split_whitespace().collect();
        let bad = || {
            format!(
                "module.ptxisa line {}: `{}`",
                n.saturating_add(1),
                raw.trim()
            )
        };
        let Some((&key, args)) = w.split_first() else {
            continue;
        };
        match (key, args) {
            ("version", vs) if !vs.is_empty() => {
                for v in vs {
                    d.versions.push(version(v).ok_or_else(bad)?);
                }
            }
            ("target", [name, v]) => d
                .targets
                .push((name.to_string(), version(v).ok_or_else(bad)?)),
            ("option", [name]) => d.options.push((name.to_string(), None)),
            ("option", [name, group]) => {
                d.options.push((name.to_string(), Some(group.to_string())))
            }
            ("option", [name, group, "default"]) => {
                d.options.push((name.to_string(), Some(group.to_string())));
                d.option_defaults.push(name.to_string());
            }
            ("option-below", [name, sm]) => d
                .options_below
                .push((name.to_string(), sm.parse().map_err(|_| bad())?)),
            ("align-max", [v]) => d.align_max = v.parse().map_err(|_| bad())?,
            ("shared-static", [v]) => d.shared_static = v.parse().map_err(|_| bad())?,
            ("shared-static", [t, v]) => d
                .shared_static_on
                .push((t.to_string(), v.parse().map_err(|_| bad())?)),
            ("directive", [name, b, zero]) => d.directives.push(DirectiveRule {
                name: name.to_string(),
                blame: blame(b).ok_or_else(bad)?,
                zero_ok: match *zero {
                    "zero-ok" => true,
                    "nonzero" => false,
                    _ => return Err(bad()),
                },
                removed: None,
            }),
            ("array-never", [sp]) => d.array_never.push(space(sp).ok_or_else(bad)?),
            ("entry-param-space", [sp]) => d.entry_param_space = Some(space(sp).ok_or_else(bad)?),
            ("returns-space", [sp]) => d.returns_space = Some(space(sp).ok_or_else(bad)?),
            ("param-vector-never", [sp]) => d.param_vector_never.push(space(sp).ok_or_else(bad)?),
            ("directive-no-returns", [dir]) => d.directive_no_returns.push(dir.to_string()),
            ("linkage-space", [linkage, spaces @ ..]) if !spaces.is_empty() => d
                .linkage_spaces
                .push((linkage.to_string(), spaces_of(spaces).ok_or_else(bad)?)),
            ("ptr-kernel-only", []) => d.ptr_kernel_only = true,
            ("ptr-spaces", spaces) if !spaces.is_empty() => {
                d.ptr_spaces = spaces_of(spaces).ok_or_else(bad)?;
            }
            ("opaque-needs", [ty, option]) => d
                .opaque_needs
                .push((scalar(ty).ok_or_else(bad)?, option.to_string())),
            ("opaque-fields", [ty, fields @ ..]) if !fields.is_empty() => d.opaque_fields.push((
                scalar(ty).ok_or_else(bad)?,
                fields.iter().map(|f| f.to_string()).collect(),
            )),
            ("module-names-not-sregs", []) => d.module_names_not_sregs = true,
            ("section-range", [ty, min, max]) => {
                let bound = |w: &str| (w != "-").then(|| w.parse::<i128>().ok());
                let (min, max) = (bound(min), bound(max));
                if min.is_some_and(|m| m.is_none_or(|m| m > 0)) || max.is_some_and(|m| m.is_none())
                {
                    return Err(bad());
                }
                d.section_ranges.push((
                    scalar(ty).ok_or_else(bad)?,
                    SectionRange {
                        min: min.flatten(),
                        max: max.flatten().and_then(|m| u64::try_from(m).ok()),
                    },
                ));
            }
            ("section-types", ts) if !ts.is_empty() => {
                for t in ts {
                    d.section_types.push(scalar(t).ok_or_else(bad)?);
                }
            }
            ("section-label-types", ts) if !ts.is_empty() => {
                for t in ts {
                    d.section_label_types.push(scalar(t).ok_or_else(bad)?);
                }
            }
            ("pragma", [word, scopes @ ..]) if !scopes.is_empty() => {
                if scopes
                    .iter()
                    .any(|s| !["module", "entry", "body"].contains(s))
                {
                    return Err(bad());
                }
                d.pragmas.push((
                    word.to_string(),
                    scopes.iter().map(|s| s.to_string()).collect(),
                ));
            }
            ("opaque-types", ts) if !ts.is_empty() => {
                for t in ts {
                    d.opaque_types.push(scalar(t).ok_or_else(bad)?);
                }
            }
            ("space-removed", [sp, v]) => {
                let v = version(v).ok_or_else(bad)?;
                d.spaces_removed.push((space(sp).ok_or_else(bad)?, v));
            }
            ("function-space-never", [sp]) => {
                d.function_spaces_never.push(space(sp).ok_or_else(bad)?);
            }
            ("var-vectors", vs) if !vs.is_empty() => {
                for v in vs {
                    let n = v.strip_prefix(".v").and_then(|n| n.parse().ok());
                    d.var_vectors.push(n.ok_or_else(bad)?);
                }
            }
            ("var-vector-bits", [n]) => d.var_vector_bits = n.parse().map_err(|_| bad())?,
            ("var-pred-space", [sp]) => d.var_pred_space = Some(space(sp).ok_or_else(bad)?),
            ("var-type-never", ts) if !ts.is_empty() => {
                for t in ts {
                    d.var_type_never.push(scalar(t).ok_or_else(bad)?);
                }
            }
            ("attribute-space", [attr, spaces @ ..]) if !spaces.is_empty() => d
                .attribute_spaces
                .push((attr.to_string(), spaces_of(spaces).ok_or_else(bad)?)),
            ("module-space-removed", [sp, v]) => {
                let v = version(v).ok_or_else(bad)?;
                d.module_spaces_removed
                    .push((space(sp).ok_or_else(bad)?, v));
            }
            ("directive-removed", [name, v]) => {
                let v = version(v).ok_or_else(bad)?;
                let r = d
                    .directives
                    .iter_mut()
                    .find(|r| r.name == *name)
                    .ok_or_else(bad)?;
                r.removed = Some(v);
            }
            ("directive-since", [name, v, sm]) => d.directive_since.push((
                name.to_string(),
                version(v).ok_or_else(bad)?,
                sm.parse().map_err(|_| bad())?,
            )),
            ("directive-needs", [name, rest @ ..]) if !rest.is_empty() => d.directive_needs.push((
                name.to_string(),
                rest.iter().map(|r| r.to_string()).collect(),
            )),
            ("conflict", [a, b, how]) => {
                d.conflicts
                    .push((a.to_string(), b.to_string(), blame(how).ok_or_else(bad)?));
            }
            ("init-address", ts) => d.init_address.extend(ts.iter().map(|t| t.to_string())),
            ("init-none", ts) => d.init_none.extend(ts.iter().map(|t| t.to_string())),
            ("init-never", ts) => d.init_never.extend(ts.iter().map(|t| t.to_string())),
            ("section-feature", [name, v]) if SECTION_FEATURES.contains(name) => d
                .section_features
                .push((name.to_string(), version(v).ok_or_else(bad)?)),
            ("since", [word, v]) => {
                d.since
                    .push((word.to_string(), version(v).ok_or_else(bad)?, None))
            }
            ("since", [word, v, sm]) => {
                let num = sm
                    .strip_prefix("sm_")
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(bad)?;
                d.since
                    .push((word.to_string(), version(v).ok_or_else(bad)?, Some(num)))
            }
            _ => return Err(bad()),
        }
    }
    Ok(d)
}

/// The facts, parsed on first use (the file is part of the crate: a bad
/// line is a bug, caught by the unit test below, and yields empty data).
pub fn data() -> &'static ModuleData {
    static DATA: OnceLock<ModuleData> = OnceLock::new();
    DATA.get_or_init(|| parse(SOURCE).unwrap_or_default())
}

impl ModuleData {
    /// A kernel's static `.shared` bytes at most on `target` (`sm_90a`;
    /// the general limit when none is known).
    pub fn shared_static_max(&self, target: Option<&str>) -> u64 {
        target
            .and_then(|t| self.shared_static_on.iter().find(|(n, _)| n == t))
            .map_or(self.shared_static, |(_, b)| *b)
    }

    /// The newest known version.
    pub fn current(&self) -> Option<PtxVersion> {
        self.versions.iter().copied().max()
    }

    /// The first `.version` whose `.section` bodies may use `name` (a
    /// [`SECTION_FEATURES`] word), if `module.ptxisa` states one.
    pub fn section_feature(&self, name: &str) -> Option<PtxVersion> {
        self.section_features
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
    }

    /// Whether ptxas knows `.version v`.
    pub fn knows_version(&self, v: PtxVersion) -> bool {
        self.versions.contains(&v)
    }

    /// The first version that allows `.target name` (`sm_90a`,
    /// `compute_90a`); `None` for a target ptxas does not know.
    pub fn min_ptx_for(&self, name: &str) -> Option<PtxVersion> {
        let rest = name
            .strip_prefix("sm_")
            .or_else(|| name.strip_prefix("compute_"))?;
        // `sm_090` is `sm_90`.
        let digits = rest.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let suffix = &rest[digits.len()..];
        let num: u32 = digits.parse().ok()?;
        let canon = format!("sm_{num}{suffix}");
        self.targets
            .iter()
            .find(|(t, _)| *t == canon)
            .map(|(_, v)| *v)
    }

    /// The first `.version` from which a module-scope variable may not be
    /// in state space `space` (`.reg`, `.local`).
    pub fn module_space_removed(&self, space: StateSpace) -> Option<PtxVersion> {
        removed_from(&self.module_spaces_removed, space)
    }

    /// The first `.version` from which no variable may be in state space
    /// `space` (`.tex`).
    pub fn space_removed(&self, space: StateSpace) -> Option<PtxVersion> {
        removed_from(&self.spaces_removed, space)
    }

    /// The first version (and lowest target number) that allows the
    /// declaration word `word` (`.weak`, `.noreturn`, `.f16x2`), if it is
    /// newer than the oldest PTX.
    pub fn since(&self, word: &str) -> Option<(PtxVersion, Option<u32>)> {
        self.since
            .iter()
            .find(|(w, _, _)| w == word)
            .map(|(_, v, sm)| (*v, *sm))
    }

    /// The fields an initializer of opaque type `ty` may set, if
    /// `module.ptxisa` lists them.
    pub fn opaque_fields(&self, ty: ScalarType) -> Option<&[String]> {
        self.opaque_fields
            .iter()
            .find(|(t, _)| *t == ty)
            .map(|(_, f)| f.as_slice())
    }

    /// The `.target` option a variable of opaque type `ty` needs, if any.
    pub fn opaque_needs(&self, ty: ScalarType) -> Option<&str> {
        self.opaque_needs
            .iter()
            .find(|(t, _)| *t == ty)
            .map(|(_, o)| o.as_str())
    }

    /// The values a `.section` data line of type `ty` may hold (`None`:
    /// any).
    pub fn section_range(&self, ty: ScalarType) -> Option<SectionRange> {
        self.section_ranges
            .iter()
            .find(|(t, _)| *t == ty)
            .map(|(_, r)| *r)
    }

    /// The rule of a performance directive.
    pub fn directive(&self, name: &str) -> Option<&DirectiveRule> {
        self.directives.iter().find(|d| d.name == name)
    }

    /// The exclusion group of a `.target` option; `None` if unknown.
    pub fn option(&self, name: &str) -> Option<Option<&str>> {
        self.options
            .iter()
            .find(|(o, _)| o == name)
            .map(|(_, g)| g.as_deref())
    }

    /// The index of a `.target` option in [`ModuleData::options`].
    pub fn option_index(&self, name: &str) -> Option<usize> {
        self.options.iter().position(|(o, _)| o == name)
    }

    /// Whether option `name` is in effect for a module whose `.target`
    /// declares the options whose indices are the set bits of `declared`:
    /// declared, or its group's default with no option of that group
    /// declared.
    pub fn option_holds(&self, name: &str, declared: u32) -> bool {
        let Some(k) = self.option_index(name) else {
            return false;
        };
        if declared & (1 << k) != 0 {
            return true;
        }
        let Some(Some(group)) = self.options.get(k).map(|(_, g)| g.as_deref()) else {
            return false;
        };
        self.option_defaults.iter().any(|d| d == name)
            && !self
                .options
                .iter()
                .enumerate()
                .any(|(j, (_, g))| g.as_deref() == Some(group) && declared & (1 << j) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Error lines of a kernel with the given directives (line 5 on), as
    /// `ptx check` reports them.
    fn directive_errors(version: &str, target: &str, dirs: &str) -> Vec<u32> {
        let src = format!(
            ".version {version}\n.target {target}\n.address_size 64\n.visible .entry k()\n{dirs}\n{{\n ret;\n}}\n"
        );
        let index = crate::LineIndex::new(src.as_bytes());
        let mut v: Vec<u32> = crate::check::check_source(src.as_bytes(), &Default::default())
            .iter()
            .filter(|d| d.is_error())
            .map(|d| index.line_col(d.span.start).line)
            .collect();
        v.dedup();
        v
    }

    /// ptxas 13.5's verdicts (lines) on the cluster directives.
    #[test]
    fn late_directives_need_their_version_and_target() {
        assert_eq!(
            directive_errors("9.4", "sm_80", ".explicitcluster"),
            vec![5]
        );
        assert_eq!(
            directive_errors("9.4", "sm_89", ".maxclusterrank 4"),
            vec![5]
        );
        assert_eq!(
            directive_errors("9.4", "sm_88", ".reqnctapercluster 2, 1, 1"),
            vec![5]
        );
        assert_eq!(
            directive_errors("9.4", "sm_90", ".explicitcluster"),
            Vec::<u32>::new()
        );
        assert_eq!(
            directive_errors("9.4", "sm_100a", ".reqnctapercluster 2"),
            Vec::<u32>::new()
        );
        // .blocksareclusters: PTX 9.0, and only beside .reqntid and .reqnctapercluster.
        let all = ".reqntid 32\n.reqnctapercluster 2\n.blocksareclusters";
        assert_eq!(directive_errors("9.0", "sm_90", all), Vec::<u32>::new());
        assert_eq!(directive_errors("8.8", "sm_90", all), vec![7]);
        assert_eq!(
            directive_errors("9.0", "sm_90", ".blocksareclusters\n.reqntid 32"),
            vec![9]
        );
        assert_eq!(
            directive_errors(
                "9.0",
                "sm_90",
                ".blocksareclusters\n.maxntid 32\n.reqnctapercluster 2"
            ),
            vec![10]
        );
    }

    #[test]
    fn the_data_parses() {
        let d = parse(SOURCE);
        assert!(d.is_ok(), "{d:?}");
        let d = d.unwrap_or_default();
        assert!(d.versions.len() > 40);
        let v = |major, minor| Some(PtxVersion { major, minor });
        assert_eq!(d.current(), v(9, 5));
        assert_eq!(d.min_ptx_for("sm_90a"), v(8, 0));
        assert_eq!(d.min_ptx_for("compute_90"), v(7, 8));
        assert_eq!(d.min_ptx_for("sm_090"), v(7, 8));
        assert_eq!(d.min_ptx_for("sm_999"), None);
        assert_eq!(d.min_ptx_for("sm_90f"), None);
        assert_eq!(d.min_ptx_for("gfx90a"), None);
        assert_eq!(d.option("texmode_unified"), Some(Some("texmode")));
        assert!(d.directive(".reqntid").is_some_and(|r| !r.zero_ok));
        assert_eq!(
            d.since(".weak"),
            Some((PtxVersion { major: 3, minor: 1 }, None))
        );
        assert_eq!(
            d.since(".f16x2"),
            Some((PtxVersion { major: 4, minor: 2 }, Some(53)))
        );
        assert_eq!(d.since(".visible"), None);
        // The texture mode: unified unless independent is declared.
        let bit = |n: &str| d.option_index(n).map_or(0, |k| 1u32 << k);
        assert!(d.option_holds("texmode_unified", 0));
        assert!(!d.option_holds("texmode_independent", 0));
        assert!(d.option_holds("texmode_independent", bit("texmode_independent")));
        assert!(!d.option_holds("texmode_unified", bit("texmode_independent")));
        assert!(d.option_holds("texmode_unified", bit("texmode_unified") | bit("debug")));
        assert!(!d.option_holds("debug", 0));
        assert!(parse("bogus line").is_err());
        assert!(parse("target sm_90").is_err());
        assert_eq!(d.section_feature("label"), v(7, 0));
        assert!(parse("section-feature bogus 7.0").is_err());
        assert_eq!(
            d.section_range(ScalarType::B8),
            Some(SectionRange {
                min: Some(-128),
                max: Some(255)
            })
        );
        assert_eq!(d.section_range(ScalarType::B32).map(|r| r.max), Some(None));
        assert_eq!(d.section_range(ScalarType::B64), None);
        assert!(parse("section-range .b8 1 255").is_err());
        assert!(parse("section-range .b8 -1 x").is_err());
        assert_eq!(
            d.opaque_needs(ScalarType::SamplerRef),
            Some("texmode_independent")
        );
        assert!(d
            .opaque_fields(ScalarType::SurfRef)
            .is_some_and(
                |f| f.iter().any(|f| f == "width") && !f.iter().any(|f| f == "filter_mode")
            ));
        assert!(d.module_names_not_sregs);
        assert_eq!(d.ptr_spaces.len(), 4);
    }
}
