//! Lowering after a checker that let something through: each place where
//! lowering relies on the checker gives a located error, not a panic. The
//! checker rejects all of these programs itself, so lowering is given the
//! parser's output with no typing at all.

use super::check::Typing;
use super::diagnostic::{Diagnostic, LineIndex};
use super::{lower, parser};

fn lowered_without_typing(source: &str) -> Diagnostic {
    let lines = LineIndex::new(source);
    let program = parser::parse(source, &lines)
        .unwrap_or_else(|error| panic!("{}", error.render_plain("test.sx", source)));
    let typing = Typing {
        globals: Default::default(),
        procedures: Default::default(),
        methods: Default::default(),
        fields: Default::default(),
        nils: Default::default(),
        receivers: Default::default(),
    };
    match lower::lower(
        &program,
        &typing,
        &lines,
        crate::machine::Integers::Mathematical,
    ) {
        Ok((lowered, _)) => panic!("lowered:\n{source}\nas\n{lowered}"),
        Err(error) => error,
    }
}

/// Lowering `source` fails at `line:column` with a message that starts with `message`.
fn gap(source: &str, line: usize, column: usize, message: &str) {
    let error = lowered_without_typing(source);
    assert_eq!(
        (error.line, error.column),
        (line, column),
        "{source}: {}",
        error.message
    );
    assert!(
        error.message.starts_with(message),
        "{source}: {}",
        error.message
    );
}

#[test]
fn a_call_inside_an_expression() {
    gap(
        "skip;\nx := 1 + f(2)",
        2,
        10,
        "a call cannot be part of an expression",
    );
}

#[test]
fn len_and_indexing_of_what_is_not_an_array_variable() {
    gap("x := len(1)", 1, 10, "only an array variable");
    gap("x := (1)[0]", 1, 7, "only an array variable");
}

#[test]
fn untyped_variables_nils_procedures_and_methods() {
    gap("x := y", 1, 6, "`y` has no inferred type");
    gap(
        "x := 1 = 1 ==> nil = nil",
        1,
        16,
        "this `nil` has no inferred class",
    );
    gap(
        "proc p(n: int) { skip }\nskip",
        1,
        6,
        "this procedure has no inferred parameter types",
    );
    gap(
        "class C { method m() { return 1 } }\nskip",
        1,
        18,
        "this method has no inferred type",
    );
    gap(
        "class C { field f: int; }\nskip",
        1,
        7,
        "this class has no checked fields",
    );
}
