//! `tests --output DIR` then `symex replay DIR` on every paper example: each
//! saved test passes; a saved test whose expected outcome or final state is
//! changed fails, and its program's absence is a clear error.

mod common;

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

fn symex(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symex-saved-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn saved_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| entries.count())
}

/// The saved tests of `dir`: each file's name and outcome.
fn outcomes(dir: &Path) -> Vec<(String, String)> {
    let mut outcomes: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let file = entry.unwrap().path();
            let test: Json =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            (name, test["outcome"].to_string())
        })
        .collect();
    outcomes.sort();
    outcomes
}

/// The options `--jobs` refuses (workers explore depth first, each on its own).
const UNSHARED: [&str; 5] = [
    "--subsume",
    "--abstract",
    "--merge",
    "--strategy",
    "--max-paths",
];

/// With `--jobs 2` too: the same files with the same outcomes (the
/// inputs are models Z3 picks, which depend on the queries each worker's
/// Z3 answered before), each of which replays.
#[test]
fn every_paper_examples_saved_tests_replay() {
    let (mut programs, mut tests, mut shared) = (0, 0, 0);
    for (program, options) in common::programs("paper-examples") {
        let program = program.to_string_lossy().into_owned();
        let mut saved = Vec::new();
        let jobs: &[&str] = if options.iter().any(|o| UNSHARED.contains(&o.as_str())) {
            &["1"]
        } else {
            &["1", "2"]
        };
        for &jobs in jobs {
            let dir = scratch(&format!("all-{programs}-{jobs}"));
            let mut args = vec![
                "tests",
                program.as_str(),
                "--output",
                dir.to_str().unwrap(),
                "--jobs",
                jobs,
            ];
            args.extend(options.iter().map(String::as_str));
            let (status, report, errors) = symex(&args);
            assert_eq!(status, 0, "{program} --jobs {jobs}: {report}{errors}");
            let (status, replayed, errors) = symex(&["replay", dir.to_str().unwrap()]);
            assert_eq!(status, 0, "{program} --jobs {jobs}:\n{replayed}{errors}");
            let count = saved_files(&dir);
            assert!(
                replayed.ends_with(&format!(
                    "{count} test{}: {count} passed, 0 failed\n",
                    if count == 1 { "" } else { "s" }
                )),
                "{replayed}"
            );
            tests += count;
            saved.push(outcomes(&dir));
            std::fs::remove_dir_all(&dir).unwrap();
        }
        if let [one, two] = &saved[..] {
            assert_eq!(one, two, "{program}: --jobs 2 saved other tests");
            shared += 1;
        }
        programs += 1;
    }
    assert!(programs >= 37, "{programs} examples");
    assert!(tests >= 2 * 110, "only {tests} tests saved");
    assert!(shared >= 30, "only {shared} examples run with --jobs 2");
}

/// Changes `field` of the first saved test, and returns its file.
fn altered(dir: &Path, field: &str, value: Json) -> PathBuf {
    let file = dir.join("path-1.json");
    let mut test: Json = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    test[field] = value;
    std::fs::write(&file, test.to_string()).unwrap();
    file
}

#[test]
fn a_test_whose_expectation_is_wrong_fails() {
    let dir = scratch("wrong");
    let (status, _, _) = symex(&[
        "tests",
        "paper-examples/basic/abs.sx",
        "--output",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(status, 0);
    let file = altered(&dir, "outcome", Json::from("assertion-failed"));
    let (status, report, _) = symex(&["replay", file.to_str().unwrap()]);
    assert_eq!(status, 1, "{report}");
    assert!(
        report.contains("FAILED: expected assertion-failed, the run ends terminated"),
        "{report}"
    );
    altered(&dir, "outcome", Json::from("terminated"));
    let file = altered(
        &dir,
        "final_state",
        serde_json::json!({"objects": {}, "vars": {"x": 0, "y": 7}}),
    );
    let (status, report, _) = symex(&["replay", file.to_str().unwrap()]);
    assert_eq!(status, 1, "{report}");
    assert!(report.contains("FAILED: `y` ends as 0"), "{report}");
    let (status, report, _) = symex(&["replay", dir.to_str().unwrap()]);
    assert_eq!(status, 1);
    assert!(
        report.ends_with("2 tests: 1 passed, 1 failed\n"),
        "{report}"
    );
    let file = altered(&dir, "program", Json::from("no/such/program.sx"));
    let (status, _, errors) = symex(&["replay", file.to_str().unwrap()]);
    assert_eq!(status, 2);
    assert!(
        errors.contains("no/such/program.sx: cannot read the program"),
        "{errors}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
