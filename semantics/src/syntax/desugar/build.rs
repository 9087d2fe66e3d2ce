//! The few core nodes the desugaring writes, each placed at the span of the
//! construct it comes from, so messages and loop sites point at the user's
//! source.

use super::super::ast::{Expr, ExprKind, Ident, Stmt, StmtKind, Target, TypeKind};
use super::super::diagnostic::Span;
use crate::term::{BinOp, UnOp};
use num_bigint::BigInt;

pub(super) fn ident(name: &str, span: &Span) -> Ident {
    Ident {
        name: name.to_string(),
        span: span.clone(),
    }
}

pub(super) fn var(name: &str, span: &Span) -> Expr {
    Expr::new(ExprKind::Var(name.to_string()), span.clone())
}

pub(super) fn int(n: i64, span: &Span) -> Expr {
    Expr::new(ExprKind::Int(BigInt::from(n)), span.clone())
}

pub(super) fn boolean(b: bool, span: &Span) -> Expr {
    Expr::new(ExprKind::Bool(b), span.clone())
}

pub(super) fn binary(op: BinOp, a: Expr, b: Expr, span: &Span) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), span.clone())
}

pub(super) fn not(e: Expr, span: &Span) -> Expr {
    Expr::new(ExprKind::Unary(UnOp::Not, Box::new(e)), span.clone())
}

/// `!f₁ && … && !fₙ && e`, leaving out `e` when it is `true`.
pub(super) fn unless(flags: &[String], e: Expr, span: &Span) -> Expr {
    let mut guards = flags.iter().map(|f| not(var(f, span), span));
    let Some(first) = guards.next() else {
        return e;
    };
    let flags = guards.fold(first, |all, g| binary(BinOp::And, all, g, span));
    if e.kind == ExprKind::Bool(true) {
        flags
    } else {
        binary(BinOp::And, flags, e, span)
    }
}

pub(super) fn stmt(kind: StmtKind, span: &Span) -> Stmt {
    Stmt {
        kind,
        span: span.clone(),
    }
}

pub(super) fn assign(x: &str, e: Expr, span: &Span) -> Stmt {
    stmt(StmtKind::Assign(Target::Var(ident(x, span)), e), span)
}

/// `if !f₁ && … { then }`, or `then` itself when no flag guards it.
pub(super) fn guarded(flags: &[String], then: Vec<Stmt>, span: &Span) -> Vec<Stmt> {
    if flags.is_empty() || then.is_empty() {
        return then;
    }
    vec![stmt(
        StmtKind::If(unless(flags, boolean(true, span), span), then, Vec::new()),
        span,
    )]
}

/// The value a local starts with when nothing initialises it: `0`,
/// `false` or `nil`.
pub(super) fn default_value(ty: &TypeKind, span: &Span) -> Option<Expr> {
    match ty {
        TypeKind::Int => Some(int(0, span)),
        TypeKind::Bool => Some(boolean(false, span)),
        TypeKind::Class(_) => Some(Expr::new(ExprKind::Nil, span.clone())),
        TypeKind::IntArray | TypeKind::BoolArray => None,
    }
}
