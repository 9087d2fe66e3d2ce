//! The paper's results as QuickCheck properties, one file per result, each
//! run on random well-typed programs against the real transition systems
//! (it must hold) and against deliberately broken rules (it must find a
//! counterexample: a property that passes on a mutant checks nothing).
//!
//! Every property must check `QUICKCHECK_TESTS` cases (default 1000) within
//! ten times as many tries (discarded ones do not count); the seed is drawn
//! at random, or taken from `PROOFS_SEED`, and printed on failure.

mod corollary_2_2_soundness_assignment;
mod corollary_3_2_no_locals_in_path_conditions;
mod corollary_3_4_soundness_assignment;
mod generators;
mod king_1976_properties;
mod lemma_2_1_substitution;
mod lemma_3_3_substitution;
mod lemma_4_3_definedness;
mod lemma_4_4_field_assignment;
mod lemma_4_4_object_creation;
mod mutants;
mod oo_generators;
mod oo_mutants;
mod oo_programs;
mod oo_tally;
mod parse_print_roundtrip;
mod proposition_3_1_no_locals;
mod recursive_agrees_with_basic;
mod symex_check;
mod theorem_2_3_correctness;
mod theorem_2_4_completeness;
mod theorem_3_5_correctness;
mod theorem_3_6_completeness;
mod theorem_4_5_incremental_wp;
mod theorem_4_5_path_condition;
mod unfolding_agrees_with_program_semantics;

use generators::{BasicProgram, RecursiveProgram};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult, Testable};
use std::fmt;
use std::rc::Rc;
use symex::theorems::{Basic, Recursive, Simulation};
use symex_semantics::program::Program;
use symex_semantics::system::Options;

/// Z3's time limit per query in the properties.
pub const TIMEOUT_MS: u64 = 2000;

/// The size quickcheck's own generators (vectors, numbers) work with.
const GENERATOR_SIZE: usize = 100;

fn from_env(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
}

pub fn cases() -> u64 {
    from_env("QUICKCHECK_TESTS").unwrap_or(1000)
}

fn seed() -> u64 {
    from_env("PROOFS_SEED").unwrap_or_else(rand::random)
}

fn quickcheck(seed: u64) -> QuickCheck {
    QuickCheck::new().rng(Gen::from_size_and_seed(GENERATOR_SIZE, seed))
}

/// Runs `property` and fails with the seed and the shrunk counterexample
/// if it finds one, or if fewer than `QUICKCHECK_TESTS` cases were checked
/// (the rest discarded).
pub fn holds<A: Testable>(name: &str, property: A) {
    holds_on(name, cases(), property);
}

/// [`holds`] on `tests` cases.
pub fn holds_on<A: Testable>(name: &str, tests: u64, property: A) {
    let seed = seed();
    match quickcheck(seed).tests(tests).max_tests(10 * tests).quicktest(property) {
        Err(counterexample) => panic!("{name} has a counterexample (PROOFS_SEED={seed}): {counterexample:?}"),
        Ok(checked) => assert!(checked >= tests, "{name}: only {checked} of {tests} cases checked (PROOFS_SEED={seed})"),
    }
}

/// Runs `property` against a mutant and fails if it finds no counterexample.
pub fn catches<A: Testable>(name: &str, property: A) {
    catches_on(name, cases(), property);
}

/// [`catches`] on `tests` cases.
pub fn catches_on<A: Testable>(name: &str, tests: u64, property: A) {
    let seed = seed();
    if let Ok(passed) = quickcheck(seed).tests(tests).max_tests(10 * tests).quicktest(property) {
        panic!("{name}: {passed} cases passed on the mutant (PROOFS_SEED={seed}); the property checks nothing");
    }
}

/// How a property gets the two systems of a program: the real ones, or a
/// mutant that breaks one rule.
pub trait Systems {
    type Simulation: Simulation;

    fn build(program: Rc<Program>, options: Options) -> Result<Self::Simulation, String>;
}

/// The systems of `symex_semantics::basic`.
pub struct Real;

impl Systems for Real {
    type Simulation = Basic;

    fn build(program: Rc<Program>, options: Options) -> Result<Basic, String> {
        Basic::real(program, options)
    }
}

/// The systems of `symex_semantics::recursive`.
pub struct RealRecursive;

impl Systems for RealRecursive {
    type Simulation = Recursive;

    fn build(program: Rc<Program>, options: Options) -> Result<Recursive, String> {
        Recursive::real(program, options)
    }
}

/// A generated program of some language.
pub trait Generated: Arbitrary + fmt::Debug {
    fn program(&self) -> Rc<Program>;
}

impl Generated for BasicProgram {
    fn program(&self) -> Rc<Program> {
        self.0.clone()
    }
}

impl Generated for RecursiveProgram {
    fn program(&self) -> Rc<Program> {
        self.0.clone()
    }
}

/// The systems `M` builds for `program`, or the property's error.
pub fn build<M: Systems>(program: &impl Generated, checked_arrays: bool) -> Result<M::Simulation, TestResult> {
    M::build(program.program(), options(checked_arrays)).map_err(TestResult::error)
}

/// A checker's verdict as a test result.
pub fn verdict<T>(result: Result<T, String>) -> TestResult {
    match result {
        Ok(_) => TestResult::passed(),
        Err(why) => TestResult::error(why),
    }
}

/// The options of a property run with or without `--checked-arrays`.
pub fn options(checked_arrays: bool) -> Options {
    Options { checked_arrays }
}
