//! Stopping a command early while keeping what it found. One piece every
//! command shares: the explorer, the concrete runs, the checkers and the
//! solver's watchdog all ask [`reached`] (or read [`interrupted`]) between
//! steps, so a command stops within a step of its limit — `--time-limit-ms`,
//! the memory budget, or the user's Ctrl-C — and then prints what it has,
//! naming the limit. A solver query cut this way answers
//! [`SatResult::Interrupted`](crate::solver::SatResult), never `unknown`:
//! being stopped says nothing about the path.
//!
//! - [`signal`]: Ctrl-C sets the flag (a second one ends the process at once);
//! - [`progress`]: the status line on a terminal's standard error;
//! - [`output`]: a closed standard output or error ends a command quietly.

pub mod output;
pub mod progress;
pub mod signal;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError, Weak};
use std::time::Instant;

pub use crate::explore::tree::Limit;

/// Set by the first Ctrl-C (or by [`interrupt`]); never cleared.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What is woken when the flag is set: the solver watchdogs, which then
/// interrupt the query they watch.
pub(crate) trait Wake: Send + Sync {
    fn wake(&self);
}

static WAKERS: Mutex<Vec<Weak<dyn Wake>>> = Mutex::new(Vec::new());

/// Asks every command to stop as soon as it can, and every running solver
/// query to give up now.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let wakers = WAKERS.lock().unwrap_or_else(PoisonError::into_inner);
    for waker in wakers.iter().filter_map(Weak::upgrade) {
        waker.wake();
    }
}

/// Whether the user asked to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Registers a waker that [`interrupt`] sets and notifies (dead ones are
/// dropped as new ones come).
pub(crate) fn on_interrupt(waker: Weak<dyn Wake>) {
    let mut wakers = WAKERS.lock().unwrap_or_else(PoisonError::into_inner);
    wakers.retain(|w| w.strong_count() > 0);
    wakers.push(waker);
}

/// The limit that stops work now, if one is reached: the user's Ctrl-C,
/// the `deadline`, or the memory budget.
pub fn reached(deadline: Option<Instant>) -> Option<Limit> {
    if interrupted() {
        Some(Limit::Interrupted)
    } else if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
        Some(Limit::TimeLimit)
    } else if crate::memory::exhausted() {
        Some(Limit::Memory)
    } else {
        None
    }
}
