//! Theorem 3.6 (Completeness). "Let S be a statement with no occurrence of
//! local variables. For any concrete computation ⟨(L, S), G⟩ →*
//! ⟨(L', S')·Γ, G'⟩ there exists a symbolic computation ⟨(id, S), id,
//! true⟩ →* ⟨(τ, S')·Δ, σ, φ⟩ for some path condition φ and local
//! substitution τ and global substitution σ such that V(φ) is true,
//! Γ = V • Δ, L' = V ∘ τ, and G' = V ∘ σ, for V = G ∪ L."
//!
//! As Theorem 2.4, on random recursive programs, with the whole stack
//! compared after every step.

use crate::distribution::{Required, RECURSIVE_RULES};
use crate::generators::{Checked, Inputs, RecursiveProgram};
use crate::mutants::{ActualsAfterPush, MutatedRecursive, ReturnWithoutPop};
use crate::theorem_2_4_completeness::completeness;
use crate::{catches, holds, RealRecursive};
use quickcheck::TestResult;

/// §3's rules (see [`Required::completeness`]).
fn required(checked: bool) -> Required {
    Required::completeness(&RECURSIVE_RULES, checked)
}

type Property = fn(RecursiveProgram, Inputs) -> TestResult;
type CheckedProperty = fn(Checked<RecursiveProgram>, Inputs) -> TestResult;

#[test]
fn theorem_3_6_holds() {
    holds(
        "Theorem 3.6",
        &required(false),
        completeness::<RealRecursive, _, false> as Property,
    );
}

#[test]
fn theorem_3_6_holds_with_checked_arrays() {
    holds(
        "Theorem 3.6 (checked arrays)",
        &required(true),
        completeness::<RealRecursive, _, true> as CheckedProperty,
    );
}

#[test]
fn theorem_3_6_catches_return_without_pop() {
    catches(
        "Theorem 3.6 on a return that does not pop",
        &required(false),
        completeness::<MutatedRecursive<ReturnWithoutPop>, _, false> as Property,
    );
}

#[test]
fn theorem_3_6_catches_actuals_evaluated_after_push() {
    catches(
        "Theorem 3.6 on τ'(ū) = ē(id ∪ σ)",
        &required(false),
        completeness::<MutatedRecursive<ActualsAfterPush>, _, false> as Property,
    );
}
