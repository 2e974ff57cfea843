//! Rules ptxas enforces on the module as a whole: addressing mode, target
//! versus version, declarations that cannot be allocated.

use super::target::{min_ptx_for, Sm};
use super::Checker;
use crate::diag::Diagnostic;
use crate::isa::vocab::StateSpace;
use crate::syntax::{AddressSize, Function, Target, VarDecl};

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
    /// Function header directives that conflict or do not apply.
    pub const DIRECTIVE: &str = "E0308";
    /// Kernel parameters beyond the parameter space.
    pub const PARAM_SPACE: &str = "E0309";
    /// An `.extern` variable defined without external linkage.
    pub const LINKAGE: &str = "E0310";
}

/// Where ptxas reports whole-function problems: the closing `}` (or the
/// end of a declaration).
fn function_end(f: &crate::syntax::Function) -> crate::source::Span {
    let end = f.span.end.saturating_sub(1);
    crate::source::Span::new(end, f.span.end)
}

/// Bytes of kernel parameter space (ptxas 13.5: 0x7ffc).
pub const MAX_KERNEL_PARAM_BYTES: u64 = 0x7ffc;

impl Checker<'_> {
    /// Header directives: `.func` takes only `.noreturn`, `.abi_preserve*`
    /// and `.language`; `.maxntid` and `.reqntid` exclude each other.
    fn directive_rules(&mut self, f: &crate::syntax::Function) {
        for d in &f.directives {
            let name = d.name.as_str();
            let func_ok = matches!(
                name,
                ".noreturn" | ".abi_preserve" | ".abi_preserve_control" | ".language"
            );
            if !f.is_kernel() && !func_ok {
                self.diags.push(Diagnostic::error(
                    codes::DIRECTIVE,
                    d.span,
                    format!("`{name}` applies to kernels (`.entry`), not to `.func`"),
                ));
            }
        }
        if let (Some(a), Some(b)) = (f.directive(".maxntid"), f.directive(".reqntid")) {
            let d = Diagnostic::error(
                codes::DIRECTIVE,
                function_end(f),
                format!("`{}` has both `.maxntid` and `.reqntid`", f.name),
            )
            .with_label(a.span, "`.maxntid` is here")
            .with_label(b.span, "`.reqntid` is here")
            .with_note("give one of them");
            self.diags.push(d);
        }
        if f.is_kernel()
            && f.directive(".minnctapersm").is_some()
            && f.directive(".maxntid").is_none()
            && f.directive(".reqntid").is_none()
        {
            if let Some(d) = f.directive(".minnctapersm") {
                self.diags.push(Diagnostic::warning(
                    codes::DIRECTIVE,
                    d.span,
                    "`.minnctapersm` has no effect without `.maxntid` or `.reqntid`",
                ));
            }
        }
        if let Some(d) = f
            .directive(".maxnreg")
            .filter(|d| d.args.first().is_some_and(|a| a.value > 255))
        {
            self.diags.push(Diagnostic::warning(
                codes::DIRECTIVE,
                d.span,
                "`.maxnreg` above 255 is ignored",
            ));
        }
    }

    /// An `.extern` variable may be defined in the same module only with
    /// external linkage (`.visible`/`.weak`/`.common`).
    fn linkage_rules(&mut self, v: &VarDecl) {
        use crate::isa::vocab::Linkage;
        for d in &v.decls {
            match v.linkage {
                Some(Linkage::Extern) => {
                    self.externs.insert(d.name, d.name_span);
                }
                None => {
                    if let Some(first) = self.externs.get(&d.name) {
                        let diag = Diagnostic::error(codes::LINKAGE, d.name_span, format!("`{}` is declared `.extern` but defined here without external linkage", d.name))
                            .with_label(*first, "declared `.extern` here")
                            .with_note("define it `.visible` (or `.weak`/`.common`)");
                        self.diags.push(diag);
                    }
                }
                Some(_) => {}
            }
        }
    }

    /// `.address_size`: 64-bit only, and from PTX ISA 2.3.
    pub(super) fn address_size_rules(&mut self, a: &AddressSize) {
        if a.bits.value == 32 {
            self.diags.push(
                Diagnostic::error(
                    codes::ADDRESS_SIZE,
                    a.span,
                    "32-bit addressing is not supported",
                )
                .with_note("ptxas 13.x compiles only `.address_size 64` modules"),
            );
        }
        if let Some(v) = self.env.ptx {
            if v < (crate::isa::PtxVersion { major: 2, minor: 3 }) {
                self.diags.push(Diagnostic::error(codes::TARGET_VERSION, a.span, format!("`.address_size` requires PTX ISA .version 2.3 or later (the module declares {v})")));
            }
        }
    }

    /// `.target`: each architecture needs a recent enough `.version`;
    /// `map_f64_to_f32` only below sm_13.
    pub(super) fn target_rules(&mut self, t: &Target) {
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
                        format!("`map_f64_to_f32` applies only to targets below sm_13, not {sm}"),
                    )
                    .with_note("sm_13 and later have double precision"),
                );
            }
        }
    }

    /// A module-scope variable: the declaration rules, and linkage against
    /// earlier `.extern` declarations.
    pub(super) fn global_rules(&mut self, v: &VarDecl) {
        self.decl_rules(v);
        self.linkage_rules(v);
    }

    /// A variable declaration, in a module or a function: a complete type
    /// (unless `.extern`), an initializer only where its space allows one.
    pub(super) fn decl_rules(&mut self, v: &VarDecl) {
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
                    StateSpace::Shared | StateSpace::Local | StateSpace::Reg | StateSpace::Param
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

    /// A function's header: directives, and a kernel's parameter space.
    pub(super) fn function_rules(&mut self, f: &Function) {
        self.directive_rules(f);
        if !f.is_kernel() {
            return;
        }
        let mut bytes = 0u64;
        for p in f.params() {
            let align = p.align.map_or(p.ty.size_bytes().max(1), |a| a.value.max(1));
            let size = crate::analysis::summary::param_bytes(p);
            bytes = bytes
                .div_ceil(align)
                .saturating_mul(align)
                .saturating_add(size);
        }
        if bytes > MAX_KERNEL_PARAM_BYTES {
            self.diags.push(
                Diagnostic::error(codes::PARAM_SPACE, function_end(f), format!("kernel `{}` needs {bytes} bytes of parameters; the limit is {MAX_KERNEL_PARAM_BYTES}", f.name))
                    .with_label(f.name_span, "parameters declared here")
                    .with_note("pass large data through global memory instead"),
            );
        }
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
