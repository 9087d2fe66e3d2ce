//! The checkers compare the whole configurations the theorems state:
//! Theorems 2.3/2.4 `⟨S', V∘σ⟩` (the statement and every variable, arrays
//! with their length), Theorems 3.5/3.6 `⟨(V∘τ, S')·V•Δ, V∘σ⟩` (every
//! closure of the stack, its statement and locals, and the globals), and
//! Corollaries 2.2/3.4 the state after each assignment. Run against a
//! concrete system that corrupts every configuration at one random place
//! ([`Corrupting`]), each checker must report a disagreement — and the run
//! must have corrupted every place at least a few times. A checker that
//! compares only the top closure is caught.

use crate::corruption::{Corrupting, Corruption, BASIC_PLACES, RECURSIVE_PLACES};
use crate::distribution::{self, Required};
use crate::generators::{BasicProgram, Inputs, Path, RecursiveProgram};
use crate::mutants::TopClosureOnly;
use crate::{cases, catches_on, holds_on, options, Generated, TIMEOUT_MS};
use quickcheck::TestResult;
use std::cell::RefCell;
use symex::theorems::completeness::check_completeness;
use symex::theorems::correctness::{check_correctness, feasible_run};
use symex::theorems::soundness_assignment::check_soundness_assignment;
use symex::theorems::{Basic, Cases, Recursive, Simulation};
use symex_semantics::basic;
use symex_semantics::recursive;

/// The longest concrete run completeness follows.
const MAX_STEPS: usize = 100;

/// A checker run on a simulation and a generated case.
type Checker<M> = fn(&M, &Inputs, &Path) -> Result<Cases, String>;

fn correctness<M: Simulation>(
    simulation: &M,
    inputs: &Inputs,
    path: &Path,
) -> Result<Cases, String> {
    let mut k = 0;
    let feasible = feasible_run(
        simulation,
        inputs.0.clone(),
        path.steps,
        (TIMEOUT_MS, None),
        |n| {
            k += 1;
            path.choice(k - 1, n)
        },
    );
    check_correctness(simulation, &feasible.run, &feasible.model)
}

fn completeness<M: Simulation>(simulation: &M, inputs: &Inputs, _: &Path) -> Result<Cases, String> {
    check_completeness(simulation, &inputs.0, MAX_STEPS)
}

fn soundness<M: Simulation>(simulation: &M, inputs: &Inputs, path: &Path) -> Result<Cases, String> {
    check_soundness_assignment(simulation, &path.run(simulation), &inputs.0)
}

/// Passes when the checker reported the corruption (the place corrupted
/// first goes into the distribution report); discards a case where
/// nothing was corrupted.
fn noticed(applied: &RefCell<Vec<&'static str>>, result: Result<Cases, String>) -> TestResult {
    let Some(&first) = applied.borrow().first() else {
        return TestResult::discard();
    };
    match result {
        Err(_) => {
            distribution::record_case(first);
            TestResult::passed()
        }
        Ok(_) => TestResult::error(format!("corrupting {first} went unnoticed")),
    }
}

type BasicCorrupted = Basic<basic::symbolic::Symbolic, Corrupting<basic::concrete::Concrete>>;
type RecursiveCorrupted =
    Recursive<recursive::symbolic::Symbolic, Corrupting<recursive::concrete::Concrete>>;

fn basic_systems(program: &BasicProgram, corruption: Corruption) -> Result<BasicCorrupted, String> {
    let (program, options) = (program.program(), options(false));
    distribution::record_program(&program);
    let symbolic = basic::symbolic::Symbolic::new(program.clone(), options)?;
    let real = basic::concrete::Concrete::new(program.clone(), options)?;
    Basic::new(
        program,
        options,
        symbolic,
        Corrupting {
            real,
            corruption,
            applied: RefCell::default(),
        },
    )
}

fn recursive_systems(
    program: &RecursiveProgram,
    corruption: Corruption,
) -> Result<RecursiveCorrupted, String> {
    let (program, options) = (program.program(), options(false));
    distribution::record_program(&program);
    let symbolic = recursive::symbolic::Symbolic::new(program.clone(), options)?;
    let real = recursive::concrete::Concrete::new(program.clone(), options)?;
    Recursive::new(
        program,
        options,
        symbolic,
        Corrupting {
            real,
            corruption,
            applied: RefCell::default(),
        },
    )
}

fn on_basic(
    checker: Checker<BasicCorrupted>,
    program: BasicProgram,
    inputs: Inputs,
    path: Path,
    corruption: Corruption,
) -> TestResult {
    match basic_systems(&program, corruption) {
        Ok(simulation) => noticed(
            &simulation.concrete().applied,
            checker(&simulation, &inputs, &path),
        ),
        Err(error) => TestResult::error(error),
    }
}

fn on_recursive(
    checker: Checker<RecursiveCorrupted>,
    program: RecursiveProgram,
    inputs: Inputs,
    path: Path,
    corruption: Corruption,
) -> TestResult {
    match recursive_systems(&program, corruption) {
        Ok(simulation) => noticed(
            &simulation.concrete().applied,
            checker(&simulation, &inputs, &path),
        ),
        Err(error) => TestResult::error(error),
    }
}

/// [`on_recursive`] with the checker comparing only the top closure.
fn top_only(
    checker: Checker<TopClosureOnly<RecursiveCorrupted>>,
    program: RecursiveProgram,
    inputs: Inputs,
    path: Path,
    corruption: Corruption,
) -> TestResult {
    match recursive_systems(&program, corruption) {
        Ok(simulation) => {
            let weakened = TopClosureOnly(simulation);
            noticed(
                &weakened.0.concrete().applied,
                checker(&weakened, &inputs, &path),
            )
        }
        Err(error) => TestResult::error(error),
    }
}

type BasicProperty = fn(BasicProgram, Inputs, Path, Corruption) -> TestResult;
type RecursiveProperty = fn(RecursiveProgram, Inputs, Path, Corruption) -> TestResult;

/// Correctness asks Z3 at every step: a quarter of the cases.
fn quarter() -> u64 {
    (cases() / 4).max(1)
}

#[test]
fn theorem_2_3_checker_notices_a_corruption_anywhere() {
    let property: BasicProperty = |p, i, path, c| on_basic(correctness, p, i, path, c);
    holds_on(
        "Theorem 2.3's checker on corrupted configurations",
        quarter(),
        &Required::cases(&BASIC_PLACES),
        property,
    );
}

#[test]
fn theorem_2_4_checker_notices_a_corruption_anywhere() {
    let property: BasicProperty = |p, i, path, c| on_basic(completeness, p, i, path, c);
    holds_on(
        "Theorem 2.4's checker on corrupted configurations",
        cases(),
        &Required::cases(&BASIC_PLACES),
        property,
    );
}

#[test]
fn corollary_2_2_checker_notices_a_corruption_anywhere() {
    let property: BasicProperty = |p, i, path, c| on_basic(soundness, p, i, path, c);
    holds_on(
        "Corollary 2.2's checker on corrupted configurations",
        cases(),
        &Required::cases(&BASIC_PLACES),
        property,
    );
}

#[test]
fn theorem_3_5_checker_notices_a_corruption_anywhere() {
    let property: RecursiveProperty = |p, i, path, c| on_recursive(correctness, p, i, path, c);
    holds_on(
        "Theorem 3.5's checker on corrupted configurations",
        quarter(),
        &Required::cases(&RECURSIVE_PLACES),
        property,
    );
}

#[test]
fn theorem_3_6_checker_notices_a_corruption_anywhere() {
    let property: RecursiveProperty = |p, i, path, c| on_recursive(completeness, p, i, path, c);
    holds_on(
        "Theorem 3.6's checker on corrupted configurations",
        cases(),
        &Required::cases(&RECURSIVE_PLACES),
        property,
    );
}

#[test]
fn corollary_3_4_checker_notices_a_corruption_anywhere() {
    let property: RecursiveProperty = |p, i, path, c| on_recursive(soundness, p, i, path, c);
    holds_on(
        "Corollary 3.4's checker on corrupted configurations",
        cases(),
        &Required::cases(&RECURSIVE_PLACES),
        property,
    );
}

#[test]
fn theorem_3_6_catches_a_checker_comparing_only_the_top_closure() {
    let property: RecursiveProperty = |p, i, path, c| top_only(completeness, p, i, path, c);
    catches_on(
        "Theorem 3.6's checker comparing the top closure only",
        cases(),
        &Required::nothing(),
        property,
    );
}

#[test]
fn theorem_3_5_catches_a_checker_comparing_only_the_top_closure() {
    let property: RecursiveProperty = |p, i, path, c| top_only(correctness, p, i, path, c);
    catches_on(
        "Theorem 3.5's checker comparing the top closure only",
        quarter(),
        &Required::nothing(),
        property,
    );
}
