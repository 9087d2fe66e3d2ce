//! `symex verify FILE`: every `assert` proved on every path — an infeasible
//! `assert (fails)` successor means `φ → ψσ` is valid on that path — or a
//! counterexample input, confirmed by running it concretely.

use super::language::with_semantics;
use super::tests::{ExploreAndReplay, Replayed};
use super::{CliError, Common, Exit, Format};
use crate::report::values::{heap_json, inputs_json};
use serde_json::{json, Value as Json};
use std::io::Write;
use symex_semantics::eval::ShowValuation;
use symex_semantics::program::Language;
use symex_semantics::system::Rule;

pub fn command(common: &Common, out: &mut dyn Write) -> Result<Exit, CliError> {
    let mut session = common.session("verify", &[Format::Text, Format::Json])?;
    let program = session.loaded.program.clone();
    let visitor = ExploreAndReplay {
        inputs: &program.globals,
        options: &session.explore,
        first_error_only: true,
    };
    let progress = crate::stop::progress::show();
    let Replayed { tree, tests } =
        with_semantics(program.clone(), session.choice, session.semantics, visitor)?;
    drop(progress);
    // Stopped in time: the report is written whole, however long that takes.
    drop(session.backstop.take());
    let stopped = tree.unexplored.first().map(|u| u.reason);
    let proved = tree
        .pruned
        .iter()
        .filter(|pruned| pruned.rule == Rule::AssertFails)
        .count();
    let stats = &tree.stats;
    let cut = stats.bounded + stats.unknown + tree.unexplored.len();
    let (verdict, exit) = match tests.first() {
        Some((_, test)) if test.mismatch.is_none() => ("counterexample", Exit::Failed),
        _ if stats.errors > 0 || cut > 0 => ("inconclusive", Exit::Inconclusive),
        _ => ("proved", Exit::Done),
    };
    let inputs = program.inputs();
    let counterexample = tests.first().map(|(path, test)| {
        let node = tree.paths[*path];
        let leaf = tree.leaf(node);
        let trace: Vec<String> = tree
            .trace_to(node)
            .iter()
            .map(|entry| entry.to_string())
            .collect();
        // Shown like a model: the program's inputs only (the run replayed them with the rest at their defaults).
        let shown = test.inputs.clone().retain(|x| inputs.contains_key(x));
        (
            path,
            test,
            shown,
            leaf.map(|leaf| leaf.path_condition.to_string())
                .unwrap_or_default(),
            trace,
        )
    });
    match common.format {
        Format::Json => {
            let counterexample = counterexample.as_ref().map(|(path, test, shown, condition, trace)| {
                json!({
                    "path": path,
                    "error": test.expected_outcome.to_string(),
                    "inputs": inputs_json(shown, session.choice.language),
                    "path_condition": condition,
                    "trace": trace,
                    "confirmed": test.mismatch.is_none(),
                })
            });
            let report = json!({
                "program": session.loaded.path,
                "verdict": verdict,
                "assertions_proved": proved,
                "counterexample": counterexample.unwrap_or(Json::Null),
                "stopped": stopped,
                "stats": stats,
            });
            writeln!(out, "{report:#}")?;
        }
        _ => match verdict {
            "proved" => writeln!(
                out,
                "proved: every assertion holds on every path ({} path{}, {proved} assertion checks proved)",
                stats.paths,
                if stats.paths == 1 { "" } else { "s" }
            )?,
            "counterexample" => {
                if let Some((path, test, shown, condition, trace)) = &counterexample {
                    writeln!(out, "counterexample: {}", ShowValuation(shown))?;
                    if session.choice.language == Language::Oo {
                        writeln!(out, "  as --heap: {}", heap_json(shown))?;
                    }
                    writeln!(out, "  path {path} ends in {}", test.expected_outcome)?;
                    writeln!(out, "  φ = {condition}")?;
                    writeln!(out, "  trace: {}", trace.join("; "))?;
                    writeln!(out, "  confirmed by the concrete semantics")?;
                }
            }
            _ => {
                writeln!(out, "inconclusive: no counterexample found, but not every path was explored to its end")?;
                if let Some((path, test, _, _, _)) = &counterexample {
                    writeln!(
                        out,
                        "  path {path} ({}) could not be confirmed concretely: {}",
                        test.expected_outcome,
                        test.mismatch.as_deref().unwrap_or_default()
                    )?;
                }
                let stopped = stopped.map_or(String::new(), |limit| format!(" ({limit})"));
                writeln!(
                    out,
                    "  {} bounded, {} unknown, {} configurations unexplored{stopped}",
                    stats.bounded,
                    stats.unknown,
                    tree.unexplored.len()
                )?;
            }
        },
    }
    Ok(exit)
}
