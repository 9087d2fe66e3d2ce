//! Bodies and statements: scopes of the three languages (SPEC §1.4), assignments, calls, targets.

use super::*;

impl<'a> Checker<'a, '_> {
    pub(super) fn procedure_body(
        &mut self,
        procedure: &'a ast::Procedure,
    ) -> Result<(), Diagnostic> {
        let locals = self.procedures[&procedure.name.name]
            .params
            .iter()
            .map(|(u, ty, _)| (u.clone(), *ty))
            .collect();
        self.block(
            &procedure.body,
            &Scope {
                owner: Owner::Procedure,
                locals,
            },
        )
    }

    /// `m(ū) { S; return e }`: exactly one `return`, at the end.
    pub(super) fn method_body(
        &mut self,
        class: &str,
        method: &'a ast::Method,
    ) -> Result<(), Diagnostic> {
        let signature = &self.classes[class].methods[&method.name.name];
        let result = signature.result;
        let locals = signature
            .signature
            .params
            .iter()
            .map(|(u, ty, _)| (u.clone(), *ty))
            .collect();
        let scope = Scope {
            owner: Owner::Method {
                class: class.to_string(),
                method: method.name.name.clone(),
            },
            locals,
        };
        let Some((last, body)) = method.body.split_last() else {
            return Err(self.missing_return(method));
        };
        let StmtKind::Return(value) = &last.kind else {
            return Err(self.missing_return(method));
        };
        self.block(body, &scope)?;
        let ty = self.infer(value, &scope)?;
        self.unify_with(&Subject::of(value), &value.span, ty, result)
    }

    pub(super) fn missing_return(&self, method: &ast::Method) -> Diagnostic {
        let mut error = self.error(
            method.end.clone(),
            format!("method `{}` must end with `return e`", method.name.name),
        );
        error
            .notes
            .push(("the method starts here".into(), method.name.span.clone()));
        error
    }

    pub(super) fn block(
        &mut self,
        statements: &'a [Stmt],
        scope: &Scope,
    ) -> Result<(), Diagnostic> {
        statements
            .iter()
            .try_for_each(|statement| self.statement(statement, scope))
    }

    pub(super) fn statement(
        &mut self,
        statement: &'a Stmt,
        scope: &Scope,
    ) -> Result<(), Diagnostic> {
        match &statement.kind {
            StmtKind::Skip => Ok(()),
            StmtKind::Assign(target, value) => {
                let (ty, span, subject) = self.target(target, scope)?;
                let value_ty = self.infer(value, scope)?;
                match subject {
                    // A field's type is declared: blame the value.
                    Subject::Other => self.unify_with(&Subject::of(value), &value.span, value_ty, ty),
                    _ => self.unify_with(&subject, &span, ty, value_ty),
                }
            }
            StmtKind::New(target, class) => {
                if !self.classes.contains_key(&class.name) {
                    return Err(self.error(class.span.clone(), format!("unknown class `{}`", class.name)));
                }
                let (ty, span, subject) = self.target(target, scope)?;
                let object = self.types.known(Shape::Object(class.name.as_str().into()));
                self.unify_with(&subject, &span, ty, object)
            }
            StmtKind::MethodCall { target, receiver, method, args } => {
                let receiver_ty = self.infer(receiver, scope)?;
                let reason = Reason::Receiver { member: &method.name, call: true };
                self.restrict(receiver_ty, reason, &receiver.span, &Subject::of(receiver))?;
                let mut arg_types = Vec::new();
                for arg in args {
                    arg_types.push((self.infer(arg, scope)?, arg.span.clone(), Subject::of(arg)));
                }
                let target = self.target(target, scope)?;
                self.receivers.push((statement.span.start, receiver_ty));
                self.member(Pending::Call(Call { receiver: receiver_ty, method, args: arg_types, target }))
            }
            StmtKind::Call(procedure, args) => self.call(procedure, args, scope),
            StmtKind::If(condition, then, otherwise) => {
                self.check(condition, Shape::Bool, scope)?;
                self.block(then, scope)?;
                self.block(otherwise, scope)
            }
            StmtKind::While(condition, body, _) => {
                self.check(condition, Shape::Bool, scope)?;
                self.block(body, scope)
            }
            StmtKind::Assert(condition) | StmtKind::Assume(condition) => self.check(condition, Shape::Bool, scope),
            StmtKind::Return(_) => Err(self.error(
                statement.span.clone(),
                match scope.owner {
                    Owner::Method { .. } => "`return` must be the last statement of a method body",
                    _ => "`return` outside a method; procedures return no value, they communicate through globals",
                },
            )),
        }
    }

    /// `P(e1, …, en)`: a declared procedure with as many parameters.
    pub(super) fn call(
        &mut self,
        procedure: &Ident,
        args: &'a [Expr],
        scope: &Scope,
    ) -> Result<(), Diagnostic> {
        let Some(signature) = self.procedures.get(&procedure.name) else {
            return Err(self.error(
                procedure.span.clone(),
                format!("unknown procedure `{}`", procedure.name),
            ));
        };
        let params: Vec<TyId> = signature.params.iter().map(|(_, ty, _)| *ty).collect();
        if params.len() != args.len() {
            let mut error = self.error(
                procedure.span.clone(),
                format!(
                    "procedure `{}` expects {} but is called with {}",
                    procedure.name,
                    count(params.len()),
                    args.len()
                ),
            );
            error.notes.push((
                format!("`{}` is declared here", procedure.name),
                signature.name.clone(),
            ));
            return Err(error);
        }
        for (arg, param) in args.iter().zip(params) {
            let ty = self.infer(arg, scope)?;
            self.unify_with(&Subject::of(arg), &arg.span, ty, param)?;
        }
        Ok(())
    }

    /// The type of what `target` assigns to, where to blame it, and what it is.
    pub(super) fn target(
        &mut self,
        target: &'a Target,
        scope: &Scope,
    ) -> Result<(TyId, Span, Subject<'a>), Diagnostic> {
        match target {
            Target::Var(x) => {
                self.assignable(x, scope)?;
                let ty = self.variable(&x.name, &x.span, scope);
                let subject = Subject::Var(&x.name);
                self.restrict(ty, Reason::WholeArrayAssignment(&x.name), &x.span, &subject)?;
                Ok((ty, x.span.clone(), subject))
            }
            Target::Field(object, field) => {
                let ty = self.field(object, field, scope)?;
                Ok((ty, object.span.start..field.span.end, Subject::Other))
            }
            Target::Index(array, index) => {
                self.assignable(array, scope)?;
                let ty = self.variable(&array.name, &array.span, scope);
                let element = self.array(&array.name, &array.span, ty)?;
                self.check(index, Shape::Int, scope)?;
                Ok((
                    element,
                    array.span.start..index.span.end,
                    Subject::Element(&array.name),
                ))
            }
        }
    }

    /// In a method only parameters (and fields) may be assigned (SPEC §1.4).
    pub(super) fn assignable(&self, x: &Ident, scope: &Scope) -> Result<(), Diagnostic> {
        match &scope.owner {
            Owner::Method { class, method } if !scope.locals.contains_key(&x.name) => Err(self.error(
                x.span.clone(),
                format!(
                    "method `{class}.{method}` assigns `{}`, which is not one of its parameters; a method may assign only its parameters and fields",
                    x.name
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The type variable of variable `x` in `scope`: a local, or a global
    /// (declared, or introduced by this first use).
    pub(super) fn variable(&mut self, x: &str, span: &Span, scope: &Scope) -> TyId {
        if let Some(ty) = scope.locals.get(x) {
            return *ty;
        }
        if let Some(global) = self.globals.get(x) {
            return global.ty;
        }
        let ty = self.types.fresh();
        self.globals.insert(
            x.to_string(),
            Global {
                ty,
                span: span.clone(),
                declared: false,
            },
        );
        ty
    }

    /// Requires variable `a` (of type `ty`, used at `span`) to be an array;
    /// returns its element type.
    pub(super) fn array(&mut self, a: &'a str, span: &Span, ty: TyId) -> Result<TyId, Diagnostic> {
        let element = self.types.restricted(Restriction {
            reason: Reason::Element(a),
            span: span.clone(),
        });
        let array = self.types.known(Shape::Array(element));
        self.unify_with(&Subject::Var(a), span, ty, array)?;
        Ok(element)
    }

    /// `e.f`: `f` is a declared field and `e` an object of a class that has it.
    pub(super) fn field(
        &mut self,
        object: &'a Expr,
        field: &'a Ident,
        scope: &Scope,
    ) -> Result<TyId, Diagnostic> {
        let Some((sort, declaration)) = self.fields.get(&field.name).cloned() else {
            return Err(self.error(
                field.span.clone(),
                format!("unknown field `{}`", field.name),
            ));
        };
        let receiver = self.infer(object, scope)?;
        self.restrict(
            receiver,
            Reason::Receiver {
                member: &field.name,
                call: false,
            },
            &object.span,
            &Subject::of(object),
        )?;
        self.member(Pending::Field { receiver, field })?;
        let evidence = Evidence {
            span: declaration,
            subject: Some(format!("field `{}`", field.name)),
            declared: true,
        };
        Ok(self.types.of_sort(&sort, Some(evidence), None))
    }
}
