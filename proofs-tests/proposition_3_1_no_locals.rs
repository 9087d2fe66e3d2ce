//! Proposition 3.1. "For any computation ⟨(id, S), id, true⟩ →ⁿ
//! ⟨(τ, S')·Δ, σ, φ⟩ of n > 0 steps, where S denotes the main statement,
//! we have that both τ(u), for any local variable u in its domain, and σ(x),
//! for any global variable x, do not contain local variables."
//!
//! Checked along random symbolic runs of random recursive programs.

use crate::distribution::{Required, RECURSIVE_RULES};
use crate::generators::{Checked, Path, RecursiveProgram};
use crate::mutants::{ActualsAfterPush, MutatedRecursive};
use crate::{build, catches, holds, verdict, Generated, RealRecursive, Systems};
use quickcheck::TestResult;
use symex::theorems::recursive::check_no_locals_in_substitutions;
use symex::theorems::Recursive;
use symex_semantics::recursive::{concrete, symbolic};
use symex_semantics::system::TransitionSystem;

fn proposition<M, S, C, P: Generated, const CHECKED: bool>(program: P, path: Path) -> TestResult
where
    M: Systems<Simulation = Recursive<S, C>>,
    S: TransitionSystem<Config = symbolic::Config>,
    C: TransitionSystem<Config = concrete::Config>,
{
    let simulation = match build::<M>(&program, CHECKED) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    verdict(check_no_locals_in_substitutions(
        &simulation,
        &path.run(&simulation),
    ))
}

/// §3's rules.
fn required(checked: bool) -> Required {
    Required::rules(&RECURSIVE_RULES).checked(checked)
}

type Property = fn(RecursiveProgram, Path) -> TestResult;
type CheckedProperty = fn(Checked<RecursiveProgram>, Path) -> TestResult;

#[test]
fn proposition_3_1_holds() {
    holds(
        "Proposition 3.1",
        &required(false),
        proposition::<RealRecursive, _, _, _, false> as Property,
    );
}

#[test]
fn proposition_3_1_holds_with_checked_arrays() {
    holds(
        "Proposition 3.1 (checked arrays)",
        &required(true),
        proposition::<RealRecursive, _, _, _, true> as CheckedProperty,
    );
}

#[test]
fn proposition_3_1_catches_actuals_evaluated_after_push() {
    catches(
        "Proposition 3.1 on τ'(ū) = ē(id ∪ σ)",
        &required(false),
        proposition::<MutatedRecursive<ActualsAfterPush>, _, _, _, false> as Property,
    );
}
