//! Applying only the rules that found a match ([`crate::simplify::scheduler`])
//! against egg's scheduler applying every rule searched for.

use super::plain::{against_plain, AgainstPlain};
use crate::mutants::{self, Mutant};
use crate::simplify::{Shortcut, Simplifier};

fn check(cases: usize) -> AgainstPlain {
    against_plain(
        || Simplifier::without(Shortcut::EmptyApplications),
        |s| s.taken().unapplied.get(),
        cases,
    )
}

#[test]
fn rules_that_found_nothing_go_unapplied_and_nothing_changes() {
    check(400).assert_exact("leaving out applications", 10);
}

#[test]
fn leaving_out_a_rule_that_matched_once_is_caught() {
    mutants::set(Some(Mutant::SingleMatchUnapplied));
    let counts = check(400);
    mutants::set(None);
    counts.assert_caught();
}
