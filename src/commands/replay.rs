//! `symex replay DIR|FILE`: runs saved tests (`tests --output DIR`) again on
//! the concrete semantics and reports each as passed or failed, like
//! `klee-replay`. Exit status 1 when a test fails, 3 when a run stops at a
//! limit before its end.

use super::language::{with_semantics, Choice};
use super::run::Execute;
use super::{heap, load, CliError, Exit, IntArg};
use crate::explore::run::{RunEnd, RunLimits};
use crate::explore::state_difference;
use crate::saved::{self, SavedTest};
use clap::Args;
use clap::ValueEnum;
use std::io::Write;
use std::path::PathBuf;
use symex_semantics::eval::Valuation;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::Language;
use symex_semantics::system::Options;

#[derive(Clone, Debug, Args)]
pub struct ReplayArgs {
    /// A saved test (`path-N.json`), or a folder of them.
    pub tests: PathBuf,
    /// A run that takes more transitions than this is cut (and reported).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_steps: usize,
}

/// How one test went.
enum Verdict {
    Passed,
    Failed(String),
    /// The run stopped at a limit before its end.
    Cut(String),
}

pub fn command(args: &ReplayArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let files = saved::files(&args.tests)
        .map_err(|error| CliError::new(format!("{}: {error}", args.tests.display())))?;
    if files.is_empty() {
        return Err(CliError::new(format!(
            "{}: no saved test (path-N.json) in this folder",
            args.tests.display()
        )));
    }
    let (mut passed, mut failed, mut cut) = (0, 0, 0);
    for file in &files {
        let test =
            saved::load(file).map_err(|why| CliError::new(format!("{}: {why}", file.display())))?;
        let name = file.display();
        match replay(&test, args.max_steps)
            .map_err(|why| CliError::new(format!("{name}: {why}")))?
        {
            Verdict::Passed => {
                passed += 1;
                writeln!(out, "{name}: passed ({})", test.outcome)?;
            }
            Verdict::Failed(why) => {
                failed += 1;
                writeln!(out, "{name}: FAILED: {why}")?;
            }
            Verdict::Cut(why) => {
                cut += 1;
                writeln!(out, "{name}: undecided: {why}")?;
            }
        }
    }
    let total = files.len();
    let undecided = if cut > 0 {
        format!(", {cut} undecided")
    } else {
        String::new()
    };
    writeln!(
        out,
        "{total} test{}: {passed} passed, {failed} failed{undecided}",
        if total == 1 { "" } else { "s" }
    )?;
    Ok(if failed > 0 {
        Exit::Failed
    } else if cut > 0 {
        Exit::Inconclusive
    } else {
        Exit::Done
    })
}

/// Runs `test` and compares its end with the expected one; an error when
/// the test cannot be run at all (its program is gone or changed).
fn replay(test: &SavedTest, max_steps: usize) -> Result<Verdict, String> {
    let integers = match test.int.as_deref() {
        None => IntArg::Math,
        Some(name) => {
            IntArg::from_str(name, false).map_err(|_| format!("unknown `int`: {name}"))?
        }
    };
    let loaded = load(&test.program, integers).map_err(|error| error.to_string())?;
    let program = &loaded.program;
    let language = language(&test.language)?;
    let choice =
        Choice::new(program, Some(language), None, ThisRule::Fresh).map_err(|e| e.to_string())?;
    let defaults: Valuation = program
        .globals
        .iter()
        .map(|(x, sort)| (x.clone(), symex_semantics::value::Value::default_of(sort)))
        .collect();
    let inputs =
        heap::parse(&test.inputs, program, defaults).map_err(|why| format!("inputs: {why}"))?;
    let expected = heap::parse(&test.final_state, program, Valuation::new())
        .map_err(|why| format!("final_state: {why}"))?;
    let execute = Execute {
        positions: None,
        inputs,
        limits: RunLimits::steps(max_steps),
        trace: false,
    };
    let options = Options {
        checked_arrays: test.checked_arrays,
        acyclic: false,
    };
    let finished = with_semantics(loaded.program.clone(), choice, options, execute)
        .map_err(|e| e.to_string())?;
    Ok(match finished.end {
        RunEnd::Finished(outcome) if outcome.to_string() != test.outcome => {
            Verdict::Failed(format!("expected {}, the run ends {outcome}", test.outcome))
        }
        RunEnd::Finished(_) => match state_difference(&expected, &finished.state) {
            None => Verdict::Passed,
            Some(difference) => Verdict::Failed(difference),
        },
        RunEnd::Stuck => Verdict::Failed(format!(
            "the concrete semantics is stuck at {}",
            finished.last
        )),
        RunEnd::StepLimit => Verdict::Cut(format!("still running after {max_steps} steps")),
        RunEnd::Interrupted => Verdict::Cut(format!("interrupted after {} steps", finished.steps)),
        RunEnd::TimeLimit | RunEnd::IntegerBound => Verdict::Cut(format!(
            "stopped after {} steps at a limit of the implementation",
            finished.steps
        )),
    })
}

/// A language by its name in a saved test.
fn language(name: &str) -> Result<Language, String> {
    [Language::Basic, Language::Recursive, Language::Oo]
        .into_iter()
        .find(|language| language.to_string() == name)
        .ok_or_else(|| format!("unknown language `{name}` (basic, recursive or oo)"))
}
