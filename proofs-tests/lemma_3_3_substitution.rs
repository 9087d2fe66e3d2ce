//! Lemma 3.3 (Substitution). "Let V = G ∪ L and θ = σ ∪ τ. Then
//! V ∘ θ(e) = V(eθ) for every expression e."
//!
//! Checked for every `θ` (the top closure's `τ` with `σ`) reached by a
//! random symbolic run of a random recursive program, `e` each expression
//! of the active body and a random one, and a random `V`.

use crate::generators::{Expression, Inputs, Path, RecursiveProgram};
use crate::lemma_2_1_substitution::{lemma, required, simultaneous};
use crate::mutants::sequential_substitution;
use crate::{catches, holds, RealRecursive};
use quickcheck::TestResult;

fn unchecked(program: RecursiveProgram, inputs: Inputs, path: Path, e: Expression) -> TestResult {
    lemma::<RealRecursive, _>(&program, false, &inputs, &path, &e, &simultaneous)
}

fn checked(program: RecursiveProgram, inputs: Inputs, path: Path, e: Expression) -> TestResult {
    lemma::<RealRecursive, _>(&program, true, &inputs, &path, &e, &simultaneous)
}

fn sequential(program: RecursiveProgram, inputs: Inputs, path: Path, e: Expression) -> TestResult {
    lemma::<RealRecursive, _>(
        &program,
        false,
        &inputs,
        &path,
        &e,
        &sequential_substitution,
    )
}

type Property = fn(RecursiveProgram, Inputs, Path, Expression) -> TestResult;

#[test]
fn lemma_3_3_holds() {
    holds("Lemma 3.3", &required(), unchecked as Property);
}

#[test]
fn lemma_3_3_holds_with_checked_arrays() {
    holds(
        "Lemma 3.3 (checked arrays)",
        &required(),
        checked as Property,
    );
}

#[test]
fn lemma_3_3_catches_sequential_substitution() {
    catches(
        "Lemma 3.3 on sequential substitution",
        &required(),
        sequential as Property,
    );
}
