//! The front end of SPEC §1: source text to a checked core [`Program`].
//!
//! [`lexer`] → [`parser`] (surface [`ast`] with spans) → [`desugar`] (the
//! surface language compiled into the core syntax) → [`check`]
//! (well-formedness and type inference, [`types`]) → [`lower`]. Every
//! rejection is one [`Diagnostic`] with a line, a column and a clear message.

mod ast;
mod check;
mod desugar;
mod diagnostic;
mod lexer;
mod lower;
mod parser;
mod types;

#[cfg(test)]
mod annotation_tests;
#[cfg(test)]
mod desugar_tests;
#[cfg(test)]
mod error_tests;
#[cfg(test)]
mod lower_tests;
#[cfg(test)]
mod tests;

pub use diagnostic::{Diagnostic, LineIndex, Span};
pub use lower::Positions;
pub use parser::MAX_DEPTH;

use crate::machine::Integers;
use crate::program::Program;

/// Parses and checks a program of any of the three languages.
pub fn parse_program(source: &str) -> Result<Program, Diagnostic> {
    parse_located(source).map(|(program, _)| program)
}

/// [`parse_program`], with where each of its statements starts.
pub fn parse_located(source: &str) -> Result<(Program, Positions), Diagnostic> {
    parse_with(source, Integers::Mathematical)
}

/// [`parse_located`] with `int` meaning `integers` (`--int i32`).
pub fn parse_with(source: &str, integers: Integers) -> Result<(Program, Positions), Diagnostic> {
    let lines = LineIndex::new(source);
    let program = desugar::desugar(parser::parse(source, &lines)?, source, &lines)?;
    let typing = check::check(&program, &lines)?;
    lower::lower(&program, &typing, &lines, integers)
}
