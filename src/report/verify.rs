//! `verify`'s report, as text and as JSON. A program without annotations
//! verified without k-induction keeps the report it always had (every
//! `assert` proved, or one counterexample); otherwise each verification
//! condition is listed with its status, then what each failure shows.

use super::shell;
use super::values::{heap_json, inputs_json, valuation_json};
use crate::simplify::{InContext, Simplifier};
use crate::solver::Solver;
use crate::verify::{Condition, Failure, FailureKind, Report, Status, Verdict};
use serde_json::{json, Value as Json};
use std::io::{self, Write};
use symex_semantics::annotations::loop_name;
use symex_semantics::eval::ShowValuation;
use symex_semantics::program::{Language, Program};
use symex_semantics::term::Term;

/// Z3's time for each entailment the printed condition asks.
const ENTAILMENT_MS: u64 = 200;

/// What the report is about.
pub struct Shown<'a> {
    /// The program's path as given.
    pub file: &'a str,
    pub program: &'a Program,
    pub language: Language,
    /// The report a program without annotations always had.
    pub legacy: bool,
    /// The options of `run` that replay a counterexample as `verify` ran it
    /// (`--checked-arrays`, `--lang`).
    pub run_options: Vec<String>,
    /// Where the first counterexample's run fails in the source (line,
    /// column), when the statement is one the user wrote or desugared.
    pub failing_at: Option<(usize, usize)>,
}

impl Shown<'_> {
    /// A failure's path condition as printed: simplified, where the
    /// exploration left it raw.
    /// The failure's path condition as `explore` prints it: simplified,
    /// each conjunct in its simplest form under the others.
    fn condition(&self, report: &Report, failure: &Failure) -> Term {
        let mut simplifier = Simplifier::new();
        let simplified = if report.raw_conditions {
            simplifier.simplify(&failure.path_condition)
        } else {
            failure.path_condition.clone()
        };
        let mut solver = Solver::new(ENTAILMENT_MS);
        InContext::new().condition(&simplified, &mut simplifier, &mut solver)
    }
}

fn status_word(status: &Status) -> &'static str {
    match status {
        Status::Proved => "proved",
        Status::Fails => "FAILS",
        Status::Unknown => "unknown",
        Status::Unchecked => "not checked",
    }
}

/// The first counterexample, if any.
pub(crate) fn counterexample(report: &Report) -> Option<&Failure> {
    report
        .failures
        .iter()
        .find(|f| matches!(f.kind, FailureKind::Counterexample { .. }))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The verdict's word in JSON.
fn verdict_word(report: &Report) -> &'static str {
    match report.verdict {
        Verdict::Proved => "proved",
        Verdict::Failed if counterexample(report).is_some() => "counterexample",
        Verdict::Failed => "fails",
        Verdict::Inconclusive if abstracted_only(report) => "abstracted",
        Verdict::Inconclusive => "inconclusive",
    }
}

/// Whether the only paths left undecided were cut by abstract subsumption.
fn abstracted_only(report: &Report) -> bool {
    report.abstracted > 0
        && report.incomplete == 0
        && report.unexplored == 0
        && report.failures.is_empty()
}

/// The invariants k-induction assumed, as `i <= n (loop at 2:1)`.
fn invariants_text(report: &Report, shown: &Shown) -> Vec<String> {
    let Some(induction) = &report.induction else {
        return Vec::new();
    };
    induction
        .invariants
        .iter()
        .flat_map(|(id, clauses)| {
            let place = loop_name(shown.program, *id);
            clauses
                .iter()
                .map(move |clause| format!("{clause} ({place})"))
        })
        .collect()
}

pub fn text_report(report: &Report, shown: &Shown, out: &mut dyn Write) -> io::Result<()> {
    if shown.legacy {
        return legacy_text(report, shown, out);
    }
    let total = report.conditions.len();
    let proved = report
        .conditions
        .iter()
        .filter(|(_, s)| *s == Status::Proved)
        .count();
    match report.verdict {
        Verdict::Proved => {
            match total {
                0 => write!(out, "proved: no path reaches an error")?,
                _ => write!(
                    out,
                    "proved: {} {}",
                    plural(total, "verification condition", "verification conditions"),
                    if total == 1 { "holds" } else { "hold" }
                )?,
            }
            if let Some(induction) = &report.induction {
                write!(out, ", by {}-induction", induction.k)?;
                let invariants = invariants_text(report, shown);
                match invariants.len() {
                    0 => {}
                    1 => write!(out, " with the invariant {}", invariants[0])?,
                    _ => write!(out, " with the invariants {}", invariants.join(", "))?,
                }
            }
            writeln!(out)?;
        }
        Verdict::Failed => match counterexample(report) {
            Some(Failure {
                kind: FailureKind::Counterexample { inputs, .. },
                ..
            }) => writeln!(out, "counterexample: {}", ShowValuation(inputs))?,
            _ => {
                let failing = report
                    .conditions
                    .iter()
                    .filter(|(_, s)| *s == Status::Fails)
                    .count();
                writeln!(
                    out,
                    "fails: {failing} of {} {}",
                    plural(total, "verification condition", "verification conditions"),
                    if failing == 1 {
                        "does not hold"
                    } else {
                        "do not hold"
                    }
                )?;
            }
        },
        Verdict::Inconclusive => writeln!(
            out,
            "inconclusive: {proved} of {} proved",
            plural(total, "verification condition", "verification conditions")
        )?,
    }
    for (condition, status) in &report.conditions {
        writeln!(
            out,
            "  {:<11} {}",
            status_word(status),
            condition.describe(shown.program)
        )?;
    }
    for failure in &report.failures {
        failure_text(report, shown, failure, out)?;
    }
    if report.incomplete > 0 || report.unexplored > 0 {
        writeln!(
            out,
            "not every path was explored to its end: {} cut by a bound or undecided, {} configurations unexplored{}",
            report.incomplete, report.unexplored, stopped_text(report)
        )?;
    }
    Ok(())
}

/// What one failure shows.
fn failure_text(
    report: &Report,
    shown: &Shown,
    failure: &Failure,
    out: &mut dyn Write,
) -> io::Result<()> {
    let what = failure.condition.as_ref().map_or_else(
        || failure.status.to_string(),
        |c: &Condition| c.describe(shown.program),
    );
    match &failure.kind {
        FailureKind::Counterexample {
            inputs,
            error,
            check,
        } => {
            writeln!(out, "{what}: fails for the input {}", ShowValuation(inputs))?;
            if shown.language == Language::Oo {
                writeln!(out, "  as --heap: {}", heap_json(inputs))?;
            }
            writeln!(out, "  replay: {}", replay_command(shown, inputs))?;
            let failed = check.clone().unwrap_or_else(|| error.to_string());
            writeln!(
                out,
                "  confirmed: run with --check-annotations, the program fails at {failed}"
            )?;
        }
        FailureKind::FromCutPoint {
            cut_point,
            at_cut_point,
            at_failure,
        } => {
            writeln!(out, "{what}: does not hold")?;
            writeln!(
                out,
                "  from {} (the assertion there holds; the state may be unreachable): {}",
                cut_point.describe(shown.program),
                ShowValuation(at_cut_point)
            )?;
            writeln!(out, "  fails at: {}", ShowValuation(at_failure))?;
        }
        FailureKind::FromEntry {
            at_entry,
            at_failure,
        } => {
            writeln!(out, "{what}: does not hold")?;
            writeln!(
                out,
                "  from the entry state (`requires` holds; no call may reach it): {}",
                ShowValuation(at_entry)
            )?;
            writeln!(out, "  fails at: {}", ShowValuation(at_failure))?;
        }
        FailureKind::InductionStep {
            at_cut_point,
            at_failure,
        } => {
            writeln!(out, "{what}: not k-inductive")?;
            writeln!(
                out,
                "  from an arbitrary state at the loop head: {}",
                ShowValuation(at_cut_point)
            )?;
            writeln!(out, "  fails at: {}", ShowValuation(at_failure))?;
        }
        FailureKind::Undecided(why) => writeln!(out, "{what}: undecided: {why}")?,
    }
    writeln!(
        out,
        "  path {}: φ = {}",
        failure.path,
        shown.condition(report, failure)
    )?;
    let trace: Vec<String> = failure.trace.iter().map(ToString::to_string).collect();
    writeln!(out, "  trace: {}", trace.join("; "))
}

/// `symex run FILE --check-annotations --input x=v …`, which replays the
/// counterexample `inputs` (an oo program's heap goes in a `--heap` file).
fn replay_command(shown: &Shown, inputs: &symex_semantics::eval::Valuation) -> String {
    let mut options = vec!["--check-annotations".to_string()];
    options.extend(shown.run_options.iter().cloned());
    if shown.language == Language::Oo {
        let none = symex_semantics::eval::Valuation::new();
        format!(
            "{} --heap H.json",
            shell::run_command(shown.file, &options, &none)
        )
    } else {
        shell::run_command(shown.file, &options, inputs)
    }
}

/// The report of a program without annotations: proved, one
/// counterexample, or inconclusive.
fn legacy_text(report: &Report, shown: &Shown, out: &mut dyn Write) -> io::Result<()> {
    let stats = &report.stats;
    match (report.verdict, counterexample(report)) {
        (Verdict::Proved, _) => {
            writeln!(
                out,
                "proved: every assertion holds on every path ({}, {} assertion checks proved)",
                plural(stats.paths, "path", "paths"),
                report.proved_checks
            )?;
            match stats.subsumption {
                Some(m) => writeln!(
                    out,
                    "  the tree is closed by exact subsumption: {} checks, {} subsumed, {} stored",
                    m.checks, m.subsumed, m.stored
                ),
                None => Ok(()),
            }
        }
        (_, None) if abstracted_only(report) => {
            let m = stats.subsumption.unwrap_or_default();
            writeln!(
                out,
                "no error found in the abstracted state space ({} abstraction): not a proof",
                m.abstraction
            )?;
            writeln!(
                out,
                "  {} checks, {} subsumed, {} stored; {} cut by abstract subsumption",
                m.checks,
                m.subsumed,
                m.stored,
                plural(report.abstracted, "path", "paths")
            )
        }
        (_, Some(failure)) => {
            let FailureKind::Counterexample { inputs, .. } = &failure.kind else {
                return Ok(());
            };
            writeln!(out, "counterexample: {}", ShowValuation(inputs))?;
            if shown.language == Language::Oo {
                writeln!(out, "  as --heap: {}", heap_json(inputs))?;
            }
            write!(out, "  path {} ends in {}", failure.path, ending(failure))?;
            match shown.failing_at {
                Some((line, column)) => writeln!(out, " at {line}:{column}")?,
                None => writeln!(out)?,
            }
            writeln!(out, "  φ = {}", shown.condition(report, failure))?;
            let trace: Vec<String> = failure.trace.iter().map(ToString::to_string).collect();
            writeln!(out, "  trace: {}", trace.join("; "))?;
            writeln!(out, "  confirmed by the concrete semantics")
        }
        _ => {
            writeln!(
                out,
                "inconclusive: no counterexample found, but not every path was explored to its end"
            )?;
            for failure in &report.failures {
                if let FailureKind::Undecided(why) = &failure.kind {
                    writeln!(
                        out,
                        "  path {} ({}) could not be confirmed concretely: {why}",
                        failure.path,
                        ending(failure)
                    )?;
                }
            }
            writeln!(
                out,
                "  {} bounded, {} unknown, {} configurations unexplored{}",
                stats.bounded,
                stats.unknown,
                report.unexplored,
                stopped_text(report)
            )
        }
    }
}

/// The limit that stopped the exploration, as ` (time limit reached)`.
fn stopped_text(report: &Report) -> String {
    report
        .stopped
        .map_or_else(String::new, |limit| format!(" ({limit})"))
}

/// How a failed path ends: its error, or `unknown`.
fn ending(failure: &Failure) -> String {
    match failure.status.error() {
        Some(error) => error.to_string(),
        None => failure.status.name().to_string(),
    }
}

/// The first counterexample as JSON, as `verify` always printed it.
fn counterexample_json(report: &Report, shown: &Shown) -> Json {
    let Some(failure) = counterexample(report) else {
        return Json::Null;
    };
    let FailureKind::Counterexample { inputs, .. } = &failure.kind else {
        return Json::Null;
    };
    let trace: Vec<String> = failure.trace.iter().map(ToString::to_string).collect();
    json!({
        "path": failure.path,
        "error": ending(failure),
        "inputs": inputs_json(inputs, shown.language),
        "path_condition": shown.condition(report, failure).to_string(),
        "trace": trace,
        "confirmed": true,
    })
}

fn failure_json(report: &Report, shown: &Shown, failure: &Failure) -> Json {
    let (kind, details) = match &failure.kind {
        FailureKind::Counterexample {
            inputs,
            error,
            check,
        } => (
            "counterexample",
            json!({
                "inputs": inputs_json(inputs, shown.language),
                "error": error.to_string(),
                "check": check,
            }),
        ),
        FailureKind::FromCutPoint {
            cut_point,
            at_cut_point,
            at_failure,
        } => (
            "from-cut-point",
            json!({
                "cut_point": cut_point.describe(shown.program),
                "at_cut_point": valuation_json(at_cut_point),
                "at_failure": valuation_json(at_failure),
                "possibly_unreachable": true,
            }),
        ),
        FailureKind::FromEntry {
            at_entry,
            at_failure,
        } => (
            "from-entry",
            json!({
                "at_entry": valuation_json(at_entry),
                "at_failure": valuation_json(at_failure),
                "possibly_unreachable": true,
            }),
        ),
        FailureKind::InductionStep {
            at_cut_point,
            at_failure,
        } => (
            "induction-step",
            json!({
                "at_cut_point": valuation_json(at_cut_point),
                "at_failure": valuation_json(at_failure),
            }),
        ),
        FailureKind::Undecided(why) => ("undecided", json!({ "why": why })),
    };
    let trace: Vec<String> = failure.trace.iter().map(ToString::to_string).collect();
    json!({
        "condition": failure.condition.as_ref().map(|c| c.describe(shown.program)),
        "ends_in": ending(failure),
        "kind": kind,
        "details": details,
        "path": failure.path,
        "path_condition": shown.condition(report, failure).to_string(),
        "trace": trace,
    })
}

pub fn json_report(report: &Report, shown: &Shown) -> Json {
    let mut json = json!({
        "program": shown.file,
        "verdict": verdict_word(report),
        "assertions_proved": report.proved_checks,
        "counterexample": counterexample_json(report, shown),
        "stats": report.stats,
        "stopped": report.stopped,
    });
    if shown.legacy {
        return json;
    }
    let conditions: Vec<Json> = report
        .conditions
        .iter()
        .map(|(condition, status)| {
            json!({
                "condition": condition.describe(shown.program),
                "unit": condition.unit.to_string(),
                "status": status_word(status).to_lowercase(),
            })
        })
        .collect();
    json["conditions"] = Json::Array(conditions);
    json["failures"] = report
        .failures
        .iter()
        .map(|failure| failure_json(report, shown, failure))
        .collect();
    if let Some(induction) = &report.induction {
        json["induction"] = json!({
            "k": induction.k,
            "invariants": invariants_text(report, shown),
        });
    }
    json
}
