//! Implications with a comparison for premise, known without egg
//! ([`crate::simplify::implication`]), against running egg: `a ==> q` for
//! the comparisons `a` and Boolean subterms `q` of random terms, `!a ==>
//! a'`, and near misses (`a ==> a'`, `!a ==> a`, `q` holding `a'`).

use super::known::{assert_caught, check, comparisons_in, turned_round};
use crate::mutants::Mutant;
use symex_semantics::term::{BinOp, Sort, Term, UnOp};

fn implications(x: Term) -> Vec<Term> {
    let implies = |a: &Term, b: &Term| Term::binary(BinOp::Implies, a.clone(), b.clone());
    let booleans: Vec<Term> = x
        .nodes()
        .into_iter()
        .filter(|q| q.sort() == Sort::Bool)
        .rev()
        .take(4)
        .collect();
    let mut terms = Vec::new();
    for a in comparisons_in(&x).iter().take(3) {
        let turned = turned_round(a);
        let not = Term::unary(UnOp::Not, a.clone());
        for q in &booleans {
            terms.push(implies(a, q));
            terms.push(implies(&turned, q));
            terms.push(implies(
                a,
                &Term::binary(BinOp::And, q.clone(), turned.clone()),
            ));
        }
        terms.push(implies(&not, &turned));
        terms.push(implies(&Term::unary(UnOp::Not, turned.clone()), a));
        terms.push(implies(&not, a));
        terms.push(implies(a, &turned));
    }
    terms
}

#[test]
fn implications_of_comparisons_are_known_without_egg() {
    let counts = check(100, implications);
    assert!(
        counts.differing.is_empty(),
        "results known without egg differ:\n{}",
        counts.differing.join("\n")
    );
    assert!(
        counts.implications * 20 >= counts.terms,
        "{} implications known in {} terms",
        counts.implications,
        counts.terms
    );
}

#[test]
fn turning_an_implication_whatever_its_length_is_caught() {
    assert_caught(Mutant::KnownImplicationWhateverItsLength, 100, implications);
}
