//! Theorem 4.5 for the path condition the explorer computes: "⟨V, ρ⟩ →* ε
//! iff V(path(ρ)) = true", with `path(ρ)` built action by action on the
//! persistent trace of `oo::wp` — `path(ρ · a) = path(ρ) ∧ wp_ρ(δ(a))`,
//! `∧ wp_ρ(b)` for a test — as the unfolding builds it, rather than by
//! Definition 4.2's backward substitution.
//!
//! Same traces (in the unfolding's form: the incremental calculus
//! recognises created objects by their fresh names) and configurations as
//! `theorem_4_5_path_condition`, with the same required variety, and two
//! created objects compared with each other in a twentieth of the traces
//! at least (the case `[x := new C]` decides without the heap): created
//! objects compared equal is caught here.

use crate::distribution::{self, Required};
use crate::holds_on;
use crate::mutated::with_core_mutant;
use crate::oo_generators::{Configuration, Trace};
use crate::oo_mutants::{
    caught, condition, condition_without_delta_of_h, condition_without_delta_of_tests, Condition,
};
use crate::theorem_4_5_path_condition::{equivalent, note_aliasing, variety};
use quickcheck::TestResult;
use symex_semantics::mutants::Mutant;
use symex_semantics::oo::action::Action;
use symex_semantics::oo::{fresh, wp};
use symex_semantics::term::{BinOp, Term, TermKind};

fn theorem(condition: Condition, rho: &Trace, v: &Configuration) -> TestResult {
    let mut trace = wp::Trace::new();
    let mut phi = Term::bool(true);
    for action in &rho.0 {
        phi = Term::and(phi, condition(&trace, action));
        trace = trace.then(action.clone());
    }
    equivalent(&rho.0, &phi, &v.0)
}

/// Records a test of `rho` that compares two created objects.
fn note_created_compared(rho: &[Action]) {
    let created = |t: &Term| matches!(t.kind(), TermKind::Var(x, _) if fresh::is_fresh(x));
    let compared = rho.iter().any(|action| {
        matches!(action, Action::Test(b) if matches!(b.kind(),
            TermKind::Binary(BinOp::Eq | BinOp::Ne, x, y) if created(x) && created(y)))
    });
    if compared {
        distribution::record_case("created objects compared");
    }
}

pub fn real(rho: Trace, v: Configuration) -> TestResult {
    note_aliasing(&rho.0, &v.0);
    note_created_compared(&rho.0);
    theorem(condition, &rho, &v)
}

fn without_delta_of_h(rho: Trace, v: Configuration) -> TestResult {
    theorem(condition_without_delta_of_h, &rho, &v)
}

fn without_delta_of_tests(rho: Trace, v: Configuration) -> TestResult {
    theorem(condition_without_delta_of_tests, &rho, &v)
}

pub type Property = fn(Trace, Configuration) -> TestResult;

fn incremental_variety() -> Required {
    variety().and_frequent("created objects compared")
}

#[test]
fn theorem_4_5_holds_incrementally() {
    holds_on(
        "Theorem 4.5 (incremental wp)",
        crate::cases(),
        &incremental_variety(),
        real as Property,
    );
}

#[test]
fn theorem_4_5_incrementally_catches_created_objects_compared_equal() {
    with_core_mutant(Mutant::CreatedObjectsEqual, || {
        caught(
            "Theorem 4.5 (incremental wp) with two created objects equal",
            real as Property,
        )
    });
}

#[test]
fn theorem_4_5_incrementally_catches_a_forgotten_delta_of_h() {
    caught(
        "Theorem 4.5 (incremental wp) with δ(h, e) = δ(e)",
        without_delta_of_h as Property,
    );
}

#[test]
fn theorem_4_5_incrementally_catches_tests_without_delta_as_in_the_paper() {
    caught(
        "Theorem 4.5 (incremental wp) with wp_ρ(b) for a test",
        without_delta_of_tests as Property,
    );
}
