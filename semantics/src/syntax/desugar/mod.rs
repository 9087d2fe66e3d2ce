//! The surface language (issue 34) compiled into the paper's core before
//! anything checks the program: functions with results ([`calls`]), locals
//! ([`locals`]), `break`, `continue` and `return` ([`exits`]), `for` and
//! `while true` ([`loops`]), `nondet()` ([`nondet`]), array literals
//! ([`literals`]) and C's `__VERIFIER_…` names ([`verifier`]). The result is a
//! program of the core syntax with the spans of the user's source, so the
//! checker's messages, loop sites and traces point at what was written,
//! and every semantics, theorem and command runs on it unchanged.
//!
//! A function `func f(ū): T { S }` is the procedure `f` of §3 whose
//! `return e` writes a global `f_result` (and leaves); locals, temporaries
//! and flags of a procedure are extra parameters that every call starts at
//! `0`, `false` or `nil` ([`frame`]).

mod build;
mod calls;
mod cleanup;
mod exits;
mod frame;
mod literals;
mod locals;
mod loops;
mod names;
mod nondet;
mod verifier;

use super::ast::{Class, Decl, Expr, Param, Procedure, Program, Type, TypeKind};
use super::diagnostic::{Diagnostic, LineIndex, Span};
use frame::{Frame, Local, Owner};
use literals::Length;
use loops::LoopFlags;
use names::Names;
use nondet::Sequence;
use std::collections::{HashMap, HashSet};

/// The program of the core syntax that `program` means.
pub fn desugar(program: Program, source: &str, lines: &LineIndex) -> Result<Program, Diagnostic> {
    let mut desugarer = Desugarer {
        lines,
        names: Names::new(source),
        functions: HashMap::new(),
        procedures: HashSet::new(),
        globals: HashSet::new(),
        params: HashSet::new(),
        main_names: HashSet::new(),
        sequences: Vec::new(),
        lengths: HashMap::new(),
        frame: Frame::new(Owner::Main),
        loops: Vec::new(),
    };
    desugarer.declare(&program.decls)?;
    cleanup::variables(&program.main, &mut desugarer.main_names);
    desugarer.program(program)
}

/// A function: the global its `return e` writes, and the type of that value.
#[derive(Clone)]
struct Function {
    result: String,
    ty: TypeKind,
}

struct Desugarer<'l> {
    lines: &'l LineIndex<'l>,
    names: Names,
    functions: HashMap<String, Function>,
    procedures: HashSet<String>,
    /// Variables declared with `var x: T;` before the main statement.
    globals: HashSet<String>,
    /// The parameters of the procedure being desugared.
    params: HashSet<String>,
    /// The variables the main statement and the declarations name: a
    /// parameter of the same name is renamed (a C parameter hides a global;
    /// §3 wants them distinct).
    main_names: HashSet<String>,
    sequences: Vec<Sequence>,
    /// The length the first array literal gave each array ([`literals`]).
    lengths: HashMap<String, Length>,
    frame: Frame,
    /// The loops around the statement being desugared, innermost last.
    loops: Vec<LoopFlags>,
}

impl Desugarer<'_> {
    fn error_at(&self, span: &Span, message: &str) -> Diagnostic {
        self.lines.error(span.clone(), message)
    }

    fn error(&self, e: &Expr, message: &str) -> Diagnostic {
        self.error_at(&e.span, message)
    }

    /// Whether a local named `x` must be renamed: a declared global or a
    /// parameter already has that name.
    fn clashes(&self, x: &str) -> bool {
        self.globals.contains(x) || self.params.contains(x)
    }

    /// Functions get their result globals; procedures and globals are noted.
    fn declare(&mut self, decls: &[Decl]) -> Result<(), Diagnostic> {
        for decl in decls {
            match decl {
                Decl::Var(x, _) => {
                    self.globals.insert(x.name.clone());
                    self.main_names.insert(x.name.clone());
                }
                Decl::Procedure(procedure) => {
                    self.procedures.insert(procedure.name.name.clone());
                    if let Some(ty) = &procedure.result {
                        if matches!(ty.kind, TypeKind::IntArray | TypeKind::BoolArray) {
                            return Err(self.error_at(
                                &ty.span,
                                "a function returns `int`, `bool` or an object, not an array",
                            ));
                        }
                        let result = self.names.fresh(&format!("{}_result", procedure.name.name));
                        let function = Function {
                            result,
                            ty: ty.kind.clone(),
                        };
                        self.functions.insert(procedure.name.name.clone(), function);
                    }
                }
                Decl::Class(_) => {}
            }
        }
        Ok(())
    }

    fn program(mut self, program: Program) -> Result<Program, Diagnostic> {
        let mut decls = Vec::new();
        let mut extra = HashMap::new();
        for decl in program.decls {
            match decl {
                Decl::Procedure(procedure) => {
                    let (procedure, starts) = self.procedure(procedure)?;
                    extra.insert(procedure.name.name.clone(), starts);
                    decls.push(Decl::Procedure(procedure));
                }
                Decl::Class(class) => decls.push(Decl::Class(self.class(class)?)),
                var => decls.push(var),
            }
        }
        self.frame = Frame::new(Owner::Main);
        let (mut main, locals) = self.body(&program.main)?;
        for local in locals {
            decls.push(global(&local.name, local.ty, &local.span));
        }
        let mut results: Vec<_> = self.functions.values().cloned().collect();
        results.sort_by(|a, b| a.result.cmp(&b.result));
        for function in results {
            decls.push(global(&function.result, function.ty, &(0..0)));
        }
        let mut prelude = Vec::new();
        for sequence in &self.sequences {
            let array = match sequence.element {
                TypeKind::Bool => TypeKind::BoolArray,
                _ => TypeKind::IntArray,
            };
            decls.push(global(&sequence.values, array, &(0..0)));
            decls.push(global(&sequence.count, TypeKind::Int, &(0..0)));
            prelude.push(build::assign(
                &sequence.count,
                build::int(0, &(0..0)),
                &(0..0),
            ));
        }
        prelude.append(&mut main);
        for decl in &mut decls {
            match decl {
                Decl::Procedure(procedure) => cleanup::complete_calls(&mut procedure.body, &extra),
                Decl::Class(class) => {
                    for method in &mut class.methods {
                        cleanup::complete_calls(&mut method.body, &extra);
                    }
                }
                Decl::Var(..) => {}
            }
        }
        cleanup::complete_calls(&mut prelude, &extra);
        Ok(Program {
            decls,
            main: prelude,
        })
    }

    /// The desugared statements of the body whose frame is set, and the
    /// locals it adds.
    fn body(
        &mut self,
        stmts: &[super::ast::Stmt],
    ) -> Result<(Vec<super::ast::Stmt>, Vec<Local>), Diagnostic> {
        let out = self.sequence(stmts)?;
        let stmts = cleanup::drop_unread_flags(&mut self.frame, out.stmts);
        Ok((stmts, std::mem::take(&mut self.frame.locals)))
    }

    /// A procedure with its locals as extra parameters, and their starting values.
    fn procedure(&mut self, procedure: Procedure) -> Result<(Procedure, Vec<Expr>), Diagnostic> {
        let name = procedure.name.name.clone();
        let result = self.functions.get(&name).map(|f| f.result.clone());
        self.frame = Frame::new(Owner::Procedure { name, result });
        let mut params = procedure.params;
        for param in &mut params {
            if self.main_names.contains(&param.name.name) {
                let renamed = self.names.fresh(&param.name.name);
                self.frame.rename(&param.name.name, &renamed);
                param.name.name = renamed;
            }
        }
        self.params = params.iter().map(|p| p.name.name.clone()).collect();
        let mut contract = procedure.contract.clone();
        for clause in contract
            .requires
            .iter_mut()
            .chain(contract.ensures.iter_mut())
        {
            *clause = self.pure(clause, "a contract")?;
        }
        let (body, locals) = self.body(&procedure.body)?;
        self.params.clear();
        let mut starts = Vec::new();
        for local in locals {
            starts.push(build::default_value(&local.ty, &local.span).ok_or_else(|| {
                self.error_at(&local.span, "a local of a procedure cannot be an array")
            })?);
            params.push(Param {
                name: build::ident(&local.name, &local.span),
                ty: Some(Type {
                    kind: local.ty,
                    span: local.span,
                }),
            });
        }
        let procedure = Procedure {
            params,
            result: None,
            contract,
            body,
            ..procedure
        };
        Ok((procedure, starts))
    }

    /// Methods keep their form; sugar that needs a local is refused there.
    fn class(&mut self, mut class: Class) -> Result<Class, Diagnostic> {
        for method in &mut class.methods {
            self.params = method.params.iter().map(|p| p.name.name.clone()).collect();
            self.frame = Frame::new(Owner::Method);
            let (body, locals) = self.body(&method.body)?;
            self.params.clear();
            if let Some(local) = locals.first() {
                return Err(self.error_at(
                    &local.span,
                    "this needs a local variable (a `var`, a `for` variable, a call's result or a `break`/`continue` flag), which methods do not have yet; move the code into a function",
                ));
            }
            method.body = body;
        }
        Ok(class)
    }
}

fn global(name: &str, kind: TypeKind, span: &Span) -> Decl {
    Decl::Var(
        build::ident(name, span),
        Type {
            kind,
            span: span.clone(),
        },
    )
}
