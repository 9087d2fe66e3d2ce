//! `symex compare` and `explore --smtlib` end to end (issue 8): both methods
//! find the same paths with equivalent path conditions on the paper's basic,
//! recursive and oo examples and on the families; a rule broken on either
//! side shows as a disagreement; every exported script decides as the tool did.

use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn json(output: &Output) -> Json {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symex-compare-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The JSON report of a run that must exit 0.
fn succeeded(args: &[&str]) -> Json {
    let output = symex(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    json(&output)
}

/// Every path of every comparison found by both methods and proved equivalent.
fn assert_all_agree(report: &Json) -> usize {
    let mut paths = 0;
    for comparison in report["comparisons"].as_array().unwrap() {
        for method in ["forward", "wp"] {
            assert!(
                comparison[method]["unavailable"].is_null(),
                "{}",
                comparison[method]
            );
        }
        for path in comparison["paths"].as_array().unwrap() {
            assert_eq!(
                path["agreement"]["verdict"], "equivalent",
                "{}: {path}",
                comparison["program"]
            );
            assert!(
                path["forward"]["raw"]["dag"].as_u64().unwrap() >= 1
                    && path["wp"]["raw"]["dag"].as_u64().unwrap() >= 1,
                "{path}"
            );
            paths += 1;
        }
    }
    paths
}

#[test]
fn both_methods_agree_on_every_path_of_the_basic_and_recursive_examples() {
    let files = [
        "paper-examples/basic/abs.sx",
        "paper-examples/basic/array_swap.sx",
        "paper-examples/basic/king_search.sx",
        "paper-examples/basic/while_loop.sx",
        "paper-examples/recursive/factorial.sx",
        "paper-examples/recursive/even_odd.sx",
    ];
    let mut args = vec!["compare", "--unfold", "3", "--format", "json"];
    args.extend(files);
    let output = symex(&args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = json(&output);
    assert_eq!(report["comparisons"].as_array().unwrap().len(), files.len());
    assert!(assert_all_agree(&report) >= 15);
}

#[test]
fn a_family_scales_and_its_members_agree() {
    let report = succeeded(&[
        "compare",
        "--family",
        "recursion",
        "--sizes",
        "2,8",
        "--format",
        "json",
    ]);
    assert_all_agree(&report);
    let comparisons = report["comparisons"].as_array().unwrap();
    let sizes: Vec<u64> = comparisons
        .iter()
        .map(|c| c["size"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes, [2, 8]);
    let dag = |c: &Json, method: &str| c[method]["dag_max"].as_u64().unwrap();
    for method in ["forward", "wp"] {
        assert!(
            dag(&comparisons[1], method) > dag(&comparisons[0], method),
            "{method}: larger programs, larger conditions"
        );
    }
}

/// Issue 33: `--family aliasing,loop` was refused; families listed run in
/// that order, each once.
#[test]
fn several_families_run_in_the_order_given() {
    let report = succeeded(&[
        "compare",
        "--family",
        "loop,aliasing,loop",
        "--sizes",
        "2",
        "--format",
        "json",
    ]);
    let families: Vec<&str> = report["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["program"].as_str().unwrap())
        .collect();
    assert_eq!(families, ["loop", "aliasing"]);
}

#[test]
fn both_methods_agree_on_the_oo_examples_and_the_families() {
    let oo = succeeded(&[
        "compare",
        "paper-examples/oo/aliasing_puzzle.sx",
        "paper-examples/oo/list_insert.sx",
        "--format",
        "json",
    ]);
    assert!(assert_all_agree(&oo) >= 3);
    let report = succeeded(&[
        "compare", "--family", "all", "--sizes", "3", "--format", "json",
    ]);
    let programs: Vec<&str> = report["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["program"].as_str().unwrap())
        .collect();
    assert_eq!(
        programs,
        ["aliasing", "creation", "arrays", "loop", "recursion"]
    );
    assert_all_agree(&report);
}

/// A rule broken on either side (`--break`) makes `compare` find a path on
/// which the two conditions differ, with the inputs that tell them apart,
/// and exit 1: the agreement check is not one that always says yes.
#[test]
fn a_rule_broken_on_either_side_is_caught_by_the_agreement() {
    let family = |name| vec!["--family", name, "--sizes", "3"];
    let cases = [
        (family("aliasing"), "aliasing"),
        (family("loop"), "assignment"),
        (family("loop"), "loop-exit"),
        (vec!["paper-examples/basic/abs.sx"], "choice"),
        (vec!["paper-examples/oo/literal_this.sx"], "literal-this"),
    ];
    for (program, rule) in cases {
        let mut args = vec!["compare", "--break", rule, "--format", "json"];
        args.extend(&program);
        let output = symex(&args);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{program:?} --break {rule}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let report = json(&output);
        let differ: Vec<&Json> = report["comparisons"][0]["paths"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["agreement"]["verdict"] == "differ")
            .collect();
        assert!(!differ.is_empty(), "{program:?} --break {rule}: {report}");
        assert!(
            differ
                .iter()
                .all(|p| p["agreement"]["detail"]["inputs"].is_object()
                    && ["forward", "wp"]
                        .contains(&p["agreement"]["detail"]["holds"].as_str().unwrap_or(""))),
            "{differ:?}"
        );
    }
    let output = symex(&[
        "compare", "--family", "arrays", "--sizes", "3", "--break", "aliasing",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("breaks a rule of the oo language"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `compare --break choice abs.sx` as text: forward's choice rule swapped,
/// so the methods disagree (exit 1).
fn abs_with_forward_broken() -> String {
    let output = symex(&[
        "compare",
        "--break",
        "choice",
        "paper-examples/basic/abs.sx",
    ]);
    assert_eq!(output.status.code(), Some(1));
    String::from_utf8(output.stdout).unwrap()
}

/// The command of a printed `replay: symex run …` line, run, as JSON.
fn replay(line: &str) -> Json {
    let mut args: Vec<&str> = line
        .strip_prefix("replay: symex ")
        .unwrap_or_else(|| panic!("not a replay line: {line}"))
        .split(' ')
        .collect();
    args.extend(["--format", "json"]);
    json(&symex(&args))
}

/// Issue 33: where the methods disagree the text shows the inputs and a
/// `symex run` command; run as printed, it takes the path (its choices, in
/// the trace) exactly when the method whose condition holds there is the
/// unbroken one (wp: `--break choice` breaks forward's rule).
#[test]
fn the_printed_inputs_of_a_disagreement_replay_it() {
    let text = abs_with_forward_broken();
    let mut replayed = 0;
    for (i, line) in text.lines().enumerate() {
        let Some((key, holds)) = line
            .trim()
            .split_once(": the conditions differ at ")
            .and_then(|(key, rest)| Some((key, rest.split(": ").nth(1)?)))
        else {
            continue;
        };
        let holds = holds.split('\'').next().unwrap();
        let command = text.lines().nth(i + 1).unwrap().trim();
        let run = replay(command);
        let choices: String = run["trace"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|step| match step["rule"].as_str()? {
                "choice (then)" => Some('T'),
                "choice (else)" => Some('F'),
                _ => None,
            })
            .collect();
        let taken = key.split(' ').next() == Some(choices.as_str());
        assert_eq!(
            taken,
            holds == "wp",
            "{command}: {choices} for {key} ({holds})"
        );
        replayed += 1;
    }
    assert!(replayed >= 1, "no disagreement shown with a replay: {text}");
}

/// Issue 33: where a path of one method has no partner in the other, the
/// text gives inputs on which its condition holds and a `symex run`
/// command; run as printed, it follows the path (its choices, its outcome)
/// exactly when the method that found it is the unbroken one (wp:
/// `--break choice` breaks forward's rule).
#[test]
fn the_printed_inputs_of_an_unmatched_path_reach_it() {
    let text = abs_with_forward_broken();
    let mut replayed = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let Some((key, rest)) = line.trim().split_once(": only ") else {
            continue;
        };
        let method = rest.split(' ').next().unwrap();
        let command = text.lines().nth(i + 1).unwrap().trim();
        let run = replay(command);
        let letters: String = run["trace"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|step| {
                let rule = step["rule"].as_str()?;
                Some(if rule.ends_with("(then)") || rule.ends_with("(holds)") {
                    'T'
                } else if rule.ends_with("(else)") || rule.ends_with("(fails)") {
                    'F'
                } else {
                    return None;
                })
            })
            .collect();
        let (choices, status) = key.split_once(' ').unwrap();
        let mut trace = letters.chars();
        let follows = choices.chars().all(|c| trace.any(|t| t == c))
            && status.starts_with(run["outcome"].as_str().unwrap());
        assert_eq!(
            follows,
            method == "wp",
            "{command}: trace {letters}, outcome {} for {key} (only {method})",
            run["outcome"]
        );
        *replayed.entry(method.to_string()).or_insert(0) += 1;
    }
    assert!(
        replayed.get("forward").is_some_and(|&n| n >= 1)
            && replayed.get("wp").is_some_and(|&n| n >= 1),
        "unmatched paths of both methods replayed: {replayed:?}\n{text}"
    );
    let report = json(&symex(&[
        "compare",
        "--break",
        "choice",
        "paper-examples/basic/abs.sx",
        "--format",
        "json",
    ]));
    let only: Vec<&Json> = report["comparisons"][0]["paths"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["agreement"]["verdict"] == "only-in")
        .collect();
    assert!(
        !only.is_empty()
            && only
                .iter()
                .all(|p| p["agreement"]["detail"]["inputs"].is_object()
                    && (p["agreement"]["detail"]["method"] == "forward") == p["wp"].is_null()),
        "{only:?}"
    );
}

/// Issue 33: files, folders and families in one call; a folder stands for
/// its `.sx` programs in name order; `symex bench`'s families compare too.
#[test]
fn files_folders_and_families_compare_in_one_call() {
    let report = succeeded(&[
        "compare",
        "paper-examples/recursive",
        "paper-examples/basic/abs.sx",
        "--family",
        "loop,branches",
        "--sizes",
        "2",
        "--unfold",
        "2",
        "--format",
        "json",
    ]);
    let programs: Vec<String> = report["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["program"].as_str().unwrap().to_string())
        .collect();
    let mut folder: Vec<String> = std::fs::read_dir("paper-examples/recursive")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sx"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    folder.sort();
    let mut expected = folder.clone();
    expected.extend(["paper-examples/basic/abs.sx", "loop", "branches"].map(String::from));
    assert_eq!(programs, expected);
    assert_all_agree(&report);
    let branches = &report["comparisons"].as_array().unwrap()[expected.len() - 1];
    assert_eq!(branches["paths"].as_array().unwrap().len(), 4, "2^2 paths");
    let text = String::from_utf8(
        symex(&[
            "compare",
            "paper-examples/basic/abs.sx",
            "--family",
            "loop",
            "--sizes",
            "2",
        ])
        .stdout,
    )
    .unwrap();
    assert!(
        text.contains("abs.sx (basic)") && text.contains("loop(2)"),
        "the paths of the file, then the families' table: {text}"
    );
}

/// Issue 33: `--repeat N` explores N times and reports each timing as the
/// median of the runs with its least and greatest value; one run has no spread.
#[test]
fn repeated_runs_report_medians_within_their_range() {
    let report = |repeat: &str| {
        json(&symex(&[
            "compare", "--family", "loop", "--sizes", "3", "--repeat", repeat, "--format", "json",
        ]))
    };
    let repeated = report("3");
    let comparison = &repeated["comparisons"][0];
    assert_eq!(comparison["runs"], 3);
    for method in ["forward", "wp"] {
        let summary = &comparison[method];
        for timing in ["explore_ms", "explore_solver_ms", "decide_ms_total"] {
            let spread = &summary["spread"][timing];
            let (min, median, max) = (
                spread["min"].as_f64().unwrap(),
                spread["median"].as_f64().unwrap(),
                spread["max"].as_f64().unwrap(),
            );
            assert!(
                min <= median && median <= max,
                "{method} {timing}: {spread}"
            );
            assert_eq!(
                summary[timing].as_f64().unwrap(),
                median,
                "{method} {timing}"
            );
        }
        assert!(summary["spread"]["explore_ms"]["min"].as_f64().unwrap() > 0.0);
    }
    let once = report("1");
    let spread = &once["comparisons"][0]["forward"]["spread"]["explore_ms"];
    assert_eq!(once["comparisons"][0]["runs"], 1);
    assert!(
        spread["min"] == spread["median"] && spread["median"] == spread["max"],
        "{spread}"
    );
    let text = String::from_utf8(
        symex(&[
            "compare", "--family", "loop", "--sizes", "3", "--repeat", "2",
        ])
        .stdout,
    )
    .unwrap();
    assert!(text.contains("build min–max"), "{text}");
    let text = String::from_utf8(
        symex(&["compare", "paper-examples/basic/abs.sx", "--repeat", "2"]).stdout,
    )
    .unwrap();
    assert!(text.contains("(median of 2 runs, min–max)"), "{text}");
    let refused = symex(&["compare", "--family", "loop", "--repeat", "0"]);
    assert_eq!(refused.status.code(), Some(2));
}

/// Issue 33: a program's `// snap:` line sets the bounds `compare` uses
/// (`king_power.sx`: `--unfold 3`) unless the command line gives them.
#[test]
fn a_programs_snap_line_sets_its_bounds_unless_the_command_line_does() {
    let file = "paper-examples/basic/king_power.sx";
    assert!(std::fs::read_to_string(file)
        .unwrap()
        .contains("// snap: --unfold 3"));
    let compared = |extra: &[&str]| {
        let mut args = vec!["compare", file, "--format", "json"];
        args.extend(extra);
        json(&symex(&args))["comparisons"][0]["paths"]
            .as_array()
            .unwrap()
            .len()
    };
    let explored = |unfold: &str| {
        json(&symex(&[
            "explore", file, "--unfold", unfold, "--format", "json",
        ]))["paths"]
            .as_array()
            .unwrap()
            .len()
    };
    assert_ne!(
        explored("3"),
        explored("5"),
        "the bound matters to this program"
    );
    assert_eq!(compared(&[]), explored("3"));
    assert_eq!(compared(&["--unfold", "5"]), explored("5"));
}

#[test]
fn csv_and_the_plot_are_written() {
    let dir = scratch("plot");
    let svg = dir.join("loop.svg");
    let output = symex(&[
        "compare",
        "--family",
        "loop",
        "--sizes",
        "2,4",
        "--format",
        "csv",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let csv = String::from_utf8(output.stdout).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[0], "program");
    let records: Vec<Vec<&str>> = lines.map(|line| line.split(',').collect()).collect();
    assert_eq!(
        records.len(),
        2 * (4 + 6),
        "loop(n) has n + 2 paths, each measured by both methods"
    );
    assert!(
        records
            .iter()
            .all(|r| r.len() == header.len() && r[header.len() - 1] == "yes"),
        "{csv}"
    );
    let picture = std::fs::read_to_string(&svg).unwrap();
    let texts: Vec<&str> = picture
        .split("</text>")
        .filter_map(|chunk| Some(chunk.rsplit_once('>')?.1.trim()))
        .collect();
    assert!(picture.starts_with("<svg"), "{picture}");
    for label in ["loop", "forward", "wp", "family size n", "time (ms)"] {
        assert!(texts.contains(&label), "{label}: {texts:?}");
    }
}

#[test]
fn a_file_that_does_not_parse_is_a_clear_error() {
    let dir = scratch("bad");
    let file = dir.join("bad.sx");
    std::fs::write(&file, "x := ;").unwrap();
    let output = symex(&["compare", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("bad.sx:1:"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The `; symex: …` answer an exported script records.
fn recorded_answer(script: &str) -> &str {
    script
        .lines()
        .find_map(|line| line.strip_prefix("; symex: "))
        .expect("the tool's answer")
}

/// Exports `example`'s paths (infeasible ones too, for `unsat` answers).
fn export(example: &str, dir: &Path) -> Vec<(PathBuf, String)> {
    let output = symex(&[
        "explore",
        example,
        "--unfold",
        "2",
        "--keep-infeasible",
        "--smtlib",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let paths = json(&output)["paths"].as_array().unwrap().len();
    let mut files: Vec<(PathBuf, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.clone(), std::fs::read_to_string(p).unwrap()))
        .collect();
    files.sort();
    assert_eq!(files.len(), paths, "one script per path");
    files
}

#[test]
fn every_path_is_exported_as_a_self_contained_smtlib_script() {
    let examples = [
        "paper-examples/basic/king_search.sx",
        "paper-examples/recursive/even_odd.sx",
        "paper-examples/oo/aliasing_puzzle.sx",
        "paper-examples/oo/list_find.sx",
    ];
    let z3_cli = Command::new("z3").arg("-version").output().is_ok();
    if !z3_cli {
        println!("note: no `z3` on PATH; the scripts are checked structurally only (Z3 rereads them in process in src/solver/smtlib.rs)");
    }
    let mut answers = std::collections::BTreeMap::new();
    for (i, example) in examples.iter().enumerate() {
        let dir = scratch(&format!("smtlib-{i}"));
        for (path, script) in export(example, &dir) {
            let expected = recorded_answer(&script);
            *answers.entry(expected.to_string()).or_insert(0) += 1;
            let body: Vec<&str> = script
                .lines()
                .filter(|line| !line.starts_with(';'))
                .collect();
            assert_eq!(body.first(), Some(&"(set-logic ALL)"), "{}", path.display());
            assert_eq!(
                &body[body.len() - 2..],
                ["(check-sat)", "(get-model)"],
                "{}",
                path.display()
            );
            assert!(
                body.iter().any(|line| line.starts_with("(assert")),
                "{}",
                path.display()
            );
            let text = body.join("\n");
            assert_eq!(
                text.matches('(').count(),
                text.matches(')').count(),
                "balanced: {}",
                path.display()
            );
            if z3_cli {
                let run = Command::new("z3").arg("-smt2").arg(&path).output().unwrap();
                let first = String::from_utf8_lossy(&run.stdout)
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_string();
                if expected != "unknown" {
                    assert_eq!(
                        first,
                        expected,
                        "{}: {}",
                        path.display(),
                        String::from_utf8_lossy(&run.stdout)
                    );
                }
            }
        }
    }
    assert!(
        answers.get("sat").copied().unwrap_or(0) >= 8
            && answers.get("unsat").copied().unwrap_or(0) >= 1,
        "{answers:?}"
    );
}

/// Issue 37: the `// snap:` line's `--int` is honoured too (its program
/// overflows a 32-bit `int`), and the text's header names what the line chose.
#[test]
fn a_programs_snap_line_sets_what_int_means_and_the_header_says_so() {
    let dir = scratch("snap-int");
    let file = dir.join("overflow.sx");
    std::fs::write(
        &file,
        "// snap: --int i32 --unfold 2\nx := 2147483647;\nx := x + 1\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let statuses = |extra: &[&str]| {
        let mut args = vec!["compare", file, "--format", "json"];
        args.extend(extra);
        let output = symex(&args);
        json(&output)["comparisons"][0]["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|path| path["status"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(
        statuses(&[])
            .iter()
            .all(|status| status.starts_with("error")),
        "{:?}",
        statuses(&[])
    );
    assert_eq!(statuses(&["--int", "math"]), ["terminated"]);
    let text = String::from_utf8(symex(&["compare", file]).stdout).unwrap();
    assert!(
        text.contains("from its // snap: line: --unfold 2 --int i32"),
        "{text}"
    );
    let text = String::from_utf8(symex(&["compare", file, "--unfold", "1"]).stdout).unwrap();
    assert!(
        text.contains("from its // snap: line: --int i32") && !text.contains("--unfold 2"),
        "{text}"
    );
}
