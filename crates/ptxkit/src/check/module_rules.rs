//! Rules ptxas enforces on the module as a whole: addressing mode, target
//! versus version, declarations that cannot be allocated.

use super::target::{min_ptx_for, Sm};
use super::Checker;
use crate::diag::Diagnostic;
use crate::isa::vocab::StateSpace;
use crate::syntax::{Item, Module};

/// Diagnostic codes of this pass.
pub mod codes {
    /// 32-bit addressing.
    pub const ADDRESS_SIZE: &str = "E0303";
    /// A `.target` newer than the `.version` allows.
    pub const TARGET_VERSION: &str = "E0304";
    /// A `.target` option that does not apply to the architecture.
    pub const TARGET_OPTION: &str = "E0305";
    /// A variable whose size is unknown.
    pub const INCOMPLETE: &str = "E0306";
    /// An initializer where the state space allows none.
    pub const INITIALIZER: &str = "E0307";
}

impl Checker<'_> {
    pub(super) fn module_rules(&mut self, m: &Module) {
        match m.items.iter().find_map(|i| {
            if let Item::AddressSize(a) = i {
                Some(a)
            } else {
                None
            }
        }) {
            Some(a) if a.bits.value == 32 => self.diags.push(
                Diagnostic::error(
                    codes::ADDRESS_SIZE,
                    a.span,
                    "32-bit addressing is not supported",
                )
                .with_note("ptxas 13.x compiles only `.address_size 64` modules"),
            ),
            _ => {}
        }
        // `.address_size` arrived in PTX ISA 2.3.
        if let (Some(a), Some(v)) = (
            m.items.iter().find_map(|i| {
                if let Item::AddressSize(a) = i {
                    Some(a)
                } else {
                    None
                }
            }),
            self.env.ptx,
        ) {
            if v < (crate::isa::PtxVersion { major: 2, minor: 3 }) {
                self.diags.push(Diagnostic::error(codes::TARGET_VERSION, a.span, format!("`.address_size` requires PTX ISA .version 2.3 or later (the module declares {v})")));
            }
        }
        if let Some(t) = m.target() {
            for (word, span) in &t.items {
                let Some(sm) = Sm::parse(word.as_str()) else {
                    continue;
                };
                if let (Some(need), Some(have)) = (min_ptx_for(sm), self.env.ptx) {
                    if have < need {
                        self.diags.push(Diagnostic::error(
                            codes::TARGET_VERSION,
                            *span,
                            format!("`.target {word}` requires PTX ISA .version {need} or later (the module declares {have})"),
                        ));
                    }
                }
            }
            let map = t.items.iter().find(|(w, _)| w.as_str() == "map_f64_to_f32");
            if let (Some((_, span)), Some(sm)) = (map, self.env.sm) {
                if sm.num >= 13 {
                    self.diags.push(
                        Diagnostic::error(
                            codes::TARGET_OPTION,
                            *span,
                            format!(
                                "`map_f64_to_f32` applies only to targets below sm_13, not {sm}"
                            ),
                        )
                        .with_note("sm_13 and later have double precision"),
                    );
                }
            }
        }
        for v in m.globals() {
            let extern_ = v.linkage == Some(crate::isa::vocab::Linkage::Extern);
            for d in &v.decls {
                let no_size = d.dims.first().is_some_and(Option::is_none);
                if no_size && d.init.is_none() && !extern_ {
                    self.diags.push(
                        Diagnostic::error(
                            codes::INCOMPLETE,
                            d.name_span,
                            format!("`{}` has an unsized array type and no initializer", d.name),
                        )
                        .with_note("only `.extern` variables may have an incomplete type"),
                    );
                }
                if d.init.is_some()
                    && matches!(
                        v.space,
                        StateSpace::Shared
                            | StateSpace::Local
                            | StateSpace::Reg
                            | StateSpace::Param
                    )
                {
                    self.diags.push(Diagnostic::error(
                        codes::INITIALIZER,
                        d.name_span,
                        format!("variables in {} cannot have an initial value", v.space),
                    ));
                }
            }
        }
        for f in m.functions().filter(|f| f.is_kernel()) {
            for p in f.params() {
                if p.dims.first().is_some_and(Option::is_none) {
                    self.diags.push(Diagnostic::error(
                        codes::INCOMPLETE,
                        p.name_span,
                        format!("kernel parameter `{}` cannot be an unsized array", p.name),
                    ));
                }
            }
        }
    }
}
