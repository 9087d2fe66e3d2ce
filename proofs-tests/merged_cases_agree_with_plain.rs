//! `[x := new C]` with merged cases (`--method forward`'s elimination of
//! created objects, [`State`]) against the plain tree of conditionals
//! ([`PlainState`]): on random oo programs both have the same paths with
//! equivalent path conditions, proved by Z3 pair by pair (the comparison
//! of forward with wp, [`agreement`]). Fails unless some path's two
//! conditions differ in shape — only a merge of two cases of one value
//! makes them differ, in about one case in fifty, hence twice the usual
//! number of cases — and is shown to catch a merge that forgets the
//! condition choosing between the two cases.

use crate::distribution::Required;
use crate::forward_agrees_with_wp::{agreement, cases, AnyProgram};
use crate::mutated::with_core_mutant;
use crate::oo_programs::OoProgram;
use crate::{catches_on, holds_on};
use quickcheck::TestResult;
use symex_semantics::mutants::Mutant;
use symex_semantics::oo::forward::{PlainState, State};

fn merged_agrees_with_plain(program: OoProgram) -> TestResult {
    agreement::<State, PlainState>(AnyProgram::Oo(program))
}

#[test]
fn merged_cases_give_the_plain_path_conditions() {
    holds_on(
        "merged cases agree with the plain tree",
        2 * cases(),
        &Required::cases(&["oo", "shapes differ"]),
        merged_agrees_with_plain as fn(OoProgram) -> TestResult,
    );
}

#[test]
fn agreement_catches_merged_cases_without_their_condition() {
    with_core_mutant(Mutant::MergedCasesWithoutCondition, || {
        catches_on(
            "merged cases agree with the plain tree, condition forgotten",
            5 * cases(),
            &Required::nothing(),
            merged_agrees_with_plain as fn(OoProgram) -> TestResult,
        )
    });
}
