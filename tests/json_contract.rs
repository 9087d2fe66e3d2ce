//! The JSON of `explore` (document and `--format jsonl` stream), `tests`
//! and `run` (SPEC §2.1) on every paper
//! example: every field the contract names, with its type and its allowed
//! values, and counts that agree with each other.

use serde_json::Value;
use std::collections::HashMap;
use std::process::Command;
use symex::commands::snap::snap_options;

const STATUSES: &[&str] = &["terminated", "error", "bounded", "unknown", "infeasible"];
const ERRORS: &[&str] = &["array-out-of-bound", "nil-dereference", "assertion-failed"];

fn examples(languages: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    for language in languages {
        let folder = format!("{}/paper-examples/{language}", env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(&folder)
            .unwrap_or_else(|error| panic!("{folder}: {error}"))
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            // Beside each program lies its `symex snap` snapshot.
            if name.ends_with(".sx") {
                files.push(format!("paper-examples/{language}/{name}"));
            }
        }
    }
    files.sort();
    files
}

fn symex_json(args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_symex"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("the symex binary runs");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "symex {}: not JSON ({error}): {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

fn is_count(value: &Value) -> bool {
    value.as_u64().is_some()
}

/// A model value: an integer, a boolean, or an array `{default, entries}`.
fn is_input_value(value: &Value) -> bool {
    match value {
        Value::Number(_) | Value::Bool(_) => true,
        Value::String(digits) => digits
            .trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_digit()),
        Value::Object(array) => {
            array.get("default").is_some_and(is_input_value)
                && array
                    .get("entries")
                    .and_then(Value::as_object)
                    .is_some_and(|entries| {
                        entries
                            .iter()
                            .all(|(index, v)| index.parse::<i128>().is_ok() && is_input_value(v))
                    })
        }
        _ => false,
    }
}

fn check_path(file: &str, path: &Value) {
    let field = |name: &str| {
        path.get(name)
            .unwrap_or_else(|| panic!("{file}: a path lacks `{name}`: {path}"))
    };
    assert!(is_count(field("id")), "{file}: id");
    let status = field("status").as_str().expect("status is a string");
    assert!(STATUSES.contains(&status), "{file}: status {status}");
    match field("error") {
        Value::Null => assert_ne!(status, "error", "{file}: an error path names its error"),
        Value::String(error) => {
            assert!(ERRORS.contains(&error.as_str()), "{file}: error {error}");
            assert_eq!(status, "error", "{file}");
        }
        other => panic!("{file}: error {other}"),
    }
    assert!(
        field("path_condition").is_string(),
        "{file}: path_condition"
    );
    assert!(
        is_count(field("path_condition_size")),
        "{file}: path_condition_size"
    );
    assert!(
        field("state")
            .as_object()
            .is_some_and(|state| state.values().all(Value::is_string)),
        "{file}: state"
    );
    assert!(
        field("trace")
            .as_array()
            .is_some_and(|trace| trace.iter().all(Value::is_string)),
        "{file}: trace"
    );
    match field("model") {
        Value::Null => assert!(
            matches!(status, "unknown" | "infeasible"),
            "{file}: a {status} path has a model"
        ),
        Value::Object(model) => assert!(
            model.values().all(is_input_value),
            "{file}: model {model:?}"
        ),
        other => panic!("{file}: model {other}"),
    }
    assert!(is_count(field("steps")), "{file}: steps");
}

#[test]
fn explore_json_follows_the_contract_on_every_example() {
    for file in examples(&["basic", "recursive"]) {
        let json = symex_json(&["explore", &file, "--format", "json", "--unfold", "3"]);
        assert_eq!(json["program"], file.as_str());
        assert!(
            matches!(json["language"].as_str(), Some("basic" | "recursive")),
            "{file}: language"
        );
        assert_eq!(json["method"], "forward", "{file}");
        let paths = json["paths"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: paths"));
        for path in paths {
            check_path(&file, path);
        }
        let stats = &json["stats"];
        for key in [
            "paths",
            "terminated",
            "errors",
            "bounded",
            "unknown",
            "pruned",
            "solver_calls",
            "time_ms",
        ] {
            assert!(is_count(&stats[key]), "{file}: stats.{key}");
        }
        assert_eq!(
            stats["paths"].as_u64(),
            Some(paths.len() as u64),
            "{file}: stats.paths"
        );
        let count =
            |status: &str| paths.iter().filter(|path| path["status"] == status).count() as u64;
        assert_eq!(
            stats["terminated"].as_u64(),
            Some(count("terminated")),
            "{file}"
        );
        assert_eq!(stats["errors"].as_u64(), Some(count("error")), "{file}");
        assert_eq!(stats["bounded"].as_u64(), Some(count("bounded")), "{file}");
        assert_eq!(stats["unknown"].as_u64(), Some(count("unknown")), "{file}");
    }
}

#[test]
fn tests_json_follows_the_contract_on_every_example() {
    for file in examples(&["basic", "recursive"]) {
        let json = symex_json(&["tests", &file, "--format", "json", "--unfold", "3"]);
        let tests = json["tests"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: tests"));
        assert!(!tests.is_empty(), "{file}: no test");
        for test in tests {
            assert!(is_count(&test["path"]), "{file}: path");
            assert!(
                test["inputs"]
                    .as_object()
                    .is_some_and(|inputs| inputs.values().all(is_input_value)),
                "{file}: inputs"
            );
            let outcome = test["outcome"].as_str().expect("outcome is a string");
            assert!(
                outcome == "terminated" || ERRORS.contains(&outcome),
                "{file}: outcome {outcome}"
            );
            assert!(test["final_state"].is_object(), "{file}: final_state");
            assert_eq!(test["replayed"], true, "{file}: test {test}");
        }
    }
}

#[test]
fn run_json_follows_the_contract() {
    let json = symex_json(&[
        "run",
        "paper-examples/basic/array_swap.sx",
        "--format",
        "json",
        "--input",
        "a=[1,2,3]",
        "--input",
        "j=2",
    ]);
    assert_eq!(json["outcome"], "terminated");
    assert_eq!(json["error"], Value::Null);
    assert!(is_count(&json["steps"]));
    assert_eq!(json["state"]["t"], 1);
    assert_eq!(json["state"]["a"]["default"], 0);
    assert_eq!(
        json["state"]["a"]["entries"],
        serde_json::json!({"0": 3, "1": 2, "2": 1})
    );
    let failed = symex_json(&[
        "run",
        "paper-examples/basic/array_max.sx",
        "--format",
        "json",
        "--checked-arrays",
        "--input",
        "n=2",
    ]);
    assert_eq!(
        (failed["outcome"].as_str(), failed["error"].as_str()),
        (Some("error"), Some("array-out-of-bound"))
    );
}

fn explore_as(file: &str, format: &str) -> String {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    let output = Command::new(env!("CARGO_BIN_EXE_symex"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["explore", file, "--format", format])
        .args(snap_options(&source))
        .output()
        .expect("the symex binary runs");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

fn text(value: &Value) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {value}"))
}

/// The conjunction as printed, up to parentheses (a condition that is
/// itself a disjunction is parenthesised inside a conjunction).
fn unparenthesised(condition: &str) -> String {
    condition.replace(['(', ')'], "")
}

/// `explore --format jsonl` against the JSON document, on every paper
/// example: the same paths in the same order with the same statuses, and
/// each path's condition either written out as the document writes it or
/// marked `path_condition_from_nodes`, when the conditions of the node
/// lines from the root to the path's node must conjoin to it.
#[test]
fn the_json_lines_stream_says_what_the_document_says() {
    let (mut from_nodes, mut written) = (0, 0);
    for file in examples(&["basic", "recursive", "oo"]) {
        let document: Value = serde_json::from_str(&explore_as(&file, "json"))
            .unwrap_or_else(|error| panic!("{file}: not JSON: {error}"));
        let lines: Vec<Value> = explore_as(&file, "jsonl")
            .lines()
            .map(|line| serde_json::from_str(line).expect("each line is JSON"))
            .collect();
        let nodes: HashMap<u64, &Value> = lines
            .iter()
            .filter(|line| line.get("parent").is_some())
            .map(|line| (line["node"].as_u64().expect("a node id"), line))
            .collect();
        let paths: Vec<&Value> = lines
            .iter()
            .filter(|line| line.get("path").is_some())
            .collect();
        let expected = document["paths"].as_array().expect("paths");
        assert_eq!(paths.len(), expected.len(), "{file}: number of paths");
        for (path, expected) in paths.iter().zip(expected) {
            assert_eq!(path["status"], expected["status"], "{file}: status");
            assert_eq!(path["node"], expected["node"], "{file}: node");
            let condition = text(&expected["path_condition"]);
            if path["path_condition_from_nodes"] == Value::Bool(true) {
                from_nodes += 1;
                let mut conjuncts = Vec::new();
                let mut node = &nodes[&path["node"].as_u64().expect("a node id")];
                while let Some(parent) = node["parent"].as_u64() {
                    conjuncts.push(text(&node["condition"]));
                    node = &nodes[&parent];
                }
                assert_eq!(text(&node["condition"]), "true", "{file}: the root's");
                conjuncts.retain(|c| *c != "true");
                conjuncts.reverse();
                let conjunction = match conjuncts.is_empty() {
                    true => "true".to_string(),
                    false => conjuncts.join(" && "),
                };
                assert_eq!(
                    unparenthesised(&conjunction),
                    unparenthesised(condition),
                    "{file}: path {} from its nodes",
                    path["path"]
                );
            } else {
                written += 1;
                assert_eq!(text(&path["path_condition"]), condition, "{file}");
            }
        }
    }
    // Both kinds of path occur among the examples, so both are checked.
    assert!(
        from_nodes > 10 && written > 10,
        "{from_nodes} from nodes, {written} written"
    );
}
