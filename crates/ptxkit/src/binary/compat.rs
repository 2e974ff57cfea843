//! "Will this binary run on that GPU with that driver?": the verdict the
//! rules of [`super::rules`] give from a binary's fatbin entries alone.
//!
//! ```
//! use ptxkit::binary::compat::{verdict, Image, Level, Target};
//! // A binary with SASS for sm_80 and PTX 8.0 for compute_80.
//! let images = [Image::sass(80, ""), Image::ptx(80, "", (8, 0))];
//! let on = |gpu, driver| verdict(&images, &Target { gpu, driver }).level;
//! assert_eq!(on(86, None), Level::Native); // same major, higher minor
//! assert_eq!(on(90, None), Level::Jit); // PTX compiled by the driver
//! assert_eq!(on(90, Some((11, 8))), Level::CannotRun); // PTX 8.0 is too new
//! assert_eq!(on(75, None), Level::CannotRun); // an older GPU
//! ```

use super::rules::{self, Version};
use super::{Binary, Entry, Kind};

/// How well a binary runs on a target; ordered from best to worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// A cubin (SASS) for the GPU is there.
    Native,
    /// Only PTX fits: the driver compiles it at load time.
    Jit,
    /// Nothing fits: "no kernel image is available".
    CannotRun,
}

impl Level {
    /// `native`, `jit` or `cannot-run`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Native => "native",
            Level::Jit => "jit",
            Level::CannotRun => "cannot-run",
        }
    }
}

/// A GPU and, optionally, a driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Target {
    /// The GPU's SM number (`86` for compute capability 8.6).
    pub gpu: u32,
    /// The driver's CUDA version (`(12, 4)`); `None`: a driver that knows
    /// every PTX ISA version.
    pub driver: Option<Version>,
}

/// What a fatbin entry offers the driver.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Image {
    /// SASS, PTX or LTO-IR.
    pub kind: Kind,
    /// The SM number (`90`).
    pub arch: u32,
    /// `""`, `"a"` (architecture-specific) or `"f"` (family-specific).
    pub variant: &'static str,
    /// The PTX ISA version (PTX only).
    pub ptx_isa: Option<Version>,
}

impl Image {
    /// A cubin for `sm_<arch><variant>`.
    pub fn sass(arch: u32, variant: &'static str) -> Image {
        Image {
            kind: Kind::Sass,
            arch,
            variant,
            ptx_isa: None,
        }
    }

    /// PTX of ISA version `isa` for `compute_<arch><variant>`.
    pub fn ptx(arch: u32, variant: &'static str, isa: Version) -> Image {
        Image {
            kind: Kind::Ptx,
            arch,
            variant,
            ptx_isa: Some(isa),
        }
    }

    /// The image a fatbin entry holds.
    pub fn of(e: &Entry) -> Image {
        let name = e.arch_name();
        let variant = if name.ends_with('a') {
            "a"
        } else if name.ends_with('f') {
            "f"
        } else {
            ""
        };
        Image {
            kind: e.kind,
            arch: e.arch,
            variant,
            ptx_isa: (e.kind == Kind::Ptx).then_some(e.version),
        }
    }

    /// `sm_90a`, `compute_80 (PTX 8.0)`, `lto_90`.
    pub fn name(&self) -> String {
        match (self.kind, self.ptx_isa) {
            (Kind::Ptx, Some((ma, mi))) => {
                format!("compute_{}{} (PTX {ma}.{mi})", self.arch, self.variant)
            }
            (Kind::LtoIr, _) => format!("lto_{}{}", self.arch, self.variant),
            _ => format!("sm_{}{}", self.arch, self.variant),
        }
    }
}

/// The images of every SASS, PTX and LTO-IR entry of `bin`, each once.
pub fn images(bin: &Binary) -> Vec<Image> {
    let mut out: Vec<Image> = Vec::new();
    if let Some(a) = bin.cubin_arch {
        out.push(Image::sass(a, ""));
    }
    for e in &bin.entries {
        let i = Image::of(e);
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// The verdict for one target.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    /// Native, JIT or cannot run.
    pub level: Level,
    /// The image that runs (`sm_86`, `compute_80 (PTX 8.0)`), if any.
    pub via: Option<String>,
    /// The rule deciding it (see [`rules::RULES`]).
    pub rule: &'static str,
    /// Why, in a few words.
    pub reason: String,
}

/// Major and minor of an SM number: `86` → (8, 6), `120` → (12, 0).
fn split(sm: u32) -> (u32, u32) {
    (sm / 10, sm % 10)
}

/// Whether a cubin or PTX image of `variant` for `arch` targets GPU `gpu`
/// by the rules, and the rule that says so. `ptx` chooses the PTX rules.
fn fits(arch: u32, variant: &str, gpu: u32, ptx: bool) -> Option<&'static str> {
    let (am, an) = split(arch);
    let (gm, gn) = split(gpu);
    match (variant, ptx) {
        ("a", false) => (arch == gpu).then_some(rules::SASS_ARCH_SPECIFIC),
        ("a", true) => (arch == gpu).then_some(rules::PTX_ARCH_SPECIFIC),
        ("f", false) => (am == gm && an <= gn).then_some(rules::SASS_FAMILY),
        ("f", true) => (am == gm && an <= gn).then_some(rules::PTX_FAMILY),
        (_, false) => (am == gm && an <= gn).then_some(rules::SASS_SAME_MAJOR),
        (_, true) => ((am, an) <= (gm, gn)).then_some(rules::PTX_FORWARD),
    }
}

/// The verdict of `images` on target `t`.
pub fn verdict(images: &[Image], t: &Target) -> Verdict {
    let cannot = |rule: &'static str, reason: String| Verdict {
        level: Level::CannotRun,
        via: None,
        rule,
        reason,
    };
    if let Some(d) = t.driver {
        let since = rules::GPU_SINCE
            .iter()
            .find(|(sm, _)| *sm == t.gpu)
            .map(|(_, v)| *v);
        if let Some(since) = since.filter(|&s| s > d) {
            return cannot(
                rules::DRIVER_KNOWS_GPU,
                format!(
                    "a CUDA {}.{} driver predates sm_{} (CUDA {}.{})",
                    d.0, d.1, t.gpu, since.0, since.1
                ),
            );
        }
    }
    // The best cubin: the highest architecture that fits.
    let sass = images
        .iter()
        .filter(|i| i.kind == Kind::Sass)
        .filter_map(|i| fits(i.arch, i.variant, t.gpu, false).map(|r| (i, r)))
        .max_by_key(|(i, _)| (i.arch, i.variant == "a"));
    if let Some((i, rule)) = sass {
        return Verdict {
            level: Level::Native,
            via: Some(i.name()),
            rule,
            reason: format!("cubin for {}", i.name()),
        };
    }
    let known = t.driver.and_then(rules::release_of_cuda).map(|r| r.ptx_isa);
    let mut ptx: Vec<(&Image, &'static str)> = images
        .iter()
        .filter(|i| i.kind == Kind::Ptx)
        .filter_map(|i| fits(i.arch, i.variant, t.gpu, true).map(|r| (i, r)))
        .collect();
    ptx.sort_by_key(|(i, _)| std::cmp::Reverse((i.arch, i.ptx_isa)));
    let usable = ptx.iter().find(|(i, _)| match (known, i.ptx_isa) {
        (Some(k), Some(v)) => v <= k,
        _ => true,
    });
    if let Some((i, rule)) = usable {
        return Verdict {
            level: Level::Jit,
            via: Some(i.name()),
            rule,
            reason: format!("driver compiles {}", i.name()),
        };
    }
    if let (Some((i, _)), Some(d)) = (ptx.first(), t.driver) {
        let needs = i
            .ptx_isa
            .and_then(|v| rules::RELEASES.iter().find(|r| r.ptx_isa >= v))
            .map(|r| format!("CUDA {}.{}", r.cuda.0, r.cuda.1))
            .unwrap_or_else(|| "a newer driver".into());
        return cannot(
            rules::PTX_ISA_DRIVER,
            format!(
                "{} needs a {needs} driver, not CUDA {}.{}",
                i.name(),
                d.0,
                d.1
            ),
        );
    }
    let only_lto = images.iter().all(|i| i.kind == Kind::LtoIr) && !images.is_empty();
    if only_lto {
        return cannot(rules::LTO_NOT_LOADED, "LTO-IR only".into());
    }
    cannot(
        rules::NO_IMAGE,
        format!("no cubin for sm_{} and no PTX at or below it", t.gpu),
    )
}

/// A PTX image as a [`Report`] lists it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PtxImage {
    /// `compute_90a`.
    pub arch: String,
    /// `9.5`.
    pub ptx_isa: String,
}

/// The verdict on one target, as a [`Report`] lists it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TargetVerdict {
    /// `sm_86`.
    pub gpu: String,
    /// The driver's CUDA version (`12.4`), if one was given.
    pub driver: Option<String>,
    /// The verdict.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Kernels with no image on this GPU although the binary runs there
    /// (filled by [`report_kernels`]; the first [`MAX_KERNEL_NAMES`], by
    /// name).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_kernels: Vec<String>,
    /// How many kernels have no image on this GPU (all of them, beyond
    /// the names listed).
    #[serde(skip_serializing_if = "is_zero")]
    pub missing_kernel_count: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The most kernel names a verdict lists as missing.
pub const MAX_KERNEL_NAMES: usize = 20;

/// What a binary carries and where it runs.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Report {
    /// The kind of file.
    pub format: super::Format,
    /// Its cubins' architectures (`sm_80`, `sm_90a`), in order.
    pub sass: Vec<String>,
    /// Its PTX images.
    pub ptx: Vec<PtxImage>,
    /// Its LTO-IR images (`lto_90`).
    pub lto_ir: Vec<String>,
    /// The verdict on each target.
    pub verdicts: Vec<TargetVerdict>,
}

/// `12.4`.
pub fn version_name(v: Version) -> String {
    format!("{}.{}", v.0, v.1)
}

/// Whether binary `bytes` (read as `bin`) has no PTX and only cubins
/// that define no kernel (stubs such as the sm_52 one of `libcufftw`):
/// it launches nothing of its own. A cubin that cannot be read counts as
/// defining kernels; the search stops at the first that defines one.
pub fn defines_no_kernel(bytes: &[u8], bin: &Binary) -> bool {
    let no_kernel = |u: Result<super::Usage, super::Error>| {
        u.is_ok_and(|u| !u.functions.iter().any(|f| f.kernel))
    };
    if bin.format == super::Format::Cubin {
        return no_kernel(super::usage::read(bytes));
    }
    let mut sass = 0usize;
    for e in &bin.entries {
        match e.kind {
            Kind::Sass => {
                sass = sass.saturating_add(1);
                if !no_kernel(super::payload(bytes, e).and_then(|c| super::usage::read(&c))) {
                    return false;
                }
            }
            Kind::Ptx => return false,
            Kind::LtoIr | Kind::Other(_) => {}
        }
    }
    sass > 0
}

/// The report of binary `bytes` on `targets`: `None` when it carries no
/// GPU code (a host library), an error when it is corrupt.
pub fn report(bytes: &[u8], targets: &[Target]) -> Option<Result<Report, String>> {
    let bin = match super::read(bytes) {
        Ok(bin) => bin,
        // An executable or library the object reader cannot follow is not
        // ours to judge; a corrupt fatbin is.
        Err(_) if !bytes.starts_with(&super::CONTAINER_MAGIC.to_le_bytes()) => return None,
        Err(e) => return Some(Err(e.to_string())),
    };
    let mut imgs = images(&bin);
    if imgs.is_empty() {
        return None;
    }
    let empty = defines_no_kernel(bytes, &bin);
    let verdicts = targets
        .iter()
        .map(|t| TargetVerdict {
            gpu: format!("sm_{}", t.gpu),
            driver: t.driver.map(version_name),
            verdict: if empty {
                Verdict {
                    level: Level::CannotRun,
                    via: None,
                    rule: rules::NO_KERNELS,
                    reason: "no kernel images found in this file".into(),
                }
            } else {
                verdict(&imgs, t)
            },
            missing_kernels: Vec::new(),
            missing_kernel_count: 0,
        })
        .collect();
    imgs.sort_by_key(|i| (i.arch, i.variant, i.ptx_isa));
    let mut r = Report {
        format: bin.format,
        sass: Vec::new(),
        ptx: Vec::new(),
        lto_ir: Vec::new(),
        verdicts,
    };
    for i in &imgs {
        match i.kind {
            Kind::Sass => r.sass.push(i.name()),
            Kind::Ptx => r.ptx.push(PtxImage {
                arch: format!("compute_{}{}", i.arch, i.variant),
                ptx_isa: i.ptx_isa.map(version_name).unwrap_or_default(),
            }),
            Kind::LtoIr => r.lto_ir.push(i.name()),
            Kind::Other(_) => {}
        }
    }
    Some(Ok(r))
}

/// [`report`], and for each target where the binary runs, the kernels
/// that would have no image there, as far as the binary tells: a
/// container's cubins list their kernels, and the driver loads one image
/// of each container (the best that fits). A kernel is missing on a GPU
/// when its container's chosen image is a cubin that lacks it, or when
/// nothing in its container fits. Containers whose chosen image is PTX
/// are not judged (their kernels are known only once the PTX is
/// decompressed). This reads every cubin (decompressing those stored
/// compressed), so it is slower than [`report`].
pub fn report_kernels(bytes: &[u8], targets: &[Target]) -> Option<Result<Report, String>> {
    let mut r = match report(bytes, targets)? {
        Ok(r) => r,
        Err(e) => return Some(Err(e)),
    };
    let Ok(bin) = super::read(bytes) else {
        return Some(Ok(r));
    };
    for (t, v) in targets.iter().zip(r.verdicts.iter_mut()) {
        if v.verdict.level == Level::CannotRun {
            continue;
        }
        let missing = missing_kernels(bytes, &bin, t);
        v.missing_kernel_count = missing.len();
        v.missing_kernels = missing.into_iter().take(MAX_KERNEL_NAMES).collect();
    }
    Some(Ok(r))
}

/// The kernels of `bin` with no image on target `t` (see
/// [`report_kernels`]), sorted and each once.
pub fn missing_kernels(bytes: &[u8], bin: &Binary, t: &Target) -> Vec<String> {
    use std::collections::BTreeSet;
    let mut missing = BTreeSet::new();
    let mut at = 0usize;
    while at < bin.entries.len() {
        let container = bin.entries.get(at).map_or(0, |e| e.container);
        let end = bin
            .entries
            .get(at..)
            .and_then(|rest| rest.iter().position(|e| e.container != container))
            .map_or(bin.entries.len(), |n| at.saturating_add(n));
        let entries = bin.entries.get(at..end).unwrap_or_default();
        at = end.max(at.saturating_add(1));
        // Each cubin of the container with its image and kernels.
        let cubins: Vec<(Image, BTreeSet<String>)> = entries
            .iter()
            .filter(|e| e.kind == Kind::Sass)
            .map(|e| {
                let kernels = super::payload(bytes, e)
                    .and_then(|c| super::usage::read(&c))
                    .map(|u| {
                        u.functions
                            .into_iter()
                            .filter(|f| f.kernel)
                            .map(|f| f.name)
                            .collect()
                    })
                    .unwrap_or_default();
                (Image::of(e), kernels)
            })
            .collect();
        let all: BTreeSet<&String> = cubins.iter().flat_map(|(_, k)| k).collect();
        if all.is_empty() {
            continue;
        }
        let imgs: Vec<Image> = entries.iter().map(Image::of).collect();
        let v = verdict(&imgs, t);
        let have: BTreeSet<&String> = match v.level {
            Level::Jit => continue,
            Level::CannotRun => BTreeSet::new(),
            Level::Native => cubins
                .iter()
                .filter(|(i, _)| Some(i.name()) == v.via)
                .flat_map(|(_, k)| k)
                .collect(),
        };
        missing.extend(all.difference(&have).map(|k| (*k).clone()));
    }
    missing.into_iter().collect()
}

/// Parse a GPU: `sm_86`, `sm_90a`, `compute_90`, `86`, `8.6`.
pub fn parse_gpu(s: &str) -> Option<u32> {
    let s = s.trim().to_ascii_lowercase();
    if let Some((ma, mi)) = s.split_once('.') {
        let (ma, mi): (u32, u32) = (ma.parse().ok()?, mi.parse().ok()?);
        return (mi < 10).then(|| ma.checked_mul(10)?.checked_add(mi))?;
    }
    let bare = s
        .trim_start_matches("sm_")
        .trim_start_matches("compute_")
        .trim_end_matches(['a', 'f']);
    bare.parse().ok().filter(|&n: &u32| (10..1000).contains(&n))
}

/// Parse a driver: a CUDA version (`12.4`, `cuda12.4`) or a driver
/// version (`550.54.15`, `r550`), as the CUDA version it belongs to.
pub fn parse_driver(s: &str) -> Option<Version> {
    let s = s.trim().to_ascii_lowercase();
    let s = s.trim_start_matches("cuda").trim_start_matches('r').trim();
    let mut parts = s.split('.');
    let major: u32 = parts.next()?.parse().ok()?;
    if major >= 100 {
        return rules::release_of_driver(major).map(|r| r.cuda);
    }
    let minor: u16 = parts.next().unwrap_or("0").parse().ok()?;
    Some((u16::try_from(major).ok()?, minor))
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    fn on(images: &[Image], gpu: u32, driver: Option<Version>) -> (Level, &'static str) {
        let v = verdict(images, &Target { gpu, driver });
        (v.level, v.rule)
    }

    #[test]
    fn every_rule() {
        use Level::*;
        let plain = [Image::sass(80, "")];
        assert_eq!(on(&plain, 86, None), (Native, rules::SASS_SAME_MAJOR));
        assert_eq!(on(&plain, 90, None).0, CannotRun);
        assert_eq!(on(&plain, 75, None).0, CannotRun);
        let a = [Image::sass(90, "a")];
        assert_eq!(on(&a, 90, None), (Native, rules::SASS_ARCH_SPECIFIC));
        assert_eq!(on(&[Image::sass(100, "a")], 103, None).0, CannotRun);
        let f = [Image::sass(100, "f")];
        assert_eq!(on(&f, 103, None), (Native, rules::SASS_FAMILY));
        assert_eq!(on(&f, 120, None).0, CannotRun);
        let p = [Image::ptx(80, "", (8, 0))];
        assert_eq!(on(&p, 120, None), (Jit, rules::PTX_FORWARD));
        assert_eq!(on(&p, 75, None).0, CannotRun);
        assert_eq!(
            on(&p, 90, Some((11, 8))),
            (CannotRun, rules::PTX_ISA_DRIVER)
        );
        assert_eq!(on(&p, 90, Some((12, 0))).0, Jit);
        let pa = [Image::ptx(90, "a", (8, 0))];
        assert_eq!(on(&pa, 90, None), (Jit, rules::PTX_ARCH_SPECIFIC));
        assert_eq!(on(&pa, 100, None).0, CannotRun);
        let pf = [Image::ptx(100, "f", (8, 8))];
        assert_eq!(on(&pf, 103, None), (Jit, rules::PTX_FAMILY));
        assert_eq!(on(&pf, 110, None).0, CannotRun);
        assert_eq!(on(&plain, 120, Some((12, 4))).1, rules::DRIVER_KNOWS_GPU);
        let lto = [Image {
            kind: Kind::LtoIr,
            arch: 90,
            variant: "",
            ptx_isa: None,
        }];
        assert_eq!(on(&lto, 90, None), (CannotRun, rules::LTO_NOT_LOADED));
        for id in [
            rules::SASS_SAME_MAJOR,
            rules::PTX_ISA_DRIVER,
            rules::NO_IMAGE,
        ] {
            assert!(rules::rule(id).is_some());
        }
    }

    #[test]
    fn spellings() {
        assert_eq!(parse_gpu("sm_90a"), Some(90));
        assert_eq!(parse_gpu("8.6"), Some(86));
        assert_eq!(parse_gpu("SM_120"), Some(120));
        assert_eq!(parse_gpu("sm_"), None);
        assert_eq!(parse_driver("12.4"), Some((12, 4)));
        assert_eq!(parse_driver("550.54.15"), Some((12, 4)));
        assert_eq!(parse_driver("r580"), Some((13, 0)));
        assert_eq!(parse_driver("x"), None);
    }
}
