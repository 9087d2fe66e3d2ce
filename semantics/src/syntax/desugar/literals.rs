//! `a := [e₀, …, eₙ₋₁]`, C's `int a[n] = {e₀, …}`: the array variable `a`
//! gets length `n` and its elements. An array's length is an input of the
//! core (§2.1: `len(a)` is fixed for the run), so the literal becomes
//! `assume len(a) = n; a[0] := e₀; …`, the elements evaluated left to right
//! (their calls first, [`super::calls`]) before any is written. Two literals
//! of different lengths for one array would make that `assume` block every
//! path silently, so they are refused; so is an element that reads the
//! array being written.

use super::super::ast::{Expr, ExprKind, Ident, Stmt, StmtKind, Target};
use super::super::diagnostic::{Diagnostic, Span};
use super::build;
use super::cleanup;
use super::frame::Owner;
use super::Desugarer;
use crate::term::BinOp;
use std::collections::HashSet;

/// Where a literal first fixed an array's length.
pub(super) struct Length {
    pub elements: usize,
    pub span: Span,
}

impl Desugarer<'_> {
    pub(super) fn array_literal(
        &mut self,
        array: &Ident,
        elements: &[Expr],
        span: &Span,
    ) -> Result<Vec<Stmt>, Diagnostic> {
        let name = self.frame.resolve(&array.name);
        for element in elements {
            let mut read = HashSet::new();
            cleanup::vars(element, &mut read);
            if read.contains(&array.name) {
                return Err(self.error(
                    element,
                    &format!("an element of the literal assigned to `{}` reads `{}` itself; copy what it needs into another variable first", array.name, array.name),
                ));
            }
        }
        self.fix_length(&name, elements.len(), span)?;
        let length = Expr::new(
            ExprKind::Len(Box::new(build::var(&name, &array.span))),
            array.span.clone(),
        );
        let count = build::int(elements.len() as i64, span);
        let mut out = vec![build::stmt(
            StmtKind::Assume(build::binary(BinOp::Eq, length, count, span)),
            span,
        )];
        let values = self.exprs(elements, &mut out)?;
        for (i, value) in values.into_iter().enumerate() {
            let at = value.span.clone();
            let target = Target::Index(build::ident(&name, &at), build::int(i as i64, &at));
            out.push(build::stmt(StmtKind::Assign(target, value), &at));
        }
        Ok(out)
    }

    /// Notes that `name` has `elements` elements, or says where an earlier
    /// literal gave it another length.
    fn fix_length(&mut self, name: &str, elements: usize, span: &Span) -> Result<(), Diagnostic> {
        // A parameter is its procedure's own array; a global is everyone's.
        let key = match &self.frame.owner {
            Owner::Procedure { name: owner, .. } if self.params.contains(name) => {
                format!("{owner}.{name}")
            }
            Owner::Method if self.params.contains(name) => return Ok(()),
            _ => name.to_string(),
        };
        match self.lengths.get(&key) {
            Some(first) if first.elements != elements => {
                let at = self.lines.at(first.span.start);
                Err(self.error_at(
                    span,
                    &format!(
                        "`{name}` was given {} elements at {at}; an array's length is an input fixed for the whole run (§2.1), so every literal assigned to it has {} elements",
                        first.elements, first.elements
                    ),
                ))
            }
            Some(_) => Ok(()),
            None => {
                let length = Length {
                    elements,
                    span: span.clone(),
                };
                self.lengths.insert(key, length);
                Ok(())
            }
        }
    }
}
