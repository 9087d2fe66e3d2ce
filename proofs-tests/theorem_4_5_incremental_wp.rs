//! Theorem 4.5 for the path condition the explorer computes: "⟨V, ρ⟩ →* ε
//! iff V(path(ρ)) = true", with `path(ρ)` built action by action on the
//! persistent trace of `oo::wp` — `path(ρ · a) = path(ρ) ∧ wp_ρ(δ(a))`,
//! `∧ wp_ρ(b)` for a test — as the unfolding builds it, rather than by
//! Definition 4.2's backward substitution.
//!
//! Same traces (in the unfolding's form: the incremental calculus
//! recognises created objects by their fresh names) and configurations as
//! `theorem_4_5_path_condition`, with the same required variety.

use crate::holds;
use crate::oo_generators::{Configuration, Trace};
use crate::oo_mutants::{
    caught, condition, condition_without_delta_of_h, condition_without_delta_of_tests, Condition,
};
use crate::theorem_4_5_path_condition::{equivalent, note_aliasing, variety};
use quickcheck::TestResult;
use symex_semantics::oo::wp;
use symex_semantics::term::Term;

fn theorem(condition: Condition, rho: &Trace, v: &Configuration) -> TestResult {
    let mut trace = wp::Trace::new();
    let mut phi = Term::bool(true);
    for action in &rho.0 {
        phi = Term::and(phi, condition(&trace, action));
        trace = trace.then(action.clone());
    }
    equivalent(&rho.0, &phi, &v.0)
}

pub fn real(rho: Trace, v: Configuration) -> TestResult {
    note_aliasing(&rho.0, &v.0);
    theorem(condition, &rho, &v)
}

fn without_delta_of_h(rho: Trace, v: Configuration) -> TestResult {
    theorem(condition_without_delta_of_h, &rho, &v)
}

fn without_delta_of_tests(rho: Trace, v: Configuration) -> TestResult {
    theorem(condition_without_delta_of_tests, &rho, &v)
}

pub type Property = fn(Trace, Configuration) -> TestResult;

#[test]
fn theorem_4_5_holds_incrementally() {
    holds("Theorem 4.5 (incremental wp)", &variety(), real as Property);
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
