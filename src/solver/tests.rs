use super::*;
use num_bigint::BigInt;
use symex_semantics::term::{BinOp, UnOp};
use symex_semantics::value::Value;

const TIMEOUT_MS: u64 = 10_000;

fn int(name: &str) -> Term {
    Term::var(name, Sort::Int)
}

fn bin(op: BinOp, a: Term, b: Term) -> Term {
    Term::binary(op, a, b)
}

fn n(value: i64) -> Term {
    Term::int(value)
}

fn inputs(vars: &[(&str, Sort)]) -> BTreeMap<Name, Sort> {
    vars.iter()
        .map(|(name, sort)| (Name::from(*name), sort.clone()))
        .collect()
}

fn int_of(valuation: &Valuation, name: &str) -> BigInt {
    valuation[name].as_int().cloned().expect("an integer")
}

fn is_valid(formula: &Term) -> bool {
    prove(formula, &formula.free_vars(), TIMEOUT_MS) == Proof::Valid
}

#[test]
fn satisfiable_and_unsatisfiable_conditions() {
    let x = int("x");
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&bin(BinOp::Gt, x.clone(), n(3)));
    solver.assert(&bin(BinOp::Lt, x.clone(), n(5)));
    assert_eq!(solver.check(), SatResult::Sat);
    let model = solver.model(&inputs(&[("x", Sort::Int)])).expect("a model");
    assert_eq!(int_of(&model, "x"), BigInt::from(4));
    solver.assert(&bin(BinOp::Ne, x, n(4)));
    assert_eq!(solver.check(), SatResult::Unsat);
    assert_eq!(solver.model(&inputs(&[("x", Sort::Int)])), None);
    assert_eq!(solver.calls(), 2);
}

#[test]
fn pop_retracts_what_push_opened() {
    let x = int("x");
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&bin(BinOp::Gt, x.clone(), n(0)));
    solver.push();
    solver.assert(&bin(BinOp::Lt, x.clone(), n(0)));
    assert_eq!(solver.check(), SatResult::Unsat);
    solver.pop();
    assert_eq!(solver.check(), SatResult::Sat);
    solver.pop();
    solver.assert(&bin(BinOp::Le, x, n(0)));
    assert_eq!(
        solver.check(),
        SatResult::Unsat,
        "popping with no open scope keeps the base assertions"
    );
}

#[test]
fn check_assuming_does_not_keep_the_extra_condition() {
    let x = int("x");
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&bin(BinOp::Gt, x.clone(), n(0)));
    assert_eq!(
        solver.check_assuming(&bin(BinOp::Lt, x.clone(), n(0))),
        SatResult::Unsat
    );
    assert_eq!(
        solver.check_assuming(&bin(BinOp::Eq, x.clone(), n(7))),
        SatResult::Sat
    );
    let model = solver.model(&inputs(&[("x", Sort::Int)])).expect("a model");
    assert_eq!(
        int_of(&model, "x"),
        BigInt::from(7),
        "the model satisfies the extra condition"
    );
    assert_eq!(solver.check(), SatResult::Sat);
}

#[test]
fn ill_typed_terms_are_unknown_until_popped() {
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.push();
    solver.assert(&bin(
        BinOp::Eq,
        bin(BinOp::Add, Term::bool(true), n(1)),
        n(2),
    ));
    assert_eq!(solver.check(), SatResult::Unknown);
    assert!(matches!(
        solver.unsupported(),
        Some(EncodeError::IllTyped(_))
    ));
    solver.pop();
    assert_eq!(solver.unsupported(), None);
    assert_eq!(solver.check(), SatResult::Sat);
    let ill_typed = bin(BinOp::Add, Term::bool(true), n(1));
    assert_eq!(
        solver.check_assuming(&bin(BinOp::Eq, ill_typed, n(2))),
        SatResult::Unknown
    );
    assert_eq!(
        solver.check(),
        SatResult::Sat,
        "an untranslatable extra condition is not kept either"
    );
}

fn node(name: &str) -> Term {
    Term::var(name, Sort::Object("Node".into()))
}

fn next(of: Term) -> Term {
    Term::field(of, "next", Sort::Object("Node".into()))
}

fn val(of: Term) -> Term {
    Term::field(of, "val", Sort::Int)
}

#[test]
fn aliased_objects_come_back_as_one_object_of_the_heap() {
    let (x, y) = (node("x"), node("y"));
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&Term::conjunction([
        bin(BinOp::Ne, x.clone(), Term::nil("Node")),
        bin(BinOp::Eq, x.clone(), y.clone()),
        bin(BinOp::Eq, val(x.clone()), n(5)),
        bin(BinOp::Eq, next(x.clone()), Term::nil("Node")),
    ]));
    assert_eq!(solver.check(), SatResult::Sat);
    let model = solver
        .model(&inputs(&[("x", x.sort()), ("y", y.sort())]))
        .expect("a model");
    assert_eq!(model["x"], model["y"], "x = y names one object");
    let Value::Object(o) = model["x"] else {
        panic!("x is an object, got {}", model["x"])
    };
    let object = model.heap.get(o).expect("the object is in the heap");
    assert_eq!(object.fields["val"], Value::Int(BigInt::from(5)));
    assert_eq!(object.fields["next"], Value::Nil);
    assert_eq!(model.heap.iter().count(), 1, "no other object is reachable");
}

#[test]
fn a_field_chain_gives_distinct_objects_where_the_condition_needs_them() {
    let x = node("x");
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&Term::conjunction([
        bin(BinOp::Ne, x.clone(), Term::nil("Node")),
        bin(BinOp::Ne, next(x.clone()), Term::nil("Node")),
        bin(BinOp::Ne, val(x.clone()), val(next(x.clone()))),
    ]));
    assert_eq!(solver.check(), SatResult::Sat);
    let model = solver.model(&inputs(&[("x", x.sort())])).expect("a model");
    let Value::Object(first) = model["x"] else {
        panic!("x is an object")
    };
    let Value::Object(second) = model.heap.get(first).expect("x's object").fields["next"] else {
        panic!("x.next is an object")
    };
    assert_ne!(first, second, "the two values differ, so the objects do");
    assert!(is_valid(&bin(
        BinOp::Eq,
        Term::nil("Node"),
        Term::nil("Node")
    )));
    assert!(!is_valid(&bin(BinOp::Eq, x.clone(), Term::nil("Node"))));
}

#[test]
fn a_query_beyond_the_timeout_is_unknown() {
    // x³ + y³ = z³ has no positive solution (Fermat, n = 3); Z3 cannot show it.
    let cube = |v: &str| bin(BinOp::Mul, int(v), bin(BinOp::Mul, int(v), int(v)));
    let positive = |v: &str| bin(BinOp::Gt, int(v), n(0));
    let mut solver = Solver::new(50);
    solver.assert(&Term::conjunction([
        positive("x"),
        positive("y"),
        positive("z"),
        bin(BinOp::Eq, bin(BinOp::Add, cube("x"), cube("y")), cube("z")),
    ]));
    assert_eq!(solver.check(), SatResult::Unknown);
}

#[test]
fn boolean_models() {
    let (p, q) = (Term::var("p", Sort::Bool), Term::var("q", Sort::Bool));
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&Term::and(p.clone(), Term::not(q.clone())));
    assert_eq!(solver.check(), SatResult::Sat);
    let requested = inputs(&[
        ("p", Sort::Bool),
        ("q", Sort::Bool),
        ("unused", Sort::Bool),
        ("flags", Sort::bool_array()),
    ]);
    let model = solver.model(&requested).expect("a model");
    assert_eq!(model["p"], Value::Bool(true));
    assert_eq!(model["q"], Value::Bool(false));
    assert!(
        model["unused"].as_bool().is_some(),
        "every requested input gets a value"
    );
    assert!(model["flags"]
        .as_array()
        .is_some_and(|flags| flags.len >= BigInt::from(0)));
}

#[test]
fn array_models_satisfy_the_path_condition() {
    let a = Term::var("a", Sort::int_array());
    let (i, j, x) = (int("i"), int("j"), int("x"));
    let condition = Term::conjunction([
        bin(BinOp::Eq, Term::select(a.clone(), i.clone()), x.clone()),
        bin(BinOp::Ne, Term::select(a.clone(), j.clone()), x.clone()),
        bin(BinOp::Ne, i.clone(), j.clone()),
    ]);
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&condition);
    assert_eq!(solver.check(), SatResult::Sat);
    let model = solver
        .model(&condition.free_vars())
        .expect("a model the evaluator accepts");
    let array = model["a"].as_array().expect("an array");
    assert_eq!(array.get(&int_of(&model, "i")), model["x"]);
    assert_ne!(array.get(&int_of(&model, "j")), model["x"]);
}

#[test]
fn stores_and_boolean_arrays() {
    let flags = Term::var("flags", Sort::bool_array());
    let k = int("k");
    let updated = Term::store(flags.clone(), k.clone(), Term::bool(true));
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&Term::not(Term::select(flags.clone(), n(3))));
    solver.assert(&Term::select(updated.clone(), n(3)));
    assert_eq!(solver.check(), SatResult::Sat);
    let model = solver
        .model(&inputs(&[("flags", Sort::bool_array()), ("k", Sort::Int)]))
        .expect("a model");
    assert_eq!(int_of(&model, "k"), BigInt::from(3));
    solver.assert(&bin(BinOp::Ne, Term::select(updated, k), Term::bool(true)));
    assert_eq!(solver.check(), SatResult::Unsat, "a[k := v][k] = v");
}

#[test]
fn array_equality_includes_the_length() {
    let (a, b) = (
        Term::var("a", Sort::int_array()),
        Term::var("b", Sort::int_array()),
    );
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&bin(BinOp::Eq, a.clone(), b.clone()));
    solver.assert(&bin(BinOp::Ne, Term::len("a"), Term::len("b")));
    assert_eq!(solver.check(), SatResult::Unsat);
    assert!(is_valid(&bin(
        BinOp::Eq,
        Term::store(a.clone(), n(0), Term::select(a.clone(), n(0))),
        a
    )));
}

#[test]
fn lengths_are_non_negative_inputs() {
    let a = Term::var("a", Sort::int_array());
    assert!(is_valid(&bin(BinOp::Ge, Term::len("a"), n(0))));
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.push();
    solver.assert(&bin(BinOp::Eq, Term::len("a"), n(3)));
    solver.assert(&bin(BinOp::Eq, Term::select(a, n(1)), n(9)));
    assert_eq!(solver.check(), SatResult::Sat);
    let model = solver
        .model(&inputs(&[("a", Sort::int_array())]))
        .expect("a model");
    let array = model["a"].as_array().expect("an array");
    assert_eq!(array.len, BigInt::from(3));
    assert_eq!(array.get(&BigInt::from(1)), Value::Int(BigInt::from(9)));
    solver.pop();
    solver.assert(&bin(BinOp::Lt, Term::len("a"), n(0)));
    assert_eq!(
        solver.check(),
        SatResult::Unsat,
        "the axiom outlives the scope that introduced len(a)"
    );
}

#[test]
fn division_is_euclidean_and_total() {
    let (x, y) = (int("x"), int("y"));
    let div = |a: Term, b: Term| bin(BinOp::Div, a, b);
    let rem = |a: Term, b: Term| bin(BinOp::Mod, a, b);
    for (claim, expected) in [
        (div(n(7), n(-2)), -3),
        (rem(n(7), n(-2)), 1),
        (div(n(-7), n(2)), -4),
        (rem(n(-7), n(2)), 1),
        (div(n(-7), n(-2)), 4),
        (rem(n(-7), n(-2)), 1),
    ] {
        assert!(
            is_valid(&bin(BinOp::Eq, claim.clone(), n(expected))),
            "{claim} = {expected}"
        );
    }
    assert!(
        is_valid(&bin(BinOp::Eq, div(x.clone(), n(0)), n(0))),
        "x / 0 = 0"
    );
    assert!(
        is_valid(&bin(BinOp::Eq, rem(x.clone(), n(0)), x.clone())),
        "x % 0 = x"
    );
    assert!(is_valid(&bin(
        BinOp::Eq,
        div(x.clone(), y.clone()),
        div(x.clone(), y.clone())
    )));
    let recomposed = bin(
        BinOp::Add,
        bin(BinOp::Mul, div(x.clone(), y.clone()), y.clone()),
        rem(x.clone(), y.clone()),
    );
    assert!(
        is_valid(&bin(BinOp::Eq, recomposed, x.clone())),
        "x = (x/y)*y + x%y, also for y = 0"
    );
    let y_is_zero = bin(BinOp::Eq, y.clone(), n(0));
    assert!(is_valid(&Term::implies(
        y_is_zero,
        bin(BinOp::Eq, rem(x.clone(), y.clone()), x.clone())
    )));
}

#[test]
fn counterexamples_are_checked_inputs() {
    let x = int("x");
    let claim = bin(BinOp::Gt, bin(BinOp::Mul, x.clone(), x.clone()), n(0));
    match prove(&claim, &inputs(&[("x", Sort::Int)]), TIMEOUT_MS) {
        Proof::Counterexample(model) => assert_eq!(int_of(&model, "x"), BigInt::from(0)),
        other => panic!("expected the counterexample x = 0, got {other:?}"),
    }
}

#[test]
fn big_integers_round_trip() {
    let huge: BigInt = "-123456789012345678901234567890".parse().expect("a number");
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&bin(BinOp::Eq, int("x"), Term::int(huge.clone())));
    solver.assert(&bin(BinOp::Eq, int("y"), Term::unary(UnOp::Neg, int("x"))));
    assert_eq!(solver.check(), SatResult::Sat);
    let model = solver
        .model(&inputs(&[("x", Sort::Int), ("y", Sort::Int)]))
        .expect("a model");
    assert_eq!(int_of(&model, "x"), huge);
    assert_eq!(int_of(&model, "y"), -huge);
}

#[test]
fn shared_terms_are_translated_once() {
    // `x := x + x` a hundred times: 101 nodes, 2^100 leaves when written out.
    let x = int("x");
    let mut doubled = x.clone();
    for _ in 0..100 {
        doubled = bin(BinOp::Add, doubled.clone(), doubled);
    }
    let target = Term::int(BigInt::from(3) << 100);
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&bin(BinOp::Eq, doubled, target));
    assert_eq!(solver.check(), SatResult::Sat);
    let model = solver
        .model(&inputs(&[("x", Sort::Int)]))
        .expect("a model the evaluator confirms");
    assert_eq!(int_of(&model, "x"), BigInt::from(3));
}

#[test]
fn deep_terms_do_not_overflow_the_stack() {
    let mut deep = int("x");
    for _ in 0..100_000 {
        deep = bin(BinOp::Add, deep, n(1));
    }
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&bin(BinOp::Eq, deep, n(100_000)));
    assert_eq!(solver.check(), SatResult::Sat);
    let model = solver.model(&inputs(&[("x", Sort::Int)])).expect("a model");
    assert_eq!(int_of(&model, "x"), BigInt::from(0));
}
