//! Calls inside expressions. A function call `f(e₁, …, eₙ)` becomes the
//! paper's procedure call `f(e₁, …, eₙ)` followed by `t := f_result` into a
//! fresh temporary `t`, which the expression reads instead; `nondet()` and
//! `nondet_bool()` become reads of an input sequence ([`super::nondet`]).
//!
//! Evaluation order: the calls of an expression are made before the
//! expression itself is evaluated, left to right, each call's arguments
//! before the call (so `f(f(x))` calls the inner `f` first). A variable that
//! a call changes is therefore read after the call even when it is written
//! to its left. The second operand of `&&`, `||` and `==>` keeps the core's
//! short circuit: its calls are made only when the operand is needed. A
//! call in a branch of `if b then e₁ else e₂ fi` is refused.

use super::super::ast::{Expr, ExprKind, Ident, Stmt, StmtKind, TypeKind};
use super::super::diagnostic::Diagnostic;
use super::build;
use super::Desugarer;
use crate::term::BinOp;

/// Whether `e` makes a call (or draws a `nondet()` value).
pub(super) fn calls(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call(..) => true,
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Nil
        | ExprKind::This
        | ExprKind::Var(_) => false,
        ExprKind::Len(a) | ExprKind::Unary(_, a) | ExprKind::Field(a, _) | ExprKind::Old(a) => {
            calls(a)
        }
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => calls(a) || calls(b),
        ExprKind::Ite(a, b, c) => calls(a) || calls(b) || calls(c),
        ExprKind::MethodCall(receiver, _, args) => calls(receiver) || args.iter().any(calls),
    }
}

impl Desugarer<'_> {
    /// `e` without calls; the statements that make its calls, in order,
    /// are pushed onto `before`.
    pub(super) fn expr(&mut self, e: &Expr, before: &mut Vec<Stmt>) -> Result<Expr, Diagnostic> {
        let span = &e.span;
        let kind = match &e.kind {
            ExprKind::Var(x) => ExprKind::Var(self.frame.resolve(x)),
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Nil | ExprKind::This => e.kind.clone(),
            ExprKind::Call(f, args) => return self.call(f, args, e, before),
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Implies), a, b) if calls(b) => {
                return self.short_circuit(*op, a, b, e, before)
            }
            ExprKind::Ite(_, a, b) if calls(a) || calls(b) => {
                let call = if calls(a) { a } else { b };
                return Err(self.error(
                    call,
                    "a call in a branch of `if … then … else … fi` is not supported: write an `if` statement that assigns a variable",
                ));
            }
            ExprKind::Len(a) => ExprKind::Len(self.boxed(before, a)?),
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, self.boxed(before, a)?),
            ExprKind::Binary(op, a, b) => {
                ExprKind::Binary(*op, self.boxed(before, a)?, self.boxed(before, b)?)
            }
            ExprKind::Index(a, i) => {
                ExprKind::Index(self.boxed(before, a)?, self.boxed(before, i)?)
            }
            ExprKind::Ite(c, a, b) => ExprKind::Ite(
                self.boxed(before, c)?,
                self.boxed(before, a)?,
                self.boxed(before, b)?,
            ),
            ExprKind::Field(a, f) => ExprKind::Field(self.boxed(before, a)?, f.clone()),
            ExprKind::Old(a) => ExprKind::Old(self.boxed(before, a)?),
            ExprKind::MethodCall(receiver, m, args) => {
                let receiver = self.boxed(before, receiver)?;
                ExprKind::MethodCall(receiver, m.clone(), self.exprs(args, before)?)
            }
        };
        Ok(Expr::new(kind, span.clone()))
    }

    fn boxed(&mut self, before: &mut Vec<Stmt>, a: &Expr) -> Result<Box<Expr>, Diagnostic> {
        self.expr(a, before).map(Box::new)
    }

    pub(super) fn exprs(
        &mut self,
        es: &[Expr],
        before: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>, Diagnostic> {
        es.iter().map(|e| self.expr(e, before)).collect()
    }

    /// An expression where no call may stand (an invariant, a contract).
    pub(super) fn pure(&mut self, e: &Expr, place: &str) -> Result<Expr, Diagnostic> {
        if calls(e) {
            return Err(self.error(
                e,
                &format!("calls and `nondet()` are not allowed in {place}"),
            ));
        }
        self.expr(e, &mut Vec::new())
    }

    /// `f(e₁, …)` in an expression: the call, then its result into a temporary.
    fn call(
        &mut self,
        f: &Ident,
        args: &[Expr],
        e: &Expr,
        before: &mut Vec<Stmt>,
    ) -> Result<Expr, Diagnostic> {
        if let Some(drawn) = self.nondet(f, args, e, before)? {
            return Ok(drawn);
        }
        if let Some(error) = self.verifier_value(f) {
            return Err(error);
        }
        let Some(function) = self.functions.get(&f.name).cloned() else {
            let message = if self.procedures.contains(&f.name) {
                format!(
                    "procedure `{0}` returns no value; declare it `func {0}(…): T` and end it with `return e` to use its result",
                    f.name
                )
            } else {
                format!("unknown function `{}`", f.name)
            };
            return Err(self.error_at(&f.span, &message));
        };
        let args = self.exprs(args, before)?;
        before.push(build::stmt(StmtKind::Call(f.clone(), args), &e.span));
        let temp = self.frame.temp(
            &mut self.names,
            &format!("{}_call", f.name),
            &function.ty,
            &e.span,
        );
        before.push(build::assign(
            &temp,
            build::var(&function.result, &e.span),
            &e.span,
        ));
        Ok(build::var(&temp, &e.span))
    }

    /// `a && b`, `a || b` or `a ==> b` where `b` makes calls: `c := a`
    /// (`!a` for `==>`), then `b`'s calls and `c := b` only if `c` does
    /// not decide already.
    fn short_circuit(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        e: &Expr,
        before: &mut Vec<Stmt>,
    ) -> Result<Expr, Diagnostic> {
        let span = &e.span;
        let a = self.expr(a, before)?;
        let first = if op == BinOp::Implies {
            build::not(a, span)
        } else {
            a
        };
        let c = self
            .frame
            .temp(&mut self.names, "cond", &TypeKind::Bool, span);
        before.push(build::assign(&c, first, span));
        let mut second = Vec::new();
        let b = self.expr(b, &mut second)?;
        second.push(build::assign(&c, b, span));
        let needed = if op == BinOp::And {
            build::var(&c, span)
        } else {
            build::not(build::var(&c, span), span)
        };
        before.push(build::stmt(StmtKind::If(needed, second, Vec::new()), span));
        Ok(build::var(&c, span))
    }
}
