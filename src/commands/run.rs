//! `symex run FILE`: one concrete execution (§2 `⟨S, V⟩`, §3 `⟨Γ, G⟩`).

use super::backstop::Backstop;
use super::language::{with_semantics, Choice, Semantics, Visitor};
use super::{heap, inputs, load, AssumeArg, CliError, Exit, IntArg, LanguageArg};
use crate::explore::blame::{blame, headline};
use crate::explore::run::{run, RunEnd, RunLimits, MAX_STEPS};
use crate::report::latex;
use crate::report::values::{heap_json, valuation_json};
use clap::{Args, ValueEnum};
use serde_json::{json, Value as Json};
use std::fmt;
use std::io::Write;
use std::time::{Duration, Instant};
use symex_semantics::annotations::{instrument, is_ghost, CHECK};
use symex_semantics::draws::as_drawn;
use symex_semantics::eval::{ShowValuation, Valuation};
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::{ErrorKind, Halt, Language, Outcome};
use symex_semantics::syntax::Positions;
use symex_semantics::system::{
    ConcreteConfiguration, Options, SymbolicConfiguration, TransitionSystem,
};
use symex_semantics::value::Value;

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
    #[arg(long, value_name = "N", default_value_t = MAX_STEPS)]
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
    /// What `int` means: mathematical integers, or C's signed machine integers with overflow as an error.
    #[arg(long = "int", value_enum, default_value_t = IntArg::Math, value_name = "INT")]
    pub int: IntArg,
    #[arg(long, value_enum)]
    pub lang: Option<LanguageArg>,
    /// An initial heap and values of the globals, as JSON (SPEC §2.1): `{"objects": {…}, "vars": {…}}`.
    #[arg(long, value_name = "H.json")]
    pub heap: Option<String>,
    /// `--heap`'s document given inline rather than in a file (as `symex serve` passes it).
    #[arg(long, value_name = "JSON", conflicts_with = "heap")]
    pub heap_json: Option<String>,
    /// Check loop invariants and contracts where they must hold (King's
    /// Algol-W ASSERT): the run fails at the first one violated.
    #[arg(long)]
    pub check_annotations: bool,
    /// A precondition the input heap must satisfy (as `--method lazy
    /// --assume` assumes it): a heap that violates it is refused.
    #[arg(long, value_enum, value_name = "PRECONDITION")]
    pub assume: Option<AssumeArg>,
}

/// The precondition `acyclic` on the input heap: an error naming a cycle.
fn acyclic(inputs: &Valuation) -> Result<(), CliError> {
    let Some(cycle) = inputs.heap.cycle() else {
        return Ok(());
    };
    let edges: Vec<String> = cycle
        .iter()
        .map(|(o, f, next)| format!("{o}.{f} ↦ {next}"))
        .collect();
    Err(CliError::new(format!(
        "--assume acyclic: the input heap has a cycle, {}",
        edges.join(", ")
    )))
}

/// A finished run, with the configurations passed through when traced.
pub struct Finished {
    pub end: RunEnd,
    pub state: Valuation,
    pub steps: usize,
    /// `(rule, configuration)`, the first with no rule.
    pub trace: Vec<(Option<&'static str>, String)>,
    /// For each step of `trace`, where the statement it executed is
    /// written in the user's source (`None` for the initial configuration
    /// and for statements a semantics made, such as inlined method bodies).
    pub trace_at: Vec<Option<(usize, usize)>>,
    /// The configuration where the run is stuck, if it is.
    pub last: String,
    /// Where the run halted (with an error, and why, or at a false `assume`).
    pub site: Option<Site>,
}

/// The statement a run halted at: an error, or an `assume` that is false
/// (an array literal's length among them, docs/surface.md).
pub struct Site {
    /// Its line and column, if it is one of the program's own statements.
    pub at: Option<(usize, usize)>,
    pub statement: String,
    /// The failing access ([`blame`]).
    pub detail: Option<String>,
}

impl fmt::Display for Site {
    /// `at 3:1 in `m := a[0]`: `a[0]` reads index 0 of `a`, whose length is 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((line, column)) = self.at {
            write!(f, "at {line}:{column} ")?;
        }
        write!(f, "in `{}`", self.statement)?;
        match &self.detail {
            Some(detail) => write!(f, ": {detail}"),
            None => Ok(()),
        }
    }
}

/// Runs the concrete semantics `choice` picks on `inputs` (tracing each
/// configuration when `trace`); a run that halts with an error is run again
/// to the step before, to find where and why (`positions` say where the
/// program's statements start).
pub struct Execute<'p> {
    pub inputs: Valuation,
    pub limits: RunLimits,
    pub trace: bool,
    pub positions: Option<&'p Positions>,
}

impl Visitor for Execute<'_> {
    type Output = Finished;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> Finished
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let initial = semantics.start(self.inputs.clone());
        let (mut trace, mut trace_at) = (Vec::new(), Vec::new());
        // Where the statement the next step executes is written.
        let at = |config: &C::Config| {
            let (statement, _) = config.current()?;
            self.positions?.of(statement)
        };
        let mut next_at = None;
        if self.trace {
            trace.push((None, initial.to_string()));
            trace_at.push(None);
            next_at = at(&initial);
        }
        let run = run(&semantics.concrete, initial, self.limits, |rule, config| {
            if self.trace {
                trace.push((Some(rule.name()), config.to_string()));
                trace_at.push(std::mem::replace(&mut next_at, at(config)));
            }
        });
        let last = if run.end == RunEnd::Stuck {
            run.last.to_string()
        } else {
            String::new()
        };
        let site = match run.end {
            RunEnd::Finished(Outcome::Halted(halt)) if run.steps > 0 => {
                let limits = RunLimits::steps(run.steps - 1);
                let before = crate::explore::run::run(
                    &semantics.concrete,
                    semantics.start(self.inputs),
                    limits,
                    |_, _| {},
                );
                before.last.current().map(|(statement, values)| Site {
                    at: self.positions.and_then(|positions| positions.of(statement)),
                    statement: headline(statement),
                    detail: match halt {
                        Halt::Error(error) => blame(statement, &values, error),
                        Halt::AssumptionViolated => None,
                    },
                })
            }
            _ => None,
        };
        let state = run.last.global_state();
        Finished {
            end: run.end,
            state: as_drawn(state.clone(), &state),
            steps: run.steps,
            trace,
            trace_at,
            last,
            site,
        }
    }
}

pub fn command(args: &RunArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let limit = args.time_limit_ms.map(Duration::from_millis);
    let deadline = limit.map(|limit| Instant::now() + limit);
    let backstop = limit.map(|limit| Backstop::arm(limit, "symex run".to_string()));
    let loaded = load(&args.file, args.int)?;
    let choice = Choice::new(
        &loaded.program,
        args.lang.map(Language::from),
        None,
        ThisRule::Fresh,
    )?;
    let mut valuation = inputs::valuation(&args.inputs, &loaded.program.globals)?;
    let mut given: Vec<String> = args
        .inputs
        .iter()
        .filter_map(|input| Some(input.split_once('=')?.0.trim().to_string()))
        .collect();
    let heap_text = match (&args.heap, &args.heap_json) {
        (Some(path), _) => Some((heap::read_text(path)?, path.as_str())),
        (None, Some(json)) => Some((json.clone(), "--heap-json")),
        (None, None) => None,
    };
    if let Some((text, origin)) = &heap_text {
        let from_heap = heap::from_text(text, origin, &loaded.program, Valuation::new())?;
        given.extend(from_heap.keys().map(|x| x.to_string()));
        valuation = heap::from_text(text, origin, &loaded.program, valuation)?;
    }
    let defaulted: Vec<String> = loaded
        .program
        .inputs()
        .keys()
        .filter(|x| !given.iter().any(|g| g == &***x))
        .map(|x| {
            format!(
                "{x} = {}",
                valuation
                    .get(x)
                    .map_or_else(String::new, ToString::to_string)
            )
        })
        .collect();
    if !defaulted.is_empty() {
        eprintln!(
            "note: inputs not given take their defaults: {}",
            defaulted.join(", ")
        );
    }
    if args.assume == Some(AssumeArg::Acyclic) {
        acyclic(&valuation)?;
    }
    let options = Options {
        checked_arrays: args.checked_arrays,
        acyclic: args.assume == Some(AssumeArg::Acyclic),
    };
    let trace = args.trace || args.format == RunFormat::Latex;
    let visitor = Execute {
        positions: Some(&loaded.positions),
        inputs: valuation,
        limits: RunLimits {
            max_steps: args.max_steps,
            deadline,
        },
        trace,
    };
    let instrumented = args.check_annotations.then(|| instrument(&loaded.program));
    let program = instrumented
        .as_ref()
        .map_or_else(|| loaded.program.clone(), |i| i.program.clone());
    let mut finished = with_semantics(program, choice, options, visitor)?;
    // The annotation that failed, by the label its assertion set.
    let violated = instrumented.as_ref().and_then(|instrumented| {
        let failed = finished.end
            == RunEnd::Finished(Outcome::Halted(Halt::Error(ErrorKind::AssertionFailed)));
        let label = finished.state.get(CHECK).and_then(Value::as_int)?;
        let check = instrumented.check(usize::try_from(label).ok()?)?;
        failed.then(|| check.describe(&loaded.program))
    });
    finished.state = finished.state.retain(|x| !is_ghost(x));
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
        RunEnd::Interrupted => ("interrupted", None, Exit::Inconclusive),
        RunEnd::IntegerBound => ("integer-bound", None, Exit::Inconclusive),
        RunEnd::Stuck => {
            return Err(CliError::new(format!(
                "{}: the concrete semantics is stuck at {}",
                args.file, finished.last
            )));
        }
    };
    let site = finished
        .site
        .as_ref()
        .map_or_else(String::new, |site| format!(", {site}"));
    let ending = format!(
        "{} after {} step{}{site}",
        error.as_deref().unwrap_or(outcome),
        finished.steps,
        if finished.steps == 1 { "" } else { "s" }
    );
    match args.format {
        RunFormat::Text => {
            for ((rule, config), at) in finished.trace.iter().zip(&finished.trace_at) {
                match (rule, at) {
                    (Some(rule), Some((line, column))) => {
                        writeln!(out, "→ [{rule}] at {line}:{column} {config}")?
                    }
                    (Some(rule), None) => writeln!(out, "→ [{rule}] {config}")?,
                    (None, _) => writeln!(out, "  {config}")?,
                }
            }
            writeln!(out, "{ending}")?;
            if let Some(violated) = &violated {
                writeln!(out, "violated: {violated}")?;
            }
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
            let title = format!("A run of {}", args.file);
            out.write_all(
                latex::document(&body, &title, latex::RUN_PACKAGES, args.standalone).as_bytes(),
            )?;
        }
        RunFormat::Json => {
            let mut report = json!({
                "outcome": outcome,
                "error": error,
                "state": valuation_json(&finished.state),
                "steps": finished.steps,
            });
            if args.check_annotations {
                report["violated"] = json!(violated);
            }
            if choice.language == Language::Oo {
                report["heap"] = heap_json(&finished.state);
            }
            if let Some(site) = &finished.site {
                report["error_site"] = json!({
                    "line": site.at.map(|(line, _)| line),
                    "column": site.at.map(|(_, column)| column),
                    "statement": site.statement,
                    "detail": site.detail,
                });
            }
            if args.trace {
                let trace: Vec<Json> = finished
                    .trace
                    .iter()
                    .zip(&finished.trace_at)
                    .map(|((rule, config), at)| {
                        let mut step = json!({ "rule": rule, "configuration": config });
                        if let Some((line, column)) = at {
                            step["line"] = json!(line);
                            step["column"] = json!(column);
                        }
                        step
                    })
                    .collect();
                report["trace"] = Json::Array(trace);
            }
            writeln!(out, "{report:#}")?;
        }
    }
    Ok(exit)
}
