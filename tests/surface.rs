//! The surface language (docs/surface.md) checked from the outside: sugared
//! programs and hand-written core equivalents give the same outcome and
//! final values on random inputs (and deliberately wrong hand translations
//! are caught); issue 34's acceptance examples parse, run, explore, verify,
//! print their core, and their counterexamples replay from the printed
//! model; the benchmarks of `benchmarks/` get the verdicts their headers
//! state.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value as Json;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The value of a `// key: value` line of `source`.
fn header<'s>(source: &'s str, key: &str) -> Option<&'s str> {
    source
        .lines()
        .find_map(|line| line.strip_prefix(&format!("// {key}:")))
        .map(str::trim)
}

fn list(value: Option<&str>) -> Vec<String> {
    value
        .unwrap_or_default()
        .split(',')
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

/// The outcome of a concrete run and the values of `observed`.
fn run(file: &Path, inputs: &[String], observed: &[String]) -> (String, Vec<Json>) {
    let mut args = vec!["run", file.to_str().unwrap(), "--format", "json"];
    for input in inputs {
        args.push("--input");
        args.push(input);
    }
    let output = symex(&args);
    let json: Json = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: {e}: {}{}",
            stdout(&output),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let values = observed.iter().map(|x| json["state"][x].clone()).collect();
    (
        json["outcome"].as_str().unwrap_or_default().to_string(),
        values,
    )
}

/// A random value for the input `x`; `nondet()` stands for the sequence
/// it draws from (the header must not spell the array's name, or the
/// desugaring would pick another), and `a[]` for an int array of 2 to 4
/// elements (so a literal's length is sometimes met, sometimes not).
fn random_input(x: &str, rng: &mut StdRng) -> String {
    let values = |count: usize, rng: &mut StdRng| {
        let values: Vec<String> = (0..count)
            .map(|_| rng.gen_range(-3..15).to_string())
            .collect();
        values.join(",")
    };
    if x == "nondet()" {
        format!("nondet_ints=[{}]", values(5, rng))
    } else if let Some(array) = x.strip_suffix("[]") {
        let count = rng.gen_range(2..5);
        format!("{array}=[{}]", values(count, rng))
    } else {
        format!("{x}={}", rng.gen_range(-4..16))
    }
}

/// For each input drawn, whether `sugared` and `core` agree, and how many
/// different results the inputs reached.
fn compare(sugared: &Path, core: &Path, runs: usize) -> (Vec<String>, usize) {
    let source = std::fs::read_to_string(sugared).unwrap();
    let inputs = list(header(&source, "inputs"));
    let observed = list(header(&source, "observe"));
    assert!(
        !observed.is_empty(),
        "{}: no `// observe:` line",
        sugared.display()
    );
    let mut rng = StdRng::seed_from_u64(34);
    let mut disagreements = Vec::new();
    let mut results = BTreeSet::new();
    for _ in 0..runs {
        let given: Vec<String> = inputs.iter().map(|x| random_input(x, &mut rng)).collect();
        let expected = run(sugared, &given, &observed);
        let got = run(core, &given, &observed);
        if expected != got {
            disagreements.push(format!("{given:?}: sugar {expected:?}, core {got:?}"));
        }
        results.insert(format!("{expected:?}"));
    }
    (disagreements, results.len())
}

fn pairs(suffix: &str) -> Vec<(PathBuf, PathBuf)> {
    let dir = root("tests/surface/pairs");
    let mut found: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter_map(|path| {
            let name = path
                .file_name()?
                .to_str()?
                .strip_suffix(suffix)?
                .to_string();
            Some((dir.join(format!("{name}.sx")), path))
        })
        .collect();
    found.sort();
    found
}

#[test]
fn sugared_programs_and_their_hand_written_core_agree_on_random_inputs() {
    let pairs = pairs(".core.sx");
    assert!(pairs.len() >= 8, "only {} pairs", pairs.len());
    for (sugared, core) in pairs {
        let (disagreements, results) = compare(&sugared, &core, 25);
        assert!(
            disagreements.is_empty(),
            "{}:\n{}",
            sugared.display(),
            disagreements.join("\n")
        );
        assert!(
            results >= 3,
            "{}: the random inputs reach only {results} different results",
            sugared.display()
        );
    }
}

#[test]
fn a_wrong_hand_translation_is_caught() {
    let wrong = pairs(".wrong.sx");
    assert!(wrong.len() >= 4, "only {} wrong translations", wrong.len());
    for (sugared, core) in wrong {
        let (disagreements, _) = compare(&sugared, &core, 25);
        assert!(
            !disagreements.is_empty(),
            "{} agrees with {}",
            core.display(),
            sugared.display()
        );
    }
}

fn acceptance(name: &str) -> String {
    root(&format!("tests/surface/acceptance/{name}.sx"))
        .to_str()
        .unwrap()
        .to_string()
}

/// The inputs of a printed model `{x ↦ v, a ↦ {default: d, 1: 2; len 0}}`,
/// as `--input` arguments.
fn printed_inputs(model: &str) -> Vec<String> {
    let inner = model
        .trim()
        .strip_prefix('{')
        .and_then(|m| m.strip_suffix('}'))
        .unwrap();
    let mut inputs = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for c in inner.chars() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            inputs.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    inputs.push(current);
    inputs
        .iter()
        .map(|binding| binding.trim().replacen(" ↦ ", "=", 1))
        .collect()
}

/// `verify` finds a counterexample, and the model it prints, given back
/// with `--input`, fails the run the same way.
fn counterexample_replays(file: &str) -> String {
    counterexample_replays_with(file, &[])
}

/// [`counterexample_replays`] with `options` (`--int i32`) given to both.
fn counterexample_replays_with(file: &str, options: &[String]) -> String {
    let mut verify = vec!["verify", file];
    verify.extend(options.iter().map(String::as_str));
    let output = symex(&verify);
    let text = stdout(&output);
    let model = text
        .lines()
        .find_map(|line| line.strip_prefix("counterexample: "))
        .unwrap_or_else(|| panic!("{file}: no counterexample:\n{text}"));
    let inputs = printed_inputs(model);
    let mut args = vec!["run", file, "--format", "json"];
    args.extend(options.iter().map(String::as_str));
    for input in &inputs {
        args.push("--input");
        args.push(input);
    }
    let json: Json = serde_json::from_slice(&symex(&args).stdout).unwrap();
    assert_eq!(
        (&json["outcome"], &json["error"]),
        (&"error".into(), &"assertion-failed".into()),
        "{file} with {inputs:?}"
    );
    model.to_string()
}

#[test]
fn while_true_with_break_runs_explores_and_verifies() {
    let file = acceptance("while_true_break");
    let core = stdout(&symex(&["desugar", &file]));
    assert!(core.contains("while !broke {"), "{core}");
    let json: Json = serde_json::from_slice(
        &symex(&["run", &file, "--input", "x=3", "--format", "json"]).stdout,
    )
    .unwrap();
    assert_eq!(
        (json["outcome"].as_str(), json["state"]["x"].as_i64()),
        (Some("terminated"), Some(11))
    );
    let explored = stdout(&symex(&["explore", &file, "--unfold", "4"]));
    assert!(explored.contains("terminated"), "{explored}");
    let verified: Json =
        serde_json::from_slice(&symex(&["verify", &file, "--format", "json"]).stdout).unwrap();
    assert_eq!(verified["verdict"], "proved", "{verified}");
}

#[test]
fn fib_with_two_calls_in_one_expression_runs_and_its_counterexample_replays() {
    let file = acceptance("fib");
    let core = stdout(&symex(&["desugar", &file]));
    assert!(
        core.contains("fib_result := fib_call + fib_call2"),
        "{core}"
    );
    let json: Json = serde_json::from_slice(
        &symex(&["run", &file, "--input", "k=6", "--format", "json"]).stdout,
    )
    .unwrap();
    assert_eq!(json["state"]["y"].as_i64(), Some(8));
    let model = counterexample_replays(&file);
    assert_eq!(model, "{k ↦ 7}");
    let explored = stdout(&symex(&["explore", &file]));
    assert!(explored.contains("1 error"), "{explored}");
}

#[test]
fn a_nondet_loop_verifies_and_its_model_lists_the_values_drawn_and_replays() {
    let file = acceptance("nondet_loop");
    let core = stdout(&symex(&["desugar", &file]));
    assert!(
        core.contains("nondet_value := nondet_ints[nondet_count]"),
        "{core}"
    );
    let json: Json = serde_json::from_slice(
        &symex(&[
            "run",
            &file,
            "--input",
            "nondet_ints=[5,4,3]",
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(
        (json["error"].as_str(), json["state"]["s"].as_i64()),
        (Some("assertion-failed"), Some(12))
    );
    let model = counterexample_replays(&file);
    assert!(model.starts_with("{nondet_ints ↦ "), "{model}");
    let explored = stdout(&symex(&["explore", &file]));
    assert!(explored.contains("1 error"), "{explored}");
}

#[test]
fn an_error_inside_sugar_is_reported_at_the_users_line_and_column() {
    let dir = std::env::temp_dir().join(format!("symex-surface-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.sx");
    std::fs::write(&file, "x := 0;\nwhile x < 3 {\n    x := x + 1\n};\nbreak\n").unwrap();
    let output = symex(&["desugar", file.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.contains("bad.sx:5:1: error: `break` outside a loop"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_benchmarks_get_the_verdicts_their_headers_state() {
    let dir = root("benchmarks");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "sx"))
        .collect();
    files.sort();
    assert!(files.len() >= 12, "only {} benchmarks", files.len());
    let mut verdicts = BTreeSet::new();
    let mut needs_machine_integers = 0;
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let expected = header(&source, "expect")
            .unwrap_or_else(|| panic!("{}: no `// expect:` line", file.display()));
        assert!(
            header(&source, "source").is_some(),
            "{}: no `// source:` line",
            file.display()
        );
        let mut args = vec!["verify", file.to_str().unwrap(), "--format", "json"];
        let options = list(
            header(&source, "options")
                .map(|o| o.replace(' ', ","))
                .as_deref(),
        );
        args.extend(options.iter().map(String::as_str));
        let verdict = |args: &[&str]| {
            let json: Json = serde_json::from_slice(&symex(args).stdout)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            json["verdict"].as_str().unwrap_or_default().to_string()
        };
        assert_eq!(verdict(&args), expected, "{}", file.display());
        // A benchmark for `--int i32` also states its verdict with mathematical integers.
        if let Some(math) = header(&source, "expect-math") {
            assert_eq!(
                verdict(&args[..4]),
                math,
                "{} without --int",
                file.display()
            );
            needs_machine_integers += usize::from(math != expected);
        }
        if expected == "counterexample" {
            counterexample_replays_with(file.to_str().unwrap(), &options);
        }
        verdicts.insert(expected.to_string());
    }
    assert!(
        verdicts.contains("proved") && verdicts.contains("counterexample"),
        "{verdicts:?}"
    );
    assert!(
        needs_machine_integers >= 2,
        "only {needs_machine_integers} benchmarks whose verdict --int i32 changes"
    );
}

#[test]
fn a_run_without_an_array_literals_length_stops_at_the_literal_and_says_where() {
    let file = root("benchmarks/literal_sum_bug.sx");
    let output = symex(&["run", file.to_str().unwrap()]);
    assert!(
        stdout(&output)
            .starts_with("assumption-violated after 2 steps, at 4:1 in `assume len(a) = 3`"),
        "{}",
        stdout(&output)
    );
    let output = symex(&[
        "run",
        file.to_str().unwrap(),
        "--input",
        "a=[0,0,0]",
        "--input",
        "nondet_ints=[7]",
    ]);
    assert!(
        stdout(&output).starts_with("assertion-failed after 23 steps, at 8:13 in `assert false`"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn the_stepper_shows_where_the_users_source_stands() {
    let dir = std::env::temp_dir().join(format!("symex-surface-step-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("walk.step");
    std::fs::write(&script, "go\ngo false\nquit\n").unwrap();
    let file = acceptance("fib");
    let output = symex(&["step", &file, "--script", script.to_str().unwrap()]);
    let text = stdout(&output);
    // The main statement starts on line 3; each fork is the `if n < 2` of
    // the user's one-line `func fib`, which became a procedure.
    assert!(text.contains("#0: after 0 steps, at 3:1 `assume"), "{text}");
    assert!(
        text.contains("#1: after 2 steps, at 2:25 `if n < 2`"),
        "{text}"
    );
    assert!(
        text.contains("#2: after 4 steps, at 2:25 `if n < 2`"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_trace_and_verify_show_the_users_line_and_column_inside_sugar() {
    let file = acceptance("fib");
    let trace = stdout(&symex(&["run", &file, "--input", "k=2", "--trace"]));
    // The core's `fib_call := fib_result` comes from the call at 2:55 of
    // the user's one-line `func fib`, its `if` from the `if` at 2:25.
    assert!(
        trace.contains("→ [assignment local variable] at 2:55 ⟨"),
        "{trace}"
    );
    assert!(trace.contains("→ [choice (else)] at 2:25 ⟨"), "{trace}");
    let verified = stdout(&symex(&["verify", &file]));
    assert!(
        verified.contains("ends in assertion-failed at 5:1\n"),
        "{verified}"
    );
    let file = root("benchmarks/i32_abs_min_bug.sx");
    let file = file.to_str().unwrap();
    let verified = stdout(&symex(&["verify", file, "--int", "i32"]));
    assert!(
        verified.contains("path 0 ends in assertion-failed at 7:5\n"),
        "{verified}"
    );
}

#[test]
fn saved_tests_under_int_i32_record_it_and_replay_with_it() {
    let dir = std::env::temp_dir().join(format!("symex-surface-i32-{}", std::process::id()));
    let file = root("benchmarks/i32_increment_overflow_bug.sx");
    let (file, saved) = (file.to_str().unwrap(), dir.to_str().unwrap());
    symex(&["tests", file, "--int", "i32", "--output", saved]);
    let overflow = dir.join("path-1.json");
    let text = std::fs::read_to_string(&overflow).unwrap();
    assert!(
        text.contains("\"int\": \"i32\"") && text.contains("\"outcome\": \"assertion-failed\""),
        "{text}"
    );
    assert_eq!(symex(&["replay", saved]).status.code(), Some(0));
    // Without the record, INT_MAX + 1 is just an integer: the replay fails.
    std::fs::write(&overflow, text.replace("\"int\": \"i32\",", "")).unwrap();
    assert_eq!(symex(&["replay", saved]).status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verifys_printed_replay_under_int_i32_carries_the_option_and_overflows_again() {
    let file = root("tests/surface/machine/scaled_count.sx");
    let file = file.to_str().unwrap();
    let report = stdout(&symex(&["verify", file, "--int", "i32"]));
    let line = report
        .lines()
        .find_map(|line| line.trim_start().strip_prefix("replay: symex "))
        .unwrap_or_else(|| panic!("no replay line:\n{report}"));
    assert!(line.contains(" --int i32 "), "{line}");
    let mut args: Vec<&str> = line.split(' ').collect();
    args.extend(["--format", "json"]);
    let json: Json = serde_json::from_slice(&symex(&args).stdout).unwrap();
    assert_eq!(json["error"], "assertion-failed", "{line}: {json}");
    // With mathematical integers the same inputs run to the end.
    args.retain(|a| !matches!(*a, "--int" | "i32"));
    let json: Json = serde_json::from_slice(&symex(&args).stdout).unwrap();
    assert_eq!(json["outcome"], "terminated", "{json}");
}

/// A draw is not an array access (docs/surface.md): under
/// `--checked-arrays` reading past the end of the sequence is no error,
/// in `explore`, `verify` and `run` alike, while the program's own `a[i]`
/// is still checked.
#[test]
fn under_checked_arrays_the_draws_are_not_checked_but_the_programs_arrays_are() {
    let file = root("tests/surface/draws/checked.sx");
    let file = file.to_str().unwrap();
    let loop_file = acceptance("nondet_loop");
    for method in ["forward", "wp"] {
        let explored = stdout(&symex(&[
            "explore",
            file,
            "--checked-arrays",
            "--method",
            method,
        ]));
        let errors: Vec<&str> = explored
            .lines()
            .filter(|l| l.contains("array-out-of-bound"))
            .collect();
        assert_eq!(errors.len(), 1, "{method}: {explored}");
        let looped = stdout(&symex(&[
            "explore",
            &loop_file,
            "--checked-arrays",
            "--method",
            method,
        ]));
        assert!(
            looped.contains("2 paths: 1 terminated, 1 error") && !looped.contains("out-of-bound"),
            "{method}: {looped}"
        );
    }
    let verified = stdout(&symex(&["verify", file, "--checked-arrays"]));
    assert!(
        verified.contains("ends in array-out-of-bound at 5:1"),
        "{verified}"
    );
    let outcome = |inputs: &[&str]| {
        let mut args = vec!["run", file, "--checked-arrays", "--format", "json"];
        for input in inputs {
            args.extend(["--input", input]);
        }
        let json: Json = serde_json::from_slice(&symex(&args).stdout).unwrap();
        (json["outcome"].clone(), json["error"].clone())
    };
    // The draw past the end of the empty sequence gives 0, and a[0] is 7.
    assert_eq!(outcome(&["a=[7]"]).0, "terminated");
    assert_eq!(
        outcome(&["a=[7]", "nondet_ints=[1]"]).1,
        "array-out-of-bound"
    );
}
