//! The compile passes nvcc makes over a CUDA source: the host pass and one
//! device pass per target, each with the macros that tell them apart
//! (`__CUDA_ARCH__` and the feature macros). A set of passes is a bit mask
//! ([`Mask`]): bit 0 the host pass, bit `k + 1` the `k`-th known target.
//!
//! The values were read from nvcc 13.5 (each macro printed into a `.ptx`
//! global for `sm_80`, `sm_90a`, `sm_100a`, `sm_100f`, `sm_103f`, `sm_110f`,
//! `sm_120a`, `sm_121f`): `__CUDA_ARCH__` is the number times ten; an `a`
//! target also defines `__CUDA_ARCH_SPECIFIC__` and
//! `__CUDA_ARCH_FAMILY_SPECIFIC__` (both the same number) and
//! `__CUDA_ARCH_FEAT_SM<N>_ALL` as 1; an `f` target defines only
//! `__CUDA_ARCH_FAMILY_SPECIFIC__`; every pass defines `__CUDACC__`,
//! `__NVCC__`, `__CUDACC_VER_MAJOR__` 13, `__CUDACC_VER_MINOR__` 5,
//! `__CUDACC_VER_BUILD__` 37, `CUDART_VERSION` 13050 and the x86-64 Linux
//! host's macros.

/// A set of passes.
pub type Mask = u128;

/// The host pass's bit.
pub const HOST: Mask = 1;

/// Most targets a mask can hold (one bit is the host pass).
const MAX_TARGETS: usize = 127;

/// One pass: the host, or a device pass for a target.
#[derive(Clone, Debug)]
pub struct Pass {
    /// `None` for the host pass, else the target number (`90` for sm_90a).
    pub num: Option<u32>,
    /// `'a'`, `'f'` or `' '`.
    pub suffix: char,
}

/// The passes: the host, then every known target.
#[derive(Clone, Debug)]
pub struct Passes {
    /// The targets, in [`super::all_targets`] order (bit `k + 1`).
    pub targets: Vec<String>,
    /// The passes, host first.
    pub passes: Vec<Pass>,
}

impl Passes {
    /// Every known target.
    pub fn new() -> Passes {
        let targets: Vec<String> = super::all_targets().into_iter().take(MAX_TARGETS).collect();
        let mut passes = vec![Pass {
            num: None,
            suffix: ' ',
        }];
        for t in &targets {
            let (num, suffix) = super::parse_target(t).unwrap_or((0, ' '));
            passes.push(Pass {
                num: Some(num),
                suffix,
            });
        }
        Passes { targets, passes }
    }

    /// Every pass.
    pub fn all(&self) -> Mask {
        match self.passes.len() {
            n if n >= 128 => Mask::MAX,
            n => (1u128 << n).wrapping_sub(1),
        }
    }

    /// The device passes of `targets` (names not known are left out).
    pub fn of(&self, targets: &[String]) -> Mask {
        let mut m = 0;
        for t in targets {
            if let Some(k) = self.targets.iter().position(|x| x == t) {
                m |= bit(k.saturating_add(1));
            }
        }
        m
    }

    /// The targets of the device passes in `m`, in order.
    pub fn targets_of(&self, m: Mask) -> Vec<String> {
        self.targets
            .iter()
            .enumerate()
            .filter(|(k, _)| m & bit(k.saturating_add(1)) != 0)
            .map(|(_, t)| t.clone())
            .collect()
    }

    /// `m`'s targets written short: runs of consecutive known targets as
    /// `first..last` (`sm_80..sm_89`), others listed.
    pub fn describe(&self, m: Mask) -> String {
        let mut parts: Vec<String> = Vec::new();
        let mut run: Option<(usize, usize)> = None;
        let flush = |run: Option<(usize, usize)>, parts: &mut Vec<String>| {
            if let Some((a, b)) = run {
                let name = |k: usize| self.targets.get(k).cloned().unwrap_or_default();
                parts.push(if a == b {
                    name(a)
                } else {
                    format!("{}..{}", name(a), name(b))
                });
            }
        };
        for k in 0..self.targets.len() {
            if m & bit(k.saturating_add(1)) != 0 {
                run = Some(match run {
                    Some((a, _)) => (a, k),
                    None => (k, k),
                });
            } else {
                flush(run.take(), &mut parts);
            }
        }
        flush(run, &mut parts);
        if parts.is_empty() {
            if m & HOST != 0 {
                "the host pass only".to_string()
            } else {
                "no target".to_string()
            }
        } else {
            parts.join(", ")
        }
    }

    /// The value of a macro nvcc predefines, in pass `k`: `Some(Some(v))`
    /// defined as `v`, `Some(None)` not defined, `None` not one of them.
    pub fn predefined(&self, k: usize, name: &[u8]) -> Option<Option<i128>> {
        let pass = self.passes.get(k)?;
        let arch = pass.num.map(|n| i128::from(n).saturating_mul(10));
        let v = match name {
            b"__CUDA_ARCH__" => arch,
            b"__CUDA_ARCH_SPECIFIC__" => arch.filter(|_| pass.suffix == 'a'),
            b"__CUDA_ARCH_FAMILY_SPECIFIC__" => arch.filter(|_| matches!(pass.suffix, 'a' | 'f')),
            b"__CUDACC__" | b"__NVCC__" => Some(1),
            b"__CUDACC_VER_MAJOR__" => Some(13),
            b"__CUDACC_VER_MINOR__" => Some(5),
            b"__CUDACC_VER_BUILD__" => Some(37),
            b"CUDART_VERSION" | b"__CUDART_API_VERSION" => Some(13050),
            b"__x86_64__" | b"__x86_64" | b"__linux__" | b"__linux" | b"__unix__" | b"__LP64__"
            | b"_LP64" => Some(1),
            b"__GNUC__" => Some(13),
            b"__cplusplus" => Some(201703),
            // Platforms that are not NVIDIA's, and compilers nvcc is not.
            b"__HIP_PLATFORM_AMD__"
            | b"__HIP_PLATFORM_HCC__"
            | b"__HIP__"
            | b"__HIPCC__"
            | b"__HIP_DEVICE_COMPILE__"
            | b"__PPC__"
            | b"__PPC64__"
            | b"__powerpc__"
            | b"__powerpc64__"
            | b"__ppc64__"
            | b"__aarch64__"
            | b"__arm__"
            | b"__ARM_ARCH"
            | b"_MSC_VER"
            | b"_WIN32"
            | b"_WIN64"
            | b"__clang__"
            | b"__CUDACC_RTC__"
            | b"__APPLE__"
            | b"__SYCL_DEVICE_ONLY__"
            | b"__MUSACC__" => None,
            _ => {
                let feat = name
                    .strip_prefix(b"__CUDA_ARCH_FEAT_SM")
                    .and_then(|r| r.strip_suffix(b"_ALL"))?;
                let n: u32 = std::str::from_utf8(feat).ok()?.parse().ok()?;
                (pass.suffix == 'a' && pass.num == Some(n)).then_some(1)
            }
        };
        Some(v)
    }
}

impl Default for Passes {
    fn default() -> Self {
        Passes::new()
    }
}

/// The mask of pass `k`.
pub fn bit(k: usize) -> Mask {
    if k >= 128 {
        0
    } else {
        1u128 << k
    }
}

/// The passes of `m`, by index.
pub fn each(m: Mask) -> impl Iterator<Item = usize> {
    (0..128usize).filter(move |&k| m & bit(k) != 0)
}
