//! The surface syntax of SPEC §1 as parsed, before type checking: every
//! node keeps its source span so that the checker can point at it.

use super::diagnostic::Span;
use crate::term::{BinOp, UnOp};
use num_bigint::BigInt;

/// A name with the place it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A type annotation `int | bool | int[] | bool[] | C`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Type {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeKind {
    Int,
    Bool,
    IntArray,
    BoolArray,
    Class(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Nodes on the longest path to a leaf; bounded by the parser so that
    /// everything that recurses over expressions is safe.
    pub height: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Int(BigInt),
    Bool(bool),
    Nil,
    This,
    Var(String),
    /// `len(e)`; the checker requires `e` to be an array variable.
    Len(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if b then e1 else e2 fi`.
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e.f`.
    Field(Box<Expr>, Ident),
    /// `a[e]`; the checker requires `a` to be an array variable.
    Index(Box<Expr>, Box<Expr>),
    /// `P(e1, …)`, which is only a statement; kept so the checker can say so.
    Call(Ident, Vec<Expr>),
    /// `e0.m(e1, …)`, which is only the right-hand side of `h := e0.m(…)`.
    MethodCall(Box<Expr>, Ident, Vec<Expr>),
    /// `old(e)`: the value of `e` at entry, only in an `ensures` clause.
    Old(Box<Expr>),
}

impl Expr {
    /// The node for `kind`, its height computed from its children.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        let height = |e: &Expr| e.height;
        let tallest = match &kind {
            ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Nil
            | ExprKind::This
            | ExprKind::Var(_) => 0,
            ExprKind::Len(a) | ExprKind::Unary(_, a) | ExprKind::Field(a, _) | ExprKind::Old(a) => {
                a.height
            }
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => a.height.max(b.height),
            ExprKind::Ite(a, b, c) => a.height.max(b.height).max(c.height),
            ExprKind::Call(_, args) => args.iter().map(height).max().unwrap_or(0),
            ExprKind::MethodCall(receiver, _, args) => args
                .iter()
                .map(height)
                .max()
                .unwrap_or(0)
                .max(receiver.height),
        };
        Expr {
            kind,
            span,
            height: tallest + 1,
        }
    }
}

/// The left-hand side of an assignment: a variable, a field `e.f` (the two
/// forms of the paper's heap variable `h`), or an array element `a[e]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Var(Ident),
    Field(Expr, Ident),
    Index(Ident, Expr),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    Skip,
    Assign(Target, Expr),
    New(Target, Ident),
    MethodCall {
        target: Target,
        receiver: Expr,
        method: Ident,
        args: Vec<Expr>,
    },
    Call(Ident, Vec<Expr>),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `while b invariant I₁ … { S }`, or `L: while …` with a label naming the loop.
    While {
        condition: Expr,
        invariants: Vec<Expr>,
        body: Vec<Stmt>,
        label: Option<Ident>,
    },
    Assert(Expr),
    Assume(Expr),
    /// `return e`: the last statement of a method, or a function's result.
    Return(Expr),
    /// A construct of the surface language beyond the paper's core, which
    /// [`super::desugar`] compiles away before anything checks the program.
    Sugar(Sugar),
}

/// The statements of the surface language that the core lacks (issue 34).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sugar {
    /// `break` or `break L`: leave the innermost loop, or the loop labelled `L`.
    Break(Option<Ident>),
    /// `continue` or `continue L`.
    Continue(Option<Ident>),
    /// `return` without a value, in a procedure.
    Exit,
    /// `for i in low..high { S }` (or `L: for …`): `i` runs from `low` up
    /// to `high - 1`.
    For {
        label: Option<Ident>,
        var: Ident,
        low: Expr,
        high: Expr,
        body: Vec<Stmt>,
    },
    /// `var x: T := e` (or `var x: T`) among statements: a local variable.
    Local {
        name: Ident,
        ty: Type,
        value: Option<Expr>,
    },
    /// `a := [e₀, …, eₙ₋₁]`: an array variable given its length and elements.
    ArrayLiteral { array: Ident, elements: Vec<Expr> },
}

impl Sugar {
    /// How the construct is named in messages.
    pub fn construct(&self) -> &'static str {
        match self {
            Sugar::Break(_) => "`break`",
            Sugar::Continue(_) => "`continue`",
            Sugar::Exit => "`return`",
            Sugar::For { .. } => "`for`",
            Sugar::Local { .. } => "a local `var`",
            Sugar::ArrayLiteral { .. } => "an array literal",
        }
    }
}

/// A formal parameter `u: T?`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: Ident,
    pub ty: Option<Type>,
}

/// `requires P₁ … ensures Q₁ …` before a procedure's or method's body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contract {
    pub requires: Vec<Expr>,
    pub ensures: Vec<Expr>,
}

impl Contract {
    pub fn is_empty(&self) -> bool {
        self.requires.is_empty() && self.ensures.is_empty()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Procedure {
    pub name: Ident,
    pub params: Vec<Param>,
    /// `func f(…): T`: the type of the value its `return e` gives.
    pub result: Option<Type>,
    pub contract: Contract,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Method {
    pub name: Ident,
    pub params: Vec<Param>,
    pub contract: Contract,
    pub body: Vec<Stmt>,
    /// The closing brace, where a missing `return` is reported.
    pub end: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    pub name: Ident,
    pub fields: Vec<(Ident, Type)>,
    pub methods: Vec<Method>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decl {
    Var(Ident, Type),
    Procedure(Procedure),
    Class(Class),
}

/// `decl* S?`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub decls: Vec<Decl>,
    pub main: Vec<Stmt>,
}
