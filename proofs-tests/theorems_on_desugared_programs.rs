//! Theorems 3.5 (correctness) and 3.6 (completeness) on programs written in
//! the surface language (issue 34): random programs with a function that
//! returns from inside loops, locals, `for`, `break`, `continue`, calls in
//! expressions and `nondet()` ([`crate::surface_agrees_with_desugared`]),
//! desugared into §3's core, keep both theorems — the desugaring writes
//! nothing the paper's semantics does not cover. The rules its programs
//! exercise must all be reached, and the mutants of §3's rules that the
//! theorems catch on the core generators are caught here too.

use crate::distribution::{Required, RECURSIVE_RULES};
use crate::generators::{Inputs, Path};
use crate::mutants::{MutatedRecursive, ReturnWithoutPop};
use crate::surface_agrees_with_desugared::{valuation, Desugared, SurfaceInputs};
use crate::theorem_2_3_correctness::correctness;
use crate::theorem_2_4_completeness::completeness;
use crate::{catches, holds, RealRecursive, Systems};
use quickcheck::TestResult;
use symex_semantics::system::Rule;

/// The rules a desugared program runs through: §3's, but `skip`, array
/// writes and `assume`, which the generator writes none of and the
/// desugaring adds none of.
fn surface_rules() -> Vec<Rule> {
    RECURSIVE_RULES
        .into_iter()
        .filter(|rule| !matches!(rule, Rule::Skip | Rule::ArrayAssignment | Rule::Assume))
        .collect()
}

/// The program's own inputs: `x`, `y`, `z`, the drawn values, defaults.
fn inputs(program: &Desugared, given: &SurfaceInputs) -> Inputs {
    Inputs(valuation(&program.0, given))
}

fn theorem_3_5<M: Systems>(program: Desugared, given: SurfaceInputs, path: Path) -> TestResult {
    let inputs = inputs(&program, &given);
    correctness::<M, _, false>(program, inputs, path)
}

fn theorem_3_6<M: Systems>(program: Desugared, given: SurfaceInputs) -> TestResult {
    let inputs = inputs(&program, &given);
    completeness::<M, _, false>(program, inputs)
}

type Correctness = fn(Desugared, SurfaceInputs, Path) -> TestResult;
type Completeness = fn(Desugared, SurfaceInputs) -> TestResult;

#[test]
fn theorem_3_5_holds_on_desugared_programs() {
    holds(
        "Theorem 3.5 on desugared programs",
        &Required::rules(&surface_rules()).and_initial(),
        theorem_3_5::<RealRecursive> as Correctness,
    );
}

#[test]
fn theorem_3_6_holds_on_desugared_programs() {
    holds(
        "Theorem 3.6 on desugared programs",
        &Required::rules(&surface_rules()),
        theorem_3_6::<RealRecursive> as Completeness,
    );
}

#[test]
fn theorem_3_5_on_desugared_programs_catches_return_without_pop() {
    catches(
        "Theorem 3.5 on desugared programs, a return that does not pop",
        &Required::rules(&surface_rules()).and_initial(),
        theorem_3_5::<MutatedRecursive<ReturnWithoutPop>> as Correctness,
    );
}

#[test]
fn theorem_3_6_on_desugared_programs_catches_return_without_pop() {
    catches(
        "Theorem 3.6 on desugared programs, a return that does not pop",
        &Required::rules(&surface_rules()),
        theorem_3_6::<MutatedRecursive<ReturnWithoutPop>> as Completeness,
    );
}
