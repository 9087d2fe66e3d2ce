//! Lemma 4.3. "For any expression e we have that V(e) ≠ ⊥ iff
//! V(δ(e)) = true."
//!
//! On random expressions of every sort (object expressions through
//! possibly `nil` references, conditionals, `&&` and `||` with SPEC §1.5's
//! lazy evaluation) over random consistent configurations. Fails unless a
//! twentieth of the cases are `⊥`, so both sides of the equivalence are seen.
//! The δ mistakes shared with §2 are caught here for fields: `δ(e₁ ==> e₂)`
//! guarded like a disjunction, and `δ(e.f)` without `e ≠ nil`.

use crate::distribution::{self, Required};
use crate::holds;
use crate::mutants::{DeltaMutant, FieldWithoutNilCheck, ImplicationGuardedLikeDisjunction};
use crate::oo_generators::{Configuration, Expression};
use crate::oo_mutants::{caught, strict_delta};
use quickcheck::TestResult;
use symex_semantics::delta::{delta, Checks};
use symex_semantics::eval::{eval, eval_bool};
use symex_semantics::term::Term;

fn lemma(delta: fn(&Term) -> Term, v: &Configuration, e: &Expression) -> TestResult {
    let undefined = match eval(&e.0, &v.0) {
        Ok(_) => false,
        Err(error) if error.is_nil_dereference() => true,
        Err(error) => return TestResult::error(error.to_string()),
    };
    if undefined {
        distribution::record_case("⊥");
    }
    TestResult::from_bool(undefined != (eval_bool(&delta(&e.0), &v.0) == Ok(true)))
}

fn definition_4_1(e: &Term) -> Term {
    delta(e, Checks::NIL)
}

fn real(v: Configuration, e: Expression) -> TestResult {
    lemma(definition_4_1, &v, &e)
}

fn strict(v: Configuration, e: Expression) -> TestResult {
    lemma(strict_delta, &v, &e)
}

fn implication_guarded_like_disjunction(v: Configuration, e: Expression) -> TestResult {
    lemma(ImplicationGuardedLikeDisjunction::delta, &v, &e)
}

fn field_without_nil_check(v: Configuration, e: Expression) -> TestResult {
    lemma(FieldWithoutNilCheck::delta, &v, &e)
}

type Property = fn(Configuration, Expression) -> TestResult;

#[test]
fn lemma_4_3_holds() {
    holds("Lemma 4.3", &Required::frequent(&["⊥"]), real as Property);
}

#[test]
fn lemma_4_3_catches_a_strict_delta() {
    caught("Lemma 4.3 on δ without lazy operators", strict as Property);
}

#[test]
fn lemma_4_3_catches_implication_guarded_like_disjunction() {
    caught(
        "Lemma 4.3 on δ(e₁ ==> e₂) guarded by ¬e₁",
        implication_guarded_like_disjunction as Property,
    );
}

#[test]
fn lemma_4_3_catches_a_field_access_without_its_nil_check() {
    caught(
        "Lemma 4.3 on δ(e.f) without e ≠ nil",
        field_without_nil_check as Property,
    );
}
