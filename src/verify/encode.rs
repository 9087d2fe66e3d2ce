//! Verification programs: King's §8 recipe written as a program that the
//! explorer runs. "Change the ASSERT at the beginning of the path to an
//! ASSUME; change the ASSERT at the end of the path to a PROVE; initialise
//! the program variables to distinct symbols": an annotated loop
//! `while b invariant I { S }` becomes
//!
//! ```text
//! assert I;                       // entry: I holds when the loop is reached
//! havoc W;                        // what S may write, arbitrary (the rest is kept)
//! assume I;                       // a state at the loop head
//! if b { S; assert I; assume false }  // preservation: one iteration, then stop
//! ```
//!
//! after which the program goes on from a state at the loop head where `b`
//! is false, the exit condition. A call of a procedure with a contract
//! becomes `assert requires; havoc writes; assume ensures`, and the body
//! is proved once against its contract, in a program of its own. Every
//! `assert` is labelled ([`labelled_assert`]), so a failing path names its
//! condition, and every cut point sets the ghost [`AT`], so a path names
//! the segment it is in.
//!
//! A loop without annotation is explored as written, or, for k-induction,
//! split into its base case (at most `k` iterations, checked) and its
//! step case (from an arbitrary state at the loop head, `k` iterations
//! assumed free of failures, and the next one checked).

use super::conditions::{Condition, CutPoint, Unit};
use super::mutant::{broken, Mutant};
use super::writes::Writes;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use symex_semantics::annotations::{
    check_global, entry_values, labelled_assert, Body, Check, CheckKind, Contract,
};
use symex_semantics::checked;
use symex_semantics::program::{Block, Language, LoopId, Program, Stmt};
use symex_semantics::subst::substitute;
use symex_semantics::system::Options;
use symex_semantics::term::{Name, Sort, Term};

/// The ghost that each cut point sets to its number, just before its `havoc`.
pub const AT: &str = "at#";

/// How loops without annotation are treated.
#[derive(Clone, Copy)]
pub enum Treatment<'a> {
    /// Explored as written, within the explorer's bounds.
    Explore,
    /// Cut like annotated loops, with these candidate invariants as their
    /// conditions (Houdini tests them).
    Candidates(&'a BTreeMap<LoopId, Vec<Term>>),
    /// k-induction, strengthened at the step's arbitrary state by these
    /// invariants (shown inductive beforehand).
    Induction {
        k: usize,
        invariants: &'a BTreeMap<LoopId, Vec<Term>>,
    },
}

/// A verification program with what its labels and cut points stand for.
pub struct Encoding {
    pub program: Rc<Program>,
    /// The condition labelled `k` is `conditions[k - 1]`.
    pub conditions: Vec<Condition>,
    /// The cut point numbered `j` is `cut_points[j - 1]`.
    pub cut_points: Vec<CutPoint>,
}

impl Encoding {
    /// The condition labelled `k`.
    pub fn condition(&self, k: usize) -> Option<&Condition> {
        k.checked_sub(1).and_then(|i| self.conditions.get(i))
    }

    /// The cut point numbered `j`.
    pub fn cut_point(&self, j: usize) -> Option<&CutPoint> {
        j.checked_sub(1).and_then(|i| self.cut_points.get(i))
    }
}

/// The verification program of `unit` of `program`.
pub fn encode(program: &Program, unit: &Unit, treatment: Treatment, options: Options) -> Encoding {
    let mut encoder = Encoder {
        program,
        writes: Writes::new(program),
        treatment,
        options,
        unit: unit.clone(),
        conditions: Vec::new(),
        cut_points: Vec::new(),
        ghosts: BTreeMap::from([check_global(), (AT.into(), Sort::Int)]),
        calls: 0,
    };
    let mut procedures = BTreeMap::new();
    for (name, procedure) in &program.procedures {
        if encoder.modular(name) {
            continue;
        }
        let contract = program.annotations.procedures.get(name);
        let owner = Body::Procedure(name.clone());
        let mut procedure = procedure.clone();
        procedure
            .params
            .extend(contract.map(Contract::old_vars).unwrap_or_default());
        let scope = Scope {
            locals: &procedure.params,
            assumed: false,
        };
        procedure.body = encoder.checked_body(&owner, contract, &procedure.body, scope);
        procedures.insert(name.clone(), procedure);
    }
    let mut classes = program.classes.clone();
    for class in classes.values_mut() {
        for method in class.methods.values_mut() {
            let key = (class.name.clone(), method.name.clone());
            let contract = program.annotations.methods.get(&key);
            let owner = Body::Method(key.0, key.1);
            method
                .params
                .extend(contract.map(Contract::old_vars).unwrap_or_default());
            let mut locals = method.params.clone();
            locals.push(("this".into(), Sort::Object(class.name.clone())));
            let scope = Scope {
                locals: &locals,
                assumed: false,
            };
            method.body = encoder.checked_body(&owner, contract, &method.body, scope);
        }
    }
    let main = match unit {
        Unit::Main => encoder.block(&program.main, Scope::MAIN),
        Unit::Body(p) => encoder.body(p),
    };
    let mut globals = program.globals.clone();
    globals.extend(encoder.ghosts);
    let language = if !program.classes.is_empty() {
        Language::Oo
    } else if !procedures.is_empty() {
        Language::Recursive
    } else {
        Language::Basic
    };
    Encoding {
        program: Rc::new(program.derived(language, globals, procedures, classes, main)),
        conditions: encoder.conditions,
        cut_points: encoder.cut_points,
    }
}

struct Encoder<'p> {
    program: &'p Program,
    writes: Writes<'p>,
    treatment: Treatment<'p>,
    options: Options,
    unit: Unit,
    conditions: Vec<Condition>,
    cut_points: Vec<CutPoint>,
    /// Ghost globals the program needs, with their sorts.
    ghosts: BTreeMap<Name, Sort>,
    /// Calls replaced by contracts so far (each names its ghosts).
    calls: usize,
}

/// Where statements are translated.
#[derive(Clone, Copy)]
struct Scope<'s> {
    /// The local variables (a procedure's parameters).
    locals: &'s [(Name, Sort)],
    /// Inside an iteration that k-induction assumes free of failures:
    /// assertions are assumed, and so is the definedness of what is evaluated.
    assumed: bool,
}

impl Scope<'_> {
    const MAIN: Scope<'static> = Scope {
        locals: &[],
        assumed: false,
    };
}

/// `e` with `p`'s parameters replaced by `args`.
fn with_arguments(e: &Term, params: &[(Name, Sort)], args: &[Term]) -> Term {
    substitute(e, |x| {
        let i = params.iter().position(|(u, _)| u == x)?;
        args.get(i).cloned()
    })
}

/// Whether the calls of procedure `p` are replaced by its contract, its
/// body proved once against it: it has a contract and changes no heap (a
/// `havoc` cannot make the heap arbitrary; such a body is checked at every
/// call instead, its contract as assertions).
pub fn modular(program: &Program, p: &str) -> bool {
    program.annotations.procedures.contains_key(p) && !Writes::new(program).procedure_writes_heap(p)
}

impl Encoder<'_> {
    fn modular(&self, p: &str) -> bool {
        self.program.annotations.procedures.contains_key(p) && !self.writes.procedure_writes_heap(p)
    }

    /// A body checked at every call: `assert requires`, the body, `assert
    /// ensures` (before a method's `return`); `ensures` reads the values at
    /// entry from the extra parameters the calls pass.
    fn checked_body(
        &mut self,
        owner: &Body,
        contract: Option<&Contract>,
        body: &[Stmt],
        scope: Scope,
    ) -> Block {
        let (result, body) = match body.split_last() {
            Some((last @ Stmt::Return(..), body)) => (Some(last.clone()), body),
            _ => (None, body),
        };
        let mut out = Vec::new();
        for clause in contract.iter().flat_map(|c| &c.requires) {
            let check = Check {
                kind: CheckKind::Requires(owner.clone()),
                clause: clause.clone(),
            };
            self.prove(check, None, false, scope, &mut out);
        }
        self.statements(body, scope, &mut out);
        for clause in contract.iter().flat_map(|c| &c.ensures) {
            let check = Check {
                kind: CheckKind::Ensures(owner.clone()),
                clause: clause.clone(),
            };
            self.prove(check, None, false, scope, &mut out);
        }
        out.extend(result);
        out.into()
    }

    /// The body of procedure `p` against its contract, as a main statement
    /// whose inputs are the parameters and the globals: `old(e) := e`,
    /// `assume requires`, the body, `assert ensures`.
    fn body(&mut self, p: &Name) -> Block {
        let contract = self.program.annotations.procedures.get(p).cloned();
        let Some(procedure) = self.program.procedures.get(p) else {
            return Rc::from([]);
        };
        let contract = contract.unwrap_or_default();
        let mut out = Vec::new();
        for (param, sort) in &procedure.params {
            self.ghosts.insert(param.clone(), sort.clone());
        }
        let olds: Vec<Stmt> = contract
            .olds
            .iter()
            .map(|(old, e)| {
                self.ghosts.insert(old.clone(), e.sort());
                Stmt::Assign(old.clone(), e.clone())
            })
            .collect();
        let old_at_exit = broken(Mutant::OldAtExit);
        if !old_at_exit {
            out.extend(olds.iter().cloned());
        }
        for clause in &contract.requires {
            out.push(self.assume_holds(clause));
        }
        self.statements(&procedure.body, Scope::MAIN, &mut out);
        if old_at_exit {
            out.extend(olds);
        }
        let owner = Body::Procedure(p.clone());
        for clause in &contract.ensures {
            let check = Check {
                kind: CheckKind::Ensures(owner.clone()),
                clause: clause.clone(),
            };
            self.prove(check, None, false, Scope::MAIN, &mut out);
        }
        out.into()
    }

    /// Proves each invariant clause as a check of `kind`.
    fn prove_invariant(
        &mut self,
        kind: CheckKind,
        clauses: &[Term],
        candidate: bool,
        scope: Scope,
        out: &mut Vec<Stmt>,
    ) {
        for clause in clauses {
            let check = Check {
                kind: kind.clone(),
                clause: clause.clone(),
            };
            self.prove(check, None, candidate, scope, out);
        }
    }

    /// `check# := k; assert clause` for a new condition (in an assumed
    /// iteration, `assume δ(clause) && clause`).
    fn prove(
        &mut self,
        check: Check,
        call: Option<String>,
        candidate: bool,
        scope: Scope,
        out: &mut Vec<Stmt>,
    ) {
        if scope.assumed {
            out.push(self.assume_holds(&check.clause));
            return;
        }
        let clause = check.clause.clone();
        self.conditions.push(Condition {
            check,
            unit: self.unit.clone(),
            call,
            candidate,
        });
        out.extend(labelled_assert(self.conditions.len(), clause));
    }

    /// `assume δ(e) && e`: `e` holds and is defined, without the error step
    /// that `assume e` takes where `e` is undefined (the assumption was
    /// proved, definedness included, where it was asserted).
    fn assume_holds(&self, e: &Term) -> Stmt {
        let defined = checked::defined(self.options, std::slice::from_ref(e));
        Stmt::Assume(Term::and(defined, e.clone()))
    }

    /// In an assumed iteration, `assume δ(terms)` before a statement that
    /// evaluates `terms`: the iteration does not fail there.
    fn defined_first(&self, terms: &[Term], scope: Scope, out: &mut Vec<Stmt>) {
        if scope.assumed {
            let defined = checked::defined(self.options, terms);
            if !defined.is_true() {
                out.push(Stmt::Assume(defined));
            }
        }
    }

    /// `at# := j` for a new cut point.
    fn cut_point(&mut self, point: CutPoint) -> Stmt {
        self.cut_points.push(point);
        Stmt::Assign(AT.into(), Term::int(self.cut_points.len()))
    }

    /// `havoc W` for the variables `written` that are in `scope`.
    fn havoc(&self, written: &BTreeSet<Name>, scope: Scope) -> Stmt {
        Stmt::Havoc(self.writes.sorted(written, scope.locals))
    }

    fn block(&mut self, block: &[Stmt], scope: Scope) -> Block {
        let mut out = Vec::new();
        self.statements(block, scope, &mut out);
        out.into()
    }

    fn statements(&mut self, block: &[Stmt], scope: Scope, out: &mut Vec<Stmt>) {
        for stmt in block {
            self.statement(stmt, scope, out);
        }
    }

    fn statement(&mut self, stmt: &Stmt, scope: Scope, out: &mut Vec<Stmt>) {
        match stmt {
            Stmt::Assert(e) => {
                let check = Check {
                    kind: CheckKind::Assertion,
                    clause: e.clone(),
                };
                self.prove(check, None, false, scope, out);
            }
            Stmt::If(b, then, otherwise) => {
                self.defined_first(std::slice::from_ref(b), scope, out);
                let then = self.block(then, scope);
                let otherwise = self.block(otherwise, scope);
                out.push(Stmt::If(b.clone(), then, otherwise));
            }
            Stmt::While(id, b, body) => self.iteration(*id, b, body, scope, out),
            Stmt::Call(p, args) => {
                self.defined_first(args, scope, out);
                let contract = self.program.annotations.procedures.get(p);
                match contract {
                    Some(contract) if self.modular(p) => {
                        self.contract_call(p, args, &contract.clone(), scope, out)
                    }
                    Some(contract) => {
                        let params = &self.program.procedures[p].params;
                        let olds = entry_values(contract, params, None, args);
                        out.push(Stmt::Call(p.clone(), [args, &olds[..]].concat()));
                    }
                    None => out.push(stmt.clone()),
                }
            }
            Stmt::MethodCall {
                target,
                receiver,
                class,
                method,
                args,
            } => {
                let key = (class.clone(), method.clone());
                let contract = self.program.annotations.methods.get(&key);
                let params = self
                    .program
                    .classes
                    .get(class)
                    .and_then(|c| c.methods.get(method))
                    .map(|m| &m.params[..])
                    .unwrap_or_default();
                let olds = contract
                    .map(|c| entry_values(c, params, Some(receiver), args))
                    .unwrap_or_default();
                out.push(Stmt::MethodCall {
                    target: target.clone(),
                    receiver: receiver.clone(),
                    class: class.clone(),
                    method: method.clone(),
                    args: [&args[..], &olds[..]].concat(),
                });
            }
            Stmt::Assign(_, e) | Stmt::Assume(e) => {
                self.defined_first(std::slice::from_ref(e), scope, out);
                out.push(stmt.clone());
            }
            Stmt::ArrayAssign(a, i, e) => {
                let sort = self.program.globals.get(a).cloned();
                let array = Term::var(a, sort.unwrap_or_else(Sort::int_array));
                self.defined_first(&[Term::select(array, i.clone()), e.clone()], scope, out);
                out.push(stmt.clone());
            }
            _ => out.push(stmt.clone()),
        }
    }

    /// A loop: cut at its head when it has an invariant (or candidates),
    /// split for k-induction, or left to the explorer.
    fn iteration(&mut self, id: LoopId, b: &Term, body: &Block, scope: Scope, out: &mut Vec<Stmt>) {
        let annotated = self.program.annotations.invariants.get(&id);
        if self.writes.writes_heap(body) {
            let clauses = annotated.cloned().unwrap_or_default();
            return self.checked_loop(id, b, body, &clauses, scope, out);
        }
        match (annotated, self.treatment) {
            (Some(clauses), _) => self.cut(id, b, body, &clauses.clone(), false, scope, out),
            (None, Treatment::Candidates(candidates)) => {
                let clauses = candidates.get(&id).cloned().unwrap_or_default();
                self.cut(id, b, body, &clauses, true, scope, out);
            }
            (None, Treatment::Induction { k, invariants }) => {
                let clauses = invariants.get(&id).cloned().unwrap_or_default();
                self.induction(id, b, body, k, &clauses, scope, out);
            }
            (None, Treatment::Explore) => {
                let body = self.block(body, scope);
                out.push(Stmt::While(id, b.clone(), body));
            }
        }
    }

    /// A loop that changes the heap, which no `havoc` can make arbitrary:
    /// explored as written, its invariant proved on entry and after each
    /// iteration (as `run --check-annotations` checks it), within the bounds.
    fn checked_loop(
        &mut self,
        id: LoopId,
        b: &Term,
        body: &Block,
        clauses: &[Term],
        scope: Scope,
        out: &mut Vec<Stmt>,
    ) {
        self.prove_invariant(CheckKind::InvariantOnEntry(id), clauses, false, scope, out);
        let mut iteration = Vec::new();
        self.statements(body, scope, &mut iteration);
        self.prove_invariant(
            CheckKind::InvariantPreserved(id),
            clauses,
            false,
            scope,
            &mut iteration,
        );
        out.push(Stmt::While(id, b.clone(), iteration.into()));
    }

    /// King's cut point at a loop head with invariant `clauses`: proved on
    /// entry, assumed of an arbitrary state (what the body writes made
    /// fresh), proved again after one iteration, which ends the path.
    #[allow(clippy::too_many_arguments)]
    fn cut(
        &mut self,
        id: LoopId,
        b: &Term,
        body: &Block,
        clauses: &[Term],
        candidate: bool,
        scope: Scope,
        out: &mut Vec<Stmt>,
    ) {
        self.prove_invariant(
            CheckKind::InvariantOnEntry(id),
            clauses,
            candidate,
            scope,
            out,
        );
        out.push(self.cut_point(CutPoint::LoopHead(id)));
        let written = match broken(Mutant::SkipHavoc) {
            true => BTreeSet::new(),
            false => self.writes.block(body),
        };
        out.push(self.havoc(&written, scope));
        out.extend(clauses.iter().map(|clause| self.assume_holds(clause)));
        let mut iteration = Vec::new();
        self.statements(body, scope, &mut iteration);
        self.prove_invariant(
            CheckKind::InvariantPreserved(id),
            clauses,
            candidate,
            scope,
            &mut iteration,
        );
        iteration.push(Stmt::Assume(Term::bool(false)));
        self.defined_first(std::slice::from_ref(b), scope, out);
        out.push(Stmt::If(b.clone(), iteration.into(), Rc::from([])));
    }

    /// k-induction for a loop without annotation: a fresh choice between
    /// the base case (the first `k` iterations, checked; longer runs are
    /// the step's) and the step case (from an arbitrary state at the loop
    /// head where `invariants` hold, `k` iterations assumed free of
    /// failures, the next one checked; or the loop ends after them).
    #[allow(clippy::too_many_arguments)]
    fn induction(
        &mut self,
        id: LoopId,
        b: &Term,
        body: &Block,
        k: usize,
        invariants: &[Term],
        scope: Scope,
        out: &mut Vec<Stmt>,
    ) {
        let choice: Name = format!("base#{}", id.0).into();
        self.ghosts.insert(choice.clone(), Sort::Bool);
        out.push(Stmt::Havoc(vec![(choice.clone(), Sort::Bool)]));
        let base = self.unrolled(b, body, k, scope);
        let mut step = vec![
            self.cut_point(CutPoint::Induction(id)),
            self.havoc(&self.writes.block(body), scope),
        ];
        step.extend(invariants.iter().map(|clause| self.assume_holds(clause)));
        let assumed = Scope {
            assumed: true,
            ..scope
        };
        for _ in 0..k {
            step.push(self.assume_holds(b));
            self.statements(body, assumed, &mut step);
        }
        let mut next = Vec::new();
        self.statements(body, scope, &mut next);
        next.push(Stmt::Assume(Term::bool(false)));
        self.defined_first(std::slice::from_ref(b), scope, &mut step);
        step.push(Stmt::If(b.clone(), next.into(), Rc::from([])));
        if broken(Mutant::BaseCaseOnly) {
            step = vec![Stmt::Assume(Term::bool(false))];
        }
        out.push(Stmt::If(Term::var(&choice, Sort::Bool), base, step.into()));
    }

    /// `if b { S; if b { S; … if b { assume false } } }`, `S` `k` times: the
    /// runs of the loop with at most `k` iterations.
    fn unrolled(&mut self, b: &Term, body: &Block, k: usize, scope: Scope) -> Block {
        let mut iteration = Vec::new();
        match k {
            0 => iteration.push(Stmt::Assume(Term::bool(false))),
            _ => {
                self.statements(body, scope, &mut iteration);
                iteration.extend(self.unrolled(b, body, k - 1, scope).iter().cloned());
            }
        }
        let mut out = Vec::new();
        self.defined_first(std::slice::from_ref(b), scope, &mut out);
        out.push(Stmt::If(b.clone(), iteration.into(), Rc::from([])));
        out.into()
    }

    /// A call of `p` by its contract: `requires` proved of the arguments,
    /// the values `ensures` reads at entry kept in ghosts, what `p` may
    /// write made arbitrary, `ensures` assumed.
    fn contract_call(
        &mut self,
        p: &Name,
        args: &[Term],
        contract: &Contract,
        scope: Scope,
        out: &mut Vec<Stmt>,
    ) {
        let params = self
            .program
            .procedures
            .get(p)
            .map(|procedure| procedure.params.clone())
            .unwrap_or_default();
        self.calls += 1;
        let call = Stmt::Call(p.clone(), args.to_vec()).to_string();
        for clause in &contract.requires {
            let check = Check {
                kind: CheckKind::Requires(Body::Procedure(p.clone())),
                clause: with_arguments(clause, &params, args),
            };
            self.prove(check, Some(call.clone()), false, scope, out);
        }
        let mut olds = Vec::new();
        for (old, e) in &contract.olds {
            let ghost: Name = format!("{old}#{}", self.calls).into();
            self.ghosts.insert(ghost.clone(), e.sort());
            out.push(Stmt::Assign(
                ghost.clone(),
                with_arguments(e, &params, args),
            ));
            olds.push((old.clone(), Term::var(&ghost, e.sort())));
        }
        out.push(self.cut_point(CutPoint::AfterCall {
            callee: p.clone(),
            call,
        }));
        out.push(self.havoc(&self.writes.procedure(p), scope));
        for clause in &contract.ensures {
            let at_exit = substitute(clause, |x| {
                olds.iter()
                    .find(|(old, _)| old == x)
                    .map(|(_, g)| g.clone())
            });
            out.push(self.assume_holds(&at_exit));
        }
    }
}
