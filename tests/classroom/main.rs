//! The classroom and paper workflows of issue 10, through the `symex`
//! binary: stepping (`step`), pictures (`--format svg`), snapshots for
//! authors (`snap`) and the lab sheets of `labs/`.

mod labs;
mod latex;
mod quoted;
mod snap;
mod step;
mod svg;

use std::process::{Command, Output};

/// `symex ARGS…` run from the project root.
pub fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the symex binary runs")
}

/// Standard output of a run that must exit with `code`.
pub fn stdout_of(args: &[&str], code: i32) -> String {
    let output = symex(args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(
        output.status.code(),
        Some(code),
        "symex {args:?}\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}
