//! An initializer against its variable's shape (ptxas 13.5): no more
//! elements than an array dimension holds, exactly a vector's length, a
//! list exactly where an array or vector is, and values of a kind the type
//! takes. ptxas stops at the first such error, one per declarator: the
//! first in a walk that looks at a list (its length) before its items.
//!
//! The initializer of a texture, sampler or surface reference sets
//! fields: only their names are checked ([`super::opaque::unknown_field`]).
//!
//! The list goes by as events (a list opens, an item, a list closes), so
//! the same rules serve a list held whole ([`InitWalk::tree`]) and one
//! read in parts ([`crate::DataPiece::Part`]), holding only the open lists'
//! counts.

use super::module_rules::init_value;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::ScalarType;
use crate::source::Span;
use crate::syntax::{Declarator, Expr, Initializer, VarDecl};

/// What the walk expects at one level of the list.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    /// An array dimension of this many elements (`None`: unsized); its
    /// elements are of the next level.
    Array(Option<u64>),
    /// A vector of this many elements (scalars).
    Vector(u64),
    /// One scalar.
    Scalar,
}

/// One open list.
struct Level {
    shape: Shape,
    /// The level of the shape it is checked against.
    depth: usize,
    /// Elements so far (a run of decimals counts each).
    len: u64,
    /// Where it comes in the walk.
    seq: u64,
}

/// The walk over one declarator's initializer.
pub(super) struct InitWalk {
    /// The variable's type.
    ty: ScalarType,
    /// Its vector length, if a vector.
    vector: Option<u8>,
    /// Each array dimension's length (`None`: unsized or not a constant).
    dims: Vec<Option<u64>>,
    open: Vec<Level>,
    /// Nodes seen so far (lists and items).
    seq: u64,
    /// The first error in walk order, and where in the walk its node is.
    first: Option<(u64, Diagnostic)>,
    /// A texture, sampler or surface reference: its initializer sets
    /// fields, which are all the walk checks.
    fields_only: bool,
}

impl InitWalk {
    /// A walk of the initializer of `d`, a declarator of `v`.
    pub(super) fn new(v: &VarDecl, d: &Declarator) -> InitWalk {
        InitWalk {
            ty: v.ty,
            vector: v.vector,
            dims: d
                .dims
                .iter()
                .map(|e| super::module_rules::dim_len(e.as_ref()))
                .collect(),
            open: Vec::new(),
            seq: 0,
            first: None,
            fields_only: super::module_data::data().opaque_types.contains(&v.ty),
        }
    }

    /// The shape expected at `depth` levels down.
    fn shape_at(&self, depth: usize) -> Shape {
        match self.dims.get(depth) {
            Some(n) => Shape::Array(*n),
            None if depth == self.dims.len() => match self.vector {
                Some(n) => Shape::Vector(u64::from(n)),
                None => Shape::Scalar,
            },
            None => Shape::Scalar,
        }
    }

    /// The shape and depth of a node of the innermost open list (or of the
    /// initializer itself), counting `n` elements into that list.
    fn next_node(&mut self, n: u64) -> (Shape, usize) {
        let depth = match self.open.last_mut() {
            None => 0,
            Some(l) => {
                l.len = l.len.saturating_add(n);
                match l.shape {
                    Shape::Array(_) => l.depth.saturating_add(1),
                    // A vector's elements are scalars; a list where a
                    // scalar is (an error already) is not looked into.
                    Shape::Vector(_) | Shape::Scalar => usize::MAX,
                }
            }
        };
        let shape = if depth == usize::MAX {
            Shape::Scalar
        } else {
            self.shape_at(depth)
        };
        (shape, depth)
    }

    /// The node numbered `seq` has error `d`: it is the first one if no
    /// node before it in the walk had one.
    fn found(&mut self, seq: u64, d: Option<Diagnostic>) {
        let Some(d) = d else { return };
        if self.first.as_ref().is_none_or(|(s, _)| seq < *s) {
            self.first = Some((seq, d));
        }
    }

    fn mismatch(&self, span: Span, why: &str) -> Diagnostic {
        Diagnostic::error(
            Code::InitKind,
            span,
            format!("initial value type mismatch: {why}"),
        )
        .with_note(format!("the variable is `{}`", self.ty))
    }

    /// A list opens.
    pub(super) fn open(&mut self) {
        let (shape, depth) = self.next_node(1);
        self.seq = self.seq.saturating_add(1);
        self.open.push(Level {
            shape,
            depth,
            len: 0,
            seq: self.seq,
        });
    }

    /// An item of the innermost open list (or the whole initializer), not
    /// a list.
    pub(super) fn item(&mut self, init: &Initializer) {
        let (shape, _) = self.next_node(init.element_count());
        self.seq = self.seq.saturating_add(1);
        let one_value = "one value where a list is expected";
        let d = match (shape, init) {
            (_, Initializer::Field(f)) => super::opaque::unknown_field(self.ty, f),
            _ if self.fields_only => None,
            (_, Initializer::List { .. }) => None,
            (Shape::Scalar, Initializer::Expr(e)) => init_value(self.ty, e),
            (Shape::Scalar, Initializer::Decimals(run)) => run
                .first()
                .and_then(|d| init_value(self.ty, &Expr::Int(d.lit()))),
            (Shape::Vector(_) | Shape::Array(_), Initializer::Expr(e)) => {
                Some(self.mismatch(e.span(), one_value))
            }
            (Shape::Vector(_) | Shape::Array(_), Initializer::Decimals(run)) => {
                let span = run.first().map_or(Span::SYNTHETIC, |d| d.span());
                Some(self.mismatch(span, one_value))
            }
        };
        self.found(self.seq, d);
    }

    /// Lists open.
    pub(super) fn depth(&self) -> usize {
        self.open.len()
    }

    /// The innermost open list closes; `span` is the list's. Returns its
    /// length in elements.
    pub(super) fn close(&mut self, span: Span) -> u64 {
        let Some(l) = self.open.pop() else { return 0 };
        let d = match l.shape {
            _ if self.fields_only => None,
            Shape::Scalar => Some(self.mismatch(span, "a list where one value is expected")),
            Shape::Vector(n) if l.len != n => Some(Diagnostic::error(
                Code::InitCount,
                span,
                format!("a `.v{n}` initializer needs {n} elements, found {}", l.len),
            )),
            Shape::Array(Some(n)) if l.len > n => Some(
                Diagnostic::error(
                    Code::InitCount,
                    span,
                    format!("{} initializers for an array of {n} elements", l.len),
                )
                .with_note("ptxas: Greater number of elements in array initializer"),
            ),
            _ => None,
        };
        self.found(l.seq, d);
        l.len
    }

    /// Walk `init`, held whole.
    pub(super) fn tree(&mut self, init: &Initializer) {
        match init {
            Initializer::List { items, span } => {
                self.open();
                for i in items.iter() {
                    self.tree(i);
                }
                self.close(*span);
            }
            other => self.item(other),
        }
    }

    /// The first error of the walk.
    pub(super) fn finish(self) -> Option<Diagnostic> {
        self.first.map(|(_, d)| d)
    }
}
