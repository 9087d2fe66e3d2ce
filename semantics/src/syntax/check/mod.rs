//! Well-formedness and types (SPEC §1.4): scopes of the three languages,
//! declarations, and type inference over the whole program, with one
//! located message for the first problem found.

mod declarations;
mod expressions;
mod members;
mod messages;
mod statements;

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
pub fn check(program: &ast::Program, lines: &LineIndex) -> Result<Typing, Diagnostic> {
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
#[derive(Clone)]
struct Scope {
    owner: Owner,
    locals: HashMap<String, TyId>,
    /// Where `old(e)` may stand: only in an `ensures` clause, not nested.
    old: OldAllowed,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum OldAllowed {
    No,
    /// In an `ensures` clause.
    Yes,
    /// Inside an `old(e)` already.
    Nested,
}

#[derive(Clone)]
enum Owner {
    Main,
    Procedure,
    Method { class: String, method: String },
}

impl Scope {
    fn main() -> Scope {
        Scope {
            owner: Owner::Main,
            locals: HashMap::new(),
            old: OldAllowed::No,
        }
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
        let mut error = self.error(
            name.span.clone(),
            format!("{what} `{}` is declared twice", name.name),
        );
        error
            .notes
            .push(("first declared here".into(), first.clone()));
        error
    }

    // Results.

    fn typing(mut self) -> Typing {
        let mut globals = BTreeMap::new();
        for (name, global) in &self.globals {
            globals.insert(name.as_str().into(), self.types.sort(global.ty));
        }
        let mut procedures = HashMap::new();
        for (name, signature) in &self.procedures {
            let sorts = signature
                .params
                .iter()
                .map(|(_, ty, _)| self.types.sort(*ty))
                .collect();
            procedures.insert(name.clone(), sorts);
        }
        let mut methods = HashMap::new();
        let mut fields = HashMap::new();
        for (class, info) in &self.classes {
            for (name, method) in &info.methods {
                let params = method
                    .signature
                    .params
                    .iter()
                    .map(|(_, ty, _)| self.types.sort(*ty))
                    .collect();
                methods.insert(
                    (class.clone(), name.clone()),
                    (params, self.types.sort(method.result)),
                );
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
        Typing {
            globals,
            procedures,
            methods,
            fields,
            nils,
            receivers,
        }
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
