//! Deliberately broken rules of §4, each differing from the paper in one
//! clause: calculi that override one provided method of
//! [`Calculus`](symex_semantics::oo::path::Calculus), a `δ` that ignores
//! SPEC §1.5's lazy operators, and incremental conditions computed wrongly
//! from the persistent trace. Every §4 property is run against at least
//! one of them and must find a counterexample.

use quickcheck::Testable;
use symex_semantics::delta::{delta, not_nil, Checks};
use symex_semantics::oo::action::Action;
use symex_semantics::oo::path::Calculus;
use symex_semantics::oo::wp;
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
        Term::binary(if positive { BinOp::Eq } else { BinOp::Ne }, a.clone(), b.clone())
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
pub fn caught<A: Testable>(name: &str, property: A) {
    crate::catches_on(name, 5 * crate::cases(), &crate::distribution::Required::nothing(), property);
}
