//! The `symex` binary end to end: exit statuses, final states, traces, the
//! SPEC §2.1 JSON shapes, exploration bounds, test replay and verification.

use serde_json::Value as Json;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const WHILE_LOOP: &str = "x := 0;\nwhile x < n {\n    x := x + 1\n}\n";
const ABS: &str = "if x < 0 { y := -x } else { y := x };\nassert y >= 0\n";
const NOT_FIVE: &str = "y := x + 1;\nassert y != 6\n";

/// Writes `source` to a fresh file in the temporary directory.
fn program(source: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("symex-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("p{}.sx", COUNTER.fetch_add(1, Ordering::SeqCst)));
    std::fs::write(&path, source).unwrap();
    path
}

fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn on(command: &str, source: &str, options: &[&str]) -> Output {
    let path = program(source);
    let mut args = vec![command, path.to_str().unwrap()];
    args.extend_from_slice(options);
    symex(&args)
}

fn status(output: &Output) -> i32 {
    output.status.code().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn json(output: &Output) -> Json {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(output)))
}

#[test]
fn run_prints_the_final_state() {
    let output = on("run", WHILE_LOOP, &["--input", "n=3"]);
    assert_eq!(status(&output), 0);
    let text = stdout(&output);
    assert!(text.starts_with("terminated after 8 steps"), "{text}");
    assert!(
        text.contains("n = 3\n") && text.contains("x = 3\n"),
        "{text}"
    );
}

#[test]
fn run_json_has_the_spec_fields() {
    let report = json(&on(
        "run",
        WHILE_LOOP,
        &["--input", "n=2", "--format", "json"],
    ));
    assert_eq!(report["outcome"], "terminated");
    assert_eq!(report["error"], Json::Null);
    assert_eq!(report["state"], serde_json::json!({ "n": 2, "x": 2 }));
    assert_eq!(report["steps"], 6);
}

#[test]
fn run_trace_shows_every_configuration_with_its_rule_and_where_the_statement_is() {
    let output = on("run", WHILE_LOOP, &["--input", "n=1", "--trace"]);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("  ⟨x := 0; while x < n"), "{text}");
    assert!(
        lines[1].starts_with("→ [assignment] at 1:1 ⟨while x < n"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("→ [iteration (enter)] at 2:1"),
        "{text}"
    );
    assert!(lines[3].starts_with("→ [assignment] at 3:5"), "{text}");
    assert!(
        lines[4].starts_with("→ [iteration (exit)] at 2:1 ⟨ε, {n ↦ 1, x ↦ 1}⟩"),
        "{text}"
    );
    assert_eq!(lines[5], "terminated after 4 steps");
}

#[test]
fn run_reports_errors_with_exit_1() {
    let output = on("run", "assert x > 0", &[]);
    assert_eq!(status(&output), 1);
    assert!(stdout(&output).starts_with(
        "assertion-failed after 1 step, at 1:1 in `assert x > 0`: the assertion is false\n"
    ));
    let output = on(
        "run",
        "y := a[2]",
        &["--checked-arrays", "--input", "a=[1,2]", "--format", "json"],
    );
    assert_eq!(status(&output), 1);
    let report = json(&output);
    assert_eq!(report["outcome"], "error");
    assert_eq!(report["error"], "array-out-of-bound");
    assert_eq!(
        report["state"]["a"],
        serde_json::json!({ "default": 0, "entries": { "0": 1, "1": 2 }, "len": 2 })
    );
}

#[test]
fn run_names_violated_assumptions_and_step_limits() {
    let output = on("run", "assume x > 0; y := 1", &[]);
    assert_eq!(status(&output), 0);
    assert!(stdout(&output).starts_with("assumption-violated after 1 step"));
    let output = on(
        "run",
        "while true { x := x + 1 }",
        &["--max-steps", "10", "--format", "json"],
    );
    assert_eq!(status(&output), 3);
    assert_eq!(json(&output)["outcome"], "step-limit");
}

/// Issue 12's loop: `y`'s size doubles at every iteration.
const SQUARING: &str = "i := 0;\nwhile i < 20 {\n    y := y * y + y;\n    i := i + 1\n}\n";

#[test]
fn run_stops_at_its_time_limit() {
    let output = on(
        "run",
        "while true { x := x + 1 }",
        &[
            "--max-steps",
            "1000000000",
            "--time-limit-ms",
            "200",
            "--format",
            "json",
        ],
    );
    assert_eq!(status(&output), 3);
    assert_eq!(json(&output)["outcome"], "time-limit");
}

#[test]
fn numbers_beyond_the_integer_bound_end_a_run_inconclusive() {
    let output = on("run", SQUARING, &["--input", "y=3", "--format", "json"]);
    assert_eq!(status(&output), 3);
    let report = json(&output);
    assert_eq!(report["outcome"], "integer-bound");
    // y has 2 bits and at least doubles its size each iteration: the 16th exceeds 2^16 bits.
    assert_eq!(report["state"]["i"], 15, "{report}");
    let constant = format!("y := 2;\n{SQUARING}");
    let tests = on("tests", &constant, &["--unfold", "25"]);
    assert_eq!(status(&tests), 3, "{}", stdout(&tests));
    assert!(stdout(&tests).contains("1 undecided"), "{}", stdout(&tests));
    let check = on("check", SQUARING, &["--runs", "5", "--seed", "1"]);
    assert_eq!(status(&check), 0, "{}", stdout(&check));
}

#[test]
fn check_ends_at_its_overall_time_limit_with_an_explicit_status() {
    let output = on(
        "check",
        WHILE_LOOP,
        &["--runs", "1000000000", "--time-limit-ms", "300"],
    );
    assert_eq!(status(&output), 3);
    let text = stdout(&output);
    assert!(
        text.contains("runs: time limit reached; the results below are of those runs"),
        "{text}"
    );
}

#[test]
fn bad_input_is_exit_2_with_a_located_message() {
    let path = program("x := 1;\ny := (x +\n");
    let output = symex(&["run", path.to_str().unwrap()]);
    assert_eq!(status(&output), 2);
    let stderr = String::from_utf8(output.stderr).unwrap();
    let first = stderr.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("{}:", path.display())) && first.contains(": error: "),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\u{1b}'),
        "no colour when not a terminal: {stderr}"
    );

    for args in [
        vec!["run", "/nonexistent/p.sx"],
        vec!["explore", "--no-such-option", "p.sx"],
    ] {
        assert_eq!(status(&symex(&args)), 2, "{args:?}");
    }
    assert_eq!(status(&on("run", WHILE_LOOP, &["--input", "n=true"])), 2);
    assert_eq!(status(&on("run", WHILE_LOOP, &["--input", "m=1"])), 2);
}

/// Issue 33: the message is said once, and its position is the excerpt's.
#[test]
fn a_parse_error_is_said_once_where_the_excerpt_points() {
    let path = program("x := 1;\nwhile x > 0 {\n    x := x - 1;\n");
    let output = symex(&["explore", path.to_str().unwrap()]);
    assert_eq!(status(&output), 2);
    let stderr = String::from_utf8(output.stderr).unwrap();
    let expected = format!(
        "{}:3:16: error: expected `}}` to close the block opened at 2:13, found end of input\n  |\n3 |     x := x - 1;\n  |                ^\n",
        path.display()
    );
    assert_eq!(stderr, expected);
}

#[test]
fn run_says_which_inputs_took_their_defaults() {
    let source = "var a: int[];\nif n > len(a) { y := b } else { y := 1 }";
    let output = on("run", source, &["--input", "n=2"]);
    assert_eq!(status(&output), 0);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr,
        "note: inputs not given take their defaults: a = [], b = 0\n"
    );
    let all = on(
        "run",
        source,
        &["--input", "n=2", "--input", "a=[1]", "--input", "b=3"],
    );
    assert_eq!(String::from_utf8(all.stderr).unwrap(), "");
}

#[test]
fn run_errors_name_the_failing_access_and_where_it_is() {
    let output = on(
        "run",
        "var a: int[];\ni := 0;\nwhile i <= len(a) {\n    m := a[i];\n    i := i + 1\n}",
        &["--checked-arrays", "--input", "a=[7,8]"],
    );
    assert_eq!(status(&output), 1);
    assert_eq!(
        stdout(&output).lines().next(),
        Some("array-out-of-bound after 9 steps, at 4:5 in `m := a[i]`: `a[i]` reads index 2 of `a`, whose length is 2")
    );
    let write = on(
        "run",
        "var a: int[];\na[len(a)] := 1",
        &["--checked-arrays", "--format", "json"],
    );
    assert_eq!(
        json(&write)["error_site"]["detail"],
        "`a[len(a)]` reads index 0 of `a`, whose length is 0"
    );
    let nil = on(
        "run",
        "class Node { field val: int, next: Node; }\nvar l: Node;\nx := 1;\nx := l.val",
        &[],
    );
    assert_eq!(status(&nil), 1);
    assert_eq!(
        stdout(&nil).lines().next(),
        Some("nil-dereference after 2 steps, at 4:1 in `x := l.val`: `l.val` dereferences nil (`l` is nil)")
    );
    let assertion = on("run", "x := 1;\nassert x > 1", &[]);
    assert_eq!(
        stdout(&assertion).lines().next(),
        Some("assertion-failed after 2 steps, at 2:1 in `assert x > 1`: the assertion is false")
    );
}

#[test]
fn every_language_runs_under_either_method() {
    let programs = [
        WHILE_LOOP,
        "proc p(u: int) { x := u }\np(1)",
        "class C { field f: int; }\nvar x: C;\nx.f := 1",
    ];
    for (program, language) in programs.into_iter().zip(["basic", "recursive", "oo"]) {
        for method in ["forward", "wp"] {
            let output = on(
                "explore",
                program,
                &["--method", method, "--format", "json"],
            );
            assert_eq!(
                status(&output),
                0,
                "{language} under {method}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            let report = json(&output);
            assert_eq!(
                (report["language"].as_str(), report["method"].as_str()),
                (Some(language), Some(method))
            );
        }
    }
}

#[test]
fn programs_can_come_from_standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(["run", "-", "--input", "n=2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(WHILE_LOOP.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(status(&output), 0);
    assert!(stdout(&output).contains("x = 2"));
}

#[test]
fn explore_unfolds_a_loop_k_times() {
    let report = json(&on(
        "explore",
        WHILE_LOOP,
        &["--unfold", "3", "--format", "json"],
    ));
    let stats = &report["stats"];
    assert_eq!(
        (
            stats["paths"].as_u64(),
            stats["terminated"].as_u64(),
            stats["bounded"].as_u64()
        ),
        (Some(5), Some(4), Some(1))
    );
    assert_eq!(report["language"], "basic");
    assert_eq!(report["method"], "forward");
    let paths = report["paths"].as_array().unwrap();
    let ids: Vec<u64> = paths.iter().map(|p| p["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, [0, 1, 2, 3, 4]);
    let first = paths
        .iter()
        .find(|p| p["steps"] == 2 && p["status"] == "terminated")
        .unwrap();
    assert_eq!(first["error"], Json::Null);
    assert_eq!(first["path_condition"], "n <= 0");
    assert_eq!(first["path_condition_size"], 3);
    assert_eq!(first["state"], serde_json::json!({ "n": "n", "x": "0" }));
    assert_eq!(first["trace"], serde_json::json!(["x := 0", "!(x < n)"]));
    assert!(first["model"]["n"].as_i64().unwrap() <= 0);
    assert_eq!(first["steps"], 2);
    let bounded = paths.iter().find(|p| p["status"] == "bounded").unwrap();
    assert_eq!(bounded["reason"], "loop unfolding bound 3");
    assert_eq!(bounded["trace"].as_array().unwrap().len(), 1 + 2 * 3 + 1);
}

#[test]
fn every_strategy_finds_the_same_paths() {
    let conditions = |strategy: &str| {
        let report = json(&on(
            "explore",
            WHILE_LOOP,
            &[
                "--unfold",
                "2",
                "--format",
                "json",
                "--strategy",
                strategy,
                "--seed",
                "7",
            ],
        ));
        let mut conditions: Vec<String> = report["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["path_condition"].as_str().unwrap().to_string())
            .collect();
        conditions.sort();
        conditions
    };
    let dfs = conditions("dfs");
    assert_eq!(dfs.len(), 4);
    for strategy in ["bfs", "random", "depth"] {
        assert_eq!(conditions(strategy), dfs, "{strategy}");
    }
}

/// The traces of a text report, by path, each whole: a trace that names
/// an earlier path (`path 3's first 17 entries, then …`) takes that path's
/// entries.
fn whole_traces(report: &str) -> Vec<Vec<String>> {
    let mut traces: Vec<Vec<String>> = Vec::new();
    for line in report.lines() {
        let Some(trace) = line.strip_prefix("  trace: ") else {
            continue;
        };
        let (mut whole, own) = match trace.strip_prefix("path ") {
            Some(named) => {
                let (path, rest) = named.split_once("'s first ").unwrap();
                let (entries, own) = rest.split_once(" entries").unwrap();
                let entries: usize = entries.parse().unwrap();
                assert!(entries > 16, "a short prefix is written whole: {line}");
                let earlier = &traces[path.parse::<usize>().unwrap()];
                (
                    earlier[..entries].to_vec(),
                    own.strip_prefix(", then ").unwrap_or(""),
                )
            }
            None => (Vec::new(), trace),
        };
        whole.extend(
            own.split("; ")
                .filter(|entry| !entry.is_empty() && *entry != "ε")
                .map(str::to_string),
        );
        traces.push(whole);
    }
    traces
}

#[test]
fn text_traces_name_the_path_they_share_a_long_prefix_with() {
    let source =
        "x := 0; c := 0; while x < n { if a > x { c := c + 1 } else { c := c - 1 }; x := x + 1 }";
    for strategy in ["dfs", "bfs"] {
        let explore = |extra: &[&str]| {
            let mut options = vec!["--unfold", "12", "--strategy", strategy];
            options.extend_from_slice(extra);
            stdout(&on("explore", source, &options))
        };
        let (shared, full) = (explore(&[]), explore(&["--full-traces"]));
        let named = shared.matches("'s first ").count();
        assert!(
            named > 0,
            "{strategy}: no trace names an earlier path\n{shared}"
        );
        assert_eq!(full.matches("'s first ").count(), 0);
        let whole = whole_traces(&full);
        assert_eq!(whole_traces(&shared), whole, "{strategy}");
        assert!(whole.iter().any(|trace| trace.len() > 30));
        if strategy == "dfs" {
            // Depth first, each path shares all it can with the one before.
            assert!(
                shared.len() < full.len() / 2,
                "{} of {}",
                shared.len(),
                full.len()
            );
        }
    }
}

#[test]
fn explore_fix_gives_inputs_concrete_values() {
    let report = json(&on(
        "explore",
        WHILE_LOOP,
        &["--fix", "n=2", "--format", "json"],
    ));
    let paths = report["paths"].as_array().unwrap();
    assert_eq!(paths.len(), 1);
    assert_eq!(paths[0]["model"]["n"], 2);
    // `n = 2 && 0 < n && 1 < n && !(2 < n)`, its bounds on `n` merged.
    assert_eq!(paths[0]["path_condition"], "n = 2");
    assert_eq!(report["stats"]["pruned"], 3);
}

#[test]
fn fixing_a_variable_that_is_no_input_is_refused_with_the_reason() {
    let output = on("explore", "z := 1;\ny := z + x\n", &["--fix", "z=3"]);
    assert_eq!(status(&output), 2);
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("`z` is not an input of the program") && message.contains("(inputs: x)"),
        "{message}"
    );
}

/// An oo program whose assertion depends on a global (`p`) that only a
/// method body reads.
const METHOD_GLOBAL: &str = "class C { field f: int; method m() { if p { this.f := 1 } else { this.f := 2 }; return this.f } }\nvar c: C, p: bool;\ny := c.m();\nassert y = 2\n";

#[test]
fn a_global_read_only_in_a_method_is_in_the_printed_counterexample() {
    let output = on("verify", METHOD_GLOBAL, &["--format", "json"]);
    assert_eq!(status(&output), 1, "{}", stdout(&output));
    let heap = json(&output)["counterexample"]["inputs"].clone();
    assert_eq!(heap["vars"]["p"], true, "{heap}");
    let file = program(&heap.to_string());
    let replayed = on("run", METHOD_GLOBAL, &["--heap", file.to_str().unwrap()]);
    assert_eq!(status(&replayed), 1, "{}", stdout(&replayed));
    assert!(stdout(&replayed).starts_with("assertion-failed"));
}

#[test]
fn path_limits_report_the_unexplored_frontier() {
    let output = on("explore", WHILE_LOOP, &["--max-paths", "2"]);
    assert_eq!(status(&output), 3, "a cut tree is inconclusive");
    let text = stdout(&output);
    assert!(
        text.contains("2 paths: 2 terminated, 0 errors, 0 bounded"),
        "{text}"
    );
    assert!(text.contains("(path limit reached)"), "{text}");
}

#[test]
fn infeasible_branches_can_be_kept() {
    let source = "if x > 0 { if x < 0 { y := 1 } }";
    let report = json(&on(
        "explore",
        source,
        &["--keep-infeasible", "--format", "json"],
    ));
    let statuses: Vec<&str> = report["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["status"].as_str().unwrap())
        .collect();
    // The outer `else` ends where it arrives, so it is reported first.
    assert_eq!(statuses, ["terminated", "infeasible", "terminated"]);
    assert_eq!(report["paths"][1]["model"], Json::Null);
}

#[test]
fn dot_labels_are_escaped() {
    let output = on(
        "explore",
        "if b { x := 1 } else { x := 2 }",
        &["--format", "dot"],
    );
    let dot = stdout(&output);
    assert!(dot.starts_with("digraph symex {"), "{dot}");
    assert!(
        dot.contains("n0 [label=\"if b\""),
        "a fork shows its test: {dot}"
    );
    assert!(
        dot.contains(" [xlabel=\"true\"];") && dot.contains(" [xlabel=\"false\"];"),
        "{dot}"
    );
    assert!(
        dot.contains("[label=\"path 0: terminated\\nb\""),
        "line breaks escaped: {dot}"
    );
    assert!(
        dot.contains("tooltip=\"⟨if b { x := 1 } else { x := 2 }, id, true⟩"),
        "the configuration as tooltip: {dot}"
    );
}

#[test]
fn tests_replay_every_path() {
    let output = on(
        "tests",
        "if x < 0 { y := -x } else { y := x };\nwhile y > 2 { y := y - 1 }\n",
        &["--unfold", "2", "--format", "json"],
    );
    assert_eq!(status(&output), 0);
    let report = json(&output);
    let tests = report["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 6);
    for test in tests {
        assert_eq!(test["replayed"], true, "{test}");
        assert_eq!(test["outcome"], "terminated");
    }
    assert!(tests
        .iter()
        .any(|t| t["final_state"]["y"] == 2 && t["inputs"]["x"].as_i64().unwrap() < 0));
}

#[test]
fn verify_proves_a_true_assertion() {
    let output = on("verify", ABS, &[]);
    assert_eq!(status(&output), 0, "{}", stdout(&output));
    assert!(stdout(&output).starts_with(
        "proved: every assertion holds on every path (2 paths, 2 assertion checks proved)"
    ));
}

#[test]
fn verify_refutes_a_false_assertion_with_a_counterexample_run_reproduces() {
    let output = on("verify", NOT_FIVE, &["--format", "json"]);
    assert_eq!(status(&output), 1);
    let report = json(&output);
    assert_eq!(report["verdict"], "counterexample");
    let counterexample = &report["counterexample"];
    assert_eq!(counterexample["inputs"]["x"], 5);
    assert_eq!(counterexample["confirmed"], true);
    let output = on("run", NOT_FIVE, &["--input", "x=5"]);
    assert_eq!(status(&output), 1);
    assert!(stdout(&output).starts_with("assertion-failed"));
}

/// A `bool[]` input that the path condition mentions only in `len(ba)`.
const BOOL_ARRAY: &str = "var ba: bool[];\nvar x: int;\nassume len(ba) > 0;\nassert x > 0\n";

#[test]
fn models_of_boolean_arrays_are_boolean_and_replay() {
    let explored = stdout(&on("explore", BOOL_ARRAY, &[]));
    assert!(explored.contains("ba ↦ [false]"), "{explored}");
    let tests = json(&on("tests", BOOL_ARRAY, &["--format", "json"]));
    for test in tests["tests"].as_array().unwrap() {
        assert_eq!(test["replayed"], true, "{test}");
    }
    let output = on("verify", BOOL_ARRAY, &["--format", "json"]);
    assert_eq!(status(&output), 1);
    let ba = &json(&output)["counterexample"]["inputs"]["ba"];
    assert_eq!(ba["default"], false, "{ba}");
    let output = on(
        "run",
        BOOL_ARRAY,
        &["--input", "ba=[false]", "--input", "x=0"],
    );
    assert!(
        stdout(&output).starts_with("assertion-failed"),
        "{}",
        stdout(&output)
    );
}

/// Found by King's properties: the guard `y - 1 > 0` was checked against
/// an independent slice that left out `z = a[z]`, although the slice's
/// other guard shares `a` with it; the path then took `!(z = a[z])`.
const SLICE_JOINS_LATER: &str = "var a: int[];\nvar b: bool;\nvar x: int;\nvar y: int;\nvar z: int;\n\
proc p(u: int) {\n  if u > 0 {\n    if a[-1] - a[0] != if b then a[len(a)] else u fi + (y - x) {\n      while z = a[z] { p(u - 1) }\n    }\n  }\n}\np(y)\n";

#[test]
fn an_independent_slice_takes_in_every_guard_that_shares_a_variable() {
    let report = json(&on(
        "explore",
        SLICE_JOINS_LATER,
        &["--unfold", "2", "--format", "json"],
    ));
    assert_eq!(report["stats"]["unknown"], 0, "{report}");
}

#[test]
fn verify_is_inconclusive_when_a_bound_cuts_a_path() {
    let output = on(
        "verify",
        "while x > 0 { x := x - 1 };\nassert x <= 0\n",
        &["--unfold", "2"],
    );
    assert_eq!(status(&output), 3, "{}", stdout(&output));
    assert!(stdout(&output).starts_with("inconclusive"));
}

#[test]
fn check_reports_each_theorem_with_its_case_count_and_seed() {
    let output = on("check", WHILE_LOOP, &["--runs", "20", "--seed", "42"]);
    assert_eq!(status(&output), 0);
    let report = stdout(&output);
    assert!(
        report.starts_with("basic program, 20 runs, seed 42"),
        "{report}"
    );
    for result in ["Lemma 2.1", "Corollary 2.2", "Theorem 2.3", "Theorem 2.4"] {
        assert!(
            report
                .lines()
                .any(|line| line.contains(result) && line.contains("ok")),
            "{result} in {report}"
        );
    }
    let recursive = on(
        "check",
        WHILE_LOOP,
        &["--runs", "5", "--lang", "recursive", "--format", "json"],
    );
    assert_eq!(status(&recursive), 0);
    assert_eq!(json(&recursive)["language"], "recursive");
}

#[test]
fn printed_conditions_and_states_fold_ground_parts_unless_asked_not_to() {
    let source = "j := (1 + 5) / 2;\nif a[j] = x { c := 1 }\n";
    let path = |options: &[&str]| {
        let mut args = vec!["--format", "json"];
        args.extend_from_slice(options);
        let output = on("explore", source, &args);
        assert_eq!(status(&output), 0, "{}", stdout(&output));
        let report: Json = serde_json::from_str(&stdout(&output)).unwrap();
        // The `then` branch: the `else` ends where it arrives, and comes first.
        report["paths"][1].clone()
    };
    let simplified = path(&[]);
    assert_eq!(simplified["path_condition"], "x = a[3]");
    assert_eq!(simplified["state"]["j"], "3");
    assert_eq!(
        simplified["trace"],
        serde_json::json!(["j := (1 + 5) / 2", "a[j] = x", "c := 1"])
    );
    let raw = path(&["--no-simplify"]);
    assert_eq!(raw["path_condition"], "a[(1 + 5) / 2] = x");
    assert_eq!(raw["state"]["j"], "(1 + 5) / 2");
    assert_eq!(raw["model"], simplified["model"]);
}

#[test]
fn bench_reports_every_family_with_the_expected_paths() {
    let output = symex(&["bench", "--size", "3", "--format", "json"]);
    assert_eq!(status(&output), 0, "{}", stdout(&output));
    let report: Json = serde_json::from_str(&stdout(&output)).unwrap();
    let results = report["results"].as_array().unwrap();
    let families: Vec<&str> = results
        .iter()
        .map(|r| r["family"].as_str().unwrap())
        .collect();
    assert_eq!(
        families,
        ["branches", "loop", "array", "sums", "chains", "pointers", "list", "aliasing"]
    );
    for result in results {
        assert_eq!(result["paths"], result["expected_paths"]);
        assert_eq!(result["models"], result["paths"], "a model for every path");
    }
    assert_eq!(results[1]["paths"], 5);
    let methods: Vec<&str> = results
        .iter()
        .map(|r| r["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        ["forward", "forward", "forward", "forward", "forward", "wp", "wp", "wp"],
        "each family under its language's default method"
    );
}

/// `bench --jobs 2` explores, merges and writes the report `--jobs 1`
/// writes (the same paths and bytes but for the digits of `time_ms`), and
/// refuses the outputs it cannot merge.
#[test]
fn bench_on_two_workers_writes_the_one_worker_report() {
    let bench = |jobs: &str, output: &str| {
        symex(&[
            "bench", "--family", "array", "--size", "6", "--format", "json", "--output", output,
            "--jobs", jobs,
        ])
    };
    let result = |jobs: &str| {
        let output = bench(jobs, "json");
        assert_eq!(status(&output), 0, "{}", stderr(&output));
        let report: Json = serde_json::from_str(&stdout(&output)).unwrap();
        report["results"][0].clone()
    };
    let (one, two) = (result("1"), result("2"));
    assert_eq!(two["jobs"], 2);
    assert_eq!(two["paths"], one["paths"]);
    assert_eq!(two["paths"], two["expected_paths"]);
    assert_eq!(two["models"], two["paths"]);
    let bytes = |result: &Json| result["output_bytes"].as_i64().unwrap();
    assert!((bytes(&one) - bytes(&two)).abs() < 8, "{one} against {two}");
    let refused = bench("2", "jsonl");
    assert_ne!(status(&refused), 0);
    assert!(
        stderr(&refused).contains("--output json"),
        "{}",
        stderr(&refused)
    );
}

/// `bench`'s `nodes` are the tree's: one for each line `explore --format
/// jsonl` writes of the same program, and more at every size.
#[test]
fn bench_counts_the_nodes_explore_reports() {
    let mut counted = Vec::new();
    for size in ["2", "3"] {
        let output = symex(&[
            "bench", "--family", "list", "--size", size, "--format", "json",
        ]);
        assert_eq!(status(&output), 0, "{}", stderr(&output));
        let nodes = json(&output)["results"][0]["nodes"].as_u64().unwrap();
        let source = symex(&["bench", "--family", "list", "--size", size, "--source"]);
        let explored = on(
            "explore",
            &stdout(&source),
            &["--unfold", size, "--format", "jsonl"],
        );
        let lines = stdout(&explored)
            .lines()
            .filter(|line| line.starts_with("{\"node\":"))
            .count() as u64;
        assert_eq!(nodes, lines, "list({size})");
        counted.push(nodes);
    }
    assert!(counted[0] > 0 && counted[1] > counted[0], "{counted:?}");
}

#[test]
fn bench_source_prints_the_program_of_the_one_size_given() {
    let output = symex(&["bench", "--family", "sums", "--sizes", "4", "--source"]);
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let source = stdout(&output);
    assert!(source.contains("x3 + x4 > 0"), "{source}");
    assert!(!source.contains("x5"), "{source}");
    let output = symex(&["bench", "--family", "sums", "--sizes", "4,5", "--source"]);
    assert_ne!(status(&output), 0, "{}", stdout(&output));
    assert!(
        stderr(&output).contains("give one size"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn sums_and_chains_are_explored_by_model_repair_without_a_solver_call() {
    for family in ["sums", "chains"] {
        let output = symex(&[
            "bench", "--family", family, "--size", "8", "--format", "json",
        ]);
        assert_eq!(status(&output), 0, "{}", stdout(&output));
        let report: Json = serde_json::from_str(&stdout(&output)).unwrap();
        let result = &report["results"][0];
        assert_eq!(result["paths"], 256, "{family}");
        assert_eq!(result["models"], 256, "{family}: a model for every path");
        assert_eq!(result["solver_calls"], 0, "{family}: every branch mended");
    }
}
