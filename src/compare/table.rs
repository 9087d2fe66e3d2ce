//! `symex compare` as text (per path, or one line per family member) and CSV.

use super::agreement::{Agreement, Unmatched, Witness};
use super::figures::PathFigures;
use super::{Comparison, MethodSummary};
use crate::report::shell;
use serde_json::Value as Json;
use std::io::{self, Write};
use symex_semantics::eval::{ShowValuation, Valuation};

/// Per program: a line per path with both methods side by side, then totals.
pub fn write_paths(out: &mut dyn Write, comparisons: &[&Comparison]) -> io::Result<()> {
    for comparison in comparisons {
        write!(out, "{} ({})", comparison.program, comparison.language)?;
        if !comparison.from_snap.is_empty() {
            write!(
                out,
                ", from its // snap: line: {}",
                comparison.from_snap.join(" ")
            )?;
        }
        writeln!(out)?;
        for summary in [&comparison.forward, &comparison.wp] {
            if let Some(why) = &summary.unavailable {
                writeln!(out, "  {} not available: {why}", summary.method)?;
            }
        }
        writeln!(
            out,
            "  {:<30} {:>21} {:>21} {:>13} {:>13} {:>9}",
            "path (choices status)",
            "DAG raw→simp fwd|wp",
            "chars raw fwd|wp",
            "build ms",
            "Z3 ms",
            "agree"
        )?;
        for row in &comparison.paths {
            let pair = |pick: &dyn Fn(&PathFigures) -> String| {
                let side = |figures: &Option<PathFigures>| {
                    figures.as_ref().map_or_else(|| "-".to_string(), pick)
                };
                format!("{}|{}", side(&row.forward), side(&row.wp))
            };
            writeln!(
                out,
                "  {:<30} {:>21} {:>21} {:>13} {:>13} {:>9}",
                row.key,
                pair(&|f| format!("{}→{}", f.raw.dag, f.simplified.dag)),
                pair(&|f| f.raw.printed.to_string()),
                pair(&|f| format!("{:.1}", f.build_ms)),
                pair(&|f| format!("{:.1}", f.decide_ms)),
                row.agreement.word()
            )?;
        }
        for row in &comparison.paths {
            match &row.agreement {
                Agreement::Differ(witness) => write_witness(out, comparison, &row.key, witness)?,
                Agreement::OnlyIn(only) => write_unmatched(out, comparison, &row.key, only)?,
                _ => {}
            }
        }
        if comparison.runs > 1 {
            for summary in [&comparison.forward, &comparison.wp] {
                write_timings(out, summary, comparison.runs)?;
            }
        }
        writeln!(
            out,
            "  {} paths; {} equivalent, {} disagree",
            comparison.paths.len(),
            comparison.agreements(),
            comparison.disagreements()
        )?;
        if let Some(limit) = comparison.stopped {
            writeln!(
                out,
                "  stopped: {limit}; the paths above are those compared before"
            )?;
        }
    }
    Ok(())
}

/// Where the two conditions of the path `key` differ, and how to replay it.
fn write_witness(
    out: &mut dyn Write,
    comparison: &Comparison,
    key: &str,
    witness: &Witness,
) -> io::Result<()> {
    let other = if witness.holds == "forward" {
        "wp"
    } else {
        "forward"
    };
    writeln!(
        out,
        "  {key}: the conditions differ at {}: {}'s holds, {other}'s does not",
        ShowValuation(&witness.valuation),
        witness.holds
    )?;
    write_replay(out, comparison, &witness.valuation, &witness.inputs)
}

/// The path `key` only one method found, and inputs that reach it by its condition.
fn write_unmatched(
    out: &mut dyn Write,
    comparison: &Comparison,
    key: &str,
    only: &Unmatched,
) -> io::Result<()> {
    let Some(valuation) = &only.valuation else {
        return writeln!(
            out,
            "  {key}: only {} finds this path; Z3 gave no inputs for its condition",
            only.method
        );
    };
    writeln!(
        out,
        "  {key}: only {} finds this path; its condition holds at {}",
        only.method,
        ShowValuation(valuation)
    )?;
    write_replay(out, comparison, valuation, &only.inputs)
}

/// `symex run FILE --trace --input x=v …` on `valuation`: the run takes the
/// path exactly when the method whose condition holds there is right (an
/// oo program's inputs go in a `--heap` file, `inputs`). A family member
/// has no file to run: its inputs are shown only.
fn write_replay(
    out: &mut dyn Write,
    comparison: &Comparison,
    valuation: &Valuation,
    inputs: &Json,
) -> io::Result<()> {
    let oo = comparison.language == "oo";
    if oo {
        writeln!(out, "    as --heap: {inputs}")?;
    }
    if comparison.size.is_some() {
        return Ok(());
    }
    let mut options = vec!["--trace".to_string()];
    options.extend(comparison.run_options.iter().cloned());
    let command = if oo {
        let none = Valuation::new();
        format!(
            "{} --heap H.json",
            shell::run_command(&comparison.program, &options, &none)
        )
    } else {
        shell::run_command(&comparison.program, &options, valuation)
    };
    writeln!(out, "    replay: {command}")
}

/// A method's timings over the runs: medians, and their range.
fn write_timings(out: &mut dyn Write, summary: &MethodSummary, runs: usize) -> io::Result<()> {
    if summary.unavailable.is_some() {
        return Ok(());
    }
    let spread = &summary.spread;
    writeln!(
        out,
        "  {}: exploration {} ms, Z3 {} ms (median of {runs} runs, min–max)",
        summary.method,
        spread_text(&spread.explore_ms),
        spread_text(&spread.decide_ms_total)
    )
}

/// `12.3 (11.0–14.2)`: a median and its range.
fn spread_text(spread: &super::repeat::Spread) -> String {
    format!("{:.1} ({:.1}–{:.1})", spread.median, spread.min, spread.max)
}

/// One line per program (a family member): the totals of each method,
/// with `--repeat` the medians and the range of the build time.
pub fn write_summary(out: &mut dyn Write, comparisons: &[&Comparison]) -> io::Result<()> {
    let repeated = comparisons.iter().any(|c| c.runs > 1);
    write!(
        out,
        "{:<18} {:<8} {:>6} {:>10} {:>8} {:>10} {:>11} {:>10} {:>10} {:>7}",
        "program",
        "method",
        "paths",
        "DAG total",
        "DAG max",
        "simp DAG",
        "chars",
        "build ms",
        "Z3 ms",
        "agree"
    )?;
    if repeated {
        write!(out, " {:>16}", "build min–max")?;
    }
    writeln!(out)?;
    for comparison in comparisons {
        let name = match comparison.size {
            Some(n) => format!("{}({n})", comparison.program),
            None => comparison.program.clone(),
        };
        let compared =
            comparison.forward.unavailable.is_none() && comparison.wp.unavailable.is_none();
        let agree = if compared {
            format!("{}/{}", comparison.agreements(), comparison.paths.len())
        } else {
            "-".to_string()
        };
        for summary in [&comparison.forward, &comparison.wp] {
            write_summary_line(out, &name, summary, &agree)?;
            let range = &summary.spread.explore_ms;
            if repeated && summary.unavailable.is_none() {
                write!(out, " {:>16}", format!("{:.1}–{:.1}", range.min, range.max))?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}

fn write_summary_line(
    out: &mut dyn Write,
    name: &str,
    s: &MethodSummary,
    agree: &str,
) -> io::Result<()> {
    if let Some(why) = &s.unavailable {
        return write!(out, "{name:<18} {:<8} not available: {why}", s.method);
    }
    write!(
        out,
        "{name:<18} {:<8} {:>6} {:>10} {:>8} {:>10} {:>11} {:>10.1} {:>10.1} {:>7}",
        s.method,
        s.paths,
        s.dag_total,
        s.dag_max,
        s.simplified_dag_total,
        s.printed_total,
        s.explore_ms,
        s.decide_ms_total,
        agree
    )
}

/// One CSV record per path and method.
pub fn write_csv(out: &mut dyn Write, comparisons: &[Comparison]) -> io::Result<()> {
    writeln!(out, "program,size,path,status,method,dag_raw,dag_simplified,printed_raw,printed_simplified,build_ms,decide_ms,answer,agreement")?;
    for comparison in comparisons {
        let size = comparison.size.map_or_else(String::new, |n| n.to_string());
        for row in &comparison.paths {
            for (method, figures) in [("forward", &row.forward), ("wp", &row.wp)] {
                let Some(f) = figures else { continue };
                writeln!(
                    out,
                    "{},{size},{},{},{method},{},{},{},{},{:.3},{:.3},{},{}",
                    csv_field(&comparison.program),
                    csv_field(&row.key),
                    csv_field(&row.status),
                    f.raw.dag,
                    f.simplified.dag,
                    f.raw.printed,
                    f.simplified.printed,
                    f.build_ms,
                    f.decide_ms,
                    f.answer,
                    row.agreement.word()
                )?;
            }
        }
    }
    Ok(())
}

/// `text` quoted where CSV needs it.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
