//! King's properties (CACM 1976) with state merging (`--merge`): the tree
//! whose configurations were joined where they met still partitions the
//! inputs — every input satisfies exactly one leaf, whose disjunctive path
//! condition it satisfies and whose state `V ∘ σ`, full of conditionals,
//! predicts its run — and each leaf's model replays to the leaf's end and
//! state. Joining is an optimisation, so it is also checked against the
//! plain tree: for a random input, the merged tree predicts what the
//! unmerged one does. Both must catch a join that keeps one side's value
//! where the two differ.

use crate::distribution::{self, Required};
use crate::generators::{BasicProgram, Inputs, RecursiveProgram};
use crate::king_1976_properties::{explored, king_merging, leaves};
use crate::{build, catches_on, holds_on, Real, RealRecursive};
use quickcheck::TestResult;
use symex::explore::{Merge, Tree};
use symex_semantics::eval::{eval, eval_bool, Valuation};
use symex_semantics::value::Value;

/// The cases a merging property runs: joins must be common, so half the
/// usual number (500 by default), each a whole tree with Z3.
fn half() -> u64 {
    (crate::cases() / 2).max(1)
}

/// Joins in at least a twentieth of the cases.
fn joins() -> Required {
    Required::frequent(&["join"])
}

fn king_merged(program: BasicProgram, inputs: Inputs) -> TestResult {
    king_merging::<Real, BasicProgram>(program, inputs, Merge::Join)
}

fn king_merged_recursive(program: RecursiveProgram, inputs: Inputs) -> TestResult {
    king_merging::<RealRecursive, RecursiveProgram>(program, inputs, Merge::Join)
}

fn king_dropping_a_value(program: BasicProgram, inputs: Inputs) -> TestResult {
    king_merging::<Real, BasicProgram>(program, inputs, Merge::DropsOtherValue)
}

#[test]
fn king_properties_hold_with_merging_on_basic_programs() {
    holds_on(
        "King's properties with merging",
        half(),
        &joins(),
        king_merged as fn(BasicProgram, Inputs) -> TestResult,
    );
}

#[test]
fn king_properties_hold_with_merging_on_recursive_programs() {
    holds_on(
        "King's properties with merging (recursive)",
        (crate::cases() / 10).max(1),
        &Required::nothing(),
        king_merged_recursive as fn(RecursiveProgram, Inputs) -> TestResult,
    );
}

#[test]
fn king_properties_catch_a_join_that_drops_a_value() {
    catches_on(
        "King's properties with a join that drops a value",
        half(),
        &joins(),
        king_dropping_a_value as fn(BasicProgram, Inputs) -> TestResult,
    );
}

/// The state the leaf `input` satisfies predicts for it (evaluated on the
/// globals), or `None` when it satisfies none or the tree is incomplete.
fn prediction(tree: &Tree, input: &Valuation) -> Option<Vec<Option<Value>>> {
    if !tree.unexplored.is_empty() {
        return None;
    }
    let mut satisfied = leaves(tree)
        .into_iter()
        .filter(|(_, leaf)| eval_bool(&leaf.path_condition, input) == Ok(true));
    let (_, leaf) = satisfied.next()?;
    leaf.status.outcome()?;
    Some(leaf.state.iter().map(|(_, e)| eval(e, input).ok()).collect())
}

/// For a random input, the merged tree's leaf predicts the final state the
/// plain tree's leaf does.
fn merged_predicts_as_unmerged(merge: Merge, program: BasicProgram, inputs: Inputs) -> TestResult {
    let simulation = match build::<Real>(&program, false) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    let plain = explored(&simulation, Merge::Off);
    let merged = explored(&simulation, merge);
    if merged.stats.merges > 0 {
        distribution::record_case("join");
    }
    match (prediction(&plain, &inputs.0), prediction(&merged, &inputs.0)) {
        (Some(expected), Some(found)) if expected != found => TestResult::error(format!(
            "the merged tree predicts {found:?}, the plain tree {expected:?}"
        )),
        _ => TestResult::passed(),
    }
}

fn predicts_as_unmerged(program: BasicProgram, inputs: Inputs) -> TestResult {
    merged_predicts_as_unmerged(Merge::Join, program, inputs)
}

fn dropping_predicts_as_unmerged(program: BasicProgram, inputs: Inputs) -> TestResult {
    merged_predicts_as_unmerged(Merge::DropsOtherValue, program, inputs)
}

#[test]
fn merging_predicts_what_the_plain_tree_predicts() {
    holds_on(
        "merged against unmerged",
        (crate::cases() / 5).max(1),
        &joins(),
        predicts_as_unmerged as fn(BasicProgram, Inputs) -> TestResult,
    );
}

#[test]
fn comparing_with_the_plain_tree_catches_a_join_that_drops_a_value() {
    catches_on(
        "merged against unmerged, with a join that drops a value",
        half(),
        &joins(),
        dropping_predicts_as_unmerged as fn(BasicProgram, Inputs) -> TestResult,
    );
}
