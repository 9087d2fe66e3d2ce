//! `var x: T := e` among statements: a local of its block. In a procedure
//! it is an extra parameter ([`super::frame`]); in the main statement a
//! global. A local keeps its name unless that would clash with a declared
//! global, a parameter or another local of the body, and is then renamed
//! (`x2`). Without `:= e` it starts at `0`, `false` or `nil`, every time
//! its declaration runs.

use super::super::ast::{Expr, Ident, Stmt, Type, TypeKind};
use super::super::diagnostic::{Diagnostic, Span};
use super::build;
use super::Desugarer;

impl Desugarer<'_> {
    pub(super) fn local(
        &mut self,
        name: &Ident,
        ty: &Type,
        value: Option<&Expr>,
        span: &Span,
    ) -> Result<Vec<Stmt>, Diagnostic> {
        let mut before = Vec::new();
        let value = match value {
            Some(value) => self.expr(value, &mut before)?,
            None => build::default_value(&ty.kind, span).ok_or_else(|| self.array_local(ty))?,
        };
        if matches!(ty.kind, TypeKind::IntArray | TypeKind::BoolArray) {
            return Err(self.array_local(ty));
        }
        let clashes = self.clashes(&name.name);
        let core = self.frame.declare(
            &mut self.names,
            &name.name,
            ty.kind.clone(),
            &name.span,
            clashes,
        );
        before.push(build::assign(&core, value, span));
        Ok(before)
    }

    fn array_local(&self, ty: &Type) -> Diagnostic {
        self.error_at(
            &ty.span,
            "a local `var` holds `int`, `bool` or an object: arrays are the program's inputs (declare `var a: int[];` before the main statement)",
        )
    }
}
