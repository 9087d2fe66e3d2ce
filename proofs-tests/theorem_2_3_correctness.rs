//! Theorem 2.3 (Correctness). "If ⟨S, id, true⟩ →* ⟨S', σ, φ⟩ and
//! V(φ) = true then ⟨S, V⟩ →* ⟨S', V ∘ σ⟩."
//!
//! The symbolic run is random but feasible (Z3 decides every branch taken)
//! and `V` is a model of its path condition; the concrete run from `V` must
//! be in `⟨S', V∘σ⟩` after as many steps, at every step.

use crate::distribution::{Required, BASIC_RULES};
use crate::generators::{BasicProgram, Checked, Inputs, Path};
use crate::mutants::{
    AssignmentWithoutSigma, DroppedDelta, ImplicationGuardedLikeDisjunction, InclusiveUpperBound,
    LoopExitWithoutGuard, Mutated, MutatedDelta, SwappedChoice,
};
use crate::{build, catches, holds, verdict, Generated, Real, Systems, TIMEOUT_MS};
use quickcheck::TestResult;
use symex::theorems::correctness::{check_correctness, feasible_run};

/// The theorem on the feasible run `path` selects from `inputs`.
pub fn correctness<M: Systems, P: Generated, const CHECKED: bool>(
    program: P,
    inputs: Inputs,
    path: Path,
) -> TestResult {
    let simulation = match build::<M>(&program, CHECKED) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    let mut k = 0;
    let feasible = feasible_run(&simulation, inputs.0, path.steps, (TIMEOUT_MS, None), |n| {
        k += 1;
        path.choice(k - 1, n)
    });
    verdict(check_correctness(
        &simulation,
        &feasible.run,
        &feasible.model,
    ))
}

/// §2's rules, from the initial configuration on.
fn required(checked: bool) -> Required {
    Required::rules(&BASIC_RULES).and_initial().checked(checked)
}

type Property = fn(BasicProgram, Inputs, Path) -> TestResult;
type CheckedProperty = fn(Checked<BasicProgram>, Inputs, Path) -> TestResult;

#[test]
fn theorem_2_3_holds() {
    holds(
        "Theorem 2.3",
        &required(false),
        correctness::<Real, _, false> as Property,
    );
}

#[test]
fn theorem_2_3_holds_with_checked_arrays() {
    holds(
        "Theorem 2.3 (checked arrays)",
        &required(true),
        correctness::<Real, _, true> as CheckedProperty,
    );
}

#[test]
fn theorem_2_3_catches_swapped_choice() {
    catches(
        "Theorem 2.3 on swapped choice",
        &required(false),
        correctness::<Mutated<SwappedChoice>, _, false> as Property,
    );
}

#[test]
fn theorem_2_3_catches_loop_exit_without_guard() {
    catches(
        "Theorem 2.3 on loop exit without ¬bσ",
        &required(false),
        correctness::<Mutated<LoopExitWithoutGuard>, _, false> as Property,
    );
}

#[test]
fn theorem_2_3_catches_assignment_without_sigma() {
    catches(
        "Theorem 2.3 on σ[x := e]",
        &required(false),
        correctness::<Mutated<AssignmentWithoutSigma>, _, false> as Property,
    );
}

#[test]
fn theorem_2_3_catches_dropped_delta() {
    catches(
        "Theorem 2.3 on a symbolic system without δ",
        &required(true),
        correctness::<DroppedDelta, _, true> as CheckedProperty,
    );
}

#[test]
fn theorem_2_3_catches_implication_guarded_like_disjunction_in_delta() {
    catches(
        "Theorem 2.3 on δ(e₁ ==> e₂) guarded by ¬e₁",
        &required(true),
        correctness::<MutatedDelta<ImplicationGuardedLikeDisjunction>, _, true> as CheckedProperty,
    );
}

#[test]
fn theorem_2_3_catches_an_inclusive_upper_bound_in_delta() {
    catches(
        "Theorem 2.3 on δ(a[e]) with e ≤ len(a)",
        &required(true),
        correctness::<MutatedDelta<InclusiveUpperBound>, _, true> as CheckedProperty,
    );
}
