//! `symex bound FILE`: every loop's inner bound with a replayed witness,
//! exact or a lower bound (`src/bound/`).

use super::language::{with_semantics, Choice, Semantics, Visitor};
use super::{inputs, load, CliError, Exit, IntArg, LanguageArg, Method};
use crate::bound::{analyse, BoundOptions, LoopBound, Report, DEFAULT_CAP};
use crate::report::values::valuation_json;
use clap::{Args, ValueEnum};
use serde_json::json;
use std::io::Write;
use std::time::Duration;
use symex_semantics::eval::ShowValuation;
use symex_semantics::oo::inline::ThisRule;
use symex_semantics::program::{Language, Program};
use symex_semantics::system::{
    ConcreteConfiguration, Options, SymbolicConfiguration, TransitionSystem,
};

/// `--format` of `symex bound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BoundFormat {
    Text,
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct BoundArgs {
    /// The program (`-` for standard input).
    pub file: String,
    /// Run under this language's semantics (basic or recursive).
    #[arg(long, value_enum)]
    pub lang: Option<LanguageArg>,
    /// Follow no entry of a loop past N iterations (its bound is then a lower bound).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_CAP)]
    pub cap: u64,
    /// Stop the search after this long (bounds found so far are lower bounds).
    #[arg(long, value_name = "MS")]
    pub time_limit_ms: Option<u64>,
    /// Per solver query.
    #[arg(long, value_name = "T", default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// Give an input a concrete value (NAME=VALUE), leaving the others symbolic.
    #[arg(long, value_name = "NAME=VALUE")]
    pub fix: Vec<String>,
    /// Every array access must be within `0 <= i < len(a)` (§2.1).
    #[arg(long)]
    pub checked_arrays: bool,
    /// What `int` means: mathematical integers, or C's signed machine integers with overflow as an error.
    #[arg(long = "int", value_enum, default_value_t = IntArg::Math, value_name = "INT")]
    pub int: IntArg,
    #[arg(long, value_enum, default_value_t = BoundFormat::Text)]
    pub format: BoundFormat,
}

struct Bound<'a> {
    program: &'a Program,
    options: &'a BoundOptions,
}

impl Visitor for Bound<'_> {
    type Output = Report;

    fn visit<S, C>(self, semantics: Semantics<S, C>) -> Report
    where
        S: TransitionSystem,
        S::Config: SymbolicConfiguration,
        C: TransitionSystem,
        C::Config: ConcreteConfiguration,
    {
        let start = |inputs| semantics.start(inputs);
        analyse(
            self.program,
            &semantics.symbolic,
            semantics.initial.clone(),
            &semantics.concrete,
            &start,
            self.options,
        )
    }
}

pub fn command(args: &BoundArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let loaded = load(&args.file, args.int)?;
    let program = loaded.program.clone();
    let language = args.lang.map(Language::from);
    let choice = Choice::new(&program, language, Some(Method::Forward), ThisRule::Fresh)?;
    if choice.language == Language::Oo {
        return Err(CliError::new(
            "`symex bound` runs basic and recursive programs (forward symbolic execution with merging); this is an oo program",
        ));
    }
    let options = BoundOptions {
        cap: args.cap,
        time_limit: args.time_limit_ms.map(Duration::from_millis),
        timeout_ms: args.timeout_ms,
        assumption: inputs::fixed_condition(&args.fix, &program)?,
    };
    let semantics = Options {
        checked_arrays: args.checked_arrays,
        acyclic: false,
    };
    let visitor = Bound {
        program: &program,
        options: &options,
    };
    let report = with_semantics(program.clone(), choice, semantics, visitor)?;
    match args.format {
        BoundFormat::Json => {
            let loops: Vec<_> = report.loops.iter().map(loop_json).collect();
            let document = json!({
                "program": loaded.path,
                "cap": args.cap,
                "loops": loops,
                "stats": {
                    "solver_calls": report.stats.solver_calls,
                    "merges": report.stats.merges,
                    "time_ms": report.time_ms,
                },
            });
            writeln!(out, "{document:#}")?;
        }
        BoundFormat::Text => {
            for bound in &report.loops {
                write_text(bound, out)?;
            }
            let exact = report
                .loops
                .iter()
                .filter(|b| b.shortfall.is_none())
                .count();
            writeln!(
                out,
                "{} loop{}: {exact} exact, {} lower bound{}",
                report.loops.len(),
                if report.loops.len() == 1 { "" } else { "s" },
                report.loops.len() - exact,
                if report.loops.len() - exact == 1 {
                    ""
                } else {
                    "s"
                },
            )?;
        }
    }
    let all_exact = report.loops.iter().all(|b| b.shortfall.is_none());
    Ok(if all_exact {
        Exit::Done
    } else {
        Exit::Inconclusive
    })
}

/// `3:1` or `L (3:1)`, or the loop's number when its site is unknown.
fn name(bound: &LoopBound) -> String {
    bound
        .site
        .as_ref()
        .map_or_else(|| format!("#{}", bound.id.0), ToString::to_string)
}

fn write_text(bound: &LoopBound, out: &mut dyn Write) -> std::io::Result<()> {
    let verdict = match (&bound.shortfall, bound.outer) {
        (None, Some(outer)) => format!("exact (outer bound {outer})"),
        (None, None) => "exact".to_string(),
        (Some(why), _) => format!("lower bound ({why})"),
    };
    match bound.inner {
        None => writeln!(
            out,
            "loop {}: no feasible path reaches it, {verdict}",
            name(bound)
        )?,
        Some(inner) => writeln!(
            out,
            "loop {}: inner bound {inner}, {verdict}{}",
            name(bound),
            if bound.accelerated {
                ", summarised"
            } else {
                ""
            }
        )?,
    }
    if let Some(witness) = &bound.witness {
        writeln!(out, "  witness: {}", ShowValuation(witness))?;
    }
    if let Some(replay) = &bound.replay {
        let ended = match replay.outcome {
            Some(outcome) => format!("{outcome} after {} steps", replay.steps),
            None => format!("stopped after {} steps", replay.steps),
        };
        writeln!(
            out,
            "  replay: {} iteration{} in one entry; the concrete run {ended}",
            replay.count,
            if replay.count == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}

fn loop_json(bound: &LoopBound) -> serde_json::Value {
    json!({
        "loop": bound.site.as_ref().map(|site| format!("{}:{}", site.line, site.column)),
        "label": bound.site.as_ref().and_then(|site| site.label.clone()),
        "inner_bound": bound.inner,
        "exact": bound.shortfall.is_none(),
        "lower_bound_reason": bound.shortfall.as_ref().map(ToString::to_string),
        "outer_bound": bound.outer,
        "summarised": bound.accelerated,
        "witness": bound.witness.as_ref().map(valuation_json),
        "replay": bound.replay.as_ref().map(|replay| json!({
            "count": replay.count,
            "outcome": replay.outcome.map(|outcome| outcome.to_string()),
            "steps": replay.steps,
        })),
    })
}
