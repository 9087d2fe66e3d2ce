//! Deliberately broken rules of §4, each differing from the paper in one
//! clause: calculi that override one provided method of
//! [`Calculus`](symex_semantics::oo::path::Calculus), a `δ` that ignores
//! SPEC §1.5's lazy operators, and incremental conditions computed wrongly
//! from the persistent trace. Every §4 property is run against at least
//! one of them and must find a counterexample.

use quickcheck::Testable;
use std::rc::Rc;
use symex_semantics::delta::{delta, not_nil, Checks};
use symex_semantics::eval::Valuation;
use symex_semantics::oo::action::{Action, Location};
use symex_semantics::oo::forward;
use symex_semantics::oo::path::{path_with, Calculus};
use symex_semantics::oo::unfold::PathState;
use symex_semantics::oo::wp;
use symex_semantics::program::Program;
use symex_semantics::system::Options;
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind};

/// `(h'.f)[h.f := e] = h'[h.f := e].f`: the aliasing case dropped (also
/// `symex check --break aliasing`'s).
pub use symex::theorems::broken::WithoutAliasing;

/// `(x.f)[x := new C] = x.f`: a new object's field keeps whatever the
/// variable `x` referred to before, instead of the default value.
pub struct CreatedFieldNotDefault;

impl Calculus for CreatedFieldNotDefault {
    fn created_field(&self, x: &Term, f: &Name, sort: &Sort) -> Term {
        Term::field(x.clone(), f, sort.clone())
    }
}

/// `(x = e)[x := new C] = (x = e)`: a comparison with the new object
/// survives the creation.
pub struct ComparisonSurvivesCreation;

impl Calculus for ComparisonSurvivesCreation {
    fn created_comparison(&self, a: &Term, b: &Term, positive: bool) -> Term {
        Term::binary(
            if positive { BinOp::Eq } else { BinOp::Ne },
            a.clone(),
            b.clone(),
        )
    }
}

/// `δ(h, e) = δ(e)`: the definedness of the assigned heap variable forgotten.
pub struct WithoutDeltaOfH;

impl Calculus for WithoutDeltaOfH {
    fn definedness(&self, action: &Action, checks: Checks) -> Term {
        match action {
            Action::Assign(_, e) => delta(e, checks),
            _ => action.definedness(checks),
        }
    }
}

/// `path(b · ρ) = path(ρ) ∧ b`: Definition 4.2 exactly as the paper writes
/// it, without `δ(b)` — wrong after a later `[x := new C]`.
pub struct TestsWithoutDelta;

impl Calculus for TestsWithoutDelta {
    fn definedness(&self, action: &Action, checks: Checks) -> Term {
        match action {
            Action::Test(_) => Term::bool(true),
            _ => action.definedness(checks),
        }
    }
}

/// `δ` with every operator strict: `e ≠ nil` for every field access `e.f`
/// anywhere in the expression, also in an operand that `&&`, `||` or a
/// conditional does not evaluate.
pub fn strict_delta(e: &Term) -> Term {
    Term::conjunction(e.nodes().iter().filter_map(|node| match node.kind() {
        TermKind::Field(object, ..) => Some(not_nil(object)),
        _ => None,
    }))
}

/// How the explorer extends `path(ρ)` by an action `a`: what it conjoins.
pub type Condition = fn(&wp::Trace, &Action) -> Term;

/// The real extension, `wp_ρ(δ(h, e))` or `wp_ρ(b)`.
pub fn condition(rho: &wp::Trace, action: &Action) -> Term {
    rho.condition(action, Checks::NIL)
}

/// `wp_ρ(δ(e))` for an assignment: `δ(h)` forgotten.
pub fn condition_without_delta_of_h(rho: &wp::Trace, action: &Action) -> Term {
    match action {
        Action::Assign(_, e) => rho.wp(&delta(e, Checks::NIL)),
        _ => rho.condition(action, Checks::NIL),
    }
}

/// `wp_ρ(b)` for a test, as the paper's Definition 4.2 has it: `δ(b)` forgotten.
pub fn condition_without_delta_of_tests(rho: &wp::Trace, action: &Action) -> Term {
    match action {
        Action::Test(b) => rho.wp(b),
        _ => rho.condition(action, Checks::NIL),
    }
}

/// Runs `property` against a mutant of §4 on up to five times
/// `QUICKCHECK_TESTS` cases and fails if it finds no counterexample. A
/// broken clause shows only where a particular pattern of aliasing, `nil`
/// and creation meets it, in one case of a few hundred; the run stops at
/// the first counterexample, so the extra cases cost nothing when it does.
pub fn caught<A: Testable + Copy>(name: &str, property: A) {
    crate::catches_on(
        name,
        5 * crate::cases(),
        &crate::distribution::Required::nothing(),
        property,
    );
}

/// Definition 4.2 under a broken `calculus`, as a path's state: a path
/// conditions its steps on `path(ρ · a)`, recomputed backwards over the
/// whole trace — the wp side of `--method wp` with one clause broken.
pub struct DefinitionWith<C>(pub wp::Trace, pub std::marker::PhantomData<C>);

impl<C> Clone for DefinitionWith<C> {
    fn clone(&self) -> Self {
        DefinitionWith(self.0.clone(), std::marker::PhantomData)
    }
}

impl<C> Default for DefinitionWith<C> {
    fn default() -> Self {
        DefinitionWith(wp::Trace::new(), std::marker::PhantomData)
    }
}

impl<C> std::fmt::Display for DefinitionWith<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl<C: Calculus + Default> PathState for DefinitionWith<C> {
    fn then(&self, action: Action, program: &Program, checks: Checks) -> (Self, Term) {
        let (trace, _) = PathState::then(&self.0, action, program, checks);
        let condition = path_with(&trace.actions(), checks, &C::default());
        (DefinitionWith(trace, std::marker::PhantomData), condition)
    }

    fn global_state(&self, program: &Program) -> Vec<(Name, Term)> {
        self.0.global_state(program)
    }

    fn predicted_state(
        &self,
        inputs: &Valuation,
        program: &Rc<Program>,
        options: Options,
    ) -> Result<Valuation, String> {
        self.0.predicted_state(inputs, program, options)
    }

    fn actions_since(&self, earlier: &Self) -> Option<Vec<Action>> {
        self.0.actions_since(&earlier.0)
    }

    fn trace(&self) -> Option<Vec<Action>> {
        self.0.trace()
    }

    fn after(&self, e: &Term) -> Term {
        self.0.after(e)
    }
}

/// Forward execution whose field assignment leaves σ unchanged: `e.f := e'`
/// checks `δ(e.f, e')` and forgets the write (§4.1's array update dropped).
#[derive(Clone, Default)]
pub struct ForgetsFieldWrites(pub forward::State);

impl std::fmt::Display for ForgetsFieldWrites {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl PathState for ForgetsFieldWrites {
    fn then(&self, action: Action, program: &Program, checks: Checks) -> (Self, Term) {
        let write = matches!(action, Action::Assign(Location::Field(..), _));
        let (next, condition) = self.0.then(action, program, checks);
        (
            if write {
                self.clone()
            } else {
                ForgetsFieldWrites(next)
            },
            condition,
        )
    }

    fn global_state(&self, program: &Program) -> Vec<(Name, Term)> {
        self.0.global_state(program)
    }

    fn predicted_state(
        &self,
        inputs: &Valuation,
        program: &Rc<Program>,
        options: Options,
    ) -> Result<Valuation, String> {
        self.0.predicted_state(inputs, program, options)
    }

    fn actions_since(&self, earlier: &Self) -> Option<Vec<Action>> {
        self.0.actions_since(&earlier.0)
    }

    fn trace(&self) -> Option<Vec<Action>> {
        self.0.trace()
    }

    fn after(&self, e: &Term) -> Term {
        self.0.after(e)
    }
}
