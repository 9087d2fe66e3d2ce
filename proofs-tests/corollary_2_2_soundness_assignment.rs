//! Corollary 2.2 (Soundness assignment). "For V' = V ∘ σ we have that
//! V ∘ (σ[x := eσ]) = V'[x := V'(e)]."
//!
//! Checked at every assignment (and array assignment, `a := (a[e] := e')`)
//! of a random symbolic run of a random program, for a random `V`: the
//! symbolic rule's `σ[x := eσ]` composed with `V` must be the concrete
//! rule's `V'[x := V'(e)]`.

use crate::generators::{BasicProgram, Inputs, Path};
use crate::mutants::{AssignmentWithoutSigma, ConcreteAssignmentIgnoringV, Mutated};
use crate::{build, catches, holds, verdict, Generated, Real, Systems};
use quickcheck::TestResult;
use symex::theorems::soundness_assignment::check_soundness_assignment;

/// The corollary at every assignment of the run `path` selects.
pub fn corollary<M: Systems, P: Generated, const CHECKED: bool>(program: P, inputs: Inputs, path: Path) -> TestResult {
    let simulation = match build::<M>(&program, CHECKED) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    let run = path.run(&simulation);
    verdict(check_soundness_assignment(&simulation, &run, &inputs.0))
}

type Property = fn(BasicProgram, Inputs, Path) -> TestResult;

#[test]
fn corollary_2_2_holds() {
    holds("Corollary 2.2", corollary::<Real, _, false> as Property);
}

#[test]
fn corollary_2_2_holds_with_checked_arrays() {
    holds("Corollary 2.2 (checked arrays)", corollary::<Real, _, true> as Property);
}

#[test]
fn corollary_2_2_catches_assignment_without_sigma() {
    catches("Corollary 2.2 on σ[x := e]", corollary::<Mutated<AssignmentWithoutSigma>, _, false> as Property);
}

#[test]
fn corollary_2_2_catches_concrete_assignment_ignoring_v() {
    catches("Corollary 2.2 on V[x := V₀(e)]", corollary::<ConcreteAssignmentIgnoringV, _, false> as Property);
}
