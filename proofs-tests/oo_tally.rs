//! What the random cases of a §4 property exercised: a property notes
//! events (the aliasing branch of `[h.f := e]` taken, a run stuck on `⊥`)
//! as it checks its cases; the test prints the counts (visible with
//! `--nocapture`) and fails when an event it relies on was too rare, so a
//! generator that drifts into trivial cases is noticed.
//!
//! Counts are per thread: each test runs its property on its own thread.

use std::cell::RefCell;
use std::collections::BTreeMap;

thread_local! {
    static TALLY: RefCell<BTreeMap<&'static str, u64>> = RefCell::new(BTreeMap::new());
}

/// One more `event` in the current test.
pub fn note(event: &'static str) {
    TALLY.with(|tally| *tally.borrow_mut().entry(event).or_default() += 1);
}

/// Forgets the counts of earlier tests on this thread.
pub fn reset() {
    TALLY.with(|tally| tally.borrow_mut().clear());
}

/// How often `event` happened in the current test.
pub fn count(event: &str) -> u64 {
    TALLY.with(|tally| tally.borrow().get(event).copied().unwrap_or(0))
}

/// Prints the counts of `property` and fails unless each `(event, least)`
/// of `required` happened at least `least` times.
pub fn require(property: &str, required: &[(&str, u64)]) {
    let counts = TALLY.with(|tally| tally.borrow().clone());
    println!("{property}: {counts:?}");
    for (event, least) in required {
        let seen = count(event);
        assert!(seen >= *least, "{property}: `{event}` happened {seen} times, fewer than {least}: the cases are too easy");
    }
}
