//! A job is one `symex` command run as a child process of this same
//! binary: the program on its standard input, the arguments as a vector
//! (never a shell), its output captured up to a cap, and killed at a
//! wall-clock deadline as the backstop of the command's own limits. A
//! process of its own gives each job its memory, its limits and a panic
//! that ends only that job. [`super::schedule`] decides when each runs.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
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
    /// Milliseconds from its start until it ended (or was killed).
    pub millis: u64,
}

/// How often a running job is looked at.
const POLL: Duration = Duration::from_millis(5);

/// A job's process, started and not yet reaped.
pub struct Running {
    child: Child,
    started: Instant,
    deadline: Instant,
    overflow: Arc<AtomicBool>,
    stdout: Option<JoinHandle<Vec<u8>>>,
    stderr: Option<JoinHandle<Vec<u8>>>,
    /// How it ended, once it has: `(status, timed_out, output_cut)`.
    ended: Option<(Option<i32>, bool, bool)>,
    /// How long it ran, from its start until it was reaped.
    ran: Duration,
}

impl Running {
    /// Starts `job` with `program` (this binary).
    pub fn start(program: &Path, job: &Job) -> std::io::Result<Running> {
        let started = Instant::now();
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
        Ok(Running {
            child,
            started,
            deadline: started + job.wall,
            overflow,
            stdout,
            stderr,
            ended: None,
            ran: Duration::ZERO,
        })
    }

    /// Waits until the job ends, has used `quantum` of processor time (of
    /// wall-clock time where `/proc` cannot say), or has run `patience` of
    /// wall-clock time; whether it has ended. Processor time, so that a
    /// short job waiting for a core rather than computing is not taken for a
    /// long one; the patience, so that on a machine busy with other work a
    /// long job does not hold its place for as long as it runs.
    pub fn run_for(&mut self, quantum: Duration, patience: Duration) -> std::io::Result<bool> {
        loop {
            if self.wait_until(Some(Instant::now() + POLL))? {
                return Ok(true);
            }
            let ran = self.started.elapsed();
            let used = processor_time(self.child.id()).unwrap_or(ran);
            if used >= quantum || ran >= patience {
                return Ok(false);
            }
        }
    }

    /// Waits until the job ends (by itself, at its deadline or past its
    /// output's cap) or until `until`; whether it has ended.
    pub fn wait_until(&mut self, until: Option<Instant>) -> std::io::Result<bool> {
        while self.ended.is_none() {
            if let Some(status) = self.child.try_wait()? {
                self.ended = Some((status.code(), false, self.overflow.load(Ordering::Relaxed)));
                self.ran = self.started.elapsed();
                break;
            }
            let late = Instant::now() >= self.deadline;
            let cut = self.overflow.load(Ordering::Relaxed);
            if late || cut {
                // It may have ended meanwhile; either way it is reaped here.
                let _ = self.child.kill();
                self.child.wait()?;
                self.ended = Some((None, late && !cut, cut));
                self.ran = self.started.elapsed();
                break;
            }
            if until.is_some_and(|until| Instant::now() >= until) {
                return Ok(false);
            }
            std::thread::sleep(POLL);
        }
        Ok(true)
    }

    /// Kills the job and reaps it, its outputs dropped.
    pub fn abandon(mut self) -> std::io::Result<()> {
        // It may have ended meanwhile; either way it is reaped here.
        let _ = self.child.kill();
        self.child.wait().map(drop)
    }

    /// How the job ended; call once [`Running::wait_until`] said it has.
    pub fn outcome(self) -> Outcome {
        let (status, timed_out, output_cut) = self.ended.unwrap_or((None, false, false));
        let collect = |reader: Option<JoinHandle<Vec<u8>>>| {
            reader
                .and_then(|r| r.join().ok())
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .unwrap_or_default()
        };
        Outcome {
            status,
            stdout: collect(self.stdout),
            stderr: collect(self.stderr),
            timed_out,
            output_cut,
            millis: self.ran.as_millis() as u64,
        }
    }
}

/// The processor time process `pid` has used (user and system), from
/// `/proc/PID/stat`, whose times are in ticks of 1/100 s (Linux's `USER_HZ`).
fn processor_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of stat(5); the state, field 3, is the first here.
    let ticks = |field: usize| fields.get(field - 3)?.parse::<u64>().ok();
    Some(Duration::from_millis((ticks(14)? + ticks(15)?) * 10))
}

/// Reads `source` to its end on a thread of its own, keeping at most `cap`
/// bytes; past the cap it raises `overflow` and stops reading.
fn capture(
    source: impl Read + Send + 'static,
    cap: usize,
    overflow: Arc<AtomicBool>,
) -> JoinHandle<Vec<u8>> {
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
