//! `symex step`: King's SEARCH walked by a script ends at the leaves
//! `explore` finds, and infeasible choices are refused with the reason.

use super::stdout_of;
use std::io::Write;
use std::process::{Command, Stdio};

const SEARCH: &str = "paper-examples/basic/king_search.sx";

/// The path conditions of the leaves a transcript reaches, in order.
fn leaves(transcript: &str) -> Vec<String> {
    let lines: Vec<&str> = transcript.lines().collect();
    lines
        .windows(2)
        .filter(|pair| pair[0].contains(": path ends: "))
        .map(|pair| {
            let line = pair[1].trim();
            line.strip_prefix("φ = ")
                .or_else(|| line.strip_prefix("path(ρ) = "))
                .expect("a leaf shows its path condition")
                .to_string()
        })
        .collect()
}

#[test]
fn king_search_walk_ends_at_the_leaves_explore_finds() {
    let transcript = stdout_of(
        &[
            "step",
            SEARCH,
            "--script",
            "tests/classroom/king_search.walk",
        ],
        0,
    );
    let expected = explored(SEARCH);
    assert_eq!(expected.len(), 11);
    assert_eq!(leaves(&transcript), expected);
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("step-king_search", transcript);
    });
}

/// The path conditions `explore` reports for `program`, in order.
fn explored(program: &str) -> Vec<String> {
    let explored: serde_json::Value =
        serde_json::from_str(&stdout_of(&["explore", program, "--format", "json"], 0))
            .expect("JSON");
    explored["paths"]
        .as_array()
        .expect("paths")
        .iter()
        .map(|path| {
            path["path_condition"]
                .as_str()
                .expect("a path condition")
                .to_string()
        })
        .collect()
}

#[test]
fn an_oo_program_is_walked_as_the_unfolding_with_path_rho() {
    let puzzle = "paper-examples/oo/aliasing_puzzle.sx";
    let transcript = stdout_of(
        &[
            "step",
            puzzle,
            "--script",
            "tests/classroom/aliasing_puzzle.walk",
        ],
        0,
    );
    assert_eq!(leaves(&transcript), explored(puzzle));
    assert_eq!(leaves(&transcript).len(), 4);
    assert!(
        transcript
            .contains("refused: #0 is a fork: choose a branch with `go true` or `go error`\n"),
        "{transcript}"
    );
    // `show` at the assertion: ⟨S, ρ⟩, then ρ and path(ρ); the fork's
    // condition is the aliasing conditional of [h.f := e] simplified.
    assert!(transcript.contains("#4: ⟨assert x.f = 1, x.f := 1 · y.f := 2⟩\n  ρ = x.f := 1 · y.f := 2\n  path(ρ) = x != nil && y != nil\n"), "{transcript}");
    assert!(transcript.contains("  fork on x != y\n"), "{transcript}");
    assert!(
        !transcript.contains("σ = ") && !transcript.contains("φ = "),
        "the unfolding has no σ and writes path(ρ): {transcript}"
    );
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("step-aliasing_puzzle", transcript);
    });
}

#[test]
fn assume_on_an_oo_program_reads_fields_after_the_trace() {
    // After ρ = x.f := 1, `x.f = 2` is wp_ρ(x.f = 2) = (1 = 2): false, refused.
    let transcript = run_with_stdin(
        &["step", "paper-examples/oo/aliasing_puzzle.sx"],
        "go true; assume x.f = 2; assume y.f = 1; show",
    );
    assert!(
        transcript
            .contains("refused: `assume x.f = 2` is false here: it reads `false` after the path\n"),
        "{transcript}"
    );
    assert!(
        transcript.contains("  assumed: x = y || y.f = 1\n"),
        "{transcript}"
    );
}

#[test]
fn an_infeasible_choice_is_refused_with_the_reason() {
    let script = "go; assume a[3] = x; go false; go true; go; back; back; back; show";
    let transcript = run_with_stdin(&["step", SEARCH], script);
    assert!(
        transcript.contains("refused: `go false` is infeasible: φ = x = a[3] implies ¬(x != a[3])"),
        "{transcript}"
    );
    assert_eq!(leaves(&transcript), vec!["x = a[3]"]);
    assert!(
        transcript.contains("refused: the path ends at #3: `back` or `restore N` to walk another"),
        "{transcript}"
    );
    // Three `back`s return to the start, where `φ` is `true` again.
    assert!(
        transcript.ends_with("  φ = true\n  φ is satisfiable, e.g. {a ↦ [], x ↦ 0}\n"),
        "{transcript}"
    );
}

#[test]
fn a_script_mistake_names_its_line() {
    let output = super::symex(&["step", SEARCH, "--script", "tests/classroom/main.rs"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("tests/classroom/main.rs:1: error: unknown command `//!`"),
        "{stderr}"
    );
}

/// Commands on standard input (not a terminal), as a pipe gives them.
fn run_with_stdin(args: &[&str], commands: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_symex"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the symex binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(commands.as_bytes())
        .expect("commands written");
    let output = child.wait_with_output().expect("symex ends");
    assert!(output.status.success());
    String::from_utf8_lossy(&output.stdout).into_owned()
}
