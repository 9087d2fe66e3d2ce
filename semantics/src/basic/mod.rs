//! §2 and §2.1: the basic language with arrays, as a symbolic transition
//! system `⟨S, σ, φ⟩` ([`symbolic`]) and a concrete one `⟨S, V⟩`
//! ([`concrete`]), written side by side, rule for rule.

pub mod concrete;
pub mod symbolic;

use crate::program::Program;

/// The basic semantics runs programs without procedures or classes.
fn check_basic(program: &Program) -> Result<(), String> {
    match program.procedures.keys().next() {
        None => Ok(()),
        Some(p) => Err(format!(
            "the basic semantics has no procedures, but the program declares `{p}`: use --lang recursive"
        )),
    }
}
