//! Corollary 2.2 (Soundness assignment). "For V' = V ∘ σ we have that
//! V ∘ (σ[x := eσ]) = V'[x := V'(e)]."
//!
//! Checked at every assignment (and array assignment, `a := (a[e] := e')`)
//! of a random symbolic run of a random program, for a random `V`: the
//! symbolic rule's `σ[x := eσ]` composed with `V` must be the concrete
//! rule's `V'[x := V'(e)]`.

use crate::generators::{BasicProgram, Inputs, Path};
use crate::mutants::{AssignmentWithoutSigma, ConcreteAssignmentIgnoringV, Mutated};
use crate::{catches, holds, options, Real, Systems};
use quickcheck::TestResult;
use symex::theorems::soundness_assignment::check_soundness_assignment;

fn corollary<M: Systems, const CHECKED: bool>(program: BasicProgram, inputs: Inputs, path: Path) -> TestResult {
    let simulation = match M::build(program.0, options(CHECKED)) {
        Ok(simulation) => simulation,
        Err(why) => return TestResult::error(why),
    };
    let run = path.run(&simulation);
    match check_soundness_assignment(&simulation, &run, &inputs.0) {
        Ok(_) => TestResult::passed(),
        Err(why) => TestResult::error(why),
    }
}

type Property = fn(BasicProgram, Inputs, Path) -> TestResult;

#[test]
fn corollary_2_2_holds() {
    holds("Corollary 2.2", corollary::<Real, false> as Property);
}

#[test]
fn corollary_2_2_holds_with_checked_arrays() {
    holds("Corollary 2.2 (checked arrays)", corollary::<Real, true> as Property);
}

#[test]
fn corollary_2_2_catches_assignment_without_sigma() {
    catches("Corollary 2.2 on σ[x := e]", corollary::<Mutated<AssignmentWithoutSigma>, false> as Property);
}

#[test]
fn corollary_2_2_catches_concrete_assignment_ignoring_v() {
    catches("Corollary 2.2 on V[x := V₀(e)]", corollary::<ConcreteAssignmentIgnoringV, false> as Property);
}
