//! Well-formedness and types (SPEC §1.4): scopes of the three languages,
//! declarations, and type inference over the whole program, with one
//! located message for the first problem found.

use super::ast::{self, Decl, Expr, ExprKind, Ident, Param, Stmt, StmtKind, Target, TypeKind};
use super::diagnostic::{Diagnostic, LineIndex, Span};
use super::types::{Clash, Evidence, Reason, Restriction, Shape, TyId, Types};
use crate::term::{BinOp, Name, Sort, UnOp};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// What lowering needs to know beyond the syntax: the sort of every
/// variable and the classes that inference found.
pub struct Typing {
    pub globals: BTreeMap<Name, Sort>,
    /// Parameter sorts of each procedure.
    pub procedures: HashMap<String, Vec<Sort>>,
    /// Parameter and result sorts of each method, by class and method.
    pub methods: HashMap<(String, String), (Vec<Sort>, Sort)>,
    /// The declared fields of each class.
    pub fields: HashMap<String, BTreeMap<Name, Sort>>,
    /// The class of every `nil`, by the offset where it is written.
    pub nils: HashMap<usize, Name>,
    /// The class of the receiver of every method call, by the call's offset.
    pub receivers: HashMap<usize, Name>,
}

/// Checks `program` and infers its types.
pub fn check(program: &ast::Program, lines: &LineIndex)  -> Result<Typing, Diagnostic> {
    let mut checker = Checker {
        lines,
        types: Types::default(),
        globals: HashMap::new(),
        classes: HashMap::new(),
        fields: HashMap::new(),
        procedures: HashMap::new(),
        pending: Vec::new(),
        nils: Vec::new(),
        receivers: Vec::new(),
    };
    checker.declarations(program)?;
    for decl in &program.decls {
        match decl {
            Decl::Var(..) => {}
            Decl::Procedure(procedure) => checker.procedure_body(procedure)?,
            Decl::Class(class) => {
                for method in &class.methods {
                    checker.method_body(&class.name.name, method)?;
                }
            }
        }
    }
    checker.block(&program.main, &Scope::main())?;
    checker.parameters_are_not_globals(program)?;
    checker.resolve_pending()?;
    checker.nils_have_classes()?;
    Ok(checker.typing())
}

/// What an expression is, for messages: a variable, an array's elements, or
/// anything else.
#[derive(Clone, Copy)]
enum Subject<'a> {
    Var(&'a str),
    Element(&'a str),
    Other,
}

impl<'a> Subject<'a> {
    fn of(e: &'a Expr) -> Subject<'a> {
        match &e.kind {
            ExprKind::Var(x) => Subject::Var(x),
            ExprKind::Index(array, _) => match &array.kind {
                ExprKind::Var(a) => Subject::Element(a),
                _ => Subject::Other,
            },
            _ => Subject::Other,
        }
    }

    fn name(&self) -> Option<String> {
        match self {
            Subject::Var(x) => Some(format!("`{x}`")),
            Subject::Element(a) => Some(format!("`{a}[…]`")),
            Subject::Other => None,
        }
    }
}

/// Whose body is being checked, and its local variables (SPEC §1.4: the
/// formal parameters, plus `this` in a method).
struct Scope {
    owner: Owner,
    locals: HashMap<String, TyId>,
}

enum Owner {
    Main,
    Procedure,
    Method { class: String, method: String },
}

impl Scope {
    fn main() -> Scope {
        Scope { owner: Owner::Main, locals: HashMap::new() }
    }
}

struct Global {
    ty: TyId,
    /// The declaration, or the first use.
    span: Span,
    declared: bool,
}

struct Signature {
    name: Span,
    params: Vec<(String, TyId, Span)>,
}

struct MethodSignature {
    signature: Signature,
    result: TyId,
}

struct ClassInfo {
    name: Span,
    fields: BTreeMap<Name, Sort>,
    methods: HashMap<String, MethodSignature>,
}

/// `h := e0.m(…)` waiting for the class of `e0` to be known.
struct Call<'a> {
    receiver: TyId,
    method: &'a Ident,
    args: Vec<(TyId, Span, Subject<'a>)>,
    target: (TyId, Span, Subject<'a>),
}

/// A member access whose receiver's class is not known yet.
enum Pending<'a> {
    Field { receiver: TyId, field: &'a Ident },
    Call(Call<'a>),
}

impl Pending<'_> {
    fn receiver(&self) -> TyId {
        match self {
            Pending::Field { receiver, .. } | Pending::Call(Call { receiver, .. }) => *receiver,
        }
    }

    fn member(&self) -> &Ident {
        match self {
            Pending::Field { field, .. } => field,
            Pending::Call(call) => call.method,
        }
    }
}

struct Checker<'a, 'l> {
    lines: &'l LineIndex<'l>,
    types: Types<'a>,
    globals: HashMap<String, Global>,
    classes: HashMap<String, ClassInfo>,
    /// Field names are global to the program (SPEC §1.4): one sort each,
    /// with the declaration that fixed it.
    fields: HashMap<String, (Sort, Span)>,
    procedures: HashMap<String, Signature>,
    pending: Vec<Pending<'a>>,
    nils: Vec<(Span, TyId)>,
    receivers: Vec<(usize, TyId)>,
}

impl<'a> Checker<'a, '_> {
    fn error(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.lines.error(span, message)
    }

    fn at(&self, span: &Span) -> String {
        self.lines.at(span.start)
    }

    fn twice(&self, what: &str, name: &Ident, first: &Span) -> Diagnostic {
        let mut error = self.error(name.span.clone(), format!("{what} `{}` is declared twice", name.name));
        error.notes.push(("first declared here".into(), first.clone()));
        error
    }

    // Declarations.

    fn declarations(&mut self, program: &'a ast::Program) -> Result<(), Diagnostic> {
        for decl in &program.decls {
            match decl {
                Decl::Class(class) => {
                    if let Some(first) = self.classes.get(&class.name.name) {
                        return Err(self.twice("class", &class.name, &first.name));
                    }
                    let info = ClassInfo { name: class.name.span.clone(), fields: BTreeMap::new(), methods: HashMap::new() };
                    self.classes.insert(class.name.name.clone(), info);
                }
                Decl::Procedure(procedure) => {
                    if let Some(first) = self.procedures.get(&procedure.name.name) {
                        return Err(self.twice("procedure", &procedure.name, &first.name));
                    }
                    let signature = Signature { name: procedure.name.span.clone(), params: Vec::new() };
                    self.procedures.insert(procedure.name.name.clone(), signature);
                }
                Decl::Var(..) => {}
            }
        }
        for decl in &program.decls {
            match decl {
                Decl::Var(name, ty) => self.global_declaration(name, ty)?,
                Decl::Procedure(procedure) => {
                    let params = self.params(&procedure.params, Cow::Borrowed(&procedure.name.name))?;
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
    fn sort(&self, ty: &ast::Type) -> Result<Sort, Diagnostic> {
        Ok(match &ty.kind {
            TypeKind::Int => Sort::Int,
            TypeKind::Bool => Sort::Bool,
            TypeKind::IntArray => Sort::int_array(),
            TypeKind::BoolArray => Sort::bool_array(),
            TypeKind::Class(class) if self.classes.contains_key(class) => Sort::Object(class.as_str().into()),
            TypeKind::Class(class) => return Err(self.error(ty.span.clone(), format!("unknown class `{class}`"))),
        })
    }

    /// A type variable fixed by the declaration of `name` with type `ty`.
    fn declared(&mut self, name: &Ident, ty: &ast::Type) -> Result<TyId, Diagnostic> {
        let sort = self.sort(ty)?;
        let evidence = |subject: String| Evidence { span: name.span.clone(), subject: Some(subject), declared: true };
        let whole = evidence(format!("`{}`", name.name));
        let elements = evidence(format!("`{}[…]`", name.name));
        Ok(self.types.of_sort(&sort, Some(whole), Some(elements)))
    }

    fn global_declaration(&mut self, name: &'a Ident, ty: &ast::Type) -> Result<(), Diagnostic> {
        if let Some(first) = self.globals.get(&name.name) {
            return Err(self.twice("variable", name, &first.span));
        }
        let ty = self.declared(name, ty)?;
        self.globals.insert(name.name.clone(), Global { ty, span: name.span.clone(), declared: true });
        Ok(())
    }

    /// Formal parameters `u: T?`: distinct, and never arrays.
    fn params(&mut self, params: &'a [Param], owner: Cow<'a, str>) -> Result<Vec<(String, TyId, Span)>, Diagnostic> {
        let mut result: Vec<(String, TyId, Span)> = Vec::new();
        for param in params {
            if let Some((_, _, first)) = result.iter().find(|(u, ..)| *u == param.name.name) {
                return Err(self.twice("parameter", &param.name, first));
            }
            let ty = match &param.ty {
                Some(ty) => self.declared(&param.name, ty)?,
                None => self.types.fresh(),
            };
            let reason = Reason::ArrayParameter { parameter: &param.name.name, owner: owner.clone() };
            self.restrict(ty, reason, &param.name.span, &Subject::Var(&param.name.name))?;
            result.push((param.name.name.clone(), ty, param.name.span.clone()));
        }
        Ok(result)
    }

    fn class_declaration(&mut self, class: &'a ast::Class) -> Result<(), Diagnostic> {
        let mut fields = BTreeMap::new();
        let mut spans: HashMap<&str, &Span> = HashMap::new();
        for (field, ty) in &class.fields {
            if let Some(first) = spans.insert(&field.name, &field.span) {
                return Err(self.twice("field", field, first));
            }
            let sort = self.sort(ty)?;
            if matches!(sort, Sort::Array(_)) {
                return Err(self.error(ty.span.clone(), "fields cannot be arrays; arrays are global inputs"));
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
                    error.notes.push((format!("`{}` declared as {other} here", field.name), first.clone()));
                    return Err(error);
                }
            } else {
                self.fields.insert(field.name.clone(), (sort.clone(), field.span.clone()));
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
            let signature = Signature { name: method.name.span.clone(), params };
            methods.insert(method.name.name.clone(), MethodSignature { signature, result });
        }
        if let Some(info) = self.classes.get_mut(&class.name.name) {
            info.fields = fields;
            info.methods = methods;
        }
        Ok(())
    }

    // Bodies.

    fn procedure_body(&mut self, procedure: &'a ast::Procedure) -> Result<(), Diagnostic> {
        let locals = self.procedures[&procedure.name.name].params.iter().map(|(u, ty, _)| (u.clone(), *ty)).collect();
        self.block(&procedure.body, &Scope { owner: Owner::Procedure, locals })
    }

    /// `m(ū) { S; return e }`: exactly one `return`, at the end.
    fn method_body(&mut self, class: &str, method: &'a ast::Method) -> Result<(), Diagnostic> {
        let signature = &self.classes[class].methods[&method.name.name];
        let result = signature.result;
        let locals = signature.signature.params.iter().map(|(u, ty, _)| (u.clone(), *ty)).collect();
        let scope = Scope { owner: Owner::Method { class: class.to_string(), method: method.name.name.clone() }, locals };
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

    fn missing_return(&self, method: &ast::Method) -> Diagnostic {
        let mut error = self.error(method.end.clone(), format!("method `{}` must end with `return e`", method.name.name));
        error.notes.push(("the method starts here".into(), method.name.span.clone()));
        error
    }

    fn block(&mut self, statements: &'a [Stmt], scope: &Scope) -> Result<(), Diagnostic> {
        statements.iter().try_for_each(|statement| self.statement(statement, scope))
    }

    fn statement(&mut self, statement: &'a Stmt, scope: &Scope) -> Result<(), Diagnostic> {
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
            StmtKind::While(condition, body) => {
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
    fn call(&mut self, procedure: &Ident, args: &'a [Expr], scope: &Scope) -> Result<(), Diagnostic> {
        let Some(signature) = self.procedures.get(&procedure.name) else {
            return Err(self.error(procedure.span.clone(), format!("unknown procedure `{}`", procedure.name)));
        };
        let params: Vec<TyId> = signature.params.iter().map(|(_, ty, _)| *ty).collect();
        if params.len() != args.len() {
            let mut error = self.error(
                procedure.span.clone(),
                format!("procedure `{}` expects {} but is called with {}", procedure.name, count(params.len()), args.len()),
            );
            error.notes.push((format!("`{}` is declared here", procedure.name), signature.name.clone()));
            return Err(error);
        }
        for (arg, param) in args.iter().zip(params) {
            let ty = self.infer(arg, scope)?;
            self.unify_with(&Subject::of(arg), &arg.span, ty, param)?;
        }
        Ok(())
    }

    /// The type of what `target` assigns to, where to blame it, and what it is.
    fn target(&mut self, target: &'a Target, scope: &Scope) -> Result<(TyId, Span, Subject<'a>), Diagnostic> {
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
                Ok((element, array.span.start..index.span.end, Subject::Element(&array.name)))
            }
        }
    }

    /// In a method only parameters (and fields) may be assigned (SPEC §1.4).
    fn assignable(&self, x: &Ident, scope: &Scope) -> Result<(), Diagnostic> {
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
    fn variable(&mut self, x: &str, span: &Span, scope: &Scope) -> TyId {
        if let Some(ty) = scope.locals.get(x) {
            return *ty;
        }
        if let Some(global) = self.globals.get(x) {
            return global.ty;
        }
        let ty = self.types.fresh();
        self.globals.insert(x.to_string(), Global { ty, span: span.clone(), declared: false });
        ty
    }

    /// Requires variable `a` (of type `ty`, used at `span`) to be an array;
    /// returns its element type.
    fn array(&mut self, a: &'a str, span: &Span, ty: TyId) -> Result<TyId, Diagnostic> {
        let element = self.types.restricted(Restriction { reason: Reason::Element(a), span: span.clone() });
        let array = self.types.known(Shape::Array(element));
        self.unify_with(&Subject::Var(a), span, ty, array)?;
        Ok(element)
    }

    /// `e.f`: `f` is a declared field and `e` an object of a class that has it.
    fn field(&mut self, object: &'a Expr, field: &'a Ident, scope: &Scope) -> Result<TyId, Diagnostic> {
        let Some((sort, declaration)) = self.fields.get(&field.name).cloned() else {
            return Err(self.error(field.span.clone(), format!("unknown field `{}`", field.name)));
        };
        let receiver = self.infer(object, scope)?;
        self.restrict(receiver, Reason::Receiver { member: &field.name, call: false }, &object.span, &Subject::of(object))?;
        self.member(Pending::Field { receiver, field })?;
        let evidence = Evidence { span: declaration, subject: Some(format!("field `{}`", field.name)), declared: true };
        Ok(self.types.of_sort(&sort, Some(evidence), None))
    }

    // Expressions.

    /// `e` has a type of the given shape.
    fn check(&mut self, e: &'a Expr, shape: Shape, scope: &Scope) -> Result<(), Diagnostic> {
        let ty = self.infer(e, scope)?;
        let want = self.types.known(shape);
        self.unify_with(&Subject::of(e), &e.span, ty, want)
    }

    fn infer(&mut self, e: &'a Expr, scope: &Scope) -> Result<TyId, Diagnostic> {
        let shape = match &e.kind {
            ExprKind::Int(_) => Shape::Int,
            ExprKind::Bool(_) => Shape::Bool,
            ExprKind::Nil => {
                let ty = self.types.restricted(Restriction { reason: Reason::Nil, span: e.span.clone() });
                self.nils.push((e.span.clone(), ty));
                return Ok(ty);
            }
            ExprKind::This => match &scope.owner {
                Owner::Method { class, .. } => Shape::Object(class.as_str().into()),
                _ => return Err(self.error(e.span.clone(), "`this` is only available inside methods")),
            },
            ExprKind::Var(x) => return Ok(self.variable(x, &e.span, scope)),
            ExprKind::Len(array) => {
                let ExprKind::Var(a) = &array.kind else {
                    return Err(self.error(array.span.clone(), "`len` takes an array variable, as in `len(a)`"));
                };
                let ty = self.variable(a, &array.span, scope);
                self.array(a, &array.span, ty)?;
                Shape::Int
            }
            ExprKind::Unary(op, operand) => {
                let shape = if *op == UnOp::Neg { Shape::Int } else { Shape::Bool };
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
                    return Err(self.error(array.span.clone(), "only array variables can be indexed"));
                };
                let ty = self.variable(a, &array.span, scope);
                let element = self.array(a, &array.span, ty)?;
                self.check(index, Shape::Int, scope)?;
                return Ok(element);
            }
            ExprKind::Call(procedure, _) => {
                return Err(self.error(
                    e.span.clone(),
                    format!("procedure calls are statements, not expressions: `{}(…)` returns no value", procedure.name),
                ))
            }
            ExprKind::MethodCall(..) => {
                return Err(self.error(
                    e.span.clone(),
                    "a method call must be the whole right-hand side of an assignment `h := e0.m(…)`",
                ))
            }
        };
        Ok(self.types.known(shape))
    }

    fn binary(&mut self, op: BinOp, left: &'a Expr, right: &'a Expr, e: &Expr, scope: &Scope) -> Result<TyId, Diagnostic> {
        let (operands, result) = match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => (Shape::Int, Shape::Int),
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
    fn same_type(&mut self, left: &'a Expr, right: &'a Expr, scope: &Scope) -> Result<TyId, Diagnostic> {
        let left_ty = self.infer(left, scope)?;
        let right_ty = self.infer(right, scope)?;
        self.unify_with(&Subject::of(right), &right.span, right_ty, left_ty)?;
        Ok(left_ty)
    }

    // Unification with messages.

    /// `subject`, written at `span` with type `have`, must have type `want`.
    fn unify_with(&mut self, subject: &Subject, span: &Span, have: TyId, want: TyId) -> Result<(), Diagnostic> {
        match self.types.unify(have, want) {
            Ok(()) => {
                if self.types.lacks_evidence(have) {
                    if let Some(name) = subject.name() {
                        self.types.note_evidence(have, Evidence { span: span.clone(), subject: Some(name), declared: false });
                    }
                }
                Ok(())
            }
            Err(Clash::Types) => Err(self.conflict(subject, span, have, want)),
            Err(Clash::Restricted(restriction, found)) => {
                let mut error = self.error(restriction.span.clone(), restriction.reason.message(&found));
                if *span != restriction.span {
                    let what = subject.name().unwrap_or_else(|| "this".into());
                    error.notes.push((format!("{what} is used as {found} here"), span.clone()));
                }
                Err(error)
            }
        }
    }

    /// `ty` obeys the rule `reason`, imposed at `span`.
    fn restrict(&mut self, ty: TyId, reason: Reason<'a>, span: &Span, subject: &Subject) -> Result<(), Diagnostic> {
        if self.types.obeys_for_good(ty, &reason) {
            return Ok(());
        }
        let rule = self.types.restricted(Restriction { reason, span: span.clone() });
        self.unify_with(subject, span, ty, rule)
    }



    /// "`x` is used as int at 3:5 and as bool at 4:9", with the other use as a note.
    fn conflict(&mut self, subject: &Subject, span: &Span, have: TyId, want: TyId) -> Diagnostic {
        let (have_type, want_type) = (self.types.describe(have), self.types.describe(want));
        let (have_evidence, want_evidence) = (self.types.evidence(have), self.types.evidence(want));
        let here = self.at(span);
        let mut notes = Vec::new();
        let message = match (subject.name(), &have_evidence) {
            (Some(name), Some(evidence)) if evidence.subject.as_ref() == Some(&name) => {
                let there = self.at(&evidence.span);
                if evidence.declared {
                    notes.push((format!("{name} is declared here"), evidence.span.clone()));
                    format!("{name} is declared as {have_type} at {there} but used as {want_type} at {here}")
                } else {
                    notes.push((format!("{name} is used as {have_type} here"), evidence.span.clone()));
                    if evidence.span.start <= span.start {
                        format!("{name} is used as {have_type} at {there} and as {want_type} at {here}")
                    } else {
                        format!("{name} is used as {want_type} at {here} and as {have_type} at {there}")
                    }
                }
            }
            (Some(name), _) => {
                notes.extend(have_evidence.as_ref().map(|evidence| Self::explain(evidence, &have_type)));
                format!("{name} is used as {want_type} at {here} but has type {have_type}")
            }
            (None, _) => {
                notes.extend(have_evidence.as_ref().map(|evidence| Self::explain(evidence, &have_type)));
                format!("expected {want_type}, found {have_type}")
            }
        };
        if let Some(evidence) = want_evidence {
            if evidence.span != *span && notes.iter().all(|(_, at)| *at != evidence.span) {
                notes.push(Self::explain(&evidence, &want_type));
            }
        }
        let mut error = self.error(span.clone(), message);
        error.notes = notes;
        error
    }

    /// A note pointing at the evidence for type `ty`.
    fn explain(evidence: &Evidence, ty: &str) -> (String, Span) {
        let text = match (&evidence.subject, evidence.declared) {
            (Some(subject), true) => format!("{subject} is declared as {ty} here"),
            (Some(subject), false) => format!("{subject} is used as {ty} here"),
            (None, _) => format!("this is {ty}"),
        };
        (text, evidence.span.clone())
    }

    // Members, resolved once the receiver's class is known.

    /// Checks a member access now if its receiver's class is known, else later.
    fn member(&mut self, pending: Pending<'a>) -> Result<(), Diagnostic> {
        match self.types.class(pending.receiver()) {
            Some(class) => self.settle(pending, &class),
            None => {
                self.pending.push(pending);
                Ok(())
            }
        }
    }

    /// Checks a member access on an object of class `class`.
    fn settle(&mut self, pending: Pending<'a>, class: &str) -> Result<(), Diagnostic> {
        let info = &self.classes[class];
        match pending {
            Pending::Field { field, .. } => {
                if info.fields.contains_key(field.name.as_str()) {
                    Ok(())
                } else {
                    let mut error = self.error(field.span.clone(), format!("class `{class}` has no field `{}`", field.name));
                    error.notes.push((format!("`{class}` is declared here"), info.name.clone()));
                    Err(error)
                }
            }
            Pending::Call(call) => {
                let Some(method) = info.methods.get(&call.method.name) else {
                    let mut error =
                        self.error(call.method.span.clone(), format!("class `{class}` has no method `{}`", call.method.name));
                    error.notes.push((format!("`{class}` is declared here"), info.name.clone()));
                    return Err(error);
                };
                let params: Vec<TyId> = method.signature.params.iter().map(|(_, ty, _)| *ty).collect();
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
                    error.notes.push((format!("`{}` is declared here", call.method.name), declaration));
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
    fn resolve_pending(&mut self) -> Result<(), Diagnostic> {
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
    fn nils_have_classes(&mut self) -> Result<(), Diagnostic> {
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
    fn parameters_are_not_globals(&self, program: &ast::Program) -> Result<(), Diagnostic> {
        for decl in &program.decls {
            let Decl::Procedure(procedure) = decl else { continue };
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
                    error.notes.push((format!("the global `{}` is {what} here", param.name.name), global.span.clone()));
                    return Err(error);
                }
            }
        }
        Ok(())
    }

    // Results.

    fn typing(mut self) -> Typing {
        let mut globals = BTreeMap::new();
        for (name, global) in &self.globals {
            globals.insert(name.as_str().into(), self.types.sort(global.ty));
        }
        let mut procedures = HashMap::new();
        for (name, signature) in &self.procedures {
            let sorts = signature.params.iter().map(|(_, ty, _)| self.types.sort(*ty)).collect();
            procedures.insert(name.clone(), sorts);
        }
        let mut methods = HashMap::new();
        let mut fields = HashMap::new();
        for (class, info) in &self.classes {
            for (name, method) in &info.methods {
                let params = method.signature.params.iter().map(|(_, ty, _)| self.types.sort(*ty)).collect();
                methods.insert((class.clone(), name.clone()), (params, self.types.sort(method.result)));
            }
            fields.insert(class.clone(), info.fields.clone());
        }
        let mut nils = HashMap::new();
        for (span, ty) in &self.nils {
            nils.extend(self.types.class(*ty).map(|class| (span.start, class)));
        }
        let mut receivers = HashMap::new();
        for (offset, ty) in &self.receivers {
            receivers.extend(self.types.class(*ty).map(|class| (*offset, class)));
        }
        Typing { globals, procedures, methods, fields, nils, receivers }
    }
}

/// "1 argument", "2 arguments".
fn count(n: usize) -> String {
    if n == 1 {
        "1 argument".into()
    } else {
        format!("{n} arguments")
    }
}
