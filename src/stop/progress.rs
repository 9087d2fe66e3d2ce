//! The status line: when a command has run for more than a second and
//! standard error is a terminal, a line there says how far it got (paths,
//! depth, solver calls, runs, elapsed time), redrawn four times a second
//! and erased before the command prints its report. `--quiet` silences
//! it; nothing is drawn when standard error is not a terminal.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

static QUIET: AtomicBool = AtomicBool::new(false);
static PATHS: AtomicU64 = AtomicU64::new(0);
static DEPTH: AtomicU64 = AtomicU64::new(0);
static SOLVER_CALLS: AtomicU64 = AtomicU64::new(0);
static RUNS: AtomicU64 = AtomicU64::new(0);

/// How long a command runs before the line appears.
const DELAY: Duration = Duration::from_secs(1);
const REDRAW: Duration = Duration::from_millis(250);

/// `--quiet`: no status line.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// An exploration's progress: paths reported, the depth of the node being
/// expanded, solver calls.
pub fn explored(paths: usize, depth: usize, solver_calls: u64) {
    PATHS.store(paths as u64, Ordering::Relaxed);
    DEPTH.store(depth as u64, Ordering::Relaxed);
    SOLVER_CALLS.store(solver_calls, Ordering::Relaxed);
}

/// A checker's progress: runs done.
pub fn ran(runs: u64) {
    RUNS.store(runs, Ordering::Relaxed);
}

/// The status line while it lives; dropped, it stops and erases the line.
pub struct StatusLine {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

/// Starts the status line of a command that prints its report at the end
/// (or whose report goes elsewhere than the terminal).
pub fn show() -> StatusLine {
    let wanted = !QUIET.load(Ordering::Relaxed) && std::io::stderr().is_terminal();
    if !wanted {
        return StatusLine {
            stop: None,
            thread: None,
        };
    }
    let (stop, stopped) = mpsc::channel::<()>();
    let start = Instant::now();
    let thread = std::thread::Builder::new()
        .name("progress".into())
        .spawn(move || draw(start, &stopped))
        .ok();
    StatusLine {
        stop: Some(stop),
        thread,
    }
}

fn draw(start: Instant, stopped: &mpsc::Receiver<()>) {
    let mut drawn = false;
    let mut wait = DELAY;
    while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(wait) {
        wait = REDRAW;
        let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        let runs = load(&RUNS);
        let work = if runs > 0 {
            format!("{runs} runs")
        } else {
            format!(
                "{} paths, depth {}, {} solver calls",
                load(&PATHS),
                load(&DEPTH),
                load(&SOLVER_CALLS)
            )
        };
        let interrupted = if super::interrupted() {
            ", stopping"
        } else {
            ""
        };
        let line = format!(
            "\r\x1b[K{work}, {:.1} s{interrupted} (Ctrl-C stops with what was found)",
            start.elapsed().as_secs_f64()
        );
        drawn = std::io::stderr().write_all(line.as_bytes()).is_ok() || drawn;
    }
    if drawn {
        let _ = std::io::stderr().write_all(b"\r\x1b[K");
    }
}

impl Drop for StatusLine {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
