//! Applying only the rules that found a match ([`crate::simplify::scheduler`])
//! against egg's scheduler applying every rule searched for.

use super::generate::Case;
use crate::mutants::{self, Mutant};
use crate::simplify::{Simplification, Simplifier};
use quickcheck::{Arbitrary, Gen};

/// What leaving out empty applications did on random terms.
#[derive(Default)]
struct Unapplied {
    cases: usize,
    /// Applications left out.
    unapplied: usize,
    differing: Vec<String>,
}

/// Each of `cases` random terms explained (egg always runs), leaving out
/// the rules that found nothing and applying every rule.
fn check(cases: usize) -> Unapplied {
    let mut g = Gen::from_size_and_seed(12, 0x5EED_2021);
    let mut counts = Unapplied::default();
    for _ in 0..cases {
        let term = Case::arbitrary(&mut g).shape.term();
        let mut leaving_out = Simplifier::new();
        let left_out = leaving_out.run(&term, true);
        let every = Simplifier::applying_every_rule().run(&term, true);
        counts.cases += 1;
        counts.unapplied += leaving_out.unapplied();
        let explained = |s: &Simplification| format!("{} ({}) by {:?}", s.term, s.stop, s.steps);
        if explained(&left_out) != explained(&every) {
            counts
                .differing
                .push(format!("{term}: {}  vs  {}", left_out.term, every.term));
        }
    }
    counts
}

#[test]
fn rules_that_found_nothing_go_unapplied_and_nothing_changes() {
    let counts = check(400);
    assert!(
        counts.differing.is_empty(),
        "leaving out applications changed:\n{}",
        counts.differing.join("\n")
    );
    assert!(
        counts.unapplied >= 10 * counts.cases,
        "only {} applications left out in {} cases",
        counts.unapplied,
        counts.cases
    );
}

#[test]
fn leaving_out_a_rule_that_matched_once_is_caught() {
    mutants::set(Some(Mutant::SingleMatchUnapplied));
    let counts = check(400);
    mutants::set(None);
    assert!(
        !counts.differing.is_empty(),
        "no difference from the mutant in {} cases",
        counts.cases
    );
}
