//! Ctrl-C: the first stops the command cleanly — exploration, checks and
//! the running solver query end at once, and the command prints what it
//! found, with exit status [`INTERRUPTED`]; a second ends the process at
//! once.

/// Exit status of a command the user interrupted (128 + SIGINT, as shells
/// report it), unless it had already reached a failure verdict (exit 1).
pub const INTERRUPTED: u8 = 130;

/// Installs the handler; without it (the handler cannot be set) Ctrl-C ends
/// the process as usual.
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        if super::interrupted() {
            std::process::exit(i32::from(INTERRUPTED));
        }
        super::interrupt();
    });
}
