//! Property: Z3 and the concrete evaluator agree on every ground term.
//!
//! For a random well-typed term `t` over one input array `a` pinned to a
//! random value, with `r` pinned to `eval(t)`: `t ≠ r` is unsat and `t = r`
//! is sat with a model the evaluator accepts. Integer leaves are small (so
//! `/` and `%` meet zero and negative divisors often) or beyond 64 bits.
//! The property must catch a wrong translation of `%` (see [`Mutant`]).

use super::encode::{Encoded, Mutant};
use super::{SatResult, Solver};
use num_bigint::BigInt;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use symex_semantics::eval::{eval, Valuation};
use symex_semantics::term::{BinOp, Name, Sort, Term, UnOp};
use symex_semantics::value::{ArrayValue, Value};
use z3::ast::{Array, Bool, Int};

/// A property over generated cases.
type Property = fn(Case) -> TestResult;

const SEED: u64 = 0x5EED_2021;
const TESTS: u64 = 300;
const SIZE: usize = 12;

/// The sorts of generated terms: every array is an `int[]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Bool,
    Array,
}

/// A ground term as plain data, so QuickCheck can print and shrink it.
#[derive(Clone, Debug)]
enum Ground {
    Int(BigInt),
    Bool(bool),
    /// The pinned input array `a`.
    Input,
    Len,
    Unary(UnOp, Box<Ground>),
    Binary(BinOp, Box<Ground>, Box<Ground>),
    Ite(Box<Ground>, Box<Ground>, Box<Ground>),
    Select(Box<Ground>, Box<Ground>),
    Store(Box<Ground>, Box<Ground>, Box<Ground>),
}

const INT_OPS: [BinOp; 5] = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod];
const CONNECTIVES: [BinOp; 3] = [BinOp::And, BinOp::Or, BinOp::Implies];

fn pick<T: Copy>(g: &mut Gen, options: &[T]) -> T {
    *g.choose(options).expect("options are never empty")
}

fn boxed(g: &mut Gen, kind: Kind, budget: usize) -> Box<Ground> {
    Box::new(Ground::generate(g, kind, budget))
}

impl Ground {
    fn generate(g: &mut Gen, kind: Kind, budget: usize) -> Ground {
        let leaf = budget == 0 || pick(g, &[true, false, false]);
        let half = budget / 2;
        match (kind, leaf) {
            (Kind::Int, true) => match pick(g, &[0, 0, 0, 1, 2]) {
                0 => Ground::Int(BigInt::from(pick(g, &[-3, -2, -1, 0, 1, 2, 3, 7]))),
                1 => {
                    Ground::Int((BigInt::from(1) << 70) * pick(g, &[-1, 1]) + pick(g, &[-1, 0, 1]))
                }
                _ => Ground::Len,
            },
            (Kind::Int, false) => match pick(g, &[0, 0, 0, 1, 2, 3]) {
                0 => Ground::Binary(
                    pick(g, &INT_OPS),
                    boxed(g, Kind::Int, half),
                    boxed(g, Kind::Int, half),
                ),
                1 => Ground::Unary(UnOp::Neg, boxed(g, Kind::Int, budget - 1)),
                2 => Ground::Select(boxed(g, Kind::Array, half), boxed(g, Kind::Int, half)),
                _ => Ground::Ite(
                    boxed(g, Kind::Bool, half),
                    boxed(g, Kind::Int, half),
                    boxed(g, Kind::Int, half),
                ),
            },
            (Kind::Bool, true) => Ground::Bool(pick(g, &[true, false])),
            (Kind::Bool, false) => match pick(g, &[0, 0, 1, 2, 3]) {
                0 => Ground::Binary(
                    pick(g, &BinOp::COMPARISONS),
                    boxed(g, Kind::Int, half),
                    boxed(g, Kind::Int, half),
                ),
                1 => Ground::Binary(
                    pick(g, &CONNECTIVES),
                    boxed(g, Kind::Bool, half),
                    boxed(g, Kind::Bool, half),
                ),
                2 => Ground::Unary(UnOp::Not, boxed(g, Kind::Bool, budget - 1)),
                _ => Ground::Binary(
                    pick(g, &[BinOp::Eq, BinOp::Ne]),
                    boxed(g, Kind::Array, half),
                    boxed(g, Kind::Array, half),
                ),
            },
            (Kind::Array, true) => Ground::Input,
            (Kind::Array, false) => match pick(g, &[0, 0, 1]) {
                0 => Ground::Store(
                    boxed(g, Kind::Array, half),
                    boxed(g, Kind::Int, half),
                    boxed(g, Kind::Int, half),
                ),
                _ => Ground::Ite(
                    boxed(g, Kind::Bool, half),
                    boxed(g, Kind::Array, half),
                    boxed(g, Kind::Array, half),
                ),
            },
        }
    }

    fn kind(&self) -> Kind {
        match self {
            Ground::Int(_) | Ground::Len | Ground::Select(..) | Ground::Unary(UnOp::Neg, _) => {
                Kind::Int
            }
            Ground::Bool(_) | Ground::Unary(UnOp::Not, _) => Kind::Bool,
            Ground::Binary(op, ..) if op.is_boolean() => Kind::Bool,
            Ground::Binary(..) => Kind::Int,
            Ground::Input | Ground::Store(..) => Kind::Array,
            Ground::Ite(_, then, _) => then.kind(),
        }
    }

    fn children(&self) -> Vec<&Ground> {
        match self {
            Ground::Int(_) | Ground::Bool(_) | Ground::Input | Ground::Len => vec![],
            Ground::Unary(_, a) => vec![a],
            Ground::Binary(_, a, b) | Ground::Select(a, b) => vec![a, b],
            Ground::Ite(a, b, c) | Ground::Store(a, b, c) => vec![a, b, c],
        }
    }

    fn term(&self) -> Term {
        let t = |g: &Ground| g.term();
        match self {
            Ground::Int(n) => Term::int(n.clone()),
            Ground::Bool(b) => Term::bool(*b),
            Ground::Input => Term::var("a", Sort::int_array()),
            Ground::Len => Term::len("a"),
            Ground::Unary(op, a) => Term::unary(*op, t(a)),
            Ground::Binary(op, a, b) => Term::binary(*op, t(a), t(b)),
            Ground::Ite(c, a, b) => Term::ite(t(c), t(a), t(b)),
            Ground::Select(a, i) => Term::select(t(a), t(i)),
            Ground::Store(a, i, v) => Term::store(t(a), t(i), t(v)),
        }
    }
}

/// A term and the value of the input array it reads.
#[derive(Clone, Debug)]
struct Case {
    term: Ground,
    input: ArrayValue,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let kind = pick(g, &[Kind::Int, Kind::Bool, Kind::Array]);
        let budget = g.size();
        let term = Ground::generate(g, kind, budget);
        let mut input = ArrayValue::constant(
            BigInt::from(pick(g, &[0, 1, 3])),
            Value::Int(BigInt::from(pick(g, &[0, 5]))),
        );
        for _ in 0..pick(g, &[0, 1, 2]) {
            input = input.set(
                BigInt::from(pick(g, &[-1, 0, 1, 2])),
                Value::Int(BigInt::from(pick(g, &[-4, 0, 9]))),
            );
        }
        Case { term, input }
    }

    /// Subterms of the same sort, then the term with one child shrunk.
    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let kind = self.term.kind();
        let mut smaller: Vec<Ground> = self
            .term
            .children()
            .into_iter()
            .filter(|child| child.kind() == kind)
            .cloned()
            .collect();
        for (position, child) in self.term.children().into_iter().enumerate() {
            let shrunk = Case {
                term: child.clone(),
                input: self.input.clone(),
            }
            .shrink();
            smaller.extend(
                shrunk
                    .take(4)
                    .map(|shrunk| self.term.replace_child(position, shrunk.term)),
            );
        }
        let input = self.input.clone();
        Box::new(smaller.into_iter().map(move |term| Case {
            term,
            input: input.clone(),
        }))
    }
}

impl Ground {
    fn replace_child(&self, position: usize, child: Ground) -> Ground {
        let mut copy = self.clone();
        let slot = match &mut copy {
            Ground::Unary(_, a) => [Some(a), None, None],
            Ground::Binary(_, a, b) | Ground::Select(a, b) => [Some(a), Some(b), None],
            Ground::Ite(a, b, c) | Ground::Store(a, b, c) => [Some(a), Some(b), Some(c)],
            Ground::Int(_) | Ground::Bool(_) | Ground::Input | Ground::Len => [None, None, None],
        };
        if let Some(Some(slot)) = slot.into_iter().nth(position) {
            **slot = child;
        }
        copy
    }
}

/// Asserts that the input `name` of `sort` has `value`, in Z3's own terms.
fn pin(solver: &mut Solver, name: &str, sort: &Sort, value: &Value) {
    let variable = solver
        .encoder
        .variable(&Name::from(name), sort)
        .expect("generated sorts are encodable");
    let pinned = match (&variable, value) {
        (Encoded::Int(x), Value::Int(v)) => x.eq(Int::from_big_int(v)),
        (Encoded::Bool(x), Value::Bool(v)) => x.eq(Bool::from_bool(*v)),
        (Encoded::Array { array, len, .. }, Value::Array(v)) => {
            let element = |v: &Value| Int::from_big_int(v.as_int().expect("int[] elements"));
            let mut contents = Array::const_array(&z3::Sort::int(), &element(&v.default));
            for (index, entry) in v.entries.iter() {
                contents = contents.store(&Int::from_big_int(index), &element(entry));
            }
            Bool::and(&[array.eq(&contents), len.eq(Int::from_big_int(&v.len))])
        }
        _ => panic!("`{name}` pinned to a value of another sort"),
    };
    solver.z3.assert(&pinned);
}

fn agrees(case: Case, mutant: Option<Mutant>) -> TestResult {
    let term = case.term.term();
    let input = Value::Array(case.input);
    let valuation: Valuation = [(Name::from("a"), input.clone())].into_iter().collect();
    let expected = match eval(&term, &valuation) {
        Ok(value) => value,
        Err(error) => {
            return TestResult::error(format!(
                "the generator made an ill-typed term `{term}`: {error}"
            ))
        }
    };
    let sort = match case.term.kind() {
        Kind::Int => Sort::Int,
        Kind::Bool => Sort::Bool,
        Kind::Array => Sort::int_array(),
    };
    let result = Term::var("r", sort.clone());
    let mut solver = Solver::new(10_000);
    solver.encoder.mutant = mutant;
    pin(&mut solver, "a", &Sort::int_array(), &input);
    pin(&mut solver, "r", &sort, &expected);
    solver.push();
    solver.assert(&Term::binary(BinOp::Ne, term.clone(), result.clone()));
    let differs = solver.check();
    solver.pop();
    let agrees = solver.check_assuming(&Term::binary(BinOp::Eq, term.clone(), result));
    let inputs = [(Name::from("a"), Sort::int_array())].into_iter().collect();
    let model = solver.model(&inputs);
    TestResult::from_bool(
        differs == SatResult::Unsat
            && agrees == SatResult::Sat
            && model.is_some_and(|model| model.get("a") == Some(&input)),
    )
}

fn exact(case: Case) -> TestResult {
    agrees(case, None)
}

fn modulo_is_rem(case: Case) -> TestResult {
    agrees(case, Some(Mutant::ModuloIsRem))
}

fn modulo_by_zero_unspecified(case: Case) -> TestResult {
    agrees(case, Some(Mutant::ModuloByZeroUnspecified))
}

fn division_by_zero_unspecified(case: Case) -> TestResult {
    agrees(case, Some(Mutant::DivisionByZeroUnspecified))
}

fn division_truncates(case: Case) -> TestResult {
    agrees(case, Some(Mutant::DivisionTruncates))
}

fn checker() -> QuickCheck {
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(SIZE, SEED))
        .tests(TESTS)
        .max_tests(TESTS)
}

#[test]
fn z3_agrees_with_the_evaluator_on_ground_terms() {
    println!("seed {SEED:#x}");
    checker().quickcheck(exact as Property);
}

#[test]
fn the_property_catches_a_wrong_division_or_modulo() {
    let mutants: [(&str, Property); 4] = [
        ("% as rem", modulo_is_rem),
        ("% without the zero case", modulo_by_zero_unspecified),
        ("/ without the zero case", division_by_zero_unspecified),
        ("/ truncating", division_truncates),
    ];
    for (mutant, property) in mutants {
        assert!(
            checker().quicktest(property).is_err(),
            "the mutant `{mutant}` went unnoticed (seed {SEED:#x})"
        );
    }
}
