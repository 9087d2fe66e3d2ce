//! `symex run FILE`: one concrete execution (§2 `⟨S, V⟩`, §3 `⟨Γ, G⟩`).

use super::backstop::Backstop;
use super::language::{with_semantics, Choice, Semantics, Visitor};
use super::{heap, inputs, load, CliError, Exit, LanguageArg};
use crate::explore::run::{run, RunEnd, RunLimits};
use crate::report::latex;
use crate::report::values::{heap_json, valuation_json};
use clap::{Args, ValueEnum};
use serde_json::{json, Value as Json};
use std::io::Write;
use std::time::{Duration, Instant};
use symex_semantics::eval::{ShowValuation, Valuation};
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::{Halt, Language, Outcome};
use symex_semantics::system::{
    ConcreteConfiguration, Options, SymbolicConfiguration, TransitionSystem,
};

/// `--format` of `run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    Text,
    Json,
    /// The configurations with the rule on each arrow, for papers.
    Latex,
}

#[derive(Clone, Debug, Args)]
pub struct RunArgs {
    /// The program (`-` for standard input).
    pub file: String,
    /// An input value: `x=3`, `b=true`, `a=[1,2,3]`; other inputs are 0, false, [].
    #[arg(long = "input", value_name = "NAME=VALUE")]
    pub inputs: Vec<String>,
    /// Print every configuration, with the rule that led to it.
    #[arg(long)]
    pub trace: bool,
    /// Stop with outcome `step-limit` after N transitions.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_steps: usize,
    /// Stop with outcome `time-limit` after this long (checked between steps).
    #[arg(long, value_name = "MS")]
    pub time_limit_ms: Option<u64>,
    #[arg(long, value_enum, default_value_t = RunFormat::Text)]
    pub format: RunFormat,
    /// With `--format latex`: a whole document that compiles on its own.
    #[arg(long)]
    pub standalone: bool,
    /// Every array access must be within `0 <= i < len(a)` (§2.1).
    #[arg(long)]
    pub checked_arrays: bool,
    #[arg(long, value_enum)]
    pub lang: Option<LanguageArg>,
    /// An initial heap and values of the globals, as JSON (SPEC §2.1): `{"objects": {…}, "vars": {…}}`.
    #[arg(long, value_name = "H.json")]
    pub heap: Option<String>,
}

/// A finished run, with the configurations passed through when traced.
struct Finished {
    end: RunEnd,
    state: Valuation,
    steps: usize,
    /// `(rule, configuration)`, the first with no rule.
    trace: Vec<(Option<&'static str>, String)>,
    /// The configuration where the run is stuck, if it is.
    last: String,
}

struct Execute {
    inputs: Valuation,
    limits: RunLimits,
    trace: bool,
}

impl Visitor for Execute {
    type Output = Finished;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> Finished
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let initial = semantics.start(self.inputs);
        let mut trace = Vec::new();
        if self.trace {
            trace.push((None, initial.to_string()));
        }
        let run = run(&semantics.concrete, initial, self.limits, |rule, config| {
            if self.trace {
                trace.push((Some(rule.name()), config.to_string()));
            }
        });
        let last = if run.end == RunEnd::Stuck {
            run.last.to_string()
        } else {
            String::new()
        };
        Finished {
            end: run.end,
            state: run.last.global_state(),
            steps: run.steps,
            trace,
            last,
        }
    }
}

pub fn command(args: &RunArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let limit = args.time_limit_ms.map(Duration::from_millis);
    let deadline = limit.map(|limit| Instant::now() + limit);
    let backstop = limit.map(|limit| Backstop::arm(limit, "symex run".to_string()));
    let loaded = load(&args.file)?;
    let choice = Choice::new(
        &loaded.program,
        args.lang.map(Language::from),
        None,
        ThisRule::Fresh,
    )?;
    let mut valuation = inputs::valuation(&args.inputs, &loaded.program.globals)?;
    if let Some(path) = &args.heap {
        valuation = heap::read(path, &loaded.program, valuation)?;
    }
    let options = Options {
        checked_arrays: args.checked_arrays,
    };
    let trace = args.trace || args.format == RunFormat::Latex;
    let visitor = Execute {
        inputs: valuation,
        limits: RunLimits {
            max_steps: args.max_steps,
            deadline,
        },
        trace,
    };
    let finished = with_semantics(loaded.program.clone(), choice, options, visitor)?;
    // Stopped in time: the report is written whole, however long that takes.
    drop(backstop);
    let (outcome, error, exit) = match finished.end {
        RunEnd::Finished(Outcome::Terminated) => ("terminated", None, Exit::Done),
        RunEnd::Finished(Outcome::Halted(Halt::AssumptionViolated)) => {
            ("assumption-violated", None, Exit::Done)
        }
        RunEnd::Finished(Outcome::Halted(Halt::Error(kind))) => {
            ("error", Some(kind.to_string()), Exit::Failed)
        }
        RunEnd::StepLimit => ("step-limit", None, Exit::Inconclusive),
        RunEnd::TimeLimit => ("time-limit", None, Exit::Inconclusive),
        RunEnd::IntegerBound => ("integer-bound", None, Exit::Inconclusive),
        RunEnd::Stuck => {
            return Err(CliError::new(format!(
                "{}: the concrete semantics is stuck at {}",
                args.file, finished.last
            )));
        }
    };
    let ending = format!(
        "{} after {} step{}",
        error.as_deref().unwrap_or(outcome),
        finished.steps,
        if finished.steps == 1 { "" } else { "s" }
    );
    match args.format {
        RunFormat::Text => {
            for (rule, config) in &finished.trace {
                match rule {
                    Some(rule) => writeln!(out, "→ [{rule}] {config}")?,
                    None => writeln!(out, "  {config}")?,
                }
            }
            writeln!(out, "{ending}")?;
            for (x, value) in &finished.state {
                writeln!(out, "{x} = {value}")?;
            }
            if choice.language == Language::Oo {
                writeln!(out, "heap = {}", finished.state.heap)?;
            }
        }
        RunFormat::Latex => {
            let body = latex::run_latex(
                &finished.trace,
                &format!("{ending}: {}", ShowValuation(&finished.state)),
            );
            out.write_all(latex::document(&body, args.standalone).as_bytes())?;
        }
        RunFormat::Json => {
            let mut report = json!({
                "outcome": outcome,
                "error": error,
                "state": valuation_json(&finished.state),
                "steps": finished.steps,
            });
            if choice.language == Language::Oo {
                report["heap"] = heap_json(&finished.state);
            }
            if args.trace {
                let trace: Vec<Json> = finished
                    .trace
                    .iter()
                    .map(|(rule, config)| json!({ "rule": rule, "configuration": config }))
                    .collect();
                report["trace"] = Json::Array(trace);
            }
            writeln!(out, "{report:#}")?;
        }
    }
    Ok(exit)
}
