//! Leaving out the searches of rules whose left sides lack an edge in the
//! e-graph ([`crate::simplify::edges`]) against searching for every rule
//! in every iteration.

use super::plain::{against_plain, AgainstPlain};
use crate::mutants::{self, Mutant};
use crate::simplify::{Shortcut, Simplifier};

fn check(cases: usize) -> AgainstPlain {
    against_plain(
        || Simplifier::without(Shortcut::SearchesByEdge),
        |s| s.taken().by_edge.get(),
        cases,
    )
}

#[test]
fn searches_left_out_by_their_edges_change_nothing() {
    check(400).assert_exact("leaving searches out by their edges", 40);
}

#[test]
fn edges_read_once_per_run_of_egg_are_caught() {
    mutants::set(Some(Mutant::EdgesKeptAcrossIterations));
    let counts = check(400);
    mutants::set(None);
    counts.assert_caught();
}

#[test]
fn edges_read_without_their_child_positions_are_caught() {
    mutants::set(Some(Mutant::EdgesAtFirstChild));
    let counts = check(400);
    mutants::set(None);
    counts.assert_caught();
}
