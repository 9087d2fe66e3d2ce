//! Declarations: globals, procedures, classes, their fields and methods, each name declared once.

use super::*;

impl<'a> Checker<'a, '_> {
    pub(super) fn declarations(&mut self, program: &'a ast::Program) -> Result<(), Diagnostic> {
        for decl in &program.decls {
            match decl {
                Decl::Class(class) => {
                    if let Some(first) = self.classes.get(&class.name.name) {
                        return Err(self.twice("class", &class.name, &first.name));
                    }
                    let info = ClassInfo {
                        name: class.name.span.clone(),
                        fields: BTreeMap::new(),
                        methods: HashMap::new(),
                    };
                    self.classes.insert(class.name.name.clone(), info);
                }
                Decl::Procedure(procedure) => {
                    if let Some(first) = self.procedures.get(&procedure.name.name) {
                        return Err(self.twice("procedure", &procedure.name, &first.name));
                    }
                    let signature = Signature {
                        name: procedure.name.span.clone(),
                        params: Vec::new(),
                    };
                    self.procedures
                        .insert(procedure.name.name.clone(), signature);
                }
                Decl::Var(..) => {}
            }
        }
        for decl in &program.decls {
            match decl {
                Decl::Var(name, ty) => self.global_declaration(name, ty)?,
                Decl::Procedure(procedure) => {
                    let params =
                        self.params(&procedure.params, Cow::Borrowed(&procedure.name.name))?;
                    if let Some(signature) = self.procedures.get_mut(&procedure.name.name) {
                        signature.params = params;
                    }
                }
                Decl::Class(class) => self.class_declaration(class)?,
            }
        }
        Ok(())
    }

    /// The sort an annotation denotes; classes must be declared.
    pub(super) fn sort(&self, ty: &ast::Type) -> Result<Sort, Diagnostic> {
        Ok(match &ty.kind {
            TypeKind::Int => Sort::Int,
            TypeKind::Bool => Sort::Bool,
            TypeKind::IntArray => Sort::int_array(),
            TypeKind::BoolArray => Sort::bool_array(),
            TypeKind::Class(class) if self.classes.contains_key(class) => {
                Sort::Object(class.as_str().into())
            }
            TypeKind::Class(class) => {
                return Err(self.error(ty.span.clone(), format!("unknown class `{class}`")))
            }
        })
    }

    /// A type variable fixed by the declaration of `name` with type `ty`.
    pub(super) fn declared(&mut self, name: &Ident, ty: &ast::Type) -> Result<TyId, Diagnostic> {
        let sort = self.sort(ty)?;
        let evidence = |subject: String| Evidence {
            span: name.span.clone(),
            subject: Some(subject),
            declared: true,
        };
        let whole = evidence(format!("`{}`", name.name));
        let elements = evidence(format!("`{}[…]`", name.name));
        Ok(self.types.of_sort(&sort, Some(whole), Some(elements)))
    }

    pub(super) fn global_declaration(
        &mut self,
        name: &'a Ident,
        ty: &ast::Type,
    ) -> Result<(), Diagnostic> {
        if let Some(first) = self.globals.get(&name.name) {
            return Err(self.twice("variable", name, &first.span));
        }
        let ty = self.declared(name, ty)?;
        self.globals.insert(
            name.name.clone(),
            Global {
                ty,
                span: name.span.clone(),
                declared: true,
            },
        );
        Ok(())
    }

    /// Formal parameters `u: T?`: distinct, and never arrays.
    pub(super) fn params(
        &mut self,
        params: &'a [Param],
        owner: Cow<'a, str>,
    ) -> Result<Vec<(String, TyId, Span)>, Diagnostic> {
        let mut result: Vec<(String, TyId, Span)> = Vec::new();
        for param in params {
            if let Some((_, _, first)) = result.iter().find(|(u, ..)| *u == param.name.name) {
                return Err(self.twice("parameter", &param.name, first));
            }
            let ty = match &param.ty {
                Some(ty) => self.declared(&param.name, ty)?,
                None => self.types.fresh(),
            };
            let reason = Reason::ArrayParameter {
                parameter: &param.name.name,
                owner: owner.clone(),
            };
            self.restrict(
                ty,
                reason,
                &param.name.span,
                &Subject::Var(&param.name.name),
            )?;
            result.push((param.name.name.clone(), ty, param.name.span.clone()));
        }
        Ok(result)
    }

    pub(super) fn class_declaration(&mut self, class: &'a ast::Class) -> Result<(), Diagnostic> {
        let mut fields = BTreeMap::new();
        let mut spans: HashMap<&str, &Span> = HashMap::new();
        for (field, ty) in &class.fields {
            if let Some(first) = spans.insert(&field.name, &field.span) {
                return Err(self.twice("field", field, first));
            }
            let sort = self.sort(ty)?;
            if matches!(sort, Sort::Array(_)) {
                return Err(self.error(
                    ty.span.clone(),
                    "fields cannot be arrays; arrays are global inputs",
                ));
            }
            if let Some((other, first)) = self.fields.get(&field.name) {
                if *other != sort {
                    let mut error = self.error(
                        ty.span.clone(),
                        format!(
                            "field `{}` is declared as {sort} here but as {other} at {}; a field name has one type in the whole program",
                            field.name,
                            self.at(first)
                        ),
                    );
                    error.notes.push((
                        format!("`{}` declared as {other} here", field.name),
                        first.clone(),
                    ));
                    return Err(error);
                }
            } else {
                self.fields
                    .insert(field.name.clone(), (sort.clone(), field.span.clone()));
            }
            fields.insert(field.name.as_str().into(), sort);
        }
        let mut methods: HashMap<String, MethodSignature> = HashMap::new();
        for method in &class.methods {
            if let Some(first) = methods.get(&method.name.name) {
                return Err(self.twice("method", &method.name, &first.signature.name));
            }
            let owner: Cow<str> = Cow::Owned(format!("{}.{}", class.name.name, method.name.name));
            let params = self.params(&method.params, owner.clone())?;
            let result = self.types.restricted(Restriction {
                reason: Reason::ArrayResult(owner),
                span: method.name.span.clone(),
            });
            let signature = Signature {
                name: method.name.span.clone(),
                params,
            };
            methods.insert(
                method.name.name.clone(),
                MethodSignature { signature, result },
            );
        }
        if let Some(info) = self.classes.get_mut(&class.name.name) {
            info.fields = fields;
            info.methods = methods;
        }
        Ok(())
    }
}
