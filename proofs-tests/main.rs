//! The paper's results as QuickCheck properties, one file per result, each
//! run on random well-typed programs against the real transition systems
//! (it must hold) and against deliberately broken rules (it must find a
//! counterexample: a property that passes on a mutant checks nothing).
//!
//! Every property must check `QUICKCHECK_TESTS` cases (default 1000) within
//! ten times as many tries (discarded ones do not count), and exercise every
//! case it requires (each rule of the systems it is about, each case of its
//! checker) at least a few times, within three runs of that many cases (a
//! rare case one seed misses is looked for on the next); each property
//! prints its distribution report
//! (`cargo test --test proofs -- --nocapture`). The seed is drawn at random,
//! or taken from `PROOFS_SEED`, and printed.

mod aliasing_resolved_under_the_path;
mod checkers_see_everything;
mod concolic_agrees_with_explore;
mod concolic_on_workers_agrees;
mod corollary_2_2_soundness_assignment;
mod corollary_3_2_no_locals_in_path_conditions;
mod corollary_3_4_soundness_assignment;
mod corruption;
mod distribution;
mod forward_agrees_with_wp;
mod fuzz;
mod generators;
mod jobs_agree_with_one_job;
mod king_1976_properties;
mod king_1976_properties_merged;
mod king_1976_verifier;
mod lazy_initialisation;
mod lemma_2_1_substitution;
mod lemma_3_3_substitution;
mod lemma_4_3_definedness;
mod lemma_4_4_field_assignment;
mod lemma_4_4_object_creation;
mod machine_integers;
mod merged_cases_agree_with_plain;
mod models_shrink_greedily;
mod mutants;
mod mutated;
mod oo_generators;
mod oo_mutants;
mod oo_programs;
mod output_independent_of_history;
mod parse_print_roundtrip;
mod proposition_3_1_no_locals;
mod recursive_agrees_with_basic;
mod reference_explorer;
mod shards_merge_into_the_whole;
mod shared_pieces;
mod simplifier_normal_form;
mod subsumption_agrees_with_plain_lazy;
mod surface_agrees_with_desugared;
mod symex_check;
mod theorem_2_3_correctness;
mod theorem_2_4_completeness;
mod theorem_3_5_correctness;
mod theorem_3_6_completeness;
mod theorem_4_5_incremental_wp;
mod theorem_4_5_path_condition;
mod theorems_on_desugared_programs;
mod unfolding_agrees_with_program_semantics;
mod unread_models_agree;

use distribution::Required;
use generators::{BasicProgram, Checked, Drawn, RecursiveProgram};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult, Testable};
use std::fmt;
use std::rc::Rc;
use symex::theorems::{Basic, Cases, Recursive, Simulation};
use symex_semantics::program::Program;
use symex_semantics::system::Options;

/// Z3's time limit per query in the properties.
pub const TIMEOUT_MS: u64 = 2000;

/// The size quickcheck's own generators (vectors, numbers) work with.
const GENERATOR_SIZE: usize = 100;

/// The number in the environment variable `name`, if set.
pub fn from_env(name: &str) -> Option<u64> {
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

/// Why a property run failed.
enum Failure {
    Counterexample(String),
    Uncovered(String),
}

/// How many runs of `tests` cases a property may take to see its required
/// cases: a rare case a seed happens to miss (one in a hundred cases or
/// fewer) is looked for again on the following seeds, while a case the
/// generators never reach, or a checker skips, still fails.
const ROUNDS: u64 = 3;

/// Runs `property` on `tests` cases, and on up to [`ROUNDS`] runs of as
/// many (seeds following the first) while a required case is seen too
/// rarely ([`distribution::Required`]); prints its distribution report. A
/// counterexample, or a required case still too rare, is a failure.
fn run<A: Testable + Copy>(
    name: &str,
    tests: u64,
    required: &Required,
    property: A,
) -> Result<u64, Failure> {
    let seed = seed();
    distribution::reset();
    let mut checked = 0;
    let mut missing = Vec::new();
    for round in 0..ROUNDS {
        let result = quickcheck(seed.wrapping_add(round))
            .tests(tests)
            .max_tests(10 * tests)
            .quicktest(property);
        let passed = match result {
            Ok(passed) => passed,
            Err(counterexample) => {
                report(name, seed, round + 1);
                return Err(Failure::Counterexample(format!(
                    "{name} has a counterexample (PROOFS_SEED={seed}, run {}): {counterexample:?}",
                    round + 1
                )));
            }
        };
        assert!(
            passed >= tests,
            "{name}: only {passed} of {tests} cases checked (PROOFS_SEED={seed}, run {})",
            round + 1
        );
        checked += passed;
        missing = distribution::with_tally(|tally| required.missing(tally, checked));
        if missing.is_empty() {
            report(name, seed, round + 1);
            return Ok(checked);
        }
    }
    report(name, seed, ROUNDS);
    let missing: Vec<String> = missing
        .iter()
        .map(|(case, seen, n)| format!("{case} ({seen}×, at least {n}×)"))
        .collect();
    Err(Failure::Uncovered(format!(
        "{name}: required cases seen too rarely in {ROUNDS} runs: {} (PROOFS_SEED={seed})",
        missing.join(", ")
    )))
}

/// Prints the distribution report of a property's `runs` runs from `seed`.
fn report(name: &str, seed: u64, runs: u64) {
    let tally = distribution::take();
    println!(
        "{}   seed: PROOFS_SEED={seed}, {runs} run(s)",
        tally.report(name)
    );
}

/// Runs `property` and fails on a counterexample, on fewer than
/// `QUICKCHECK_TESTS` cases checked (the rest discarded), or on a required
/// case exercised too rarely.
pub fn holds<A: Testable + Copy>(name: &str, required: &Required, property: A) {
    holds_on(name, cases(), required, property);
}

/// [`holds`] on `tests` cases.
pub fn holds_on<A: Testable + Copy>(name: &str, tests: u64, required: &Required, property: A) {
    match run(name, tests, required, property) {
        Ok(_) => {}
        Err(Failure::Counterexample(why) | Failure::Uncovered(why)) => panic!("{why}"),
    }
}

/// Runs `property` against a mutant and fails unless it finds a counterexample.
pub fn catches<A: Testable + Copy>(name: &str, required: &Required, property: A) {
    catches_on(name, cases(), required, property);
}

/// [`catches`] on `tests` cases.
pub fn catches_on<A: Testable + Copy>(name: &str, tests: u64, required: &Required, property: A) {
    match run(name, tests, required, property) {
        Err(Failure::Counterexample(_)) => {}
        Err(Failure::Uncovered(why)) => {
            panic!("{name}: no counterexample on the mutant, only {why}")
        }
        Ok(passed) => {
            panic!("{name}: {passed} cases passed on the mutant; the property checks nothing")
        }
    }
}

/// Runs `property` against a mutant checker that skips a case and fails
/// unless the run reports that case as never (or too rarely) exercised.
pub fn finds_uncovered<A: Testable + Copy>(name: &str, required: &Required, property: A) {
    match run(name, cases(), required, property) {
        Err(Failure::Uncovered(_)) => {}
        Err(Failure::Counterexample(why)) => panic!("{name}: expected a coverage failure, got {why}"),
        Ok(passed) => panic!("{name}: {passed} cases passed with every required case covered; the coverage checks nothing"),
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

impl<P: Generated + Drawn> Generated for Checked<P> {
    fn program(&self) -> Rc<Program> {
        self.0.program()
    }
}

/// The systems `M` builds for `program`, or the property's error; the
/// program's constructs go into the distribution report.
pub fn build<M: Systems>(
    program: &impl Generated,
    checked_arrays: bool,
) -> Result<M::Simulation, TestResult> {
    let program = program.program();
    distribution::record_program(&program);
    M::build(program, options(checked_arrays)).map_err(TestResult::error)
}

/// A checker's verdict as a test result; the cases it checked go into the
/// distribution report.
pub fn verdict(result: Result<Cases, String>) -> TestResult {
    match result {
        Ok(cases) => {
            distribution::record_checked(&cases);
            TestResult::passed()
        }
        Err(why) => TestResult::error(why),
    }
}

/// A result of a property without a checker as a test result.
pub fn outcome(result: Result<(), String>) -> TestResult {
    match result {
        Ok(()) => TestResult::passed(),
        Err(why) => TestResult::error(why),
    }
}

/// The options of a property run with or without `--checked-arrays`.
pub fn options(checked_arrays: bool) -> Options {
    Options {
        checked_arrays,
        ..Options::default()
    }
}
