//! What an exploration prints does not depend on what its thread explored
//! before: on random programs, the JSON report of a program explored on a
//! fresh thread equals its report on a thread that first explored another
//! random program and still holds that program and its whole tree (as a
//! worker still holds the terms of its survey, or `tests` and `serve` the
//! programs before). Term ids follow the order terms were made in, so
//! they differ between the two runs; every order the simplifier's normal
//! form uses must not. Models are compared by their presence only (Z3's
//! answers depend on what it was asked before, as in the workers'
//! property). It must catch a normal form that orders the atoms of a sum
//! by term id.

use crate::distribution::{self, Required};
use crate::generators::BasicProgram;
use crate::mutated::with_mutant;
use crate::shards_merge_into_the_whole::{comparable, difference, explore, header, solver_gave_up};
use crate::{catches_on, holds_on};
use quickcheck::TestResult;
use serde_json::Value;
use std::rc::Rc;
use symex::explore::TreeRecorder;
use symex::mutants::Mutant;
use symex::report::json::JsonReport;
use symex::theorems::Basic;
use symex_semantics::syntax::parse_program;

/// A fifth of the usual number of cases: each explores three trees.
fn fifth() -> u64 {
    (crate::cases() / 5).max(1)
}

fn simulation(source: &str) -> Result<Basic, String> {
    let program = parse_program(source).map_err(|d| format!("{d:?}"))?;
    Basic::real(Rc::new(program), crate::options(false))
}

/// The report of `source` explored on a thread of its own, after
/// `before` (kept alive with its tree until the report is written) when
/// given; the mutant switched on here is switched on there.
fn report_on_a_thread(source: &str, before: Option<&str>) -> Result<Value, String> {
    let mutant = symex::mutants::active(Mutant::AtomsOrderedById);
    std::thread::scope(|scope| {
        let run = scope.spawn(|| {
            if mutant {
                symex::mutants::set(Some(Mutant::AtomsOrderedById));
            }
            let mut kept = None;
            if let Some(before) = before {
                let earlier = simulation(before)?;
                let mut tree = TreeRecorder::default();
                explore(&earlier, |_| (), &mut tree)?;
                kept = Some((earlier, tree.into_tree()));
            }
            let simulation = simulation(source)?;
            let mut out = Vec::new();
            let mut json = JsonReport::new(&mut out, header(&simulation));
            explore(&simulation, |_| (), &mut json)?;
            drop(kept);
            serde_json::from_slice(&out).map_err(|e| e.to_string())
        });
        run.join()
            .unwrap_or_else(|_| Err("the exploring thread panicked".to_string()))
    })
}

fn independent_of_history(program: BasicProgram, earlier: BasicProgram) -> TestResult {
    let (source, before) = (program.0.to_string(), earlier.0.to_string());
    let fresh = match report_on_a_thread(&source, None) {
        Ok(fresh) => fresh,
        Err(error) => return TestResult::error(error),
    };
    tally(&fresh);
    // Discarded before exploring again (see `solver_gave_up`).
    if solver_gave_up(&fresh) {
        return TestResult::discard();
    }
    let after = match report_on_a_thread(&source, Some(&before)) {
        Ok(after) => after,
        Err(error) => return TestResult::error(error),
    };
    if solver_gave_up(&after) {
        return TestResult::discard();
    }
    match difference(&comparable(after), &comparable(fresh)) {
        None => TestResult::passed(),
        Some(difference) => TestResult::error(format!("after another exploration: {difference}")),
    }
}

/// What the case exercised: path conditions with a sum of two atoms or
/// more (what the normal form orders).
fn tally(report: &Value) {
    let conditions: Vec<&str> = report["paths"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|path| path["path_condition"].as_str())
        .collect();
    if conditions.len() > 1 {
        distribution::record_case("several paths");
    }
    let sums = |condition: &&str| condition.contains(" + ") || condition.contains(" - ");
    if conditions.iter().any(sums) {
        distribution::record_case("a sum in a path condition");
    }
}

fn required() -> Required {
    Required::frequent(&["several paths", "a sum in a path condition"])
}

#[test]
fn an_exploration_prints_the_same_after_another() {
    holds_on(
        "a program explored fresh against after another program",
        fifth(),
        &required(),
        independent_of_history as fn(BasicProgram, BasicProgram) -> TestResult,
    );
}

#[test]
fn the_history_property_catches_atoms_ordered_by_id() {
    with_mutant(Mutant::AtomsOrderedById, || {
        catches_on(
            "atoms ordered by id, fresh against after another program",
            fifth(),
            &required(),
            independent_of_history as fn(BasicProgram, BasicProgram) -> TestResult,
        )
    });
}
