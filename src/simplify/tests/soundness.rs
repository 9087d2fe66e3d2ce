//! The simplifier never changes a term's meaning, checked three ways, each
//! shown to catch deliberately unsound rules ([`MUTANT`], [`MUTANT_ITE`];
//! the rule check also [`MUTANT_COMMUTE`], which only a heap refutes):
//! 1. every rule, on random instances of its two sides and random
//!    valuations with random heaps (objects, `nil`, fields);
//! 2. `V(simplify(e)) = V(e)` on random terms (division and modulo by zero,
//!    negative operands) and on random conjunctions of bounds;
//! 3. Z3 proves `e = simplify(e)` on random terms.

use super::generate::{Case, Inputs, Kind, Shape, KINDS};
use crate::simplify::fold::constant;
use crate::simplify::language::{to_term, Node};
use crate::simplify::rules::{Matched, MUTANT, MUTANT_COMMUTE, MUTANT_ITE};
use crate::simplify::{Limits, Rule, Simplifier, RULES};
use crate::solver::{prove, Proof};
use egg::{ENodeOrVar, PatternAst, Var};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use std::collections::HashMap;
use symex_semantics::eval::eval;
use symex_semantics::term::{BinOp, Sort, Term, TermKind, UnOp};

const SEED: u64 = 0x5EED_2021;
const SIZE: usize = 12;

fn checker(tests: u64) -> QuickCheck {
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(SIZE, SEED))
        .tests(tests)
        .max_tests(tests * 4)
}

fn with_mutant(mutant: Rule) -> Simplifier {
    let mut rules = RULES.to_vec();
    rules.push(mutant);
    Simplifier::with_rules(&rules, Limits::default())
}

/// `pattern` with its variables replaced by the terms of `subst`.
fn instantiate(pattern: &PatternAst<Node>, subst: &HashMap<Var, Term>) -> Term {
    let mut terms: Vec<Term> = Vec::new();
    for node in pattern.as_ref() {
        let term = match node {
            ENodeOrVar::Var(var) => subst[var].clone(),
            ENodeOrVar::ENode(node) => {
                let children: Vec<Term> = egg::Language::children(node)
                    .iter()
                    .map(|&id| terms[usize::from(id)].clone())
                    .collect();
                to_term(node, &children)
            }
        };
        terms.push(term);
    }
    terms.pop().unwrap_or_else(|| Term::bool(true))
}

/// Whether every node of `term` has operands of the sorts its operator takes.
fn well_typed(term: &Term) -> bool {
    term.nodes().iter().all(|node| {
        let sorts: Vec<Sort> = node.children().iter().map(|child| child.sort()).collect();
        match (node.kind(), &sorts[..]) {
            (TermKind::Unary(UnOp::Neg, _), [Sort::Int])
            | (TermKind::Unary(UnOp::Not, _), [Sort::Bool]) => true,
            (
                TermKind::Binary(BinOp::And | BinOp::Or | BinOp::Implies, ..),
                [Sort::Bool, Sort::Bool],
            ) => true,
            (TermKind::Binary(BinOp::Eq | BinOp::Ne, ..), [l, r]) => l == r,
            (TermKind::Binary(..), [Sort::Int, Sort::Int]) => true,
            (TermKind::Ite(..), [Sort::Bool, t, e]) => t == e,
            (TermKind::Select(..), [Sort::Array(_), Sort::Int]) => true,
            (TermKind::Field(..), [Sort::Object(_)]) => true,
            (TermKind::Store(..), [Sort::Array(element), Sort::Int, v]) => **element == *v,
            (_, []) => true,
            _ => false,
        }
    })
}

/// The sorts of `vars` under which `pattern` is well-typed.
fn well_typed_kinds(pattern: &PatternAst<Node>, vars: &[Var]) -> Vec<Vec<Kind>> {
    let mut typings = vec![Vec::new()];
    for _ in vars {
        typings = typings
            .into_iter()
            .flat_map(|prefix: Vec<Kind>| KINDS.map(|kind| [prefix.clone(), vec![kind]].concat()))
            .collect();
    }
    typings.retain(|kinds| {
        let subst = vars
            .iter()
            .zip(kinds)
            .map(|(&v, &kind)| (v, Shape::Var(leaf_name(kind), kind).term()))
            .collect();
        well_typed(&instantiate(pattern, &subst))
    });
    typings
}

fn leaf_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Int => "x",
        Kind::Bool => "b",
        Kind::Array => "a",
        Kind::Object => "o",
    }
}

/// A valuation under which `rule`'s sides differ (with `lhs` defined and
/// the condition met), and how many instances agreed before it.
fn rule_counterexample(rule: &Rule, g: &mut Gen, trials: usize) -> (usize, Option<String>) {
    let lhs: PatternAst<Node> = rule.lhs.parse().expect("rules parse");
    let rhs: PatternAst<Node> = rule.rhs.parse().expect("rules parse");
    let mut vars: Vec<Var> = lhs
        .as_ref()
        .iter()
        .filter_map(|n| {
            if let ENodeOrVar::Var(v) = n {
                Some(*v)
            } else {
                None
            }
        })
        .collect();
    vars.dedup();
    vars.sort();
    vars.dedup();
    let typings = well_typed_kinds(&lhs, &vars);
    let mut agreed = 0;
    for _ in 0..trials {
        let Some(kinds) = g.choose(&typings) else {
            break;
        };
        let subst: HashMap<Var, Term> = vars
            .iter()
            .zip(kinds)
            .map(|(&v, &kind)| {
                let budget = usize::from(u8::arbitrary(g) % 3);
                (v, Shape::generate(g, kind, budget).term())
            })
            .collect();
        let (left, right) = (instantiate(&lhs, &subst), instantiate(&rhs, &subst));
        let condition = rule.condition.is_none_or(|c| {
            c.holds(|name| {
                let term = &subst[&name.parse::<Var>().ok()?];
                Some(Matched {
                    constant: constant(term),
                    conditional: matches!(term.kind(), TermKind::Ite(..)),
                })
            })
        });
        if !condition || !well_typed(&left) {
            continue;
        }
        for _ in 0..4 {
            let v = Inputs::arbitrary(g).valuation();
            let Ok(value) = eval(&left, &v) else { continue };
            if eval(&right, &v) != Ok(value) {
                return (agreed, Some(format!("{left}  ≠  {right}  under {v:?}")));
            }
            agreed += 1;
        }
    }
    (agreed, None)
}

#[test]
fn every_rule_holds_on_random_instances() {
    let mut g = Gen::from_size_and_seed(SIZE, SEED);
    for rule in RULES {
        let (agreed, counterexample) = rule_counterexample(rule, &mut g, 400);
        assert_eq!(
            counterexample, None,
            "rule {} is unsound (seed {SEED:#x})",
            rule.name
        );
        assert!(
            agreed >= 20,
            "rule {} was checked on only {agreed} well-typed instances",
            rule.name
        );
    }
}

#[test]
fn the_rule_check_catches_the_mutant() {
    let mut g = Gen::from_size_and_seed(SIZE, SEED);
    let (_, counterexample) = rule_counterexample(&MUTANT, &mut g, 400);
    assert!(
        counterexample.is_some(),
        "the mutant `(a * d) / d → a` went unnoticed"
    );
}

#[test]
fn the_rule_check_catches_the_conditional_mutant() {
    let mut g = Gen::from_size_and_seed(SIZE, SEED);
    let (_, counterexample) = rule_counterexample(&MUTANT_ITE, &mut g, 400);
    assert!(
        counterexample.is_some(),
        "the mutant `(if c then a else b fi = d) → a = d` went unnoticed"
    );
}

/// `a && b → b && a` changes no value of defined operands: only a `nil`
/// dereference in a random heap shows it unsound.
#[test]
fn the_rule_check_catches_the_commuting_mutant_through_nil() {
    let mut g = Gen::from_size_and_seed(SIZE, SEED);
    let (_, counterexample) = rule_counterexample(&MUTANT_COMMUTE, &mut g, 400);
    let counterexample = counterexample.expect("the mutant `a && b → b && a` went unnoticed");
    assert!(
        counterexample.contains(".f") || counterexample.contains(".next"),
        "the counterexample reads no field: {counterexample}"
    );
}

/// `V(simplify(e)) = V(e)` wherever `V(e)` is defined.
fn agrees(simplifier: &mut Simplifier, case: &Case) -> TestResult {
    let term = case.shape.term();
    let simplified = simplifier.run(&term, false).term;
    let v = case.inputs.valuation();
    match eval(&term, &v) {
        Ok(value) => TestResult::from_bool(eval(&simplified, &v) == Ok(value)),
        Err(_) => TestResult::discard(),
    }
}

#[test]
fn simplification_preserves_every_value() {
    fn sound(case: Case) -> TestResult {
        agrees(&mut Simplifier::new(), &case)
    }
    checker(1000).quickcheck(sound as fn(Case) -> TestResult);
}

#[test]
fn the_value_check_catches_the_mutant() {
    fn sound_with_mutant(case: Case) -> TestResult {
        agrees(&mut with_mutant(MUTANT), &case)
    }
    let caught = checker(1000).quicktest(sound_with_mutant as fn(Case) -> TestResult);
    assert!(
        caught.is_err(),
        "the mutant `(a * d) / d → a` went unnoticed"
    );
}

#[test]
fn the_value_check_catches_the_conditional_mutant() {
    fn sound_with_mutant(case: Case) -> TestResult {
        agrees(&mut with_mutant(MUTANT_ITE), &case)
    }
    let caught = checker(1000).quicktest(sound_with_mutant as fn(Case) -> TestResult);
    assert!(
        caught.is_err(),
        "the mutant `(if c then a else b fi = d) → a = d` went unnoticed"
    );
}

/// A conjunction of comparisons of `x`, `y`, `x + y`, `x - y` with small
/// constants, some negated: what the bound-merging normal form works on.
#[derive(Clone, Debug)]
struct Bounds {
    conjuncts: Vec<(u8, BinOp, i64, bool)>,
    inputs: Inputs,
}

impl Arbitrary for Bounds {
    fn arbitrary(g: &mut Gen) -> Bounds {
        let ops = BinOp::COMPARISONS;
        let count = 1 + usize::from(u8::arbitrary(g) % 5);
        let conjuncts = (0..count)
            .map(|_| {
                (
                    u8::arbitrary(g) % 4,
                    *g.choose(&ops).unwrap_or(&BinOp::Lt),
                    i64::from(i8::arbitrary(g) % 4),
                    bool::arbitrary(g),
                )
            })
            .collect();
        Bounds {
            conjuncts,
            inputs: Inputs::arbitrary(g),
        }
    }
}

impl Bounds {
    fn term(&self) -> Term {
        let (x, y) = (Term::var("x", Sort::Int), Term::var("y", Sort::Int));
        let forms = [
            x.clone(),
            y.clone(),
            Term::binary(BinOp::Add, x.clone(), y.clone()),
            Term::binary(BinOp::Sub, x, y),
        ];
        let conjunct = |&(form, op, k, negated): &(u8, BinOp, i64, bool)| {
            let comparison = Term::binary(op, forms[usize::from(form)].clone(), Term::int(k));
            if negated {
                Term::unary(UnOp::Not, comparison)
            } else {
                comparison
            }
        };
        self.conjuncts
            .iter()
            .map(conjunct)
            .reduce(|a, b| Term::binary(BinOp::And, a, b))
            .unwrap_or_else(|| Term::bool(true))
    }
}

#[test]
fn merged_bounds_preserve_every_value() {
    fn sound(bounds: Bounds) -> bool {
        let term = bounds.term();
        let v = bounds.inputs.valuation();
        let whole = Simplifier::new().run(&term, false).term;
        let incremental = Simplifier::new().simplify(&term);
        eval(&whole, &v) == eval(&term, &v) && eval(&incremental, &v) == eval(&term, &v)
    }
    checker(1000).quickcheck(sound as fn(Bounds) -> bool);
}

/// Z3's verdict on `e = simplify(e)`: `Some(false)` for a counterexample,
/// `None` when it gives up (nonlinear arithmetic).
fn proved(simplifier: &mut Simplifier, case: &Case) -> Option<bool> {
    let term = case.shape.term();
    let simplified = simplifier.run(&term, false).term;
    match prove(
        &Term::binary(BinOp::Eq, term.clone(), simplified),
        &term.free_vars(),
        2_000,
    ) {
        Proof::Valid => Some(true),
        Proof::Counterexample(_) => Some(false),
        Proof::Unknown | Proof::Interrupted => None,
    }
}

#[test]
fn z3_proves_each_simplification() {
    let mut g = Gen::from_size_and_seed(SIZE, SEED);
    let (mut valid, mut unknown) = (0, 0);
    for _ in 0..150 {
        let case = Case::arbitrary(&mut g);
        match proved(&mut Simplifier::new(), &case) {
            Some(true) => valid += 1,
            Some(false) => panic!(
                "Z3 refutes `{} = simplify(…)` (seed {SEED:#x})",
                case.shape.term()
            ),
            None => unknown += 1,
        }
    }
    assert!(
        valid >= 120,
        "Z3 proved only {valid} of 150 simplifications ({unknown} unknown)"
    );
}

#[test]
fn the_z3_check_catches_the_mutant() {
    let mut g = Gen::from_size_and_seed(SIZE, SEED);
    let refuted =
        (0..300).any(|_| proved(&mut with_mutant(MUTANT), &Case::arbitrary(&mut g)) == Some(false));
    assert!(
        refuted,
        "Z3 found no counterexample to the mutant `(a * d) / d → a`"
    );
}

#[test]
fn the_z3_check_catches_the_conditional_mutant() {
    let mut g = Gen::from_size_and_seed(SIZE, SEED);
    let refuted = (0..300)
        .any(|_| proved(&mut with_mutant(MUTANT_ITE), &Case::arbitrary(&mut g)) == Some(false));
    assert!(
        refuted,
        "Z3 found no counterexample to the mutant `(if c then a else b fi = d) → a = d`"
    );
}
