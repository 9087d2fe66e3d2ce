//! Corollary 3.4 (Soundness assignment). "Let V = G ∪ L and θ = σ ∪ τ. For
//! V' = V ∘ θ, let G' be the restriction of V' to global variables, and L'
//! the restriction of V' to local variables. For every expression e, global
//! variable x, and local variable u we have that V ∘ (σ[x := eθ]) =
//! G'[x := V'(e)] and V ∘ (τ[u := eθ]) = L'[u := V'(e)]."
//!
//! Checked at every global and local assignment of a random symbolic run of
//! a random recursive program: the symbolic rule's result under `V` must be
//! the concrete rule's result from the corresponding configuration.

use crate::corollary_2_2_soundness_assignment::corollary;
use crate::distribution::Required;
use crate::generators::{Checked, Inputs, Path, RecursiveProgram};
use crate::mutants::{LocalAssignmentInCaller, MutatedRecursive};
use crate::{catches, holds, RealRecursive};
use quickcheck::TestResult;
use symex_semantics::system::Rule;

type Property = fn(RecursiveProgram, Inputs, Path) -> TestResult;
type CheckedProperty = fn(Checked<RecursiveProgram>, Inputs, Path) -> TestResult;

/// §3's assignments: to a global, to a local variable, to an array element.
fn required() -> Required {
    Required::rules(&[
        Rule::GlobalAssignment,
        Rule::LocalAssignment,
        Rule::ArrayAssignment,
    ])
}

#[test]
fn corollary_3_4_holds() {
    holds(
        "Corollary 3.4",
        &required(),
        corollary::<RealRecursive, _, false> as Property,
    );
}

#[test]
fn corollary_3_4_holds_with_checked_arrays() {
    holds(
        "Corollary 3.4 (checked arrays)",
        &required(),
        corollary::<RealRecursive, _, true> as CheckedProperty,
    );
}

#[test]
fn corollary_3_4_catches_local_assignment_in_the_callers_closure() {
    catches(
        "Corollary 3.4 on τ of the caller",
        &required(),
        corollary::<MutatedRecursive<LocalAssignmentInCaller>, _, false> as Property,
    );
}
