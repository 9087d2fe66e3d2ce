//! `symex desugar FILE`: the program of the paper's core syntax that every
//! other command runs, after the surface language (functions with results,
//! locals, `break`/`continue`/`return`, `for`, `nondet()`) is compiled away
//! by `symex_semantics::syntax` (docs/surface.md). The output parses back
//! to the same program.

use super::{load, CliError, Exit, IntArg};
use clap::Args;
use std::io::Write;

#[derive(Clone, Debug, Args)]
pub struct DesugarArgs {
    /// The program (`-` for standard input).
    pub file: String,
    /// What `int` means: mathematical integers, or C's signed machine integers with overflow as an error.
    #[arg(long = "int", value_enum, default_value_t = IntArg::Math, value_name = "INT")]
    pub int: IntArg,
}

pub fn command(args: &DesugarArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let loaded = load(&args.file, args.int)?;
    write!(out, "{}", loaded.program)?;
    Ok(Exit::Done)
}
