//! A job is one `symex` command run as a child process of this same
//! binary: the program on its standard input, the arguments as a vector
//! (never a shell), its output captured up to a cap, and killed at a
//! wall-clock deadline as the backstop of the command's own limits. A
//! process of its own gives each job its memory, its limits and a panic
//! that ends only that job. [`Slots`] bounds how many run at once.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One command to run.
pub struct Job {
    /// The arguments after the binary's name.
    pub args: Vec<String>,
    /// The program, fed on standard input.
    pub stdin: String,
    /// Killed if still running this long after it started.
    pub wall: Duration,
    /// At most this many bytes of standard output (and of standard error) are kept.
    pub output_cap: usize,
}

/// How a job ended.
#[derive(Debug)]
pub struct Outcome {
    /// The exit status; `None` when the job was killed.
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Killed at its wall-clock deadline.
    pub timed_out: bool,
    /// Killed because its output passed the cap (the output is cut there).
    pub output_cut: bool,
    pub millis: u64,
}

/// How often a running job is looked at.
const POLL: Duration = Duration::from_millis(5);

/// Runs `job` with `program` (this binary) and waits for it, at most until its deadline.
pub fn run(program: &Path, job: &Job) -> std::io::Result<Outcome> {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(&job.args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let overflow = Arc::new(AtomicBool::new(false));
    let stdout = child
        .stdout
        .take()
        .map(|s| capture(s, job.output_cap, overflow.clone()));
    let stderr = child
        .stderr
        .take()
        .map(|s| capture(s, job.output_cap, overflow.clone()));
    if let Some(mut stdin) = child.stdin.take() {
        let text = job.stdin.clone();
        // A job that exits without reading its program closes the pipe: nothing to report.
        std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    }
    let deadline = start + job.wall;
    let (status, timed_out, output_cut) = loop {
        if let Some(status) = child.try_wait()? {
            break (status.code(), false, overflow.load(Ordering::Relaxed));
        }
        let late = Instant::now() >= deadline;
        let cut = overflow.load(Ordering::Relaxed);
        if late || cut {
            // It may have ended meanwhile; either way it is reaped below.
            let _ = child.kill();
            child.wait()?;
            break (None, late && !cut, cut);
        }
        std::thread::sleep(POLL);
    };
    let collect = |reader: Option<std::thread::JoinHandle<Vec<u8>>>| {
        reader
            .and_then(|r| r.join().ok())
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_default()
    };
    Ok(Outcome {
        status,
        stdout: collect(stdout),
        stderr: collect(stderr),
        timed_out,
        output_cut,
        millis: start.elapsed().as_millis() as u64,
    })
}

/// Reads `source` to its end on a thread of its own, keeping at most `cap`
/// bytes; past the cap it raises `overflow` and stops reading.
fn capture(
    source: impl Read + Send + 'static,
    cap: usize,
    overflow: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let limit = cap as u64 + 1;
        // A read error ends the capture with what was read.
        let _ = source.take(limit).read_to_end(&mut kept);
        if kept.len() > cap {
            kept.truncate(cap);
            overflow.store(true, Ordering::Relaxed);
        }
        kept
    })
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
