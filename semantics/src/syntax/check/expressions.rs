//! Expressions: the type of each, inferred by unification.

use super::*;

impl<'a> Checker<'a, '_> {
    /// `e` has a type of the given shape.
    pub(super) fn check(
        &mut self,
        e: &'a Expr,
        shape: Shape,
        scope: &Scope,
    ) -> Result<(), Diagnostic> {
        let ty = self.infer(e, scope)?;
        let want = self.types.known(shape);
        self.unify_with(&Subject::of(e), &e.span, ty, want)
    }

    pub(super) fn infer(&mut self, e: &'a Expr, scope: &Scope) -> Result<TyId, Diagnostic> {
        let shape = match &e.kind {
            ExprKind::Int(_) => Shape::Int,
            ExprKind::Bool(_) => Shape::Bool,
            ExprKind::Nil => {
                let ty = self.types.restricted(Restriction {
                    reason: Reason::Nil,
                    span: e.span.clone(),
                });
                self.nils.push((e.span.clone(), ty));
                return Ok(ty);
            }
            ExprKind::This => match &scope.owner {
                Owner::Method { class, .. } => Shape::Object(class.as_str().into()),
                _ => {
                    return Err(
                        self.error(e.span.clone(), "`this` is only available inside methods")
                    )
                }
            },
            ExprKind::Var(x) => return Ok(self.variable(x, &e.span, scope)),
            ExprKind::Len(array) => {
                let ExprKind::Var(a) = &array.kind else {
                    return Err(self.error(
                        array.span.clone(),
                        "`len` takes an array variable, as in `len(a)`",
                    ));
                };
                let ty = self.variable(a, &array.span, scope);
                self.array(a, &array.span, ty)?;
                Shape::Int
            }
            ExprKind::Unary(op, operand) => {
                let shape = if *op == UnOp::Neg {
                    Shape::Int
                } else {
                    Shape::Bool
                };
                self.check(operand, shape.clone(), scope)?;
                shape
            }
            ExprKind::Binary(op, left, right) => return self.binary(*op, left, right, e, scope),
            ExprKind::Ite(condition, then, otherwise) => {
                self.check(condition, Shape::Bool, scope)?;
                let ty = self.same_type(then, otherwise, scope)?;
                self.restrict(ty, Reason::ArrayConditional, &e.span, &Subject::Other)?;
                return Ok(ty);
            }
            ExprKind::Field(object, field) => return self.field(object, field, scope),
            ExprKind::Index(array, index) => {
                let ExprKind::Var(a) = &array.kind else {
                    return Err(
                        self.error(array.span.clone(), "only array variables can be indexed")
                    );
                };
                let ty = self.variable(a, &array.span, scope);
                let element = self.array(a, &array.span, ty)?;
                self.check(index, Shape::Int, scope)?;
                return Ok(element);
            }
            ExprKind::Call(procedure, _) => {
                return Err(self.error(
                    e.span.clone(),
                    format!(
                        "procedure calls are statements, not expressions: `{}(…)` returns no value",
                        procedure.name
                    ),
                ))
            }
            ExprKind::Old(value) => {
                let message = match scope.old {
                    OldAllowed::Yes => None,
                    OldAllowed::Nested => Some("`old(e)` cannot be nested"),
                    OldAllowed::No => Some("`old(e)`, the value of `e` at entry, may only stand in an `ensures` clause"),
                };
                if let Some(message) = message {
                    return Err(self.error(e.span.clone(), message));
                }
                let inside = Scope {
                    old: OldAllowed::Nested,
                    ..scope.clone()
                };
                return self.infer(value, &inside);
            }
            ExprKind::MethodCall(..) => return Err(self.error(
                e.span.clone(),
                "a method call must be the whole right-hand side of an assignment `h := e0.m(…)`",
            )),
        };
        Ok(self.types.known(shape))
    }

    pub(super) fn binary(
        &mut self,
        op: BinOp,
        left: &'a Expr,
        right: &'a Expr,
        e: &Expr,
        scope: &Scope,
    ) -> Result<TyId, Diagnostic> {
        let (operands, result) = match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                (Shape::Int, Shape::Int)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (Shape::Int, Shape::Bool),
            BinOp::And | BinOp::Or | BinOp::Implies => (Shape::Bool, Shape::Bool),
            BinOp::Eq | BinOp::Ne => {
                let ty = self.same_type(left, right, scope)?;
                self.restrict(ty, Reason::ArrayEquality, &e.span, &Subject::Other)?;
                return Ok(self.types.known(Shape::Bool));
            }
        };
        self.check(left, operands.clone(), scope)?;
        self.check(right, operands, scope)?;
        Ok(self.types.known(result))
    }

    /// The common type of `left` and `right`.
    pub(super) fn same_type(
        &mut self,
        left: &'a Expr,
        right: &'a Expr,
        scope: &Scope,
    ) -> Result<TyId, Diagnostic> {
        let left_ty = self.infer(left, scope)?;
        let right_ty = self.infer(right, scope)?;
        self.unify_with(&Subject::of(right), &right.span, right_ty, left_ty)?;
        Ok(left_ty)
    }
}
