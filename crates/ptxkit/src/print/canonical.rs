//! The canonical printer: one statement per line, tab indentation, operands
//! separated by `", "`, modifiers in written order. Parsing its output gives
//! a tree equal to the printed one.

use std::fmt::Write;

use crate::isa::catalog;
use crate::syntax::*;

/// Print a module canonically.
pub fn canonical(m: &Module) -> String {
    let mut p = Printer::new(String::with_capacity(4096));
    p.module(m);
    p.out
}

/// Print a module canonically, keeping the comments of `src`, the source
/// it was parsed from: each comment goes on its own line before the
/// statement (or item) it precedes or is inside, or at the end of the line
/// of the statement it ends (a comment after a statement on the same
/// line). Comments before a closing brace stay before it; those at the end
/// of the source stay at the end. The output parses to the same tree as
/// [`canonical`]'s.
pub fn canonical_with_comments(m: &Module, src: &[u8]) -> String {
    let mut p = Printer::new(String::with_capacity(src.len().saturating_add(4096)));
    p.notes = Some(Notes::new(src));
    p.module(m);
    p.lead(u32::MAX, 0);
    if p.out.ends_with("\n\n") {
        p.out.pop();
    }
    p.out
}

/// Print one statement canonically at indentation `depth` (no trailing newline).
pub fn canonical_stmt(s: &Stmt, depth: usize) -> String {
    let mut p = Printer::new(String::new());
    p.stmt(s, depth);
    while p.out.ends_with('\n') {
        p.out.pop();
    }
    p.out
}

/// Print one top-level item canonically (no trailing newline).
pub fn canonical_item(i: &Item) -> String {
    let mut p = Printer::new(String::new());
    p.item(i);
    while p.out.ends_with('\n') {
        p.out.pop();
    }
    p.out
}

/// Print a function canonically as lines, each paired with the span of
/// what it was printed from (header lines carry the function's span, body
/// lines their statement's, braces their block's).
pub fn canonical_function_lines(f: &Function) -> Vec<(crate::source::Span, String)> {
    let mut p = Printer::new(String::new());
    p.function(f, false);
    let mut out: Vec<(crate::source::Span, String)> = Vec::new();
    for l in p.out.lines() {
        if l == "{" && f.body.is_some() {
            break;
        }
        out.push((f.span, l.to_string()));
    }
    fn block(b: &Block, depth: usize, out: &mut Vec<(crate::source::Span, String)>) {
        let open = crate::source::Span::at(b.span.start);
        let close = crate::source::Span::at(b.span.end.saturating_sub(1));
        out.push((open, format!("{}{{", "\t".repeat(depth))));
        for s in &b.stmts {
            match s {
                Stmt::Block(inner) => block(inner, depth.saturating_add(1), out),
                Stmt::Error(_) => {}
                _ => {
                    for l in canonical_stmt(s, depth.saturating_add(1)).lines() {
                        out.push((s.span(), l.to_string()));
                    }
                }
            }
        }
        out.push((close, format!("{}}}", "\t".repeat(depth))));
    }
    if let Some(b) = &f.body {
        block(b, 0, &mut out);
    }
    out
}

/// Print one instruction canonically (no indentation, no newline).
pub fn instruction_text(i: &Instruction) -> String {
    let mut p = Printer::new(String::new());
    p.instruction(i);
    p.out
}

/// Print one operand canonically.
pub fn operand_text(o: &Operand) -> String {
    let mut p = Printer::new(String::new());
    p.operand(o);
    p.out
}

/// Print one statement canonically, without indentation or newline (a
/// nested block spans several lines).
pub fn stmt_text(s: &Stmt) -> String {
    canonical_stmt(s, 0)
}

/// Print an expression canonically.
pub fn expr_text(e: &Expr) -> String {
    let mut p = Printer::new(String::new());
    p.expr(e);
    p.out
}

struct Printer<'s> {
    out: String,
    /// The source's comments, when they are kept.
    notes: Option<Notes<'s>>,
}

/// The comments of a source, in order, and how many are printed.
struct Notes<'s> {
    src: &'s [u8],
    spans: Vec<crate::source::Span>,
    next: usize,
}

impl<'s> Notes<'s> {
    fn new(src: &'s [u8]) -> Notes<'s> {
        use crate::lex::{Lexer, TokenKind};
        let mut lx = Lexer::new(src);
        let mut spans = Vec::new();
        loop {
            let t = lx.next_token();
            match t.kind {
                TokenKind::Eof => break,
                TokenKind::LineComment | TokenKind::BlockComment => spans.push(t.span),
                _ => {}
            }
        }
        Notes {
            src,
            spans,
            next: 0,
        }
    }

    /// The next comment, if it starts before `before`.
    fn take_before(&mut self, before: u32) -> Option<String> {
        let s = *self.spans.get(self.next)?;
        if s.start >= before {
            return None;
        }
        self.next = self.next.saturating_add(1);
        Some(self.text(s))
    }

    /// The next comment, if only spaces separate it from `end` (the end of
    /// a statement or of the comment before).
    fn take_trailing(&mut self, end: &mut u32) -> Option<String> {
        let s = *self.spans.get(self.next)?;
        let gap = crate::source::Span::new(*end, s.start).slice(self.src);
        if s.start < *end || !gap.iter().all(|b| *b == b' ' || *b == b'\t') {
            return None;
        }
        self.next = self.next.saturating_add(1);
        *end = s.end;
        Some(self.text(s))
    }

    fn text(&self, s: crate::source::Span) -> String {
        s.text(self.src).trim_end().to_string()
    }
}

impl<'s> Printer<'s> {
    fn new(out: String) -> Printer<'s> {
        Printer { out, notes: None }
    }

    fn module(&mut self, m: &Module) {
        let mut prev_fn = false;
        for item in &m.items {
            let is_fn = matches!(item, Item::Function(f) if f.body.is_some());
            if (is_fn || prev_fn) && !self.out.is_empty() {
                self.out.push('\n');
            }
            prev_fn = is_fn;
            let span = item.span();
            if !span.is_synthetic() {
                let lead_to = match item {
                    Item::Function(f) => f.body.as_ref().map_or(span.end, |b| b.span.start),
                    // Its sources are verbatim text: what reads as a
                    // comment there is printed with them.
                    Item::IntermediateSource(_) => span.start,
                    _ => span.end,
                };
                self.lead(lead_to, 0);
                if let (Item::IntermediateSource(_), Some(n)) = (item, self.notes.as_mut()) {
                    while n.take_before(span.end).is_some() {}
                }
            }
            self.item(item);
            if !span.is_synthetic() {
                self.trail(span.end);
            }
        }
    }

    /// Print the comments that start before `before`, each on its own line.
    fn lead(&mut self, before: u32, depth: usize) {
        let Some(notes) = self.notes.as_mut() else {
            return;
        };
        let mut texts = Vec::new();
        while let Some(t) = notes.take_before(before) {
            texts.push(t);
        }
        for t in texts {
            if !self.out.is_empty() && !self.out.ends_with('\n') {
                self.out.push('\n');
            }
            self.indent(depth);
            self.out.push_str(&t);
            self.out.push('\n');
        }
    }

    /// Put the comments that follow `end` on its line at the end of the
    /// line just printed.
    fn trail(&mut self, mut end: u32) {
        let Some(notes) = self.notes.as_mut() else {
            return;
        };
        let mut texts = Vec::new();
        while let Some(t) = notes.take_trailing(&mut end) {
            texts.push(t);
        }
        if texts.is_empty() {
            return;
        }
        let newline = self.out.ends_with('\n');
        if newline {
            self.out.pop();
        }
        for t in texts {
            self.out.push(' ');
            self.out.push_str(&t);
        }
        if newline || !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push('\t');
        }
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Version(v) => {
                let _ = writeln!(self.out, ".version {}.{}", v.major, v.minor);
            }
            Item::Target(t) => {
                self.out.push_str(".target ");
                self.join(&t.items, |p, (n, _)| p.out.push_str(n.as_str()));
                self.out.push('\n');
            }
            Item::AddressSize(a) => {
                self.out.push_str(".address_size ");
                self.int(&a.bits);
                self.out.push('\n');
            }
            Item::File(f) => {
                self.out.push_str(".file ");
                self.int(&f.index);
                self.out.push(' ');
                self.out.push_str(f.name.as_str());
                for e in &f.extra {
                    self.out.push_str(", ");
                    self.int(e);
                }
                self.out.push('\n');
            }
            Item::Loc(l) => {
                self.loc(l);
                self.out.push('\n');
            }
            Item::Section(s) => {
                self.out.push_str(".section ");
                self.out.push_str(s.name.as_str());
                self.out.push_str("\n{\n");
                for e in &s.entries {
                    match e {
                        SectionEntry::Label(n, _) => {
                            self.out.push_str(n.as_str());
                            self.out.push_str(":\n");
                        }
                        SectionEntry::Data { ty, values, .. } => {
                            self.out.push('\t');
                            self.out.push_str(ty.as_str());
                            self.out.push(' ');
                            self.join(values, |p, e| p.expr(e));
                            self.out.push('\n');
                        }
                        SectionEntry::Bytes { values, .. } => {
                            for v in values {
                                let _ = writeln!(self.out, "\t.b8 {v}");
                            }
                        }
                        SectionEntry::ByteList { values, .. } => {
                            self.out.push_str("\t.b8 ");
                            for (i, v) in values.iter().enumerate() {
                                if i > 0 {
                                    self.out.push_str(", ");
                                }
                                let _ = write!(self.out, "{v}");
                            }
                            self.out.push('\n');
                        }
                    }
                }
                self.out.push_str("}\n");
            }
            Item::Pragma(pr) => {
                self.pragma(pr);
                self.out.push('\n');
            }
            Item::Var(v) => {
                self.var(v);
                self.out.push('\n');
            }
            Item::Function(f) => self.function(f, false),
            Item::Alias(a) => {
                let _ = writeln!(self.out, ".alias {}, {};", a.alias, a.target);
            }
            Item::Directive(d) => {
                self.directive(d);
                self.out.push('\n');
            }
            Item::IntermediateSource(x) => {
                self.out.push_str(".nv_intermediate_source_section {\n");
                for b in &x.blocks {
                    self.out.push_str("\t.code_block {\n");
                    if let Some(n) = &b.ir_name {
                        let _ = writeln!(self.out, "\t\t.ir_name: {n}");
                    }
                    if let Some(f) = &b.file {
                        self.out.push_str("\t\t.sourceFileName: ");
                        self.int(f);
                        self.out.push('\n');
                    }
                    if let Some(src) = &b.source {
                        self.out.push_str("\t\t.source_begin");
                        self.out.push_str(src);
                        self.out.push_str(".source_end\n");
                    }
                    self.out.push_str("\t}\n");
                }
                self.out.push_str("}\n");
            }
            Item::Error(_) => {}
        }
    }

    fn join<T>(&mut self, items: &[T], mut f: impl FnMut(&mut Printer, &T)) {
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            f(self, x);
        }
    }

    fn directive(&mut self, d: &Directive) {
        self.out.push_str(d.name.as_str());
        if d.name.as_str() == ".loc_intermediate" {
            for a in &d.args {
                self.out.push(' ');
                self.expr(a);
            }
        } else if !d.args.is_empty() {
            self.out.push(' ');
            self.join(&d.args, |p, e| p.expr(e));
        }
        if d.semi {
            self.out.push(';');
        }
    }

    fn pragma(&mut self, pr: &Pragma) {
        self.out.push_str(".pragma ");
        self.join(&pr.strings, |p, s| p.out.push_str(s.as_str()));
        self.out.push(';');
    }

    fn loc(&mut self, l: &Loc) {
        self.out.push_str(".loc ");
        self.int(&l.file);
        self.out.push(' ');
        self.int(&l.line);
        self.out.push(' ');
        self.int(&l.col);
        if let Some(f) = &l.function_name {
            self.out.push_str(", function_name ");
            self.expr(f);
        }
        if let Some([a, b, c]) = &l.inlined_at {
            self.out.push_str(", inlined_at ");
            self.int(a);
            self.out.push(' ');
            self.int(b);
            self.out.push(' ');
            self.int(c);
        }
    }

    fn var(&mut self, v: &VarDecl) {
        if let Some(l) = v.linkage {
            self.out.push_str(l.as_str());
            self.out.push(' ');
        }
        self.out.push_str(v.space.as_str());
        if let Some(b) = &v.bank {
            self.out.push('[');
            self.int(b);
            self.out.push(']');
        }
        if let Some(a) = &v.attribute {
            self.out.push_str(" .attribute(");
            self.join(&a.names, |p, n| p.out.push_str(n.as_str()));
            self.out.push(')');
        }
        if let Some(a) = &v.align {
            self.out.push_str(" .align ");
            self.int(a);
        }
        if let Some(n) = v.vector {
            let _ = write!(self.out, " .v{n}");
        }
        self.out.push(' ');
        self.out.push_str(v.ty.as_str());
        self.out.push(' ');
        self.join(&v.decls, |p, d| p.declarator(d));
        self.out.push(';');
    }

    fn declarator(&mut self, d: &Declarator) {
        self.out.push_str(d.name.as_str());
        if let Some(r) = &d.range {
            self.out.push('<');
            self.int(r);
            self.out.push('>');
        }
        self.dims(&d.dims);
        if let Some(i) = &d.init {
            self.out.push_str(" = ");
            self.init(i);
        }
    }

    fn dims(&mut self, dims: &[Option<Expr>]) {
        for d in dims {
            self.out.push('[');
            if let Some(e) = d {
                self.expr(e);
            }
            self.out.push(']');
        }
    }

    fn init(&mut self, i: &Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List { items, .. } => {
                self.out.push('{');
                self.join(items, |p, i| p.init(i));
                self.out.push('}');
            }
            Initializer::Decimals(run) => {
                self.join(run, |p, d| p.expr(&crate::syntax::Expr::Int(d.lit())));
            }
            Initializer::Field(f) => {
                self.out.push_str(f.name.as_str());
                self.out.push_str(" = ");
                self.expr(&f.value);
            }
        }
    }

    fn param(&mut self, p: &Param) {
        if p.hidden {
            self.out.push_str(".hidden ");
        }
        self.out.push_str(p.space.as_str());
        if let Some(a) = &p.align {
            self.out.push_str(" .align ");
            self.int(a);
        }
        if let Some(n) = p.vector {
            let _ = write!(self.out, " .v{n}");
        }
        self.out.push(' ');
        self.out.push_str(p.ty.as_str());
        if let Some(ptr) = &p.ptr {
            self.out.push_str(" .ptr");
            if let Some(s) = ptr.space {
                self.out.push(' ');
                self.out.push_str(s.as_str());
            }
            if let Some(a) = &ptr.align {
                self.out.push_str(" .align ");
                self.int(a);
            }
        }
        self.out.push(' ');
        self.out.push_str(p.name.as_str());
        self.dims(&p.dims);
    }

    fn params(&mut self, ps: &[Param], multiline: bool) {
        self.out.push('(');
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
                if !multiline {
                    self.out.push(' ');
                }
            }
            if multiline {
                self.out.push_str("\n\t");
            }
            self.param(p);
        }
        if multiline && !ps.is_empty() {
            self.out.push('\n');
        }
        self.out.push(')');
    }

    /// A function; `in_body` for a declaration inside a body, whose
    /// directives stay on its line and whose line's end the body adds.
    fn function(&mut self, f: &Function, in_body: bool) {
        if let Some(l) = f.linkage {
            self.out.push_str(l.as_str());
            self.out.push(' ');
        }
        self.out.push_str(match f.kind {
            FuncKind::Entry => ".entry ",
            FuncKind::Func => ".func ",
        });
        if let Some(r) = &f.rets {
            self.params(r, false);
            self.out.push(' ');
        }
        self.out.push_str(f.name.as_str());
        if let Some(ps) = &f.params {
            self.params(ps, f.body.is_some());
        }
        for d in &f.directives {
            self.out.push(if in_body { ' ' } else { '\n' });
            self.out.push_str(d.name.as_str());
            if !d.args.is_empty() || !d.strings.is_empty() {
                self.out.push(' ');
                self.join(&d.args, |p, a| p.int(a));
                if !d.args.is_empty() && !d.strings.is_empty() {
                    self.out.push_str(", ");
                }
                self.join(&d.strings, |p, s| p.out.push_str(s.as_str()));
            }
            if d.name.as_str() == ".pragma" {
                self.out.push(';');
            }
        }
        match &f.body {
            Some(b) => {
                self.out.push('\n');
                self.block(b, 0);
                self.out.push('\n');
            }
            None => self.out.push_str(if in_body { ";" } else { ";\n" }),
        }
    }

    fn block(&mut self, b: &Block, depth: usize) {
        self.indent(depth);
        self.out.push_str("{\n");
        let inner = depth.saturating_add(1);
        for s in &b.stmts {
            let span = s.span();
            if span.is_synthetic() || self.notes.is_none() {
                self.stmt(s, inner);
                continue;
            }
            self.lead(
                match s {
                    Stmt::Block(b) => b.span.start,
                    _ => span.end,
                },
                inner,
            );
            self.stmt(s, inner);
            self.trail(span.end);
        }
        if !b.span.is_synthetic() {
            self.lead(b.span.end.saturating_sub(1), inner);
        }
        self.indent(depth);
        self.out.push('}');
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        match s {
            Stmt::Label(n, _) => {
                self.out.push_str(n.as_str());
                self.out.push_str(":\n");
                return;
            }
            Stmt::Block(b) => {
                self.block(b, depth);
                self.out.push('\n');
                return;
            }
            Stmt::Error(_) => return,
            _ => {}
        }
        self.indent(depth);
        match s {
            Stmt::Instruction(i) => self.instruction(i),
            Stmt::Var(v) => self.var(v),
            Stmt::Loc(l) => self.loc(l),
            Stmt::Pragma(p) => self.pragma(p),
            Stmt::CallPrototype(c) => {
                self.out.push_str(c.label.as_str());
                self.out.push_str(": .callprototype ");
                if let Some(r) = &c.rets {
                    self.params(r, false);
                    self.out.push(' ');
                }
                self.out.push('_');
                if let Some(ps) = &c.params {
                    self.out.push(' ');
                    self.params(ps, false);
                }
                if c.noreturn {
                    self.out.push_str(" .noreturn");
                }
                for d in &c.directives {
                    self.out.push(' ');
                    self.out.push_str(d.name.as_str());
                    self.out.push(' ');
                    self.join(&d.args, |p, a| p.int(a));
                }
                self.out.push(';');
            }
            Stmt::CallTargets(t) | Stmt::BranchTargets(t) => {
                self.out.push_str(t.label.as_str());
                self.out.push_str(if matches!(s, Stmt::CallTargets(_)) {
                    ": .calltargets "
                } else {
                    ": .branchtargets "
                });
                self.join(&t.targets, |p, (n, _)| p.out.push_str(n.as_str()));
                self.out.push(';');
            }
            Stmt::Directive(d) => self.directive(d),
            Stmt::Target(t) => {
                self.out.push_str(".target ");
                self.join(&t.items, |p, (n, _)| p.out.push_str(n.as_str()));
            }
            // As at module scope, on one line (its end is added below).
            Stmt::Function(f) => self.function(f, true),
            Stmt::Label(..) | Stmt::Block(_) | Stmt::Error(_) => {}
        }
        self.out.push('\n');
    }

    fn instruction(&mut self, i: &Instruction) {
        if let Some(g) = &i.guard {
            self.out.push('@');
            if g.negated {
                self.out.push('!');
            }
            self.out.push_str(g.pred.as_str());
            self.out.push(' ');
        }
        let cat = catalog();
        self.out.push_str(i.opcode_name());
        for m in &i.mods {
            self.out.push_str(cat.mod_name(m.id));
        }
        if !i.operands.is_empty() {
            self.out.push('\t');
            self.join(&i.operands, |p, o| p.operand(o));
        }
        self.out.push(';');
    }

    fn operand(&mut self, o: &Operand) {
        match o {
            Operand::Expr(e) => self.expr(e),
            Operand::Pair(p) => {
                self.operand(&p.first);
                self.out.push('|');
                self.expr(&p.second);
            }
            Operand::Address { addr, at } => {
                self.out.push('[');
                self.expr(addr);
                self.out.push(']');
                if let Some(s) = at.suffix() {
                    self.out.push_str(catalog().mod_name(s));
                }
            }
            Operand::Tuple { items, .. } => {
                self.out.push('[');
                self.join(items, |p, o| p.operand(o));
                self.out.push(']');
            }
            Operand::Vector { items, .. } => {
                self.out.push('{');
                self.join(items, |p, o| p.operand(o));
                self.out.push('}');
            }
            Operand::List { items, .. } => {
                self.out.push('(');
                self.join(items, |p, o| p.operand(o));
                self.out.push(')');
            }
        }
    }

    fn int(&mut self, l: &IntLit) {
        let _ = match l.radix {
            Radix::Dec => write!(self.out, "{}", l.value),
            Radix::Hex => write!(self.out, "0x{:X}", l.value),
            Radix::Oct => write!(self.out, "0{:o}", l.value),
            Radix::Bin => write!(self.out, "0b{:b}", l.value),
        };
        if l.unsigned {
            self.out.push('U');
        }
    }

    fn binop(&mut self, op: crate::syntax::BinOp) {
        // `7 % 2` written `7%2` would read as `7` and the register `%2`:
        // the remainder keeps its spaces.
        if op == crate::syntax::BinOp::Rem {
            self.out.push_str(" % ");
        } else {
            self.out.push_str(op.as_str());
        }
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Name(n, _) => self.out.push_str(n.as_str()),
            Expr::Int(l) => self.int(l),
            Expr::Float(f) => {
                let _ = match f.form {
                    FloatForm::HexSingle => write!(self.out, "0f{:08X}", f.bits as u32),
                    FloatForm::HexDouble => write!(self.out, "0d{:016X}", f.bits),
                    FloatForm::Decimal => {
                        let v = f64::from_bits(f.bits);
                        if v.is_finite() {
                            write!(self.out, "{v:?}")
                        } else {
                            write!(self.out, "1e999")
                        }
                    }
                };
            }
            Expr::Unary { op, expr, .. } => {
                self.out.push(match op {
                    UnOp::Neg => '-',
                    UnOp::Plus => '+',
                    UnOp::Not => '!',
                    UnOp::BitNot => '~',
                });
                self.expr(expr);
            }
            Expr::Binary(b) => {
                self.expr(&b.lhs);
                self.binop(b.op);
                self.expr(&b.rhs);
            }
            Expr::Chain(c) => {
                self.expr(&c.first);
                for l in &c.links {
                    self.binop(l.op);
                    self.expr(&l.rhs);
                }
            }
            Expr::Cond(c) => {
                self.expr(&c.cond);
                self.out.push_str(" ? ");
                self.expr(&c.then);
                self.out.push_str(" : ");
                self.expr(&c.otherwise);
            }
            Expr::Paren(inner, _) => {
                self.out.push('(');
                self.expr(inner);
                self.out.push(')');
            }
            Expr::Cast(c) => {
                self.out.push('(');
                self.out.push_str(c.ty.as_str());
                self.out.push(')');
                self.expr(&c.expr);
            }
            Expr::Generic(inner, _) => {
                self.out.push_str("generic(");
                self.expr(inner);
                self.out.push(')');
            }
            Expr::Mask(m) => {
                self.int(&m.mask);
                self.out.push('(');
                self.expr(&m.expr);
                self.out.push(')');
            }
            Expr::Index { base, index, .. } => {
                self.expr(base);
                self.out.push('[');
                self.expr(index);
                self.out.push(']');
            }
            Expr::Field(f) => {
                self.expr(&f.base);
                self.out.push_str(f.field.as_str());
            }
        }
    }
}
