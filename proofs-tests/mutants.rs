//! Deliberately broken rules, each a transition system that delegates to the
//! real one except for one rule, and deliberately weakened checkers. Every
//! property has a test that runs it against a mutant and expects a
//! counterexample (or, for a checker that skips a case, a coverage failure).

use crate::Systems;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::rc::Rc;
use symex::theorems::broken::{self, swap_choice_guards, Edit, Edited};
use symex::theorems::run::SymbolicRun;
use symex::theorems::simulation::SymbolicConfig;
use symex::theorems::soundness_assignment::soundness_assignment;
use symex::theorems::{Basic, Cases, Recursive, Simulation};
use symex_semantics::basic::{concrete, symbolic};
use symex_semantics::checked;
use symex_semantics::delta::{base_array, in_bounds, not_nil};
use symex_semantics::eval::{eval, Valuation};
use symex_semantics::program::{Program, Stmt};
use symex_semantics::recursive;
use symex_semantics::subst::{substitute, Substitution};
use symex_semantics::system::{Options, Rule, Step, TransitionSystem};
use symex_semantics::term::{BinOp, IdMap, Name, Sort, Term, TermKind};
use symex_semantics::value::{ArrayValue, Value};

/// A broken rule of §2's symbolic system.
pub trait SymbolicMutant {
    const EDIT: Edit<symbolic::Config>;
}

/// A broken rule of §3's symbolic system.
pub trait RecursiveMutant {
    const EDIT: Edit<recursive::symbolic::Config>;
}

/// §2's systems with the symbolic mutant `M`.
pub struct Mutated<M>(PhantomData<M>);

impl<M: SymbolicMutant> Systems for Mutated<M> {
    type Simulation = Basic<Edited<symbolic::Symbolic>, concrete::Concrete>;

    fn build(program: Rc<Program>, options: Options) -> Result<Self::Simulation, String> {
        let real = symbolic::Symbolic::new(program.clone(), options)?;
        let concrete = concrete::Concrete::new(program.clone(), options)?;
        Basic::new(
            program,
            options,
            Edited {
                real,
                edit: M::EDIT,
            },
            concrete,
        )
    }
}

/// §3's systems with the symbolic mutant `M`.
pub struct MutatedRecursive<M>(PhantomData<M>);

impl<M: RecursiveMutant> Systems for MutatedRecursive<M> {
    type Simulation =
        Recursive<Edited<recursive::symbolic::Symbolic>, recursive::concrete::Concrete>;

    fn build(program: Rc<Program>, options: Options) -> Result<Self::Simulation, String> {
        let real = recursive::symbolic::Symbolic::new(program.clone(), options)?;
        let concrete = recursive::concrete::Concrete::new(program.clone(), options)?;
        Recursive::new(
            program,
            options,
            Edited {
                real,
                edit: M::EDIT,
            },
            concrete,
        )
    }
}

/// Symbolic choice with the guards `bσ` and `¬bσ` exchanged.
pub struct SwappedChoice;

impl SymbolicMutant for SwappedChoice {
    const EDIT: Edit<symbolic::Config> = broken::SWAPPED_CHOICE;
}

impl RecursiveMutant for SwappedChoice {
    const EDIT: Edit<recursive::symbolic::Config> =
        |_, steps| swap_choice_guards(steps, |c| &mut c.phi);
}

/// Symbolic assignment `σ[x := e]`, forgetting to apply `σ` to `e`.
pub struct AssignmentWithoutSigma;

impl SymbolicMutant for AssignmentWithoutSigma {
    const EDIT: Edit<symbolic::Config> = broken::ASSIGNMENT_WITHOUT_SIGMA;
}

/// Symbolic loop exit without its condition `¬bσ`.
pub struct LoopExitWithoutGuard;

impl SymbolicMutant for LoopExitWithoutGuard {
    const EDIT: Edit<symbolic::Config> = broken::LOOP_EXIT_WITHOUT_GUARD;
}

/// Under `--checked-arrays`, a symbolic system that forgets `δ`: no
/// definedness conditions and no `array-out-of-bound` transitions.
pub struct DroppedDelta;

impl Systems for DroppedDelta {
    type Simulation = Basic;

    fn build(program: Rc<Program>, options: Options) -> Result<Basic, String> {
        let unchecked = symbolic::Symbolic::new(
            program.clone(),
            Options {
                checked_arrays: false,
                ..Options::default()
            },
        )?;
        let concrete = concrete::Concrete::new(program.clone(), options)?;
        Basic::new(program, options, unchecked, concrete)
    }
}

/// Concrete assignment that ignores `V`: `V[x := V₀(e)]` with `V₀` the
/// valuation that maps every variable to its default value.
pub struct ConcreteAssignmentIgnoringV;

impl Systems for ConcreteAssignmentIgnoringV {
    type Simulation = Basic<symbolic::Symbolic, Edited<concrete::Concrete>>;

    fn build(program: Rc<Program>, options: Options) -> Result<Self::Simulation, String> {
        let symbolic = symbolic::Symbolic::new(program.clone(), options)?;
        let real = concrete::Concrete::new(program.clone(), options)?;
        let edit: Edit<concrete::Config> = |c, steps| {
            let Some(Stmt::Assign(x, e)) = c.code.head() else {
                return;
            };
            let defaults: Valuation = c
                .valuation
                .iter()
                .map(|(y, v)| (y.clone(), default_like(v)))
                .collect();
            for step in steps.iter_mut().filter(|s| s.rule == Rule::Assignment) {
                if let Ok(value) = eval(e, &defaults) {
                    step.next.valuation = c.valuation.update(x.clone(), value);
                }
            }
        };
        Basic::new(program, options, symbolic, Edited { real, edit })
    }
}

/// The default value of `v`'s type.
fn default_like(v: &Value) -> Value {
    match v {
        Value::Int(_) => Value::default_of(&Sort::Int),
        Value::Bool(_) => Value::default_of(&Sort::Bool),
        Value::Array(array) => Value::Array(ArrayValue::constant(
            array.len.clone(),
            default_like(&array.default),
        )),
        Value::Nil | Value::Object(_) => Value::Nil,
        Value::Field(array) => Value::Field(array.clone()),
    }
}

/// `eσ` computed one variable at a time, `e[x₁ := σ(x₁)][x₂ := σ(x₂)]…`,
/// instead of simultaneously: wrong as soon as `σ(x₁)` mentions `x₂`.
pub fn sequential_substitution(sigma: &Substitution, e: &Term) -> Term {
    sigma.iter().fold(e.clone(), |term, (x, image)| {
        substitute(&term, |y| (y == x).then(|| image.clone()))
    })
}

/// Symbolic procedure call that evaluates the actual parameters after
/// pushing the callee's closure: `τ'(ū) = ē(id ∪ σ)`, so the caller's local
/// variables leak into the callee's substitution. (The formals are taken in
/// name order, which is declaration order in the generated programs.)
pub struct ActualsAfterPush;

impl RecursiveMutant for ActualsAfterPush {
    const EDIT: Edit<recursive::symbolic::Config> = |c, steps| {
        let Some(Stmt::Call(_, args)) = c.stack.front().and_then(|frame| frame.code.head()) else {
            return;
        };
        for step in steps.iter_mut().filter(|s| s.rule == Rule::ProcedureCall) {
            let Some(callee) = step.next.stack.front().cloned() else {
                continue;
            };
            let formals: Vec<_> = callee.tau.domain().cloned().collect();
            let tau = formals
                .into_iter()
                .zip(args)
                .map(|(u, e)| (u, c.sigma.apply(e)))
                .collect();
            step.next
                .stack
                .set(0, recursive::symbolic::Frame { tau, ..callee });
        }
    };
}

/// Symbolic choice whose guard is `bσ` instead of `b(τ ∪ σ)`: local
/// variables reach the path condition.
pub struct GuardWithoutTau;

impl RecursiveMutant for GuardWithoutTau {
    const EDIT: Edit<recursive::symbolic::Config> = |c, steps| {
        let Some(Stmt::If(b, ..)) = c.stack.front().and_then(|frame| frame.code.head()) else {
            return;
        };
        let b_sigma = c.sigma.apply(b);
        for step in steps.iter_mut() {
            let guard = match step.rule {
                Rule::ChoiceThen => b_sigma.clone(),
                Rule::ChoiceElse => Term::not(b_sigma.clone()),
                _ => continue,
            };
            step.next.phi = Term::and(c.phi.clone(), guard.clone());
            step.guard = guard;
        }
    };
}

/// Symbolic local assignment that updates the caller's closure `τ` instead
/// of the callee's.
pub struct LocalAssignmentInCaller;

impl RecursiveMutant for LocalAssignmentInCaller {
    const EDIT: Edit<recursive::symbolic::Config> = |c, steps| {
        let (Some(top), Some(caller)) = (c.stack.front(), c.stack.get(1)) else {
            return;
        };
        for step in steps.iter_mut().filter(|s| s.rule == Rule::LocalAssignment) {
            let Some(updated) = step.next.stack.front().cloned() else {
                continue;
            };
            let changed = updated
                .tau
                .iter()
                .find(|(u, e)| top.tau.lookup(u) != Some(*e));
            let Some((u, e)) = changed.map(|(u, e)| (u.clone(), e.clone())) else {
                continue;
            };
            step.next.stack.set(
                0,
                recursive::symbolic::Frame {
                    tau: top.tau.clone(),
                    ..updated
                },
            );
            step.next.stack.set(
                1,
                recursive::symbolic::Frame {
                    tau: caller.tau.update(u, e),
                    ..caller.clone()
                },
            );
        }
    };
}

/// Symbolic procedure return that forgets to pop the callee's closure.
pub struct ReturnWithoutPop;

impl RecursiveMutant for ReturnWithoutPop {
    const EDIT: Edit<recursive::symbolic::Config> = |c, steps| {
        for step in steps.iter_mut().filter(|s| s.rule == Rule::ProcedureReturn) {
            step.next.stack = c.stack.clone();
        }
    };
}

/// A mistake in `δ` (both checks, bounds and `nil`), made in the symbolic
/// rules only (the concrete rules decide out-of-bound reads and `nil`
/// dereferences by evaluation, independently of `δ`).
pub trait DeltaMutant {
    /// `δ(e)` with the mistake.
    fn delta(e: &Term) -> Term {
        let mut memo: IdMap<Term> = IdMap::default();
        for node in e.nodes() {
            let d = |t: &Term| memo[&t.id()].clone();
            let defined = match node.kind() {
                TermKind::Binary(BinOp::And, a, b) => {
                    Term::and(d(a), Term::implies(a.clone(), d(b)))
                }
                TermKind::Binary(BinOp::Implies, a, b) => {
                    Term::and(d(a), Term::implies(Self::implication_guard(a), d(b)))
                }
                TermKind::Binary(BinOp::Or, a, b) => {
                    Term::and(d(a), Term::implies(Term::not(a.clone()), d(b)))
                }
                TermKind::Ite(c, a, b) => Term::conjunction([
                    d(c),
                    Term::implies(c.clone(), d(a)),
                    Term::implies(Term::not(c.clone()), d(b)),
                ]),
                TermKind::Select(array, index) => {
                    Term::conjunction([d(array), d(index), Self::bound(array, index)])
                }
                TermKind::Field(object, ..) => Term::and(d(object), Self::dereferenced(object)),
                _ => Term::conjunction(node.children().into_iter().map(d)),
            };
            memo.insert(node.id(), defined);
        }
        memo.remove(&e.id()).unwrap_or_else(|| Term::bool(true))
    }

    /// What guards `δ(e₂)` in `δ(e₁ ==> e₂)`: rightly `e₁`.
    fn implication_guard(e1: &Term) -> Term {
        e1.clone()
    }

    /// `δ(a[i])`'s own condition: rightly `0 ≤ i < len(a)`.
    fn bound(array: &Term, index: &Term) -> Term {
        in_bounds(array, index)
    }

    /// `δ(e.f)`'s own condition: rightly `e ≠ nil`.
    fn dereferenced(object: &Term) -> Term {
        not_nil(object)
    }
}

/// `δ(e₁ ==> e₂)` guarded like a disjunction, by `¬e₁`.
pub struct ImplicationGuardedLikeDisjunction;

impl DeltaMutant for ImplicationGuardedLikeDisjunction {
    fn implication_guard(e1: &Term) -> Term {
        Term::not(e1.clone())
    }
}

/// `δ(a[i])` with an inclusive upper bound, `0 ≤ i ≤ len(a)`.
pub struct InclusiveUpperBound;

impl DeltaMutant for InclusiveUpperBound {
    fn bound(array: &Term, index: &Term) -> Term {
        let Some(a) = base_array(array) else {
            return Term::bool(true);
        };
        Term::and(
            Term::binary(BinOp::Le, Term::int(0), index.clone()),
            Term::binary(BinOp::Le, index.clone(), Term::len(&a)),
        )
    }
}

/// `δ(e.f) = δ(e)`: the field access's own `e ≠ nil` forgotten.
pub struct FieldWithoutNilCheck;

impl DeltaMutant for FieldWithoutNilCheck {
    fn dereferenced(_: &Term) -> Term {
        Term::bool(true)
    }
}

/// §2's symbolic system with `D`'s `δ`: every step's guard has the real
/// `δ(e₁σ) ∧ … ∧ δ(eₙσ)` of the statement replaced by `D`'s.
pub struct WithDelta<D> {
    real: symbolic::Symbolic,
    globals: BTreeMap<Name, Sort>,
    mutant: PhantomData<D>,
}

impl<D: DeltaMutant> WithDelta<D> {
    /// The terms `δ` is taken of for the statement `c` executes (as the rules do).
    fn evaluated(&self, c: &symbolic::Config) -> Vec<Term> {
        match c.code.head() {
            Some(
                Stmt::Assign(_, e)
                | Stmt::Assert(e)
                | Stmt::Assume(e)
                | Stmt::If(e, ..)
                | Stmt::While(_, e, _),
            ) => {
                vec![c.sigma.apply(e)]
            }
            Some(Stmt::ArrayAssign(a, i, e)) => {
                let array = Term::var(
                    a,
                    self.globals.get(a).cloned().unwrap_or_else(Sort::int_array),
                );
                vec![Term::select(array, c.sigma.apply(i)), c.sigma.apply(e)]
            }
            _ => Vec::new(),
        }
    }
}

impl<D: DeltaMutant> TransitionSystem for WithDelta<D> {
    type Config = symbolic::Config;

    fn successors(&self, c: &symbolic::Config) -> Vec<Step<symbolic::Config>> {
        let mut steps = self.real.successors(c);
        let terms = self.evaluated(c);
        let real = checked::defined(
            Options {
                checked_arrays: true,
                ..Options::default()
            },
            &terms,
        );
        let broken = Term::conjunction(terms.iter().map(D::delta));
        if real.is_true() {
            return steps;
        }
        for step in &mut steps {
            step.guard = replace(&step.guard, &real, &broken);
            step.next.phi = Term::and(c.phi.clone(), step.guard.clone());
        }
        steps
    }
}

/// `term` with every occurrence of `from` replaced by `to`.
fn replace(term: &Term, from: &Term, to: &Term) -> Term {
    let mut memo: IdMap<Term> = IdMap::default();
    for node in term.nodes() {
        let rebuilt = if node == *from {
            to.clone()
        } else {
            let children: Vec<Term> = node
                .children()
                .into_iter()
                .map(|child| memo[&child.id()].clone())
                .collect();
            if children.is_empty() {
                node.clone()
            } else {
                node.with_children(&children)
            }
        };
        memo.insert(node.id(), rebuilt);
    }
    memo.remove(&term.id()).unwrap_or_else(|| term.clone())
}

/// Under `--checked-arrays`, §2's systems with the symbolic rules using `D`'s `δ`.
pub struct MutatedDelta<D>(PhantomData<D>);

impl<D: DeltaMutant> Systems for MutatedDelta<D> {
    type Simulation = Basic<WithDelta<D>, concrete::Concrete>;

    fn build(program: Rc<Program>, options: Options) -> Result<Self::Simulation, String> {
        let real = symbolic::Symbolic::new(program.clone(), options)?;
        let symbolic = WithDelta {
            real,
            globals: program.globals.clone(),
            mutant: PhantomData,
        };
        let concrete = concrete::Concrete::new(program.clone(), options)?;
        Basic::new(program, options, symbolic, concrete)
    }
}

/// A checker that compares less than Theorems 3.5 and 3.6 state: only the
/// top closure and the globals, not the closures below nor the stack's length.
pub struct TopClosureOnly<M>(pub M);

impl<M> Simulation for TopClosureOnly<M>
where
    M: Simulation<Concrete: TransitionSystem<Config = recursive::concrete::Config>>,
{
    type Symbolic = M::Symbolic;
    type Concrete = M::Concrete;

    fn symbolic(&self) -> &M::Symbolic {
        self.0.symbolic()
    }

    fn concrete(&self) -> &M::Concrete {
        self.0.concrete()
    }

    fn inputs(&self) -> &BTreeMap<Name, Sort> {
        self.0.inputs()
    }

    fn expressions(&self, c: &SymbolicConfig<M>) -> Vec<Term> {
        self.0.expressions(c)
    }

    fn symbolic_initial(&self) -> SymbolicConfig<M> {
        self.0.symbolic_initial()
    }

    fn concrete_initial(&self, inputs: &Valuation) -> recursive::concrete::Config {
        self.0.concrete_initial(inputs)
    }

    fn substitution(&self, c: &SymbolicConfig<M>) -> Substitution {
        self.0.substitution(c)
    }

    fn instantiate(
        &self,
        c: &SymbolicConfig<M>,
        v: &Valuation,
    ) -> Result<recursive::concrete::Config, String> {
        self.0.instantiate(c, v)
    }

    fn difference(
        &self,
        expected: &recursive::concrete::Config,
        actual: &recursive::concrete::Config,
    ) -> Option<String> {
        let top = |c: &recursive::concrete::Config| recursive::concrete::Config {
            stack: c.stack.take(1),
            globals: c.globals.clone(),
            reads: c.reads,
        };
        self.0.difference(&top(expected), &top(actual))
    }
}

/// Corollary 2.2's checker skipping array assignments (it checks the rest
/// rightly, so only the coverage of its cases can tell).
pub fn soundness_without_array_assignments<M: Simulation>(
    simulation: &M,
    run: &SymbolicRun<SymbolicConfig<M>>,
    v: &Valuation,
) -> Result<Cases, String> {
    let mut checked = Cases::default();
    let mut c = &run.initial;
    for step in &run.steps {
        if step.rule != Rule::ArrayAssignment && soundness_assignment(simulation, c, step, v)? {
            checked.add(step.rule);
        }
        c = &step.next;
    }
    Ok(checked)
}
