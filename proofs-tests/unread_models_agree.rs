//! `compare` explores without making models readable
//! (`readable_models: false`): that shortcut must only leave the models as
//! Z3 found them. On random basic programs, with the paper's raw terms as
//! `compare` explores (`simplify: false`), both explorations have the same
//! paths with the same statuses and path conditions, a model exactly where
//! the other has one, and each model left unread satisfies its path
//! condition under the evaluator.
//!
//! The runs must reach paths whose readable model differs from Z3's (there
//! the shortcut skipped work). Dropping the models Z3 found instead
//! ([`Mutant::UnreadModelDropped`]) is caught.

use crate::distribution::Required;
use crate::generators::BasicProgram;
use crate::king_1976_properties::leaves;
use crate::mutated::with_mutant;
use crate::{build, catches, distribution, from_env, holds_on, Real, TIMEOUT_MS};
use quickcheck::TestResult;
use symex::explore::{explore, Bounds, ExploreOptions, Leaf, Status, Tree, UnknownReason};
use symex::mutants::Mutant;
use symex::theorems::Simulation;
use symex_semantics::eval::eval_bool;

/// Cases per default run (`QUICKCHECK_TESTS` sets another number).
const CASES: u64 = 300;

/// The case the runs must reach often.
const REWRITTEN: &str = "a model made readable differs from Z3's";

fn explored(program: &BasicProgram, readable_models: bool) -> Result<Tree, TestResult> {
    let simulation = build::<Real>(program, false)?;
    let options = ExploreOptions {
        bounds: Bounds {
            unfold: 2,
            depth: 400,
            max_paths: Some(32),
            ..Bounds::default()
        },
        timeout_ms: TIMEOUT_MS,
        simplify: false,
        readable_models,
        ..ExploreOptions::default()
    };
    Ok(explore(
        simulation.symbolic(),
        simulation.symbolic_initial(),
        simulation.inputs(),
        &options,
    ))
}

fn agree(program: BasicProgram) -> TestResult {
    let (read, unread) = match (explored(&program, true), explored(&program, false)) {
        (Ok(read), Ok(unread)) => (read, unread),
        (Err(result), _) | (_, Err(result)) => return result,
    };
    let (read, unread) = (leaves(&read), leaves(&unread));
    // Z3's `unknown` comes from the watchdog's time limit, so it depends on
    // the machine's load, not on the shortcut: such runs decide nothing.
    let timed_out = |leaf: &Leaf| matches!(leaf.status, Status::Unknown(UnknownReason::Solver));
    if read.iter().chain(&unread).any(|(_, leaf)| timed_out(leaf)) {
        return TestResult::discard();
    }
    if read.len() != unread.len() {
        return TestResult::error(format!(
            "{} paths with readable models, {} without",
            read.len(),
            unread.len()
        ));
    }
    for ((node, a), (_, b)) in read.iter().zip(&unread) {
        if a.status != b.status || a.path_condition != b.path_condition {
            return TestResult::error(format!(
                "path {node}: {} `{}` with readable models, {} `{}` without",
                a.status, a.path_condition, b.status, b.path_condition
            ));
        }
        match (&a.model, &b.model) {
            (None, None) => {}
            (Some(readable), Some(found)) => {
                if eval_bool(&b.path_condition, found) != Ok(true) {
                    return TestResult::error(format!(
                        "path {node}: the model left unread does not satisfy `{}`",
                        b.path_condition
                    ));
                }
                if readable != found {
                    distribution::record_case(REWRITTEN);
                }
            }
            _ => {
                return TestResult::error(format!(
                    "path {node}: a model with readable models {}, without {}",
                    a.model.is_some(),
                    b.model.is_some()
                ))
            }
        }
    }
    TestResult::passed()
}

#[test]
fn exploring_without_readable_models_changes_only_the_models() {
    holds_on(
        "exploring without readable models changes only the models",
        from_env("QUICKCHECK_TESTS").unwrap_or(CASES),
        &Required::frequent(&[REWRITTEN]),
        agree as fn(BasicProgram) -> TestResult,
    );
}

#[test]
fn the_comparison_catches_dropped_models() {
    with_mutant(Mutant::UnreadModelDropped, || {
        catches(
            "models dropped when left unread",
            &Required::nothing(),
            agree as fn(BasicProgram) -> TestResult,
        )
    });
}
