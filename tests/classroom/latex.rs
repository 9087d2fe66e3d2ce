//! `--format latex`: the text CI keeps (the PDF is checked by hand with
//! `pdflatex`, see docs/commands.md).

use super::stdout_of;

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn explore_as_a_standalone_document() {
    let tex = stdout_of(
        &[
            "explore",
            "paper-examples/basic/abs.sx",
            "--format",
            "latex",
            "--standalone",
        ],
        0,
    );
    assert!(tex.starts_with("\\documentclass") && tex.ends_with("\\end{document}\n"));
    assert!(
        tex.is_ascii(),
        "pdflatex reads ASCII: the notation is spelled as macros"
    );
    snapshot("latex-explore-abs", &tex);
}

#[test]
fn a_run_trace_with_the_rule_on_each_arrow() {
    let tex = stdout_of(
        &[
            "run",
            "paper-examples/basic/abs.sx",
            "--input",
            "x=-4",
            "--format",
            "latex",
        ],
        0,
    );
    assert!(
        tex.contains("\\item[$\\xrightarrow{\\text{choice (then)}}$] \\texttt{$\\langle$y := -x"),
        "{tex}"
    );
    snapshot("latex-run-abs", &tex);
}

#[test]
fn a_tree_is_a_bare_forest_fragment_unless_standalone() {
    let tex = stdout_of(
        &[
            "explore",
            "paper-examples/basic/king_search.sx",
            "--format",
            "latex",
        ],
        0,
    );
    assert!(
        tex.starts_with("% symex output: needs \\usepackage{amsmath,amssymb,forest,longtable}\n")
    );
    assert!(
        !tex.contains("\\section") && !tex.contains("\\documentclass"),
        "{tex}"
    );
    assert!(tex.contains("\\begin{forest}") && tex.contains("\\end{forest}"));
    assert!(
        tex.contains("[{if a[j] = x\\\\x = a[3]}"),
        "forks show their test: {tex}"
    );
    assert_eq!(
        tex.matches("]{true}}").count(),
        10,
        "each fork's true edge is labelled"
    );
    assert_eq!(tex.matches("]{false}}").count(), 10);
}
