//! The simplifier's normal form checked against the raw term by Z3. Every
//! printed condition and state goes through it: linear comparisons are
//! collected, divided by the gcd of their coefficients (`2 * x <= 3` is
//! `x <= 1`), bounds merged, conditionals pushed into comparisons. On
//! random conditions built to reach those steps — comparisons of linear
//! forms with coefficients other than ±1 and often a common factor that
//! does not divide the constant, conditionals nested in operands and in
//! the conditions of other conditionals, negations and disjunctions —
//! both the one-shot [`simplify`] and the incremental [`Simplifier`] the
//! explorer uses must give a condition Z3 proves equivalent to the raw
//! one. A gcd rounding error ([`Mutant::GcdRoundsUp`]) is caught.

use crate::distribution::{self, Required};
use crate::mutated::with_mutant;
use crate::{catches_on, holds_on, TIMEOUT_MS};
use quickcheck::{Arbitrary, Gen, TestResult};
use std::fmt;
use symex::mutants::Mutant;
use symex::simplify::{simplify, Simplifier};
use symex::solver::{prove, Proof};
use symex_semantics::term::{BinOp, Sort, Term, TermKind, UnOp};

const VARIABLES: [&str; 3] = ["x", "y", "z"];
const COMPARISONS: [BinOp; 6] = [
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
    BinOp::Eq,
    BinOp::Ne,
];

/// A raw condition, as a path condition or guard would hold it.
#[derive(Clone)]
struct Condition(Term);

impl fmt::Debug for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

fn small(g: &mut Gen, bound: i64) -> i64 {
    i64::from(i8::arbitrary(g)).rem_euclid(2 * bound + 1) - bound
}

/// `k₁ * x + k₂ * y + …` with coefficients sharing a factor `common`, or
/// (with nesting left) a conditional between two such forms.
fn linear(g: &mut Gen, common: i64, nesting: usize) -> Term {
    if nesting > 0 && u8::arbitrary(g) % 3 == 0 {
        distribution::record_case("conditional operand");
        let condition = comparison(g, nesting - 1);
        return Term::ite(
            condition,
            linear(g, common, nesting - 1),
            linear(g, common, nesting - 1),
        );
    }
    let mut sum: Option<Term> = None;
    for name in VARIABLES {
        if bool::arbitrary(g) {
            continue;
        }
        let factor = *g.choose(&[-2, -1, 1, 2]).unwrap_or(&1);
        let coefficient = common * factor;
        if coefficient.abs() != 1 {
            distribution::record_case("non-unit coefficient");
        }
        let monomial = Term::binary(
            BinOp::Mul,
            Term::int(coefficient),
            Term::var(name, Sort::Int),
        );
        sum = Some(match sum {
            Some(sum) => Term::binary(BinOp::Add, sum, monomial),
            None => monomial,
        });
    }
    sum.unwrap_or_else(|| Term::binary(BinOp::Mul, Term::int(common), Term::var("x", Sort::Int)))
}

/// `L op k`, sometimes negated.
fn comparison(g: &mut Gen, nesting: usize) -> Term {
    let common = *g.choose(&[1, 2, 3, 4]).unwrap_or(&1);
    let left = linear(g, common, nesting);
    let op = *g.choose(&COMPARISONS).unwrap_or(&BinOp::Le);
    let k = small(g, 9);
    if common > 1 && k % common != 0 && !matches!(left.kind(), TermKind::Ite(..)) {
        distribution::record_case(format_args!(
            "common factor not dividing the constant, {op:?}"
        ));
    }
    if nesting < 2 && matches!(left.kind(), TermKind::Ite(..)) {
        distribution::record_case("nested conditional");
    }
    let atom = Term::binary(op, left, Term::int(k));
    if u8::arbitrary(g) % 4 == 0 {
        distribution::record_case("negation");
        Term::unary(UnOp::Not, atom)
    } else {
        atom
    }
}

impl Arbitrary for Condition {
    fn arbitrary(g: &mut Gen) -> Condition {
        let count = 1 + usize::from(u8::arbitrary(g) % 4);
        let conjuncts = (0..count).map(|_| {
            let atom = comparison(g, 2);
            if u8::arbitrary(g) % 5 == 0 {
                distribution::record_case("disjunction");
                Term::binary(BinOp::Or, atom, comparison(g, 2))
            } else {
                atom
            }
        });
        let conjunction = conjuncts
            .reduce(|a, b| Term::binary(BinOp::And, a, b))
            .unwrap_or_else(|| Term::bool(true));
        Condition(conjunction)
    }
}

/// Z3 on `raw ⇔ simplified`: an error names the two and the point they differ at.
fn equivalent(how: &str, raw: &Term, simplified: &Term) -> Result<(), String> {
    let both = Term::and(
        Term::implies(raw.clone(), simplified.clone()),
        Term::implies(simplified.clone(), raw.clone()),
    );
    match prove(&both, &raw.free_vars(), TIMEOUT_MS) {
        Proof::Valid => {
            distribution::record_case(format_args!("{how} proved equivalent"));
            Ok(())
        }
        Proof::Counterexample(v) => Err(format!(
            "{how}: {raw} simplified to {simplified}, which differs at {v:?}"
        )),
        Proof::Unknown | Proof::Interrupted => Ok(()),
    }
}

fn normal_form_is_equivalent(condition: Condition) -> TestResult {
    let raw = &condition.0;
    let checks = [
        equivalent("one-shot", raw, &simplify(raw)),
        equivalent("incremental", raw, &Simplifier::new().simplify(raw)),
    ];
    match checks.into_iter().collect::<Result<Vec<()>, String>>() {
        Ok(_) => TestResult::passed(),
        Err(why) => TestResult::error(why),
    }
}

fn required() -> Required {
    Required::cases(&[
        "non-unit coefficient",
        "common factor not dividing the constant, Le",
        "common factor not dividing the constant, Gt",
        "common factor not dividing the constant, Lt",
        "common factor not dividing the constant, Ge",
        "conditional operand",
        "nested conditional",
        "negation",
        "disjunction",
        "one-shot proved equivalent",
        "incremental proved equivalent",
    ])
}

type Property = fn(Condition) -> TestResult;

#[test]
fn the_normal_form_is_equivalent_to_the_raw_condition() {
    holds_on(
        "the simplifier's normal form against Z3",
        crate::cases() / 2,
        &required(),
        normal_form_is_equivalent as Property,
    );
}

#[test]
fn a_gcd_rounding_error_in_the_normal_form_is_caught() {
    with_mutant(Mutant::GcdRoundsUp, || {
        catches_on(
            "the simplifier with gcd rounding up against Z3",
            crate::cases() / 2,
            &Required::nothing(),
            normal_form_is_equivalent as Property,
        )
    });
}
