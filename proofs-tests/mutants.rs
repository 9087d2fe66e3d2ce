//! Deliberately broken rules, each a transition system that delegates to the
//! real one except for one rule. Every property has a test that runs it
//! against a mutant and expects a counterexample.

use crate::Systems;
use std::rc::Rc;
use symex::theorems::Basic;
use symex_semantics::basic::{concrete, symbolic};
use symex_semantics::eval::{eval, Valuation};
use symex_semantics::program::{Program, Stmt};
use symex_semantics::subst::{substitute, Substitution};
use symex_semantics::system::{Options, Rule, Step, TransitionSystem};
use symex_semantics::term::Term;
use symex_semantics::value::Value;

type SymbolicSteps = Vec<Step<symbolic::Config>>;

/// A symbolic system whose steps are the real ones, edited by `edit`.
pub struct EditedSymbolic {
    real: symbolic::Symbolic,
    edit: fn(&symbolic::Config, &mut SymbolicSteps),
}

impl TransitionSystem for EditedSymbolic {
    type Config = symbolic::Config;

    fn successors(&self, c: &symbolic::Config) -> SymbolicSteps {
        let mut steps = self.real.successors(c);
        (self.edit)(c, &mut steps);
        steps
    }
}

/// A concrete system whose steps are the real ones, edited by `edit`.
pub struct EditedConcrete {
    real: concrete::Concrete,
    edit: fn(&concrete::Config, &mut Vec<Step<concrete::Config>>),
}

impl TransitionSystem for EditedConcrete {
    type Config = concrete::Config;

    fn successors(&self, c: &concrete::Config) -> Vec<Step<concrete::Config>> {
        let mut steps = self.real.successors(c);
        (self.edit)(c, &mut steps);
        steps
    }
}

/// A mutant of the symbolic system: the real one with `EDIT` applied.
pub trait SymbolicMutant {
    const EDIT: fn(&symbolic::Config, &mut SymbolicSteps);
}

/// The systems with the symbolic mutant `M`.
pub struct Mutated<M>(std::marker::PhantomData<M>);

impl<M: SymbolicMutant> Systems for Mutated<M> {
    type Symbolic = EditedSymbolic;
    type Concrete = concrete::Concrete;

    fn build(program: Rc<Program>, options: Options) -> Result<Basic<EditedSymbolic, concrete::Concrete>, String> {
        let real = symbolic::Symbolic::new(program.clone(), options)?;
        let concrete = concrete::Concrete::new(program.clone(), options)?;
        Basic::new(program, options, EditedSymbolic { real, edit: M::EDIT }, concrete)
    }
}

/// Symbolic choice with the guards `bσ` and `¬bσ` exchanged.
pub struct SwappedChoice;

impl SymbolicMutant for SwappedChoice {
    const EDIT: fn(&symbolic::Config, &mut SymbolicSteps) = |_, steps| {
        let then = steps.iter().position(|s| s.rule == Rule::ChoiceThen);
        let otherwise = steps.iter().position(|s| s.rule == Rule::ChoiceElse);
        if let (Some(t), Some(e)) = (then, otherwise) {
            let (guard, phi) = (steps[t].guard.clone(), steps[t].next.phi.clone());
            steps[t].guard = steps[e].guard.clone();
            steps[t].next.phi = steps[e].next.phi.clone();
            steps[e].guard = guard;
            steps[e].next.phi = phi;
        }
    };
}

/// Symbolic assignment `σ[x := e]`, forgetting to apply `σ` to `e`.
pub struct AssignmentWithoutSigma;

impl SymbolicMutant for AssignmentWithoutSigma {
    const EDIT: fn(&symbolic::Config, &mut SymbolicSteps) = |c, steps| {
        if let Some(Stmt::Assign(x, e)) = c.code.head() {
            for step in steps.iter_mut().filter(|s| s.rule == Rule::Assignment) {
                step.next.sigma = c.sigma.update(x.clone(), e.clone());
            }
        }
    };
}

/// Symbolic loop exit without its condition `¬bσ`.
pub struct LoopExitWithoutGuard;

impl SymbolicMutant for LoopExitWithoutGuard {
    const EDIT: fn(&symbolic::Config, &mut SymbolicSteps) = |c, steps| {
        for step in steps.iter_mut().filter(|s| s.rule == Rule::IterationExit) {
            step.guard = Term::bool(true);
            step.next.phi = c.phi.clone();
        }
    };
}

/// Under `--checked-arrays`, a symbolic system that forgets `δ`: no
/// definedness conditions and no `array-out-of-bound` transitions.
pub struct DroppedDelta;

impl Systems for DroppedDelta {
    type Symbolic = symbolic::Symbolic;
    type Concrete = concrete::Concrete;

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
    type Symbolic = symbolic::Symbolic;
    type Concrete = EditedConcrete;

    fn build(program: Rc<Program>, options: Options) -> Result<Basic<symbolic::Symbolic, EditedConcrete>, String> {
        let symbolic = symbolic::Symbolic::new(program.clone(), options)?;
        let real = concrete::Concrete::new(program.clone(), options)?;
        let edit: fn(&concrete::Config, &mut Vec<Step<concrete::Config>>) = |c, steps| {
            let Some(Stmt::Assign(x, e)) = c.code.head() else { return };
            let defaults: Valuation =
                c.valuation.iter().filter_map(|(y, v)| Some((y.clone(), default_like(v)?))).collect();
            for step in steps.iter_mut().filter(|s| s.rule == Rule::Assignment) {
                if let Ok(value) = eval(e, &defaults) {
                    step.next.valuation = c.valuation.update(x.clone(), value);
                }
            }
        };
        Basic::new(program, options, symbolic, EditedConcrete { real, edit })
    }
}

/// The default value of `v`'s type.
fn default_like(v: &Value) -> Option<Value> {
    match v {
        Value::Int(_) => Value::default_of(&symex_semantics::term::Sort::Int),
        Value::Bool(_) => Value::default_of(&symex_semantics::term::Sort::Bool),
        Value::Array(array) => Some(Value::Array(symex_semantics::value::ArrayValue::constant(
            array.len.clone(),
            default_like(&array.default)?,
        ))),
    }
}

/// `eσ` computed one variable at a time, `e[x₁ := σ(x₁)][x₂ := σ(x₂)]…`,
/// instead of simultaneously: wrong as soon as `σ(x₁)` mentions `x₂`.
pub fn sequential_substitution(sigma: &Substitution, e: &Term) -> Term {
    sigma.iter().fold(e.clone(), |term, (x, image)| substitute(&term, |y| (y == x).then(|| image.clone())))
}
