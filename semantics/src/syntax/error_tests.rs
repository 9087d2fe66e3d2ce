//! What the front end rejects: one test per kind of error, each checking
//! the line, the column and the message; and inputs that must not crash it.

use super::{parse_program, Diagnostic};

fn rejection(source: &str) -> Diagnostic {
    match parse_program(source) {
        Ok(program) => panic!("accepted:\n{source}\nas\n{program}"),
        Err(error) => error,
    }
}

/// The error is at `line:column` and its message is `message`.
fn rejects(source: &str, line: usize, column: usize, message: &str) {
    let error = rejection(source);
    assert_eq!(
        (error.line, error.column, error.message.as_str()),
        (line, column, message),
        "{source}"
    );
}

#[test]
fn lexical_errors() {
    rejects(
        "x := 1;\n  y := \u{1}",
        2,
        8,
        "unexpected character '\\u{1}'",
    );
    rejects("x := 1 # 2", 1, 8, "unexpected character '#'");
    rejects(
        "skip\n/* open",
        2,
        1,
        "unterminated comment: `/*` without a matching `*/`",
    );
    rejects(
        "b := c | d",
        1,
        8,
        "unexpected character `|`; did you mean `||`?",
    );
}

#[test]
fn syntax_errors() {
    rejects(
        "while x < 3 {\n  x := x + 1;",
        2,
        14,
        "expected `}` to close the block opened at 1:13, found end of input",
    );
    rejects(
        "x := (1 + 2",
        1,
        12,
        "expected `)` to close the `(` at 1:6, found end of input",
    );
    rejects(
        "x := 1 y := 2",
        1,
        8,
        "expected `;` or end of input, found identifier `y`",
    );
    rejects("x = 1", 1, 3, "expected `:=`, found `=`");
    rejects("x := ;", 1, 6, "expected an expression, found `;`");
    rejects("skip;;", 1, 6, "expected a statement, found `;`");
    rejects(
        "x := 1; var y: int;",
        1,
        9,
        "declarations must come before the main statement",
    );
    rejects(
        "var x int;",
        1,
        7,
        "expected `:` and a type after the variable name, found `int`",
    );
    rejects("var x: C[];", 1, 8, "arrays hold only `int` or `bool`");
    rejects("x + 1 := 2", 1, 3, "expected `:=`, found `+`");
    rejects("this := nil", 1, 1, "cannot assign to `this`");
    rejects(
        "class C { skip }",
        1,
        11,
        "expected `field`, `method` or `}` in class `C`, found `skip`",
    );
    rejects(
        "a[0] := new C",
        1,
        9,
        "array elements hold only int or bool; assign the new object to a variable or a field",
    );
    rejects(
        "x := if b then 1 fi",
        1,
        18,
        "expected `else` in the conditional expression `if b then e1 else e2 fi`, found `fi`",
    );
}

#[test]
fn comparisons_do_not_chain() {
    rejects(
        "b := 1 < x < 3",
        1,
        12,
        "comparison operators do not chain; write `a < b && b < c` instead of `a < b < c`",
    );
    rejects(
        "b := x = y != z",
        1,
        12,
        "comparison operators do not chain; write `a < b && b < c` instead of `a < b < c`",
    );
}

#[test]
fn conflicting_uses_name_the_variable_and_both_places() {
    let source = "x := 1;\nskip;\nif x { skip }";
    let error = rejection(source);
    assert_eq!((error.line, error.column), (3, 4));
    assert_eq!(
        error.message,
        "`x` is used as int at 1:1 and as bool at 3:4"
    );
    assert_eq!(
        error.notes,
        vec![("`x` is used as int here".to_string(), 0..1)]
    );
    assert_eq!(
        error.render_plain("f.sx", source),
        "f.sx:3:4: error: `x` is used as int at 1:1 and as bool at 3:4\nf.sx:1:1: note: `x` is used as int here"
    );
    rejects(
        "var b: bool;\nb := b + 1",
        2,
        6,
        "`b` is declared as bool at 1:5 but used as int at 2:6",
    );
    rejects(
        "x := y;\ny := true;\nz := x + 1",
        3,
        6,
        "`x` is used as int at 3:6 but has type bool",
    );
    rejects(
        "a[0] := 1; b := a[1] && true",
        1,
        17,
        "`a[…]` is used as int at 1:1 and as bool at 1:17",
    );
    rejects(
        "var a: int[]; assert a",
        1,
        22,
        "`a` is declared as int[] at 1:5 but used as bool at 1:22",
    );
    rejects("x := 1 + true", 1, 10, "expected int, found bool");
    rejects("assert 1 + 2", 1, 8, "expected bool, found int");
}

#[test]
fn arrays_are_only_indexed_or_measured() {
    rejects(
        "var a: int[], b: int[]; a := b",
        1,
        25,
        "whole-array assignment is not allowed: `a` is int[]; assign elements `a[i] := …` instead",
    );
    rejects("c := b; b[0] := 1", 1, 1, "whole-array assignment is not allowed: `c` is an array; assign elements `c[i] := …` instead");
    rejects(
        "var a: int[], b: int[]; t := a = b",
        1,
        30,
        "arrays cannot be compared with `=` or `!=`, but this compares int[]",
    );
    rejects(
        "var a: int[], b: int[]; c[0] := if t then a else b fi[0]",
        1,
        33,
        "only array variables can be indexed",
    );
    rejects(
        "var a: int[], b: int[]; n := len(if t then a else b fi)",
        1,
        34,
        "`len` takes an array variable, as in `len(a)`",
    );
    rejects(
        "x := len(y + 1)",
        1,
        10,
        "`len` takes an array variable, as in `len(a)`",
    );
    rejects(
        "var a: int[]; x := 1 + len(a[0])",
        1,
        28,
        "`len` takes an array variable, as in `len(a)`",
    );
    rejects(
        "var a: bool[], b: bool[]; t := if a[0] then a else b fi = a",
        1,
        32,
        "a conditional expression cannot have array type, but this one is bool[]",
    );
    rejects(
        "a[0] := b; b[0] := 1",
        1,
        1,
        "the elements of array `a` must be int or bool, not an array",
    );
}

#[test]
fn procedure_rules() {
    rejects("proc P(x) { skip }\nQ(1)", 2, 1, "unknown procedure `Q`");
    let error = rejection("proc P(x, y) { skip }\nP(1)");
    assert_eq!(
        (error.line, error.column, error.message.as_str()),
        (
            2,
            1,
            "procedure `P` expects 2 arguments but is called with 1"
        )
    );
    assert_eq!(
        error.notes,
        vec![("`P` is declared here".to_string(), 5..6)]
    );
    rejects(
        "proc P(x) { skip }\nproc P() { skip }",
        2,
        6,
        "procedure `P` is declared twice",
    );
    rejects(
        "proc P(x, x) { skip }",
        1,
        11,
        "parameter `x` is declared twice",
    );
    rejects(
        "proc P(a: int[]) { skip }",
        1,
        8,
        "parameter `a` of `P` is used as int[]; arrays are global inputs; pass indices instead",
    );
    rejects(
        "proc P(a) { a[0] := 1 }",
        1,
        8,
        "parameter `a` of `P` is used as an array; arrays are global inputs; pass indices instead",
    );
    // A parameter named like a variable of the main statement or a `var`
    // declaration is renamed (docs/surface.md); one named like a global
    // that only other procedures use is still refused.
    let error = rejection("proc Q() { n := 1 }\nproc P(n) { skip }\nQ()");
    assert_eq!((error.line, error.column), (2, 8), "{}", error.message);
    assert!(
        error
            .message
            .starts_with("parameter `n` of `P` has the name of a global variable"),
        "{}",
        error.message
    );
    rejects(
        "proc P() { return 1 }",
        1,
        12,
        "`return e` in procedure `P`, which returns no value; declare it `func P(…): T`",
    );
    rejects(
        "proc P() { skip }\nx := P() + 1",
        2,
        6,
        "procedure `P` returns no value; declare it `func P(…): T` and end it with `return e` to use its result",
    );
    rejects(
        "proc P(b) { if b { skip } }\nP(1)",
        2,
        3,
        "expected bool, found int",
    );
}

#[test]
fn declaration_rules() {
    rejects(
        "var x: int, x: bool;",
        1,
        13,
        "variable `x` is declared twice",
    );
    rejects("var x: C;", 1, 8, "unknown class `C`");
    rejects("x := new C", 1, 10, "unknown class `C`");
    rejects(
        "class C { }\nclass C { }",
        2,
        7,
        "class `C` is declared twice",
    );
    rejects(
        "class C { field f: int; field f: int; }",
        1,
        31,
        "field `f` is declared twice",
    );
    rejects(
        "class C { field f: int[]; }",
        1,
        20,
        "fields cannot be arrays; arrays are global inputs",
    );
    rejects(
        "class C { field f: int; }\nclass D { field f: bool; }",
        2,
        20,
        "field `f` is declared as bool here but as int at 1:17; a field name has one type in the whole program",
    );
}

#[test]
fn method_rules() {
    rejects(
        "class C { method m() { return 1 } method m() { return 2 } }",
        1,
        42,
        "method `m` is declared twice",
    );
    rejects(
        "class C { method m() { skip } }",
        1,
        29,
        "method `m` must end with `return e`",
    );
    rejects(
        "class C { method m() { } }",
        1,
        24,
        "method `m` must end with `return e`",
    );
    rejects(
        "class C { method m() { return 1; return 2 } }",
        1,
        24,
        "`return` must be the last statement of a method body",
    );
    rejects(
        "class C { method m() { if true { return 1 } else { skip }; return 2 } }",
        1,
        34,
        "`return` must be the last statement of a method body",
    );
    rejects(
        "class C { method m(u) { g := u; return u } }",
        1,
        25,
        "method `C.m` assigns `g`, which is not one of its parameters; a method may assign only its parameters and fields",
    );
    rejects("return 1", 1, 1, "`return` outside a function or procedure");
    rejects("x := this", 1, 6, "`this` is only available inside methods");
    rejects(
        "class C { method m() { return 1 } }\nc := new C; x := c.n()",
        2,
        20,
        "class `C` has no method `n`",
    );
    rejects(
        "class C { field f: int; }\nclass D { field g: int; }\nd := new D; x := d.f",
        3,
        20,
        "class `D` has no field `f`",
    );
    rejects("x := y.f", 1, 8, "unknown field `f`");
    let error = rejection("class C { field f: int; }\nvar c: C;\nc.f := true");
    assert_eq!(
        (error.line, error.column, error.message.as_str()),
        (3, 8, "expected int, found bool")
    );
    assert_eq!(
        error.notes,
        vec![("field `f` is declared as int here".to_string(), 16..17)]
    );
    rejects(
        "class C { method m(a) { return a } }\nc := new C; x := c.m()",
        2,
        20,
        "method `C.m` expects 1 argument but is called with 0",
    );
    rejects(
        "class C { method m() { return 1 } }\nc := new C; c.m()",
        2,
        13,
        "a method call must assign its result: `h := e0.m(…)`",
    );
    rejects(
        "class C { method m() { return 1 } }\nc := new C; x := 1 + c.m()",
        2,
        22,
        "a method call must be the whole right-hand side of an assignment `h := e0.m(…)`",
    );
    rejects(
        "class C { method m() { return 1 } }\nc := new C; b := c.m() && true",
        2,
        18,
        "a method call must be the whole right-hand side of an assignment `h := e0.m(…)`",
    );
    rejects(
        "x := 1; y := x.f; class_less := 0",
        1,
        16,
        "unknown field `f`",
    );
    rejects(
        "class C { field f: int; }\nx := 1; y := x.f",
        2,
        14,
        "`.f` needs an object on its left, not int",
    );
    rejects("class C { field f: int; }\nclass D { field f: int; }\ny := x.f", 3, 8, "cannot determine the class of the object whose `f` is used here; declare the type of its variable");
}

#[test]
fn nil_needs_a_class() {
    rejects("class C { }\nb := nil = nil", 2, 6, "cannot infer the class of `nil` here; declare the type of the variable it is assigned to or compared with");
    rejects(
        "x := nil; x := 1",
        1,
        6,
        "`nil` is used as int, but it is only a value of class types",
    );
    rejects(
        "class C { }\nclass D { }\nc := new C; d := new D; b := c = d",
        3,
        34,
        "`d` is used as D at 3:13 and as C at 3:34",
    );
}

#[test]
fn empty_and_garbage_inputs() {
    assert!(parse_program("").is_ok());
    let garbage: String = (0u8..=255).map(|b| b as char).collect();
    let error = rejection(&garbage);
    assert_eq!((error.line, error.column), (1, 1));
    assert!(
        error.message.starts_with("unexpected character"),
        "{}",
        error.message
    );
    rejects("}", 1, 1, "expected a statement, found `}`");
    rejects("x := 1 }", 1, 8, "expected `;` or end of input, found `}`");
    rejects("if", 1, 3, "expected an expression, found end of input");
    rejects(
        "proc",
        1,
        5,
        "expected a procedure name, found end of input",
    );
    rejects(
        "class C {",
        1,
        10,
        "expected `}` to close the class opened at 1:9, found end of input",
    );
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let depth = 10_000;
    let parens = format!("x := {}1{}", "(".repeat(depth), ")".repeat(depth));
    assert!(rejection(&parens).message.starts_with("nested too deeply"));
    let ifs = format!("{}{}", "if b { ".repeat(depth), "}".repeat(depth));
    assert!(rejection(&ifs).message.starts_with("nested too deeply"));
    let elses = format!("if b {{ }}{}", " else if b { }".repeat(depth));
    assert!(rejection(&elses).message.starts_with("nested too deeply"));
    for prefix in ["!", "-", "not "] {
        let prefixed = format!("x := {}y", prefix.repeat(depth));
        assert!(
            rejection(&prefixed).message.contains("too deeply"),
            "{prefix}"
        );
    }
    for (operator, operand) in [(" + ", "y"), (" ==> ", "b"), (" && ", "b"), (" = ", "y")] {
        let chain = format!("x := {}", vec![operand; depth].join(operator));
        let message = rejection(&chain).message;
        assert!(
            message.contains("too deeply") || message.contains("do not chain"),
            "{operator}: {message}"
        );
    }
    let fields = format!("x := y{}", ".f".repeat(depth));
    assert!(rejection(&fields).message.contains("too deeply"));
    let indices = format!("x := {}0{}", "a[".repeat(depth), "]".repeat(depth));
    assert!(rejection(&indices).message.contains("too deeply"));
    let conditionals = format!(
        "x := {}1{}",
        "if b then ".repeat(depth),
        " else 0 fi".repeat(depth)
    );
    assert!(rejection(&conditionals).message.contains("too deeply"));
}

#[test]
fn nesting_within_the_limit_is_accepted() {
    let depth = super::MAX_DEPTH / 2;
    assert!(parse_program(&format!("x := {}1{}", "(".repeat(depth), ")".repeat(depth))).is_ok());
    assert!(parse_program(&format!(
        "{}{}",
        "if b { ".repeat(depth - 1),
        "}".repeat(depth - 1)
    ))
    .is_ok());
    assert!(parse_program(&format!("x := {}", vec!["y"; depth].join(" + "))).is_ok());
}

#[test]
fn a_megabyte_of_assignments_parses() {
    let source: String = (0..50_000)
        .map(|i| format!("x{} := x{} + {i} * y;\n", i % 1000, (i + 1) % 1000))
        .collect();
    assert!(source.len() > 1_000_000);
    let program = parse_program(&source).map_err(|e| e.to_string());
    assert_eq!(
        program.map(|p| (p.main.len(), p.globals.len())),
        Ok((50_000, 1001))
    );
}
