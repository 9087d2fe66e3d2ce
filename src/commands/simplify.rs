//! `symex simplify EXPR [--explain]`: a student types an expression and
//! sees it simplified (free variables typed from their use, as a program's
//! inputs are); `--explain` prints the rewrites that justify the result.

use super::{CliError, Exit};
use crate::report::diagnostic;
use crate::simplify::{explain, Simplification};
use clap::Args;
use std::io::Write;
use symex_semantics::program::Stmt;
use symex_semantics::syntax::{parse_program, Diagnostic};
use symex_semantics::term::Term;

#[derive(Clone, Debug, Args)]
pub struct SimplifyArgs {
    /// The expression, in the syntax of programs (`x > 0 && x > 5`, `a[i] + 1`).
    pub expr: String,
    /// Print each rewrite (rule and resulting term) from the expression to the result.
    #[arg(long)]
    pub explain: bool,
}

/// Prints the simplified expression (and its explanation).
pub fn command(args: &SimplifyArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let term = parse_expression(&args.expr)?;
    let Simplification {
        term: simplified,
        stop,
        steps,
    } = explain(&term);
    if args.explain {
        writeln!(out, "{term}")?;
        for step in steps.unwrap_or_default() {
            writeln!(out, "  = {}    [{}]", step.term, step.rule)?;
        }
        writeln!(out, "result: {simplified}")?;
        writeln!(out, "stopped: {stop}")?;
    } else {
        writeln!(out, "{simplified}")?;
    }
    Ok(Exit::Done)
}

/// `source` as a term, its free variables typed as a program's inputs
/// would be: it is parsed as the right side of an assignment to a fresh
/// variable, on a line of its own so positions in errors are its own.
pub fn parse_expression(source: &str) -> Result<Term, CliError> {
    let mut target = String::from("simplified");
    while source.contains(&target) {
        target.push('_');
    }
    let prefix = format!("{target} :=\n");
    let program = parse_program(&format!("{prefix}{source}")).map_err(|d| {
        let d = shifted(d, prefix.len());
        CliError::new(diagnostic::render(
            &d,
            "<expression>",
            source,
            diagnostic::colour_allowed(),
        ))
    })?;
    match &program.main[..] {
        [Stmt::Assign(_, term)] => Ok(term.clone()),
        _ => Err(CliError::new(format!(
            "<expression>: `{source}` is not one expression"
        ))),
    }
}

/// A diagnostic about the wrapped source, moved to the expression's own
/// positions (the wrapper's line ends at byte `offset`).
fn shifted(d: Diagnostic, offset: usize) -> Diagnostic {
    let back = |span: std::ops::Range<usize>| {
        span.start.saturating_sub(offset)..span.end.saturating_sub(offset)
    };
    Diagnostic {
        message: d.message,
        span: back(d.span),
        line: d.line.saturating_sub(1).max(1),
        column: d.column,
        notes: d
            .notes
            .into_iter()
            .map(|(note, span)| (note, back(span)))
            .collect(),
    }
}
