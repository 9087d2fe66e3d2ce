//! `symex compare` as text (per path, or one line per family member) and CSV.

use super::agreement::{Agreement, Witness};
use super::figures::PathFigures;
use super::{Comparison, MethodSummary};
use crate::report::concolic::quoted;
use std::io::{self, Write};
use symex_semantics::eval::ShowValuation;
use symex_semantics::value::Value;

/// Per program: a line per path with both methods side by side, then totals.
pub fn write_paths(out: &mut dyn Write, comparisons: &[Comparison]) -> io::Result<()> {
    for comparison in comparisons {
        writeln!(out, "{} ({})", comparison.program, comparison.language)?;
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
            if let Agreement::Differ(witness) = &row.agreement {
                write_witness(out, comparison, &row.key, witness)?;
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
    if comparison.language == "oo" {
        writeln!(out, "    as --heap: {}", witness.inputs)?;
    }
    if comparison.size.is_none() {
        writeln!(out, "    replay: {}", replay_command(comparison, witness))?;
    }
    Ok(())
}

/// `symex run FILE --trace --input x=v …`: the run takes the path exactly
/// when the method whose condition holds is right (an oo program's inputs
/// go in a `--heap` file).
fn replay_command(comparison: &Comparison, witness: &Witness) -> String {
    let mut words = vec![
        "symex".to_string(),
        "run".to_string(),
        quoted(&comparison.program),
        "--trace".to_string(),
    ];
    words.extend(comparison.run_options.iter().map(|o| quoted(o)));
    if comparison.language == "oo" {
        words.push("--heap H.json".to_string());
    } else {
        for (x, value) in witness.valuation.iter() {
            if !matches!(value, Value::Object(_) | Value::Nil) {
                words.push(format!("--input {}", quoted(&format!("{x}={value}"))));
            }
        }
    }
    words.join(" ")
}

/// One line per program (a family member): the totals of each method.
pub fn write_summary(out: &mut dyn Write, comparisons: &[Comparison]) -> io::Result<()> {
    writeln!(
        out,
        "{:<18} {:<8} {:>6} {:>10} {:>8} {:>10} {:>11} {:>10} {:>10} {:>6}",
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
        return writeln!(out, "{name:<18} {:<8} not available: {why}", s.method);
    }
    writeln!(
        out,
        "{name:<18} {:<8} {:>6} {:>10} {:>8} {:>10} {:>11} {:>10.1} {:>10.1} {:>6}",
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
