//! What the front end accepts: every construct, precedence, the three
//! languages, inferred types, and printing then parsing back.

use super::parse_program;
use crate::program::{Language, LoopId, Program, Stmt, Target};
use crate::term::{BinOp, Sort, Term, UnOp};

fn parse(source: &str) -> Program {
    match parse_program(source) {
        Ok(program) => program,
        Err(error) => panic!("{}", error.render_plain("test.sx", source)),
    }
}

fn int(name: &str) -> Term {
    Term::var(name, Sort::Int)
}

fn boolean(name: &str) -> Term {
    Term::var(name, Sort::Bool)
}

fn bin(op: BinOp, left: Term, right: Term) -> Term {
    Term::binary(op, left, right)
}

/// The right-hand side of the single assignment `result := e`.
fn expr(e: &str) -> Term {
    let program = parse(&format!("result := {e}"));
    match &program.main[..] {
        [Stmt::Assign(_, value)] => value.clone(),
        other => panic!("not one assignment: {other:?}"),
    }
}

#[test]
fn empty_program_is_basic_and_empty() {
    for source in ["", "  // nothing\n/* at all */"] {
        let program = parse(source);
        assert_eq!(program.language, Language::Basic);
        assert!(program.main.is_empty() && program.globals.is_empty());
    }
}

#[test]
fn basic_statements() {
    let program = parse(
        "var a: int[];
         skip;
         x := 1;
         a[x] := -5;
         if x < len(a) { y := a[x] } else { y := 0 };
         while y > 0 { y := y - 1 }
         assert y == 0;
         assume x != 2;",
    );
    let a = Term::var("a", Sort::int_array());
    let expected: Vec<Stmt> = vec![
        Stmt::Skip,
        Stmt::Assign("x".into(), Term::int(1)),
        Stmt::ArrayAssign("a".into(), int("x"), Term::int(-5)),
        Stmt::If(
            bin(BinOp::Lt, int("x"), Term::len("a")),
            vec![Stmt::Assign("y".into(), Term::select(a, int("x")))].into(),
            vec![Stmt::Assign("y".into(), Term::int(0))].into(),
        ),
        Stmt::While(
            LoopId(0),
            bin(BinOp::Gt, int("y"), Term::int(0)),
            vec![Stmt::Assign(
                "y".into(),
                bin(BinOp::Sub, int("y"), Term::int(1)),
            )]
            .into(),
        ),
        Stmt::Assert(bin(BinOp::Eq, int("y"), Term::int(0))),
        Stmt::Assume(bin(BinOp::Ne, int("x"), Term::int(2))),
    ];
    assert_eq!(&program.main[..], &expected[..]);
    assert_eq!(program.language, Language::Basic);
}

#[test]
fn the_papers_conditional_forms() {
    let papers = parse("if b {x := 1}{x := 2}");
    let explicit = parse("if b { x := 1 } else { x := 2 }");
    assert_eq!(papers, explicit);
    let one_armed = parse("if b { x := 1 }");
    assert!(matches!(&one_armed.main[..], [Stmt::If(_, _, otherwise)] if otherwise.is_empty()));
    let chained = parse("if b { x := 1 } else if c { x := 2 } else { x := 3 }");
    let nested = parse("if b { x := 1 } else { if c { x := 2 } else { x := 3 } }");
    assert_eq!(chained, nested);
    let empty = parse("if b { } else { }; while false { }");
    assert_eq!(empty.main.len(), 2);
}

#[test]
fn statements_after_braces_need_no_semicolon() {
    assert_eq!(
        parse("if b { skip } x := 1"),
        parse("if b { skip }; x := 1;")
    );
}

#[test]
fn precedence_follows_the_table() {
    let (a, b, c) = (boolean("a"), boolean("b"), boolean("c"));
    assert_eq!(
        expr("a ==> b ==> c"),
        bin(
            BinOp::Implies,
            a.clone(),
            bin(BinOp::Implies, b.clone(), c.clone())
        )
    );
    assert_eq!(
        expr("a || b && c"),
        bin(BinOp::Or, a.clone(), bin(BinOp::And, b.clone(), c.clone()))
    );
    assert_eq!(expr("a or b and c"), expr("a || b && c"));
    assert_eq!(
        expr("a && b ==> c"),
        bin(
            BinOp::Implies,
            bin(BinOp::And, a.clone(), b.clone()),
            c.clone()
        )
    );
    let (x, y, z) = (int("x"), int("y"), int("z"));
    assert_eq!(
        expr("x - y - z"),
        bin(BinOp::Sub, bin(BinOp::Sub, x.clone(), y.clone()), z.clone())
    );
    assert_eq!(
        expr("x + y * z"),
        bin(BinOp::Add, x.clone(), bin(BinOp::Mul, y.clone(), z.clone()))
    );
    assert_eq!(
        expr("(x + y) % z"),
        bin(BinOp::Mod, bin(BinOp::Add, x.clone(), y.clone()), z.clone())
    );
    assert_eq!(
        expr("x / -y"),
        bin(BinOp::Div, x.clone(), Term::unary(UnOp::Neg, y.clone()))
    );
    // `!` binds more loosely than comparisons and more tightly than `&&`.
    let comparison = bin(BinOp::Eq, x.clone(), y.clone());
    assert_eq!(expr("!x = y"), Term::unary(UnOp::Not, comparison.clone()));
    assert_eq!(
        expr("not x == y && a"),
        bin(BinOp::And, Term::unary(UnOp::Not, comparison), a.clone())
    );
    assert_eq!(
        expr("!!a"),
        Term::unary(UnOp::Not, Term::unary(UnOp::Not, a.clone()))
    );
    assert_eq!(
        expr("a = !b"),
        bin(BinOp::Eq, a.clone(), Term::unary(UnOp::Not, b.clone()))
    );
    assert_eq!(
        expr("if a then 1 else 2 fi + 3"),
        bin(
            BinOp::Add,
            Term::ite(a, Term::int(1), Term::int(2)),
            Term::int(3)
        )
    );
}

#[test]
fn minus_folds_into_literals() {
    assert_eq!(expr("-5"), Term::int(-5));
    assert_eq!(expr("-(5)"), Term::int(-5));
    assert_eq!(expr("- -5"), Term::int(5));
    assert_eq!(expr("3 - 5"), bin(BinOp::Sub, Term::int(3), Term::int(5)));
    assert_eq!(expr("-y"), Term::unary(UnOp::Neg, int("y")));
    let big = "123456789012345678901234567890";
    assert_eq!(expr(&format!("-{big}")).to_string(), format!("-{big}"));
}

#[test]
fn languages_are_the_smallest_that_fit() {
    assert_eq!(parse("x := 1").language, Language::Basic);
    assert_eq!(parse("proc P() { skip } P()").language, Language::Recursive);
    assert_eq!(parse("class C { } x := new C").language, Language::Oo);
    assert_eq!(
        parse("class C { } proc P() { skip } P()").language,
        Language::Oo
    );
}

#[test]
fn types_are_inferred_from_use() {
    let program = parse("x := y; b := z < 2; c[0] := true; d := e; h := len(f) = 0 ==> g");
    let sorts: Vec<(&str, Sort)> = program
        .globals
        .iter()
        .map(|(x, s)| (&**x, s.clone()))
        .collect();
    assert_eq!(
        sorts,
        vec![
            ("b", Sort::Bool),
            ("c", Sort::bool_array()),
            ("d", Sort::Int),
            ("e", Sort::Int),
            ("f", Sort::int_array()),
            ("g", Sort::Bool),
            ("h", Sort::Bool),
            ("x", Sort::Int),
            ("y", Sort::Int),
            ("z", Sort::Int),
        ]
        .into_iter()
        .collect::<Vec<_>>()
    );
}

#[test]
fn declared_but_unused_globals_are_inputs() {
    let program = parse("var n: int, flag: bool; skip");
    assert_eq!(program.globals.len(), 2);
    assert_eq!(program.globals.get("flag"), Some(&Sort::Bool));
}

#[test]
fn procedures_have_parameters_as_locals() {
    let program = parse(
        "var r: int;
         proc fact(n) { if n <= 1 { r := 1 } else { fact(n - 1); r := r * n } }
         proc flip(b) { done := !b }
         fact(5); flip(true)",
    );
    assert_eq!(program.language, Language::Recursive);
    let fact = &program.procedures["fact"];
    assert_eq!(fact.params, vec![("n".into(), Sort::Int)]);
    assert!(matches!(&fact.body[..], [Stmt::If(..)]));
    assert_eq!(
        program.procedures["flip"].params,
        vec![("b".into(), Sort::Bool)]
    );
    let globals: Vec<&str> = program.globals.keys().map(|x| &**x).collect();
    assert_eq!(globals, vec!["done", "r"]);
}

#[test]
fn classes_fields_methods_and_nil() {
    let program = parse(
        "class Node {
             field next: Node, value: int;
             field marked: bool;
             method last() {
                 if this.next = nil { skip } else { this.marked := true };
                 return this.next
             }
             method set(v) { this.value := v; v := v + 1; return v }
         }
         l := new Node;
         l.next := new Node;
         r := l.last();
         l.next.value := l.set(3);
         done := r = nil",
    );
    assert_eq!(program.language, Language::Oo);
    let node = &program.classes["Node"];
    assert_eq!(
        node.fields.keys().map(|f| &**f).collect::<Vec<_>>(),
        vec!["marked", "next", "value"]
    );
    let last = &node.methods["last"];
    assert_eq!(last.result, Sort::Object("Node".into()));
    assert!(matches!(last.body.last(), Some(Stmt::Return(None, _))));
    let set = &node.methods["set"];
    assert_eq!(
        (set.params.clone(), set.result.clone()),
        (vec![("v".into(), Sort::Int)], Sort::Int)
    );
    let object = Sort::Object("Node".into());
    assert_eq!(program.globals.get("l"), Some(&object));
    assert_eq!(program.globals.get("r"), Some(&object));
    let l = Term::var("l", object);
    assert_eq!(
        program.main[0],
        Stmt::New(Target::Var("l".into()), "Node".into())
    );
    assert_eq!(
        program.main[1],
        Stmt::New(Target::Field(l.clone(), "next".into()), "Node".into())
    );
    assert_eq!(
        program.main[2],
        Stmt::MethodCall {
            target: Target::Var("r".into()),
            receiver: l.clone(),
            class: "Node".into(),
            method: "last".into(),
            args: vec![]
        }
    );
    let next = Term::field(l.clone(), "next", Sort::Object("Node".into()));
    assert!(
        matches!(&program.main[3], Stmt::MethodCall { target: Target::Field(object, field), .. }
        if *object == next && &**field == "value")
    );
    let this_next = Term::field(
        Term::var("this", Sort::Object("Node".into())),
        "next",
        Sort::Object("Node".into()),
    );
    let Stmt::If(condition, ..) = &last.body[0] else {
        panic!("not an if: {:?}", last.body[0])
    };
    assert_eq!(*condition, bin(BinOp::Eq, this_next, Term::nil("Node")));
}

#[test]
fn receivers_of_unknown_type_are_resolved_from_their_members() {
    let program = parse(
        "class A { field a: int; method m() { return 1 } }
         class B { field b: int; method m() { return 2 } }
         y := x.a; z := x.m()",
    );
    assert_eq!(program.globals.get("x"), Some(&Sort::Object("A".into())));
    assert!(matches!(&program.main[1], Stmt::MethodCall { class, .. } if &**class == "A"));
}

#[test]
fn loops_are_numbered_in_printing_order() {
    let program = parse(
        "proc Q() { while false { skip } }
         class C { method m() { while false { skip }; return 0 } }
         while true { while false { skip } }",
    );
    let Stmt::While(method_loop, ..) = &program.classes["C"].methods["m"].body[0] else {
        panic!()
    };
    let Stmt::While(procedure_loop, ..) = &program.procedures["Q"].body[0] else {
        panic!()
    };
    let Stmt::While(outer, _, body) = &program.main[0] else {
        panic!()
    };
    let Stmt::While(inner, ..) = &body[0] else {
        panic!()
    };
    assert_eq!(
        [*method_loop, *procedure_loop, *outer, *inner],
        [LoopId(0), LoopId(1), LoopId(2), LoopId(3)]
    );
}

/// Hand-written programs of the three languages, each printed and parsed back.
const ROUND_TRIP: [&str; 9] = [
    "",
    "x := 1; y := x + -2 * (x - 3); b := !(x < y) && (y = x || false) ==> true",
    "var a: int[], found: bool;
     i := 0; found := false;
     while i < len(a) && !found { if a[i] == key { found := true } else { i := i + 1 } }
     assert found ==> a[i] = key; assume i >= 0",
    "flags[0] := !flags[1]; n := if flags[2] then 1 else -1 fi; c := (!c) = (n > 0); d := n - -1 - (n - 1)",
    "var r: int;
     proc fib(n) { if n < 2 { r := n } else { fib(n - 1); t := r; fib(n - 2); r := r + t } }
     proc noop() { }
     fib(10); noop()",
    "class List {
         field next: List, elem: int;
         method append(v) { if this.next = nil { this.next := new List; this.next.elem := v } { this.next := this.next.append(v) }; return this }
         method sum(acc: int) { while acc < 0 { acc := acc + 1 }; return acc + this.elem }
     }
     class Other { field elem: int; method id(o: Other) { return o } }
     l := new List; l := l.append(3); s := l.sum(0); o := new Other; o := o.id(nil); l.next.elem := 5",
    "if b { } else { skip }; while false { }",
    "class N { field next: N; } n := new N; nil.next := n; (if b then n else nil fi).next.next := n; (if b then n else n fi).next := new N",
    "x := 123456789012345678901234567890 * -98765432109876543210; y := x % 7 / 2",
];

#[test]
fn printed_programs_parse_back_to_themselves() {
    for source in ROUND_TRIP {
        let program = parse(source);
        let printed = program.to_string();
        let again = match parse_program(&printed) {
            Ok(again) => again,
            Err(error) => panic!(
                "{}\n--- printed from ---\n{source}",
                error.render_plain("printed.sx", &printed)
            ),
        };
        assert_eq!(again, program, "printed as:\n{printed}");
    }
}

#[test]
fn paper_examples_parse_and_print_back() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../paper-examples");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|language| {
            std::fs::read_dir(language.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|file| file.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sx"))
        .collect();
    files.sort();
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap_or_default();
        let program = match parse_program(&source) {
            Ok(program) => program,
            Err(error) => panic!(
                "{}",
                error.render_plain(&path.display().to_string(), &source)
            ),
        };
        assert_eq!(
            parse_program(&program.to_string()),
            Ok(program),
            "{}",
            path.display()
        );
    }
}
