//! The verifier with one rule broken on purpose, so that its property test
//! (`proofs-tests/king_1976_verifier.rs`) can be shown to fail: a property
//! that passes on a mutant checks nothing.

/// A deliberately wrong verification rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutant {
    /// A loop's cut point makes nothing arbitrary: the iteration is checked
    /// from the state on entry only, not from every state the invariant allows.
    SkipHavoc,
    /// k-induction checks its base case only: runs longer than `k`
    /// iterations are dropped, not covered by the step.
    BaseCaseOnly,
    /// `old(e)` is read at the end of the body, not at entry.
    OldAtExit,
}

#[cfg(any(test, feature = "mutants"))]
thread_local! {
    static BROKEN: std::cell::Cell<Option<Mutant>> = const { std::cell::Cell::new(None) };
}

/// The verifier this thread runs from now on has `mutant`'s rule broken
/// (`None`: none).
#[cfg(any(test, feature = "mutants"))]
pub fn break_verifier(mutant: Option<Mutant>) {
    BROKEN.with(|broken| broken.set(mutant));
}

/// Whether `mutant`'s rule is broken in this thread.
#[cfg(any(test, feature = "mutants"))]
pub(crate) fn broken(mutant: Mutant) -> bool {
    BROKEN.with(|broken| broken.get()) == Some(mutant)
}

/// No rule is broken outside the tests.
#[cfg(not(any(test, feature = "mutants")))]
pub(crate) fn broken(_: Mutant) -> bool {
    false
}
