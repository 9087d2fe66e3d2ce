//! `nondet()` and `nondet_bool()` (C's `__VERIFIER_nondet_int()` and
//! `__VERIFIER_nondet_bool()`, [`super::verifier`]): a fresh unknown value at every
//! evaluation, as C's `__VERIFIER_nondet_int()`. They read an input
//! sequence through a counter: the `k`-th value drawn is `nondet_ints[k]`
//! (`nondet_bools[k]`), and the counter starts at 0 in the main statement.
//! The sequence is an input array of the core program under a reserved
//! name ([`crate::draws`]): a model lists the values drawn in order,
//! `--input nondet_ints=[…]` replays them, and `--checked-arrays` does
//! not check the draws.

use super::super::ast::{Expr, ExprKind, Ident, Stmt, StmtKind, TypeKind};
use super::super::diagnostic::Diagnostic;
use super::build;
use super::Desugarer;
use crate::term::BinOp;

/// The input array and counter of one sort of drawn values.
#[derive(Clone)]
pub(super) struct Sequence {
    pub values: String,
    pub count: String,
    pub element: TypeKind,
}

impl Desugarer<'_> {
    /// `nondet()`, `nondet_uint()` (a value `>= 0`) or `nondet_bool()` at
    /// `e`, or `None` for any other call.
    pub(super) fn nondet(
        &mut self,
        f: &Ident,
        args: &[Expr],
        e: &Expr,
        before: &mut Vec<Stmt>,
    ) -> Result<Option<Expr>, Diagnostic> {
        let name = super::verifier::nondet_name(&f.name);
        let element = match name {
            _ if self.functions.contains_key(&f.name) => return Ok(None),
            "nondet" | "nondet_uint" => TypeKind::Int,
            "nondet_bool" => TypeKind::Bool,
            _ => return Ok(None),
        };
        if !args.is_empty() {
            return Err(self.error_at(&e.span, &format!("`{}()` takes no arguments", f.name)));
        }
        let sequence = self.drawn_sequence(element.clone(), e)?;
        let span = &e.span;
        let temp = self
            .frame
            .temp(&mut self.names, &format!("{name}_value"), &element, span);
        let index = Box::new(build::var(&sequence.count, span));
        let drawn = Expr::new(
            ExprKind::Index(Box::new(build::var(&sequence.values, span)), index),
            span.clone(),
        );
        before.push(build::assign(&temp, drawn, span));
        let next = build::binary(
            BinOp::Add,
            build::var(&sequence.count, span),
            build::int(1, span),
            span,
        );
        before.push(build::assign(&sequence.count, next, span));
        if name == "nondet_uint" {
            // The integers are mathematical: unsigned is `>= 0`, unbounded.
            let natural = build::binary(
                BinOp::Ge,
                build::var(&temp, span),
                build::int(0, span),
                span,
            );
            before.push(build::stmt(StmtKind::Assume(natural), span));
        }
        Ok(Some(build::var(&temp, span)))
    }

    /// The sequence of `element` values, declared at its first use; its
    /// reserved names must not be the program's own.
    fn drawn_sequence(&mut self, element: TypeKind, e: &Expr) -> Result<Sequence, Diagnostic> {
        if let Some(sequence) = self.sequences.iter().find(|s| s.element == element) {
            return Ok(sequence.clone());
        }
        let (values, count) = match element {
            TypeKind::Bool => crate::draws::SEQUENCES[1],
            _ => crate::draws::SEQUENCES[0],
        };
        if let Some(taken) = [values, count]
            .into_iter()
            .find(|x| self.main_names.contains(*x) || self.globals.contains(*x))
        {
            return Err(self.error(
                e,
                &format!(
                    "`{taken}` is reserved for the values `nondet()` and `nondet_bool()` draw: rename the variable"
                ),
            ));
        }
        let sequence = Sequence {
            values: values.to_string(),
            count: count.to_string(),
            element,
        };
        self.sequences.push(sequence.clone());
        Ok(sequence)
    }
}
