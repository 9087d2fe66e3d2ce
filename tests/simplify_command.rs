//! `symex simplify EXPR [--explain]` end to end: King's (1976) displayed
//! simplifications, typed free variables, explanations and bad input.

use std::process::{Command, Output};

fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn simplified(expr: &str) -> String {
    let output = symex(&["simplify", expr]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .trim_end()
        .to_string()
}

#[test]
fn kings_displayed_simplifications() {
    // King, "Symbolic execution and program testing" (CACM 1976), his
    // symbols as variables: α1, α2 as a1, a2; A(3) as A[3].
    let displayed = [
        ("a2 >= 1 && !(a2 >= 2)", "a2 = 1"),
        ("a > 0 && a > 5", "a > 5"),
        ("!(X < A[3]) && X != A[3]", "X > A[3]"),
        ("(N + N + 4) / 2", "N + 2"),
        ("1 + (N + 1) / 2 - 1", "(N + 1) / 2"),
        ("1 * a1", "a1"),
    ];
    for (expr, expected) in displayed {
        assert_eq!(simplified(expr), expected, "{expr}");
    }
}

#[test]
fn explain_lists_the_rewrites_and_the_stop_reason() {
    let output = symex(&["simplify", "--explain", "k >= 1 && !(k >= 2)"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        text,
        "k >= 1 && !(k >= 2)\n  = k >= 1 && k < 2    [not-ge]\n  = k = 1    [normal-form]\nresult: k = 1\nstopped: saturated\n"
    );
}

#[test]
fn a_bad_expression_is_located_and_exits_2() {
    let output = symex(&["simplify", "x + "]);
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.starts_with("<expression>:1:4: error: expected an expression"),
        "{message}"
    );
    let output = symex(&["simplify", "x + true"]);
    assert_eq!(output.status.code(), Some(2));
}
