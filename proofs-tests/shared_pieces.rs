//! The pieces every command shares, checked against an independent oracle
//! or by direct properties, each shown to catch its mutant
//! ([`symex_semantics::mutants::Mutant`]):
//! - the evaluator against Z3 on ground terms drawn to reach the corners:
//!   every operator with every sign combination of its operands (negative,
//!   zero, positive), which the run must see;
//! - allocation on heaps with gaps in their numbering (a heap given by the
//!   user may hold `o2` alone): the new object is none of the old ones,
//!   which stay as they were, and has its fields' defaults;
//! - `[x := new C]` over two created objects, compared either way, in the
//!   incremental wp.
//! - the §4 agreement's comparison of states, corrupted one component at
//!   a time (the heap, a variable): each corruption must be noticed;
//! - the input generator's distribution: for every class, references both
//!   `nil` and to an object.

use crate::distribution::{self, Required};
use crate::mutated::{with_core_mutant, with_mutant};
use crate::{catches_on, holds_on, TIMEOUT_MS};
use num_bigint::BigInt;
use quickcheck::{Arbitrary, Gen, TestResult};
use std::collections::BTreeMap;
use symex::solver::{SatResult, Solver};
use symex_semantics::delta::Checks;
use symex_semantics::eval::{eval, eval_bool, Valuation};
use symex_semantics::heap::{Heap, Object};
use symex_semantics::mutants::Mutant;
use symex_semantics::oo::{
    self,
    action::{Action, Location},
};
use symex_semantics::term::{BinOp, Name, Sort, Term, TermKind, UnOp};
use symex_semantics::value::{Oid, Value};

const INT_OPS: [BinOp; 5] = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod];

/// A ground integer term with small (often negative or zero) leaves.
#[derive(Clone, Debug)]
struct Ground(Term);

fn ground(g: &mut Gen, budget: usize) -> Term {
    if budget == 0 || u8::arbitrary(g) % 3 == 0 {
        return Term::int(i64::from(i8::arbitrary(g) % 8));
    }
    match u8::arbitrary(g) % 6 {
        0 => Term::unary(UnOp::Neg, ground(g, budget - 1)),
        1 => Term::ite(
            Term::binary(BinOp::Lt, ground(g, budget / 2), ground(g, budget / 2)),
            ground(g, budget / 2),
            ground(g, budget / 2),
        ),
        _ => {
            let op = *g.choose(&INT_OPS).unwrap_or(&BinOp::Div);
            Term::binary(op, ground(g, budget / 2), ground(g, budget / 2))
        }
    }
}

impl Arbitrary for Ground {
    fn arbitrary(g: &mut Gen) -> Ground {
        Ground(ground(g, 8))
    }
}

/// `negative`, `zero` or `positive`.
fn sign(n: &BigInt) -> &'static str {
    match n.sign() {
        num_bigint::Sign::Minus => "negative",
        num_bigint::Sign::NoSign => "zero",
        num_bigint::Sign::Plus => "positive",
    }
}

/// Tallies each operator node of `t` by the signs of its operands' values.
fn record_signs(t: &Term) {
    let empty = Valuation::new();
    for node in t.nodes() {
        if let TermKind::Binary(op, a, b) = node.kind() {
            if let (Ok(Value::Int(x)), Ok(Value::Int(y))) = (eval(a, &empty), eval(b, &empty)) {
                distribution::record_case(format_args!("{op:?} {} {}", sign(&x), sign(&y)));
            }
        }
    }
}

fn agrees_with_z3(t: Ground) -> TestResult {
    let Ok(value) = eval(&t.0, &Valuation::new()) else {
        return TestResult::discard();
    };
    let Value::Int(n) = value else {
        return TestResult::discard();
    };
    record_signs(&t.0);
    // Z3 alone decides `t ≠ n`: a model it gives is not re-checked by the
    // evaluator under test (that would turn a disagreement into `unknown`).
    let mut solver = Solver::new(TIMEOUT_MS);
    solver.assert(&Term::binary(BinOp::Ne, t.0.clone(), Term::int(n.clone())));
    match solver.check() {
        SatResult::Unsat => TestResult::passed(),
        SatResult::Unknown | SatResult::Interrupted => TestResult::discard(),
        SatResult::Sat => {
            TestResult::error(format!("the evaluator gives {} = {n}, Z3 disagrees", t.0))
        }
    }
}

/// Every operator with operands of every sign.
fn every_sign() -> Required {
    let cases: Vec<String> = INT_OPS
        .iter()
        .flat_map(|op| {
            let signs = ["negative", "zero", "positive"];
            signs
                .into_iter()
                .flat_map(move |x| signs.into_iter().map(move |y| format!("{op:?} {x} {y}")))
        })
        .collect();
    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
    Required::cases(&cases)
}

type GroundProperty = fn(Ground) -> TestResult;

#[test]
fn the_evaluator_agrees_with_z3_on_every_operator_and_sign() {
    holds_on(
        "the evaluator against Z3 on ground terms",
        crate::cases(),
        &every_sign(),
        agrees_with_z3 as GroundProperty,
    );
}

#[test]
fn a_division_wrong_for_negative_divisors_is_caught() {
    with_core_mutant(Mutant::DivisionFloorsNegativeDivisor, || {
        catches_on(
            "the evaluator with floor division against Z3",
            crate::cases(),
            &Required::nothing(),
            agrees_with_z3 as GroundProperty,
        )
    });
}

/// A heap of `N { next: N, val: int }` objects whose identities are a
/// random subset of `o1 … o8`: gaps in the numbering are the rule.
#[derive(Clone, Debug)]
struct GappedHeap(Heap);

fn node_fields() -> BTreeMap<Name, Sort> {
    [
        (Name::from("next"), Sort::Object("N".into())),
        (Name::from("val"), Sort::Int),
    ]
    .into_iter()
    .collect()
}

impl Arbitrary for GappedHeap {
    fn arbitrary(g: &mut Gen) -> GappedHeap {
        let ids: Vec<u32> = (1..=8).filter(|_| u8::arbitrary(g) % 3 == 0).collect();
        let mut heap = Heap::new();
        for &id in &ids {
            let next = match g.choose(&ids) {
                Some(&target) if bool::arbitrary(g) => Value::Object(Oid(target)),
                _ => Value::Nil,
            };
            let fields = [
                (Name::from("next"), next),
                (
                    Name::from("val"),
                    Value::Int(BigInt::from(i8::arbitrary(g))),
                ),
            ];
            heap = heap.insert(
                Oid(id),
                Object {
                    class: "N".into(),
                    fields: fields.into_iter().collect(),
                },
            );
        }
        GappedHeap(heap)
    }
}

fn allocation(heap: GappedHeap) -> TestResult {
    let old = heap.0;
    let largest = old.iter().map(|(o, _)| o.0).max().unwrap_or(0);
    let gaps = largest as usize > old.len();
    distribution::record_case(if gaps {
        "heap with gaps"
    } else {
        "heap without gaps"
    });
    let (o, new) = old.allocate(&"N".into(), &node_fields());
    if old.get(o).is_some() {
        return TestResult::error(format!("new object {o} overwrites one of {old}"));
    }
    if let Some((changed, _)) = old.iter().find(|(p, object)| new.get(**p) != Some(*object)) {
        return TestResult::error(format!("allocating {o} changed {changed}"));
    }
    let defaults = [("next", Value::Nil), ("val", Value::Int(BigInt::from(0)))];
    if defaults.iter().any(|(f, v)| new.field(o, f) != Some(v)) || new.len() != old.len() + 1 {
        return TestResult::error(format!(
            "{o} is not one new object with default fields: {new}"
        ));
    }
    TestResult::passed()
}

type HeapProperty = fn(GappedHeap) -> TestResult;

#[test]
fn allocation_takes_an_unused_identity_and_keeps_every_object() {
    holds_on(
        "allocation on heaps with gaps",
        crate::cases(),
        &Required::cases(&["heap with gaps", "heap without gaps"]),
        allocation as HeapProperty,
    );
}

#[test]
fn a_new_object_numbered_by_the_count_of_objects_is_caught() {
    with_core_mutant(Mutant::NewObjectNumberedByCount, || {
        catches_on(
            "allocation numbering by count",
            crate::cases(),
            &Required::nothing(),
            allocation as HeapProperty,
        )
    });
}

/// `ρ = n₁ := new N · x := n₁ · n₂ := new N · y := n₂`, then the test
/// `x = y` (or `x != y`): its condition `wp_ρ(x = y)` over the initial
/// state, which must be `false` (`true`): two created objects differ.
fn created_pair_condition(positive: bool) -> Term {
    let node = Sort::Object("N".into());
    let (n1, n2) = (oo::fresh::object("N", 1), oo::fresh::object("N", 2));
    let var = |x: &str| Term::var(x, node.clone());
    let actions = [
        Action::New(n1.clone(), "N".into()),
        Action::Assign(Location::Var("x".into(), node.clone()), var(&n1)),
        Action::New(n2.clone(), "N".into()),
        Action::Assign(Location::Var("y".into(), node.clone()), var(&n2)),
    ];
    let trace = actions
        .into_iter()
        .fold(oo::wp::Trace::new(), |rho, action| rho.then(action));
    let op = if positive { BinOp::Eq } else { BinOp::Ne };
    let test = Action::Test(Term::binary(op, var("x"), var("y")));
    trace.condition(&test, Checks::NIL)
}

/// Two created objects are different objects, in both comparisons; with
/// the mutant the one that must be `false` is not.
fn created_objects_differ() -> Result<(), String> {
    for (positive, expected) in [(true, false), (false, true)] {
        let condition = created_pair_condition(positive);
        if eval_bool(&condition, &Valuation::new()) != Ok(expected) {
            return Err(format!(
                "two created objects compared (positive: {positive}): {condition}"
            ));
        }
    }
    Ok(())
}

#[test]
fn two_created_objects_are_different_objects() {
    assert_eq!(created_objects_differ(), Ok(()));
}

#[test]
fn two_created_objects_compared_equal_are_caught() {
    // Theorem 4.5 (incremental wp) catches it on random traces too; the
    // direct check names the case.
    with_core_mutant(Mutant::CreatedObjectsEqual, || {
        assert!(
            created_objects_differ().is_err(),
            "the mutant went unnoticed"
        );
    });
}

/// A random consistent configuration of the pool (`oo_generators`).
fn same_state_sees(v: crate::oo_generators::Configuration, which: bool) -> TestResult {
    use symex::theorems::unfolding::same_state;
    let v = v.0;
    let corrupted = if which {
        let Some((o, object)) = v.heap.iter().next() else {
            return TestResult::discard();
        };
        let Some((f, value)) = object
            .fields
            .iter()
            .find(|(_, value)| value.as_int().is_some())
        else {
            return TestResult::discard();
        };
        let n = value.as_int().cloned().unwrap_or_default() + 1;
        distribution::record_case("heap corrupted");
        v.with_heap(
            v.heap
                .set_field(*o, f, Value::Int(n))
                .unwrap_or_else(|| v.heap.clone()),
        )
    } else {
        let Some((x, value)) = v.iter().find(|(_, value)| value.as_int().is_some()) else {
            return TestResult::discard();
        };
        let n = value.as_int().cloned().unwrap_or_default() + 1;
        distribution::record_case("variable corrupted");
        v.update(x.clone(), Value::Int(n))
    };
    if !same_state(&v, &v) {
        return TestResult::error("a state differs from itself".to_string());
    }
    if same_state(&v, &corrupted) {
        return TestResult::error(format!("corrupted state taken for the same: {corrupted:?}"));
    }
    TestResult::passed()
}

type ComponentProperty = fn(crate::oo_generators::Configuration, bool) -> TestResult;

#[test]
fn the_agreement_notices_a_corruption_of_each_component() {
    holds_on(
        "§4 agreement's comparison on corrupted states",
        crate::cases(),
        &Required::cases(&["heap corrupted", "variable corrupted"]),
        same_state_sees as ComponentProperty,
    );
}

#[test]
fn an_agreement_ignoring_the_heap_is_caught() {
    with_mutant(symex::mutants::Mutant::AgreementIgnoresHeap, || {
        catches_on(
            "§4 agreement ignoring the heap",
            crate::cases(),
            &Required::nothing(),
            same_state_sees as ComponentProperty,
        )
    });
}

/// The inputs `symex check` draws for the pool's program, each reference
/// tallied by its class and what it holds when that class has objects.
fn generated_inputs(seed: u64) -> TestResult {
    use rand::SeedableRng;
    let program = crate::oo_generators::program();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let v = symex::theorems::inputs::random_heap_inputs(&program, &mut rng);
    let globals = program
        .globals
        .iter()
        .filter_map(|(x, sort)| Some((sort.clone(), v.get(x)?.clone())));
    let fields = v.heap.iter().flat_map(|(_, object)| {
        let declared = program
            .classes
            .get(&object.class)
            .map(|c| c.fields.clone())
            .unwrap_or_default();
        object
            .fields
            .iter()
            .filter_map(|(f, value)| Some((declared.get(f)?.clone(), value.clone())))
            .collect::<Vec<_>>()
    });
    for (sort, value) in globals.chain(fields) {
        let Sort::Object(class) = sort else {
            continue;
        };
        if !v.heap.iter().any(|(_, object)| object.class == class) {
            continue;
        }
        let held = if value == Value::Nil {
            "nil"
        } else {
            "an object"
        };
        distribution::record_case(format_args!("{class} reference holds {held}"));
    }
    TestResult::passed()
}

fn generator_required() -> Required {
    Required::frequent(&[
        "N reference holds nil",
        "N reference holds an object",
        "P reference holds nil",
        "P reference holds an object",
    ])
}

#[test]
fn the_input_generator_chooses_nil_and_objects_for_every_class() {
    holds_on(
        "the input generator's distribution",
        crate::cases(),
        &generator_required(),
        generated_inputs as fn(u64) -> TestResult,
    );
}

#[test]
fn a_generator_that_never_chooses_nil_is_caught() {
    with_mutant(symex::mutants::Mutant::GeneratorNeverNil, || {
        crate::finds_uncovered(
            "the input generator never choosing nil",
            &generator_required(),
            generated_inputs as fn(u64) -> TestResult,
        )
    });
}
