//! Results known without egg ([`crate::simplify::known`]) against running
//! egg on every term: random terms and their simplifications (mostly
//! quiet, some reordered by the normal form), Boolean units around both,
//! and the comparisons in them implying themselves.

use super::generate::Case;
use crate::mutants::{self, Mutant};
use crate::simplify::{Shortcut, Simplification, Simplifier};
use quickcheck::{Arbitrary, Gen};
use symex_semantics::term::{BinOp, Sort, Term, TermKind, UnOp};

#[derive(Default)]
pub(super) struct Known {
    pub(super) terms: usize,
    known: usize,
    /// Of those, comparisons of a conditional with one of its branches.
    pub(super) folded_branches: usize,
    /// Of those, implications with a comparison for premise.
    pub(super) implications: usize,
    /// Of those, two comparisons joined, one inside a unit.
    nested_units: usize,
    pub(super) differing: Vec<String>,
}

/// The terms a shortcut is tried on, made from one random term.
pub(super) type Shapes = fn(Term) -> Vec<Term>;

fn itself(x: Term) -> Vec<Term> {
    vec![x]
}

/// The four Boolean units around `x`, and the two zeros.
fn units(x: Term) -> Vec<Term> {
    if x.sort() != Sort::Bool {
        return Vec::new();
    }
    let or = |a, b| Term::binary(BinOp::Or, a, b);
    let and = |a, b| Term::binary(BinOp::And, a, b);
    vec![
        or(Term::bool(false), x.clone()),
        or(x.clone(), Term::bool(false)),
        and(Term::bool(true), x.clone()),
        and(x.clone(), Term::bool(true)),
        or(Term::bool(true), x.clone()),
        and(x, Term::bool(false)),
    ]
}

/// `a ==> a`, `a ==> true && a` and `a ==> a && true` for each comparison
/// `a` in `x`, and `a ==> c && a` with `c` the comparison before it.
fn self_implications(x: Term) -> Vec<Term> {
    let implies = |a: &Term, b| Term::binary(BinOp::Implies, a.clone(), b);
    let and = |a, b| Term::binary(BinOp::And, a, b);
    comparison_pairs(&x)
        .into_iter()
        .flat_map(|(a, c)| {
            [
                implies(&a, a.clone()),
                implies(&a, and(Term::bool(true), a.clone())),
                implies(&a, and(a.clone(), Term::bool(true))),
                implies(&a, and(c, a.clone())),
            ]
        })
        .collect()
}

/// `!(a && b)` and `!(a || b)` for each comparison `a` in `x` and `b` the
/// one before it, and the near misses `!(a && a)` and `!(a || !a)` turned
/// round (`a' = b`: egg finds a contradiction or the excluded middle).
fn negated_pairs(x: Term) -> Vec<Term> {
    let not =
        |op, a: &Term, b: &Term| Term::unary(UnOp::Not, Term::binary(op, a.clone(), b.clone()));
    comparison_pairs(&x)
        .into_iter()
        .flat_map(|(a, b)| {
            let turned = turned_round(&a);
            [
                not(BinOp::And, &a, &b),
                not(BinOp::Or, &a, &b),
                not(BinOp::And, &b, &a),
                not(BinOp::And, &a, &a),
                not(BinOp::Or, &a, &turned),
                not(BinOp::And, &turned, &a),
            ]
        })
        .collect()
}

/// `!a` as the comparison it is turned round into (`not-lt` and the like).
pub(super) fn turned_round(a: &Term) -> Term {
    let TermKind::Binary(op, l, r) = a.kind() else {
        return a.clone();
    };
    let (l, r) = (l.clone(), r.clone());
    match op {
        BinOp::Lt => Term::binary(BinOp::Le, r, l),
        BinOp::Le => Term::binary(BinOp::Lt, r, l),
        BinOp::Gt => Term::binary(BinOp::Le, l, r),
        BinOp::Ge => Term::binary(BinOp::Lt, l, r),
        BinOp::Eq => Term::binary(BinOp::Ne, l, r),
        _ => Term::binary(BinOp::Eq, l, r),
    }
}

pub(super) fn comparisons_in(x: &Term) -> Vec<Term> {
    x.nodes()
        .into_iter()
        .filter(|a| matches!(a.kind(), TermKind::Binary(op, ..) if op.is_comparison()))
        .collect()
}

/// Each comparison in `x` with the one before it (the last before the
/// first).
fn comparison_pairs(x: &Term) -> Vec<(Term, Term)> {
    let comparisons = comparisons_in(x);
    let before = comparisons
        .iter()
        .cycle()
        .skip(comparisons.len().saturating_sub(1));
    comparisons.iter().cloned().zip(before.cloned()).collect()
}

pub(super) fn check(cases: usize, shapes: Shapes) -> Known {
    let mut g = Gen::from_size_and_seed(12, 0x5EED_2021);
    let mut counts = Known::default();
    for _ in 0..cases {
        let term = Case::arbitrary(&mut g).shape.term();
        let simplified = Simplifier::without(Shortcut::Egg).run(&term, false).term;
        for term in [term, simplified].into_iter().flat_map(shapes) {
            compare(&term, &mut counts);
        }
    }
    counts
}

fn compare(term: &Term, counts: &mut Known) {
    let mut knowing = Simplifier::new();
    let known = knowing.run(term, false);
    let plain = Simplifier::without(Shortcut::Egg).run(term, false);
    counts.terms += 1;
    counts.known += knowing.taken().known;
    counts.folded_branches += knowing.taken().folded_branches;
    counts.implications += knowing.taken().implications;
    counts.nested_units += knowing.taken().nested_units;
    let shown = |s: &Simplification| format!("{} ({})", s.term, s.stop);
    if shown(&known) != shown(&plain) {
        counts
            .differing
            .push(format!("{term}: {}  vs  {}", shown(&known), shown(&plain)));
    }
}

impl Known {
    /// Nothing changed, and the shortcut was taken for one term in `one_in`.
    pub(super) fn assert_exact(&self, one_in: usize) {
        assert!(
            self.differing.is_empty(),
            "results known without egg differ:\n{}",
            self.differing.join("\n")
        );
        assert!(
            self.known * one_in >= self.terms,
            "{} results known without egg in {} terms",
            self.known,
            self.terms
        );
    }
}

#[test]
fn normal_forms_no_rule_rewrites_are_known_without_egg() {
    check(400, itself).assert_exact(50);
}

#[test]
fn boolean_units_around_quiet_terms_are_known_without_egg() {
    check(400, units).assert_exact(5);
}

#[test]
fn comparisons_implying_themselves_are_known_without_egg() {
    check(200, self_implications).assert_exact(5);
}

#[test]
fn negated_pairs_of_comparisons_are_known_without_egg() {
    check(200, negated_pairs).assert_exact(10);
}

pub(super) fn assert_caught(mutant: Mutant, cases: usize, shapes: Shapes) {
    mutants::set(Some(mutant));
    let counts = check(cases, shapes);
    mutants::set(None);
    assert!(
        !counts.differing.is_empty(),
        "no difference from {mutant:?} in {} terms",
        counts.terms
    );
}

#[test]
fn taking_the_normal_form_unchecked_is_caught() {
    assert_caught(Mutant::KnownNormalFormUnchecked, 400, itself);
}

#[test]
fn taking_a_zero_for_a_unit_is_caught() {
    assert_caught(Mutant::KnownZeroTakenForUnit, 100, units);
}

#[test]
fn dropping_a_conjunct_of_the_conclusion_is_caught() {
    assert_caught(Mutant::KnownConjunctDropped, 100, self_implications);
}

#[test]
fn pushing_a_negation_whatever_its_length_is_caught() {
    assert_caught(Mutant::KnownPushedWhateverItsLength, 100, negated_pairs);
}

#[test]
fn taking_a_new_comparison_for_quiet_unchecked_is_caught() {
    assert_caught(Mutant::KnownJoinedUnchecked, 200, negated_pairs);
}

/// The known answers are argued for the standard rules: with another set
/// (a mutated rule added, as the soundness tests do) every term runs egg.
#[test]
fn other_rules_always_run_egg() {
    use crate::simplify::{Limits, RULES};
    let x = Term::var("x", Sort::Int);
    let guard = Term::binary(BinOp::Lt, x.clone(), Term::int(3));
    let unit = Term::binary(BinOp::Or, Term::bool(false), guard);
    let mut standard = Simplifier::new();
    standard.simplify(&unit);
    assert_eq!(
        standard.taken().known,
        1,
        "the standard rules know `false || x < 3`"
    );
    let mut rules = RULES.to_vec();
    rules.push(RULES[0]);
    let mut other = Simplifier::with_rules(&rules, Limits::default());
    other.simplify(&unit);
    assert_eq!(
        other.taken().known,
        0,
        "another rule set took a known answer"
    );
}

/// For each comparison `a` in `x` and `b` the one before it, `a` and `b`
/// joined with `b` inside each Boolean unit, both ways round and with
/// both connectives, and the near misses where `b` is `a` or its
/// negation turned round (a normal form that is a literal: the excluded
/// middle, a contradiction).
fn nested_units(x: Term) -> Vec<Term> {
    let joined = |op, a: &Term, u: &Term| {
        [
            Term::binary(op, a.clone(), u.clone()),
            Term::binary(op, u.clone(), a.clone()),
        ]
    };
    comparison_pairs(&x)
        .into_iter()
        .flat_map(|(a, b)| {
            let turned = turned_round(&a);
            [b, a.clone(), turned]
                .into_iter()
                .flat_map(units)
                .flat_map(|u| [joined(BinOp::And, &a, &u), joined(BinOp::Or, &a, &u)])
                .flatten()
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn comparisons_joined_inside_a_unit_are_known_without_egg() {
    let counts = check(150, nested_units);
    counts.assert_exact(10);
    assert!(
        counts.nested_units * 20 >= counts.terms,
        "{} of {} terms known as nested units",
        counts.nested_units,
        counts.terms
    );
}

#[test]
fn a_nested_unit_taken_whatever_its_normal_form_is_caught() {
    assert_caught(
        Mutant::KnownNestedUnitWhateverItsNormalForm,
        150,
        nested_units,
    );
}
