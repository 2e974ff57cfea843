//! Targets (`sm_90a`, `sm_100f`…) and whether a module satisfies a catalog
//! requirement (spec 11.1.2 and its architecture families).

use crate::isa::{PtxVersion, Requirement};

/// Arch-specific (`a`) or family (`f`) suffix of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Suffix {
    /// `sm_90`: baseline features.
    None,
    /// `sm_100f`: family-specific features too.
    Family,
    /// `sm_90a`: architecture-specific features too (a superset of `f`).
    Arch,
}

/// A parsed `sm_NN[a|f]` target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sm {
    /// The number: 90 for `sm_90a`.
    pub num: u32,
    /// The suffix.
    pub suffix: Suffix,
}

impl Sm {
    /// Parse `sm_NN`, `sm_NNa`, `sm_NNf` (also `compute_NN`).
    pub fn parse(s: &str) -> Option<Sm> {
        let rest = s
            .strip_prefix("sm_")
            .or_else(|| s.strip_prefix("compute_"))?;
        let (digits, suffix) = match rest.as_bytes().last()? {
            b'a' => (rest.strip_suffix('a')?, Suffix::Arch),
            b'f' => (rest.strip_suffix('f')?, Suffix::Family),
            _ => (rest, Suffix::None),
        };
        Some(Sm {
            num: digits.parse().ok()?,
            suffix,
        })
    }

    /// The architecture family (Table 70): 10 for sm_100/103/107, 11 for
    /// sm_110 (and sm_101, renamed to sm_110), 12 for sm_120/121.
    pub fn family(self) -> Option<u32> {
        match self.num {
            101 => Some(11),
            n if n >= 100 => Some(n / 10),
            _ => None,
        }
    }

    /// Whether a module compiled for `self` may use a feature that needs `req`.
    pub fn satisfies(self, req: Sm) -> bool {
        match req.suffix {
            Suffix::None => self.num >= req.num,
            Suffix::Arch => self.suffix == Suffix::Arch && self.num == req.num,
            Suffix::Family => {
                self.suffix >= Suffix::Family
                    && self.family().is_some()
                    && self.family() == req.family()
                    && self.num >= req.num
            }
        }
    }
}

impl std::fmt::Display for Sm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self.suffix {
            Suffix::None => "",
            Suffix::Family => "f",
            Suffix::Arch => "a",
        };
        write!(f, "sm_{}{}", self.num, s)
    }
}

/// The first PTX ISA version that accepts `.target sm` (the release
/// history and what ptxas 13.5 knows beyond it: `isa/module.ptxisa`).
/// `None` for targets ptxas does not know.
pub fn min_ptx_for(sm: Sm) -> Option<PtxVersion> {
    super::module_data::data().min_ptx_for(&sm.to_string())
}

/// What a module is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    /// `.version`.
    pub ptx: Option<PtxVersion>,
    /// The target architecture.
    pub sm: Option<Sm>,
    /// The `.target` options declared, as bits over the options of
    /// `module.ptxisa` ([`super::module_data::ModuleData::option_index`]).
    pub opts: u32,
}

/// Why a requirement is not met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unmet {
    /// Needs a newer `.version`.
    Ptx(PtxVersion),
    /// Needs another target (as written in the catalog).
    Target(String),
    /// No longer available: the module's version and target reached the
    /// upper bound (`until_ptx`, `until_sm`; `None` when not bounded).
    Removed {
        /// From this version on (`None`: at every version).
        ptx: Option<PtxVersion>,
        /// On this target and higher (`None`: on every target).
        sm: Option<&'static str>,
    },
    /// Needs a `.target` option the module is not in.
    Option(&'static str),
}

impl Env {
    /// Check `req`; `None` when satisfied (or when the module does not say).
    pub fn unmet(&self, req: &Requirement) -> Option<Unmet> {
        if let (Some(need), Some(have)) = (req.ptx, self.ptx) {
            if have < need {
                return Some(Unmet::Ptx(need));
            }
        }
        if let (Some(sm), Some(have)) = (req.sm, self.sm) {
            if sm != "all" {
                // An item `sm_89@8.1` is that target from that version on
                // (ptxas 13.5: the FP8 conversions from 7.8 on sm_90, from
                // 8.1 on sm_89).
                let mut later: Option<PtxVersion> = None;
                let ok = sm.split('|').any(|item| {
                    let (t, since) = match item.split_once('@') {
                        Some((t, v)) => (t, PtxVersion::parse(v)),
                        None => (item, None),
                    };
                    let target_ok = Sm::parse(t).is_some_and(|r| have.satisfies(r));
                    let version_ok = match (since, self.ptx) {
                        (Some(need), Some(v)) => v >= need,
                        _ => true,
                    };
                    if target_ok && !version_ok {
                        later = since;
                    }
                    target_ok && version_ok
                });
                if !ok {
                    return Some(match later {
                        Some(v) => Unmet::Ptx(v),
                        None => Unmet::Target(sm.replace('|', " or ")),
                    });
                }
            }
        }
        if req.has_until() && self.reached(req) {
            return Some(Unmet::Removed {
                ptx: req.until_ptx,
                sm: req.until_sm,
            });
        }
        if let Some(opt) = req.opt {
            if !super::module_data::data().option_holds(opt, self.opts) {
                return Some(Unmet::Option(opt));
            }
        }
        None
    }

    /// Whether the module reached the upper bound of `req`: its version is
    /// at least `until_ptx`, its target's number at least `until_sm`'s and
    /// it is in the option `until_opt` (a bound the module does not say
    /// anything about is not reached).
    fn reached(&self, req: &Requirement) -> bool {
        if let Some(o) = req.until_opt {
            if !super::module_data::data().option_holds(o, self.opts) {
                return false;
            }
        }
        let ptx = match req.until_ptx {
            None => true,
            Some(u) => self.ptx.is_some_and(|have| have >= u),
        };
        let sm = match req.until_sm.and_then(Sm::parse) {
            None => true,
            Some(u) => self.sm.is_some_and(|have| have.num >= u.num),
        };
        ptx && sm
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sm(s: &str) -> Sm {
        Sm::parse(s).unwrap_or(Sm {
            num: 0,
            suffix: Suffix::None,
        })
    }

    #[test]
    fn target_rules() {
        assert!(sm("sm_90").satisfies(sm("sm_80")));
        assert!(!sm("sm_75").satisfies(sm("sm_80")));
        assert!(sm("sm_90a").satisfies(sm("sm_90a")));
        assert!(!sm("sm_90").satisfies(sm("sm_90a")));
        assert!(!sm("sm_100a").satisfies(sm("sm_90a")));
        assert!(sm("sm_103f").satisfies(sm("sm_100f")));
        assert!(sm("sm_100a").satisfies(sm("sm_100f")));
        assert!(!sm("sm_100").satisfies(sm("sm_100f")));
        assert!(!sm("sm_120f").satisfies(sm("sm_100f")));
        assert!(!sm("sm_100f").satisfies(sm("sm_103f")));
        assert!(sm("sm_110f").satisfies(sm("sm_101f")));
        assert_eq!(sm("sm_100a").to_string(), "sm_100a");
    }

    #[test]
    fn env_requirements() {
        let env = Env {
            ptx: Some(PtxVersion { major: 8, minor: 0 }),
            sm: Sm::parse("sm_90"),
            opts: 0,
        };
        let need = |ptx: Option<(u8, u8)>, sm: Option<&'static str>| Requirement {
            ptx: ptx.map(|(major, minor)| PtxVersion { major, minor }),
            sm,
            ..Requirement::default()
        };
        assert_eq!(env.unmet(&need(Some((7, 8)), Some("sm_90"))), None);
        assert_eq!(
            env.unmet(&need(Some((8, 1)), None)),
            Some(Unmet::Ptx(PtxVersion { major: 8, minor: 1 }))
        );
        assert_eq!(
            env.unmet(&need(None, Some("sm_100a|sm_90a"))),
            Some(Unmet::Target("sm_100a or sm_90a".into()))
        );
        assert_eq!(env.unmet(&need(None, Some("all"))), None);
        // An item with a version of its own (ptxas 13.5: the FP8
        // conversions need 7.8 on sm_90 and later, 8.1 on sm_89).
        let fp8 = need(Some((7, 8)), Some("sm_90|sm_89@8.1"));
        let at = |ptx: (u8, u8), target: &str| Env {
            ptx: Some(PtxVersion {
                major: ptx.0,
                minor: ptx.1,
            }),
            sm: Sm::parse(target),
            opts: 0,
        };
        assert_eq!(at((7, 8), "sm_90").unmet(&fp8), None);
        assert_eq!(at((8, 1), "sm_89").unmet(&fp8), None);
        assert_eq!(
            at((8, 0), "sm_89").unmet(&fp8),
            Some(Unmet::Ptx(PtxVersion { major: 8, minor: 1 }))
        );
        assert_eq!(
            at((8, 1), "sm_86").unmet(&fp8),
            Some(Unmet::Target("sm_90 or sm_89@8.1".into()))
        );
        // A `.target` option: the default of its group holds when none is
        // declared.
        let opt = |o: &'static str| Requirement {
            opt: Some(o),
            ..Requirement::default()
        };
        assert_eq!(env.unmet(&opt("texmode_unified")), None);
        assert_eq!(
            env.unmet(&opt("texmode_independent")),
            Some(Unmet::Option("texmode_independent"))
        );
        let data = super::super::module_data::data();
        let independent = Env {
            opts: data
                .option_index("texmode_independent")
                .map_or(0, |k| 1 << k),
            ..env
        };
        assert_eq!(independent.unmet(&opt("texmode_independent")), None);
        assert_eq!(
            independent.unmet(&opt("texmode_unified")),
            Some(Unmet::Option("texmode_unified"))
        );
    }

    #[test]
    fn upper_bounds() {
        let v = |major, minor| Some(PtxVersion { major, minor });
        // Valid below sm_70 or below PTX 6.4 (shfl without .sync).
        let req = Requirement {
            ptx: v(3, 0),
            sm: Some("sm_30"),
            until_ptx: v(6, 4),
            until_sm: Some("sm_70"),
            until_opt: None,
            opt: None,
        };
        let env = |ptx, t: &str| Env {
            ptx,
            sm: Sm::parse(t),
            opts: 0,
        };
        assert_eq!(env(v(6, 3), "sm_75").unmet(&req), None);
        assert_eq!(env(v(9, 4), "sm_60").unmet(&req), None);
        let removed = Some(Unmet::Removed {
            ptx: v(6, 4),
            sm: Some("sm_70"),
        });
        assert_eq!(env(v(6, 4), "sm_70").unmet(&req), removed);
        assert_eq!(env(v(9, 4), "sm_90a").unmet(&req), removed);
        // A version-only bound.
        let req = Requirement {
            until_ptx: v(3, 2),
            ..Requirement::default()
        };
        assert_eq!(env(v(3, 1), "sm_75").unmet(&req), None);
        assert!(env(v(3, 2), "sm_20").unmet(&req).is_some());
        assert!(!req.is_empty());
        // A bound in one texturing mode: tex.grad with a sampler on sm_90
        // and later, in unified mode only.
        let req = Requirement {
            until_sm: Some("sm_90"),
            until_opt: Some("texmode_unified"),
            ..Requirement::default()
        };
        assert_eq!(env(v(9, 4), "sm_89").unmet(&req), None);
        assert!(env(v(7, 8), "sm_90").unmet(&req).is_some());
        let independent = Env {
            opts: super::super::module_data::data()
                .option_index("texmode_independent")
                .map_or(0, |k| 1 << k),
            ..env(v(9, 4), "sm_100a")
        };
        assert_eq!(independent.unmet(&req), None);
    }
}
