//! The last guarantee behind a command's time limit. Exploration stops
//! itself at its limit (between steps, and Z3 is interrupted at the
//! deadline), but one step can still run long — evaluating a huge number,
//! folding a huge constant. A backstop thread waits until the limit plus a
//! margin and, if the command is still running then, reports the explicit
//! status on standard error and ends the process with exit status 3
//! (inconclusive). Dropping the backstop disarms it.

use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Duration;

/// How long past its limit a command may take to stop by itself.
pub const MARGIN: Duration = Duration::from_millis(500);

/// Exit status of a command ended by its backstop (SPEC §2: inconclusive).
const INCONCLUSIVE: i32 = 3;

/// An armed backstop; disarmed when dropped.
pub struct Backstop {
    _disarm: Sender<()>,
}

impl Backstop {
    /// Ends the process `limit + MARGIN` from now unless dropped first;
    /// `what` names the command and its limit in the message.
    pub fn arm(limit: Duration, what: String) -> Backstop {
        let (disarm, disarmed) = mpsc::channel::<()>();
        let spawned = std::thread::Builder::new().name("backstop".into()).spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = disarmed.recv_timeout(limit + MARGIN) {
                crate::stop::output::error(format_args!("{what}: time limit reached, stopped (the last step did not finish in time)"));
                std::process::exit(INCONCLUSIVE);
            }
        });
        // Without a thread there is no backstop; the cooperative limits still hold.
        drop(spawned);
        Backstop { _disarm: disarm }
    }
}
