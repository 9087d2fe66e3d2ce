//! Deliberately broken rules (mutants): a transition system that delegates
//! to the real one except for one rule. The property tests run every
//! theorem against them and expect a counterexample; `symex check --break
//! RULE` does the same on one program, so a student can watch a theorem fail
//! without writing Rust. §4 has two: the calculus without the aliasing case
//! of `[h.f := e]`, and the paper's literal `this` rule (SPEC §1.6).

use super::check::{check, Bounds, CheckReport, BASIC_RESULTS};
use super::objects::check_objects;
use super::Basic;
use std::rc::Rc;
use symex_semantics::basic::{concrete, symbolic};
use symex_semantics::eval::EvalError;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::oo::path::{Calculus, Reference};
use symex_semantics::oo::unfold::{self, Unfold};
use symex_semantics::program::{Language, Program, Stmt};
use symex_semantics::system::{Options, Rule, Step, TransitionSystem};
use symex_semantics::term::{Name, Sort, Term};

/// An edit of the steps a system takes from a configuration.
pub type Edit<C> = fn(&C, &mut Vec<Step<C>>);

/// No edit: the real system's steps as they are.
pub fn unchanged<C>(_: &C, _: &mut Vec<Step<C>>) {}

/// The real system `T` with its steps edited.
pub struct Edited<T: TransitionSystem> {
    pub real: T,
    pub edit: Edit<T::Config>,
}

impl<T: TransitionSystem> TransitionSystem for Edited<T> {
    type Config = T::Config;

    fn successors(&self, c: &T::Config) -> Vec<Step<T::Config>> {
        let mut steps = self.real.successors(c);
        (self.edit)(c, &mut steps);
        steps
    }

    /// The real system's fallible steps, edited (the explorer asks for these).
    fn try_successors(&self, c: &T::Config) -> Result<Vec<Step<T::Config>>, EvalError> {
        let mut steps = self.real.try_successors(c)?;
        (self.edit)(c, &mut steps);
        Ok(steps)
    }
}

/// Exchanges the guards (and so the path conditions) of the steps by
/// `ChoiceThen` and `ChoiceElse`.
pub fn swap_choice_guards<C>(steps: &mut [Step<C>], phi: impl Fn(&mut C) -> &mut Term) {
    let then = steps.iter().position(|s| s.rule == Rule::ChoiceThen);
    let otherwise = steps.iter().position(|s| s.rule == Rule::ChoiceElse);
    if let (Some(t), Some(e)) = (then, otherwise) {
        let (guard, condition) = (steps[t].guard.clone(), phi(&mut steps[t].next).clone());
        steps[t].guard = steps[e].guard.clone();
        *phi(&mut steps[t].next) = phi(&mut steps[e].next).clone();
        steps[e].guard = guard;
        *phi(&mut steps[e].next) = condition;
    }
}

/// Symbolic choice with the guards `bσ` and `¬bσ` exchanged.
pub const SWAPPED_CHOICE: Edit<symbolic::Config> =
    |_, steps| swap_choice_guards(steps, |c| &mut c.phi);

/// Symbolic assignment `σ[x := e]`, forgetting to apply `σ` to `e`.
pub const ASSIGNMENT_WITHOUT_SIGMA: Edit<symbolic::Config> = |c, steps| {
    if let Some(Stmt::Assign(x, e)) = c.code.head() {
        for step in steps.iter_mut().filter(|s| s.rule == Rule::Assignment) {
            step.next.sigma = c.sigma.update(x.clone(), e.clone());
        }
    }
};

/// Symbolic loop exit without its condition `¬bσ`.
pub const LOOP_EXIT_WITHOUT_GUARD: Edit<symbolic::Config> = |c, steps| {
    for step in steps.iter_mut().filter(|s| s.rule == Rule::IterationExit) {
        step.guard = Term::bool(true);
        step.next.phi = c.phi.clone();
    }
};

/// The paper's results for a basic `program` whose symbolic system has one
/// rule broken by `edit` (the concrete system stays the real one).
pub fn check_broken(
    program: Rc<Program>,
    edit: Edit<symbolic::Config>,
    options: Options,
    runs: u64,
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> Result<CheckReport, String> {
    if program.language != Language::Basic {
        return Err(format!(
            "--break breaks a rule of §2's symbolic system; this is a {} program",
            program.language
        ));
    }
    let real = symbolic::Symbolic::new(program.clone(), options)?;
    let concrete = concrete::Concrete::new(program.clone(), options)?;
    let simulation = Basic::new(program, options, Edited { real, edit }, concrete)?;
    Ok(check(
        &simulation,
        "basic",
        BASIC_RESULTS,
        options.checked_arrays,
        runs,
        seed,
        Bounds {
            deadline,
            ..Bounds::default()
        },
    ))
}

/// `(h'.f)[h.f := e] = h'[h.f := e].f`: the aliasing case of `[h.f := e]` dropped.
#[derive(Default)]
pub struct WithoutAliasing;

impl Calculus for WithoutAliasing {
    fn same_field(&self, object: &Term, _h: &Term, f: &Name, sort: &Sort, _e: &Term) -> Term {
        Term::field(object.clone(), f, sort.clone())
    }
}

/// The unfolding's path conditions `path(ρ')` by [`WithoutAliasing`], in
/// place of the incremental ones.
pub const PATH_WITHOUT_ALIASING: Edit<unfold::Config> = |_, steps| {
    for step in steps.iter_mut() {
        step.next.phi = WithoutAliasing.path(&step.next.state.actions(), step.next.checks());
    }
};

/// A broken rule of §4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OoMutant {
    /// [`WithoutAliasing`] for Definition 4.2 and the unfolding's path conditions.
    WithoutAliasing,
    /// The paper's literal `this` rule: `e₀` itself for `this` in the body.
    LiteralThis,
}

impl OoMutant {
    /// The `this` rule the broken unfolding runs with, if the mutant sets one.
    pub fn this(self) -> Option<ThisRule> {
        match self {
            OoMutant::WithoutAliasing => None,
            OoMutant::LiteralThis => Some(ThisRule::Literal),
        }
    }

    /// The calculus Definition 4.2 is computed by.
    pub fn calculus(self) -> &'static dyn Calculus {
        match self {
            OoMutant::WithoutAliasing => &WithoutAliasing,
            OoMutant::LiteralThis => &Reference,
        }
    }

    /// The edit of the unfolding's steps.
    pub fn edit(self) -> Edit<unfold::Config> {
        match self {
            OoMutant::WithoutAliasing => PATH_WITHOUT_ALIASING,
            OoMutant::LiteralThis => unchanged,
        }
    }
}

/// §4's results for an oo `program` with one rule broken.
pub fn check_broken_oo(
    program: Rc<Program>,
    mutant: OoMutant,
    options: Options,
    runs: u64,
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> Result<CheckReport, String> {
    if program.language != Language::Oo {
        return Err(format!(
            "--break aliasing and --break literal-this break rules of §4; this is a {} program",
            program.language
        ));
    }
    let bounds = Bounds {
        deadline,
        ..Bounds::default()
    };
    let broken = Edited {
        real: Unfold::new(
            program.clone(),
            options,
            mutant.this().unwrap_or(ThisRule::Fresh),
        ),
        edit: mutant.edit(),
    };
    Ok(check_objects(
        program,
        &broken,
        mutant.calculus(),
        options,
        runs,
        seed,
        bounds,
    ))
}
