//! When each job runs: a multilevel feedback queue of two levels, as in
//! Corbató's CTSS scheduler. Every job starts in the *short* lane; one that
//! has not ended after its quantum of processor time (or [`PATIENCE`]
//! quanta of wall-clock time) is long: it moves on to a free *long*
//! slot and keeps running, or, when every long slot is taken, it is stopped
//! and waits in the long lane's queue to run again from the start (the
//! commands are deterministic, so only the quantum's work is lost). Short
//! work thus never waits behind long work, and long work is queued rather
//! than refused. Each lane bounds how many jobs run and wait in it.

use super::jobs::{Job, Outcome, Running};
use std::path::Path;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A job that has run this many quanta of wall-clock time is long, however
/// little processor time it got.
pub const PATIENCE: u32 = 5;

/// The lanes and the quantum.
pub struct Scheduler {
    short: Slots,
    long: Slots,
    quantum: Duration,
}

/// How a job was run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// It ended within its quantum.
    Short,
    /// It outlived its quantum and went on in a long slot.
    Long,
    /// It outlived its quantum with every long slot taken: stopped, queued, run again.
    Requeued,
}

impl Lane {
    pub fn name(self) -> &'static str {
        match self {
            Lane::Short => "short",
            Lane::Long => "long",
            Lane::Requeued => "requeued",
        }
    }
}

/// A job run to its end.
pub struct Scheduled {
    pub outcome: Outcome,
    pub lane: Lane,
    /// Milliseconds from the request to its end (queues and a lost quantum included).
    pub millis: u64,
}

/// Why a job was not run.
pub enum Refused {
    /// Its lane's queue was full.
    Busy,
    /// Its process could not be started.
    Spawn(std::io::Error),
}

impl From<std::io::Error> for Refused {
    fn from(error: std::io::Error) -> Refused {
        Refused::Spawn(error)
    }
}

impl Scheduler {
    /// `short` and `long` jobs at once, `queue` more waiting in each lane.
    pub fn new(short: usize, long: usize, queue: usize, quantum: Duration) -> Scheduler {
        Scheduler {
            short: Slots::new(short, queue),
            long: Slots::new(long, queue),
            quantum,
        }
    }

    /// Runs `job` with `program` (this binary) to its end.
    pub fn run(&self, program: &Path, job: &Job) -> Result<Scheduled, Refused> {
        let asked = Instant::now();
        let short = self.short.acquire().ok_or(Refused::Busy)?;
        let mut running = Running::start(program, job)?;
        let lane = match running.run_for(self.quantum, self.quantum * PATIENCE)? {
            true => Lane::Short,
            false => match self.long.try_acquire() {
                Some(long) => {
                    drop(short);
                    running.wait_until(None)?;
                    drop(long);
                    Lane::Long
                }
                None => {
                    running.abandon()?;
                    drop(short);
                    let _long = self.long.acquire().ok_or(Refused::Busy)?;
                    running = Running::start(program, job)?;
                    running.wait_until(None)?;
                    Lane::Requeued
                }
            },
        };
        Ok(Scheduled {
            outcome: running.outcome(),
            lane,
            millis: asked.elapsed().as_millis() as u64,
        })
    }
}

/// At most `running` jobs at once and `waiting` more queued; beyond that a
/// job is refused at once (the server answers 503).
pub struct Slots {
    running: usize,
    waiting: usize,
    state: Mutex<Count>,
    freed: Condvar,
}

#[derive(Default)]
struct Count {
    running: usize,
    waiting: usize,
}

/// A place among the running jobs, given back when dropped.
pub struct Slot<'a> {
    slots: &'a Slots,
}

impl Slots {
    pub fn new(running: usize, waiting: usize) -> Slots {
        Slots {
            running: running.max(1),
            waiting,
            state: Mutex::new(Count::default()),
            freed: Condvar::new(),
        }
    }

    /// A lock that a panicking holder cannot poison for the others.
    fn count(&self) -> MutexGuard<'_, Count> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A slot if one is free and no job waits for it, at once.
    pub fn try_acquire(&self) -> Option<Slot<'_>> {
        let mut count = self.count();
        if count.running >= self.running || count.waiting > 0 {
            return None;
        }
        count.running += 1;
        Some(Slot { slots: self })
    }

    /// A slot, after waiting in the queue if need be; `None` when the queue is full.
    pub fn acquire(&self) -> Option<Slot<'_>> {
        let mut count = self.count();
        if count.running >= self.running {
            if count.waiting >= self.waiting {
                return None;
            }
            count.waiting += 1;
            while count.running >= self.running {
                count = self
                    .freed
                    .wait(count)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
            count.waiting -= 1;
        }
        count.running += 1;
        Some(Slot { slots: self })
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.slots.count().running -= 1;
        self.slots.freed.notify_one();
    }
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;
