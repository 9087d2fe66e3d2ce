//! The surface language compiled into the core: the core each construct
//! becomes (as `symex desugar` prints it, which parses back to the same
//! program), and errors inside sugar at the user's line and column.

use super::parse_program;

/// `source` desugars to the core program `core`, and `core` parses back
/// to the same program.
fn desugars_to(source: &str, core: &str) {
    let program = parse_program(source).unwrap_or_else(|e| panic!("{source}\n{e}"));
    assert_eq!(program.to_string(), core, "{source}");
    let again = parse_program(core).unwrap_or_else(|e| panic!("{core}\n{e}"));
    assert_eq!(again, program, "{core} does not parse back");
}

/// `source` is refused at `line:column` with `message`.
fn rejects(source: &str, line: usize, column: usize, message: &str) {
    let error = parse_program(source).map(|p| p.to_string()).unwrap_err();
    assert_eq!(
        (error.line, error.column, error.message.as_str()),
        (line, column, message),
        "{source}"
    );
}

#[test]
fn break_in_while_true_is_a_flag_in_the_condition() {
    desugars_to(
        "while true { if x > 10 { break }; x := x + 1 }",
        "var broke: bool;\nvar x: int;\nbroke := false;\nwhile !broke {\n    if x > 10 {\n        broke := true\n    } else {\n        x := x + 1\n    }\n}\n",
    );
}

#[test]
fn a_function_writes_its_result_and_a_call_reads_it_into_a_temporary() {
    desugars_to(
        "func fib(n: int): int { if n < 2 { return n }; return fib(n - 1) + fib(n - 2) }\ny := fib(k)",
        "var fib_call3: int;\nvar fib_result: int;\nvar k: int;\nvar y: int;\nproc fib(n: int, fib_call: int, fib_call2: int) {\n    if n < 2 {\n        fib_result := n\n    } else {\n        fib(n - 1, 0, 0);\n        fib_call := fib_result;\n        fib(n - 2, 0, 0);\n        fib_call2 := fib_result;\n        fib_result := fib_call + fib_call2\n    }\n}\nfib(k, 0, 0);\nfib_call3 := fib_result;\ny := fib_call3\n",
    );
}

#[test]
fn calls_are_made_left_to_right_inner_first_and_a_parameter_hiding_a_global_is_renamed() {
    desugars_to(
        "func f(x: int): int { return x + 1 }\nfunc g(v: int): int { return 2 * v }\ny := f(f(x)) + g(a[i])",
        "var a: int[];\nvar f_call: int;\nvar f_call2: int;\nvar f_result: int;\nvar g_call: int;\nvar g_result: int;\nvar i: int;\nvar x: int;\nvar y: int;\nproc f(x2: int) {\n    f_result := x2 + 1\n}\nproc g(v: int) {\n    g_result := 2 * v\n}\nf(x);\nf_call := f_result;\nf(f_call);\nf_call2 := f_result;\ng(a[i]);\ng_call := g_result;\ny := f_call2 + g_call\n",
    );
}

#[test]
fn the_second_operand_of_and_calls_only_when_needed() {
    desugars_to(
        "func pos(v: int): bool { return v > 0 }\nif b && pos(x) { y := 1 }",
        "var b: bool;\nvar cond: bool;\nvar pos_call: bool;\nvar pos_result: bool;\nvar x: int;\nvar y: int;\nproc pos(v: int) {\n    pos_result := v > 0\n}\ncond := b;\nif cond {\n    pos(x);\n    pos_call := pos_result;\n    cond := pos_call\n};\nif cond {\n    y := 1\n}\n",
    );
}

#[test]
fn for_with_continue_and_break_steps_unless_the_loop_is_left() {
    desugars_to(
        "s := 0;\nfor i in 0..n {\n    if i % 2 = 0 { continue };\n    if i > 7 { break };\n    s := s + i\n}",
        "var broke: bool;\nvar i: int;\nvar i_end: int;\nvar n: int;\nvar s: int;\ns := 0;\ni := 0;\ni_end := n;\nbroke := false;\nwhile !broke && i < i_end {\n    if i % 2 = 0 {\n    } else {\n        if i > 7 {\n            broke := true\n        } else {\n            s := s + i\n        }\n    };\n    if !broke {\n        i := i + 1\n    }\n}\n",
    );
}

#[test]
fn continue_under_a_condition_guards_the_rest_of_the_body() {
    desugars_to(
        "while i < 3 { i := i + 1; if b { if i = 2 { continue } }; s := s + i }",
        "var b: bool;\nvar continued: bool;\nvar i: int;\nvar s: int;\nwhile i < 3 {\n    continued := false;\n    i := i + 1;\n    if b {\n        if i = 2 {\n            continued := true\n        }\n    };\n    if !continued {\n        s := s + i\n    }\n}\n",
    );
}

#[test]
fn return_inside_a_loop_of_a_function_leaves_both_and_locals_are_parameters() {
    desugars_to(
        "func find(k: int): int {\n    var i: int := 0;\n    while i < len(a) {\n        if a[i] = k { return i };\n        i := i + 1\n    };\n    return -1\n}\nr := find(v)",
        "var a: int[];\nvar find_call: int;\nvar find_result: int;\nvar r: int;\nvar v: int;\nproc find(k: int, i: int, returned: bool) {\n    i := 0;\n    while !returned && i < len(a) {\n        if a[i] = k {\n            find_result := i;\n            returned := true\n        } else {\n            i := i + 1\n        }\n    };\n    if !returned {\n        find_result := -1;\n        returned := true\n    }\n}\nfind(v, 0, false);\nfind_call := find_result;\nr := find_call\n",
    );
}

#[test]
fn nondet_reads_the_next_value_of_an_input_sequence() {
    desugars_to(
        "x := nondet() + nondet();\nif nondet_bool() { y := 1 }",
        "var nondet_bool_count: int;\nvar nondet_bool_value: bool;\nvar nondet_bools: bool[];\nvar nondet_count: int;\nvar nondet_ints: int[];\nvar nondet_value: int;\nvar nondet_value2: int;\nvar x: int;\nvar y: int;\nnondet_count := 0;\nnondet_bool_count := 0;\nnondet_value := nondet_ints[nondet_count];\nnondet_count := nondet_count + 1;\nnondet_value2 := nondet_ints[nondet_count];\nnondet_count := nondet_count + 1;\nx := nondet_value + nondet_value2;\nnondet_bool_value := nondet_bools[nondet_bool_count];\nnondet_bool_count := nondet_bool_count + 1;\nif nondet_bool_value {\n    y := 1\n}\n",
    );
}

#[test]
fn a_return_from_a_procedure_guards_what_follows() {
    desugars_to(
        "proc p(n: int) { while true { if n > 3 { return }; n := n + 1; g := g + 1 }; g := 0 }\np(0)",
        "var g: int;\nproc p(n: int, returned: bool) {\n    while !returned {\n        if n > 3 {\n            returned := true\n        } else {\n            n := n + 1;\n            g := g + 1\n        }\n    };\n    if !returned {\n        g := 0\n    }\n}\np(0, false)\n",
    );
}

#[test]
fn a_parameter_named_like_a_declared_global_is_renamed() {
    desugars_to(
        "var n: int;\nproc p(n: int) { g := n }\np(n + 1)",
        "var g: int;\nvar n: int;\nproc p(n2: int) {\n    g := n2\n}\np(n + 1)\n",
    );
}

#[test]
fn errors_inside_sugar_point_at_the_construct() {
    rejects("x := 1;\nbreak", 2, 1, "`break` outside a loop");
    rejects("if b { continue }", 1, 8, "`continue` outside a loop");
    rejects(
        "x := 1;\n  return x",
        2,
        3,
        "`return` outside a function or procedure",
    );
    rejects(
        "func f(x: int): int { return }\ny := f(1)",
        1,
        23,
        "`return` without a value in function `f`: write `return e`",
    );
    rejects(
        "func f(v: int): int { return v }\ny := f(1) + h(2)",
        2,
        13,
        "unknown function `h`",
    );
    rejects("y := nondet(1)", 1, 6, "`nondet()` takes no arguments");
    rejects("func f(v: int): int { return v }\nx := if b then f(1) else 0 fi", 2, 16, "a call in a branch of `if … then … else … fi` is not supported: write an `if` statement that assigns a variable");
    rejects("var t: int[] := 0;\nskip", 1, 8, "a local `var` holds `int`, `bool` or an object: arrays are the program's inputs (declare `var a: int[];` before the main statement)");
    rejects(
        "func f(v: int): int[] { return v }\nskip",
        1,
        17,
        "a function returns `int`, `bool` or an object, not an array",
    );
    rejects(
        "while x < 3 invariant f(x) > 0 { x := x + 1 }",
        1,
        23,
        "calls and `nondet()` are not allowed in a loop invariant",
    );
}

#[test]
fn type_errors_inside_sugar_are_at_the_users_source() {
    let error = parse_program("x := 0;\nvar t: int := x > 1;\nskip").unwrap_err();
    assert_eq!((error.line, error.column), (2, 1), "{}", error.message);
    let error = parse_program("x := 1;\nfor i in 0..true { skip }").unwrap_err();
    assert_eq!(error.line, 2, "{}", error.message);
    let error = parse_program("func f(v: int): bool { return v }\ny := f(1)").unwrap_err();
    assert_eq!((error.line, error.column), (1, 24), "{}", error.message);
}

#[test]
fn syntax_errors_in_sugar_name_what_was_expected() {
    rejects(
        "for i 0..3 { skip }",
        1,
        7,
        "expected `in` after the loop variable of `for`, found integer `0`",
    );
    rejects(
        "for i in 0, 3 { skip }",
        1,
        11,
        "expected `..` between the bounds of `for i in low..high`, found `,`",
    );
    rejects(
        "func f(v: int) { return v }",
        1,
        16,
        "expected `:` and the result type after the parameters of a function, found `{`",
    );
}

#[test]
fn an_array_literal_fixes_the_length_and_writes_the_elements_after_their_calls() {
    desugars_to(
        "var a: int[];\nfunc f(v: int): int { return v + 1 }\na := [f(1), 2 * x];\nassert a[0] = 2",
        "var a: int[];\nvar f_call: int;\nvar f_result: int;\nvar x: int;\nproc f(v: int) {\n    f_result := v + 1\n}\nassume len(a) = 2;\nf(1);\nf_call := f_result;\na[0] := f_call;\na[1] := 2 * x;\nassert a[0] = 2\n",
    );
    desugars_to(
        "var b: bool[];\nb := []",
        "var b: bool[];\nassume len(b) = 0\n",
    );
}

#[test]
fn the_verifier_names_of_c_are_assume_assert_and_nondet() {
    desugars_to(
        "x := __VERIFIER_nondet_int();\n__VERIFIER_assume(x > 0);\nif x = 3 { reach_error() };\nif x > 9 { abort() };\n__VERIFIER_assert(x != 4)",
        "var nondet_count: int;\nvar nondet_ints: int[];\nvar nondet_value: int;\nvar x: int;\nnondet_count := 0;\nnondet_value := nondet_ints[nondet_count];\nnondet_count := nondet_count + 1;\nx := nondet_value;\nassume x > 0;\nif x = 3 {\n    assert false\n};\nif x > 9 {\n    assume false\n};\nassert x != 4\n",
    );
    desugars_to(
        "x := __VERIFIER_nondet_uint()",
        "var nondet_count: int;\nvar nondet_ints: int[];\nvar nondet_uint_value: int;\nvar x: int;\nnondet_count := 0;\nnondet_uint_value := nondet_ints[nondet_count];\nnondet_count := nondet_count + 1;\nassume nondet_uint_value >= 0;\nx := nondet_uint_value\n",
    );
    // A program's own procedure of that name is kept.
    desugars_to(
        "proc abort() { g := 1 }\nabort()",
        "var g: int;\nproc abort() {\n    g := 1\n}\nabort()\n",
    );
}

#[test]
fn array_literals_and_c_names_are_refused_where_they_mean_nothing() {
    rejects(
        "var a: int[];\na := [1, 2];\na := [1, 2, 3]",
        3,
        1,
        "`a` was given 2 elements at 2:1; an array's length is an input fixed for the whole run (§2.1), so every literal assigned to it has 2 elements",
    );
    rejects(
        "var a: int[];\na := [1, a[0]]",
        2,
        10,
        "an element of the literal assigned to `a` reads `a` itself; copy what it needs into another variable first",
    );
    rejects(
        "var a: int[];\na[0] := [1]",
        2,
        9,
        "an array literal `[…]` is assigned to an array variable, as `a := [1, 2, 3]`",
    );
    rejects(
        "x := 1 + [2]",
        1,
        10,
        "an array literal `[…]` stands only on the right of `a := […]`; assign it to an array variable first",
    );
    rejects(
        "x := 1 + assume(y > 0)",
        1,
        10,
        "`assert` and `assume` are statements, not values (C's `__VERIFIER_assume(e)` returns nothing); write `assume e;` before the statement that needs it",
    );
    rejects(
        "x := __VERIFIER_assume(x > 0) + 1",
        1,
        6,
        "`__VERIFIER_assume(…)` returns nothing: it is a statement, as in C; write it on its own before the statement that needs it",
    );
    rejects(
        "__VERIFIER_assert(x > 0, 1)",
        1,
        1,
        "`__VERIFIER_assert` takes one condition",
    );
    rejects("reach_error(1)", 1, 1, "`reach_error` takes no arguments");
    let error = parse_program("var a: int[];\na := [1, true]").unwrap_err();
    assert_eq!((error.line, error.column), (2, 10), "{}", error.message);
}

#[test]
fn a_global_read_only_inside_sugar_of_the_main_statement_still_renames_a_parameter() {
    // `x` is read only in a `for` body: the parameter must still give way.
    desugars_to(
        "proc p(x: int) { g := x }\nfor i in 0..n { y := x };\np(1)",
        "var g: int;\nvar i: int;\nvar i_end: int;\nvar n: int;\nvar x: int;\nvar y: int;\nproc p(x2: int) {\n    g := x2\n}\ni := 0;\ni_end := n;\nwhile i < i_end {\n    y := x;\n    i := i + 1\n};\np(1)\n",
    );
}

#[test]
fn a_labelled_break_sets_the_outer_loops_flag_which_the_inner_loop_tests() {
    desugars_to(
        "outer: while i < 3 { while j < 3 { if j = i { break outer }; if j > 5 { continue outer }; j := j + 1 }; i := i + 1 }",
        "var broke: bool;\nvar continued: bool;\nvar i: int;\nvar j: int;\nbroke := false;\nouter: while !broke && i < 3 {\n    continued := false;\n    while !broke && !continued && j < 3 {\n        if j = i {\n            broke := true\n        } else {\n            if j > 5 {\n                continued := true\n            } else {\n                j := j + 1\n            }\n        }\n    };\n    if !broke && !continued {\n        i := i + 1\n    }\n}\n",
    );
    // A `for` takes a label too; `continue rows` still steps `r`.
    desugars_to(
        "rows: for r in 0..3 { for c in 0..3 { if c > r { continue rows }; s := s + c } }",
        "var c: int;\nvar continued: bool;\nvar r: int;\nvar s: int;\nr := 0;\nrows: while r < 3 {\n    continued := false;\n    c := 0;\n    while !continued && c < 3 {\n        if c > r {\n            continued := true\n        } else {\n            s := s + c\n        };\n        if !continued {\n            c := c + 1\n        }\n    };\n    r := r + 1\n}\n",
    );
    // The label names the core's loop, also once printed and parsed again.
    let printed = parse_program("outer: while i < 3 { break outer }")
        .unwrap()
        .to_string();
    let again = parse_program(&printed).unwrap();
    let labels: Vec<_> = again
        .loops
        .0
        .values()
        .map(|site| site.label.clone())
        .collect();
    assert_eq!(labels, [Some("outer".to_string())], "{printed}");
    rejects(
        "while i < 3 { break outer }",
        1,
        21,
        "`break` to `outer`, but no loop around it is labelled `outer` (write `outer: while …` or `outer: for …`)",
    );
}

/// The sequences' names are reserved (crate::draws): a program that draws
/// cannot name its own variable so, which would read or overwrite the draws.
#[test]
fn a_program_that_draws_cannot_name_the_sequence_itself() {
    rejects(
        "nondet_count := 1;\nx := nondet()",
        2,
        6,
        "`nondet_count` is reserved for the values `nondet()` and `nondet_bool()` draw: rename the variable",
    );
    rejects(
        "var nondet_bools: bool[];\nb := nondet_bool()",
        2,
        6,
        "`nondet_bools` is reserved for the values `nondet()` and `nondet_bool()` draw: rename the variable",
    );
}
