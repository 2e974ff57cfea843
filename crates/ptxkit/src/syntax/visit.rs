//! Read-only traversal of the tree: the [`Visit`] trait and its `walk_*`
//! functions.
//!
//! Every method has a default that walks the node's children (the matching
//! `walk_*` function); override the methods for the nodes you care about
//! and call the `walk_*` function from the override to keep descending.
//! Every statement, operand and expression kind is reached, and every
//! symbol name is reported once through [`Visit::visit_name`] with how it is
//! used ([`NameUse`]).
//!
//! ```
//! use ptxkit::syntax::visit::{self, NameUse, Visit};
//! use ptxkit::{Name, Span};
//!
//! /// Counts the uses of each register.
//! #[derive(Default)]
//! struct Uses(std::collections::BTreeMap<String, usize>);
//! impl<'a> Visit<'a> for Uses {
//!     fn visit_name(&mut self, name: &'a Name, _: Span, how: NameUse) {
//!         if how == NameUse::Use && name.as_str().starts_with('%') {
//!             *self.0.entry(name.to_string()).or_default() += 1;
//!         }
//!     }
//! }
//! let src = ".version 8.0\n.target sm_90\n.entry k() {\n .reg .b32 %r<3>;\n add.s32 %r1, %r2, %r2;\n ret;\n}\n";
//! let m = ptxkit::parse(src.as_bytes()).module;
//! let mut uses = Uses::default();
//! uses.visit_module(&m);
//! assert_eq!(uses.0["%r2"], 2);
//! ```

use super::*;
use crate::source::Span;

/// How a name occurs in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameUse {
    /// Declared here: a variable or register declarator, a parameter, a
    /// function's name, a label definition (`L:`), the label of a
    /// `.callprototype`, `.calltargets` or `.branchtargets` statement.
    Declaration,
    /// Used here: in an operand, a guard, an initializer, a target list,
    /// an `.alias`, a `.loc`.
    Use,
}

/// A read-only visitor. See the [module documentation](self).
#[allow(unused_variables)]
pub trait Visit<'a> {
    /// A module.
    fn visit_module(&mut self, m: &'a Module) {
        walk_module(self, m)
    }
    /// A top-level item.
    fn visit_item(&mut self, i: &'a Item) {
        walk_item(self, i)
    }
    /// A kernel or function, declaration or definition.
    fn visit_function(&mut self, f: &'a Function) {
        walk_function(self, f)
    }
    /// A parameter or return parameter.
    fn visit_param(&mut self, p: &'a Param) {
        walk_param(self, p)
    }
    /// A block (a function body or a nested scope).
    fn visit_block(&mut self, b: &'a Block) {
        walk_block(self, b)
    }
    /// A statement.
    fn visit_stmt(&mut self, s: &'a Stmt) {
        walk_stmt(self, s)
    }
    /// An instruction.
    fn visit_instruction(&mut self, i: &'a Instruction) {
        walk_instruction(self, i)
    }
    /// A written modifier of an instruction.
    fn visit_modifier(&mut self, m: &'a Modifier) {}
    /// An operand (also each item of a vector, tuple, list or pair).
    fn visit_operand(&mut self, o: &'a Operand) {
        walk_operand(self, o)
    }
    /// An expression (also each subexpression).
    fn visit_expr(&mut self, e: &'a Expr) {
        walk_expr(self, e)
    }
    /// A variable or register declaration.
    fn visit_var_decl(&mut self, v: &'a VarDecl) {
        walk_var_decl(self, v)
    }
    /// One declared name of a declaration.
    fn visit_declarator(&mut self, d: &'a Declarator) {
        walk_declarator(self, d)
    }
    /// An initializer (runs of plain decimals are visited as a whole: they
    /// hold no names).
    fn visit_initializer(&mut self, i: &'a Initializer) {
        walk_initializer(self, i)
    }
    /// Every symbol name: declared or used (see [`NameUse`]).
    fn visit_name(&mut self, name: &'a Name, span: Span, how: NameUse) {}
}

/// Visit every item.
pub fn walk_module<'a, V: Visit<'a> + ?Sized>(v: &mut V, m: &'a Module) {
    for i in &m.items {
        v.visit_item(i);
    }
}

/// Visit the children of an item.
pub fn walk_item<'a, V: Visit<'a> + ?Sized>(v: &mut V, i: &'a Item) {
    match i {
        Item::Var(d) => v.visit_var_decl(d),
        Item::Function(f) => v.visit_function(f),
        Item::Loc(l) => walk_loc(v, l),
        Item::Section(s) => {
            for e in &s.entries {
                match e {
                    SectionEntry::Label(n, sp) => v.visit_name(n, *sp, NameUse::Declaration),
                    SectionEntry::Data { values, .. } => {
                        for x in values {
                            v.visit_expr(x);
                        }
                    }
                    // Plain numbers: no name, nothing to visit.
                    SectionEntry::Bytes { .. } | SectionEntry::ByteList { .. } => {}
                }
            }
        }
        Item::Alias(a) => {
            v.visit_name(&a.alias, a.span, NameUse::Use);
            v.visit_name(&a.target, a.span, NameUse::Use);
        }
        Item::Directive(d) => {
            for x in &d.args {
                v.visit_expr(x);
            }
        }
        Item::Version(_)
        | Item::Target(_)
        | Item::AddressSize(_)
        | Item::File(_)
        | Item::Pragma(_)
        | Item::IntermediateSource(_)
        | Item::Error(_) => {}
    }
}

fn walk_loc<'a, V: Visit<'a> + ?Sized>(v: &mut V, l: &'a Loc) {
    if let Some(e) = &l.function_name {
        v.visit_expr(e);
    }
}

/// Visit a function's name, parameters and body.
pub fn walk_function<'a, V: Visit<'a> + ?Sized>(v: &mut V, f: &'a Function) {
    v.visit_name(&f.name, f.name_span, NameUse::Declaration);
    for p in f.rets.iter().flatten().chain(f.params.iter().flatten()) {
        v.visit_param(p);
    }
    if let Some(b) = &f.body {
        v.visit_block(b);
    }
}

/// Visit a parameter's name and dimensions.
pub fn walk_param<'a, V: Visit<'a> + ?Sized>(v: &mut V, p: &'a Param) {
    v.visit_name(&p.name, p.name_span, NameUse::Declaration);
    for d in p.dims.iter().flatten() {
        v.visit_expr(d);
    }
}

/// Visit every statement of a block.
pub fn walk_block<'a, V: Visit<'a> + ?Sized>(v: &mut V, b: &'a Block) {
    for s in &b.stmts {
        v.visit_stmt(s);
    }
}

/// Visit the children of a statement.
pub fn walk_stmt<'a, V: Visit<'a> + ?Sized>(v: &mut V, s: &'a Stmt) {
    match s {
        Stmt::Instruction(i) => v.visit_instruction(i),
        Stmt::Label(n, sp) => v.visit_name(n, *sp, NameUse::Declaration),
        Stmt::Var(d) => v.visit_var_decl(d),
        Stmt::Block(b) => v.visit_block(b),
        Stmt::Loc(l) => walk_loc(v, l),
        Stmt::CallPrototype(c) => {
            v.visit_name(&c.label, c.span, NameUse::Declaration);
            for p in c.rets.iter().flatten().chain(c.params.iter().flatten()) {
                v.visit_param(p);
            }
        }
        Stmt::CallTargets(t) | Stmt::BranchTargets(t) => {
            v.visit_name(&t.label, t.span, NameUse::Declaration);
            for (n, sp) in &t.targets {
                v.visit_name(n, *sp, NameUse::Use);
            }
        }
        Stmt::Directive(d) => {
            for x in &d.args {
                v.visit_expr(x);
            }
        }
        // The declaration's name and parameters (not `visit_function`,
        // which visitors take for the module's functions).
        Stmt::Function(f) => walk_function(v, f),
        Stmt::Pragma(_) | Stmt::Target(_) | Stmt::Error(_) => {}
    }
}

/// Visit an instruction's guard, modifiers and operands.
pub fn walk_instruction<'a, V: Visit<'a> + ?Sized>(v: &mut V, i: &'a Instruction) {
    if let Some(g) = &i.guard {
        v.visit_name(&g.pred, g.span, NameUse::Use);
    }
    for m in &i.mods {
        v.visit_modifier(m);
    }
    for o in &i.operands {
        v.visit_operand(o);
    }
}

/// Visit the expressions and items of an operand.
pub fn walk_operand<'a, V: Visit<'a> + ?Sized>(v: &mut V, o: &'a Operand) {
    match o {
        Operand::Expr(e) | Operand::Address { addr: e, .. } => v.visit_expr(e),
        Operand::Pair(p) => {
            v.visit_operand(&p.first);
            v.visit_expr(&p.second);
        }
        Operand::Tuple { items, .. }
        | Operand::Vector { items, .. }
        | Operand::List { items, .. } => {
            for x in items {
                v.visit_operand(x);
            }
        }
    }
}

/// Visit the subexpressions and names of an expression.
pub fn walk_expr<'a, V: Visit<'a> + ?Sized>(v: &mut V, e: &'a Expr) {
    match e {
        Expr::Name(n, sp) => v.visit_name(n, *sp, NameUse::Use),
        Expr::Int(_) | Expr::Float(_) => {}
        Expr::Unary { expr, .. } | Expr::Paren(expr, _) | Expr::Generic(expr, _) => {
            v.visit_expr(expr)
        }
        Expr::Binary(b) => {
            v.visit_expr(&b.lhs);
            v.visit_expr(&b.rhs);
        }
        Expr::Chain(c) => {
            v.visit_expr(&c.first);
            for l in &c.links {
                v.visit_expr(&l.rhs);
            }
        }
        Expr::Cond(c) => {
            v.visit_expr(&c.cond);
            v.visit_expr(&c.then);
            v.visit_expr(&c.otherwise);
        }
        Expr::Cast(c) => v.visit_expr(&c.expr),
        Expr::Mask(m) => v.visit_expr(&m.expr),
        Expr::Index { base, index, .. } => {
            v.visit_expr(base);
            v.visit_expr(index);
        }
        Expr::Field(f) => v.visit_expr(&f.base),
    }
}

/// Visit every declarator of a declaration.
pub fn walk_var_decl<'a, V: Visit<'a> + ?Sized>(v: &mut V, d: &'a VarDecl) {
    for x in &d.decls {
        v.visit_declarator(x);
    }
}

/// Visit a declarator's name, dimensions and initializer.
pub fn walk_declarator<'a, V: Visit<'a> + ?Sized>(v: &mut V, d: &'a Declarator) {
    v.visit_name(&d.name, d.name_span, NameUse::Declaration);
    for x in d.dims.iter().flatten() {
        v.visit_expr(x);
    }
    if let Some(i) = &d.init {
        v.visit_initializer(i);
    }
}

/// Visit the values of an initializer.
pub fn walk_initializer<'a, V: Visit<'a> + ?Sized>(v: &mut V, i: &'a Initializer) {
    match i {
        Initializer::Expr(e) => v.visit_expr(e),
        Initializer::List { items, .. } => {
            for x in items.iter() {
                v.visit_initializer(x);
            }
        }
        Initializer::Field(f) => v.visit_expr(&f.value),
        Initializer::Decimals(_) => {}
    }
}
