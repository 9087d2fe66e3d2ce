//! Rules left out of a round's search by their operators
//! ([`crate::simplify::operators`]) against searching for every rule.

use super::generate::Case;
use crate::mutants::{self, Mutant};
use crate::simplify::Simplifier;
use quickcheck::{Arbitrary, Gen};

/// What leaving rules out did on random terms.
#[derive(Default)]
struct LeftOut {
    cases: usize,
    /// Rule searches left out.
    searches: usize,
    differing: Vec<String>,
}

/// Each of `cases` random terms explained (egg always runs) with rules
/// left out and with every rule searched for, compared with the rewrites
/// that justify them.
fn check(cases: usize) -> LeftOut {
    let mut g = Gen::from_size_and_seed(12, 0x5EED_2021);
    let mut counts = LeftOut::default();
    for _ in 0..cases {
        let term = Case::arbitrary(&mut g).shape.term();
        let mut leaving_out = Simplifier::new();
        let left_out = leaving_out.run(&term, true);
        let every = Simplifier::searching_every_rule().run(&term, true);
        counts.cases += 1;
        counts.searches += leaving_out.left_out();
        let explained = |s: &crate::simplify::Simplification| {
            format!("{} ({}) by {:?}", s.term, s.stop, s.steps)
        };
        if explained(&left_out) != explained(&every) {
            counts
                .differing
                .push(format!("{term}: {}  vs  {}", left_out.term, every.term));
        }
    }
    counts
}

#[test]
fn rules_left_out_change_nothing() {
    let counts = check(400);
    assert!(
        counts.differing.is_empty(),
        "leaving rules out changed:\n{}",
        counts.differing.join("\n")
    );
    assert!(
        counts.searches >= 10 * counts.cases,
        "only {} rule searches left out in {} cases",
        counts.searches,
        counts.cases
    );
}

#[test]
fn forgetting_the_operators_rules_bring_in_is_caught() {
    mutants::set(Some(Mutant::RulesForPresentOperatorsOnly));
    let counts = check(400);
    mutants::set(None);
    assert!(
        !counts.differing.is_empty(),
        "no difference from the mutant in {} cases",
        counts.cases
    );
}
