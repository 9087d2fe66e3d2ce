//! Corollary 3.2. "For any computation ⟨(id, S), id, true⟩ →*
//! ⟨(τ, S')·Δ, σ, φ⟩ where S denotes the main statement, the generated path
//! condition φ does not contain local variables."
//!
//! Checked along random symbolic runs of random recursive programs.

use crate::distribution::{Required, RECURSIVE_RULES};
use crate::generators::{Checked, Path, RecursiveProgram};
use crate::mutants::{GuardWithoutTau, MutatedRecursive};
use crate::{build, catches, holds, verdict, Generated, RealRecursive, Systems};
use quickcheck::TestResult;
use symex::theorems::recursive::check_no_locals_in_path_conditions;
use symex::theorems::Recursive;
use symex_semantics::recursive::{concrete, symbolic};
use symex_semantics::system::TransitionSystem;

fn corollary<M, S, C, P: Generated, const CHECKED: bool>(program: P, path: Path) -> TestResult
where
    M: Systems<Simulation = Recursive<S, C>>,
    S: TransitionSystem<Config = symbolic::Config>,
    C: TransitionSystem<Config = concrete::Config>,
{
    let simulation = match build::<M>(&program, CHECKED) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    verdict(check_no_locals_in_path_conditions(
        &simulation,
        &path.run(&simulation),
    ))
}

/// §3's rules, from the initial configuration on.
fn required(checked: bool) -> Required {
    Required::rules(&RECURSIVE_RULES)
        .and_initial()
        .checked(checked)
}

type Property = fn(RecursiveProgram, Path) -> TestResult;
type CheckedProperty = fn(Checked<RecursiveProgram>, Path) -> TestResult;

#[test]
fn corollary_3_2_holds() {
    holds(
        "Corollary 3.2",
        &required(false),
        corollary::<RealRecursive, _, _, _, false> as Property,
    );
}

#[test]
fn corollary_3_2_holds_with_checked_arrays() {
    holds(
        "Corollary 3.2 (checked arrays)",
        &required(true),
        corollary::<RealRecursive, _, _, _, true> as CheckedProperty,
    );
}

#[test]
fn corollary_3_2_catches_guard_without_tau() {
    catches(
        "Corollary 3.2 on a choice guarded by bσ",
        &required(false),
        corollary::<MutatedRecursive<GuardWithoutTau>, _, _, _, false> as Property,
    );
}
