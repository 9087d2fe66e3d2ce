//! Theorem 2.4 (Completeness). "For any concrete computation
//! ⟨S, V₀⟩ →* ⟨S', V⟩ there exists a symbolic computation
//! ⟨S, id, true⟩ →* ⟨S', σ, φ⟩ for some path condition φ and a
//! substitution σ such that V₀(φ) = true and V = V₀ ∘ σ."
//!
//! The symbolic computation is the one the concrete run from a random `V₀`
//! selects, rule by rule; the invariant is checked after every step. A run
//! that ends `assumption-violated` has no symbolic counterpart for that
//! last step (symbolically `assume e` only conjoins `e`), which is exempt.

use crate::distribution::{Required, BASIC_RULES};
use crate::generators::{BasicProgram, Checked, Inputs};
use crate::mutants::{
    AssignmentWithoutSigma, ConcreteAssignmentIgnoringV, DroppedDelta,
    ImplicationGuardedLikeDisjunction, InclusiveUpperBound, Mutated, MutatedDelta, SwappedChoice,
};
use crate::{build, catches, holds, verdict, Generated, Real, Systems};
use quickcheck::TestResult;
use symex::theorems::completeness::check_completeness;

/// The longest concrete run followed (loops and recursion need not end).
const MAX_STEPS: usize = 100;

/// The theorem along the concrete run from `inputs`.
pub fn completeness<M: Systems, P: Generated, const CHECKED: bool>(
    program: P,
    inputs: Inputs,
) -> TestResult {
    let simulation = match build::<M>(&program, CHECKED) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    verdict(check_completeness(&simulation, &inputs.0, MAX_STEPS))
}

/// §2's rules (see [`Required::completeness`]).
fn required(checked: bool) -> Required {
    Required::completeness(&BASIC_RULES, checked)
}

type Property = fn(BasicProgram, Inputs) -> TestResult;
type CheckedProperty = fn(Checked<BasicProgram>, Inputs) -> TestResult;

#[test]
fn theorem_2_4_holds() {
    holds(
        "Theorem 2.4",
        &required(false),
        completeness::<Real, _, false> as Property,
    );
}

#[test]
fn theorem_2_4_holds_with_checked_arrays() {
    holds(
        "Theorem 2.4 (checked arrays)",
        &required(true),
        completeness::<Real, _, true> as CheckedProperty,
    );
}

#[test]
fn theorem_2_4_catches_swapped_choice() {
    catches(
        "Theorem 2.4 on swapped choice",
        &required(false),
        completeness::<Mutated<SwappedChoice>, _, false> as Property,
    );
}

#[test]
fn theorem_2_4_catches_assignment_without_sigma() {
    catches(
        "Theorem 2.4 on σ[x := e]",
        &required(false),
        completeness::<Mutated<AssignmentWithoutSigma>, _, false> as Property,
    );
}

#[test]
fn theorem_2_4_catches_concrete_assignment_ignoring_v() {
    catches(
        "Theorem 2.4 on V[x := V₀(e)]",
        &required(false),
        completeness::<ConcreteAssignmentIgnoringV, _, false> as Property,
    );
}

#[test]
fn theorem_2_4_catches_dropped_delta() {
    catches(
        "Theorem 2.4 on a symbolic system without δ",
        &required(true),
        completeness::<DroppedDelta, _, true> as CheckedProperty,
    );
}

#[test]
fn theorem_2_4_catches_implication_guarded_like_disjunction_in_delta() {
    catches(
        "Theorem 2.4 on δ(e₁ ==> e₂) guarded by ¬e₁",
        &required(true),
        completeness::<MutatedDelta<ImplicationGuardedLikeDisjunction>, _, true> as CheckedProperty,
    );
}

#[test]
fn theorem_2_4_catches_an_inclusive_upper_bound_in_delta() {
    catches(
        "Theorem 2.4 on δ(a[e]) with e ≤ len(a)",
        &required(true),
        completeness::<MutatedDelta<InclusiveUpperBound>, _, true> as CheckedProperty,
    );
}
