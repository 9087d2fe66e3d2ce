//! Annotations in the front end (King 1976 §8's predicates): loop
//! invariants and contracts are parsed, typed like any expression, lowered
//! beside the program with their places, printed so that they parse back,
//! and rejected with a located message where they are wrong.

use super::parse_program;
use crate::annotations::{old_name, Place};
use crate::program::{LoopId, Program};
use crate::term::{BinOp, Sort, Term};

fn parse(source: &str) -> Program {
    match parse_program(source) {
        Ok(program) => program,
        Err(error) => panic!("{}", error.render_plain("test.sx", source)),
    }
}

fn rejects(source: &str, line: usize, column: usize, message: &str) {
    match parse_program(source) {
        Ok(program) => panic!("accepted:\n{source}\nas\n{program}"),
        Err(error) => assert_eq!(
            (error.line, error.column, error.message.as_str()),
            (line, column, message),
            "{source}"
        ),
    }
}

fn int(name: &str) -> Term {
    Term::var(name, Sort::Int)
}

const SUM: &str = "\
i := 0; s := 0;
while i < n invariant 0 <= i invariant 2 * s = i * (i + 1) {
    i := i + 1; s := s + i
}";

#[test]
fn a_loop_keeps_every_invariant_clause_and_its_place() {
    let program = parse(SUM);
    let clauses = &program.annotations.invariants[&LoopId(0)];
    assert_eq!(clauses.len(), 2);
    assert_eq!(clauses[0], Term::binary(BinOp::Le, Term::int(0), int("i")));
    let site = program.loops.get(LoopId(0)).expect("the loop's site");
    assert_eq!((site.line, site.column), (2, 1));
    // Types are inferred from the annotation too: `n` is an input int.
    assert_eq!(program.globals["n"], Sort::Int);
}

#[test]
fn unannotated_loops_have_a_place_and_no_clauses() {
    let program = parse("while x > 0 { x := x - 1 }");
    assert!(program.annotations.invariants.is_empty());
    assert!(program.annotations.is_empty());
    assert!(program.loops.get(LoopId(0)).is_some());
}

const FACT: &str = "\
proc fact(n: int)
    requires n >= 0
    ensures r >= 1 && c = old(c) + n
{
    if n <= 1 { r := 1 } else { fact(n - 1); r := r * n; c := c + 1 }
}
fact(x)";

#[test]
fn ensures_reads_parameters_and_old_values_at_entry() {
    let program = parse(FACT);
    let contract = &program.annotations.procedures["fact"];
    assert_eq!(
        contract.requires,
        vec![Term::binary(BinOp::Ge, int("n"), Term::int(0))]
    );
    // `n` in `ensures` is the argument, `old(c)` the global at entry.
    let olds: Vec<&str> = contract.olds.iter().map(|(x, _)| &**x).collect();
    assert_eq!(olds, vec!["old(c)", "old(n)"]);
    assert_eq!(contract.olds[1].1, int("n"));
    assert_eq!(old_name(&int("c")), contract.olds[0].0);
    assert_eq!(
        program.annotations.places.procedures["fact"],
        Place { line: 1, column: 6 }
    );
}

#[test]
fn annotated_programs_print_and_parse_back() {
    for source in [SUM, FACT, "class C { field f: int; method m(k: int) requires k > 0 ensures this.f = old(this.f) + k { this.f := this.f + k; return 0 } }\nvar c: C; y := c.m(1)"] {
        let program = parse(source);
        let printed = program.to_string();
        let parsed = parse(&printed);
        assert_eq!(parsed.annotations, program.annotations, "{printed}");
        assert_eq!(parsed, program, "{printed}");
        assert_eq!(printed.contains("old("), source.contains("ensures"), "{printed}");
    }
}

#[test]
fn annotation_words_are_free_as_variable_names() {
    let program = parse("invariant := 1; requires := 2; ensures := 3; old := 4; assert old = 4");
    assert_eq!(program.globals.len(), 4);
    // A procedure named `old` can still be called.
    parse("proc old(x: int) { skip } old(1)");
}

#[test]
fn annotations_are_located_when_wrong() {
    rejects(
        "while x > 0 invariant x + 1 { x := x - 1 }",
        1,
        23,
        "expected bool, found int",
    );
    rejects(
        "while x > 0 invariant { x := x - 1 }",
        1,
        23,
        "expected an expression, found `{`",
    );
    rejects(
        "while x > 0 invariants x >= 0 { x := x - 1 }",
        1,
        13,
        "expected `invariant` or `{` to start the loop body, found identifier `invariants`",
    );
    rejects(
        "proc p(u: int) require u > 0 { skip } p(1)",
        1,
        16,
        "expected `requires`, `ensures` or `{` to start the body, found identifier `require`",
    );
    rejects(
        "proc p(u: int) requires old(u) > 0 { skip } p(1)",
        1,
        25,
        "`old(e)`, the value of `e` at entry, may only stand in an `ensures` clause",
    );
    rejects(
        "while x > 0 invariant old(x) >= 0 { x := x - 1 }",
        1,
        23,
        "`old(e)`, the value of `e` at entry, may only stand in an `ensures` clause",
    );
    rejects(
        "proc p(u: int) ensures old(old(g)) = 0 { skip } p(1)",
        1,
        28,
        "`old(e)` cannot be nested",
    );
}
