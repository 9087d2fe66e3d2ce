//! `--merge` from the command line: a counterexample found on merged
//! states is concrete and replayed, the JSON tree marks its joins, and
//! `--merge` where configurations cannot be joined is refused clearly.

use std::process::{Command, Output};

fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .output()
        .expect("symex runs")
}

fn write(name: &str, source: &str) -> String {
    let path = std::env::temp_dir().join(format!("symex-merge-{}-{name}", std::process::id()));
    std::fs::write(&path, source).expect("writable");
    path.display().to_string()
}

#[test]
fn verify_with_merging_gives_a_replayed_counterexample() {
    let file = write(
        "count.sx",
        "i := 0; c := 0; while i < 4 { if a[i] = x { c := c + 1 }; i := i + 1 }; assert c < 4",
    );
    let output = symex(&["verify", &file, "--merge"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("confirmed by the concrete semantics"),
        "{text}"
    );
    assert!(text.contains("⊔ join of nodes"), "{text}");
    let proved = symex(&["verify", &file, "--merge", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&proved.stdout).expect("json");
    assert_eq!(report["counterexample"]["confirmed"], true);
    // The sixteen paths through the loop are joined: one per outcome of the assertion.
    assert_eq!(report["stats"]["paths"], 2);
}

#[test]
fn the_json_tree_marks_joins_and_the_merged_leaf_holds_the_disjunction() {
    let file = write(
        "choices.sx",
        "c := 0; if x > 0 { c := c + 1 } else { c := c - 1 }; if y > 0 { c := 1 } else { c := 2 }; assert c >= 0",
    );
    let output = symex(&["explore", &file, "--merge", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let paths = report["paths"].as_array().expect("paths");
    assert_eq!(paths.len(), 1);
    assert_eq!(report["stats"]["merges"], 2);
    let plain = symex(&["explore", &file, "--format", "json"]);
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).expect("json");
    assert_eq!(plain["paths"].as_array().expect("paths").len(), 4);
}

#[test]
fn merging_under_weakest_preconditions_is_refused() {
    let file = write("wp.sx", "if x > 0 { c := 1 } else { c := 2 }");
    let output = symex(&["explore", &file, "--merge", "--method", "wp"]);
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("--merge joins the configurations of forward symbolic execution"),
        "{message}"
    );
}

#[test]
fn merging_under_lazy_initialisation_is_refused_naming_lazy() {
    let file = write("lazy.sx", "if x > 0 { c := 1 } else { c := 2 }");
    let output = symex(&["explore", &file, "--merge", "--method", "lazy"]);
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("this program runs with --method lazy (add --method forward)"),
        "{message}"
    );
}
