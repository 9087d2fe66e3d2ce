//! The report of `symex tests`: each test as the text report, the JSON
//! report and its saved file show it ([`ShownTest`]), rendered on the
//! thread that replayed its path (a worker's under `--jobs`: values name
//! variables with the thread's strings), and the report written from them.

use super::values::{heap_json, valuation_json};
use super::Header;
use crate::explore::{Limit, Replay, Verdict};
use crate::saved::SavedTest;
use serde_json::{json, Value};
use std::io::{self, Write};
use symex_semantics::eval::ShowValuation;

/// How a test's replay ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Replayed,
    Undecided,
    Failed,
}

/// One test, rendered as the report asks (tests are kept until the
/// report is written: only the forms it shows).
#[derive(Clone, Debug)]
pub struct ShownTest {
    /// The number of the path it drives.
    pub path: usize,
    pub ending: Ending,
    /// The text report's line after `test of path N: `, or the JSON
    /// report's entry without its `path`.
    pub shown: Shown,
    /// The saved file (`--output`), its `path` included.
    pub saved: Option<SavedTest>,
}

#[derive(Clone, Debug)]
pub enum Shown {
    Line(String),
    Json(Value),
}

impl ShownTest {
    /// The same test with its path numbered `path`.
    pub fn numbered(mut self, path: usize) -> ShownTest {
        self.path = path;
        if let Some(saved) = &mut self.saved {
            saved.path = path;
        }
        self
    }
}

/// What rendering a test needs to know of the program and the report.
pub struct Shows {
    pub header: Header,
    /// Whether the report is JSON (else text).
    pub json: bool,
    /// Whether the JSON entry shows the heaps (oo programs).
    pub heaps: bool,
    /// The saved file's fields that name the program and its semantics,
    /// when tests are saved.
    pub saved: Option<SavedTest>,
}

impl Shows {
    /// `test`, the replay of path `path`, rendered.
    pub fn test(&self, path: usize, test: &Replay) -> ShownTest {
        let inputs = self.header.inputs_of(&test.inputs);
        let (ending, verdict) = match test.verdict() {
            Verdict::Replayed => (Ending::Replayed, "replayed".to_string()),
            Verdict::Undecided(why) => (Ending::Undecided, why.to_string()),
            Verdict::Failed(why) => (Ending::Failed, format!("NOT replayed: {why}")),
        };
        let shown = if self.json {
            let mut entry = json!({
                "inputs": valuation_json(&inputs),
                "outcome": test.expected_outcome.to_string(),
                "final_state": valuation_json(&test.expected_state),
                "replayed": test.mismatch.is_none(),
                "mismatch": test.mismatch,
            });
            if self.heaps {
                entry["heap"] = heap_json(&test.inputs);
                entry["final_heap"] = heap_json(&test.expected_state);
            }
            Shown::Json(entry)
        } else {
            Shown::Line(format!(
                "inputs {} → {}, final state {}: {verdict}",
                ShowValuation(&inputs),
                test.expected_outcome,
                ShowValuation(&test.expected_state)
            ))
        };
        let saved = self.saved.as_ref().map(|saved| SavedTest {
            path,
            inputs: heap_json(&inputs),
            outcome: test.expected_outcome.to_string(),
            final_state: heap_json(&test.expected_state),
            ..saved.clone()
        });
        ShownTest {
            path,
            ending,
            shown,
            saved,
        }
    }
}

/// What the exploration left besides its tests.
#[derive(Clone, Debug, Default)]
pub struct Untested {
    /// The paths found (with a test or not).
    pub paths: usize,
    /// The limit that stopped it, if one did.
    pub stopped: Option<Limit>,
    /// The configurations it left unexplored.
    pub unexplored: usize,
}

/// The tests that end as `ending`.
pub fn ending(tests: &[ShownTest], ending: Ending) -> usize {
    tests.iter().filter(|test| test.ending == ending).count()
}

pub fn write_json(tests: &[ShownTest], rest: &Untested, out: &mut dyn Write) -> io::Result<()> {
    let tests: Vec<_> = tests
        .iter()
        .map(|test| {
            let mut entry = json!({ "path": test.path });
            if let (Value::Object(entry), Shown::Json(Value::Object(fields))) =
                (&mut entry, &test.shown)
            {
                entry.extend(fields.clone());
            }
            entry
        })
        .collect();
    let report = json!({
        "tests": tests,
        "stopped": rest.stopped.map(|limit| json!(limit)),
        "unexplored": rest.unexplored,
    });
    writeln!(out, "{report:#}")
}

pub fn write_text(tests: &[ShownTest], rest: &Untested, out: &mut dyn Write) -> io::Result<()> {
    for test in tests {
        if let Shown::Line(line) = &test.shown {
            writeln!(out, "test of path {}: {line}", test.path)?;
        }
    }
    let undecided = ending(tests, Ending::Undecided);
    let replayed = ending(tests, Ending::Replayed);
    let undecided_text = if undecided > 0 {
        format!(", {undecided} undecided")
    } else {
        String::new()
    };
    let untested = rest.paths - tests.len();
    writeln!(
        out,
        "{} tests, {replayed} replayed{undecided_text}; {untested} paths without a test (not run to their end)",
        tests.len()
    )?;
    if let Some(limit) = rest.stopped {
        writeln!(
            out,
            "stopped: {limit}; {} configurations unexplored, the tests above are those made before",
            rest.unexplored
        )?;
    }
    Ok(())
}
