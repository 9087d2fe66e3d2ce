//! The editor's parse check, answered in the server's own process: what
//! `symex desugar -` would print, without starting one. Parsing cannot
//! loop and takes time linear in the program, which the request's cap
//! bounds; its nesting is bounded by the parser's `MAX_DEPTH`, and it runs
//! on a request thread with the stack of a command
//! ([`crate::commands::STACK_BYTES`]).

use crate::report::diagnostic;
use serde_json::{json, Value};
use std::time::Instant;
use symex_semantics::machine::Integers;

/// The JSON of a finished `diagnose`, shaped as a job's: the status and
/// outputs `symex desugar -` gives (with `--int` meaning `integers`), and
/// the diagnostics by line and column.
pub fn answer(source: &str, integers: Integers) -> Value {
    let start = Instant::now();
    let parsed = symex_semantics::syntax::parse_with(source, integers);
    let (status, ended, stdout, stderr, found) = match parsed {
        Ok((program, _)) => (0, "done", program.to_string(), String::new(), vec![]),
        Err(d) => {
            let text = diagnostic::render(&d, "<stdin>", source, false);
            let found = json!({ "line": d.line, "column": d.column, "message": d.message });
            (2, "error", String::new(), text, vec![found])
        }
    };
    json!({
        "status": status,
        "ended": ended,
        "stdout": stdout,
        "stderr": stderr,
        "millis": start.elapsed().as_millis() as u64,
        "diagnostics": found,
    })
}
