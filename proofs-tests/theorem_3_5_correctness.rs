//! Theorem 3.5 (Correctness). "For a main statement S with no occurrences
//! of local variables and V = G ∪ L if ⟨(id, S), id, true⟩ →*
//! ⟨(τ, S')·Δ, σ, φ⟩ and V(φ) = true then ⟨(L, S), G⟩ →*
//! ⟨(V ∘ τ, S')·V • Δ, V ∘ σ⟩."
//!
//! As Theorem 2.3, on random recursive programs: the whole stack is
//! compared, closure by closure (statements and `V∘τ`), and `V∘σ`.

use crate::distribution::{Required, RECURSIVE_RULES};
use crate::generators::{Checked, Inputs, Path, RecursiveProgram};
use crate::mutants::{LocalAssignmentInCaller, MutatedRecursive, ReturnWithoutPop, SwappedChoice};
use crate::theorem_2_3_correctness::correctness;
use crate::{catches, holds, RealRecursive};
use quickcheck::TestResult;

/// §3's rules, from the initial configuration on.
fn required(checked: bool) -> Required {
    Required::rules(&RECURSIVE_RULES)
        .and_initial()
        .checked(checked)
}

type Property = fn(RecursiveProgram, Inputs, Path) -> TestResult;
type CheckedProperty = fn(Checked<RecursiveProgram>, Inputs, Path) -> TestResult;

#[test]
fn theorem_3_5_holds() {
    holds(
        "Theorem 3.5",
        &required(false),
        correctness::<RealRecursive, _, false> as Property,
    );
}

#[test]
fn theorem_3_5_holds_with_checked_arrays() {
    holds(
        "Theorem 3.5 (checked arrays)",
        &required(true),
        correctness::<RealRecursive, _, true> as CheckedProperty,
    );
}

#[test]
fn theorem_3_5_catches_return_without_pop() {
    catches(
        "Theorem 3.5 on a return that does not pop",
        &required(false),
        correctness::<MutatedRecursive<ReturnWithoutPop>, _, false> as Property,
    );
}

#[test]
fn theorem_3_5_catches_local_assignment_in_the_callers_closure() {
    catches(
        "Theorem 3.5 on τ of the caller",
        &required(false),
        correctness::<MutatedRecursive<LocalAssignmentInCaller>, _, false> as Property,
    );
}

#[test]
fn theorem_3_5_catches_swapped_choice() {
    catches(
        "Theorem 3.5 on swapped choice",
        &required(false),
        correctness::<MutatedRecursive<SwappedChoice>, _, false> as Property,
    );
}
