//! The rules [`Simplifier::new`] shares, compiled once per process, against
//! the same rules compiled for one simplifier (the plain computation).

use super::generate::Case;
use crate::simplify::{Limits, Simplifier, RULES};
use quickcheck::{Arbitrary, Gen};
use std::sync::Arc;

/// Random terms on which `shared` and `own` disagree, out of `cases`.
fn disagreements(own: impl Fn() -> Simplifier, cases: usize) -> usize {
    let mut g = Gen::from_size_and_seed(12, 0x5EED_2021);
    (0..cases)
        .filter(|_| {
            let term = Case::arbitrary(&mut g).shape.term();
            Simplifier::new().simplify(&term) != own().simplify(&term)
        })
        .count()
}

#[test]
fn shared_rules_are_compiled_once() {
    let (first, second) = (Simplifier::new(), Simplifier::new());
    assert!(Arc::ptr_eq(&first.rules, &second.rules));
}

#[test]
fn shared_rules_simplify_as_rules_compiled_anew() {
    let own = || Simplifier::with_rules(RULES, Limits::default());
    assert_eq!(disagreements(own, 400), 0);
}

#[test]
fn the_comparison_catches_a_rule_left_out() {
    // `de-morgan-and` dropped from the simplifier's own copy.
    let rules: Vec<_> = RULES
        .iter()
        .filter(|r| r.name != "de-morgan-and")
        .copied()
        .collect();
    assert_eq!(rules.len() + 1, RULES.len());
    let own = || Simplifier::with_rules(&rules, Limits::default());
    assert!(disagreements(own, 400) > 0, "a missing rule went unnoticed");
}
