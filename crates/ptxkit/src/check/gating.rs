//! Version and target gating of instructions, from the catalog: each
//! section, form and gated modifier says which `.version` and `.target` it
//! needs.

use super::inst_ctx::InstCtx;
use super::target::{Env, Unmet};
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::{catalog, Requirement};
use crate::source::Span;
use crate::syntax::Instruction;

impl Checker<'_> {
    /// Gate one instruction: its gated modifiers, its form, its section.
    /// An instruction of a shape (form and modifiers) already found
    /// available in this environment is skipped.
    pub(super) fn gate_instruction(&mut self, cx: &InstCtx<'_>) {
        let env = self.env;
        if let Some(s) = &cx.shape {
            if s.gated.get() == Some(env) {
                return;
            }
        }
        let before = self.diags.len();
        self.gate_uncached(cx.i);
        if self.diags.len() == before {
            if let Some(s) = &cx.shape {
                s.gated.set(Some(env));
            }
        }
    }

    fn gate_uncached(&mut self, i: &Instruction) {
        let cat = catalog();
        let (Some(form), Some(section)) = (i.form(), cat.section_of(i.form)) else {
            return;
        };
        // The most specific requirement first: a gated modifier names itself.
        for m in i
            .mods
            .iter()
            .filter(|m| super::opclass::gated(form.section, m.id))
        {
            for g in section.gates.iter().filter(|g| g.mods.contains(&m.id)) {
                let what = || format!("`{}` on `{}`", m.as_str(), i.name());
                let rule = || "the modifier's PTX/Target ISA notes".to_string();
                if self.report_unmet(&g.req, m.span(), what, rule) {
                    return;
                }
            }
        }
        let what = || format!("`{}`", super::inst_name(i));
        let rule = || format!("form `{}`", form.text);
        if self.report_unmet(&form.req, i.opcode_span, what, rule) {
            return;
        }
        let what = || format!("`{}`", section.name);
        let rule = || crate::isa::describe_sections(section.isa_sections);
        self.report_unmet(&section.req, i.opcode_span, what, rule);
    }

    /// Report `req` if the module does not meet it; returns whether it did.
    /// `what` and `rule` describe it, built only when it is not met.
    pub(super) fn report_unmet(
        &mut self,
        req: &Requirement,
        span: Span,
        what: impl FnOnce() -> String,
        rule: impl FnOnce() -> String,
    ) -> bool {
        let env: Env = self.env;
        // Few distinct requirements recur on every instruction: remember
        // the ones met, by value.
        if req.is_empty() || self.met.contains(req) {
            return false;
        }
        let Some(u) = env.unmet(req) else {
            self.met.insert(*req);
            return false;
        };
        let what = what();
        let d = match u {
            Unmet::Ptx(v) => Diagnostic::error(
                Code::NeedsVersion,
                span,
                format!(
                    "{what} requires PTX ISA .version {v} or later (the module declares {})",
                    env.ptx.map(|p| p.to_string()).unwrap_or_default()
                ),
            ),
            Unmet::Target(t) => Diagnostic::error(
                Code::NeedsTarget,
                span,
                format!(
                    "{what} is not supported on .target {}; it requires {t}",
                    env.sm.map(|s| s.to_string()).unwrap_or_default()
                ),
            ),
            Unmet::Removed { ptx, sm } => {
                let on = match sm {
                    Some(s) => format!(" on .target {s} and higher"),
                    None => String::new(),
                };
                let from = match ptx {
                    Some(v) => format!(" from PTX ISA version {v}"),
                    None => String::new(),
                };
                let mode = match req.until_opt {
                    Some(o) => format!(" in `.target` option {o}"),
                    None => String::new(),
                };
                Diagnostic::error(
                    Code::Removed,
                    span,
                    format!(
                        "{what} is not supported{on}{from}{mode} (the module: .version {}, .target {})",
                        env.ptx.map(|p| p.to_string()).unwrap_or_default(),
                        env.sm.map(|s| s.to_string()).unwrap_or_default()
                    ),
                )
            }
            Unmet::Option(o) => Diagnostic::error(
                Code::NeedsTarget,
                span,
                format!(
                    "{what} requires `.target` option {o} in effect, which the module is not in"
                ),
            ),
        };
        self.emit(d.with_note(format!("rule: {}", rule())));
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::check::{check, CheckOptions};
    use crate::diag::Code;

    /// The error codes of parse + check on a kernel body under `.target`.
    fn codes(target: &str, body: &str) -> Vec<Code> {
        let src = format!(
            ".version 9.4\n.target {target}\n.address_size 64\n.global .texref t;\n\
             .visible .entry k()\n{{\n.reg .f32 %f<9>;\n.reg .b32 %r<9>;\n\
             .reg .b64 %rd<9>;\n.reg .pred %p<9>;\n{body}\nret;\n}}\n"
        );
        let parsed = crate::parse(src.as_bytes());
        let mut d = parsed.diagnostics.clone();
        d.extend(check(&parsed.module, &CheckOptions::default()));
        d.iter().filter(|d| d.is_error()).map(|d| d.code).collect()
    }

    /// A form's `opt=` follows the module's texturing mode: unified unless
    /// `.target` declares texmode_independent (ptxas 13.5 agrees on each).
    #[test]
    fn forms_follow_the_texture_mode() {
        let no_sampler = "tex.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%f5, %f6, %f7, %f8}];";
        let sampler = "tex.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, %rd1, {%f5, %f6, %f7, %f8}];";
        let both = "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, %rd1, {%f5, %f6}];";
        for unified in ["sm_90", "sm_90, texmode_unified"] {
            assert!(codes(unified, no_sampler).is_empty(), "{unified}");
            assert_eq!(codes(unified, sampler), vec![Code::NeedsTarget]);
            assert!(codes(unified, both).is_empty(), "{unified}");
        }
        let independent = "sm_90, texmode_independent";
        assert_eq!(codes(independent, no_sampler), vec![Code::NeedsTarget]);
        assert!(codes(independent, sampler).is_empty());
        assert!(codes(independent, both).is_empty());
    }

    /// Two operand rules the texture forms rely on (ptxas 13.5): a
    /// predicate may be one element of a `pred` role's vector, not all of
    /// them; a vector spelled out with three or more roles has that many
    /// elements.
    #[test]
    fn predicate_elements_and_spelled_out_vectors() {
        let grad = |g: &str| {
            format!("tex.grad.2d.v4.f32.f32 {{%f1, %f2, %f3, %f4}}, [t, {{%f5, %f6}}], {g}, {{%r3, %r4}};")
        };
        assert!(codes("sm_90", &grad("{%p1, %r2}")).is_empty());
        assert_eq!(codes("sm_90", &grad("{%p1, %p2}")).len(), 1);
        let a2d = |c: &str| format!("tex.a2d.v4.f32.f32 {{%f1, %f2, %f3, %f4}}, [t, {c}];");
        assert!(codes("sm_90", &a2d("{%r1, %f5, %f6, %f7}")).is_empty());
        assert_eq!(codes("sm_90", &a2d("{%r1, %f5}")).len(), 1);
        // A lone value for a spelled-out vector: a coordinate, not a
        // special register (a syntax error to ptxas).
        let tex2d = |c: &str| format!("tex.2d.v4.f32.f32 {{%f1, %f2, %f3, %f4}}, [t, {c}];");
        assert!(codes("sm_90", &tex2d("%f5")).is_empty());
        assert!(codes("sm_90", &tex2d("{%tid.x, %r1}")).is_empty());
        assert_eq!(codes("sm_90", &tex2d("%tid.x")).len(), 1);
    }
}
