//! Standard output and error that may be closed under us (`symex run … |
//! head -1`, a terminal gone): a command whose output is closed stops
//! quietly with exit status [`CLOSED`], never with the status for bad input
//! and never with a panic.

use std::io::Write;

/// Exit status after the reader of standard output went away: 128 +
/// SIGPIPE, what a shell reports for `cat` or `grep` in the same place,
/// so `set -o pipefail` sees it and it is never taken for a verdict
/// (0 would read as "proved").
pub const CLOSED: u8 = 141;

/// Writes `message` and a newline to standard error; a closed standard
/// error loses the message but ends nothing.
pub fn error(message: impl std::fmt::Display) {
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// Whether `error` says the reader of an output went away.
pub fn is_closed(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::BrokenPipe
}
