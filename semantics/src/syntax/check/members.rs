//! Members (`e.f`, `e.m(…)`), resolved once the receiver's class is known.

use super::*;

impl<'a> Checker<'a, '_> {
    /// Checks a member access now if its receiver's class is known, else later.
    pub(super) fn member(&mut self, pending: Pending<'a>) -> Result<(), Diagnostic> {
        match self.types.class(pending.receiver()) {
            Some(class) => self.settle(pending, &class),
            None => {
                self.pending.push(pending);
                Ok(())
            }
        }
    }

    /// Checks a member access on an object of class `class`.
    pub(super) fn settle(&mut self, pending: Pending<'a>, class: &str) -> Result<(), Diagnostic> {
        let info = &self.classes[class];
        match pending {
            Pending::Field { field, .. } => {
                if info.fields.contains_key(field.name.as_str()) {
                    Ok(())
                } else {
                    let mut error = self.error(
                        field.span.clone(),
                        format!("class `{class}` has no field `{}`", field.name),
                    );
                    error
                        .notes
                        .push((format!("`{class}` is declared here"), info.name.clone()));
                    Err(error)
                }
            }
            Pending::Call(call) => {
                let Some(method) = info.methods.get(&call.method.name) else {
                    let mut error = self.error(
                        call.method.span.clone(),
                        format!("class `{class}` has no method `{}`", call.method.name),
                    );
                    error
                        .notes
                        .push((format!("`{class}` is declared here"), info.name.clone()));
                    return Err(error);
                };
                let params: Vec<TyId> = method
                    .signature
                    .params
                    .iter()
                    .map(|(_, ty, _)| *ty)
                    .collect();
                let (result, declaration) = (method.result, method.signature.name.clone());
                if params.len() != call.args.len() {
                    let mut error = self.error(
                        call.method.span.clone(),
                        format!(
                            "method `{class}.{}` expects {} but is called with {}",
                            call.method.name,
                            count(params.len()),
                            call.args.len()
                        ),
                    );
                    error.notes.push((
                        format!("`{}` is declared here", call.method.name),
                        declaration,
                    ));
                    return Err(error);
                }
                for ((ty, span, subject), param) in call.args.iter().zip(params) {
                    self.unify_with(subject, span, *ty, param)?;
                }
                let (ty, span, subject) = &call.target;
                self.unify_with(subject, span, *ty, result)
            }
        }
    }

    /// Settles the member accesses whose receivers became known, guessing
    /// the class when exactly one class has the member.
    pub(super) fn resolve_pending(&mut self) -> Result<(), Diagnostic> {
        while !self.pending.is_empty() {
            let mut progress = false;
            for pending in std::mem::take(&mut self.pending) {
                match self.types.class(pending.receiver()) {
                    Some(class) => {
                        self.settle(pending, &class)?;
                        progress = true;
                    }
                    None => self.pending.push(pending),
                }
            }
            if progress {
                continue;
            }
            let guess = self.pending.iter().enumerate().find_map(|(i, pending)| {
                let mut owners = self.classes.iter().filter(|(_, info)| match pending {
                    Pending::Field { field, .. } => info.fields.contains_key(field.name.as_str()),
                    Pending::Call(call) => info.methods.contains_key(&call.method.name),
                });
                match (owners.next(), owners.next()) {
                    (Some((class, _)), None) => Some((i, class.clone())),
                    _ => None,
                }
            });
            let Some((index, class)) = guess else {
                let member = self.pending[0].member();
                return Err(self.error(
                    member.span.clone(),
                    format!(
                        "cannot determine the class of the object whose `{}` is used here; declare the type of its variable",
                        member.name
                    ),
                ));
            };
            let pending = self.pending.remove(index);
            let object = self.types.known(Shape::Object(class.as_str().into()));
            let span = pending.member().span.clone();
            self.unify_with(&Subject::Other, &span, pending.receiver(), object)?;
            self.settle(pending, &class)?;
        }
        Ok(())
    }

    /// Every `nil` must have a class that inference determined.
    pub(super) fn nils_have_classes(&mut self) -> Result<(), Diagnostic> {
        for (span, ty) in &self.nils {
            if self.types.class(*ty).is_none() {
                return Err(self.error(
                    span.clone(),
                    "cannot infer the class of `nil` here; declare the type of the variable it is assigned to or compared with",
                ));
            }
        }
        Ok(())
    }

    /// A procedure's locals may not share a global's name (SPEC §1.4).
    pub(super) fn parameters_are_not_globals(
        &self,
        program: &ast::Program,
    ) -> Result<(), Diagnostic> {
        for decl in &program.decls {
            let Decl::Procedure(procedure) = decl else {
                continue;
            };
            for param in &procedure.params {
                if let Some(global) = self.globals.get(&param.name.name) {
                    let mut error = self.error(
                        param.name.span.clone(),
                        format!(
                            "parameter `{}` of `{}` has the name of a global variable; locals and globals must have different names",
                            param.name.name, procedure.name.name
                        ),
                    );
                    let what = if global.declared { "declared" } else { "used" };
                    error.notes.push((
                        format!("the global `{}` is {what} here", param.name.name),
                        global.span.clone(),
                    ));
                    return Err(error);
                }
            }
        }
        Ok(())
    }
}
