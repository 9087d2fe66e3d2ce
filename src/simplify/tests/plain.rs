//! A shortcut of the simplifier against the plain computation on random
//! terms, each explained (egg always runs) so the rewrites that justify
//! the results are compared too.

use super::generate::Case;
use crate::simplify::{Simplification, Simplifier};
use quickcheck::{Arbitrary, Gen};

/// What a shortcut did on random terms.
#[derive(Default)]
pub struct AgainstPlain {
    pub cases: usize,
    /// Times the shortcut was taken.
    pub taken: usize,
    pub differing: Vec<String>,
}

/// Each of `cases` random terms explained by [`Simplifier::new`] and by
/// `plain()`, with the times `taken` says the first took its shortcut.
pub fn against_plain(
    plain: fn() -> Simplifier,
    taken: fn(&Simplifier) -> usize,
    cases: usize,
) -> AgainstPlain {
    let mut g = Gen::from_size_and_seed(12, 0x5EED_2021);
    let mut counts = AgainstPlain::default();
    for _ in 0..cases {
        let term = Case::arbitrary(&mut g).shape.term();
        let mut shortcut = Simplifier::new();
        let short = shortcut.run(&term, true);
        let long = plain().run(&term, true);
        counts.cases += 1;
        counts.taken += taken(&shortcut);
        let explained = |s: &Simplification| format!("{} ({}) by {:?}", s.term, s.stop, s.steps);
        if explained(&short) != explained(&long) {
            counts
                .differing
                .push(format!("{term}: {}  vs  {}", short.term, long.term));
        }
    }
    counts
}

impl AgainstPlain {
    /// The shortcut changed nothing, taken at least `per_case` times a case.
    pub fn assert_exact(&self, shortcut: &str, per_case: usize) {
        assert!(
            self.differing.is_empty(),
            "{shortcut} changed:\n{}",
            self.differing.join("\n")
        );
        assert!(
            self.taken >= per_case * self.cases,
            "{shortcut}: taken only {} times in {} cases",
            self.taken,
            self.cases
        );
    }

    /// The comparison told the shortcut from the plain computation.
    pub fn assert_caught(&self) {
        assert!(
            !self.differing.is_empty(),
            "no difference from the mutant in {} cases",
            self.cases
        );
    }
}
