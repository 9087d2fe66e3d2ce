//! Comparisons of a conditional with one of its branches, known without
//! egg ([`crate::simplify::folded_branch`]), against running egg: both
//! orientations, either branch, `=` and `!=`, Boolean units around them,
//! and near misses (both branches the operand, the condition turned round
//! being the other branch's comparison).

use super::generate::Case;
use super::known::{assert_caught, check, comparisons_in, turned_round};
use crate::mutants::Mutant;
use crate::simplify::{Shortcut, Simplifier};
use quickcheck::{Arbitrary, Gen};
use symex_semantics::term::{BinOp, Term, UnOp};

/// For the first comparisons `c` of `x` and pairs `t`, `u` of its
/// subterms of one sort: `if c then t else u fi op t` and the like.
fn compared_branches(x: Term) -> Vec<Term> {
    let nodes = x.nodes();
    let pairs: Vec<(&Term, &Term)> = nodes
        .iter()
        .zip(nodes.iter().skip(1))
        .chain(nodes.iter().zip(nodes.iter().skip(2)))
        .filter(|(t, u)| t.sort() == u.sort() && t != u)
        .take(3)
        .collect();
    let ite = |c: &Term, a: &Term, b: &Term| Term::ite(c.clone(), a.clone(), b.clone());
    let mut terms = Vec::new();
    for c in comparisons_in(&x).iter().take(2) {
        for &(t, u) in &pairs {
            for op in [BinOp::Eq, BinOp::Ne] {
                let compared = |a: Term, b: &Term| Term::binary(op, a, b.clone());
                terms.push(compared(ite(c, t, u), t));
                terms.push(compared(ite(c, u, t), t));
                terms.push(Term::binary(op, t.clone(), ite(c, u, t)));
                terms.push(compared(ite(c, t, t), t));
            }
        }
    }
    for &(t, u) in &pairs {
        // The condition turned round is the other branch's comparison.
        let equal = Term::binary(BinOp::Eq, u.clone(), t.clone());
        terms.push(Term::binary(BinOp::Ne, ite(&equal, t, u), t.clone()));
        let differ = turned_round(&equal);
        terms.push(Term::binary(BinOp::Eq, ite(&differ, u, t), t.clone()));
    }
    let units: Vec<Term> = terms
        .iter()
        .step_by(3)
        .flat_map(|t| {
            [
                Term::binary(BinOp::Or, Term::bool(false), t.clone()),
                Term::binary(BinOp::And, t.clone(), Term::bool(true)),
            ]
        })
        .collect();
    terms.extend(units);
    terms
}

#[test]
fn conditionals_compared_with_a_branch_are_known_without_egg() {
    let counts = check(60, compared_branches);
    assert!(
        counts.differing.is_empty(),
        "results known without egg differ:\n{}",
        counts.differing.join("\n")
    );
    assert!(
        counts.folded_branches * 8 >= counts.terms,
        "{} folded branches in {} terms",
        counts.folded_branches,
        counts.terms
    );
}

#[test]
fn taking_the_other_branch_for_quiet_unchecked_is_caught() {
    assert_caught(Mutant::KnownBranchOtherUnchecked, 60, compared_branches);
}

/// The negations of [`compared_branches`]: `!x` and `!(false || x)`.
fn negated_branches(x: Term) -> Vec<Term> {
    compared_branches(x)
        .into_iter()
        .map(|t| Term::unary(UnOp::Not, t))
        .collect()
}

#[test]
fn negated_conditionals_compared_with_a_branch_are_known_without_egg() {
    let counts = check(60, negated_branches);
    assert!(
        counts.differing.is_empty(),
        "results known without egg differ:\n{}",
        counts.differing.join("\n")
    );
    assert!(
        counts.folded_branches * 40 >= counts.terms,
        "{} folded branches in {} terms",
        counts.folded_branches,
        counts.terms
    );
}

#[test]
fn taking_the_negation_turned_round_whatever_its_length_is_caught() {
    assert_caught(
        Mutant::KnownNegatedBranchWhateverItsLength,
        60,
        negated_branches,
    );
}

/// One simplifier for all the terms made from a random term, as in an
/// exploration: the quiet checks' memo answers for branches met before.
#[test]
fn branches_known_by_one_simplifier_are_egg_s() {
    let mut g = Gen::from_size_and_seed(12, 0x5EED_2021);
    let (mut terms, mut known, mut differing) = (0, 0, Vec::new());
    for _ in 0..40 {
        let term = Case::arbitrary(&mut g).shape.term();
        let mut shared = Simplifier::new();
        let shapes = compared_branches(term.clone());
        for t in shapes.iter().cloned().chain(negated_branches(term)) {
            let ours = shared.run(&t, false);
            let plain = Simplifier::without(Shortcut::Egg).run(&t, false);
            terms += 1;
            if (&ours.term, ours.stop) != (&plain.term, plain.stop) {
                differing.push(format!("{t}: {} vs {}", ours.term, plain.term));
            }
        }
        known += shared.taken().folded_branches;
    }
    assert!(differing.is_empty(), "{}", differing.join("\n"));
    assert!(
        known * 20 >= terms,
        "{known} folded branches in {terms} terms"
    );
}
