//! Terms returned without an e-graph because no rule can rewrite them
//! ([`crate::simplify::unmatched`]) against running egg on every term.

use super::generate::Case;
use crate::mutants::{self, Mutant};
use crate::simplify::Simplifier;
use quickcheck::{Arbitrary, Gen};
use symex_semantics::term::Term;

/// What skipping egg did on random terms.
#[derive(Default)]
struct Skipped {
    terms: usize,
    /// Terms returned without an e-graph.
    skipped: usize,
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
        let simplified = Simplifier::running_egg_always().run(&term, false).term;
        for term in [term, simplified] {
            compare(&term, &mut counts);
        }
    }
    counts
}

fn compare(term: &Term, counts: &mut Skipped) {
    let mut skipping = Simplifier::new();
    let skipped = skipping.run(term, false);
    let plain = Simplifier::running_egg_always().run(term, false);
    counts.terms += 1;
    counts.skipped += skipping.unmatched();
    let shown = |s: &crate::simplify::Simplification| format!("{} ({})", s.term, s.stop);
    if shown(&skipped) != shown(&plain) {
        counts.differing.push(format!(
            "{term}: {}  vs  {}",
            shown(&skipped),
            shown(&plain)
        ));
    }
}

#[test]
fn terms_no_rule_rewrites_skip_egg_and_nothing_changes() {
    let counts = check(400);
    assert!(
        counts.differing.is_empty(),
        "skipping egg changed:\n{}",
        counts.differing.join("\n")
    );
    assert!(
        counts.skipped * 10 >= counts.terms && counts.skipped < counts.terms,
        "{} of {} terms skipped egg",
        counts.skipped,
        counts.terms
    );
}

#[test]
fn trying_the_rules_at_the_root_only_is_caught() {
    mutants::set(Some(Mutant::UnmatchedLooksAtRootOnly));
    let counts = check(400);
    mutants::set(None);
    assert!(
        !counts.differing.is_empty(),
        "no difference from the mutant in {} terms",
        counts.terms
    );
}
