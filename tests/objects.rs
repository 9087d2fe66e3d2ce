//! §4 end to end: the acceptance scenarios of the oo language — counterexample
//! heaps found by `verify`, replayed by `run --heap`, of the fewest objects;
//! `--method wp` on every language, `--method forward` (§4.1) on oo programs
//! with the same verdicts; the literal `this` rule where it differs;
//! `symex check` on every oo example, and on its broken rules.

use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::{Command, Output};

fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn status(output: &Output) -> i32 {
    output.status.code().unwrap()
}

fn json(output: &Output) -> Json {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)))
}

/// Writes a heap document to a fresh file.
fn heap_file(name: &str, heap: &Json) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symex-objects-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, heap.to_string()).unwrap();
    path
}

/// `verify`'s counterexample of `example` (with `options`), checked to be
/// an assertion failure, and its `run --heap` replay.
fn counterexample(example: &str, options: &[&str]) -> (Json, Json) {
    let file = format!("paper-examples/oo/{example}.sx");
    let mut args = vec!["verify", file.as_str(), "--format", "json"];
    args.extend_from_slice(options);
    let verified = symex(&args);
    assert_eq!(status(&verified), 1, "{example}: a counterexample");
    let report = json(&verified);
    let counterexample = report["counterexample"].clone();
    assert_eq!(
        counterexample["error"], "assertion-failed",
        "{example}: {counterexample}"
    );
    assert_eq!(counterexample["confirmed"], true);
    let heap = counterexample["inputs"].clone();
    let path = heap_file(example, &heap);
    let run = symex(&[
        "run",
        &file,
        "--heap",
        path.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(status(&run), 1, "{example}: the replay fails");
    let run = json(&run);
    assert_eq!(run["error"], "assertion-failed", "{example}: {run}");
    (heap, run)
}

#[test]
fn the_aliasing_puzzle_fails_exactly_on_one_object_named_twice() {
    let (heap, run) = counterexample("aliasing_puzzle", &[]);
    assert_eq!(heap["vars"]["x"], heap["vars"]["y"], "x = y: {heap}");
    assert_eq!(heap["objects"].as_object().unwrap().len(), 1, "{heap}");
    let o = heap["vars"]["x"].as_str().unwrap();
    assert_eq!(
        run["heap"]["objects"][o]["f"], 2,
        "y.f := 2 overwrote x.f: {run}"
    );
}

#[test]
fn the_partition_bug_shows_on_a_list_of_exactly_two_nodes() {
    let (heap, _) = counterexample("list_partition_buggy", &["--unfold", "3"]);
    let objects = heap["objects"].as_object().unwrap();
    assert_eq!(objects.len(), 2, "the smallest counterexample: {heap}");
    let first = heap["vars"]["l"].as_str().unwrap();
    let second = objects[first]["next"]
        .as_str()
        .expect("l.next is the second node");
    assert_ne!(first, second);
    assert_eq!(
        objects[second]["next"],
        Json::Null,
        "a two-node list, not a cycle: {heap}"
    );
}

#[test]
fn the_fixed_partition_has_no_counterexample_within_the_bounds() {
    let verified = symex(&[
        "verify",
        "paper-examples/oo/list_partition_fixed.sx",
        "--unfold",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(status(&verified), 3, "bounded, so inconclusive");
    let report = json(&verified);
    assert_eq!(report["verdict"], "inconclusive");
    assert_eq!(report["counterexample"], Json::Null);
    assert!(report["stats"]["bounded"].as_u64().unwrap() > 0);
    assert_eq!(report["stats"]["errors"], 0);
}

/// The path condition of `path` as `explore` prints it with `options`.
fn explored_condition(file: &str, path: usize, options: &[&str]) -> Json {
    let explored = json(&symex(
        &[&["explore", file, "--format", "json"], options].concat(),
    ));
    explored["paths"][path]["path_condition"].clone()
}

#[test]
fn verify_prints_the_counterexamples_condition_as_explore_does() {
    // Under wp `verify` leaves the other paths' conditions raw and simplifies
    // the counterexample's alone: it must read as `explore` prints it.
    for example in ["aliasing_puzzle", "list_partition_buggy", "list_reverse"] {
        let file = format!("paper-examples/oo/{example}.sx");
        for method in ["wp", "forward"] {
            let options = ["--unfold", "3", "--method", method];
            let verified = symex(&[&["verify", &file, "--format", "json"], &options[..]].concat());
            assert_eq!(status(&verified), 1, "{example} has a counterexample");
            let counterexample = &json(&verified)["counterexample"];
            let path = counterexample["path"].as_u64().unwrap() as usize;
            let condition = &counterexample["path_condition"];
            assert_eq!(
                *condition,
                explored_condition(&file, path, &options),
                "{example}, {method}"
            );
            let raw = explored_condition(&file, path, &[&options[..], &["--no-simplify"]].concat());
            assert_ne!(*condition, raw, "{example}, {method}: simplified");
        }
    }
}

#[test]
fn every_model_of_an_oo_program_is_a_heap_that_run_accepts() {
    let explored = json(&symex(&[
        "explore",
        "paper-examples/oo/list_reverse.sx",
        "--unfold",
        "2",
        "--format",
        "json",
    ]));
    assert_eq!(explored["method"], "wp", "the default for oo programs");
    let paths = explored["paths"].as_array().unwrap();
    let mut replayed = 0;
    for (i, path) in paths
        .iter()
        .enumerate()
        .filter(|(_, path)| path["status"] != "bounded")
    {
        let heap = &path["model"];
        assert!(
            heap["objects"].is_object() && heap["vars"].is_object(),
            "path {i}: {heap}"
        );
        let file = heap_file(&format!("reverse-{i}"), heap);
        let run = json(&symex(&[
            "run",
            "paper-examples/oo/list_reverse.sx",
            "--heap",
            file.to_str().unwrap(),
            "--format",
            "json",
        ]));
        let expected = if path["status"] == "error" {
            path["error"].clone()
        } else {
            Json::Null
        };
        assert_eq!(run["error"], expected, "path {i}: {run}");
        replayed += 1;
    }
    assert!(replayed >= 3, "{replayed} paths replayed");
}

#[test]
fn wp_and_forward_find_the_same_paths_on_a_basic_program() {
    let outcomes = |method: &str| -> Vec<String> {
        let report = json(&symex(&[
            "explore",
            "paper-examples/basic/king_search.sx",
            "--method",
            method,
            "--format",
            "json",
        ]));
        assert_eq!(report["method"], method);
        let mut outcomes: Vec<String> = report["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| format!("{} {}", p["status"], p["error"]))
            .collect();
        outcomes.sort();
        outcomes
    };
    assert_eq!(outcomes("wp"), outcomes("forward"));
    let tests = symex(&[
        "tests",
        "paper-examples/basic/king_search.sx",
        "--method",
        "wp",
    ]);
    assert_eq!(
        status(&tests),
        0,
        "every wp model replays: {}",
        String::from_utf8_lossy(&tests.stdout)
    );
}

#[test]
fn the_literal_this_rule_differs_where_the_body_changes_the_callee_expression() {
    let statuses = |options: &[&str]| -> Vec<String> {
        let mut args = vec![
            "explore",
            "paper-examples/oo/literal_this.sx",
            "--format",
            "json",
        ];
        args.extend_from_slice(options);
        json(&symex(&args))["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| format!("{} {}", p["status"], p["error"]))
            .collect()
    };
    assert!(
        !statuses(&[]).iter().any(|s| s.contains("nil-dereference")),
        "{:?}",
        statuses(&[])
    );
    assert!(
        statuses(&["--literal-this"])
            .iter()
            .any(|s| s.contains("nil-dereference")),
        "{:?}",
        statuses(&["--literal-this"])
    );
    assert_eq!(
        status(&symex(&["tests", "paper-examples/oo/literal_this.sx"])),
        0
    );
    let literal = symex(&[
        "tests",
        "paper-examples/oo/literal_this.sx",
        "--literal-this",
    ]);
    assert_eq!(
        status(&literal),
        1,
        "the literal rule's error path does not replay on the program semantics"
    );
    assert!(String::from_utf8_lossy(&literal.stdout).contains("NOT replayed"));
}

#[test]
fn a_bad_heap_is_exit_2_with_the_reason() {
    let heap = heap_file(
        "bad",
        &serde_json::json!({"objects": {"o1": {"class": "C", "f": "o2"}}, "vars": {"x": "o1"}}),
    );
    let output = symex(&[
        "run",
        "paper-examples/oo/aliasing_puzzle.sx",
        "--heap",
        heap.to_str().unwrap(),
    ]);
    assert_eq!(status(&output), 2);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bad.json") && stderr.contains("field `f`"),
        "{stderr}"
    );
    let not_json = heap_file("not-json", &Json::String("{".into()));
    std::fs::write(&not_json, "{\n  \"objects\": [").unwrap();
    let stderr = String::from_utf8_lossy(
        &symex(&[
            "run",
            "paper-examples/oo/aliasing_puzzle.sx",
            "--heap",
            not_json.to_str().unwrap(),
        ])
        .stderr,
    )
    .to_string();
    assert!(
        stderr.contains("not-json.json:2:"),
        "file, line and column: {stderr}"
    );
}

#[test]
fn forward_execution_finds_the_same_counterexamples_as_wp() {
    for (example, options) in [
        ("aliasing_puzzle", vec![]),
        ("list_partition_buggy", vec!["--unfold", "3"]),
    ] {
        let mut forward = options.clone();
        forward.extend(["--method", "forward"]);
        let (heap, _) = counterexample(example, &forward);
        let (wp_heap, _) = counterexample(example, &options);
        assert_eq!(
            heap, wp_heap,
            "{example}: the same smallest counterexample under both methods"
        );
        let replay = symex(&[
            "run",
            &format!("paper-examples/oo/{example}.sx"),
            "--heap",
            heap_file(&format!("forward-{example}"), &heap)
                .to_str()
                .unwrap(),
        ]);
        assert_eq!(
            status(&replay),
            1,
            "{example}: the forward counterexample replays to the failure"
        );
    }
}

/// Every `.sx` under `paper-examples/oo`, clauses included.
fn oo_examples() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut examples = Vec::new();
    for dir in ["paper-examples/oo", "paper-examples/oo/clauses"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".sx") {
                examples.push(format!("{dir}/{name}"));
            }
        }
    }
    examples.sort();
    examples
}

/// `symex check --format json` on `file`: the exit status and the report.
fn check(file: &str, options: &[&str]) -> (i32, Json) {
    let mut args = vec!["check", file, "--seed", "7", "--format", "json"];
    args.extend_from_slice(options);
    let output = symex(&args);
    (status(&output), json(&output))
}

#[test]
fn check_finds_every_result_of_section_4_on_every_oo_example() {
    for file in oo_examples() {
        let (status, report) = check(&file, &["--runs", "5"]);
        assert_eq!(status, 0, "{file}: {report:#}");
        let results = report["results"].as_array().unwrap();
        let names: Vec<&str> = results
            .iter()
            .map(|r| r["result"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "Theorem 4.5 (path(ρ), Definition 4.2)",
                "Theorem 4.5 (incremental wp)",
                "§4 unfolding agrees with program semantics"
            ]
        );
        for result in results {
            assert!(result["cases"].as_u64().unwrap() > 0, "{file}: {result}");
        }
    }
}

#[test]
fn both_methods_agree_on_every_oo_example_and_their_models_replay() {
    let examples = [
        "aliasing_puzzle",
        "creation_under_aliasing",
        "method_chain",
        "list_insert",
        "list_find",
        "list_partition_buggy",
        "list_partition_fixed",
    ];
    for example in examples {
        let file = format!("paper-examples/oo/{example}.sx");
        let verdicts: Vec<(i32, Json)> = ["forward", "wp"]
            .iter()
            .map(|method| {
                let verified = symex(&[
                    "verify", &file, "--unfold", "2", "--method", method, "--format", "json",
                ]);
                (status(&verified), json(&verified)["verdict"].clone())
            })
            .collect();
        assert_eq!(verdicts[0], verdicts[1], "{example}: forward, then wp");
        let tests = symex(&["tests", &file, "--unfold", "2", "--method", "forward"]);
        assert_eq!(
            status(&tests),
            0,
            "{example}: every forward model replays: {}",
            String::from_utf8_lossy(&tests.stdout)
        );
    }
}

#[test]
fn check_catches_the_aliasing_case_of_field_assignment_dropped() {
    let (status, report) = check(
        "paper-examples/oo/aliasing_puzzle.sx",
        &["--runs", "20", "--break", "aliasing"],
    );
    assert_eq!(status, 1, "{report:#}");
    let [definition, incremental, agreement] =
        [0, 1, 2].map(|k| report["results"][k]["counterexample"].clone());
    for counterexample in [&definition, &incremental] {
        assert!(
            counterexample["heap"].is_object(),
            "the initial heap of the counterexample: {counterexample}"
        );
        assert!(
            counterexample["explanation"]
                .as_str()
                .unwrap()
                .contains("y.f := 2"),
            "{counterexample}"
        );
    }
    assert!(
        agreement.is_null(),
        "the trace semantics is not broken: {agreement}"
    );
}

#[test]
fn check_catches_the_literal_this_rule_where_it_differs() {
    let (status, report) = check(
        "paper-examples/oo/literal_this.sx",
        &["--runs", "50", "--break", "literal-this"],
    );
    assert_eq!(status, 1, "{report:#}");
    let agreement = &report["results"][2]["counterexample"];
    assert!(
        agreement["explanation"]
            .as_str()
            .unwrap()
            .contains("the program steps by"),
        "{agreement}"
    );
}

#[test]
fn an_oo_rule_broken_on_a_basic_program_is_exit_2() {
    let output = symex(&[
        "check",
        "paper-examples/basic/abs.sx",
        "--break",
        "aliasing",
    ]);
    assert_eq!(status(&output), 2);
    assert!(String::from_utf8_lossy(&output.stderr).contains("rules of §4"));
}

#[test]
fn models_of_independent_parts_of_a_path_keep_their_objects_apart() {
    // `x != nil` and `p != nil` share no variable, so the solver decides the
    // second on its own: its objects must not be merged into the first's.
    let program = "class N { field next: N; }\nclass P { field head: N; }\nvar p: P;\nvar x: N;\nx := x.next;\np.head := x";
    let file = std::env::temp_dir().join(format!(
        "symex-objects-two-classes-{}.sx",
        std::process::id()
    ));
    std::fs::write(&file, program).unwrap();
    let explored = json(&symex(&[
        "explore",
        file.to_str().unwrap(),
        "--format",
        "json",
    ]));
    for path in explored["paths"].as_array().unwrap() {
        let model = &path["model"];
        for (x, class) in [("p", "P"), ("x", "N")] {
            if let Some(o) = model["vars"][x].as_str() {
                assert_eq!(
                    model["objects"][o]["class"], class,
                    "{x} names an object of its class: {model}"
                );
            }
        }
    }
}

/// The fuzzer's program whose created objects are read through nested
/// fields in a loop: `--method forward` finishes within a generous time
/// limit (status 0, not the limit's 3) at every unfolding up to 5, with
/// wp's paths. A test that it completes, not of its speed.
#[test]
fn forward_execution_of_nested_reads_of_created_objects_completes() {
    let file = "tests/objects/nested_reads_of_created_objects.sx";
    for unfold in ["1", "3", "5"] {
        let summary = |method: &str| {
            let args = [
                "explore",
                file,
                "--method",
                method,
                "--unfold",
                unfold,
                "--time-limit-ms",
                "60000",
            ];
            let output = symex(&args);
            assert_eq!(status(&output), 0, "{method} --unfold {unfold}");
            let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
            stdout.lines().last().unwrap_or_default().to_string()
        };
        assert_eq!(summary("forward"), summary("wp"), "--unfold {unfold}");
    }
}
