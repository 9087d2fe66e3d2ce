//! Lemma 2.1 (Substitution). "V ∘ σ(e) = V(eσ)."
//!
//! Checked for every substitution `σ` reached by a random symbolic run of a
//! random program, `e` each of the program's expressions and a random one,
//! and `V` a random valuation.

use crate::distribution::Required;
use crate::generators::{BasicProgram, Expression, Inputs, Path};
use crate::mutants::sequential_substitution;
use crate::{build, catches, holds, verdict, Generated, Real, Systems};
use quickcheck::TestResult;
use symex::theorems::substitution::{check_substitution, Apply};
use symex_semantics::subst::Substitution;
use symex_semantics::term::Term;

/// Every kind of expression the lemma must be checked on.
pub fn required() -> Required {
    Required::cases(&[
        "constant",
        "variable",
        "len",
        "a[e]",
        "(a[e] := e')",
        "-(negation)",
        "!",
        "+",
        "-",
        "*",
        "/",
        "%",
        "=",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "&&",
        "||",
        "==>",
        "?:",
    ])
}

/// `eσ`, simultaneously: the real substitution.
pub fn simultaneous(sigma: &Substitution, e: &Term) -> Term {
    sigma.apply(e)
}

/// The lemma along the run `path` selects, with `apply` as substitution.
pub fn lemma<M: Systems, P: Generated>(
    program: &P,
    checked: bool,
    inputs: &Inputs,
    path: &Path,
    e: &Expression,
    apply: &Apply,
) -> TestResult {
    let simulation = match build::<M>(program, checked) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    let run = path.run(&simulation);
    verdict(check_substitution(
        &simulation,
        &run,
        &inputs.0,
        std::slice::from_ref(&e.0),
        apply,
    ))
}

fn unchecked(program: BasicProgram, inputs: Inputs, path: Path, e: Expression) -> TestResult {
    lemma::<Real, _>(&program, false, &inputs, &path, &e, &simultaneous)
}

fn checked(program: BasicProgram, inputs: Inputs, path: Path, e: Expression) -> TestResult {
    lemma::<Real, _>(&program, true, &inputs, &path, &e, &simultaneous)
}

fn sequential(program: BasicProgram, inputs: Inputs, path: Path, e: Expression) -> TestResult {
    lemma::<Real, _>(
        &program,
        false,
        &inputs,
        &path,
        &e,
        &sequential_substitution,
    )
}

type Property = fn(BasicProgram, Inputs, Path, Expression) -> TestResult;

#[test]
fn lemma_2_1_holds() {
    holds("Lemma 2.1", &required(), unchecked as Property);
}

#[test]
fn lemma_2_1_holds_with_checked_arrays() {
    holds(
        "Lemma 2.1 (checked arrays)",
        &required(),
        checked as Property,
    );
}

#[test]
fn lemma_2_1_catches_sequential_substitution() {
    catches(
        "Lemma 2.1 on sequential substitution",
        &required(),
        sequential as Property,
    );
}
