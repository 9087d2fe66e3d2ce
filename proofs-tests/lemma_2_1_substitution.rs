//! Lemma 2.1 (Substitution). "V ∘ σ(e) = V(eσ)."
//!
//! Checked for every substitution `σ` reached by a random symbolic run of a
//! random program, `e` each of the program's expressions and a random one,
//! and `V` a random valuation.

use crate::generators::{BasicProgram, Expression, Inputs, Path};
use crate::mutants::sequential_substitution;
use crate::{catches, holds, options, Real, Systems};
use quickcheck::TestResult;
use symex::theorems::substitution::{check_substitution, Apply};
use symex_semantics::subst::Substitution;
use symex_semantics::term::Term;

fn simultaneous(sigma: &Substitution, e: &Term) -> Term {
    sigma.apply(e)
}

fn lemma(program: BasicProgram, inputs: Inputs, path: Path, e: Expression, checked: bool, apply: &Apply) -> TestResult {
    let simulation = match Real::build(program.0, options(checked)) {
        Ok(simulation) => simulation,
        Err(why) => return TestResult::error(why),
    };
    let run = path.run(&simulation);
    match check_substitution(&simulation, &run, &inputs.0, &[e.0], apply) {
        Ok(_) => TestResult::passed(),
        Err(why) => TestResult::error(why),
    }
}

fn lemma_unchecked(program: BasicProgram, inputs: Inputs, path: Path, e: Expression) -> TestResult {
    lemma(program, inputs, path, e, false, &simultaneous)
}

fn lemma_checked(program: BasicProgram, inputs: Inputs, path: Path, e: Expression) -> TestResult {
    lemma(program, inputs, path, e, true, &simultaneous)
}

fn lemma_sequential(program: BasicProgram, inputs: Inputs, path: Path, e: Expression) -> TestResult {
    lemma(program, inputs, path, e, false, &sequential_substitution)
}

type Property = fn(BasicProgram, Inputs, Path, Expression) -> TestResult;

#[test]
fn lemma_2_1_holds() {
    holds("Lemma 2.1", lemma_unchecked as Property);
}

#[test]
fn lemma_2_1_holds_with_checked_arrays() {
    holds("Lemma 2.1 (checked arrays)", lemma_checked as Property);
}

#[test]
fn lemma_2_1_catches_sequential_substitution() {
    catches("Lemma 2.1 on sequential substitution", lemma_sequential as Property);
}
