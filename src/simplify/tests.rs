//! The simplifier folds what it should and never changes a term's meaning:
//! `eval(simplify(t)) = eval(t)` on random terms under random valuations,
//! a property that catches a deliberately wrong rule ([`Mutant`]).

use super::{Mutant, Simplifier};
use num_bigint::BigInt;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use symex_semantics::eval::{eval, Valuation};
use symex_semantics::syntax::parse_program;
use symex_semantics::term::{BinOp, Name, Sort, Term, UnOp};
use symex_semantics::value::{ArrayValue, Value};

const SEED: u64 = 0x5EED_2021;
const TESTS: u64 = 500;
const SIZE: usize = 12;

fn int(name: &str) -> Term {
    Term::var(name, Sort::Int)
}

fn parse_condition(source: &str) -> Term {
    let program = parse_program(&format!("var a: int[]; assume {source}")).expect("the condition parses");
    match &program.main[..] {
        [symex_semantics::program::Stmt::Assume(b)] => b.clone(),
        other => panic!("not one assume: {other:?}"),
    }
}

#[test]
fn ground_subterms_are_folded() {
    let mut simplifier = Simplifier::new();
    let index = Term::binary(BinOp::Div, Term::binary(BinOp::Add, Term::int(1), Term::int(5)), Term::int(2));
    let read = Term::select(Term::var("a", Sort::int_array()), index);
    let simplified = simplifier.simplify(&Term::binary(BinOp::Eq, read, int("x")));
    assert_eq!(simplified.to_string(), "a[3] = x");
    assert_eq!(simplifier.simplify(&parse_condition("0 + 1 + 1 < 6 && x > 0")).to_string(), "x > 0");
    assert!(simplifier.simplify(&parse_condition("!(7 % 0 = 7)")).is_false());
}

#[test]
fn unit_laws_apply_around_symbolic_parts() {
    let mut simplifier = Simplifier::new();
    let b = Term::var("b", Sort::Bool);
    let tautology = Term::binary(BinOp::Lt, Term::int(0), Term::int(1));
    assert_eq!(simplifier.simplify(&Term::binary(BinOp::And, tautology.clone(), b.clone())), b);
    assert_eq!(simplifier.simplify(&Term::binary(BinOp::Or, Term::not(tautology.clone()), b.clone())), b);
    assert_eq!(simplifier.simplify(&Term::unary(UnOp::Not, Term::unary(UnOp::Not, b.clone()))), b);
    let x = int("x");
    assert_eq!(simplifier.simplify(&Term::ite(tautology, x.clone(), int("y"))), x);
    assert_eq!(simplifier.simplify(&Term::ite(b, x.clone(), x.clone())), x);
    assert_eq!(simplifier.simplify(&Term::len("a")), Term::len("a"));
}

#[test]
fn negated_comparisons_are_turned_round() {
    let mut simplifier = Simplifier::new();
    let (n, x) = (int("n"), int("x"));
    let negated = |op, a: &Term, b: &Term| Term::not(Term::binary(op, a.clone(), b.clone()));
    let show = |simplifier: &mut Simplifier, t: Term| simplifier.simplify(&t).to_string();
    assert_eq!(show(&mut simplifier, negated(BinOp::Lt, &Term::int(0), &n)), "n <= 0");
    assert_eq!(show(&mut simplifier, negated(BinOp::Le, &x, &n)), "n < x");
    assert_eq!(show(&mut simplifier, negated(BinOp::Gt, &x, &Term::int(0))), "x <= 0");
    assert_eq!(show(&mut simplifier, negated(BinOp::Ge, &x, &n)), "x < n");
    assert_eq!(show(&mut simplifier, negated(BinOp::Eq, &x, &n)), "x != n");
    assert_eq!(show(&mut simplifier, negated(BinOp::Ne, &x, &n)), "x = n");
}

#[test]
fn a_hundred_thousand_deep_term_folds_without_recursion() {
    let mut term = Term::int(0);
    for _ in 0..100_000 {
        term = Term::binary(BinOp::Add, term, Term::int(1));
    }
    let condition = Term::binary(BinOp::Lt, term, int("n"));
    assert_eq!(Simplifier::new().simplify(&condition).to_string(), "100000 < n");
}

/// A term over `x`, `y: int`, `b: bool` and `a: int[]`, as plain data for
/// printing and shrinking.
#[derive(Clone, Debug)]
enum Shape {
    Int(i64),
    Bool(bool),
    X,
    Y,
    B,
    Len,
    Neg(Box<Shape>),
    Not(Box<Shape>),
    Binary(BinOp, Box<Shape>, Box<Shape>),
    Ite(Box<Shape>, Box<Shape>, Box<Shape>),
    /// `(a[i] := v)[j]`, or `a[j]` without the store.
    Read(Option<(Box<Shape>, Box<Shape>)>, Box<Shape>),
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Int,
    Bool,
}

const INT_OPS: [BinOp; 5] = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod];
const BOOL_OPS: [BinOp; 9] =
    [BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::And, BinOp::Or, BinOp::Implies];

impl Shape {
    fn generate(g: &mut Gen, kind: Kind, budget: usize) -> Shape {
        let small = |g: &mut Gen| i64::from(i8::arbitrary(g) % 4);
        let sub = |g: &mut Gen, kind| Box::new(Shape::generate(g, kind, budget / 2));
        let leaf = budget == 0 || u8::arbitrary(g) % 4 == 0;
        match (kind, leaf) {
            (Kind::Int, true) => match u8::arbitrary(g) % 4 {
                0 => Shape::X,
                1 => Shape::Y,
                2 => Shape::Len,
                _ => Shape::Int(small(g)),
            },
            (Kind::Bool, true) => match u8::arbitrary(g) % 2 {
                0 => Shape::B,
                _ => Shape::Bool(bool::arbitrary(g)),
            },
            (Kind::Int, false) => match u8::arbitrary(g) % 4 {
                0 => Shape::Neg(sub(g, Kind::Int)),
                1 => Shape::Ite(sub(g, Kind::Bool), sub(g, Kind::Int), sub(g, Kind::Int)),
                2 => {
                    let store = bool::arbitrary(g).then(|| (sub(g, Kind::Int), sub(g, Kind::Int)));
                    Shape::Read(store, sub(g, Kind::Int))
                }
                _ => Shape::Binary(*g.choose(&INT_OPS).expect("non-empty"), sub(g, Kind::Int), sub(g, Kind::Int)),
            },
            (Kind::Bool, false) => match u8::arbitrary(g) % 3 {
                0 => Shape::Not(sub(g, Kind::Bool)),
                _ => {
                    let op = *g.choose(&BOOL_OPS).expect("non-empty");
                    let operands = if op.precedence() == 5 && op != BinOp::Eq { Kind::Int } else { Kind::Bool };
                    let operands = if op == BinOp::Eq && bool::arbitrary(g) { Kind::Int } else { operands };
                    Shape::Binary(op, sub(g, operands), sub(g, operands))
                }
            },
        }
    }

    fn term(&self) -> Term {
        let array = || Term::var("a", Sort::int_array());
        match self {
            Shape::Int(n) => Term::int(*n),
            Shape::Bool(b) => Term::bool(*b),
            Shape::X => int("x"),
            Shape::Y => int("y"),
            Shape::B => Term::var("b", Sort::Bool),
            Shape::Len => Term::len("a"),
            Shape::Neg(a) => Term::unary(UnOp::Neg, a.term()),
            Shape::Not(a) => Term::unary(UnOp::Not, a.term()),
            Shape::Binary(op, a, b) => Term::binary(*op, a.term(), b.term()),
            Shape::Ite(c, a, b) => Term::ite(c.term(), a.term(), b.term()),
            Shape::Read(store, j) => {
                let base = match store {
                    Some((i, v)) => Term::store(array(), i.term(), v.term()),
                    None => array(),
                };
                Term::select(base, j.term())
            }
        }
    }
}

/// A random boolean term and a random valuation of its variables.
#[derive(Clone, Debug)]
struct Case {
    shape: Shape,
    x: i64,
    y: i64,
    b: bool,
    entries: Vec<(i64, i64)>,
    len: u8,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let small = |g: &mut Gen| i64::from(i8::arbitrary(g) % 3);
        Case {
            shape: Shape::generate(g, Kind::Bool, g.size()),
            x: small(g),
            y: small(g),
            b: bool::arbitrary(g),
            entries: (0..3).map(|_| (small(g), small(g))).collect(),
            len: u8::arbitrary(g) % 4,
        }
    }
}

impl Case {
    fn valuation(&self) -> Valuation {
        let mut array = ArrayValue::constant(BigInt::from(self.len), Value::Int(BigInt::from(0)));
        for (i, v) in &self.entries {
            array = array.set(BigInt::from(*i), Value::Int(BigInt::from(*v)));
        }
        let pairs: [(&str, Value); 4] = [
            ("x", Value::Int(BigInt::from(self.x))),
            ("y", Value::Int(BigInt::from(self.y))),
            ("b", Value::Bool(self.b)),
            ("a", Value::Array(array)),
        ];
        pairs.into_iter().map(|(x, value)| (Name::from(x), value)).collect()
    }
}

fn agrees(case: &Case, mutant: Option<Mutant>) -> TestResult {
    let term = case.shape.term();
    let mut simplifier = match mutant {
        Some(mutant) => Simplifier::with_mutant(mutant),
        None => Simplifier::new(),
    };
    let simplified = simplifier.simplify(&term);
    let v = case.valuation();
    TestResult::from_bool(eval(&simplified, &v) == eval(&term, &v))
}

fn checker() -> QuickCheck {
    QuickCheck::new().rng(Gen::from_size_and_seed(SIZE, SEED)).tests(TESTS).max_tests(TESTS)
}

#[test]
fn simplification_preserves_every_value() {
    fn sound(case: Case) -> TestResult {
        agrees(&case, None)
    }
    checker().quickcheck(sound as fn(Case) -> TestResult);
}

#[test]
fn the_property_catches_a_wrong_rule() {
    fn sound_with_mutant(case: Case) -> TestResult {
        agrees(&case, Some(Mutant::NotLessIsGreater))
    }
    let caught = checker().quicktest(sound_with_mutant as fn(Case) -> TestResult);
    assert!(caught.is_err(), "the mutant `!(a < b) → a > b` went unnoticed");
}
