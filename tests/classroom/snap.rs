//! `symex snap`: the project's own examples pass, and a change in what a
//! program explores to, or in what a rule makes of it, fails with a
//! readable diff until it is accepted.

use super::{stdout_of, symex};
use std::path::PathBuf;

#[test]
fn paper_examples_match_their_snapshots() {
    let report = stdout_of(&["snap", "paper-examples"], 0);
    assert!(
        report.ends_with(" unchanged, 0 changed or new\n"),
        "{report}"
    );
}

#[test]
fn a_changed_program_fails_with_a_diff_until_accepted() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("snap-changed");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let program = dir.join("abs.sx");
    std::fs::copy("paper-examples/basic/abs.sx", &program).expect("copied");
    let dir_arg = dir.to_string_lossy().into_owned();
    assert_eq!(stdout_of(&["snap", &dir_arg], 1), "new: abs.sx has no snapshot yet (run with --accept to write it)\n1 programs, 0 unchanged, 1 changed or new\n");
    stdout_of(&["snap", &dir_arg, "--accept"], 0);
    let snapshot = std::fs::read_to_string(dir.join("abs.snap")).expect("written");
    assert!(
        snapshot.starts_with("$ symex explore abs.sx\npath 0:"),
        "no machine path: {snapshot}"
    );
    stdout_of(&["snap", &dir_arg], 0);

    // A deliberate change: the negative branch now keeps x's sign.
    let source = std::fs::read_to_string(&program).expect("read");
    assert!(source.contains("-x"), "{source}");
    std::fs::write(&program, source.replace("-x", "x")).expect("changed");
    let report = stdout_of(&["snap", &dir_arg], 1);
    assert!(report.starts_with("changed: abs.sx\n"), "{report}");
    // Each chunk says which command (method) and which path it is in.
    assert!(
        report.contains("  @@ symex explore abs.sx · path 0\n"),
        "{report}"
    );
    assert!(
        report.lines().any(|line| line.starts_with("  - "))
            && report.lines().any(|line| line.starts_with("  + ")),
        "{report}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("abs.snap")).expect("kept"),
        snapshot,
        "a failing run keeps the old snapshot"
    );

    // One file alone, under the name its folder's snapshot gave it.
    let file_arg = program.to_string_lossy().into_owned();
    assert_eq!(
        stdout_of(&["snap", &file_arg], 1).lines().next(),
        Some("changed: abs.sx")
    );
    stdout_of(&["snap", &file_arg, "--accept"], 0);
    stdout_of(&["snap", &dir_arg], 0);
    assert_eq!(symex(&["snap", "no-such-folder"]).status.code(), Some(2));
}

#[test]
fn one_program_of_a_folder_is_snapshotted_under_its_folder_name() {
    let dir = clauses_copy("snap-one");
    let program = dir.join("oo/clauses/field_same_field.sx");
    let snapshot = std::fs::read_to_string(program.with_extension("snap")).expect("a snapshot");
    std::fs::write(program.with_extension("snap"), format!("{snapshot}stale\n"))
        .expect("made stale");
    let report = stdout_of(&["snap", &program.to_string_lossy(), "--accept"], 0);
    assert!(
        report.starts_with("written: oo/clauses/field_same_field.sx"),
        "{report}"
    );
    assert_eq!(
        std::fs::read_to_string(program.with_extension("snap")).expect("written"),
        snapshot,
        "accepting one file writes what snapping its folder wrote"
    );
}

/// A copy of `paper-examples/oo/clauses` in a scratch folder, as
/// `DIR/oo/clauses` so the snapshots' command lines still match.
fn clauses_copy(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let clauses = dir.join("oo/clauses");
    std::fs::create_dir_all(&clauses).expect("a scratch folder");
    for entry in std::fs::read_dir("paper-examples/oo/clauses")
        .expect("the clauses")
        .flatten()
    {
        std::fs::copy(entry.path(), clauses.join(entry.file_name())).expect("copied");
    }
    dir
}

#[test]
fn an_oo_snapshot_holds_the_wp_view_and_a_changed_rule_fails_with_a_diff() {
    let dir = clauses_copy("snap-rule");
    let dir_arg = dir.to_string_lossy().into_owned();
    // A program's snapshot does not depend on the programs beside it.
    assert!(stdout_of(&["snap", &dir_arg], 0)
        .ends_with("12 programs, 12 unchanged, 0 changed or new\n"));
    let snapshot = dir.join("oo/clauses/field_same_field.snap");
    let recorded = std::fs::read_to_string(&snapshot).expect("a snapshot");
    assert!(
        recorded.starts_with(
            "$ symex explore oo/clauses/field_same_field.sx --no-simplify --method wp\npath 0:"
        ),
        "{recorded}"
    );

    // The same programs explored with [h.f := e] without its aliasing case,
    // (h'.f)[h.f := e] = h'[h.f := e].f: after y.f := 0; x.f := 1 the
    // condition reads y.f = 0 where the real rule sees x.f's write through y.
    let report = stdout_of(&["snap", &dir_arg, "--break", "aliasing"], 1);
    let section = report
        .split("changed: ")
        .find(|s| s.starts_with("oo/clauses/field_same_field.sx\n"))
        .unwrap_or_else(|| panic!("{report}"));
    let line = |sign: &str| {
        section
            .lines()
            .find(|l| l.starts_with(&format!("  {sign}   φ = ")))
            .unwrap_or_else(|| panic!("{section}"))
    };
    assert!(
        line("-").contains("if y = x then 1 else 0 fi = 0")
            && line("+").contains("(y.f = 0 || x = y)"),
        "{section}"
    );
    assert_eq!(
        std::fs::read_to_string(&snapshot).expect("kept"),
        recorded,
        "a failing run writes nothing"
    );
    assert!(
        !symex(&["snap", &dir_arg, "--break", "aliasing", "--accept"])
            .status
            .success(),
        "broken rules are never accepted"
    );
}

/// The programs whose snapshots change when a rule is broken are exactly
/// those of the language the rule belongs to that exercise it.
#[test]
fn a_broken_rule_changes_the_snapshots_of_the_programs_it_matters_to() {
    let changed = |rule: &str| -> Vec<String> {
        let report = stdout_of(&["snap", "paper-examples", "--break", rule], 1);
        report
            .lines()
            .filter_map(|line| line.strip_prefix("changed: "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        changed("literal-this"),
        ["oo/literal_this.sx", "oo/method_chain.sx"]
    );
    let choice = changed("choice");
    assert!(
        choice.contains(&"basic/abs.sx".to_string())
            && choice.iter().all(|name| name.starts_with("basic/")),
        "{choice:?}"
    );
    let misplaced = symex(&[
        "explore",
        "paper-examples/basic/abs.sx",
        "--break",
        "aliasing",
    ]);
    assert_eq!(misplaced.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&misplaced.stderr)
            .contains("--break breaks a rule of §4's weakest-precondition calculus"),
        "{misplaced:?}"
    );
}
