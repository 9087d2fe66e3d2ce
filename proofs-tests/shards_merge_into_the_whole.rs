//! Splitting an exploration into shards is checked against the plain
//! exploration: on random programs, the JSON reports of N shards (N from
//! 1 to 5, `explore --shard I/N`) merged (`symex merge`) are the
//! one-process report: the same paths in the same order with the same
//! path and node numbers, statuses, path conditions, states and traces,
//! the same frontier and counters. A model is compared by its presence
//! only: which of the many models of a path condition Z3 returns depends
//! on the queries it has answered before, and each shard's Z3 has
//! answered other queries (every model, merged or not, is still checked
//! by the evaluator before it is reported). Solver calls and time are not
//! compared either: every shard repeats the top of the tree.
//! It must catch a shard that leaves the first prefix it owns unexplored.
//!
//! The same holds of workers on threads (`explore --jobs N`, N from 2 to
//! 4), each parsing the program and exploring its shard with its own
//! terms and Z3 context: the report their blocks are written into as
//! they finish equals the one-worker report. It must catch a writer that
//! writes the blocks in the order they finish.

use crate::distribution::{self, Required};
use crate::generators::BasicProgram;
use crate::mutated::with_mutant;
use crate::{build, catches_on, holds_on, Real, TIMEOUT_MS};
use quickcheck::TestResult;
use serde_json::Value;
use std::rc::Rc;
use symex::explore::share::Shard;
use symex::explore::{explore_into, Bounds, ExploreOptions, Observer};
use symex::mutants::Mutant;
use symex::report::json::JsonReport;
use symex::report::shards::{merge, write_json, ShardReport};
use symex::report::stream::{self, Failed, Streamed};
use symex::report::Header;
use symex::theorems::{Basic, Simulation};
use symex_semantics::program::Language;
use symex_semantics::syntax::parse_program;

/// A tenth of the usual number of cases: each explores its tree 2 to 6 times.
fn tenth() -> u64 {
    (crate::cases() / 10).max(1)
}

/// Explores `simulation`'s program, or the share of it `share` sets,
/// reporting to `observer`.
pub(crate) fn explore(
    simulation: &Basic,
    share: impl FnOnce(&mut ExploreOptions),
    observer: &mut dyn Observer,
) -> Result<(), String> {
    let mut options = ExploreOptions {
        bounds: Bounds {
            unfold: 2,
            depth: 400,
            ..Bounds::default()
        },
        timeout_ms: TIMEOUT_MS,
        ..ExploreOptions::default()
    };
    share(&mut options);
    explore_into(
        simulation.symbolic(),
        simulation.symbolic_initial(),
        simulation.inputs(),
        &options,
        observer,
    )
    .map(|_| ())
    .map_err(|e| e.to_string())
}

pub(crate) fn header(simulation: &Basic) -> Header {
    Header {
        program: "random".to_string(),
        language: Language::Basic,
        method: "forward",
        inputs: simulation.inputs().clone(),
    }
}

/// The JSON report of the exploration of `simulation`'s program, or of one shard of it.
fn report(simulation: &Basic, share: impl FnOnce(&mut ExploreOptions)) -> Result<String, String> {
    let mut out = Vec::new();
    let mut json = JsonReport::new(&mut out, header(simulation));
    explore(simulation, share, &mut json)?;
    String::from_utf8(out).map_err(|e| e.to_string())
}

fn parsed(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// The report the merge of `shards` writes, parsed.
fn merged(shards: Vec<ShardReport>) -> Result<Value, String> {
    let merged = merge(shards)?;
    let mut out = Vec::new();
    write_json(&merged, &mut out).map_err(|e| e.to_string())?;
    serde_json::from_slice(&out).map_err(|e| e.to_string())
}

/// `report` with each model replaced by whether there is one, without
/// the solver's calls and time.
pub(crate) fn comparable(mut report: Value) -> Value {
    for path in report["paths"].as_array_mut().into_iter().flatten() {
        path["model"] = Value::Bool(!path["model"].is_null());
    }
    if let Some(stats) = report["stats"].as_object_mut() {
        stats.remove("solver_calls");
        stats.remove("time_ms");
    }
    report
}

/// Whether Z3 gave up somewhere in `report` (a `status` of `unknown`, or
/// a count of `unknown` paths above zero, as `verify` reports them): its
/// answers to nonlinear queries depend on what it was asked before, which
/// differs between one process, shards and workers, so such a case says
/// nothing about the split and is discarded.
pub(crate) fn solver_gave_up(report: &Value) -> bool {
    match report {
        Value::Object(fields) => fields.iter().any(|(key, value)| {
            (key == "status" && value == "unknown")
                || (key == "unknown" && value.as_u64() > Some(0))
                || solver_gave_up(value)
        }),
        Value::Array(values) => values.iter().any(solver_gave_up),
        _ => false,
    }
}

fn merges_into_the_whole(program: BasicProgram, count: u8) -> TestResult {
    let simulation = match build::<Real>(&program, false) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    let count = usize::from(count % 5) + 1;
    let whole = match report(&simulation, |_| ()).and_then(|text| parsed(&text)) {
        Ok(whole) => whole,
        Err(error) => return TestResult::error(error),
    };
    // Discarded before the shards explore the tree again: where Z3 gives
    // up, each exploration waits for its time limit at every such query.
    if solver_gave_up(&whole) {
        return TestResult::discard();
    }
    let mut shards = Vec::new();
    for index in 0..count {
        match report(&simulation, |options| {
            options.shard = Some(Shard { index, count })
        })
        .and_then(|text| ShardReport::parse(&format!("shard {index}/{count}"), &text))
        {
            Ok(shard) => shards.push(shard),
            Err(error) => return TestResult::error(error),
        }
    }
    tally(&shards, &whole);
    let merged = match merged(shards) {
        Ok(merged) => merged,
        Err(error) => return TestResult::error(error),
    };
    if solver_gave_up(&merged) {
        return TestResult::discard();
    }
    let (whole, merged) = (comparable(whole), comparable(merged));
    match difference(&merged, &whole) {
        None => TestResult::passed(),
        Some(difference) => TestResult::error(format!("{count} shards merged: {difference}")),
    }
}

/// Where `merged` first differs from `whole`: a path, or the rest.
pub(crate) fn difference(merged: &Value, whole: &Value) -> Option<String> {
    if merged == whole {
        return None;
    }
    let paths = |report: &Value| report["paths"].as_array().cloned().unwrap_or_default();
    let (ours, theirs) = (paths(merged), paths(whole));
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        if a != b {
            return Some(format!(
                "path {i}:\n{a:#}\nin the whole exploration:\n{b:#}"
            ));
        }
    }
    Some(format!(
        "{} paths against {}; frontier {} against {}; stats {} against {}",
        ours.len(),
        theirs.len(),
        merged["unexplored"],
        whole["unexplored"],
        merged["stats"],
        whole["stats"]
    ))
}

/// What the case exercised.
fn tally(shards: &[ShardReport], whole: &Value) {
    if shards.len() > 1 {
        distribution::record_case("several shards");
    }
    let prefixes = shards[0]
        .ledger
        .as_ref()
        .map_or(0, |ledger| ledger.prefixes);
    if shards.len() > 1 && prefixes >= shards.len() {
        distribution::record_case("every shard has a prefix");
    }
    let places = |top: bool| {
        shards
            .iter()
            .any(|shard| shard.paths.iter().any(|path| path.place.top == top))
    };
    if shards.len() > 1 && places(true) && places(false) {
        distribution::record_case("paths above and below the split");
    }
    if whole["stats"]["pruned"].as_u64() > Some(0) {
        distribution::record_case("infeasible branch pruned");
    }
}

/// The report of `jobs` workers on threads, each building its own
/// program from `source` and sending its paths stretch by stretch to this
/// thread, which writes them in depth-first order, as `explore --jobs`
/// does; the mutant `broken` is switched on in every worker when it is on
/// here (the writer's mutant is this thread's).
fn on_threads(source: &str, jobs: usize) -> Result<Value, String> {
    let broken = symex::mutants::active(Mutant::ShardSkipsItsFirstPrefix);
    let mut out = Vec::new();
    stream::on_workers(
        jobs,
        &mut out,
        |worker, to_writer| {
            if broken {
                symex::mutants::set(Some(Mutant::ShardSkipsItsFirstPrefix));
            }
            let program = parse_program(source).map_err(|d| format!("{d:?}"))?;
            let simulation = Basic::real(Rc::new(program), crate::options(false))?;
            let name = format!("worker {}", worker.shard);
            let mut streamed = Streamed::new(name, header(&simulation), to_writer);
            explore(&simulation, |options| worker.share(options), &mut streamed)?;
            Ok(Some(streamed.into_report()))
        },
        Option::take,
    )
    .map_err(|failed| match failed {
        Failed::Output(error) => error.to_string(),
        Failed::Worker(error) | Failed::Internal(error) => error,
    })?;
    serde_json::from_slice(&out).map_err(|e| e.to_string())
}

fn workers_agree(program: BasicProgram, jobs: u8) -> TestResult {
    let simulation = match build::<Real>(&program, false) {
        Ok(simulation) => simulation,
        Err(error) => return error,
    };
    let jobs = usize::from(jobs % 3) + 2;
    let one = match report(&simulation, |_| ()).and_then(|text| parsed(&text)) {
        Ok(one) => one,
        Err(error) => return TestResult::error(error),
    };
    // As in `merges_into_the_whole`: discarded before exploring again.
    if solver_gave_up(&one) {
        return TestResult::discard();
    }
    let merged = match on_threads(&program.0.to_string(), jobs) {
        Ok(merged) => merged,
        Err(error) => return TestResult::error(error),
    };
    let paths = one["paths"].as_array().map_or(0, Vec::len);
    if paths >= jobs {
        distribution::record_case("a path per worker");
    }
    if one["stats"]["pruned"].as_u64() > Some(0) {
        distribution::record_case("infeasible branch pruned");
    }
    if solver_gave_up(&merged) {
        return TestResult::discard();
    }
    let (one, merged) = (comparable(one), comparable(merged));
    match difference(&merged, &one) {
        None => TestResult::passed(),
        Some(difference) => TestResult::error(format!("{jobs} workers: {difference}")),
    }
}

fn required() -> Required {
    Required::frequent(&[
        "several shards",
        "every shard has a prefix",
        "paths above and below the split",
        "infeasible branch pruned",
    ])
}

#[test]
fn the_shards_of_an_exploration_merge_into_the_whole() {
    holds_on(
        "shards merged against the whole exploration",
        tenth(),
        &required(),
        merges_into_the_whole as fn(BasicProgram, u8) -> TestResult,
    );
}

#[test]
fn the_merge_property_catches_a_shard_that_skips_a_prefix() {
    with_mutant(Mutant::ShardSkipsItsFirstPrefix, || {
        catches_on(
            "shards, one skipping its first prefix, against the whole exploration",
            tenth(),
            &required(),
            merges_into_the_whole as fn(BasicProgram, u8) -> TestResult,
        )
    });
}

fn required_of_workers() -> Required {
    Required::frequent(&["a path per worker", "infeasible branch pruned"])
}

#[test]
fn workers_on_threads_report_what_one_worker_does() {
    holds_on(
        "--jobs 2..4 against --jobs 1",
        tenth(),
        &required_of_workers(),
        workers_agree as fn(BasicProgram, u8) -> TestResult,
    );
}

#[test]
fn the_workers_property_catches_a_writer_that_writes_blocks_as_they_finish() {
    with_mutant(Mutant::BlocksWrittenAsTheyFinish, || {
        catches_on(
            "workers written in the order their blocks finish, against one worker",
            tenth(),
            &required_of_workers(),
            workers_agree as fn(BasicProgram, u8) -> TestResult,
        )
    });
}

#[test]
fn the_workers_property_catches_a_worker_that_skips_a_prefix() {
    with_mutant(Mutant::ShardSkipsItsFirstPrefix, || {
        catches_on(
            "workers, each skipping its first prefix, against one worker",
            tenth(),
            &required_of_workers(),
            workers_agree as fn(BasicProgram, u8) -> TestResult,
        )
    });
}
