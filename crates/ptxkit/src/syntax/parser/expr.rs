//! Expressions (C precedence) and instruction operands.

use super::{PResult, Parser};
use crate::lex::TokenKind as K;
use crate::syntax::{
    BinOp, BinaryExpr, CastExpr, ChainExpr, ChainLink, CondExpr, Expr, FieldExpr, MaskExpr,
    Operand, PairOperand, UnOp, CHAIN_MIN,
};

/// Whether a lone literal followed by a token of kind `k` is a whole
/// expression: `k` continues no expression (no operator, no `?`, no `(` of
/// a mask).
/// Take `e` out of its place, leaving a placeholder literal.
fn take_expr(e: &mut Expr) -> Expr {
    std::mem::replace(
        e,
        Expr::Int(crate::syntax::IntLit {
            value: 0,
            radix: crate::syntax::Radix::Dec,
            unsigned: false,
            span: crate::source::Span::at(0),
        }),
    )
}

/// The chain of the `nested` left-leaning [`Expr::Binary`] nodes at the top
/// of `e` (the run read so far), followed by `op rhs`.
fn unroll(e: Expr, nested: usize, op: BinOp, rhs: Expr) -> ChainExpr {
    let mut links = Vec::with_capacity(nested.saturating_mul(2).max(4));
    links.push(ChainLink { op, rhs });
    let mut first = e;
    for _ in 0..nested {
        match first {
            Expr::Binary(b) => {
                let b = *b;
                links.push(ChainLink {
                    op: b.op,
                    rhs: b.rhs,
                });
                first = b.lhs;
            }
            other => {
                first = other;
                break;
            }
        }
    }
    links.reverse();
    // The caller sets the span once the run ends.
    let span = first.span();
    ChainExpr { first, links, span }
}

pub(crate) fn ends_literal(k: K) -> bool {
    binop(k).is_none() && !matches!(k, K::Question | K::LParen)
}

fn binop(k: K) -> Option<BinOp> {
    Some(match k {
        K::Star => BinOp::Mul,
        K::Slash => BinOp::Div,
        K::Percent => BinOp::Rem,
        K::Plus => BinOp::Add,
        K::Minus => BinOp::Sub,
        K::Shl => BinOp::Shl,
        K::Shr => BinOp::Shr,
        K::Lt => BinOp::Lt,
        K::Gt => BinOp::Gt,
        K::Le => BinOp::Le,
        K::Ge => BinOp::Ge,
        K::EqEq => BinOp::Eq,
        K::Ne => BinOp::Ne,
        K::Amp => BinOp::BitAnd,
        K::Caret => BinOp::BitXor,
        K::Pipe => BinOp::BitOr,
        K::AmpAmp => BinOp::And,
        K::PipePipe => BinOp::Or,
        _ => return None,
    })
}

impl Parser<'_> {
    /// A full expression, including `?:`.
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.expr_inner();
        self.leave();
        r
    }

    fn expr_inner(&mut self) -> PResult<Expr> {
        let start = self.tok.span.start;
        // ptxas reads `name+e` as the name plus the whole constant
        // expression `e`, in operands, addresses and initializers alike:
        // `[%rd1+1<<4]` is `%rd1 + (1<<4)`, `buf+1?2:3` is `buf + (1?2:3)`,
        // `[%rd1+4-2]` is `%rd1 + (4-2)`.
        if self.at(K::Ident) && self.peek().kind == K::Plus {
            let t = self.bump();
            let base = Expr::Name(self.name(t), t.span);
            self.bump();
            let offset = self.expr()?;
            return Ok(Expr::Binary(Box::new(BinaryExpr {
                op: BinOp::Add,
                lhs: base,
                rhs: offset,
                span: self.since(start),
            })));
        }
        let cond = self.binary(0)?;
        if self.eat(K::Question) {
            self.hex_single_alone(&cond);
            let then = self.expr()?;
            self.expect(K::Colon, "`:` of a conditional expression")?;
            let otherwise = self.expr()?;
            self.hex_single_alone(&otherwise);
            return Ok(Expr::Cond(Box::new(CondExpr {
                cond,
                then,
                otherwise,
                span: self.since(start),
            })));
        }
        Ok(cond)
    }

    /// Precedence climbing over binary operators binding tighter than `min`.
    pub(crate) fn binary(&mut self, min: u8) -> PResult<Expr> {
        let start = self.tok.span.start;
        let mut lhs = self.unary()?;
        self.binary_rest(start, &mut lhs, min)?;
        Ok(lhs)
    }

    /// Continue a binary expression whose left operand is `lhs`.
    ///
    /// A run of up to [`CHAIN_MIN`] operators becomes nested
    /// [`Expr::Binary`] nodes, each deepening the tree by one (counted like
    /// nesting while its operands are read); a longer run becomes one flat
    /// [`Expr::Chain`], as deep as one node, so `1+1+…` is read whatever
    /// its length (ptxas reads 100,000 terms).
    pub(crate) fn binary_rest(&mut self, start: u32, lhs: &mut Expr, min: u8) -> PResult<()> {
        let mut chain = 0usize;
        let mut flat: Option<Box<ChainExpr>> = None;
        while let Some(op) = binop(self.tok.kind) {
            let prec = op.precedence();
            if prec <= min {
                break;
            }
            chain = chain.saturating_add(1);
            // How far below this run's root the operand will sit.
            let below = if flat.is_some() || chain > CHAIN_MIN {
                1
            } else {
                u32::try_from(chain).unwrap_or(u32::MAX)
            };
            if self.depth.saturating_add(below) > super::MAX_DEPTH {
                let s = self.tok.span;
                self.error(
                    crate::diag::Code::Limit,
                    s,
                    format!("expression deeper than {} levels", super::MAX_DEPTH),
                );
                return Err(super::Fail);
            }
            if chain == 1 {
                self.hex_single_alone(lhs);
            }
            self.bump();
            let saved = self.depth;
            self.depth = saved.saturating_add(below);
            let rhs = self.binary(prec);
            self.depth = saved;
            let rhs = rhs?;
            self.hex_single_alone(&rhs);
            if let Some(c) = flat.as_mut() {
                c.links.push(ChainLink { op, rhs });
            } else if chain > CHAIN_MIN {
                flat = Some(Box::new(unroll(
                    take_expr(lhs),
                    chain.saturating_sub(1),
                    op,
                    rhs,
                )));
            } else {
                let l = take_expr(lhs);
                *lhs = Expr::Binary(Box::new(BinaryExpr {
                    op,
                    lhs: l,
                    rhs,
                    span: self.since(start),
                }));
            }
        }
        if let Some(mut c) = flat {
            c.span = self.since(start);
            *lhs = Expr::Chain(c);
        }
        Ok(())
    }

    fn unary(&mut self) -> PResult<Expr> {
        let start = self.tok.span.start;
        let op = match self.tok.kind {
            K::Minus => UnOp::Neg,
            K::Plus => UnOp::Plus,
            K::Bang => UnOp::Not,
            K::Tilde => UnOp::BitNot,
            _ => return self.postfix(),
        };
        self.bump();
        // `~` is a constant operator: ptxas's grammar takes no name after
        // it (`~%r1` is a syntax error).
        if op == UnOp::BitNot && self.at(K::Ident) && self.text(self.tok) != "WARP_SZ" {
            let t = self.tok;
            self.error(
                crate::diag::Code::Syntax,
                t.span,
                "`~` applies to constants, not to a name (`not.b32` complements a register)",
            );
        }
        self.enter()?;
        let e = self.unary();
        self.leave();
        if let Ok(e) = &e {
            self.hex_single_alone(e);
        }
        Ok(Expr::Unary {
            op,
            expr: Box::new(e?),
            span: self.since(start),
        })
    }

    /// ptxas reads a `0f` literal only as a whole operand or initializer,
    /// or alone in parentheses: as the operand of an operator (`-0f3F800000`,
    /// `1+0f3F800000`) it is a syntax error (`0d` literals and decimal
    /// ones are not).
    fn hex_single_alone(&mut self, e: &Expr) {
        if let Expr::Float(f) = e {
            if f.form == crate::syntax::FloatForm::HexSingle {
                self.error(
                    crate::diag::Code::Syntax,
                    f.span,
                    "a `0f` literal cannot be the operand of an operator \
                     (ptxas takes it alone or in parentheses)",
                );
            }
        }
    }

    /// A primary followed by `.x`-style suffixes glued to it.
    fn postfix(&mut self) -> PResult<Expr> {
        let start = self.tok.span.start;
        let mut e = self.primary()?;
        while self.at(K::DotWord)
            && self.tok.span.start == self.prev_end
            && matches!(e, Expr::Name(..) | Expr::Field(_))
        {
            let t = self.bump();
            e = Expr::Field(Box::new(FieldExpr {
                base: e,
                field: self.name(t),
                span: self.since(start),
            }));
        }
        Ok(e)
    }

    /// `base[index]` after the name `base` (the current token is `[`).
    /// The index is what ptxas takes: a constant expression, a name, or a
    /// name plus a constant (`a[%r1+4-2]`, not `a[%r1-4]` nor `a[4+%r1]`);
    /// any other index is a syntax error, as it is for ptxas.
    fn element(&mut self, start: u32, base: Expr) -> PResult<Expr> {
        self.bump();
        self.enter()?;
        let index = self.expr();
        self.leave();
        let index = index?;
        self.expect(K::RBracket, "`]`")?;
        if let Some(bad) = bad_named(&index, Place::Index) {
            self.report(crate::diag::Diagnostic::error(
                crate::diag::Code::Syntax,
                bad,
                "an array index is a constant, a register, or a register plus a constant",
            ));
        }
        Ok(Expr::Index {
            base: Box::new(base),
            index: Box::new(index),
            span: self.since(start),
        })
    }

    fn primary(&mut self) -> PResult<Expr> {
        let start = self.tok.span.start;
        match self.tok.kind {
            K::Ident => {
                let t = self.bump();
                if self.text(t) == "generic" && self.at(K::LParen) {
                    self.bump();
                    let inner = self.expr()?;
                    self.expect(K::RParen, "`)`")?;
                    return Ok(Expr::Generic(Box::new(inner), self.since(start)));
                }
                Ok(Expr::Name(self.name(t), t.span))
            }
            // Section data may name other sections: `.b32 .debug_abbrev`.
            K::DotWord => {
                let t = self.bump();
                Ok(Expr::Name(self.name(t), t.span))
            }
            K::Int => {
                let t = self.bump();
                let lit = self.int_lit(t);
                // `0xff(expr)`: the mask operator.
                if self.at(K::LParen) && self.tok.span.start == self.prev_end {
                    self.bump();
                    let inner = self.expr()?;
                    self.expect(K::RParen, "`)`")?;
                    return Ok(Expr::Mask(Box::new(MaskExpr {
                        mask: lit,
                        expr: inner,
                        span: self.since(start),
                    })));
                }
                Ok(Expr::Int(lit))
            }
            K::Float => {
                let t = self.bump();
                Ok(Expr::Float(self.float_lit(t)))
            }
            K::LParen => {
                self.bump();
                // `(.s64) e`: a cast.
                if self.at(K::DotWord) && self.peek().kind == K::RParen {
                    let ty = self.bump();
                    self.bump();
                    let ty = self.name(ty);
                    self.enter()?;
                    let e = self.unary();
                    self.leave();
                    return Ok(Expr::Cast(Box::new(CastExpr {
                        ty,
                        expr: e?,
                        span: self.since(start),
                    })));
                }
                let inner = self.expr()?;
                self.expect(K::RParen, "`)`")?;
                Ok(Expr::Paren(Box::new(inner), self.since(start)))
            }
            _ => Err(self.expected("an operand")),
        }
    }

    /// A syntax error for a whole operand `o` that names something in a
    /// way ptxas does not read ([`bad_named`]). An element (`arr[i]`, its
    /// index checked when read) is a whole operand.
    fn check_value(&mut self, o: &Operand) {
        let Operand::Expr(e) = o else { return };
        if matches!(e, Expr::Index { .. }) {
            return;
        }
        if let Expr::Field(f) = e {
            if matches!(&f.base, Expr::Name(n, _) if n.is_warp_size()) {
                self.report(crate::diag::Diagnostic::error(
                    crate::diag::Code::Syntax,
                    f.span,
                    "`WARP_SZ` is a constant: it takes no field",
                ));
                return;
            }
        }
        if let Some(sp) = bad_named(e, Place::Value) {
            self.report(crate::diag::Diagnostic::error(
                crate::diag::Code::Syntax,
                sp,
                "an operand that names a register or symbol is the name alone, or the name plus a constant (`%r1+4`, `buf+-4`)",
            ));
        }
    }

    /// Whether the current token is a lone name or number followed by `,`,
    /// `;` or a closer: the common operand, parsed by [`Parser::simple_expr`].
    #[inline(always)]
    fn at_simple_operand(&mut self) -> bool {
        matches!(self.tok.kind, K::Ident | K::Int | K::Float)
            && matches!(
                self.peek().kind,
                K::Comma | K::Semi | K::RBracket | K::RBrace | K::RParen
            )
    }

    /// The expression of a lone name or number token `t` (consumed).
    #[inline(always)]
    fn simple_expr(&mut self, t: crate::lex::Token) -> Expr {
        match t.kind {
            K::Ident => Expr::Name(self.name(t), t.span),
            K::Int => Expr::Int(self.int_lit(t)),
            _ => Expr::Float(self.float_lit(t)),
        }
    }

    /// Parse one operand onto the end of `items` (a simple operand is
    /// written there directly, not moved through a result).
    #[inline(always)]
    fn push_operand(&mut self, items: &mut Vec<Operand>, lists: bool) -> PResult<()> {
        if self.at_simple_operand() {
            let t = self.bump();
            items.push(Operand::Expr(self.simple_expr(t)));
        } else {
            let o = self.compound_operand(lists)?;
            self.check_value(&o);
            items.push(o);
        }
        Ok(())
    }

    /// An operand (see [`Parser::push_operand`]) for any operand but a lone name or number.
    #[inline(never)]
    fn compound_operand(&mut self, lists: bool) -> PResult<Operand> {
        let start = self.tok.span.start;
        match self.tok.kind {
            K::LBracket => {
                self.bump();
                self.enter()?;
                // One value and `]` is an address: no list is built for it.
                // The first item is checked as an address or, when more
                // follow, as a value.
                let first = if self.at_simple_operand() {
                    let t = self.bump();
                    Ok(Operand::Expr(self.simple_expr(t)))
                } else {
                    self.compound_operand(false)
                };
                let items = match first {
                    Ok(Operand::Expr(addr)) if self.at(K::RBracket) => {
                        self.leave();
                        self.bump();
                        if let Some(bad) = bad_named(&addr, Place::Address) {
                            self.report(crate::diag::Diagnostic::error(
                                crate::diag::Code::Syntax,
                                bad,
                                "an address is `[reg]`, `[var]` or `[imm]`, optionally plus a constant (`[%rd1+-4]`, not `[%rd1-4]`)",
                            ));
                        }
                        let suffix = self.address_suffix();
                        return Ok(Operand::Address {
                            addr,
                            at: crate::syntax::AddressAt::new(self.since(start), suffix),
                        });
                    }
                    Ok(first) => {
                        self.check_value(&first);
                        self.operand_seq_after(first, K::RBracket, false, 2)
                    }
                    Err(e) => Err(e),
                };
                self.leave();
                let items = items?;
                self.expect(K::RBracket, "`]`")?;
                if let Some((at, why)) = super::grouped::bad_tuple_item(&items) {
                    self.report(crate::diag::Diagnostic::error(
                        crate::diag::Code::Syntax,
                        at,
                        why,
                    ));
                }
                Ok(Operand::Tuple {
                    items,
                    span: self.since(start),
                })
            }
            K::LBrace => {
                self.bump();
                self.enter()?;
                let items = self.operand_seq(K::RBrace, false, 4);
                self.leave();
                let items = items?;
                self.expect(K::RBrace, "`}`")?;
                if let Some(at) = items.iter().find_map(super::grouped::bad_vector_element) {
                    self.report(crate::diag::Diagnostic::error(
                        crate::diag::Code::Syntax,
                        at,
                        super::grouped::VECTOR_ELEMENT,
                    ));
                }
                let v = Operand::Vector {
                    items,
                    span: self.since(start),
                };
                if self.eat(K::Pipe) {
                    let second = self.expr()?;
                    return Ok(Operand::Pair(Box::new(PairOperand {
                        first: v,
                        second,
                        span: self.since(start),
                    })));
                }
                Ok(v)
            }
            K::LParen if lists => {
                self.bump();
                self.enter()?;
                let items = if self.at(K::RParen) {
                    Ok(Vec::new())
                } else {
                    self.operand_seq(K::RParen, false, 4)
                };
                self.leave();
                let items = items?;
                self.expect(K::RParen, "`)`")?;
                Ok(Operand::List {
                    items,
                    span: self.since(start),
                })
            }
            _ => {
                let e = self.expr()?;
                // `arr[i]`: an array element (spec 6.4.2), a whole operand
                // (ptxas takes none in initializers or expressions, and no
                // suffix or second index after it).
                if self.at(K::LBracket) && matches!(e, Expr::Name(..)) {
                    return Ok(Operand::Expr(self.element(start, e)?));
                }
                // `p|q` with two names is the predicate pair of setp & co.
                match e {
                    Expr::Binary(b)
                        if b.op == BinOp::BitOr
                            && b.lhs.as_name().is_some()
                            && b.rhs.as_name().is_some() =>
                    {
                        let BinaryExpr { lhs, rhs, span, .. } = *b;
                        Ok(Operand::Pair(Box::new(PairOperand {
                            first: Operand::Expr(lhs),
                            second: rhs,
                            span,
                        })))
                    }
                    e => Ok(Operand::Expr(e)),
                }
            }
        }
    }

    /// `.unified` glued to the `]` of an address.
    fn address_suffix(&mut self) -> Option<crate::isa::ModId> {
        if !(self.at(K::DotWord) && self.tok.span.start == self.prev_end) {
            return None;
        }
        let t = self.bump();
        let text = self.text(t);
        let id = crate::isa::catalog().mod_id(text);
        if id.is_none() {
            let msg = format!("unknown address suffix `{}`", super::truncate(text, 40));
            self.error(crate::diag::Code::UnknownModifier, t.span, msg);
        }
        Some(id.unwrap_or(crate::isa::ModId::UNKNOWN))
    }

    /// Comma-separated operands up to `close` (not consumed), in a list
    /// made with room for `cap` of them.
    pub(crate) fn operand_seq(
        &mut self,
        close: K,
        lists: bool,
        cap: usize,
    ) -> PResult<Vec<Operand>> {
        let items = Vec::with_capacity(cap.max(1));
        self.operand_seq_into(items, close, lists)
    }

    /// [`Parser::operand_seq`] into `items` (empty; a recycled list).
    pub(crate) fn operand_seq_into(
        &mut self,
        mut items: Vec<Operand>,
        close: K,
        lists: bool,
    ) -> PResult<Vec<Operand>> {
        self.push_operand(&mut items, lists)?;
        self.operand_seq_rest(items, close, lists)
    }

    /// [`Parser::operand_seq`] whose first operand, `first`, is parsed.
    fn operand_seq_after(
        &mut self,
        first: Operand,
        close: K,
        lists: bool,
        cap: usize,
    ) -> PResult<Vec<Operand>> {
        let mut items = Vec::with_capacity(cap.max(1));
        items.push(first);
        self.operand_seq_rest(items, close, lists)
    }

    /// The operands after those in `items`, each after a `,`, up to `close`.
    fn operand_seq_rest(
        &mut self,
        mut items: Vec<Operand>,
        close: K,
        lists: bool,
    ) -> PResult<Vec<Operand>> {
        loop {
            if self.eat(K::Comma) {
                self.push_operand(&mut items, lists)?;
                continue;
            }
            if self.at(close) {
                return Ok(items);
            }
            return Err(self.expected(&format!("`,` or {}", close.describe())));
        }
    }
}

/// Whether the general rule of [`Parser::check_value`] refuses the value
/// `e` (it reports that itself).
pub(super) fn named_value_refused(e: &Expr) -> bool {
    !matches!(e, Expr::Index { .. }) && bad_named(e, Place::Value).is_some()
}

/// Where an operand is written with a name: the three places of
/// [`bad_named`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A whole operand (`%r1`, `%tid.x`, `-%r1`, `buf+4`).
    Value,
    /// Inside the brackets of an address.
    Address,
    /// Inside the brackets of an array element.
    Index,
}

/// The span of what ptxas refuses as a syntax error in an operand `e`
/// that names something: the name must lead, followed by nothing or by `+`
/// and constants added or subtracted (`%r1+4-2`); `%r1-4`, `4+%r1`,
/// `%r1+%r2`, `(buf+4)`, `generic(buf)` and `arr[1]+4` are all refused.
/// An operand without names is a constant, checked elsewhere, except in an
/// address or index, where it must be an integer one.
fn bad_named(e: &Expr, place: Place) -> Option<crate::source::Span> {
    // `WARP_SZ` is a constant, not a name.
    let names = |x: &Expr| {
        let mut named = false;
        x.for_each_name(&mut |n, _| named |= !n.is_warp_size());
        named
    };
    let named = names(e);
    if !named {
        let int = super::super::consteval::eval_int(e).is_some();
        return (place != Place::Value && !int).then_some(e.span());
    }
    if place == Place::Index && e.is_sink() {
        return Some(e.span());
    }
    // A field (`%tid.x`) only as a whole value, and a negated register
    // (`-%r1`), which the checker judges.
    let lead = |x: &Expr| matches!(x, Expr::Name(n, _) if !n.is_warp_size());
    let whole =
        |x: &Expr| lead(x) || matches!(x, Expr::Field(f) if place == Place::Value && lead(&f.base));
    if whole(e) {
        return None;
    }
    if let Expr::Unary { expr, .. } = e {
        if place == Place::Value && whole(expr) {
            return None;
        }
    }
    // Down the left spine to the name; the step right after it is `+`.
    let mut at = e;
    loop {
        match at {
            Expr::Binary(b) if matches!(b.op, BinOp::Add | BinOp::Sub) => {
                if names(&b.rhs) {
                    return Some(b.rhs.span());
                }
                if lead(&b.lhs) {
                    return (b.op != BinOp::Add).then_some(b.span);
                }
                at = &b.lhs;
            }
            // The same spine, kept flat: the last link is the outermost.
            Expr::Chain(c) => {
                for (i, l) in c.links.iter().enumerate().rev() {
                    if !matches!(l.op, BinOp::Add | BinOp::Sub) {
                        return Some(c.span);
                    }
                    if names(&l.rhs) {
                        return Some(l.rhs.span());
                    }
                    if i == 0 && lead(&c.first) {
                        return (l.op != BinOp::Add).then_some(c.span);
                    }
                }
                at = &c.first;
            }
            other => return Some(other.span()),
        }
    }
}
