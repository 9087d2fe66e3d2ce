//! Every program of `paper-examples/`, run and explored through the `symex`
//! binary, with its output snapshotted (insta) in `snapshots/`. Review
//! changes with `cargo insta review`.

use std::process::Command;

/// `symex ARGS…` from the project root; stdout, then the exit status.
fn symex(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_symex"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the symex binary runs");
    format!(
        "$ symex {}\n{}{}[exit status {}]\n",
        args.join(" "),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        output
            .status
            .code()
            .map_or("signal".to_string(), |code| code.to_string()),
    )
}

fn snapshot(name: &str, args: &[&str]) {
    insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, symex(args));
    });
}

/// `run --trace` on each example, with inputs that exercise it.
#[test]
fn concrete_runs() {
    let runs: &[(&str, &str, &[&str])] = &[
        ("basic/while_loop", "run-while_loop", &["--input", "n=3"]),
        (
            "basic/array_swap",
            "run-array_swap",
            &["--input", "a=[1,2,3]", "--input", "i=0", "--input", "j=2"],
        ),
        (
            "basic/array_max",
            "run-array_max",
            &["--input", "a=[3,9,2]", "--input", "n=3"],
        ),
        (
            "basic/array_max",
            "run-array_max-checked",
            &["--input", "a=[3,9,2]", "--input", "n=5", "--checked-arrays"],
        ),
        ("basic/abs", "run-abs", &["--input", "x=-4"]),
        (
            "basic/max",
            "run-max",
            &["--input", "x=1", "--input", "y=7", "--input", "z=3"],
        ),
        ("basic/sum", "run-sum", &["--input", "n=4"]),
        (
            "basic/gcd",
            "run-gcd",
            &["--input", "x=12", "--input", "y=18"],
        ),
        (
            "basic/king_sum",
            "run-king_sum",
            &["--input", "a=1", "--input", "b=2", "--input", "c=3"],
        ),
        (
            "basic/king_power",
            "run-king_power",
            &["--input", "x=2", "--input", "y=5"],
        ),
        (
            "basic/king_search",
            "run-king_search",
            &["--input", "a=[0,1,3,5,7,9]", "--input", "x=5"],
        ),
        (
            "basic/king_search_symbolic",
            "run-king_search_symbolic",
            &[
                "--input",
                "a=[0,1,3,5,7,9]",
                "--input",
                "n=1",
                "--input",
                "x=5",
            ],
        ),
        ("recursive/factorial", "run-factorial", &["--input", "x=4"]),
        ("recursive/fibonacci", "run-fibonacci", &["--input", "k=4"]),
        ("recursive/even_odd", "run-even_odd", &["--input", "x=3"]),
        (
            "recursive/accumulate",
            "run-accumulate",
            &["--input", "m=3"],
        ),
        ("recursive/countdown", "run-countdown", &["--input", "d=2"]),
    ];
    for (example, name, inputs) in runs {
        let file = format!("paper-examples/{example}.sx");
        let mut args = vec!["run", file.as_str(), "--trace"];
        args.extend_from_slice(inputs);
        snapshot(name, &args);
    }
}

/// `explore` (text) on each example; loops and recursion unfolded 3 times,
/// the oo lists' loops twice (their trees grow fast). An oo path shows its
/// trace ρ and `path(ρ)`.
#[test]
fn symbolic_trees() {
    let trees: &[(&str, &[&str])] = &[
        ("basic/while_loop", &["--unfold", "3"]),
        ("basic/array_swap", &[]),
        ("basic/array_max", &["--unfold", "2", "--checked-arrays"]),
        ("basic/abs", &[]),
        ("basic/max", &[]),
        ("basic/sum", &["--unfold", "3"]),
        ("basic/gcd", &["--unfold", "2"]),
        ("basic/king_sum", &[]),
        ("basic/king_power", &["--unfold", "3"]),
        ("basic/king_search", &[]),
        ("basic/king_search_symbolic", &[]),
        ("recursive/factorial", &["--unfold", "3"]),
        ("recursive/fibonacci", &["--unfold", "2"]),
        ("recursive/even_odd", &["--unfold", "2"]),
        ("recursive/accumulate", &["--unfold", "3"]),
        ("recursive/countdown", &["--unfold", "3"]),
        ("oo/aliasing_puzzle", &[]),
        ("oo/creation_under_aliasing", &[]),
        ("oo/literal_this", &[]),
        ("oo/method_chain", &[]),
        ("oo/list_find", &["--unfold", "2"]),
        ("oo/list_insert", &["--unfold", "2"]),
        ("oo/list_reverse", &["--unfold", "2"]),
        ("oo/list_partition_buggy", &["--unfold", "2"]),
        ("oo/list_partition_fixed", &["--unfold", "2"]),
        ("oo/clauses/field_nil", &[]),
        ("oo/clauses/field_operator", &[]),
        ("oo/clauses/field_other_field", &[]),
        ("oo/clauses/field_same_field", &[]),
        ("oo/clauses/field_variable", &[]),
        ("oo/clauses/new_conditional", &[]),
        ("oo/clauses/new_equal_itself", &[]),
        ("oo/clauses/new_equal_other", &[]),
        ("oo/clauses/new_field_of_new", &[]),
        ("oo/clauses/new_field_of_other", &[]),
        ("oo/clauses/new_nil", &[]),
        ("oo/clauses/new_variable", &[]),
    ];
    for (example, options) in trees {
        let file = format!("paper-examples/{example}.sx");
        let mut args = vec!["explore", file.as_str()];
        args.extend_from_slice(options);
        let name = format!("explore-{}", example.rsplit('/').next().unwrap_or(example));
        snapshot(&name, &args);
    }
}
