//! `tests --jobs N` and `verify --jobs N` (N from 2 to 4) are checked
//! against `--jobs 1` on random programs, through the commands themselves
//! (the program written to a file, the JSON reports compared): the same
//! tests, numbered alike, with the same outcomes and replay verdicts; the
//! same verdict, counters and first counterexample (its path, error,
//! path condition and trace). Models are compared by their presence only,
//! as in `shards_merge_into_the_whole`: which model Z3 returns depends on
//! the queries it answered before, and each worker's Z3 answered others
//! (every model is still replayed or run concretely before it is shown).
//! Solver calls and time are not compared: every worker repeats the top
//! of the tree.
//!
//! It must catch workers' stretches taken in the order they finish rather
//! than depth-first order (a counterexample chosen by completion order).

use crate::distribution::{self, Required};
use crate::generators::BasicProgram;
use crate::mutated::with_mutant;
use crate::shards_merge_into_the_whole::solver_gave_up;
use crate::{catches_on, holds_on, TIMEOUT_MS};
use clap::Parser;
use quickcheck::TestResult;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use symex::commands::tests::{self, TestsArgs};
use symex::commands::verify::{self, VerifyArgs};
use symex::mutants::Mutant;

/// A tenth of the usual number of cases: each runs four commands, two on
/// several workers.
fn tenth() -> u64 {
    (crate::cases() / 10).max(1)
}

#[derive(Parser)]
struct Tests {
    #[command(flatten)]
    args: TestsArgs,
}

#[derive(Parser)]
struct Verify {
    #[command(flatten)]
    args: VerifyArgs,
}

/// A file of its own for each case (the properties run on several threads).
fn program_file(program: &BasicProgram) -> Result<PathBuf, String> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let file = std::env::temp_dir().join(format!(
        "symex-jobs-{}-{}.sx",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&file, program.0.to_string()).map_err(|e| e.to_string())?;
    Ok(file)
}

/// The options both commands run with.
fn options(file: &str, jobs: usize) -> Vec<String> {
    let timeout = TIMEOUT_MS.to_string();
    let jobs = jobs.to_string();
    [
        file,
        "--unfold",
        "2",
        "--depth",
        "400",
        "--timeout-ms",
        &timeout,
        "--format",
        "json",
        "--jobs",
        &jobs,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn report(run: impl FnOnce(&mut Vec<u8>) -> Result<(), String>) -> Result<Value, String> {
    let mut out = Vec::new();
    run(&mut out)?;
    serde_json::from_slice(&out).map_err(|e| e.to_string())
}

fn tests_report(file: &str, jobs: usize) -> Result<Value, String> {
    let words = std::iter::once("tests".to_string()).chain(options(file, jobs));
    let Tests { args } = Tests::try_parse_from(words).map_err(|e| e.to_string())?;
    report(|out| {
        tests::command(&args, out)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
}

fn verify_report(file: &str, jobs: usize) -> Result<Value, String> {
    let words = std::iter::once("verify".to_string()).chain(options(file, jobs));
    let Verify { args } = Verify::try_parse_from(words).map_err(|e| e.to_string())?;
    report(|out| {
        verify::command(&args, out)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
}

/// The fields whose values are a model (or computed from one).
const MODELS: [&str; 6] = [
    "inputs",
    "final_state",
    "heap",
    "final_heap",
    "as_heap",
    "run",
];

/// `report` with each model replaced by whether there is one, without
/// the solver's calls and time.
fn comparable(report: &mut Value) {
    match report {
        Value::Object(fields) => {
            for (key, value) in fields.iter_mut() {
                if MODELS.contains(&key.as_str()) {
                    *value = Value::Bool(!value.is_null());
                } else {
                    comparable(value);
                }
            }
            fields.shift_remove("time_ms");
            fields.shift_remove("solver_calls");
        }
        Value::Array(values) => values.iter_mut().for_each(comparable),
        _ => {}
    }
}

fn jobs_agree(program: BasicProgram, jobs: u8) -> TestResult {
    let jobs = usize::from(jobs % 3) + 2;
    let file = match program_file(&program) {
        Ok(file) => file,
        Err(error) => return TestResult::error(error),
    };
    let name = file.to_string_lossy().into_owned();
    let result = compare(&name, jobs);
    let _ = std::fs::remove_file(&file);
    match result {
        Ok(true) => TestResult::passed(),
        Ok(false) => TestResult::discard(),
        Err(error) => TestResult::error(format!("--jobs {jobs}: {error}")),
    }
}

/// Whether the reports of one job and of `jobs` agree, or `false` when Z3
/// gave up in either (see [`solver_gave_up`]). `verify` runs first: its
/// report counts the paths where Z3 gave up, which the tests report does
/// not show, and under load a query that one job decides can time out on
/// a worker (`x % (-a[0] - 1)`), leaving a path without its test.
fn compare(file: &str, jobs: usize) -> Result<bool, String> {
    let mut verified_one = verify_report(file, 1)?;
    if solver_gave_up(&verified_one) {
        return Ok(false);
    }
    let mut verified_many = verify_report(file, jobs)?;
    if solver_gave_up(&verified_many) {
        return Ok(false);
    }
    let mut one = tests_report(file, 1)?;
    if solver_gave_up(&one) {
        return Ok(false);
    }
    let mut many = tests_report(file, jobs)?;
    if solver_gave_up(&many) {
        return Ok(false);
    }
    let tests = one["tests"].as_array().map_or(0, Vec::len);
    if tests >= 2 {
        distribution::record_case("several tests");
    }
    comparable(&mut one);
    comparable(&mut many);
    if one != many {
        return Err(format!("tests:\n{many:#}\none job:\n{one:#}"));
    }
    match verified_one["counterexample"]["path"].as_u64() {
        Some(0) => distribution::record_case("a counterexample on the first path"),
        Some(_) => distribution::record_case("a counterexample after the first path"),
        None => distribution::record_case("no counterexample"),
    }
    if verified_one["stopped"] == Value::Bool(true) {
        distribution::record_case("verification stopped with paths left");
    }
    comparable(&mut verified_one);
    comparable(&mut verified_many);
    if verified_one != verified_many {
        return Err(format!(
            "verify:\n{verified_many:#}\none job:\n{verified_one:#}"
        ));
    }
    Ok(true)
}

/// A counterexample after the first path comes in about one case in
/// sixteen (3 to 11 of 100 over seeds), too close to the twentieth that
/// `frequent` asks for to hold on every seed (`PROOFS_SEED=13785825642737884403`
/// gave 3): it is required, not required often.
fn required() -> Required {
    Required::frequent(&["several tests", "no counterexample"])
        .and_cases(&["a counterexample after the first path"])
}

#[test]
fn tests_and_verify_on_workers_report_what_one_job_does() {
    holds_on(
        "tests and verify, --jobs 2..4 against --jobs 1",
        tenth(),
        &required(),
        jobs_agree as fn(BasicProgram, u8) -> TestResult,
    );
}

#[test]
fn the_jobs_property_catches_stretches_taken_in_completion_order() {
    with_mutant(Mutant::StretchesInCompletionOrder, || {
        catches_on(
            "tests and verify with the stretches in completion order, against one job",
            tenth(),
            &required(),
            jobs_agree as fn(BasicProgram, u8) -> TestResult,
        )
    });
}
