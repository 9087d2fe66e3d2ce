//! King's run-time reading of annotations (1976 §8): "ASSERT (B) as
//! shorthand for IF ¬B THEN (some error alert)", as Algol W checks it.
//! Every annotation becomes an `assert` where it must hold: a loop's
//! invariant before the loop and after each iteration, a contract's
//! `requires` at entry and `ensures` at the end of the body. Each assertion
//! is labelled ([`super::labelled_assert`]), so a run that fails says which.
//!
//! `ensures` reads values at entry through extra parameters: a body with a
//! contract takes one more parameter per `old(e)` ([`Contract::olds`]), and
//! each call passes `e` with the callee's parameters replaced by the
//! arguments (and `this` by the receiver), which is `e`'s value at entry.

use super::{check_global, labelled_assert, Annotations, Contract};
use crate::program::{Block, LoopId, Program, Stmt};
use crate::subst::substitute;
use crate::term::{Name, Sort, Term};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

/// What a labelled assertion checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// An `assert` of the program.
    Assertion,
    /// A loop's invariant when the loop is reached.
    InvariantOnEntry(LoopId),
    /// A loop's invariant after an iteration of its body.
    InvariantPreserved(LoopId),
    /// A `requires` clause at entry to the named body.
    Requires(Body),
    /// An `ensures` clause at the end of the named body.
    Ensures(Body),
}

/// A procedure, or a method of a class.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Body {
    Procedure(Name),
    Method(Name, Name),
}

impl fmt::Display for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Body::Procedure(p) => write!(f, "procedure {p}"),
            Body::Method(class, m) => write!(f, "method {class}.{m}"),
        }
    }
}

/// One labelled assertion: what it checks, and the clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub kind: CheckKind,
    pub clause: Term,
}

impl Check {
    /// What the check of `program` is about, in words, with places where
    /// known: "invariant i <= n of the loop at 3:1, on entry".
    pub fn describe(&self, program: &Program) -> String {
        let clause = &self.clause;
        let at_loop = |id: &LoopId| loop_name(program, *id);
        let places = &program.annotations.places;
        let body = |body: &Body| {
            let place = match body {
                Body::Procedure(p) => places.procedures.get(p),
                Body::Method(c, m) => places.methods.get(&(c.clone(), m.clone())),
            };
            match place {
                Some(place) => format!("{body} ({place})"),
                None => body.to_string(),
            }
        };
        match &self.kind {
            CheckKind::Assertion => format!("assert {clause}"),
            CheckKind::InvariantOnEntry(id) => {
                format!("invariant {clause} of {}, on entry", at_loop(id))
            }
            CheckKind::InvariantPreserved(id) => {
                format!("invariant {clause} of {}, after an iteration", at_loop(id))
            }
            CheckKind::Requires(b) => format!("requires {clause} of {}", body(b)),
            CheckKind::Ensures(b) => format!("ensures {clause} of {}", body(b)),
        }
    }
}

/// "the loop at 3:1" (or "the loop L (3:1)"), where loop `id` of `program` is written.
pub fn loop_name(program: &Program, id: LoopId) -> String {
    match program.loops.get(id) {
        Some(site) => format!("the loop at {site}"),
        None => format!("loop {}", id.0),
    }
}

/// A program whose annotations are labelled assertions, with the checks
/// by number: the assertion labelled `k` is `checks[k - 1]`.
pub struct Instrumented {
    pub program: Rc<Program>,
    pub checks: Vec<Check>,
}

impl Instrumented {
    /// The check with label `k`.
    pub fn check(&self, k: usize) -> Option<&Check> {
        k.checked_sub(1).and_then(|i| self.checks.get(i))
    }
}

/// `program` with every annotation and every `assert` a labelled
/// assertion, and the ghost [`super::CHECK`] among its globals.
pub fn instrument(program: &Program) -> Instrumented {
    let mut instrumenter = Instrumenter {
        program,
        annotations: &program.annotations,
        checks: Vec::new(),
    };
    let mut procedures = BTreeMap::new();
    for (name, procedure) in &program.procedures {
        let contract = program.annotations.procedures.get(name);
        let owner = Body::Procedure(name.clone());
        let mut procedure = procedure.clone();
        procedure.body = instrumenter.body(&procedure.body, contract, &owner, None);
        procedure
            .params
            .extend(contract.map(Contract::old_vars).unwrap_or_default());
        procedures.insert(name.clone(), procedure);
    }
    let mut classes = program.classes.clone();
    for class in classes.values_mut() {
        for method in class.methods.values_mut() {
            let key = (class.name.clone(), method.name.clone());
            let contract = program.annotations.methods.get(&key);
            let owner = Body::Method(key.0, key.1);
            let (result, body) = match method.body.split_last() {
                Some((last @ Stmt::Return(..), body)) => (Some(last.clone()), body),
                _ => (None, &method.body[..]),
            };
            method.body = instrumenter.body(body, contract, &owner, result);
            method
                .params
                .extend(contract.map(Contract::old_vars).unwrap_or_default());
        }
    }
    let main = instrumenter.block(&program.main);
    let mut globals = program.globals.clone();
    globals.extend([check_global()]);
    Instrumented {
        program: Rc::new(program.derived(program.language, globals, procedures, classes, main)),
        checks: instrumenter.checks,
    }
}

struct Instrumenter<'a> {
    program: &'a Program,
    annotations: &'a Annotations,
    checks: Vec<Check>,
}

impl Instrumenter<'_> {
    /// `check# := k; assert clause`, with `k` a new label for `kind`.
    fn assert(&mut self, kind: CheckKind, clause: &Term, out: &mut Vec<Stmt>) {
        self.checks.push(Check {
            kind,
            clause: clause.clone(),
        });
        out.extend(labelled_assert(self.checks.len(), clause.clone()));
    }

    /// `assert P …; S; assert Q …` (then `return e` for a method).
    fn body(
        &mut self,
        body: &[Stmt],
        contract: Option<&Contract>,
        owner: &Body,
        result: Option<Stmt>,
    ) -> Block {
        let mut out = Vec::new();
        for clause in contract.iter().flat_map(|c| &c.requires) {
            self.assert(CheckKind::Requires(owner.clone()), clause, &mut out);
        }
        self.statements(body, &mut out);
        for clause in contract.iter().flat_map(|c| &c.ensures) {
            self.assert(CheckKind::Ensures(owner.clone()), clause, &mut out);
        }
        out.extend(result);
        out.into()
    }

    fn block(&mut self, block: &Block) -> Block {
        let mut out = Vec::new();
        self.statements(block, &mut out);
        out.into()
    }

    fn statements(&mut self, statements: &[Stmt], out: &mut Vec<Stmt>) {
        for stmt in statements {
            self.statement(stmt, out);
        }
    }

    fn statement(&mut self, stmt: &Stmt, out: &mut Vec<Stmt>) {
        match stmt {
            Stmt::Assert(e) => self.assert(CheckKind::Assertion, e, out),
            Stmt::If(b, then, otherwise) => {
                out.push(Stmt::If(b.clone(), self.block(then), self.block(otherwise)));
            }
            Stmt::While(id, b, body) => {
                let invariants = self.annotations.invariants.get(id);
                for clause in invariants.into_iter().flatten() {
                    self.assert(CheckKind::InvariantOnEntry(*id), clause, out);
                }
                let mut iteration = Vec::new();
                self.statements(body, &mut iteration);
                for clause in invariants.into_iter().flatten() {
                    self.assert(CheckKind::InvariantPreserved(*id), clause, &mut iteration);
                }
                out.push(Stmt::While(*id, b.clone(), iteration.into()));
            }
            Stmt::Call(p, args) => {
                let contract = self.annotations.procedures.get(p);
                let params = self.program.procedures.get(p).map(|p| &p.params[..]);
                let olds = contract.map(|c| entry_values(c, params.unwrap_or(&[]), None, args));
                out.push(Stmt::Call(
                    p.clone(),
                    args.iter()
                        .cloned()
                        .chain(olds.into_iter().flatten())
                        .collect(),
                ));
            }
            Stmt::MethodCall {
                target,
                receiver,
                class,
                method,
                args,
            } => {
                let key = (class.clone(), method.clone());
                let contract = self.annotations.methods.get(&key);
                let params = self
                    .program
                    .classes
                    .get(class)
                    .and_then(|c| c.methods.get(method))
                    .map(|m| &m.params[..]);
                let olds =
                    contract.map(|c| entry_values(c, params.unwrap_or(&[]), Some(receiver), args));
                out.push(Stmt::MethodCall {
                    target: target.clone(),
                    receiver: receiver.clone(),
                    class: class.clone(),
                    method: method.clone(),
                    args: args
                        .iter()
                        .cloned()
                        .chain(olds.into_iter().flatten())
                        .collect(),
                });
            }
            other => out.push(other.clone()),
        }
    }
}

/// The arguments that pass `old(e)` for each entry of `contract.olds` at a
/// call of a body with `params` with `args` (and `receiver`): each `e` with
/// the parameters replaced by the arguments and `this` by the receiver.
pub fn entry_values(
    contract: &Contract,
    params: &[(Name, Sort)],
    receiver: Option<&Term>,
    args: &[Term],
) -> Vec<Term> {
    contract
        .olds
        .iter()
        .map(|(_, e)| {
            substitute(e, |x| {
                if &**x == "this" {
                    return receiver.cloned();
                }
                let i = params.iter().position(|(u, _)| u == x)?;
                args.get(i).cloned()
            })
        })
        .collect()
}
