//! From the checked surface syntax to the core [`Program`] of
//! `program.rs`: variables with their inferred sorts, `nil` and method
//! calls with their classes, and every `while` with its own [`LoopId`].
//!
//! Lowering relies on what the checker established (every variable typed,
//! no call inside an expression, `len` and indexing of array variables).
//! Where it finds otherwise — a gap in the checker — it reports a located
//! error rather than panicking on user input.

use super::ast::{self, Expr, ExprKind, StmtKind, Target};
use super::check::Typing;
use super::diagnostic::{Diagnostic, LineIndex, Span};
use crate::annotations::{old_name, Annotations, Contract, Place};
use crate::machine::{self, Integers};
use crate::program::{
    self, Block, Class, Language, LoopId, LoopSite, LoopSites, Method, Procedure, Program,
    StatementSites, Stmt,
};
use crate::term::{Name, Sort, Term};
use num_bigint::BigInt;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

/// Lowers a program that [`super::check::check`] accepted with `typing`,
/// with `integers` compiled in ([`crate::machine`]). Loops are numbered in
/// the order the program prints (classes and their methods by name,
/// procedures by name, then the main statement), so that printing and
/// parsing again gives the same program.
pub fn lower(
    program: &ast::Program,
    typing: &Typing,
    lines: &LineIndex,
    integers: Integers,
) -> Result<(Program, Positions), Diagnostic> {
    let globals = typing
        .globals
        .iter()
        .map(|(x, sort)| (&**x, Term::var(x, sort.clone())))
        .collect();
    let fields = typing
        .fields
        .values()
        .flatten()
        .map(|(f, sort)| (&**f, sort.clone()))
        .collect();
    let mut lowering = Lowering {
        typing,
        lines,
        integers,
        globals,
        fields,
        next_loop: 0,
        sites: LoopSites::default(),
        annotations: Annotations::default(),
        positions: Positions::default(),
        statements: StatementSites::default(),
    };
    let mut class_decls = BTreeMap::new();
    let mut procedure_decls = BTreeMap::new();
    for decl in &program.decls {
        match decl {
            ast::Decl::Class(class) => {
                class_decls.insert(class.name.name.as_str(), class);
            }
            ast::Decl::Procedure(procedure) => {
                procedure_decls.insert(procedure.name.name.as_str(), procedure);
            }
            ast::Decl::Var(..) => {}
        }
    }
    let classes: BTreeMap<Name, Class> = class_decls
        .into_values()
        .map(|class| Ok((class.name.name.as_str().into(), lowering.class(class)?)))
        .collect::<Result<_, Diagnostic>>()?;
    let procedures: BTreeMap<Name, Procedure> = procedure_decls
        .into_values()
        .map(|procedure| {
            Ok((
                procedure.name.name.as_str().into(),
                lowering.procedure(procedure)?,
            ))
        })
        .collect::<Result<_, Diagnostic>>()?;
    let main_sites = lowering.statements.0.len();
    let main = lowering.block(&program.main, &Locals::default())?;
    let language = if !classes.is_empty() {
        Language::Oo
    } else if !procedures.is_empty() {
        Language::Recursive
    } else {
        Language::Basic
    };
    let mut program = Program {
        language,
        globals: typing.globals.clone(),
        procedures,
        classes,
        main,
        loops: lowering.sites,
        annotations: lowering.annotations,
        statements: lowering.statements,
    };
    let mut positions = lowering.positions;
    assume_inputs_in_range(&mut program, &mut positions, main_sites, integers);
    Ok((program, positions))
}

/// Under machine integers, the main statement starts with `assume lo <= x
/// && x <= hi` for each integer input `x`, placed where the first statement is.
fn assume_inputs_in_range(
    program: &mut Program,
    positions: &mut Positions,
    main_sites: usize,
    integers: Integers,
) {
    let inputs = program.inputs();
    let in_range = machine::inputs_in_range(inputs.iter().map(|(x, s)| (&**x, s)), integers);
    if in_range.is_true() {
        return;
    }
    let at = program
        .statements
        .0
        .get(main_sites)
        .copied()
        .unwrap_or((1, 1));
    let main: Block = std::iter::once(Stmt::Assume(in_range))
        .chain(program.main.iter().cloned())
        .collect();
    let mut moved = Positions::default();
    moved.record(&main[0], at);
    for (new, old) in main[1..].iter().zip(program.main.iter()) {
        if let Some(old_at) = positions.of(old) {
            moved.record(new, old_at);
        }
    }
    positions.0.extend(moved.0);
    program.statements.0.insert(main_sites, at);
    program.main = main;
}

struct Lowering<'t> {
    typing: &'t Typing,
    lines: &'t LineIndex<'t>,
    integers: Integers,
    /// The term of every global variable, built once.
    globals: HashMap<&'t str, Term>,
    /// The sort of every field (field names are global, SPEC §1.4).
    fields: HashMap<&'t str, Sort>,
    next_loop: u32,
    sites: LoopSites,
    annotations: Annotations,
    /// Each statement's position, in the order statements are lowered
    /// (each before those it contains): [`Program::statements_in_order`].
    statements: StatementSites,
    positions: Positions,
}

/// Where each statement of a lowered program starts in the source (line
/// and column), for messages about a run: a statement is known by its
/// address in the program's blocks, which live as long as the program, so
/// statements a semantics makes afresh (inlined method bodies) have none.
#[derive(Debug, Default)]
pub struct Positions(HashMap<usize, (usize, usize)>);

impl Positions {
    fn record(&mut self, statement: &Stmt, at: (usize, usize)) {
        self.0.insert(statement as *const Stmt as usize, at);
    }

    /// The line and column where `statement` starts, if it is one of the program's own.
    pub fn of(&self, statement: &Stmt) -> Option<(usize, usize)> {
        self.0.get(&(statement as *const Stmt as usize)).copied()
    }
}

/// The terms of a body's local variables: its parameters, and `this` in a method.
#[derive(Default)]
struct Locals {
    vars: HashMap<String, Term>,
    /// In an `ensures` clause: the values at entry read so far, `(old(e), e)`.
    olds: Option<RefCell<Vec<(Name, Term)>>>,
}

impl Locals {
    fn of(params: &[(Name, Sort)]) -> Locals {
        Locals {
            vars: params
                .iter()
                .map(|(u, sort)| (u.to_string(), Term::var(u, sort.clone())))
                .collect(),
            olds: None,
        }
    }

    /// The variable standing for `e` at entry, recorded among the olds.
    fn old(&self, e: Term) -> Option<Term> {
        let olds = self.olds.as_ref()?;
        let name = old_name(&e);
        let variable = Term::var(&name, e.sort());
        let mut olds = olds.borrow_mut();
        if !olds.iter().any(|(old, _)| *old == name) {
            olds.push((name, e));
        }
        Some(variable)
    }
}

fn named(names: &[ast::Param], sorts: &[Sort]) -> Vec<(Name, Sort)> {
    names
        .iter()
        .zip(sorts)
        .map(|(param, sort)| (param.name.name.as_str().into(), sort.clone()))
        .collect()
}

impl<'t> Lowering<'t> {
    /// What the checker should have established about `span` and did not.
    fn gap(&self, span: &Span, what: &str) -> Diagnostic {
        self.lines.error(
            span.clone(),
            format!("{what} (the type checker let this through: please report it)"),
        )
    }

    /// The entry of a typing map the checker fills for the construct at `span`.
    fn typed<'m, K, V>(
        &self,
        map: &'m HashMap<K, V>,
        key: &K,
        span: &Span,
        what: &str,
    ) -> Result<&'m V, Diagnostic>
    where
        K: std::hash::Hash + Eq,
    {
        map.get(key).ok_or_else(|| self.gap(span, what))
    }

    fn class(&mut self, class: &ast::Class) -> Result<Class, Diagnostic> {
        let name = class.name.name.as_str();
        let mut methods = BTreeMap::new();
        let mut sorted: Vec<&ast::Method> = class.methods.iter().collect();
        sorted.sort_by(|a, b| a.name.name.cmp(&b.name.name));
        for method in sorted {
            let key = (name.to_string(), method.name.name.clone());
            let (param_sorts, result) = self.typed(
                &self.typing.methods,
                &key,
                &method.name.span,
                "this method has no inferred type",
            )?;
            let params = named(&method.params, param_sorts);
            let mut locals = Locals::of(&params);
            locals
                .vars
                .insert("this".into(), Term::var("this", Sort::Object(name.into())));
            let body = self.block(&method.body, &locals)?;
            let method_name: Name = method.name.name.as_str().into();
            let key = (Name::from(name), method_name.clone());
            let place = self.place(&method.name.span);
            self.annotations.places.methods.insert(key.clone(), place);
            if let Some(contract) = self.contract(&method.contract, locals)? {
                self.annotations.methods.insert(key, contract);
            }
            methods.insert(
                method_name.clone(),
                Method {
                    name: method_name,
                    params,
                    result: result.clone(),
                    body,
                },
            );
        }
        let fields = self
            .typed(
                &self.typing.fields,
                &name.to_string(),
                &class.name.span,
                "this class has no checked fields",
            )?
            .clone();
        Ok(Class {
            name: name.into(),
            fields,
            methods,
        })
    }

    fn procedure(&mut self, procedure: &ast::Procedure) -> Result<Procedure, Diagnostic> {
        let name = &procedure.name;
        let sorts = self.typed(
            &self.typing.procedures,
            &name.name,
            &name.span,
            "this procedure has no inferred parameter types",
        )?;
        let params = named(&procedure.params, sorts);
        let locals = Locals::of(&params);
        let body = self.block(&procedure.body, &locals)?;
        let procedure_name: Name = name.name.as_str().into();
        let place = self.place(&name.span);
        self.annotations
            .places
            .procedures
            .insert(procedure_name.clone(), place);
        if let Some(contract) = self.contract(&procedure.contract, locals)? {
            self.annotations.procedures.insert(procedure_name, contract);
        }
        Ok(Procedure {
            name: name.name.as_str().into(),
            params,
            body,
        })
    }

    fn place(&self, span: &Span) -> Place {
        let (line, column) = self.lines.position(span.start);
        Place { line, column }
    }

    /// The contract of a body whose locals are `locals`, if it has a clause.
    /// In `ensures`, a parameter is its value at entry, as `old(u)` is.
    fn contract(
        &self,
        contract: &ast::Contract,
        locals: Locals,
    ) -> Result<Option<Contract>, Diagnostic> {
        if contract.is_empty() {
            return Ok(None);
        }
        let requires = self.clauses(&contract.requires, &locals)?;
        let entry = Locals {
            olds: Some(RefCell::default()),
            ..locals
        };
        let ensures = self.clauses(&contract.ensures, &entry)?;
        let olds = entry.olds.map(RefCell::into_inner).unwrap_or_default();
        Ok(Some(Contract {
            requires,
            ensures,
            olds,
        }))
    }

    fn block(&mut self, statements: &[ast::Stmt], locals: &Locals) -> Result<Block, Diagnostic> {
        self.block_ending(statements, locals, Vec::new())
    }

    /// The block of `statements`, each after the checks of machine
    /// integers on what it evaluates ([`Lowering::checks`]), and then `end`.
    fn block_ending(
        &mut self,
        statements: &[ast::Stmt],
        locals: &Locals,
        end: Vec<(Stmt, (usize, usize))>,
    ) -> Result<Block, Diagnostic> {
        let mut lowered = Vec::new();
        for statement in statements {
            let at = self.lines.position(statement.span.start);
            let first_site = self.statements.0.len();
            let stmt = self.statement(statement, locals)?;
            for check in self.checks(&stmt) {
                self.statements.0.insert(first_site, at);
                lowered.push((check, at));
            }
            lowered.push((self.machine_division(&stmt), at));
        }
        for (_, at) in &end {
            self.statements.0.push(*at);
        }
        lowered.extend(end);
        let block: Block = lowered.iter().map(|(stmt, _)| stmt.clone()).collect();
        for (stmt, (_, at)) in block.iter().zip(&lowered) {
            self.positions.record(stmt, *at);
        }
        Ok(block)
    }

    /// Under machine integers, what must hold before `stmt` evaluates its
    /// own expressions: `assume` that the integers it reads from arrays and
    /// fields are in range, then `assert` that its operations do not
    /// overflow (either left out when trivially true).
    fn checks(&self, stmt: &Stmt) -> Vec<Stmt> {
        if self.integers == Integers::Mathematical {
            return Vec::new();
        }
        let (mut reads, mut operations) = (Vec::new(), Vec::new());
        stmt.visit_own_terms(&mut |e| {
            reads.push(machine::reads_in_range(e, self.integers));
            operations.push(machine::no_overflow(e, self.integers));
        });
        let (reads, operations) = (Term::conjunction(reads), Term::conjunction(operations));
        let mut checks = Vec::new();
        if !reads.is_true() {
            checks.push(Stmt::Assume(machine::c_division(&reads)));
        }
        if !operations.is_true() {
            checks.push(Stmt::Assert(machine::c_division(&operations)));
        }
        checks
    }

    /// `stmt` with C's `/` and `%` under machine integers ([`machine::c_division`]).
    fn machine_division(&self, stmt: &Stmt) -> Stmt {
        if self.integers == Integers::Mathematical {
            return stmt.clone();
        }
        stmt.map_own_terms(machine::c_division)
    }

    /// Annotation clauses, with C's `/` and `%` under machine integers.
    fn clauses(&self, es: &[Expr], locals: &Locals) -> Result<Vec<Term>, Diagnostic> {
        let clauses = self.exprs(es, locals)?;
        Ok(match self.integers {
            Integers::Mathematical => clauses,
            _ => clauses.iter().map(machine::c_division).collect(),
        })
    }

    fn statement(&mut self, statement: &ast::Stmt, locals: &Locals) -> Result<Stmt, Diagnostic> {
        let position = self.lines.position(statement.span.start);
        self.statements.0.push(position);
        Ok(match &statement.kind {
            StmtKind::Skip => Stmt::Skip,
            StmtKind::Assign(Target::Var(x), value) => {
                Stmt::Assign(x.name.as_str().into(), self.expr(value, locals)?)
            }
            StmtKind::Assign(Target::Field(object, field), value) => Stmt::FieldAssign(
                self.expr(object, locals)?,
                field.name.as_str().into(),
                self.expr(value, locals)?,
            ),
            StmtKind::Assign(Target::Index(array, index), value) => Stmt::ArrayAssign(
                array.name.as_str().into(),
                self.expr(index, locals)?,
                self.expr(value, locals)?,
            ),
            StmtKind::New(target, class) => {
                Stmt::New(self.target(target, locals)?, class.name.as_str().into())
            }
            StmtKind::MethodCall {
                target,
                receiver,
                method,
                args,
            } => Stmt::MethodCall {
                target: self.target(target, locals)?,
                receiver: self.expr(receiver, locals)?,
                class: self
                    .typed(
                        &self.typing.receivers,
                        &statement.span.start,
                        &receiver.span,
                        "this receiver has no inferred class",
                    )?
                    .clone(),
                method: method.name.as_str().into(),
                args: self.exprs(args, locals)?,
            },
            StmtKind::Call(procedure, args) => {
                Stmt::Call(procedure.name.as_str().into(), self.exprs(args, locals)?)
            }
            StmtKind::If(condition, then, otherwise) => Stmt::If(
                self.expr(condition, locals)?,
                self.block(then, locals)?,
                self.block(otherwise, locals)?,
            ),
            StmtKind::While {
                condition,
                invariants,
                body,
                label,
            } => {
                let id = LoopId(self.next_loop);
                self.next_loop += 1;
                let (line, column) = self.lines.position(statement.span.start);
                let label = label.as_ref().map(|label| label.name.clone());
                self.sites.0.insert(
                    id,
                    LoopSite {
                        line,
                        column,
                        label,
                    },
                );
                if !invariants.is_empty() {
                    let clauses = self.clauses(invariants, locals)?;
                    self.annotations.invariants.insert(id, clauses);
                }
                let condition = self.expr(condition, locals)?;
                // Checked again at the end of each iteration, before the condition is.
                let again = Stmt::While(id, condition.clone(), Block::from(Vec::new()));
                let end = self
                    .checks(&again)
                    .into_iter()
                    .map(|check| (check, (line, column)))
                    .collect();
                Stmt::While(id, condition, self.block_ending(body, locals, end)?)
            }
            StmtKind::Assert(condition) => Stmt::Assert(self.expr(condition, locals)?),
            StmtKind::Assume(condition) => Stmt::Assume(self.expr(condition, locals)?),
            StmtKind::Return(value) => Stmt::Return(None, self.expr(value, locals)?),
            StmtKind::Sugar(sugar) => return Err(self.gap(&statement.span, sugar.construct())),
        })
    }

    /// A heap variable `x` or `e.f` (the parser never makes `a[e]` one).
    fn target(&self, target: &Target, locals: &Locals) -> Result<program::Target, Diagnostic> {
        Ok(match target {
            Target::Field(object, field) => {
                program::Target::Field(self.expr(object, locals)?, field.name.as_str().into())
            }
            Target::Var(x) | Target::Index(x, _) => program::Target::Var(x.name.as_str().into()),
        })
    }

    fn var(&self, x: &str, span: &Span, locals: &Locals) -> Result<Term, Diagnostic> {
        match locals.vars.get(x) {
            // In `ensures`, a parameter is its value at entry (`this` never changes).
            Some(local) if x != "this" => {
                Ok(locals.old(local.clone()).unwrap_or_else(|| local.clone()))
            }
            Some(local) => Ok(local.clone()),
            None => self
                .typed(
                    &self.globals,
                    &x,
                    span,
                    &format!("`{x}` has no inferred type"),
                )
                .cloned(),
        }
    }

    fn exprs(&self, es: &[Expr], locals: &Locals) -> Result<Vec<Term>, Diagnostic> {
        es.iter().map(|e| self.expr(e, locals)).collect()
    }

    fn expr(&self, e: &Expr, locals: &Locals) -> Result<Term, Diagnostic> {
        Ok(match &e.kind {
            ExprKind::Int(n) => {
                let fits = |(lo, hi): (BigInt, BigInt)| lo <= *n && *n <= hi;
                if !self.integers.range().is_none_or(fits) {
                    return Err(self.lines.error(
                        e.span.clone(),
                        format!(
                            "the literal {n} is out of range of `--int {}`",
                            self.integers.name()
                        ),
                    ));
                }
                Term::int(n.clone())
            }
            ExprKind::Bool(b) => Term::bool(*b),
            ExprKind::Nil => Term::nil(self.typed(
                &self.typing.nils,
                &e.span.start,
                &e.span,
                "this `nil` has no inferred class",
            )?),
            ExprKind::This => self.var("this", &e.span, locals)?,
            ExprKind::Var(x) => self.var(x, &e.span, locals)?,
            ExprKind::Len(array) => Term::len(self.array_name(array)?),
            ExprKind::Unary(op, operand) => Term::unary(*op, self.expr(operand, locals)?),
            ExprKind::Binary(op, left, right) => {
                Term::binary(*op, self.expr(left, locals)?, self.expr(right, locals)?)
            }
            ExprKind::Ite(condition, then, otherwise) => Term::ite(
                self.expr(condition, locals)?,
                self.expr(then, locals)?,
                self.expr(otherwise, locals)?,
            ),
            ExprKind::Field(object, field) => {
                let sort = self
                    .fields
                    .get(field.name.as_str())
                    .cloned()
                    .unwrap_or(Sort::Int);
                Term::field(self.expr(object, locals)?, &field.name, sort)
            }
            ExprKind::Index(array, index) => Term::select(
                self.var(self.array_name(array)?, &array.span, locals)?,
                self.expr(index, locals)?,
            ),
            ExprKind::Old(value) => {
                let inside = Locals {
                    vars: locals.vars.clone(),
                    olds: None,
                };
                let value = self.expr(value, &inside)?;
                return locals
                    .old(value)
                    .ok_or_else(|| self.gap(&e.span, "`old(e)` stands only in `ensures`"));
            }
            ExprKind::Call(..) | ExprKind::MethodCall(..) => {
                return Err(self.gap(
                    &e.span,
                    "a call cannot be part of an expression; call it in a statement of its own",
                ))
            }
        })
    }

    /// The variable of `len(a)` or `a[e]`, which the checker made sure is one.
    fn array_name<'e>(&self, array: &'e Expr) -> Result<&'e str, Diagnostic> {
        match &array.kind {
            ExprKind::Var(a) => Ok(a),
            _ => Err(self.gap(
                &array.span,
                "only an array variable can be measured with `len` or indexed",
            )),
        }
    }
}
