//! Corollary 2.2 (Soundness assignment). "For V' = V ∘ σ we have that
//! V ∘ (σ[x := eσ]) = V'[x := V'(e)]."
//!
//! Checked at every assignment (and array assignment, `a := (a[e] := e')`)
//! of a random symbolic run of a random program, for a random `V`: the
//! symbolic rule's `σ[x := eσ]` composed with `V` must be the concrete
//! rule's `V'[x := V'(e)]`.

use crate::distribution::Required;
use crate::generators::{BasicProgram, Checked, Inputs, Path};
use crate::mutants::{
    soundness_without_array_assignments, AssignmentWithoutSigma, ConcreteAssignmentIgnoringV,
    Mutated,
};
use crate::{build, catches, finds_uncovered, holds, verdict, Generated, Real, Systems};
use quickcheck::TestResult;
use symex::theorems::run::SymbolicRun;
use symex::theorems::simulation::SymbolicConfig;
use symex::theorems::soundness_assignment::check_soundness_assignment;
use symex::theorems::Cases;
use symex_semantics::eval::Valuation;
use symex_semantics::system::Rule;

/// A checker of the corollary: the real one, or a weakened one.
type Checker<M> = fn(&M, &SymbolicRun<SymbolicConfig<M>>, &Valuation) -> Result<Cases, String>;

/// The corollary at every assignment of the run `path` selects.
pub fn corollary<M: Systems, P: Generated, const CHECKED: bool>(
    program: P,
    inputs: Inputs,
    path: Path,
) -> TestResult {
    corollary_with::<M, P, CHECKED>(check_soundness_assignment, program, inputs, path)
}

fn corollary_with<M: Systems, P: Generated, const CHECKED: bool>(
    check: Checker<M::Simulation>,
    program: P,
    inputs: Inputs,
    path: Path,
) -> TestResult {
    let simulation = match build::<M>(&program, CHECKED) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    let run = path.run(&simulation);
    verdict(check(&simulation, &run, &inputs.0))
}

type Property = fn(BasicProgram, Inputs, Path) -> TestResult;
type CheckedProperty = fn(Checked<BasicProgram>, Inputs, Path) -> TestResult;

/// §2's assignments: to a variable and to an array element.
fn required() -> Required {
    Required::rules(&[Rule::Assignment, Rule::ArrayAssignment])
}

#[test]
fn corollary_2_2_holds() {
    holds(
        "Corollary 2.2",
        &required(),
        corollary::<Real, _, false> as Property,
    );
}

#[test]
fn corollary_2_2_holds_with_checked_arrays() {
    holds(
        "Corollary 2.2 (checked arrays)",
        &required(),
        corollary::<Real, _, true> as CheckedProperty,
    );
}

#[test]
fn corollary_2_2_catches_assignment_without_sigma() {
    catches(
        "Corollary 2.2 on σ[x := e]",
        &required(),
        corollary::<Mutated<AssignmentWithoutSigma>, _, false> as Property,
    );
}

#[test]
fn corollary_2_2_catches_concrete_assignment_ignoring_v() {
    catches(
        "Corollary 2.2 on V[x := V₀(e)]",
        &required(),
        corollary::<ConcreteAssignmentIgnoringV, _, false> as Property,
    );
}

#[test]
fn corollary_2_2_catches_a_checker_skipping_array_assignments() {
    let property: Property = |p, i, path| {
        corollary_with::<Real, _, false>(soundness_without_array_assignments, p, i, path)
    };
    finds_uncovered(
        "Corollary 2.2's checker without array assignments",
        &required(),
        property,
    );
}
