//! The names SV-COMP's C benchmarks use, so a translation keeps its calls
//! as written: `__VERIFIER_assume(e)` is `assume e`, `__VERIFIER_assert(e)`
//! is `assert e`, `reach_error()` and `__VERIFIER_error()` are
//! `assert false`, `abort()` is `assume false` (the run stops, no error),
//! and `__VERIFIER_nondet_int()`, `__VERIFIER_nondet_uint()` and
//! `__VERIFIER_nondet_bool()` are `nondet()`, `nondet_uint()` and
//! `nondet_bool()` ([`super::nondet`]). They return nothing in C, so
//! they stand only as statements (the first four) — the places C uses
//! them; a program that declares a procedure of one of these names keeps
//! its own.

use super::super::ast::{Expr, Ident, Stmt, StmtKind};
use super::super::diagnostic::{Diagnostic, Span};
use super::build;
use super::Desugarer;

/// The statement a C name stands for, and how many arguments it takes.
type Meaning = (fn(Expr) -> StmtKind, usize);

/// The [`Meaning`] of a C name, if it has one.
fn meaning(name: &str) -> Option<Meaning> {
    match name {
        "__VERIFIER_assume" => Some((StmtKind::Assume, 1)),
        "__VERIFIER_assert" => Some((StmtKind::Assert, 1)),
        "reach_error" | "__VERIFIER_error" => Some((StmtKind::Assert, 0)),
        "abort" => Some((StmtKind::Assume, 0)),
        _ => None,
    }
}

/// The surface name of a C nondet function, or the name itself.
pub(super) fn nondet_name(name: &str) -> &str {
    match name {
        "__VERIFIER_nondet_int" => "nondet",
        "__VERIFIER_nondet_uint" => "nondet_uint",
        "__VERIFIER_nondet_bool" => "nondet_bool",
        _ => name,
    }
}

impl Desugarer<'_> {
    /// The core statement of a call of a C name at `span`, or `None` when
    /// `f` is no C name (or the program declares its own `f`).
    pub(super) fn verifier_statement(
        &mut self,
        f: &Ident,
        args: &[Expr],
        span: &Span,
        before: &mut Vec<Stmt>,
    ) -> Result<Option<StmtKind>, Diagnostic> {
        let Some((statement, arity)) = self.verifier_meaning(&f.name) else {
            return Ok(None);
        };
        if args.len() != arity {
            let wanted = if arity == 0 {
                "no arguments"
            } else {
                "one condition"
            };
            return Err(self.error_at(span, &format!("`{}` takes {wanted}", f.name)));
        }
        let condition = match args.first() {
            Some(e) => self.expr(e, before)?,
            None => build::boolean(false, span),
        };
        Ok(Some(statement(condition)))
    }

    /// The message for a C name used as a value, if `f` is one.
    pub(super) fn verifier_value(&self, f: &Ident) -> Option<Diagnostic> {
        self.verifier_meaning(&f.name)?;
        Some(self.error_at(
            &f.span,
            &format!(
                "`{}(…)` returns nothing: it is a statement, as in C; write it on its own before the statement that needs it",
                f.name
            ),
        ))
    }

    fn verifier_meaning(&self, name: &str) -> Option<Meaning> {
        if self.procedures.contains(name) {
            return None;
        }
        meaning(name)
    }
}
