//! Editing traversal of the tree: the [`VisitMut`] trait and its `walk_*_mut`
//! functions.
//!
//! Like [`Visit`](super::visit::Visit), every method defaults to walking the
//! node's children; override what you edit. Statements can be removed or
//! added by overriding [`VisitMut::visit_block_mut`] (or items by
//! [`VisitMut::visit_module_mut`]) and changing the list before or after
//! walking it. Every span of the tree passes through
//! [`VisitMut::visit_span_mut`] (a hook for moving or clearing positions).
//!
//! Edited nodes need no marking: the lossless printer
//! ([`crate::print::lossless`]) compares the tree with the source's and
//! prints what changed canonically.
//!
//! ```
//! use ptxkit::syntax::visit::NameUse;
//! use ptxkit::syntax::visit_mut::VisitMut;
//! use ptxkit::{Name, Span};
//!
//! struct Rename;
//! impl VisitMut for Rename {
//!     fn visit_name_mut(&mut self, name: &mut Name, _: Span, _: NameUse) {
//!         if name.as_str() == "%acc" {
//!             *name = Name::new("%sum");
//!         }
//!     }
//! }
//! let src = ".version 8.0\n.target sm_90\n.entry k() {\n .reg .b32 %acc;\n mov.b32 %acc, 0; // zero\n ret;\n}\n";
//! let mut m = ptxkit::parse(src.as_bytes()).module;
//! Rename.visit_module_mut(&mut m);
//! let out = String::from_utf8(ptxkit::print::lossless(&m, src.as_bytes())).unwrap();
//! assert_eq!(out, ".version 8.0\n.target sm_90\n.entry k() {\n .reg .b32 %sum;\n mov.b32\t%sum, 0; // zero\n ret;\n}\n");
//! ```

use super::visit::NameUse;
use super::*;
use crate::source::Span;

/// An editing visitor. See the [module documentation](self).
#[allow(unused_variables)]
pub trait VisitMut {
    /// A module.
    fn visit_module_mut(&mut self, m: &mut Module) {
        walk_module_mut(self, m)
    }
    /// A top-level item.
    fn visit_item_mut(&mut self, i: &mut Item) {
        walk_item_mut(self, i)
    }
    /// A kernel or function.
    fn visit_function_mut(&mut self, f: &mut Function) {
        walk_function_mut(self, f)
    }
    /// A parameter or return parameter.
    fn visit_param_mut(&mut self, p: &mut Param) {
        walk_param_mut(self, p)
    }
    /// A block: override to remove, insert or reorder statements.
    fn visit_block_mut(&mut self, b: &mut Block) {
        walk_block_mut(self, b)
    }
    /// A statement.
    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s)
    }
    /// An instruction.
    fn visit_instruction_mut(&mut self, i: &mut Instruction) {
        walk_instruction_mut(self, i)
    }
    /// A written modifier.
    fn visit_modifier_mut(&mut self, m: &mut Modifier) {
        walk_modifier_mut(self, m)
    }
    /// An operand (also each item of a vector, tuple, list or pair).
    fn visit_operand_mut(&mut self, o: &mut Operand) {
        walk_operand_mut(self, o)
    }
    /// An expression (also each subexpression).
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e)
    }
    /// A variable or register declaration.
    fn visit_var_decl_mut(&mut self, v: &mut VarDecl) {
        walk_var_decl_mut(self, v)
    }
    /// One declared name of a declaration.
    fn visit_declarator_mut(&mut self, d: &mut Declarator) {
        walk_declarator_mut(self, d)
    }
    /// An initializer.
    fn visit_initializer_mut(&mut self, i: &mut Initializer) {
        walk_initializer_mut(self, i)
    }
    /// Every symbol name, declared or used.
    fn visit_name_mut(&mut self, name: &mut Name, span: Span, how: NameUse) {}
    /// Every span of the tree.
    fn visit_span_mut(&mut self, span: &mut Span) {}
}

/// Visit every item.
pub fn walk_module_mut<V: VisitMut + ?Sized>(v: &mut V, m: &mut Module) {
    for i in &mut m.items {
        v.visit_item_mut(i);
    }
}

fn lit<V: VisitMut + ?Sized>(v: &mut V, l: &mut IntLit) {
    v.visit_span_mut(&mut l.span);
}

/// Visit the children of an item.
pub fn walk_item_mut<V: VisitMut + ?Sized>(v: &mut V, i: &mut Item) {
    match i {
        Item::Var(d) => v.visit_var_decl_mut(d),
        Item::Function(f) => v.visit_function_mut(f),
        Item::Loc(l) => walk_loc_mut(v, l),
        Item::Section(s) => {
            for e in &mut s.entries {
                match e {
                    SectionEntry::Label(n, sp) => {
                        v.visit_name_mut(n, *sp, NameUse::Declaration);
                        v.visit_span_mut(sp);
                    }
                    SectionEntry::Data { values, span, .. } => {
                        for x in values.iter_mut() {
                            v.visit_expr_mut(x);
                        }
                        v.visit_span_mut(span);
                    }
                    SectionEntry::Bytes { span, .. } | SectionEntry::ByteList { span, .. } => {
                        v.visit_span_mut(span)
                    }
                }
            }
            v.visit_span_mut(&mut s.span);
        }
        Item::Alias(a) => {
            v.visit_name_mut(&mut a.alias, a.span, NameUse::Use);
            v.visit_name_mut(&mut a.target, a.span, NameUse::Use);
            v.visit_span_mut(&mut a.span);
        }
        Item::Directive(d) => walk_directive_mut(v, d),
        Item::Version(x) => v.visit_span_mut(&mut x.span),
        Item::Target(t) => {
            for (_, sp) in &mut t.items {
                v.visit_span_mut(sp);
            }
            v.visit_span_mut(&mut t.span);
        }
        Item::AddressSize(a) => {
            lit(v, &mut a.bits);
            v.visit_span_mut(&mut a.span);
        }
        Item::File(f) => {
            lit(v, &mut f.index);
            for e in &mut f.extra {
                lit(v, e);
            }
            v.visit_span_mut(&mut f.span);
        }
        Item::Pragma(p) => v.visit_span_mut(&mut p.span),
        Item::IntermediateSource(x) => {
            for b in &mut x.blocks {
                if let Some(f) = &mut b.file {
                    lit(v, f);
                }
                v.visit_span_mut(&mut b.span);
            }
            v.visit_span_mut(&mut x.span);
        }
        Item::Error(sp) => v.visit_span_mut(sp),
    }
}

fn walk_directive_mut<V: VisitMut + ?Sized>(v: &mut V, d: &mut Directive) {
    for x in &mut d.args {
        v.visit_expr_mut(x);
    }
    v.visit_span_mut(&mut d.span);
}

fn walk_loc_mut<V: VisitMut + ?Sized>(v: &mut V, l: &mut Loc) {
    lit(v, &mut l.file);
    lit(v, &mut l.line);
    lit(v, &mut l.col);
    if let Some(e) = &mut l.function_name {
        v.visit_expr_mut(e);
    }
    for x in l.inlined_at.iter_mut().flatten() {
        lit(v, x);
    }
    v.visit_span_mut(&mut l.span);
}

/// Visit a function's name, parameters, directives and body.
pub fn walk_function_mut<V: VisitMut + ?Sized>(v: &mut V, f: &mut Function) {
    v.visit_name_mut(&mut f.name, f.name_span, NameUse::Declaration);
    v.visit_span_mut(&mut f.name_span);
    for p in f
        .rets
        .iter_mut()
        .flatten()
        .chain(f.params.iter_mut().flatten())
    {
        v.visit_param_mut(p);
    }
    for d in &mut f.directives {
        for a in &mut d.args {
            lit(v, a);
        }
        v.visit_span_mut(&mut d.span);
    }
    if let Some(b) = &mut f.body {
        v.visit_block_mut(b);
    }
    v.visit_span_mut(&mut f.span);
}

/// Visit a parameter's name and dimensions.
pub fn walk_param_mut<V: VisitMut + ?Sized>(v: &mut V, p: &mut Param) {
    v.visit_name_mut(&mut p.name, p.name_span, NameUse::Declaration);
    v.visit_span_mut(&mut p.name_span);
    if let Some(a) = &mut p.align {
        lit(v, a);
    }
    if let Some(ptr) = &mut p.ptr {
        if let Some(a) = &mut ptr.align {
            lit(v, a);
        }
        v.visit_span_mut(&mut ptr.span);
    }
    for d in p.dims.iter_mut().flatten() {
        v.visit_expr_mut(d);
    }
    v.visit_span_mut(&mut p.span);
}

/// Visit every statement of a block.
pub fn walk_block_mut<V: VisitMut + ?Sized>(v: &mut V, b: &mut Block) {
    for s in &mut b.stmts {
        v.visit_stmt_mut(s);
    }
    v.visit_span_mut(&mut b.span);
}

/// Visit the children of a statement.
pub fn walk_stmt_mut<V: VisitMut + ?Sized>(v: &mut V, s: &mut Stmt) {
    match s {
        Stmt::Instruction(i) => v.visit_instruction_mut(i),
        Stmt::Label(n, sp) => {
            v.visit_name_mut(n, *sp, NameUse::Declaration);
            v.visit_span_mut(sp);
        }
        Stmt::Var(d) => v.visit_var_decl_mut(d),
        Stmt::Block(b) => v.visit_block_mut(b),
        Stmt::Loc(l) => walk_loc_mut(v, l),
        Stmt::CallPrototype(c) => {
            v.visit_name_mut(&mut c.label, c.span, NameUse::Declaration);
            for p in c
                .rets
                .iter_mut()
                .flatten()
                .chain(c.params.iter_mut().flatten())
            {
                v.visit_param_mut(p);
            }
            v.visit_span_mut(&mut c.span);
        }
        Stmt::CallTargets(t) | Stmt::BranchTargets(t) => {
            v.visit_name_mut(&mut t.label, t.span, NameUse::Declaration);
            for (n, sp) in &mut t.targets {
                v.visit_name_mut(n, *sp, NameUse::Use);
                v.visit_span_mut(sp);
            }
            v.visit_span_mut(&mut t.span);
        }
        Stmt::Directive(d) => walk_directive_mut(v, d),
        Stmt::Target(t) => {
            for (_, sp) in &mut t.items {
                v.visit_span_mut(sp);
            }
            v.visit_span_mut(&mut t.span);
        }
        // As `walk_stmt` does: not through `visit_function_mut`.
        Stmt::Function(f) => walk_function_mut(v, f),
        Stmt::Pragma(p) => v.visit_span_mut(&mut p.span),
        Stmt::Error(sp) => v.visit_span_mut(sp),
    }
}

/// Visit an instruction's guard, modifiers and operands.
pub fn walk_instruction_mut<V: VisitMut + ?Sized>(v: &mut V, i: &mut Instruction) {
    if let Some(g) = &mut i.guard {
        v.visit_name_mut(&mut g.pred, g.span, NameUse::Use);
        v.visit_span_mut(&mut g.span);
    }
    v.visit_span_mut(&mut i.opcode_span);
    for m in &mut i.mods {
        v.visit_modifier_mut(m);
    }
    for o in &mut i.operands {
        v.visit_operand_mut(o);
    }
    v.visit_span_mut(&mut i.span);
}

/// Visit a modifier's span.
pub fn walk_modifier_mut<V: VisitMut + ?Sized>(v: &mut V, m: &mut Modifier) {
    let mut sp = m.span();
    v.visit_span_mut(&mut sp);
    m.set_span(sp);
}

/// Visit the expressions and items of an operand.
pub fn walk_operand_mut<V: VisitMut + ?Sized>(v: &mut V, o: &mut Operand) {
    match o {
        Operand::Expr(e) => v.visit_expr_mut(e),
        Operand::Address { addr, at } => {
            v.visit_expr_mut(addr);
            let mut sp = at.span();
            v.visit_span_mut(&mut sp);
            *at = AddressAt::new(sp, at.suffix());
        }
        Operand::Pair(p) => {
            v.visit_operand_mut(&mut p.first);
            v.visit_expr_mut(&mut p.second);
            v.visit_span_mut(&mut p.span);
        }
        Operand::Tuple { items, span }
        | Operand::Vector { items, span }
        | Operand::List { items, span } => {
            for x in items {
                v.visit_operand_mut(x);
            }
            v.visit_span_mut(span);
        }
    }
}

/// Visit the subexpressions and names of an expression.
pub fn walk_expr_mut<V: VisitMut + ?Sized>(v: &mut V, e: &mut Expr) {
    match e {
        Expr::Name(n, sp) => {
            v.visit_name_mut(n, *sp, NameUse::Use);
            v.visit_span_mut(sp);
        }
        Expr::Int(l) => lit(v, l),
        Expr::Float(f) => v.visit_span_mut(&mut f.span),
        Expr::Unary { expr, span, .. } => {
            v.visit_expr_mut(expr);
            v.visit_span_mut(span);
        }
        Expr::Paren(expr, span) | Expr::Generic(expr, span) => {
            v.visit_expr_mut(expr);
            v.visit_span_mut(span);
        }
        Expr::Binary(b) => {
            v.visit_expr_mut(&mut b.lhs);
            v.visit_expr_mut(&mut b.rhs);
            v.visit_span_mut(&mut b.span);
        }
        Expr::Chain(c) => {
            v.visit_expr_mut(&mut c.first);
            for l in &mut c.links {
                v.visit_expr_mut(&mut l.rhs);
            }
            v.visit_span_mut(&mut c.span);
        }
        Expr::Cond(c) => {
            v.visit_expr_mut(&mut c.cond);
            v.visit_expr_mut(&mut c.then);
            v.visit_expr_mut(&mut c.otherwise);
            v.visit_span_mut(&mut c.span);
        }
        Expr::Cast(c) => {
            v.visit_expr_mut(&mut c.expr);
            v.visit_span_mut(&mut c.span);
        }
        Expr::Mask(m) => {
            lit(v, &mut m.mask);
            v.visit_expr_mut(&mut m.expr);
            v.visit_span_mut(&mut m.span);
        }
        Expr::Index { base, index, span } => {
            v.visit_expr_mut(base);
            v.visit_expr_mut(index);
            v.visit_span_mut(span);
        }
        Expr::Field(f) => {
            v.visit_expr_mut(&mut f.base);
            v.visit_span_mut(&mut f.span);
        }
    }
}

/// Visit every declarator of a declaration.
pub fn walk_var_decl_mut<V: VisitMut + ?Sized>(v: &mut V, d: &mut VarDecl) {
    for x in [&mut d.bank, &mut d.align].into_iter().flatten() {
        lit(v, x);
    }
    if let Some(a) = &mut d.attribute {
        v.visit_span_mut(&mut a.span);
    }
    for x in &mut d.decls {
        v.visit_declarator_mut(x);
    }
    v.visit_span_mut(&mut d.span);
}

/// Visit a declarator's name, range, dimensions and initializer.
pub fn walk_declarator_mut<V: VisitMut + ?Sized>(v: &mut V, d: &mut Declarator) {
    v.visit_name_mut(&mut d.name, d.name_span, NameUse::Declaration);
    v.visit_span_mut(&mut d.name_span);
    if let Some(r) = &mut d.range {
        lit(v, r);
    }
    for x in d.dims.iter_mut().flatten() {
        v.visit_expr_mut(x);
    }
    if let Some(i) = &mut d.init {
        v.visit_initializer_mut(i);
    }
    v.visit_span_mut(&mut d.span);
}

/// Visit the values of an initializer. A run of plain decimals whose
/// elements are moved by [`VisitMut::visit_span_mut`] to a place where they
/// no longer read as plain decimals is written out as `Expr` items.
pub fn walk_initializer_mut<V: VisitMut + ?Sized>(v: &mut V, i: &mut Initializer) {
    match i {
        Initializer::Expr(e) => v.visit_expr_mut(e),
        Initializer::List { items, span } => {
            if items.iter().any(|x| matches!(x, Initializer::Decimals(_))) {
                let mut out = Vec::with_capacity(items.len());
                for x in std::mem::take(items).into_vec() {
                    match x {
                        Initializer::Decimals(run) => {
                            let lits: Vec<IntLit> = run
                                .iter()
                                .map(|d| {
                                    let mut l = d.lit();
                                    lit(v, &mut l);
                                    l
                                })
                                .collect();
                            let packed: Option<Vec<DecimalItem>> =
                                lits.iter().map(decimal_at).collect();
                            match packed {
                                Some(p) => out.push(Initializer::Decimals(p.into_boxed_slice())),
                                None => out.extend(
                                    lits.into_iter().map(|l| Initializer::Expr(Expr::Int(l))),
                                ),
                            }
                        }
                        mut other => {
                            v.visit_initializer_mut(&mut other);
                            out.push(other);
                        }
                    }
                }
                *items = out.into_boxed_slice();
            } else {
                for x in items.iter_mut() {
                    v.visit_initializer_mut(x);
                }
            }
            v.visit_span_mut(span);
        }
        Initializer::Field(f) => {
            v.visit_expr_mut(&mut f.value);
            v.visit_span_mut(&mut f.span);
        }
        // Only found inside a list (handled there).
        Initializer::Decimals(_) => {}
    }
}

/// The run element for a visited literal: at its new place if it still
/// reads as a plain decimal there, or nowhere (a synthetic span).
fn decimal_at(l: &IntLit) -> Option<DecimalItem> {
    if l.span.is_synthetic() {
        return Some(DecimalItem::new(l.value, Span::SYNTHETIC.start));
    }
    DecimalItem::from_lit(l)
}
