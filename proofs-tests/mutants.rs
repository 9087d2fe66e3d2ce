//! Deliberately broken rules, each a transition system that delegates to the
//! real one except for one rule. Every property has a test that runs it
//! against a mutant and expects a counterexample.

use crate::Systems;
use std::marker::PhantomData;
use std::rc::Rc;
use symex::theorems::broken::{self, swap_choice_guards, Edit, Edited};
use symex::theorems::{Basic, Recursive};
use symex_semantics::eval::{eval, Valuation};
use symex_semantics::program::{Program, Stmt};
use symex_semantics::recursive;
use symex_semantics::subst::{substitute, Substitution};
use symex_semantics::system::{Options, Rule, Step, TransitionSystem};
use symex_semantics::term::{Sort, Term};
use symex_semantics::value::{ArrayValue, Value};
use symex_semantics::basic::{concrete, symbolic};

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
        Basic::new(program, options, Edited { real, edit: M::EDIT }, concrete)
    }
}

/// §3's systems with the symbolic mutant `M`.
pub struct MutatedRecursive<M>(PhantomData<M>);

impl<M: RecursiveMutant> Systems for MutatedRecursive<M> {
    type Simulation = Recursive<Edited<recursive::symbolic::Symbolic>, recursive::concrete::Concrete>;

    fn build(program: Rc<Program>, options: Options) -> Result<Self::Simulation, String> {
        let real = recursive::symbolic::Symbolic::new(program.clone(), options)?;
        let concrete = recursive::concrete::Concrete::new(program.clone(), options)?;
        Recursive::new(program, options, Edited { real, edit: M::EDIT }, concrete)
    }
}

/// Symbolic choice with the guards `bσ` and `¬bσ` exchanged.
pub struct SwappedChoice;

impl SymbolicMutant for SwappedChoice {
    const EDIT: Edit<symbolic::Config> = broken::SWAPPED_CHOICE;
}

impl RecursiveMutant for SwappedChoice {
    const EDIT: Edit<recursive::symbolic::Config> = |_, steps| swap_choice_guards(steps, |c| &mut c.phi);
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
        let unchecked = symbolic::Symbolic::new(program.clone(), Options { checked_arrays: false })?;
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
            let Some(Stmt::Assign(x, e)) = c.code.head() else { return };
            let defaults: Valuation =
                c.valuation.iter().map(|(y, v)| (y.clone(), default_like(v))).collect();
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
        Value::Array(array) => Value::Array(ArrayValue::constant(array.len.clone(), default_like(&array.default))),
        Value::Nil | Value::Object(_) => Value::Nil,
    }
}

/// `eσ` computed one variable at a time, `e[x₁ := σ(x₁)][x₂ := σ(x₂)]…`,
/// instead of simultaneously: wrong as soon as `σ(x₁)` mentions `x₂`.
pub fn sequential_substitution(sigma: &Substitution, e: &Term) -> Term {
    sigma.iter().fold(e.clone(), |term, (x, image)| substitute(&term, |y| (y == x).then(|| image.clone())))
}

/// Symbolic procedure call that evaluates the actual parameters after
/// pushing the callee's closure: `τ'(ū) = ē(id ∪ σ)`, so the caller's local
/// variables leak into the callee's substitution. (The formals are taken in
/// name order, which is declaration order in the generated programs.)
pub struct ActualsAfterPush;

impl RecursiveMutant for ActualsAfterPush {
    const EDIT: Edit<recursive::symbolic::Config> = |c, steps| {
        let Some(Stmt::Call(_, args)) = c.stack.front().and_then(|frame| frame.code.head()) else { return };
        for step in steps.iter_mut().filter(|s| s.rule == Rule::ProcedureCall) {
            let Some(callee) = step.next.stack.front().cloned() else { continue };
            let formals: Vec<_> = callee.tau.domain().cloned().collect();
            let tau = formals.into_iter().zip(args).map(|(u, e)| (u, c.sigma.apply(e))).collect();
            step.next.stack.set(0, recursive::symbolic::Frame { tau, ..callee });
        }
    };
}

/// Symbolic choice whose guard is `bσ` instead of `b(τ ∪ σ)`: local
/// variables reach the path condition.
pub struct GuardWithoutTau;

impl RecursiveMutant for GuardWithoutTau {
    const EDIT: Edit<recursive::symbolic::Config> = |c, steps| {
        let Some(Stmt::If(b, ..)) = c.stack.front().and_then(|frame| frame.code.head()) else { return };
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
        let (Some(top), Some(caller)) = (c.stack.front(), c.stack.get(1)) else { return };
        for step in steps.iter_mut().filter(|s| s.rule == Rule::LocalAssignment) {
            let Some(updated) = step.next.stack.front().cloned() else { continue };
            let changed = updated.tau.iter().find(|(u, e)| top.tau.lookup(u) != Some(*e));
            let Some((u, e)) = changed.map(|(u, e)| (u.clone(), e.clone())) else { continue };
            step.next.stack.set(0, recursive::symbolic::Frame { tau: top.tau.clone(), ..updated });
            step.next.stack.set(1, recursive::symbolic::Frame { tau: caller.tau.update(u, e), ..caller.clone() });
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
