//! The `symex` binary fuzzed with grammar-based random programs (the
//! properties' generators: basic programs, programs with procedures — a
//! third of them with a `bool[]` input — and a fifth oo programs) through
//! every command — `run`, `explore`, `tests`, `verify`, `check` — asserting
//! that none panics, each exits as SPEC §2 says, prints valid JSON, ends
//! within its time limit (plus a margin), and that every model it reports
//! replays: `run --input` (or `--heap` for oo programs) accepts it and ends
//! as the path or counterexample predicted.
//!
//! Every command runs with `--time-limit-ms` and must end within the limit
//! plus `FUZZ_MARGIN_MS` (default 1 s); the largest overrun of each command
//! is printed. Before the random programs come the corner cases of issue 12
//! (`y := y * y + y` iterated, whose numbers double in size at every step).
//!
//! `FUZZ_PROGRAMS` programs (default 12, seconds) from `FUZZ_SEED` (default
//! drawn at random), only oo programs with `FUZZ_LANGUAGE=oo`; the seed is printed, and so are every failure and the
//! exit codes of each command. A long run:
//! `FUZZ_PROGRAMS=10000 cargo test --release --test proofs fuzz -- --nocapture`
//! (about a quarter of a second a program in release, two runs side by
//! side on a 2-core machine).

use crate::generators::{BasicProgram, RecursiveProgram};
use crate::oo_programs::OoProgram;
use crate::{from_env, Generated};
use quickcheck::{Arbitrary, Gen};
use serde_json::Value as Json;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;
use std::time::{Duration, Instant};
use symex_semantics::program::{Language, Program, Stmt};
use symex_semantics::term::{BinOp, Name, Sort, Term};

/// `--time-limit-ms` of every command.
const TIME_LIMIT_MS: u64 = 2000;

/// How far past its time limit a command may end (process start, Z3's
/// own query, printing), unless `FUZZ_MARGIN_MS` says otherwise.
const MARGIN_MS: u64 = 1000;

/// Programs fuzzed before the random ones: issue 12's loop whose numbers
/// double in size at every iteration, from an input and from a constant.
const CORNERS: [&str; 3] = [
    "i := 0;\nwhile i < 20 {\n    y := y * y + y;\n    i := i + 1\n}\n",
    "y := 2;\ni := 0;\nwhile i < 20 {\n    y := y * y + y;\n    i := i + 1\n}\n",
    "while true {\n    y := y * y + y\n}\n",
];

/// What one command did.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

thread_local! {
    /// How often each command exited with each code (or a signal) in this run.
    static EXITS: RefCell<BTreeMap<String, u64>> = RefCell::default();
    /// The longest time past its time limit each command took (zero if none did).
    static OVERRUNS: RefCell<BTreeMap<String, Duration>> = RefCell::default();
    /// Printed models run by `run` to their predicted end (outcome, and for
    /// tests the final state and heap).
    static REPLAYED: RefCell<u64> = const { RefCell::new(0) };
}

fn symex(args: &[&str]) -> Result<Ran, String> {
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .map_err(|e| e.to_string())?;
    let elapsed = start.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let exit = output
        .status
        .code()
        .map_or("a signal".to_string(), |code| format!("exit {code}"));
    EXITS.with(|exits| {
        *exits
            .borrow_mut()
            .entry(format!("{} {exit}", args[0]))
            .or_default() += 1
    });
    let code = output.status.code().ok_or_else(|| {
        format!(
            "`symex {}` was killed by a signal: {stderr}",
            args.join(" ")
        )
    })?;
    if code == 101 || stderr.contains("panicked") {
        return Err(format!("`symex {}` panicked: {stderr}", args.join(" ")));
    }
    Ok(Ran {
        code,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: stderr.into_owned(),
        elapsed,
    })
}

fn parsed(ran: &Ran, command: &str) -> Result<Json, String> {
    serde_json::from_str(&ran.stdout).map_err(|e| {
        format!(
            "`{command}` printed no valid JSON ({e}): {}{}",
            ran.stdout, ran.stderr
        )
    })
}

fn expect_code(ran: &Ran, allowed: &[i32], command: &str) -> Result<(), String> {
    if allowed.contains(&ran.code) {
        Ok(())
    } else {
        Err(format!(
            "`{command}` exited {} (SPEC allows {allowed:?}): {}",
            ran.code, ran.stdout
        ))
    }
}

fn within_limit(ran: &Ran, command: &str) -> Result<(), String> {
    let margin = from_env("FUZZ_MARGIN_MS").unwrap_or(MARGIN_MS);
    let overrun = ran
        .elapsed
        .saturating_sub(Duration::from_millis(TIME_LIMIT_MS));
    OVERRUNS.with(|overruns| {
        let mut overruns = overruns.borrow_mut();
        let longest = overruns.entry(command.to_string()).or_default();
        *longest = (*longest).max(overrun);
    });
    if overrun <= Duration::from_millis(margin) {
        Ok(())
    } else {
        Err(format!(
            "`{command}` took {} ms with --time-limit-ms {TIME_LIMIT_MS}",
            ran.elapsed.as_millis()
        ))
    }
}

/// A JSON value (SPEC §2.1) as a `--input` value.
fn input_value(value: &Json) -> Option<String> {
    Some(match value {
        Json::Number(n) => n.to_string(),
        Json::String(big) => big.clone(),
        Json::Bool(b) => b.to_string(),
        Json::Object(array) => {
            let entries: Vec<String> = array
                .get("entries")?
                .as_object()?
                .iter()
                .map(|(i, v)| Some(format!(", {i}: {}", input_value(v)?)))
                .collect::<Option<_>>()?;
            format!(
                "{{default: {}{}; len {}}}",
                input_value(array.get("default")?)?,
                entries.concat(),
                input_value(array.get("len")?)?
            )
        }
        _ => return None,
    })
}

/// A fuzzed program written to `file`.
struct Fuzzed<'a> {
    file: &'a str,
    language: Language,
}

/// Outcomes of `run` that a limit of the implementation cut: they decide
/// nothing about the path a model stands for.
const CUT: [&str; 3] = ["step-limit", "time-limit", "integer-bound"];

/// `run` on the inputs of a model: its outcome and error. A model of an oo
/// program is a heap, given with `--heap`.
fn replay(program: &Fuzzed, model: &Json, flags: &[&str]) -> Result<(String, Json), String> {
    let report = run_report(program, model, flags)?;
    let outcome = report["outcome"].as_str().unwrap_or_default().to_string();
    Ok((outcome, report["error"].clone()))
}

/// `run --format json FLAGS…` on the inputs of a model, as printed: its
/// whole report.
fn run_report(program: &Fuzzed, model: &Json, flags: &[&str]) -> Result<Json, String> {
    let limit = TIME_LIMIT_MS.to_string();
    let mut args = vec![
        "run",
        program.file,
        "--format",
        "json",
        "--max-steps",
        "100000",
        "--time-limit-ms",
        &limit,
    ];
    args.extend(flags);
    let heap = format!("{}.heap.json", program.file);
    let inputs: Vec<String> = if program.language == Language::Oo {
        std::fs::write(&heap, model.to_string()).map_err(|e| e.to_string())?;
        vec![heap.clone()]
    } else {
        model
            .as_object()
            .ok_or_else(|| format!("a model is no object: {model}"))?
            .iter()
            .map(|(x, v)| {
                input_value(v)
                    .map(|v| format!("{x}={v}"))
                    .ok_or_else(|| format!("`{x}`'s value {v} is no input"))
            })
            .collect::<Result<_, _>>()?
    };
    let flag = if program.language == Language::Oo {
        "--heap"
    } else {
        "--input"
    };
    for input in &inputs {
        args.extend([flag, input.as_str()]);
    }
    let ran = symex(&args)?;
    within_limit(&ran, "run")?;
    let report = parsed(&ran, "run")?;
    let outcome = report["outcome"].as_str().unwrap_or_default().to_string();
    let code = match outcome.as_str() {
        "terminated" | "assumption-violated" => 0,
        "error" => 1,
        _ => 3,
    };
    expect_code(&ran, &[code], &format!("run {}", inputs.join(" ")))?;
    if program.language == Language::Oo {
        std::fs::remove_file(&heap).map_err(|e| e.to_string())?;
    }
    Ok(report)
}

/// `explore`: every path with a model replays to its status.
fn explore(program: &Fuzzed, checked: bool) -> Result<(), String> {
    let limit = TIME_LIMIT_MS.to_string();
    let mut args = vec![
        "explore",
        program.file,
        "--format",
        "json",
        "--unfold",
        "3",
        "--max-paths",
        "16",
        "--time-limit-ms",
        &limit,
    ];
    if checked {
        args.push("--checked-arrays");
    }
    let ran = symex(&args)?;
    within_limit(&ran, "explore")?;
    expect_code(&ran, &[0, 3], "explore")?;
    let report = parsed(&ran, "explore")?;
    for path in report["paths"]
        .as_array()
        .ok_or("`explore` printed no paths")?
    {
        let status = path["status"].as_str().unwrap_or_default();
        if path["model"].is_null()
            || !["terminated", "assumption-violated", "error"].contains(&status)
        {
            continue;
        }
        let (outcome, error) = replay(program, &path["model"], checked_arrays(checked))?;
        if CUT.contains(&outcome.as_str()) {
            continue;
        }
        if outcome != status || error != path["error"] {
            return Err(format!(
                "path {} is {status} {}, its model {} runs to {outcome} {error}",
                path["id"], path["error"], path["model"]
            ));
        }
        REPLAYED.with(|replayed| *replayed.borrow_mut() += 1);
    }
    Ok(())
}

/// `tests`: every test replays, and so do its inputs as printed: `run` on
/// them ends in the printed outcome, final state and final heap; a limit
/// ends it as inconclusive (3), with the tests made before.
fn tests(program: &Fuzzed) -> Result<(), String> {
    let file = program.file;
    let limit = TIME_LIMIT_MS.to_string();
    let ran = symex(&[
        "tests",
        file,
        "--format",
        "json",
        "--unfold",
        "3",
        "--max-paths",
        "16",
        "--time-limit-ms",
        &limit,
    ])?;
    within_limit(&ran, "tests")?;
    expect_code(&ran, &[0, 3], "tests")?;
    let report = parsed(&ran, "tests")?;
    for test in report["tests"]
        .as_array()
        .ok_or("`tests` printed no tests")?
    {
        if test["replayed"] != true {
            if ran.code == 3 {
                continue;
            }
            return Err(format!("a test does not replay: {test}"));
        }
        let printed = if program.language == Language::Oo {
            &test["heap"]
        } else {
            &test["inputs"]
        };
        let run = run_report(program, printed, &[])?;
        let outcome = match (run["outcome"].as_str(), run["error"].as_str()) {
            (Some("error"), Some(error)) => error.to_string(),
            (outcome, _) => outcome.unwrap_or_default().to_string(),
        };
        if CUT.contains(&outcome.as_str()) {
            continue;
        }
        let heap_differs = program.language == Language::Oo && run["heap"] != test["final_heap"];
        if outcome != test["outcome"] || run["state"] != test["final_state"] || heap_differs {
            return Err(format!(
                "the test's printed inputs {printed} run to {outcome}, {} {}; it predicts {}, {} {}",
                run["state"], run["heap"], test["outcome"], test["final_state"], test["final_heap"]
            ));
        }
        REPLAYED.with(|replayed| *replayed.borrow_mut() += 1);
    }
    Ok(())
}

/// `verify`: a counterexample runs into its error (`assertion-failed`, or
/// `nil-dereference` in an oo program).
fn verify(program: &Fuzzed) -> Result<(), String> {
    let file = program.file;
    let limit = TIME_LIMIT_MS.to_string();
    let ran = symex(&[
        "verify",
        file,
        "--format",
        "json",
        "--unfold",
        "3",
        "--max-paths",
        "16",
        "--time-limit-ms",
        &limit,
    ])?;
    within_limit(&ran, "verify")?;
    expect_code(&ran, &[0, 1, 3], "verify")?;
    let report = parsed(&ran, "verify")?;
    if ran.code != 1 {
        return Ok(());
    }
    let counterexample = &report["counterexample"];
    // A Floyd condition that fails from a cut point has no input to replay.
    if counterexample.is_null() && report["verdict"] == "fails" {
        return Ok(());
    }
    // An annotation's violation is an error of the run that checks them.
    let annotated = report["conditions"].is_array();
    let flags: &[&str] = if annotated {
        &["--check-annotations"]
    } else {
        &[]
    };
    let (outcome, error) = replay(program, &counterexample["inputs"], flags)?;
    if CUT.contains(&outcome.as_str()) {
        return Ok(());
    }
    if outcome != "error" || error != counterexample["error"] {
        return Err(format!(
            "the counterexample {} runs to {outcome} {error}, not {}",
            counterexample["inputs"], counterexample["error"]
        ));
    }
    REPLAYED.with(|replayed| *replayed.borrow_mut() += 1);
    Ok(())
}

/// `check`: no disagreement between the two semantics (for oo programs,
/// the §4 results); the time limit ends it as inconclusive (3), with no report.
fn check(program: &Fuzzed, seed: u64) -> Result<(), String> {
    let seed = seed.to_string();
    let limit = TIME_LIMIT_MS.to_string();
    let ran = symex(&[
        "check",
        program.file,
        "--runs",
        "3",
        "--seed",
        &seed,
        "--format",
        "json",
        "--time-limit-ms",
        &limit,
    ])?;
    within_limit(&ran, "check")?;
    expect_code(&ran, &[0, 3], "check")?;
    if ran.code == 0 {
        parsed(&ran, "check")?;
    }
    Ok(())
}

/// `run` on the default inputs.
fn run(program: &Fuzzed) -> Result<(), String> {
    let nothing = if program.language == Language::Oo {
        serde_json::json!({"objects": {}, "vars": {}})
    } else {
        serde_json::json!({})
    };
    replay(program, &nothing, &[]).map(|_| ())
}

/// `program` with a `bool[]` input `ba`, read at a boundary-biased index.
fn with_boolean_array(program: &Program, index: i64) -> Program {
    let ba = Term::var("ba", Sort::bool_array());
    let mut globals: BTreeMap<Name, Sort> = program.globals.clone();
    globals.insert("ba".into(), Sort::bool_array());
    let mut main = vec![
        Stmt::Assume(Term::binary(BinOp::Gt, Term::len("ba"), Term::int(0))),
        Stmt::Assign(
            "b".into(),
            Term::or(
                Term::select(ba, Term::int(index)),
                Term::var("b", Sort::Bool),
            ),
        ),
    ];
    main.extend(program.main.iter().cloned());
    Program {
        globals,
        loops: Default::default(),
        statements: Default::default(),
        main: Rc::from(main),
        annotations: Default::default(),
        ..program.clone()
    }
}

/// The `n`-th fuzzed program of the run seeded `seed`: a fifth oo
/// programs, the rest basic or with procedures, a third of those with a
/// `bool[]` input.
fn program(seed: u64, n: u64) -> Program {
    let mut g = Gen::from_size_and_seed(100, seed.wrapping_add(n));
    if n % 5 == 4 || std::env::var("FUZZ_LANGUAGE").is_ok_and(|language| language == "oo") {
        return (*OoProgram::arbitrary(&mut g).0).clone();
    }
    let program = if n.is_multiple_of(2) {
        BasicProgram::arbitrary(&mut g).program()
    } else {
        RecursiveProgram::arbitrary(&mut g).program()
    };
    if n.is_multiple_of(3) {
        with_boolean_array(&program, (n % 4) as i64 - 1)
    } else {
        (*program).clone()
    }
}

/// Heaps `run --heap` must refuse with a message (exit 2), never a panic:
/// not JSON, a dangling reference, an unknown class, a value of the wrong type.
const MALFORMED_HEAPS: [&str; 4] = [
    "{\"objects\": {\"o1\": {\"class\": \"N\"",
    "{\"objects\": {\"o1\": {\"class\": \"N\", \"next\": \"o7\"}}, \"vars\": {\"x\": \"o1\"}}",
    "{\"objects\": {\"o2\": {\"class\": \"Q\"}}}",
    "{\"vars\": {\"x\": 3, \"i\": null}}",
];

/// `run --heap` with each malformed heap: exit 2 and a message.
fn malformed_heaps(program: &Fuzzed) -> Result<(), String> {
    let heap = format!("{}.bad.json", program.file);
    for text in MALFORMED_HEAPS {
        std::fs::write(&heap, text).map_err(|e| e.to_string())?;
        let ran = symex(&["run", program.file, "--heap", &heap])?;
        expect_code(&ran, &[2], &format!("run --heap {text}"))?;
        if ran.stderr.trim().is_empty() {
            return Err(format!("`run --heap {text}` refused it without a word"));
        }
    }
    std::fs::remove_file(&heap).map_err(|e| e.to_string())
}

fn every_command(program: &Fuzzed, seed: u64) -> Result<(), String> {
    run(program)?;
    if program.language == Language::Oo {
        malformed_heaps(program)?;
    }
    explore(program, false)?;
    explore(program, true)?;
    tests(program)?;
    verify(program)?;
    check(program, seed)
}

#[test]
fn every_command_survives_fuzzed_programs() {
    let seed = from_env("FUZZ_SEED").unwrap_or_else(rand::random);
    let programs = from_env("FUZZ_PROGRAMS").unwrap_or(12);
    println!("fuzzing {programs} programs, FUZZ_SEED={seed}");
    let dir: PathBuf = std::env::temp_dir().join(format!("symex-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = 0;
    let corners = CORNERS.iter().enumerate().map(|(n, source)| {
        (
            format!("corner case {n}"),
            source.to_string(),
            Language::Basic,
        )
    });
    let generated = (0..programs).map(|n| {
        let program = program(seed, n);
        (
            format!("fuzzed program {n}"),
            program.to_string(),
            program.language,
        )
    });
    for (n, (name, source, language)) in corners.chain(generated).enumerate() {
        let file = dir.join(format!("p{n}.sx"));
        std::fs::write(&file, &source).unwrap();
        if let Err(why) = every_command(
            &Fuzzed {
                file: path(&file),
                language,
            },
            seed,
        ) {
            failures += 1;
            println!("{name} (FUZZ_SEED={seed}):\n{source}\n{why}\n");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let exits = EXITS.with(|exits| exits.take());
    let exits: Vec<String> = exits
        .iter()
        .map(|(exit, n)| format!("{exit}: {n}"))
        .collect();
    let overruns = OVERRUNS.with(|overruns| overruns.take());
    let overruns: Vec<String> = overruns
        .iter()
        .map(|(command, overrun)| format!("{command} {} ms", overrun.as_millis()))
        .collect();
    println!(
        "fuzzed {} corner and {programs} random programs (FUZZ_SEED={seed}): {failures} failed; {}",
        CORNERS.len(),
        exits.join(", ")
    );
    println!(
        "longest time past --time-limit-ms {TIME_LIMIT_MS}: {}",
        overruns.join(", ")
    );
    let replayed = REPLAYED.with(|replayed| replayed.take());
    println!("printed models replayed to their predicted end: {replayed}");
    assert_eq!(
        failures, 0,
        "{failures} of {programs} fuzzed programs failed (FUZZ_SEED={seed}), printed above"
    );
}

/// `--checked-arrays` when `checked`.
fn checked_arrays(checked: bool) -> &'static [&'static str] {
    if checked {
        &["--checked-arrays"]
    } else {
        &[]
    }
}

fn path(file: &Path) -> &str {
    file.to_str().unwrap()
}

/// Every `.sx` file under `dir`, in name order.
fn examples(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(examples(&path));
        } else if path.extension().is_some_and(|ext| ext == "sx") {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// Every paper example and lab program through `explore`, `tests` and
/// `verify`: each model, test and counterexample they print is run as
/// printed and must end as predicted (tests: also in the predicted state).
#[test]
fn every_printed_model_of_every_example_and_lab_replays() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<PathBuf> = ["paper-examples", "labs"]
        .iter()
        .flat_map(|dir| examples(&root.join(dir)))
        .collect();
    assert!(files.len() >= 50, "only {} examples found", files.len());
    let mut failures = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        let Ok(program) = symex_semantics::syntax::parse_program(&source) else {
            continue;
        };
        let fuzzed = Fuzzed {
            file: path(file),
            language: program.language,
        };
        let checked = [false, true];
        let outcome = checked
            .iter()
            .try_for_each(|&checked| explore(&fuzzed, checked))
            .and_then(|()| tests(&fuzzed))
            .and_then(|()| verify(&fuzzed));
        if let Err(why) = outcome {
            failures.push(format!("{}: {why}", file.display()));
        }
    }
    let replayed = REPLAYED.with(|replayed| replayed.take());
    println!(
        "{} examples, {replayed} printed models replayed",
        files.len()
    );
    assert!(replayed > 100, "only {replayed} printed models replayed");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
