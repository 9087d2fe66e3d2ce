//! Models as users read and copy them: the `model:` lines of `explore`'s
//! text report (and, for heaps, the JSON model that `run --heap` takes)
//! given back to `symex run` reproduce each path's outcome, on every paper
//! example and lab program without objects; lab 2's models are short lists
//! of small numbers.

mod common;

use serde_json::Value as Json;
use std::path::Path;
use std::process::Command;

fn symex(args: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let code = output.status.code().unwrap_or(-1);
    (code, String::from_utf8_lossy(&output.stdout).into_owned())
}

/// `{a ↦ [0, 1], n ↦ 2}` as `["a=[0, 1]", "n=2"]`: split at the commas
/// outside brackets and braces.
fn assignments(model: &str) -> Vec<String> {
    let inner = &model[model.find('{').unwrap() + 1..model.rfind('}').unwrap()];
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .map(|part| part.trim().replacen(" ↦ ", "=", 1))
        .collect()
}

/// What `run` prints first for a path that ended with `status`, or `None`
/// for a path `run` would carry on past (bounded, unknown).
fn expected_run(status: &str) -> Option<String> {
    if status.starts_with("terminated") {
        Some("terminated".into())
    } else {
        status
            .strip_prefix("error ")
            .map(|error| error.split(' ').next().unwrap_or_default().to_string())
    }
}

/// Options `run` shares with `explore` (`--unfold` and the rest are explore's own).
fn run_options(options: &[String]) -> Vec<String> {
    options
        .iter()
        .filter(|option| *option == "--checked-arrays")
        .cloned()
        .collect()
}

fn replays_text_models(program: &Path, options: &[String]) -> usize {
    let name = program.to_str().unwrap();
    let mut args = vec!["explore", name];
    args.extend(options.iter().map(String::as_str));
    let (_, report) = symex(&args);
    let mut replayed = 0;
    let mut status = None;
    for line in report.lines() {
        if let Some(rest) = line.strip_prefix("path ") {
            status = rest.split_once(": ").map(|(_, s)| s.to_string());
        } else if let Some(model) = line.strip_prefix("  model: ") {
            let Some(expected) = status.as_deref().and_then(expected_run) else {
                continue;
            };
            let mut run = vec!["run".to_string(), name.to_string()];
            run.extend(run_options(options));
            for assignment in assignments(model) {
                run.push("--input".into());
                run.push(assignment);
            }
            let run: Vec<&str> = run.iter().map(String::as_str).collect();
            let (_, outcome) = symex(&run);
            assert!(
                outcome.starts_with(&expected),
                "{name}: the printed model {model} gives\n{outcome}\nexpected {expected} ({run:?})"
            );
            replayed += 1;
        }
    }
    replayed
}

#[test]
fn every_printed_model_replays_as_run_inputs() {
    let mut replayed = 0;
    let mut programs_seen = 0;
    for dir in [
        "paper-examples/basic",
        "paper-examples/recursive",
        "labs/1-paths",
        "labs/2-arrays",
        "labs/3-recursion",
        "labs/5-theorems",
    ] {
        for (program, options) in common::programs(dir) {
            replayed += replays_text_models(&program, &options);
            programs_seen += 1;
        }
    }
    assert!(programs_seen >= 20, "only {programs_seen} programs found");
    assert!(replayed >= 150, "only {replayed} models replayed");
}

#[test]
fn every_model_of_a_heap_replays_as_run_heap() {
    let dir = std::env::temp_dir().join(format!("symex-printed-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut replayed = 0;
    for (program, options) in common::programs("paper-examples/oo") {
        let name = program.to_str().unwrap();
        let mut args = vec!["explore", name, "--format", "json"];
        args.extend(options.iter().map(String::as_str));
        let (_, report) = symex(&args);
        let report: Json = serde_json::from_str(&report).unwrap();
        for path in report["paths"].as_array().unwrap() {
            let status = match (path["status"].as_str(), path["error"].as_str()) {
                (Some("terminated"), _) => "terminated".to_string(),
                (Some("error"), Some(error)) => error.to_string(),
                _ => continue,
            };
            let heap = dir.join(format!("heap-{replayed}.json"));
            std::fs::write(&heap, path["model"].to_string()).unwrap();
            let (_, outcome) = symex(&["run", name, "--heap", heap.to_str().unwrap()]);
            assert!(
                outcome.starts_with(&status),
                "{name} path {}: the model {} gives\n{outcome}\nexpected {status}",
                path["id"],
                path["model"]
            );
            replayed += 1;
        }
    }
    assert!(replayed >= 40, "only {replayed} heaps replayed");
}

/// Lab 2 as written: `explore max.sx --unfold 2 --checked-arrays` prints
/// every array as a list within its length, and every number is small.
#[test]
fn lab_two_models_are_short_lists_of_small_numbers() {
    let (_, report) = symex(&[
        "explore",
        "labs/2-arrays/max.sx",
        "--unfold",
        "2",
        "--checked-arrays",
    ]);
    let models: Vec<&str> = report
        .lines()
        .filter_map(|l| l.strip_prefix("  model: "))
        .collect();
    assert_eq!(models.len(), 15, "{report}");
    for model in models {
        for assignment in assignments(model) {
            let (name, value) = assignment.split_once('=').unwrap();
            if name == "a" {
                assert!(value.starts_with('[') && value.ends_with(']'), "{model}");
            }
            let numbers = value
                .split(|c: char| !(c.is_ascii_digit() || c == '-'))
                .filter(|n| !n.is_empty());
            for n in numbers {
                let n: i64 = n.parse().unwrap();
                assert!(n.abs() <= 4, "{model}: {n} is not small");
            }
        }
    }
}

#[test]
fn models_split_into_assignments_at_top_level_commas() {
    assert_eq!(
        assignments("{a ↦ [0, 1], b ↦ {3: 1, 4: -1; len 0}, n ↦ 2}"),
        ["a=[0, 1]", "b={3: 1, 4: -1; len 0}", "n=2"]
    );
    assert!(assignments("{}").is_empty());
}

/// The `nondet_ints=[…]`/`nondet_bools=[…]` assignments of a printed
/// model, each checked to be a plain list of the values drawn.
fn drawn_lists(model: &str) -> Vec<String> {
    let drawn: Vec<String> = assignments(model)
        .into_iter()
        .filter(|a| a.starts_with("nondet_"))
        .collect();
    for list in &drawn {
        let (_, value) = list.split_once('=').unwrap();
        assert!(
            value.starts_with('[') && value.ends_with(']'),
            "{model}: `{list}` is not the list of the values drawn"
        );
    }
    drawn
}

/// `symex ARGS` as printed (`symex run F --input 'a=[1, 2]'  → …`): the
/// words before the arrow, quotes removed.
fn printed_command(line: &str) -> Vec<String> {
    let command = line.split("  → ").next().unwrap();
    let command = command.trim().strip_prefix("symex ").unwrap();
    let mut words = Vec::new();
    for (i, part) in command.split('\'').enumerate() {
        if i % 2 == 1 {
            words.push(part.to_string());
        } else {
            words.extend(part.split_whitespace().map(str::to_string));
        }
    }
    words
}

/// `run FILE OPTIONS --input …` of the assignments of a printed model
/// starts with `expected`.
fn replays(program: &str, options: &[String], model: &str, expected: &str) {
    let mut run = vec!["run".to_string(), program.to_string()];
    run.extend(run_options(options));
    for assignment in assignments(model) {
        run.extend(["--input".to_string(), assignment]);
    }
    let run: Vec<&str> = run.iter().map(String::as_str).collect();
    let (_, outcome) = symex(&run);
    assert!(
        outcome.starts_with(expected),
        "{run:?} gives\n{outcome}expected {expected}"
    );
}

/// `nondet()` and `nondet_bool()` (docs/surface.md): the models of
/// `explore`, `tests`, `verify` and `concolic` show each sequence as the
/// list of the values the path draws, in order, and the printed form
/// given back to `symex run` reproduces the predicted outcome.
#[test]
fn nondet_models_list_the_values_drawn_and_replay_in_every_command() {
    let mut programs = common::programs("tests/surface/draws");
    programs.push(("tests/surface/acceptance/nondet_loop.sx".into(), vec![]));
    let mut lists = 0;
    let mut replayed = 0;
    for (program, options) in &programs {
        let name = program.to_str().unwrap();
        let with = |command: &str| {
            let mut args = vec![command, name];
            args.extend(options.iter().map(String::as_str));
            symex(&args).1
        };
        let explored = with("explore");
        for model in explored.lines().filter_map(|l| l.strip_prefix("  model: ")) {
            lists += drawn_lists(model).len();
        }
        replayed += replays_text_models(program, options);
        for line in with("tests")
            .lines()
            .filter(|l| l.starts_with("test of path"))
        {
            let (_, rest) = line.split_once("inputs ").unwrap();
            let (model, outcome) = rest.split_once(" → ").unwrap();
            lists += drawn_lists(model).len();
            replays(name, options, model, outcome.split(',').next().unwrap());
            replayed += 1;
        }
        let verified = with("verify");
        if let Some(model) = verified
            .lines()
            .find_map(|l| l.strip_prefix("counterexample: "))
        {
            lists += drawn_lists(model).len();
            let error = verified
                .split(" ends in ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next();
            replays(name, options, model, error.unwrap());
            replayed += 1;
        }
        for line in with("concolic")
            .lines()
            .filter(|l| l.contains(". symex run "))
        {
            let (_, printed) = line.split_once(". ").unwrap();
            let words = printed_command(printed);
            for input in words.iter().filter(|w| w.starts_with("nondet_")) {
                lists += drawn_lists(&format!("{{{}}}", input.replacen('=', " ↦ ", 1))).len();
            }
            let expected = printed
                .split("  → ")
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap();
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let (_, outcome) = symex(&words);
            assert!(outcome.starts_with(expected), "{printed} gives\n{outcome}");
            replayed += 1;
        }
    }
    // flips: 3 paths, two sequences each, in 4 commands (verify 1 path);
    // checked: 2 paths; nondet_loop: 2 paths.
    assert!(lists >= 34, "only {lists} sequences shown");
    assert!(replayed >= 24, "only {replayed} printed models replayed");
}

/// The loop draws three values on every path: each model (and `bound`'s
/// witness) lists exactly three, unconstrained ones as 0, where it
/// printed `{0: 5, 1: 2, 2: 5; len 0}` and `[]` before.
#[test]
fn a_model_lists_every_value_the_path_draws() {
    let (_, report) = symex(&["explore", "tests/surface/acceptance/nondet_loop.sx"]);
    let models: Vec<Vec<String>> = report
        .lines()
        .filter_map(|l| l.strip_prefix("  model: "))
        .map(drawn_lists)
        .collect();
    assert_eq!(models.len(), 2, "{report}");
    for drawn in models {
        assert_eq!(drawn.len(), 1);
        assert_eq!(drawn[0].matches(',').count(), 2, "{drawn:?}");
    }
    assert!(report.contains("nondet_ints ↦ [0, 0, 0]"), "{report}");
    // `bound`'s witness too, which its concrete run replays to the end.
    let file = "tests/surface/acceptance/nondet_loop.sx";
    let (_, bounds) = symex(&["bound", file]);
    let witness = bounds
        .lines()
        .find_map(|l| l.strip_prefix("  witness: "))
        .unwrap_or_else(|| panic!("{bounds}"));
    assert_eq!(drawn_lists(witness)[0].matches(',').count(), 2, "{witness}");
    replays(file, &[], witness, "terminated");
}
