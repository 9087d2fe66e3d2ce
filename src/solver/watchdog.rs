//! Per-query time limits, kept by a thread of our own: Z3 4.8's `timeout`
//! parameter hands every check to its timer thread and back with a
//! `sched_yield` busy-wait, a fifth of the time of an exploration that asks
//! many small queries. The watchdog sleeps until a query overruns its limit
//! and then interrupts the context (`Z3_interrupt`, meant to be called from
//! another thread); the check returns `unknown`. The user's Ctrl-C
//! ([`crate::stop::interrupt`]) wakes it to interrupt the running query at once.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A Z3 context handle that may cross to the watchdog thread: `Z3_interrupt`
/// is the one call Z3 allows from a thread other than the context's own.
struct Interruptible(z3_sys::Z3_context);

// SAFETY: the watchdog only ever passes the pointer to `Z3_interrupt`, which
// Z3 documents as callable from any thread, and it stops (is joined) before
// the solver and its context are dropped.
unsafe impl Send for Interruptible {}

#[derive(Default)]
struct State {
    /// When the running query must stop; `None` while no query runs.
    deadline: Option<Instant>,
    quit: bool,
    /// Set by Ctrl-C: interrupt the running query now.
    interrupted: bool,
}

struct Watched(Mutex<State>, Condvar);

type Shared = Arc<Watched>;

impl crate::stop::Wake for Watched {
    fn wake(&self) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .interrupted = true;
        self.1.notify_one();
    }
}

fn lock(shared: &Shared) -> MutexGuard<'_, State> {
    shared.0.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Interrupts the queries of one context that run longer than `limit`.
pub(crate) struct Watchdog {
    limit: Duration,
    shared: Shared,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    pub(crate) fn new(context: &z3::Context, limit: Duration) -> Watchdog {
        let shared: Shared = Arc::new(Watched(Mutex::default(), Condvar::new()));
        let weak: std::sync::Weak<dyn crate::stop::Wake> = Arc::downgrade(&shared) as _;
        crate::stop::on_interrupt(weak);
        let watched = Interruptible(context.get_z3_context());
        let theirs = shared.clone();
        let thread = std::thread::Builder::new()
            .name("z3-watchdog".into())
            .spawn(move || watch(&theirs, &watched))
            .ok();
        Watchdog {
            limit,
            shared,
            thread,
        }
    }

    /// Runs the query `check` under the time limit, and not past `deadline`.
    pub(crate) fn limit<T>(&self, deadline: Option<Instant>, check: impl FnOnce() -> T) -> T {
        let own = Instant::now() + self.limit;
        lock(&self.shared).deadline = Some(deadline.map_or(own, |deadline| deadline.min(own)));
        self.shared.1.notify_one();
        let answer = check();
        lock(&self.shared).deadline = None;
        answer
    }
}

/// The watchdog's loop: wait for a query, interrupt it at its deadline. The
/// lock is held while interrupting, so a query that has already ended (its
/// deadline cleared) is never interrupted.
fn watch(shared: &Shared, context: &Interruptible) {
    let mut state = lock(shared);
    loop {
        if state.quit {
            return;
        }
        state = match state.deadline {
            None => shared.1.wait(state).unwrap_or_else(PoisonError::into_inner),
            Some(deadline) => {
                let now = Instant::now();
                if now >= deadline || state.interrupted {
                    // SAFETY: see `Interruptible`.
                    unsafe { z3_sys::Z3_interrupt(context.0) };
                    state.deadline = None;
                    state
                } else {
                    shared
                        .1
                        .wait_timeout(state, deadline - now)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            }
        };
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        lock(&self.shared).quit = true;
        self.shared.1.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
