//! First rounds left out, or the whole e-graph, where no rule can rewrite
//! a term ([`crate::simplify::unmatched`]), against running egg on every term.

use super::generate::Case;
use crate::mutants::{self, Mutant};
use crate::simplify::{Shortcut, Simplifier};
use quickcheck::{Arbitrary, Gen};
use symex_semantics::term::{BinOp, Sort, Term};

/// What leaving out first rounds did on random terms, each simplified
/// plainly and with its explanation.
#[derive(Default)]
struct Skipped {
    terms: usize,
    /// First rounds left out (the whole e-graph, where the normal form
    /// leaves the term alone and nothing is explained).
    skipped: [usize; 2],
    differing: Vec<String>,
}

/// Each of `cases` random terms, and what the plain simplifier makes of
/// it (mostly terms no rule rewrites), simplified with the check and with
/// egg run on every term.
fn check(cases: usize) -> Skipped {
    let mut g = Gen::from_size_and_seed(12, 0x5EED_2021);
    let mut counts = Skipped::default();
    for _ in 0..cases {
        let term = Case::arbitrary(&mut g).shape.term();
        let simplified = Simplifier::without(Shortcut::Egg).run(&term, false).term;
        for term in [term, simplified] {
            compare(&term, &mut counts);
        }
    }
    counts
}

fn compare(term: &Term, counts: &mut Skipped) {
    for explained in [false, true] {
        let mut skipping = Simplifier::new();
        let skipped = skipping.run(term, explained);
        let plain = Simplifier::without(Shortcut::Egg).run(term, explained);
        counts.terms += 1;
        counts.skipped[usize::from(explained)] += skipping.taken().unmatched;
        let shown = |s: &crate::simplify::Simplification| {
            format!("{} ({}) by {:?}", s.term, s.stop, s.steps)
        };
        if shown(&skipped) != shown(&plain) {
            counts.differing.push(format!(
                "{term}: {}  vs  {}",
                shown(&skipped),
                shown(&plain)
            ));
        }
    }
}

#[test]
fn terms_no_rule_rewrites_skip_egg_and_nothing_changes() {
    let counts = check(400);
    assert!(
        counts.differing.is_empty(),
        "leaving out first rounds changed:\n{}",
        counts.differing.join("\n")
    );
    // Unexplained, a term its normal form leaves alone skips the whole
    // e-graph; explained, each term builds it and leaves out the first
    // round's search.
    for (explained, skipped) in counts.skipped.into_iter().enumerate() {
        assert!(
            skipped * 10 >= counts.terms / 2 && skipped < counts.terms / 2,
            "{skipped} first rounds of {} simplifications left out (explained: {explained})",
            counts.terms / 2
        );
    }
}

/// Whether the comparison with running egg always tells `mutant` apart.
fn assert_caught(mutant: Mutant) {
    mutants::set(Some(mutant));
    let counts = check(400);
    mutants::set(None);
    assert!(
        !counts.differing.is_empty(),
        "no difference from {mutant:?} in {} terms",
        counts.terms
    );
}

#[test]
fn trying_the_rules_at_the_root_only_is_caught() {
    assert_caught(Mutant::UnmatchedLooksAtRootOnly);
}

#[test]
fn taking_side_conditions_for_failing_is_caught() {
    assert_caught(Mutant::UnmatchedSideConditionFails);
}

#[test]
fn matches_whose_side_condition_fails_skip_egg() {
    let int = |name: &str| Term::var(name, Sort::Int);
    let boolean = |name: &str| Term::var(name, Sort::Bool);
    // No read over a write to another index: `r1` and `r2` are no literals.
    let written = Term::store(Term::var("f", Sort::int_array()), int("r1"), Term::int(1));
    let read = Term::binary(BinOp::Eq, Term::select(written, int("r2")), Term::int(1));
    // A comparison is pushed into neither of two conditional operands.
    let conditionals = Term::binary(
        BinOp::Eq,
        Term::ite(boolean("c"), int("x"), int("y")),
        Term::ite(boolean("d"), int("y"), int("x")),
    );
    for term in [read, conditionals] {
        let mut counts = Skipped::default();
        compare(&term, &mut counts);
        assert!(
            counts.differing.is_empty(),
            "{}",
            counts.differing.join("\n")
        );
        assert_eq!(counts.skipped, [1, 1], "{term}");
    }
}
